// One entry's stored form (D-15), apart from the layout (zip-writer.ts) so the compression worker's bundle
// holds only this and the encoder.
import { BUNDLE_MAX_COMPRESSION_RATIO, ZIP_FORMAT } from '../validator/internal.js';
import { crc32 } from '../validator/internal.js';
import { deflateRaw, deflateRawWithStoredTail, type Allocate } from './deflate.js';

const { METHOD_DEFLATE, METHOD_STORED } = ZIP_FORMAT;

/** APPNOTE 4.4.5, 4.4.7. A pure function of the content: entries may be compressed in any order and thread. */
export interface CompressedEntry {
  readonly method: number;
  readonly data: Uint8Array;
  readonly crc32: number;
}

export type Crc32 = (bytes: Uint8Array) => number;

// Deflate when smaller than storing. An entry over BUNDLE_MAX_COMPRESSION_RATIO (D-16) keeps a stored tail
// of ceil(size / ratio) bytes rather than being refused or stored whole (D-41). `crc` may be node:zlib's;
// `allocate` gives the stream's buffer (a worker's is shared memory, so the stream is never copied again).
export function compressEntry(content: Uint8Array, crc: Crc32 = crc32, allocate?: Allocate): CompressedEntry {
  if (content.length === 0) return { method: METHOD_STORED, data: content, crc32: crc(content) };
  let deflated = deflateRaw(content, allocate);
  if (content.length > BUNDLE_MAX_COMPRESSION_RATIO * deflated.length) {
    const tail = Math.ceil(content.length / BUNDLE_MAX_COMPRESSION_RATIO);
    deflated = deflateRawWithStoredTail(content, content.length - tail, allocate);
  }
  if (deflated.length < content.length && content.length <= BUNDLE_MAX_COMPRESSION_RATIO * deflated.length) {
    return { method: METHOD_DEFLATE, data: deflated, crc32: crc(content) };
  }
  return { method: METHOD_STORED, data: content, crc32: crc(content) };
}
