// Publisher, keys and team (src/service/publisher.ts, src/service/invitation.ts):
// Authentication 5 and 7, Publisher team rules, the invitation lifetime on both sides of
// seven days. One row per rule sentence, named by id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { World, service, ok, refused, hex, OWNER, OWNER2, ADMIN, DEV, STRANGER, OP1, SYSTEM, DAY, T0 } from './world.mjs';

const { decidePublisher, decideInvitation, INVITATION_LIFETIME_MS } = service;

function invite(w, pub, { email = 'new@example.test', role = 'developer', actor = OWNER } = {}) {
  return decideInvitation(null, { type: 'create', actor, email, role, tokenHash: hex(0x1d) }, { now: w.tick(), newId: w.newId('inv'), publisher: w.get(pub) });
}
function acceptAt(w, inv, now, actor = { kind: 'publisher-member', id: 'nina', email: 'new@example.test' }) {
  return decideInvitation(w.get(inv), { type: 'accept', actor, tokenHash: hex(0x1d) }, { now, publisher: w.get(w.get(inv).publisherId) });
}

const CASES = [
  {
    id: 'pub-create-owner-key',
    title: 'a new publisher has its creator as owner and one active key',
    run() {
      const w = new World();
      const p = w.apply(w.createPublisher(OWNER, hex(1))).records[0];
      assert.deepEqual(p.members, [{ userId: OWNER.id, role: 'owner' }]);
      assert.deepEqual(p.keys.map((k) => [k.id, k.state]), [[hex(1), 'active']]);
      assert.equal(p.trust, 'untrusted');
      assert.equal(p.revision, 1);
    },
  },
  {
    id: 'pub-roles',
    title: 'roles are owner, administrator and developer, and nothing else',
    run() {
      assert.deepEqual([...service.TEAM_ROLES], ['owner', 'administrator', 'developer']);
      const w = new World();
      const pub = w.setupPublisher();
      assert.deepEqual(w.get(pub).members.map((m) => m.role), ['owner', 'administrator', 'developer']);
      refused(invite(w, pub, { role: 'maintainer' }), 'service/malformed-command', '/role');
    },
  },
  {
    id: 'key-rotation',
    title: 'rotation: add the replacement key, sign with it, then revoke the old key',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      w.apply(w.publisherCommand(pub, { type: 'add-key', actor: ADMIN, keyId: hex(2) }));
      ok(w.submit(pub, { keyId: hex(2) }));
      const p = w.apply(w.publisherCommand(pub, { type: 'revoke-key', actor: OWNER, keyId: hex(1) })).records[0];
      assert.deepEqual(p.keys.map((k) => [k.id, k.state]), [[hex(1), 'revoked'], [hex(2), 'active']]);
      refused(w.submit(pub, { keyId: hex(1) }), 'service/key-not-active');
    },
  },
  {
    id: 'key-last-active',
    title: 'the last active key cannot be revoked; the one before last can',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(w.publisherCommand(pub, { type: 'revoke-key', actor: OWNER, keyId: hex(1) }), 'service/last-active-key', '/keyId');
      w.apply(w.publisherCommand(pub, { type: 'add-key', actor: OWNER, keyId: hex(2) }));
      ok(w.publisherCommand(pub, { type: 'revoke-key', actor: OWNER, keyId: hex(1) }));
    },
  },
  {
    id: 'key-at-least-one',
    title: 'a publisher always keeps at least one active key: none is created without one, and a stored one without is refused',
    run() {
      const w = new World();
      refused(decidePublisher(null, { type: 'create-legacy', actor: OP1, keyIds: [] }, { now: T0, newId: 'p' }), 'service/malformed-command', '/keyIds');
      const pub = w.setupPublisher();
      const broken = { ...w.get(pub), keys: [{ ...w.get(pub).keys[0], state: 'revoked', revokedAt: new Date(T0).toISOString() }] };
      refused(decidePublisher(broken, { type: 'trust', actor: OP1 }, { now: T0 }), 'service/malformed-record', '/keys');
    },
  },
  {
    id: 'key-fingerprint-changed',
    title: 'a changed fingerprint is never accepted silently: an unknown key is refused, re-adding any known key is refused',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(w.submit(pub, { keyId: hex(3) }), 'service/key-not-active');
      refused(w.publisherCommand(pub, { type: 'add-key', actor: OWNER, keyId: hex(1) }), 'service/key-exists');
      w.apply(w.publisherCommand(pub, { type: 'add-key', actor: OWNER, keyId: hex(2) }));
      w.apply(w.publisherCommand(pub, { type: 'revoke-key', actor: OWNER, keyId: hex(1) }));
      refused(w.publisherCommand(pub, { type: 'add-key', actor: OWNER, keyId: hex(1) }), 'service/key-exists');
      refused(w.publisherCommand(pub, { type: 'revoke-key', actor: OWNER, keyId: hex(1) }), 'service/key-unknown');
    },
  },
  {
    id: 'key-roles',
    title: 'owners and administrators manage keys; developers and strangers do not',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(w.publisherCommand(pub, { type: 'add-key', actor: DEV, keyId: hex(2) }), 'service/actor-not-allowed');
      refused(w.publisherCommand(pub, { type: 'add-key', actor: STRANGER, keyId: hex(2) }), 'service/actor-not-allowed');
      ok(w.publisherCommand(pub, { type: 'add-key', actor: ADMIN, keyId: hex(2) }));
    },
  },
  {
    id: 'pub-revoked-final',
    title: 'a revoked publisher cannot be restored and takes no other command',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(w.publisherCommand(pub, { type: 'restore', actor: OP1 }), 'service/wrong-state');
      const d = w.apply(w.publisherCommand(pub, { type: 'revoke', actor: OP1 }));
      assert.deepEqual(d.effects, [{ type: 'stop-launching', publisherId: pub }]);
      refused(w.publisherCommand(pub, { type: 'restore', actor: OP1 }), 'service/publisher-revoked');
      refused(w.publisherCommand(pub, { type: 'trust', actor: OP1 }), 'service/publisher-revoked');
      refused(w.publisherCommand(pub, { type: 'add-key', actor: OWNER, keyId: hex(2) }), 'service/publisher-revoked');
      refused(w.publisherCommand(pub, { type: 'revoke', actor: OP1 }), 'service/publisher-revoked');
    },
  },
  {
    id: 'pub-trust-operator',
    title: 'only an operator trusts a publisher, once',
    run() {
      const w = new World();
      const pub = w.setupPublisher({ trusted: false });
      refused(w.publisherCommand(pub, { type: 'trust', actor: OWNER }), 'service/actor-not-allowed');
      w.apply(w.publisherCommand(pub, { type: 'trust', actor: OP1 }));
      refused(w.publisherCommand(pub, { type: 'trust', actor: OP1 }), 'service/wrong-state');
    },
  },
  {
    id: 'team-second-owner-remove',
    title: 'an owner is removed only while a second owner exists',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(w.publisherCommand(pub, { type: 'remove-member', actor: OWNER, userId: OWNER.id }), 'service/last-owner', '/userId');
      w.join(pub, OWNER2, 'owner');
      const p = w.apply(w.publisherCommand(pub, { type: 'remove-member', actor: OWNER2, userId: OWNER.id })).records[0];
      assert.deepEqual(p.members.filter((m) => m.role === 'owner').map((m) => m.userId), [OWNER2.id]);
    },
  },
  {
    id: 'team-second-owner-delete',
    title: 'an owner\'s account is deleted only while a second owner exists',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(w.publisherCommand(pub, { type: 'delete-account', actor: SYSTEM, userId: OWNER.id }), 'service/last-owner');
      ok(w.publisherCommand(pub, { type: 'delete-account', actor: SYSTEM, userId: DEV.id }));
      w.join(pub, OWNER2, 'owner');
      ok(w.publisherCommand(pub, { type: 'delete-account', actor: SYSTEM, userId: OWNER.id }));
    },
  },
  {
    id: 'team-second-owner-demote',
    title: 'the last owner keeps the owner role',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(w.publisherCommand(pub, { type: 'change-role', actor: OWNER, userId: OWNER.id, role: 'administrator' }), 'service/last-owner');
      ok(w.publisherCommand(pub, { type: 'change-role', actor: OWNER, userId: DEV.id, role: 'administrator' }));
    },
  },
  {
    id: 'team-remove-roles',
    title: 'administrators remove developers only; developers remove no one',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(w.publisherCommand(pub, { type: 'remove-member', actor: DEV, userId: ADMIN.id }), 'service/actor-not-allowed');
      refused(w.publisherCommand(pub, { type: 'remove-member', actor: ADMIN, userId: OWNER.id }), 'service/actor-not-allowed');
      refused(w.publisherCommand(pub, { type: 'remove-member', actor: OWNER, userId: STRANGER.id }), 'service/member-unknown');
      ok(w.publisherCommand(pub, { type: 'remove-member', actor: ADMIN, userId: DEV.id }));
    },
  },
  {
    id: 'team-legacy-first-owner',
    title: 'an operator assigns the first owner of a legacy publisher',
    run() {
      const w = new World();
      const pub = w.apply(decidePublisher(null, { type: 'create-legacy', actor: OP1, keyIds: [hex(1)] }, { now: T0, newId: 'legacy-1' })).records[0].id;
      assert.deepEqual(w.get(pub).members, []);
      const p = w.apply(w.publisherCommand(pub, { type: 'assign-first-owner', actor: OP1, userId: 'lee' })).records[0];
      assert.deepEqual(p.members, [{ userId: 'lee', role: 'owner' }]);
    },
  },
  {
    id: 'team-legacy-no-replace',
    title: 'an operator never replaces an existing owner, and assigns none to a publisher made in the console',
    run() {
      const w = new World();
      const pub = w.apply(decidePublisher(null, { type: 'create-legacy', actor: OP1, keyIds: [hex(1)] }, { now: T0, newId: 'legacy-1' })).records[0].id;
      w.apply(w.publisherCommand(pub, { type: 'assign-first-owner', actor: OP1, userId: 'lee' }));
      refused(w.publisherCommand(pub, { type: 'assign-first-owner', actor: OP1, userId: 'eve' }), 'service/owner-exists');
      const modern = w.setupPublisher();
      refused(w.publisherCommand(modern, { type: 'assign-first-owner', actor: OP1, userId: 'eve' }), 'service/owner-exists');
      refused(w.publisherCommand(pub, { type: 'assign-first-owner', actor: OWNER, userId: 'eve' }), 'service/actor-not-allowed');
    },
  },
  {
    id: 'inv-owner-only',
    title: 'owners add members by invitation; administrators and developers do not invite',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(invite(w, pub, { actor: ADMIN }), 'service/actor-not-allowed');
      refused(invite(w, pub, { actor: DEV }), 'service/actor-not-allowed');
      const d = w.apply(invite(w, pub));
      assert.deepEqual(d.effects, [{ type: 'send-invitation', invitationId: d.records[0].id, email: 'new@example.test', expiresAt: d.records[0].expiresAt }]);
    },
  },
  {
    id: 'inv-creates-no-member',
    title: 'creating an invitation does not add the recipient, and its result is the same whether or not the address has an account',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const before = w.get(pub);
      const d = ok(invite(w, pub));
      assert.equal(d.records.length, 1);
      assert.equal(d.records[0].kind, 'invitation');
      assert.deepEqual(w.get(pub), before);
      // The command cannot even carry the fact: an extra field is refused.
      refused(decideInvitation(null, { type: 'create', actor: OWNER, email: 'a@b.test', role: 'developer', tokenHash: hex(1), accountExists: true }, { now: T0, newId: 'i', publisher: before }), 'service/malformed-command', '/accountExists');
      refused(decideInvitation(null, { type: 'create', actor: OWNER, email: 'a@b.test', role: 'developer', tokenHash: hex(1) }, { now: T0, newId: 'i', publisher: before, accountExists: false }), 'service/malformed-context', '/accountExists');
      const a = decideInvitation(null, { type: 'create', actor: OWNER, email: 'known@example.test', role: 'developer', tokenHash: hex(1) }, { now: T0, newId: 'i', publisher: before });
      const b = decideInvitation(null, { type: 'create', actor: OWNER, email: 'unknown@example.test', role: 'developer', tokenHash: hex(1) }, { now: T0, newId: 'i', publisher: before });
      assert.deepEqual(JSON.parse(JSON.stringify(a).replaceAll('known@', 'X@').replaceAll('unX@', 'X@')), JSON.parse(JSON.stringify(b).replaceAll('unknown@', 'X@')));
    },
  },
  {
    id: 'inv-seven-days-before',
    title: 'an invitation accepts up to seven days minus one millisecond after it was created',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const inv = w.apply(invite(w, pub)).records[0];
      const created = Date.parse(inv.createdAt);
      assert.equal(INVITATION_LIFETIME_MS, 7 * DAY);
      const d = w.apply(acceptAt(w, inv.id, created + 7 * DAY - 1));
      assert.equal(d.records.length, 2, 'the invitation and the publisher change together');
      assert.deepEqual(d.records.map((r) => r.kind), ['invitation', 'publisher']);
      assert.ok(w.get(pub).members.some((m) => m.userId === 'nina' && m.role === 'developer'));
    },
  },
  {
    id: 'inv-seven-days-after',
    title: 'an invitation does not accept seven days (or seven days plus one millisecond) after it was created',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const inv = w.apply(invite(w, pub)).records[0];
      const created = Date.parse(inv.createdAt);
      refused(acceptAt(w, inv.id, created + 7 * DAY + 1), 'service/invitation-expired');
      refused(acceptAt(w, inv.id, created + 7 * DAY), 'service/invitation-expired');
    },
  },
  {
    id: 'inv-address-match',
    title: 'the signed-in recipient must use the invited address (letter case aside)',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const inv = w.apply(invite(w, pub)).records[0];
      refused(acceptAt(w, inv.id, w.tick(), { kind: 'publisher-member', id: 'nina', email: 'other@example.test' }), 'service/invitation-address-mismatch', '/actor/email');
      refused(acceptAt(w, inv.id, w.tick(), { kind: 'publisher-member', id: 'nina' }), 'service/invitation-address-mismatch');
      ok(acceptAt(w, inv.id, w.tick(), { kind: 'publisher-member', id: 'nina', email: 'NEW@Example.Test' }));
    },
  },
  {
    id: 'inv-explicit-accept',
    title: 'only an explicit accept with the token adds the member; once accepted or revoked it accepts no more',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const inv = w.apply(invite(w, pub)).records[0];
      refused(decideInvitation(inv, { type: 'accept', actor: { kind: 'publisher-member', id: 'nina', email: 'new@example.test' }, tokenHash: hex(0x1e) }, { now: w.tick(), publisher: w.get(pub) }), 'service/token-mismatch');
      w.apply(acceptAt(w, inv.id, w.tick()));
      refused(acceptAt(w, inv.id, w.tick()), 'service/wrong-state');
      const inv2 = w.apply(invite(w, pub, { email: 'two@example.test' })).records[0];
      w.apply(decideInvitation(inv2, { type: 'revoke', actor: OWNER }, { now: w.tick(), publisher: w.get(pub) }));
      refused(acceptAt(w, inv2.id, w.tick(), { kind: 'publisher-member', id: 'tia', email: 'two@example.test' }), 'service/wrong-state');
    },
  },
  {
    id: 'inv-token-hash-only',
    title: 'an invitation holds only the token\'s hash; a command carrying a token is refused',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const inv = w.apply(invite(w, pub)).records[0];
      assert.equal(inv.tokenHash, hex(0x1d));
      assert.ok(!('token' in inv));
      refused(decideInvitation(null, { type: 'create', actor: OWNER, email: 'a@b.test', role: 'developer', tokenHash: hex(1), token: 'secret' }, { now: T0, newId: 'i', publisher: w.get(pub) }), 'service/malformed-command', '/token');
      refused(decideInvitation(null, { type: 'create', actor: OWNER, email: 'a@b.test', role: 'developer', tokenHash: 'secret' }, { now: T0, newId: 'i', publisher: w.get(pub) }), 'service/malformed-command', '/tokenHash');
    },
  },
];

for (const c of CASES) test(`${c.id}: ${c.title}`, c.run);

test('every case id is unique', () => {
  assert.equal(new Set(CASES.map((c) => c.id)).size, CASES.length);
});
