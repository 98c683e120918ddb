// The release check's platform services on node: built-ins only (platform-review is built from them and the validator).
import { nodeCrypto } from './builtins.js';
import type { InflateResult, ReleaseDeps } from '../validator/index.js';
import { inflateCapped, nativeCrc32OrNull } from './zlib-inflate.js';
import { crc32, sha256Hex } from './hashes.js';

/** Ed25519 verification of a raw 32-byte key; a key that is not a curve point simply fails. */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = nodeCrypto().createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' });
    return nodeCrypto().verify(null, message, key, signature);
  } catch {
    return false;
  }
}

/** Raw inflate capped at the declared size (D-16), refusing trailing bytes after the stream (zlib ignores them). */
export function inflateRawCapped(compressed: Uint8Array, expectedSize: number): InflateResult {
  const result = inflateCapped(compressed, expectedSize);
  if (!result.ok) return result;
  // The CRC of what was produced, natively: the reader then need not compute it in JavaScript.
  const native = nativeCrc32OrNull();
  return native !== null ? { ok: true, data: result.data, crc32: native(result.data) } : result;
}

/** The release check's services on Node.js; inflate stops at the cap, so the reader need not walk streams first. */
export const NODE_RELEASE_DEPS: ReleaseDeps = { inflateRaw: inflateRawCapped, sha256Hex, verifyEd25519, crc32, inflateRawStopsAtCap: true };
