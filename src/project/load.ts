// Loads a project folder into validator input: manifest bytes and the runtime/ listing.
// Every file is opened once with the safe opener (src/fs/read-capped.ts, D-30): no link
// is followed, no FIFO or device waited on, nothing whose size already breaks a limit is
// read (a sparse file of many gigabytes is listed with its size), and the bytes come
// through the descriptor that was checked. Every other project file (outside
// node_modules/ and .git/) is scanned for private-key material in bounded chunks (D-4).
import { closeSync, lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import {
  BUNDLE_MAX_EXPANDED_BYTES,
  BUNDLE_MAX_FILE_BYTES,
  MANIFEST_MAX_BYTES,
} from '../validator/limits.js';
import type { BundleEntry } from '../validator/bundle.js';
import { scanFileForKeyMarker, type KeyScanMiss } from '../release/key-scan.js';
import { launchScanWorker, PARALLEL_SCAN_MIN_BYTES, scanWithWorker, type ScanWorker } from '../release/parallel-scan.js';
import { bundleFilePaths, hasContentScan, type ContentScan, type ProjectInput } from '../validator/validate.js';
import { UsageError } from '../usage-error.js';
import { openFile, readFile, readInto } from '../fs/read-capped.js';
import { pausePoint } from '../fs/test-pause.js';

export interface KeyHit {
  /** Project-relative path. */
  readonly file: string;
  readonly marker: string;
}

export interface LoadedProject {
  readonly input: ProjectInput;
  /** Private-key material found outside runtime/ (runtime/ files are scanned by the validator). */
  readonly keyHits: readonly KeyHit[];
  /** Files outside runtime/ the key scan could not read (D-30: warnings, never a silent skip). */
  readonly keyMisses: readonly KeyScanMiss[];
}

export interface LoadOptions {
  /**
   * Scan large stylesheets and modules on a worker thread as well as this one while
   * loading (src/release/parallel-scan.ts), leaving the scans in `input.scans`: for `check`.
   * Off by default: `package` already compresses on a worker while it checks.
   */
  readonly parallelScan?: boolean;
}

/** Folders never scanned for keys: dependencies, and git's compressed object store. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/**
 * Reads at most `limit` bytes of an open file (fewer if the file is shorter): into a Buffer,
 * a plain Uint8Array, or one over shared memory (a scan worker then reads it in place).
 */
function readUpTo(fd: number, limit: number, into: 'buffer' | 'plain' | 'shared' = 'buffer'): Uint8Array {
  const buffer = into === 'shared' ? new Uint8Array(new SharedArrayBuffer(limit)) : into === 'plain' ? new Uint8Array(limit) : Buffer.allocUnsafe(limit);
  const filled = readInto(fd, buffer);
  return filled === limit ? buffer : buffer.subarray(0, filled);
}

/** The manifest's bytes (null when missing), or why a manifest that is there was not read (D-30). */
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

/** Stylesheets and modules read so far, and the worker launched once they were enough to share. */
interface ParallelState {
  textBytes: number;
  worker: ScanWorker | null;
}

/**
 * Lists runtime/ depth-first in byte order of names, reading contents within limits. With
 * `parallel`, stylesheets and modules are read into shared memory, and a scan worker is
 * launched as soon as they reach PARALLEL_SCAN_MIN_BYTES (it starts while the rest is read).
 */
function loadRuntime(runtimeDir: string, parallel: ParallelState | null): BundleEntry[] {
  const entries: BundleEntry[] = [];
  let retained = 0;
  const stack: { abs: string; rel: string }[] = [{ abs: runtimeDir, rel: '' }];
  while (stack.length > 0) {
    const { abs, rel } = stack.pop()!;
    const children = readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    pausePoint('runtime-listed');
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
      // Listed as a file, opened once with the safe opener: what is read is what was
      // checked to be a regular file, even if a link or a FIFO took its name meanwhile.
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
        // Content is read only while it can still matter: a file over the one-file limit,
        // or past the expanded-size budget, is reported by size without being read.
        if (size <= BUNDLE_MAX_FILE_BYTES && retained + size <= BUNDLE_MAX_EXPANDED_BYTES) {
          // With a worker in view every file is a plain Uint8Array (stylesheets and modules
          // over shared memory): one kind of array for the scanners, which V8 then
          // compiles for one shape instead of deoptimising at the second.
          const scanned = parallel !== null && hasContentScan(childRel);
          const content = readUpTo(fd, size, scanned ? 'shared' : parallel !== null ? 'plain' : 'buffer');
          retained += content.length;
          if (scanned) {
            parallel.textBytes += content.length;
            if (parallel.worker === null && parallel.textBytes >= PARALLEL_SCAN_MIN_BYTES) parallel.worker = launchScanWorker();
          }
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
      // A link is never followed (its target is not a file of the project); a FIFO, device
      // or socket is opened without waiting and reported as not scanned.
      if (child.isSymbolicLink()) continue;
      const scan = scanFileForKeyMarker(join(abs, child.name));
      if (scan.marker !== null) hits.push({ file: childRel, marker: scan.marker });
      if (scan.miss !== null) misses.push({ file: childRel, reason: scan.miss });
    }
  }
  const byFile = (a: { file: string }, b: { file: string }) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  return { hits: hits.sort(byFile), misses: misses.sort(byFile) };
}

/** The content scans of `files`, made on this thread and the launched worker. */
function scanInParallel(worker: ScanWorker, files: readonly BundleEntry[]): Map<string, ContentScan> {
  const withContent = files.flatMap((e) => (e.kind === 'file' && e.content !== undefined ? [{ path: e.path, content: e.content }] : []));
  return scanWithWorker(worker, withContent, bundleFilePaths(files));
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

export function loadProject(root: string, options: LoadOptions = {}): LoadedProject {
  checkProjectRoot(root);
  const { bytes: manifest, refused } = readManifest(root);
  const manifestRefused = refused === undefined ? {} : { manifestRefused: refused };
  const parallel: ParallelState | null = options.parallelScan === true ? { textBytes: 0, worker: null } : null;
  let files: BundleEntry[] | null = null;
  try {
    const runtimeStat = lstatSync(join(root, 'runtime'));
    if (runtimeStat.isDirectory()) files = loadRuntime(join(root, 'runtime'), parallel);
  } catch {
    files = null;
  }
  const { hits: keyHits, misses: keyMisses } = scanProjectForKeys(root);
  if (parallel?.worker != null) {
    if (files === null) {
      parallel.worker.dispose();
    } else {
      return { input: { manifest, ...manifestRefused, files, scans: scanInParallel(parallel.worker, files) }, keyHits, keyMisses };
    }
  }
  return { input: { manifest, ...manifestRefused, files }, keyHits, keyMisses };
}
