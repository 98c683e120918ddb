// A command pointed at the wrong kind of folder says so once, with exit status 2 (D-21),
// instead of a finding per file: `verify` and `platform-review` given a project folder
// (runtime/, no bundle.zip) name package's --out folder; `check`, `package` and `preview`
// given a project's runtime/ folder name the project folder. Both sides: a submission set
// with a stray runtime/ folder is still reviewed (its extra entry is a finding), and a
// project that happens to be called "runtime" is checked as usual.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, runCli, runReview } from '../support/project.mjs';
import { initScaffold, tempParent } from '../support/scaffold.mjs';

/** One line on stderr, nothing on stdout, exit status 2. */
function usage(r, what) {
  assert.equal(r.status, 2, `${what}: ${r.stdout}${r.stderr}`);
  assert.equal(r.stdout, '', what);
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, `${what}: one message`);
  return r.stderr;
}

test('verify and platform-review given a project folder: one usage message naming package --out', (t) => {
  const { dir } = initScaffold(t);
  for (const [what, r] of [
    ['verify', runCli(['verify', dir])],
    ['verify --json', runCli(['verify', dir, '--json'])],
    ['platform-review', runReview([dir])],
  ]) {
    const message = usage(r, what);
    assert.match(message, /--out/, what);
    assert.match(message, /platform-ext package/, what);
  }
});

test('a submission set with a stray runtime/ folder is still verified, with a finding for it', (t) => {
  const { dir, parent } = initScaffold(t);
  const keys = join(parent, 'keys');
  mkdirSync(keys);
  assert.equal(runCli(['keygen', '--private-key', join(keys, 'k.pem'), '--public-key', join(keys, 'k.pub')]).status, 0);
  const out = join(parent, 'release');
  const pack = runCli(['package', dir, '--out', out, '--private-key', join(keys, 'k.pem')]);
  assert.equal(pack.status, 0, pack.stderr);
  mkdirSync(join(out, 'runtime'));
  const r = runCli(['verify', out, '--json']);
  assert.equal(r.status, 1, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).findings.map((f) => [f.rule, f.file]), [['release/unexpected-file', 'runtime']]);
});

test('check, package --dry-run and preview run inside runtime/: one usage message naming the project folder', (t) => {
  const { dir } = initScaffold(t);
  const runtime = join(dir, 'runtime');
  for (const [what, r] of [
    ['check .', runCli(['check'], { cwd: runtime })],
    ['check <dir>/runtime', runCli(['check', runtime, '--json'])],
    ['package --dry-run', runCli(['package', runtime, '--dry-run'])],
    ['preview', runCli(['preview', '--port', '0'], { cwd: runtime })],
  ]) {
    const message = usage(r, what);
    assert.match(message, /runtime\/ folder of a project/, what);
  }
  assert.match(runCli(['check'], { cwd: runtime }).stderr, /cd \.\./);
});

test('a project folder called runtime is checked as a project', (t) => {
  const dir = makeProject(t);
  const renamed = join(tempParent(t), 'runtime');
  renameSync(dir, renamed);
  const r = runCli(['check', renamed, '--json']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(JSON.parse(r.stdout).ok, true);
});
