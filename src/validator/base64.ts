// D-11: strict padded base64 (RFC 4648 section 4). Node's decoder skips junk and bad padding, so one key could be
// spelt many ways; this accepts exactly one spelling per byte string (re-encoding gives the same text).

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + '=';
  }
  return out;
}

/** The bytes of `text`, or null unless it is canonical padded standard base64. */
export function decodeBase64Strict(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  let pad = 0;
  if (text.endsWith('==')) pad = 2;
  else if (text.endsWith('=')) pad = 1;
  const body = text.length - pad;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < body; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? VALUES[c]! : -1;
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  // Canonical form: the bits left over under the padding must be zero (else two texts decode alike).
  if ((acc & ((1 << bits) - 1)) !== 0) return null;
  if (o !== out.length) return null;
  return encodeBase64(out) === text ? out : null;
}
