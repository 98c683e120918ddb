// package under faults: a full disk or a file-size limit is a clear
// usage error naming the path, never "internal error"; a run killed with SIGKILL at any
// phase of the write leaves --out present and whole at every instant, and the next run
// removes the leftovers and writes a set that verifies. The kill points come from the use
// case's onStage seam (test/support/paused-run.mjs runs package with it): the process
// announces the stage on stderr and sleeps there, so the kill lands exactly at that stage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXT, run, workspace } from '../support/hostile.mjs';
import { ROOT } from '../support/project.mjs';

const PAUSED_RUN = join(ROOT, 'test/support/paused-run.mjs');

const ws = workspace();
process.on('exit', () => ws.cleanup());
const FIVE = ['bundle.zip', 'manifest.json', 'publisher-public-key.txt', 'signature.txt', 'submission.json'];

/** Starts package paused at `phase`; resolves once it says so, then kills it with SIGKILL. */
function killAt(project, out, phase) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PAUSED_RUN, 'package', project, out, ws.key, phase], { stdio: ['ignore', 'ignore', 'pipe'] });
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

/** The marker package keeps beside the five files: its proof that they are its own. */
const MARKER = '.platform-ext-output';

function assertWholeSet(out) {
  assert.ok(lstatSync(out).isDirectory(), `${out} is missing`);
  assert.deepEqual(readdirSync(out).sort(), [MARKER, ...FIVE]);
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

/** Every file under `dir` (relative path -> bytes as hex), to compare a folder before and after. */
function snapshot(dir) {
  const files = {};
  for (const name of readdirSync(dir, { recursive: true }).sort()) {
    const path = join(dir, name);
    files[name] = lstatSync(path).isDirectory() ? 'folder' : readFileSync(path).toString('hex');
  }
  return files;
}

test('--out holding a user\'s own manifest.json and signature.txt: exit 2, every byte left in place', () => {
  const out = join(ws.root, 'out-users-own');
  mkdirSync(out);
  writeFileSync(join(out, 'manifest.json'), '{"my": "own manifest, hand-written"}\n');
  writeFileSync(join(out, 'signature.txt'), 'my notes\n');
  const before = snapshot(out);
  const r = run(EXT, ['package', ws.project, '--out', out, '--private-key', ws.key]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /manifest\.json/);
  assert.deepEqual(snapshot(out), before);
  assert.deepEqual(leftovers(out), []);
});

test('--out holding a set package wrote, with manifest.json changed since: exit 2, nothing replaced', () => {
  const out = join(ws.root, 'out-changed-since');
  assert.equal(run(EXT, ['package', ws.project, '--out', out, '--private-key', ws.key]).status, 0);
  writeFileSync(join(out, 'manifest.json'), readFileSync(join(out, 'manifest.json'), 'utf8').replace('}', ' }'));
  const before = snapshot(out);
  const r = run(EXT, ['package', ws.project, '--out', out, '--private-key', ws.key]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /"manifest\.json", which is not what package wrote there/);
  assert.deepEqual(snapshot(out), before);
});

test('re-running package into its own earlier output replaces the set; verify accepts it, marker and all', () => {
  const project = ws.fresh('project');
  const out = join(ws.root, 'out-rerun');
  assert.equal(run(EXT, ['package', project, '--out', out, '--private-key', ws.key]).status, 0);
  const first = readFileSync(join(out, 'manifest.json'), 'utf8');
  const manifest = JSON.parse(first);
  writeFileSync(join(project, 'manifest.json'), JSON.stringify({ ...manifest, version: '1.0.1' }, null, 2) + '\n');
  const again = run(EXT, ['package', project, '--out', out, '--private-key', ws.key]);
  assert.equal(again.status, 0, again.stderr);
  assertWholeSet(out);
  assert.equal(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).version, '1.0.1');
  assert.equal(readFileSync(join(out, MARKER), 'latin1').split('\n').length, 7, 'the marker lists the five new files only');
  const verified = run(EXT, ['verify', out, '--json']);
  assert.equal(verified.status, 0, verified.stdout);
  assert.deepEqual(verified.json.findings, []);
  assert.deepEqual(leftovers(out), []);
});

test('two runs killed midway through replacing, each with other content: the next run still proves --out its own', async () => {
  const out = join(ws.root, 'out-killed-twice');
  const versions = ['1.0.0', '1.0.1', '1.0.2', '1.0.3'].map((version) => {
    const project = ws.fresh('project');
    const manifest = JSON.parse(readFileSync(join(project, 'manifest.json'), 'utf8'));
    writeFileSync(join(project, 'manifest.json'), JSON.stringify({ ...manifest, version }, null, 2) + '\n');
    return project;
  });
  assert.equal(run(EXT, ['package', versions[0], '--out', out, '--private-key', ws.key]).status, 0);
  await killAt(versions[1], out, 'renamed:manifest.json');
  await killAt(versions[2], out, 'renamed:bundle.zip');
  const last = run(EXT, ['package', versions[3], '--out', out, '--private-key', ws.key]);
  assert.equal(last.status, 0, last.stderr);
  assertWholeSet(out);
  assert.equal(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).version, '1.0.3');
  assert.equal(run(EXT, ['verify', out, '--json']).status, 0);
  assert.deepEqual(leftovers(out), []);
});

test('a file named like the marker that is not one exactly as package writes it is a sixth file to verify', () => {
  const out = join(ws.root, 'out-other-marker');
  assert.equal(run(EXT, ['package', ws.project, '--out', out, '--private-key', ws.key]).status, 0);
  const marker = readFileSync(join(out, MARKER), 'latin1');
  writeFileSync(join(out, MARKER), `${marker}token=0123456789abcdef\n`);
  const r = run(EXT, ['verify', out, '--json']);
  assert.equal(r.status, 1);
  assert.deepEqual(
    r.json.findings.map((f) => [f.rule, f.file]),
    [['release/unexpected-file', MARKER]],
  );
});

test('leftover staging and previous folders package cannot prove its own are left alone', () => {
  const out = join(ws.root, 'out-leftovers');
  const staging = join(ws.root, '.out-leftovers.staging-abc123');
  const previous = join(ws.root, '.out-leftovers.previous-abc123');
  for (const folder of [staging, previous]) {
    mkdirSync(folder);
    for (const name of FIVE) writeFileSync(join(folder, name), `my own ${name}\n`);
  }
  const before = [snapshot(staging), snapshot(previous)];
  const r = run(EXT, ['package', ws.project, '--out', out, '--private-key', ws.key]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual([snapshot(staging), snapshot(previous)], before);
  assertWholeSet(out);
});

test('a file-size limit (EFBIG) is a usage error naming the path, and --out is not created', () => {
  const out = join(ws.root, 'out-efbig');
  // ulimit -f 0: no file may grow at all.
  const r = spawnSync('bash', ['-c', `ulimit -f 0; exec "${process.execPath}" "${EXT}" package "${ws.project}" --out "${out}" --private-key "${ws.key}"`], { encoding: 'utf8' });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /EFBIG at ".*\.out-efbig\.staging-[^"]*\/\.platform-ext-output"/);
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
