#!/usr/bin/env node
// Speed of the JavaScript module scanner (checkJsModule, src/validator/js/), cold and warm.
//   node bench/scan-speed-js.mjs [runs=9] [--baseline <dir|file.mjs>] [--bundle] [--only <input>]
// Cold: `platform-ext check` runs in a fresh process, so V8 has not warmed up when it
// scans; every cold figure is one checkJsModule call in a fresh child process (this
// file again, with --child), median of `runs` children. Warm: one child scans the same
// input `runs` + 5 times in-process and reports the median of the last `runs`.
// --baseline <dir|file.mjs>: also measure another build of the validator (a copy of
// build/validator taken before a change, or a bundle exporting checkJsModule, FindingList
// and bundleViewOf), alternating child processes so that machine noise hits both alike,
// and check that both builds report the same findings for every input.
// --bundle: measure the current sources as esbuild bundles them for the CLI (one minified
// module, as in dist/cli/) instead of build/validator's file-by-file output,
// which is what `check` really runs (cold figures differ a little between the two).
// Cold figures move with machine load: V8 compiles on background threads, which compete
// with the scan on a busy machine; compare builds in one run, never across runs.
// Inputs: real code (copies of dist/validator.mjs; run `node scripts/build.mjs` once, and
// `node scripts/build.mjs --transpile-only` before measuring), its esbuild-minified form
// when esbuild is installed, and synthetic modules heavy in comments, strings and
// templates, and in imports and API names. Never part of `npm test`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1 << 20;
/** Size of each input: about what bench/check.mjs feeds one fresh `check` process in its typical bundle. */
const INPUT_BYTES = 1.6 * MiB;
const WARMUP = 5;
/** Paths every input may import, so real imports resolve and report nothing. */
const FILES = ['main.js', 'lib/a.js', 'lib/b.mjs', 'lazy.js'];

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4], process.argv[5], Number(process.argv[6]));
else await main();

// ===== child: one measurement in a fresh process ============================

async function child(validator, inputFile, mode, runs) {
  const bytes = readFileSync(inputFile);
  let checkJsModule, FindingList, bundleViewOf;
  if (validator.endsWith('.mjs')) {
    ({ checkJsModule, FindingList, bundleViewOf } = await import(pathToFileURL(validator).href));
  } else {
    const base = pathToFileURL(validator + '/').href;
    ({ checkJsModule } = await import(base + 'js/js-policy.js'));
    ({ FindingList } = await import(base + 'findings.js'));
    ({ bundleViewOf } = await import(base + 'scan.js'));
  }
  const view = bundleViewOf(FILES);
  const once = () => {
    const list = new FindingList();
    const t0 = process.hrtime.bigint();
    checkJsModule('main.js', bytes, view, list);
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, list };
  };
  if (mode === 'cold') {
    const { ms, list } = once();
    const digest = createHash('sha256').update(JSON.stringify(list.items)).digest('hex').slice(0, 12);
    process.stdout.write(JSON.stringify({ ms, findings: list.items.length, digest }));
    return;
  }
  const times = [];
  for (let i = 0; i < WARMUP + runs; i++) {
    const { ms } = once();
    if (i >= WARMUP) times.push(ms);
  }
  process.stdout.write(JSON.stringify({ ms: median(times) }));
}

// ===== parent ===============================================================

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function repeatTo(text, size, separator = '\n') {
  const parts = [];
  let length = 0;
  while (length < size) {
    parts.push(text);
    length += text.length + separator.length;
  }
  return parts.join(separator);
}

/** Synthetic module: JSDoc, line comments, strings with escapes, templates with substitutions. */
function commentsAndStrings() {
  const chunk = [
    '/**',
    ' * Formats a message for the report. The text says what was wrong and how to fix it;',
    " * values are quoted, e.g. 'import x from \"./a.js\"' or `fetch(url)`: none of this is code.",
    ' * @param {string} file the bundle path',
    ' */',
    'export function format(file, line, column) {',
    "  // The message is built from pieces so that it reads well in both renderings.",
    "  const head = 'In \"' + file + '\" at line ' + line + \", column \" + column + ':\\n';",
    '  const body = `  ${file}:${line}:${column} \\u2014 ${head.trim()} (see \\`docs\\`)\\n`;',
    "  const esc = \"tab\\there, quote \\\" and backslash \\\\ and unicode \\u00e9\\x41\";",
    '  return head + body + esc; // done',
    '}',
    '',
  ].join('\n');
  return repeatTo(chunk, INPUT_BYTES);
}

/** Synthetic module: what the policy looks at closely (imports, exports, watched API names, keywords as keys). */
function importsAndApis() {
  const chunk = [
    "import { a, b as c } from './lib/a.js';",
    "import * as ns from './lib/b.mjs';",
    "export { a as default } from './lib/a.js';",
    "const lazy = await import('./lazy.js');",
    'const o = { fetch: 1, import() { return this.x / 2 }, get from() { return c ?? ns.d } };',
    'function load(u) { if (!u) return null; return window.setTimeout(() => o.fetch + a(u), 10); }',
    'class Store extends Map { static #n = 0; get size() { return Store.#n } set(k, v) { return super.set(k, v) } }',
    'for (const [k, v] of Object.entries(o)) { switch (typeof v) { case "number": continue; default: break } }',
    // Findings (capped per rule): the baseline comparison checks that they stay the same.
    "fetch(u); navigator.sendBeacon(u); eval(s); localStorage.x = 1; import('./missing.js'); import(name);",
    '',
  ].join('\n');
  return repeatTo(chunk, INPUT_BYTES);
}

async function makeInputs(dir) {
  const real = readFileSync(join(root, 'dist/validator.mjs'), 'utf8');
  const inputs = [['real (dist/validator.mjs copies)', repeatTo(real, INPUT_BYTES)]];
  try {
    const { transformSync } = await import('esbuild');
    const minified = transformSync(real, { minify: true, format: 'esm', target: 'es2022' }).code;
    inputs.push(['real, minified by esbuild', repeatTo(minified, INPUT_BYTES)]);
  } catch {
    // esbuild is a dev dependency; without it the minified row is skipped.
  }
  inputs.push(['synthetic: comments, strings, templates', commentsAndStrings()]);
  inputs.push(['synthetic: imports, exports, API names', importsAndApis()]);
  return inputs.map(([name, text], i) => {
    const file = join(dir, `input-${i}.js`);
    writeFileSync(file, text);
    return { name, file, bytes: Buffer.byteLength(text) };
  });
}

function runChild(validatorDir, file, mode, runs) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', validatorDir, file, mode, String(runs)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The current validator as one minified module, the way the CLI bundle holds it. */
async function bundleCurrent(dir) {
  const { build } = await import('esbuild');
  const entry = join(dir, 'bundle-entry.ts');
  const src = join(root, 'src/validator');
  writeFileSync(
    entry,
    `export { checkJsModule } from ${JSON.stringify(join(src, 'js/policy.ts'))};\n` +
      `export { FindingList } from ${JSON.stringify(join(src, 'findings.ts'))};\n` +
      `export { bundleViewOf } from ${JSON.stringify(join(src, 'scan.ts'))};\n`,
  );
  const outfile = join(dir, 'current.mjs');
  await build({ entryPoints: [entry], bundle: true, format: 'esm', target: 'node20', platform: 'neutral', minify: true, legalComments: 'none', outfile, logLevel: 'error' });
  return outfile;
}

function parseArgs(argv) {
  const options = { runs: 9, baseline: null, only: null, bundle: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--baseline') options.baseline = resolve(argv[++i]);
    else if (argv[i] === '--only') options.only = argv[++i];
    else if (argv[i] === '--bundle') options.bundle = true;
    else options.runs = Number(argv[i]);
  }
  if (!(options.runs >= 1)) throw new Error('usage: node bench/scan-speed-js.mjs [runs] [--baseline <dir|file.mjs>] [--bundle] [--only <input>]');
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const work = mkdtempSync(join(tmpdir(), 'scan-speed-js-'));
  let mismatches = 0;
  try {
    const current = options.bundle ? await bundleCurrent(work) : join(root, 'build/validator');
    const builds = options.baseline === null ? [['current', current]] : [['baseline', options.baseline], ['current', current]];
    const inputs = (await makeInputs(work)).filter((input) => options.only === null || input.name.includes(options.only));
    console.log(`node ${process.version}; ${options.runs} runs; cold = one checkJsModule call in a fresh process; MiB/s = UTF-8 input MiB per second (medians)`);
    console.log(builds.map(([name, path]) => `${name}: ${path}`).join('\n'));
    for (const input of inputs) {
      const cold = builds.map(() => []);
      const digests = builds.map(() => new Set());
      let findings = 0;
      for (let i = 0; i < options.runs; i++) {
        // Alternate the builds so that a noisy moment hits both.
        builds.forEach(([, dir], b) => {
          const r = runChild(dir, input.file, 'cold', 1);
          cold[b].push(r.ms);
          digests[b].add(r.digest);
          findings = r.findings;
        });
      }
      const warm = builds.map(([, dir]) => runChild(dir, input.file, 'warm', options.runs).ms);
      const mib = input.bytes / MiB;
      console.log(`\n${input.name}: ${mib.toFixed(2)} MiB, ${findings} findings`);
      builds.forEach(([name], b) => {
        const c = median(cold[b]);
        const w = warm[b];
        console.log(`  ${name.padEnd(9)} cold ${c.toFixed(1).padStart(7)} ms ${(mib / (c / 1000)).toFixed(1).padStart(6)} MiB/s   warm ${w.toFixed(1).padStart(7)} ms ${(mib / (w / 1000)).toFixed(1).padStart(6)} MiB/s`);
      });
      if (builds.length === 2) {
        const speedup = (b) => (b === 'cold' ? median(cold[0]) / median(cold[1]) : warm[0] / warm[1]);
        console.log(`  speed-up  cold ${speedup('cold').toFixed(2)}x   warm ${speedup('warm').toFixed(2)}x`);
        const all = new Set([...digests[0], ...digests[1]]);
        if (all.size !== 1) {
          mismatches++;
          console.log(`  FINDINGS DIFFER between builds: ${[...digests[0]].join(',')} vs ${[...digests[1]].join(',')}`);
        }
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (mismatches > 0) process.exitCode = 1;
}
