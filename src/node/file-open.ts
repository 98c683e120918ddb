// The one way the tool opens a file it was handed (D-30): a project file, a release file,
// a manifest. No-follow (a link named like an expected file is refused, not followed),
// non-blocking (a FIFO opens at once instead of waiting for a writer), `fstat` on the
// open descriptor (regular files only), the size checked against a cap before any byte is
// read, and the bytes read through that same descriptor: nothing is looked up by path twice.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Why a path could not be read as a file. */
export type FileProblem = 'missing' | 'symlink' | 'directory' | 'special' | 'too-large' | 'unreadable';

/** An open regular file (the caller closes `fd`), or why there is none. */
export type OpenedFile =
  | { readonly ok: true; readonly fd: number; readonly size: number }
  | { readonly ok: false; readonly problem: FileProblem; readonly size?: number; readonly code?: string };

/** A regular file's bytes, or why they were not read. */
export type ReadFile =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly problem: FileProblem; readonly size?: number; readonly code?: string };

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Opens `path` with no-follow and non-blocking flags and checks the descriptor: a regular
 * file of at most `cap` bytes (when given) is returned open; anything else is closed and
 * described. Never waits on a FIFO or device, never reads a byte.
 */
export function openFile(path: string, cap?: number): OpenedFile {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'missing', code };
    // O_NOFOLLOW on a link fails with ELOOP (EMLINK on some BSDs); a socket cannot be opened (ENXIO).
    if (code === 'ELOOP' || code === 'EMLINK') return { ok: false, problem: 'symlink', code };
    if (code === 'ENXIO' || code === 'EOPNOTSUPP') return { ok: false, problem: 'special', code };
    if (code === 'EISDIR') return { ok: false, problem: 'directory', code };
    return { ok: false, problem: 'unreadable', ...(code !== undefined && { code }) };
  }
  let problem: FileProblem | null = null;
  let size = 0;
  try {
    const stats = fstatSync(fd);
    size = stats.size;
    if (stats.isDirectory()) problem = 'directory';
    else if (!stats.isFile()) problem = 'special';
    else if (cap !== undefined && size > cap) problem = 'too-large';
  } catch (error) {
    problem = 'unreadable';
    closeSync(fd);
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, problem, ...(code !== undefined && { code }) };
  }
  if (problem === null) return { ok: true, fd, size };
  closeSync(fd);
  return problem === 'too-large' ? { ok: false, problem, size } : { ok: false, problem };
}

/** Opens `path` as openFile does, without a cap; null when it is not an openable regular file. The caller closes the descriptor. */
export function openRegularFile(path: string): number | null {
  const opened = openFile(path);
  return opened.ok ? opened.fd : null;
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
 * The bytes of a regular file of at most `cap` bytes, read through the descriptor that
 * was checked. A file that grows past `cap` between the check and the read is cut at
 * `cap + 1` bytes, which the caller's size rule then reports.
 */
export function readFile(path: string, cap: number): ReadFile {
  const opened = openFile(path, cap);
  if (!opened.ok) return opened;
  try {
    const buffer = Buffer.allocUnsafe(Math.min(opened.size, cap) + 1);
    const filled = readInto(opened.fd, buffer);
    return { ok: true, bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, filled) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, problem: 'unreadable', ...(code !== undefined && { code }) };
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Up to `cap + 1` bytes of a regular file (one byte more than allowed tells the caller the
 * file is too large); null when it is missing, not a regular file, or unreadable. A file
 * whose size on the descriptor is already over the cap is not read: its answer is `cap + 1`
 * zero bytes, which says "too large" to every size rule without touching the file.
 */
export function readCapped(path: string, cap: number): Uint8Array | null {
  const read = readFile(path, cap);
  if (read.ok) return read.bytes;
  return read.problem === 'too-large' ? new Uint8Array(cap + 1) : null;
}

/** The first `count` bytes (fewer if the file is shorter) of a regular file; null when it is not an openable regular file. */
export function readHead(path: string, count: number): Uint8Array | null {
  const opened = openFile(path);
  if (!opened.ok) return null;
  try {
    const buffer = Buffer.allocUnsafe(count);
    const filled = readInto(opened.fd, buffer);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
  } catch {
    return null;
  } finally {
    closeSync(opened.fd);
  }
}
