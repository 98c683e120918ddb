// A raw DEFLATE encoder (RFC 1951), written here so that the release artifact is a pure
// function of its input (D-15). node:zlib cannot promise that: its output changed inside
// Node 20 (nodejs/node#50138, a zlib upgrade), and nothing in zlib promises the same bytes
// across builds or CPUs. Everything below is integer arithmetic over typed arrays: no Math.random, no
// clock, no floating-point library functions (Math.log may differ between engines), no
// iteration over object keys, and every tie is broken by an explicit rule.
//
// Shape (RFC 1951 section 4, "Compression algorithm details"):
//   1. LZ77 with hash chains over a 32 KiB window (4-byte hash, bounded chain walk) and
//      zlib-style lazy matching (a match is deferred when the next position has a longer one).
//   2. The symbols are cut into blocks at a fixed symbol budget.
//   3. Each block is written as whichever of dynamic Huffman, fixed Huffman or stored costs
//      the fewest bits, computed exactly before writing.

// RFC 1951 section 3.2.5: length and distance codes

/** Base match length of length codes 257..285 (RFC 1951 3.2.5). */
const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
] as const;
/** Extra bits of length codes 257..285 (RFC 1951 3.2.5). */
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0] as const;
/** Base distance of distance codes 0..29 (RFC 1951 3.2.5). */
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
] as const;
/** Extra bits of distance codes 0..29 (RFC 1951 3.2.5). */
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13] as const;
/** Order in which the code-length code lengths are sent (RFC 1951 3.2.7). */
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

// Tuning. These numbers are part of the format of our artifacts: changing any of them
// changes the compressed bytes, and so the golden hashes in test/zip/deflate.test.mjs,
// test/zip/zip-write.test.mjs and test/cli/golden-release.test.mjs.

/** Hash table size: 2^15 heads for a 32 KiB window keeps chains short on random data. */
const HASH_BITS = 15;
/**
 * Chains link positions whose next HASH_BYTES bytes hash alike. Four, not three (RFC 1951's
 * shortest match): in JavaScript and CSS most 3-byte strings (" = ", "con", two spaces and
 * a letter) recur every few lines, so 3-byte chains are long and nearly every candidate on
 * them fails at its fourth byte. Four-byte chains walk a fraction of the candidates (15%
 * less time on bench/package.mjs's project) and lose only 3-byte matches, which cost about
 * as much as their literals anyway (0.02% larger). The search walks chains, so MIN_MATCH
 * is still the shortest match it may report, near the end of the input.
 */
const HASH_BYTES = 4;
/** The hash multiplier (2^32 / golden ratio, Knuth's multiplicative hashing). */
const HASH_MULTIPLIER = 0x9e3779b1;

/** An empty hash head: farther back than any window reaches from position 0. */
const NO_POSITION = -WINDOW_SIZE - 1;
// The match-search limits are zlib's level 6 (configuration_table in deflate.c: the level
// of Info-ZIP `zip -6` and `zip` without a level) but for the chain, which is half as long.
// bench/package.mjs bounds the archive at 1.03x zip -6's size and reports the time against
// it. The longest chain walk is most of the encoder's time, and halving zlib's 128 costs
// far less in size than it saves in time. Shorter limits trade on: zlib's level 5 (chain
// 32, nice 32) gives streams about 1.2% larger on that benchmark's project for a fifth
// (cold) to a third (warm) less encoding time, a choice about how close publishers come
// to the compressed-size limit rather than a free gain.
/** Longest chain walk per position (zlib "max_chain"). */
const MAX_CHAIN = 64;
/** When the pending match is at least this long, walk only a quarter of the chain (zlib "good_length"). */
const GOOD_MATCH = 8;
/** A pending match this long is taken without looking for a longer one at the next byte (zlib "max_lazy"). */
const MAX_LAZY = 16;
/** A match this long ends the chain walk at once (zlib "nice_length"). */
const NICE_MATCH = 128;
/**
 * A 3-byte match farther back than this is dropped: with its distance's extra bits it costs
 * about as much as three literals (zlib "TOO_FAR" is 4096; 1024 is 0.1% smaller on our
 * JavaScript and CSS samples). With 4-byte chains such matches come only from hash
 * collisions and from the last bytes of the input.
 */
const TOO_FAR = 1024;
/**
 * Symbols per block: each block gets its own Huffman codes. zlib uses 16K; 8K adapts better
 * to the changing statistics of bundled JavaScript (0.3% smaller on dist/validator.mjs) for
 * one more small header per block.
 */
const BLOCK_SYMBOLS = 8192;
/**
 * Incompressible regions (PNG, WOFF2 payloads): after this many literals in a row without a
 * match, the match search looks at every SKIP_STEP-th position only, until a match is found.
 * Random bytes then cost little time; text never reaches such a run.
 */
const SKIP_AFTER_LITERALS = 4096;
const SKIP_STEP = 8;

// Lookup tables built once

/** LENGTH_CODE[len] = index 0..28 of the length code for a match length 3..258. */
const LENGTH_CODE = new Uint8Array(MAX_MATCH + 1);
/** DIST_CODE[dist] = distance code 0..29 for a distance 1..32768. */
const DIST_CODE = new Uint8Array(WINDOW_SIZE + 1);
// Filled range by range (TypedArray.prototype.fill): these tables are built when the CLI
// starts, for every command, and a byte-by-byte loop over 32 KiB took milliseconds there.
for (let code = 0; code < LENGTH_BASE.length; code++) {
  LENGTH_CODE.fill(code, LENGTH_BASE[code]!, code + 1 < LENGTH_BASE.length ? LENGTH_BASE[code + 1]! : MAX_MATCH + 1);
}
// 258 has its own code (285) although 227 + 31 would also reach it: RFC 1951 3.2.5 says 284
// covers 227..257 only.
LENGTH_CODE[MAX_MATCH] = LENGTH_BASE.length - 1;
for (let code = 0; code < DIST_BASE.length; code++) {
  DIST_CODE.fill(code, DIST_BASE[code]!, code + 1 < DIST_BASE.length ? DIST_BASE[code + 1]! : WINDOW_SIZE + 1);
}

/** Scratch of canonicalCodesInto (declared before the fixed codes are built with it). */
const canonicalLengthCount = new Uint16Array(MAX_CODE_BITS + 1);
const canonicalNextCode = new Uint16Array(MAX_CODE_BITS + 1);

/** Fixed Huffman code lengths (RFC 1951 3.2.6). */
const FIXED_LITERAL_LENGTHS = new Uint8Array(288);
FIXED_LITERAL_LENGTHS.fill(8, 0, 144);
FIXED_LITERAL_LENGTHS.fill(9, 144, 256);
FIXED_LITERAL_LENGTHS.fill(7, 256, 280);
FIXED_LITERAL_LENGTHS.fill(8, 280, 288);
const FIXED_DISTANCE_LENGTHS = new Uint8Array(DISTANCE_SYMBOLS).fill(5);
const FIXED_LITERAL_CODES = canonicalCodes(FIXED_LITERAL_LENGTHS, 288);
const FIXED_DISTANCE_CODES = canonicalCodes(FIXED_DISTANCE_LENGTHS, DISTANCE_SYMBOLS);

// Huffman codes

/**
 * Scratch space for the code builders, sized for the largest alphabet (286 symbols, 15
 * levels) and reused: allocating typed arrays per block cost more than building the codes.
 * deflateRaw is synchronous, so no two builds ever share it at once.
 */
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

/**
 * Optimal code lengths of at most `maxBits` bits for `freqs[0..count)`, into `lengths`.
 *
 * Used symbols are ordered by (frequency, symbol). A plain Huffman tree (two-queue method,
 * a leaf before an internal node of equal weight) is tried first; when it is deeper than
 * `maxBits`, the package-merge algorithm (Larmore and Hirschberg, 1990; a leaf before a
 * package of equal weight) gives the optimal limited code. Both are fully determined by
 * the frequencies. Fewer than two used symbols get a complete two-symbol code of 1-bit
 * lengths: RFC 1951 3.2.7 sends a single distance code with one bit, and complete codes
 * are accepted by every inflater (zlib refuses most incomplete ones).
 */
export function buildCodeLengths(freqs: Uint32Array, count: number, maxBits: number, lengths: Uint8Array): void {
  // The scratch space is sized for DEFLATE's alphabets; a larger request is a programming error.
  if (count > LITERAL_LENGTH_SYMBOLS || maxBits > MAX_CODE_BITS || 2 ** maxBits < count) {
    throw new RangeError(`buildCodeLengths: ${count} symbols in at most ${maxBits} bits is outside DEFLATE's alphabets`);
  }
  lengths.fill(0, 0, count);
  // Sort keys frequency * 512 + symbol: unique, exact in a double, and sorted numerically
  // by the engine without a comparator.
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

/**
 * Two-queue Huffman over the sorted leaves in scratch space: nodes 0..leaves-1 are the
 * leaves, later nodes the merged ones (created in nondecreasing weight). Returns false,
 * leaving `lengths` untouched, when a leaf lies deeper than `maxBits`.
 */
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
  // Parents are created after their children, so one pass from the root down sets depths.
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

/** Package-merge over the sorted leaves in scratch space. */
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
  // Each pass forms one coarser denomination: pair up the current list into packages and
  // merge them with the leaves, both already in nondecreasing weight.
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
  // The first 2n-2 items of the last list are the chosen ones; a leaf's code length is the
  // number of times it occurs inside them.
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

/** Reverses the low `bits` bits of `code`: Huffman codes are sent most-significant bit first (RFC 1951 3.1.1). */
function reverseBits(code: number, bits: number): number {
  let out = 0;
  for (let k = 0; k < bits; k++) {
    out = (out << 1) | (code & 1);
    code >>>= 1;
  }
  return out;
}

/** Canonical codes from code lengths (RFC 1951 3.2.2), bit-reversed for an LSB-first writer, into `codes`. */
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

/** canonicalCodesInto a new array. */
function canonicalCodes(lengths: Uint8Array, count: number): Uint16Array {
  const codes = new Uint16Array(count);
  canonicalCodesInto(lengths, count, codes);
  return codes;
}

// Output bits (RFC 1951 3.1.1: data elements are packed starting with the least-significant bit)

class BitWriter {
  bytes: Uint8Array;
  /** Bytes written so far. */
  length = 0;
  /** Pending bits (fewer than 8 between calls), least significant first. */
  bits = 0;
  bitCount = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  /** Starts over on `bytes`, with nothing written. */
  reset(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.length = 0;
    this.bits = 0;
    this.bitCount = 0;
  }

  /** Makes room for `more` bytes (plus the pending partial byte). */
  reserve(more: number): void {
    const need = this.length + more + 8;
    if (need <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(need, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Writes the low `count` (<= 16) bits of `value`. */
  write(value: number, count: number): void {
    this.bits |= value << this.bitCount;
    this.bitCount += count;
    while (this.bitCount >= 8) {
      this.bytes[this.length++] = this.bits & 0xff;
      this.bits >>>= 8;
      this.bitCount -= 8;
    }
  }

  /** Takes back the state packed by writeSymbols. */
  restore(packed: number): void {
    this.bits = packed & 0xff;
    this.bitCount = (packed >>> 8) & 7;
    this.length = Math.floor(packed / 2048);
  }

  /** Pads with zero bits to a byte boundary (RFC 1951 3.2.4, before LEN of a stored block). */
  alignToByte(): void {
    if (this.bitCount > 0) this.bytes[this.length++] = this.bits & 0xff;
    this.bits = 0;
    this.bitCount = 0;
  }
}

// Blocks

// The symbols of the block being gathered, and their frequencies. Module constants rather
// than fields: V8 compiles accesses to a constant typed array without loading its length and
// data pointer first (3% fewer instructions in the encoder than through an object's fields).
/** A literal byte (when BLOCK_DISTANCE is 0) or a match length 3..258. */
const BLOCK_LITERAL_OR_LENGTH = new Uint16Array(BLOCK_SYMBOLS);
/** 0 for a literal, else the match distance 1..32768. */
const BLOCK_DISTANCE = new Uint16Array(BLOCK_SYMBOLS);
const BLOCK_LITERAL_FREQS = new Uint32Array(LITERAL_LENGTH_SYMBOLS);
const BLOCK_DISTANCE_FREQS = new Uint32Array(DISTANCE_SYMBOLS);

/** How many symbols the block holds, and where in the input it starts. */
class Block {
  symbols = 0;
  /** Input offset of the first byte this block covers. */
  start = 0;

  reset(start: number): void {
    BLOCK_LITERAL_FREQS.fill(0);
    BLOCK_DISTANCE_FREQS.fill(0);
    this.symbols = 0;
    this.start = start;
  }
}

// The block's dynamic code (buildDynamicCode), in module scratch like the block itself: no
// allocation per block, and small, simple functions for V8 to compile (these run once per
// block; compiling them had cost more than running them).
const DYNAMIC_LITERAL_LENGTHS = new Uint8Array(LITERAL_LENGTH_SYMBOLS);
const DYNAMIC_DISTANCE_LENGTHS = new Uint8Array(DISTANCE_SYMBOLS);
const CODE_LENGTH_FREQS = new Uint32Array(CODE_LENGTH_SYMBOLS);
const CODE_LENGTH_LENGTHS = new Uint8Array(CODE_LENGTH_SYMBOLS);
const CODE_LENGTH_CODES = new Uint16Array(CODE_LENGTH_SYMBOLS);
/** The run-length encoded code lengths: at most one symbol per literal/length and distance code. */
const RLE_SYMBOLS = new Uint8Array(LITERAL_LENGTH_SYMBOLS + DISTANCE_SYMBOLS);
const RLE_EXTRAS = new Uint8Array(LITERAL_LENGTH_SYMBOLS + DISTANCE_SYMBOLS);

/** The counts of the dynamic code in scratch, and its exact cost. */
class DynamicCode {
  literalCount = 0; // HLIT + 257
  distanceCount = 0; // HDIST + 1
  codeLengthCount = 0; // HCLEN + 4
  rleCount = 0;
  /** Bits of the header after BFINAL/BTYPE, and of the coded symbols without their extra bits. */
  headerBits = 0;
  symbolBits = 0;
}
const dynamicCode = new DynamicCode();

/**
 * Run-length encodes one code's lengths with symbols 16, 17, 18 (RFC 1951 3.2.7) into
 * RLE_SYMBOLS and RLE_EXTRAS from position `at`; returns the position after the last.
 */
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

/** Extra bits carried by code-length symbols 16, 17, 18 (RFC 1951 3.2.7). */
function codeLengthExtraBits(symbol: number): number {
  return symbol === 16 ? 2 : symbol === 17 ? 3 : symbol === 18 ? 7 : 0;
}

/** The block's dynamic code into scratch (DYNAMIC_*, CODE_LENGTH_*, RLE_*, dynamicCode). */
function buildDynamicCode(): void {
  const code = dynamicCode;
  buildCodeLengths(BLOCK_LITERAL_FREQS, LITERAL_LENGTH_SYMBOLS, MAX_CODE_BITS, DYNAMIC_LITERAL_LENGTHS);
  buildCodeLengths(BLOCK_DISTANCE_FREQS, DISTANCE_SYMBOLS, MAX_CODE_BITS, DYNAMIC_DISTANCE_LENGTHS);
  // HLIT and HDIST: trailing unused codes are not sent (at least 257 and 1).
  let literalCount = LITERAL_LENGTH_SYMBOLS;
  while (literalCount > 257 && DYNAMIC_LITERAL_LENGTHS[literalCount - 1] === 0) literalCount--;
  let distanceCount = DISTANCE_SYMBOLS;
  while (distanceCount > 1 && DYNAMIC_DISTANCE_LENGTHS[distanceCount - 1] === 0) distanceCount--;
  // The two sequences are run-length encoded separately (a run may legally cross from one
  // into the other, but not every inflater has always accepted that).
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

/** Bits of the block's symbols (without extra bits) under the fixed code (RFC 1951 3.2.6). */
function fixedSymbolBits(): number {
  let bits = 0;
  for (let s = 0; s < LITERAL_LENGTH_SYMBOLS; s++) bits += BLOCK_LITERAL_FREQS[s]! * FIXED_LITERAL_LENGTHS[s]!;
  for (let s = 0; s < DISTANCE_SYMBOLS; s++) bits += BLOCK_DISTANCE_FREQS[s]! * FIXED_DISTANCE_LENGTHS[s]!;
  return bits;
}

/** Bits of a stored block of `byteCount` bytes written from the writer's current bit position. */
function storedBits(out: BitWriter, byteCount: number): number {
  const chunks = Math.max(1, Math.ceil(byteCount / STORED_MAX_BYTES));
  // First chunk: 3 header bits, padding to a byte, LEN and NLEN, the bytes. Every later chunk
  // starts on a byte boundary, so its 3 header bits pad to a full byte.
  const firstPad = (8 - ((out.bitCount + 3) & 7)) & 7;
  return 3 + firstPad + 32 + (chunks - 1) * (8 + 32) + 8 * byteCount;
}

/**
 * The codes the block is written with, filled by flushBlock (from the fixed code or the
 * block's dynamic one): constants for the same reason as BLOCK_LITERAL_OR_LENGTH.
 */
const WRITE_LITERAL_CODES = new Uint16Array(288);
const WRITE_LITERAL_LENGTHS = new Uint8Array(288);
const WRITE_DISTANCE_CODES = new Uint16Array(DISTANCE_SYMBOLS);
const WRITE_DISTANCE_LENGTHS = new Uint8Array(DISTANCE_SYMBOLS);

/**
 * Writes the block's symbols with the WRITE_* codes (the hot loop: locals, no calls), and
 * returns the writer's new state packed as `length * 2048 + bitCount * 256 + bits`.
 */
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
  // One number back instead of three property stores: V8 compiles this loop on-stack while
  // it runs, before the code after the loop has ever run, and property stores without type
  // feedback there would throw the compiled loop away on every call.
  return pos * 2048 + bitCount * 256 + bits;
}

/**
 * Writes `data[start, end)` as stored blocks of at most 65,535 bytes (RFC 1951 3.2.4). With
 * BLOCK_SYMBOLS = 8192 a block whose bytes exceed 65,535 always codes smaller with Huffman
 * (at most 31 bits a symbol under the fixed code), so one chunk is the rule; the loop keeps
 * the stream valid should the budget ever change.
 */
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
  // Extra bits of lengths and distances are the same whichever Huffman code is chosen.
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

/** The fixed code (RFC 1951 3.2.6) into the WRITE_* tables. */
function useFixedCode(): void {
  WRITE_LITERAL_CODES.set(FIXED_LITERAL_CODES);
  WRITE_LITERAL_LENGTHS.set(FIXED_LITERAL_LENGTHS);
  WRITE_DISTANCE_CODES.set(FIXED_DISTANCE_CODES);
  WRITE_DISTANCE_LENGTHS.set(FIXED_DISTANCE_LENGTHS);
}

/** The block's dynamic code into the WRITE_* tables (symbols 286 and 287 never occur: their entries are never read). */
function useDynamicCode(): void {
  WRITE_LITERAL_LENGTHS.set(DYNAMIC_LITERAL_LENGTHS);
  canonicalCodesInto(DYNAMIC_LITERAL_LENGTHS, LITERAL_LENGTH_SYMBOLS, WRITE_LITERAL_CODES);
  WRITE_DISTANCE_LENGTHS.set(DYNAMIC_DISTANCE_LENGTHS);
  canonicalCodesInto(DYNAMIC_DISTANCE_LENGTHS, DISTANCE_SYMBOLS, WRITE_DISTANCE_CODES);
}

/** HLIT, HDIST, HCLEN, the code-length code, then the run-length encoded lengths (RFC 1951 3.2.7). */
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

// LZ77 (RFC 1951 section 4)

/** Hash of the HASH_BYTES (4) bytes at `i`, read little-endian (multiplicative: the top HASH_BITS bits of a 32-bit product). */
function hash4(view: DataView, i: number): number {
  return Math.imul(view.getUint32(i, true), HASH_MULTIPLIER) >>> (32 - HASH_BITS);
}

/**
 * Working memory reused from one deflateRaw call to the next (it is synchronous, so no two
 * calls ever share it): the output buffer (kept at the largest size needed so far, at most
 * a 5 MiB bundle file plus block headers), the hash tables and the block. Fresh ones per
 * call left megabytes of garbage per ZIP entry, which V8 frees only late, raising
 * `package`'s peak memory. Only `head` needs resetting: a `prev` slot is read only for a position
 * inserted by the same call (chains start at `head`).
 */
let scratchOutput: Uint8Array = new Uint8Array(64);
// Constants, not allocated on first use: V8 then compiles their accesses against a known
// array (no length or data pointer to load: 8% fewer instructions in the encoder).
const scratchHead = new Int32Array(1 << HASH_BITS);
const scratchPrev = new Int32Array(WINDOW_SIZE);
const scratchBlock = new Block();
// One writer for every call, as there is one block. The compiled encoder checks for the
// writer's hidden class, which V8 keeps only while some object has it: a writer that lives
// as long as the module keeps it. Were writers made per call, none would be left between
// calls, a full collection (package runs one after its check) could drop the class, and
// V8 would throw the compiled encoder away ("weak objects") and compile it again while the
// thread compresses.
const scratchWriter = new BitWriter(scratchOutput);

/** Initial size of the output scratch; it doubles as needed (BitWriter.reserve) and is kept. */
const SCRATCH_OUTPUT_BYTES = 64 << 10;

/** Block and skip limits for the warm-up input: small, so that it reaches every path. */
const WARM_UP_BLOCK_SYMBOLS = 64;
const WARM_UP_SKIP_AFTER_LITERALS = 32;
let warmedUp = false;

/**
 * A short input that, under the warm-up limits, goes through every path of the encoder that
 * real inputs reach: literals; matches with extra length and distance bits; a run long enough
 * for 258-byte matches (and the byte-wise end of the match comparison); skewed statistics
 * (a dynamic block), a single distance code, and none; incompressible bytes (the literal-run
 * skip, a stored block); blocks cut at the symbol budget; a literal as the very last byte.
 */
function warmUpInput(): Uint8Array {
  const text =
    'export function render(value, options) { return value.length * options.scale; }\n' +
    'export function measure(value, options) { return value.length + options.scale; }\n';
  const bytes: number[] = [];
  for (let k = 0; k < text.length; k++) bytes.push(text.charCodeAt(k));
  let x = 0x2545f491;
  const next = (): number => {
    // xorshift32: any fixed sequence would do (the warm-up's output is thrown away).
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

/**
 * Compresses `data` to a raw DEFLATE stream (RFC 1951, no zlib or gzip wrapper). The
 * output is a pure function of the input bytes: the same on every engine and CPU. It is a
 * fresh array of exactly the stream's length.
 */
export function deflateRaw(data: Uint8Array): Uint8Array {
  if (!warmedUp) warmUpEncoder(1);
  return encode(data, BLOCK_SYMBOLS, SKIP_AFTER_LITERALS);
}

/**
 * Runs the encoder `rounds` times over a short input whose output is thrown away.
 *
 * Once, before the first real input (deflateRaw does it): V8 compiles a hot loop while it
 * runs (on-stack replacement), from the type feedback gathered so far, and a path that has
 * never run by then is compiled as "give up here". On a large first input, the end of a
 * block or of the input, a stored block or an incompressible run have never run when the
 * loops get hot, and each one later throws the compiled code away to be compiled again.
 * The short input, under small limits, runs every
 * path in the interpreter first.
 *
 * A few more rounds make V8 start compiling the encoder (on its background threads) well
 * before a thread that has other work first needs it: `package`'s main thread does this
 * before its check, so that the entries it compresses after the check run compiled code
 * from the start.
 */
export function warmUpEncoder(rounds: number): void {
  warmedUp = true;
  const input = warmUpInput();
  for (let k = 0; k < rounds; k++) encode(input, WARM_UP_BLOCK_SYMBOLS, WARM_UP_SKIP_AFTER_LITERALS);
}

/**
 * One DEFLATE stream of `data` whose bytes from `storedFrom` on are written as stored
 * blocks (RFC 1951 3.2.4) after the compressed blocks of the bytes before it. A stored
 * block costs its bytes plus 5, so the stream is never shorter than the stored part: this
 * bounds the ratio of content that compresses too well (D-41). `storedFrom` 0 stores all;
 * `data.length` is deflateRaw. A pure function of its arguments, like deflateRaw.
 */
export function deflateRawWithStoredTail(data: Uint8Array, storedFrom: number): Uint8Array {
  if (!warmedUp) warmUpEncoder(1);
  return encode(data, BLOCK_SYMBOLS, SKIP_AFTER_LITERALS, storedFrom);
}

/** deflateRaw with the block symbol budget, the literal-run skip and the stored tail as parameters. */
function encode(data: Uint8Array, blockSymbols: number, skipAfterLiterals: number, storedFrom = data.length): Uint8Array {
  const n = data.length;
  // No block costs more than storing it (at most 6 bytes over its input), and every block
  // but the last covers at least BLOCK_SYMBOLS bytes. The scratch starts small and grows
  // as flushBlock reserves room: it ends as large as the largest output, not input.
  const capacity = Math.min(n + 6 * (Math.floor(n / BLOCK_SYMBOLS) + 2) + 64, SCRATCH_OUTPUT_BYTES);
  if (scratchOutput.length < capacity) scratchOutput = new Uint8Array(capacity);
  const out = scratchWriter;
  out.reset(scratchOutput);
  const block = scratchBlock;
  block.reset(0);
  try {
    // Always a plain Uint8Array view: a Buffer (a subclass, with another hidden class) and
    // a Uint8Array in turn would make V8 throw away the compiled loops (a "wrong map").
    const view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (storedFrom >= n) {
      compress(view, out, block, blockSymbols, skipAfterLiterals, true);
    } else {
      // The compressed start ends in a block that is not the last; the stored tail ends the stream.
      if (storedFrom > 0) compress(view.subarray(0, storedFrom), out, block, blockSymbols, skipAfterLiterals, false);
      out.reserve(n - storedFrom + 5 * (Math.ceil((n - storedFrom) / STORED_MAX_BYTES) + 1));
      writeStored(out, view, storedFrom, n, true);
      out.alignToByte();
    }
  } finally {
    // The writer's buffer, grown or not, is the scratch from now on.
    scratchOutput = out.bytes;
  }
  return out.bytes.slice(0, out.length);
}

/**
 * The body of deflateRaw: LZ77 over `data` into `block`, flushed into `out`. With `last`
 * false the final block is not marked final and the writer is left mid-byte, for more
 * blocks to follow in the same stream.
 */
function compress(data: Uint8Array, out: BitWriter, block: Block, blockSymbols: number, skipAfterLiterals: number, last: boolean): void {
  const n = data.length;
  if (n === 0) {
    // One final fixed block holding only end-of-block (RFC 1951 3.2.6): the shortest stream.
    flushBlock(out, data, block, 0, last);
    if (last) out.alignToByte();
    return;
  }
  const state = matchAll(data, out, block, blockSymbols, skipAfterLiterals);
  let symbols = state >>> 1;
  if ((state & 1) === 1) {
    // The last byte still awaits its literal.
    BLOCK_LITERAL_OR_LENGTH[symbols] = data[n - 1]!;
    BLOCK_DISTANCE[symbols] = 0;
    symbols++;
    BLOCK_LITERAL_FREQS[data[n - 1]!]!++;
  }
  block.symbols = symbols;
  flushBlock(out, data, block, n, last);
  if (last) out.alignToByte();
}

/**
 * The LZ77 loop of compress over non-empty `data`, cutting and flushing blocks at the
 * symbol budget. Returns the symbols of the last block, which it leaves unflushed, times
 * two, plus one when the last byte still awaits its literal. The loop has a function of its
 * own with nothing after it: V8 compiles a long-running loop while it runs (on-stack
 * replacement), before the code after the loop has ever run, and compiled code that
 * reaches code without type feedback is thrown away and compiled again.
 */
function matchAll(data: Uint8Array, out: BitWriter, block: Block, blockSymbols: number, skipAfterLiterals: number): number {
  const n = data.length;
  // head[h]: the last position with hash h, or NO_POSITION. prev[i & WINDOW_MASK]: the
  // previous position with the same hash as i (absolute, so following a chain is one load;
  // a slot is only read while its position is inside the window, so it is never stale).
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
    // Insert position i into its hash chain, remembering the previous head as the candidate.
    // In a long literal run (incompressible data) only every SKIP_STEP-th position is
    // inserted and searched.
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
    // Search only when a longer match than the pending one can exist (and fit before the end).
    if (i - candidate <= WINDOW_SIZE && prevLength < MAX_LAZY && prevLength < n - i) {
      // longest match: walk the chain from the newest candidate, keep the first longest.
      // Positions are absolute; `limit` is the oldest one a distance reaches (negative
      // near the start, where NO_POSITION is still below it).
      const limit = i - WINDOW_SIZE;
      const maxLength = Math.min(MAX_MATCH, n - i);
      const nice = Math.min(NICE_MATCH, maxLength);
      let chain = prevLength >= GOOD_MATCH ? MAX_CHAIN >> 2 : MAX_CHAIN;
      let best = prevLength;
      let cur = candidate;
      // Bytes are compared four at a time through little-endian DataView reads (V8
      // compiles them to single unaligned loads); the first differing byte of two words is
      // the lowest set byte of their XOR. Every read stays below n: cur < i, candidates
      // exist only where i + HASH_BYTES <= n, and i + best < i + maxLength <= n.
      // The two bytes that end a match one longer than `best` (zlib "scan_end") are
      // compared first: most candidates differ there.
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
          // diff !== 0: the match ends at its lowest differing byte (Math.clz32 of the
          // lowest set bit; len + 4 <= maxLength there, so the sum stays within it).
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
      // The match starting at i - 1 is at least as long as the one at i: emit it.
      lits[symbols] = prevLength;
      dists[symbols] = prevDistance;
      symbols++;
      literalFreqs[257 + LENGTH_CODE[prevLength]!]!++;
      distanceFreqs[DIST_CODE[prevDistance]!]!++;
      const end = i - 1 + prevLength;
      // Positions i + 1 .. end - 1 enter the hash chains without being searched.
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
        // Byte i - 1 goes out as a literal; the match at i (if any) becomes the pending one.
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
    // Cut the block at the symbol budget, unless nothing follows (then the last flush is final).
    if (symbols === blockSymbols && covered < n) {
      block.symbols = symbols;
      flushBlock(out, data, block, covered, false);
      symbols = 0;
    }
  }
  // Here covered is n, or n - 1 with the last byte pending.
  return symbols * 2 + (pending ? 1 : 0);
}
