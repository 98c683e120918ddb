// The read-back proof of `package` (D-16: the store must never refuse what we wrote),
// made as each entry is compressed instead of in one pass at the end.
//
// The store's reader (verify, platform-review) inflates with node:zlib. Right after an
// entry is deflated, on whichever thread deflated it, proveStream inflates the stream
// with node:zlib exactly as the reader will (output capped at the content's size plus
// one byte, every input byte consumed) and compares the output with the bytes that were
// compressed, byte for byte. A proof therefore says: node:zlib reads this exact byte
// string to exactly these bytes. `package` then reads the assembled archive back with the
// hardened reader (readZip: the structure layer, the policy layer, sizes and CRCs against
// the headers) through provenInflater, which answers for a stream only when it is byte for
// byte a proven one: it returns what inflateRawCapped would return for it, without inflating
// a second time. Any other stream is inflated there and then.
import type { InflateRaw } from '../validator/internal.js';
import { inflateCapped } from '../node/zlib-inflate.js';
import { crc32 } from '../node/hashes.js';

/**
 * Whether node:zlib inflates `stream` to exactly `content`, consuming every byte of it
 * (the proof described above). The inflated copy is let go on return.
 */
export function proveStream(stream: Uint8Array, content: Uint8Array): boolean {
  const result = inflateCapped(stream, content.length);
  return result.ok && Buffer.from(result.data.buffer, result.data.byteOffset, result.data.length).equals(content);
}

/** A stream proven by proveStream: it inflates to `content`, whose CRC-32 is `crc32`. */
export interface StreamProof {
  readonly stream: Uint8Array;
  readonly content: Uint8Array;
  readonly crc32: number;
}

/**
 * The inflater for the read-back of an archive made of proven streams. For a stream that
 * is byte for byte a proven one and is expected at its content's size, it returns that
 * content and its CRC-32: what inflateRawCapped returns for the stream, since node:zlib
 * inflated this very byte string to this content already. Anything else is inflated with
 * node:zlib now.
 */
export function provenInflater(proofs: Iterable<StreamProof>): InflateRaw {
  // Keyed by stream length; equal streams (identical files) are interchangeable proofs.
  const byLength = new Map<number, StreamProof[]>();
  for (const proof of proofs) {
    const list = byLength.get(proof.stream.length);
    if (list === undefined) byLength.set(proof.stream.length, [proof]);
    else list.push(proof);
  }
  return (compressed, expectedSize) => {
    const candidates = byLength.get(compressed.length);
    if (candidates !== undefined) {
      const bytes = Buffer.from(compressed.buffer, compressed.byteOffset, compressed.length);
      for (const proof of candidates) {
        if (proof.content.length === expectedSize && bytes.equals(proof.stream)) return { ok: true, data: proof.content, crc32: proof.crc32 };
      }
    }
    const result = inflateCapped(compressed, expectedSize);
    if (!result.ok) return result;
    return { ok: true, data: result.data, crc32: crc32(result.data) };
  };
}
