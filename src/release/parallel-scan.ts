// Scanning a bundle's stylesheets and modules on two threads: this one and a worker. Each
// file's content scan is a pure function of its bytes and the listing (scanBundleFile), so
// which thread scans which file changes nothing: validateProject takes the scans from
// ProjectInput.scans and puts each file's findings where its own scan would have put them
// (test/validator-parallel-scan.test.mjs compares both paths, and the CLI's reports).
//
// Only where it pays: at least PARALLEL_SCAN_MIN_BYTES of stylesheets and modules, and two
// idle cores besides this thread's (coresToSpare). The worker's start and its own warm-up
// (V8 optimises the scanners again in every thread) cost about half of what it takes off
// this thread, so on a two-core machine, or a busy one, one thread is as fast or faster.
//
// `check` launches the worker while it reads the project, once the stylesheets and
// modules read so far pass the threshold (a worker takes 30 to 50 ms to start, which then
// overlaps the reading); `verify` and `platform-review` launch it before they inflate a
// large archive. Work is claimed through one shared counter, largest file first, so both
// threads finish close together; the main thread's side is synchronous, like the commands:
// results are read with receiveMessageOnPort, with Atomics.wait between them. A worker
// that fails leaves its files to the main thread.
//
// The file contents are shared, not copied, when they already sit in SharedArrayBuffers
// (check reads them there); otherwise they are copied once into one.
//
// The worker runs the CLI (or platform-review) itself: src/cli.ts and src/review.ts call
// runScanWorker when they find themselves started with this module's workerData, so dist
// stays one file per command. Node built-ins and the validator's index only (platform-review).
import { createRequire } from 'node:module';
import type * as Os from 'node:os';
import type { MessagePort, Worker } from 'node:worker_threads';
import { isWorkerWithRole, nodeWorkerThreads } from '../builtins.js';
import { bundleViewOf, hasContentScan, scanBundleFile, warmUpContentScans, type ContentScan } from '../validator/index.js';

/** workerData.role of a scan worker, also appended to its argv (lowercase letters only: the launcher then keeps a code cache for it). */
const WORKER_ROLE = 'scanworker';
/** Slots of the shared counters. */
const NEXT = 0; // the next position in the claim order
const DONE = 1; // results the worker has posted
const FAILED = 2; // 1 once the worker gave up (it then claims nothing more)
const COUNTER_SLOTS = 3;
/**
 * Below this many bytes of stylesheets and modules one thread is faster: the worker's start
 * and its own warm-up cost about what scanning 2 to 3 MiB does.
 */
export const PARALLEL_SCAN_MIN_BYTES = 4 * 1024 * 1024;
/** How long the main thread waits for the worker's next result before scanning its files itself (a hang guard: one file scans in well under a second). */
const WORKER_STALL_MS = 20_000;
/** How long one Atomics.wait lasts before the main thread looks at the worker's state again. */
const WAIT_SLICE_MS = 100;

interface WorkerInput {
  readonly role: typeof WORKER_ROLE;
  readonly port: MessagePort;
  /** [NEXT, DONE, FAILED] over a SharedArrayBuffer. */
  readonly counters: Int32Array;
}

/** The one message the worker receives: its work. */
interface WorkerWork {
  /** The listing's file paths, in listing order (bundleFilePaths). */
  readonly paths: readonly string[];
  /** The files to scan; each content is a view on a SharedArrayBuffer. */
  readonly files: readonly ScanFile[];
  /** File indexes in claim order. */
  readonly order: Int32Array;
}

/** A result message; without `scan` the worker could not scan the file and the main thread does. */
interface WorkerResult {
  readonly index: number;
  readonly scan?: ContentScan;
}

export interface ScanFile {
  /** Bundle path. */
  readonly path: string;
  readonly content: Uint8Array;
}

let workerScript: string | URL | null = null;

/** Where a scan worker starts: the running command's entry (src/cli.ts and src/review.ts set it). */
export function setScanWorkerScript(script: string | URL): void {
  workerScript = script;
}

/** Whether this thread was started as a scan worker. */
export function isScanWorker(): boolean {
  return isWorkerWithRole(WORKER_ROLE);
}

/** A scan worker launched ahead of its work. */
export interface ScanWorker {
  /** Stops the worker without giving it work (there turned out to be too little to share). */
  dispose(): void;
}

interface LaunchedScanWorker extends ScanWorker {
  readonly port: MessagePort;
  readonly counters: Int32Array;
}

/**
 * Whether a worker can run beside this thread now: two idle cores besides this thread's,
 * one for the worker and one for V8's compiler threads, which warm the scanners up again
 * for the worker (optimised code is per thread). Measured on a busy two-core machine
 * (bench/verify.mjs, per-thread CPU): the worker took 25% of the main thread's time off and
 * spent half of it again on its own start and warm-up, so with fewer idle cores it only
 * competes. PLATFORM_EXT_SCAN_WORKER=1 always uses it, =0 never (tests, comparisons).
 */
function coresToSpare(): boolean {
  const forced = process.env['PLATFORM_EXT_SCAN_WORKER'];
  if (forced === '1') return true;
  if (forced === '0') return false;
  const os = createRequire(import.meta.url)('node:os') as typeof Os;
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return cores >= 3 && os.loadavg()[0]! <= cores - 2;
}

/**
 * Starts a scan worker, which waits for scanWithWorker to give it work; null when no worker
 * script is set (a library caller), when no cores are to spare (coresToSpare), or when it
 * cannot start.
 */
export function launchScanWorker(): ScanWorker | null {
  if (workerScript === null || !coresToSpare()) return null;
  const counters = new Int32Array(new SharedArrayBuffer(COUNTER_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  const { MessageChannel, Worker } = nodeWorkerThreads();
  const channel = new MessageChannel();
  const input: WorkerInput = { role: WORKER_ROLE, port: channel.port2, counters };
  let worker: Worker;
  try {
    worker = new Worker(workerScript, { workerData: input, argv: [WORKER_ROLE], transferList: [channel.port2], stdout: true, stderr: true });
  } catch {
    channel.port1.close();
    return null;
  }
  // Never keep the process alive, and never let a worker's failure become an uncaught
  // 'error' event: the main thread scans whatever the worker leaves.
  worker.unref();
  worker.on('error', () => Atomics.store(counters, FAILED, 1));
  const port = channel.port1;
  const launched: LaunchedScanWorker = {
    port,
    counters,
    dispose() {
      port.close();
      void worker.terminate();
    },
  };
  return launched;
}

/** The bytes of stylesheets and modules among `files`: what decides whether a worker pays. */
export function contentScanBytes(files: readonly ScanFile[]): number {
  let total = 0;
  for (const f of files) if (hasContentScan(f.path)) total += f.content.length;
  return total;
}

/**
 * Scans the stylesheets and modules among `files` on this thread and the launched worker,
 * against the listing `paths` (bundleFilePaths, in listing order), and returns every scan
 * by path for ProjectInput.scans. The worker is disposed of at the end.
 */
export function scanWithWorker(launched: ScanWorker, files: readonly ScanFile[], paths: readonly string[]): Map<string, ContentScan> {
  const handle = launched as LaunchedScanWorker;
  const { port, counters } = handle;
  const work = files.filter((f) => hasContentScan(f.path));
  const count = work.length;
  const order = Int32Array.from({ length: count }, (_, k) => k).sort((a, b) => work[b]!.content.length - work[a]!.content.length || a - b);
  const view = bundleViewOf(paths);
  const results: (ContentScan | undefined)[] = new Array(count);
  try {
    port.postMessage({ paths, files: shared(work), order } satisfies WorkerWork);
  } catch {
    // Nothing reached the worker: every file is scanned here.
    Atomics.store(counters, FAILED, 1);
  }
  const scanHere = (index: number): ContentScan => scanBundleFile(work[index]!.path, work[index]!.content, view);
  warmUpContentScans(work);
  // This thread's share: whatever is still unclaimed.
  for (;;) {
    const k = Atomics.add(counters, NEXT, 1);
    if (k >= count) break;
    results[order[k]!] = scanHere(order[k]!);
  }
  let missing = 0;
  for (let index = 0; index < count; index++) if (results[index] === undefined) missing++;
  let received = 0;
  let lastProgress = Date.now();
  const { receiveMessageOnPort } = nodeWorkerThreads();
  while (missing > 0) {
    const message = receiveMessageOnPort(port) as { message: WorkerResult } | undefined;
    if (message !== undefined) {
      const { index, scan } = message.message;
      if (results[index] === undefined) {
        results[index] = scan ?? scanHere(index);
        missing--;
      }
      received++;
      lastProgress = Date.now();
      continue;
    }
    const posted = Atomics.load(counters, DONE);
    if (posted > received) continue; // counted just before its message could be read
    if (Atomics.load(counters, FAILED) === 1 || Date.now() - lastProgress > WORKER_STALL_MS) {
      // The worker gave up or went silent: scan what it owed here. Late results would be
      // the same scans; they are simply not read.
      for (let index = 0; index < count; index++) results[index] ??= scanHere(index);
      break;
    }
    Atomics.wait(counters, DONE, posted, WAIT_SLICE_MS);
  }
  handle.dispose();
  const byPath = new Map<string, ContentScan>();
  for (let index = 0; index < count; index++) byPath.set(work[index]!.path, results[index]!);
  return byPath;
}

/** The files with their contents in shared memory: as they are when already shared, else copied into one SharedArrayBuffer. */
function shared(files: readonly ScanFile[]): ScanFile[] {
  let copied = 0;
  for (const f of files) if (!(f.content.buffer instanceof SharedArrayBuffer)) copied += f.content.length;
  const slab = new Uint8Array(new SharedArrayBuffer(copied));
  let at = 0;
  return files.map((f) => {
    if (f.content.buffer instanceof SharedArrayBuffer) return { path: f.path, content: f.content };
    slab.set(f.content, at);
    const content = slab.subarray(at, at + f.content.length);
    at += f.content.length;
    return { path: f.path, content };
  });
}

/**
 * The worker's side: wait for the work (the thread's event loop is free meanwhile), then
 * claim, scan and post until the claims run out, and end. Every failure is reported
 * through FAILED, so that the main thread takes over at once. When the main thread closes
 * its end first (no work after all), the thread ends.
 */
export function runScanWorker(): void {
  const { port, counters } = nodeWorkerThreads().workerData as WorkerInput;
  port.once('message', (work: WorkerWork) => {
    try {
      const view = bundleViewOf(work.paths);
      warmUpContentScans(work.files);
      for (;;) {
        const k = Atomics.add(counters, NEXT, 1);
        if (k >= work.order.length) break;
        const index = work.order[k]!;
        const file = work.files[index]!;
        let scan: ContentScan | undefined;
        try {
          scan = scanBundleFile(file.path, file.content, view);
        } catch {
          // A scanner bug: the main thread scans this file again and meets it there.
          scan = undefined;
        }
        port.postMessage(scan === undefined ? ({ index } satisfies WorkerResult) : ({ index, scan } satisfies WorkerResult));
        Atomics.add(counters, DONE, 1);
        Atomics.notify(counters, DONE);
      }
    } catch {
      Atomics.store(counters, FAILED, 1);
      Atomics.notify(counters, DONE);
    }
    port.close();
  });
}
