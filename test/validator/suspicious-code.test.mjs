// The suspicious-code pass over a module's compact token table: excerpts stay bounded on
// minified lines, check asks for findings without call sites, and a module larger than the
// first table sized for it reads the same as a small one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSuspiciousCode } from '../../build/validator/js/suspicious-code.js';
import { FindingList } from '../../build/validator/findings.js';

const sitesOf = (text) => checkSuspiciousCode('m.js', text, null).map((s) => [s.kind, s.name, s.line, s.column, s.excerpt]);

test('excerpt: a line of 120 characters is whole, one of 121 is cut with an ellipsis, leading space dropped', () => {
  const line = (n) => `fetch(u);${'x'.repeat(n - 9)}`;
  const rows = [
    [line(120), line(120)],
    [line(121), `${line(121).slice(0, 120)}...`],
    [`    ${line(50)}   `, line(50)],
    [`${'\u{1F600}'.repeat(3)} fetch(u)`, `${'\u{1F600}'.repeat(3)} fetch(u)`],
    [`fetch(u) ${'\u{1F600}'.repeat(130)}`, `fetch(u) ${'\u{1F600}'.repeat(111)}...`],
  ];
  for (const [text, excerpt] of rows) assert.equal(sitesOf(text)[0]?.[4], excerpt, JSON.stringify(text.slice(0, 20)));
});

test('excerpt: a site on a line of millions of characters is cut after reading only its start', () => {
  const text = `fetch(u);${'a+'.repeat(2_000_000)}b;`;
  const [site] = sitesOf(text);
  assert.deepEqual(site.slice(0, 4), ['network', 'fetch', 1, 1]);
  assert.equal(site[4].length, 123);
  assert.ok(site[4].endsWith('...'));
});

test('check asks for findings only: the same findings, no call sites', () => {
  const text = "globalThis[k](); x.constructor.constructor('y')(); fetch(u);";
  const withSites = new FindingList();
  const without = new FindingList();
  assert.equal(checkSuspiciousCode('m.js', text, withSites).length, 2);
  assert.deepEqual(checkSuspiciousCode('m.js', text, without, { sites: false }), []);
  const ids = (list) => list.items.map((f) => [f.rule, f.line, f.column]);
  assert.deepEqual(ids(without), ids(withSites));
  assert.deepEqual(ids(without).map((r) => r[0]), ['js/computed-global-access', 'js/constructor-constructor']);
});

test('a module longer than its first token table, and names written with escapes, read as a small one does', () => {
  const tail = "\n\\u0066etch(u); globalThis[['fe', 'tch'].join('')](u); setTimeout('run()', 1);";
  const small = sitesOf(tail.slice(1));
  // One character per token: the table sized from the text (a token per five characters) must grow.
  const big = sitesOf(`${';'.repeat(300_000)}${tail}`);
  assert.deepEqual(small.map((s) => s.slice(0, 2)), [['network', 'fetch'], ['network', 'fetch'], ['code-from-string', 'setTimeout']]);
  assert.deepEqual(big.map((s) => [s[0], s[1], s[2], s[3]]), small.map((s) => [s[0], s[1], s[2] + 1, s[3]]));
});
