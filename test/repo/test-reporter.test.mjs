// scripts/test-reporter.mjs, the reporter of `npm test`: one line per passing file and the
// totals (what passing files print is dropped); a failing test in full (file, suite and
// test name, assertion, stack, the file's output); a file that fails outside any test; and
// TAP on request through scripts/test.mjs --tap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../support/project.mjs';

const REPORTER = pathToFileURL(join(ROOT, 'scripts/test-reporter.mjs')).href;
const fixture = (name) => join('test/fixtures/reporter', name);
/** The environment of a top-level run: NODE_TEST_CONTEXT would make the nested runner report to this one instead. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT'));

function report(...names) {
  const r = spawnSync(process.execPath, ['--test', `--test-reporter=${REPORTER}`, '--test-reporter-destination=stdout', ...names.map(fixture)], { cwd: ROOT, encoding: 'utf8', env });
  return { status: r.status, lines: r.stdout.split('\n').filter((l) => l !== ''), stdout: r.stdout, stderr: r.stderr };
}

test('success: one line for the file, node totals, then "N passed, N failed"; printed output is dropped', () => {
  const r = report('passes.mjs');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.lines[0], /^ok {4}test\/fixtures\/reporter\/passes\.mjs {2}3 passed, 1 skipped {2}\d+\.\d s$/);
  assert.deepEqual(r.lines.slice(1, -1).map((l) => l.split(' ')[1]), ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'duration_ms']);
  assert.equal(r.lines.at(-1), '3 passed, 0 failed');
  assert.equal(r.lines.length, 10);
  assert.doesNotMatch(r.stdout, /chatter/);
});

test('a failing test: file, suite > test, assertion, stack and the file output, then the list of failures', () => {
  const r = report('passes.mjs', 'fails.mjs');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^FAIL {2}test\/fixtures\/reporter\/fails\.mjs {2}1 passed, 1 failed/m);
  assert.match(r.stdout, /✖ test\/fixtures\/reporter\/fails\.mjs > outer suite > inner test\n/);
  assert.match(r.stdout, /sum of the fixture/);
  assert.match(r.stdout, /actual: 2,\s+expected: 3,\s+operator: 'strictEqual'/);
  assert.match(r.stdout, /at TestContext\.<anonymous> \(file:\/\/.*fails\.mjs:8:/);
  assert.match(r.stdout, /\| output before the failure/);
  assert.doesNotMatch(r.stdout, /chatter/, 'output of the passing file stays dropped');
  assert.match(r.stdout, /\nFailed:\n {2}test\/fixtures\/reporter\/fails\.mjs > outer suite > inner test\n/);
  assert.equal(r.lines.at(-1), '4 passed, 1 failed');
});

test('a file that throws at load: its exit status and what it printed', () => {
  const r = report('crashes.mjs');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^FAIL {2}test\/fixtures\/reporter\/crashes\.mjs/m);
  assert.match(r.stdout, /the file failed outside any test \(exit status 1\)/);
  assert.match(r.stdout, /\| Error: fixture thrown at load/);
  assert.equal(r.lines.at(-1), '0 passed, 1 failed');
});

test('scripts/test.mjs: --tap gives node TAP reporter; an unknown option is a usage error', () => {
  let r = spawnSync(process.execPath, ['scripts/test.mjs', '--tap', 'self-contained'], { cwd: ROOT, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^TAP version 13$/m);
  assert.match(r.stdout, /^# pass \d+$/m);
  r = spawnSync(process.execPath, ['scripts/test.mjs', '--verbose'], { cwd: ROOT, encoding: 'utf8', env });
  assert.equal(r.status, 2);
});
