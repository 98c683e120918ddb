#!/usr/bin/env node
// Speed of the CSS scanner (checkStylesheet: UTF-8 decoding, tokenizer, policy), cold
// and warm. `platform-ext check` runs in a fresh process, so what the 2x budget of
// bench/check.mjs sees is COLD speed: the first call, before V8 has profiled or
// optimised anything. Each cold figure is therefore the first checkStylesheet call in a
// FRESH child process (median of `runs` children); the warm figure repeats the call in
// one child until it is optimised (median of the last half of WARM_REPEATS calls). Each
// corpus gets its own children, so one corpus's type feedback never slows another's.
//
// Corpora (generated, deterministic):
//   rules      the stylesheet of bench/check.mjs: ordinary rules with a url() every ten
//   framework  a framework-style sheet: comments, @media, @font-face, custom properties,
//              var(), calc(), gradients, keyframes, attribute selectors, strings, and a
//              few remote and missing references (findings)
//   minified   the framework sheet without comments and with whitespace collapsed
//   rules x20  twenty 20 KiB files of `rules` in one process, as check.mjs's typical
//              bundle has them (cold: the whole sequence in a fresh process)
//
// Usage: node bench/scan-speed-css.mjs [runs=9] [--validator DIR] [--compare DIR]
//   --validator DIR  the transpiled validator to measure (default ../build/validator)
//   --compare DIR    a second validator build (for example a copy taken before a change):
//                    both are measured, children alternating, and their findings must
//                    agree; a last column gives compare/measured for the cold medians
// Run `node scripts/build.mjs --transpile-only` first. Not part of `npm test`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const MiB = 1 << 20;
const CORPUS_BYTES = 0.4 * MiB;
const IMAGE_FILES = 139; // as in bench/check.mjs's typical bundle
const WARM_REPEATS = 40;

// ---------------------------------------------------------------------------
// Corpora
// ---------------------------------------------------------------------------

/** bench/check.mjs's rule generator, verbatim in shape. */
function rulesCss(targetBytes) {
  const rule = (n) =>
    n % 10 === 0
      ? `.c${n} { background: #fff url("../img/i${n % IMAGE_FILES}.png") no-repeat right top / 16px; }\n`
      : `.c${n} > .item:hover, .c${n}[data-state="open"] { color: #1f2937; margin: 0 auto; padding: 4px 8px; border-radius: 6px; }\n`;
  const parts = [];
  let size = 0;
  for (let n = 0; size < targetBytes; n++) {
    const r = rule(n);
    parts.push(r);
    size += r.length;
  }
  return parts.join('');
}

/** A small seeded generator (mulberry32) so every run sees the same corpus. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A framework-style stylesheet: the constructs real bundles are made of. */
function frameworkCss(targetBytes) {
  const rng = seeded(7);
  const pick = (list) => list[Math.floor(rng() * list.length)];
  const colors = ['#1f2937', '#fff', '#e5e7eb', 'rgb(17 24 39 / 0.5)', 'rgba(0,0,0,.125)', 'hsl(210deg 40% 96%)', 'transparent', 'currentColor', 'var(--brand)'];
  const decls = [
    () => `color: ${pick(colors)};`,
    () => `background-color: ${pick(colors)};`,
    () => `margin: ${Math.floor(rng() * 4)}rem auto;`,
    () => `padding: calc(var(--space-${Math.floor(rng() * 6)}) * 2) ${Math.floor(rng() * 24)}px;`,
    () => `font: 500 0.875rem/1.25 "Inter var", -apple-system, BlinkMacSystemFont, "Segoe UI", sans-serif;`,
    () => `box-shadow: 0 1px 3px 0 rgba(0, 0, 0, 0.1), 0 1px 2px -1px rgba(0, 0, 0, 0.1);`,
    () => `transition: color .15s ease-in-out, background-color .15s ease-in-out, border-color .15s ease-in-out;`,
    () => `background-image: linear-gradient(180deg, ${pick(colors)} 0%, ${pick(colors)} 100%);`,
    () => `border: 1px solid ${pick(colors)} !important;`,
    () => `transform: translate3d(-50%, ${Math.floor(rng() * 100)}%, 0) rotate(45deg);`,
    () => `--tw-ring-offset-width: ${Math.floor(rng() * 4)}px;`,
    () => `grid-template-columns: repeat(auto-fill, minmax(12.5em, 1fr));`,
    () => `content: "\\201C";`,
    () => `background: url(../img/i${Math.floor(rng() * IMAGE_FILES)}.png) center / cover no-repeat;`,
    () => `mask-image: url("data:image/svg+xml,%3csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3e%3cpath d='M2 5l6 6 6-6'/%3e%3c/svg%3e");`,
  ];
  const selectors = [
    (n) => `.btn-${n}`,
    (n) => `.card-${n} > .card-header`,
    (n) => `.nav-${n} a:not(.active):hover`,
    (n) => `input[type="checkbox"]:checked + .label-${n}`,
    (n) => `.list-${n} li:nth-child(2n+1)::before`,
    (n) => `#app .col-md-${n % 12}`,
  ];
  const parts = [];
  let size = 0;
  const push = (s) => {
    parts.push(s);
    size += s.length;
  };
  push(`@charset "utf-8";\n@import url("base.css");\n:root {\n  --brand: #4f46e5;\n  --space-0: 0.25rem;\n}\n`);
  push(`@font-face {\n  font-family: "Inter var";\n  src: url("../fonts/inter.woff2?v=3.19") format("woff2"), url(../fonts/inter.woff) format("woff");\n  font-display: swap;\n}\n`);
  for (let n = 0; size < targetBytes; n++) {
    if (n % 25 === 0) push(`/* ==========================================================================\n   Section ${n}: components, utilities and their responsive variants\n   ========================================================================== */\n`);
    const rule = [];
    const count = 1 + Math.floor(rng() * 2);
    for (let i = 0; i < count; i++) rule.push(pick(selectors)(n + i));
    const body = [];
    const lines = 2 + Math.floor(rng() * 5);
    for (let i = 0; i < lines; i++) body.push(`  ${pick(decls)()}`);
    const text = `${rule.join(',\n')} {\n${body.join('\n')}\n}\n`;
    // A few findings, so that --compare also checks that rule ids and positions agree.
    if (n % 97 === 0) push(`.promo-${n} { background-image: url(//cdn.example.com/promo-${n}.png); }\n`);
    if (n % 89 === 0) push(`.icon-${n}::after { content: ""; mask: url("../img/missing-${n}.svg") center / contain; }\n`);
    if (n % 17 === 0) push(`@media (min-width: ${576 + (n % 4) * 192}px) and (prefers-reduced-motion: no-preference) {\n${text.replace(/^/gm, '  ')}}\n`);
    else if (n % 41 === 0) push(`@keyframes spin-${n} {\n  0% { transform: rotate(0deg); }\n  to { transform: rotate(360deg); }\n}\n`);
    else push(text);
  }
  return parts.join('');
}

/** The framework sheet as a minifier writes it (the input is our own, so plain regexes do). */
function minify(css) {
  return css
    .replace(/\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};,>]) ?/g, '$1')
    .replace(/;}/g, '}');
}

function bundleList() {
  const paths = ['index.html', 'css/s0.css', 'css/base.css', 'fonts/inter.woff2', 'fonts/inter.woff'];
  for (let i = 0; i < IMAGE_FILES; i++) paths.push(`img/i${i}.png`);
  return paths;
}

function makeCorpora(dir) {
  const framework = frameworkCss(CORPUS_BYTES);
  const corpora = [
    { name: 'rules', files: [rulesCss(CORPUS_BYTES)] },
    { name: 'framework', files: [framework] },
    { name: 'minified', files: [minify(frameworkCss(CORPUS_BYTES * 1.35))] },
    { name: 'rules x20', files: Array.from({ length: 20 }, () => rulesCss(CORPUS_BYTES / 20)) },
  ];
  for (const corpus of corpora) {
    corpus.paths = corpus.files.map((text, i) => {
      const path = join(dir, `${corpus.name.replace(/\W+/g, '-')}-${i}.css`);
      writeFileSync(path, text);
      return path;
    });
    corpus.bytes = corpus.files.reduce((n, text) => n + Buffer.byteLength(text), 0);
    delete corpus.files;
  }
  return corpora;
}

// ---------------------------------------------------------------------------
// Child: one measurement
// ---------------------------------------------------------------------------

/**
 * Imports the validator, reads the files, then times the first checkStylesheet calls
 * (cold), or with `repeat` > 1 repeats them until V8 has optimised the code and reports
 * the median of the last half (warm).
 */
async function child(validatorDir, repeat, paths) {
  const { checkStylesheet } = await import(pathToFileURL(join(validatorDir, 'css/css-policy.js')).href);
  const { bundleViewOf } = await import(pathToFileURL(join(validatorDir, 'scan.js')).href);
  const { FindingList } = await import(pathToFileURL(join(validatorDir, 'findings.js')).href);
  const bundle = bundleViewOf(bundleList());
  const inputs = paths.map((p) => new Uint8Array(readFileSync(p)));
  const times = [];
  let findings = new FindingList();
  for (let r = 0; r < repeat; r++) {
    findings = new FindingList();
    const t0 = performance.now();
    for (const bytes of inputs) checkStylesheet('css/s0.css', bytes, bundle, findings);
    times.push(performance.now() - t0);
  }
  const ms = repeat === 1 ? times[0] : median(times.slice(Math.floor(times.length / 2)));
  process.stdout.write(JSON.stringify({ ms, findings: findings.items.map((f) => `${f.rule} ${f.line}:${f.column}`) }));
}

function runChild(validatorDir, repeat, paths) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', validatorDir, String(repeat), ...paths], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function mbPerSecond(bytes, ms) {
  return bytes / MiB / (ms / 1000);
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    await child(args[1], Number(args[2]), args.slice(3));
    return;
  }
  let runs = 9;
  const validators = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--validator') validators[0] = resolve(args[++i]);
    else if (args[i] === '--compare') validators[1] = resolve(args[++i]);
    else runs = Number(args[i]);
  }
  validators[0] ??= join(here, '../build/validator');
  const labels = validators.length > 1 ? ['measured', 'compare'] : ['measured'];
  const work = mkdtempSync(join(tmpdir(), 'scan-speed-css-'));
  try {
    const corpora = makeCorpora(work);
    console.log(`node ${process.version}, ${runs} fresh children per cold figure, medians (bench/scan-speed-css.mjs)`);
    for (let v = 0; v < validators.length; v++) console.log(`  ${labels[v]}: ${validators[v]}`);
    console.log(`${'corpus'.padEnd(11)} ${'KiB'.padStart(5)}  ${'validator'.padEnd(9)} ${'cold ms'.padStart(8)} ${'cold MB/s'.padStart(10)} ${'warm ms'.padStart(8)} ${'warm MB/s'.padStart(10)}  findings`);
    for (const corpus of corpora) {
      const cold = validators.map(() => []);
      const found = validators.map(() => null);
      for (let r = 0; r < runs; r++) {
        // Alternate validators so that machine noise hits both alike.
        for (let v = 0; v < validators.length; v++) {
          const out = runChild(validators[v], 1, corpus.paths);
          cold[v].push(out.ms);
          found[v] = out.findings;
        }
      }
      for (let v = 0; v < validators.length; v++) {
        const coldMs = median(cold[v]);
        const warmMs = runChild(validators[v], WARM_REPEATS, corpus.paths).ms;
        console.log(
          `${corpus.name.padEnd(11)} ${(corpus.bytes / 1024).toFixed(0).padStart(5)}  ${labels[v].padEnd(9)} ${coldMs.toFixed(1).padStart(8)} ${mbPerSecond(corpus.bytes, coldMs).toFixed(1).padStart(10)} ${warmMs.toFixed(1).padStart(8)} ${mbPerSecond(corpus.bytes, warmMs).toFixed(1).padStart(10)}  ${found[v].length}`,
        );
      }
      if (validators.length > 1) {
        console.log(`${''.padEnd(11)} ${''.padStart(5)}  cold speed-up (compare/measured): ${(median(cold[1]) / median(cold[0])).toFixed(2)}x`);
      }
      if (validators.length > 1 && JSON.stringify(found[0]) !== JSON.stringify(found[1])) {
        console.log(`  FINDINGS DIFFER on ${corpus.name}: ${JSON.stringify(found[0].slice(0, 5))} vs ${JSON.stringify(found[1].slice(0, 5))}`);
        process.exitCode = 1;
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
