// Reading a file whose size is bounded by the contract, without trusting what is there.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Opens `path` for reading, never through a symbolic link (O_NOFOLLOW: a link named like
 * an expected file is not followed); null when it cannot be opened. The caller closes the
 * descriptor.
 */
export function openNoFollow(path: string): number | null {
  try {
    return openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return null;
  }
}

/** As openNoFollow, and only when the file is a regular file; null otherwise. */
export function openRegularFile(path: string): number | null {
  const fd = openNoFollow(path);
  if (fd === null) return null;
  try {
    if (fstatSync(fd).isFile()) return fd;
  } catch {
    // fall through: not readable as a file
  }
  closeSync(fd);
  return null;
}

/** Fills `bytes` from the start of the open file `fd` until it is full or the file ends; returns how many bytes were read. */
export function readInto(fd: number, bytes: Uint8Array): number {
  let filled = 0;
  while (filled < bytes.length) {
    const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
    if (n === 0) break;
    filled += n;
  }
  return filled;
}

/**
 * Up to `cap + 1` bytes of a regular file (one byte more than allowed tells the caller the
 * file is too large, without reading the rest); null when it is missing, not a regular
 * file, or unreadable.
 */
export function readCapped(path: string, cap: number): Uint8Array | null {
  const fd = openRegularFile(path);
  if (fd === null) return null;
  try {
    const buffer = Buffer.allocUnsafe(cap + 1);
    const filled = readInto(fd, buffer);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
