// Scanning on two threads changes no finding: validateProject with content scans made
// elsewhere (ProjectInput.scans, scanBundleFile) reports exactly what it reports alone, in
// the same order; the worker of src/release/parallel-scan.ts gives the same scans as this
// thread, and a worker that fails or refuses leaves its files to the main thread;
// `check`, `verify` and `platform-review` print the same report with the worker and
// without it (PLATFORM_EXT_SCAN_WORKER=1 and =0; unset, the worker runs only when two cores
// are idle, which a test cannot rely on). Also the speed changes that must not change
// a result: readZip's injected CRC-32 for stored entries and the private-key anchor search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { prng } from './support/fuzz.mjs';
import { runCli } from './support/project.mjs';
import { craftZip } from '../bench/fuzz-zip.mjs';
import { bundleFilePaths, scanBundleFile, validateProject } from '../build/validator/validate.js';
import { bundleViewOf } from '../build/validator/scan.js';
import { findPrivateKeyMarker, PRIVATE_KEY_MARKERS } from '../build/validator/bundle.js';
import { FindingList } from '../build/validator/findings.js';
import { readZip } from '../build/validator/zip/read.js';
import { validateRelease } from '../build/validator/release.js';
import { NODE_RELEASE_DEPS, inflateRawCapped } from '../build/release/node-deps.js';
import { launchScanWorker, PARALLEL_SCAN_MIN_BYTES, scanWithWorker, setScanWorkerScript } from '../build/release/parallel-scan.js';
import { loadProject } from '../build/project/load.js';

const SUPPORT = new URL('./support/', import.meta.url);
// The worker whatever the machine and its load (unset, it runs only when two cores are idle).
process.env.PLATFORM_EXT_SCAN_WORKER = '1';
const encoder = new TextEncoder();
const MANIFEST = {
  schema_version: 1,
  protocol_version: 1,
  namespace: 'acme/scan-test',
  version: '1.0.0',
  name: 'Scan test',
  entrypoint: 'index.html',
  capabilities: [],
  properties: {},
};
const KEY_MARKER = PRIVATE_KEY_MARKERS[0];

/**
 * A bundle (path -> text or bytes) whose scans find many things, several of them per file,
 * with references that only a module or a stylesheet makes (so `used` must travel back),
 * near-miss letter case (the listing order decides the suggestion), more than the per-rule
 * cap of findings in one file, and `pad` extra bytes of modules.
 */
function findingsBundle(pad = 0) {
  const files = {
    'index.html': '<!doctype html><html><head><meta charset="utf-8"><title>t</title><link rel="stylesheet" href="css/a.css"><script type="module" src="js/main.js"></script></head><body></body></html>\n',
    'js/main.js': [
      "import { util } from './lib/util.js';",
      "import './Lib/Util.js';",
      "import x from 'lodash';",
      "import y from 'https://cdn.example.com/y.js';",
      "import z from '../../up.js';",
      "fetch('/api'); window.fetch('/b'); navigator.sendBeacon('/c', 1); new WebSocket('ws://d');",
      "localStorage.setItem('a', '1'); document.cookie = 'a=1'; eval('1'); setTimeout('f()', 1);",
      "location = 'https://elsewhere.example/'; top.location.href = '/'; new RTCPeerConnection();",
      "const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789AB';",
      'import(name);',
      '',
    ].join('\n'),
    'js/lib/util.js': "export const util = 1;\nsessionStorage.clear();\nconst s = 'unterminated\n",
    'js/orphan.mjs': `${'fetch(1);\n'.repeat(150)}`,
    'js/broken.js': 'let a = (1;\n/* open comment\n',
    'css/a.css': [
      '@import url("https://fonts.example.com/f.css");',
      '@import "data:text/css,a{}";',
      '.a { background: url(http://x.example/a.png); }',
      '.b { background: url("/root.png"); }',
      '.c { background: url(../../../up.png); }',
      '.d { background: url(missing.png) }',
      '.e { background: url(../img/Logo.PNG) }',
      '@font-face { font-family: f; src: url(data:font/woff2;base64,AAAA); }',
      '.f { background: url(bad url.png); }',
      '.g { background-image: image-set("missing2.png" 1x); }',
      '',
    ].join('\n'),
    'css/b.css': `${'.x { background: url(nothere.png) }\n'.repeat(120)}`,
    'img/logo.png': Uint8Array.from([0x89, 0x50, 0x4e, 0x47, ...encoder.encode(`junk ${KEY_MARKER} junk`)]),
  };
  for (let i = 0; pad > 0; i++) {
    const chunk = `export function f${i}(a, b) { return a.map((x) => x * b).filter(Boolean); }\n`.repeat(2000);
    files[`js/pad/p${i}.js`] = chunk;
    files['js/main.js'] += `import './pad/p${i}.js';\n`;
    pad -= chunk.length;
  }
  return files;
}

function entriesOf(files) {
  return Object.entries(files)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, content]) => {
      const bytes = typeof content === 'string' ? encoder.encode(content) : content;
      return { path, kind: 'file', size: bytes.length, content: bytes };
    });
}

const manifestBytes = encoder.encode(JSON.stringify(MANIFEST));

/** Every file with content scanned as another thread would: scanBundleFile against the listing. */
function scansOf(entries, keep = () => true) {
  const view = bundleViewOf(bundleFilePaths(entries));
  const scans = new Map();
  for (const e of entries) if (e.content !== undefined && keep(e.path)) scans.set(e.path, scanBundleFile(e.path, e.content, view));
  return scans;
}

test('validateProject with scans made elsewhere reports exactly what it reports alone, in order', () => {
  const entries = entriesOf(findingsBundle());
  const alone = validateProject({ manifest: manifestBytes, files: entries }, { bundlePrefix: 'runtime/' });
  const rules = new Set(alone.findings.map((f) => f.rule));
  // The fixture reaches what matters here: module and stylesheet findings, caps, `used` from
  // a module (lib/util.js is referenced only by main.js), the listing's key finding.
  for (const rule of ['js/network-api', 'js/missing-module', 'js/syntax-error', 'css/missing-reference', 'css/remote-url', 'secret/access-token', 'secret/private-key', 'bundle/unreferenced-module']) {
    assert.ok(rules.has(rule), rule);
  }
  assert.ok(!alone.findings.some((f) => f.rule === 'bundle/unreferenced-module' && f.file === 'runtime/js/lib/util.js'));
  for (const keep of [() => true, (p) => p.endsWith('.js'), (p) => p.endsWith('.css'), () => false]) {
    const withScans = validateProject({ manifest: manifestBytes, files: entries, scans: scansOf(entries, keep) }, { bundlePrefix: 'runtime/' });
    assert.deepEqual(withScans, alone);
  }
});

test('scanBundleFile: the findings and references of one file, which validateProject puts back', () => {
  const entries = entriesOf(findingsBundle());
  const view = bundleViewOf(bundleFilePaths(entries));
  const main = entries.find((e) => e.path === 'js/main.js');
  const scan = scanBundleFile(main.path, main.content, view);
  assert.deepEqual(scan.used, ['js/lib/util.js']);
  assert.ok(scan.findings.every((f) => f.file === 'js/main.js'));
  assert.ok(scan.findings.some((f) => f.rule === 'js/missing-module' && /letter case/.test(f.message)));
  // A scan that found nothing else still counts: without main.js's `used`, util.js would be unreferenced.
  const scans = scansOf(entries);
  scans.set('js/main.js', { findings: scan.findings, used: [] });
  const result = validateProject({ manifest: manifestBytes, files: entries, scans }, { bundlePrefix: 'runtime/' });
  assert.ok(result.findings.some((f) => f.rule === 'bundle/unreferenced-module' && f.file === 'runtime/js/lib/util.js'));
});

/** The scans by path, as plain data (for comparing a worker's with this thread's). */
function plain(scans) {
  return Object.fromEntries([...scans].sort(([a], [b]) => (a < b ? -1 : 1)));
}

for (const [worker, what] of [
  ['scan-worker.mjs', 'a worker gives the same scans as this thread'],
  ['scan-worker-failing.mjs', 'a worker that gives up leaves every file to this thread'],
  ['scan-worker-refusing.mjs', 'a worker that posts no scan leaves those files to this thread'],
]) {
  test(`scanWithWorker: ${what}`, () => {
    setScanWorkerScript(new URL(worker, SUPPORT));
    const entries = entriesOf(findingsBundle(256 * 1024));
    const files = entries.map((e) => ({ path: e.path, content: e.content }));
    const launched = launchScanWorker();
    assert.notEqual(launched, null);
    const scans = scanWithWorker(launched, files, bundleFilePaths(entries));
    const expected = scansOf(entries, (p) => /\.(css|m?js)$/.test(p));
    assert.deepEqual(plain(scans), plain(expected));
    const alone = validateProject({ manifest: manifestBytes, files: entries }, { bundlePrefix: 'runtime/' });
    assert.deepEqual(validateProject({ manifest: manifestBytes, files: entries, scans }, { bundlePrefix: 'runtime/' }), alone);
  });
}

test('no worker with PLATFORM_EXT_SCAN_WORKER=0, always one with =1', (t) => {
  setScanWorkerScript(new URL('scan-worker.mjs', SUPPORT));
  t.after(() => (process.env.PLATFORM_EXT_SCAN_WORKER = '1'));
  process.env.PLATFORM_EXT_SCAN_WORKER = '0';
  assert.equal(launchScanWorker(), null);
  process.env.PLATFORM_EXT_SCAN_WORKER = '1';
  const launched = launchScanWorker();
  assert.notEqual(launched, null);
  launched.dispose();
});

/** Writes `files` (bundle paths) as a project folder; returns its path. */
function writeProject(t, files) {
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-scan-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(MANIFEST, null, 2));
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, 'runtime', path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return dir;
}

test('loadProject with parallelScan: the scans come back in input.scans and change no finding', (t) => {
  setScanWorkerScript(new URL('scan-worker.mjs', SUPPORT));
  const dir = writeProject(t, findingsBundle(PARALLEL_SCAN_MIN_BYTES + 1024));
  const parallel = loadProject(dir, { parallelScan: true });
  const alone = loadProject(dir);
  assert.ok(parallel.input.scans instanceof Map && parallel.input.scans.size > 0, 'the worker was used');
  assert.equal(alone.input.scans, undefined);
  assert.deepEqual(
    validateProject(parallel.input, { bundlePrefix: 'runtime/' }),
    validateProject(alone.input, { bundlePrefix: 'runtime/' }),
  );
  // Below the threshold no worker is started.
  const small = writeProject(t, findingsBundle());
  assert.equal(loadProject(small, { parallelScan: true }).input.scans, undefined);
});

test('validateRelease with scanContents reports exactly what it reports alone', () => {
  const entries = entriesOf(findingsBundle());
  const zip = craftZip(entries.map((e) => ({ name: e.path, data: e.content, external: 0o100644 * 0x10000 })));
  const files = { 'bundle.zip': zip, 'manifest.json': manifestBytes, 'publisher-public-key.txt': null, 'signature.txt': null, 'submission.json': null };
  const alone = validateRelease({ files, otherNames: [] }, NODE_RELEASE_DEPS);
  let asked = 0;
  const elsewhere = validateRelease({ files, otherNames: [] }, { ...NODE_RELEASE_DEPS, scanContents: (read) => (asked++, scansOf(read)) });
  assert.equal(asked, 1);
  assert.ok(alone.findings.some((f) => f.rule === 'js/network-api' && f.file === 'bundle.zip/js/main.js'));
  assert.deepEqual(elsewhere, alone);
  // undefined: nothing was scanned elsewhere.
  assert.deepEqual(validateRelease({ files, otherNames: [] }, { ...NODE_RELEASE_DEPS, scanContents: () => undefined }), alone);
});

test('readZip: an injected CRC-32 for stored entries gives the same findings; one that fails is not trusted', () => {
  const data = encoder.encode('stored bytes');
  const good = craftZip([{ name: 'a.png', data, method: 0, external: 0o100644 * 0x10000 }]);
  const bad = craftZip([{ name: 'a.png', data, method: 0, crc: 1234, external: 0o100644 * 0x10000 }]);
  const throwing = () => {
    throw new Error('no');
  };
  for (const bytes of [good, bad]) {
    const reference = new FindingList();
    const expected = readZip(bytes, inflateRawCapped, reference);
    for (const crc32 of [zlib.crc32, throwing, () => -1, () => 'x', () => 2 ** 32]) {
      if (crc32 === undefined) continue; // node:zlib's crc32 is Node 20.15 and later
      const findings = new FindingList();
      assert.deepEqual(readZip(bytes, inflateRawCapped, findings, 'bundle.zip', { crc32 }), expected);
      assert.deepEqual(findings.items, reference.items);
    }
    assert.equal(reference.items.some((f) => f.rule === 'archive/crc-mismatch'), bytes === bad);
  }
});

/** The leftmost marker by plain string search: what findPrivateKeyMarker must answer. */
function naiveMarker(bytes) {
  const text = String.fromCharCode(...bytes);
  let best = null;
  let at = Infinity;
  for (const marker of PRIVATE_KEY_MARKERS) {
    const i = text.indexOf(marker);
    if (i >= 0 && i < at) {
      at = i;
      best = marker;
    }
  }
  return best;
}

test('findPrivateKeyMarker: the anchor search finds the leftmost marker wherever it sits (against a plain search)', () => {
  const rng = prng(20241122);
  const pieces = ['-', '--', '-----', 'BEGIN', ' ', 'N', 'PRIVATE', 'KEY', 'OPENSSH ', 'ENCRYPTED ', '-----BEGIN ', 'x', '\n', ...PRIVATE_KEY_MARKERS, ...PRIVATE_KEY_MARKERS.map((m) => m.slice(0, -1))];
  for (let i = 0; i < 3000; i++) {
    let text = '';
    const n = Math.floor(rng() * 12);
    for (let k = 0; k < n; k++) text += pieces[Math.floor(rng() * pieces.length)];
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
    assert.equal(findPrivateKeyMarker(bytes), naiveMarker(bytes), JSON.stringify(text));
  }
  for (const marker of PRIVATE_KEY_MARKERS) {
    for (const before of [0, 1, 9, 10, 11, 4096]) {
      for (const after of [0, 1, 5]) {
        const bytes = new Uint8Array(before + marker.length + after).fill(0x2d);
        bytes.set(encoder.encode(marker), before);
        assert.equal(findPrivateKeyMarker(bytes), marker, `${before} ${after}`);
        assert.equal(findPrivateKeyMarker(bytes.subarray(0, before + marker.length - 1)), null);
      }
    }
  }
});

/** The report of one CLI run, with the one-thread variant. */
function bothWays(args) {
  const env = (worker) => ({ env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', PLATFORM_EXT_SCAN_WORKER: worker } });
  const parallel = runCli(args, env('1'));
  const one = runCli(args, env('0'));
  return { parallel, one };
}

test('check and verify print the same report with the scan worker and without it', (t) => {
  // Warnings only (package refuses errors), above the threshold.
  const files = { ...findingsBundle(PARALLEL_SCAN_MIN_BYTES + 1024) };
  files['js/main.js'] = files['js/main.js']
    .split('\n')
    .filter((line) => !/^import (x|y|z) |'\.\/Lib|RTCPeer|ghp_|^import\(name\)/.test(line))
    .join('\n');
  files['index.html'] = files['index.html'].replace('<link rel="stylesheet" href="css/a.css">', '');
  for (const path of ['js/lib/util.js', 'js/orphan.mjs', 'js/broken.js', 'css/a.css', 'css/b.css', 'img/logo.png']) delete files[path];
  files['js/lib/util.js'] = 'export const util = 1;\nsessionStorage.clear();\n';
  const dir = writeProject(t, files);
  const check = bothWays(['check', '--json', dir]);
  assert.equal(check.parallel.status, 0, check.parallel.stdout + check.parallel.stderr);
  assert.ok(check.parallel.json.findings.some((f) => f.rule === 'js/network-api'));
  assert.deepEqual(check.parallel.json, check.one.json);

  const key = join(dir, '..', `${dir.split('/').pop()}-key.pem`);
  t.after(() => rmSync(key, { force: true }));
  writeFileSync(key, '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g\n-----END PRIVATE KEY-----\n', { mode: 0o600 });
  const out = join(dir, '..', `${dir.split('/').pop()}-out`);
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const packaged = runCli(['package', dir, '--out', out, '--private-key', key]);
  assert.equal(packaged.status, 0, packaged.stdout + packaged.stderr);
  const verify = bothWays(['verify', '--json', out]);
  assert.equal(verify.parallel.status, 0, verify.parallel.stdout);
  assert.ok(verify.parallel.json.findings.some((f) => f.rule === 'js/network-api'));
  assert.deepEqual(verify.parallel.json, verify.one.json);
  const review = fileURLToPath(new URL('../dist/platform-review.mjs', import.meta.url));
  const reviewed = [{ PLATFORM_EXT_SCAN_WORKER: '1' }, { PLATFORM_EXT_SCAN_WORKER: '0' }].map((extra) =>
    spawnSync(process.execPath, [review, '--json', out], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...extra } }),
  );
  assert.equal(reviewed[0].status, 0, reviewed[0].stderr);
  assert.deepEqual(JSON.parse(reviewed[0].stdout), JSON.parse(reviewed[1].stdout));
  // The same findings as verify; review adds its signer check and words hints for the operator.
  const withoutHint = (findings) => findings.map(({ hint: _hint, ...f }) => f);
  const reviewFindings = JSON.parse(reviewed[0].stdout).findings.filter((f) => f.rule !== 'release/signer-not-pinned');
  assert.deepEqual(withoutHint(reviewFindings), withoutHint(verify.parallel.json.findings));
});
