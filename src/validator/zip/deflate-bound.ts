// How much a raw DEFLATE stream (RFC 1951) inflates to, walked with no window or output before any inflater sees it:
// no inflater, even one ignoring its cap, gets a stream over the declared size, so a lying directory is refused.
// As strict as zlib where zlib refuses (type 3, bad stored lengths, >286/30 codes, over-subscribed or incomplete codes
// but a lone 1-bit code or none, bad repeats, no end-of-block, symbols 286/287 and 30/31, too-far distances), and zlib
// refuses what it calls corrupt (maybe as cut short: zlib reads a whole header first); deflate-bound.test.mjs checks.

/** 'over' the cap (nothing may inflate it); 'corrupt' as zlib judges; 'within': at most the cap, even if truncated. */
export type DeflateBound =
  | 'over'
  | 'corrupt'
  | 'within';

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** RFC 1951 3.2.7: the order of the code length code lengths. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
const MAX_BITS = 15;
/** Codes of at most this many bits decode with one table lookup; longer ones bit by bit. */
const FAST_BITS = 10;
const FAST_SIZE = 1 << FAST_BITS;
const FAST_MASK = FAST_SIZE - 1;
/** Table entries besides `symbol << 4 | length`: no code here, or a code longer than FAST_BITS. */
const NO_CODE = -1;
const LONG_CODE = -2;

/** One canonical Huffman code (RFC 1951 3.2.2), as lookup table and per-length counts. */
class Code {
  readonly fast = new Int32Array(FAST_SIZE);
  /**
   * Index mask of `fast`: as many bits as the longest code, at most FAST_BITS. A table no
   * larger than the code needs keeps a stream of many tiny blocks from costing a full
   * table per block.
   */
  mask = FAST_MASK;
  readonly count = new Uint16Array(MAX_BITS + 1);
  /** Symbols ordered by (code length, symbol): canonical code order. */
  readonly symbols = new Uint16Array(288);
}

const literalCode = new Code();
const distanceCode = new Code();
const lengthsCode = new Code();
const lengths = new Uint8Array(288 + 32);
const fixedLiteral = new Code();
const fixedDistance = new Code();
const nextCode = new Uint16Array(MAX_BITS + 2);
const offsets = new Uint16Array(MAX_BITS + 2);
let fixedBuilt = false;

// False where zlib refuses: over-subscribed, or incomplete except a lone 1-bit literal/distance code or none (these
// fail only when a symbol is decoded).
function buildCode(code: Code, lens: Uint8Array, start: number, n: number, isCodeLengthCode: boolean): boolean {
  const count = code.count;
  count.fill(0);
  for (let s = 0; s < n; s++) count[lens[start + s]!]!++;
  let max = MAX_BITS;
  while (max >= 1 && count[max] === 0) max--;
  const tableBits = Math.max(1, Math.min(max, FAST_BITS));
  const tableSize = 1 << tableBits;
  code.mask = tableSize - 1;
  code.fast.fill(NO_CODE, 0, tableSize);
  count[0] = 0;
  if (max === 0) return true;
  let left = 1;
  for (let len = 1; len <= MAX_BITS; len++) {
    left = (left << 1) - count[len]!;
    if (left < 0) return false;
  }
  if (left > 0 && (isCodeLengthCode || max !== 1)) return false;
  offsets[1] = 0;
  for (let len = 1; len < MAX_BITS; len++) offsets[len + 1] = offsets[len]! + count[len]!;
  for (let s = 0; s < n; s++) {
    const len = lens[start + s]!;
    if (len !== 0) code.symbols[offsets[len]!++] = s;
  }
  // Canonical codes, reversed (DEFLATE sends Huffman codes most significant bit first).
  let next = 0;
  for (let len = 1; len <= MAX_BITS; len++) {
    next = (next + count[len - 1]!) << 1;
    nextCode[len] = next;
  }
  for (let s = 0; s < n; s++) {
    const len = lens[start + s]!;
    if (len === 0) continue;
    const value = nextCode[len]!++;
    let reversed = 0;
    for (let b = 0; b < len; b++) reversed |= ((value >>> b) & 1) << (len - 1 - b);
    if (len <= FAST_BITS) {
      for (let slot = reversed; slot < tableSize; slot += 1 << len) code.fast[slot] = (s << 4) | len;
    } else {
      code.fast[reversed & FAST_MASK] = LONG_CODE;
    }
  }
  return true;
}

function buildFixed(): void {
  for (let s = 0; s < 288; s++) lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
  buildCode(fixedLiteral, lengths, 0, 288, false);
  // All 32 five-bit codes (a complete code); symbols 30 and 31 are refused when decoded.
  for (let s = 0; s < 32; s++) lengths[s] = 5;
  buildCode(fixedDistance, lengths, 0, 32, false);
  fixedBuilt = true;
}

/** The bit reader's state, kept in an object between the walk's rare steps (headers, long codes). */
class Bits {
  pos = 0;
  /** Zero bytes loaded past the end: a stream that uses them is truncated. */
  beyond = 0;
  bits = 0;
  count = 0;
  constructor(readonly stream: Uint8Array) {}

  /** Makes at least `n` (<= 24) bits available. */
  need(n: number): void {
    while (this.count < n) {
      if (this.pos < this.stream.length) this.bits |= this.stream[this.pos++]! << this.count;
      else this.beyond++;
      this.count += 8;
    }
  }

  take(n: number): number {
    this.need(n);
    const value = this.bits & ((1 << n) - 1);
    this.bits >>>= n;
    this.count -= n;
    return value;
  }

  /** True once bits past the end of the input were consumed. */
  truncated(): boolean {
    return this.beyond * 8 > this.count;
  }

  /** The next symbol of `code`, or -1 for a bit pattern that is no code. */
  decode(code: Code): number {
    this.need(MAX_BITS);
    const entry = code.fast[this.bits & code.mask]!;
    if (entry >= 0) {
      const len = entry & 15;
      this.bits >>>= len;
      this.count -= len;
      return entry >>> 4;
    }
    if (entry === NO_CODE) return -1;
    // A long code: canonical decoding one bit at a time (RFC 1951 3.2.2).
    let value = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len <= MAX_BITS; len++) {
      value |= (this.bits >>> (len - 1)) & 1;
      const n = code.count[len]!;
      if (value - first < n) {
        this.bits >>>= len;
        this.count -= len;
        return code.symbols[index + value - first]!;
      }
      index += n;
      first = (first + n) << 1;
      value <<= 1;
    }
    return -1;
  }
}

type Header = 'fixed' | 'dynamic' | DeflateBound;

/** Never throws; linear in the stream's length (each symbol consumes at least one bit). */
export function deflateBound(stream: Uint8Array, cap: number): DeflateBound {
  if (!fixedBuilt) buildFixed();
  const r = new Bits(stream);
  let out = 0;
  for (;;) {
    const final = r.take(1);
    const type = r.take(2);
    if (type === 0) {
      const stored = storedBlock(r);
      if (stored < 0) return stored === STORED_CORRUPT ? 'corrupt' : 'within';
      out += stored;
      if (out > cap) return 'over';
      if (r.truncated()) return 'within';
    } else if (type === 1 || type === 2) {
      if (type === 2) {
        const header = dynamicHeader(r);
        if (header !== 'dynamic') return header as DeflateBound;
      }
      const verdict = symbols(r, type === 1 ? fixedLiteral : literalCode, type === 1 ? fixedDistance : distanceCode, out, cap);
      if (verdict < 0) return verdict === SYMBOLS_OVER ? 'over' : verdict === SYMBOLS_CORRUPT ? 'corrupt' : 'within';
      out = verdict;
    } else {
      return 'corrupt';
    }
    if (final === 1) return 'within';
  }
}

const STORED_CORRUPT = -1;
const STORED_TRUNCATED = -2;

/** A stored block (3.2.4) after its 3 header bits: its length, or STORED_CORRUPT / STORED_TRUNCATED. */
function storedBlock(r: Bits): number {
  r.bits >>>= r.count & 7;
  r.count -= r.count & 7;
  const len = r.take(16);
  const nlen = r.take(16);
  if (r.truncated()) return STORED_TRUNCATED;
  if ((len ^ 0xffff) !== nlen) return STORED_CORRUPT;
  // The bit buffer now holds whole bytes only; they are the block's first bytes.
  const fromBuffer = Math.min(r.count >>> 3, len);
  r.bits = fromBuffer >= 4 ? 0 : r.bits >>> (fromBuffer * 8);
  r.count -= fromBuffer * 8;
  // A truncated block still yields the bytes that are there (truncated() tells the caller).
  const rest = len - fromBuffer;
  const available = Math.min(rest, r.stream.length - r.pos);
  r.pos += available;
  if (available < rest) r.beyond += rest - available;
  return len - (rest - available);
}

/** A dynamic block's header (3.2.7): builds literalCode and distanceCode. */
function dynamicHeader(r: Bits): Header {
  const nlen = r.take(5) + 257;
  const ndist = r.take(5) + 1;
  const ncode = r.take(4) + 4;
  if (nlen > 286 || ndist > 30) return 'corrupt';
  lengths.fill(0, 0, 19);
  for (let k = 0; k < ncode; k++) lengths[CODE_LENGTH_ORDER[k]!] = r.take(3);
  if (r.truncated()) return 'within';
  if (!buildCode(lengthsCode, lengths, 0, 19, true)) return 'corrupt';
  const total = nlen + ndist;
  let k = 0;
  while (k < total) {
    const symbol = r.decode(lengthsCode);
    if (r.truncated()) return 'within';
    if (symbol < 0) return 'corrupt';
    if (symbol < 16) {
      lengths[k++] = symbol;
      continue;
    }
    let repeat: number;
    let value = 0;
    if (symbol === 16) {
      if (k === 0) return 'corrupt';
      value = lengths[k - 1]!;
      repeat = 3 + r.take(2);
    } else if (symbol === 17) {
      repeat = 3 + r.take(3);
    } else {
      repeat = 11 + r.take(7);
    }
    if (r.truncated()) return 'within';
    if (k + repeat > total) return 'corrupt';
    lengths.fill(value, k, k + repeat);
    k += repeat;
  }
  if (lengths[256] === 0) return 'corrupt';
  if (!buildCode(literalCode, lengths, 0, nlen, false)) return 'corrupt';
  if (!buildCode(distanceCode, lengths, nlen, ndist, false)) return 'corrupt';
  return 'dynamic';
}

const SYMBOLS_OVER = -1;
const SYMBOLS_CORRUPT = -2;
const SYMBOLS_TRUNCATED = -3;

// One Huffman block: the output total after end-of-block, or a SYMBOLS_ verdict. The hot loop: bit buffer in locals.
function symbols(r: Bits, lit: Code, dist: Code, start: number, cap: number): number {
  const stream = r.stream;
  const size = stream.length;
  const litFast = lit.fast;
  const litMask = lit.mask;
  const distFast = dist.fast;
  const distMask = dist.mask;
  let pos = r.pos;
  let bits = r.bits;
  let count = r.count;
  let beyond = r.beyond;
  let out = start;
  for (;;) {
    // At least 15 bits: a whole code. Bytes past the end load as zero and are counted.
    while (count < MAX_BITS) {
      if (pos < size) bits |= stream[pos++]! << count;
      else beyond++;
      count += 8;
    }
    let symbol: number;
    const entry = litFast[bits & litMask]!;
    if (entry >= 0) {
      const len = entry & 15;
      bits >>>= len;
      count -= len;
      symbol = entry >>> 4;
    } else {
      r.pos = pos;
      r.bits = bits;
      r.count = count;
      r.beyond = beyond;
      symbol = r.decode(lit);
      pos = r.pos;
      bits = r.bits;
      count = r.count;
      beyond = r.beyond;
    }
    if (beyond !== 0 && beyond * 8 > count) return SYMBOLS_TRUNCATED;
    if (symbol < 0) return SYMBOLS_CORRUPT;
    if (symbol < 256) {
      if (++out > cap) return SYMBOLS_OVER;
      continue;
    }
    if (symbol === 256) break;
    const lc = symbol - 257;
    if (lc >= 29) return SYMBOLS_CORRUPT;
    // Length extra bits (at most 5), then a distance code (at most 15 bits) and its extra bits (at most 13).
    while (count < 20) {
      if (pos < size) bits |= stream[pos++]! << count;
      else beyond++;
      count += 8;
    }
    const lengthExtra = LENGTH_EXTRA[lc]!;
    const length = LENGTH_BASE[lc]! + (bits & ((1 << lengthExtra) - 1));
    bits >>>= lengthExtra;
    count -= lengthExtra;
    let dc: number;
    const dentry = distFast[bits & distMask]!;
    if (dentry >= 0) {
      const len = dentry & 15;
      bits >>>= len;
      count -= len;
      dc = dentry >>> 4;
    } else {
      r.pos = pos;
      r.bits = bits;
      r.count = count;
      r.beyond = beyond;
      dc = r.decode(dist);
      pos = r.pos;
      bits = r.bits;
      count = r.count;
      beyond = r.beyond;
    }
    if (dc < 0 || dc >= 30) {
      if (beyond !== 0 && beyond * 8 > count) return SYMBOLS_TRUNCATED;
      return SYMBOLS_CORRUPT;
    }
    while (count < 13) {
      if (pos < size) bits |= stream[pos++]! << count;
      else beyond++;
      count += 8;
    }
    const distExtra = DIST_EXTRA[dc]!;
    const distance = DIST_BASE[dc]! + (bits & ((1 << distExtra) - 1));
    bits >>>= distExtra;
    count -= distExtra;
    if (beyond !== 0 && beyond * 8 > count) return SYMBOLS_TRUNCATED;
    if (distance > out) return SYMBOLS_CORRUPT;
    out += length;
    if (out > cap) return SYMBOLS_OVER;
  }
  r.pos = pos;
  r.bits = bits;
  r.count = count;
  r.beyond = beyond;
  return out;
}
