// One capped raw inflate for the store's reader (release-deps.ts) and package's read-back proof, so the proof inflates
// exactly as the reader will. Callers take CRC-32 from hashes.ts, which falls back where node:zlib has none.
import type { ZlibOptions } from 'node:zlib';
import { nodeZlib } from './builtins.js';
import type { InflateResult } from '../validator/internal.js';

let nativeCrc32: ((data: Uint8Array) => number) | null | undefined;

// node:zlib's crc32 exists from Node.js 20.15: looked up on the namespace so that older releases load this module.
export function nativeCrc32OrNull(): ((data: Uint8Array) => number) | null {
  nativeCrc32 ??= (nodeZlib() as { crc32?: (data: Uint8Array) => number }).crc32 ?? null;
  return nativeCrc32;
}

// Capped at the declared size (D-16), refusing trailing bytes after the stream (zlib ignores them); no CRC.
export function inflateCapped(compressed: Uint8Array, expectedSize: number): InflateResult {
  let result: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    // One byte over the declared size tells "too long" without producing more; one chunk that size (zlib's minimum
    // is 64) holds the whole result, with no pieces joined by a copy.
    const options: ZlibOptions & { info: true } = { maxOutputLength: expectedSize + 1, chunkSize: Math.max(expectedSize + 1, 64), info: true };
    result = nodeZlib().inflateRawSync(compressed, options) as unknown as typeof result;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || (error as Error).name === 'RangeError') return { ok: false, reason: 'too-long' };
    if (code === 'Z_BUF_ERROR') return { ok: false, reason: 'too-short' };
    return { ok: false, reason: 'corrupt' };
  }
  if (result.buffer.length > expectedSize) return { ok: false, reason: 'too-long' };
  if (result.buffer.length < expectedSize) return { ok: false, reason: 'too-short' };
  if (result.engine.bytesWritten !== compressed.length) return { ok: false, reason: 'trailing-data' };
  return { ok: true, data: new Uint8Array(result.buffer.buffer, result.buffer.byteOffset, result.buffer.length) };
}

/** The parts of a node:zlib engine that its own sync functions drive; absent, inflateEquals answers null. */
interface EngineInternals {
  readonly _handle?: { writeSync?: (flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number) => void };
  readonly _writeState?: Uint32Array;
}

const COMPARE_CHUNK = 64 << 10;
let compareScratch: Buffer | null = null;

/**
 * Whether node:zlib's raw inflate turns all of `stream` into exactly `content`, compared a chunk at a time in one
 * reused buffer, so that proving a bundle leaves no inflated copies behind for the collector. It drives the
 * engine the way node:zlib's own sync functions do (its handle's writeSync with Z_FINISH); null when this
 * Node.js has no such handle, and the caller inflates through the public function instead. A wrong answer
 * cannot make a bad stream pass: true needs every output byte to equal the content.
 */
export function inflateEquals(stream: Uint8Array, content: Uint8Array): boolean | null {
  const zlib = nodeZlib();
  const engine = zlib.createInflateRaw() as unknown as EngineInternals & import('node:events').EventEmitter & { close(): void; readonly destroyed: boolean };
  const handle = engine._handle;
  const state = engine._writeState;
  if (typeof handle?.writeSync !== 'function' || !(state instanceof Uint32Array) || state.length < 2) {
    engine.close();
    return null;
  }
  // An engine error destroys the engine at once and emits 'error' later: listened to, so nothing is thrown then.
  engine.on('error', () => {});
  compareScratch ??= Buffer.allocUnsafe(COMPARE_CHUNK);
  const out = compareScratch;
  const expected = Buffer.from(content.buffer, content.byteOffset, content.length);
  let inOff = 0;
  let produced = 0;
  try {
    for (;;) {
      const inLen = stream.length - inOff;
      handle.writeSync(zlib.constants.Z_FINISH, stream, inOff, inLen, out, 0, COMPARE_CHUNK);
      if (engine.destroyed) return false;
      const availOut = state[0]!;
      const have = COMPARE_CHUNK - availOut;
      inOff += inLen - state[1]!;
      if (have > 0) {
        if (produced + have > content.length || out.compare(expected, produced, produced + have, 0, have) !== 0) return false;
        produced += have;
      }
      if (availOut !== 0) break;
    }
  } catch {
    return false;
  } finally {
    engine.close();
  }
  return produced === content.length && inOff === stream.length;
}
