// Compressing a bundle's entries on two threads: the main thread and one worker (this
// machine and CI have two cores). compressEntry is a pure function of each content, so
// which thread compresses which entry changes nothing: assembleZip over these results is
// byte-for-byte writeZip's archive (D-15; test/zip/zip-write.test.mjs compares both paths).
//
// The worker starts as early as it can: the CLI launches it for `package` before it loads
// the command's code (prelaunchCompressionWorker: a worker takes tens of milliseconds to start), and
// `package` sends it to work on the project's runtime/ before reading the project itself.
// The worker lists the folder and compresses its files, largest first, while the main
// thread reads and checks the project; the main thread then takes its share of what is
// left and collects the worker's results. Its side is synchronous, as `package` is:
// results are read with receiveMessageOnPort, with Atomics.wait between them. Work is
// claimed through one shared counter over the worker's listing, so that the two threads
// finish close together.
//
// The worker reads each file it claims from disk itself (into one reused buffer, or one of
// the file's own): the main thread's copy, the one that was checked, is the only one held
// for the whole run. The main thread uses a result only for a file it read that has the
// listed size and whose CRC-32 is that of the bytes the worker compressed (node:zlib's
// CRC, a few GB/s); any other file it compresses itself. A file edited during the run is
// thus compressed again from the checked bytes, unless the edit kept both its size and its
// CRC-32: a 1 in 2^32 chance for an edit made during the very second `package` runs, and
// even then the archive is consistent (its CRC is of its data).
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
import { garbageReleaseAllowed, proveStream, released, type StreamProof } from './read-back-proof.js';
import { trace, traceOrigin } from '../node/trace.js';
import { crc32 } from '../node/hashes.js';
import { runCompressionWorker as runWorkerSide } from './compression-worker.js';
import { COUNTER_SLOTS, DONE, FAILED, LISTED, NEXT, WORKER_ROLE, type WorkerInput, type WorkerListing, type WorkerMessage, type WorkerResult, type WorkerWork } from './compression-worker-protocol.js';
import { ZIP_FORMAT } from '../validator/internal.js';

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
/** A claim position past any listing: stores into NEXT to stop the worker's claims. */
const CLAIMED_ALL = 1 << 30;
/**
 * Warm-up rounds of the main thread's encoder before its check (src/zip/deflate.ts
 * warmUpEncoder), after which V8 compiles the encoder on its background threads while the
 * check runs; without them the main thread's first entries after the check would run
 * uncompiled.
 */
const MAIN_WARM_UP_ROUNDS = 16;

let workerScript: string | URL | null = null;

/**
 * Where a compression worker starts when there is no embedded bundle (dist/ has one): a
 * script that calls runCompressionWorker. Default: build/zip/compression-worker-entry.js.
 */
export function setCompressionWorkerScript(script: string | URL | null): void {
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
  /**
   * Compresses what the worker has not claimed, waits for the rest, and returns an entry
   * for each of `files` (the contents the caller read and checked).
   */
  finish(files: readonly ZipFileInput[]): Compressed;
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
  const entry = compressEntry(content, crc32);
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

/** A worker launched by prelaunchCompressionWorker and not yet taken. */
let prelaunched: CompressionWorker | null = null;

/**
 * Launches a compression worker now, for the next launchCompressionWorker to take: the CLI
 * calls it for `package` before loading the command's code, so that the worker's start-up
 * overlaps that loading. Unless taken, it is let go by discardPrelaunchedWorker (or when
 * the process ends: it never keeps the process alive).
 */
export function prelaunchCompressionWorker(): void {
  prelaunched ??= startWorker();
}

/** Stops a prelaunched worker that will not be needed (a bundle too small to share). */
export function discardPrelaunchedWorker(): void {
  prelaunched?.dispose();
  prelaunched = null;
}

/**
 * A compression worker, which waits for startCompression to give it work: the prelaunched
 * one, or one started now. Never null in practice; a worker that cannot start claims
 * nothing, and the main thread then does everything.
 */
export function launchCompressionWorker(): CompressionWorker | null {
  const worker = prelaunched ?? startWorker();
  prelaunched = null;
  return worker;
}

function startWorker(): CompressionWorker | null {
  const counters = new Int32Array(new SharedArrayBuffer(COUNTER_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  const { MessageChannel, Worker } = nodeWorkerThreads();
  const channel = new MessageChannel();
  const input: WorkerInput = { role: WORKER_ROLE, port: channel.port2, counters, traceOrigin: traceOrigin() };
  let worker: Worker | null;
  try {
    const options = { workerData: input, argv: [WORKER_ROLE], transferList: [channel.port2], stdout: true, stderr: true };
    worker =
      typeof __PLATFORM_DEFLATE_WORKER_SOURCE__ === 'string'
        ? new Worker(__PLATFORM_DEFLATE_WORKER_SOURCE__, { ...options, eval: true })
        : new Worker(workerScript ?? new URL('./compression-worker-entry.js', import.meta.url), options);
    // Never keep the process alive, and never let a worker's failure become an uncaught
    // 'error' event: the main thread finishes the work whatever happens to the worker. A
    // worker that fails (its script cannot load, it throws) says so through FAILED, so that
    // the main thread stops waiting for it at once.
    worker.unref();
    worker.on('error', () => Atomics.store(counters, FAILED, 1));
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

/** A listing position the worker answered for, with what it said. */
interface WorkerAnswer {
  readonly size: number;
  readonly result: WorkerResult;
}

/**
 * Sends a launched worker (one is launched now when none is given) to compress the files
 * under `root` (a project's runtime/), and returns the compression in progress, or null
 * when no worker could be launched. The worker lists and reads the files itself, so this
 * may be called before the caller reads them; `finish` is then given the contents the
 * caller read and checked.
 */
export function startCompression(root: string, launched: CompressionWorker | null = launchCompressionWorker()): ParallelCompression | null {
  if (launched === null) return null;
  const handle = launched as LaunchedWorker;
  const { port, counters } = handle;
  port.postMessage({ root, releaseGarbage: garbageReleaseAllowed() } satisfies WorkerWork);
  // The main thread compresses only after its check: have V8 compile its encoder meanwhile.
  warmUpEncoder(MAIN_WARM_UP_ROUNDS);
  trace('encoder warmed up');
  let listing: WorkerListing | null = null;
  /** Results read so far, by listing position. */
  const answers = new Map<number, WorkerAnswer>();
  let lastProgress = Date.now();

  /** Reads every message already posted; returns how many results it read. */
  function drain(): number {
    let read = 0;
    for (;;) {
      const message = nodeWorkerThreads().receiveMessageOnPort(port) as { message: WorkerMessage } | undefined;
      if (message === undefined) return read;
      lastProgress = Date.now();
      const posted = message.message;
      if (posted.kind === 'listing') listing = posted;
      else if (listing !== null) {
        answers.set(posted.index, { size: listing.sizes[posted.index]!, result: posted });
        read++;
      }
    }
  }

  /** Whether the worker gave up or went silent: what it owes is compressed here. */
  function gaveUp(): boolean {
    return Atomics.load(counters, FAILED) === 1 || Date.now() - lastProgress > WORKER_STALL_MS;
  }

  /** The worker's listing, once posted; null when the worker gave up first. */
  function awaitListing(): WorkerListing | null {
    for (;;) {
      drain();
      if (listing !== null) return listing;
      if (Atomics.load(counters, LISTED) === 1) continue; // posted just before its message could be read
      if (gaveUp()) return null;
      Atomics.wait(counters, DONE, Atomics.load(counters, DONE), WAIT_SLICE_MS);
    }
  }

  function finish(files: readonly ZipFileInput[]): Compressed {
    const count = files.length;
    const results: (CompressedEntry | undefined)[] = new Array(count);
    const proofs: StreamProof[] = [];
    const byPath = new Map<string, number>();
    for (let index = 0; index < count; index++) byPath.set(files[index]!.path, index);
    const listed = awaitListing();
    if (listed !== null) {
      // The main thread's share: whatever is still unclaimed, of the files it read too.
      let claimed = 0;
      for (;;) {
        const k = Atomics.add(counters, NEXT, 1);
        if (k >= listed.paths.length) break;
        claimed++;
        const index = byPath.get(listed.paths[k]!);
        if (index !== undefined && results[index] === undefined) {
          results[index] = compressHere(files[index]!.content, proofs);
          trace(`compressed #${k} ${files[index]!.content.length}`);
        }
      }
      trace('main share done');
      // Every other position was claimed by the worker, which answers each.
      const owed = listed.paths.length - claimed;
      let received = answers.size;
      while (received < owed) {
        received += drain();
        if (received >= owed) break;
        const posted = Atomics.load(counters, DONE);
        if (posted > received) continue; // counted just before its message could be read
        if (gaveUp()) break;
        Atomics.wait(counters, DONE, posted, WAIT_SLICE_MS);
      }
      // A result is taken for a file whose content here has the listed size and the CRC-32
      // of the bytes the worker compressed: the file the worker read is the one checked.
      for (const [k, { size, result }] of answers) {
        const index = byPath.get(listed.paths[k]!);
        if (index === undefined || results[index] !== undefined || result.method === undefined || result.crc32 === undefined) continue;
        const content = files[index]!.content;
        if (content.length !== size || result.crc32 !== crc32(content)) continue;
        const stored = result.method === METHOD_STORED;
        results[index] = { method: result.method, data: stored ? content : result.data!, crc32: result.crc32 };
        if (!stored && result.proven === true) proofs.push({ stream: result.data!, content, crc32: result.crc32 });
      }
    }
    handle.dispose();
    // What the worker did not do, or did on bytes other than these: here.
    for (let index = 0; index < count; index++) {
      if (results[index] === undefined) results[index] = compressHere(files[index]!.content, proofs);
    }
    const entries = new Map<string, CompressedEntry>();
    for (let index = 0; index < count; index++) entries.set(files[index]!.path, results[index]!);
    return { entries, proofs };
  }

  function cancel(): void {
    // Claim everything that is left, so the worker stops after its current entry.
    Atomics.store(counters, NEXT, CLAIMED_ALL);
    handle.dispose();
  }

  function progress(): { posted: number; failed: boolean } {
    return { posted: Atomics.load(counters, DONE), failed: Atomics.load(counters, FAILED) === 1 };
  }

  return { finish, cancel, progress };
}

/**
 * A compression worker's side, for a worker started on a script (the CLI itself, or a
 * test's): see src/zip/compression-worker.ts.
 */
export function runCompressionWorker(): void {
  runWorkerSide(nodeWorkerThreads().workerData);
}
