// Private links (src/service/link.ts): the Private link state table and rules, on both
// sides of each limit (the expiry instant minus and plus one millisecond, the last use and
// one more). One row per rule, named by id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { World, service, ok, refused, storeUser, hex, OWNER, ADMIN, DEV, OP1, T0 } from './world.mjs';

const { decideLink } = service;

function withLink(fields = {}, options = {}) {
  const w = new World();
  const pub = w.setupPublisher();
  const rel = w.release(pub, { distribution: 'private', ...options });
  const link = w.apply(w.issueLink(rel, fields)).records[0].id;
  return { w, pub, rel, link };
}
function accept(w, link, storeId, now = w.tick(), tokenHash = w.get(link).tokenHash) {
  return decideLink(w.get(link), { type: 'accept', actor: storeUser(storeId), tokenHash }, { now });
}
function open(w, link, now = w.tick(), tokenHash = w.get(link).tokenHash) {
  return decideLink(w.get(link), { type: 'open', actor: storeUser('store-1'), tokenHash }, { now });
}
function revoke(w, link, actor = OWNER) {
  return decideLink(w.get(link), { type: 'revoke', actor }, { now: w.tick(), publisher: w.get(w.get(link).publisherId) });
}

const CASES = [
  {
    id: 'link-issue',
    title: 'an owner or administrator issues a link for an approved release; developers do not',
    run() {
      const { w, rel } = withLink();
      ok(w.issueLink(rel, {}, ADMIN));
      refused(w.issueLink(rel, {}, DEV), 'service/actor-not-allowed');
      const w2 = new World();
      const pub = w2.setupPublisher();
      const sub = w2.apply(w2.submit(pub)).records[0].id;
      refused(w2.issueLink(sub), 'service/release-not-approved');
    },
  },
  {
    id: 'link-open-read-only',
    title: 'issued + opened -> issued: the terms are shown, nothing changes, no use is consumed',
    run() {
      const { w, link } = withLink({ useLimit: 2, storeLock: null, expiresAt: T0 + 100_000 });
      const d = open(w, link);
      assert.deepEqual(d.records, []);
      assert.deepEqual(d.effects, [{ type: 'show-link-terms', linkId: link, terms: { namespace: 'acme/shelf', version: '1.0.0', storeLock: null, usesLeft: 2, expiresAt: new Date(T0 + 100_000).toISOString() } }]);
      assert.equal(w.get(link).uses, 0);
      assert.equal(w.get(link).state, 'issued');
    },
  },
  {
    id: 'link-accept-explicit',
    title: 'issued + the signed-in store accepts -> accepted for that store; one use consumed',
    run() {
      const { w, link } = withLink({ useLimit: 3 });
      const d = w.apply(accept(w, link, 'store-1'));
      assert.equal(d.records[0].state, 'accepted');
      assert.equal(d.records[0].uses, 1);
      assert.deepEqual(d.records[0].acceptedStores, ['store-1']);
      assert.deepEqual(d.effects.map((e) => e.type), ['consume-link-use', 'grant-link-access']);
      refused(decideLink(w.get(link), { type: 'accept', actor: OWNER, tokenHash: w.get(link).tokenHash }, { now: w.tick() }), 'service/actor-not-allowed');
    },
  },
  {
    id: 'link-reopen-no-use',
    title: 'reopening an accepted link for the same store consumes no further use (even at the last use, even after expiry)',
    run() {
      const { w, link } = withLink({ useLimit: 1, expiresAt: T0 + 1_000_000 });
      w.apply(accept(w, link, 'store-1'));
      const again = accept(w, link, 'store-1');
      assert.deepEqual(again.records, []);
      assert.deepEqual(again.effects.map((e) => e.type), ['grant-link-access']);
      const late = accept(w, link, 'store-1', T0 + 2_000_000);
      assert.deepEqual(late.records, []);
      assert.equal(w.get(link).uses, 1);
    },
  },
  {
    id: 'link-use-limit-last',
    title: 'the last use of the limit is accepted',
    run() {
      const { w, link } = withLink({ useLimit: 2 });
      w.apply(accept(w, link, 'store-1'));
      const d = w.apply(accept(w, link, 'store-2'));
      assert.equal(d.records[0].uses, 2);
    },
  },
  {
    id: 'link-use-limit-over',
    title: 'one use more than the limit is refused',
    run() {
      const { w, link } = withLink({ useLimit: 2 });
      w.apply(accept(w, link, 'store-1'));
      w.apply(accept(w, link, 'store-2'));
      refused(accept(w, link, 'store-3'), 'service/link-use-limit', '/uses');
    },
  },
  {
    id: 'link-store-lock',
    title: 'a link locked to a store is accepted by that store only',
    run() {
      const { w, link } = withLink({ storeLock: 'store-9' });
      refused(accept(w, link, 'store-1'), 'service/link-store-locked', '/storeLock');
      ok(accept(w, link, 'store-9'));
    },
  },
  {
    id: 'link-expiry-before',
    title: 'a link accepts one millisecond before its UTC expiry',
    run() {
      const { w, link } = withLink({ expiresAt: '2026-03-08T00:00:00.000Z' });
      ok(accept(w, link, 'store-1', Date.parse('2026-03-08T00:00:00.000Z') - 1));
      ok(open(w, link, Date.parse('2026-03-08T00:00:00.000Z') - 1));
    },
  },
  {
    id: 'link-expiry-after',
    title: 'a link does not accept at its expiry, nor one millisecond after',
    run() {
      const { w, link } = withLink({ expiresAt: '2026-03-08T00:00:00.000Z' });
      refused(accept(w, link, 'store-1', Date.parse('2026-03-08T00:00:00.000Z')), 'service/link-expired');
      refused(accept(w, link, 'store-1', Date.parse('2026-03-08T00:00:00.000Z') + 1), 'service/link-expired', '/expiresAt');
      refused(open(w, link, Date.parse('2026-03-08T00:00:00.000Z') + 1), 'service/link-expired');
    },
  },
  {
    id: 'link-expiry-utc',
    title: 'the expiry is a UTC instant: a time with an offset is refused, a past one too',
    run() {
      const { w, rel } = withLink();
      refused(w.issueLink(rel, { expiresAt: '2026-03-08T00:00:00+01:00' }), 'service/malformed-command', '/expiresAt');
      refused(w.issueLink(rel, { expiresAt: T0 - 1 }), 'service/link-expired');
    },
  },
  {
    id: 'link-revoke',
    title: 'issued or accepted + revoked -> revoked: future redemption stops, for opening too',
    run() {
      const { w, rel, link } = withLink();
      w.apply(accept(w, link, 'store-1'));
      const d = w.apply(revoke(w, link));
      assert.equal(d.records[0].state, 'revoked');
      assert.deepEqual(d.effects, [{ type: 'stop-link-redemption', linkId: link }]);
      refused(accept(w, link, 'store-2'), 'service/link-revoked');
      refused(accept(w, link, 'store-1'), 'service/link-revoked');
      refused(open(w, link), 'service/link-revoked');
      const issued = w.apply(w.issueLink(rel, { tokenHash: hex(0x7002) })).records[0].id;
      w.apply(revoke(w, issued, OP1));
      refused(accept(w, issued, 'store-3'), 'service/link-revoked');
      refused(revoke(w, issued), 'service/link-revoked');
    },
  },
  {
    id: 'link-token-hash-only',
    title: 'only the token\'s hash is stored; a wrong hash redeems nothing; a token in a command is refused',
    run() {
      const { w, rel, link } = withLink();
      assert.equal(w.get(link).tokenHash, hex(0x7001));
      refused(accept(w, link, 'store-1', w.tick(), hex(0x7009)), 'service/token-mismatch', '/tokenHash');
      refused(open(w, link, w.tick(), hex(0x7009)), 'service/token-mismatch');
      refused(w.issueLink(rel, { token: 'plain-secret' }), 'service/malformed-command', '/token');
      refused(w.issueLink(rel, { tokenHash: 'plain-secret' }), 'service/malformed-command', '/tokenHash');
    },
  },
  {
    id: 'link-release-revoked-stops-launch',
    title: 'revoking the release a link installed stops it launching',
    run() {
      const { w, rel, link } = withLink();
      const accepted = w.apply(accept(w, link, 'store-1')).records[0];
      const inst = w.apply(w.install(rel, 'store-1', undefined, accepted)).records[0].id;
      ok(w.launch(inst));
      w.apply(w.submissionCommand(rel, { type: 'revoke', actor: OP1 }));
      refused(w.launch(inst), 'service/release-revoked');
    },
  },
];

for (const c of CASES) test(`${c.id}: ${c.title}`, c.run);

test('every case id is unique', () => {
  assert.equal(new Set(CASES.map((c) => c.id)).size, CASES.length);
});
