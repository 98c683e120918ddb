// The read-back proof of `package` (D-16: the store must never refuse what we wrote),
// made as each entry is compressed instead of in one pass at the end.
//
// The store's reader (verify, platform-review) inflates with node:zlib. Right after an
// entry is deflated, on whichever thread deflated it, proveStream inflates the stream
// with node:zlib exactly as the reader will (output capped at the content's size plus
// one byte, every input byte consumed) and compares the output with the bytes that were
// compressed, byte for byte. A proof therefore says: node:zlib reads this exact byte
// string to exactly these bytes. `package` then reads the assembled archive back with the
// hardened reader (readZip: the structure layer, the policy layer, sizes and CRCs against
// the headers) through provenInflater, which answers for a stream only when it is byte for
// byte a proven one: it returns what inflateRawCapped would return for it, without inflating
// a second time. Any other stream is inflated there and then.
//
// Memory: node:zlib returns every inflated copy in a fresh buffer, and V8 frees buffers that
// die young only at its next minor GC, which external memory alone starts only once 32 MiB
// of them are pending (twice the default semi-space), so the copies of a whole bundle would
// all still be resident at the end. So `package` gets V8's `gc` function in each of its
// threads (findCollect) and asks for a minor GC after every GARBAGE_BUDGET_BYTES of copies
// (bench/package.mjs prints the peak memory this bounds). Where `gc` cannot be had,
// nothing else changes.
import { createRequire } from 'node:module';
import type { InflateRaw } from '../validator/internal.js';
import { inflateCapped } from '../node/zlib-inflate.js';
import { crc32 } from '../node/hashes.js';

/** Inflated bytes let go between two minor GCs (well under V8's own 32 MiB trigger). */
const GARBAGE_BUDGET_BYTES = 512 << 10;

const load = createRequire(import.meta.url);
/** V8's gc function: a minor GC with `{ type: 'minor' }`, a full one without options. */
type Collect = (options?: { type: 'minor' }) => void;
let collect: Collect | null | undefined;
let allowed = false;
let garbage = 0;


/**
 * Lets this thread collect young garbage early (see above); a worker is told to by the
 * main thread (garbageReleaseAllowed, in its workerData). The CLI allows it: it owns its
 * process. The programmatic API leaves its host's V8 alone.
 */
export function allowGarbageRelease(): void {
  allowed = true;
}

/** Whether allowGarbageRelease was called on this thread (passed on to a worker). */
export function garbageReleaseAllowed(): boolean {
  return allowed;
}

/**
 * V8's gc function for this thread, or null. A global one when the process was started
 * with --expose-gc; otherwise, when allowed, the flag is set just long enough to create a
 * context that has the function, then put back. Put back because V8 refuses a code cache
 * made under other flags: left set, Node's compile cache (which a user may turn on) would
 * be refused and written again. The flag is process-wide: should the main thread and the
 * worker toggle it at the same moment, one of them may end up without `gc`, which costs
 * memory only.
 */
function findCollect(): Collect | null {
  const global = (globalThis as { gc?: unknown }).gc;
  if (typeof global === 'function') return global as Collect;
  if (!allowed) return null;
  const v8 = load('node:v8') as typeof import('node:v8');
  try {
    v8.setFlagsFromString('--expose-gc');
    const fromContext = (load('node:vm') as typeof import('node:vm')).runInNewContext('gc') as unknown;
    return typeof fromContext === 'function' ? (fromContext as Collect) : null;
  } catch {
    return null;
  } finally {
    try {
      v8.setFlagsFromString('--no-expose-gc');
    } catch {
      // Nothing else depends on it.
    }
  }
}

/**
 * Counts `bytes` of buffers let go (inflated copies, a worker's read buffers), and runs a
 * minor GC once enough are pending. Call it only where those buffers are out of reach
 * (after the function that held them has returned): a buffer still referenced during the
 * GC would survive it and move to the old generation, where only a full GC frees it.
 */
export function released(bytes: number): void {
  garbage += bytes;
  if (garbage < GARBAGE_BUDGET_BYTES) return;
  garbage = 0;
  collect ??= findCollect();
  try {
    collect?.({ type: 'minor' });
  } catch {
    collect = null;
  }
}

/**
 * A full GC now, where allowed: for the end of `package`'s check. Each text the check
 * decoded is a string, and V8 puts strings of more than 128 KiB straight into its
 * large-object space, which only a full GC frees; the heap's own limits start one only
 * after many megabytes of them, so a bundle's worth of decoded text would otherwise stay
 * resident through the compression that follows, where memory peaks. (The full GC needs
 * the function called without options: its `{ type: 'major' }` is a minor GC on Node 20.)
 */
export function releaseAll(): void {
  if (!allowed) return;
  collect ??= findCollect();
  try {
    collect?.();
  } catch {
    collect = null;
  }
}

/**
 * Whether node:zlib inflates `stream` to exactly `content`, consuming every byte of it
 * (the proof described above). The inflated copy, at most content.length bytes, is let go
 * on return: the caller passes that to `released` once its own frame is done with it.
 */
export function proveStream(stream: Uint8Array, content: Uint8Array): boolean {
  const result = inflateCapped(stream, content.length);
  return result.ok && Buffer.from(result.data.buffer, result.data.byteOffset, result.data.length).equals(content);
}

/** A stream proven by proveStream: it inflates to `content`, whose CRC-32 is `crc32`. */
export interface StreamProof {
  readonly stream: Uint8Array;
  readonly content: Uint8Array;
  readonly crc32: number;
}

/**
 * The inflater for the read-back of an archive made of proven streams. For a stream that
 * is byte for byte a proven one and is expected at its content's size, it returns that
 * content and its CRC-32: what inflateRawCapped returns for the stream, since node:zlib
 * inflated this very byte string to this content already. Anything else is inflated with
 * node:zlib now (and its copy let go, as the reader drops it: keepContent false).
 */
export function provenInflater(proofs: Iterable<StreamProof>): InflateRaw {
  // Keyed by stream length; equal streams (identical files) are interchangeable proofs.
  const byLength = new Map<number, StreamProof[]>();
  for (const proof of proofs) {
    const list = byLength.get(proof.stream.length);
    if (list === undefined) byLength.set(proof.stream.length, [proof]);
    else list.push(proof);
  }
  // The copy inflated for the previous stream, which the reader has dropped by the next call.
  let pending = 0;
  return (compressed, expectedSize) => {
    released(pending);
    pending = 0;
    const candidates = byLength.get(compressed.length);
    if (candidates !== undefined) {
      const bytes = Buffer.from(compressed.buffer, compressed.byteOffset, compressed.length);
      for (const proof of candidates) {
        if (proof.content.length === expectedSize && bytes.equals(proof.stream)) return { ok: true, data: proof.content, crc32: proof.crc32 };
      }
    }
    const result = inflateCapped(compressed, expectedSize);
    if (!result.ok) return result;
    pending = result.data.length;
    return { ok: true, data: result.data, crc32: crc32(result.data) };
  };
}
