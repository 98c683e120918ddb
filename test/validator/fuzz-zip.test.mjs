// Mutation fuzzing of the hardened ZIP reader (issue "Release pipeline", item 9; D-16):
// 50,000 seeded mutations of valid archives (bit flips, inserts, deletes, headers spliced
// from other archives, size/offset/count fields set to 0, 1, 0xFFFF, 0xFFFFFFFF and
// off-by-one values, in one header or in both) through readZip with a capped zlib
// inflater. No case may throw; memory stays bounded (every inflate request within the
// caps, every buffer returned no longer than requested); accepted archives read the same
// through a local-header walk. The generator is in test/support/fuzz-zip.mjs; bench/fuzz-zip.mjs is the long run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prng } from '../support/fuzz.mjs';
import { nextCase, runCase, seedArchives } from '../support/fuzz-zip.mjs';
import { ARCHIVE_RULES } from '../../build/validator/catalogue/archive-rules.js';

const CASES = 50_000;
const SEED = 0x21b;
// No timing assertions (house rule): a hang is caught by this timeout, and the slowest
// case is reported as a diagnostic.
const HANG_GUARD = { timeout: 300_000 };

test('fuzz-zip: every seed archive is valid, so mutations start from accepted input', () => {
  for (const [i, bytes] of seedArchives().entries()) {
    const outcome = runCase(bytes);
    assert.equal(outcome.problem, null, `seed ${i}`);
    assert.deepEqual(outcome.rules, [], `seed ${i}`);
    assert.equal(outcome.accepted, true, `seed ${i}`);
  }
});

test(`fuzz-zip: ${CASES} mutated archives, no exception, bounded inflation, readers agree`, HANG_GUARD, (t) => {
  const rng = prng(SEED);
  const seen = new Set();
  let accepted = 0;
  let slowest = 0;
  let slowestIndex = -1;
  for (let i = 0; i < CASES; i++) {
    const bytes = nextCase(rng);
    const started = performance.now();
    const outcome = runCase(bytes);
    const took = performance.now() - started;
    if (outcome.problem !== null) assert.fail(`case ${i} (seed ${SEED}): ${outcome.problem}\n${Buffer.from(bytes).toString('base64')}`);
    if (outcome.accepted) accepted++;
    for (const rule of outcome.rules) seen.add(rule);
    if (took > slowest) {
      slowest = took;
      slowestIndex = i;
    }
  }
  t.diagnostic(`${accepted} of ${CASES} accepted; ${seen.size} of ${ARCHIVE_RULES.length} archive rules reached`);
  t.diagnostic(`slowest case #${slowestIndex}: ${slowest.toFixed(1)} ms`);
  // The campaign must get past the end record: the layout, header comparison, policy and
  // inflate checks all fire on some mutation, and some mutations stay valid.
  for (const rule of [
    'archive/not-zip',
    'archive/trailing-data',
    'archive/eocd-comment',
    'archive/zip64',
    'archive/central-directory-corrupt',
    'archive/entry-count',
    'archive/local-header-corrupt',
    'archive/header-mismatch',
    'archive/gap-or-overlap',
    'archive/extra-field',
    'archive/compression-ratio',
    'archive/size-mismatch',
    'archive/corrupt-deflate',
    'archive/crc-mismatch',
  ]) {
    assert.ok(seen.has(rule), `no mutation reached ${rule}`);
  }
  assert.ok(accepted > 0);
});
