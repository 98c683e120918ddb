// The platform services the validator's release check needs, on Node.js built-ins only
// (this file is part of the operator's platform-review, which is built from
// dist/validator.mjs and node: modules alone).
import { nodeCrypto } from '../builtins.js';
import type { ZlibOptions } from 'node:zlib';
import { nodeZlib } from '../builtins.js';
import { crc32, type InflateResult, type ReleaseDeps } from '../validator/index.js';

/**
 * node:zlib's CRC-32 (Node.js 20.15 and later; the same function as ours, about 10x
 * faster), else ours. Looked up through the namespace so that older Node.js 20 releases,
 * which lack the export, load this module too.
 */
let nativeCrc32: ((data: Uint8Array) => number) | null | undefined;

/** CRC-32 as ZIP defines it (APPNOTE 4.4.7), natively where Node.js has it. */
export function crc32Fast(bytes: Uint8Array): number {
  // node:zlib is loaded on first use (src/builtins.ts), not at start-up.
  nativeCrc32 ??= (nodeZlib() as { crc32?: (data: Uint8Array) => number }).crc32 ?? null;
  return nativeCrc32 !== null ? nativeCrc32(bytes) : crc32(bytes);
}

export function sha256Hex(bytes: Uint8Array): string {
  return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

/** Ed25519 verification of a raw 32-byte key; a key that is not a curve point simply fails. */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = nodeCrypto().createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' });
    return nodeCrypto().verify(null, message, key, signature);
  } catch {
    return false;
  }
}

/**
 * Raw inflate capped at the declared size (D-16: never inflate more than that), and
 * refusing trailing bytes after the end of the DEFLATE stream (zlib ignores them).
 */
export function inflateRawCapped(compressed: Uint8Array, expectedSize: number): InflateResult {
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
  const data = new Uint8Array(result.buffer.buffer, result.buffer.byteOffset, result.buffer.length);
  // The CRC of what was produced, natively: the reader then need not compute it in JavaScript.
  nativeCrc32 ??= (nodeZlib() as { crc32?: (data: Uint8Array) => number }).crc32 ?? null;
  return nativeCrc32 !== null ? { ok: true, data, crc32: nativeCrc32(data) } : { ok: true, data };
}

export const NODE_RELEASE_DEPS: ReleaseDeps = { inflateRaw: inflateRawCapped, sha256Hex, verifyEd25519 };
