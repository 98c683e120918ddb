#!/usr/bin/env node
// What the analysis of code's run-time behaviour costs `check`: markup handed to the DOM,
// attribute writes and bridge calls with literal arguments (src/validator/js/js-markup.ts,
// js-bridge-calls.ts). The validator's whole project check (validateProject, what `check`
// runs after reading the files) is timed with the analysis on and off, alternating in one
// process so that machine noise and the JIT's state hit both sides alike (medians):
//   1. the 200-file, 20 MiB project of bench/check.mjs (2 MiB of code)   (bound: 1.10x)
//   2. the largest package of the real-module guard test (three's ES modules, 2.5 MB,
//      test/interop/js-real-modules.test.mjs) as a bundle                 (bound: 1.10x)
// The switch is setRunTimeAnalysis, an internal of the JavaScript policy for this
// benchmark only. Run `npm run build` first (it reads build/ and dist/validator.mjs).
// Every line prints PASS or FAIL against its bound; the exit status is 1 when one fails.
// Usage: node bench/run-time-analysis.mjs [runs]   (default 11 runs per side)
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeBundle } from './projects.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { validateProject } = await import(join(root, 'build/validator/validate.js'));
const { setRunTimeAnalysis } = await import(join(root, 'build/validator/js/js-policy.js'));
const runs = Number(process.argv[2] ?? 11);
let failed = 0;

/** A ProjectInput over a folder: its manifest (or a minimal one) and every file under `bundle`. */
function projectInput(manifest, bundle) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const content = readFileSync(path);
        files.push({ path: relative(bundle, path).split('\\').join('/'), kind: 'file', size: content.length, content: new Uint8Array(content) });
      }
    }
  };
  walk(bundle);
  return { manifest: new TextEncoder().encode(manifest), files };
}

function timeCheck(input, on) {
  setRunTimeAnalysis(on);
  const t0 = process.hrtime.bigint();
  const result = validateProject(input, { bundlePrefix: 'runtime/' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  setRunTimeAnalysis(true);
  return { ms, findings: result.findings.length };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function compare(label, input, bound) {
  timeCheck(input, true);
  timeCheck(input, false);
  const on = [];
  const off = [];
  for (let i = 0; i < runs; i++) {
    // Alternate which side goes first, so neither always runs after the other's garbage.
    if (i % 2 === 0) {
      on.push(timeCheck(input, true).ms);
      off.push(timeCheck(input, false).ms);
    } else {
      off.push(timeCheck(input, false).ms);
      on.push(timeCheck(input, true).ms);
    }
  }
  const ratio = median(on) / median(off);
  const verdict = ratio <= bound ? 'PASS' : 'FAIL';
  if (ratio > bound) failed++;
  console.log(`${label.padEnd(60)} ${median(on).toFixed(1).padStart(7)} ms vs ${median(off).toFixed(1).padStart(7)} ms  ratio ${ratio.toFixed(2)}x  bound ${bound.toFixed(2)}x  ${verdict}`);
}

const MANIFEST = JSON.stringify({ schema_version: 1, protocol_version: 1, namespace: 'bench/big', version: '1.0.0', name: 'Bench', entrypoint: 'index.html', capabilities: [], properties: {} });

/** three's ES module files as the guard test lists them, with a page that loads the main one. */
function threeProject() {
  const modules = join(root, 'node_modules');
  const entries = ['three/build/three.core.js', 'three/build/three.module.js', 'three/examples/jsm/controls', 'three/examples/jsm/loaders/GLTFLoader.js'];
  const files = [];
  for (const entry of entries) {
    const path = join(modules, entry);
    const add = (p) => {
      if (statSync(p).isDirectory()) for (const n of readdirSync(p).sort()) add(join(p, n));
      else if (/\.m?js$/.test(p)) {
        const content = new Uint8Array(readFileSync(p));
        files.push({ path: relative(modules, p).split('\\').join('/'), kind: 'file', size: content.length, content });
      }
    };
    add(path);
  }
  const page = new TextEncoder().encode('<!doctype html><meta charset="utf-8"><title>three</title><script type="module" src="three/build/three.module.js"></script>');
  files.push({ path: 'index.html', kind: 'file', size: page.length, content: page });
  return { manifest: new TextEncoder().encode(MANIFEST), files };
}

const work = mkdtempSync(join(tmpdir(), 'platform-ext-bench-rt-'));
try {
  console.log(`node ${process.version}, ${runs} runs per side, medians, validateProject with the run-time analysis on / off (bench/run-time-analysis.mjs); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const typical = join(work, 'typical');
  makeBundle(typical, 2 * (1 << 20), root);
  compare('check 200 files 20 MiB (2 MiB code): analysis on / off', projectInput(readFileSync(join(typical, 'manifest.json'), 'utf8'), join(typical, 'runtime')), 1.1);
  compare('check three (2.5 MB of ES modules): analysis on / off', threeProject(), 1.1);
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failed > 0) process.exitCode = 1;
