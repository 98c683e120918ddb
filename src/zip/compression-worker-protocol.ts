// What the main thread and a compression worker (src/zip/parallel-compression.ts,
// src/zip/compression-worker.ts) say to each other. Types and numbers only: both sides
// import it, and the worker's bundle (scripts/build-deflate-worker.mjs) stays small.
import type { MessagePort } from 'node:worker_threads';

/** workerData.role of a compression worker. */
export const WORKER_ROLE = 'platform-ext-deflate';
/** Slots of the shared counters. */
export const NEXT = 0; // the next position in the claim order
export const DONE = 1; // results the worker has posted
export const FAILED = 2; // 1 once the worker gave up (it then claims nothing more)
export const COUNTER_SLOTS = 3;

/** What the worker is started with: everything it needs. */
export interface WorkerInput {
  readonly role: typeof WORKER_ROLE;
  readonly port: MessagePort;
  /** [NEXT, DONE, FAILED] over a SharedArrayBuffer. */
  readonly counters: Int32Array;
  /** The contents in claim order (largest first), in shared memory: the checked bytes. */
  readonly contents: readonly Uint8Array[];
  /** The main thread's clock origin, for PLATFORM_EXT_TRACE (src/node/trace.ts). */
  readonly traceOrigin: number;
}

/**
 * The result for claim position `index`; the deflated bytes travel in shared memory, a
 * stored entry's do not. `proven`: node:zlib inflated `data` back to exactly the content
 * (src/zip/read-back-proof.ts; always false for a stored entry, which needs no proof).
 */
export interface WorkerMessage {
  readonly index: number;
  readonly method: number;
  readonly crc32: number;
  readonly data?: Uint8Array;
  readonly proven: boolean;
}
