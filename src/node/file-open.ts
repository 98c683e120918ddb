// The one way a handed file is opened (D-30): no-follow (a link is refused), non-blocking (a FIFO never waits), fstat
// on the descriptor, the cap checked before any byte is read, bytes read through that descriptor: one path lookup.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type FileProblem = 'missing' | 'symlink' | 'directory' | 'special' | 'too-large' | 'unreadable';

/** An open regular file (the caller closes `fd`), or why there is none. */
export type OpenedFile =
  | { readonly ok: true; readonly fd: number; readonly size: number }
  | { readonly ok: false; readonly problem: FileProblem; readonly size?: number; readonly code?: string };

export type ReadFile =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly problem: FileProblem; readonly size?: number; readonly code?: string };

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A regular file of at most `cap` bytes is returned open; anything else is closed and described. Reads no byte. */
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

/** As openFile without a cap; null when not an openable regular file. The caller closes the descriptor. */
export function openRegularFile(path: string): number | null {
  const opened = openFile(path);
  return opened.ok ? opened.fd : null;
}

export function readInto(fd: number, bytes: Uint8Array): number {
  let filled = 0;
  while (filled < bytes.length) {
    const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
    if (n === 0) break;
    filled += n;
  }
  return filled;
}

// A file growing past `cap` after the check is cut at `cap + 1` bytes, which the caller's size rule reports.
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

// `cap + 1` bytes say "too large" (a file already over the cap answers `cap + 1` zeros, unread); null: unreadable.
export function readCapped(path: string, cap: number): Uint8Array | null {
  const read = readFile(path, cap);
  if (read.ok) return read.bytes;
  return read.problem === 'too-large' ? new Uint8Array(cap + 1) : null;
}

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
