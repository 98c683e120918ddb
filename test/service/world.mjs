// A small in-memory store for the service core's tests: it keeps records by id, applies a
// decision's records with compare-and-set on `revision` (as docs/service.md asks of real
// storage), and builds the contexts the commands need from what it holds.
import assert from 'node:assert/strict';
import * as service from '../../build/service/index.js';

export { service };
export const T0 = Date.parse('2026-03-01T00:00:00.000Z');
export const DAY = 24 * 60 * 60 * 1000;

/** A 64-hex value (a key fingerprint, a hash) made from a small number. */
export function hex(n) {
  return n.toString(16).padStart(64, '0');
}

export const OWNER = { kind: 'publisher-member', id: 'olivia' };
export const OWNER2 = { kind: 'publisher-member', id: 'oscar' };
export const ADMIN = { kind: 'publisher-member', id: 'ada' };
export const DEV = { kind: 'publisher-member', id: 'devi' };
export const STRANGER = { kind: 'publisher-member', id: 'sam' };
export const OP1 = { kind: 'operator', id: 'op-one' };
export const OP2 = { kind: 'operator', id: 'op-two' };
export const SYSTEM = { kind: 'system', id: 'service' };
export function storeUser(storeId, id = `user-of-${storeId}`) {
  return { kind: 'store-user', id, storeId };
}

export const PROPERTIES = [
  { name: 'title', type: 'text', required: false, default: 'Hello' },
  { name: 'show_prices', type: 'boolean', required: false, default: true },
];

/** A validateRelease report, as submissionReport makes it. */
export function report({ namespace = 'acme/shelf', version = '1.0.0', capabilities = ['catalog.products.read'], properties = PROPERTIES, errors = 0, keyId = hex(1), artifact = hex(0xa0), signatureValid = true } = {}) {
  return {
    errors,
    warnings: 0,
    rules: errors > 0 ? Array.from({ length: errors }, () => 'html/inline-script') : [],
    manifest: { namespace, version, capabilities, properties },
    manifestSha256: hex(0xb0),
    artifactSha256: artifact,
    publicKeyId: keyId,
    signatureValid,
  };
}

/** Asserts the decision is a "yes" and returns it. */
export function ok(decision) {
  assert.equal(decision.ok, true, decision.ok ? '' : `refused: ${decision.refusal.code}: ${decision.refusal.message}`);
  return decision;
}

/** Asserts the decision is a refusal with `code` (and `pointer`, when given). */
export function refused(decision, code, pointer) {
  assert.equal(decision.ok, false, `expected ${code}, got ok`);
  assert.equal(decision.refusal.code, code, decision.refusal.message);
  assert.ok(service.refusalById(code), `${code} is in the catalogue`);
  if (pointer !== undefined) assert.equal(decision.refusal.pointer, pointer);
  return decision.refusal;
}

export function effectTypes(decision) {
  return decision.effects.map((e) => e.type);
}

export class World {
  records = new Map();
  now = T0;
  seq = 0;
  /** Approved releases per namespace, in approval order (the current one last). */
  approvals = new Map();

  newId(prefix) {
    this.seq++;
    return `${prefix}-${this.seq}`;
  }

  tick(ms = 1) {
    this.now += ms;
    return this.now;
  }

  get(id) {
    const r = this.records.get(id);
    assert.ok(r, `no record ${id}`);
    return r;
  }

  /** Stores a decision's records with compare-and-set; returns the decision. */
  apply(decision) {
    ok(decision);
    for (const r of decision.records) {
      const prev = this.records.get(r.id);
      assert.equal(r.revision, (prev?.revision ?? 0) + 1, `revision of ${r.id}`);
      if (prev !== undefined) assert.equal(prev.kind, r.kind);
      this.records.set(r.id, structuredClone(r));
      if (r.kind === 'release-submission' && r.state === 'approved' && prev?.state !== 'approved') {
        const list = this.approvals.get(r.namespace) ?? [];
        list.push(r.id);
        this.approvals.set(r.namespace, list);
      }
    }
    return decision;
  }

  namespaceFacts(namespace) {
    const submissions = [...this.records.values()].filter((r) => r.kind === 'release-submission' && r.namespace === namespace);
    return { ownerPublisherId: submissions[0]?.publisherId ?? null, submissions: submissions.map((s) => ({ id: s.id, version: s.version, state: s.state })) };
  }

  currentReleaseId(namespace) {
    const list = (this.approvals.get(namespace) ?? []).filter((id) => this.get(id).state === 'approved');
    return list.at(-1) ?? null;
  }

  // Commands, decided against what the world holds (not applied).

  createPublisher(actor = OWNER, keyId = hex(1)) {
    return service.decidePublisher(null, { type: 'create', actor, keyId }, { now: this.tick(), newId: this.newId('pub') });
  }
  publisherCommand(id, command) {
    return service.decidePublisher(this.get(id), command, { now: this.tick() });
  }
  submit(publisherId, { actor = OWNER, namespace = 'acme/shelf', version = '1.0.0', distribution = 'public-free', ...rest } = {}) {
    return service.decideSubmission(
      null,
      { type: 'submit', actor, publisherId, namespace, version, distribution, report: report({ namespace, version, ...rest }) },
      { now: this.tick(), newId: this.newId('sub'), publisher: this.get(publisherId), namespace: this.namespaceFacts(namespace) },
    );
  }
  approve(submissionId, actor = OP2) {
    const s = this.get(submissionId);
    return service.decideSubmission(s, { type: 'approve', actor }, { now: this.tick(), publisher: this.get(s.publisherId), namespace: this.namespaceFacts(s.namespace), currentReleaseId: this.currentReleaseId(s.namespace) });
  }
  submissionCommand(id, command, extra = {}) {
    const s = this.get(id);
    return service.decideSubmission(s, command, { now: this.tick(), ...extra });
  }

  /** A trusted publisher (owner OWNER, one key hex(1)), with ADMIN and DEV members. Returns its id. */
  setupPublisher({ members = true, trusted = true } = {}) {
    const id = this.apply(this.createPublisher()).records[0].id;
    if (trusted) this.apply(this.publisherCommand(id, { type: 'trust', actor: OP1 }));
    if (members) {
      for (const [actor, role] of [[ADMIN, 'administrator'], [DEV, 'developer']]) this.join(id, actor, role);
    }
    return id;
  }

  /** Invites and accepts `actor` into the publisher as `role`. */
  join(publisherId, actor, role) {
    const address = `${actor.id}@example.test`;
    const inv = this.apply(service.decideInvitation(null, { type: 'create', actor: OWNER, email: address, role, tokenHash: hex(this.seq + 5000) }, { now: this.tick(), newId: this.newId('inv'), publisher: this.get(publisherId) })).records[0];
    this.apply(service.decideInvitation(inv, { type: 'accept', actor: { ...actor, email: address }, tokenHash: inv.tokenHash }, { now: this.tick(), publisher: this.get(publisherId) }));
  }

  /** Submits and approves a release; returns its id. */
  release(publisherId, options = {}) {
    const id = this.apply(this.submit(publisherId, options)).records[0].id;
    this.apply(this.approve(id));
    if (options.list !== false && (options.distribution ?? 'public-free') !== 'private') this.apply(this.submissionCommand(id, { type: 'publish-listing', actor: OP1 }, { publisher: this.get(publisherId) }));
    return id;
  }

  install(releaseId, storeId = 'store-1', grants, link = null) {
    const r = this.get(releaseId);
    return service.decideInstallation(null, { type: 'install', actor: storeUser(storeId), grants: grants ?? r.capabilities }, { now: this.tick(), newId: this.newId('inst'), release: r, publisher: this.get(r.publisherId), link });
  }

  issueLink(releaseId, fields = {}, actor = OWNER) {
    const r = this.get(releaseId);
    return service.decideLink(null, { type: 'issue', actor, tokenHash: hex(0x7001), ...fields }, { now: this.tick(), newId: this.newId('link'), release: r, publisher: this.get(r.publisherId) });
  }

  launch(installationId) {
    const inst = this.get(installationId);
    const rel = this.get(inst.releaseId);
    return service.launchGate(inst, rel, this.get(rel.publisherId));
  }
}
