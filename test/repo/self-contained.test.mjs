// A fresh clone is the whole project: no test, script, benchmark, CI step, source file or
// package.json reaches outside the repository for a folder beside it (a clone has none).
// Test data lives in test/corpus/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** A path that climbs out of the repository to the folder beside it, written with / or \, or as join() arguments. */
const OUTSIDE = [/\.\.[\\/]+shared\b/, /['"]\.\.['"]\s*,\s*['"]shared\b/];

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

function offenders(paths) {
  const found = [];
  for (const path of paths) {
    const text = readFileSync(path, 'latin1');
    for (const [i, line] of text.split('\n').entries()) {
      if (OUTSIDE.some((re) => re.test(line))) found.push(`${relative(root, path)}:${i + 1}: ${line.trim().slice(0, 120)}`);
    }
  }
  return found;
}

test('nothing under test/, scripts/, bench/, .ci/, src/ or package.json refers to a folder beside the repository', () => {
  const paths = [join(root, 'package.json')];
  for (const dir of ['test', 'scripts', 'bench', '.ci', 'src']) paths.push(...walk(join(root, dir)));
  assert.ok(paths.length > 100, 'the folders were walked');
  assert.deepEqual(offenders(paths), []);
});

test('the check sees each spelling of the path', () => {
  const name = ['sha', 'red'].join(''); // spelt apart, so that this file does not match itself
  const lines = [`new URL('../../${name}/corpus/x', import.meta.url)`, `join(root, '../${name}/design/x.md')`, `join(root, '..', '${name}', 'corpus')`, `type ..\\${name}\\x`];
  for (const line of lines) assert.ok(OUTSIDE.some((re) => re.test(line)), line);
  assert.ok(!OUTSIDE.some((re) => re.test("new URL('./corpus/x', import.meta.url)")));
});
