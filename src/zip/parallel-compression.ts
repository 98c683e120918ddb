// Compressing a bundle's entries on two threads: the main thread and one worker (this
// machine and CI have two cores). compressEntry is a pure function of each content, so
// which thread compresses which entry changes nothing: assembleZip over these results is
// byte-for-byte writeZip's archive (D-15; test/zip/zip-write.test.mjs compares both paths).
//
// `package` launches the worker before it reads the project (a worker takes 50-100 ms to
// start, which then overlaps the reading), hands it the list of files before the check,
// and the worker compresses while the main thread validates. The main thread then takes
// its share of what is left and collects the worker's results. Its side is synchronous,
// as `package` is: results are read with receiveMessageOnPort, with Atomics.wait between
// them. Work is claimed through one shared counter, largest entries first, so that the
// two threads finish close together.
//
// The worker reads each file it claims from disk itself (into one reused buffer) rather
// than receiving a copy of every content: the main thread's copy, the one that was
// checked, is the only one held for the whole run (a shared copy cost 20 MB of peak memory
// on a 20 MiB bundle). A file whose size on disk is not the one read is left to the main
// thread; otherwise the main thread uses the worker's result only when the CRC-32 of the
// bytes the worker compressed is that of its own bytes (node:zlib's CRC, a few GB/s). A file
// edited during the run is thus compressed again from the checked bytes, unless the edit
// kept both its size and its CRC-32: a 1 in 2^32 chance for an edit made during the very
// second `package` runs, and even then the archive is consistent (its CRC is of its data).
//
// Each thread proves every stream it deflates right away (src/zip/read-back-proof.ts): node:zlib
// inflates it back to exactly the bytes that thread compressed. With the CRC-32 and size
// comparison above, a worker's proof says the stream inflates to bytes of the checked
// content's size and CRC-32, which is all the read-back's checks look at.
//
// The worker runs src/zip/compression-worker.ts: in dist/, a small bundle of it embedded in the CLI
// (scripts/build-deflate-worker.mjs); elsewhere a script (setCompressionWorkerScript, or
// build/zip/compression-worker-entry.js beside this module).
import type { MessagePort, Worker } from 'node:worker_threads';
import { isWorkerWithRole, nodeWorkerThreads } from '../node/builtins.js';
import { compressEntry, type CompressedEntry, type ZipFileInput } from './zip-writer.js';
import { warmUpEncoder } from './deflate.js';
import { crc32Native, garbageReleaseAllowed, proveStream, released, type StreamProof } from './read-back-proof.js';
import { trace, traceOrigin } from '../node/trace.js';
import { runCompressionWorker as runWorkerSide } from './compression-worker.js';
import { COUNTER_SLOTS, DONE, FAILED, NEXT, WORKER_ROLE, type WorkerInput, type WorkerResult, type WorkerWork } from './compression-worker-protocol.js';
import { ZIP_FORMAT } from '../validator/index.js';

const { METHOD_STORED } = ZIP_FORMAT;

/** The worker's bundle, embedded in dist/ by scripts/build-deflate-worker.mjs. */
declare const __PLATFORM_DEFLATE_WORKER_SOURCE__: string | undefined;

/**
 * How long the main thread waits for the worker's next result before compressing the
 * missing entries itself. One entry is at most 5 MiB (BUNDLE_MAX_FILE_BYTES) and deflates
 * in about a second on a slow machine: only a worker that died without a word (killed, out
 * of memory) ever reaches this.
 */
const WORKER_STALL_MS = 20_000;
/** How long one Atomics.wait lasts before the main thread looks at the worker's state again. */
const WAIT_SLICE_MS = 100;
/**
 * Warm-up rounds of the main thread's encoder before its check (src/zip/deflate.ts
 * warmUpEncoder): about 20 ms, after which V8 compiles the encoder on its background threads
 * while the check runs. Without them the main thread's first entries after the check ran
 * uncompiled: measured, 16 rounds took 50 ms off the entries compressed after a 300 ms
 * pause, 8 rounds about half of that.
 */
const MAIN_WARM_UP_ROUNDS = 16;

let workerScript: string | URL | null = null;

/**
 * Where a compression worker starts when there is no embedded bundle (dist/ has one): a
 * script that calls runCompressionWorker. Default: build/zip/compression-worker-entry.js.
 */
export function setCompressionWorkerScript(script: string | URL): void {
  workerScript = script;
}

/** Whether this thread was started as a compression worker on the CLI's own script. */
export function isCompressionWorker(): boolean {
  return isWorkerWithRole(WORKER_ROLE);
}

/** A compression worker launched ahead of its work. */
export interface CompressionWorker {
  /** Stops the worker without giving it work (the bundle turned out too small to share). */
  dispose(): void;
}

interface LaunchedWorker extends CompressionWorker {
  readonly port: MessagePort;
  readonly counters: Int32Array;
}

/** Every entry's stored form, keyed by path, and the proofs of its deflated streams. */
export interface Compressed {
  readonly entries: Map<string, CompressedEntry>;
  /** One per deflated entry that node:zlib was seen to inflate back (src/zip/read-back-proof.ts). */
  readonly proofs: StreamProof[];
}

/** Compressions in progress; `finish` returns them all. */
export interface ParallelCompression {
  /** Compresses what the worker has not claimed, waits for the rest, and returns every entry. */
  finish(): Compressed;
  /** Stops the worker: its results are not needed (the check found errors). */
  cancel(): void;
  /** What the worker has done so far: results posted, and whether it gave up (for tests and benches). */
  progress(): { posted: number; failed: boolean };
}

/** Compresses and proves one entry on this thread; a proof is added for a deflated one. */
function compressHere(content: Uint8Array, proofs: StreamProof[]): CompressedEntry {
  const entry = proveHere(content, proofs);
  // proveStream's inflated copy is out of reach now.
  if (entry.method !== METHOD_STORED) released(content.length);
  return entry;
}

function proveHere(content: Uint8Array, proofs: StreamProof[]): CompressedEntry {
  const entry = compressEntry(content, crc32Native);
  if (entry.method !== METHOD_STORED && proveStream(entry.data, content)) proofs.push({ stream: entry.data, content, crc32: entry.crc32 });
  return entry;
}

/** Compresses and proves every file on this thread (a bundle too small to share). */
export function compressAll(files: readonly ZipFileInput[]): Compressed {
  const proofs: StreamProof[] = [];
  const entries = new Map<string, CompressedEntry>();
  for (const file of files) entries.set(file.path, compressHere(file.content, proofs));
  return { entries, proofs };
}

/**
 * Starts a compression worker, which waits for startCompression to give it work. Never
 * null in practice; a worker that cannot start claims nothing, and the main thread then
 * does everything.
 */
export function launchCompressionWorker(): CompressionWorker | null {
  const counters = new Int32Array(new SharedArrayBuffer(COUNTER_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  const { MessageChannel, Worker } = nodeWorkerThreads();
  const channel = new MessageChannel();
  const input: WorkerInput = { role: WORKER_ROLE, port: channel.port2, counters, traceOrigin: traceOrigin(), releaseGarbage: garbageReleaseAllowed() };
  let worker: Worker | null;
  try {
    const options = { workerData: input, argv: [WORKER_ROLE], transferList: [channel.port2], stdout: true, stderr: true };
    worker =
      typeof __PLATFORM_DEFLATE_WORKER_SOURCE__ === 'string'
        ? new Worker(__PLATFORM_DEFLATE_WORKER_SOURCE__, { ...options, eval: true })
        : new Worker(workerScript ?? new URL('./compression-worker-entry.js', import.meta.url), options);
    // Never keep the process alive, and never let a worker's failure become an uncaught
    // 'error' event: the main thread finishes the work whatever happens to the worker.
    worker.unref();
    worker.on('error', () => undefined);
  } catch {
    worker = null;
    Atomics.store(counters, FAILED, 1);
  }
  const port = channel.port1;
  const launched: LaunchedWorker = {
    port,
    counters,
    dispose() {
      port.close();
      void worker?.terminate();
    },
  };
  return launched;
}

/**
 * Gives `files`, read from `root` (their paths are relative to it), to a launched worker
 * (one is launched now when none is given) and returns the compression in progress, or
 * null when no worker could be launched.
 */
export function startCompression(
  files: readonly ZipFileInput[],
  root: string,
  launched: CompressionWorker | null = launchCompressionWorker(),
): ParallelCompression | null {
  if (launched === null) return null;
  const handle = launched as LaunchedWorker;
  const { port, counters } = handle;
  const count = files.length;
  const contents = files.map((f) => f.content);
  const paths = files.map((f) => f.path);
  const order = claimOrder(contents);
  port.postMessage({ root, paths, sizes: contents.map((c) => c.length), order } satisfies WorkerWork);
  // The main thread compresses only after its check: have V8 compile its encoder meanwhile.
  warmUpEncoder(MAIN_WARM_UP_ROUNDS);
  trace('encoder warmed up');

  function finish(): Compressed {
    const results: (CompressedEntry | undefined)[] = new Array(count);
    const proofs: StreamProof[] = [];
    // The main thread's share: whatever is still unclaimed.
    for (;;) {
      const k = Atomics.add(counters, NEXT, 1);
      if (k >= count) break;
      const index = order[k]!;
      results[index] = compressHere(contents[index]!, proofs);
      trace(`compressed #${index} ${contents[index]!.length}`);
    }
    trace('main share done');
    let missing = 0;
    for (let index = 0; index < count; index++) if (results[index] === undefined) missing++;
    let received = 0;
    let lastProgress = Date.now();
    while (missing > 0) {
      const message = nodeWorkerThreads().receiveMessageOnPort(port) as { message: WorkerResult } | undefined;
      if (message !== undefined) {
        const result = message.message;
        const content = contents[result.index]!;
        if (results[result.index] === undefined) {
          // The worker compared sizes; the CRC-32 of the bytes it compressed must be that of ours.
          if (result.crc32 !== undefined && result.crc32 === crc32Native(content)) {
            const stored = result.method === METHOD_STORED;
            results[result.index] = { method: result.method!, data: stored ? content : result.data!, crc32: result.crc32 };
            if (!stored && result.proven === true) proofs.push({ stream: result.data!, content, crc32: result.crc32 });
          } else {
            // The file on disk is not what was checked: ours.
            results[result.index] = compressHere(content, proofs);
          }
          missing--;
        }
        received++;
        lastProgress = Date.now();
        continue;
      }
      const posted = Atomics.load(counters, DONE);
      if (posted > received) continue; // counted just before its message could be read
      if (Atomics.load(counters, FAILED) === 1 || Date.now() - lastProgress > WORKER_STALL_MS) {
        // The worker gave up or went silent: compress what it owed here. Late results
        // from it would be the same bytes; they are simply not read.
        for (let index = 0; index < count; index++) {
          if (results[index] === undefined) results[index] = compressHere(contents[index]!, proofs);
        }
        break;
      }
      Atomics.wait(counters, DONE, posted, WAIT_SLICE_MS);
    }
    handle.dispose();
    const entries = new Map<string, CompressedEntry>();
    for (let index = 0; index < count; index++) entries.set(paths[index]!, results[index]!);
    return { entries, proofs };
  }

  function cancel(): void {
    // Claim everything that is left, so the worker stops after its current entry.
    Atomics.store(counters, NEXT, count);
    handle.dispose();
  }

  function progress(): { posted: number; failed: boolean } {
    return { posted: Atomics.load(counters, DONE), failed: Atomics.load(counters, FAILED) === 1 };
  }

  return { finish, cancel, progress };
}

/**
 * Entry indexes, largest content first (ties by index: any fixed order would do, the
 * output does not depend on it).
 */
function claimOrder(contents: readonly Uint8Array[]): Int32Array {
  return Int32Array.from({ length: contents.length }, (_, k) => k).sort((a, b) => contents[b]!.length - contents[a]!.length || a - b);
}

/**
 * A compression worker's side, for a worker started on a script (the CLI itself, or a
 * test's): see src/zip/compression-worker.ts.
 */
export function runCompressionWorker(): void {
  runWorkerSide(nodeWorkerThreads().workerData);
}
