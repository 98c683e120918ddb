// The compression worker's side (the main thread's is src/zip/parallel-compression.ts):
// claim a content, deflate it, prove the stream with node:zlib (src/zip/read-back-proof.ts),
// post the result; until the claims run out. The contents come in workerData, in shared
// memory: the worker reads nothing from disk.
//
// In dist/ the worker runs a small bundle of this module alone (src/zip/compression-worker-entry.ts,
// embedded in the CLI by scripts/build-deflate-worker.mjs): a worker running the whole
// CLI would start later and hold more memory for code it never runs.
import type { MessagePort } from 'node:worker_threads';
import { compressEntry } from './compress-entry.js';
import { proveStream } from './read-back-proof.js';
import { setTraceOrigin, trace } from '../node/trace.js';
import { crc32 } from '../node/hashes.js';
import { DONE, FAILED, NEXT, type WorkerInput, type WorkerMessage } from './compression-worker-protocol.js';
import { ZIP_FORMAT } from '../validator/internal.js';

const { METHOD_STORED } = ZIP_FORMAT;

/** Compresses and proves claim position `index` and posts the result. */
function compressOne(port: MessagePort, index: number, content: Uint8Array): void {
  const entry = compressEntry(content, crc32);
  if (entry.method === METHOD_STORED) {
    port.postMessage({ index, method: entry.method, crc32: entry.crc32, proven: false } satisfies WorkerMessage);
    return;
  }
  const proven = proveStream(entry.data, content);
  // The stream goes over in shared memory, not transferred: a transfer detaches the
  // buffer, and after the first detach in a thread V8 checks for it at every typed array
  // access there, the encoder's included.
  const data = new Uint8Array(new SharedArrayBuffer(entry.data.length));
  data.set(entry.data);
  port.postMessage({ index, method: entry.method, crc32: entry.crc32, data, proven } satisfies WorkerMessage);
}

/**
 * The worker's side: claim, compress, prove and post until the claims run out, then end.
 * A failure is reported through FAILED, so that the main thread takes over at once.
 */
export function runCompressionWorker(workerData: unknown): void {
  const { port, counters, contents, traceOrigin } = workerData as WorkerInput;
  setTraceOrigin(traceOrigin, 'worker');
  trace('started');
  try {
    for (;;) {
      const k = Atomics.add(counters, NEXT, 1);
      if (k >= contents.length) break;
      compressOne(port, k, contents[k]!);
      Atomics.add(counters, DONE, 1);
      Atomics.notify(counters, DONE);
      trace(`compressed #${k} ${contents[k]!.length}`);
    }
  } catch {
    Atomics.store(counters, FAILED, 1);
    Atomics.notify(counters, DONE);
  } finally {
    port.close();
  }
}
