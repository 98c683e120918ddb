// node:zlib as both the store's reader (src/node/release-deps.ts) and package's read-back
// proof (src/zip/read-back-proof.ts) use it: one capped raw inflate and the native CRC-32, so
// that the proof inflates exactly as the reader will. The CRC-32 callers use is
// src/node/hashes.ts's, which falls back to the validator's where node:zlib has none.
import type { ZlibOptions } from 'node:zlib';
import { nodeZlib } from './builtins.js';
import type { InflateResult } from '../validator/internal.js';

let nativeCrc32: ((data: Uint8Array) => number) | null | undefined;

/**
 * node:zlib's CRC-32 (Node.js 20.15 and later; the same function as the validator's, in
 * native code), or null. Looked up through the namespace so that older Node.js 20 releases,
 * which lack the export, load this module too.
 */
export function nativeCrc32OrNull(): ((data: Uint8Array) => number) | null {
  nativeCrc32 ??= (nodeZlib() as { crc32?: (data: Uint8Array) => number }).crc32 ?? null;
  return nativeCrc32;
}

/**
 * Raw inflate capped at the declared size (D-16: never inflate more than that), refusing
 * trailing bytes after the end of the DEFLATE stream (zlib ignores them). No CRC: callers
 * add the one they need.
 */
export function inflateCapped(compressed: Uint8Array, expectedSize: number): InflateResult {
  let result: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    // maxOutputLength must be at least 1; one byte over the declared size is enough to
    // tell "too long" without producing more. One output chunk of that size (zlib's
    // minimum is 64 bytes) holds the whole result: no 16 KiB pieces joined by a copy.
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
