// Release submission and review (src/service/submission.ts): one row per row of the
// contract's state table and per rule sentence (What the service does 2-4, Retention,
// Versioning), on both sides of each condition. Rows are named by id; docs/service.md's
// statement table cites them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { World, service, ok, refused, effectTypes, hex, OWNER, DEV, ADMIN, STRANGER, OP1, OP2, T0 } from './world.mjs';

const { decideSubmission } = service;

/** A world with a trusted publisher and one submission awaiting review (submitted by OP1). */
function awaiting(options = {}) {
  const w = new World();
  const pub = w.setupPublisher();
  const sub = w.apply(w.submit(pub, { actor: OP1, ...options })).records[0].id;
  return { w, pub, sub };
}

const CASES = [
  {
    id: 'sub-fail-report',
    title: 'submitted + failing report -> failed validation, report kept, working files deleted',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const d = w.apply(w.submit(pub, { errors: 2 }));
      const r = d.records[0];
      assert.equal(r.state, 'failed-validation');
      assert.deepEqual(r.report, { errors: 2, warnings: 0, rules: ['html/inline-script', 'html/inline-script'] });
      assert.equal(r.workingFiles, 'deleted');
      assert.deepEqual(effectTypes(d), ['keep-validation-report', 'delete-working-files']);
      assert.deepEqual(r.trail.map((t) => t.action), ['submitted', 'failed-validation']);
    },
  },
  {
    id: 'sub-fail-signature',
    title: 'a report whose signature does not verify fails, even with no error finding (no unsigned path)',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      assert.equal(w.apply(w.submit(pub, { signatureValid: false })).records[0].state, 'failed-validation');
    },
  },
  {
    id: 'sub-fail-resubmit-same-version',
    title: 'after failed validation the same version is corrected and resubmitted',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      w.apply(w.submit(pub, { errors: 1 }));
      const again = w.apply(w.submit(pub, {})).records[0];
      assert.equal(again.state, 'awaiting-review');
      assert.equal(again.version, '1.0.0');
    },
  },
  {
    id: 'sub-pass-awaiting',
    title: 'submitted + passing report -> awaiting review, queued, working files private (not approved: validation alone approves nothing)',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const d = w.apply(w.submit(pub));
      assert.equal(d.records[0].state, 'awaiting-review');
      assert.equal(d.records[0].workingFiles, 'private');
      assert.equal(d.records[0].storagePath, null);
      assert.deepEqual(effectTypes(d), ['keep-validation-report', 'keep-working-files-private', 'queue-for-review']);
    },
  },
  {
    id: 'sub-approve',
    title: 'awaiting review + approve -> approved; bundle copied to extensions/{namespace}/{version}/bundle.zip before working files are deleted',
    run() {
      const { w, sub } = awaiting();
      const d = w.apply(w.approve(sub, OP2));
      const r = d.records[0];
      assert.equal(r.state, 'approved');
      assert.equal(r.workingFiles, 'deleted');
      assert.equal(r.storagePath, 'extensions/acme/shelf/1.0.0/bundle.zip');
      const types = effectTypes(d);
      assert.ok(types.indexOf('copy-bundle-to-immutable-storage') < types.indexOf('delete-working-files'));
      assert.equal(d.effects.find((e) => e.type === 'copy-bundle-to-immutable-storage').path, 'extensions/acme/shelf/1.0.0/bundle.zip');
      assert.equal(r.listing, 'unlisted', 'approving does not publish the listing');
    },
  },
  {
    id: 'sub-approve-own',
    title: 'the operator who submitted cannot approve; another can',
    run() {
      const { w, sub } = awaiting();
      refused(w.approve(sub, OP1), 'service/approve-own-submission', '/actor/id');
      ok(w.approve(sub, OP2));
    },
  },
  {
    id: 'sub-approve-own-member',
    title: 'no one approves their own submission, whatever role they submitted in',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const sub = w.apply(w.submit(pub, { actor: OWNER })).records[0].id;
      refused(w.approve(sub, { kind: 'operator', id: OWNER.id }), 'service/approve-own-submission');
    },
  },
  {
    id: 'sub-approve-operator-only',
    title: 'only an operator approves, rejects or requests changes',
    run() {
      const { w, sub } = awaiting();
      refused(w.approve(sub, OWNER), 'service/actor-not-allowed', '/actor/kind');
      refused(w.submissionCommand(sub, { type: 'reject', actor: ADMIN }), 'service/actor-not-allowed');
    },
  },
  {
    id: 'sub-approve-needs-trust',
    title: 'trusting the publisher is its own decision: an untrusted publisher\'s release is not approved until an operator trusts it',
    run() {
      const w = new World();
      const pub = w.setupPublisher({ trusted: false });
      const sub = w.apply(w.submit(pub)).records[0].id;
      refused(w.approve(sub), 'service/publisher-not-trusted');
      const trusted = w.apply(w.publisherCommand(pub, { type: 'trust', actor: OP1 }));
      assert.equal(trusted.records.length, 1, 'trusting changes only the publisher');
      assert.equal(w.get(sub).state, 'awaiting-review');
      ok(w.approve(sub));
    },
  },
  {
    id: 'sub-listing-separate',
    title: 'publishing a listing is a third decision, after approval, for listed modes only',
    run() {
      const { w, pub, sub } = awaiting();
      refused(w.submissionCommand(sub, { type: 'publish-listing', actor: OP1 }, { publisher: w.get(pub) }), 'service/wrong-state');
      w.apply(w.approve(sub));
      const d = w.apply(w.submissionCommand(sub, { type: 'publish-listing', actor: OP1 }, { publisher: w.get(pub) }));
      assert.equal(d.records[0].listing, 'published');
      assert.equal(d.records[0].state, 'approved');
      const priv = w.apply(w.submit(pub, { version: '1.1.0', distribution: 'private' })).records[0].id;
      w.apply(w.approve(priv));
      refused(w.submissionCommand(priv, { type: 'publish-listing', actor: OP1 }, { publisher: w.get(pub) }), 'service/listing-not-offered');
    },
  },
  { id: 'sub-reject', title: 'awaiting review + reject -> rejected; working files deleted; the version is reused for the correction', run: () => closedByOperator('reject', 'rejected') },
  { id: 'sub-request-changes', title: 'awaiting review + request changes -> changes-requested; working files deleted; the version is reused for the correction', run: () => closedByOperator('request-changes', 'changes-requested') },
  {
    id: 'sub-withdraw',
    title: 'awaiting review + the publisher withdraws -> withdrawn; working files deleted; version reusable',
    run() {
      const { w, pub, sub } = awaiting();
      refused(w.submissionCommand(sub, { type: 'withdraw', actor: STRANGER }, { publisher: w.get(pub) }), 'service/actor-not-allowed');
      const d = w.apply(w.submissionCommand(sub, { type: 'withdraw', actor: DEV }, { publisher: w.get(pub) }));
      assert.equal(d.records[0].state, 'withdrawn');
      assert.deepEqual(effectTypes(d), ['leave-review-queue', 'delete-working-files']);
      ok(w.submit(pub));
    },
  },
  {
    id: 'sub-decisions-only-awaiting',
    title: 'approve, reject, request changes and withdraw act only on a submission awaiting review',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const failed = w.apply(w.submit(pub, { errors: 1 })).records[0].id;
      refused(w.approve(failed), 'service/wrong-state', '/state');
      refused(w.submissionCommand(failed, { type: 'reject', actor: OP2 }), 'service/wrong-state');
      refused(w.submissionCommand(failed, { type: 'withdraw', actor: OWNER }, { publisher: w.get(pub) }), 'service/wrong-state');
    },
  },
  {
    id: 'sub-revoke',
    title: 'approved + release revoked -> revoked; stop launching',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const rel = w.release(pub);
      const inst = w.apply(w.install(rel)).records[0].id;
      ok(w.launch(inst));
      const d = w.apply(w.submissionCommand(rel, { type: 'revoke', actor: OP1 }));
      assert.equal(d.records[0].state, 'revoked');
      assert.deepEqual(d.effects, [{ type: 'stop-launching', releaseId: rel }]);
      refused(w.launch(inst), 'service/release-revoked');
    },
  },
  {
    id: 'sub-revoke-only-approved',
    title: 'only an approved release is revoked',
    run() {
      const { w, sub } = awaiting();
      refused(w.submissionCommand(sub, { type: 'revoke', actor: OP1 }), 'service/wrong-state');
    },
  },
  {
    id: 'sub-version-approved',
    title: 'an approved version is never reused (also after revocation, also with other build metadata)',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const rel = w.release(pub);
      refused(w.submit(pub, { version: '1.0.0' }), 'service/version-approved', '/version');
      refused(w.submit(pub, { version: '1.0.0+rebuild' }), 'service/version-approved');
      w.apply(w.submissionCommand(rel, { type: 'revoke', actor: OP1 }));
      refused(w.submit(pub, { version: '1.0.0' }), 'service/version-approved');
      ok(w.submit(pub, { version: '1.0.1' }));
    },
  },
  {
    id: 'sub-version-higher',
    title: 'a change after approval needs a higher version (semantic-version order, pre-releases below the release)',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      w.release(pub, { version: '1.2.0' });
      refused(w.submit(pub, { version: '1.1.9' }), 'service/version-not-higher');
      refused(w.submit(pub, { version: '1.2.0-rc.1' }), 'service/version-not-higher');
      refused(w.submit(pub, { version: '0.10.0' }), 'service/version-not-higher');
      ok(w.submit(pub, { version: '1.2.1-alpha' }));
      ok(w.submit(pub, { version: '1.10.0' }));
    },
  },
  {
    id: 'sub-version-in-review',
    title: 'a version awaiting review is not submitted twice; once withdrawn it is free',
    run() {
      const { w, pub, sub } = awaiting();
      refused(w.submit(pub), 'service/version-in-review');
      w.apply(w.submissionCommand(sub, { type: 'withdraw', actor: OWNER }, { publisher: w.get(pub) }));
      ok(w.submit(pub));
    },
  },
  {
    id: 'sub-version-semver',
    title: 'the release version is a semantic version',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(w.submit(pub, { version: '1.0' }), 'service/malformed-command', '/version');
      refused(w.submit(pub, { version: '01.0.0' }), 'service/malformed-command', '/version');
      ok(w.submit(pub, { version: '1.0.0-beta.2+build.5' }));
    },
  },
  {
    id: 'sub-namespace-owned',
    title: 'the namespace never changes hands: another publisher cannot submit to it',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      w.release(pub);
      const other = w.apply(w.createPublisher({ kind: 'publisher-member', id: 'mallory' }, hex(9))).records[0].id;
      refused(w.submit(other, { actor: { kind: 'publisher-member', id: 'mallory' }, keyId: hex(9), version: '2.0.0' }), 'service/namespace-owned', '/namespace');
      ok(w.submit(other, { actor: { kind: 'publisher-member', id: 'mallory' }, keyId: hex(9), namespace: 'mallory/shelf' }));
    },
  },
  {
    id: 'sub-report-mismatch',
    title: 'a passing report must describe the namespace and version submitted',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const cmd = { type: 'submit', actor: OWNER, publisherId: pub, namespace: 'acme/shelf', version: '1.0.0', distribution: 'public-free', report: report2() };
      refused(decideSubmission(null, cmd, { now: T0, newId: 's', publisher: w.get(pub), namespace: w.namespaceFacts('acme/shelf') }), 'service/report-mismatch');
    },
  },
  {
    id: 'sub-key-not-active',
    title: 'a release signed with a key the publisher does not hold as active is refused, never accepted silently',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      refused(w.submit(pub, { keyId: hex(77) }), 'service/key-not-active', '/report/publicKeyId');
      ok(w.submit(pub, { keyId: hex(1) }));
    },
  },
  {
    id: 'sub-key-revoked-before-approval',
    title: 'a key revoked while the release awaits review blocks its approval',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      w.apply(w.publisherCommand(pub, { type: 'add-key', actor: OWNER, keyId: hex(2) }));
      const sub = w.apply(w.submit(pub, { keyId: hex(1) })).records[0].id;
      w.apply(w.publisherCommand(pub, { type: 'revoke-key', actor: OWNER, keyId: hex(1) }));
      refused(w.approve(sub), 'service/key-not-active');
    },
  },
  {
    id: 'sub-public-key-only',
    title: 'only the public key\'s fingerprint reaches the service: the record keeps it, and a command carrying a private key is refused',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const r = w.apply(w.submit(pub)).records[0];
      assert.equal(r.publicKeyId, hex(1));
      const cmd = { type: 'submit', actor: OWNER, publisherId: pub, namespace: 'acme/shelf', version: '1.0.1', distribution: 'public-free', report: report2(), privateKey: '-----BEGIN PRIVATE KEY-----' };
      refused(decideSubmission(null, cmd, { now: T0, newId: 's', publisher: w.get(pub), namespace: w.namespaceFacts('acme/shelf') }), 'service/malformed-command', '/privateKey');
    },
  },
  {
    id: 'sub-member-submits',
    title: 'any member of the publisher submits; a non-member does not',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      ok(w.submit(pub, { actor: DEV }));
      refused(w.submit(pub, { actor: STRANGER }), 'service/actor-not-allowed');
      refused(w.submit(pub, { actor: { kind: 'store-user', id: 'x', storeId: 's' } }), 'service/actor-not-allowed');
    },
  },
  {
    id: 'sub-revoked-publisher',
    title: 'a revoked publisher submits nothing and its releases are approved no more',
    run() {
      const { w, pub, sub } = awaiting();
      w.apply(w.publisherCommand(pub, { type: 'revoke', actor: OP1 }));
      refused(w.submit(pub, { version: '2.0.0' }), 'service/publisher-revoked');
      refused(w.approve(sub), 'service/publisher-revoked');
    },
  },
  {
    id: 'sub-retention-kept',
    title: 'the record keeps hashes, report and decision trail after every decision',
    run() {
      const { w, sub } = awaiting();
      const r = w.apply(w.approve(sub)).records[0];
      assert.equal(r.manifestSha256, hex(0xb0));
      assert.equal(r.artifactSha256, hex(0xa0));
      assert.equal(r.publicKeyId, hex(1));
      assert.deepEqual(r.report, { errors: 0, warnings: 0, rules: [] });
      assert.deepEqual(r.trail.map((t) => [t.actor.id, t.action]), [[OP1.id, 'submitted'], ['production-validator', 'awaiting-review'], [OP2.id, 'approved']]);
    },
  },
  {
    id: 'sub-approved-bytes-fixed',
    title: 'an approved release never changes its bytes: no command rewrites its hashes, and a new upload needs a new version',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const rel = w.release(pub);
      const before = w.get(rel);
      refused(w.submit(pub, { artifact: hex(0xdead) }), 'service/version-approved');
      w.apply(w.submissionCommand(rel, { type: 'revoke', actor: OP1 }));
      const after = w.get(rel);
      assert.equal(after.artifactSha256, before.artifactSha256);
      assert.equal(after.manifestSha256, before.manifestSha256);
    },
  },
  {
    id: 'sub-rollback-kept',
    title: 'approving a later release keeps the current one for one-step rollback',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const first = w.release(pub);
      const second = w.apply(w.submit(pub, { version: '1.1.0' })).records[0].id;
      const d = w.apply(w.approve(second));
      assert.equal(d.records[0].previousReleaseId, first);
      assert.deepEqual(d.effects.at(-1), { type: 'keep-previous-release', namespace: 'acme/shelf', releaseId: first });
    },
  },
  {
    id: 'sub-report-helper',
    title: 'submissionReport turns a validateRelease result into what submit takes',
    run() {
      const result = {
        findings: [{ rule: 'html/inline-script', severity: 'error', message: 'x' }],
        errors: 1,
        warnings: 0,
        manifest: { namespace: 'acme/shelf', version: '1.0.0', capabilities: ['cart.manage'], properties: [] },
        manifestSha256: hex(1),
        artifactSha256: hex(2),
        publicKeyId: hex(3),
        signatureValid: true,
        bundleEntries: [{ path: 'index.html', bytes: new Uint8Array(3) }],
      };
      const r = service.submissionReport(result);
      assert.deepEqual(r, { errors: 1, warnings: 0, rules: ['html/inline-script'], manifest: { namespace: 'acme/shelf', version: '1.0.0', capabilities: ['cart.manage'], properties: [] }, manifestSha256: hex(1), artifactSha256: hex(2), publicKeyId: hex(3), signatureValid: true });
      assert.equal(service.reportPasses(r), false);
      assert.equal(service.reportPasses({ ...r, errors: 0 }), true);
    },
  },
];

function closedByOperator(type, state) {
  const { w, pub, sub } = awaiting();
  const d = w.apply(w.submissionCommand(sub, { type, actor: OP2, note: 'see the report' }));
  assert.equal(d.records[0].state, state);
  assert.equal(d.records[0].workingFiles, 'deleted');
  assert.deepEqual(effectTypes(d), ['leave-review-queue', 'delete-working-files']);
  assert.equal(d.records[0].trail.at(-1).note, 'see the report');
  assert.equal(w.apply(w.submit(pub, {})).records[0].state, 'awaiting-review');
}

function report2() {
  return { errors: 0, warnings: 0, rules: [], manifest: { namespace: 'acme/other', version: '1.0.0', capabilities: [], properties: [] }, manifestSha256: hex(2), artifactSha256: hex(3), publicKeyId: hex(1), signatureValid: true };
}

for (const c of CASES) test(`${c.id}: ${c.title}`, c.run);

test('every case id is unique', () => {
  assert.equal(new Set(CASES.map((c) => c.id)).size, CASES.length);
});
