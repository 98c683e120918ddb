// Where init finds this tool to link a Vite project to it (src/node/tool-root.ts), both
// sides: the repository (and a copy with its package.json and dist/platform-ext.mjs) is
// found; a folder of another package, no package at all, or a copy in npx's cache is not.
// package.json gets platform-ext as given, keys in byte order; and the package's prepare
// script leaves a built copy alone when npm runs it for a project that links it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileSpecifier, toolRoot } from '../../build/node/tool-root.js';
import { withToolDependency } from '../../build/ops/init-project.js';
import { ROOT } from '../support/project.mjs';
import { tempParent } from '../support/scaffold.mjs';

/** A fake install of a package called `name` under `dir`, with a built command when `built`. */
function fakePackage(dir, name, built) {
  mkdirSync(join(dir, 'dist/cli'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name }));
  if (built) writeFileSync(join(dir, 'dist/platform-ext.mjs'), '');
  writeFileSync(join(dir, 'dist/cli/init.mjs'), '');
  return pathToFileURL(join(dir, 'dist/cli/init.mjs')).href;
}

test('toolRoot finds the installed tool, and refuses what a project cannot link', (t) => {
  assert.deepEqual(toolRoot(), { ok: true, path: ROOT });
  const parent = tempParent(t, 'platform-ext-root-');
  const rows = [
    ['installed', 'lib/node_modules/platform-ext', 'platform-ext', true, true],
    ['another package', 'other', 'vite', true, false],
    ['not built', 'unbuilt/platform-ext', 'platform-ext', false, false],
    ['npx cache', '_npx/0123abcd/node_modules/platform-ext', 'platform-ext', true, false],
  ];
  for (const [what, rel, name, built, ok] of rows) {
    const dir = join(parent, rel);
    const found = toolRoot(fakePackage(dir, name, built));
    assert.equal(found.ok, ok, what);
    if (ok) assert.equal(found.path, dir, what);
    else assert.equal(typeof found.why, 'string', what);
  }
  assert.equal(toolRoot('https://example.test/x.mjs').ok, false, 'not a file');
});

test('withToolDependency adds platform-ext as given, devDependencies in byte order', () => {
  const template = JSON.stringify({ name: '@a/b', devDependencies: { vite: '^6', typescript: '^7' } });
  const out = JSON.parse(withToolDependency(template, fileSpecifier('/opt/platform-ext')));
  assert.deepEqual(Object.entries(out.devDependencies), [
    ['platform-ext', 'file:/opt/platform-ext'],
    ['typescript', '^7'],
    ['vite', '^6'],
  ]);
});

test('prepare leaves a built copy alone when npm runs it for a project that links it', (t) => {
  const project = tempParent(t, 'platform-ext-linker-');
  const before = statSync(join(ROOT, 'dist/platform-ext.mjs')).mtimeMs;
  const env = { ...process.env, INIT_CWD: project };
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/prepare.mjs')], { cwd: ROOT, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout + r.stderr, '', 'no build ran');
  assert.equal(statSync(join(ROOT, 'dist/platform-ext.mjs')).mtimeMs, before);
});
