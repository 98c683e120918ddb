#!/usr/bin/env node
// Start-up and throughput of `platform-ext`, as ratios against peers run in the same
// script, alternating so that machine noise hits both sides alike (medians compared):
//   1. `platform-ext --version`            vs `node -e 0`            (bound: 1.10x)
//   2. `platform-ext check <example>`      vs `node -e 0`            (bound: 2.0x)
//      (for the record: `--help`, which loads every command, and importing
//      dist/validator.mjs alone, the largest part of what `check` loads)
//   3. `platform-ext check <200 files, 20 MiB>` vs a plain Node script that reads,
//      SHA-256-hashes and deflates (node:zlib, level 6) the same files (bound: 2x). check
//      measures the archive package would write whenever storing the files would exceed
//      the compressed limit (as here), so the peer compresses too (D-35: the same work).
//   4. (no bound, for the record) the same with a code-heavy bundle: 20 MiB of which
//      16 MiB are JavaScript and CSS, every byte lexed.
// The bundles are made of real code (see makeBundle); run `npm run build` first.
// Every line prints PASS or FAIL against its bound; the exit status is 1 when one fails.
// Children run with no NODE_COMPILE_CACHE, and with PLATFORM_EXT_NO_CODE_CACHE=1 for
// older checkouts whose launcher kept a code cache: start-up is measured without caches.
// Usage: node bench/check.mjs [runs] [--startup]   (default 11 runs per side; --startup:
//          lines 1 and 2 only)
//        node bench/check.mjs [runs] --root <checkout>   measures another built checkout's
//          dist/platform-ext.mjs (an earlier commit, for before/after) on the same bundles
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { makeBundle as makeProject } from './projects.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rootFlag = process.argv.indexOf('--root');
const cli = join(rootFlag > 0 ? process.argv[rootFlag + 1] : root, 'dist/platform-ext.mjs');
const runs = Number(process.argv[2] !== undefined && !process.argv[2].startsWith('--') ? process.argv[2] : 11);
const startupOnly = process.argv.includes('--startup');
const MiB = 1 << 20;
const childEnv = { ...process.env, PLATFORM_EXT_NO_CODE_CACHE: '1' };
delete childEnv.NODE_COMPILE_CACHE;
let failed = 0;

function time(args, env = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...childEnv, ...env } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return ms;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function compare(label, ours, peer, bound, env = {}) {
  const a = [];
  const b = [];
  time(ours, env);
  time(peer); // warm the file cache
  for (let i = 0; i < runs; i++) {
    a.push(time(ours, env));
    b.push(time(peer));
  }
  const ratio = median(a) / median(b);
  let verdict = '';
  if (bound !== undefined) {
    verdict = ratio <= bound ? `  bound ${bound.toFixed(2)}x  PASS` : `  bound ${bound.toFixed(2)}x  FAIL`;
    if (ratio > bound) failed++;
  }
  console.log(`${label.padEnd(52)} ${median(a).toFixed(1).padStart(7)} ms vs ${median(b).toFixed(1).padStart(7)} ms  ratio ${ratio.toFixed(2)}x${verdict}`);
  return ratio;
}

/** The 20 MiB project (bench/projects.mjs), made of this checkout's dist/validator.mjs. */
const makeBundle = (dir, codeBytes) => makeProject(dir, codeBytes, root);

const hashScript = join(tmpdir(), `platform-ext-bench-hash-${process.pid}.mjs`);
writeFileSync(
  hashScript,
  `import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { join } from 'node:path';
function walk(d) { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else { const b = readFileSync(p); createHash('sha256').update(b).digest('hex'); deflateRawSync(b, { level: 6 }); } } }
walk(process.argv[2]);
`,
);

const work = mkdtempSync(join(tmpdir(), 'platform-ext-bench-'));
try {
  console.log(`node ${process.version}, ${runs} runs per side, medians (bench/check.mjs), ${cli}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const example = join(root, 'examples/hello-world');
  compare('platform-ext --version / node -e 0', [cli, '--version'], ['-e', '0'], 1.1);
  compare('check example / node -e 0', [cli, 'check', example], ['-e', '0'], 2.0);
  // For the record: --version is answered by the launcher before the CLI loads; --help
  // loads every command's chunk; the validator is most of what `check` loads.
  compare('platform-ext --help / node -e 0', [cli, '--help'], ['-e', '0']);
  compare('import dist/validator.mjs / node -e 0', [join(dirname(dirname(cli)), 'dist/validator.mjs')], ['-e', '0']);
  if (!startupOnly) {
    const typical = join(work, 'typical');
    makeBundle(typical, 2 * MiB);
    compare('check 200 files 20 MiB (2 MiB code) / read+sha256+deflate', [cli, 'check', typical], [hashScript, join(typical, 'runtime')], 2);
    const heavy = join(work, 'heavy');
    makeBundle(heavy, 16 * MiB);
    compare('check 200 files 20 MiB (16 MiB code) / read+sha256+deflate', [cli, 'check', heavy], [hashScript, join(heavy, 'runtime')]);
    const report = JSON.parse(execFileSync(process.execPath, [cli, 'check', typical, '--json'], { encoding: 'utf8' }));
    console.log(`(the typical bundle checks with ${report.errors} errors and ${report.warnings} warnings)`);
    void createHash;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  rmSync(hashScript, { force: true });
}
if (failed > 0) process.exitCode = 1;
