// What the main thread and a compression worker (src/zip/parallel-compression.ts, src/zip/compression-worker.ts)
// say to each other. Types and numbers only: both sides import it, and the worker's bundle
// (scripts/build-deflate-worker.mjs) stays small.
import type { MessagePort } from 'node:worker_threads';

/** workerData.role of a compression worker (and its argv marker, see isCompressionWorker). */
export const WORKER_ROLE = 'platform-ext-deflate';
/** Slots of the shared counters. */
export const NEXT = 0; // the next position in the listing's claim order
export const DONE = 1; // results the worker has posted
export const FAILED = 2; // 1 once the worker gave up (it then claims nothing more)
export const LISTED = 3; // 1 once the worker has posted its listing
export const COUNTER_SLOTS = 4;

/** What the worker is started with. */
export interface WorkerInput {
  readonly role: typeof WORKER_ROLE;
  readonly port: MessagePort;
  /** [NEXT, DONE, FAILED, LISTED] over a SharedArrayBuffer. */
  readonly counters: Int32Array;
  /** The main thread's clock origin, for PLATFORM_EXT_TRACE (src/node/trace.ts). */
  readonly traceOrigin: number;
}

/** The one message the worker receives: the folder whose files it compresses (a project's runtime/). */
export interface WorkerWork {
  readonly root: string;
  /**
   * Whether the worker may collect its young garbage early (src/zip/read-back-proof.ts
   * allowGarbageRelease): as the main thread may when it gives the work (a worker may be
   * launched before the command has said).
   */
  readonly releaseGarbage: boolean;
}

/**
 * The worker's first message: the regular files it found under the root (paths relative
 * to it, `/`-separated), largest first. Claims are positions in this list.
 */
export interface WorkerListing {
  readonly kind: 'listing';
  readonly paths: readonly string[];
  readonly sizes: readonly number[];
}

/**
 * Each later message: the result for listing position `index`; the deflated bytes travel
 * in shared memory, a stored entry's do not. Without `method` the file was not as listed
 * on disk, and the main thread compresses it. `proven`: node:zlib inflated `data` back to
 * exactly the bytes the worker compressed (src/zip/read-back-proof.ts; always false for a stored
 * entry, which needs no proof).
 */
export interface WorkerResult {
  readonly kind: 'result';
  readonly index: number;
  readonly method?: number;
  readonly crc32?: number;
  readonly data?: Uint8Array;
  readonly proven?: boolean;
}

export type WorkerMessage = WorkerListing | WorkerResult;
