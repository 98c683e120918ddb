// The compression worker's side (the main thread's is src/zip/parallel-compression.ts): list the
// root's files, then claim an entry, read it from disk, deflate it, prove the stream with
// node:zlib (src/zip/read-back-proof.ts), post the result; until the claims run out.
//
// The worker finds its work itself, so that it can start before the main thread has read
// the project: the main thread takes a result only for a file whose content it read has
// the same size and CRC-32 (src/zip/parallel-compression.ts).
//
// In dist/ the worker runs a small bundle of this module alone (src/zip/compression-worker-entry.ts,
// embedded in the CLI by scripts/build-deflate-worker.mjs): a worker running the whole
// CLI would start later and hold more memory for code it never runs.
import { closeSync, lstatSync, readdirSync } from 'node:fs';
import { openRegularFile, readInto } from '../node/file-open.js';
import { join } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { BUNDLE_MAX_FILE_BYTES } from '../validator/internal.js';
import { compressEntry } from './compress-entry.js';
import { allowGarbageRelease, proveStream, released } from './read-back-proof.js';
import { setTraceOrigin, trace } from '../node/trace.js';
import { crc32 } from '../node/hashes.js';
import { DONE, FAILED, LISTED, NEXT, type WorkerInput, type WorkerListing, type WorkerResult, type WorkerWork } from './compression-worker-protocol.js';
import { ZIP_FORMAT } from '../validator/internal.js';

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
 * The regular files under `root` that a bundle may hold (links are not followed, nothing
 * over the one-file limit), largest first (then by path).
 */
function listFiles(root: string): WorkerListing {
  const found: { path: string; size: number }[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    let children;
    try {
      children = readdirSync(rel === '' ? root : join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const child of children) {
      const path = rel === '' ? child.name : `${rel}/${child.name}`;
      if (child.isDirectory()) stack.push(path);
      else if (child.isFile()) {
        let size: number;
        try {
          size = lstatSync(join(root, path)).size;
        } catch {
          continue;
        }
        if (size <= BUNDLE_MAX_FILE_BYTES) found.push({ path, size });
      }
    }
  }
  found.sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { kind: 'listing', paths: found.map((f) => f.path), sizes: found.map((f) => f.size) };
}

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
 * Reads, compresses and proves listing position `index` and posts the result; returns
 * how many bytes of buffers it let go (a large file's own read buffer, the proof's
 * inflated copy).
 */
function compressOne(port: MessagePort, index: number, path: string, size: number): number {
  const content = readListedFile(path, size);
  if (content === null) {
    port.postMessage({ kind: 'result', index } satisfies WorkerResult);
    return 0;
  }
  const ownBuffer = content.length >= READ_SCRATCH_BYTES ? content.length + 1 : 0;
  const entry = compressEntry(content, crc32);
  if (entry.method === METHOD_STORED) {
    port.postMessage({ kind: 'result', index, method: entry.method, crc32: entry.crc32, proven: false } satisfies WorkerResult);
    return ownBuffer;
  }
  const proven = proveStream(entry.data, content);
  // The stream goes over in shared memory, not transferred: a transfer detaches the
  // buffer, and after the first detach in a thread V8 checks for it at every typed array
  // access there, the encoder's included.
  const data = new Uint8Array(new SharedArrayBuffer(entry.data.length));
  data.set(entry.data);
  port.postMessage({ kind: 'result', index, method: entry.method, crc32: entry.crc32, data, proven } satisfies WorkerResult);
  return ownBuffer + content.length + entry.data.length;
}

/**
 * The worker's side: wait for the work (the thread's event loop is free meanwhile), post
 * the listing, then claim, read, compress, prove and post until the claims run out, and
 * end. Every failure is reported through FAILED, so that the main thread takes over at
 * once. When the main thread closes its end first (no work after all, or cancelled), the
 * thread ends.
 */
export function runCompressionWorker(workerData: unknown): void {
  const { port, counters, traceOrigin } = workerData as WorkerInput;
  setTraceOrigin(traceOrigin, 'worker');
  trace('started');
  (port as MessagePort).once('message', (work: WorkerWork) => {
    trace('work received');
    try {
      const { root, releaseGarbage } = work;
      if (releaseGarbage) allowGarbageRelease();
      const listing = listFiles(root);
      (port as MessagePort).postMessage(listing);
      Atomics.store(counters, LISTED, 1);
      Atomics.notify(counters, DONE);
      trace(`listed ${listing.paths.length}`);
      for (;;) {
        const k = Atomics.add(counters, NEXT, 1);
        if (k >= listing.paths.length) break;
        // The entry's buffers are out of reach once compressOne has returned.
        released(compressOne(port as MessagePort, k, join(root, listing.paths[k]!), listing.sizes[k]!));
        Atomics.add(counters, DONE, 1);
        Atomics.notify(counters, DONE);
        trace(`compressed #${k} ${listing.sizes[k]}`);
      }
    } catch {
      Atomics.store(counters, FAILED, 1);
      Atomics.notify(counters, DONE);
    } finally {
      port.close();
    }
  });
}
