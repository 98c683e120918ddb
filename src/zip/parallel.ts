// Compressing a bundle's entries on two threads: the main thread and one worker (this
// machine and CI have two cores). compressEntry is a pure function of each content, so
// which thread compresses which entry changes nothing: assembleZip over these results is
// byte-for-byte writeZip's archive (D-15; test/zip-write.test.mjs compares both paths).
//
// The protocol is synchronous on the main thread, because `package` is: the worker is
// started before the check and compresses while the main thread validates; the main
// thread then takes its share of what is left and collects the worker's results with
// receiveMessageOnPort, blocking in Atomics.wait between them. Work is claimed through one
// shared counter (largest entries first, so the two threads finish close together).
//
// The worker runs the CLI bundle itself (src/cli.ts calls runCompressionWorker when it
// finds itself started with this module's workerData), so dist stays one file.
import { MessageChannel, receiveMessageOnPort, Worker, isMainThread, workerData, type MessagePort } from 'node:worker_threads';
import { crc32Fast } from '../release/node-deps.js';
import { ZIP_METHOD_STORED } from './format.js';
import { compressEntry, type CompressedEntry, type ZipFileInput } from './write.js';

/** workerData.role of a compression worker. */
const WORKER_ROLE = 'platform-ext-deflate';
/** Slots of the shared counters. */
const NEXT = 0; // the next position in the claim order
const DONE = 1; // results the worker has posted
const FAILED = 2; // 1 once the worker gave up (it then claims nothing more)
/**
 * How long the main thread waits for the worker's next result before compressing the
 * missing entries itself. One entry is at most 5 MiB (BUNDLE_MAX_FILE_BYTES) and deflates
 * in about a second on a slow machine: only a worker that died without a word (killed, out
 * of memory) ever reaches this.
 */
const WORKER_STALL_MS = 20_000;

interface WorkerInput {
  readonly role: typeof WORKER_ROLE;
  readonly port: MessagePort;
  /** [NEXT, DONE, FAILED] over a SharedArrayBuffer. */
  readonly counters: Int32Array;
  /** Entry indexes in claim order. */
  readonly order: Int32Array;
  /** Every content, back to back in one SharedArrayBuffer, and where each one starts. */
  readonly contents: Uint8Array;
  readonly starts: Float64Array;
}

/** A result message: the deflated bytes travel (transferred), a stored entry's do not. */
interface WorkerResult {
  readonly index: number;
  readonly method: number;
  readonly crc32: number;
  readonly data?: Uint8Array;
}

let workerScript: string | URL | null = null;

/** Where a compression worker starts: the CLI entry (src/cli.ts sets it). */
export function setCompressionWorkerScript(script: string | URL): void {
  workerScript = script;
}

/** Whether this thread was started as a compression worker. */
export function isCompressionWorker(): boolean {
  return !isMainThread && (workerData as { role?: unknown } | null)?.role === WORKER_ROLE;
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
 * Starts compressing `files` on a worker, or returns null when no worker script is set (the
 * caller then compresses on its own thread). The contents are copied once into shared
 * memory, and `files` are handed back as views of that copy (`sharedFiles`): a caller that
 * keeps using those instead of the originals holds the bytes once, not twice.
 */
export function startCompression(files: readonly ZipFileInput[]): { compression: ParallelCompression; sharedFiles: ZipFileInput[] } | null {
  if (workerScript === null) return null;
  const count = files.length;
  let total = 0;
  for (const file of files) total += file.content.length;
  const contents = new Uint8Array(new SharedArrayBuffer(total));
  const starts = new Float64Array(count + 1);
  const sharedFiles: ZipFileInput[] = [];
  let at = 0;
  for (let k = 0; k < count; k++) {
    const content = files[k]!.content;
    contents.set(content, at);
    starts[k] = at;
    sharedFiles.push({ path: files[k]!.path, content: contents.subarray(at, at + content.length) });
    at += content.length;
  }
  starts[count] = at;
  const order = claimOrder(sharedFiles);
  const counters = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  const channel = new MessageChannel();
  const input: WorkerInput = { role: WORKER_ROLE, port: channel.port2, counters, order, contents, starts };
  let worker: Worker | null;
  try {
    worker = new Worker(workerScript, { workerData: input, transferList: [channel.port2], stdout: true, stderr: true });
    // Never keep the process alive, and never let a worker's failure become an uncaught
    // 'error' event: the main thread finishes the work whatever happens to the worker.
    worker.unref();
    worker.on('error', () => undefined);
  } catch {
    worker = null;
    Atomics.store(counters, FAILED, 1);
  }
  const port = channel.port1;

  function finish(): Map<string, CompressedEntry> {
    const results: (CompressedEntry | undefined)[] = new Array(count);
    // The main thread's share: whatever is still unclaimed.
    for (;;) {
      const k = Atomics.add(counters, NEXT, 1);
      if (k >= count) break;
      const index = order[k]!;
      results[index] = compressEntry(sharedFiles[index]!.content, crc32Fast);
    }
    let missing = 0;
    for (let index = 0; index < count; index++) if (results[index] === undefined) missing++;
    let received = 0;
    let lastProgress = Date.now();
    while (missing > 0) {
      const message = receiveMessageOnPort(port) as { message: WorkerResult } | undefined;
      if (message !== undefined) {
        const result = message.message;
        if (results[result.index] === undefined) {
          const content = sharedFiles[result.index]!.content;
          const data = result.method === ZIP_METHOD_STORED ? content : result.data!;
          results[result.index] = { method: result.method, data, crc32: result.crc32 };
          missing--;
        }
        received++;
        lastProgress = Date.now();
        continue;
      }
      const posted = Atomics.load(counters, DONE);
      if (posted > received) continue; // posted before counted: the message is in the queue
      const stalled = Date.now() - lastProgress > WORKER_STALL_MS;
      if (Atomics.load(counters, FAILED) === 1 || stalled) {
        // The worker gave up or went silent: compress what it owed here. Late results
        // from it would be the same bytes; they are simply not read.
        for (let index = 0; index < count; index++) {
          if (results[index] === undefined) results[index] = compressEntry(sharedFiles[index]!.content, crc32Fast);
        }
        missing = 0;
        break;
      }
      Atomics.wait(counters, DONE, posted, 100);
    }
    port.close();
    void worker?.terminate();
    const byPath = new Map<string, CompressedEntry>();
    for (let index = 0; index < count; index++) byPath.set(sharedFiles[index]!.path, results[index]!);
    return byPath;
  }

  function cancel(): void {
    // Claim everything that is left, so the worker stops after its current entry.
    Atomics.store(counters, NEXT, count);
    port.close();
    void worker?.terminate();
  }

  function progress(): { posted: number; failed: boolean } {
    return { posted: Atomics.load(counters, DONE), failed: Atomics.load(counters, FAILED) === 1 };
  }

  return { compression: { finish, cancel, progress }, sharedFiles };
}

/**
 * Entry indexes, largest content first (ties by index: any fixed order would do, the
 * output does not depend on it). A function of its own so that no closure of
 * startCompression captures the caller's `files`: those would then stay alive, a second
 * copy of every content, as long as the compression does.
 */
function claimOrder(files: readonly ZipFileInput[]): Int32Array {
  return Int32Array.from({ length: files.length }, (_, k) => k).sort((a, b) => files[b]!.content.length - files[a]!.content.length || a - b);
}

/**
 * The worker's side: claim, compress, post, until the claims run out. Every failure is
 * reported through FAILED, so that the main thread takes over at once.
 */
export function runCompressionWorker(): void {
  const input = workerData as WorkerInput;
  const { port, counters, order, contents, starts } = input;
  try {
    for (;;) {
      const k = Atomics.add(counters, NEXT, 1);
      if (k >= order.length) break;
      const index = order[k]!;
      const content = contents.subarray(starts[index]!, starts[index + 1]!);
      const entry = compressEntry(content, crc32Fast);
      if (entry.method === ZIP_METHOD_STORED) {
        port.postMessage({ index, method: entry.method, crc32: entry.crc32 } satisfies WorkerResult);
      } else {
        // deflateRaw returns a fresh, exactly sized buffer: it moves to the main thread.
        port.postMessage({ index, method: entry.method, crc32: entry.crc32, data: entry.data } satisfies WorkerResult, [entry.data.buffer as ArrayBuffer]);
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
}
