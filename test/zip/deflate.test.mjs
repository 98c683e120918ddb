// Our RFC 1951 encoder (src/zip/deflate.ts; D-15): every output must inflate, with
// node:zlib as the independent reader, to exactly the input. Rows cover the format's
// boundaries (match lengths 3/258/259, distance 32,768, stored-block size 65,535), block
// types, the length-limited Huffman builder, real files and a seeded random corpus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { buildCodeLengths, deflateRaw, deflateRawWithStoredTail } from '../../build/zip/deflate.js';
import { prng } from '../support/fuzz.mjs';

const ROOT = new URL('../../', import.meta.url);
const CORPUS = new URL('../corpus/', import.meta.url);

/** Deflates, inflates with zlib, and asserts the bytes came back; returns the compressed bytes. */
function roundTrip(data, label) {
  const compressed = deflateRaw(data);
  assert.ok(compressed instanceof Uint8Array, label);
  const back = inflateRawSync(compressed);
  assert.equal(back.length, data.length, `${label}: length`);
  assert.ok(Buffer.from(data.buffer, data.byteOffset, data.byteLength).equals(back), `${label}: bytes differ`);
  return compressed;
}

/** Seeded pseudo-random bytes (incompressible to any LZ77 coder). */
function randomBytes(seed, length) {
  const rng = prng(seed);
  const out = new Uint8Array(length);
  for (let k = 0; k < length; k++) out[k] = Math.floor(rng() * 256);
  return out;
}

function bytesOf(text) {
  return new TextEncoder().encode(text);
}

/** BTYPE of the first block (RFC 1951 3.2.3): bit 0 is BFINAL, bits 1-2 BTYPE. */
function firstBlockType(compressed) {
  return (compressed[0] >> 1) & 3;
}

const STORED = 0;
const FIXED = 1;
const DYNAMIC = 2;

test('round trips: empty, one byte, all 256 byte values', () => {
  const rows = [
    ['empty input', new Uint8Array(0)],
    ['one byte', new Uint8Array([0x41])],
    ['one zero byte', new Uint8Array([0])],
    ['one 0xff byte', new Uint8Array([0xff])],
    ['all 256 byte values once', Uint8Array.from({ length: 256 }, (_, k) => k)],
    ['all 256 byte values, descending, four times', Uint8Array.from({ length: 1024 }, (_, k) => 255 - (k % 256))],
  ];
  for (const [label, data] of rows) roundTrip(data, label);
});

test('empty input is one final fixed block with only end-of-block (03 00)', () => {
  assert.deepEqual([...deflateRaw(new Uint8Array(0))], [0x03, 0x00]);
});

test('runs of one byte: lengths 1, 2, 3 (shortest match), 258 (longest), 259, 70,000', () => {
  for (const length of [1, 2, 3, 4, 257, 258, 259, 260, 516, 517, 70_000]) {
    roundTrip(new Uint8Array(length).fill(0x61), `run of ${length}`);
  }
  // A long run costs a few bytes, not one per byte: the 258-byte matches are found.
  assert.ok(deflateRaw(new Uint8Array(70_000).fill(0x61)).length < 200);
});

test('repeated text and periodic patterns (periods 1 to 9, and around 258)', () => {
  roundTrip(bytesOf('The quick brown fox jumps over the lazy dog. '.repeat(2000)), 'repeated sentence');
  for (const period of [1, 2, 3, 4, 5, 7, 9, 257, 258, 259]) {
    const unit = randomBytes(period, period);
    const data = new Uint8Array(20_000);
    for (let k = 0; k < data.length; k++) data[k] = unit[k % period];
    roundTrip(data, `period ${period}`);
  }
});

test('random bytes are stored: output is the input plus 5 bytes per stored block at most', () => {
  for (const length of [1000, 100_000, 1_000_000]) {
    const data = randomBytes(length, length);
    const compressed = roundTrip(data, `random ${length}`);
    assert.equal(firstBlockType(compressed), STORED, `random ${length}: first block stored`);
    // Blocks hold at most 8,192 symbols (one per byte here): one 5-byte stored header each.
    assert.ok(compressed.length <= length + 5 * Math.ceil(length / 8192), `random ${length}: ${compressed.length}`);
  }
});

test('stored-block size boundary: 65,535, 65,536 and 65,537 incompressible bytes', () => {
  for (const length of [65_534, 65_535, 65_536, 65_537]) {
    const compressed = roundTrip(randomBytes(7, length), `random ${length}`);
    assert.ok(compressed.length <= length + 5 * Math.ceil(length / 8192), `random ${length}: ${compressed.length}`);
  }
});

test('block type: fixed for a short string, dynamic for text, stored for random bytes', () => {
  assert.equal(firstBlockType(roundTrip(bytesOf('hello'), 'hello')), FIXED);
  const text = bytesOf('export function add(a, b) { return a + b; }\n'.repeat(200) + 'const x = [1, 2, 3];\n'.repeat(300));
  assert.equal(firstBlockType(roundTrip(text, 'text')), DYNAMIC);
  assert.equal(firstBlockType(roundTrip(randomBytes(3, 5000), 'random')), STORED);
});

test('distance boundary: a repeat exactly 32,768 bytes back is matched, 32,769 back is not', () => {
  // X (258 random bytes), random filler, X again at distance d. Within the window the second
  // X costs a few bytes; one byte beyond it, all of it is literal (stored).
  const make = (distance) => {
    const x = randomBytes(1, 258);
    const data = randomBytes(2, distance + 258);
    data.set(x, 0);
    data.set(x, distance);
    return data;
  };
  const inside = make(32_768);
  const outside = make(32_769);
  const insideSize = roundTrip(inside, 'distance 32768').length;
  const outsideSize = roundTrip(outside, 'distance 32769').length;
  // The 258-byte match costs a few bytes instead of 258 (the rest is stored either way).
  assert.ok(insideSize < outsideSize - 200, `distance 32768 should be matched: ${insideSize} vs ${outsideSize}`);
  assert.ok(outsideSize >= outside.length, `distance 32769 cannot be matched: ${outsideSize} of ${outside.length}`);
});

test('length boundary: a 258-byte repeat is one match, a 259-byte repeat needs a second symbol', () => {
  // Text-free check through sizes would be fragile; the round trip proves the length codes
  // 284/285 (227..257 and 258) and their extra bits are written as RFC 1951 3.2.5 says.
  for (const length of [3, 4, 10, 11, 18, 19, 34, 35, 66, 67, 130, 131, 226, 227, 257, 258, 259]) {
    const x = randomBytes(length, length);
    const data = new Uint8Array(1000 + 2 * length);
    data.set(randomBytes(99, 1000), 0);
    data.set(x, 1000 - length - 17);
    data.set(x, 1000 + length);
    roundTrip(data, `repeat of ${length}`);
  }
});

test('every distance code: repeats at distances 1 to 32,768 in powers of two and their neighbours', () => {
  const distances = [];
  for (let d = 1; d <= 32_768; d *= 2) distances.push(d - 1, d, d + 1);
  for (const distance of distances.filter((d) => d >= 1 && d <= 32_768)) {
    const data = randomBytes(distance, distance + 64);
    data.copyWithin(distance, 0, 64);
    roundTrip(data, `distance ${distance}`);
  }
});

test('skewed statistics: geometric byte frequencies, and Fibonacci-weighted match lengths', () => {
  // P(byte k) = 2^-(k+1): a skewed literal alphabet.
  let rng = prng(42);
  const geometric = new Uint8Array(200_000);
  for (let k = 0; k < geometric.length; k++) {
    let symbol = 0;
    while (rng() < 0.5 && symbol < 40) symbol++;
    geometric[k] = symbol * 5;
  }
  roundTrip(geometric, 'geometric');
  // After a 4,000-byte random seed, copies of earlier bytes whose lengths take 18 length
  // codes with Fibonacci counts (1, 1, 2, 3, 5, ... 2584), shuffled: about one match symbol
  // per copy, so each block's literal/length and code-length statistics are as steep as
  // 8,192 symbols allow (the code-length code then needs its 7-bit limit).
  rng = prng(43);
  const lengths = [4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51];
  const plan = [];
  for (let repeat = 0; repeat < 4; repeat++) {
    let [a, b] = [1, 1];
    for (const length of lengths) {
      for (let k = 0; k < a; k++) plan.push(length);
      [a, b] = [b, a + b];
    }
  }
  for (let k = plan.length - 1; k > 0; k--) {
    const j = Math.floor(rng() * (k + 1));
    [plan[k], plan[j]] = [plan[j], plan[k]];
  }
  const seed = 4000;
  const data = new Uint8Array(seed + plan.reduce((sum, length) => sum + length, 0));
  data.set(randomBytes(44, seed), 0);
  let at = seed;
  for (const length of plan) {
    const distance = 300 + Math.floor(rng() * (seed - 300));
    data.copyWithin(at, at - distance, at - distance + length);
    at += length;
  }
  roundTrip(data, 'Fibonacci-weighted copies');
});

/** The least cost of any prefix code with lengths 1..maxBits (brute force, tiny alphabets). */
function bruteForceCost(freqs, limit) {
  // An optimal code never needs a length above n - 1, which keeps the search small.
  const maxBits = Math.min(limit, freqs.length - 1);
  let best = Infinity;
  const lengths = new Array(freqs.length).fill(1);
  for (;;) {
    const kraft = lengths.reduce((sum, len) => sum + 2 ** -len, 0);
    if (kraft <= 1) best = Math.min(best, freqs.reduce((sum, f, k) => sum + f * lengths[k], 0));
    let k = 0;
    while (k < lengths.length && lengths[k] === maxBits) lengths[k++] = 1;
    if (k === lengths.length) return best;
    lengths[k]++;
  }
}

test('code lengths: complete, within the limit, and optimal (checked by brute force)', () => {
  const kraft = (lengths, maxBits) => lengths.reduce((sum, len) => (len === 0 ? sum : sum + 2 ** (maxBits - len)), 0);
  const cost = (freqs, lengths) => freqs.reduce((sum, f, k) => sum + f * lengths[k], 0);
  const rows = [
    // [what it proves, frequencies, maxBits, expected lengths (or null)]
    ['no used symbol: two 1-bit codes (RFC 1951 3.2.7 one-code rule, made complete)', [0, 0, 0], 15, [1, 1, 0]],
    ['one used symbol (not 0): it and symbol 0 get 1 bit', [0, 0, 5], 15, [1, 0, 1]],
    ['one used symbol 0: it and symbol 1 get 1 bit', [9, 0, 0], 15, [1, 1, 0]],
    ['two symbols: 1 bit each', [3, 0, 7], 15, [1, 0, 1]],
    ['equal weights: balanced', [1, 1, 1, 1], 15, [2, 2, 2, 2]],
    ['textbook example 45 13 12 16 9 5', [45, 13, 12, 16, 9, 5], 15, [1, 3, 3, 3, 4, 4]],
    ['Fibonacci weights, 6 levels deep, limit 7 does not bind', [1, 1, 2, 3, 5, 8, 13], 7, [6, 6, 5, 4, 3, 2, 1]],
    ['Fibonacci weights, limit 6 exactly reached', [1, 1, 2, 3, 5, 8, 13], 6, [6, 6, 5, 4, 3, 2, 1]],
    ['Fibonacci weights, limit 5 binds (package-merge)', [1, 1, 2, 3, 5, 8, 13], 5, null],
    ['Fibonacci weights, limit 4 binds (package-merge)', [1, 1, 2, 3, 5, 8, 13], 4, null],
    ['Fibonacci weights, limit 3 (8 codes for 7 symbols)', [1, 1, 2, 3, 5, 8, 13], 3, null],
    ['ties everywhere, limit binds', [1, 1, 1, 1, 1, 1, 100], 3, null],
  ];
  for (const [label, freqs, maxBits, expected] of rows) {
    const lengths = new Uint8Array(freqs.length);
    buildCodeLengths(Uint32Array.from(freqs), freqs.length, maxBits, lengths);
    if (expected) assert.deepEqual([...lengths], expected, label);
    assert.ok(Math.max(...lengths) <= maxBits, `${label}: limit`);
    assert.equal(kraft([...lengths], maxBits), 2 ** maxBits, `${label}: complete code`);
    const used = freqs.filter((f) => f > 0);
    if (used.length >= 2) assert.equal(cost(freqs, [...lengths]), bruteForceCost(used, maxBits), `${label}: optimal`);
  }
  // Seeded random small alphabets against the brute force.
  const rng = prng(7);
  for (let c = 0; c < 200; c++) {
    const n = 2 + Math.floor(rng() * 5);
    const maxBits = Math.max(Math.ceil(Math.log2(n)), 2 + Math.floor(rng() * 3));
    const freqs = Array.from({ length: n }, () => 1 + Math.floor(rng() ** 4 * 1000));
    const lengths = new Uint8Array(n);
    buildCodeLengths(Uint32Array.from(freqs), n, maxBits, lengths);
    assert.ok(Math.max(...lengths) <= maxBits, `random ${c}: limit`);
    assert.equal(cost(freqs, [...lengths]), bruteForceCost(freqs, maxBits), `random ${c}: optimal ${freqs} / ${maxBits}`);
  }
});

test('code lengths: alphabets larger than DEFLATE uses are refused (programming error)', () => {
  assert.throws(() => buildCodeLengths(new Uint32Array(287), 287, 15, new Uint8Array(287)), RangeError);
  assert.throws(() => buildCodeLengths(new Uint32Array(19), 19, 16, new Uint8Array(19)), RangeError);
  assert.throws(() => buildCodeLengths(new Uint32Array(19), 19, 4, new Uint8Array(19)), RangeError);
  assert.doesNotThrow(() => buildCodeLengths(new Uint32Array(286), 286, 15, new Uint8Array(286)));
  assert.doesNotThrow(() => buildCodeLengths(new Uint32Array(19), 19, 5, new Uint8Array(19)));
});

test('code lengths: 286 Fibonacci-like weights limited to 15 bits, 19 limited to 7 bits', () => {
  for (const [count, maxBits] of [
    [286, 15],
    [30, 15],
    [19, 7],
  ]) {
    const freqs = new Uint32Array(count);
    let a = 1;
    let b = 1;
    for (let k = 0; k < count; k++) {
      freqs[k] = a;
      [a, b] = [b, Math.min(a + b, 1 << 20)];
    }
    const lengths = new Uint8Array(count);
    buildCodeLengths(freqs, count, maxBits, lengths);
    assert.ok(Math.max(...lengths) <= maxBits, `${count}: limit`);
    assert.ok(Math.max(...lengths) === maxBits, `${count}: the limit binds`);
    const kraft = [...lengths].reduce((sum, len) => sum + 2 ** (maxBits - len), 0);
    assert.equal(kraft, 2 ** maxBits, `${count}: complete code`);
  }
});

/**
 * JavaScript-like text from a seeded dictionary (long hash chains, 3-byte matches near and
 * far, 258-byte runs in banner comments), 40,000 random bytes (the incompressible skip), and
 * a repeat of the text's first half: output that moves when any tuning constant moves.
 */
function goldenInput() {
  const rng = prng(2024);
  const words = ['const', 'let', 'function', 'return', 'import', 'export', 'from', 'if', 'else', 'for', 'await'];
  words.push('new', 'this', 'PLATFORM', 'settings', 'value', 'render', 'document', 'length', 'map');
  words.push('=>', '===', '{', '}', '(', ')', ';', ',', '.', '"text"', '0', '42');
  const lines = [];
  for (let line = 0; line < 3000; line++) {
    const tokens = [];
    for (let k = 2 + Math.floor(rng() * 10); k > 0; k--) {
      const word = words[Math.floor(rng() * words.length)];
      tokens.push(rng() < 0.15 ? `${word}${Math.floor(rng() * 1000)}` : word);
    }
    lines.push('  '.repeat(Math.floor(rng() * 4)) + tokens.join(' ') + '\n');
    if (rng() < 0.02) lines.push(`/* ${'='.repeat(300)} */\n`);
  }
  const text = bytesOf(lines.join(''));
  const out = new Uint8Array(text.length + 40_000 + (text.length >> 1));
  out.set(text, 0);
  out.set(randomBytes(2025, 40_000), text.length);
  out.set(text.subarray(0, text.length >> 1), text.length + 40_000);
  return out;
}

test('deterministic: the same input gives the same bytes; a golden hash pins the encoder', () => {
  const input = goldenInput();
  const first = roundTrip(input, 'golden input');
  assert.deepEqual(deflateRaw(input), first);
  // A change of this hash means every archive changes: a format break of D-15 (see
  // test/zip/zip-write.test.mjs). Update it only on purpose.
  assert.equal(createHash('sha256').update(first).digest('hex'), GOLDEN_DEFLATE_SHA256);
});
const GOLDEN_DEFLATE_SHA256 = 'caa6124750613d4d840eec69f6f84f08294a0f8dac880c0a5ed3e75e84b96390';

test('real files: the example extension, dist/validator.mjs and corpus files round-trip; text beats stored', () => {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const url = new URL(entry.name + (entry.isDirectory() ? '/' : ''), dir);
      if (entry.isDirectory()) walk(url);
      else files.push(url);
    }
  };
  walk(new URL('examples/hello-world/', ROOT));
  const validator = new URL('dist/validator.mjs', ROOT);
  if (existsSync(validator)) files.push(validator);
  for (const name of [
    'go-archive-zip-testdata/gophercolor16x16.png',
    'go-archive-zip-testdata/readme.notzip',
    'css-parsing-tests/stylesheet.json',
    'css-parsing-tests/component_value_list.json',
    'html5lib-tokenizer/test1.test',
    'html5lib-tokenizer/namedEntities.test',
    'dompurify-fixtures/expect.json',
  ]) {
    const url = new URL(name, CORPUS);
    if (existsSync(url)) files.push(url);
  }
  assert.ok(files.length >= 8, 'the example and corpus files are present');
  for (const url of files) {
    const data = new Uint8Array(readFileSync(url));
    const compressed = roundTrip(data, url.pathname);
    if (/\.(js|mjs|css|html|json|test)$/.test(url.pathname) && data.length > 200) {
      assert.ok(compressed.length < data.length, `${url.pathname}: text must compress (${compressed.length} of ${data.length})`);
    }
  }
});

test('seeded random corpus: 400 mixed inputs (text, runs, random, repeats, splices) round-trip', () => {
  const rng = prng(20_240_601);
  const words = ['function', 'return', ' ', '\n', '{', '}', 'const', '=', ';', 'PLATFORM', '.', 'data-x', '<div>', '0', '42'];
  const pieces = [
    (size) => bytesOf(Array.from({ length: size }, () => words[Math.floor(rng() * words.length)]).join('')),
    (size) => new Uint8Array(size * 4).fill(Math.floor(rng() * 256)),
    (size) => randomBytes(Math.floor(rng() * 1e9), size * 2),
    (size) => {
      const unit = randomBytes(Math.floor(rng() * 1e9), 1 + Math.floor(rng() * 300));
      return Uint8Array.from({ length: size * 3 }, (_, k) => unit[k % unit.length]);
    },
  ];
  for (let c = 0; c < 400; c++) {
    const parts = [];
    let total = 0;
    const count = Math.floor(rng() * 6);
    for (let p = 0; p < count; p++) {
      const size = Math.floor(rng() ** 3 * 20_000);
      const part = pieces[Math.floor(rng() * pieces.length)](size);
      parts.push(part);
      total += part.length;
    }
    const data = new Uint8Array(total);
    let at = 0;
    for (const part of parts) {
      data.set(part, at);
      at += part.length;
    }
    // Splice: copy a span from earlier in the input to later (long-distance repeats).
    if (total > 100 && rng() < 0.5) {
      const from = Math.floor(rng() * total);
      const to = Math.floor(rng() * total);
      data.copyWithin(to, from, from + Math.floor(rng() * 5000));
    }
    roundTrip(data, `case ${c} (${total} bytes)`);
  }
});

test('deflateRawWithStoredTail: compressed start, stored tail, one stream; every split point inflates back (D-41)', () => {
  const rng = prng(41);
  const text = Buffer.from('export const x = [1, 2, 3].map((n) => n * 2);\n'.repeat(400));
  const inputs = [
    ['zeros', new Uint8Array(200_000)],
    ['repeated byte', new Uint8Array(70_000).fill(0x61)],
    ['text', new Uint8Array(text)],
    ['random', Uint8Array.from({ length: 9_000 }, () => Math.floor(rng() * 256))],
  ];
  for (const [what, data] of inputs) {
    const n = data.length;
    for (const from of [0, 1, 2, 4095, Math.floor(n / 2), n - 65_536, n - 65_535, n - 65_534, n - 1, n]) {
      if (from < 0) continue;
      const label = `${what} stored from ${from}`;
      const stream = deflateRawWithStoredTail(data, from);
      assert.deepEqual(new Uint8Array(inflateRawSync(stream)), data, label);
      const tail = n - from;
      if (tail === 0) {
        assert.deepEqual(stream, deflateRaw(data), `${label}: nothing stored is deflateRaw`);
        continue;
      }
      // At least the stored bytes and one LEN/NLEN pair per 65,535 of them.
      assert.ok(stream.length >= tail + 4 * Math.ceil(tail / 65_535), `${label}: ${stream.length} bytes`);
      if (tail <= 65_535) assert.deepEqual(stream.subarray(stream.length - tail), data.subarray(from), `${label}: the tail closes the stream as it is`);
      assert.deepEqual(deflateRawWithStoredTail(data, from), stream, `${label}: deterministic`);
    }
  }
  // The calls leave no state behind: deflateRaw after them is what it was.
  assert.deepEqual(deflateRaw(new Uint8Array(text)), deflateRaw(new Uint8Array(text)));
});
