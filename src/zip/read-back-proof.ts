// The read-back proof of `package` (D-16: the store must never refuse what we wrote), made as each entry is
// deflated: node:zlib, as the store's reader uses it, must inflate the stream to exactly the content. The
// final read-back of the archive (readZip) then takes proven streams from provenInflater, not inflating twice.
import type { InflateRaw } from '../validator/internal.js';
import { inflateCapped, inflateEquals } from '../node/zlib-inflate.js';
import { crc32 } from '../node/hashes.js';

/** Whether node:zlib inflates `stream`, every byte of it, to exactly `content` (output capped at its size). */
export function proveStream(stream: Uint8Array, content: Uint8Array): boolean {
  const compared = inflateEquals(stream, content);
  if (compared !== null) return compared;
  const result = inflateCapped(stream, content.length);
  return result.ok && Buffer.from(result.data.buffer, result.data.byteOffset, result.data.length).equals(content);
}

export interface StreamProof {
  readonly stream: Uint8Array;
  readonly content: Uint8Array;
  readonly crc32: number;
}

/** Answers from a proof only for a byte-identical stream at its content's size; inflates anything else. */
export function provenInflater(proofs: Iterable<StreamProof>): InflateRaw {
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
