// The wiring without races: what each command reads into the core's context and what a
// write leaves in the tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { RetriesExhausted } from '../src/store.mjs';
import { OWNER, freshDatabase, givenPublisher, givenSubmission, operator, outbox, passingReport, serviceFor, sha256 } from './helpers.mjs';

test('a refusal writes nothing: no record, no revision, no outbox entry', async (t) => {
  const { pool } = await freshDatabase(t);
  const svc = serviceFor(pool);
  const publisherId = await givenPublisher(svc);
  const { id } = await givenSubmission(svc, null, publisherId, { actor: operator('op-a') });
  const before = await svc.get('release-submission', id);
  const entries = (await outbox(pool)).length;
  const refused = await svc.submission(id, { type: 'approve', actor: operator('op-a') });
  assert.equal(refused.refusal?.code, 'service/approve-own-submission');
  assert.deepEqual(await svc.get('release-submission', id), before);
  assert.equal((await outbox(pool)).length, entries);
});

test('approving a later version names the release approved last, for the one-step rollback', async (t) => {
  const { pool } = await freshDatabase(t);
  // A clock a second ahead at each decision, so that no two approvals share a millisecond.
  let clock = Date.now();
  const svc = serviceFor(pool, { now: () => (clock += 1000) });
  const publisherId = await givenPublisher(svc);
  const approve = async (version) => {
    const { id } = await givenSubmission(svc, null, publisherId, { version, distribution: 'public-free' });
    const r = await svc.submission(id, { type: 'approve', actor: operator('op-b') });
    assert.ok(r.ok, r.refusal?.code);
    return r;
  };
  const v100 = await approve('1.0.0');
  const v110 = await approve('1.1.0');
  assert.equal(v110.records[0].previousReleaseId, v100.records[0].id);
  // Publishing 1.0.0's listing now puts a later entry in its trail; 1.1.0 stays the one approved last.
  const listed = await svc.submission(v100.records[0].id, { type: 'publish-listing', actor: operator('op-b') });
  assert.ok(listed.ok, listed.refusal?.code);
  const v120 = await approve('1.2.0');
  assert.equal(v120.records[0].previousReleaseId, v110.records[0].id);
  assert.deepEqual(v120.effects.at(-1), { type: 'keep-previous-release', namespace: 'acme/shelf', releaseId: v110.records[0].id });
  const { rows } = await pool.query("SELECT publisher_id, revision FROM namespaces WHERE namespace = 'acme/shelf'");
  assert.deepEqual(rows, [{ publisher_id: publisherId, revision: '6' }], 'claimed by the first submit, bumped by each submit and approval since');
});

test('the first submission claims the namespace: another publisher is refused', async (t) => {
  const { pool } = await freshDatabase(t);
  const svc = serviceFor(pool);
  const owner = await givenPublisher(svc);
  await givenSubmission(svc, null, owner, { namespace: 'acme/owned' });
  const other = await givenPublisher(svc);
  const bundle = randomBytes(64);
  const refused = await svc.submit('sub-other', { actor: OWNER, publisherId: other, namespace: 'acme/owned', version: '9.0.0', distribution: 'private', report: passingReport('acme/owned', '9.0.0', bundle) });
  assert.equal(refused.refusal?.code, 'service/namespace-owned');
});

test('only the token hash is stored, and it is unique: a second link with the same hash never commits', async (t) => {
  const { pool } = await freshDatabase(t);
  const svc = serviceFor(pool);
  const publisherId = await givenPublisher(svc);
  const { id } = await givenSubmission(svc, null, publisherId);
  assert.ok((await svc.submission(id, { type: 'approve', actor: operator('op-b') })).ok);
  const token = randomBytes(32).toString('hex');
  const issued = await svc.issueLink(id, { actor: OWNER, tokenHash: sha256(token), useLimit: 1 });
  assert.ok(issued.ok, issued.refusal?.code);
  const { rows } = await pool.query('SELECT record::text AS text FROM private_links');
  assert.ok(!rows[0].text.includes(token), 'the token itself is nowhere in the record');
  // A duplicate hash is a caller's defect (tokens are random), never a race to win.
  await assert.rejects(svc.issueLink(id, { actor: OWNER, tokenHash: sha256(token) }, undefined, { attempts: 2 }), RetriesExhausted);
  assert.equal((await pool.query('SELECT count(*)::int AS n FROM private_links')).rows[0].n, 1);
});
