// One archive entry's stored form (D-15): the only part of writing a ZIP that depends on
// a file's content, and the only part that costs time. Kept apart from the layout
// (src/zip/zip-writer.ts) so that the compression worker's bundle holds just this and the encoder.
import { BUNDLE_MAX_COMPRESSION_RATIO, ZIP_FORMAT } from '../validator/internal.js';
import { crc32 } from '../validator/internal.js';
import { deflateRaw, deflateRawWithStoredTail } from './deflate.js';

const { METHOD_DEFLATE, METHOD_STORED } = ZIP_FORMAT;

/**
 * One entry's stored form (APPNOTE 4.4.5, 4.4.7): everything of an entry that depends on
 * its content, and the only part that costs time. A pure function of the content
 * (compressEntry), so entries may be compressed in any order, on any thread.
 */
export interface CompressedEntry {
  /** METHOD_STORED or METHOD_DEFLATE. */
  readonly method: number;
  /** The bytes as they go into the archive: the content itself, or its raw DEFLATE stream. */
  readonly data: Uint8Array;
  /** CRC-32 of the uncompressed content. */
  readonly crc32: number;
}

/** CRC-32 as ZIP defines it (the validator's, or an equal native one; see compressEntry). */
export type Crc32 = (bytes: Uint8Array) => number;

/**
 * Deflate (method 8) when it is smaller than storing. The reader refuses an entry whose
 * ratio uncompressed / compressed exceeds BUNDLE_MAX_COMPRESSION_RATIO (D-16, a zip-bomb
 * guard), and `package` never refuses a project an archive within every limit exists for
 * (D-41): when the DEFLATE stream would exceed the ratio, the entry is still deflated,
 * with its last ceil(size / ratio) bytes in stored blocks after the compressed start
 * (deflateRawWithStoredTail), so the stream is at least size / ratio bytes. Storing the
 * whole file instead would cost a hundred times as much, and two such files could break
 * the compressed-size limit. Empty files are stored (size 0). Integer arithmetic only;
 * entries within the ratio are exactly deflateRaw's stream.
 *
 * `crc` may be any implementation of the same function (node:zlib's native one where it
 * exists): the value, and so the archive, is the same.
 */
export function compressEntry(content: Uint8Array, crc: Crc32 = crc32): CompressedEntry {
  if (content.length === 0) return { method: METHOD_STORED, data: content, crc32: crc(content) };
  let deflated = deflateRaw(content);
  if (content.length > BUNDLE_MAX_COMPRESSION_RATIO * deflated.length) {
    const tail = Math.ceil(content.length / BUNDLE_MAX_COMPRESSION_RATIO);
    deflated = deflateRawWithStoredTail(content, content.length - tail);
  }
  if (deflated.length < content.length && content.length <= BUNDLE_MAX_COMPRESSION_RATIO * deflated.length) {
    return { method: METHOD_DEFLATE, data: deflated, crc32: crc(content) };
  }
  return { method: METHOD_STORED, data: content, crc32: crc(content) };
}
