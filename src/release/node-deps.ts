// The platform services the validator's release check needs, on Node.js built-ins only
// (this file is part of the operator's platform-review, which is built from
// dist/validator.mjs and node: modules alone).
import { createHash, createPublicKey, verify } from 'node:crypto';
import { inflateRawSync, type ZlibOptions } from 'node:zlib';
import type { InflateResult, ReleaseDeps } from '../validator/index.js';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Ed25519 verification of a raw 32-byte key; a key that is not a curve point simply fails. */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' });
    return verify(null, message, key, signature);
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
    // tell "too long" without producing more.
    const options: ZlibOptions & { info: true } = { maxOutputLength: expectedSize + 1, info: true };
    result = inflateRawSync(compressed, options) as unknown as typeof result;
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

export const NODE_RELEASE_DEPS: ReleaseDeps = { inflateRaw: inflateRawCapped, sha256Hex, verifyEd25519 };
