// Fuzzing the JavaScript lexer and module policy: 12,000 mutated inputs must each finish
// without an exception and keep the lexer's invariants (bench/fuzz-js.mjs runs millions).
// Plus performance sanity rows: 5 MiB generated modules finish (linear-time scanning)
// and still find what they hold. No timing assertions: the test timeout is a hang guard only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prng } from '../support/fuzz.mjs';
import { makeCase, runCase, checkTokenInvariants } from '../support/fuzz-js.mjs';
import { tokenizeJs } from '../../build/validator/js/lexer.js';
import { checkJsModule } from '../../build/validator/js/js-policy.js';
import { FindingList } from '../../build/validator/findings.js';
import { bundleViewOf } from '../../build/validator/scan.js';
import { BUNDLE_MAX_FILE_BYTES } from '../../build/validator/limits.js';

const CASES = 12_000;

test(`${CASES} mutated modules: no exception, invariants hold, each finishes`, { timeout: 300_000 }, (t) => {
  const rng = prng(20240611);
  let slowest = 0;
  for (let i = 0; i < CASES; i++) {
    const c = makeCase(rng, i);
    const t0 = performance.now();
    assert.doesNotThrow(() => runCase(c), `case ${i}: ${JSON.stringify(c.text ?? Array.from(c.bytes)).slice(0, 300)}`);
    slowest = Math.max(slowest, performance.now() - t0);
  }
  // No timing assertion (house rule): the timeout above only catches a hang, and
  // bench/fuzz-js.mjs reports the slowest case.
  t.diagnostic(`slowest case ${slowest.toFixed(1)} ms`);
});

test('the invariant checker can fail (it is not vacuous)', () => {
  const text = "import x from './lib/a.js'; `${/a/}`";
  const { tokens, errors } = tokenizeJs(text);
  assert.doesNotThrow(() => checkTokenInvariants(text, tokens, errors));
  assert.throws(() => checkTokenInvariants(text, tokens.slice(1), errors), /skipped/, 'a dropped token');
  assert.throws(() => checkTokenInvariants(text, [tokens[0], tokens[0]], errors), /out of order/, 'a token repeated (overlap)');
  assert.throws(() => checkTokenInvariants(text, tokens, [{ kind: 'invalid-character', offset: text.length + 1 }]), /out of range/);
});

/** A module of about `size` code units built from `chunk`, with `line` inserted every `every` chunks. */
function generate(chunk, size, every, line) {
  const parts = [];
  let length = 0;
  let i = 0;
  while (length < size) {
    const piece = i % every === every - 1 ? line(i) : chunk;
    parts.push(piece);
    length += piece.length;
    i++;
  }
  return parts.join('');
}

function scan(text, files = ['main.js', 'lib/a.js', 'lazy.js']) {
  const list = new FindingList();
  checkJsModule('main.js', new TextEncoder().encode(text), bundleViewOf(files), list);
  return list.items;
}

test('performance sanity: a generated 5 MiB module scans and finds its imports', () => {
  const chunk = [
    "import { a } from './lib/a.js';",
    '// comment mentioning import "nope" and fetch()',
    'export function f(x, y) { if (x) /re[/]x/g.test(y); return x / y + `t${ {k: 1}.k }`; }',
    "const o = { fetch: 1, get v() { return this.x / 2 }, s: 'str\\'ing', n: 0x1f_ffn };",
    "class K extends Base { static #p = 1; m() { return import('./lazy.js') } }",
    '/* block\ncomment */ let z = a++ / 2 + (b) / 3;',
    '',
  ].join('\n');
  const every = Math.floor(BUNDLE_MAX_FILE_BYTES / chunk.length / 40);
  const text = generate(chunk, BUNDLE_MAX_FILE_BYTES, every, (i) => `import './missing-${i}.js';\n`);
  assert.ok(text.length >= BUNDLE_MAX_FILE_BYTES);
  const found = scan(text);
  const missing = found.filter((f) => f.rule === 'js/missing-module');
  const expected = Math.floor(text.split("import './missing-").length - 1);
  assert.ok(expected >= 40, 'the generator placed the imports');
  assert.equal(missing.length, expected, 'every missing import is found, none invented');
  assert.deepEqual(found.filter((f) => f.rule !== 'js/missing-module'), [], 'nothing else in the realistic code is reported');
  const lastLine = text.slice(0, text.lastIndexOf("import './missing-")).split('\n').length;
  assert.equal(missing[missing.length - 1].line, lastLine, 'the last one is located on its line');
});

test('performance sanity: pathological 1 MiB inputs finish (deep nesting, floods)', () => {
  const size = BUNDLE_MAX_FILE_BYTES / 5;
  const rows = [
    ['nested braces', '{'.repeat(size), 'js/syntax-error'],
    ['nested parentheses', '('.repeat(size), 'js/syntax-error'],
    ['nested template substitutions', '`${'.repeat(size / 3), 'js/syntax-error'],
    ['alternating division', 'a/'.repeat(size / 2), null],
    ['computed dynamic imports (findings are capped)', 'import(x);'.repeat(size / 10), 'js/dynamic-import-unchecked'],
    ['unterminated strings on one line', "'".repeat(size) + '\nimport "lodash";', 'js/bare-specifier'],
    ['one giant unterminated regex class', 'x = /['.concat('a'.repeat(size)), 'js/syntax-error'],
    ['escape floods', '\\u{'.repeat(size / 3), 'js/syntax-error'],
  ];
  for (const [proves, text, rule] of rows) {
    const found = scan(text);
    assert.ok(found.length <= 200, proves);
    if (rule !== null) assert.ok(found.some((f) => f.rule === rule), proves);
  }
});
