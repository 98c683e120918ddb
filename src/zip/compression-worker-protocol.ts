// What the main thread and a compression worker (src/zip/parallel-compression.ts, src/zip/compression-worker.ts)
// say to each other. Types and numbers only: both sides import it, and the worker's bundle
// (scripts/build-deflate-worker.mjs) stays small.
import type { MessagePort } from 'node:worker_threads';

/** workerData.role of a compression worker (and its argv marker, see isCompressionWorker). */
export const WORKER_ROLE = 'platform-ext-deflate';
/** Slots of the shared counters. */
export const NEXT = 0; // the next position in the claim order
export const DONE = 1; // results the worker has posted
export const FAILED = 2; // 1 once the worker gave up (it then claims nothing more)
export const COUNTER_SLOTS = 3;

/** What the worker is started with. */
export interface WorkerInput {
  readonly role: typeof WORKER_ROLE;
  readonly port: MessagePort;
  /** [NEXT, DONE, FAILED] over a SharedArrayBuffer. */
  readonly counters: Int32Array;
  /** The main thread's clock origin, for PLATFORM_EXT_TRACE (src/node/trace.ts). */
  readonly traceOrigin: number;
  /** Whether the worker may collect its young garbage early (src/zip/read-back-proof.ts allowGarbageRelease). */
  readonly releaseGarbage: boolean;
}

/** The one message the worker receives: its work. */
export interface WorkerWork {
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
 * `proven`: node:zlib inflated `data` back to exactly the bytes the worker compressed
 * (src/zip/read-back-proof.ts; always false for a stored entry, which needs no proof).
 */
export interface WorkerResult {
  readonly index: number;
  readonly method?: number;
  readonly crc32?: number;
  readonly data?: Uint8Array;
  readonly proven?: boolean;
}
