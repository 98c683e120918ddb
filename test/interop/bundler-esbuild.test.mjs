// docs/bundlers.md's esbuild recipe, run as written: the `npx esbuild ...` line of the
// page is read from the page itself and run with this repository's esbuild (a dev
// dependency) on a small app with shared code, a dynamic import (a split chunk), a
// stylesheet and an image. `check` then finds nothing at all. The other side: the same
// build with --sourcemap leaves .map files, which check refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, makeProject, runCli } from '../support/project.mjs';

const ESBUILD = join(ROOT, 'node_modules/.bin/esbuild');

/** The esbuild command line of docs/bundlers.md, as arguments after `npx esbuild`. */
function recipe() {
  const page = readFileSync(join(ROOT, 'docs/bundlers.md'), 'utf8');
  const section = page.slice(page.indexOf('## esbuild'));
  const line = section.split('\n').find((l) => l.startsWith('npx esbuild '));
  assert.ok(line !== undefined, 'docs/bundlers.md has an "npx esbuild" command in its esbuild section');
  return line.slice('npx esbuild '.length).trim().split(/\s+/);
}

// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const APP = {
  'src/main.js': [
    "import { label } from './format.js';",
    "import './styles.css';",
    "import logo from './logo.png';",
    "const out = document.getElementById('out');",
    "const image = document.createElement('img');",
    'image.src = logo;',
    "image.alt = '';",
    'document.body.append(image);',
    'window.PLATFORM.ready.then(async () => {',
    "  const { lazy } = await import('./lazy.js');",
    '  out.textContent = label(lazy());',
    '});',
    '',
  ].join('\n'),
  'src/format.js': "export const label = (text) => `label: ${text}`;\n",
  'src/lazy.js': "import { label } from './format.js';\nexport const lazy = () => label('lazy');\n",
  'src/styles.css': 'body { color: #333; }\n.logo { background: url(./logo.png) no-repeat; }\n',
  'runtime/index.html':
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>esbuild app</title>\n<link rel="stylesheet" href="main.css">\n<script type="module" src="main.js"></script>\n</head>\n<body><p id="out" class="logo">…</p></body>\n</html>\n',
};

function app(t) {
  const dir = makeProject(t, { defaults: false, files: APP });
  const png = join(dir, 'src/logo.png');
  mkdirSync(dirname(png), { recursive: true });
  writeFileSync(png, PNG);
  return dir;
}

function esbuild(dir, args) {
  const r = spawnSync(ESBUILD, [...args, '--log-level=error'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.error, undefined, `esbuild is a dev dependency: run "npm ci" (${r.error?.message})`);
  assert.equal(r.status, 0, r.stderr);
}

test('the esbuild recipe of docs/bundlers.md: a split, multi-module build that check passes with 0 findings', (t) => {
  const args = recipe();
  for (const flag of ['--bundle', '--format=esm', '--splitting', '--outdir=runtime', '--public-path=./']) assert.ok(args.includes(flag), flag);
  assert.equal(args.some((a) => a.startsWith('--sourcemap')), false);
  const dir = app(t);
  esbuild(dir, args);
  const r = runCli(['check', dir, '--json']);
  const built = r.json.findings.map((f) => `${f.rule} ${f.file ?? ''}`);
  assert.deepEqual(built, []);
  assert.equal(r.status, 0);
  // It really is split: main.js imports a shared chunk and loads lazy code with import().
  const main = readFileSync(join(dir, 'runtime/main.js'), 'utf8');
  assert.match(main, /from "\.\/chunk-[A-Z0-9]+\.js"/);
  assert.match(main, /import\("\.\/lazy-[A-Z0-9]+\.js"\)/);
});

test('the other side: the same build with --sourcemap leaves .map files that check refuses', (t) => {
  const dir = app(t);
  esbuild(dir, [...recipe(), '--sourcemap']);
  const r = runCli(['check', dir, '--json']);
  assert.equal(r.status, 1);
  const rules = new Set(r.json.findings.map((f) => f.rule));
  assert.deepEqual([...rules], ['bundle/extension-not-allowed']);
  assert.ok(r.json.findings.every((f) => f.file.endsWith('.map')));
});
