// Property-based tests of the service core (fast-check): random sequences of commands from
// every actor against an in-memory store, with the invariants of the contract checked after
// every step. At least 100,000 steps when CI=true; fewer locally. A failing sequence is
// shrunk by fast-check and printed with its seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { World, service, report, storeUser, hex, DAY } from './world.mjs';

const { decideSubmission, decidePublisher, decideInstallation, decideLink, decideInvitation, launchGate } = service;
const { compareSemver } = await import('../../build/validator/index.js');

const CI = process.env.CI === 'true';
const STEPS_PER_RUN = 100;
const RUNS = CI ? 1000 : 120;

const USERS = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
const OPERATORS = ['op0', 'op1', 'op2'];
const STORES = ['s0', 's1', 's2', 's3'];
const NAMESPACES = ['acme/a', 'acme/b', 'beta/c'];
const VERSIONS = ['1.0.0', '1.0.1', '1.1.0', '2.0.0', '2.0.0-rc.1', '1.0.0+b2', '0.9.0', '3.0.0'];
const CAPS = ['catalog.products.read', 'site.theme.read', 'cart.manage', 'forms.submit'];
const ROLES = ['owner', 'administrator', 'developer'];
const PROPS = [
  [{ name: 'title', type: 'text', required: false, default: 'Hi' }],
  [{ name: 'title', type: 'color', required: false, default: '#000000' }, { name: 'on', type: 'boolean', required: false }],
];
const SETTINGS = [{}, { title: 'Sale' }, { title: '#ffffff' }, { on: true }, { nope: 1 }, { title: 'x'.repeat(600) }];

const at = (list, n) => list[n % list.length];
const member = (n) => ({ kind: 'publisher-member', id: at(USERS, n) });
const operator = (n) => ({ kind: 'operator', id: at(OPERATORS, n) });
/** A link or invitation token: a value only the caller holds; records hold `hashOf(token)`. */
const tokenOf = (n) => `TOKEN-${n}`;
const hashOf = (token) => hex(0x10000 + Number(token.slice(6)));
const subset = (list, bits) => list.filter((_, i) => (bits >> i) & 1);

/**
 * Step kinds, repeated by weight: 0 create publisher, 1 publisher command, 2 invite,
 * 3 invitation answer, 4 submit, 5 review decision, 6 issue link, 7 link command,
 * 8 install, 9 installation command, 10 time passes.
 */
const KIND_WEIGHTS = [0, 1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 10];

/** How often each record state and each effect was reached, over all runs. */
const STATS = new Map();

/** The simulation: a World, the tokens handed out, and what the invariants need to remember. */
class Sim {
  w = new World();
  ofKind = (kind) => [...this.w.records.values()].filter((r) => r.kind === kind);
  tokens = 0;
  /** Hashes and version of each release at its approval: they never change. */
  approvedBytes = new Map();
  /** Per installation, the capabilities the store user approved since each became declared. */
  userApproved = new Map();
  revokedPublishers = new Set();
  files = new Map(); // submission id -> 'working' | 'deleted'
  immutable = new Set();
  /** Ids of the records the current step stored: the invariants about one record are checked on those. */
  changed = new Set();

  /** Every sequence starts from a trusted publisher with a listed release installed on store s0. */
  constructor() {
    const w = this.w;
    const pub = w.setupPublisher();
    const sub = this.apply(w.submit(pub, { namespace: 'acme/a', version: '1.0.0', capabilities: CAPS.slice(0, 2), properties: PROPS[0] })).records[0];
    this.apply(w.approve(sub.id, operator(1)));
    this.approvedBytes.set(sub.id, [sub.namespace, sub.version, sub.manifestSha256, sub.artifactSha256]);
    this.apply(decideSubmission(w.get(sub.id), { type: 'publish-listing', actor: operator(0) }, { now: w.tick(), publisher: w.get(pub) }));
    const inst = this.apply(w.install(sub.id, 's0', CAPS.slice(0, 2))).records[0];
    this.userApproved.set(inst.id, new Set(CAPS.slice(0, 2)));
  }

  pick(kind, n) {
    const list = this.ofKind(kind);
    return list.length === 0 ? null : list[n % list.length];
  }

  /** Mostly a record that `useful` accepts (so sequences go deep), sometimes any (so refusals are met too). */
  pickUseful(kind, n, useful) {
    if (n % 4 !== 0) {
      const list = this.ofKind(kind).filter(useful);
      if (list.length > 0) return list[(n >> 2) % list.length];
    }
    return this.pick(kind, n);
  }

  /** Mostly a member of `p` with one of `roles`, sometimes anyone. */
  memberOf(p, n, roles = ROLES) {
    const list = p.members.filter((m) => roles.includes(m.role));
    if (n % 5 !== 0 && list.length > 0) return { kind: 'publisher-member', id: list[(n >> 3) % list.length].userId };
    return member(n);
  }

  /** Applies a decision (when ok), performs its effects on the simulated files, checks effect-level invariants. */
  apply(d, before) {
    if (!d.ok) {
      STATS.set(d.refusal.code, (STATS.get(d.refusal.code) ?? 0) + 1);
      return d;
    }
    for (const r of d.records) STATS.set(`${r.kind}:${r.state}`, (STATS.get(`${r.kind}:${r.state}`) ?? 0) + 1);
    for (const e of d.effects) STATS.set(e.type, (STATS.get(e.type) ?? 0) + 1);
    this.w.apply(d);
    for (const r of d.records) this.changed.add(r.id);
    for (const e of d.effects) {
      if (e.type === 'keep-working-files-private') this.files.set(e.submissionId, 'working');
      if (e.type === 'copy-bundle-to-immutable-storage') {
        assert.notEqual(this.files.get(e.submissionId), 'deleted', 'the bundle is copied before the working files are deleted');
        this.immutable.add(e.submissionId);
      }
      if (e.type === 'delete-working-files') {
        const s = this.w.get(e.submissionId);
        if (s.state === 'approved') assert.ok(this.immutable.has(e.submissionId), 'approval copies the bundle first');
        this.files.set(e.submissionId, 'deleted');
      }
      if (e.type === 'consume-link-use') {
        const link = before;
        assert.notEqual(link.state, 'revoked', 'a revoked link never redeems');
        assert.ok(link.expiresAt === null || this.w.now < Date.parse(link.expiresAt), 'an expired link never redeems');
        assert.ok(link.storeLock === null || link.storeLock === e.storeId, 'a link never redeems for another store');
        assert.ok(!link.acceptedStores.includes(e.storeId), 'reopening never consumes');
      }
    }
    return d;
  }

  step([k, a, b, c, e, f]) {
    const w = this.w;
    const kind = at(KIND_WEIGHTS, k);
    const now = w.tick(1 + (a % 3) * 1000);
    switch (kind) {
      case 0: {
        if (this.ofKind('publisher').length >= 4) return;
        this.apply(decidePublisher(null, { type: 'create', actor: member(a), keyId: hex(1 + (b % 6)) }, { now, newId: w.newId('pub') }));
        return;
      }
      case 1: {
        const p = this.pick('publisher', a);
        if (!p) return;
        const cmds = [
          { type: 'trust', actor: operator(b) },
          { type: 'revoke', actor: operator(b) },
          { type: 'restore', actor: operator(b) },
          { type: 'add-key', actor: this.memberOf(p, b, ['owner', 'administrator']), keyId: hex(1 + (c % 6)) },
          { type: 'revoke-key', actor: this.memberOf(p, b, ['owner', 'administrator']), keyId: hex(1 + (c % 6)) },
          { type: 'remove-member', actor: this.memberOf(p, b, ['owner']), userId: at(USERS, c) },
          { type: 'change-role', actor: this.memberOf(p, b, ['owner']), userId: at(USERS, c), role: at(ROLES, e) },
          { type: 'delete-account', actor: { kind: 'system', id: 'sys' }, userId: at(USERS, c) },
          { type: 'assign-first-owner', actor: operator(b), userId: at(USERS, c) },
        ];
        // Revoking is rare, so that publishers live long enough to do things.
        const cmd = p.trust === 'untrusted' && f % 2 === 0 ? cmds[0] : at(cmds, f % 40 === 0 ? 1 : f % 9 === 1 ? 0 : 3 + (f % (cmds.length - 3)));
        this.apply(decidePublisher(p, cmd, { now }));
        return;
      }
      case 2: {
        const p = this.pick('publisher', a);
        if (!p) return;
        const token = tokenOf(++this.tokens);
        this.apply(decideInvitation(null, { type: 'create', actor: this.memberOf(p, b, ['owner']), email: `${at(USERS, c)}@example.test`, role: at(ROLES, e), tokenHash: hashOf(token) }, { now, newId: w.newId('inv'), publisher: p }));
        return;
      }
      case 3: {
        const inv = this.pickUseful('invitation', a, (i) => i.state === 'pending');
        if (!inv) return;
        const p = w.get(inv.publisherId);
        const user = at(USERS, b);
        if (c % 4 === 0) return void this.apply(decideInvitation(inv, { type: 'revoke', actor: member(e) }, { now, publisher: p }));
        const later = now + (f % 3 === 0 ? 7 * DAY : 0);
        w.now = later;
        this.apply(decideInvitation(inv, { type: 'accept', actor: { kind: 'publisher-member', id: user, email: `${at(USERS, c)}@example.test` }, tokenHash: c % 7 === 0 ? hex(3) : inv.tokenHash }, { now: later, publisher: p }));
        return;
      }
      case 4: {
        const p = this.pickUseful('publisher', a, (x) => x.state === 'active');
        if (!p) return;
        // Mostly the publisher's own namespace and the next version up, so that upgrades exist.
        const own = this.ofKind('publisher').indexOf(p);
        const namespace = at(NAMESPACES, b % 4 === 0 ? b : own);
        const approved = w.namespaceFacts(namespace).submissions.filter((x) => x.state === 'approved' || x.state === 'revoked').map((x) => x.version);
        const higher = VERSIONS.filter((v) => approved.every((x) => compareSemver(v, x) > 0)).sort(compareSemver);
        const version = c % 3 !== 0 && higher.length > 0 ? higher[0] : at(VERSIONS, c);
        const actor = e % 3 === 0 ? operator(e) : this.memberOf(p, e);
        const active = p.keys.filter((k) => k.state === 'active');
        const keyId = f % 7 === 0 || active.length === 0 ? hex(1 + ((f >> 2) % 6)) : active[(f >> 3) % active.length].id;
        const r = report({ namespace, version, capabilities: subset(CAPS, f), properties: at(PROPS, f >> 4), errors: f % 5 === 0 ? 1 : 0, keyId, artifact: hex(0x1000 + a) });
        this.apply(decideSubmission(null, { type: 'submit', actor, publisherId: p.id, namespace, version, distribution: at(service.DISTRIBUTION_MODES, b >> 2), report: r }, { now, newId: w.newId('sub'), publisher: p, namespace: w.namespaceFacts(namespace) }));
        return;
      }
      case 5: {
        const type = at(['approve', 'approve', 'approve', 'reject', 'request-changes', 'withdraw', 'revoke', 'publish-listing', 'publish-listing'], b);
        const wanted = type === 'revoke' || type === 'publish-listing' ? 'approved' : 'awaiting-review';
        const s = this.pickUseful('release-submission', a, (x) => x.state === wanted);
        if (!s) return;
        const p = w.get(s.publisherId);
        const actor = type === 'withdraw' ? this.memberOf(p, c) : c % 5 === 0 ? { kind: 'operator', id: s.submittedBy.id } : operator(c);
        const ctx = type === 'approve' ? { publisher: p, namespace: w.namespaceFacts(s.namespace), currentReleaseId: w.currentReleaseId(s.namespace) } : type === 'withdraw' || type === 'publish-listing' ? { publisher: p } : {};
        const d = this.apply(decideSubmission(s, { type, actor }, { now, ...ctx }));
        if (d.ok && type === 'approve') {
          assert.notEqual(actor.id, s.submittedBy.id, 'no one approves their own submission');
          this.approvedBytes.set(s.id, [s.namespace, s.version, s.manifestSha256, s.artifactSha256]);
        }
        return;
      }
      case 6: {
        const rel = this.pickUseful('release-submission', a, (x) => x.state === 'approved');
        if (!rel) return;
        const token = tokenOf(++this.tokens);
        const fields = { tokenHash: hashOf(token) };
        if (b % 2) fields.storeLock = at(STORES, b >> 1);
        if (c % 2) fields.useLimit = 1 + ((c >> 1) % 3);
        if (e % 2) fields.expiresAt = now + 1 + ((e >> 1) % 5) * DAY;
        this.apply(decideLink(null, { type: 'issue', actor: this.memberOf(w.get(rel.publisherId), f, ['owner', 'administrator']), ...fields }, { now, newId: w.newId('link'), release: rel, publisher: w.get(rel.publisherId) }));
        return;
      }
      case 7: {
        const link = this.pickUseful('private-link', a, (l) => l.state !== 'revoked');
        if (!link) return;
        const store = at(STORES, b);
        const tokenHash = c % 9 === 0 ? hex(2) : link.tokenHash;
        const type = at(['accept', 'accept', 'accept', 'open', 'open', 'revoke'], e);
        const cmd = type === 'revoke' ? { type, actor: f % 2 ? operator(f) : this.memberOf(w.get(link.publisherId), f, ['owner', 'administrator']) } : { type, actor: storeUser(store), tokenHash };
        const before = structuredClone(link);
        const d = this.apply(decideLink(link, cmd, { now, ...(type === 'revoke' ? { publisher: w.get(link.publisherId) } : {}) }), before);
        if (d.ok && type === 'accept' && before.acceptedStores.includes(store)) assert.deepEqual(d.records, [], 'reopening never consumes');
        if (d.ok && type === 'open') assert.deepEqual(d.records, [], 'opening is read-only');
        return;
      }
      case 8: {
        const rel = this.pickUseful('release-submission', a, (x) => x.state === 'approved' && (x.listing === 'published' || this.ofKind('private-link').some((l) => l.releaseId === x.id && l.acceptedStores.length > 0)));
        if (!rel) return;
        const link = c % 2 || rel.listing !== 'published' ? this.ofKind('private-link').find((l) => l.releaseId === rel.id && (c % 3 === 0 || l.acceptedStores.length > 0)) ?? null : null;
        const store = link !== null && link.acceptedStores.length > 0 && b % 3 !== 0 ? link.acceptedStores[b % link.acceptedStores.length] : at(STORES, b);
        const grants = subset(rel.capabilities, e);
        const d = this.apply(decideInstallation(null, { type: 'install', actor: storeUser(store), grants }, { now, newId: w.newId('inst'), release: rel, publisher: w.get(rel.publisherId), link }));
        if (d.ok) this.userApproved.set(d.records[0].id, new Set(grants));
        return;
      }
      case 9: {
        const inst = this.pickUseful('installation', a, (i) => i.state === 'installed');
        if (!inst) return;
        const actor = storeUser(b % 5 === 0 ? at(STORES, c) : inst.storeId);
        const type = at(['grant', 'revoke-grant', 'upgrade', 'upgrade', 'upgrade', 'roll-back', 'save-settings', 'save-settings', 'uninstall'], e);
        const current = w.get(inst.releaseId);
        let d;
        if (type === 'grant' || type === 'revoke-grant') {
          const capability = at(CAPS, f);
          d = this.apply(decideInstallation(inst, { type, actor, capability }, { now }));
          if (d.ok) {
            const approved = this.userApproved.get(inst.id);
            if (type === 'grant') approved.add(capability);
            else approved.delete(capability);
          }
        } else if (type === 'upgrade' || type === 'roll-back') {
          const target = type === 'roll-back' && current.previousReleaseId !== null ? w.get(current.previousReleaseId) : this.pickUseful('release-submission', f, (x) => x.state === 'approved' && x.namespace === inst.namespace && x.id !== inst.releaseId);
          d = this.apply(decideInstallation(inst, { type, actor }, { now, release: current, next: target, publisher: w.get(inst.publisherId) }));
          if (d.ok) {
            const approved = this.userApproved.get(inst.id);
            for (const cap of [...approved]) if (!target.capabilities.includes(cap)) approved.delete(cap);
            for (const cap of target.capabilities) if (!inst.declared.includes(cap)) assert.ok(!d.records[0].granted.includes(cap), 'an added capability is not granted without approval');
          }
        } else if (type === 'save-settings') {
          this.apply(decideInstallation(inst, { type, actor, settings: at(SETTINGS, f) }, { now, release: current }));
        } else {
          this.apply(decideInstallation(inst, { type, actor }, { now }));
        }
        return;
      }
      default:
        w.tick((a % 4) * DAY);
    }
  }

  /** The contract's invariants over everything stored. */
  check() {
    const w = this.w;
    const changed = [...this.changed].map((id) => w.get(id));
    this.changed.clear();
    assert.ok(!JSON.stringify(changed).includes('TOKEN-'), 'no record holds a link or invitation token');
    const byVersion = new Map();
    for (const s of this.ofKind('release-submission')) {
      const approvedOnce = s.state === 'approved' || s.state === 'revoked';
      if (approvedOnce) {
        const approval = s.trail.find((t) => t.action === 'approved');
        assert.ok(approval && approval.actor.id !== s.submittedBy.id, 'no one approves their own submission');
        const kept = this.approvedBytes.get(s.id);
        assert.deepEqual([s.namespace, s.version, s.manifestSha256, s.artifactSha256], kept, 'an approved release never changes its bytes');
        for (const [other, version] of byVersion.get(s.namespace) ?? []) assert.notEqual(compareSemver(version, s.version), 0, `version ${s.version} approved twice (${other}, ${s.id})`);
        byVersion.set(s.namespace, [...(byVersion.get(s.namespace) ?? []), [s.id, s.version]]);
        assert.ok(this.immutable.has(s.id), 'an approved bundle is in immutable storage');
      }
      assert.equal(s.workingFiles, s.state === 'awaiting-review' ? 'private' : 'deleted', 'working files never outlive a decision');
      if (this.files.has(s.id)) assert.equal(this.files.get(s.id), s.workingFiles === 'private' ? 'working' : 'deleted');
    }
    for (const l of this.ofKind('private-link')) {
      if (l.useLimit !== null) assert.ok(l.uses <= l.useLimit, 'link uses never exceed the limit');
      assert.equal(l.uses, l.acceptedStores.length);
      if (l.storeLock !== null) assert.ok(l.acceptedStores.every((s) => s === l.storeLock), 'a locked link redeems for its store only');
    }
    for (const p of this.ofKind('publisher')) {
      if (this.revokedPublishers.has(p.id)) assert.equal(p.state, 'revoked', 'a revoked publisher is never restored');
      if (p.state === 'revoked') this.revokedPublishers.add(p.id);
      else assert.ok(p.keys.some((k) => k.state === 'active'), 'the last active key is never revoked');
    }
    for (const i of this.ofKind('installation')) {
      // The gate reads three records: its answer changes only when one of them did.
      if (!changed.some((r) => r.id === i.id || r.id === i.releaseId || r.id === i.publisherId)) continue;
      for (const cap of i.granted) {
        assert.ok(i.declared.includes(cap), 'a dropped capability is never granted');
        assert.ok(this.userApproved.get(i.id).has(cap), 'every grant was approved by the store user');
      }
      const rel = w.get(i.releaseId);
      const gate = launchGate(i, rel, w.get(rel.publisherId));
      if (gate.ok) {
        assert.equal(rel.state, 'approved', 'a revoked release never launches');
        assert.equal(w.get(rel.publisherId).state, 'active', 'a revoked publisher\'s release never launches');
        assert.equal(i.state, 'installed');
        assert.ok(gate.ready.capabilities.every((c) => i.granted.includes(c) && rel.capabilities.includes(c)));
      } else if (i.state === 'installed' && rel.state === 'approved' && w.get(rel.publisherId).state === 'active') {
        assert.fail(`an installed, approved release of an active publisher launches: ${gate.refusal.code}`);
      }
    }
  }
}

const stepArb = fc.tuple(fc.nat(KIND_WEIGHTS.length - 1), fc.nat(1 << 12), fc.nat(1 << 12), fc.nat(1 << 12), fc.nat(1 << 12), fc.nat(1 << 12));

test(`prop-invariants: ${RUNS} random sequences of ${STEPS_PER_RUN} commands keep every invariant after every step`, () => {
  let steps = 0;
  let decided = 0;
  fc.assert(
    fc.property(fc.array(stepArb, { minLength: STEPS_PER_RUN, maxLength: STEPS_PER_RUN }), (sequence) => {
      const sim = new Sim();
      for (const s of sequence) {
        const before = sim.w.records.size;
        sim.step(s);
        sim.check();
        steps++;
        if (sim.w.records.size !== before) decided++;
      }
    }),
    { numRuns: RUNS, seed: CI ? undefined : 42, endOnFailure: false },
  );
  assert.ok(steps >= RUNS * STEPS_PER_RUN);
  if (CI) assert.ok(steps >= 100_000, `${steps} steps`);
  // The sequences reach the interesting states: records are made, not only refused.
  assert.ok(decided > steps / 50, `${decided} of ${steps} steps created records`);
  // Every state and effect the invariants are about is reached, not only refused.
  const reached = [
    'release-submission:failed-validation', 'release-submission:approved', 'release-submission:rejected', 'release-submission:changes-requested',
    'release-submission:withdrawn', 'release-submission:revoked', 'publisher:revoked', 'private-link:accepted', 'private-link:revoked',
    'invitation:accepted', 'installation:installed', 'installation:uninstalled', 'consume-link-use', 'open-permission-review', 'remove-grant',
    'copy-bundle-to-immutable-storage', 'show-link-terms', 'grant-link-access', 'stop-launching',
  ];
  if (process.env.SERVICE_PROP_STATS === '1') console.log(Object.fromEntries([...STATS].sort()));
  assert.deepEqual(reached.filter((k) => !STATS.has(k)), [], 'states and effects never reached');
});
