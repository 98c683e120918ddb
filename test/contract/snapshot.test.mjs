// contract-snapshot/ and the rule list in docs/rules.md are generated from the validator's
// tables; this fails when someone edits them by hand or forgets to regenerate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES } from '../../build/validator/rules.js';
import { LIMITS } from '../../build/validator/limits.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('generated snapshot files and the rule list in docs/rules.md are current', () => {
  const r = spawnSync(process.execPath, [join(root, 'scripts/gen-snapshot.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('rules.json lists exactly the catalogue', () => {
  const snap = JSON.parse(readFileSync(join(root, 'contract-snapshot/rules.json'), 'utf8'));
  assert.deepEqual(snap.rules.map((r) => r.id), RULES.map((r) => r.id));
  for (const r of snap.rules) {
    assert.match(r.id, /^[a-z]+\/[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.ok(['error', 'warning'].includes(r.severity), r.id);
    assert.ok(r.title.length > 0 && !r.title.endsWith('.'), r.id);
    assert.ok(r.ref.length > 0 && r.hint.length > 0, r.id);
  }
});

test('limits.json lists exactly LIMITS, with the contract numbers', () => {
  const snap = JSON.parse(readFileSync(join(root, 'contract-snapshot/limits.json'), 'utf8'));
  assert.deepEqual(snap.limits, JSON.parse(JSON.stringify(LIMITS)));
  const byName = Object.fromEntries(snap.limits.map((l) => [l.name, l.value]));
  assert.equal(byName['manifest.maxBytes'], 65536);
  assert.equal(byName['bundle.maxFiles'], 200);
  assert.equal(byName['bundle.maxCompressedBytes'], 5242880);
  assert.equal(byName['bundle.maxExpandedBytes'], 20971520);
  assert.equal(byName['defaults.maxBytes'], 16384);
});

test('every rule has its heading in docs/rules.md', () => {
  const page = readFileSync(join(root, 'docs/rules.md'), 'utf8');
  for (const r of RULES) assert.ok(page.includes(`\n### \`${r.id}\`\n`), r.id);
});
