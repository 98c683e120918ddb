// platform-review --history: the release against the publisher's record as the service core
// exports it (docs/schemas/publisher-history.schema.json). One release, one history per
// case: each of the history rules fires on its case and on no other, the signer's risk
// follows the record, and --known-keys keeps the last word on the key. Every history the
// test writes validates against the schema (ajv), and the service core reads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { ROOT, keygen, makeProject, runCli, runReview as review, tempDir as sharedTempDir } from '../support/project.mjs';

const Ajv = AjvModule.default ?? AjvModule;
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validateHistory = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'docs/schemas/publisher-history.schema.json'), 'utf8')));
const validateReport = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'docs/schemas/review-report.schema.json'), 'utf8')));

const T0 = '2026-01-10T09:00:00.000Z';
const T1 = '2026-02-10T09:00:00.000Z';
const OTHER_KEY = 'b'.repeat(64);

const tempDir = (t) => sharedTempDir(t, 'platform-review-history-');

function submission(id, { namespace = 'acme/test-ext', version, state = 'approved', key }) {
  return {
    kind: 'release-submission', id, revision: 2, publisherId: 'pub-acme', namespace, version, distribution: 'public-free', state,
    submittedBy: { kind: 'publisher-member', id: 'user-1' }, submittedAt: T0, manifestSha256: 'c'.repeat(64), artifactSha256: 'd'.repeat(64),
    publicKeyId: key, signatureValid: true, report: { errors: 0, warnings: 0, rules: [] }, capabilities: [], properties: [],
    workingFiles: 'deleted', storagePath: state === 'approved' ? `extensions/${namespace}/${version}/bundle.zip` : null, listing: 'published',
    previousReleaseId: null, trail: [{ at: T1, actor: { kind: 'operator', id: 'op-1' }, action: state }],
  };
}

function history({ state = 'active', keys, submissions }) {
  return {
    format: 'platform-publisher-history-v1',
    publisher: { kind: 'publisher', id: 'pub-acme', revision: 3, state, trust: 'trusted', legacy: false, keys, members: [{ userId: 'user-1', role: 'owner' }], updatedAt: T1 },
    submissions,
  };
}

const active = (id) => ({ id, state: 'active', addedAt: T0, revokedAt: null });
const revoked = (id) => ({ id, state: 'revoked', addedAt: T0, revokedAt: T1 });

test('--history: each history finding on its own case, with its operator hint, and the verdict it gives', (t) => {
  const dir = tempDir(t);
  const key = keygen(dir, 'k');
  const out = join(dir, 'release');
  const project = makeProject(t, { manifest: { version: '1.0.0' } });
  assert.equal(runCli(['package', project, '--out', out, '--private-key', key.privateKey]).status, 0);
  const K = key.fingerprint;
  const cases = [
    // [name, history, expected history rules, risk.signer, verdict]
    ['a known key that signed the last approved release', history({ keys: [active(K)], submissions: [submission('s1', { version: '0.9.0', key: K })] }), [], 'pinned', 'approve'],
    ['the version was approved before', history({ keys: [active(K)], submissions: [submission('s1', { version: '1.0.0', key: K })] }), ['history/version-already-approved'], 'pinned', 'reject'],
    ['a withdrawn 1.0.0 does not use the version up', history({ keys: [active(K)], submissions: [submission('s1', { version: '0.9.0', key: K }), submission('s2', { version: '1.0.0', key: K, state: 'withdrawn' })] }), [], 'pinned', 'approve'],
    ['the last approved version is higher', history({ keys: [active(K)], submissions: [submission('s1', { version: '2.0.0', key: K })] }), ['history/version-not-higher'], 'pinned', 'reject'],
    ['the signing key was revoked', history({ keys: [revoked(K), active(OTHER_KEY)], submissions: [submission('s1', { version: '0.9.0', key: K })] }), ['history/signer-revoked'], 'revoked', 'reject'],
    ['the signing key is not the publisher\'s', history({ keys: [active(OTHER_KEY)], submissions: [submission('s1', { version: '0.9.0', key: OTHER_KEY })] }), ['history/signer-unknown'], 'unknown', 'reject'],
    ['an active key that signed nothing approved yet', history({ keys: [active(K), active(OTHER_KEY)], submissions: [submission('s1', { version: '0.9.0', key: OTHER_KEY })] }), ['history/signer-new'], 'new', 'approve-after-reading'],
    ['the publisher is revoked', history({ state: 'revoked', keys: [active(K)], submissions: [submission('s1', { version: '0.9.0', key: K })] }), ['history/publisher-revoked'], 'pinned', 'reject'],
    ['the approved releases are under another namespace', history({ keys: [active(K)], submissions: [submission('s1', { namespace: 'acme/other', version: '0.9.0', key: K })] }), ['history/namespace-changed'], 'pinned', 'reject'],
  ];
  for (const [name, record, expected, signer, decision] of cases) {
    assert.ok(validateHistory(record), `${name}: ${JSON.stringify(validateHistory.errors)}`);
    const file = join(dir, 'history.json');
    writeFileSync(file, JSON.stringify(record));
    const r = review([out, '--history', file, '--json']);
    assert.equal(r.status, decision.startsWith('approve') ? 0 : 1, `${name}: ${r.stderr}`);
    assert.ok(validateReport(r.json), `${name}: ${JSON.stringify(validateReport.errors)}`);
    const found = r.json.findings.filter((f) => f.rule.startsWith('history/'));
    assert.deepEqual(found.map((f) => f.rule), expected, name);
    for (const f of found) assert.ok(f.hint.length > 0 && !/^Not blocking/.test(f.hint), `${name}: an operator hint of its own`);
    assert.deepEqual([r.json.risk.signer, r.json.verdict.decision], [signer, decision], name);
    assert.equal(r.json.history.publisher, 'pub-acme');
    // The text says the same in its first lines.
    const text = review([out, '--history', file]).stdout.split('\n');
    for (const rule of expected) assert.ok(text.some((l) => l.includes(rule)), `${name}: ${rule} in the text`);
  }
  // --known-keys keeps the last word on the key; the history still judges the version.
  const file = join(dir, 'history.json');
  writeFileSync(file, JSON.stringify(history({ keys: [active(OTHER_KEY)], submissions: [submission('s1', { version: '1.0.0', key: OTHER_KEY })] })));
  writeFileSync(join(dir, 'keys'), `${K}\n`);
  const both = review([out, '--history', file, '--known-keys', join(dir, 'keys'), '--json']);
  assert.deepEqual(both.json.findings.map((f) => f.rule).sort(), ['history/signer-unknown', 'history/version-already-approved']);
  assert.equal(both.json.summary.signer.pinning, 'pinned');
});

test('--history: a file that is not a history export is a usage error naming the place', (t) => {
  const dir = tempDir(t);
  const key = keygen(dir, 'k');
  const out = join(dir, 'release');
  assert.equal(runCli(['package', makeProject(t), '--out', out, '--private-key', key.privateKey]).status, 0);
  const file = join(dir, 'h.json');
  const good = history({ keys: [active(key.fingerprint)], submissions: [] });
  const rows = [
    ['not JSON', '{', /not JSON/],
    ['no format', JSON.stringify({ ...good, format: undefined }), /\/format/],
    ['a key that is not a fingerprint', JSON.stringify({ ...good, publisher: { ...good.publisher, keys: [{ ...active('x'), id: 'x' }] } }), /\/publisher\/keys\/0\/id/],
    ['a submission of another publisher', JSON.stringify({ ...good, submissions: [{ ...submission('s1', { version: '0.1.0', key: key.fingerprint }), publisherId: 'pub-other' }] }), /\/submissions\/0\/publisherId/],
    ['an unknown field', JSON.stringify({ ...good, extra: 1 }), /\/extra/],
  ];
  for (const [name, text, pointer] of rows) {
    writeFileSync(file, text);
    const r = review([out, '--history', file]);
    assert.equal(r.status, 2, name);
    assert.match(r.stderr, pointer, name);
    assert.doesNotMatch(r.stderr, /internal error|\n {4}at /, name);
  }
  writeFileSync(file, JSON.stringify(good));
  assert.equal(review([out, '--history', file]).status, 0, 'the same history, well formed');
});
