// The hashes every part of the tool uses, in one place: SHA-256 (hex for the submission
// record and fingerprints, base64 for the preview's script policy, incremental for the
// preview's content key) from node:crypto, and CRC-32 as ZIP defines it (APPNOTE 4.4.7),
// natively where Node.js has it and the validator's otherwise. Part of platform-review and
// of the compression worker's bundle: node: built-ins and the validator's index only.
import type { Hash } from 'node:crypto';
import { nodeCrypto } from './builtins.js';
import { crc32 as crc32InJs } from '../validator/internal.js';
import { nativeCrc32OrNull } from './zlib-inflate.js';

/** SHA-256 of bytes, or of a string's UTF-8, as 64 lowercase hex digits. */
export function sha256Hex(data: Uint8Array | string): string {
  return nodeCrypto().createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of a string's UTF-8 in base64 (a CSP hash source). */
export function sha256Base64(text: string): string {
  return nodeCrypto().createHash('sha256').update(text, 'utf8').digest('base64');
}

/** An incremental SHA-256, for content hashed piece by piece. */
export function createSha256(): Hash {
  return nodeCrypto().createHash('sha256');
}

/** CRC-32 of `bytes`: node:zlib's where the running Node.js has it, the validator's otherwise (same values). */
export function crc32(bytes: Uint8Array): number {
  const native = nativeCrc32OrNull();
  return native !== null ? native(bytes) : crc32InJs(bytes);
}
