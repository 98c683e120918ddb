// D-4 for files the validator does not read itself: stream a file in 1 MiB chunks,
// keeping an overlap so that a marker split across two chunks is still found. Memory is
// one chunk whatever the file size. Node built-ins, src/fs and the validator only (used by
// platform-review as well as by check and package).
import { closeSync, readSync } from 'node:fs';
import { openNoFollow } from '../fs/read-capped.js';
import { FindingList, findPrivateKeyMarker, PRIVATE_KEY_MARKER_MAX_LENGTH, sortFindings, type Finding } from '../validator/index.js';

const CHUNK = 1 << 20;
let shared: Buffer | undefined;

/** The private-key marker in the file at `path`, or null (also when it cannot be opened). Never follows a symbolic link. */
export function scanFileForKeyMarker(path: string): string | null {
  // The callers list regular files; no fstat again here (this runs for every project file).
  const fd = openNoFollow(path);
  if (fd === null) return null;
  shared ??= Buffer.allocUnsafe(CHUNK);
  const buffer = shared;
  const overlap = PRIVATE_KEY_MARKER_MAX_LENGTH - 1;
  try {
    let carry = 0;
    let position = 0;
    for (;;) {
      const n = readSync(fd, buffer, carry, CHUNK - carry, position);
      if (n === 0) return null;
      position += n;
      const end = carry + n;
      const marker = findPrivateKeyMarker(buffer.subarray(0, end));
      if (marker !== null) return marker;
      const keep = Math.min(overlap, end);
      buffer.copyWithin(0, end - keep, end);
      carry = keep;
    }
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * `findings` with one secret/private-key finding (D-4) for each marker found in a file the
 * validator did not read itself, in finding order; the same list when there is none.
 */
export function withKeyHits(findings: readonly Finding[], keyHits: readonly { readonly file: string; readonly marker: string }[]): Finding[] {
  if (keyHits.length === 0) return [...findings];
  const extra = new FindingList();
  for (const hit of keyHits) extra.add('secret/private-key', `"${hit.file}" contains "${hit.marker}"`, { file: hit.file });
  return sortFindings(findings.concat(extra.items));
}
