// Temporary project folders for CLI and loader tests. Each lives under the OS temp
// folder and is removed by the test that made it (t.after).
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'dist/platform-ext.mjs');
export const REVIEW = join(ROOT, 'dist/platform-review.mjs');

export const BASE_MANIFEST = {
  schema_version: 1,
  protocol_version: 1,
  namespace: 'acme/test-ext',
  version: '1.0.0',
  name: 'Test extension',
  entrypoint: 'index.html',
  capabilities: [],
  properties: {},
};

export const BASE_HTML = '<!doctype html><html><head><meta charset="utf-8"><title>t</title><script type="module" src="main.js"></script></head><body></body></html>\n';

/** Writes a project: `files` maps project-relative paths to content; `manifest` overrides fields (or is raw text). */
export function makeProject(t, { manifest = {}, files = {}, defaults = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const all = defaults ? { 'runtime/index.html': BASE_HTML, 'runtime/main.js': 'export {};\n', ...files } : files;
  if (manifest !== null) {
    all['manifest.json'] ??= typeof manifest === 'string' ? manifest : JSON.stringify({ ...BASE_MANIFEST, ...manifest }, null, 2);
  }
  return writeFiles(dir, all);
}

/** Writes `files` (project-relative path -> content; null: left out) under `dir`, making folders; returns `dir`. */
export function writeFiles(dir, files) {
  for (const [rel, content] of Object.entries(files)) {
    if (content === null) continue;
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
}

/** An empty temporary folder, removed when the test `t` ends. */
export function tempDir(t, prefix = 'platform-ext-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A key pair made by the CLI's keygen in `dir`: its paths, the public key's text and the fingerprint. */
export function keygen(dir, name = 'publisher') {
  const privateKey = join(dir, `${name}.pem`);
  const publicKey = join(dir, `${name}.pub`);
  const r = runCli(['keygen', '--private-key', privateKey, '--public-key', publicKey]);
  assert.equal(r.status, 0, r.stderr);
  const fingerprint = /Fingerprint: ([0-9a-f]{64})/.exec(r.stdout)[1];
  return { dir, privateKey, publicKey, publicText: readFileSync(publicKey, 'utf8').trim(), fingerprint };
}

/** Runs the built CLI; returns {status, stdout, stderr, json (parsed stdout when it is JSON)}. */
export function runCli(args, options = {}) {
  return runScript(CLI, args, options);
}

/** Runs the built platform-review, as runCli runs platform-ext. */
export function runReview(args, options = {}) {
  return runScript(REVIEW, args, options);
}

function runScript(script, args, options) {
  const r = spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' },
    maxBuffer: 64 << 20,
    ...options,
  });
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

/** `rule file pointer` strings of a report, for compact assertions. */
export function summarize(report) {
  return report.findings.map((f) => [f.rule, f.file, f.pointer].filter((x) => x !== undefined).join(' '));
}
