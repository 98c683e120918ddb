// Compresses a bundle's entries. compressEntry is pure, so which thread runs it changes nothing: assembleZip
// over the result is writeZip's archive (D-15). A large bundle is shared with one worker, given the checked
// contents in shared memory (never a path); claims go largest first through a shared counter while the
// caller's `alongside` work runs here. The main thread stays synchronous, as `package` is.
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

declare const __PLATFORM_DEFLATE_WORKER_SOURCE__: string | undefined;

/** Below this, no worker: its start-up is not repaid. */
export const PARALLEL_MIN_BYTES = 2 << 20;
/** Silence after which a worker counts as dead (killed, out of memory) and the main thread compresses the rest. */
const WORKER_STALL_MS = 20_000;
const WAIT_SLICE_MS = 100;
const CLAIMED_ALL = 1 << 30;

let workerScript: string | URL | null = null;

/** The worker script when no bundle is embedded (outside dist/); default build/zip/compression-worker-entry.js. */
export function setCompressionWorkerScript(script: string | URL | null): void {
  workerScript = script;
}

export interface Compressed {
  readonly entries: Map<string, CompressedEntry>;
  readonly proofs: StreamProof[];
}

export interface CompressOptions {
  /** Runs while the worker compresses; false means the entries are not needed: compressEntries returns null. */
  readonly alongside?: () => boolean;
  readonly parallel?: boolean;
}

function compressHere(content: Uint8Array, proofs: StreamProof[]): CompressedEntry {
  const entry = compressEntry(content, crc32);
  if (entry.method !== METHOD_STORED && proveStream(entry.data, content)) proofs.push({ stream: entry.data, content, crc32: entry.crc32 });
  return entry;
}

/** For the loader (LoadOptions.allocate), so contents reach the worker without a copy. */
export function sharedBytes(size: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(size));
}

function shared(content: Uint8Array): Uint8Array {
  if (content.buffer instanceof SharedArrayBuffer) return content;
  const copy = new Uint8Array(new SharedArrayBuffer(content.length));
  copy.set(content);
  return copy;
}

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
    // A worker's failure is never an uncaught 'error': the main thread finishes the work regardless.
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

export function compressEntries(files: readonly ZipFileInput[], options: CompressOptions = {}): Compressed | null {
  const total = files.reduce((n, f) => n + f.content.length, 0);
  const useWorker = options.parallel ?? (files.length >= 2 && total >= PARALLEL_MIN_BYTES);
  // Largest first, so both threads finish close together.
  const order = files.map((_, index) => index).sort((a, b) => files[b]!.content.length - files[a]!.content.length || a - b);
  const running = useWorker ? startWorker(order.map((index) => shared(files[index]!.content))) : null;
  trace(running === null ? 'compressing here' : 'worker started');
  let wanted = false;
  try {
    wanted = options.alongside?.() ?? true;
  } finally {
    if (!wanted) running?.stop();
  }
  if (!wanted) return null;
  const results: (CompressedEntry | undefined)[] = new Array(files.length);
  const proofs: StreamProof[] = [];
  if (running !== null) collectShared(running, files, order, results, proofs);
  for (const index of order) results[index] ??= compressHere(files[index]!.content, proofs);
  const entries = new Map<string, CompressedEntry>();
  for (let index = 0; index < files.length; index++) entries.set(files[index]!.path, results[index]!);
  return { entries, proofs };
}

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

export function runCompressionWorker(): void {
  runWorkerSide(nodeWorkerThreads().workerData);
}
