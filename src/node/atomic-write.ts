// Writing without losing anything: every output appears whole or not at all (temp file
// in the same folder, fsync, then rename or link), and "create" never replaces a file
// that exists, even one that appears while we work (link(2) fails with EEXIST).
import { nodeCrypto } from './builtins.js';
import { closeSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`);
}

/** Writes all of `data` to the open file `fd` and flushes it to disk. */
function writeAllAndSync(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
  fsyncSync(fd);
}

function writeTemp(path: string, data: string | Uint8Array, mode: number): string {
  const temp = tempPathFor(path);
  const fd = openSync(temp, 'wx', mode);
  try {
    writeAllAndSync(fd, data);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  return temp;
}

/** Writes `path` atomically, replacing it if it exists. */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  const temp = writeTemp(path, data, mode);
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/** Creates `path` atomically; throws an EEXIST error (and writes nothing) when it exists. */
export function createFileExclusive(path: string, data: string | Uint8Array, mode = 0o644): void {
  const temp = writeTemp(path, data, mode);
  try {
    linkSync(temp, path);
  } finally {
    unlinkSync(temp);
  }
}

/**
 * Writes and flushes a new file directly (no temp file): only for a folder that is our own
 * temp folder, which is itself renamed into place whole (init, init --refresh). Throws
 * EEXIST rather than replace anything.
 */
export function writeNewFileInStaging(path: string, data: string | Uint8Array, mode = 0o644): void {
  const fd = openSync(path, 'wx', mode);
  try {
    writeAllAndSync(fd, data);
  } finally {
    closeSync(fd);
  }
}
