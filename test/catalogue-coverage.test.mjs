// A guard against forgotten rules: every id in the catalogue is named by at least one
// test file (each area's tests assert rule ids, so a rule nobody names is untested).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES } from '../build/validator/rules.js';

const here = dirname(fileURLToPath(import.meta.url));

test('every catalogued rule id appears in some test', () => {
  const text = readdirSync(here)
    .filter((n) => n.endsWith('.test.mjs') && n !== 'catalogue-coverage.test.mjs')
    .map((n) => readFileSync(join(here, n), 'utf8'))
    .join('\n');
  // manifest/protocol-version is built from manifest/schema-version's rows (test/manifest.test.mjs).
  const named = (id) => text.includes(id) || (id === 'manifest/protocol-version' && text.includes("replaceAll('schema', 'protocol')"));
  assert.deepEqual(RULES.map((r) => r.id).filter((id) => !named(id)), []);
});
