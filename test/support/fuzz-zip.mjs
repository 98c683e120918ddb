#!/usr/bin/env node
// Mutation fuzzing of the hardened ZIP reader (readZip, D-16): seeded mutations of valid
// archives (bit flips, byte inserts and deletes, headers spliced from other archives,
// size/offset/count fields rewritten with boundary values, in one header or consistently
// in both) through readZip with a capped node:zlib inflater.
//
//   node bench/fuzz-zip.mjs [count=1000000] [seed=1]
//
// Prints cases per second, the slowest case and peak RSS. test/validator/fuzz-zip.test.mjs runs
// the same cases (fuzzZipCase) at a smaller count; test/validator/zip-read.test.mjs uses craftZip.
//
// Invariants checked on every case:
// - readZip never throws;
// - memory is bounded: the reader never asks the inflater for more than one file's cap,
//   never for more than the expanded cap in total, and every buffer it gets back is at
//   most the size it asked for (the adapter stops at the cap);
// - every entry's content has exactly its declared size;
// - when the archive is accepted without findings, a reader that walks the local headers
//   from offset 0 sees the same names and bytes (no two readers disagree).
import zlib from 'node:zlib';
import { pick, prng } from './fuzz.mjs';
import { readZip } from '../../build/validator/zip/read.js';
import { FindingList } from '../../build/validator/findings.js';
import { BUNDLE_MAX_EXPANDED_BYTES, BUNDLE_MAX_FILE_BYTES } from '../../build/validator/limits.js';

// ---------------------------------------------------------------------------------------
// A test-only ZIP writer: every field can be set, so tests can build exactly the broken
// archive they describe. (The product writer is src/zip/; this one is deliberately naive.)
// ---------------------------------------------------------------------------------------

const encoder = new TextEncoder();

function bytesOf(value) {
  if (value === undefined) return new Uint8Array(0);
  return typeof value === 'string' ? encoder.encode(value) : Uint8Array.from(value);
}

/** CRC-32 from node:zlib: independent of the implementation under test. */
export function zipCrc32(bytes) {
  return zlib.crc32(bytes) >>> 0;
}

/** A 16-bit "version made by" for a host system (4.4.2) and spec version 2.0. */
export function madeBy(host) {
  return (host << 8) | 20;
}

/**
 * Builds an archive. Each entry: { name, data, method = 8 (0 stored), level, compressed
 * (raw bytes to store as the entry's data, used as is), crc, size (declared uncompressed),
 * compressedSize, flags, versionNeeded = 20, madeBy = 0x0314 (Unix), external = 0,
 * internal = 0, disk = 0, extra, comment, localExtra, localName, local: { field overrides
 * for the local header only: flags, method, crc, compressedSize, size, versionNeeded },
 * localOffset (override in the central header), after (bytes written after the data) }.
 * Options: { prefix, adjustOffsets = true (false: offsets ignore the prefix), centralOrder
 * (indexes), betweenDirectoryAndEnd, disk, directoryDisk, entriesOnDisk, entryCount,
 * directorySize, directoryOffset (absolute) or directorySizeDelta, directoryOffsetDelta
 * (added to the true values), comment, commentLength, trailing }.
 */
export function craftZip(entries, options = {}) {
  const parts = [];
  let offset = 0;
  const push = (bytes) => {
    parts.push(bytes);
    offset += bytes.length;
  };
  const prefix = bytesOf(options.prefix);
  const shift = options.adjustOffsets === false ? prefix.length : 0;
  push(prefix);
  const centrals = [];
  for (const entry of entries) {
    const name = bytesOf(entry.name);
    const data = bytesOf(entry.data);
    const method = entry.method ?? 8;
    const compressed =
      entry.compressed !== undefined ? bytesOf(entry.compressed) : method === 8 ? new Uint8Array(zlib.deflateRawSync(data, { level: entry.level ?? 9 })) : data;
    const central = {
      versionNeeded: entry.versionNeeded ?? 20,
      flags: entry.flags ?? 0,
      method,
      crc: entry.crc ?? zipCrc32(data),
      compressedSize: entry.compressedSize ?? compressed.length,
      size: entry.size ?? data.length,
      name,
      extra: bytesOf(entry.extra),
      comment: bytesOf(entry.comment),
      madeBy: entry.madeBy ?? madeBy(3),
      disk: entry.disk ?? 0,
      internal: entry.internal ?? 0,
      external: entry.external ?? 0,
      localOffset: entry.localOffset ?? offset - shift,
    };
    const local = { ...central, name: entry.localName !== undefined ? bytesOf(entry.localName) : name, extra: bytesOf(entry.localExtra), ...(entry.local ?? {}) };
    push(localHeader(local));
    push(local.name);
    push(local.extra);
    push(compressed);
    push(bytesOf(entry.after));
    centrals.push(central);
  }
  const directoryStart = offset;
  for (const index of options.centralOrder ?? centrals.map((_, i) => i)) {
    const central = centrals[index];
    push(centralHeader(central));
    push(central.name);
    push(central.extra);
    push(central.comment);
  }
  const directorySize = offset - directoryStart;
  push(bytesOf(options.betweenDirectoryAndEnd));
  const comment = bytesOf(options.comment);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(options.disk ?? 0, 4);
  end.writeUInt16LE(options.directoryDisk ?? 0, 6);
  end.writeUInt16LE(options.entriesOnDisk ?? options.entryCount ?? centrals.length, 8);
  end.writeUInt16LE(options.entryCount ?? centrals.length, 10);
  end.writeUInt32LE(options.directorySize ?? directorySize + (options.directorySizeDelta ?? 0), 12);
  end.writeUInt32LE(options.directoryOffset ?? directoryStart - shift + (options.directoryOffsetDelta ?? 0), 16);
  end.writeUInt16LE(options.commentLength ?? comment.length, 20);
  push(end);
  push(comment);
  push(bytesOf(options.trailing));
  return concat(parts);
}

function localHeader(h) {
  const b = Buffer.alloc(30);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(h.versionNeeded, 4);
  b.writeUInt16LE(h.flags, 6);
  b.writeUInt16LE(h.method, 8);
  b.writeUInt16LE(0, 10); // time 00:00:00
  b.writeUInt16LE(0x21, 12); // date 1980-01-01 (D-15)
  b.writeUInt32LE(h.crc >>> 0, 14);
  b.writeUInt32LE(h.compressedSize >>> 0, 18);
  b.writeUInt32LE(h.size >>> 0, 22);
  b.writeUInt16LE(h.name.length, 26);
  b.writeUInt16LE(h.extra.length, 28);
  return b;
}

function centralHeader(h) {
  const b = Buffer.alloc(46);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(h.madeBy, 4);
  b.writeUInt16LE(h.versionNeeded, 6);
  b.writeUInt16LE(h.flags, 8);
  b.writeUInt16LE(h.method, 10);
  b.writeUInt16LE(0, 12);
  b.writeUInt16LE(0x21, 14);
  b.writeUInt32LE(h.crc >>> 0, 16);
  b.writeUInt32LE(h.compressedSize >>> 0, 20);
  b.writeUInt32LE(h.size >>> 0, 24);
  b.writeUInt16LE(h.name.length, 28);
  b.writeUInt16LE(h.extra.length, 30);
  b.writeUInt16LE(h.comment.length, 32);
  b.writeUInt16LE(h.disk, 34);
  b.writeUInt16LE(h.internal, 36);
  b.writeUInt32LE(h.external >>> 0, 38);
  b.writeUInt32LE(h.localOffset >>> 0, 42);
  return b;
}

export function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Inflaters
// ---------------------------------------------------------------------------------------

/**
 * The test-side InflateRaw over node:zlib: output capped one byte over the declared size
 * (maxOutputLength), consumed input compared with the input length for trailing data.
 */
export function inflateRawCapped(compressed, expectedSize) {
  let result;
  try {
    result = zlib.inflateRawSync(compressed, { maxOutputLength: expectedSize + 1, info: true });
  } catch (error) {
    if (error instanceof RangeError || error.code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, reason: 'too-long' };
    return { ok: false, reason: 'corrupt' };
  }
  const { buffer, engine } = result;
  if (buffer.length > expectedSize) return { ok: false, reason: 'too-long' };
  if (buffer.length < expectedSize) return { ok: false, reason: 'too-short' };
  if (engine.bytesWritten !== compressed.length) return { ok: false, reason: 'trailing-data' };
  return { ok: true, data: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length) };
}

/**
 * Wraps an inflater and records every call, checking the memory bound as it goes: each
 * request within one file's cap, all requests within the expanded cap, each returned
 * buffer no longer than requested.
 */
export function spyInflater(inner = inflateRawCapped) {
  const spy = {
    calls: [],
    requested: 0,
    violation: null,
    inflate(compressed, expectedSize) {
      spy.calls.push(expectedSize);
      spy.requested += expectedSize;
      if (expectedSize > BUNDLE_MAX_FILE_BYTES) spy.violation ??= `asked to inflate ${expectedSize} bytes, over the one-file cap`;
      if (spy.requested > BUNDLE_MAX_EXPANDED_BYTES) spy.violation ??= `asked to inflate ${spy.requested} bytes in total, over the expanded cap`;
      const result = inner(compressed, expectedSize);
      if (result.ok && result.data.length > expectedSize) spy.violation ??= `got ${result.data.length} bytes back for ${expectedSize}`;
      return result;
    },
  };
  return spy;
}

// ---------------------------------------------------------------------------------------
// Seeds and mutations
// ---------------------------------------------------------------------------------------

const repetitive = (n) => Array.from({ length: n }, (_, i) => 'abcdefgh'[(i * 7) % 8] + (i % 61 === 0 ? '\n' : '')).join('');

/** Valid archives that reach every branch once mutated: stored, deflated, empty, near the ratio limit. */
export function seedArchives() {
  return [
    craftZip([
      { name: 'index.html', data: '<!doctype html><script type="module" src="js/app.js"></script>', external: 0o100644 * 0x10000 },
      { name: 'css/site.css', data: 'body { color: red; background: url(img/a.png) }\n'.repeat(20), external: 0o100644 * 0x10000 },
      { name: 'js/app.js', data: 'export const x = 1;\n', method: 0, external: 0o100755 * 0x10000 },
    ]),
    craftZip([
      { name: 'a.png', data: Uint8Array.from({ length: 300 }, (_, i) => (i * 131) & 0xff), method: 0, madeBy: madeBy(0), external: 0x20 },
      { name: 'empty.css', data: '', method: 0 },
      { name: 'b.js', data: '', method: 8 },
    ]),
    // Close to the ratio limit: a mutation of a size field tips it over.
    craftZip([{ name: 'zeros.js', data: new Uint8Array(3000), level: 1 }]),
    craftZip([{ name: 'r.css', data: repetitive(4000), level: 0 }, { name: 's.css', data: repetitive(3000), flags: 0x0800 | 0x0002 }]),
    craftZip([]),
  ];
}

/** Field positions of a valid archive, paired local/central so both can change together. */
export function fieldsOf(bytes) {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const fields = [];
  const end = bytes.length - 22;
  const directoryOffset = view.readUInt32LE(end + 16);
  let at = 0;
  for (let i = 0; at < directoryOffset; i++) {
    for (const [rel, width, key] of [[4, 2, 'version'], [6, 2, 'flags'], [8, 2, 'method'], [14, 4, 'crc'], [18, 4, 'csize'], [22, 4, 'usize'], [26, 2, 'nameLength'], [28, 2, 'extraLength']]) {
      fields.push({ at: at + rel, width, pair: `${key}:${i}` });
    }
    at += 30 + view.readUInt16LE(at + 26) + view.readUInt16LE(at + 28) + view.readUInt32LE(at + 18);
  }
  for (let i = 0; at < end; i++) {
    for (const [rel, width, key] of [
      [4, 2, 'madeBy'], [6, 2, 'version'], [8, 2, 'flags'], [10, 2, 'method'], [16, 4, 'crc'], [20, 4, 'csize'], [24, 4, 'usize'],
      [28, 2, 'nameLength'], [30, 2, 'extraLength'], [32, 2, 'commentLength'], [34, 2, 'disk'], [36, 2, 'internal'], [38, 4, 'external'], [42, 4, 'offset'],
    ]) {
      fields.push({ at: at + rel, width, pair: `${key}:${i}` });
    }
    at += 46 + view.readUInt16LE(at + 28) + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
  }
  for (const [rel, width] of [[4, 2], [6, 2], [8, 2], [10, 2], [12, 4], [16, 4], [20, 2]]) fields.push({ at: end + rel, width, pair: null });
  return fields;
}

/** Header chunks (local header with name, central header with name, end record) to splice elsewhere. */
function headerChunks(bytes, fields) {
  const chunks = [bytes.subarray(bytes.length - 22)];
  for (const f of fields) {
    if (f.pair?.startsWith('version:') && f.at >= 4) {
      const start = f.at - (bytes[f.at - 4] === 0x50 && bytes[f.at - 3] === 0x4b && bytes[f.at - 2] === 3 ? 4 : 6);
      chunks.push(bytes.subarray(start, Math.min(bytes.length, start + 46 + 12)));
    }
  }
  return chunks;
}

function writeField(bytes, at, width, value) {
  for (let k = 0; k < width; k++) bytes[at + k] = Math.floor(value / 2 ** (8 * k)) & 0xff;
}

function readField(bytes, at, width) {
  let v = 0;
  for (let k = width - 1; k >= 0; k--) v = v * 256 + bytes[at + k];
  return v;
}

function boundaryValue(rng, current, width, length) {
  const max = width === 2 ? 0xffff : 0xffffffff;
  const values = [0, 1, max, max - 1, current + 1, Math.max(0, current - 1), length, length - 22, current * 2, 0x7fffffff, Math.floor(rng() * (max + 1))];
  return Math.min(max, Math.max(0, pick(rng, values)));
}

let cachedSeeds = null;

/** One mutated archive. */
export function nextCase(rng) {
  cachedSeeds ??= seedArchives().map((bytes) => ({ bytes, fields: fieldsOf(bytes) }));
  const seed = pick(rng, cachedSeeds);
  const out = Uint8Array.from(seed.bytes);
  // Field rewrites first, while the field positions still hold.
  const rewrites = Math.floor(rng() * 3);
  for (let r = 0; r < rewrites && seed.fields.length > 0; r++) {
    const field = pick(rng, seed.fields);
    const value = boundaryValue(rng, readField(out, field.at, field.width), field.width, out.length);
    // Half the time the same field in the other header too, so they still agree and
    // the case reaches the layout, policy and inflate checks.
    const targets = field.pair !== null && rng() < 0.5 ? seed.fields.filter((f) => f.pair === field.pair) : [field];
    for (const t of targets) writeField(out, t.at, t.width, value);
  }
  let bytes = out;
  const edits = Math.floor(rng() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rng() * (bytes.length + 1));
    const kind = Math.floor(rng() * 7);
    if (kind === 0 && bytes.length > 0) {
      const copy = Uint8Array.from(bytes);
      copy[Math.min(at, copy.length - 1)] ^= 1 << Math.floor(rng() * 8);
      bytes = copy;
    } else if (kind === 1 && bytes.length > 0) {
      const copy = Uint8Array.from(bytes);
      copy[Math.min(at, copy.length - 1)] = Math.floor(rng() * 256);
      bytes = copy;
    } else if (kind === 2) {
      const insert = Uint8Array.from({ length: 1 + Math.floor(rng() * 4) }, () => Math.floor(rng() * 256));
      bytes = concat([bytes.subarray(0, at), insert, bytes.subarray(at)]);
    } else if (kind === 3) {
      bytes = concat([bytes.subarray(0, at), bytes.subarray(at + 1 + Math.floor(rng() * 8))]);
    } else if (kind === 4) {
      // Splice a header from another archive, inserted or written over.
      const other = pick(rng, cachedSeeds);
      const chunk = pick(rng, headerChunks(other.bytes, other.fields));
      bytes = rng() < 0.5 ? concat([bytes.subarray(0, at), chunk, bytes.subarray(at)]) : concat([bytes.subarray(0, at), chunk, bytes.subarray(at + chunk.length)]);
    } else if (kind === 5) {
      const from = Math.floor(rng() * (bytes.length + 1));
      bytes = concat([bytes.subarray(0, at), bytes.subarray(from, from + Math.floor(rng() * 64)), bytes.subarray(at)]);
    } else {
      bytes = bytes.subarray(0, at);
    }
  }
  return bytes;
}

/**
 * Runs one archive through readZip. Returns { problem: null when every invariant holds,
 * otherwise a description of the broken one; accepted: no finding; rules: the ids found }.
 */
export function runCase(bytes) {
  const spy = spyInflater();
  const findings = new FindingList();
  let result;
  try {
    result = readZip(bytes, spy.inflate, findings, 'fuzz.zip');
  } catch (error) {
    return { problem: `exception: ${error && error.stack}`, accepted: false, rules: [] };
  }
  const rules = findings.items.map((f) => f.rule);
  const outcome = (problem) => ({ problem, accepted: result.entries !== null && rules.length === 0, rules });
  if (spy.violation !== null) return outcome(spy.violation);
  if (findings.items.some((f) => f.file !== 'fuzz.zip' || !f.rule.startsWith('archive/'))) return outcome('finding without the archive name or outside archive/');
  if (result.entries === null) return outcome(rules.length === 0 ? 'refused without a finding' : null);
  for (const entry of result.entries) {
    if (entry.content !== undefined && entry.content.length !== entry.size) return outcome(`content of ${entry.path} is not its declared size`);
  }
  if (rules.length === 0) {
    const walked = walkLocalHeaders(bytes);
    if (walked === null || walked.length !== result.entries.length) return outcome('a local-header walk disagrees with the central directory');
    const byName = new Map(result.entries.map((e) => [e.path, e]));
    for (const w of walked) {
      const entry = byName.get(w.name);
      if (entry === undefined || entry.content === undefined || Buffer.compare(Buffer.from(entry.content), Buffer.from(w.content)) !== 0) {
        return outcome(`a local-header walk sees different content for ${w.name}`);
      }
    }
  }
  return outcome(null);
}

/** A streaming reader: local headers from offset 0 until the first other signature. */
function walkLocalHeaders(bytes) {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const out = [];
  let at = 0;
  while (at + 30 <= view.length && view.readUInt32LE(at) === 0x04034b50) {
    const method = view.readUInt16LE(at + 8);
    const csize = view.readUInt32LE(at + 18);
    const nameLength = view.readUInt16LE(at + 26);
    const dataStart = at + 30 + nameLength + view.readUInt16LE(at + 28);
    const data = view.subarray(dataStart, dataStart + csize);
    let content;
    try {
      content = method === 0 ? data : zlib.inflateRawSync(data);
    } catch {
      return null;
    }
    out.push({ name: view.subarray(at + 30, at + 30 + nameLength).toString('latin1'), content });
    at = dataStart + csize;
  }
  return out;
}

export function main() {
  const count = Number(process.argv[2] ?? 1_000_000);
  const seed = Number(process.argv[3] ?? 1);
  const rng = prng(seed);
  let slowest = 0;
  let slowestCase = null;
  let accepted = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const bytes = nextCase(rng);
    const t0 = performance.now();
    const outcome = runCase(bytes);
    const took = performance.now() - t0;
    if (outcome.problem !== null) {
      console.error(`case ${i} (seed ${seed}) failed: ${outcome.problem}\n${Buffer.from(bytes).toString('base64')}`);
      process.exit(1);
    }
    if (outcome.accepted) accepted++;
    if (took > slowest) {
      slowest = took;
      slowestCase = { index: i, length: bytes.length };
    }
    if ((i + 1) % 100_000 === 0) console.error(`${i + 1} cases...`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`fuzz-zip: ${count} cases in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} cases/s), seed ${seed}, ${accepted} accepted`);
  console.log(`slowest case: #${slowestCase?.index} (${slowestCase?.length} bytes) ${slowest.toFixed(2)} ms`);
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} MiB`);
}
