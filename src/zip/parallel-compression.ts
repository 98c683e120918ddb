// Compressing a bundle's entries: one call, compressEntries, over the contents already in
// memory. compressEntry is a pure function of each content, so which thread compresses
// which entry changes nothing: assembleZip over the result is byte for byte writeZip's
// archive (D-15; test/zip/zip-write.test.mjs compares both paths).
//
// A bundle large enough is shared with one worker thread (the machines this runs on have
// two cores). The worker gets the contents themselves, in shared memory (the loader reads
// them into SharedArrayBuffers; any other content is copied into one), never a path: what
// it compresses is exactly what was checked. The caller's own work (package's and check's
// validation) runs on the main thread meanwhile, as `alongside`; the main thread then takes
// what the worker has not claimed yet, and waits for the rest. Claims go through one shared
// counter over the files, largest first, so that both threads finish close together. The
// main thread's side is synchronous, as `package` is: results are read with
// receiveMessageOnPort, with Atomics.wait between them.
//
// Each thread proves every stream it deflates right away (src/zip/read-back-proof.ts):
// node:zlib inflates it back to exactly the bytes compressed.
//
// The worker runs src/zip/compression-worker.ts: in dist/, a small bundle of it embedded in
// the CLI (scripts/build-deflate-worker.mjs); elsewhere a script (setCompressionWorkerScript,
// or build/zip/compression-worker-entry.js beside this module).
import type { MessagePort } from 'node:worker_threads';
import { nodeWorkerThreads } from '../node/builtins.js';
import { compressEntry, type CompressedEntry, type ZipFileInput } from './zip-writer.js';
import { proveStream, type StreamProof } from './read-back-proof.js';
import { trace, traceOrigin } from '../node/trace.js';
import { crc32 } from '../node/hashes.js';
import { runCompressionWorker as runWorkerSide } from './compression-worker.js';
import { COUNTER_SLOTS, DONE, FAILED, NEXT, WORKER_ROLE, type WorkerInput, type WorkerMessage } from './compression-worker-protocol.js';
import { ZIP_FORMAT } from '../validator/internal.js';

const { METHOD_STORED } = ZIP_FORMAT;

/** The worker's bundle, embedded in dist/ by scripts/build-deflate-worker.mjs. */
declare const __PLATFORM_DEFLATE_WORKER_SOURCE__: string | undefined;

/**
 * Below this many bytes of content everything is compressed on the main thread: a worker
 * takes tens of milliseconds to start, which a small bundle does not repay.
 */
export const PARALLEL_MIN_BYTES = 2 << 20;
/**
 * How long the main thread waits for the worker's next result before compressing the
 * missing entries itself: only a worker that died without a word (killed, out of memory)
 * ever reaches this, since one entry is at most 5 MiB.
 */
const WORKER_STALL_MS = 20_000;
/** How long one Atomics.wait lasts before the main thread looks at the worker's state again. */
const WAIT_SLICE_MS = 100;
/** A claim position past any list: stores into NEXT to stop the worker's claims. */
const CLAIMED_ALL = 1 << 30;

let workerScript: string | URL | null = null;

/**
 * Where a compression worker starts when there is no embedded bundle (dist/ has one): a
 * script that calls runCompressionWorker. Default: build/zip/compression-worker-entry.js.
 */
export function setCompressionWorkerScript(script: string | URL | null): void {
  workerScript = script;
}

/** Every entry's stored form, keyed by path, and the proofs of its deflated streams. */
export interface Compressed {
  readonly entries: Map<string, CompressedEntry>;
  /** One per deflated entry that node:zlib was seen to inflate back (src/zip/read-back-proof.ts). */
  readonly proofs: StreamProof[];
}

export interface CompressOptions {
  /**
   * Work for the main thread while the worker compresses (the check); false from it means
   * the entries are not needed after all, and compressEntries returns null.
   */
  readonly alongside?: () => boolean;
  /** Whether a worker may be used (default: for bundles of at least PARALLEL_MIN_BYTES). */
  readonly parallel?: boolean;
}

/** Compresses and proves one entry on this thread; a proof is added for a deflated one. */
function compressHere(content: Uint8Array, proofs: StreamProof[]): CompressedEntry {
  const entry = compressEntry(content, crc32);
  if (entry.method !== METHOD_STORED && proveStream(entry.data, content)) proofs.push({ stream: entry.data, content, crc32: entry.crc32 });
  return entry;
}

/** A new buffer in shared memory, for the loader (src/load/project-loader.ts LoadOptions.allocate). */
export function sharedBytes(size: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(size));
}

/** `content` in shared memory: itself when it is there already, else a copy. */
function shared(content: Uint8Array): Uint8Array {
  if (content.buffer instanceof SharedArrayBuffer) return content;
  const copy = new Uint8Array(new SharedArrayBuffer(content.length));
  copy.set(content);
  return copy;
}

/** A worker at work on `order` (positions into the files), or null when none could start. */
interface Running {
  readonly port: MessagePort;
  readonly counters: Int32Array;
  stop(): void;
}

function startWorker(contents: readonly Uint8Array[]): Running | null {
  const counters = new Int32Array(new SharedArrayBuffer(COUNTER_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  const { MessageChannel, Worker } = nodeWorkerThreads();
  const channel = new MessageChannel();
  const input: WorkerInput = { role: WORKER_ROLE, port: channel.port2, counters, contents, traceOrigin: traceOrigin() };
  try {
    const options = { workerData: input, transferList: [channel.port2], stdout: true, stderr: true };
    const worker =
      typeof __PLATFORM_DEFLATE_WORKER_SOURCE__ === 'string'
        ? new Worker(__PLATFORM_DEFLATE_WORKER_SOURCE__, { ...options, eval: true })
        : new Worker(workerScript ?? new URL('./compression-worker-entry.js', import.meta.url), options);
    // Never keep the process alive, and never let a worker's failure become an uncaught
    // 'error' event: the main thread finishes the work whatever happens to the worker.
    worker.unref();
    worker.on('error', () => {
      Atomics.store(counters, FAILED, 1);
      Atomics.notify(counters, DONE);
    });
    const port = channel.port1;
    return {
      port,
      counters,
      stop() {
        Atomics.store(counters, NEXT, CLAIMED_ALL);
        port.close();
        void worker.terminate();
      },
    };
  } catch {
    return null;
  }
}

/**
 * Compresses and proves every file, and returns an entry for each (keyed by path), or
 * null when `alongside` says the entries are not needed. A bundle of at least
 * PARALLEL_MIN_BYTES is shared with a worker thread while `alongside` runs here.
 */
export function compressEntries(files: readonly ZipFileInput[], options: CompressOptions = {}): Compressed | null {
  const total = files.reduce((n, f) => n + f.content.length, 0);
  const useWorker = options.parallel ?? (files.length >= 2 && total >= PARALLEL_MIN_BYTES);
  // Largest first: the last claims are small, so both threads finish close together.
  const order = files.map((_, index) => index).sort((a, b) => files[b]!.content.length - files[a]!.content.length || a - b);
  const running = useWorker ? startWorker(order.map((index) => shared(files[index]!.content))) : null;
  trace(running === null ? 'compressing here' : 'worker started');
  let wanted = false;
  try {
    wanted = options.alongside?.() ?? true;
  } finally {
    // Not wanted, or the caller's work threw: the worker's results are dropped.
    if (!wanted) running?.stop();
  }
  if (!wanted) return null;
  const results: (CompressedEntry | undefined)[] = new Array(files.length);
  const proofs: StreamProof[] = [];
  if (running !== null) collectShared(running, files, order, results, proofs);
  // What the worker did not do (or there is no worker): here.
  for (const index of order) results[index] ??= compressHere(files[index]!.content, proofs);
  const entries = new Map<string, CompressedEntry>();
  for (let index = 0; index < files.length; index++) entries.set(files[index]!.path, results[index]!);
  return { entries, proofs };
}

/** The main thread's share of the claims, then the worker's results as they come. */
function collectShared(running: Running, files: readonly ZipFileInput[], order: readonly number[], results: (CompressedEntry | undefined)[], proofs: StreamProof[]): void {
  const { port, counters } = running;
  const { receiveMessageOnPort } = nodeWorkerThreads();
  let claimed = 0;
  for (;;) {
    const k = Atomics.add(counters, NEXT, 1);
    if (k >= order.length) break;
    claimed++;
    const index = order[k]!;
    results[index] = compressHere(files[index]!.content, proofs);
  }
  trace('main share done');
  // Every other position was claimed by the worker, which answers each.
  const owed = order.length - claimed;
  let received = 0;
  let lastProgress = Date.now();
  while (received < owed) {
    const message = receiveMessageOnPort(port) as { message: WorkerMessage } | undefined;
    if (message !== undefined) {
      lastProgress = Date.now();
      received++;
      const posted = message.message;
      const index = order[posted.index]!;
      const content = files[index]!.content;
      const stored = posted.method === METHOD_STORED;
      results[index] = { method: posted.method, data: stored ? content : posted.data!, crc32: posted.crc32 };
      if (!stored && posted.proven) proofs.push({ stream: posted.data!, content, crc32: posted.crc32 });
      continue;
    }
    const done = Atomics.load(counters, DONE);
    if (done > received) continue; // counted just before its message could be read
    if (Atomics.load(counters, FAILED) === 1 || Date.now() - lastProgress > WORKER_STALL_MS) break;
    Atomics.wait(counters, DONE, done, WAIT_SLICE_MS);
  }
  running.stop();
}

/**
 * A compression worker's side, for a worker started on a script (a test's): see
 * src/zip/compression-worker.ts.
 */
export function runCompressionWorker(): void {
  runWorkerSide(nodeWorkerThreads().workerData);
}
