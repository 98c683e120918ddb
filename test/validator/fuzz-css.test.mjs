// Mutation fuzzing of the CSS scanner (bad input never throws: it becomes findings).
// Each case checks the tokenizer in both ident modes (tokens tile the input exactly),
// the policy over text and over bytes, and the lossy UTF-8 decoder against TextDecoder;
// see fuzzCssCase in test/support/fuzz-css.mjs; bench/fuzz-css.mjs runs far more cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mutateText, pick, prng } from '../support/fuzz.mjs';
import { CSS_DICTIONARY, CSS_SEEDS, fuzzCssCase } from '../support/fuzz-css.mjs';
import { checkCss } from '../../build/validator/css/css-policy.js';
import { consumeToken, createTokenizer, nextToken, skipIgnorableTokens, tokenize, tokenValue, TOKEN_EOF } from '../../build/validator/css/css-tokenizer.js';
import { FileScan, bundleViewOf } from '../../build/validator/scan.js';
import { FindingList } from '../../build/validator/findings.js';

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

// ---------------------------------------------------------------------------
// skipIgnorableTokens, the policy's fast path, against the plain tokenizer
// ---------------------------------------------------------------------------

const SKIP_CASES = 12_000;
const IGNORABLE_TYPES = new Set(['whitespace-token', 'ident-token', 'hash-token', 'delim-token', 'colon-token', 'comma-token', 'number-token', 'percentage-token', 'dimension-token']);

/** Inputs at the edges of what skipIgnorableTokens takes whole (see its stop list). */
const SKIP_SEEDS = [
  '.c1 > .item:hover, .c1[data-state="open"] { color: #1f2937; margin: 0 auto; padding: 4px 8px; border-radius: 6px; }',
  '.c0 { background: #fff url("../img/i0.png") no-repeat right top / 16px; }',
  'a{font:500 .875rem/1.25 "Inter var",sans-serif;--tw-x:0;margin:-1.5e3px +.5% 1E+2em;width:calc(100% - 2px)!important}',
  '1url(x) 1e 1e+ 1e+5 1-x 1p\\78 -\\61 --> <!-- -- --x #a\\62 #1 # - . + / a/**/b',
  'x 1.5px( 1e+5px( .5a( a.5b( #a( #(  a:\\ 1.5p\\78 ab--> a --> +b( 2n+1( u\\72l( ab\u0000c caf\u00e9(',
];
const SKIP_DICTIONARY = ['url(', '(', '\\', '\\\n', '\u0000', '\u00e9', '\uD800', '-->', '<!--', '--', '-', '.', '+', '#', 'e', 'E-', '1', '%', '/', '/*', '*/', ' ', '\r\n', '\f', '"', '@', ';', '{', '}'];

/**
 * From every token boundary, skipIgnorableTokens must stop at a token boundary, take only
 * ignorable tokens, say whether one was not whitespace, and leave nextToken to return the
 * token the plain tokenizer returns there. Returns the number of skips checked.
 */
function checkSkipAgrees(css) {
  const reference = tokenize(css);
  // Comments are no tokens for nextToken, but their starts are boundaries too.
  const boundaries = new Set([css.length]);
  for (const t of tokenize(css, { keepComments: true })) boundaries.add(t.start);
  const s = createTokenizer(css);
  let index = 0;
  for (let checked = 1; ; checked++) {
    const from = s.pos;
    const skipped = skipIgnorableTokens(s);
    let component = false;
    while (index < reference.length && reference[index].end <= s.pos) {
      const t = reference[index++];
      if (!IGNORABLE_TYPES.has(t.type)) throw new Error(`${JSON.stringify(css)}: skipped a ${t.type} at ${t.start}`);
      if (t.type !== 'whitespace-token') component = true;
    }
    if (skipped !== component) throw new Error(`${JSON.stringify(css)}: skipped flag ${skipped} from ${from}`);
    if (!boundaries.has(s.pos)) throw new Error(`${JSON.stringify(css)}: stopped inside a token at ${s.pos}`);
    const kind = nextToken(s);
    if (kind === TOKEN_EOF) {
      if (index !== reference.length) throw new Error(`${JSON.stringify(css)}: tokens left at EOF`);
      return checked;
    }
    const t = reference[index++];
    if (t === undefined || s.tokenStart !== t.start || s.tokenEnd !== t.end || tokenValue(s) !== t.value) {
      throw new Error(`${JSON.stringify(css)}: after the skip from ${from}, token ${s.tokenStart}-${s.tokenEnd} is not ${t?.type} ${t?.start}-${t?.end}`);
    }
  }
}

test(`fuzz-css: skipIgnorableTokens agrees with the tokenizer on ${SKIP_CASES} mutated inputs`, HANG_GUARD, (t) => {
  const rng = prng(SEED + 1);
  const seeds = [...SKIP_SEEDS, ...CSS_SEEDS];
  const dictionary = [...SKIP_DICTIONARY, ...CSS_DICTIONARY];
  let skips = 0;
  for (const css of SKIP_SEEDS) skips += checkSkipAgrees(css);
  for (let i = 0; i < SKIP_CASES; i++) {
    const css = mutateText(rng, pick(rng, seeds), dictionary, 8);
    try {
      skips += checkSkipAgrees(css);
    } catch (error) {
      assert.fail(`case ${i} (seed ${SEED + 1}): ${error.message}`);
    }
  }
  t.diagnostic(`${skips} skips checked`);
  assert.ok(skips > SKIP_CASES, 'every case checks at least one skip');
});
