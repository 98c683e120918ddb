// classifyReference: how a browser's URL parser would read a reference (D-19).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyReference, dirName, normalizeUrlText } from '../../build/validator/references.js';

const CASES = [
  // [raw, baseDir, expected type, expected path (local only), why]
  ['', '', 'empty', undefined, 'nothing to load'],
  ['  \n ', '', 'empty', undefined, 'whitespace only is empty after stripping'],
  ['#top', '', 'fragment', undefined, 'same-document fragment'],
  ['data:image/png;base64,AAAA', '', 'data', undefined, 'data URL'],
  ['DATA:image/png,x', '', 'data', undefined, 'scheme is case-insensitive'],
  ['https://cdn.example/x.js', '', 'remote', undefined, 'absolute URL'],
  ['javascript:alert(1)', '', 'remote', undefined, 'javascript: is a scheme'],
  ['java\tscript:alert(1)', '', 'remote', undefined, 'tabs inside a scheme are removed by the URL parser'],
  [' \u0001https://x', '', 'remote', undefined, 'leading C0 controls are stripped'],
  ['//cdn.example/x.js', '', 'remote', undefined, 'protocol-relative'],
  ['/\\cdn.example/x.js', '', 'remote', undefined, 'a backslash is a slash in http(s): protocol-relative'],
  ['\\\\cdn.example/x.js', '', 'remote', undefined, 'two backslashes are protocol-relative too'],
  ['/main.js', '', 'root', undefined, 'site root is outside the release'],
  ['main.js', '', 'local', 'main.js', 'plain relative'],
  ['./main.js', '', 'local', 'main.js', 'dot segment'],
  ['lib/a.js', '', 'local', 'lib/a.js', 'nested'],
  ['../a.js', 'lib', 'local', 'a.js', 'parent stays inside'],
  ['../a.js', '', 'outside', undefined, 'parent of the root escapes'],
  ['lib/../../a.js', '', 'outside', undefined, 'escapes after a detour'],
  ['%2e%2e/a.js', '', 'outside', undefined, 'percent-encoded dot segments count as dot segments'],
  ['a%20b.png', '', 'local', 'a b.png', 'percent-decoding before lookup'],
  ['font.woff2?#iefix', 'fonts', 'local', 'fonts/font.woff2', 'query and fragment stripped'],
  ['img\\a.png', '', 'local', 'img/a.png', 'backslash is a slash'],
];

for (const [raw, base, type, path, why] of CASES) {
  test(`classifyReference ${JSON.stringify(raw)} from "${base}": ${why}`, () => {
    const result = classifyReference(raw, base);
    assert.equal(result.type, type);
    if (path !== undefined) assert.equal(result.path, path);
  });
}

test('query and fragment flags', () => {
  assert.deepEqual(classifyReference('a.js?v=1', ''), { type: 'local', path: 'a.js', query: true, fragment: false });
  assert.deepEqual(classifyReference('a.js#x', ''), { type: 'local', path: 'a.js', query: false, fragment: true });
  assert.deepEqual(classifyReference('a.js#x?y', ''), { type: 'local', path: 'a.js', query: false, fragment: true });
});

test('dirName and normalizeUrlText', () => {
  assert.equal(dirName('index.html'), '');
  assert.equal(dirName('a/b/c.css'), 'a/b');
  assert.equal(normalizeUrlText(' j\na\rv\ta '), 'java');
});

test('LineMap: LF, CRLF and lone CR line ends; columns count UTF-16 code units', async () => {
  const { LineMap } = await import('../../build/validator/text.js');
  const lf = new LineMap('ab\ncd\n\nx');
  assert.deepEqual([0, 2, 3, 6, 7].map((o) => lf.at(o)), [
    { line: 1, column: 1 },
    { line: 1, column: 3 },
    { line: 2, column: 1 },
    { line: 3, column: 1 },
    { line: 4, column: 1 },
  ]);
  const mixed = new LineMap('a\r\nb\rc\nd');
  assert.deepEqual([0, 3, 5, 7].map((o) => mixed.at(o)), [
    { line: 1, column: 1 },
    { line: 2, column: 1 },
    { line: 3, column: 1 },
    { line: 4, column: 1 },
  ]);
  assert.deepEqual(new LineMap('😀x').at(2), { line: 1, column: 3 });
});
