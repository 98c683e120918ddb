// Loads a project folder into validator input: manifest bytes and the runtime/ listing.
// Reads nothing whose size already breaks a limit (a 1 GiB sparse file is listed with
// its size, never read), follows no symbolic link, and scans every other project file
// (outside node_modules/ and .git/) for private-key material in bounded chunks (D-4).
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import {
  BUNDLE_MAX_EXPANDED_BYTES,
  BUNDLE_MAX_FILE_BYTES,
  MANIFEST_MAX_BYTES,
} from '../validator/limits.js';
import type { BundleEntry } from '../validator/bundle.js';
import { scanFileForKeyMarker } from '../release/key-scan.js';
import type { ProjectInput } from '../validator/validate.js';
import { UsageError } from '../usage-error.js';
import { readInto } from '../fs/read-capped.js';

export interface KeyHit {
  /** Project-relative path. */
  readonly file: string;
  readonly marker: string;
}

export interface LoadedProject {
  readonly input: ProjectInput;
  /** Private-key material found outside runtime/ (runtime/ files are scanned by the validator). */
  readonly keyHits: readonly KeyHit[];
}

/** Folders never scanned for keys: dependencies, and git's compressed object store. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** Reads at most `limit` bytes of an open file (fewer if the file is shorter). */
function readUpTo(fd: number, limit: number): Uint8Array {
  const buffer = Buffer.allocUnsafe(limit);
  const filled = readInto(fd, buffer);
  return filled === limit ? buffer : buffer.subarray(0, filled);
}

function readManifest(root: string): Uint8Array | null {
  let fd: number;
  try {
    fd = openSync(join(root, 'manifest.json'), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UsageError(`Cannot read ${join(root, 'manifest.json')}: ${(error as Error).message}`);
  }
  try {
    // One byte over the limit is enough for the validator to report the size (D-5).
    return readUpTo(fd, MANIFEST_MAX_BYTES + 1);
  } finally {
    closeSync(fd);
  }
}

function entryKind(dirent: Dirent): 'dir' | 'file' | 'symlink' | 'other' {
  if (dirent.isSymbolicLink()) return 'symlink';
  if (dirent.isDirectory()) return 'dir';
  if (dirent.isFile()) return 'file';
  return 'other';
}

/** Lists runtime/ depth-first in byte order of names, reading contents within limits. */
function loadRuntime(runtimeDir: string): BundleEntry[] {
  const entries: BundleEntry[] = [];
  let retained = 0;
  const stack: { abs: string; rel: string }[] = [{ abs: runtimeDir, rel: '' }];
  while (stack.length > 0) {
    const { abs, rel } = stack.pop()!;
    const children = readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const child of children) {
      const childAbs = join(abs, child.name);
      const childRel = rel === '' ? child.name : `${rel}/${child.name}`;
      const kind = entryKind(child);
      if (kind === 'dir') {
        stack.push({ abs: childAbs, rel: childRel });
        continue;
      }
      if (kind !== 'file') {
        let size = 0;
        try {
          size = lstatSync(childAbs).size;
        } catch {
          // Gone or unreadable: the kind alone decides the finding.
        }
        entries.push({ path: childRel, kind, size });
        continue;
      }
      let fd: number;
      try {
        fd = openSync(childAbs, 'r');
      } catch {
        entries.push({ path: childRel, kind: 'file', size: 0, unreadable: true });
        continue;
      }
      try {
        const size = fstatSync(fd).size;
        // Content is read only while it can still matter: a file over the one-file limit,
        // or past the expanded-size budget, is reported by size without being read.
        if (size <= BUNDLE_MAX_FILE_BYTES && retained + size <= BUNDLE_MAX_EXPANDED_BYTES) {
          const content = readUpTo(fd, size);
          retained += content.length;
          entries.push({ path: childRel, kind: 'file', size: content.length, content });
        } else {
          entries.push({ path: childRel, kind: 'file', size });
        }
      } catch {
        entries.push({ path: childRel, kind: 'file', size: 0, unreadable: true });
      } finally {
        closeSync(fd);
      }
    }
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** D-4 for files outside runtime/ (runtime/ files are scanned by the validator). */
function scanProjectForKeys(root: string): KeyHit[] {
  const hits: KeyHit[] = [];
  const stack: { abs: string; rel: string }[] = [{ abs: root, rel: '' }];
  while (stack.length > 0) {
    const { abs, rel } = stack.pop()!;
    let children: Dirent[];
    try {
      children = readdirSync(abs, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const child of children) {
      const childRel = rel === '' ? child.name : `${rel}/${child.name}`;
      if (child.isDirectory()) {
        if (rel === '' && child.name === 'runtime') continue;
        if (!SKIPPED_FOLDERS.has(child.name)) stack.push({ abs: join(abs, child.name), rel: childRel });
        continue;
      }
      if (!child.isFile()) continue;
      const marker = scanFileForKeyMarker(join(abs, child.name));
      if (marker !== null) hits.push({ file: childRel, marker });
    }
  }
  return hits.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** Throws the usage error for a project folder that is missing or not a folder (a symlink is not one). */
export function checkProjectRoot(root: string): void {
  let stat;
  try {
    stat = lstatSync(root);
  } catch {
    throw new UsageError(`The project folder "${root}" does not exist: pass the folder that holds manifest.json and runtime/`);
  }
  if (!stat.isDirectory()) {
    throw new UsageError(`"${root}" is not a folder: pass the folder that holds manifest.json and runtime/`);
  }
}

export function loadProject(root: string): LoadedProject {
  checkProjectRoot(root);
  const manifest = readManifest(root);
  let files: BundleEntry[] | null = null;
  try {
    const runtimeStat = lstatSync(join(root, 'runtime'));
    if (runtimeStat.isDirectory()) files = loadRuntime(join(root, 'runtime'));
  } catch {
    files = null;
  }
  const keyHits = scanProjectForKeys(root);
  return { input: { manifest, files }, keyHits };
}
