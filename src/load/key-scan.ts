// D-4 for files the validator does not read: chunks with an overlap, so a marker split across two is
// found. Opened with the D-30 opener; an unread file is a secret/not-scanned warning, never a silent skip.
import { closeSync, readSync } from 'node:fs';
import { openFile } from '../node/file-open.js';
import { FindingList, findPrivateKeyMarker, groupDigits, KEY_SCAN_MAX_BYTES, PRIVATE_KEY_MARKER_MAX_LENGTH, sortFindings, type Finding } from '../validator/internal.js';

const CHUNK = 1 << 20;
let shared: Buffer | undefined;

export type KeyScanMissReason = 'special' | 'too-large' | 'unreadable';

export interface KeyScanMiss {
  readonly file: string;
  readonly reason: KeyScanMissReason;
}

// A link or folder is no miss: a link is never followed and names no content; callers walk folders.
export function scanFileForKeyMarker(path: string): { marker: string | null; miss: KeyScanMissReason | null } {
  const opened = openFile(path, KEY_SCAN_MAX_BYTES);
  if (!opened.ok) {
    const miss = opened.problem === 'missing' || opened.problem === 'symlink' || opened.problem === 'directory' ? null : opened.problem;
    return { marker: null, miss };
  }
  const fd = opened.fd;
  shared ??= Buffer.allocUnsafe(CHUNK);
  const buffer = shared;
  const overlap = PRIVATE_KEY_MARKER_MAX_LENGTH - 1;
  try {
    let carry = 0;
    let position = 0;
    // Never past the size checked on the descriptor (plus one chunk for a file still growing).
    while (position <= opened.size) {
      const n = readSync(fd, buffer, carry, CHUNK - carry, position);
      if (n === 0) break;
      position += n;
      const end = carry + n;
      const marker = findPrivateKeyMarker(buffer.subarray(0, end));
      if (marker !== null) return { marker, miss: null };
      const keep = Math.min(overlap, end);
      buffer.copyWithin(0, end - keep, end);
      carry = keep;
    }
    return { marker: null, miss: null };
  } catch {
    return { marker: null, miss: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}

const MISS_TEXT: Readonly<Record<KeyScanMissReason, string>> = {
  special: 'is a FIFO, device or socket',
  'too-large': `is larger than ${groupDigits(KEY_SCAN_MAX_BYTES)} bytes`,
  unreadable: 'cannot be opened or read (permissions)',
};

export function withKeyHits(
  findings: readonly Finding[],
  keyHits: readonly { readonly file: string; readonly marker: string }[],
  keyMisses: readonly KeyScanMiss[] = [],
): Finding[] {
  if (keyHits.length === 0 && keyMisses.length === 0) return [...findings];
  const extra = new FindingList();
  for (const hit of keyHits) extra.add('secret/private-key', `"${hit.file}" contains "${hit.marker}"`, { file: hit.file });
  for (const miss of keyMisses) extra.add('secret/not-scanned', `"${miss.file}" ${MISS_TEXT[miss.reason]}: it was not scanned for private-key material`, { file: miss.file });
  return sortFindings(findings.concat(extra.items));
}
