// check, package --dry-run, package and verify never disagree: over seeded random
// projects, with sizes near every bundle limit (file count, file size, expanded and
// compressed totals), incompressible and highly compressible content, long namespaces and
// versions, the four give the same verdict, and the size rules they report are the same.
// PROPERTY_RUNS sets the number of projects (default 2,000 in CI, 300 elsewhere); PROPERTY_SEED
// the seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkProject, packageProject, verifyRelease } from '../../build/api.js';
import * as L from '../../build/validator/limits.js';
import { pick, prng } from '../support/fuzz.mjs';

const RUNS = Number(process.env.PROPERTY_RUNS ?? (process.env.CI === 'true' ? 2000 : 300));
const SEED = Number(process.env.PROPERTY_SEED ?? 0x5eed16);

/** The rules about the bundle's size, which each side must report alike. */
const SIZE_RULES = ['archive/compressed-too-large', 'bundle/file-too-large', 'bundle/expanded-too-large', 'bundle/too-many-files'];

const MIB = 1024 * 1024;

function int(rng, lo, hi) {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

/** A slug of the namespace grammar: a letter, then letters and digits with single hyphens between groups. */
function slug(rng, length) {
  let out = String.fromCharCode(97 + int(rng, 0, 25));
  while (out.length < length) {
    const c = rng() < 0.1 && out.length < length - 1 && !out.endsWith('-') ? '-' : pick(rng, 'abcdefghijklmnopqrstuvwxyz0123456789');
    out += c;
  }
  return out;
}

function version(rng) {
  const core = `${int(rng, 0, 20)}.${int(rng, 0, 99)}.${int(rng, 0, 999)}`;
  if (rng() < 0.7) return core;
  const ids = [];
  const count = rng() < 0.2 ? int(rng, 50, 400) : int(rng, 1, 4);
  for (let k = 0; k < count; k++) ids.push(rng() < 0.5 ? `rc${int(rng, 0, 99)}` : String.fromCharCode(97 + int(rng, 0, 25)).repeat(int(rng, 1, 30)));
  return `${core}-${ids.join('.')}`;
}

/** Content of `size` bytes: random (incompressible), zeros, or repetitive text. */
function content(rng, size, kind) {
  const bytes = Buffer.alloc(size);
  if (kind === 'random') {
    for (let k = 0; k + 4 <= size; k += 4) bytes.writeUInt32LE((rng() * 0x1_0000_0000) >>> 0, k);
    for (let k = size - (size % 4); k < size; k++) bytes[k] = Math.floor(rng() * 256);
  } else if (kind === 'text') {
    const line = Buffer.from('lorem ipsum dolor sit amet, consectetur adipiscing elit\n');
    for (let k = 0; k < size; k += line.length) line.copy(bytes, k, 0, Math.min(line.length, size - k));
  }
  return bytes;
}

/**
 * The bundle's extra files (besides index.html) for one project: mostly small, sometimes
 * set just under or over a limit.
 */
function files(rng) {
  const near = (limit) => limit + int(rng, -2, 1); // limit-2 .. limit+1
  switch (int(rng, 0, 99)) {
    case 0: // the file count: 199, 200, 201 files in all
      return Array.from({ length: near(L.BUNDLE_MAX_FILES) - 1 + (rng() < 0.5 ? 0 : 1) }, (_, k) => ({ path: `img/f${k}.png`, size: int(rng, 0, 64), kind: 'zero' }));
    case 1: // one file at the per-file limit, compressible
      return [{ path: 'img/big.png', size: near(L.BUNDLE_MAX_FILE_BYTES), kind: pick(rng, ['zero', 'text']) }];
    case 2: {
      // Expanded total within a few bytes of the limit, either side (index.html adds its 101), with compressible files.
      const last = int(rng, 2048 - 101 - 3, 2048 - 101 + 2);
      return Array.from({ length: 4 }, (_, k) => ({ path: `img/z${k}.png`, size: L.BUNDLE_MAX_EXPANDED_BYTES / 4 - (k === 0 ? 2048 : 0) + (k === 3 ? last : 0), kind: 'zero' }));
    }
    case 3:
    case 4: {
      // Compressed total near the limit: incompressible content within a few KiB of it
      // (zeros no longer reach it: D-41 keeps even 5 MiB of them within ratio 100).
      const first = int(rng, 2 * MIB, L.BUNDLE_MAX_FILE_BYTES - 8192);
      return [
        { path: 'img/r1.png', size: first, kind: 'random' },
        { path: 'img/r2.png', size: Math.max(0, L.BUNDLE_MAX_COMPRESSED_BYTES - first + int(rng, -8192, 4096)), kind: 'random' },
      ];
    }
    default: {
      const count = int(rng, 0, 6);
      return Array.from({ length: count }, (_, k) => ({ path: `${pick(rng, ['img', 'media', 'a/b'])}/f${k}.${pick(rng, ['png', 'webp', 'css', 'woff2'])}`, size: int(rng, 0, 4096), kind: pick(rng, ['random', 'zero', 'text']) }));
    }
  }
}

function writeProject(dir, rng) {
  const longNamespace = rng() < 0.1;
  const namespace = `${slug(rng, longNamespace ? int(rng, 100, 12_000) : int(rng, 1, 20))}/${slug(rng, longNamespace ? int(rng, 100, 12_000) : int(rng, 1, 20))}`;
  const manifest = {
    schema_version: 1,
    protocol_version: 1,
    namespace,
    version: version(rng),
    name: 'Property',
    entrypoint: 'index.html',
    capabilities: [],
    properties: {},
  };
  mkdirSync(join(dir, 'runtime'), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'runtime/index.html'), '<!doctype html><html><head><meta charset="utf-8"><title>p</title></head><body><p>p</p></body></html>\n');
  let total = 0;
  for (const file of files(rng)) {
    mkdirSync(join(dir, 'runtime', file.path, '..'), { recursive: true });
    writeFileSync(join(dir, 'runtime', file.path), content(rng, file.size, file.kind));
    total += file.size;
  }
  return { manifest, total };
}

function sizeRules(report) {
  return [...new Set(report.findings.filter((f) => f.severity === 'error' && SIZE_RULES.includes(f.rule)).map((f) => f.rule))].sort();
}

test(`check, package --dry-run, package and verify agree on ${RUNS} random projects near every size limit`, async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'platform-ext-agree-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const { privateKey } = generateKeyPairSync('ed25519');
  const key = join(root, 'signing.pem');
  writeFileSync(key, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  const rng = prng(SEED);
  const seen = { ok: 0, refused: 0, rules: new Set() };
  for (let run = 0; run < RUNS; run++) {
    const dir = join(root, `p${run}`);
    const out = join(root, `out${run}`);
    const { manifest } = writeProject(dir, rng);
    const label = `project ${run} (seed ${SEED}): ${manifest.namespace.length}-character namespace, version of ${manifest.version.length}`;
    const check = await checkProject(dir);
    const dry = await packageProject(dir, { dryRun: true });
    const packaged = await packageProject(dir, { out, privateKey: key });
    assert.equal(dry.ok, check.ok, `${label}: package --dry-run agrees with check`);
    assert.equal(packaged.ok, check.ok, `${label}: package agrees with check`);
    assert.deepEqual(sizeRules(dry.report), sizeRules(check), `${label}: the same size rules`);
    if (packaged.written) {
      const verified = await verifyRelease(out);
      assert.equal(verified.ok, true, `${label}: verify accepts what package wrote: ${JSON.stringify(verified.findings.slice(0, 3))}`);
      assert.equal(dry.compressedBytes, packaged.compressedBytes, `${label}: the dry run measures the written archive`);
    }
    if (check.ok) seen.ok++;
    else seen.refused++;
    for (const rule of sizeRules(check)) seen.rules.add(rule);
    rmSync(dir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
  // The generator reaches both verdicts and every size rule, or the property says little.
  if (RUNS >= 300) {
    assert.ok(seen.ok > RUNS / 2 && seen.refused > 0, JSON.stringify({ ok: seen.ok, refused: seen.refused }));
    assert.deepEqual([...seen.rules].sort(), [...SIZE_RULES].sort());
  }
});

test('check: archive/compressed-too-large on both sides of the limit, measured as package writes the archive', async (t) => {
  const { archiveSize } = await import('../../build/zip/archive-size.js');
  const root = mkdtempSync(join(tmpdir(), 'platform-ext-compressed-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const html = Buffer.from('<!doctype html><html><head><meta charset="utf-8"><title>p</title></head><body><p>p</p></body></html>\n');
  const rng = prng(16);
  // Random bytes do not deflate, so they are stored: the archive grows byte for byte with them.
  const noise = content(rng, L.BUNDLE_MAX_COMPRESSED_BYTES, 'random');
  const { compressEntry } = await import('../../build/zip/compress-entry.js');
  const files = (size) => [{ path: 'index.html', content: html }, { path: 'img/noise.png', content: noise.subarray(0, size) }];
  // The archive with no noise, as package writes it: headers, names, the deflated HTML, the end record.
  const base = archiveSize(files(0)).bytes - html.length + compressEntry(html).data.length;
  assert.ok(compressEntry(html).data.length < html.length, 'the HTML is deflated, so storing all would overshoot: check must compress');
  const rows = [
    // [noise bytes, archive bytes, refused]
    [L.BUNDLE_MAX_COMPRESSED_BYTES - base - 1, L.BUNDLE_MAX_COMPRESSED_BYTES - 1, false],
    [L.BUNDLE_MAX_COMPRESSED_BYTES - base, L.BUNDLE_MAX_COMPRESSED_BYTES, false],
    [L.BUNDLE_MAX_COMPRESSED_BYTES - base + 1, L.BUNDLE_MAX_COMPRESSED_BYTES + 1, true],
  ];
  for (const [size, archive, refused] of rows) {
    const dir = join(root, `p${size}`);
    mkdirSync(join(dir, 'runtime/img'), { recursive: true });
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ schema_version: 1, protocol_version: 1, namespace: 'acme/size', version: '1.0.0', name: 'Size', entrypoint: 'index.html', capabilities: [], properties: {} }));
    writeFileSync(join(dir, 'runtime/index.html'), html);
    writeFileSync(join(dir, 'runtime/img/noise.png'), noise.subarray(0, size));
    const check = await checkProject(dir);
    const found = check.findings.filter((f) => f.rule === 'archive/compressed-too-large');
    assert.deepEqual(found.map((f) => [f.severity, f.file]), refused ? [['error', 'runtime/']] : [], `archive of ${archive} bytes`);
    const dry = await packageProject(dir, { dryRun: true });
    assert.equal(dry.ok, !refused, `package --dry-run agrees at ${archive} bytes`);
    if (!refused) assert.equal(dry.compressedBytes, archive, 'check measured the archive package builds');
  }
});
