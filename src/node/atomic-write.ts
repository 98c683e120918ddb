// Every output appears whole or not at all (temp file in the same folder, fsync, rename or link); "create" never
// replaces a file, even one that appears meanwhile (link(2) fails with EEXIST).
import { nodeCrypto } from './builtins.js';
import { closeSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`);
}

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

export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  const temp = writeTemp(path, data, mode);
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

export function createFileExclusive(path: string, data: string | Uint8Array, mode = 0o644): void {
  const temp = writeTemp(path, data, mode);
  try {
    linkSync(temp, path);
  } finally {
    unlinkSync(temp);
  }
}

// No temp file: only inside our own staging folder, itself renamed into place whole (init); EEXIST, never replace.
export function writeNewFileInStaging(path: string, data: string | Uint8Array, mode = 0o644): void {
  const fd = openSync(path, 'wx', mode);
  try {
    writeAllAndSync(fd, data);
  } finally {
    closeSync(fd);
  }
}
