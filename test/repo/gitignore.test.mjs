// What the documented commands write into a clone is ignored by git: the tarball of
// `npm pack` (named <name>-<version>.tgz by npm), beside the folders the build writes.
// Sources stay tracked: a pattern must not catch them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/project.mjs';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** True when git ignores `path` (relative to the clone), whether or not it exists. */
function ignored(path) {
  const r = spawnSync('git', ['check-ignore', '--quiet', '--no-index', path], { cwd: ROOT, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, `git check-ignore: ${r.stderr}`);
  return r.status === 0;
}

test('the outputs of npm pack and the build are ignored; sources are not', () => {
  for (const path of [`${PACKAGE.name}-${PACKAGE.version}.tgz`, 'platform-ext-9.9.9.tgz', 'dist/platform-ext.mjs', 'build/cli.js', 'node_modules/x/index.js']) {
    assert.equal(ignored(path), true, `${path} is ignored`);
  }
  for (const path of ['package.json', 'src/cli.ts', 'templates/vite/package.json', 'test/corpus/README.md', 'scripts/prepare.mjs']) {
    assert.equal(ignored(path), false, `${path} is tracked`);
  }
});
