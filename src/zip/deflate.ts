// A raw DEFLATE encoder (RFC 1951), ours so that the artifact is a pure function of its input (D-15): node:zlib's
// output changes across versions and builds. Integer arithmetic only, no clock, Math.log or key-order dependence,
// explicit tie rules. LZ77 with lazy matching (RFC 1951 section 4); each block in its exactly costed cheapest form.

// Length and distance codes (RFC 1951 3.2.5), code-length code order (3.2.7).
const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
] as const;
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0] as const;
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
] as const;
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13] as const;
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15] as const;

const MIN_MATCH = 3; // RFC 1951 3.2.5: shortest length code
const MAX_MATCH = 258; // RFC 1951 3.2.5: longest length code
const WINDOW_SIZE = 32_768; // RFC 1951 2: distances reach back at most 32,768 bytes
const WINDOW_MASK = WINDOW_SIZE - 1;
const END_OF_BLOCK = 256; // RFC 1951 3.2.5: literal/length symbol 256
const LITERAL_LENGTH_SYMBOLS = 286; // RFC 1951 3.2.5: 0..285 occur (286, 287 never do)
const DISTANCE_SYMBOLS = 30; // RFC 1951 3.2.5: 0..29 occur (30, 31 never do)
const CODE_LENGTH_SYMBOLS = 19; // RFC 1951 3.2.7: 0..18
const MAX_CODE_BITS = 15; // RFC 1951 3.2.7: code lengths 0..15
const MAX_CODE_LENGTH_BITS = 7; // RFC 1951 3.2.7: code-length code lengths are 3-bit fields
const STORED_MAX_BYTES = 65_535; // RFC 1951 3.2.4: LEN is 16 bits
const BLOCK_STORED = 0; // RFC 1951 3.2.3: BTYPE 00
const BLOCK_FIXED = 1; // BTYPE 01
const BLOCK_DYNAMIC = 2; // BTYPE 10

// Tuning: part of our artifacts' format; any change changes the golden hashes in test/zip and test/cli.
const HASH_BITS = 15;
/** Four, not three: 3-byte chains in JS and CSS are long and mostly fail at the fourth byte. Matches stay >= 3. */
const HASH_BYTES = 4;
const HASH_MULTIPLIER = 0x9e3779b1;

/** An empty hash head: farther back than any window reaches from position 0. */
const NO_POSITION = -WINDOW_SIZE - 1;
// zlib level 6's search limits (deflate.c configuration_table) with half the chain: see bench/package.mjs.
const MAX_CHAIN = 64;
const GOOD_MATCH = 8;
const MAX_LAZY = 16;
const NICE_MATCH = 128;
/** A 3-byte match farther back costs about as much as its literals (zlib's TOO_FAR, lower here). */
const TOO_FAR = 1024;
/** Symbols per block, each with its own codes: half zlib's, to follow bundled JavaScript's shifting statistics. */
const BLOCK_SYMBOLS = 8192;
/** After this many literals in a row (PNG, WOFF2), only every SKIP_STEP-th position is searched until a match. */
const SKIP_AFTER_LITERALS = 4096;
const SKIP_STEP = 8;

// LENGTH_CODE[length 3..258]: length code index 0..28; DIST_CODE[distance 1..32768]: distance code 0..29.
const LENGTH_CODE = new Uint8Array(MAX_MATCH + 1);
const DIST_CODE = new Uint8Array(WINDOW_SIZE + 1);
// Filled by ranges: these tables are built at every CLI start, for every command.
for (let code = 0; code < LENGTH_BASE.length; code++) {
  LENGTH_CODE.fill(code, LENGTH_BASE[code]!, code + 1 < LENGTH_BASE.length ? LENGTH_BASE[code + 1]! : MAX_MATCH + 1);
}
// 258 has its own code (285): RFC 1951 3.2.5 gives 284 the lengths 227..257 only.
LENGTH_CODE[MAX_MATCH] = LENGTH_BASE.length - 1;
for (let code = 0; code < DIST_BASE.length; code++) {
  DIST_CODE.fill(code, DIST_BASE[code]!, code + 1 < DIST_BASE.length ? DIST_BASE[code + 1]! : WINDOW_SIZE + 1);
}

// Scratch of canonicalCodesInto, declared before the fixed codes are built with it.
const canonicalLengthCount = new Uint16Array(MAX_CODE_BITS + 1);
const canonicalNextCode = new Uint16Array(MAX_CODE_BITS + 1);

const FIXED_LITERAL_LENGTHS = new Uint8Array(288);
FIXED_LITERAL_LENGTHS.fill(8, 0, 144);
FIXED_LITERAL_LENGTHS.fill(9, 144, 256);
FIXED_LITERAL_LENGTHS.fill(7, 256, 280);
FIXED_LITERAL_LENGTHS.fill(8, 280, 288);
const FIXED_DISTANCE_LENGTHS = new Uint8Array(DISTANCE_SYMBOLS).fill(5);
const FIXED_LITERAL_CODES = canonicalCodes(FIXED_LITERAL_LENGTHS, 288);
const FIXED_DISTANCE_CODES = canonicalCodes(FIXED_DISTANCE_LENGTHS, DISTANCE_SYMBOLS);

// Code-builder scratch for the largest alphabet, reused: deflateRaw is synchronous, so never shared at once.
const SCRATCH_NODES = LITERAL_LENGTH_SYMBOLS * MAX_CODE_BITS;
const scratchKeys = new Float64Array(LITERAL_LENGTH_SYMBOLS);
const scratchSymbols = new Int32Array(LITERAL_LENGTH_SYMBOLS);
const scratchWeight = new Float64Array(SCRATCH_NODES);
const scratchLeft = new Int32Array(SCRATCH_NODES);
const scratchRight = new Int32Array(SCRATCH_NODES);
const scratchListA = new Int32Array(2 * LITERAL_LENGTH_SYMBOLS);
const scratchListB = new Int32Array(2 * LITERAL_LENGTH_SYMBOLS);
const scratchStack = new Int32Array(SCRATCH_NODES);
const scratchDepth = new Uint16Array(2 * LITERAL_LENGTH_SYMBOLS);

/** Optimal lengths (at most `maxBits`) over used symbols in (frequency, symbol) order: two-queue Huffman, else
 * package-merge; leaves win ties. Under two used symbols: two 1-bit codes (zlib refuses most incomplete codes). */
export function buildCodeLengths(freqs: Uint32Array, count: number, maxBits: number, lengths: Uint8Array): void {
  if (count > LITERAL_LENGTH_SYMBOLS || maxBits > MAX_CODE_BITS || 2 ** maxBits < count) {
    throw new RangeError(`buildCodeLengths: ${count} symbols in at most ${maxBits} bits is outside DEFLATE's alphabets`);
  }
  lengths.fill(0, 0, count);
  // Keys frequency * 512 + symbol: unique, exact in a double, sorted without a comparator.
  let leaves = 0;
  for (let s = 0; s < count; s++) if (freqs[s]! > 0) scratchKeys[leaves++] = freqs[s]! * 512 + s;
  if (leaves < 2) {
    const first = leaves === 1 ? scratchKeys[0]! % 512 : 0;
    lengths[first] = 1;
    lengths[first === 0 ? 1 : 0] = 1;
    return;
  }
  const keys = scratchKeys.subarray(0, leaves).sort();
  const weight = scratchWeight;
  for (let k = 0; k < leaves; k++) {
    scratchSymbols[k] = keys[k]! % 512;
    weight[k] = freqs[scratchSymbols[k]!]!;
  }
  if (!huffmanLengths(leaves, maxBits, lengths)) packageMergeLengths(leaves, maxBits, lengths);
}

/** Two-queue Huffman over the sorted leaves (merged nodes follow them); false, `lengths` untouched, if too deep. */
function huffmanLengths(leaves: number, maxBits: number, lengths: Uint8Array): boolean {
  const weight = scratchWeight;
  const parent = scratchLeft; // parent of each node (only the parent is needed here)
  const depth = scratchDepth;
  const nodes = 2 * leaves - 1;
  let leaf = 0;
  let inner = leaves;
  for (let created = leaves; created < nodes; created++) {
    // The two lightest of the two queues; a leaf wins a tie.
    const a = leaf < leaves && (inner >= created || weight[leaf]! <= weight[inner]!) ? leaf++ : inner++;
    const b = leaf < leaves && (inner >= created || weight[leaf]! <= weight[inner]!) ? leaf++ : inner++;
    weight[created] = weight[a]! + weight[b]!;
    parent[a] = created;
    parent[b] = created;
  }
  depth[nodes - 1] = 0;
  let deepest = 0;
  for (let node = nodes - 2; node >= 0; node--) {
    const d = depth[parent[node]!]! + 1;
    depth[node] = d;
    if (d > deepest) deepest = d;
  }
  if (deepest > maxBits) return false;
  for (let k = 0; k < leaves; k++) lengths[scratchSymbols[k]!] = depth[k]!;
  return true;
}

function packageMergeLengths(leaves: number, maxBits: number, lengths: Uint8Array): void {
  const weight = scratchWeight;
  const left = scratchLeft;
  const right = scratchRight;
  // huffmanLengths overwrote the weights of merged nodes only; leaves are intact.
  let nodes = leaves;
  let list = scratchListA;
  let next = scratchListB;
  let listLength = leaves;
  for (let k = 0; k < leaves; k++) list[k] = k;
  for (let level = 1; level < maxBits; level++) {
    const packages = listLength >> 1;
    let leaf = 0;
    let out = 0;
    for (let pkg = 0; pkg < packages; pkg++) {
      const a = list[2 * pkg]!;
      const b = list[2 * pkg + 1]!;
      const packageWeight = weight[a]! + weight[b]!;
      while (leaf < leaves && weight[leaf]! <= packageWeight) next[out++] = leaf++;
      weight[nodes] = packageWeight;
      left[nodes] = a;
      right[nodes] = b;
      next[out++] = nodes++;
    }
    while (leaf < leaves) next[out++] = leaf++;
    const swap = list;
    list = next;
    next = swap;
    listLength = out;
  }
  // A leaf's code length: how often it occurs inside the first 2n-2 items of the last list.
  const stack = scratchStack;
  const taken = 2 * leaves - 2;
  for (let k = 0; k < taken; k++) {
    let top = 0;
    stack[top++] = list[k]!;
    while (top > 0) {
      const node = stack[--top]!;
      if (node < leaves) {
        lengths[scratchSymbols[node]!]!++;
      } else {
        stack[top++] = left[node]!;
        stack[top++] = right[node]!;
      }
    }
  }
}

function reverseBits(code: number, bits: number): number {
  let out = 0;
  for (let k = 0; k < bits; k++) {
    out = (out << 1) | (code & 1);
    code >>>= 1;
  }
  return out;
}

/** Canonical codes (RFC 1951 3.2.2), bit-reversed: Huffman codes go most-significant bit first (3.1.1). */
function canonicalCodesInto(lengths: Uint8Array, count: number, codes: Uint16Array): void {
  const lengthCount = canonicalLengthCount.fill(0);
  for (let s = 0; s < count; s++) lengthCount[lengths[s]!]!++;
  lengthCount[0] = 0;
  const nextCode = canonicalNextCode;
  let code = 0;
  for (let bits = 1; bits <= MAX_CODE_BITS; bits++) {
    code = (code + lengthCount[bits - 1]!) << 1;
    nextCode[bits] = code;
  }
  for (let s = 0; s < count; s++) {
    const len = lengths[s]!;
    codes[s] = len !== 0 ? reverseBits(nextCode[len]!++, len) : 0;
  }
}

function canonicalCodes(lengths: Uint8Array, count: number): Uint16Array {
  const codes = new Uint16Array(count);
  canonicalCodesInto(lengths, count, codes);
  return codes;
}

// Output bits, least-significant first (RFC 1951 3.1.1).

class BitWriter {
  bytes: Uint8Array;
  length = 0;
  bits = 0;
  bitCount = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  reset(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.length = 0;
    this.bits = 0;
    this.bitCount = 0;
  }

  reserve(more: number): void {
    const need = this.length + more + 8;
    if (need <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(need, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** `count` <= 16. */
  write(value: number, count: number): void {
    this.bits |= value << this.bitCount;
    this.bitCount += count;
    while (this.bitCount >= 8) {
      this.bytes[this.length++] = this.bits & 0xff;
      this.bits >>>= 8;
      this.bitCount -= 8;
    }
  }

  restore(packed: number): void {
    this.bits = packed & 0xff;
    this.bitCount = (packed >>> 8) & 7;
    this.length = Math.floor(packed / 2048);
  }

  alignToByte(): void {
    if (this.bitCount > 0) this.bytes[this.length++] = this.bits & 0xff;
    this.bits = 0;
    this.bitCount = 0;
  }
}

// The block's symbols: module constants, as V8 compiles accesses to a constant typed array without loading its
// length and data pointer. BLOCK_DISTANCE 0: a literal byte, else a match length 3..258 at that distance.
const BLOCK_LITERAL_OR_LENGTH = new Uint16Array(BLOCK_SYMBOLS);
const BLOCK_DISTANCE = new Uint16Array(BLOCK_SYMBOLS);
const BLOCK_LITERAL_FREQS = new Uint32Array(LITERAL_LENGTH_SYMBOLS);
const BLOCK_DISTANCE_FREQS = new Uint32Array(DISTANCE_SYMBOLS);

class Block {
  symbols = 0;
  start = 0;

  reset(start: number): void {
    BLOCK_LITERAL_FREQS.fill(0);
    BLOCK_DISTANCE_FREQS.fill(0);
    this.symbols = 0;
    this.start = start;
  }
}

// The block's dynamic code, in module scratch too: no allocation per block.
const DYNAMIC_LITERAL_LENGTHS = new Uint8Array(LITERAL_LENGTH_SYMBOLS);
const DYNAMIC_DISTANCE_LENGTHS = new Uint8Array(DISTANCE_SYMBOLS);
const CODE_LENGTH_FREQS = new Uint32Array(CODE_LENGTH_SYMBOLS);
const CODE_LENGTH_LENGTHS = new Uint8Array(CODE_LENGTH_SYMBOLS);
const CODE_LENGTH_CODES = new Uint16Array(CODE_LENGTH_SYMBOLS);
const RLE_SYMBOLS = new Uint8Array(LITERAL_LENGTH_SYMBOLS + DISTANCE_SYMBOLS);
const RLE_EXTRAS = new Uint8Array(LITERAL_LENGTH_SYMBOLS + DISTANCE_SYMBOLS);

class DynamicCode {
  literalCount = 0; // HLIT + 257
  distanceCount = 0; // HDIST + 1
  codeLengthCount = 0; // HCLEN + 4
  rleCount = 0;
  /** Bits after BFINAL/BTYPE: the header, and the coded symbols without extra bits. */
  headerBits = 0;
  symbolBits = 0;
}
const dynamicCode = new DynamicCode();

function runLengthEncode(lengths: Uint8Array, count: number, at: number): number {
  let i = 0;
  let k = at;
  while (i < count) {
    const len = lengths[i]!;
    let run = 1;
    while (i + run < count && lengths[i + run] === len) run++;
    i += run;
    if (len === 0) {
      // 18: 11-138 zeros (7 extra bits); 17: 3-10 zeros (3 extra bits).
      while (run >= 11) {
        const take = Math.min(run, 138);
        RLE_SYMBOLS[k] = 18;
        RLE_EXTRAS[k++] = take - 11;
        run -= take;
      }
      if (run >= 3) {
        RLE_SYMBOLS[k] = 17;
        RLE_EXTRAS[k++] = run - 3;
        run = 0;
      }
    } else {
      // 16: repeat the previous length 3-6 times (2 extra bits).
      RLE_SYMBOLS[k] = len;
      RLE_EXTRAS[k++] = 0;
      run--;
      while (run >= 3) {
        const take = Math.min(run, 6);
        RLE_SYMBOLS[k] = 16;
        RLE_EXTRAS[k++] = take - 3;
        run -= take;
      }
    }
    for (; run > 0; run--) {
      RLE_SYMBOLS[k] = len;
      RLE_EXTRAS[k++] = 0;
    }
  }
  return k;
}

function codeLengthExtraBits(symbol: number): number {
  return symbol === 16 ? 2 : symbol === 17 ? 3 : symbol === 18 ? 7 : 0;
}

function buildDynamicCode(): void {
  const code = dynamicCode;
  buildCodeLengths(BLOCK_LITERAL_FREQS, LITERAL_LENGTH_SYMBOLS, MAX_CODE_BITS, DYNAMIC_LITERAL_LENGTHS);
  buildCodeLengths(BLOCK_DISTANCE_FREQS, DISTANCE_SYMBOLS, MAX_CODE_BITS, DYNAMIC_DISTANCE_LENGTHS);
  let literalCount = LITERAL_LENGTH_SYMBOLS;
  while (literalCount > 257 && DYNAMIC_LITERAL_LENGTHS[literalCount - 1] === 0) literalCount--;
  let distanceCount = DISTANCE_SYMBOLS;
  while (distanceCount > 1 && DYNAMIC_DISTANCE_LENGTHS[distanceCount - 1] === 0) distanceCount--;
  // Each sequence run-length coded alone: a run may cross into the next, but not every inflater accepts that.
  const rleCount = runLengthEncode(DYNAMIC_DISTANCE_LENGTHS, distanceCount, runLengthEncode(DYNAMIC_LITERAL_LENGTHS, literalCount, 0));
  CODE_LENGTH_FREQS.fill(0);
  for (let k = 0; k < rleCount; k++) CODE_LENGTH_FREQS[RLE_SYMBOLS[k]!]!++;
  buildCodeLengths(CODE_LENGTH_FREQS, CODE_LENGTH_SYMBOLS, MAX_CODE_LENGTH_BITS, CODE_LENGTH_LENGTHS);
  let codeLengthCount = CODE_LENGTH_SYMBOLS;
  while (codeLengthCount > 4 && CODE_LENGTH_LENGTHS[CODE_LENGTH_ORDER[codeLengthCount - 1]!] === 0) codeLengthCount--;
  let headerBits = 5 + 5 + 4 + 3 * codeLengthCount;
  for (let k = 0; k < rleCount; k++) headerBits += CODE_LENGTH_LENGTHS[RLE_SYMBOLS[k]!]! + codeLengthExtraBits(RLE_SYMBOLS[k]!);
  let symbolBits = 0;
  for (let s = 0; s < LITERAL_LENGTH_SYMBOLS; s++) symbolBits += BLOCK_LITERAL_FREQS[s]! * DYNAMIC_LITERAL_LENGTHS[s]!;
  for (let s = 0; s < DISTANCE_SYMBOLS; s++) symbolBits += BLOCK_DISTANCE_FREQS[s]! * DYNAMIC_DISTANCE_LENGTHS[s]!;
  code.literalCount = literalCount;
  code.distanceCount = distanceCount;
  code.codeLengthCount = codeLengthCount;
  code.rleCount = rleCount;
  code.headerBits = headerBits;
  code.symbolBits = symbolBits;
}

function fixedSymbolBits(): number {
  let bits = 0;
  for (let s = 0; s < LITERAL_LENGTH_SYMBOLS; s++) bits += BLOCK_LITERAL_FREQS[s]! * FIXED_LITERAL_LENGTHS[s]!;
  for (let s = 0; s < DISTANCE_SYMBOLS; s++) bits += BLOCK_DISTANCE_FREQS[s]! * FIXED_DISTANCE_LENGTHS[s]!;
  return bits;
}

function storedBits(out: BitWriter, byteCount: number): number {
  const chunks = Math.max(1, Math.ceil(byteCount / STORED_MAX_BYTES));
  // Later chunks start byte-aligned, so their 3 header bits pad to a full byte.
  const firstPad = (8 - ((out.bitCount + 3) & 7)) & 7;
  return 3 + firstPad + 32 + (chunks - 1) * (8 + 32) + 8 * byteCount;
}

// The codes the block is written with (fixed or dynamic), constants like BLOCK_*.
const WRITE_LITERAL_CODES = new Uint16Array(288);
const WRITE_LITERAL_LENGTHS = new Uint8Array(288);
const WRITE_DISTANCE_CODES = new Uint16Array(DISTANCE_SYMBOLS);
const WRITE_DISTANCE_LENGTHS = new Uint8Array(DISTANCE_SYMBOLS);

/** The hot loop (locals, no calls); returns the writer's state as length * 2048 + bitCount * 256 + bits. */
function writeSymbols(out: BitWriter, block: Block): number {
  const literalCodes = WRITE_LITERAL_CODES;
  const literalLengths = WRITE_LITERAL_LENGTHS;
  const distanceCodes = WRITE_DISTANCE_CODES;
  const distanceLengths = WRITE_DISTANCE_LENGTHS;
  const bytes = out.bytes;
  let pos = out.length;
  let bits = out.bits;
  let bitCount = out.bitCount;
  const lits = BLOCK_LITERAL_OR_LENGTH;
  const dists = BLOCK_DISTANCE;
  for (let k = 0; k < block.symbols; k++) {
    const value = lits[k]!;
    const dist = dists[k]!;
    if (dist === 0) {
      bits |= literalCodes[value]! << bitCount;
      bitCount += literalLengths[value]!;
    } else {
      const lc = LENGTH_CODE[value]!;
      const symbol = 257 + lc;
      bits |= literalCodes[symbol]! << bitCount;
      bitCount += literalLengths[symbol]!;
      const lengthExtra = LENGTH_EXTRA[lc]!;
      if (lengthExtra > 0) {
        while (bitCount >= 8) {
          bytes[pos++] = bits & 0xff;
          bits >>>= 8;
          bitCount -= 8;
        }
        bits |= (value - LENGTH_BASE[lc]!) << bitCount;
        bitCount += lengthExtra;
      }
      while (bitCount >= 8) {
        bytes[pos++] = bits & 0xff;
        bits >>>= 8;
        bitCount -= 8;
      }
      const dc = DIST_CODE[dist]!;
      bits |= distanceCodes[dc]! << bitCount;
      bitCount += distanceLengths[dc]!;
      const distExtra = DIST_EXTRA[dc]!;
      if (distExtra > 0) {
        while (bitCount >= 8) {
          bytes[pos++] = bits & 0xff;
          bits >>>= 8;
          bitCount -= 8;
        }
        bits |= (dist - DIST_BASE[dc]!) << bitCount;
        bitCount += distExtra;
      }
    }
    while (bitCount >= 8) {
      bytes[pos++] = bits & 0xff;
      bits >>>= 8;
      bitCount -= 8;
    }
  }
  // One number, not property stores: V8 compiles the loop on-stack, and stores lacking type feedback deopt it.
  return pos * 2048 + bitCount * 256 + bits;
}

/** Stored blocks of at most 65,535 bytes (RFC 1951 3.2.4); more than one only if BLOCK_SYMBOLS grew. */
function writeStored(out: BitWriter, data: Uint8Array, start: number, end: number, final: boolean): void {
  let at = start;
  do {
    const len = Math.min(end - at, STORED_MAX_BYTES);
    const last = at + len === end;
    out.write(final && last ? 1 : 0, 1);
    out.write(BLOCK_STORED, 2);
    out.alignToByte();
    const bytes = out.bytes;
    let pos = out.length;
    bytes[pos++] = len & 0xff; // LEN
    bytes[pos++] = len >>> 8;
    bytes[pos++] = ~len & 0xff; // NLEN: one's complement of LEN
    bytes[pos++] = (~len >>> 8) & 0xff;
    bytes.set(data.subarray(at, at + len), pos);
    out.length = pos + len;
    at += len;
  } while (at < end);
}

/** Writes the gathered block in its cheapest form, then empties it. */
function flushBlock(out: BitWriter, data: Uint8Array, block: Block, end: number, final: boolean): void {
  BLOCK_LITERAL_FREQS[END_OF_BLOCK]!++;
  buildDynamicCode();
  let extraBits = 0;
  for (let lc = 0; lc < LENGTH_EXTRA.length; lc++) extraBits += BLOCK_LITERAL_FREQS[257 + lc]! * LENGTH_EXTRA[lc]!;
  for (let dc = 0; dc < DISTANCE_SYMBOLS; dc++) extraBits += BLOCK_DISTANCE_FREQS[dc]! * DIST_EXTRA[dc]!;
  const dynamicBits = 3 + dynamicCode.headerBits + dynamicCode.symbolBits + extraBits;
  const fixedBits = 3 + fixedSymbolBits() + extraBits;
  const storedCost = storedBits(out, end - block.start);
  out.reserve(Math.ceil(Math.min(dynamicBits, fixedBits, storedCost) / 8) + 8);
  // Cheapest wins; on a tie stored beats fixed beats dynamic (simplest form for the reader).
  if (storedCost <= fixedBits && storedCost <= dynamicBits) {
    writeStored(out, data, block.start, end, final);
  } else {
    out.write(final ? 1 : 0, 1);
    if (fixedBits <= dynamicBits) {
      out.write(BLOCK_FIXED, 2);
      useFixedCode();
    } else {
      out.write(BLOCK_DYNAMIC, 2);
      writeDynamicHeader(out);
      useDynamicCode();
    }
    out.restore(writeSymbols(out, block));
    out.write(WRITE_LITERAL_CODES[END_OF_BLOCK]!, WRITE_LITERAL_LENGTHS[END_OF_BLOCK]!);
  }
  block.reset(end);
}

function useFixedCode(): void {
  WRITE_LITERAL_CODES.set(FIXED_LITERAL_CODES);
  WRITE_LITERAL_LENGTHS.set(FIXED_LITERAL_LENGTHS);
  WRITE_DISTANCE_CODES.set(FIXED_DISTANCE_CODES);
  WRITE_DISTANCE_LENGTHS.set(FIXED_DISTANCE_LENGTHS);
}

/** Entries 286 and 287 keep stale values: those symbols never occur. */
function useDynamicCode(): void {
  WRITE_LITERAL_LENGTHS.set(DYNAMIC_LITERAL_LENGTHS);
  canonicalCodesInto(DYNAMIC_LITERAL_LENGTHS, LITERAL_LENGTH_SYMBOLS, WRITE_LITERAL_CODES);
  WRITE_DISTANCE_LENGTHS.set(DYNAMIC_DISTANCE_LENGTHS);
  canonicalCodesInto(DYNAMIC_DISTANCE_LENGTHS, DISTANCE_SYMBOLS, WRITE_DISTANCE_CODES);
}

/** RFC 1951 3.2.7. */
function writeDynamicHeader(out: BitWriter): void {
  const code = dynamicCode;
  out.write(code.literalCount - 257, 5);
  out.write(code.distanceCount - 1, 5);
  out.write(code.codeLengthCount - 4, 4);
  for (let k = 0; k < code.codeLengthCount; k++) out.write(CODE_LENGTH_LENGTHS[CODE_LENGTH_ORDER[k]!]!, 3);
  canonicalCodesInto(CODE_LENGTH_LENGTHS, CODE_LENGTH_SYMBOLS, CODE_LENGTH_CODES);
  for (let k = 0; k < code.rleCount; k++) {
    const symbol = RLE_SYMBOLS[k]!;
    out.write(CODE_LENGTH_CODES[symbol]!, CODE_LENGTH_LENGTHS[symbol]!);
    const extra = codeLengthExtraBits(symbol);
    if (extra > 0) out.write(RLE_EXTRAS[k]!, extra);
  }
}

/** Knuth's multiplicative hash (2^32 / golden ratio) of the 4 bytes at `i`: the product's top HASH_BITS bits. */
function hash4(view: DataView, i: number): number {
  return Math.imul(view.getUint32(i, true), HASH_MULTIPLIER) >>> (32 - HASH_BITS);
}

// Working memory reused across calls (deflateRaw is synchronous): fresh buffers per entry raised peak memory.
// Only `head` needs resetting: a `prev` slot is read only for a position this call inserted.
let scratchOutput: Uint8Array = new Uint8Array(64);
// Constants, not allocated on first use: V8 compiles their accesses against a known array.
const scratchHead = new Int32Array(1 << HASH_BITS);
const scratchPrev = new Int32Array(WINDOW_SIZE);
const scratchBlock = new Block();
// One writer for the module's life: the compiled encoder checks its hidden class, which V8 may drop once no
// object has it (a full GC between calls), throwing the compiled encoder away.
const scratchWriter = new BitWriter(scratchOutput);

const SCRATCH_OUTPUT_BYTES = 64 << 10;

const WARM_UP_BLOCK_SYMBOLS = 64;
const WARM_UP_SKIP_AFTER_LITERALS = 32;
let warmedUp = false;

/** Under the warm-up limits, reaches every encoder path real inputs reach (runs, stored blocks, block cuts...). */
function warmUpInput(): Uint8Array {
  const text =
    'export function render(value, options) { return value.length * options.scale; }\n' +
    'export function measure(value, options) { return value.length + options.scale; }\n';
  const bytes: number[] = [];
  for (let k = 0; k < text.length; k++) bytes.push(text.charCodeAt(k));
  let x = 0x2545f491;
  const next = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  for (let k = 0; k < 200; k++) bytes.push(next() & 1 ? 0x61 : 0x62);
  for (let k = 0; k < 300; k++) bytes.push(0x3d);
  for (let k = 0; k < 200; k++) bytes.push(next() & 0xff);
  bytes.push(0x23);
  return Uint8Array.from(bytes);
}

/** A raw DEFLATE stream (no zlib or gzip wrapper) in a fresh array of its exact length. */
/** Where an encoded stream is copied to: a new buffer by default (a worker asks for shared memory). */
export type Allocate = (length: number) => Uint8Array;
const newBytes: Allocate = (length) => new Uint8Array(length);

export function deflateRaw(data: Uint8Array, allocate: Allocate = newBytes): Uint8Array {
  if (!warmedUp) warmUpEncoder(1);
  return encode(data, BLOCK_SYMBOLS, SKIP_AFTER_LITERALS, data.length, allocate);
}

/** V8 compiles a hot loop with any path not yet run as "give up here", deopting later: one round runs every path
 * first. More rounds start V8's background compile before `package` compresses after its check. */
export function warmUpEncoder(rounds: number): void {
  warmedUp = true;
  const input = warmUpInput();
  for (let k = 0; k < rounds; k++) encode(input, WARM_UP_BLOCK_SYMBOLS, WARM_UP_SKIP_AFTER_LITERALS);
}

/** The bytes from `storedFrom` on as stored blocks (RFC 1951 3.2.4) after the compressed start: the stream is
 * never shorter than the stored part, bounding the ratio (D-41). `storedFrom` = data.length is deflateRaw. */
export function deflateRawWithStoredTail(data: Uint8Array, storedFrom: number, allocate: Allocate = newBytes): Uint8Array {
  if (!warmedUp) warmUpEncoder(1);
  return encode(data, BLOCK_SYMBOLS, SKIP_AFTER_LITERALS, storedFrom, allocate);
}

function encode(data: Uint8Array, blockSymbols: number, skipAfterLiterals: number, storedFrom = data.length, allocate: Allocate = newBytes): Uint8Array {
  const n = data.length;
  // No block costs more than storing it (6 bytes over at most); the scratch grows through reserve.
  const capacity = Math.min(n + 6 * (Math.floor(n / BLOCK_SYMBOLS) + 2) + 64, SCRATCH_OUTPUT_BYTES);
  if (scratchOutput.length < capacity) scratchOutput = new Uint8Array(capacity);
  const out = scratchWriter;
  out.reset(scratchOutput);
  const block = scratchBlock;
  block.reset(0);
  try {
    // Always a plain Uint8Array: a Buffer's other hidden class would deopt the compiled loops.
    const view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (storedFrom >= n) {
      compress(view, out, block, blockSymbols, skipAfterLiterals, true);
    } else {
      if (storedFrom > 0) compress(view.subarray(0, storedFrom), out, block, blockSymbols, skipAfterLiterals, false);
      out.reserve(n - storedFrom + 5 * (Math.ceil((n - storedFrom) / STORED_MAX_BYTES) + 1));
      writeStored(out, view, storedFrom, n, true);
      out.alignToByte();
    }
  } finally {
    scratchOutput = out.bytes;
  }
  const stream = allocate(out.length);
  stream.set(out.bytes.subarray(0, out.length));
  return stream;
}

/** With `last` false the stream stays open (last block not final, writer mid-byte) for more blocks. */
function compress(data: Uint8Array, out: BitWriter, block: Block, blockSymbols: number, skipAfterLiterals: number, last: boolean): void {
  const n = data.length;
  if (n === 0) {
    flushBlock(out, data, block, 0, last);
    if (last) out.alignToByte();
    return;
  }
  const state = matchAll(data, out, block, blockSymbols, skipAfterLiterals);
  let symbols = state >>> 1;
  if ((state & 1) === 1) {
    BLOCK_LITERAL_OR_LENGTH[symbols] = data[n - 1]!;
    BLOCK_DISTANCE[symbols] = 0;
    symbols++;
    BLOCK_LITERAL_FREQS[data[n - 1]!]!++;
  }
  block.symbols = symbols;
  flushBlock(out, data, block, n, last);
  if (last) out.alignToByte();
}

/** Returns the last (unflushed) block's symbols * 2, + 1 if the last byte awaits its literal. A function of its
 * own with nothing after the loop: V8 compiles the loop on-stack before later code has type feedback. */
function matchAll(data: Uint8Array, out: BitWriter, block: Block, blockSymbols: number, skipAfterLiterals: number): number {
  const n = data.length;
  // head[h]: last position with hash h; prev[i & WINDOW_MASK]: the one before with i's hash (absolute).
  const head = scratchHead.fill(NO_POSITION);
  const prev = scratchPrev;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const lits = BLOCK_LITERAL_OR_LENGTH;
  const dists = BLOCK_DISTANCE;
  const literalFreqs = BLOCK_LITERAL_FREQS;
  const distanceFreqs = BLOCK_DISTANCE_FREQS;
  let covered = 0; // input bytes described by symbols so far

  let prevLength = MIN_MATCH - 1; // the pending match found at i - 1 (zlib "prev_length")
  let prevDistance = 0;
  let pending = false; // whether byte i - 1 still awaits a literal or a match
  let literalRun = 0; // literals since the last match, for the incompressible-region skip
  let symbols = 0; // symbols gathered in the current block (a local: this loop is the hot path)
  let i = 0;
  while (i < n) {
    // Insert i into its chain (in a long literal run, only every SKIP_STEP-th position).
    let candidate = NO_POSITION;
    const searching = literalRun < skipAfterLiterals || (i & (SKIP_STEP - 1)) === 0;
    if (searching && i + HASH_BYTES <= n) {
      const h = hash4(view, i);
      candidate = head[h]!;
      prev[i & WINDOW_MASK] = candidate;
      head[h] = i;
    }
    let matchLength = MIN_MATCH - 1;
    let matchDistance = 0;
    // Search only when a longer match than the pending one can exist and fit.
    if (i - candidate <= WINDOW_SIZE && prevLength < MAX_LAZY && prevLength < n - i) {
      // Newest candidate first, keeping the first longest; `limit` is negative near the start.
      const limit = i - WINDOW_SIZE;
      const maxLength = Math.min(MAX_MATCH, n - i);
      const nice = Math.min(NICE_MATCH, maxLength);
      let chain = prevLength >= GOOD_MATCH ? MAX_CHAIN >> 2 : MAX_CHAIN;
      let best = prevLength;
      let cur = candidate;
      // Four bytes at a time, little-endian; reads stay below n (cur < i, i + HASH_BYTES <= n, i + best < n).
      // The two bytes ending a longer match (zlib scan_end) go first: most candidates fail there.
      const start4 = view.getInt32(i, true);
      let end2 = view.getUint16(i + best - 1, true);
      while (cur >= limit) {
        if (view.getUint16(cur + best - 1, true) === end2) {
          let diff = view.getInt32(cur, true) ^ start4;
          let len = 0;
          if (diff === 0) {
            len = 4;
            while (len + 4 <= maxLength) {
              diff = view.getInt32(cur + len, true) ^ view.getInt32(i + len, true);
              if (diff !== 0) break;
              len += 4;
            }
            if (diff === 0) {
              while (len < maxLength && data[cur + len] === data[i + len]) len++;
            }
          }
          // The match ends at the lowest differing byte (len + 4 <= maxLength here).
          if (diff !== 0) len += (31 - Math.clz32(diff & -diff)) >>> 3;
          if (len > best) {
            best = len;
            matchDistance = i - cur;
            if (len >= nice) break;
            end2 = view.getUint16(i + best - 1, true);
          }
        }
        // A position exactly WINDOW_SIZE back is usable, but its chain slot now belongs to i.
        if (--chain === 0 || cur === limit) break;
        cur = prev[cur & WINDOW_MASK]!;
      }
      if (matchDistance !== 0) {
        matchLength = best;
        if (matchLength === MIN_MATCH && matchDistance > TOO_FAR) {
          matchLength = MIN_MATCH - 1;
          matchDistance = 0;
        }
      }
    }
    if (prevLength >= MIN_MATCH && matchLength <= prevLength) {
      lits[symbols] = prevLength;
      dists[symbols] = prevDistance;
      symbols++;
      literalFreqs[257 + LENGTH_CODE[prevLength]!]!++;
      distanceFreqs[DIST_CODE[prevDistance]!]!++;
      const end = i - 1 + prevLength;
      const insertEnd = Math.min(end, n - HASH_BYTES + 1);
      for (let j = i + 1; j < insertEnd; j++) {
        const h = hash4(view, j);
        prev[j & WINDOW_MASK] = head[h]!;
        head[h] = j;
      }
      covered = end;
      i = end;
      pending = false;
      prevLength = MIN_MATCH - 1;
      literalRun = 0;
    } else {
      if (pending) {
        lits[symbols] = data[i - 1]!;
        dists[symbols] = 0;
        symbols++;
        literalFreqs[data[i - 1]!]!++;
        covered = i;
        literalRun++;
      }
      pending = true;
      prevLength = matchLength;
      prevDistance = matchDistance;
      i++;
    }
    // Cut at the symbol budget, unless nothing follows (then the last flush is final).
    if (symbols === blockSymbols && covered < n) {
      block.symbols = symbols;
      flushBlock(out, data, block, covered, false);
      symbols = 0;
    }
  }
  return symbols * 2 + (pending ? 1 : 0);
}
