#!/usr/bin/env node
// The deterministic ZIP writer (src/zip/zip-writer.ts, own DEFLATE in src/zip/deflate.ts; D-15)
// against Info-ZIP `zip` on the same folder, in the same run, alternating so that machine
// noise hits both sides alike:
//   1. archive time: a Node process that reads the 200 files and writes the archive with
//      writeZip, vs `zip -X -D -r -q -9` and `zip -X -D -r -q -6` (each a whole process);
//   2. archive sizes, as ratios;
//   3. deflateRaw throughput in MB/s on text (dist/validator.mjs) and on random bytes,
//      in-process after warm-up, next to node:zlib level 9 on the same bytes.
// The folder is a realistic 200-file, 20 MiB runtime: 1 HTML page, about 13 MiB of
// JavaScript modules (copies of dist/validator.mjs, ordinary code), 20 stylesheets, and
// random-byte "images" (incompressible, as PNG/WOFF2 payloads are) for the rest of the
// files and bytes. Nothing is asserted.
// Usage: npm run build && node bench/zip.mjs [runs]   (default 5 runs per side; medians)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 5);
const MiB = 1 << 20;
const FILES = 200;
const STYLESHEETS = 20;
const writeModule = pathToFileURL(join(root, 'build/zip/zip-writer.js')).href;
const deflateModule = pathToFileURL(join(root, 'build/zip/deflate.js')).href;

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Wall time of one process run, in ms; throws when it fails. */
function time(command, args, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

/** The 200-file, 20 MiB runtime folder described above. */
function makeRuntime(dir) {
  mkdirSync(join(dir, 'js'), { recursive: true });
  mkdirSync(join(dir, 'css'));
  mkdirSync(join(dir, 'img'));
  const realModule = readFileSync(join(root, 'dist/validator.mjs'));
  const modules = Math.max(1, Math.floor((13 * MiB) / realModule.length));
  const images = FILES - 1 - STYLESHEETS - modules;
  if (images < 1) throw new Error(`bench/zip.mjs: ${modules} copies of dist/validator.mjs leave no room for images in ${FILES} files`);
  let written = 0;
  for (let i = 0; i < modules; i++) {
    writeFileSync(join(dir, `js/m${i}.js`), realModule);
    written += realModule.length;
  }
  const rule = (n) =>
    n % 10 === 0
      ? `.c${n} { background: #fff url("../img/i${n % images}.png") no-repeat right top / 16px; }\n`
      : `.c${n} > .item:hover, .c${n}[data-state="open"] { color: #1f2937; margin: 0 auto; padding: ${n % 13}px 8px; }\n`;
  for (let i = 0; i < STYLESHEETS; i++) {
    const parts = [];
    let size = 0;
    for (let n = 0; size < 100_000; n++) {
      const r = rule(n + i * 7);
      parts.push(r);
      size += r.length;
    }
    writeFileSync(join(dir, `css/s${i}.css`), parts.join(''));
    written += size;
  }
  const html = '<!doctype html><meta charset="utf-8"><title>bench</title>\n<script type="module" src="js/m0.js"></script>\n';
  writeFileSync(join(dir, 'index.html'), html);
  written += html.length;
  const imgSize = Math.floor((20 * MiB - written) / images);
  if (imgSize < 1) throw new Error(`bench/zip.mjs: ${modules} copies of dist/validator.mjs leave no bytes for images in 20 MiB`);
  for (let i = 0; i < images; i++) writeFileSync(join(dir, `img/i${i}.png`), randomBytes(imgSize));
  return { modules, images };
}

const work = mkdtempSync(join(tmpdir(), 'platform-ext-bench-zip-'));
try {
  const runtime = join(work, 'runtime');
  const made = makeRuntime(runtime);
  const ours = join(work, 'ours.zip');
  const zip9 = join(work, 'zip9.zip');
  const zip6 = join(work, 'zip6.zip');
  const script = join(work, 'write.mjs');
  writeFileSync(
    script,
    `import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeZip } from ${JSON.stringify(writeModule)};
const base = process.argv[2];
const files = [];
(function walk(d) {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else files.push({ path: relative(base, p), content: readFileSync(p) });
  }
})(base);
writeFileSync(process.argv[3], writeZip(files));
`,
  );
  const hasZip = spawnSync('zip', ['-v'], { stdio: 'ignore' }).status === 0;
  console.log(`node ${process.version}, ${runs} runs per side, medians (bench/zip.mjs)`);
  console.log(`folder: ${FILES} files, 20 MiB (${made.modules} JS copies of dist/validator.mjs, ${STYLESHEETS} CSS, ${made.images} random images)`);
  const oursTimes = [];
  const zip9Times = [];
  const zip6Times = [];
  for (let r = 0; r <= runs; r++) {
    // Run 0 warms the file cache and is not counted.
    const a = time(process.execPath, [script, runtime, ours]);
    const b = hasZip ? (rmSync(zip9, { force: true }), time('zip', ['-X', '-D', '-r', '-q', '-9', zip9, '.'], runtime)) : NaN;
    const c = hasZip ? (rmSync(zip6, { force: true }), time('zip', ['-X', '-D', '-r', '-q', '-6', zip6, '.'], runtime)) : NaN;
    if (r > 0) {
      oursTimes.push(a);
      zip9Times.push(b);
      zip6Times.push(c);
    }
  }
  const oursSize = statSync(ours).size;
  console.log(`writeZip (node process)            ${median(oursTimes).toFixed(0).padStart(6)} ms  ${oursSize} bytes`);
  if (hasZip) {
    const size9 = statSync(zip9).size;
    const size6 = statSync(zip6).size;
    const t9 = median(zip9Times);
    const t6 = median(zip6Times);
    console.log(`zip -X -D -r -9                    ${t9.toFixed(0).padStart(6)} ms  ${size9} bytes`);
    console.log(`zip -X -D -r -6                    ${t6.toFixed(0).padStart(6)} ms  ${size6} bytes`);
    console.log(`ratios ours / zip -9: time ${(median(oursTimes) / t9).toFixed(2)}x, size ${(oursSize / size9).toFixed(4)}`);
    console.log(`ratios ours / zip -6: time ${(median(oursTimes) / t6).toFixed(2)}x, size ${(oursSize / size6).toFixed(4)}`);
  } else {
    console.log('zip (Info-ZIP) is not installed: the peer rows are skipped');
  }

  // deflateRaw throughput, in-process, after warm-up.
  const { deflateRaw } = await import(deflateModule);
  const text = readFileSync(join(root, 'dist/validator.mjs'));
  const random = randomBytes(4 * MiB);
  for (const [label, data] of [
    ['text (dist/validator.mjs)', text],
    ['random bytes (4 MiB)', random],
  ]) {
    for (let w = 0; w < 5; w++) deflateRaw(data);
    const ourMs = [];
    const zlibMs = [];
    let ourSize = 0;
    let zlibSize = 0;
    for (let r = 0; r < Math.max(runs, 5); r++) {
      let t0 = process.hrtime.bigint();
      ourSize = deflateRaw(data).length;
      ourMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      t0 = process.hrtime.bigint();
      zlibSize = deflateRawSync(data, { level: 9 }).length;
      zlibMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const mbps = (ms) => (data.length / MiB / (ms / 1000)).toFixed(1);
    const ours = `${mbps(median(ourMs)).padStart(6)} MB/s, ${ourSize} bytes`;
    const peer = `zlib -9 ${mbps(median(zlibMs))} MB/s, ${zlibSize} bytes`;
    console.log(`deflateRaw ${label.padEnd(26)} ${ours}; ${peer}; size ratio ${(ourSize / zlibSize).toFixed(4)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
