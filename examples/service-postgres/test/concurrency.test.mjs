// Races the contract cares about, on a real PostgreSQL server. Every racing command reads
// its records, then waits at a barrier until all have read, then writes: each race happens
// on every run. Compare-and-set must let exactly one writer through per revision, and the
// losers must run again on fresh records and get the core's refusal.
//
// With SERVICE_PG_MODE=no-cas (writes without compare-and-set) every test here fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  OWNER,
  barrier,
  freshDatabase,
  givenPublisher,
  givenRelease,
  givenSubmission,
  keyId,
  operator,
  outbox,
  passingReport,
  serviceFor,
  sha256,
  storeUser,
  tally,
} from './helpers.mjs';

test('64 stores accept a five-use link at once: five accepted, the rest refused, reopening consumes nothing', async (t) => {
  const { pool } = await freshDatabase(t, { max: 32 });
  const svc = serviceFor(pool);
  const { releaseId } = await givenRelease(svc, null);
  const token = randomBytes(32).toString('hex');
  const tokenHash = sha256(token);
  const issued = await svc.issueLink(releaseId, { actor: OWNER, tokenHash, useLimit: 5 });
  assert.ok(issued.ok, issued.refusal?.code);
  const linkId = issued.records[0].id;

  const stores = Array.from({ length: 64 }, (_, i) => `store-${i}`);
  const gate = barrier(stores.length);
  const results = await Promise.all(stores.map((store) => svc.link({ type: 'accept', actor: storeUser(store), tokenHash }, { hooks: { afterLoad: gate }, attempts: 16 })));

  const outcome = tally(results, (r) => (r.ok ? 'accepted' : r.refusal.code));
  assert.deepEqual(outcome, { accepted: 5, 'service/link-use-limit': 59 });
  const link = await svc.get('private-link', linkId);
  const accepted = stores.filter((_, i) => results[i].ok);
  assert.equal(link.uses, 5);
  assert.deepEqual([...link.acceptedStores].sort(), [...accepted].sort());
  assert.equal(link.revision, 6, 'one revision per use');
  const consumed = (await outbox(pool)).filter((e) => e.effect.type === 'consume-link-use');
  assert.deepEqual(consumed.map((e) => e.effect.storeId).sort(), [...accepted].sort());

  // Reopening by an accepted store (all five at once) consumes no use and writes no record.
  const reopened = await Promise.all(accepted.map((store) => svc.link({ type: 'accept', actor: storeUser(store), tokenHash })));
  for (const r of reopened) {
    assert.ok(r.ok, r.refusal?.code);
    assert.deepEqual(r.records, []);
    assert.deepEqual(r.effects.map((e) => e.type), ['grant-link-access']);
  }
  const after = await svc.get('private-link', linkId);
  assert.equal(after.uses, 5);
  assert.equal(after.revision, 6);
  assert.equal((await outbox(pool)).filter((e) => e.effect.type === 'consume-link-use').length, 5);
});

test('two operators approve the same submission at once, and the submitter approves their own: one approval, by another operator', async (t) => {
  const { pool } = await freshDatabase(t);
  const svc = serviceFor(pool);
  const publisherId = await givenPublisher(svc);
  // An operator submits the release, so that operator may not approve it.
  const submitter = operator('op-a');
  const { id } = await givenSubmission(svc, null, publisherId, { actor: submitter });
  const own = await svc.submission(id, { type: 'approve', actor: submitter });
  assert.equal(own.refusal?.code, 'service/approve-own-submission');

  const approvers = ['op-a', 'op-b', 'op-c', 'op-b', 'op-c'];
  const gate = barrier(approvers.length);
  const results = await Promise.all(approvers.map((op) => svc.submission(id, { type: 'approve', actor: operator(op) }, { hooks: { afterLoad: gate } })));

  const approvals = results.filter((r) => r.ok);
  assert.equal(approvals.length, 1, `exactly one approval, got ${JSON.stringify(tally(results, (r) => (r.ok ? 'approved' : r.refusal.code)))}`);
  const winner = approvers[results.findIndex((r) => r.ok)];
  assert.notEqual(winner, 'op-a');
  // The submitter is refused for being the submitter (or, after the approval, for its state).
  assert.ok(['service/approve-own-submission', 'service/wrong-state'].includes(results[0].refusal?.code), results[0].refusal?.code);
  for (const [i, r] of results.entries()) if (!r.ok && i > 0) assert.equal(r.refusal.code, 'service/wrong-state');

  const record = await svc.get('release-submission', id);
  assert.equal(record.state, 'approved');
  assert.deepEqual(record.trail.filter((e) => e.action === 'approved').map((e) => e.actor.id), [winner]);
  const copies = (await outbox(pool)).filter((e) => e.effect.type === 'copy-bundle-to-immutable-storage');
  assert.equal(copies.length, 1, 'one copy to immutable storage');
});

test("two revocations race for a publisher's last two keys: one key stays active", async (t) => {
  const { pool } = await freshDatabase(t);
  const svc = serviceFor(pool);
  const publisherId = await givenPublisher(svc, { keys: 2 });
  const gate = barrier(2);
  const results = await Promise.all(['k0', 'k1'].map((k) => svc.publisher(publisherId, { type: 'revoke-key', actor: OWNER, keyId: keyId(k) }, { hooks: { afterLoad: gate } })));

  assert.deepEqual(tally(results, (r) => (r.ok ? 'revoked' : r.refusal.code)), { revoked: 1, 'service/last-active-key': 1 });
  const publisher = await svc.get('publisher', publisherId);
  const active = publisher.keys.filter((k) => k.state === 'active').map((k) => k.id);
  const kept = results[0].ok ? keyId('k1') : keyId('k0');
  assert.deepEqual(active, [kept]);
});

test('two submissions of the same version race: one is accepted', async (t) => {
  const { pool } = await freshDatabase(t);
  const svc = serviceFor(pool);
  const publisherId = await givenPublisher(svc);
  const gate = barrier(2);
  const results = await Promise.all(
    ['sub-1', 'sub-2'].map((id) => {
      const bundle = randomBytes(1024);
      return svc.submit(id, { actor: OWNER, publisherId, namespace: 'acme/race', version: '2.0.0', distribution: 'private', report: passingReport('acme/race', '2.0.0', bundle) }, { hooks: { afterLoad: gate } });
    }),
  );

  assert.deepEqual(tally(results, (r) => (r.ok ? 'submitted' : r.refusal.code)), { submitted: 1, 'service/version-in-review': 1 });
  const { rows } = await pool.query("SELECT id, state FROM release_submissions WHERE namespace = 'acme/race' AND version = '2.0.0'");
  assert.equal(rows.length, 1);
  assert.equal(rows[0].id, results[0].ok ? 'sub-1' : 'sub-2');
  assert.equal(rows[0].state, 'awaiting-review');
  const queued = (await outbox(pool)).filter((e) => e.effect.type === 'queue-for-review');
  assert.deepEqual(queued.map((e) => e.effect.submissionId), [rows[0].id]);
});
