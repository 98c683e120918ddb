// D-4 for files the validator does not read itself: stream a file in 1 MiB chunks,
// keeping an overlap so that a marker split across two chunks is still found. Memory is
// one chunk whatever the file size. Node built-ins and the validator only (used by
// platform-review as well as by check and package).
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { findPrivateKeyMarker, PRIVATE_KEY_MARKER_MAX_LENGTH } from '../validator/index.js';

const CHUNK = 1 << 20;
let shared: Buffer | undefined;

/** The private-key marker in the file at `path`, or null (also when it cannot be opened). Never follows a symbolic link. */
export function scanFileForKeyMarker(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return null;
  }
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
