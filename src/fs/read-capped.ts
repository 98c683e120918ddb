// Reading a file whose size is bounded by the contract, without trusting what is there.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Up to `cap + 1` bytes of a regular file (one byte more than allowed tells the caller the
 * file is too large, without reading the rest); null when it is missing, not a regular
 * file, or unreadable. O_NOFOLLOW: a symbolic link named like an expected file is never
 * read through.
 */
export function readCapped(path: string, cap: number): Uint8Array | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return null;
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    const buffer = Buffer.allocUnsafe(cap + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
