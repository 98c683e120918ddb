// What a store's server gets beyond validation itself (issue 25 item 1), through the public
// index and the Node entry: pinning the signer (ReleaseOptions.knownKeys), results without
// inflated bytes unless asked, the release diff as data (releaseChanges), findings of the
// server's own rules (FindingList rules), and validateSubmission with its worker pool.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FindingList, SUBMISSION_FILES, publicKeyFingerprint, readReleaseManifest, releaseChanges, diffReleases, sortFindings, validateRelease } from '../../build/validator/index.js';
import { NODE_RELEASE_DEPS } from '../../build/node/release-deps.js';
import { validateSubmission } from '../../build/node/submission.js';
import { forgeRelease, forgedManifest } from '../support/forge-release.mjs';
import { ROOT } from '../support/project.mjs';

const { sha256Hex } = NODE_RELEASE_DEPS;
const FILES = { 'index.html': '<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>hi</body></html>\n' };

function upload(t) {
  const dir = mkdtempSync(join(tmpdir(), 'public-api-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  forgeRelease(dir, { files: FILES });
  return Object.fromEntries(SUBMISSION_FILES.map((name) => [name, readFileSync(join(dir, name))]));
}
const errorRules = (result) => result.findings.filter((f) => f.severity === 'error').map((f) => f.rule);

test('knownKeys pins the signer: another key is release/unknown-signing-key, the signer by fingerprint or base64 key passes', (t) => {
  const files = upload(t);
  const signerKey = files['publisher-public-key.txt'].toString('utf8');
  const signer = publicKeyFingerprint(signerKey, sha256Hex);
  assert.match(signer, /^[0-9a-f]{64}$/);
  const release = { files, otherNames: [] };
  const table = [
    ['no pinning', undefined, []],
    ['signer by fingerprint', [signer], []],
    ['signer by fingerprint in capitals', [signer.toUpperCase()], []],
    ['signer by base64 key', [signerKey], []],
    ['a stranger only', ['ab'.repeat(32)], ['release/unknown-signing-key']],
    ['an empty list', [], ['release/unknown-signing-key']],
    ['the stranger and the signer', ['ab'.repeat(32), signer], []],
  ];
  for (const [name, knownKeys, expected] of table) {
    const result = validateRelease(release, NODE_RELEASE_DEPS, knownKeys === undefined ? {} : { knownKeys });
    assert.deepEqual(errorRules(result), expected, name);
    if (expected.length > 0) assert.equal(result.findings.find((f) => f.rule === 'release/unknown-signing-key').file, 'publisher-public-key.txt');
  }
  // A known key that is neither a key nor a fingerprint is the caller's mistake; its text is not echoed.
  assert.throws(() => validateRelease(release, NODE_RELEASE_DEPS, { knownKeys: ['not a key \u001b[31m'] }), (e) => e instanceof TypeError && /knownKeys\[0\]/.test(e.message) && !e.message.includes('not a key'));
  assert.equal(publicKeyFingerprint('zz', sha256Hex), null);
});

test('the result keeps inflated bytes only when asked', (t) => {
  const release = { files: upload(t), otherNames: [] };
  const lean = validateRelease(release, NODE_RELEASE_DEPS);
  const kept = validateRelease(release, NODE_RELEASE_DEPS, { keepEntryBytes: true });
  assert.deepEqual(lean.bundleEntries.map((e) => [e.path, e.size, 'content' in e]), [['index.html', Buffer.byteLength(FILES['index.html']), false]]);
  assert.equal(Buffer.from(kept.bundleEntries[0].content).toString('utf8'), FILES['index.html']);
});

test('validateSubmission takes an upload by name: other names are unexpected files, missing ones missing', (t) => {
  const files = upload(t);
  assert.deepEqual(errorRules(validateSubmission(files)), []);
  const { 'signature.txt': _gone, ...withoutSignature } = files;
  const table = [
    ['an extra file', { ...files, 'notes.txt': Buffer.from('x') }, ['release/unexpected-file']],
    ['a missing signature', withoutSignature, ['release/missing-file']],
    ['a value that is not bytes', { ...files, 'signature.txt': 'text' }, ['release/missing-file']],
  ];
  for (const [name, given, expected] of table) assert.deepEqual(errorRules(validateSubmission(given)), expected, name);
});

test('releaseChanges returns the diff as data, the same changes diffReleases reports', () => {
  const before = Buffer.from(JSON.stringify(forgedManifest({ capabilities: ['cart.read'], properties: { size: { type: 'number', label: 'Size', min: 1, max: 10 } } }), null, 2));
  const after = Buffer.from(JSON.stringify(forgedManifest({ version: '1.0.0', capabilities: ['cart.write'], properties: { size: { type: 'number', label: 'Size', min: 2, max: 10 } } }), null, 2));
  const changes = releaseChanges(readReleaseManifest(before), readReleaseManifest(after));
  assert.deepEqual(
    changes.map((c) => [c.rule, c.pointer, c.subject ?? null, c.before ?? null, c.after ?? null]),
    [
      ['baseline/version-not-higher', '/version', null, '1.0.0', '1.0.0'],
      ['baseline/capability-added', '/capabilities/0', 'cart.write', null, null],
      ['baseline/capability-removed', '/capabilities', 'cart.read', null, null],
      ['baseline/property-narrowed', '/properties/size/min', 'size', 1, 2],
    ],
  );
  for (const c of changes) assert.ok(c.line >= 1 && c.column >= 1, c.rule);
  const findings = new FindingList();
  diffReleases(readReleaseManifest(before), readReleaseManifest(after), findings);
  assert.deepEqual(findings.items.map((f) => [f.rule, f.pointer, f.line]), changes.map((c) => [c.rule, c.pointer, c.line]));
});

test('a FindingList takes rules of the caller own; unknown ids still throw, catalogue ids cannot be redefined', () => {
  const own = { id: 'store/banned-word', severity: 'error', title: 'A banned word', ref: 'Store policy 4', hint: 'Remove it.' };
  const list = new FindingList({ rules: [own] });
  list.add('store/banned-word', 'The name holds a banned word', { file: 'manifest.json', pointer: '/name' });
  list.add('manifest/invalid-json', 'catalogue rules still work');
  assert.deepEqual(list.items.map((f) => [f.rule, f.severity]), [['store/banned-word', 'error'], ['manifest/invalid-json', 'error']]);
  assert.equal(list.errorCount, 2);
  assert.deepEqual(sortFindings(list.items).map((f) => f.rule), ['manifest/invalid-json', 'store/banned-word']);
  assert.throws(() => list.add('store/other', 'x'), /not in the catalogue/);
  assert.throws(() => new FindingList().add('store/banned-word', 'x'), /not in the catalogue/);
  assert.throws(() => new FindingList({ rules: [{ ...own, id: 'manifest/invalid-json' }] }), /catalogue rule/);
  assert.throws(() => new FindingList({ rules: [{ ...own, id: 'Store banned' }] }), /area\/kebab-name/);
  assert.throws(() => new FindingList({ rules: [{ ...own, severity: 'fatal' }] }), /severity/);
});

test('createSubmissionPool validates in a worker thread with the same result', async (t) => {
  const files = upload(t);
  const { createSubmissionPool } = await import(join(ROOT, 'dist/validator-node.mjs'));
  const pool = createSubmissionPool({ threads: 1 });
  t.after(() => pool.close());
  const [inWorker, stranger] = await Promise.all([pool.validate(files), pool.validate(files, { knownKeys: ['ab'.repeat(32)] })]);
  assert.deepEqual(inWorker.findings, validateSubmission(files).findings);
  assert.deepEqual(errorRules(stranger), ['release/unknown-signing-key']);
  await assert.rejects(pool.validate(files, { knownKeys: ['nonsense'] }), /knownKeys\[0\]/);
  assert.throws(() => createSubmissionPool({ threads: 0 }), TypeError);
});
