// The service core's refusal catalogue and its leaf shape (src/service/): ids are
// permanent and well-formed, each has a title, a contract reference and a fix; every code
// the source refuses with is in the catalogue and every catalogue entry is used; the
// catalogue in contract-snapshot/service-refusals.json is the exported one. src/service/
// imports no node: module and nothing outside itself but the validator's public entry,
// and reads no clock and no randomness.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFUSALS, refusalById } from '../../build/service/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVICE = join(ROOT, 'src/service');
const FILES = readdirSync(SERVICE).filter((n) => n.endsWith('.ts'));
const source = (name) => readFileSync(join(SERVICE, name), 'utf8');

test('refusal ids are permanent-looking, unique, and complete', () => {
  const ids = REFUSALS.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const r of REFUSALS) {
    assert.match(r.id, /^service\/[a-z0-9]+(?:-[a-z0-9]+)*$/);
    assert.ok(r.title.length > 0 && r.ref.length > 0 && r.hint.length > 0, r.id);
    assert.equal(refusalById(r.id), r);
  }
});

test('every code the core refuses with is in the catalogue, and every entry is used', () => {
  const used = new Set();
  for (const name of FILES.filter((n) => n !== 'refusals.ts')) for (const m of source(name).matchAll(/'(service\/[a-z0-9-]+)'/g)) used.add(m[1]);
  const catalogue = new Set(REFUSALS.map((r) => r.id));
  assert.deepEqual([...used].filter((c) => !catalogue.has(c)), [], 'used but not in the catalogue');
  assert.deepEqual([...catalogue].filter((c) => !used.has(c)), [], 'in the catalogue but never used');
});

test('contract-snapshot/service-refusals.json lists the catalogue', () => {
  const doc = JSON.parse(readFileSync(join(ROOT, 'contract-snapshot/service-refusals.json'), 'utf8'));
  assert.equal(doc.format, 'platform-extension-service-refusals-v1');
  assert.deepEqual(doc.refusals, REFUSALS.map((r) => ({ id: r.id, title: r.title, ref: r.ref, hint: r.hint })));
});

const IMPORT = /^(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?(['"])([^'"\n]+)\1|\bimport\(\s*(['"])([^'"\n]+)\3\s*\)/gm;

/** Every import specifier of a source, resolved against src/service/ (or left as is when bare). */
function importsOf(name) {
  return [...source(name).matchAll(IMPORT)].map((m) => {
    const spec = m[2] ?? m[4];
    return spec.startsWith('.') ? posix.normalize(posix.join('src/service', spec)) : spec;
  });
}

test('src/service/ is a leaf: its own files and src/validator/index.js only, no node: module', () => {
  const outside = [];
  for (const name of FILES) {
    for (const target of importsOf(name)) {
      if (target.startsWith('src/service/') && !target.slice('src/service/'.length).includes('/')) continue;
      if (target === 'src/validator/index.js') continue;
      outside.push(`${name} imports ${target}`);
    }
  }
  assert.deepEqual(outside, []);
  // The check can fail: a node: import or a deep validator import is caught.
  const sample = "import { readFileSync } from 'node:fs';\nimport { x } from '../validator/rules.js';\n";
  const caught = [...sample.matchAll(IMPORT)].map((m) => m[2]);
  assert.deepEqual(caught, ['node:fs', '../validator/rules.js']);
});

test('src/service/ reads no clock, no randomness, no I/O and no DOM', () => {
  const banned = [/\bDate\.now\b/, /\bnew Date\(\s*\)/, /\bMath\.random\b/, /\bcrypto\b/, /\bperformance\b/, /\bprocess\b/, /\bfetch\(/, /\bglobalThis\b/, /\bwindow\b/, /\bdocument\b/, /\bsetTimeout\b/, /\brequire\(/];
  const found = [];
  for (const name of FILES) {
    const code = source(name).replace(/^\s*\/\/.*$/gm, '').replace(/\/\*\*[\s\S]*?\*\//g, '');
    for (const re of banned) if (re.test(code)) found.push(`${name}: ${re}`);
  }
  assert.deepEqual(found, []);
});
