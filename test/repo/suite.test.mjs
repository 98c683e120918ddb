// The suite's explicit list (scripts/test-files.mjs) holds every test file under test/, and
// every file it lists exists: a test written but not listed would never run, and a listed
// file that moved would stop the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_FILES, testFilesOnDisk } from '../../scripts/test-files.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('scripts/test-files.mjs lists exactly the test files under test/', () => {
  assert.deepEqual(TEST_FILES, testFilesOnDisk(root));
});

test('the list is sorted, without duplicates, and nothing sits at the top of test/', () => {
  assert.deepEqual(TEST_FILES, [...new Set(TEST_FILES)].sort());
  assert.deepEqual(TEST_FILES.filter((path) => path.split('/').length < 3), []);
});

test('the walk finds test files in area folders and skips data and support folders', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'suite-list-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const path of ['test/a/one.test.mjs', 'test/b/c/two.test.mjs', 'test/fixtures/x.test.mjs', 'test/corpus/y.test.mjs', 'test/support/z.test.mjs', 'test/a/helper.mjs']) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), '');
  }
  assert.deepEqual(testFilesOnDisk(dir), ['test/a/one.test.mjs', 'test/b/c/two.test.mjs']);
});
