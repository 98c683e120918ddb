// The scaffold's type-check: `tsc --noEmit -p jsconfig.json` passes on a fresh
// scaffold with its own configuration and contract-snapshot/platform.d.ts, and the
// declarations have teeth: a copy with one wrong call (an unknown method, a wrong payload
// type, a misspelt capability, a wrong form name, a wrong action) fails, while the same
// call written correctly passes. Each row is one statement appended to runtime/main.js;
// failures are asserted by TypeScript's error position (the appended line), not its prose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/project.mjs';
import { initScaffold } from '../support/scaffold.mjs';

const TSC = join(ROOT, 'node_modules/.bin/tsc');

function typecheck(dir) {
  const r = spawnSync(TSC, ['--noEmit', '-p', join(dir, 'jsconfig.json')], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** [what, correct statement, the same statement with one mistake]. */
const ROWS = [
  ['an unknown method', "void platform.cart.manage('add', { productId: 1001 });", 'void platform.cart.empty();'],
  ['a wrong payload type', "void platform.cart.manage('add', { productId: 1001, quantity: 2 });", "void platform.cart.manage('add', { productId: '1001', quantity: 2 });"],
  ['an unknown payload field', 'void platform.catalog.products({ limit: 24 });', 'void platform.catalog.products({ limit: 24, sort: "price" });'],
  ['a catalog limit that is not 12 or 24', 'void platform.catalog.products({ limit: 12 });', 'void platform.catalog.products({ limit: 10 });'],
  ['a misspelt capability', "void platform.request('cart.manage', 'add', { productId: 1001 });", "void platform.request('cart.mange', 'add', { productId: 1001 });"],
  ['a misspelt capability in a grant test', "void platform.capabilities().includes('site.theme.read');", "void platform.capabilities().includes('site.theme.raed');"],
  ['a wrong form name', "void platform.forms.submit('newsletter', { email: 'a@example.com' });", "void platform.forms.submit('newsleter', { email: 'a@example.com' });"],
  ['fields of the other form', "void platform.forms.submit('newsletter', { email: 'a@example.com' });", "void platform.forms.submit('newsletter', { email: 'a@example.com', subject: 'Hi' });"],
  ['a wrong cart action', "void platform.cart.manage('remove', { productId: 1001 });", "void platform.cart.manage('delete', { productId: 1001 });"],
  ['a wrong waiver kind', "void platform.waivers.start('rental');", "void platform.waivers.start('tour');"],
];

test('a fresh scaffold type-checks with its own jsconfig.json and the snapshot declarations', async (t) => {
  const { dir } = initScaffold(t);
  assert.ok(existsSync(join(dir, 'contract-snapshot/platform.d.ts')), 'contract-snapshot/platform.d.ts is written by init');
  const r = typecheck(dir);
  assert.equal(r.status, 0, r.output);
  assert.equal(r.output, '');
});

test('the declarations have teeth: each wrong call fails tsc at its line, its correct form passes', async (t) => {
  const { dir } = initScaffold(t);
  const main = join(dir, 'runtime/main.js');
  const original = readFileSync(main, 'utf8');
  const line = original.split('\n').length; // the appended statement's 1-based line
  // Every correct statement at once: one run proves they all pass.
  writeFileSync(main, original);
  appendFileSync(main, ROWS.map(([, good]) => good).join('\n') + '\n');
  const good = typecheck(dir);
  assert.equal(good.status, 0, `the correct statements pass:\n${good.output}`);
  for (const [what, , bad] of ROWS) {
    writeFileSync(main, original + bad + '\n');
    const r = typecheck(dir);
    assert.notEqual(r.status, 0, `${what}: tsc fails`);
    assert.match(r.output, new RegExp(`runtime/main\\.js\\(${line},\\d+\\): error TS\\d+`), `${what}: the error is on the appended line\n${r.output}`);
  }
  // Without the declarations nothing type-checks: the configuration is what wires them in.
  writeFileSync(main, original);
  writeFileSync(join(dir, 'jsconfig.json'), readFileSync(join(dir, 'jsconfig.json'), 'utf8').replace(', "contract-snapshot/platform.d.ts"', ''));
  assert.notEqual(typecheck(dir).status, 0, 'jsconfig.json without platform.d.ts fails');
});
