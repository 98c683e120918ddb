// The CSS tokenizer (CSS Syntax 3, section 4) against two public corpora, plus a table of
// the cases the policy depends on (escapes in names, url tokens, offsets in the original
// text after CR LF preprocessing).
//
// Corpus 1: romainmenke/css-tokenizer-tests (tests/<category>/<n>/source.css + tokens.json):
// every token's type, raw text, start/end index and structured value.
// Corpus 2: SimonSapin/css-parsing-tests component_value_list.json (2013 draft, parser
// level): our tokens are grouped into blocks and functions the way "consume a component
// value" does, then compared; only what the tokenizer decides is compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import {
  consumeToken,
  createTokenizer,
  nextToken,
  skipIgnorableTokens,
  tokenize,
  tokenNumeric,
  tokenUnit,
  tokenValue,
  TOKEN_DIMENSION,
  TOKEN_EOF,
} from '../../build/validator/css/css-tokenizer.js';

const TOKENIZER_CORPUS = new URL('../corpus/css-tokenizer-tests/tests/', import.meta.url);
const PARSING_CORPUS = new URL('../corpus/css-parsing-tests/component_value_list.json', import.meta.url);

/** The corpus's `structured` field, built from our token. */
function structured(t) {
  const sign = t.sign === '' ? {} : { signCharacter: t.sign };
  switch (t.type) {
    case 'ident-token':
    case 'function-token':
    case 'at-keyword-token':
    case 'string-token':
    case 'url-token':
    case 'delim-token':
      return { value: t.value };
    case 'hash-token':
      return { value: t.value, type: t.hashType };
    case 'number-token':
      return { value: t.numeric, type: t.numberType, ...sign };
    case 'percentage-token':
      return { value: t.numeric, ...sign };
    case 'dimension-token':
      return { value: t.numeric, type: t.numberType, unit: t.unit, ...sign };
    default:
      return null;
  }
}

function tokenizerCases() {
  const cases = [];
  for (const category of readdirSync(TOKENIZER_CORPUS).sort()) {
    for (const id of readdirSync(new URL(`${category}/`, TOKENIZER_CORPUS)).sort()) {
      const dir = new URL(`${category}/${id}/`, TOKENIZER_CORPUS);
      cases.push({
        name: `${category}/${id}`,
        css: readFileSync(new URL('source.css', dir), 'utf8'),
        tokens: JSON.parse(readFileSync(new URL('tokens.json', dir), 'utf8')),
      });
    }
  }
  return cases;
}

function asCorpusTokens(css, options) {
  return tokenize(css, { keepComments: true, ...options }).map((t) => ({
    type: t.type,
    raw: css.slice(t.start, t.end),
    startIndex: t.start,
    endIndex: t.end,
    structured: structured(t),
  }));
}

// The corpus follows the Editor's Draft's list of non-ASCII ident code points. The policy
// tokenizes as browsers do (every non-ASCII code point is an ident code point), and that
// mode differs on exactly these cases, each of which puts a code point outside the list
// next to an identifier.
const BROWSER_MODE_DIFFERS = new Map([
  ['fuzz/b69ece36-057f-4450-9423-a1661787bce6', 'U+F1C7 (private use) is outside the list'],
  ['ident/0007', 'U+00A7 is outside the list'],
  ['ident/0008', 'U+00D7 is outside the list'],
]);
const TOKENIZER_CORPUS_CASES = 185;

test('css-tokenizer-tests: every case, Editor\'s Draft ident ranges', () => {
  const cases = tokenizerCases();
  assert.equal(cases.length, TOKENIZER_CORPUS_CASES, 'corpus size changed: update the expected count');
  let passed = 0;
  const failures = [];
  for (const c of cases) {
    try {
      assert.deepStrictEqual(asCorpusTokens(c.css, { strictIdentRanges: true }), c.tokens);
      passed++;
    } catch (error) {
      failures.push(`${c.name}: ${error.message.slice(0, 400)}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.equal(passed, TOKENIZER_CORPUS_CASES);
});

test('css-tokenizer-tests: browser ident ranges differ only on the listed cases', () => {
  let passed = 0;
  const differing = [];
  for (const c of tokenizerCases()) {
    try {
      assert.deepStrictEqual(asCorpusTokens(c.css, {}), c.tokens);
      passed++;
    } catch {
      differing.push(c.name);
    }
  }
  assert.deepEqual(differing, [...BROWSER_MODE_DIFFERS.keys()]);
  assert.equal(passed, TOKENIZER_CORPUS_CASES - BROWSER_MODE_DIFFERS.size);
});

// ---------------------------------------------------------------------------
// css-parsing-tests (component_value_list.json)
// ---------------------------------------------------------------------------

// The 2013 draft had <unicode-range-token>; CSS Syntax 3 today tokenizes `U+1-2` as an
// ident and numbers (unicode ranges are re-parsed from tokens by their one consumer),
// so these inputs are not comparable at token level.
const PARSING_SKIPS = new Map([
  [38, 'unicode-range token (removed from CSS Syntax 3)'],
  [39, 'unicode-range token (removed from CSS Syntax 3)'],
  [40, 'unicode-range token (removed from CSS Syntax 3)'],
  [41, 'unicode-range token (removed from CSS Syntax 3)'],
  [42, 'unicode-range token (removed from CSS Syntax 3)'],
  [43, 'unicode-range token (removed from CSS Syntax 3)'],
  [44, 'unicode-range token (removed from CSS Syntax 3)'],
  [45, 'unicode-range token (removed from CSS Syntax 3)'],
  [46, 'unicode-range token (removed from CSS Syntax 3)'],
]);
const PARSING_CASES = 50;

const zero = (n) => (n === 0 ? 0 : n); // -0 and 0 are one value in the JSON format

/** One token in the 2013 JSON representation (blocks and functions handled by the caller). */
function componentOf(css, t) {
  const repr = () => css.slice(t.start, t.end);
  switch (t.type) {
    case 'ident-token': return ['ident', t.value];
    case 'at-keyword-token': return ['at-keyword', t.value];
    case 'hash-token': return ['hash', t.value, t.hashType];
    case 'string-token': return ['string', t.value];
    case 'bad-string-token': return ['error', 'bad-string'];
    case 'url-token': return ['url', t.value];
    case 'bad-url-token': return ['error', 'bad-url'];
    case 'delim-token': return t.value;
    case 'number-token': return ['number', repr(), zero(t.numeric), t.numberType];
    case 'percentage-token': return ['percentage', repr().slice(0, -1), zero(t.numeric), t.numberType];
    case 'dimension-token': {
      // The representation is the number part; the number grammar is greedy, so one match finds it.
      const number = /^[+-]?(?:[0-9]*\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(repr())[0];
      return ['dimension', number, zero(t.numeric), t.numberType, t.unit];
    }
    case 'whitespace-token': return ' ';
    case 'CDO-token': return '<!--';
    case 'CDC-token': return '-->';
    case 'colon-token': return ':';
    case 'semicolon-token': return ';';
    case 'comma-token': return ',';
    default: return undefined;
  }
}

/** 5.4 "consume a component value", over our tokens: blocks and functions nest. */
function componentValues(css) {
  const tokens = tokenize(css);
  let i = 0;
  const CLOSER = { '{-token': '}-token', '[-token': ']-token', '(-token': ')-token', 'function-token': ')-token' };
  const NAME = { '{-token': '{}', '[-token': '[]', '(-token': '()' };
  function list(closer) {
    const out = [];
    while (i < tokens.length) {
      const t = tokens[i++];
      if (t.type === closer) return out;
      if (t.type in CLOSER) {
        const inner = list(CLOSER[t.type]);
        out.push(t.type === 'function-token' ? ['function', t.value, ...inner] : [NAME[t.type], ...inner]);
      } else if (t.type === '}-token' || t.type === ']-token' || t.type === ')-token') {
        out.push(['error', t.type[0]]);
      } else {
        out.push(componentOf(css, t));
      }
    }
    return out;
  }
  return list(undefined);
}

/** The 2013 expectations, normalised: parse errors that are not tokens dropped, match tokens split into delims. */
function normaliseExpected(values) {
  const out = [];
  for (const v of values) {
    if (Array.isArray(v) && v[0] === 'error' && v[1].startsWith('eof-in-')) continue;
    if (typeof v === 'string' && ['~=', '|=', '^=', '$=', '*=', '||'].includes(v)) {
      out.push(v[0], v[1]);
    } else if (Array.isArray(v) && (v[0] === '{}' || v[0] === '[]' || v[0] === '()')) {
      out.push([v[0], ...normaliseExpected(v.slice(1))]);
    } else if (Array.isArray(v) && v[0] === 'function') {
      out.push(['function', v[1], ...normaliseExpected(v.slice(2))]);
    } else if (Array.isArray(v) && (v[0] === 'number' || v[0] === 'percentage' || v[0] === 'dimension')) {
      const copy = [...v];
      copy[2] = zero(copy[2]);
      out.push(copy);
    } else {
      out.push(v);
    }
  }
  return out;
}

test('css-parsing-tests component_value_list: token-level agreement', () => {
  const pairs = JSON.parse(readFileSync(PARSING_CORPUS, 'utf8'));
  assert.equal(pairs.length / 2, PARSING_CASES, 'corpus size changed: update the expected count');
  let passed = 0;
  const failures = [];
  for (let n = 0; n < pairs.length / 2; n++) {
    if (PARSING_SKIPS.has(n)) continue;
    const [input, expected] = [pairs[2 * n], pairs[2 * n + 1]];
    try {
      assert.deepStrictEqual(componentValues(input), normaliseExpected(expected));
      passed++;
    } catch (error) {
      failures.push(`#${n} ${JSON.stringify(input).slice(0, 60)}: ${error.message.slice(0, 600)}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.equal(passed, PARSING_CASES - PARSING_SKIPS.size);
});

// ---------------------------------------------------------------------------
// Cases the policy relies on
// ---------------------------------------------------------------------------

/** [type, value, start, end] per token, whitespace included. */
function brief(css, options) {
  return tokenize(css, options).map((t) => [t.type, t.value, t.start, t.end]);
}

const TABLE = [
  // Escapes decode into names: what the policy compares is the decoded value.
  ['at-keyword with a hex escape is "import"', '@\\69mport', [['at-keyword-token', 'import', 0, 9]]],
  ['at-keyword escape ends at one whitespace', '@\\69 mport', [['at-keyword-token', 'import', 0, 10]]],
  ['escaped "r" makes a url token', 'u\\72l(a.png)', [['url-token', 'a.png', 0, 12]]],
  ['uppercase URL( is a url token', 'URL(a.png)', [['url-token', 'a.png', 0, 10]]],
  ['quoted url( is a function then a string', 'url("a.png")', [['function-token', 'url', 0, 4], ['string-token', 'a.png', 4, 11], [')-token', '', 11, 12]]],
  ['whitespace inside url() is trimmed', 'url(  a.png  )', [['url-token', 'a.png', 0, 14]]],
  ['whitespace before a quote stays a token', 'url(  "a")', [['function-token', 'url', 0, 4], ['whitespace-token', '', 4, 6], ['string-token', 'a', 6, 9], [')-token', '', 9, 10]]],
  ['space inside an unquoted url is a bad url', 'url(a b)', [['bad-url-token', '', 0, 8]]],
  ['escaped ")" does not end a bad url', 'url(a"\\))x', [['bad-url-token', '', 0, 9], ['ident-token', 'x', 9, 10]]],
  ['escape inside url value decodes', 'url(a\\2e png)', [['url-token', 'a.png', 0, 13]]],
  ['"url (" with a space is an ident and a paren', 'url (a)', [['ident-token', 'url', 0, 3], ['whitespace-token', '', 3, 4], ['(-token', '', 4, 5], ['ident-token', 'a', 5, 6], [')-token', '', 6, 7]]],
  ['comments vanish without keepComments', '/* url(http://x) */a', [['ident-token', 'a', 19, 20]]],
  ['an unterminated comment runs to EOF', 'a/* url(x)', [['ident-token', 'a', 0, 1]]],
  ['a string hides url(', '"url(http://x)"', [['string-token', 'url(http://x)', 0, 15]]],
  ['newline ends a bad string; the rest tokenizes', '"a\nb', [['bad-string-token', '', 0, 2], ['whitespace-token', '', 2, 3], ['ident-token', 'b', 3, 4]]],
  ['escaped newline continues a string', '"a\\\nb"', [['string-token', 'ab', 0, 6]]],
  // Offsets are in the ORIGINAL text: CR LF is one newline but two code units.
  ['CR LF is one whitespace token of two units', 'a\r\nb', [['ident-token', 'a', 0, 1], ['whitespace-token', '', 1, 3], ['ident-token', 'b', 3, 4]]],
  ['FF and CR are newlines', 'a\f\rb', [['ident-token', 'a', 0, 1], ['whitespace-token', '', 1, 3], ['ident-token', 'b', 3, 4]]],
  ['NUL reads as U+FFFD in a name', 'a\u0000b', [['ident-token', 'a\uFFFDb', 0, 3]]],
  ['escape of zero is U+FFFD', '\\0 a', [['ident-token', '\uFFFDa', 0, 4]]],
  ['escape above U+10FFFF is U+FFFD', '\\110000', [['ident-token', '\uFFFD', 0, 7]]],
  ['escape of an astral code point', '\\1F600', [['ident-token', '\u{1F600}', 0, 6]]],
  ['a lone surrogate reads as U+FFFD', 'a\uD800b', [['ident-token', 'a\uFFFDb', 0, 3]]],
  ['an astral delim keeps both units', '@\u{1F600}', [['at-keyword-token', '\u{1F600}', 0, 3]]],
  ['backslash before newline is a delim', '\\\n', [['delim-token', '\\', 0, 1], ['whitespace-token', '', 1, 2]]],
  ['backslash at EOF in a string is dropped', '"a\\', [['string-token', 'a', 0, 3]]],
  ['url at EOF still counts', 'url(a', [['url-token', 'a', 0, 5]]],
  ['src( is a plain function', 'src("a")', [['function-token', 'src', 0, 4], ['string-token', 'a', 4, 7], [')-token', '', 7, 8]]],
  ['CDO and CDC', '<!---->', [['CDO-token', '', 0, 4], ['CDC-token', '', 4, 7]]],
];

for (const [proves, css, expected] of TABLE) {
  test(`tokenizer: ${proves}`, () => {
    assert.deepEqual(brief(css), expected);
  });
}

test('tokenizer: start option skips a byte-order mark and keeps original offsets', () => {
  assert.deepEqual(brief('\uFEFFa', { start: 1 }), [['ident-token', 'a', 1, 2]]);
  assert.deepEqual(brief('\uFEFFa'), [['ident-token', '\uFEFFa', 0, 2]]);
});

test('tokenizer: numbers carry value, type and sign', () => {
  const [n, , p, , d] = tokenize('-1.5e2 +7% 3px');
  assert.deepEqual([n.type, n.numeric, n.numberType, n.sign], ['number-token', -150, 'number', '-']);
  assert.deepEqual([p.type, p.numeric, p.numberType, p.sign], ['percentage-token', 7, 'integer', '+']);
  assert.deepEqual([d.type, d.numeric, d.unit, d.sign], ['dimension-token', 3, 'px', '']);
});

test('tokenizer: hash type flag', () => {
  const [a, , b] = tokenize('#id #1x');
  assert.deepEqual([a.value, a.hashType, b.value, b.hashType], ['id', 'id', '1x', 'unrestricted']);
});

test('tokenizer: a 5 MiB stylesheet streams to its last token (timing: bench/fuzz-css.mjs)', () => {
  const chunk = '.a{background:url(img/a.png) no-repeat;font:12px/1.5 "Helvetica Neue",sans-serif}/* c */\n';
  const css = chunk.repeat(Math.ceil((5 * 1024 * 1024) / chunk.length));
  // Streaming, as the policy uses it (an array of a million tokens is the caller's cost).
  const tokenizer = createTokenizer(css);
  let count = 0;
  let last = null;
  for (let token = consumeToken(tokenizer); token !== null; token = consumeToken(tokenizer)) {
    count++;
    last = token;
  }
  assert.ok(count > 100_000);
  assert.equal(last.end, css.length, 'the tokens reach the end of the text');
});

// ---------------------------------------------------------------------------
// The cursor API (nextToken, tokenValue) and skipIgnorableTokens, the policy's fast path
// ---------------------------------------------------------------------------

test('tokenizer: the cursor gives what consumeToken gives, values decoded on request', () => {
  const css = 'u\\72l(a\\2e png) @\\69mport "a\\\nb" #x -1.5e2px 7% \u0000';
  const records = tokenize(css);
  const s = createTokenizer(css);
  const seen = [];
  for (let kind = nextToken(s); kind !== TOKEN_EOF; kind = nextToken(s)) {
    seen.push([s.tokenStart, s.tokenEnd, tokenValue(s)]);
    if (kind === TOKEN_DIMENSION) assert.deepEqual([tokenNumeric(s), tokenUnit(s)], [-150, 'px']);
  }
  assert.deepEqual(seen, records.map((t) => [t.start, t.end, t.value]));
  assert.equal(records[0].type, 'url-token');
  assert.equal(records[0].value, 'a.png');
});

test('tokenizer: skipWhitespace drops whitespace tokens only', () => {
  const css = 'a /* c */ b\r\n\t( "x" )';
  const all = tokenize(css).filter((t) => t.type !== 'whitespace-token');
  assert.deepEqual(tokenize(css, { skipWhitespace: true }), all);
});

/** Whether skipIgnorableTokens took a component from the start of `css`, and where it stopped (test/validator/fuzz-css.test.mjs checks every stop against the plain tokenizer). */
function skipFromStart(css) {
  const s = createTokenizer(css);
  const skipped = skipIgnorableTokens(s);
  return [skipped, s.pos];
}

// [what the row proves, css, expected [skipped a non-whitespace token, stop offset]]
const SKIP_ROWS = [
  ['plain selector and declarations run to the `{`', '.c1 > .item:hover, a.b #id *', [true, 28]],
  ['a selector runs to the `[`', '.c1 > .item:hover, a.b #id *[x]', [true, 28]],
  ['declarations run to the `;`', ' color: #1f2937; margin: 0 auto;', [true, 15]],
  ['whitespace alone is no component', '  \t\r\n\f', [false, 6]],
  ['numbers, percentages and dimensions; `/` is a delim', '0 -1px +.5em 1e3 1E-2% 4px/8px', [true, 30]],
  ['numbers, percentages, dimensions, `/` and `!` run to EOF', '0 -1px +.5em 1e3 1E-2% 4px/8px 1-x !important', [true, 45]],
  ['stops before an ident followed by `(` (a function)', 'a url(x)', [true, 2]],
  ['stops before a function name, not after it', 'calc(1px)', [false, 0]],
  ['a number and unit before `(` are left whole', '1url(x)', [false, 0]],
  ['a number and unit before `(` are left whole, after a component', 'a 1url(x)', [true, 2]],
  ['stops before a name that an escape continues', 'a u\\72l(x)', [true, 2]],
  ['a lone `\\` after a delim', 'a:\\', [true, 2]],
  ['stops before a hash that an escape continues', '#a\\62 x', [false, 0]],
  ['a hash before `\\` starts at its `#`, after a component', 'x #a\\62', [true, 2]],
  ['a `#` alone before `(`', 'x #(', [true, 2]],
  ['stops before a name that NUL continues (U+FFFD)', 'ab\u0000c', [false, 0]],
  ['stops before a name that NUL continues, after a component', 'x ab\u0000c', [true, 2]],
  ['stops before a name that a non-ASCII code point continues', 'x caf\u00e9', [true, 2]],
  ['stops at a non-ASCII code point', '\u00e9', [false, 0]],
  ['a unit that starts with `-` is taken when the run ends at EOF', '1-x', [true, 3]],
  ['stops before a unit that an escape continues', '1p\\78', [false, 0]],
  ['`1e` without digits: unit "e"', '1e;', [true, 2]],
  ['`1e+` without digits: unit "e", then `+`', '1e+;', [true, 3]],
  ['`1e+5`: an exponent', '1e+5;', [true, 4]],
  ['stops at CDC', 'a -->', [true, 2]],
  ['before CDC, a name that may take its `--` is left whole', 'ab-->', [false, 0]],
  ['`--x` is an ident', '--x:1', [true, 5]],
  ['`--` then a non-`>` is an ident', '-- ', [true, 3]],
  ['stops at CDO', 'a <!--', [true, 2]],
  ['`<` alone is a delim', 'a<b', [true, 3]],
  ['`-` before an escape may start an ident: stop', '-\\61', [false, 0]],
  ['`-` alone at EOF is a delim', '-', [true, 1]],
  ['`#` at EOF is a delim', '#', [true, 1]],
  ['`.` before a digit is a number', '.5x', [true, 3]],
  ['`.` then a digit before `(`: tokens one by one (a number may start earlier)', 'x 1.5px(', [true, 7]],
  ['`+` then a digit before `(`: the exponent sign of 1e+5', 'x 1e+5px(', [true, 8]],
  ['one by one, a dimension followed by `(` is taken', 'x .5 a.5b(', [true, 9]],
  ['one by one, a unit that an escape continues is left whole', 'x 1.5p\\78', [true, 2]],
  ['`.` then a letter is a delim: the name after it is left', 'x a.b(', [true, 4]],
  ['`+` then a letter is a delim', 'x +b(', [true, 3]],
  ['stops at a string, a comment, `@`, `;` and brackets', 'a "b"', [true, 2]],
  ['stops at a comment', 'a/**/b', [true, 1]],
  ['`/` before EOF is a delim', 'a/', [true, 2]],
  ['`/` not before `*` is a delim', 'a/b', [true, 3]],
  ['stops at an at-keyword', '@import', [false, 0]],
  ['stops at a backslash', '\\61', [false, 0]],
  ['stops at a control character', 'a\u0001', [true, 1]],
];

test('skipIgnorableTokens: code units that end a run at a token boundary, and those that may not', () => {
  // After "x ab": the name "ab" is whole before these...
  for (const c of ['"', "'", ')', '[', ']', '{', '}', ';', '@', '\u0001', '\u007f', ' ', '!']) {
    assert.deepEqual(skipFromStart(`x ab${c}`), [true, c === ' ' || c === '!' ? 5 : 4], JSON.stringify(c));
  }
  // ...and may go on through these (a function, an escape, U+FFFD, a non-ASCII name).
  for (const c of ['(', '\\1', '\u0000', '\u00e9']) {
    assert.deepEqual(skipFromStart(`x ab${c}`), [true, 2], JSON.stringify(c));
  }
});

for (const [proves, css, expected] of SKIP_ROWS) {
  test(`skipIgnorableTokens: ${proves}`, () => {
    assert.deepEqual(skipFromStart(css), expected);
  });
}
