// The reader never lets an inflater produce more than the contract allows (issue 22 item
// 24): sizes, count and ratios are checked from the headers before any inflater call, and
// each stream is walked without output (src/validator/zip/deflate-bound.ts) before it is
// handed over. Proved with a naive adapter (plain inflateRawSync, ignoring the cap) that
// counts what it inflates, and with zlib as the oracle for the walk itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { deflateBound } from '../../build/validator/zip/deflate-bound.js';
import { readZip } from '../../build/validator/zip/read.js';
import { FindingList } from '../../build/validator/findings.js';
import { BUNDLE_MAX_COMPRESSION_RATIO, BUNDLE_MAX_FILE_BYTES, BUNDLE_MAX_FILES } from '../../build/validator/limits.js';
import { deflateRaw, deflateRawWithStoredTail } from '../../build/zip/deflate.js';
import { craftZip } from '../support/fuzz-zip.mjs';
import { mutateBytes, prng } from '../support/fuzz.mjs';

const MIB = 1024 * 1024;

/** An adapter a platform team might write: inflateRawSync with no cap. It counts what it inflates. */
function naiveAdapter() {
  const state = { calls: 0, inflated: 0 };
  state.inflate = (compressed) => {
    state.calls++;
    try {
      const data = zlib.inflateRawSync(compressed);
      state.inflated += data.length;
      return { ok: true, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
    } catch {
      return { ok: false, reason: 'corrupt' };
    }
  };
  return state;
}

function read(bytes, inflate) {
  const findings = new FindingList();
  const result = readZip(bytes, inflate, findings);
  return { rules: [...new Set(findings.items.map((f) => f.rule))].sort(), entries: result.entries };
}

test('a 51 KB archive whose stream holds 50 MiB: a naive adapter inflates nothing', () => {
  const stream = zlib.deflateRawSync(Buffer.alloc(50 * MIB), { level: 9 });
  // The central directory states a size the ratio and the per-file limit allow.
  const declared = Math.min(stream.length * BUNDLE_MAX_COMPRESSION_RATIO, BUNDLE_MAX_FILE_BYTES);
  const archive = craftZip([{ name: 'index.html', compressed: stream, size: declared, crc: 0 }]);
  assert.ok(archive.length < 60_000, `${archive.length} bytes`);
  const naive = naiveAdapter();
  assert.deepEqual(read(archive, naive.inflate).rules, ['archive/size-mismatch']);
  assert.equal(naive.inflated, 0, 'bytes inflated');
  assert.equal(naive.calls, 0);
  // The other side: the same stream, declared as what it holds, is over the per-file limit
  // and the ratio, so it is refused from the headers and nothing is inflated either.
  const honest = craftZip([{ name: 'index.html', compressed: stream, size: 50 * MIB, crc: 0 }]);
  const again = naiveAdapter();
  assert.deepEqual(read(honest, again.inflate).rules, ['archive/compression-ratio']);
  assert.equal(again.inflated, 0);
});

test('an inflater that stops at the cap may skip the walk: it is handed the same stream with the cap and stops there', async () => {
  const { NODE_RELEASE_DEPS, inflateRawCapped } = await import('../../build/node/release-deps.js');
  assert.equal(NODE_RELEASE_DEPS.inflateRawStopsAtCap, true);
  assert.equal(NODE_RELEASE_DEPS.inflateRaw, inflateRawCapped);
  const stream = zlib.deflateRawSync(Buffer.alloc(50 * MIB), { level: 9 });
  const declared = Math.min(stream.length * BUNDLE_MAX_COMPRESSION_RATIO, BUNDLE_MAX_FILE_BYTES);
  const archive = craftZip([{ name: 'index.html', compressed: stream, size: declared, crc: 0 }]);
  const produced = [];
  const capped = (compressed, cap) => {
    const result = inflateRawCapped(compressed, cap);
    produced.push([cap, result.ok ? result.data.length : result.reason]);
    return result;
  };
  const findings = new FindingList();
  readZip(archive, capped, findings, 'bundle.zip', { inflaterStopsAtCap: true });
  assert.deepEqual([...new Set(findings.items.map((f) => f.rule))], ['archive/size-mismatch']);
  assert.deepEqual(produced, [[declared, 'too-long']]);
});

test('a stream declared exactly is handed over with its cap; one byte short of its content is not handed over', () => {
  const content = Buffer.from(Array.from({ length: 2000 }, (_, k) => `export const v${k} = ${(k * 7919) % 10007};\n`).join(''));
  const stream = zlib.deflateRawSync(content);
  const asked = [];
  const inflate = (compressed, cap) => {
    asked.push(cap);
    const data = zlib.inflateRawSync(compressed, { maxOutputLength: Math.max(1, cap) });
    return { ok: true, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  };
  const crc = zlib.crc32(content) >>> 0;
  assert.deepEqual(read(craftZip([{ name: 'a.js', compressed: stream, size: content.length, crc }]), inflate).rules, []);
  assert.deepEqual(asked, [content.length]);
  assert.deepEqual(read(craftZip([{ name: 'a.js', compressed: stream, size: content.length - 1, crc }]), inflate).rules, ['archive/size-mismatch']);
  assert.deepEqual(asked, [content.length], 'not called for the short declaration');
});

test(`count: ${BUNDLE_MAX_FILES} entries are inflated, ${BUNDLE_MAX_FILES + 1} are not (the listing reports the count)`, () => {
  const make = (n) => craftZip(Array.from({ length: n }, (_, k) => ({ name: `f${k}.js`, data: `export const n = ${k};\n` })));
  const at = naiveAdapter();
  assert.deepEqual(read(make(BUNDLE_MAX_FILES), at.inflate).rules, []);
  assert.equal(at.calls, BUNDLE_MAX_FILES);
  const over = naiveAdapter();
  const result = read(make(BUNDLE_MAX_FILES + 1), over.inflate);
  assert.deepEqual(result.rules, []);
  assert.equal(over.calls, 0);
  assert.ok(result.entries.every((e) => e.content === undefined));
});

/** What zlib makes of `stream` under a cap: 'over', 'corrupt', 'short' (input ran out) or the output length. */
function zlibOutcome(stream, cap) {
  try {
    return zlib.inflateRawSync(stream, { maxOutputLength: cap + 1 }).length > cap ? 'over' : 'within';
  } catch (error) {
    if (error.code === 'ERR_BUFFER_TOO_LARGE' || error.name === 'RangeError') return 'over';
    if (error.code === 'Z_BUF_ERROR') {
      // The input ran out: what it produced until then, which may already pass the cap.
      try {
        const partial = zlib.inflateRawSync(stream, { maxOutputLength: cap + 1, finishFlush: zlib.constants.Z_SYNC_FLUSH });
        return partial.length > cap ? 'over' : 'short';
      } catch (again) {
        return again.code === 'ERR_BUFFER_TOO_LARGE' || again.name === 'RangeError' ? 'over' : 'short';
      }
    }
    return 'corrupt';
  }
}

function streams() {
  const rng = prng(24);
  const text = Buffer.from('function f(a, b) { return a.map((x) => x * b).filter(Boolean); }\n'.repeat(300));
  const random = Buffer.from(Array.from({ length: 40_000 }, () => Math.floor(rng() * 256)));
  const mixed = Buffer.concat([text, random.subarray(0, 5000), Buffer.alloc(70_000, 7), text]);
  const out = [];
  for (const [what, data] of [['text', text], ['random', random], ['mixed', mixed], ['empty', Buffer.alloc(0)], ['one byte', Buffer.from('x')]]) {
    for (const level of [0, 1, 6, 9]) out.push([`${what} zlib level ${level}`, data, zlib.deflateRawSync(data, { level })]);
    for (const strategy of [zlib.constants.Z_FIXED, zlib.constants.Z_HUFFMAN_ONLY, zlib.constants.Z_RLE]) out.push([`${what} zlib strategy ${strategy}`, data, zlib.deflateRawSync(data, { strategy })]);
    out.push([`${what} deflate.ts`, data, deflateRaw(data)]);
    if (data.length > 0) out.push([`${what} deflate.ts stored tail`, data, deflateRawWithStoredTail(data, Math.floor(data.length / 2))]);
  }
  return out;
}

test('deflateBound measures valid streams exactly: within at their size, over one byte below', () => {
  for (const [what, data, stream] of streams()) {
    assert.equal(deflateBound(stream, data.length), 'within', what);
    if (data.length > 0) assert.equal(deflateBound(stream, data.length - 1), 'over', `${what}: one byte below`);
  }
});

test('deflateBound refuses what zlib refuses, table', () => {
  const hex = (s) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
  const rows = [
    ['block type 3', hex('07'), 'corrupt'],
    ['stored lengths disagree', hex('01 0500 0000'), 'corrupt'],
    ['stored, agreeing lengths', Buffer.concat([hex('01 0500 faff'), Buffer.from('hello')]), 'within'],
    ['fixed block: distance before any output', hex('03 02 00'), 'corrupt'],
    ['empty input', hex(''), 'within'],
    ['truncated fixed block', zlib.deflateRawSync(Buffer.from('hello world, hello world')).subarray(0, 4), 'within'],
  ];
  for (const [what, stream, expected] of rows) {
    assert.equal(deflateBound(stream, 1000), expected, what);
    const oracle = zlibOutcome(stream, 1000);
    if (expected === 'corrupt') assert.equal(oracle, 'corrupt', `${what}: zlib agrees`);
    else assert.notEqual(oracle, 'corrupt', `${what}: zlib agrees`);
  }
});

/**
 * `count` dynamic blocks of about 11 bytes each that produce nothing: one-bit codes for
 * end-of-block and one distance, lengths sent with two repeat codes. The cheapest way to
 * make an inflater build a code per block.
 */
function tinyDynamicBlocks(count) {
  const out = [];
  let acc = 0;
  let n = 0;
  const write = (value, bits) => {
    for (let i = 0; i < bits; i++) {
      acc |= ((value >> i) & 1) << n;
      if (++n === 8) {
        out.push(acc);
        acc = 0;
        n = 0;
      }
    }
  };
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  for (let b = 0; b < count; b++) {
    write(b === count - 1 ? 1 : 0, 1);
    write(2, 2);
    write(0, 5); // 257 literal/length codes
    write(0, 5); // 1 distance code
    write(14, 4); // 18 code length code lengths
    for (let k = 0; k < 18; k++) write(order[k] === 18 || order[k] === 1 ? 1 : 0, 3);
    write(1, 1); // 18: 138 zeros
    write(127, 7);
    write(1, 1); // 18: 118 zeros
    write(107, 7);
    write(0, 1); // 1: end-of-block has a one-bit code
    write(0, 1); // 1: so has distance 0
    write(0, 1); // end-of-block
  }
  if (n > 0) out.push(acc);
  return Uint8Array.from(out);
}

test('a stream of many tiny dynamic blocks is walked to its end (tables sized to their codes)', () => {
  for (const count of [1, 2, 1000, 20_000]) {
    const stream = tinyDynamicBlocks(count);
    assert.equal(zlib.inflateRawSync(stream).length, 0, `${count}: zlib`);
    assert.equal(deflateBound(stream, 0), 'within', `${count} blocks`);
    assert.equal(deflateBound(stream.subarray(0, stream.length - 1), 0), 'within', `${count} blocks, truncated`);
  }
});

test('deflateBound agrees with zlib on 6,000 mutated streams: over exactly when zlib overflows, never refusing what zlib inflates', () => {
  const rng = prng(0x5eed24);
  const seeds = streams().filter(([, data]) => data.length > 0);
  const seen = { over: 0, corrupt: 0, within: 0 };
  for (let k = 0; k < 6_000; k++) {
    const [what, data, stream] = seeds[Math.floor(rng() * seeds.length)];
    const mutated = mutateBytes(rng, stream.subarray(0, Math.min(stream.length, 4096)), 3);
    const cap = rng() < 0.5 ? data.length : Math.floor(rng() * data.length * 2);
    const bound = deflateBound(mutated, cap);
    const oracle = zlibOutcome(mutated, cap);
    seen[bound]++;
    const label = `${what}, case ${k}, cap ${cap}: walk ${bound}, zlib ${oracle}`;
    // The bound never underestimates: what zlib inflates past the cap, the walk calls over.
    if (oracle === 'over') assert.equal(bound, 'over', label);
    // What zlib inflates within the cap, the walk lets through: it never refuses a good stream.
    else if (oracle === 'within') assert.equal(bound, 'within', label);
    // A fault: refused by both (zlib may name a fault that follows the overflow in the same output chunk).
    else if (oracle === 'corrupt') assert.ok(bound === 'corrupt' || bound === 'over', label);
    // Input that ends: within, or corrupt where it ends inside a header already invalid
    // (zlib waits for the whole header before judging it); never over.
    else assert.ok(bound === 'within' || bound === 'corrupt', label);
  }
  assert.ok(seen.over > 100 && seen.corrupt > 100 && seen.within > 100, JSON.stringify(seen));
});
