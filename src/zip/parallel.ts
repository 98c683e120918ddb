// Compressing a bundle's entries on two threads: the main thread and one worker (this
// machine and CI have two cores). compressEntry is a pure function of each content, so
// which thread compresses which entry changes nothing: assembleZip over these results is
// byte-for-byte writeZip's archive (D-15; test/zip-write.test.mjs compares both paths).
//
// `package` launches the worker before it reads the project (a worker takes 50-100 ms to
// start, which then overlaps the reading), hands it the list of files before the check,
// and the worker compresses while the main thread validates. The main thread then takes
// its share of what is left and collects the worker's results. Its side is synchronous,
// as `package` is: results are read with receiveMessageOnPort, with Atomics.wait between
// them. Work is claimed through one shared counter, largest entries first, so that the
// two threads finish close together.
//
// The worker reads each file it claims from disk itself (into one reused buffer) rather
// than receiving a copy of every content: the main thread's copy, the one that was
// checked, is the only one held for the whole run (a shared copy cost 20 MB of peak memory
// on a 20 MiB bundle). A file whose size on disk is not the one read is left to the main
// thread; otherwise the main thread uses the worker's result only when the CRC-32 of the
// bytes the worker compressed is that of its own bytes (node:zlib's CRC, a few GB/s). A file
// edited during the run is thus compressed again from the checked bytes, unless the edit
// kept both its size and its CRC-32: a 1 in 2^32 chance for an edit made during the very
// second `package` runs, and even then the archive is consistent (its CRC is of its data).
//
// The worker runs the CLI bundle itself (src/cli.ts calls runCompressionWorker when it
// finds itself started with this module's workerData), so dist stays one file.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { MessagePort, Worker } from 'node:worker_threads';
import { nodeWorkerThreads } from '../builtins.js';
import { crc32Fast } from '../release/node-deps.js';
import { ZIP_METHOD_STORED } from './format.js';
import { compressEntry, type CompressedEntry, type ZipFileInput } from './write.js';

/** workerData.role of a compression worker. */
const WORKER_ROLE = 'platform-ext-deflate';
/** Slots of the shared counters. */
const NEXT = 0; // the next position in the claim order
const DONE = 1; // results the worker has posted
const FAILED = 2; // 1 once the worker gave up (it then claims nothing more)
const COUNTER_SLOTS = 3;
/**
 * How long the main thread waits for the worker's next result before compressing the
 * missing entries itself. One entry is at most 5 MiB (BUNDLE_MAX_FILE_BYTES) and deflates
 * in about a second on a slow machine: only a worker that died without a word (killed, out
 * of memory) ever reaches this.
 */
const WORKER_STALL_MS = 20_000;
/** How long one Atomics.wait lasts before the main thread looks at the worker's state again. */
const WAIT_SLICE_MS = 100;

/** What the worker is started with. */
interface WorkerInput {
  readonly role: typeof WORKER_ROLE;
  readonly port: MessagePort;
  /** [NEXT, DONE, FAILED] over a SharedArrayBuffer. */
  readonly counters: Int32Array;
}

/** The one message the worker receives: its work. */
interface WorkerWork {
  /** The folder the paths are relative to (the project's runtime/). */
  readonly root: string;
  readonly paths: readonly string[];
  /** The sizes the main thread read: a file of another size on disk is not compressed. */
  readonly sizes: readonly number[];
  /** Entry indexes in claim order. */
  readonly order: Int32Array;
}

/**
 * A result message; the deflated bytes travel (transferred), a stored entry's do not.
 * Without `method` the file was not as listed on disk, and the main thread compresses it.
 */
interface WorkerResult {
  readonly index: number;
  readonly method?: number;
  readonly crc32?: number;
  readonly data?: Uint8Array;
}

let workerScript: string | URL | null = null;

/** Where a compression worker starts: the CLI entry (src/cli.ts sets it). */
export function setCompressionWorkerScript(script: string | URL): void {
  workerScript = script;
}

/** Whether this thread was started as a compression worker. */
export function isCompressionWorker(): boolean {
  // Checked at every start-up: process.argv (the worker gets WORKER_ROLE appended) says it
  // without loading node:worker_threads; workerData then confirms.
  if (!process.argv.includes(WORKER_ROLE)) return false;
  const { isMainThread, workerData } = nodeWorkerThreads();
  return !isMainThread && (workerData as { role?: unknown } | null)?.role === WORKER_ROLE;
}

/** A compression worker launched ahead of its work. */
export interface CompressionWorker {
  /** Stops the worker without giving it work (the bundle turned out too small to share). */
  dispose(): void;
}

interface LaunchedWorker extends CompressionWorker {
  readonly port: MessagePort;
  readonly counters: Int32Array;
}

/** Compressions in progress; `finish` returns them all, keyed by path. */
export interface ParallelCompression {
  /** Compresses what the worker has not claimed, waits for the rest, and returns every entry. */
  finish(): Map<string, CompressedEntry>;
  /** Stops the worker: its results are not needed (the check found errors). */
  cancel(): void;
  /** What the worker has done so far: results posted, and whether it gave up (for tests and benches). */
  progress(): { posted: number; failed: boolean };
}

/**
 * Starts a compression worker, which waits for startCompression to give it work; null when
 * no worker script is set (the caller then compresses on its own thread).
 */
export function launchCompressionWorker(): CompressionWorker | null {
  if (workerScript === null) return null;
  const counters = new Int32Array(new SharedArrayBuffer(COUNTER_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  const { MessageChannel, Worker } = nodeWorkerThreads();
  const channel = new MessageChannel();
  const input: WorkerInput = { role: WORKER_ROLE, port: channel.port2, counters };
  let worker: Worker | null;
  try {
    worker = new Worker(workerScript, { workerData: input, argv: [WORKER_ROLE], transferList: [channel.port2], stdout: true, stderr: true });
    // Never keep the process alive, and never let a worker's failure become an uncaught
    // 'error' event: the main thread finishes the work whatever happens to the worker.
    worker.unref();
    worker.on('error', () => undefined);
  } catch {
    worker = null;
    Atomics.store(counters, FAILED, 1);
  }
  const port = channel.port1;
  const launched: LaunchedWorker = {
    port,
    counters,
    dispose() {
      port.close();
      void worker?.terminate();
    },
  };
  return launched;
}

/**
 * Gives `files`, read from `root` (their paths are relative to it), to a launched worker
 * (one is launched now when none is given) and returns the compression in progress, or
 * null when there is no worker script.
 */
export function startCompression(
  files: readonly ZipFileInput[],
  root: string,
  launched: CompressionWorker | null = launchCompressionWorker(),
): ParallelCompression | null {
  if (launched === null) return null;
  const handle = launched as LaunchedWorker;
  const { port, counters } = handle;
  const count = files.length;
  const contents = files.map((f) => f.content);
  const paths = files.map((f) => f.path);
  const order = claimOrder(contents);
  port.postMessage({ root, paths, sizes: contents.map((c) => c.length), order } satisfies WorkerWork);

  function finish(): Map<string, CompressedEntry> {
    const results: (CompressedEntry | undefined)[] = new Array(count);
    // The main thread's share: whatever is still unclaimed.
    for (;;) {
      const k = Atomics.add(counters, NEXT, 1);
      if (k >= count) break;
      const index = order[k]!;
      results[index] = compressEntry(contents[index]!, crc32Fast);
    }
    let missing = 0;
    for (let index = 0; index < count; index++) if (results[index] === undefined) missing++;
    let received = 0;
    let lastProgress = Date.now();
    while (missing > 0) {
      const message = nodeWorkerThreads().receiveMessageOnPort(port) as { message: WorkerResult } | undefined;
      if (message !== undefined) {
        const result = message.message;
        const content = contents[result.index]!;
        if (results[result.index] === undefined) {
          // The worker compared sizes; the CRC-32 of the bytes it compressed must be that of ours.
          const same = result.crc32 !== undefined && result.crc32 === crc32Fast(content);
          // The worker's bytes, or (when the file on disk is not what was checked) ours.
          results[result.index] = same
            ? { method: result.method!, data: result.method === ZIP_METHOD_STORED ? content : result.data!, crc32: result.crc32! }
            : compressEntry(content, crc32Fast);
          missing--;
        }
        received++;
        lastProgress = Date.now();
        continue;
      }
      const posted = Atomics.load(counters, DONE);
      if (posted > received) continue; // counted just before its message could be read
      if (Atomics.load(counters, FAILED) === 1 || Date.now() - lastProgress > WORKER_STALL_MS) {
        // The worker gave up or went silent: compress what it owed here. Late results
        // from it would be the same bytes; they are simply not read.
        for (let index = 0; index < count; index++) {
          if (results[index] === undefined) results[index] = compressEntry(contents[index]!, crc32Fast);
        }
        break;
      }
      Atomics.wait(counters, DONE, posted, WAIT_SLICE_MS);
    }
    handle.dispose();
    const byPath = new Map<string, CompressedEntry>();
    for (let index = 0; index < count; index++) byPath.set(paths[index]!, results[index]!);
    return byPath;
  }

  function cancel(): void {
    // Claim everything that is left, so the worker stops after its current entry.
    Atomics.store(counters, NEXT, count);
    handle.dispose();
  }

  function progress(): { posted: number; failed: boolean } {
    return { posted: Atomics.load(counters, DONE), failed: Atomics.load(counters, FAILED) === 1 };
  }

  return { finish, cancel, progress };
}

/**
 * Entry indexes, largest content first (ties by index: any fixed order would do, the
 * output does not depend on it).
 */
function claimOrder(contents: readonly Uint8Array[]): Int32Array {
  return Int32Array.from({ length: contents.length }, (_, k) => k).sort((a, b) => contents[b]!.length - contents[a]!.length || a - b);
}

/** The worker's read buffer, reused from file to file (grown to the largest). */
let readScratch = new Uint8Array(0);

/**
 * The file at `path` if it is still a regular file of exactly `size` bytes (not through a
 * symbolic link), else null. The bytes are valid until the next call.
 */
function readListedFile(path: string, size: number): Uint8Array | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return null;
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    // One byte more than listed tells a file that has grown.
    if (readScratch.length < size + 1) readScratch = new Uint8Array(size + 1);
    const bytes = readScratch.subarray(0, size + 1);
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return filled === size ? bytes.subarray(0, size) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The worker's side: wait for the work (the thread's event loop is free meanwhile), then
 * claim, read, compress and post until the claims run out, and end. Every failure is
 * reported through FAILED, so that the main thread takes over at once. When the main
 * thread closes its end first (no work after all, or cancelled), the thread ends.
 */
export function runCompressionWorker(): void {
  const { port, counters } = nodeWorkerThreads().workerData as WorkerInput;
  port.once('message', (work: WorkerWork) => {
    try {
      const { root, paths, sizes, order } = work;
      for (;;) {
        const k = Atomics.add(counters, NEXT, 1);
        if (k >= order.length) break;
        const index = order[k]!;
        const content = readListedFile(join(root, paths[index]!), sizes[index]!);
        if (content === null) {
          port.postMessage({ index } satisfies WorkerResult);
        } else {
          const entry = compressEntry(content, crc32Fast);
          if (entry.method === ZIP_METHOD_STORED) {
            port.postMessage({ index, method: entry.method, crc32: entry.crc32 } satisfies WorkerResult);
          } else {
            // deflateRaw's output is a fresh, exactly sized buffer: it moves to the main thread.
            port.postMessage({ index, method: entry.method, crc32: entry.crc32, data: entry.data } satisfies WorkerResult, [entry.data.buffer as ArrayBuffer]);
          }
        }
        Atomics.add(counters, DONE, 1);
        Atomics.notify(counters, DONE);
      }
    } catch {
      Atomics.store(counters, FAILED, 1);
      Atomics.notify(counters, DONE);
    } finally {
      port.close();
    }
  });
}
