// CRC-32 as ZIP uses it (APPNOTE 4.4.7: reflected 0xEDB88320, XOR 0xFFFFFFFF in and out), for writer and reader alike.
// Not node:zlib's: zlib.crc32 exists only from Node 20.15, and the validator uses no node: module.

/** Slicing-by-4 tables: table[k][b] is the CRC of byte b followed by k zero bytes. */
const TABLES: Uint32Array[] = (() => {
  const t0 = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t0[n] = c >>> 0;
  }
  const tables = [t0];
  for (let k = 1; k < 4; k++) {
    const prev = tables[k - 1]!;
    const next = new Uint32Array(256);
    for (let n = 0; n < 256; n++) next[n] = (t0[prev[n]! & 0xff]! ^ (prev[n]! >>> 8)) >>> 0;
    tables.push(next);
  }
  return tables;
})();

/** CRC-32 of `bytes`, continuing from `previous` (the CRC of the bytes before; 0 to start). */
export function crc32(bytes: Uint8Array, previous = 0): number {
  const [t0, t1, t2, t3] = TABLES as [Uint32Array, Uint32Array, Uint32Array, Uint32Array];
  let c = ~previous >>> 0;
  let i = 0;
  const n = bytes.length;
  const end4 = n - (n % 4);
  for (; i < end4; i += 4) {
    c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    c = t3[c & 0xff]! ^ t2[(c >>> 8) & 0xff]! ^ t1[(c >>> 16) & 0xff]! ^ t0[c >>> 24]!;
  }
  for (; i < n; i++) c = t0[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
