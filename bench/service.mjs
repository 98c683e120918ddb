#!/usr/bin/env node
// The service core's decisions per second, per record kind, beside a JSON.stringify +
// JSON.parse round trip of the records the decision reads: the record decided on and the
// records its context carries (a submission's publisher, an installation's release), the
// least any storage pays to load them and save the result (D-35's ratio against a peer in
// the same run). Bound: a decision costs at most 3x that round trip. One representative
// command per kind, on records of realistic size; the launch gate is reported beside the
// round trip of its three records, without a bound.
// Short batches of the two sides alternate in pairs; the bound is on the median of the
// pairs' own ratios, so machine noise hits both sides alike.
//
// Usage: node scripts/build.mjs && node bench/service.mjs [pairs]   (default 61)
//        node bench/service.mjs [batches] --build   measures build/service/ (after --transpile-only)
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const s = await import(pathToFileURL(join(root, process.argv.includes('--build') ? 'build/service/index.js' : 'dist/service.mjs')).href);
const batches = Number(process.argv[2] !== undefined && !process.argv[2].startsWith('--') ? process.argv[2] : 61);
const BOUND = 3;

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const hex = (n) => n.toString(16).padStart(64, '0');
const must = (d) => {
  if (!d.ok) throw new Error(`${d.refusal.code}: ${d.refusal.message}`);
  return d.records[0];
};

// A publisher with three keys (one revoked) and five members.
const owner = { kind: 'publisher-member', id: 'olivia' };
let pub = must(s.decidePublisher(null, { type: 'create', actor: owner, keyId: hex(1) }, { now: T0, newId: 'pub-1' }));
pub = must(s.decidePublisher(pub, { type: 'trust', actor: { kind: 'operator', id: 'op1' } }, { now: T0 + 1 }));
for (const k of [2, 3]) pub = must(s.decidePublisher(pub, { type: 'add-key', actor: owner, keyId: hex(k) }, { now: T0 + k }));
pub = must(s.decidePublisher(pub, { type: 'revoke-key', actor: owner, keyId: hex(1) }, { now: T0 + 4 }));
pub = { ...pub, members: [...pub.members, ...['ada', 'bo', 'cy', 'di'].map((userId, i) => ({ userId, role: i === 0 ? 'administrator' : 'developer' }))] };

// A submission with six capabilities, eight properties and a report of twelve findings.
const properties = Array.from({ length: 8 }, (_, i) => ({ name: `p${i}`, type: i % 2 ? 'text' : 'boolean', required: false, default: i % 2 ? `value ${i}` : true, label: `Property ${i}` }));
const capabilities = ['analytics.events.write', 'cart.manage', 'catalog.products.read', 'forms.submit', 'site.theme.read', 'waivers.start'];
const earlier = Array.from({ length: 10 }, (_, i) => ({ id: `sub-old-${i}`, version: `0.${i}.0`, state: i % 3 ? 'approved' : 'rejected' }));
const report = { errors: 0, warnings: 12, rules: Array(12).fill('js/unused-capability'), manifest: { namespace: 'acme/shelf', version: '1.0.0', capabilities, properties }, manifestSha256: hex(10), artifactSha256: hex(11), publicKeyId: hex(2), signatureValid: true };
const sub = must(s.decideSubmission(null, { type: 'submit', actor: owner, publisherId: pub.id, namespace: 'acme/shelf', version: '1.0.0', distribution: 'public-free', report }, { now: T0 + 10, newId: 'sub-1', publisher: pub, namespace: { ownerPublisherId: pub.id, submissions: earlier } }));
const approveContext = { now: T0 + 11, publisher: pub, namespace: { ownerPublisherId: pub.id, submissions: [...earlier, { id: sub.id, version: '1.0.0', state: 'awaiting-review' }] }, currentReleaseId: 'sub-old-8' };
let release = must(s.decideSubmission(sub, { type: 'approve', actor: { kind: 'operator', id: 'op2' } }, approveContext));
release = must(s.decideSubmission(release, { type: 'publish-listing', actor: { kind: 'operator', id: 'op2' } }, { now: T0 + 12, publisher: pub }));

const storeUser = (storeId) => ({ kind: 'store-user', id: `u-${storeId}`, storeId });
let inst = must(s.decideInstallation(null, { type: 'install', actor: storeUser('s1'), grants: capabilities.slice(0, 4) }, { now: T0 + 13, newId: 'inst-1', release, publisher: pub, link: null }));
const settings = { p1: 'Sale', p3: 'Open late', p0: false };
inst = must(s.decideInstallation(inst, { type: 'save-settings', actor: storeUser('s1'), settings }, { now: T0 + 14, release }));

let link = must(s.decideLink(null, { type: 'issue', actor: owner, tokenHash: hex(99), useLimit: 50, expiresAt: T0 + 7 * 86_400_000 }, { now: T0 + 15, newId: 'link-1', release, publisher: pub }));
for (let i = 0; i < 20; i++) link = must(s.decideLink(link, { type: 'accept', actor: storeUser(`s${i}`), tokenHash: hex(99) }, { now: T0 + 16 + i }));

const inv = must(s.decideInvitation(null, { type: 'create', actor: owner, email: 'nia@example.test', role: 'developer', tokenHash: hex(77) }, { now: T0 + 40, newId: 'inv-1', publisher: pub }));

/** [label, the records the decision reads, one decision] per kind. */
const CASES = [
  ['release-submission: approve', [sub, pub, approveContext.namespace], () => s.decideSubmission(sub, { type: 'approve', actor: { kind: 'operator', id: 'op2' } }, approveContext)],
  ['publisher: add-key', [pub], () => s.decidePublisher(pub, { type: 'add-key', actor: owner, keyId: hex(4) }, { now: T0 + 50 })],
  ['installation: save-settings', [inst, release], () => s.decideInstallation(inst, { type: 'save-settings', actor: storeUser('s1'), settings: { p1: 'New', p0: true } }, { now: T0 + 51, release })],
  ['private-link: accept', [link], () => s.decideLink(link, { type: 'accept', actor: storeUser('s-new'), tokenHash: hex(99) }, { now: T0 + 52 })],
  ['invitation: accept', [inv, pub], () => s.decideInvitation(inv, { type: 'accept', actor: { kind: 'publisher-member', id: 'nia', email: 'nia@example.test' }, tokenHash: hex(77) }, { now: T0 + 53, publisher: pub })],
];

let sink = 0;
/** Nanoseconds per call of `fn`, over about 5 ms. */
function perCall(fn) {
  let n = 0;
  const t0 = process.hrtime.bigint();
  let t = t0;
  while (t - t0 < 5_000_000n) {
    for (let i = 0; i < 20; i++) sink += fn() ? 1 : 0;
    n += 20;
    t = process.hrtime.bigint();
  }
  return Number(t - t0) / n;
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

/**
 * Pairs of adjacent short batches, the order turning each pair; the ratio is the median of
 * the pairs' own ratios, so a load that comes and goes on a shared machine hits both sides
 * of each pair alike.
 */
function compare(label, decide, roundTrip, bound) {
  for (let i = 0; i < 3; i++) perCall(decide), perCall(roundTrip); // warm up
  const d = [];
  const r = [];
  const ratios = [];
  for (let i = 0; i < batches; i++) {
    let di;
    let ri;
    if (i % 2 === 0) {
      di = perCall(decide);
      ri = perCall(roundTrip);
    } else {
      ri = perCall(roundTrip);
      di = perCall(decide);
    }
    d.push(di);
    r.push(ri);
    ratios.push(di / ri);
  }
  const ratio = median(ratios);
  const verdict = bound === undefined ? '' : ratio <= bound ? `  PASS (at most ${bound}x)` : `  FAIL (at most ${bound}x)`;
  const rate = (ns) => `${Math.round(1e9 / ns).toLocaleString('en-US')}/s`.padStart(11);
  console.log(`${label.padEnd(30)} decisions ${rate(median(d))}  round trips ${rate(median(r))}  ${ratio.toFixed(2)}x${verdict}`);
  return bound === undefined || ratio <= bound;
}

let ok = true;
for (const [label, records, decide] of CASES) {
  const check = decide();
  if (!check.ok) throw new Error(`${label}: ${check.refusal.code}`);
  ok = compare(label, decide, () => JSON.parse(JSON.stringify(records)), BOUND) && ok;
}
compare('launch gate (reported)', () => s.launchGate(inst, release, pub).ok, () => JSON.parse(JSON.stringify([inst, release, pub])));
if (sink < 0) console.log(sink);
process.exitCode = ok ? 0 : 1;
