// examples/service/walkthrough.mjs runs through the public entry (platform-ext/service,
// dist/service.mjs) and prints every step of its four scenarios, one per state table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = 'examples/service/walkthrough.mjs';

test('walkthrough-runs: the walkthrough prints every step of its four scenarios and ends well', () => {
  const r = spawnSync(process.execPath, [SCRIPT], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const out = r.stdout;
  for (const heading of ['1. Keys:', '2. Release submission and review:', '3. Private link:', '4. Capability grants:']) assert.ok(out.includes(`\n${heading}`) || out.startsWith(heading), heading);
  // Each step is printed: what succeeded, what was refused (with its code) and each launch.
  const steps = out.split('\n').filter((l) => /^ {2}(ok|refused|launch) /.test(l));
  assert.ok(steps.length >= 35, `${steps.length} steps`);
  for (const code of ['service/last-active-key', 'service/approve-own-submission', 'service/version-approved', 'service/release-revoked', 'service/link-store-locked', 'service/link-revoked']) assert.ok(out.includes(code), code);
  assert.match(out, /failed-validation[\s\S]*1\.0\.0 \(sub-\d+\) is awaiting-review[\s\S]*1\.0\.0 \(sub-\d+\) is approved/);
  assert.match(out, /accepts again \(no use consumed, nothing stored\)\n {12}effect grant-link-access\n/);
  assert.match(out, /before the review: PLATFORM\.ready = \{"capabilities":\["catalog\.products\.read"\]/);
  assert.match(out, /after the review: PLATFORM\.ready = \{"capabilities":\["catalog\.products\.read","cart\.manage"\]/);
  assert.match(out, /Every step behaved as the contract says\.\n$/);
});

test('walkthrough-public-api: the walkthrough uses the package export only', () => {
  const text = readFileSync(`${ROOT}${SCRIPT}`, 'utf8');
  const imports = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
  assert.deepEqual(imports, ['node:crypto', 'platform-ext/service']);
});
