// Messages between parallel-compression.ts and compression-worker.ts: types and numbers only, so the
// worker's bundle stays small.
import type { MessagePort } from 'node:worker_threads';

export const WORKER_ROLE = 'platform-ext-deflate';
// Counter slots: the next claim position, results posted, 1 once the worker gave up (it claims no more).
export const NEXT = 0;
export const DONE = 1;
export const FAILED = 2;
export const COUNTER_SLOTS = 3;

export interface WorkerInput {
  readonly role: typeof WORKER_ROLE;
  readonly port: MessagePort;
  readonly counters: Int32Array;
  /** Claim order (largest first), in shared memory: exactly the checked bytes, never re-read from disk. */
  readonly contents: readonly Uint8Array[];
  readonly traceOrigin: number;
}

/** `data` only for a deflated entry; `proven`: node:zlib inflated it back to the content (read-back-proof.ts). */
export interface WorkerMessage {
  readonly index: number;
  readonly method: number;
  readonly crc32: number;
  readonly data?: Uint8Array;
  readonly proven: boolean;
}
