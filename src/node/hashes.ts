// The tool's hashes: SHA-256 from node:crypto and CRC-32 as ZIP defines it (APPNOTE 4.4.7), native where Node has it.
// Bundled into platform-review and the compression worker: node: built-ins and the validator only.
import type { Hash } from 'node:crypto';
import { nodeCrypto } from './builtins.js';
import { crc32 as crc32InJs } from '../validator/internal.js';
import { nativeCrc32OrNull } from './zlib-inflate.js';

/** SHA-256 of bytes, or of a string's UTF-8, as 64 lowercase hex digits. */
export function sha256Hex(data: Uint8Array | string): string {
  return nodeCrypto().createHash('sha256').update(data).digest('hex');
}

export function sha256Base64(text: string): string {
  return nodeCrypto().createHash('sha256').update(text, 'utf8').digest('base64');
}

export function createSha256(): Hash {
  return nodeCrypto().createHash('sha256');
}

export function crc32(bytes: Uint8Array): number {
  const native = nativeCrc32OrNull();
  return native !== null ? native(bytes) : crc32InJs(bytes);
}
