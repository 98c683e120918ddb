// Mutation fuzzing of the CSS scanner (bad input never throws: it becomes findings).
// Each case checks the tokenizer in both ident modes (tokens tile the input exactly),
// the policy over text and over bytes, and the lossy UTF-8 decoder against TextDecoder;
// see fuzzCssCase in bench/fuzz-css.mjs, which runs far more cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prng } from './support/fuzz.mjs';
import { fuzzCssCase } from '../bench/fuzz-css.mjs';
import { checkCss } from '../build/validator/css/policy.js';
import { consumeToken, createTokenizer } from '../build/validator/css/tokenizer.js';
import { FileScan, bundleViewOf } from '../build/validator/scan.js';
import { FindingList } from '../build/validator/findings.js';

const CASES = 12_000;
const SEED = 20_241_121;
// No timing assertions here (house rule): a hang is caught by the test timeout below,
// and bench/fuzz-css.mjs reports cases per second and the slowest case.
const HANG_GUARD = { timeout: 300_000 };

test(`fuzz-css: ${CASES} mutated inputs, no exception, every case finishes`, HANG_GUARD, (t) => {
  const rng = prng(SEED);
  let slowest = 0;
  for (let i = 0; i < CASES; i++) {
    const started = performance.now();
    try {
      fuzzCssCase(rng);
    } catch (error) {
      assert.fail(`case ${i} (seed ${SEED}): ${error.message}`);
    }
    slowest = Math.max(slowest, performance.now() - started);
  }
  t.diagnostic(`slowest case ${slowest.toFixed(1)} ms`);
});

test('fuzz-css: pathological inputs finish (each would take minutes if the scanner were quadratic)', HANG_GUARD, (t) => {
  // Each of these repeats a construct that a backtracking or rescanning scanner would
  // revisit: unclosed comments, strings, url tokens, escapes, nesting.
  const n = 200_000;
  const inputs = [
    '/*'.repeat(n),
    'url('.repeat(n),
    'url( '.repeat(n),
    '"\\'.repeat(n),
    '\\'.repeat(n),
    '\\1'.repeat(n),
    '('.repeat(n),
    '{'.repeat(n) + '}'.repeat(n),
    'image-set('.repeat(n / 10),
    '@import '.repeat(n / 4),
    'url(a b'.repeat(n / 4),
    '-'.repeat(n),
    '1e'.repeat(n),
    ' '.repeat(n) + '"',
  ];
  for (const input of inputs) {
    const started = performance.now();
    fuzzCssCaseOn(input);
    t.diagnostic(`${JSON.stringify(input.slice(0, 12))}... ${(performance.now() - started).toFixed(0)} ms`);
  }
});


function fuzzCssCaseOn(text) {
  const tokenizer = createTokenizer(text, { keepComments: true });
  while (consumeToken(tokenizer) !== null);
  const findings = new FindingList();
  checkCss(new FileScan('x.css', text, bundleViewOf([]), findings), { text, mode: 'stylesheet', baseDir: '', mapOffset: (o) => o });
}
