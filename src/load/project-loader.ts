// Loads a project folder into validator input, each file opened once with the D-30 safe opener
// (nothing over a limit is read); other project files get the D-4 key scan.
import { closeSync, lstatSync, readdirSync, type Dirent } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  BUNDLE_MAX_EXPANDED_BYTES,
  BUNDLE_MAX_FILE_BYTES,
  MANIFEST_MAX_BYTES,
  type BundleEntry,
  type ProjectInput,
} from '../validator/internal.js';
import { scanFileForKeyMarker, type KeyScanMiss } from './key-scan.js';
import { UsageError } from '../node/usage-error.js';
import { openFile, readFile, readInto } from '../node/file-open.js';

export interface KeyHit {
  readonly file: string;
  readonly marker: string;
}

export interface LoadedProject {
  readonly input: ProjectInput;
  /** Outside runtime/ (the validator scans runtime/). */
  readonly keyHits: readonly KeyHit[];
  readonly keyMisses: readonly KeyScanMiss[];
}

export interface LoadOptions {
  /** Shared memory for `package` and `check`, which a compression worker reads too. */
  readonly allocate?: (size: number) => Uint8Array;
  /** A seam for tests that change a folder between its listing and its reading. */
  readonly onListed?: (folder: string) => void;
}

// Never scanned for keys: dependencies, and git's compressed object store.
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

function readUpTo(fd: number, limit: number, allocate: (size: number) => Uint8Array): Uint8Array {
  const buffer = allocate(limit);
  const filled = readInto(fd, buffer);
  return filled === limit ? buffer : buffer.subarray(0, filled);
}

function readManifest(root: string): { bytes: Uint8Array | null; refused?: NonNullable<ProjectInput['manifestRefused']> } {
  const path = join(root, 'manifest.json');
  const read = readFile(path, MANIFEST_MAX_BYTES);
  if (read.ok) return { bytes: read.bytes };
  if (read.problem === 'missing') return { bytes: null };
  if (read.problem === 'unreadable') throw new UsageError(`Cannot read ${path}: ${read.code ?? 'unreadable'}`);
  return { bytes: null, refused: read.problem === 'too-large' ? { reason: 'too-large', size: read.size ?? 0 } : { reason: read.problem } };
}

function entryKind(dirent: Dirent): 'dir' | 'file' | 'symlink' | 'other' {
  if (dirent.isSymbolicLink()) return 'symlink';
  if (dirent.isDirectory()) return 'dir';
  if (dirent.isFile()) return 'file';
  return 'other';
}

function loadRuntime(runtimeDir: string, options: LoadOptions): BundleEntry[] {
  const allocate = options.allocate ?? ((size: number) => Buffer.allocUnsafe(size));
  const entries: BundleEntry[] = [];
  let retained = 0;
  const stack: { abs: string; rel: string }[] = [{ abs: runtimeDir, rel: '' }];
  while (stack.length > 0) {
    const { abs, rel } = stack.pop()!;
    const children = readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    options.onListed?.(abs);
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
        } catch { /* Gone or unreadable: the kind alone decides the finding. */ }
        entries.push({ path: childRel, kind, size });
        continue;
      }
      // What is read is what was checked, even if a link or FIFO took its name meanwhile.
      const opened = openFile(childAbs);
      if (!opened.ok) {
        if (opened.problem === 'missing') continue;
        if (opened.problem === 'symlink') entries.push({ path: childRel, kind: 'symlink', size: 0 });
        else if (opened.problem === 'special' || opened.problem === 'directory') entries.push({ path: childRel, kind: 'other', size: 0 });
        else entries.push({ path: childRel, kind: 'file', size: 0, unreadable: true });
        continue;
      }
      const fd = opened.fd;
      try {
        const size = opened.size;
        // Over the one-file limit or the expanded-size budget: reported by size, not read.
        if (size <= BUNDLE_MAX_FILE_BYTES && retained + size <= BUNDLE_MAX_EXPANDED_BYTES) {
          const content = readUpTo(fd, size, allocate);
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

function scanProjectForKeys(root: string): { hits: KeyHit[]; misses: KeyScanMiss[] } {
  const hits: KeyHit[] = [];
  const misses: KeyScanMiss[] = [];
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
      // A link's target is not a file of the project.
      if (child.isSymbolicLink()) continue;
      const scan = scanFileForKeyMarker(join(abs, child.name));
      if (scan.marker !== null) hits.push({ file: childRel, marker: scan.marker });
      if (scan.miss !== null) misses.push({ file: childRel, reason: scan.miss });
    }
  }
  const byFile = (a: { file: string }, b: { file: string }) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  return { hits: hits.sort(byFile), misses: misses.sort(byFile) };
}

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
  // runtime/ given as the project: one message naming the parent, not "no manifest.json" and "no runtime/".
  const absolute = resolve(root);
  if (basename(absolute) === 'runtime' && !isEntry(join(root, 'manifest.json')) && !isEntry(join(root, 'runtime')) && isEntry(join(dirname(absolute), 'manifest.json'))) {
    const where = root === '.' || root === './' ? 'the parent folder (cd .. first)' : `"${dirname(root)}"`;
    throw new UsageError(`"${root}" is the runtime/ folder of a project, not a project: run the command on the project folder, ${where}, which holds manifest.json and runtime/`);
  }
}

function isEntry(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

export function loadProject(root: string, options: LoadOptions = {}): LoadedProject {
  checkProjectRoot(root);
  const { bytes: manifest, refused } = readManifest(root);
  const manifestRefused = refused === undefined ? {} : { manifestRefused: refused };
  let files: BundleEntry[] | null = null;
  try {
    const runtimeStat = lstatSync(join(root, 'runtime'));
    if (runtimeStat.isDirectory()) files = loadRuntime(join(root, 'runtime'), options);
  } catch {
    files = null;
  }
  const { hits: keyHits, misses: keyMisses } = scanProjectForKeys(root);
  return { input: { manifest, ...manifestRefused, files }, keyHits, keyMisses };
}
