// package under faults: a full disk or a file-size limit is a clear
// usage error naming the path, never "internal error"; a run killed with SIGKILL at any
// phase of the write leaves --out present and whole at every instant, and the next run
// removes the leftovers and writes a set that verifies. The kill points come from the
// PLATFORM_EXT_TEST_PAUSE_AT hook (src/commands/package.ts): the process announces the
// phase on stderr and sleeps there, so the kill lands exactly at that phase.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXT, run, workspace } from '../support/hostile.mjs';

const ws = workspace();
process.on('exit', () => ws.cleanup());
const FIVE = ['bundle.zip', 'manifest.json', 'publisher-public-key.txt', 'signature.txt', 'submission.json'];

/** Starts package paused at `phase`; resolves once it says so, then kills it with SIGKILL. */
function killAt(project, out, phase) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [EXT, 'package', project, '--out', out, '--private-key', ws.key], {
      env: { ...process.env, PLATFORM_EXT_TEST_PAUSE_AT: phase },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const watchdog = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`package never reached ${phase}: ${stderr}`));
    }, 30_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes(`paused at ${phase}`)) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      clearTimeout(watchdog);
      if (signal === 'SIGKILL' && stderr.includes(`paused at ${phase}`)) resolve();
      else reject(new Error(`package ended with ${code ?? signal} before ${phase}: ${stderr}`));
    });
  });
}

function assertWholeSet(out) {
  assert.ok(lstatSync(out).isDirectory(), `${out} is missing`);
  assert.deepEqual(readdirSync(out).sort(), FIVE);
}

function leftovers(out) {
  const parent = join(out, '..');
  return readdirSync(parent).filter((n) => n.startsWith(`.${out.split('/').pop()}.`));
}

const REPLACE_PHASES = ['staging', 'staged', ...FIVE.map((n) => `renamed:${n}`)];

for (const phase of REPLACE_PHASES) {
  test(`killed at ${phase} while replacing an earlier set: --out stays, the next run cleans up`, async () => {
    const out = join(ws.root, `out-replace-${phase.replace(/[^a-z]/g, '')}`);
    assert.equal(run(EXT, ['package', ws.project, '--out', out, '--private-key', ws.key]).status, 0);
    const before = readFileSync(join(out, 'bundle.zip'));
    await killAt(ws.project, out, phase);
    assertWholeSet(out);
    if (phase === 'staging' || phase === 'staged') assert.deepEqual(readFileSync(join(out, 'bundle.zip')), before, 'nothing was moved in yet');
    const again = run(EXT, ['package', ws.project, '--out', out, '--private-key', ws.key]);
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(leftovers(out), [], 'staging folders of the killed run were removed');
    assertWholeSet(out);
    assert.equal(run(EXT, ['verify', out, '--json']).status, 0);
  });
}

for (const phase of ['staging', 'staged']) {
  test(`killed at ${phase} with no earlier set: no partial --out, the next run cleans up`, async () => {
    const out = join(ws.root, `out-new-${phase}`);
    await killAt(ws.project, out, phase);
    assert.equal(existsSync(out), false, 'a new --out appears whole or not at all');
    assert.notDeepEqual(leftovers(out), [], 'the killed run left its staging folder');
    const again = run(EXT, ['package', ws.project, '--out', out, '--private-key', ws.key]);
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(leftovers(out), []);
    assert.equal(run(EXT, ['verify', out, '--json']).status, 0);
  });
}

test('a staging-like folder holding files package never writes is left alone', () => {
  const out = join(ws.root, 'out-foreign');
  const foreign = join(ws.root, '.out-foreign.staging-mine');
  mkdirSync(foreign);
  spawnSync('touch', [join(foreign, 'thesis.tex')]);
  assert.equal(run(EXT, ['package', ws.project, '--out', out, '--private-key', ws.key]).status, 0);
  assert.ok(existsSync(join(foreign, 'thesis.tex')));
});

test('a file-size limit (EFBIG) is a usage error naming the path, and --out is not created', () => {
  const out = join(ws.root, 'out-efbig');
  // ulimit -f 0: no file may grow at all.
  const r = spawnSync('bash', ['-c', `ulimit -f 0; exec "${process.execPath}" "${EXT}" package "${ws.project}" --out "${out}" --private-key "${ws.key}"`], { encoding: 'utf8' });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /EFBIG at ".*bundle\.zip"/);
  assert.doesNotMatch(r.stderr, /internal error/);
  assert.equal(existsSync(out), false);
  assert.deepEqual(leftovers(out), []);
});

test('a full disk (ENOSPC, a small tmpfs) is a usage error naming the path', (t) => {
  const mountPoint = join(ws.root, 'small-disk');
  mkdirSync(mountPoint);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', mountPoint]);
  if (mounted.status !== 0) return t.skip('cannot mount a tmpfs here (needs root)');
  t.after(() => spawnSync('umount', [mountPoint]));
  const out = join(mountPoint, 'release');
  const r = run(EXT, ['package', ws.project, '--out', out, '--private-key', ws.key]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /ENOSPC at "/);
  assert.doesNotMatch(r.stderr, /internal error/);
  assert.equal(existsSync(out), false);
  assert.deepEqual(readdirSync(mountPoint), [], 'the staging folder was removed');
});
