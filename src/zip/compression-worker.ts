// The compression worker's side (the main thread's is src/zip/parallel-compression.ts): claim an
// entry, read it from disk, deflate it, prove the stream with node:zlib
// (src/zip/read-back-proof.ts), post the result; until the claims run out.
//
// In dist/ the worker runs a small bundle of this module alone (src/zip/compression-worker-entry.ts,
// embedded in the CLI by scripts/build-deflate-worker.mjs): a worker running the whole
// CLI took twice as long to start and 8 MiB more memory.
import { closeSync } from 'node:fs';
import { openRegularFile, readInto } from '../node/file-open.js';
import { join } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { compressEntry } from './compress-entry.js';
import { allowGarbageRelease, crc32Native, proveStream, released } from './read-back-proof.js';
import { setTraceOrigin, trace } from '../node/trace.js';
import { DONE, FAILED, NEXT, type WorkerInput, type WorkerResult, type WorkerWork } from './compression-worker-protocol.js';
import { ZIP_FORMAT } from '../validator/index.js';

const { METHOD_STORED } = ZIP_FORMAT;

/**
 * Files up to this size are read into one buffer reused from file to file; a larger one
 * gets a buffer of its own, let go after its entry (src/zip/read-back-proof.ts counts it with the
 * inflated copies). Claims go largest first, so a scratch grown to the largest file would
 * stay resident through all the small files at the end, where memory peaks.
 */
const READ_SCRATCH_BYTES = 256 << 10;
const readScratch = new Uint8Array(READ_SCRATCH_BYTES);

/**
 * The file at `path` if it is still a regular file of exactly `size` bytes (not through a
 * symbolic link), else null. The bytes are valid until the next call.
 */
function readListedFile(path: string, size: number): Uint8Array | null {
  const fd = openRegularFile(path);
  if (fd === null) return null;
  try {
    // One byte more than listed tells a file that has grown.
    const bytes = size + 1 <= READ_SCRATCH_BYTES ? readScratch.subarray(0, size + 1) : new Uint8Array(size + 1);
    return readInto(fd, bytes) === size ? bytes.subarray(0, size) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads, compresses and proves entry `index` and posts the result; returns how many bytes
 * of buffers it let go (a large file's own read buffer, the proof's inflated copy).
 */
function compressOne(port: MessagePort, index: number, path: string, size: number): number {
  const content = readListedFile(path, size);
  if (content === null) {
    port.postMessage({ index } satisfies WorkerResult);
    return 0;
  }
  const ownBuffer = content.length >= READ_SCRATCH_BYTES ? content.length + 1 : 0;
  const entry = compressEntry(content, crc32Native);
  if (entry.method === METHOD_STORED) {
    port.postMessage({ index, method: entry.method, crc32: entry.crc32, proven: false } satisfies WorkerResult);
    return ownBuffer;
  }
  const proven = proveStream(entry.data, content);
  // The stream goes over in shared memory, not transferred: a transfer detaches the
  // buffer, and after the first detach in a thread V8 checks for it at every typed array
  // access there (measured: 20% more instructions in the encoder).
  const data = new Uint8Array(new SharedArrayBuffer(entry.data.length));
  data.set(entry.data);
  port.postMessage({ index, method: entry.method, crc32: entry.crc32, data, proven } satisfies WorkerResult);
  return ownBuffer + content.length + entry.data.length;
}

/**
 * The worker's side: wait for the work (the thread's event loop is free meanwhile), then
 * claim, read, compress, prove and post until the claims run out, and end. Every failure
 * is reported through FAILED, so that the main thread takes over at once. When the main
 * thread closes its end first (no work after all, or cancelled), the thread ends.
 */
export function runCompressionWorker(workerData: unknown): void {
  const { port, counters, traceOrigin, releaseGarbage } = workerData as WorkerInput;
  setTraceOrigin(traceOrigin, 'worker');
  if (releaseGarbage) allowGarbageRelease();
  trace('started');
  (port as MessagePort).once('message', (work: WorkerWork) => {
    trace('work received');
    try {
      const { root, paths, sizes, order } = work;
      for (;;) {
        const k = Atomics.add(counters, NEXT, 1);
        if (k >= order.length) break;
        const index = order[k]!;
        // The entry's buffers are out of reach once compressOne has returned.
        released(compressOne(port as MessagePort, index, join(root, paths[index]!), sizes[index]!));
        Atomics.add(counters, DONE, 1);
        Atomics.notify(counters, DONE);
        trace(`compressed #${index} ${sizes[index]}`);
      }
    } catch {
      Atomics.store(counters, FAILED, 1);
      Atomics.notify(counters, DONE);
    } finally {
      port.close();
    }
  });
}
