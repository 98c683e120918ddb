#!/usr/bin/env node
// `platform-ext verify` against its peer (D-35): verify does two jobs, reading the archive
// and checking its contents, so the peer is `check` of the same project plus `unzip -tq` of
// the same bundle.zip, at most 1.1x; on bench/package.mjs's ~20 MiB project. Processes
// alternate, so machine noise hits every side alike; medians are compared.
//
// Also printed: the floor under verify, measured in one process here: Node's start
// (`node -e 0`), inflating every entry with node:zlib, the SHA-256 of the archive, and
// the content scan (validateProject on the inflated entries, one thread, cold) from
// build/. verify cannot be faster than start + inflate + hash; the rest is the scan.
//
// Usage: node scripts/build.mjs && node bench/verify.mjs [runs]   (default 11; medians)
//        node bench/verify.mjs [runs] --root <checkout>   measures another built checkout
//          (its dist/ and build/) on the same project, made from this checkout
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rootFlag = process.argv.indexOf('--root');
const tested = rootFlag > 0 ? process.argv[rootFlag + 1] : root;
const cli = join(tested, 'dist/platform-ext.mjs');
const runs = Number(process.argv[2] !== undefined && !process.argv[2].startsWith('--') ? process.argv[2] : 11);

// D-14's test key (the Ed25519 seed 0x01..0x20): a bench needs a key, not a secret.
const KEY_PEM = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g\n-----END PRIVATE KEY-----\n';

if (process.argv[2] === '--floor-child') {
  await floorChild(process.argv[3], process.argv[4]);
  process.exit(0);
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(command, args, env = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

/** Runs every side `runs` times, alternating (the order turns each round); returns medians by label. */
function alternate(sides) {
  const times = sides.map(() => []);
  for (const side of sides) time(...side.run); // warm the file cache
  for (let i = 0; i < runs; i++) {
    const order = sides.map((_, k) => k);
    if (i % 2 === 1) order.reverse();
    for (const k of order) times[k].push(time(...sides[k].run));
  }
  return sides.map((side, k) => ({ label: side.label, ms: median(times[k]) }));
}

function line(label, ms, peer, bound) {
  const ratio = peer === undefined ? '' : `  ${(ms / peer).toFixed(2)}x${bound === undefined ? '' : ms / peer <= bound ? `  PASS (at most ${bound}x)` : `  FAIL (at most ${bound}x)`}`;
  console.log(`${label.padEnd(46)} ${ms.toFixed(1).padStart(7)} ms${ratio}`);
}

/** One cold process: the pieces of verify's work, timed separately (see the header). */
async function floorChild(out, buildDir) {
  const t0 = performance.now();
  const { inflateRawSync, crc32 } = await import('node:zlib');
  const { createHash } = await import('node:crypto');
  const { readZip } = await import(pathToFileURL(join(buildDir, 'validator/zip/read.js')).href);
  const { FindingList } = await import(pathToFileURL(join(buildDir, 'validator/findings.js')).href);
  const { validateProject } = await import(pathToFileURL(join(buildDir, 'validator/validate.js')).href);
  const tImport = performance.now();
  const zip = readFileSync(join(out, 'bundle.zip'));
  const manifest = readFileSync(join(out, 'manifest.json'));
  const tRead = performance.now();
  // Inflate alone, as unzip does it (node:zlib, no checks beyond zlib's own).
  const inflate = (compressed, size) => {
    const data = inflateRawSync(compressed, { maxOutputLength: size + 1, chunkSize: Math.max(size + 1, 64), info: true });
    return { ok: true, data: data.buffer, crc32: crc32?.(data.buffer) };
  };
  const read = readZip(zip, inflate, new FindingList());
  const tInflate = performance.now();
  createHash('sha256').update(zip).digest('hex');
  const tHash = performance.now();
  const result = validateProject({ manifest, files: read.entries }, { bundlePrefix: 'bundle.zip/' });
  const tScan = performance.now();
  process.stdout.write(
    JSON.stringify({
      import: tImport - t0,
      read: tRead - tImport,
      inflate: tInflate - tRead,
      hash: tHash - tInflate,
      scan: tScan - tHash,
      findings: result.findings.length,
    }),
  );
}

const work = mkdtempSync(join(tmpdir(), 'platform-ext-verify-bench-'));
try {
  const project = join(work, 'project');
  const out = join(work, 'out');
  const key = join(work, 'key.pem');
  spawnSync(process.execPath, [join(root, 'bench/package.mjs'), '--make', project], { stdio: 'inherit' });
  writeFileSync(key, KEY_PEM, { mode: 0o600 });
  const packaged = spawnSync(process.execPath, [cli, 'package', project, '--out', out, '--private-key', key], { encoding: 'utf8' });
  if (packaged.status !== 0) throw new Error(`package failed: ${packaged.stdout}${packaged.stderr}`);
  const zip = join(out, 'bundle.zip');
  console.log(`bench/verify.mjs: ${runs} runs per side, medians; ${readFileSync(zip).length} bytes of bundle.zip`);

  const results = alternate([
    { label: 'node -e 0', run: [process.execPath, ['-e', '0']] },
    { label: 'unzip -tq bundle.zip', run: ['unzip', ['-tq', zip]] },
    { label: 'platform-ext verify', run: [process.execPath, [cli, 'verify', out]] },
    { label: 'platform-ext check', run: [process.execPath, [cli, 'check', project]] },
  ]);
  const [node0, unzip, verify, check] = results;
  line(node0.label, node0.ms);
  line(unzip.label, unzip.ms);
  line(`${check.label} vs node -e 0`, check.ms, node0.ms);
  line(`${verify.label} vs check + unzip -tq`, verify.ms, check.ms + unzip.ms, 1.1);
  if (verify.ms / (check.ms + unzip.ms) > 1.1) process.exitCode = 1;
  console.log(`load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')} on ${(await import('node:os')).cpus().length} cores`);

  // The floor: the pieces of verify's work in one cold process each, medians.
  const pieces = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--floor-child', out, join(tested, 'build')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`floor child failed: ${r.stderr}`);
    pieces.push(JSON.parse(r.stdout));
  }
  const m = (key) => median(pieces.map((p) => p[key]));
  console.log('floor, one cold process (build/, one thread):');
  console.log(`  node start ${node0.ms.toFixed(1)} ms, read ${m('read').toFixed(1)} ms, inflate + CRC ${m('inflate').toFixed(1)} ms, SHA-256 ${m('hash').toFixed(1)} ms, content scan ${m('scan').toFixed(1)} ms`);
  const floor = node0.ms + m('read') + m('inflate') + m('hash');
  line('  start + read + inflate + hash (no scan)', floor, unzip.ms);
  line('  ... + the content scan on one thread', floor + m('scan'), unzip.ms);
} finally {
  rmSync(work, { recursive: true, force: true });
}
