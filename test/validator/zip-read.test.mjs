// The hardened ZIP reader (D-16): valid archives from three writers are accepted and read
// back byte for byte; every archive of the hostile corpora in test/corpus is refused with specific
// rule ids (a table covering every file); crafted archives sit on both sides of each
// boundary. Archives accepted here are also extracted by Python's zipfile, which must see
// the same bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import zlib from 'node:zlib';
import { prng } from '../support/fuzz.mjs';
import { craftZip, inflateRawCapped, madeBy, spyInflater } from '../support/fuzz-zip.mjs';
import { readZip } from '../../build/validator/zip/read.js';
import { crc32 as zipCrc32Of } from '../../build/validator/zip/crc32.js';
import { inflateRawCapped as nodeInflateRawCapped } from '../../build/node/release-deps.js';
import { FindingList } from '../../build/validator/findings.js';
import { checkBundleListing } from '../../build/validator/bundle.js';
import { ARCHIVE_RULES } from '../../build/validator/catalogue/archive-rules.js';
import {
  BUNDLE_MAX_COMPRESSED_BYTES,
  BUNDLE_MAX_COMPRESSION_RATIO,
  BUNDLE_MAX_EXPANDED_BYTES,
  BUNDLE_MAX_FILE_BYTES,
  BUNDLE_MAX_FILES,
} from '../../build/validator/limits.js';

const CORPUS = fileURLToPath(new URL('../corpus/', import.meta.url));
const UNIX_FILE = 0o100644 * 0x10000;
/** Every rule id some row below produced: the last test checks each catalogue rule is reachable. */
const SEEN = new Set();
/** Accepted archives (path on disk or bytes) with what we read: cross-checked with Python at the end. */
const ACCEPTED = [];

function read(bytes, options = {}) {
  const findings = new FindingList();
  const inflate = options.inflate ?? inflateRawCapped;
  const result = options.file === undefined ? readZip(bytes, inflate, findings) : readZip(bytes, inflate, findings, options.file);
  for (const f of findings.items) SEEN.add(f.rule);
  return { entries: result.entries, findings: findings.items, rules: findings.items.map((f) => f.rule).sort() };
}

/** The reader plus the listing rules a caller runs over its entries (paths, extensions, count, sizes). */
function review(bytes, entrypoint = 'index.html') {
  const result = read(bytes);
  if (result.entries !== null) {
    const listing = new FindingList();
    checkBundleListing(result.entries, entrypoint, listing);
    result.rules = result.rules.concat(listing.items.map((f) => f.rule)).sort();
  }
  return result;
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** What our reader extracted, as name -> SHA-256, for comparison with Python. */
function digestOf(entries) {
  return Object.fromEntries(entries.map((e) => [e.path, e.content === undefined ? null : sha256(e.content)]));
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const HTML = { name: 'index.html', data: '<!doctype html><title>t</title><p>Hello</p>\n'.repeat(4), external: UNIX_FILE };
const CSS = { name: 'css/site.css', data: 'body{margin:0}\n', method: 0, external: UNIX_FILE };

/**
 * A deflate stream of exactly `ratio` times fewer bytes than its content: pseudo-random
 * head, zero tail, searched over head lengths (and over the compressed length, as not
 * every length is reachable for a given content size).
 */
function deflateAtRatio(ratio, from = 1000) {
  for (let c = from; c < from + 200; c++) {
    const size = ratio * c;
    const rng = prng(c);
    const noise = Uint8Array.from({ length: size }, () => Math.floor(rng() * 256));
    const data = new Uint8Array(size);
    const lengthWith = (k) => {
      data.fill(0);
      data.set(noise.subarray(0, k));
      return zlib.deflateRawSync(data, { level: 9 });
    };
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lengthWith(mid).length < c) lo = mid + 1;
      else hi = mid;
    }
    for (let k = Math.max(0, lo - 8); k <= lo + 8; k++) {
      const compressed = lengthWith(k);
      if (compressed.length === c) return { data: Uint8Array.from(data), compressed: new Uint8Array(compressed) };
    }
  }
  throw new Error(`no deflate stream at ratio ${ratio}`);
}

/** `size` bytes that deflate about 10:1 (one pseudo-random byte in every 32), far from the ratio limit. */
function moderatelyCompressible(size) {
  const rng = prng(size);
  const data = new Uint8Array(size);
  for (let i = 0; i < size; i += 32) data[i] = Math.floor(rng() * 256);
  return data;
}

// ---------------------------------------------------------------------------------------
// Valid archives from three writers
// ---------------------------------------------------------------------------------------

test('valid: an archive from the test writer is read back exactly, in central-directory order', () => {
  const js = { name: 'js/app.js', data: 'export const answer = 42;\n', external: 0 };
  const png = { name: 'img/a.png', data: Uint8Array.from({ length: 200 }, (_, i) => (i * 37) & 0xff), method: 0, madeBy: madeBy(0), external: 0x20 };
  // Central order differs from local order: entries come back in central order.
  const bytes = craftZip([HTML, CSS, js, png], { centralOrder: [2, 0, 3, 1] });
  const result = review(bytes);
  assert.deepEqual(result.rules, []);
  assert.deepEqual(result.entries.map((e) => e.path), ['js/app.js', 'index.html', 'img/a.png', 'css/site.css']);
  for (const [entry, source] of [[result.entries[0], js], [result.entries[1], HTML], [result.entries[3], CSS]]) {
    assert.equal(Buffer.from(entry.content).toString(), source.data);
    assert.equal(entry.kind, 'file');
    assert.equal(entry.size, Buffer.byteLength(source.data));
  }
  assert.deepEqual(Array.from(result.entries[2].content), Array.from(png.data));
  ACCEPTED.push({ label: 'crafted four entries', bytes, entries: result.entries });
});

test('valid: the empty archive (22 bytes) has no entries and no findings', () => {
  const result = read(craftZip([]));
  assert.deepEqual(result.rules, []);
  assert.deepEqual(result.entries, []);
});

test('valid: findings name the archive given (default bundle.zip) and the entry in the message', () => {
  // An Info-ZIP Unicode path field (0x7075): refused by D-16a.
  const bytes = craftZip([{ ...HTML, extra: [0x75, 0x70, 1, 0, 0] }]);
  assert.deepEqual(read(bytes).findings.map((f) => f.file), ['bundle.zip']);
  assert.deepEqual(read(bytes, { file: 'out/bundle.zip' }).findings.map((f) => f.file), ['out/bundle.zip']);
  assert.ok(read(bytes).findings[0].message.includes('"index.html"'));
});

function runPython(script, args) {
  const run = spawnSync('python3', ['-c', script, ...args], { encoding: 'utf8' });
  if (run.error !== undefined || run.status !== 0) throw new Error(`python3 failed: ${run.error?.message ?? run.stderr}`);
  return run.stdout;
}

const PYTHON_WRITER = String.raw`
import os, sys, zipfile
out, src = sys.argv[1], sys.argv[2]
def info(name, attributes, system, method):
    z = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    z.external_attr = attributes
    z.create_system = system
    z.compress_type = method
    return z
with zipfile.ZipFile(os.path.join(out, 'python-zipinfo.zip'), 'w') as z:
    z.writestr(info('index.html', 0o100644 << 16, 3, zipfile.ZIP_DEFLATED), '<!doctype html><p>python</p>\n' * 30)
    z.writestr(info('img/a.png', 0o100644 << 16, 3, zipfile.ZIP_STORED), bytes(range(256)) * 3)
    z.writestr(info('js/app.js', 0x20, 0, zipfile.ZIP_DEFLATED), 'export {};\n')
    z.writestr(info('js/empty.js', 0x20, 0, zipfile.ZIP_STORED), b'')
with zipfile.ZipFile(os.path.join(out, 'python-write.zip'), 'w', zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(src)):
        z.write(os.path.join(src, name), name)
with zipfile.ZipFile(os.path.join(out, 'python-writestr-default.zip'), 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('index.html', '<p>default attributes</p>')
`;

test('valid: Python zipfile archives are accepted when their attributes name a regular file (D-16)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zip-read-'));
  try {
    const src = join(dir, 'src');
    mkdirSync(src);
    writeFileSync(join(src, 'index.html'), '<!doctype html><p>written from a file</p>\n');
    writeFileSync(join(src, 'app.js'), 'export const a = 1;\n'.repeat(50));
    runPython(PYTHON_WRITER, [dir, src]);
    for (const name of ['python-zipinfo.zip', 'python-write.zip']) {
      const bytes = readFileSync(join(dir, name));
      const result = read(bytes);
      assert.deepEqual(result.rules, [], name);
      assert.ok(result.entries.every((e) => e.content !== undefined), name);
      ACCEPTED.push({ label: name, bytes, entries: result.entries });
    }
    // writestr(name, ...) records mode 0600 with no file type: permission bits alone,
    // which D-16a accepts (a type of zero claims nothing an extractor could act on).
    assert.deepEqual(read(readFileSync(join(dir, 'python-writestr-default.zip'))).rules, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const HAS_INFO_ZIP = spawnSync('zip', ['-v'], { encoding: 'utf8' }).status === 0;

test('valid: Info-ZIP `zip -r -D` output is accepted, with -X, -9 or neither (its UT and ux fields pass D-16a)', { skip: !HAS_INFO_ZIP && 'Info-ZIP zip is not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'zip-read-'));
  try {
    const src = join(dir, 'runtime');
    mkdirSync(join(src, 'css'), { recursive: true });
    writeFileSync(join(src, 'index.html'), '<!doctype html><link rel="stylesheet" href="css/a.css">\n'.repeat(10));
    writeFileSync(join(src, 'css', 'a.css'), 'a{}');
    const zip = (name, ...flags) => {
      const run = spawnSync('zip', ['-q', '-r', ...flags, join(dir, name), '.'], { cwd: src, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      return readFileSync(join(dir, name));
    };
    for (const [name, flags] of [['x.zip', ['-X', '-D']], ['x9.zip', ['-X', '-D', '-9']]]) {
      const bytes = zip(name, ...flags);
      const result = review(bytes);
      assert.deepEqual(result.rules, [], name);
      ACCEPTED.push({ label: `Info-ZIP ${flags.join(' ')}`, bytes, entries: result.entries });
    }
    const plain = review(zip('plain.zip', '-D'));
    assert.deepEqual(plain.rules, []);
    ACCEPTED.push({ label: 'Info-ZIP -r -D', bytes: readFileSync(join(dir, 'plain.zip')), entries: plain.entries });
    // Without -D, zip -r writes folder entries ("css/"), which D-16 still refuses.
    assert.deepEqual([...new Set(read(zip('folders.zip')).rules)], ['archive/directory-entry']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------
// The ZIP corpora in test/corpus: every file, each with the rule ids that refuse it and why
// ---------------------------------------------------------------------------------------

const EXTRA = 'archive/extra-field';
const DESCRIPTOR = ['archive/data-descriptor', 'archive/gap-or-overlap']; // descriptor bytes after the data are a gap
/**
 * file -> [rule ids (sorted, unique), why]. `[]` means the reader accepts the archive
 * (the listing rules may still refuse its names). Most real-world tools write extra
 * fields (Info-ZIP UT/ux timestamps and owners, 7-Zip NTFS times): D-16a accepts those
 * three when well formed, so archive/extra-field stays only where another field is used.
 */
const CORPUS_TABLE = {
  // yauzl test/failure: file names are yauzl's own error messages.
  'yauzl-fixtures/test/failure/End of central directory record signature not found Either not a zip file or file is truncated.zip': [['archive/not-zip'], 'no end record'],
  'yauzl-fixtures/test/failure/End of central directory record signature not found Either not a zip file or file is truncated_1.zip': [['archive/not-zip'], 'empty file'],
  'yauzl-fixtures/test/failure/Invalid comment length Expected 1 Found 0 Are there extra bytes at the end of the file Or is the end of central dir signature PK in the com.zip': [['archive/trailing-data'], 'one byte after an end record that declares no comment'],
  'yauzl-fixtures/test/failure/absolute path C xt.zip': [['archive/header-mismatch'], 'central name "C:/xt" differs from the local "a.txt" (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/absolute path atxt.zip': [['archive/header-mismatch'], 'central name "/atxt" differs from the local "a.txt" (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/compressed uncompressed size mismatch for stored file 2147483647 5.zip': [['archive/gap-or-overlap', 'archive/header-mismatch', 'archive/size-mismatch'], 'stored entry with two sizes; the claimed data runs past the directory (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/extra field length exceeds extra field buffer size.zip': [[EXTRA], 'malformed extra field: refused before it is parsed'],
  'yauzl-fixtures/test/failure/file data overflows file bounds 63 2147483647 308.zip': [['archive/gap-or-overlap', 'archive/header-mismatch'], 'compressed size 2^31-1 runs past the central directory (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/invalid central directory file header signature 0x1014b50.zip': [['archive/central-directory-corrupt'], 'second central header has a wrong signature (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/invalid characters in fileName a txt.zip': [['archive/header-mismatch'], 'central name "a\\txt" differs from the local "a.txt" (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/invalid code lengths set.zip': [['archive/corrupt-deflate'], 'corrupt DEFLATE, never inflated: see the re-laid table (archive/corrupt-deflate) (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/invalid local file header signature 0x3034b50.zip': [['archive/local-header-corrupt'], 'second local header has a wrong signature (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/invalid relative path xt.zip': [['archive/header-mismatch'], 'central name "../xt" differs from the local "a.txt" (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/invalid zip64 end of central directory record signature.zip': [['archive/zip64'], 'ZIP64 sentinels in the end record'],
  'yauzl-fixtures/test/failure/multi-disk zip files are not supported found disk number 1.zip': [['archive/multi-disk'], 'disk number 1'],
  'yauzl-fixtures/test/failure/not enough bytes in the stream expected 2048576 got only 1000000.zip': [['archive/header-mismatch'], 'central size 2,048,576, local 1,000,000: see the re-laid table (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/strong encryption is not supported.zip': [['archive/data-descriptor', 'archive/encrypted', 'archive/gap-or-overlap', 'archive/header-mismatch', 'archive/size-mismatch'], 'strong encryption flag (bit 6) with a data descriptor (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/too many bytes in the stream expected 82496 got at least 98304.zip': [['archive/header-mismatch'], 'central size 82,496, local 1,000,000: see the re-laid table (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/too many length or distance symbols.zip': [['archive/corrupt-deflate'], 'corrupt DEFLATE, never inflated: see the re-laid table (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/unexpected EOF.zip': [['archive/zip64'], 'ZIP64 end record'],
  'yauzl-fixtures/test/failure/unsupported compression method 1.zip': [['archive/header-mismatch', 'archive/unsupported-method'], 'method 1 (shrink) in the central header only (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/failure/zip64 extended information extra field does not include compressed size.zip': [['archive/zip64'], 'ZIP64'],
  'yauzl-fixtures/test/failure/zip64 extended information extra field does not include relative header offset.zip': [['archive/zip64'], 'ZIP64'],
  'yauzl-fixtures/test/failure/zip64 extended information extra field does not include uncompressed size.zip': [['archive/zip64'], 'ZIP64'],
  // yauzl test/success: valid for yauzl, refused by D-16 strictness (each says which part).
  'yauzl-fixtures/test/success/NtfsTimestamp.zip': [['archive/version-needed'], '7-Zip NTFS timestamps, version 4.5 needed (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/big-compression.zip': [['archive/compression-ratio'], 'Info-ZIP extra fields (re-laid: ratio 919, archive/compression-ratio) (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/big-uncompressed.zip': [[], 'accepted since D-16a: Info-ZIP extra fields (re-laid: accepted)'],
  'yauzl-fixtures/test/success/bogus-compression-method.zip': [['archive/unsupported-method'], 'method 7 (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/cygwin-info-zip.zip': [[], 'accepted since D-16a: Info-ZIP extra fields'],
  'yauzl-fixtures/test/success/deflate.zip': [[], 'accepted since D-16a: Info-ZIP extra fields (re-laid: accepted)'],
  'yauzl-fixtures/test/success/directories.zip': [['archive/directory-entry'], 'directory entries (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/empty.zip': [[], 'accepted: no entries'],
  'yauzl-fixtures/test/success/everything.zip': [['archive/directory-entry'], 'directory entries (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/linux-info-zip.zip': [[], 'accepted since D-16a: Info-ZIP extra fields'],
  'yauzl-fixtures/test/success/sloppy-filenames.zip': [['archive/header-mismatch'], 'central "a\\txt", local "a.txt" (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/streaming.zip': [['archive/data-descriptor', 'archive/gap-or-overlap', 'archive/header-mismatch'], 'data descriptors, zero sizes in the local headers (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/traditional-encryption-and-compression.zip': [['archive/data-descriptor', 'archive/encrypted', 'archive/gap-or-overlap'], 'ZipCrypto (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/traditional-encryption-and-compression_deprecated.zip': [['archive/data-descriptor', 'archive/encrypted', 'archive/gap-or-overlap'], 'ZipCrypto (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/traditional-encryption.zip': [['archive/data-descriptor', 'archive/encrypted', 'archive/gap-or-overlap', 'archive/size-mismatch'], 'ZipCrypto, stored: sizes differ by the 12-byte encryption header (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/traditional-encryption_deprecated.zip': [['archive/data-descriptor', 'archive/encrypted', 'archive/gap-or-overlap', 'archive/size-mismatch'], 'ZipCrypto, stored (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/traditional-encryption-and-compression/a.bin': [['archive/not-zip'], 'expected content, not an archive'],
  'yauzl-fixtures/test/success/traditional-encryption-and-compression_deprecated/a.bin': [['archive/not-zip'], 'expected content, not an archive'],
  'yauzl-fixtures/test/success/unicode-path-extra-field.zip': [[EXTRA, 'archive/gap-or-overlap', 'archive/name-not-ascii', 'archive/version-needed'], 'control-character name with Info-ZIP Unicode path fields'],
  'yauzl-fixtures/test/success/unicode.zip': [['archive/directory-entry', 'archive/name-not-ascii'], 'UTF-8 names (its extra fields pass D-16a)'],
  'yauzl-fixtures/test/success/unix-epoch.zip': [[], 'accepted since D-16a: Info-ZIP extra fields'],
  'yauzl-fixtures/test/success/windows-7-zip.zip': [[], 'accepted since D-16a: 7-Zip NTFS timestamps'],
  'yauzl-fixtures/test/success/windows-compressed-folder.zip': [[], 'accepted: Windows Explorer writes no extras (the .txt names are refused by the listing)'],
  'yauzl-fixtures/test/success/zip64.zip': [['archive/zip64'], 'ZIP64'],
  'yauzl-fixtures/test/wrong-entry-sizes/wrong-entry-sizes.zip': [['archive/directory-entry', 'archive/header-mismatch', 'archive/size-mismatch', ...DESCRIPTOR], 'sizes that lie, with data descriptors'],
  'yauzl-fixtures/test/zip64/zip64.zip_fragment': [['archive/zip64'], 'ZIP64 directory offset'],
  // Go archive/zip testdata.
  'go-archive-zip-testdata/FuzzReader-enc.zip': [[], 'a sound plain deflate archive of 267 entries: the listing refuses the count and names, and nothing is inflated'],
  'go-archive-zip-testdata/FuzzReader-raw.zip': [[], 'a sound plain deflate archive of 364 entries: nothing is inflated (count)'],
  'go-archive-zip-testdata/comment-truncated.zip': [['archive/eocd-comment'], 'comment length 1 with no comment byte'],
  'go-archive-zip-testdata/crafted-from-reader_test/base-offset-plus-overflow.bin': [['archive/eocd-comment'], 'comment length past the end of the file'],
  'go-archive-zip-testdata/crafted-from-reader_test/biggest-nested-4GiB-zeros.zip': [['archive/header-mismatch', ...DESCRIPTOR], '42.zip-style nesting, streamed with a data descriptor'],
  'go-archive-zip-testdata/crafted-from-reader_test/compressed-directory-entry.zip': [['archive/directory-entry', EXTRA, 'archive/header-mismatch', ...DESCRIPTOR], 'deflated directory entry'],
  'go-archive-zip-testdata/crafted-from-reader_test/cve-2021-27919-dotdot-path.zip': [['archive/header-mismatch', ...DESCRIPTOR], '"../test.txt", streamed (the path itself is bundle/path-invalid for the listing)'],
  'go-archive-zip-testdata/crafted-from-reader_test/cve-2021-33196-huge-file-count.zip': [['archive/zip64'], 'ZIP64 end record claiming 2^64-1 entries: refused before any allocation'],
  'go-archive-zip-testdata/crafted-from-reader_test/cve-2021-39293-dirsize-overflow.zip': [['archive/trailing-data'], 'end record not at the end'],
  'go-archive-zip-testdata/crafted-from-reader_test/cve-2021-41772-slash-backslash-names.zip': [['archive/directory-entry'], 'names "/", "//", "\\", "/test.txt" (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/crafted-from-reader_test/issue-10956-malformed-zip64-eocd.zip': [['archive/eocd-comment'], 'end record with a comment, not at the end'],
  'go-archive-zip-testdata/crafted-from-reader_test/issue-10957-short-data.zip': [['archive/multi-disk'], 'disk numbers 12336'],
  'go-archive-zip-testdata/crafted-from-reader_test/issue-11146-truncated-data-descriptor.zip': [['archive/multi-disk'], '12,336 entries in total, 1 on this disk'],
  'go-archive-zip-testdata/crafted-from-reader_test/issue-12449-not-zip64.zip': [[EXTRA, 'archive/file-comment', 'archive/header-mismatch', 'archive/name-not-ascii', ...DESCRIPTOR], 'a ZIP64 locator look-alike inside a file comment'],
  'go-archive-zip-testdata/crafted-from-reader_test/recursive-r.zip': [[], 'accepted: a plain archive holding itself (r/r.zip: the listing refuses the .zip extension)'],
  'go-archive-zip-testdata/crc32-not-streamed.zip': [[], 'accepted since D-16a: Info-ZIP extra fields (re-laid: accepted)'],
  'go-archive-zip-testdata/dd.zip': [['archive/header-mismatch', ...DESCRIPTOR], 'data descriptor'],
  'go-archive-zip-testdata/dupdir.zip': [['archive/data-descriptor', 'archive/directory-entry', 'archive/gap-or-overlap'], 'file "a/b" and directory "a/b/" (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/go-no-datadesc-sig.zip': [[EXTRA, ...DESCRIPTOR], 'data descriptor without signature'],
  'go-archive-zip-testdata/go-with-datadesc-sig.zip': [['archive/header-mismatch', ...DESCRIPTOR], 'data descriptor with signature'],
  'go-archive-zip-testdata/readme.notzip': [['archive/not-zip'], 'an archive with the end record garbled'],
  'go-archive-zip-testdata/readme.zip': [['archive/eocd-comment', 'archive/trailing-data'], 'comment, then bytes after it'],
  'go-archive-zip-testdata/subdir.zip': [['archive/directory-entry'], 'directory entries (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/symlink.zip': [['archive/bad-attributes'], 'a symbolic link (mode 0120777) to "../target" (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/test-badbase.zip': [['archive/eocd-comment'], 'archive comment (and a wrong directory offset behind it)'],
  'go-archive-zip-testdata/test-baddirsz.zip': [['archive/eocd-comment'], 'archive comment (and a wrong directory size behind it)'],
  'go-archive-zip-testdata/test-prefix.zip': [['archive/eocd-comment', 'archive/trailing-data'], 'jar-style prefix, comment and bytes after it'],
  'go-archive-zip-testdata/test-trailing-junk.zip': [['archive/eocd-comment', 'archive/trailing-data'], 'comment and junk after it'],
  'go-archive-zip-testdata/test.zip': [['archive/eocd-comment'], 'archive comment'],
  'go-archive-zip-testdata/time-22738.zip': [['archive/data-descriptor', 'archive/gap-or-overlap'], 'data descriptor (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/time-7zip.zip': [['archive/bad-attributes'], 'MS-DOS attribute 0x80 (normal) (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/time-go.zip': [['archive/data-descriptor', 'archive/gap-or-overlap'], 'data descriptor (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/time-infozip.zip': [[], 'accepted since D-16a: Info-ZIP extra fields'],
  'go-archive-zip-testdata/time-osx.zip': [['archive/bad-attributes', EXTRA], 'macOS sets 0x4000 in the low attribute bits'],
  'go-archive-zip-testdata/time-win7.zip': [[], 'accepted: Windows 7 writes no extras (test.txt is refused by the listing)'],
  'go-archive-zip-testdata/time-winrar.zip': [['archive/bad-attributes'], 'MS-DOS attribute 0x80 (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/time-winzip.zip': [[], 'accepted since D-16a: NTFS timestamps'],
  'go-archive-zip-testdata/unix.zip': [['archive/directory-entry'], 'read-only DOS bit beside the Unix mode; a directory (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/utf8-7zip.zip': [['archive/bad-attributes', 'archive/name-not-ascii'], 'UTF-8 name (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/utf8-infozip.zip': [['archive/name-not-ascii'], 'UTF-8 name (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/utf8-osx.zip': [['archive/bad-attributes', EXTRA, 'archive/name-not-ascii'], 'UTF-8 name without the flag'],
  'go-archive-zip-testdata/utf8-winrar.zip': [['archive/bad-attributes', 'archive/name-not-ascii'], 'UTF-8 name (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/utf8-winzip.zip': [['archive/name-not-ascii'], 'UTF-8 name (its extra fields pass D-16a)'],
  'go-archive-zip-testdata/winxp.zip': [['archive/bad-attributes', 'archive/directory-entry'], 'host 11 attributes; a directory'],
  'go-archive-zip-testdata/zip64-2.zip': [['archive/zip64'], 'ZIP64'],
  'go-archive-zip-testdata/zip64.zip': [['archive/zip64'], 'ZIP64'],
  // CPython CVE-2024-0450 overlap archives.
  'cpython-zipfile-overlap/full-overlap-different-names.zip': [['archive/gap-or-overlap', 'archive/header-mismatch'], 'two names for one local record'],
  'cpython-zipfile-overlap/overlap-with-archive-comment.zip': [['archive/eocd-comment'], 'the local record hides in the archive comment'],
  'cpython-zipfile-overlap/overlap-with-central-dir.zip': [['archive/gap-or-overlap'], 'the entry starts inside the central directory'],
  'cpython-zipfile-overlap/quoted-overlap.zip': [['archive/gap-or-overlap'], 'entry "b" lies inside the stored block of entry "a"'],
};

const CORPUS_FOLDERS = ['yauzl-fixtures', 'go-archive-zip-testdata', 'cpython-zipfile-overlap'];
/** Files of the corpus folders that are not test archives: licences, sources, expected extracted content. */
function isDocumentationOrContent(rel) {
  if (/(^|\/)(LICENSE|SOURCE\.txt)$/.test(rel) || rel.endsWith('.base64') || rel.endsWith('.png')) return true;
  // yauzl test/success/X/ holds what X.zip extracts to.
  return /^yauzl-fixtures\/test\/(success|wrong-entry-sizes)\/[^/]+\//.test(rel) && !CORPUS_TABLE[rel];
}

test('corpus: the table covers every archive in the three ZIP corpora, and nothing else', () => {
  const files = CORPUS_FOLDERS.flatMap((folder) => walk(join(CORPUS, folder))).map((p) => relative(CORPUS, p).split('\\').join('/'));
  const archives = files.filter((rel) => !isDocumentationOrContent(rel)).sort();
  assert.deepEqual(archives, Object.keys(CORPUS_TABLE).sort());
  assert.equal(archives.length, 100);
});

test('corpus: every archive gets exactly the rule ids of its row', () => {
  for (const [rel, [expected, why]] of Object.entries(CORPUS_TABLE)) {
    const result = read(readFileSync(join(CORPUS, rel)));
    assert.deepEqual([...new Set(result.rules)], [...expected].sort(), `${rel} (${why})`);
    // Refused by its structure: no entries. An entry refused by its content (a stream that
    // does not inflate, a ratio over the bound) leaves the listing in place.
    if (!expected.every((rule) => rule === 'archive/corrupt-deflate' || rule === 'archive/compression-ratio')) assert.equal(result.entries === null, expected.length > 0, `${rel}: entries are null exactly when refused`);
    if (expected.length === 0 && result.entries.length > BUNDLE_MAX_FILES) {
      // Over the count limit (the listing's bundle/too-many-files): nothing is inflated.
      assert.ok(result.entries.every((e) => e.content === undefined), `${rel}: not inflated`);
    } else if (expected.length === 0) {
      assert.ok(result.entries.every((e) => e.content !== undefined && e.content.length === e.size), rel);
      ACCEPTED.push({ label: rel, bytes: readFileSync(join(CORPUS, rel)), entries: result.entries });
    }
  }
});

test('corpus: the other files of the folders (licences, expected content) are not ZIP archives', () => {
  const others = CORPUS_FOLDERS.flatMap((folder) => walk(join(CORPUS, folder)))
    .filter((p) => isDocumentationOrContent(relative(CORPUS, p).split('\\').join('/')));
  assert.ok(others.length >= 40);
  for (const path of others) assert.deepEqual(read(readFileSync(path)).rules, ['archive/not-zip'], path);
});

/**
 * The corpus archive re-laid by the test writer without extra fields and with no
 * attributes, keeping names, methods, flags, CRCs, central sizes and the compressed bytes:
 * what D-16 strictness would have hidden behind archive/extra-field.
 */
function relay(bytes) {
  const v = Buffer.from(bytes);
  const end = v.length - 22;
  const entries = [];
  let at = v.readUInt32LE(end + 16);
  for (let i = 0; i < v.readUInt16LE(end + 10); i++) {
    const nameLength = v.readUInt16LE(at + 28);
    const local = v.readUInt32LE(at + 42);
    const dataStart = local + 30 + v.readUInt16LE(local + 26) + v.readUInt16LE(local + 28);
    entries.push({
      name: v.subarray(at + 46, at + 46 + nameLength),
      method: v.readUInt16LE(at + 10),
      flags: v.readUInt16LE(at + 8),
      crc: v.readUInt32LE(at + 16),
      size: v.readUInt32LE(at + 24),
      compressed: v.subarray(dataStart, dataStart + v.readUInt32LE(at + 20)),
    });
    at += 46 + nameLength + v.readUInt16LE(at + 30) + v.readUInt16LE(at + 32);
  }
  return craftZip(entries);
}

const RELAID_TABLE = {
  'yauzl-fixtures/test/failure/invalid code lengths set.zip': [['archive/corrupt-deflate'], 'DEFLATE with an invalid code lengths set'],
  'yauzl-fixtures/test/failure/too many length or distance symbols.zip': [['archive/corrupt-deflate'], 'DEFLATE with too many symbols'],
  'yauzl-fixtures/test/failure/too many bytes in the stream expected 82496 got at least 98304.zip': [['archive/size-mismatch'], 'inflates past the declared 82,496 bytes: stopped at the cap'],
  'yauzl-fixtures/test/failure/not enough bytes in the stream expected 2048576 got only 1000000.zip': [['archive/compression-ratio', 'archive/compression-ratio'], 'declares 2,048,576 bytes from 985 (entry and archive over 100): refused before inflating'],
  'yauzl-fixtures/test/success/big-compression.zip': [['archive/compression-ratio', 'archive/compression-ratio'], '135,168 bytes from 147: entry and archive ratio over 100'],
  'yauzl-fixtures/test/success/bogus-compression-method.zip': [['archive/unsupported-method'], 'method 7'],
  'yauzl-fixtures/test/success/deflate.zip': [[], 'accepted'],
  'yauzl-fixtures/test/success/big-uncompressed.zip': [[], 'accepted'],
  'go-archive-zip-testdata/crc32-not-streamed.zip': [[], 'accepted'],
};

test('corpus re-laid without extra fields: the problem behind archive/extra-field is found too', () => {
  for (const [rel, [expected, why]] of Object.entries(RELAID_TABLE)) {
    const bytes = relay(readFileSync(join(CORPUS, rel)));
    const result = read(bytes);
    assert.deepEqual(result.rules, expected, `${rel} (${why})`);
    if (expected.length === 0) ACCEPTED.push({ label: `${rel} (re-laid)`, bytes, entries: result.entries });
  }
});

// ---------------------------------------------------------------------------------------
// Crafted archives: both sides of every boundary
// ---------------------------------------------------------------------------------------

test('archive size: 5,242,880 bytes is read, 5,242,881 is refused before any record is parsed', () => {
  assert.equal(BUNDLE_MAX_COMPRESSED_BYTES, 5_242_880);
  const overhead = 30 + 46 + 22 + 2 * 'a.png'.length;
  const make = (total) => craftZip([{ name: 'a.png', data: moderatelyCompressible(total - overhead), method: 0 }]);
  const exact = make(BUNDLE_MAX_COMPRESSED_BYTES);
  assert.equal(exact.length, BUNDLE_MAX_COMPRESSED_BYTES);
  const ok = read(exact);
  assert.deepEqual(ok.rules, []);
  assert.equal(ok.entries[0].content.length, BUNDLE_MAX_COMPRESSED_BYTES - overhead);

  const over = make(BUNDLE_MAX_COMPRESSED_BYTES + 1);
  assert.equal(over.length, BUNDLE_MAX_COMPRESSED_BYTES + 1);
  assert.deepEqual(read(over).rules, ['archive/compressed-too-large']);
  // Not a ZIP at all, one byte over: still only the size finding (nothing was parsed).
  const spy = spyInflater();
  const junk = read(new Uint8Array(BUNDLE_MAX_COMPRESSED_BYTES + 1), { inflate: spy.inflate });
  assert.deepEqual(junk.rules, ['archive/compressed-too-large']);
  assert.equal(junk.entries, null);
  assert.deepEqual(spy.calls, []);
});

test('entry ratio: exactly 100 is read, 101 is refused before inflating (Bundle; Limits; D-16)', () => {
  assert.equal(BUNDLE_MAX_COMPRESSION_RATIO, 100);
  const at100 = deflateAtRatio(100);
  assert.equal(at100.data.length, 100 * at100.compressed.length);
  const ok = read(craftZip([{ name: 'a.js', data: at100.data, compressed: at100.compressed }]));
  assert.deepEqual(ok.rules, []);
  assert.deepEqual(Buffer.compare(Buffer.from(ok.entries[0].content), Buffer.from(at100.data)), 0);

  const at101 = deflateAtRatio(101);
  assert.equal(at101.data.length, 101 * at101.compressed.length);
  const spy = spyInflater();
  const refused = read(craftZip([{ name: 'a.js', data: at101.data, compressed: at101.compressed }]), { inflate: spy.inflate });
  assert.deepEqual(refused.rules, ['archive/compression-ratio']);
  assert.deepEqual(spy.calls, []);
  assert.equal(refused.entries[0].content, undefined);
});

test('ratio: a zero compressed size with content is unbounded; 0/0 is fine; the whole-archive ratio adds its own finding', () => {
  // Deflate entry of 0 compressed bytes declaring 5 bytes: unbounded ratio, refused (no inflate).
  assert.deepEqual(read(craftZip([{ name: 'a.js', compressed: [], size: 5, crc: 0 }])).rules, ['archive/compression-ratio']);
  // Stored empty entry: 0 / 0.
  assert.deepEqual(read(craftZip([{ name: 'a.js', data: '', method: 0 }])).rules, []);
  // A small archive whose one entry expands 1,000 times: the entry and the archive are both over.
  const zeros = new Uint8Array(400_000);
  assert.deepEqual(read(craftZip([{ name: 'a.js', data: zeros }])).rules, ['archive/compression-ratio', 'archive/compression-ratio']);
});

test('declared size is a cap: a stream that inflates further is refused before any inflater runs', () => {
  const data = new Uint8Array(1_000_000);
  const compressed = zlib.deflateRawSync(moderatelyCompressible(1_000_000));
  const spy = spyInflater();
  const result = read(craftZip([{ name: 'a.js', data: data.subarray(0, 10_000), compressed, size: 10_000 }]), { inflate: spy.inflate });
  assert.deepEqual(result.rules, ['archive/size-mismatch']);
  // The stream's own bits show it holds 1,000,000 bytes: the inflater is never asked.
  assert.deepEqual(spy.calls, []);
  assert.equal(spy.violation, null);
  // Declared exactly: the inflater is asked for the declared size, its cap.
  const exact = moderatelyCompressible(10_000);
  const spy2 = spyInflater();
  assert.deepEqual(read(craftZip([{ name: 'a.js', data: exact, compressed: zlib.deflateRawSync(exact), size: 10_000 }]), { inflate: spy2.inflate }).rules, []);
  assert.deepEqual(spy2.calls, [10_000]);
  // The other side: a stream shorter than declared.
  const short = zlib.deflateRawSync(moderatelyCompressible(5_000));
  assert.deepEqual(read(craftZip([{ name: 'a.js', compressed: short, size: 5_001, crc: 0 }])).rules, ['archive/size-mismatch']);
});

test('one file: 5,242,880 bytes declared is inflated, 5,242,881 is not (bundle/file-too-large from the listing)', () => {
  assert.equal(BUNDLE_MAX_FILE_BYTES, 5_242_880);
  const data = moderatelyCompressible(BUNDLE_MAX_FILE_BYTES + 1);
  const atCap = data.subarray(0, BUNDLE_MAX_FILE_BYTES);
  const ok = review(craftZip([{ ...HTML }, { name: 'big.png', data: atCap, level: 1 }]));
  assert.deepEqual(ok.rules, []);
  assert.equal(ok.entries[1].content.length, BUNDLE_MAX_FILE_BYTES);

  const spy = spyInflater();
  const over = craftZip([{ ...HTML }, { name: 'big.png', data, level: 1 }]);
  const result = read(over, { inflate: spy.inflate });
  assert.deepEqual(result.rules, []);
  assert.deepEqual(spy.calls, [], 'nothing is inflated when a declared size breaks a limit');
  assert.ok(result.entries.every((e) => e.content === undefined));
  assert.deepEqual(review(over).rules, ['bundle/file-too-large']);
});

test('expanded total: 20,971,520 bytes declared is inflated, one byte more is not (bundle/expanded-too-large)', () => {
  assert.equal(BUNDLE_MAX_EXPANDED_BYTES, 4 * BUNDLE_MAX_FILE_BYTES);
  const data = moderatelyCompressible(BUNDLE_MAX_FILE_BYTES);
  const compressed = zlib.deflateRawSync(data, { level: 1 });
  const four = ['a.png', 'b.png', 'c.png', 'd.png'].map((name) => ({ name, data, compressed }));
  const ok = review(craftZip([{ name: 'index.html', data: '', method: 0 }, ...four]));
  assert.deepEqual(ok.rules, []);
  assert.ok(ok.entries.every((e) => e.content !== undefined));

  const spy = spyInflater();
  const over = craftZip([{ name: 'index.html', data: '<', method: 0 }, ...four]);
  assert.deepEqual(read(over, { inflate: spy.inflate }).rules, []);
  assert.deepEqual(spy.calls, []);
  assert.deepEqual(review(over).rules, ['bundle/expanded-too-large']);
});

test('files: 200 entries are read, 201 are bundle/too-many-files from the listing', () => {
  const make = (n) => craftZip([HTML, ...Array.from({ length: n - 1 }, (_, i) => ({ name: `img/p${i}.png`, data: `${i}`, method: 0 }))]);
  assert.deepEqual(review(make(BUNDLE_MAX_FILES)).rules, []);
  assert.deepEqual(review(make(BUNDLE_MAX_FILES + 1)).rules, ['bundle/too-many-files']);
});

/** Rows: what, entries, options, expected rule ids (sorted, with repeats). Listing rules included. */
const STORED = { name: 'a.js', data: 'export const a = 1;\n', method: 0 };
const DEFLATED = { name: 'a.js', data: 'export const a = 1;\n'.repeat(10) };
const CRAFTED = [
  // Placement of the records.
  ['baseline: HTML plus one stored and one deflated entry', [HTML, STORED, { ...DEFLATED, name: 'b.js' }], {}, []],
  ['one byte between two entries', [{ ...HTML, after: [0] }, STORED], {}, ['archive/gap-or-overlap']],
  ['one byte between the last entry and the central directory', [HTML, { ...STORED, after: [0] }], {}, ['archive/gap-or-overlap']],
  ['one prefix byte, offsets adjusted (self-extractor style)', [HTML], { prefix: [0x4d] }, ['archive/prefix-bytes']],
  ['one prefix byte, offsets not adjusted (cat stub a.zip)', [HTML], { prefix: [0x4d] , adjustOffsets: false }, ['archive/prefix-bytes']],
  ['a prefix before an empty archive', [], { prefix: [1, 2, 3], adjustOffsets: false }, ['archive/prefix-bytes']],
  ['a prefix before an empty archive, offset adjusted', [], { prefix: [1, 2, 3] }, ['archive/prefix-bytes']],
  ['one byte between the central directory and the end record', [HTML], { betweenDirectoryAndEnd: [0] }, ['archive/gap-or-overlap']],
  ['a ZIP64 locator between the central directory and the end record', [HTML], { betweenDirectoryAndEnd: [0x50, 0x4b, 6, 7, ...new Array(16).fill(0)] }, ['archive/zip64']],
  ['two central entries for one local record', [HTML, { ...STORED, localOffset: 0 }], {}, ['archive/gap-or-overlap', 'archive/gap-or-overlap', 'archive/header-mismatch']],
  ['a local offset inside the previous entry', [HTML, { ...STORED, localOffset: 40 }], {}, ['archive/local-header-corrupt']],
  ['a local offset pointing at the central directory', [{ ...STORED, localOffset: 30 + 4 + 20 }], {}, ['archive/gap-or-overlap']],
  ['an end record comment of 1 byte', [HTML], { comment: [0x20] }, ['archive/eocd-comment']],
  ['an end record comment of 0 bytes', [HTML], { comment: [] }, []],
  ['a comment length of 1 with no comment byte', [HTML], { commentLength: 1 }, ['archive/eocd-comment']],
  ['one byte after the end record', [HTML], { trailing: [0] }, ['archive/trailing-data']],
  ['a comment and one byte after it', [HTML], { comment: 'c', trailing: [0] }, ['archive/eocd-comment', 'archive/trailing-data']],
  // End record fields.
  ['end record: disk 1', [HTML], { disk: 1 }, ['archive/multi-disk']],
  ['end record: central directory on disk 1', [HTML], { directoryDisk: 1 }, ['archive/multi-disk']],
  ['end record: entries on this disk differ from the total', [HTML, STORED], { entriesOnDisk: 1 }, ['archive/multi-disk']],
  ['end record: 0xFFFF entries (ZIP64 sentinel)', [HTML], { entryCount: 0xffff }, ['archive/zip64']],
  ['end record: directory offset 0xFFFFFFFF (ZIP64 sentinel)', [HTML], { directoryOffset: 0xffffffff }, ['archive/zip64']],
  ['end record: one entry more than the directory holds', [HTML, STORED], { entryCount: 3 }, ['archive/entry-count']],
  ['end record: one entry fewer than the directory holds', [HTML, STORED], { entryCount: 1 }, ['archive/entry-count']],
  ['end record: directory size one byte short', [HTML], { directorySizeDelta: -1 }, ['archive/gap-or-overlap']],
  ['end record: directory offset one byte early', [HTML], { directoryOffsetDelta: -1 }, ['archive/gap-or-overlap']],
  ['end record: directory offset one byte late', [HTML], { directoryOffsetDelta: 1 }, ['archive/gap-or-overlap']],
  // Central and local headers.
  ['central/local name mismatch, shorter local name', [{ ...HTML, localName: 'index.htm' }], {}, ['archive/header-mismatch']],
  ['central/local name mismatch, same length', [{ ...HTML, localName: 'INDEX.html' }], {}, ['archive/header-mismatch']],
  ['central/local flags mismatch', [{ ...HTML, local: { flags: 0x0800 } }], {}, ['archive/header-mismatch']],
  ['central/local method mismatch', [{ ...STORED, local: { method: 8 } }], {}, ['archive/header-mismatch']],
  ['central/local CRC mismatch', [{ ...STORED, local: { crc: 1 } }], {}, ['archive/header-mismatch']],
  ['central/local compressed size mismatch', [{ ...DEFLATED, local: { compressedSize: 1 } }], {}, ['archive/header-mismatch']],
  ['central/local uncompressed size mismatch', [{ ...DEFLATED, local: { size: 1 } }], {}, ['archive/header-mismatch']],
  // Methods, flags, versions.
  ['method 0 (stored) and 8 (deflate) are the two accepted', [{ ...STORED }, { ...DEFLATED, name: 'b.js' }], {}, []],
  ['method 12 (bzip2)', [{ ...STORED, method: 12, compressed: new TextEncoder().encode(STORED.data) }], {}, ['archive/unsupported-method']],
  ['flag bit 0: encrypted', [{ ...STORED, flags: 0x0001 }], {}, ['archive/encrypted']],
  ['flag bit 6: strong encryption', [{ ...STORED, flags: 0x0041 }], {}, ['archive/encrypted']],
  ['flag bit 13: masked local headers', [{ ...STORED, flags: 0x2000 }], {}, ['archive/encrypted']],
  ['flag bit 3: data descriptor', [{ ...STORED, flags: 0x0008 }], {}, ['archive/data-descriptor']],
  ['flag bit 4 (enhanced deflating, reserved)', [{ ...DEFLATED, flags: 0x0010 }], {}, ['archive/unsupported-flags']],
  ['flag bit 11 (UTF-8) with an ASCII name', [{ ...DEFLATED, flags: 0x0800 }], {}, []],
  ['flag bits 1-2 (deflate level hint), as zip -9 writes even for stored entries', [{ ...STORED, flags: 0x0002 }, { ...DEFLATED, name: 'b.js', flags: 0x0006 }], {}, []],
  ['version needed 2.0', [{ ...DEFLATED, versionNeeded: 20 }], {}, []],
  ['version needed 2.1', [{ ...DEFLATED, versionNeeded: 21 }], {}, ['archive/version-needed']],
  ['version needed 2.1 in the local header only', [{ ...DEFLATED, local: { versionNeeded: 21 } }], {}, ['archive/version-needed']],
  ['stored entry with different compressed and uncompressed sizes', [{ ...STORED, size: 5 }], {}, ['archive/size-mismatch']],
  // ZIP64, extra fields, comments.
  ['ZIP64 extra field (id 0x0001)', [{ ...STORED, extra: [1, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0] }], {}, ['archive/zip64']],
  ['ZIP64 extra field in the local header only', [{ ...STORED, localExtra: [1, 0, 0, 0] }], {}, ['archive/zip64']],
  ['compressed size 0xFFFFFFFF (ZIP64 sentinel; the size also runs past the directory)', [{ ...DEFLATED, compressedSize: 0xffffffff }], {}, ['archive/gap-or-overlap', 'archive/zip64']],
  ['extra field (Unicode path 0x7075) in the central header', [{ ...STORED, extra: [0x75, 0x70, 1, 0, 0] }], {}, ['archive/extra-field']],
  ['extra field (Unicode path 0x7075) in the local header only', [{ ...STORED, localExtra: [0x75, 0x70, 1, 0, 0] }], {}, ['archive/extra-field']],
  // D-16a: timestamp, owner and NTFS fields pass when well formed and single.
  ['UT timestamp (flags only) in both headers', [{ ...STORED, extra: [0x55, 0x54, 1, 0, 0], localExtra: [0x55, 0x54, 1, 0, 0] }], {}, []],
  ['UT timestamp with a modification time', [{ ...STORED, extra: [0x55, 0x54, 5, 0, 1, 0, 0, 0, 0], localExtra: [0x55, 0x54, 5, 0, 1, 0, 0, 0, 0] }], {}, []],
  ['UT local claims two times but holds one', [{ ...STORED, localExtra: [0x55, 0x54, 5, 0, 3, 0, 0, 0, 0] }], {}, ['archive/extra-field']],
  ['UT central with two times', [{ ...STORED, extra: [0x55, 0x54, 9, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0] }], {}, ['archive/extra-field']],
  ['UT twice in one header', [{ ...STORED, extra: [0x55, 0x54, 1, 0, 0, 0x55, 0x54, 1, 0, 0] }], {}, ['archive/extra-field']],
  ['ux empty (Info-ZIP central form)', [{ ...STORED, extra: [0x75, 0x78, 0, 0] }], {}, []],
  ['ux version 1 with 4-byte ids', [{ ...STORED, extra: [0x75, 0x78, 11, 0, 1, 4, 1, 0, 0, 0, 4, 1, 0, 0, 0] }], {}, []],
  ['ux with a 9-byte uid', [{ ...STORED, extra: [0x75, 0x78, 13, 0, 1, 9, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0] }], {}, ['archive/extra-field']],
  ['NTFS times, one tag-1 attribute', [{ ...STORED, extra: [0x0a, 0, 32, 0, 0, 0, 0, 0, 1, 0, 24, 0, ...new Array(24).fill(0)] }], {}, []],
  ['NTFS times with a short attribute', [{ ...STORED, extra: [0x0a, 0, 12, 0, 0, 0, 0, 0, 1, 0, 4, 0, 0, 0, 0, 0] }], {}, ['archive/extra-field']],
  ['an extra block cut short', [{ ...STORED, extra: [0x55, 0x54, 9, 0, 1] }], {}, ['archive/extra-field']],
  ['two stray bytes after a field', [{ ...STORED, extra: [0x75, 0x78, 0, 0, 0, 0] }], {}, ['archive/extra-field']],
  ['file comment', [{ ...STORED, comment: 'x' }], {}, ['archive/file-comment']],
  ['entry on disk 1', [{ ...STORED, disk: 1 }], {}, ['archive/multi-disk']],
  // Names.
  ['duplicate names', [HTML, { ...HTML }], {}, ['archive/duplicate-name']],
  ['names differing only by case (listing)', [HTML, STORED, { ...STORED, name: 'A.js' }], {}, ['bundle/case-collision']],
  ['a name with ".." (listing)', [HTML, { ...STORED, name: 'js/../a.js' }], {}, ['bundle/path-invalid']],
  ['a name with a backslash (listing)', [HTML, { ...STORED, name: 'js\\a.js' }], {}, ['bundle/path-invalid']],
  ['an absolute name (listing)', [HTML, { ...STORED, name: '/a.js' }], {}, ['bundle/path-invalid']],
  ['a directory entry', [HTML, { name: 'js/', data: '', method: 0 }], {}, ['archive/directory-entry']],
  ['a UTF-8 name', [HTML, { ...STORED, name: 'caf\u00e9.js', flags: 0x0800 }], {}, ['archive/name-not-ascii']],
  ['a name with a NUL byte', [HTML, { ...STORED, name: 'a.js\u0000.png' }], {}, ['archive/name-not-ascii']],
  ['a name with a newline', [HTML, { ...STORED, name: 'a\n.js' }], {}, ['archive/name-not-ascii']],
  // Attributes.
  ['attributes 0', [{ ...STORED, external: 0 }], {}, []],
  ['Unix 0100644', [{ ...STORED, external: 0o100644 * 0x10000 }], {}, []],
  ['Unix 0100755', [{ ...STORED, external: 0o100755 * 0x10000 }], {}, []],
  ['Unix 0104755 (setuid)', [{ ...STORED, external: 0o104755 * 0x10000 }], {}, ['archive/bad-attributes']],
  ['Unix 0102755 (setgid)', [{ ...STORED, external: 0o102755 * 0x10000 }], {}, ['archive/bad-attributes']],
  ['Unix 0101644 (sticky)', [{ ...STORED, external: 0o101644 * 0x10000 }], {}, ['archive/bad-attributes']],
  ['Unix 0120777 (symbolic link)', [{ ...STORED, external: 0o120777 * 0x10000 }], {}, ['archive/bad-attributes']],
  ['Unix 0060644 (block device)', [{ ...STORED, external: 0o060644 * 0x10000 }], {}, ['archive/bad-attributes']],
  ['Unix 0000644 (no file type, Python writestr default)', [{ ...STORED, external: 0o644 * 0x10000 }], {}, []], // D-16a
  ['Unix 0100644 with the DOS read-only bit', [{ ...STORED, external: 0o100644 * 0x10000 + 1 }], {}, []], // D-16a
  ['Unix 0040755 (directory mode on a file name)', [{ ...STORED, external: 0o040755 * 0x10000 }], {}, ['archive/directory-entry']],
  ['MS-DOS archive bit', [{ ...STORED, madeBy: madeBy(0), external: 0x20 }], {}, []],
  ['MS-DOS archive and read-only bits', [{ ...STORED, madeBy: madeBy(0), external: 0x21 }], {}, []], // D-16a
  ['MS-DOS hidden bit', [{ ...STORED, madeBy: madeBy(0), external: 0x02 }], {}, ['archive/bad-attributes']],
  ['MS-DOS directory bit', [{ ...STORED, madeBy: madeBy(0), external: 0x10 }], {}, ['archive/directory-entry']],
  ['NTFS host (10) with the archive bit', [{ ...STORED, madeBy: madeBy(10), external: 0x20 }], {}, ['archive/bad-attributes']],
  ['NTFS host (10) with attributes 0', [{ ...STORED, madeBy: madeBy(10), external: 0 }], {}, []],
  ['internal attributes 1 (text)', [{ ...STORED, internal: 1 }], {}, []],
  ['internal attributes 2 (reserved)', [{ ...STORED, internal: 2 }], {}, ['archive/bad-attributes']],
  // Content checks after inflating.
  ['CRC-32 off by one, stored', [{ ...STORED, crc: (zlib.crc32(STORED.data) + 1) >>> 0 }], {}, ['archive/crc-mismatch']],
  ['CRC-32 off by one, deflated', [{ ...DEFLATED, crc: (zlib.crc32(DEFLATED.data) + 1) >>> 0 }], {}, ['archive/crc-mismatch']],
  ['two bytes after the DEFLATE stream', [{ ...DEFLATED, compressed: [...zlib.deflateRawSync(DEFLATED.data), 0, 0] }], {}, ['archive/trailing-deflate-data']],
  ['a truncated DEFLATE stream', [{ ...DEFLATED, compressed: zlib.deflateRawSync(DEFLATED.data).subarray(0, 5) }], {}, ['archive/corrupt-deflate']],
  ['bytes that are not DEFLATE', [{ ...DEFLATED, compressed: [0xff, 0xff, 0xff, 0xff] }], {}, ['archive/corrupt-deflate']],
  ['an empty deflated entry (final empty block)', [{ name: 'a.js', data: '' }], {}, []],
];

test('crafted archives: each row gets exactly its rule ids', () => {
  const wrong = [];
  for (const [what, entries, options, expected] of CRAFTED) {
    const bytes = craftZip(entries, options);
    const result = review(bytes, entries.some((e) => String(e.name) === 'index.html') ? 'index.html' : null);
    if (!isDeepStrictEqual(result.rules, [...expected].sort())) wrong.push({ what, expected, actual: result.rules });
    if (expected.length === 0) ACCEPTED.push({ label: what, bytes, entries: result.entries });
  }
  assert.deepEqual(wrong, []);
});

test('crafted: a broken central header signature ends parsing (archive/central-directory-corrupt)', () => {
  const bytes = craftZip([HTML, STORED]);
  const at = Buffer.from(bytes).lastIndexOf(Buffer.from([0x50, 0x4b, 1, 2]));
  bytes[at + 2] = 9;
  assert.deepEqual(read(bytes).rules, ['archive/central-directory-corrupt']);
  // A name length that runs past the directory end.
  const long = craftZip([HTML]);
  Buffer.from(long.buffer).writeUInt16LE(0xfff0, long.length - 22 - 46 - 10 + 28);
  assert.deepEqual(read(long).rules, ['archive/central-directory-corrupt']);
});

test('crafted: a broken local header signature is archive/local-header-corrupt', () => {
  const bytes = craftZip([HTML, STORED]);
  const second = 30 + 10 + zlib.deflateRawSync(HTML.data, { level: 9 }).length;
  assert.equal(Buffer.from(bytes).readUInt32LE(second), 0x04034b50);
  bytes[second + 3] = 0;
  assert.deepEqual(read(bytes).rules, ['archive/local-header-corrupt']);
});

test('crafted: a hostile directory of 50,000 entries with problems reports at most 100 findings', () => {
  // 50,000 entries keep the archive under the compressed-size limit; each has a comment.
  const entries = Array.from({ length: 50_000 }, (_, i) => ({ name: `${i}`, data: '', method: 0, comment: 'c' }));
  const result = read(craftZip(entries));
  assert.equal(result.entries, null);
  assert.equal(result.findings.length, 100);
});

test('the injected inflater may throw: that is archive/corrupt-deflate, never an exception', () => {
  const throwing = () => {
    throw new Error('boom');
  };
  assert.deepEqual(read(craftZip([DEFLATED]), { inflate: throwing }).rules, ['archive/corrupt-deflate']);
  // An inflater that breaks its contract (returns more than asked) is caught by the length check.
  const long = (c, n) => ({ ok: true, data: new Uint8Array(n + 1) });
  assert.deepEqual(read(craftZip([DEFLATED]), { inflate: long }).rules, ['archive/size-mismatch']);
});

test('a CRC-32 reported by the inflater is the one compared; a missing or malformed one is computed by the reader', () => {
  const archive = craftZip([DEFLATED]);
  const right = zipCrc32Of(new TextEncoder().encode(DEFLATED.data));
  const reporting = (crc) => (c, n) => {
    const result = inflateRawCapped(c, n);
    return result.ok ? { ...result, crc32: crc } : result;
  };
  const rows = [
    // [what it proves, the reported crc32, expected rule ids]
    ['the right CRC is accepted', right, []],
    ['a wrong CRC is believed, so the entry is refused: the reported value is used', (right + 1) >>> 0, ['archive/crc-mismatch']],
    ['no CRC: the reader computes it', undefined, []],
    ['a negative number is not a CRC: computed', -1, []],
    ['a fraction is not a CRC: computed', right + 0.5, []],
    ['2^32 is out of range: computed', 2 ** 32, []],
    ['NaN: computed', NaN, []],
    ['a string is not a number: computed', String(right), []],
  ];
  for (const [label, crc, rules] of rows) assert.deepEqual(read(archive, { inflate: reporting(crc) }).rules, rules, label);
});

test('the Node.js adapter reports the CRC-32 of what it inflated (natively, when node:zlib has crc32)', () => {
  const data = new TextEncoder().encode('export const a = 1;\n'.repeat(500));
  const result = nodeInflateRawCapped(new Uint8Array(zlib.deflateRawSync(data)), data.length);
  assert.equal(result.ok, true);
  if (typeof zlib.crc32 === 'function') assert.equal(result.crc32, zipCrc32Of(data));
  else assert.equal(result.crc32, undefined);
  // Failures carry no CRC.
  assert.deepEqual(nodeInflateRawCapped(new Uint8Array(zlib.deflateRawSync(data)), data.length - 1), { ok: false, reason: 'too-long' });
});

// ---------------------------------------------------------------------------------------
// Cross-checks
// ---------------------------------------------------------------------------------------

const PYTHON_READER = String.raw`
import hashlib, json, sys, zipfile
out = []
for path in sys.argv[1:]:
    with zipfile.ZipFile(path) as z:
        out.append({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()})
print(json.dumps(out))
`;

test('every archive accepted above is extracted by Python zipfile to the same names and bytes', (t) => {
  assert.ok(ACCEPTED.length >= 20, `${ACCEPTED.length} accepted archives`);
  t.diagnostic(`${ACCEPTED.length} accepted archives compared with Python zipfile`);
  const dir = mkdtempSync(join(tmpdir(), 'zip-read-'));
  try {
    const paths = ACCEPTED.map((a, i) => {
      const path = join(dir, `${i}.zip`);
      writeFileSync(path, a.bytes);
      return path;
    });
    const python = JSON.parse(runPython(PYTHON_READER, paths));
    ACCEPTED.forEach((a, i) => assert.deepEqual(digestOf(a.entries), python[i], a.label));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every archive/ rule in the catalogue was produced by some row above (none is unreachable)', () => {
  const ids = ARCHIVE_RULES.map((r) => r.id);
  assert.deepEqual(ids.filter((id) => !SEEN.has(id)), []);
  assert.ok(ARCHIVE_RULES.every((r) => r.severity === 'error'));
});

test('keepContent: false verifies every entry but returns no bytes (package read-back)', async () => {
  const { writeZip } = await import('../../build/zip/zip-writer.js');
  const zip = writeZip([
    { path: 'a.js', content: new TextEncoder().encode('export const a = 1;\n'.repeat(50)) },
    { path: 'b.png', content: new Uint8Array(300).map((_, i) => (i * 7919) & 0xff) },
  ]);
  const kept = new FindingList();
  const withContent = readZip(zip, nodeInflateRawCapped, kept);
  assert.ok(withContent.entries.every((e) => e.content !== undefined));
  const dropped = new FindingList();
  const without = readZip(zip, nodeInflateRawCapped, dropped, 'bundle.zip', { keepContent: false });
  assert.deepEqual(without.entries.map((e) => [e.path, e.size, e.content]), withContent.entries.map((e) => [e.path, e.size, undefined]));
  assert.deepEqual(dropped.items, []);
  // Verification still runs: a flipped data byte is still a CRC finding.
  const bad = Uint8Array.from(zip);
  bad[30 + 'a.js'.length + 2] ^= 0xff;
  const broken = new FindingList();
  readZip(bad, nodeInflateRawCapped, broken, 'bundle.zip', { keepContent: false });
  assert.ok(broken.items.length > 0);
});
