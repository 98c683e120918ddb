#!/usr/bin/env node
// `platform-ext package` and `verify` against their peers, all in one run, on a ~20 MiB
// project of real web assets:
//   1. package wall time vs the same work done by peers on the same two cores (D-35): the
//      contract's content rules over the project (validateProject of dist/validator.mjs
//      on the files as read, in a process of their own: `--validate` below) and Info-ZIP
//      `zip -X -r -q -6` of the same runtime/ folder, started together and run side by
//      side (D-42: bound 1.25x); against zip -6 alone, which checks nothing (reported; -9 for
//      context); compressed sizes (bound 1.03x zip -6's). The validation peer is not
//      `check`: over the 5 MiB stored limit, check measures the archive by compressing it
//      with this project's encoder, which would put our own compression on both sides;
//   2. deflateRaw throughput beside node:zlib deflateRawSync level 6, same process, same
//      inputs (no bound: for the record);
//   3. verify wall time vs its peer (D-35: it does both jobs): `check` of the same
//      project plus `unzip -tq` of the same bundle.zip (bound 1.1x);
//   4. peak RSS (GNU time %M) of package and verify vs `node -e 0` (D-42 bound: baseline +
//      4x the expanded bundle; no V8 flag is passed and nothing forces a collection).
// Processes alternate, so machine noise hits both sides alike; medians are compared (for
// package against its side-by-side peers, which run right after it, the median of each
// run's own ratio).
//
// The project (makeProject) is real code and realistic assets, within the contract's
// limits (at most 200 files, 20 MiB expanded, 5 MiB compressed: that last cap is why over
// a quarter of the bytes are genuinely compressible images rather than PNG/WOFF2 noise):
//   JavaScript  copies of dist/validator.mjs (a large ECMAScript module of ordinary code)
//               and the transpiled build/validator/ tree (with inline source maps);
//   CSS         generated from a seeded vocabulary: component rules, media queries,
//               custom properties, @font-face and url() references to the fonts and images;
//   fonts       .woff2 of random bytes (WOFF2 is Brotli-compressed: incompressible);
//   images      .png/.webp of random bytes (compressed pixels), and real PNG files whose
//               IDAT is stored (zlib level 0) UI-like pixels: compressible.
// Usage: node scripts/build.mjs && node bench/package.mjs [runs]   (default 5; medians)
//        node bench/package.mjs [runs] --root <checkout>   measures another built checkout's
//          dist/platform-ext.mjs and build/zip/deflate.js (an earlier commit, for before/after)
//          on the same project, made from this checkout
//        node bench/package.mjs --make <dir>   only writes the project (for profiling)
//        node bench/package.mjs --validate <dir>   the validation peer alone: reads the
//          project's files and runs validateProject over them; exits 1 on an error finding
// Where the time goes: PLATFORM_EXT_TRACE=1 node dist/platform-ext.mjs package <dir> --out <dir>
// --private-key <file> prints each thread's phases with wall time, CPU time and memory.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateRawSync, deflateSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rootFlag = process.argv.indexOf('--root');
/** The checkout under test (its dist/ and build/); the project's files always come from this one. */
const tested = rootFlag > 0 ? process.argv[rootFlag + 1] : root;
const cli = join(tested, 'dist/platform-ext.mjs');
const MiB = 1 << 20;

// D-14's test key (the Ed25519 seed 0x01..0x20): a bench needs a key, not a secret.
const KEY_PEM = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g\n-----END PRIVATE KEY-----\n';

// ---------------------------------------------------------------------------------------
// The project
// ---------------------------------------------------------------------------------------

/** mulberry32, as in test/support/fuzz.mjs: the project is the same bytes on every run. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Incompressible bytes (xorshift32, seeded). */
function noise(seed, length) {
  const words = new Uint32Array(Math.ceil(length / 4));
  let x = seed | 1;
  for (let k = 0; k < words.length; k++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[k] = x;
  }
  return new Uint8Array(words.buffer, 0, length);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc(bytes) {
  let c = ~0;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** A real RGB PNG (PNG spec 11.2) of a UI-like picture, IDAT stored (zlib level 0). */
function uiPng(seed, width, height) {
  const rng = prng(seed);
  const rows = Buffer.alloc(height * (1 + width * 3));
  const panels = Array.from({ length: 12 }, () => ({
    x: Math.floor(rng() * width),
    y: Math.floor(rng() * height),
    w: 40 + Math.floor(rng() * width * 0.5),
    h: 20 + Math.floor(rng() * height * 0.3),
    rgb: [Math.floor(rng() * 256), Math.floor(rng() * 256), Math.floor(rng() * 256)],
  }));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    rows[row] = 0; // filter type None
    for (let x = 0; x < width; x++) {
      // A vertical gradient background, flat panels on top, and "text": short runs of
      // dark pixels on some lines inside panels, with a little sensor-like noise.
      let r = 240 - (y >> 3);
      let g = 244 - (y >> 4);
      let b = 250;
      for (const p of panels) {
        if (x >= p.x && x < p.x + p.w && y >= p.y && y < p.y + p.h) {
          [r, g, b] = p.rgb;
          if ((y - p.y) % 14 < 9 && (y - p.y) % 14 > 2 && ((x * 7 + y * 3 + seed) % 11 < 5) && x - p.x > 6) [r, g, b] = [30, 32, 36];
        }
      }
      const at = row + 1 + x * 3;
      const jitter = rng() < 0.05 ? 1 : 0;
      rows[at] = r + jitter;
      rows[at + 1] = g;
      rows[at + 2] = b;
    }
  }
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A stylesheet of ordinary component CSS from a seeded vocabulary, about `target` bytes. */
function stylesheet(seed, target, fonts, images) {
  const rng = prng(seed);
  const pick = (items) => items[Math.floor(rng() * items.length)];
  const blocks = ['card', 'nav', 'button', 'modal', 'table', 'form', 'toolbar', 'sidebar', 'badge', 'tabs', 'menu', 'hero', 'footer', 'alert', 'avatar', 'chip', 'grid', 'list'];
  const elements = ['title', 'body', 'icon', 'label', 'item', 'header', 'content', 'actions', 'link', 'image', 'caption', 'row', 'cell'];
  const modifiers = ['primary', 'secondary', 'active', 'disabled', 'compact', 'large', 'dark', 'muted', 'error', 'success'];
  const colors = () => pick([`#${Math.floor(rng() * 0xffffff).toString(16).padStart(6, '0')}`, `rgb(${Math.floor(rng() * 256)} ${Math.floor(rng() * 256)} ${Math.floor(rng() * 256)} / ${(rng()).toFixed(2)})`, 'var(--color-text)', 'var(--color-accent)', 'currentColor', 'transparent']);
  const len = () => pick([`${Math.floor(rng() * 48)}px`, `${(rng() * 4).toFixed(3)}rem`, `${Math.floor(rng() * 100)}%`, '0', 'auto', `calc(100% - ${Math.floor(rng() * 64)}px)`, 'var(--space-2)']);
  const declarations = [
    () => `color: ${colors()}`,
    () => `background-color: ${colors()}`,
    () => `margin: ${len()} ${len()}`,
    () => `padding: ${len()} ${len()} ${len()}`,
    () => `border: 1px solid ${colors()}`,
    () => `border-radius: ${len()}`,
    () => `display: ${pick(['flex', 'grid', 'block', 'inline-flex', 'none', 'contents'])}`,
    () => `align-items: ${pick(['center', 'flex-start', 'stretch', 'baseline'])}`,
    () => `justify-content: ${pick(['space-between', 'center', 'flex-end'])}`,
    () => `gap: ${len()}`,
    () => `font: ${pick(['400', '500', '600', '700'])} ${Math.floor(10 + rng() * 14)}px/${(1 + rng()).toFixed(2)} "Inter", system-ui, sans-serif`,
    () => `box-shadow: 0 ${Math.floor(rng() * 8)}px ${Math.floor(rng() * 24)}px rgb(0 0 0 / ${(rng() * 0.4).toFixed(2)})`,
    () => `transition: ${pick(['opacity', 'transform', 'background-color', 'color'])} ${Math.floor(rng() * 400)}ms ease-in-out`,
    () => `grid-template-columns: repeat(${1 + Math.floor(rng() * 6)}, minmax(0, 1fr))`,
    () => `transform: translate(${len()}, ${len()}) rotate(${Math.floor(rng() * 360)}deg)`,
    () => `width: ${len()}`,
    () => `max-width: ${len()}`,
    () => `z-index: ${Math.floor(rng() * 1000)}`,
    () => `background: ${colors()} url("../img/${pick(images)}") no-repeat center / cover`,
  ];
  const selector = () => {
    const block = pick(blocks);
    const parts = [`.${block}`];
    if (rng() < 0.6) parts[0] += `__${pick(elements)}`;
    if (rng() < 0.4) parts[0] += `--${pick(modifiers)}`;
    if (rng() < 0.3) parts[0] += pick([':hover', ':focus-visible', '::before', ':not(:last-child)', '[aria-expanded="true"]', ':nth-child(2n + 1)']);
    if (rng() < 0.25) parts.push(`.${pick(blocks)}__${pick(elements)}`);
    return parts.join(pick([' ', ' > ', ' + ']));
  };
  const rule = (indent) => {
    const sels = Array.from({ length: 1 + Math.floor(rng() * 2) }, selector).join(`,\n${indent}`);
    const decls = Array.from({ length: 2 + Math.floor(rng() * 7) }, () => `${indent}  ${pick(declarations)()};`).join('\n');
    return `${indent}${sels} {\n${decls}\n${indent}}\n`;
  };
  const parts = [
    `/* Component styles, sheet ${seed}. Generated for bench/package.mjs. */\n`,
    `:root {\n  --color-text: #1f2937;\n  --color-accent: #2563eb;\n  --space-2: 0.5rem;\n}\n`,
  ];
  for (const font of fonts) {
    parts.push(`@font-face {\n  font-family: "${font.replace(/\.woff2$/, '')}";\n  src: url("../fonts/${font}") format("woff2");\n  font-display: swap;\n}\n`);
  }
  let size = parts.reduce((n, p) => n + p.length, 0);
  while (size < target) {
    let piece;
    const kind = rng();
    if (kind < 0.08) {
      const inner = Array.from({ length: 2 + Math.floor(rng() * 4) }, () => rule('  ')).join('');
      piece = `@media (min-width: ${pick([480, 640, 768, 1024, 1280])}px) {\n${inner}}\n`;
    } else if (kind < 0.1) {
      piece = `@keyframes fade-${Math.floor(rng() * 1000)} {\n  from { opacity: 0; transform: translateY(${len()}); }\n  to { opacity: 1; transform: none; }\n}\n`;
    } else {
      piece = rule('');
    }
    parts.push(piece);
    size += piece.length;
  }
  return parts.join('');
}

/** Writes the valid project described above into `dir` (manifest.json, runtime/). */
function makeProject(dir) {
  const runtime = join(dir, 'runtime');
  for (const sub of ['js/lib', 'css', 'fonts', 'img']) mkdirSync(join(runtime, sub), { recursive: true });
  const scripts = [];
  // JavaScript: real modules, and a tree of them with relative imports.
  const validator = readFileSync(join(root, 'dist/validator.mjs'));
  for (let k = 0; k < 14; k++) {
    writeFileSync(join(runtime, `js/lib/validator-${k}.mjs`), validator);
    scripts.push(`js/lib/validator-${k}.mjs`);
  }
  cpSync(join(root, 'build/validator'), join(runtime, 'js/v'), { recursive: true, filter: (src) => statSync(src).isDirectory() || src.endsWith('.js') });
  scripts.push('js/v/index.js');
  // Fonts and images.
  const fonts = [];
  for (let k = 0; k < 8; k++) {
    const name = `inter-${['regular', 'medium', 'semibold', 'bold'][k % 4]}-${k}.woff2`;
    writeFileSync(join(runtime, 'fonts', name), noise(1000 + k, 40_000 + k * 6_000));
    fonts.push(name);
  }
  const images = [];
  for (let k = 0; k < 16; k++) {
    const name = `photo-${k}.${k % 2 === 0 ? 'webp' : 'png'}`;
    writeFileSync(join(runtime, 'img', name), noise(2000 + k, 20_000 + k * 3_000));
    images.push(name);
  }
  for (let k = 0; k < 4; k++) {
    const name = `screenshot-${k}.png`;
    writeFileSync(join(runtime, 'img', name), uiPng(3000 + k, 800, 600));
    images.push(name);
  }
  // Stylesheets fill the rest up to ~20 MiB expanded (the contract allows 20 MiB).
  let used = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else used += statSync(p).size;
    }
  };
  walk(runtime);
  const sheets = 12;
  const sheetSize = Math.floor((20 * MiB - 64 * 1024 - used) / sheets);
  const links = [];
  for (let k = 0; k < sheets; k++) {
    writeFileSync(join(runtime, `css/components-${k}.css`), stylesheet(4000 + k, sheetSize, fonts, images));
    links.push(`css/components-${k}.css`);
  }
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<title>Bench extension</title>',
    ...links.map((l) => `<link rel="stylesheet" href="${l}">`),
    ...scripts.map((s) => `<script type="module" src="${s}"></script>`),
    '</head>',
    '<body>',
    ...images.map((i) => `<img src="img/${i}" alt="">`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
  writeFileSync(join(runtime, 'index.html'), html);
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ schema_version: 1, protocol_version: 1, namespace: 'bench/package', version: '1.0.0', name: 'Package bench', entrypoint: 'index.html', capabilities: [], properties: {} }, null, 2),
  );
}

if (process.argv[2] === '--make') {
  makeProject(process.argv[3]);
  process.exit(0);
}

if (process.argv[2] === '--validate') {
  // The work of package's check that no peer tool does: every content rule over the files,
  // read whole (no D-30 opener, no key scan outside runtime/: a few milliseconds here).
  const dir = process.argv[3];
  const runtime = join(dir, 'runtime');
  const { validateProject } = await import(pathToFileURL(join(tested, 'dist/validator.mjs')).href);
  const files = filesUnder(runtime).map((f) => ({ path: f.path.split('\\').join('/'), kind: 'file', size: f.content.length, content: f.content }));
  const result = validateProject({ manifest: readFileSync(join(dir, 'manifest.json')), files }, { bundlePrefix: 'runtime/' });
  const errors = result.findings.filter((f) => f.severity === 'error');
  if (errors.length > 0) {
    console.error(errors.slice(0, 5).map((f) => `${f.rule} ${f.file ?? ''} ${f.message}`).join('\n'));
    process.exit(1);
  }
  process.exit(0);
}

// ---------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------

const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Wall time of one process run in ms; throws when it fails. */
function time(command, args, options = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

/**
 * Wall time of processes started together and run side by side until the last has ended,
 * in ms (the peers of a command that does their jobs on both cores at once); throws when
 * one fails.
 */
async function timeTogether(jobs) {
  const t0 = process.hrtime.bigint();
  // Every process is waited for, failed or not, before anything is reported or removed.
  const outcomes = await Promise.allSettled(
    jobs.map(
      ([command, args, options = {}]) =>
        new Promise((resolve, reject) => {
          const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
          let stderr = '';
          child.stderr.on('data', (chunk) => {
            stderr += chunk;
          });
          child.on('error', reject);
          child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? code}): ${stderr}`))));
        }),
    ),
  );
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const failed = outcomes.find((o) => o.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return ms;
}

const hasGnuTime = spawnSync('/usr/bin/time', ['-f', '%M', 'true'], { encoding: 'utf8' }).status === 0;

/** Peak resident set size in KiB (GNU time %M, the process and its threads), or NaN without GNU time. */
function peakRss(command, args, options = {}) {
  if (!hasGnuTime) return NaN;
  const r = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], ...options });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return Number(r.stderr.trim().split('\n').pop());
}

/** D-35: each bound is a ratio against a peer in the same run, printed PASS or FAIL. */
function verdict(value, bound) {
  return `${value <= bound ? 'PASS' : 'FAIL'}: at most ${bound}`;
}

function filesUnder(dir) {
  const out = [];
  (function walk(d) {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push({ path: relative(dir, p), content: readFileSync(p) });
    }
  })(dir);
  return out;
}

const hasZip = spawnSync('zip', ['-v'], { stdio: 'ignore' }).status === 0;
const hasUnzip = spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;
if (!existsSync(cli)) {
  console.error('bench/package.mjs: build first (node scripts/build.mjs)');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'platform-ext-bench-package-'));
try {
  const project = join(work, 'project');
  makeProject(project);
  const runtime = join(project, 'runtime');
  const files = filesUnder(runtime);
  const expanded = files.reduce((n, f) => n + f.content.length, 0);
  const key = join(work, 'key.pem');
  writeFileSync(key, KEY_PEM, { mode: 0o600 });
  const out = join(work, 'out');
  const zip6 = join(work, 'zip6.zip');
  const zip9 = join(work, 'zip9.zip');
  // zip -6 again, beside the validation peer (the same archive as zip6's).
  const zipPeer = join(work, 'zip6-peer.zip');
  const selfPath = fileURLToPath(import.meta.url);
  const rootArgs = tested === root ? [] : ['--root', tested];
  const kinds = { js: 0, css: 0, woff2: 0, png: 0, webp: 0, html: 0, mjs: 0 };
  for (const f of files) kinds[f.path.slice(f.path.lastIndexOf('.') + 1)] += f.content.length;
  console.log(`node ${process.version}, ${runs} runs per side, medians (bench/package.mjs)${tested === root ? '' : `; measuring ${tested}`}`);
  console.log(`load average at start: ${loadavg().map((n) => n.toFixed(2)).join(', ')} (${availableParallelism()} cores)`);
  console.log(
    `project: ${files.length} files, ${(expanded / MiB).toFixed(2)} MiB: JavaScript ${((kinds.js + kinds.mjs) / MiB).toFixed(1)}, CSS ${(kinds.css / MiB).toFixed(1)}, ` +
      `fonts ${(kinds.woff2 / MiB).toFixed(1)}, images ${((kinds.png + kinds.webp) / MiB).toFixed(1)} (of which compressible PNG ${(files.filter((f) => f.path.includes('screenshot')).reduce((n, f) => n + f.content.length, 0) / MiB).toFixed(1)}), HTML ${(kinds.html / 1024).toFixed(1)} KiB`,
  );

  // 1 and 3. Wall times, alternating; run 0 warms the file cache and is not counted.
  const packageArgs = [cli, 'package', project, '--out', out, '--private-key', key];
  const times = { package: [], zip6: [], zip9: [], verify: [], unzip: [], check: [], together: [] };
  for (let r = 0; r <= runs; r++) {
    rmSync(out, { recursive: true, force: true });
    const a = time(process.execPath, packageArgs);
    const g = hasZip ? (rmSync(zipPeer, { force: true }), await timeTogether([[process.execPath, [selfPath, '--validate', project, ...rootArgs]], ['zip', ['-X', '-r', '-q', '-6', zipPeer, '.'], { cwd: runtime }]])) : NaN;
    const b = hasZip ? (rmSync(zip6, { force: true }), time('zip', ['-X', '-r', '-q', '-6', zip6, '.'], { cwd: runtime })) : NaN;
    const c = hasZip ? (rmSync(zip9, { force: true }), time('zip', ['-X', '-r', '-q', '-9', zip9, '.'], { cwd: runtime })) : NaN;
    const d = time(process.execPath, [cli, 'verify', out]);
    const e = hasUnzip ? time('unzip', ['-tq', join(out, 'bundle.zip')]) : NaN;
    const f = time(process.execPath, [cli, 'check', project]);
    if (r === 0) continue;
    times.package.push(a);
    times.zip6.push(b);
    times.zip9.push(c);
    times.verify.push(d);
    times.unzip.push(e);
    times.check.push(f);
    times.together.push(g);
  }
  const ours = statSync(join(out, 'bundle.zip')).size;
  const size6 = hasZip ? statSync(zip6).size : NaN;
  const size9 = hasZip ? statSync(zip9).size : NaN;
  const [tp, t6, t9, tv, tu, tc, tt] = ['package', 'zip6', 'zip9', 'verify', 'unzip', 'check', 'together'].map((k) => median(times[k]));
  const row = (label, ms, bytes) => `  ${label.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  ${String(bytes).padStart(9)} bytes`;
  console.log('\npackage (check, compress, read back, hash, sign, write) vs the content rules (a process of their own) and Info-ZIP zip of runtime/ side by side:');
  console.log(row('platform-ext package', tp, ours));
  if (hasZip) {
    console.log(row('zip -X -r -q -6', t6, size6));
    console.log(row('zip -X -r -q -9 (context)', t9, size9));
    console.log(`  validation and zip -6 side by side ${tt.toFixed(0).padStart(6)} ms`);
    // The bound is on the median of each run's own ratio: package and its peers run seconds
    // apart within a run, so a change of load between runs moves both sides of a ratio alike.
    const sideBySide = Number(median(times.package.map((ms, run) => ms / times.together[run])).toFixed(2));
    console.log(`  time ours / (validation | zip -6) ${sideBySide.toFixed(2)}x  (${verdict(sideBySide, 1.25)}x: D-42, the same work on the same two cores; median of the runs' ratios)`);
    console.log(`  time ours / zip -6 alone          ${(tp / t6).toFixed(2)}x  (reported: zip -6 checks nothing)`);
    console.log(`  size ours / zip -6   ${(ours / size6).toFixed(4)}x  (${verdict(Number((ours / size6).toFixed(4)), 1.03)}x)`);
    console.log(`  size ours / zip -9   ${(ours / size9).toFixed(4)}x  (context)`);
  } else {
    console.log('  zip (Info-ZIP) is not installed: its rows are skipped');
  }
  console.log('\nverify (reader, content rules, hashes, record, signature) vs check of the project plus unzip -tq of the same bundle.zip:');
  console.log(`  platform-ext verify                ${tv.toFixed(0).padStart(6)} ms`);
  console.log(`  platform-ext check                 ${tc.toFixed(0).padStart(6)} ms`);
  if (hasUnzip) {
    console.log(`  unzip -tq                          ${tu.toFixed(0).padStart(6)} ms`);
    console.log(`  time ours / (check + unzip -t) ${(tv / (tc + tu)).toFixed(2)}x  (${verdict(Number((tv / (tc + tu)).toFixed(2)), 1.1)}x)`);
  } else {
    console.log('  unzip (Info-ZIP) is not installed: its row is skipped');
  }

  // 2. The encoder beside node:zlib level 6, in this process, on the same files, after warm-up.
  const { deflateRaw } = await import(pathToFileURL(join(tested, 'build/zip/deflate.js')).href);
  const groups = [
    ['JavaScript', (p) => p.endsWith('.js') || p.endsWith('.mjs')],
    ['CSS', (p) => p.endsWith('.css')],
    ['compressible PNG', (p) => p.includes('screenshot')],
    ['fonts and other images', (p) => /\.(woff2|webp|png)$/.test(p) && !p.includes('screenshot')],
  ];
  console.log('\ndeflateRaw (ours) beside node:zlib deflateRawSync level 6, in-process, same inputs (no bound):');
  let allOurs = 0;
  let allZlib = 0;
  let allOursBytes = 0;
  let allZlibBytes = 0;
  for (const [label, test] of groups) {
    const inputs = files.filter((f) => test(f.path)).map((f) => f.content);
    const bytes = inputs.reduce((n, c) => n + c.length, 0);
    for (const c of inputs) deflateRaw(c);
    const ourMs = [];
    const zlibMs = [];
    let ourSize = 0;
    let zlibSize = 0;
    for (let r = 0; r < Math.max(runs, 3); r++) {
      let t0 = process.hrtime.bigint();
      ourSize = 0;
      for (const c of inputs) ourSize += deflateRaw(c).length;
      ourMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      t0 = process.hrtime.bigint();
      zlibSize = 0;
      for (const c of inputs) zlibSize += deflateRawSync(c, { level: 6 }).length;
      zlibMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const [om, zm] = [median(ourMs), median(zlibMs)];
    allOurs += om;
    allZlib += zm;
    allOursBytes += ourSize;
    allZlibBytes += zlibSize;
    const mbps = (ms) => (bytes / MiB / (ms / 1000)).toFixed(1).padStart(6);
    console.log(`  ${label.padEnd(24)} ${(bytes / MiB).toFixed(2).padStart(5)} MiB: ours ${mbps(om)} MB/s, zlib -6 ${mbps(zm)} MB/s (${(om / zm).toFixed(2)}x the time); size ${(ourSize / zlibSize).toFixed(4)}x`);
  }
  const mbpsAll = (ms) => (expanded / MiB / (ms / 1000)).toFixed(1).padStart(6);
  console.log(`  ${'all files'.padEnd(24)} ${(expanded / MiB).toFixed(2).padStart(5)} MiB: ours ${mbpsAll(allOurs)} MB/s, zlib -6 ${mbpsAll(allZlib)} MB/s (${(allOurs / allZlib).toFixed(2)}x the time); size ${(allOursBytes / allZlibBytes).toFixed(4)}x`);

  // 4. Peak memory, each the median of `runs` runs (GNU time; the warm-up above filled caches).
  console.log('\npeak resident memory (GNU time %M, all threads), medians:');
  if (!hasGnuTime) {
    console.log('  GNU time (/usr/bin/time) is missing: peak memory is not measured');
  } else {
    const rss = { base: [], package: [], verify: [] };
    for (let r = 0; r < runs; r++) {
      rss.base.push(peakRss(process.execPath, ['-e', '0']));
      rmSync(out, { recursive: true, force: true });
      rss.package.push(peakRss(process.execPath, packageArgs));
      rss.verify.push(peakRss(process.execPath, [cli, 'verify', out]));
    }
    const [base, pkg, ver] = [median(rss.base), median(rss.package), median(rss.verify)];
    const kib = (n) => `${(n / 1024).toFixed(1).padStart(6)} MiB`;
    const boundExpanded = base + (4 * expanded) / 1024;
    console.log(`  node -e 0 (baseline)               ${kib(base)}`);
    console.log(`  platform-ext package               ${kib(pkg)}  over baseline ${((pkg - base) / 1024).toFixed(1)} MiB = ${((pkg - base) / (expanded / 1024)).toFixed(2)}x the expanded bundle (${verdict(Number(((pkg - base) / (expanded / 1024)).toFixed(2)), 4)}x)`);
    console.log(`  platform-ext verify                ${kib(ver)}  over baseline ${((ver - base) / 1024).toFixed(1)} MiB = ${((ver - base) / (expanded / 1024)).toFixed(2)}x the expanded bundle (${verdict(Number(((ver - base) / (expanded / 1024)).toFixed(2)), 4)}x)`);
    console.log(`  (D-42 bound: baseline + 4x the expanded bundle = ${kib(boundExpanded)})`);
  }
  console.log(`\nload average at end: ${loadavg().map((n) => n.toFixed(2)).join(', ')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
