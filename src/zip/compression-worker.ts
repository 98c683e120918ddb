// The compression worker: claim a content, deflate it, prove it (read-back-proof.ts), post it; until the
// claims run out. In dist/ it runs a small bundle of this module alone: the whole CLI would start slower.
import type { MessagePort } from 'node:worker_threads';
import { compressEntry } from './compress-entry.js';
import { proveStream } from './read-back-proof.js';
import { setTraceOrigin, trace } from '../node/trace.js';
import { crc32 } from '../node/hashes.js';
import { DONE, FAILED, NEXT, type WorkerInput, type WorkerMessage } from './compression-worker-protocol.js';
import { ZIP_FORMAT } from '../validator/internal.js';

const { METHOD_STORED } = ZIP_FORMAT;

// Streams go over in shared memory, not transferred: after a thread's first detach V8 checks every typed
// array access for it, the encoder's included.
function sharedBytes(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(length));
}

function compressOne(port: MessagePort, index: number, content: Uint8Array): void {
  const entry = compressEntry(content, crc32, sharedBytes);
  if (entry.method === METHOD_STORED) {
    port.postMessage({ index, method: entry.method, crc32: entry.crc32, proven: false } satisfies WorkerMessage);
    return;
  }
  const proven = proveStream(entry.data, content);
  port.postMessage({ index, method: entry.method, crc32: entry.crc32, data: entry.data, proven } satisfies WorkerMessage);
}

/** A failure is reported through FAILED, so that the main thread takes over at once. */
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
