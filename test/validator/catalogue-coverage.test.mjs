// A guard against forgotten rules: every id in the catalogue is named by at least one
// test file of the suite (each area's tests assert rule ids, so a rule nobody names is untested).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES } from '../../build/validator/rules.js';
import { TEST_FILES } from '../../scripts/test-files.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('every catalogued rule id appears in some test', () => {
  const text = TEST_FILES.filter((path) => !path.endsWith('/catalogue-coverage.test.mjs'))
    .map((path) => readFileSync(join(root, path), 'utf8'))
    .join('\n');
  // manifest/protocol-version is built from manifest/schema-version's rows (test/validator/manifest.test.mjs).
  const named = (id) => text.includes(id) || (id === 'manifest/protocol-version' && text.includes("replaceAll('schema', 'protocol')"));
  assert.deepEqual(RULES.map((r) => r.id).filter((id) => !named(id)), []);
});
