#!/usr/bin/env node
// A walk through the service core (platform-ext/service), one scenario per state table of
// the contract, printing every step: a publisher with two keys rotates one; a release fails
// validation, is corrected under the same version, approved by a second operator and
// revoked; a store redeems a private link twice; an upgrade adds a capability.
//
// Run from a clone after `npm ci` (which builds dist/): node examples/service/walkthrough.mjs
// The script plays the platform team's part: it keeps the records in a Map, writes them with
// compare-and-set on `revision`, makes ids, reads no clock (the times are fixed so the output
// is the same on every run) and hashes the tokens it hands out.
import { createHash, randomBytes } from 'node:crypto';
import { decideInstallation, decideLink, decidePublisher, decideSubmission, launchGate } from 'platform-ext/service';

const store = new Map();
let clock = Date.parse('2026-03-02T09:00:00.000Z');
let ids = 0;
const now = (minutes = 1) => (clock += minutes * 60_000);
const newId = (prefix) => `${prefix}-${++ids}`;
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const fingerprint = (name) => sha256(`public key ${name}`);

/** Stores a decision's records with compare-and-set, as storage would. */
function save(decision) {
  for (const record of decision.records) {
    const stored = store.get(record.id);
    if ((stored?.revision ?? 0) !== record.revision - 1) throw new Error(`compare-and-set failed for ${record.id}`);
    store.set(record.id, record);
  }
}

function describe(record) {
  if (record.kind === 'publisher') return `publisher ${record.id}: keys ${record.keys.map((k) => `${k.id.slice(0, 8)} ${k.state}`).join(', ')}`;
  if (record.kind === 'release-submission') return `${record.namespace}@${record.version} (${record.id}) is ${record.state}, working files ${record.workingFiles}`;
  if (record.kind === 'private-link') return `link ${record.id} is ${record.state}, ${record.uses} of ${record.useLimit ?? 'unlimited'} uses`;
  if (record.kind === 'installation') return `installation ${record.id}: declared [${record.declared}], granted [${record.granted}], awaiting review [${record.reviewPending}]`;
  return `${record.kind} ${record.id}`;
}

/** Prints a step that must succeed, stores its records, returns the first one. */
function step(label, decision) {
  if (!decision.ok) throw new Error(`${label}: refused ${decision.refusal.code}: ${decision.refusal.message}`);
  save(decision);
  console.log(`  ok      ${label}`);
  for (const r of decision.records) console.log(`            -> ${describe(r)} (revision ${r.revision})`);
  for (const e of decision.effects) console.log(`            effect ${e.type}${e.path ? ` ${e.path}` : ''}${e.capabilities ? ` [${e.capabilities}]` : ''}${e.capability ? ` ${e.capability}` : ''}`);
  return decision.records[0];
}

/** Prints a step that must be refused with `code`. */
function refused(label, decision, code) {
  if (decision.ok || decision.refusal.code !== code) throw new Error(`${label}: expected ${code}, got ${decision.ok ? 'ok' : decision.refusal.code}`);
  console.log(`  refused ${label}\n            ${decision.refusal.code}: ${decision.refusal.message}`);
}

function launch(label, installationId) {
  const inst = store.get(installationId);
  const release = store.get(inst.releaseId);
  const gate = launchGate(inst, release, store.get(release.publisherId));
  if (gate.ok) console.log(`  launch  ${label}: PLATFORM.ready = ${JSON.stringify(gate.ready)}`);
  else console.log(`  launch  ${label}: refused ${gate.refusal.code}`);
  return gate;
}

/** What validateRelease reports, reduced by submissionReport to what `submit` takes. */
function report(version, keyName, { errors = 0, capabilities = ['catalog.products.read'] } = {}) {
  return {
    errors,
    warnings: 0,
    rules: errors > 0 ? ['html/inline-script'] : [],
    manifest: { namespace: 'acme/shelf', version, capabilities, properties: [{ name: 'title', type: 'text', required: false, default: 'New arrivals' }] },
    manifestSha256: sha256(`manifest ${version} ${errors}`),
    artifactSha256: sha256(`bundle ${version} ${errors}`),
    publicKeyId: fingerprint(keyName),
    signatureValid: true,
  };
}

const owner = { kind: 'publisher-member', id: 'olivia' };
const opAnna = { kind: 'operator', id: 'op-anna' };
const opBen = { kind: 'operator', id: 'op-ben' };
const namespaceFacts = () => {
  const submissions = [...store.values()].filter((r) => r.kind === 'release-submission' && r.namespace === 'acme/shelf');
  return { ownerPublisherId: submissions[0]?.publisherId ?? null, submissions: submissions.map((s) => ({ id: s.id, version: s.version, state: s.state })) };
};
const current = () => [...store.values()].filter((r) => r.kind === 'release-submission' && r.state === 'approved').at(-1)?.id ?? null;
function submit(publisherId, version, keyName, options) {
  return decideSubmission(null, { type: 'submit', actor: owner, publisherId, namespace: 'acme/shelf', version, distribution: options?.distribution ?? 'public-free', report: report(version, keyName, options) }, { now: now(), newId: newId('sub'), publisher: store.get(publisherId), namespace: namespaceFacts() });
}
const approve = (id, actor) => decideSubmission(store.get(id), { type: 'approve', actor }, { now: now(), publisher: store.get(store.get(id).publisherId), namespace: namespaceFacts(), currentReleaseId: current() });

console.log('1. Keys: a publisher with two keys rotates one (Authentication 5)');
let pub = step('olivia creates publisher with key A', decidePublisher(null, { type: 'create', actor: owner, keyId: fingerprint('A') }, { now: now(), newId: newId('pub') }));
step('an operator trusts the publisher (its own decision)', decidePublisher(pub, { type: 'trust', actor: opAnna }, { now: now() }));
step('olivia adds the replacement key B', decidePublisher(store.get(pub.id), { type: 'add-key', actor: owner, keyId: fingerprint('B') }, { now: now() }));
step('a release signed with key B is submitted', submit(pub.id, '0.9.0', 'B'));
step('olivia revokes the old key A', decidePublisher(store.get(pub.id), { type: 'revoke-key', actor: owner, keyId: fingerprint('A') }, { now: now() }));
refused('revoking key B, the last active key', decidePublisher(store.get(pub.id), { type: 'revoke-key', actor: owner, keyId: fingerprint('B') }, { now: now() }), 'service/last-active-key');
refused('a release signed with the revoked key A', submit(pub.id, '0.9.1', 'A'), 'service/key-not-active');

console.log('\n2. Release submission and review: fail, correct, reuse the version, approve, revoke');
step('1.0.0 is submitted; the production validator finds an error', submit(pub.id, '1.0.0', 'B', { errors: 1 }));
const fixed = step('1.0.0 is corrected, re-signed and submitted again (same version)', submit(pub.id, '1.0.0', 'B'));
const byAnna = step('op-anna submits 1.1.0 on the publisher\'s behalf', decideSubmission(null, { type: 'submit', actor: opAnna, publisherId: pub.id, namespace: 'acme/shelf', version: '1.1.0', distribution: 'public-free', report: report('1.1.0', 'B') }, { now: now(), newId: newId('sub'), publisher: store.get(pub.id), namespace: namespaceFacts() }));
step('op-anna approves 1.0.0', approve(fixed.id, opAnna));
refused('op-anna approves 1.1.0, which she submitted', approve(byAnna.id, opAnna), 'service/approve-own-submission');
step('op-ben approves 1.1.0', approve(byAnna.id, opBen));
refused('1.1.0 submitted again', submit(pub.id, '1.1.0', 'B'), 'service/version-approved');
step('op-ben publishes the 1.1.0 listing (a third decision)', decideSubmission(store.get(byAnna.id), { type: 'publish-listing', actor: opBen }, { now: now(), publisher: store.get(pub.id) }));
const shop = { kind: 'store-user', id: 'sam', storeId: 'store-sam' };
const samInstall = step('store-sam installs 1.1.0, approving catalog.products.read', decideInstallation(null, { type: 'install', actor: shop, grants: ['catalog.products.read'] }, { now: now(), newId: newId('inst'), release: store.get(byAnna.id), publisher: store.get(pub.id), link: null }));
launch('store-sam', samInstall.id);
step('op-ben revokes 1.1.0', decideSubmission(store.get(byAnna.id), { type: 'revoke', actor: opBen, note: 'reported by a store' }, { now: now() }));
launch('store-sam after the revocation', samInstall.id);

console.log('\n3. Private link: a store redeems a link twice');
const priv = step('2.0.0 (private) is submitted', submit(pub.id, '2.0.0', 'B', { distribution: 'private' }));
step('op-ben approves 2.0.0', approve(priv.id, opBen));
const token = randomBytes(32).toString('base64url'); // goes in the link, never into a record
const link = step('olivia issues a link locked to store-kim, one use, expiring in 7 days', decideLink(null, { type: 'issue', actor: owner, tokenHash: sha256(token), storeLock: 'store-kim', useLimit: 1, expiresAt: clock + 7 * 24 * 3_600_000 }, { now: now(), newId: newId('link'), release: store.get(priv.id), publisher: store.get(pub.id) }));
const kim = { kind: 'store-user', id: 'kim', storeId: 'store-kim' };
const opened = decideLink(store.get(link.id), { type: 'open', actor: kim, tokenHash: sha256(token) }, { now: now() });
step(`store-kim opens it: terms ${JSON.stringify(opened.effects[0].terms)}`, opened);
step('store-kim accepts (one use consumed)', decideLink(store.get(link.id), { type: 'accept', actor: kim, tokenHash: sha256(token) }, { now: now() }));
step('store-kim accepts again (no use consumed, nothing stored)', decideLink(store.get(link.id), { type: 'accept', actor: kim, tokenHash: sha256(token) }, { now: now() }));
refused('store-lee accepts the same link', decideLink(store.get(link.id), { type: 'accept', actor: { kind: 'store-user', id: 'lee', storeId: 'store-lee' }, tokenHash: sha256(token) }, { now: now() }), 'service/link-store-locked');
const kimInstall = step('store-kim installs 2.0.0 through the link', decideInstallation(null, { type: 'install', actor: kim, grants: ['catalog.products.read'] }, { now: now(), newId: newId('inst'), release: store.get(priv.id), publisher: store.get(pub.id), link: store.get(link.id) }));
step('olivia revokes the link', decideLink(store.get(link.id), { type: 'revoke', actor: owner }, { now: now(), publisher: store.get(pub.id) }));
refused('store-kim accepts after the revocation', decideLink(store.get(link.id), { type: 'accept', actor: kim, tokenHash: sha256(token) }, { now: now() }), 'service/link-revoked');

console.log('\n4. Capability grants: an upgrade adds a capability');
const next = step('2.1.0 adds cart.manage and is submitted', submit(pub.id, '2.1.0', 'B', { distribution: 'private', capabilities: ['catalog.products.read', 'cart.manage'] }));
step('op-anna approves 2.1.0', approve(next.id, opAnna));
step('store-kim\'s installation moves to 2.1.0', decideInstallation(store.get(kimInstall.id), { type: 'upgrade', actor: { kind: 'system', id: 'updater' } }, { now: now(), release: store.get(priv.id), next: store.get(next.id), publisher: store.get(pub.id) }));
launch('store-kim before the review', kimInstall.id);
step('store-kim approves cart.manage', decideInstallation(store.get(kimInstall.id), { type: 'grant', actor: kim, capability: 'cart.manage' }, { now: now() }));
launch('store-kim after the review', kimInstall.id);
step('store-kim revokes catalog.products.read', decideInstallation(store.get(kimInstall.id), { type: 'revoke-grant', actor: kim, capability: 'catalog.products.read' }, { now: now() }));
launch('store-kim after revoking a grant', kimInstall.id);
console.log('\nEvery step behaved as the contract says.');
