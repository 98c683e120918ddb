// Mutation fuzzing of the manifest check: 12,000 seeded text and byte mutations of valid
// manifests through validateManifest (and validateSettings on what it reads). No case may
// throw, every finding is located, and readJson agrees with JSON.parse wherever both
// accept. The long run is bench/fuzz-manifest.mjs; the generator is in test/support/fuzz-manifest.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prng } from '../support/fuzz.mjs';
import { nextCase, runCase } from '../support/fuzz-manifest.mjs';

const CASES = 12_000;

// No timing assertions (bench/fuzz-manifest.mjs reports speed and the slowest case): a
// case that hung would run into the test's timeout.
test(`fuzz: ${CASES} mutated manifests, no exception, invariants hold`, { timeout: 120_000 }, () => {
  const rng = prng(0x5eed);
  let accepted = 0;
  for (let i = 0; i < CASES; i++) {
    const testCase = nextCase(rng);
    let problem;
    try {
      problem = runCase(testCase);
    } catch (error) {
      problem = `exception: ${error && error.stack}`;
    }
    assert.equal(problem, null, `case ${i}: ${JSON.stringify(testCase.text ?? Array.from(testCase.bytes))}`);
    if (testCase.text !== null && (() => { try { JSON.parse(testCase.text); return true; } catch { return false; } })()) accepted++;
  }
  // The campaign must reach the checks behind the parser, not only syntax errors.
  assert.ok(accepted > CASES / 3, `only ${accepted} mutations were still JSON`);
});
