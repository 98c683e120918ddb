// The deterministic ZIP writer (src/zip/zip-writer.ts; D-15): byte order of names, every header
// field, the method rule (deflate only when smaller and the ratio stays within
// BUNDLE_MAX_COMPRESSION_RATIO, D-16), refusals of input the caller must never pass, a
// golden hash, and interoperability with Info-ZIP unzip and Python's zipfile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { assembleZip, compressEntry, orderZipFiles, writeZip } from '../../build/zip/zip-writer.js';
import { compressEntries, setCompressionWorkerScript, sharedBytes } from '../../build/zip/parallel-compression.js';
import { proveStream, provenInflater } from '../../build/zip/read-back-proof.js';
import { inflateRawCapped } from '../../build/node/release-deps.js';
import { inflateEquals } from '../../build/node/zlib-inflate.js';
import { FindingList, readZip } from '../../build/validator/index.js';
import { crc32 as crc32Fast } from '../../build/node/hashes.js';
import { deflateRaw } from '../../build/zip/deflate.js';
import * as format from '../../build/validator/zip/zip-format.js';

// The record layouts written out here from APPNOTE.TXT 4.3.7, 4.3.12 and 4.3.16, independently
// of the shared table (build/validator/zip/zip-format.js), so that the parser below cannot
// share a wrong offset with the writer; 'format constants match APPNOTE' compares the two.
const APPNOTE = {
  local: { signature: 0, versionNeeded: 4, flags: 6, method: 8, time: 10, date: 12, crc32: 14, compressedSize: 18, uncompressedSize: 22, nameLength: 26, extraLength: 28, name: 30 },
  central: {
    signature: 0,
    versionMadeBy: 4,
    versionNeeded: 6,
    flags: 8,
    method: 10,
    time: 12,
    date: 14,
    crc32: 16,
    compressedSize: 20,
    uncompressedSize: 24,
    nameLength: 28,
    extraLength: 30,
    commentLength: 32,
    diskNumberStart: 34,
    internalAttributes: 36,
    externalAttributes: 38,
    localHeaderOffset: 42,
    name: 46,
  },
  end: { signature: 0, diskNumber: 4, centralDirectoryDisk: 6, entriesOnDisk: 8, entries: 10, centralDirectorySize: 12, centralDirectoryOffset: 16, commentLength: 20, length: 22 },
};
import { crc32 } from '../../build/validator/zip/crc32.js';
import { BUNDLE_MAX_COMPRESSION_RATIO } from '../../build/validator/limits.js';
import { prng } from '../support/fuzz.mjs';
import { makeProject, runCli } from '../support/project.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE_RUNTIME = join(ROOT, 'examples/hello-world/runtime');

const text = (s) => new TextEncoder().encode(s);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function seededBytes(seed, length) {
  const rng = prng(seed);
  return Uint8Array.from({ length }, () => Math.floor(rng() * 256));
}

function shuffled(items, seed) {
  const rng = prng(seed);
  const out = [...items];
  for (let k = out.length - 1; k > 0; k--) {
    const j = Math.floor(rng() * (k + 1));
    [out[k], out[j]] = [out[j], out[k]];
  }
  return out;
}

/** Every file under `dir` as {path, content}, paths relative to `dir` with "/". */
function readTree(dir) {
  const files = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push({ path: relative(dir, full).split('\\').join('/'), content: new Uint8Array(readFileSync(full)) });
    }
  };
  walk(dir);
  return files;
}

/**
 * A strict little parser for what writeZip produces: the EOCD at the very end, the central
 * directory it points to, and each local header. It decodes fields; the tests judge them.
 */
function parseArchive(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const endAt = bytes.length - APPNOTE.end.length;
  const end = {
    at: endAt,
    signature: view.getUint32(endAt + APPNOTE.end.signature, true),
    diskNumber: view.getUint16(endAt + APPNOTE.end.diskNumber, true),
    centralDirectoryDisk: view.getUint16(endAt + APPNOTE.end.centralDirectoryDisk, true),
    entriesOnDisk: view.getUint16(endAt + APPNOTE.end.entriesOnDisk, true),
    entries: view.getUint16(endAt + APPNOTE.end.entries, true),
    centralDirectorySize: view.getUint32(endAt + APPNOTE.end.centralDirectorySize, true),
    centralDirectoryOffset: view.getUint32(endAt + APPNOTE.end.centralDirectoryOffset, true),
    commentLength: view.getUint16(endAt + APPNOTE.end.commentLength, true),
  };
  const central = [];
  let at = end.centralDirectoryOffset;
  for (let k = 0; k < end.entries; k++) {
    const c = APPNOTE.central;
    const entry = {
      at,
      signature: view.getUint32(at + c.signature, true),
      versionMadeBy: view.getUint16(at + c.versionMadeBy, true),
      versionNeeded: view.getUint16(at + c.versionNeeded, true),
      flags: view.getUint16(at + c.flags, true),
      method: view.getUint16(at + c.method, true),
      time: view.getUint16(at + c.time, true),
      date: view.getUint16(at + c.date, true),
      crc32: view.getUint32(at + c.crc32, true),
      compressedSize: view.getUint32(at + c.compressedSize, true),
      uncompressedSize: view.getUint32(at + c.uncompressedSize, true),
      nameLength: view.getUint16(at + c.nameLength, true),
      extraLength: view.getUint16(at + c.extraLength, true),
      commentLength: view.getUint16(at + c.commentLength, true),
      diskNumberStart: view.getUint16(at + c.diskNumberStart, true),
      internalAttributes: view.getUint16(at + c.internalAttributes, true),
      externalAttributes: view.getUint32(at + c.externalAttributes, true),
      localHeaderOffset: view.getUint32(at + c.localHeaderOffset, true),
    };
    entry.name = Buffer.from(bytes.subarray(at + c.name, at + c.name + entry.nameLength)).toString('latin1');
    central.push(entry);
    at += APPNOTE.central.name + entry.nameLength + entry.extraLength + entry.commentLength;
  }
  const local = central.map((entry) => {
    const l = APPNOTE.local;
    const base = entry.localHeaderOffset;
    const header = {
      at: base,
      signature: view.getUint32(base + l.signature, true),
      versionNeeded: view.getUint16(base + l.versionNeeded, true),
      flags: view.getUint16(base + l.flags, true),
      method: view.getUint16(base + l.method, true),
      time: view.getUint16(base + l.time, true),
      date: view.getUint16(base + l.date, true),
      crc32: view.getUint32(base + l.crc32, true),
      compressedSize: view.getUint32(base + l.compressedSize, true),
      uncompressedSize: view.getUint32(base + l.uncompressedSize, true),
      nameLength: view.getUint16(base + l.nameLength, true),
      extraLength: view.getUint16(base + l.extraLength, true),
    };
    header.name = Buffer.from(bytes.subarray(base + l.name, base + l.name + header.nameLength)).toString('latin1');
    header.dataAt = base + l.name + header.nameLength + header.extraLength;
    header.data = bytes.subarray(header.dataAt, header.dataAt + header.compressedSize);
    return header;
  });
  return { end, central, local, centralEnd: at };
}

/** The entry's bytes after undoing its method. */
function contentOf(header) {
  if (header.method === format.METHOD_STORED) return header.data;
  return new Uint8Array(zlib.inflateRawSync(header.data));
}

const hasZlibCrc32 = typeof zlib.crc32 === 'function';

/** Seeded JavaScript-like text: long hash chains, near and far repeats (exercises the encoder's tuning). */
function seededScript(seed, lines) {
  const rng = prng(seed);
  const words = ['const', 'function', 'return', 'import', 'export', 'PLATFORM', 'settings', 'value', 'render'];
  words.push('=>', '{', '}', '(', ')', ';', '.', '"x"', '0');
  const out = [];
  for (let line = 0; line < lines; line++) {
    const tokens = [];
    for (let k = 2 + Math.floor(rng() * 8); k > 0; k--) {
      tokens.push(words[Math.floor(rng() * words.length)] + (rng() < 0.2 ? Math.floor(rng() * 500) : ''));
    }
    out.push('  '.repeat(Math.floor(rng() * 3)) + tokens.join(' ') + '\n');
  }
  return text(out.join(''));
}

// A fixed small file set. Its archive hash is pinned below.
function goldenFiles() {
  return [
    { path: 'js/app.js', content: seededScript(11, 2500) },
    {
      path: 'index.html',
      content: text('<!doctype html>\n<meta charset="utf-8">\n<title>Golden</title>\n<script type="module" src="main.js"></script>\n'),
    },
    { path: 'main.js', content: text("import { format } from './lib/format.js';\n".repeat(3) + 'console.log(format(42));\n'.repeat(40)) },
    { path: 'lib/format.js', content: text('export function format(n) {\n  return `#${n}`;\n}\n') },
    { path: 'styles.css', content: text('.a { color: red; }\n'.repeat(100)) },
    { path: 'images/logo.png', content: seededBytes(1, 2000) },
    { path: 'images/zeros.webp', content: new Uint8Array(10_000) },
    { path: 'fonts/empty.woff2', content: new Uint8Array(0) },
  ];
}

test('golden: the archive of a fixed file set has a pinned SHA-256 (a change is a D-15 format break)', () => {
  // This hash covers the DEFLATE encoder (its tuning constants included), the method rule
  // and every header byte. If it changes, every release artifact built from the same
  // sources changes: treat that as a format break, and update it only on purpose.
  assert.equal(sha256(writeZip(goldenFiles())), GOLDEN_ARCHIVE_SHA256);
});
// images/zeros.webp (ratio over 100) is deflated with a stored tail (D-41); every other entry is deflateRaw's stream.
const GOLDEN_ARCHIVE_SHA256 = '972206d5a6dc4ec363e4d6cf640fd77fbc048555ab6ab8b3f663a44557497950';

test('determinism: the same files in any input order give byte-identical archives', () => {
  const reference = writeZip(goldenFiles());
  for (let seed = 1; seed <= 12; seed++) {
    assert.deepEqual(writeZip(shuffled(goldenFiles(), seed)), reference, `order ${seed}`);
  }
  // Fresh copies of the bytes (other buffers, other offsets) change nothing either.
  const copies = goldenFiles().map((f) => {
    const backing = new Uint8Array(f.content.length + 16);
    backing.set(f.content, 7);
    return { path: f.path, content: backing.subarray(7, 7 + f.content.length) };
  });
  assert.deepEqual(writeZip(copies), reference);
});

test('compressEntry + assembleZip give writeZip\'s bytes, whatever order the entries are compressed in', () => {
  const reference = writeZip(goldenFiles());
  for (let seed = 1; seed <= 6; seed++) {
    const files = shuffled(goldenFiles(), seed);
    const compressed = new Map();
    // Compressed in one order, assembled from files in another, with either CRC-32.
    for (const f of shuffled(files, seed + 100)) compressed.set(f.path, compressEntry(f.content, seed % 2 === 0 ? crc32Fast : undefined));
    assert.deepEqual(assembleZip(shuffled(files, seed + 200), compressed), reference, `order ${seed}`);
  }
  // writeZip with the native CRC (node:zlib's, where it exists) is the same archive.
  assert.deepEqual(writeZip(goldenFiles(), crc32Fast), reference);
  // orderZipFiles is byte order of names, and refuses what writeZip refuses.
  assert.deepEqual(orderZipFiles(shuffled(goldenFiles(), 9)).map((f) => f.path), goldenFiles().map((f) => f.path).sort());
  assert.throws(() => orderZipFiles([{ path: 'a.js', content: text('1') }, { path: 'a.js', content: text('2') }]), /occurs twice/);
});

test('assembleZip refuses a missing entry, or a stored entry whose bytes are not its file\'s (programming errors)', () => {
  const files = [{ path: 'a.js', content: text('export const a = 1;\n'.repeat(50)) }, { path: 'b.png', content: seededBytes(3, 500) }];
  const good = new Map(files.map((f) => [f.path, compressEntry(f.content)]));
  assert.doesNotThrow(() => assembleZip(files, good));
  const missing = new Map(good);
  missing.delete('b.png');
  assert.throws(() => assembleZip(files, missing), /no compressed entry for "b.png"/);
  const wrong = new Map(good);
  wrong.set('b.png', { method: format.METHOD_STORED, data: seededBytes(3, 499), crc32: 0 });
  assert.throws(() => assembleZip(files, wrong), /does not belong/);
});

/** A bundle-like file set big enough to keep a worker busy: text, random bytes, runs, an empty file. */
function parallelFiles() {
  const files = [];
  for (let k = 0; k < 24; k++) files.push({ path: `js/m${k}.js`, content: seededScript(100 + k, 300 + 40 * k) });
  for (let k = 0; k < 8; k++) files.push({ path: `img/i${k}.png`, content: seededBytes(200 + k, 20_000 + 3_000 * k) });
  files.push({ path: 'img/zeros.webp', content: new Uint8Array(300_000) });
  files.push({ path: 'fonts/empty.woff2', content: new Uint8Array(0) });
  files.push({ path: 'index.html', content: text('<!doctype html><title>t</title>\n') });
  return files;
}

const WORKER_ENTRY = pathToFileURL(join(ROOT, 'build/zip/compression-worker-entry.js'));

/** Asserts that `done` (a Compressed) has one proof per deflated entry, each of its own stream and content. */
function assertProofs(done, files, label) {
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  const deflated = [...done.entries].filter(([, e]) => e.method === format.METHOD_DEFLATE);
  assert.equal(done.proofs.length, deflated.length, `${label}: one proof per deflated entry`);
  for (const [path, entry] of deflated) {
    const proof = done.proofs.find((p) => p.stream === entry.data);
    assert.ok(proof !== undefined, `${label}: ${path} has a proof of its own stream`);
    assert.ok(Buffer.from(proof.content).equals(byPath.get(path)), `${label}: ${path}'s proof is of its content`);
    assert.equal(proof.crc32, crc32Fast(byPath.get(path)), `${label}: ${path}'s proof carries its CRC-32`);
  }
}

/** `files` with each content in shared memory, as package's loader reads them. */
function inSharedMemory(files) {
  return files.map((f) => {
    const content = sharedBytes(f.content.length);
    content.set(f.content);
    return { path: f.path, content };
  });
}

test('parallel: the main thread and a worker give writeZip\'s exact bytes, and prove every deflated stream', () => {
  setCompressionWorkerScript(WORKER_ENTRY);
  const files = parallelFiles();
  const reference = writeZip(files);
  // 1. Contents in shared memory (the loader's), and contents the call copies there.
  for (const [label, given] of [['shared', inSharedMemory(files)], ['copied', files]]) {
    const done = compressEntries(given, { parallel: true });
    assert.deepEqual(assembleZip(given, done.entries), reference, label);
    assertProofs(done, given, label);
  }
  // 2. The caller's work runs meanwhile: the worker has every entry to itself until it returns.
  let waited = false;
  const done = compressEntries(files, {
    parallel: true,
    alongside: () => {
      const slot = new Int32Array(new SharedArrayBuffer(4));
      Atomics.wait(slot, 0, 0, 300);
      waited = true;
      return true;
    },
  });
  assert.ok(waited);
  assert.deepEqual(assembleZip(files, done.entries), reference);
  assertProofs(done, files, 'alongside');
  // 3. Not wanted after all (the check found errors): null, and a later call is unaffected.
  assert.equal(compressEntries(files, { parallel: true, alongside: () => false }), null);
  assert.throws(() => compressEntries(files, { parallel: true, alongside: () => { throw new Error('check failed'); } }), /check failed/);
  // 4. One thread (a bundle too small to share): the same entries and proofs.
  const here = compressEntries(files, { parallel: false });
  assert.deepEqual(assembleZip(files, here.entries), reference);
  assertProofs(here, files, 'one thread');
  // 5. The default: a bundle under PARALLEL_MIN_BYTES stays on this thread, with the same result.
  assert.deepEqual(assembleZip(files, compressEntries(files).entries), reference);
});

test('parallel: a worker that fails, or never starts, still gives writeZip\'s bytes', (t) => {
  const files = parallelFiles();
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-parallel-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  t.after(() => setCompressionWorkerScript(WORKER_ENTRY));
  const reference = writeZip(files);
  // A worker that fails at its first result: it gives up, and says so.
  const failing = join(dir, 'failing-worker.mjs');
  writeFileSync(
    failing,
    [
      "import { workerData } from 'node:worker_threads';",
      `import { runCompressionWorker } from ${JSON.stringify(pathToFileURL(join(ROOT, 'build/zip/parallel-compression.js')).href)};`,
      '// Nothing can be posted: the first result throws.',
      "workerData.port.postMessage = () => { throw new Error('cannot post'); };",
      'runCompressionWorker();',
      '',
    ].join('\n'),
  );
  setCompressionWorkerScript(pathToFileURL(failing));
  assert.deepEqual(assembleZip(files, compressEntries(files, { parallel: true }).entries), reference);
  // A worker script that does not exist: the worker never claims anything.
  setCompressionWorkerScript(pathToFileURL(join(dir, 'missing.mjs')));
  assert.deepEqual(assembleZip(files, compressEntries(files, { parallel: true }).entries), reference);
});

test('parallel: with no script set, the worker runs the entry beside the module (build/zip/compression-worker-entry.js)', (t) => {
  const files = parallelFiles();
  setCompressionWorkerScript(null);
  t.after(() => setCompressionWorkerScript(WORKER_ENTRY));
  assert.deepEqual(assembleZip(files, compressEntries(files, { parallel: true }).entries), writeZip(files));
});

test('proof: proveStream holds exactly for a stream node:zlib inflates to the content, every byte consumed', () => {
  const content = seededScript(7, 400);
  const other = Uint8Array.from(content, (b) => (b === 0x20 ? 0x09 : b));
  const stream = deflateRaw(content);
  const flipped = stream.slice();
  flipped[flipped.length >> 1] ^= 0x10;
  const rows = [
    ['our stream', stream, content, true],
    ["node:zlib's own stream of the same content", zlib.deflateRawSync(content, { level: 9 }), content, true],
    ['the empty stream, empty content', deflateRaw(new Uint8Array(0)), new Uint8Array(0), true],
    ['one bit flipped in the middle', flipped, content, false],
    ['one trailing byte after the stream', Uint8Array.from([...stream, 0]), content, false],
    ['the last byte missing', stream.subarray(0, stream.length - 1), content, false],
    ['another content of the same length', stream, other, false],
    ['content one byte longer than the stream gives', stream, Uint8Array.from([...content, 0x41]), false],
    ['content one byte shorter', stream, content.subarray(0, content.length - 1), false],
  ];
  for (const [label, s, c, expected] of rows) assert.equal(proveStream(s, c), expected, label);
});

test('proof: inflateEquals compares node:zlib\'s output chunk by chunk, with the same answers as inflating whole', () => {
  const content = seededScript(11, 40000);
  assert.ok(content.length > 3 * 65536, 'spans several compare chunks');
  const zeros = new Uint8Array(3 * 65536);
  const stream = deflateRaw(content);
  const flipped = stream.slice();
  flipped[flipped.length >> 1] ^= 0x10;
  const late = content.slice();
  late[content.length - 1] ^= 1;
  const rows = [
    ['a stream over several chunks', stream, content, true],
    ['output an exact multiple of the chunk', zlib.deflateRawSync(zeros), zeros, true],
    ['the empty stream, empty content', deflateRaw(new Uint8Array(0)), new Uint8Array(0), true],
    ['one bit flipped in the middle of the stream', flipped, content, false],
    ['the last content byte differs', stream, late, false],
    ['one trailing byte after the stream', Uint8Array.from([...stream, 0]), content, false],
    ['the last byte missing', stream.subarray(0, stream.length - 1), content, false],
    ['content one byte longer', stream, Uint8Array.from([...content, 0x41]), false],
    ['content one byte shorter', stream, content.subarray(0, content.length - 1), false],
    ['not a DEFLATE stream', Uint8Array.of(0xff, 0xff, 0xff, 0xff), content, false],
  ];
  for (const [label, s, c, expected] of rows) {
    assert.equal(inflateEquals(s, c), expected, label);
    assert.equal(proveStream(s, c), expected, `proveStream: ${label}`);
  }
});

test('proof: the read-back through provenInflater reports exactly what inflating everything reports', () => {
  const files = parallelFiles();
  const done = compressEntries(files, { parallel: false });
  const archive = assembleZip(files, done.entries);
  const findingsOf = (bytes, inflate) => {
    const list = new FindingList();
    const result = readZip(bytes, inflate, list, 'bundle.zip', { keepContent: false });
    return { ids: list.items.map((f) => f.rule), entries: result.entries?.map((e) => [e.path, e.size]) ?? null };
  };
  // A valid archive: no findings either way, same entries.
  const clean = findingsOf(archive, provenInflater(done.proofs));
  assert.deepEqual(clean, findingsOf(archive, inflateRawCapped));
  assert.deepEqual(clean.ids, []);
  // A proven stream, expected at its content's size, is answered without inflating: the
  // content itself comes back, with its CRC-32.
  const inflate = provenInflater(done.proofs);
  for (const proof of done.proofs) {
    const answer = inflate(proof.stream.slice(), proof.content.length);
    assert.equal(answer.data, proof.content);
    assert.equal(answer.crc32, proof.crc32);
    // Expected at another size, the stream is inflated, as the store would.
    for (const size of [proof.content.length - 1, proof.content.length + 1]) {
      const inflated = inflate(proof.stream, size);
      const full = inflateRawCapped(proof.stream, size);
      assert.deepEqual({ ok: inflated.ok, reason: inflated.reason }, { ok: full.ok, reason: full.reason }, `size ${size}`);
    }
  }
  // Damaged archives: every byte of one deflated entry's data, and of a stored one, flipped
  // in turn at a few places; the findings are the full read's, rule for rule.
  const deflatedData = done.proofs.map((p) => Buffer.from(archive).indexOf(Buffer.from(p.stream)));
  const stored = files.find((f) => f.path === 'img/i3.png');
  const storedAt = Buffer.from(archive).indexOf(Buffer.from(stored.content));
  let damaged = 0;
  for (const start of [...deflatedData.slice(0, 4), storedAt]) {
    assert.ok(start > 0);
    for (const offset of [0, 1, 7, 100]) {
      const bytes = archive.slice();
      bytes[start + offset] ^= 0x04;
      const ours = findingsOf(bytes, provenInflater(done.proofs));
      assert.deepEqual(ours, findingsOf(bytes, inflateRawCapped), `flip at ${start + offset}`);
      if (ours.ids.length > 0) damaged++;
    }
  }
  assert.ok(damaged >= 16, `the flips were noticed (${damaged})`);
});

/** A seeded ECMAScript module that the check accepts: functions, strings, comments. */
function validModule(seed, lines) {
  const rng = prng(seed);
  const words = ['settings', 'value', 'render', 'PLATFORM', 'length', 'map', 'item', 'title', 'color'];
  const out = [];
  for (let line = 0; line < lines; line++) {
    const w = () => words[Math.floor(rng() * words.length)];
    const n = Math.floor(rng() * 1000);
    out.push(rng() < 0.5 ? `export function ${w()}${line}(a, b) { return a * ${n} + b.${w()}; } // ${w()} ${w()}\n` : `export const ${w()}_${line} = "${w()} ${w()} ${n}";\n`);
  }
  return text(out.join(''));
}

test('package of a project over 2 MiB (compressed on a worker while the check runs) writes writeZip\'s archive', (t) => {
  const files = {};
  const contents = [];
  for (let k = 0; k < 16; k++) contents.push([`js/m${k}.js`, validModule(300 + k, 2500)]);
  for (let k = 0; k < 8; k++) contents.push([`img/p${k}.png`, seededBytes(400 + k, 60_000)]);
  const scripts = contents.filter(([p]) => p.endsWith('.js')).map(([p]) => `<script type="module" src="${p}"></script>`).join('');
  contents.push(['index.html', text(`<!doctype html><html><head><meta charset="utf-8"><title>t</title>${scripts}</head><body></body></html>\n`)]);
  for (const [path, content] of contents) files[`runtime/${path}`] = content;
  const total = contents.reduce((n, [, c]) => n + c.length, 0);
  // src/commands/package.ts PARALLEL_MIN_BYTES: from 2 MiB of content a worker compresses too.
  assert.ok(total > 2 << 20, `the project holds ${total} bytes: past the one-thread limit`);
  const dir = makeProject(t, { files, defaults: false, manifest: {} });
  const key = join(dir, '..', `${dir.split('/').pop()}-key.pem`);
  writeFileSync(key, '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g\n-----END PRIVATE KEY-----\n', { mode: 0o600 });
  t.after(() => rmSync(key, { force: true }));
  const out = join(dir, 'out');
  const env = { ...process.env, NO_COLOR: '1' };
  const r = runCli(['package', dir, '--out', out, '--private-key', key], { env });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const expected = writeZip(contents.map(([path, content]) => ({ path, content })));
  assert.ok(Buffer.from(readFileSync(join(out, 'bundle.zip'))).equals(Buffer.from(expected)));
  // Again, traced (PLATFORM_EXT_TRACE=1): the same archive; both threads report their phases.
  const traced = runCli(['package', dir, '--out', out, '--private-key', key], { env: { ...env, PLATFORM_EXT_TRACE: '1' } });
  assert.equal(traced.status, 0, traced.stdout + traced.stderr);
  assert.ok(Buffer.from(readFileSync(join(out, 'bundle.zip'))).equals(Buffer.from(expected)));
  const phases = traced.stderr.split('\n').filter((l) => l.startsWith('trace ')).map((l) => l.split(/\s+/)[1] + ' ' + l.slice(l.indexOf(' ms  ', l.indexOf('cpu')) + 5).trim().split(/\s{2,}/)[0]);
  for (const phase of ['main checked', 'main compressed', 'main read back', 'main written', 'worker started']) assert.ok(phases.includes(phase), `${phase} in ${phases.join(', ')}`);
  assert.ok(phases.some((p) => p.startsWith('worker compressed #')), 'the worker compressed entries');
});

test('names are in byte order: "0.js" < "A.png" < "Z.js" < "a-b.js" < "a.js" < "a.png" < "a/b.js" < "a_b.js" < "b/c.js"', () => {
  const expected = ['0.js', 'A.png', 'Z.js', 'a-b.js', 'a.js', 'a.png', 'a/b.js', 'a_b.js', 'b/c.js'];
  const files = shuffled(expected, 3).map((path) => ({ path, content: text(path) }));
  const archive = parseArchive(writeZip(files));
  assert.deepEqual(archive.central.map((e) => e.name), expected);
  assert.deepEqual(archive.local.map((e) => e.name), expected);
  // Local headers follow one another in the same order, from offset 0.
  const offsets = archive.central.map((e) => e.localHeaderOffset);
  assert.equal(offsets[0], 0);
  assert.deepEqual([...offsets].sort((a, b) => a - b), offsets);
});

test('every header field of a small archive (APPNOTE 4.3.7, 4.3.12, 4.3.16; D-15)', () => {
  const files = goldenFiles();
  const bytes = writeZip(files);
  const { end, central, local, centralEnd } = parseArchive(bytes);
  const byName = new Map(files.map((f) => [f.path, f.content]));
  const names = [...byName.keys()].sort();

  // End of central directory: last 22 bytes, one disk, no comment.
  assert.equal(end.signature, 0x06054b50);
  assert.equal(end.at, bytes.length - 22);
  assert.equal(end.diskNumber, 0);
  assert.equal(end.centralDirectoryDisk, 0);
  assert.equal(end.entriesOnDisk, files.length);
  assert.equal(end.entries, files.length);
  assert.equal(end.commentLength, 0);
  assert.equal(end.centralDirectoryOffset + end.centralDirectorySize, end.at, 'central directory ends where the EOCD starts');
  assert.equal(centralEnd, end.at, 'central entries fill the central directory exactly');

  let expectedOffset = 0;
  for (let k = 0; k < central.length; k++) {
    const c = central[k];
    const l = local[k];
    const content = byName.get(c.name);
    assert.equal(c.name, names[k]);
    // Central directory header.
    assert.equal(c.signature, 0x02014b50);
    assert.equal(c.versionMadeBy, 0x0314, 'made by: UNIX (3), spec 2.0 (20)');
    assert.equal(c.versionNeeded, c.method === 8 ? 20 : 10);
    assert.ok(c.method === 0 || c.method === 8);
    assert.equal(c.flags, 0, 'no encryption, no data descriptor, no UTF-8 flag (ASCII names)');
    assert.equal(c.time, 0x0000, '00:00:00');
    assert.equal(c.date, 0x0021, '1980-01-01');
    assert.equal(c.uncompressedSize, content.length);
    assert.equal(c.crc32, crc32(content));
    if (hasZlibCrc32) assert.equal(c.crc32, zlib.crc32(content), 'CRC agrees with zlib.crc32');
    assert.equal(c.nameLength, c.name.length);
    assert.equal(c.extraLength, 0);
    assert.equal(c.commentLength, 0);
    assert.equal(c.diskNumberStart, 0);
    assert.equal(c.internalAttributes, 0);
    assert.equal(c.externalAttributes, 0x81a40000, 'Unix mode 0100644 (regular file, rw-r--r--) << 16');
    assert.equal(c.localHeaderOffset, expectedOffset, 'entries are contiguous from offset 0');
    // Local header: the same values (sizes and CRC here, not in a data descriptor).
    assert.equal(l.signature, 0x04034b50);
    assert.equal(l.versionNeeded, c.versionNeeded);
    assert.equal(l.flags, 0);
    assert.equal(l.method, c.method);
    assert.equal(l.time, 0x0000);
    assert.equal(l.date, 0x0021);
    assert.equal(l.crc32, c.crc32);
    assert.equal(l.compressedSize, c.compressedSize);
    assert.equal(l.uncompressedSize, c.uncompressedSize);
    assert.equal(l.name, c.name);
    assert.equal(l.extraLength, 0);
    // The data is the content, stored or deflated.
    assert.deepEqual(contentOf(l), content, c.name);
    expectedOffset = l.dataAt + l.compressedSize;
  }
  assert.equal(expectedOffset, end.centralDirectoryOffset, 'the central directory follows the last entry directly');
});

test('format constants match APPNOTE', () => {
  assert.equal(format.LOCAL_HEADER_SIGNATURE, 0x04034b50);
  assert.equal(format.CENTRAL_HEADER_SIGNATURE, 0x02014b50);
  assert.equal(format.END_OF_CENTRAL_DIRECTORY_SIGNATURE, 0x06054b50);
  assert.equal(format.LOCAL_HEADER_LENGTH, APPNOTE.local.name);
  assert.equal(format.CENTRAL_HEADER_LENGTH, APPNOTE.central.name);
  assert.equal(format.END_OF_CENTRAL_DIRECTORY_LENGTH, APPNOTE.end.length);
  // Every field offset of the shared table, record by record.
  const upper = (name) => name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
  const renamed = { diskNumberStart: 'DISK_START', entries: 'ENTRIES_TOTAL', diskNumber: 'DISK' };
  for (const [record, prefix] of [['local', 'LOCAL'], ['central', 'CENTRAL'], ['end', 'END']]) {
    for (const [field, offset] of Object.entries(APPNOTE[record])) {
      if (field === 'name' || field === 'length') continue;
      const name = `${prefix}_${renamed[field] ?? upper(field)}`;
      assert.equal(format[name], offset, name);
    }
  }
  assert.equal(format.D15_DOS_TIME, 0);
  assert.equal(format.D15_DOS_DATE, ((1980 - 1980) << 9) | (1 << 5) | 1);
  assert.equal(format.D15_EXTERNAL_ATTRIBUTES, 0o100644 * 65536);
  assert.equal(format.D15_VERSION_MADE_BY, 0x0314);
  assert.equal(format.D15_FLAGS, 0);
});

test('empty archive: only the end-of-central-directory record', () => {
  const bytes = writeZip([]);
  assert.deepEqual([...bytes], [0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
});

test('empty file: stored, sizes 0, CRC 0', () => {
  const { central, local } = parseArchive(writeZip([{ path: 'a.js', content: new Uint8Array(0) }]));
  assert.equal(central[0].method, 0);
  assert.equal(central[0].versionNeeded, 10);
  assert.equal(central[0].compressedSize, 0);
  assert.equal(central[0].uncompressedSize, 0);
  assert.equal(central[0].crc32, 0);
  assert.equal(local[0].data.length, 0);
});

test('method rule: deflate when smaller; over ratio 100 a stored tail keeps it at or under 100 (D-16, D-41)', () => {
  assert.equal(BUNDLE_MAX_COMPRESSION_RATIO, 100);
  // Preconditions from the encoder: 1,000 and 1,001 zero bytes both deflate to 10 bytes,
  // that is ratios of exactly 100 and of 100.1.
  assert.equal(deflateRaw(new Uint8Array(1000)).length, 10);
  assert.equal(deflateRaw(new Uint8Array(1001)).length, 10);
  const jsText = text('export function f(a) { return a.map((x) => x * 2).filter(Boolean); }\n'.repeat(50) + 'let y = 1;\n');
  const rows = [
    // [what it proves, content, expected method]
    ['1,000 zeros: ratio exactly 100 is allowed -> deflated', new Uint8Array(1000), 8],
    ['1,001 zeros: ratio 100.1 -> deflated with a stored tail', new Uint8Array(1001), 8],
    ['10,000 zeros: deflate ratio far above 100 -> deflated with a stored tail', new Uint8Array(10_000), 8],
    ['5 MiB of zeros: a stored tail of 1% (the reader would refuse the plain stream)', new Uint8Array(5 * 1024 * 1024), 8],
    ['3,000,000 repeated bytes', new Uint8Array(3_000_000).fill(0x61), 8],
    ['text with ratio < 100 -> deflated', jsText, 8],
    ['random bytes (PNG-like payload): deflate is not smaller -> stored', seededBytes(9, 50_000), 0],
    ['one byte: deflate is not smaller (3 bytes) -> stored', text('x'), 0],
  ];
  for (const [label, content, method] of rows) {
    const { central, local } = parseArchive(writeZip([{ path: 'f.js', content }]));
    assert.equal(central[0].method, method, label);
    assert.equal(central[0].versionNeeded, method === 8 ? 20 : 10, label);
    const { compressedSize, uncompressedSize } = central[0];
    if (method === 8) {
      assert.ok(compressedSize < uncompressedSize, `${label}: smaller`);
      assert.ok(uncompressedSize <= BUNDLE_MAX_COMPRESSION_RATIO * compressedSize, `${label}: ratio`);
      const plain = deflateRaw(content);
      if (uncompressedSize <= BUNDLE_MAX_COMPRESSION_RATIO * plain.length) {
        // Within the ratio the stream is deflateRaw's own: archives of ordinary files do not change.
        assert.deepEqual(local[0].data, plain, `${label}: the plain stream`);
      } else {
        // Over it: the last ceil(size / 100) bytes close the stream as stored blocks, byte for byte.
        const tail = Math.ceil(uncompressedSize / BUNDLE_MAX_COMPRESSION_RATIO);
        assert.ok(compressedSize <= plain.length + tail + 5 * Math.ceil(tail / 65_535) + 8, `${label}: no larger than needed`);
        assert.deepEqual(local[0].data.subarray(compressedSize - tail), content.subarray(uncompressedSize - tail), `${label}: the tail is stored`);
      }
    } else {
      assert.equal(compressedSize, uncompressedSize, `${label}: stored size`);
    }
    assert.deepEqual(contentOf(local[0]), content, label);
  }
});

test('refusals: paths outside the D-2 grammar, non-ASCII names, duplicates (programming errors)', () => {
  const bad = ['', '/a.js', 'a\\b.js', 'a/../b.js', './a.js', 'a/./b.js', '.hidden.png', 'a/._b.png'];
  bad.push('é.png', 'a b.js', 'a//b.js', 'a/', 'a?.js', 'a#b.js', 'a\u0000.js');
  for (const path of bad) {
    assert.throws(() => writeZip([{ path, content: new Uint8Array(1) }]), Error, JSON.stringify(path));
  }
  assert.doesNotThrow(() => writeZip([{ path: 'A-z_0.9/b.js', content: new Uint8Array(1) }]));
  assert.throws(() => writeZip([{ path: 'a.js', content: text('1') }, { path: 'a.js', content: text('2') }]), /twice/);
});

test('refusals: no ZIP64 (0xFFFF entries or a 0xFFFFFFFF-byte file would need it); 65,534 entries are fine', () => {
  assert.equal(format.MAX_ENTRIES, 0xfffe);
  assert.equal(format.MAX_32, 0xfffffffe);
  const many = (count) => Array.from({ length: count }, (_, k) => ({ path: `f${k}.js`, content: new Uint8Array(0) }));
  assert.throws(() => writeZip(many(0xffff)), /ZIP64/);
  const { end } = parseArchive(writeZip(many(0xfffe)));
  assert.equal(end.entries, 0xfffe);
  // A stand-in object: allocating 4 GiB is not needed to check the guard, which runs first.
  assert.throws(() => writeZip([{ path: 'big.png', content: { length: 0xffffffff } }]), /ZIP64/);
});

// ---------------------------------------------------------------------------------------
// Interoperability: independent readers must extract identical bytes.
// ---------------------------------------------------------------------------------------

function mixedFiles() {
  const files = [
    ...goldenFiles(),
    { path: 'ratio/exactly-100.css', content: new Uint8Array(1000) },
    { path: 'ratio/above-100.css', content: new Uint8Array(1001) },
    { path: 'img/random.png', content: seededBytes(4, 200_000) },
    { path: 'Upper/Case.JS', content: text('export const upper = 1;\n') },
  ];
  const validator = join(ROOT, 'dist/validator.mjs');
  if (existsSync(validator)) files.push({ path: 'vendor/validator.mjs', content: new Uint8Array(readFileSync(validator)) });
  return files;
}

const hasUnzip = spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;
const hasPython = spawnSync('python3', ['-c', 'import zipfile'], { stdio: 'ignore' }).status === 0;

/** Writes the archive to a temp file, runs `check(path)`, and cleans up. */
function withArchiveFile(bytes, check) {
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-zip-'));
  try {
    const path = join(dir, 'bundle.zip');
    writeFileSync(path, bytes);
    check(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function unzipChecks(files) {
  withArchiveFile(writeZip(files), (path) => {
    const t = spawnSync('unzip', ['-t', path], { encoding: 'utf8' });
    assert.equal(t.status, 0, t.stdout + t.stderr);
    assert.match(t.stdout, /No errors detected in compressed data/);
    for (const file of files) {
      const p = spawnSync('unzip', ['-p', path, file.path], { maxBuffer: 64 * 1024 * 1024 });
      assert.equal(p.status, 0, `${file.path}: ${p.stderr}`);
      assert.equal(sha256(p.stdout), sha256(file.content), file.path);
    }
  });
}

const PYTHON_READER = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    rows = [[i.filename, i.compress_type, i.file_size, i.compress_size, list(i.date_time), i.create_system,
             i.external_attr, i.flag_bits, len(i.extra), len(i.comment), hashlib.sha256(z.read(i)).hexdigest()]
            for i in z.infolist()]
    print(json.dumps({"bad": bad, "comment": len(z.comment), "rows": rows}))
`;

function pythonChecks(files) {
  withArchiveFile(writeZip(files), (path) => {
    const r = spawnSync('python3', ['-c', PYTHON_READER, path], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.bad, null, 'testzip() found no bad entry');
    assert.equal(report.comment, 0);
    const expected = [...files].sort((a, b) => (a.path < b.path ? -1 : 1));
    assert.deepEqual(
      report.rows.map((row) => row[0]),
      expected.map((f) => f.path),
    );
    for (const [k, row] of report.rows.entries()) {
      const [name, method, size, , dateTime, system, attributes, flags, extra, comment, digest] = row;
      assert.ok(method === 0 || method === 8, name);
      assert.equal(size, expected[k].content.length, name);
      assert.deepEqual(dateTime, [1980, 1, 1, 0, 0, 0], name);
      assert.equal(system, 3, `${name}: made by UNIX`);
      assert.equal(attributes, 0x81a40000, name);
      assert.equal(flags, 0, name);
      assert.equal(extra, 0, name);
      assert.equal(comment, 0, name);
      assert.equal(digest, sha256(expected[k].content), `${name}: extracted bytes`);
    }
  });
}

/** Test name and skip option for an interop row: the name says when the tool is absent. */
function interop(label, available, tool) {
  return [available ? label : `${label} (SKIPPED: ${tool} not installed)`, { skip: !available && `${tool} is not installed` }];
}

test(...interop('interop: Info-ZIP unzip -t and unzip -p, mixed archive', hasUnzip, 'unzip'), () => {
  unzipChecks(mixedFiles());
});

test(...interop("interop: Info-ZIP unzip, the example extension's runtime files", hasUnzip, 'unzip'), () => {
  const files = readTree(EXAMPLE_RUNTIME);
  assert.ok(files.length >= 4);
  unzipChecks(files);
});

test(...interop('interop: Python zipfile testzip() and extracted bytes, mixed archive', hasPython, 'python3'), () => {
  pythonChecks(mixedFiles());
});

test(...interop("interop: Python zipfile, the example extension's runtime files", hasPython, 'python3'), () => {
  pythonChecks(readTree(EXAMPLE_RUNTIME));
});
