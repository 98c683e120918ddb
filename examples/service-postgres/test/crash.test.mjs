// Crashes between the database and the files. An operator approves a submission, whose
// effects are: leave the review queue, copy the bundle to immutable storage, delete the
// working files. A process is SIGKILLed at one point: the approving process right after its
// commit, or the outbox worker before, during or after the bundle copy (or after deleting
// the working files, before marking that done). The worker is then started again. After
// that, every effect has happened exactly once: the bundle is in storage with the submitted
// bytes (linked there once), every outbox entry is done and journalled once, and no working
// file or half-written copy is left.
//
// With SERVICE_PG_MODE=no-outbox (effects performed by the approving process after its
// commit) or SERVICE_PG_MODE=unordered (the worker takes the newest effect first), every
// crash test here fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODE, freshDatabase, freshFolders, givenPublisher, givenSubmission, operator, outbox, serviceFor } from './helpers.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const APPROVE = join(HERE, 'fixtures', 'approve.mjs');
const WORKER = join(HERE, '..', 'bin', 'worker.mjs');
const STORAGE_PATH = 'extensions/acme/shelf/1.0.0/bundle.zip';

function node(script, args, env) {
  const r = spawnSync(process.execPath, [script, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, signal: r.signal, output: `${r.stdout}${r.stderr}` };
}

function workerArgs(dirs, extra = []) {
  const args = ['--working', dirs.working, '--storage', dirs.storage, '--staging', dirs.staging, '--until-idle', ...extra];
  if (MODE === 'unordered') args.push('--unordered');
  return args;
}

/** A trusted publisher's submission awaiting review, its five files in the working folder. */
async function scenario(t) {
  const { pool, name } = await freshDatabase(t);
  const { root, dirs, files } = freshFolders(t);
  const svc = serviceFor(pool);
  const publisherId = await givenPublisher(svc);
  const { id, bundle } = await givenSubmission(svc, files, publisherId);
  return { pool, name, root, dirs, files, svc, id, bundle, trace: join(root, 'trace.txt') };
}

/** Every effect happened exactly once, and nothing of the working files outlived the decision. */
async function assertSettled(s) {
  // The files first: what a store and the publisher would see.
  const stored = join(s.dirs.storage, STORAGE_PATH);
  assert.ok(existsSync(stored), 'the bundle is in immutable storage');
  assert.ok(readFileSync(stored).equals(s.bundle), 'with the submitted bytes');
  assert.ok(!existsSync(s.files.workingFolder(s.id)), 'no working file outlived the decision');
  assert.deepEqual(readdirSync(s.dirs.staging), [], 'no half-written copy is left');
  const trace = existsSync(s.trace) ? readFileSync(s.trace, 'utf8') : '';
  assert.equal(trace.split('\n').filter((l) => l.startsWith('copy-linked ')).length, 1, 'the bundle was linked into storage once');
  // Then the bookkeeping: each effect queued once, done and journalled once.
  const record = await s.svc.get('release-submission', s.id);
  assert.equal(record.state, 'approved');
  const entries = await outbox(s.pool);
  const mine = entries.filter((e) => e.stream === s.id).map((e) => e.effect.type);
  assert.deepEqual(mine, ['keep-validation-report', 'keep-working-files-private', 'queue-for-review', 'leave-review-queue', 'copy-bundle-to-immutable-storage', 'delete-working-files']);
  assert.deepEqual(entries.filter((e) => !e.done).map((e) => e.effect.type), [], 'every effect is done');
  const journal = await s.pool.query('SELECT seq FROM effect_journal ORDER BY seq');
  assert.deepEqual(journal.rows.map((r) => Number(r.seq)), entries.map((e) => e.seq), 'each effect journalled once');
}

const CRASHES = [
  { name: 'the approving process, right after its commit', point: 'after-commit' },
  { name: 'the worker before the bundle copy', point: 'effect-started:copy-bundle-to-immutable-storage' },
  { name: 'the worker during the bundle copy', point: 'copy-half-written' },
  { name: 'the worker after the bundle copy, before marking it done', point: 'copy-linked' },
  { name: 'the worker after deleting the working files, before marking it done', point: 'working-files-deleted' },
];

for (const crash of CRASHES) {
  test(`SIGKILL of ${crash.name}: after a restart every effect happened exactly once`, async (t) => {
    const s = await scenario(t);
    const env = { PGDATABASE: s.name, TRACE: s.trace, SERVICE_PG_MODE: MODE };
    // Without an outbox the approving process performs the effects itself, so it is the
    // one that dies at the worker's points.
    const approverDies = crash.point === 'after-commit' || MODE === 'no-outbox';
    const approve = node(APPROVE, [s.id, JSON.stringify(s.dirs)], { ...env, CRASH_AT: crash.point });
    if (approverDies) {
      assert.equal(approve.signal, 'SIGKILL', approve.output);
    } else {
      assert.equal(approve.status, 0, approve.output);
      const killed = node(WORKER, workerArgs(s.dirs, ['--trace', s.trace, '--crash-at', crash.point]), env);
      assert.equal(killed.signal, 'SIGKILL', `the worker reached ${crash.point}: ${killed.output}`);
    }
    const restarted = node(WORKER, workerArgs(s.dirs, ['--trace', s.trace]), env);
    assert.equal(restarted.status, 0, restarted.output);
    await assertSettled(s);
  });
}

test('storage is write-once: other bytes at the path fail the copy, and the working files wait for it', async (t) => {
  const s = await scenario(t);
  const stored = join(s.dirs.storage, STORAGE_PATH);
  mkdirSync(join(stored, '..'), { recursive: true });
  writeFileSync(stored, 'other bytes');
  const env = { PGDATABASE: s.name, SERVICE_PG_MODE: MODE };
  assert.equal(node(APPROVE, [s.id, JSON.stringify(s.dirs)], env).status, 0);
  const worker = node(WORKER, workerArgs(s.dirs), env);
  assert.equal(worker.status, 1, worker.output);
  const result = JSON.parse(worker.output.trim().split('\n').at(-1));
  assert.equal(result.failed.length, 1);
  assert.match(result.failed[0].error, /write-once/);
  assert.equal(readFileSync(stored, 'utf8'), 'other bytes', 'storage kept its bytes');
  assert.ok(existsSync(join(s.files.workingFolder(s.id), 'bundle.zip')), 'the working files are kept until the bundle is stored');
  const pending = (await outbox(s.pool)).filter((e) => !e.done).map((e) => e.effect.type);
  assert.deepEqual(pending, ['copy-bundle-to-immutable-storage', 'delete-working-files']);
});

test('storage that already holds the same bytes makes the copy a no-op', async (t) => {
  const s = await scenario(t);
  const stored = join(s.dirs.storage, STORAGE_PATH);
  mkdirSync(join(stored, '..'), { recursive: true });
  writeFileSync(stored, s.bundle);
  const env = { PGDATABASE: s.name, TRACE: s.trace, SERVICE_PG_MODE: MODE };
  assert.equal(node(APPROVE, [s.id, JSON.stringify(s.dirs)], env).status, 0);
  const worker = node(WORKER, workerArgs(s.dirs, ['--trace', s.trace]), env);
  assert.equal(worker.status, 0, worker.output);
  assert.ok(readFileSync(stored).equals(s.bundle));
  assert.ok(!existsSync(s.files.workingFolder(s.id)));
  assert.deepEqual((await outbox(s.pool)).filter((e) => !e.done), []);
  const trace = readFileSync(s.trace, 'utf8');
  assert.ok(!trace.includes('copy-linked'), 'nothing was written to storage');
});

test('the worker keeps running effects of other submissions when one fails', async (t) => {
  const s = await scenario(t);
  const other = await givenSubmission(s.svc, s.files, (await s.svc.get('release-submission', s.id)).publisherId, { version: '1.1.0' });
  const stored = join(s.dirs.storage, STORAGE_PATH);
  mkdirSync(join(stored, '..'), { recursive: true });
  writeFileSync(stored, 'other bytes');
  const env = { PGDATABASE: s.name, SERVICE_PG_MODE: MODE };
  assert.equal(node(APPROVE, [s.id, JSON.stringify(s.dirs)], env).status, 0);
  const approved = await s.svc.submission(other.id, { type: 'approve', actor: operator('op-approver') });
  assert.ok(approved.ok, approved.refusal?.code);
  const worker = node(WORKER, workerArgs(s.dirs), env);
  assert.equal(worker.status, 1, worker.output);
  assert.ok(readFileSync(join(s.dirs.storage, 'extensions/acme/shelf/1.1.0/bundle.zip')).equals(other.bundle));
  assert.ok(!existsSync(s.files.workingFolder(other.id)));
  assert.ok(existsSync(s.files.workingFolder(s.id)));
});
