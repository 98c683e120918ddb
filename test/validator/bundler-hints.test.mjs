// What bundlers leave in their output folder: the finding names the setting of
// the tool that stops it (source maps, .svg from public/, .json data and build manifests,
// Vite's .vite/ folder, webpack's extracted licence files), and a page the build wrote
// somewhere else is named in a "did you mean "entrypoint": ..." computed from the files.
// Rule ids are asserted, and the setting's name (a code token, not prose) in the message;
// each row has its other side: a file the hint must not fire on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBundleListing, toolHintFor } from '../../build/validator/bundle.js';
import { FindingList } from '../../build/validator/findings.js';
import { makeProject, runCli } from '../support/project.mjs';

function findings(entries, entrypoint = 'index.html') {
  const list = new FindingList();
  checkBundleListing(entries, entrypoint, list);
  return list.items;
}
const file = (path) => ({ path, kind: 'file', size: 10 });

test('leftovers of a build: the rule, and the setting that stops each in the message', () => {
  const rows = [
    // [path, rules, token the message names, or null for no tool hint]
    ['assets/index-4f2a.js.map', ['bundle/extension-not-allowed'], 'build.sourcemap: false'],
    ['main.js.map', ['bundle/extension-not-allowed'], '--sourcemap'],
    ['main.js.map', ['bundle/extension-not-allowed'], 'devtool: false'],
    ['logo.svg', ['bundle/extension-not-allowed'], 'publicDir: false'],
    ['data/products.json', ['bundle/extension-not-allowed'], 'build.manifest: false'],
    ['.vite/manifest.json', ['bundle/path-invalid', 'bundle/extension-not-allowed'], 'build.manifest: false'],
    ['main.js.LICENSE.txt', ['bundle/extension-not-allowed'], 'extractComments: false'],
    // The other side: the same rules without a tool to name.
    ['notes.txt', ['bundle/extension-not-allowed'], null],
    ['.hidden.png', ['bundle/path-invalid'], null],
    ['README', ['bundle/extension-not-allowed'], null],
  ];
  for (const [path, expected, token] of rows) {
    const items = findings([file('index.html'), file(path)]);
    assert.deepEqual(items.map((f) => f.rule).sort(), [...expected].sort(), path);
    for (const f of items) {
      if (token === null) assert.equal(/vite|webpack|esbuild|rollup/i.test(f.message), false, `${path}: no tool hint in "${f.message}"`);
      else assert.ok(f.message.includes(token), `${path} (${f.rule}): "${token}" in "${f.message}"`);
    }
  }
  assert.equal(toolHintFor('img/photo.png', 'png'), null);
  assert.equal(toolHintFor('license.txt', 'txt'), null);
});

test('a page the build wrote elsewhere: did you mean "entrypoint": "<that file>", only when it is the one page', () => {
  // The entrypoint absent and one HTML file: the extra-html finding names it.
  let items = findings([file('dist/index.html'), file('dist/main.js')]);
  assert.deepEqual(items.map((f) => f.rule), ['bundle/extra-html']);
  assert.ok(items[0].message.includes('"entrypoint": "dist/index.html"'));
  // The other side: the entrypoint is there, or there are two candidates.
  items = findings([file('index.html'), file('dist/index.html')]);
  assert.deepEqual(items.map((f) => f.rule), ['bundle/extra-html']);
  assert.equal(items[0].message.includes('"entrypoint":'), false);
  items = findings([file('a/index.html'), file('b/index.html')]);
  assert.deepEqual(items.map((f) => f.rule), ['bundle/extra-html', 'bundle/extra-html']);
  assert.equal(items.some((f) => f.message.includes('"entrypoint":')), false);
});

test('check: the missing entrypoint names the only page of the bundle at /entrypoint', (t) => {
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>t</title><script type="module" src="main.js"></script></head><body></body></html>\n';
  const moved = makeProject(t, { defaults: false, files: { 'runtime/dist/index.html': html, 'runtime/dist/main.js': 'export {};\n' } });
  let r = runCli(['check', moved, '--json']);
  const missing = r.json.findings.find((f) => f.rule === 'bundle/entrypoint-missing');
  assert.equal(missing.pointer, '/entrypoint');
  assert.ok(missing.message.includes('"entrypoint": "dist/index.html"'), missing.message);
  // Two pages: no guess.
  const two = makeProject(t, { defaults: false, files: { 'runtime/a/index.html': html, 'runtime/b/index.html': html, 'runtime/a/main.js': 'export {};\n', 'runtime/b/main.js': 'export {};\n' } });
  r = runCli(['check', two, '--json']);
  const none = r.json.findings.find((f) => f.rule === 'bundle/entrypoint-missing');
  assert.equal(none.message.includes('"entrypoint":'), false);
});
