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
