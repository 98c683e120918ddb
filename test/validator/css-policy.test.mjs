// CSS policy tables (src/validator/css/css-policy.ts): every rule on both sides, with rule ids
// and line/column. D-17 (what the frame may load), D-19 (references must resolve; comments
// and strings that are not references are never findings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCss, checkStylesheet } from '../../build/validator/css/css-policy.js';
import { CSS_RULES } from '../../build/validator/catalogue/css-rules.js';
import { FileScan, bundleViewOf } from '../../build/validator/scan.js';
import { FindingList } from '../../build/validator/findings.js';

const BUNDLE = ['index.html', 'style.css', 'img/a.png', 'img/b.png', 'fonts/f.woff2', 'fonts/f.woff', 'css/other.css', 'Img/Case.png'];

/** Runs checkCss over `css` as a whole stylesheet file and returns [rule, line, column] triples. */
function run(css, { mode = 'stylesheet', baseDir = '', bundle = BUNDLE } = {}) {
  const findings = new FindingList();
  const scan = new FileScan('style.css', css, bundleViewOf(bundle), findings);
  checkCss(scan, { text: css, mode, baseDir, mapOffset: (o) => o });
  return findings.items.map((f) => [f.rule, f.line, f.column]);
}

// [what the row proves, css, expected [rule, line, column][], options]
const ROWS = [
  // --- url tokens: local, missing, remote ---
  ['a local url that exists is fine', 'a{background:url(img/a.png)}', []],
  ['a local url that is missing', 'a{background:url(img/missing.png)}', [['css/missing-reference', 1, 14]]],
  ['letter case differs: still missing (did-you-mean in the message)', 'a{background:url(img/case.png)}', [['css/missing-reference', 1, 14]]],
  ['query and fragment are stripped before the lookup', 'a{background:url(img/a.png?v=2#x)}', []],
  ['an http url is remote', 'a{background:url(http://x.example/a.png)}', [['css/remote-url', 1, 14]]],
  ['uppercase URL( is the same function', 'a{background:URL(http://x.example/a.png)}', [['css/remote-url', 1, 14]]],
  ['an escaped "r" in url( still makes a url', 'a{background:u\\72l(http://x.example/a.png)}', [['css/remote-url', 1, 14]]],
  ['an escaped "u" at the start still makes a url', 'a{background:\\75 rl(http://x.example/a.png)}', [['css/remote-url', 1, 14]]],
  ['an unclosed url at EOF still fetches', 'a{background:url(http://x.example/a.png', [['css/remote-url', 1, 14]]],
  ['an unclosed @import string at EOF still counts', '@import "http://x.example/a.css', [['css/import-remote', 1, 9]]],
  ['escapes inside the url value decode', 'a{background:url(http\\:\\/\\/x.example/a.png)}', [['css/remote-url', 1, 14]]],
  ['uppercase scheme', 'a{background:url(HTTPS://X.EXAMPLE/a.png)}', [['css/remote-url', 1, 14]]],
  ['protocol-relative is remote', 'a{background:url(//cdn.example/a.png)}', [['css/remote-url', 1, 14]]],
  ['quoted url: reported at the string', 'a{background:url("http://x.example/a.png")}', [['css/remote-url', 1, 18]]],
  ['single-quoted local url with spaces around', "a{background:url( 'img/a.png' )}", []],
  ['whitespace inside an unquoted url is trimmed', 'a{background:url(   http://x.example/a.png   )}', [['css/remote-url', 1, 14]]],
  ['whitespace inside an unquoted local url is trimmed', 'a{background:url(  img/a.png  )}', []],
  ['a quoted javascript: url is remote (any non-data scheme)', 'a{background:url("javascript:alert(1)")}', [['css/remote-url', 1, 18]]],
  ['a remote url in a custom property', 'a{--x:url(//cdn.example/a.png)}', [['css/remote-url', 1, 7]]],
  ['src("...") is a url function', 'a{background:src("http://x.example/a.png")}', [['css/remote-url', 1, 18]]],
  ['src() whose first argument is not a string is no reference', 'a{background:src(var(--u) "http://x.example/a.png")}', []],
  ['url() inside image-set()', 'a{background:image-set(url(http://x.example/a.png) 1x)}', [['css/remote-url', 1, 24]]],
  // --- no fetch, no finding ---
  ['empty url()', 'a{background:url()}', []],
  ['empty quoted url("")', 'a{background:url("")}', []],
  ['fragment-only url(#id)', 'a{filter:url(#f)}', []],
  ['local url with a fragment', 'a{mask:url(img/a.png#m)}', []],
  ['data: image url', 'a{background:url(data:image/png;base64,AAAA)}', []],
  ['quoted data: image url', 'a{background:url("data:image/svg+xml,<svg/>")}', []],
  ['a comment holding url(http://...)', '/* url(http://x.example/a.png) */a{color:red}', []],
  ['an unterminated comment holding url(', 'a{color:red}/* url(http://x.example/a.png)', []],
  ['a string holding url(http://...)', 'a{content:"url(http://x.example/a.png)"}', []],
  ['a bare remote string is not a reference', 'a{content:"http://x.example/a.png"}', []],
  ['font-family strings are not references', 'a{font-family:"http://x.example",serif}', []],
  ['@namespace url() names a namespace, nothing is fetched', '@namespace svg url(http://www.w3.org/2000/svg);', []],
  ['@namespace string', '@namespace "http://www.w3.org/1999/xhtml";', []],
  ['the @namespace prelude ends at ";"', '@namespace url(http://www.w3.org/1999/xhtml);a{background:url(http://x.example/a.png)}', [['css/remote-url', 1, 59]]],
  // --- bad url ---
  ['space inside an unquoted url is a bad url (warning)', 'a{background:url(img/a b.png)}', [['css/bad-url', 1, 14]]],
  ['quote inside an unquoted url is a bad url', 'a{background:url(img/a"b.png)}', [['css/bad-url', 1, 14]]],
  ['a bad url swallows up to ")", the rest still scans', 'a{background:url(a b) url(http://x.example/a.png)}', [['css/bad-url', 1, 14], ['css/remote-url', 1, 23]]],
  // --- root and outside ---
  ['root-relative url', 'a{background:url(/img/a.png)}', [['css/root-relative-url', 1, 14]]],
  ['backslash root-relative url', 'a{background:url("\\\\img/a.png")}', [['css/root-relative-url', 1, 18]]],
  ['".." above the bundle root', 'a{background:url(../img/a.png)}', [['css/url-outside-bundle', 1, 14]]],
  ['".." from a subfolder stays inside', 'a{background:url(../img/a.png)}', [], { baseDir: 'css' }],
  ['a relative url resolves against baseDir', 'a{background:url(img/a.png)}', [['css/missing-reference', 1, 14]], { baseDir: 'css' }],
  // --- @import ---
  ['@import of a local file that exists', '@import "css/other.css";', []],
  ['@import url("...") of a local file that exists', '@import url("css/other.css");', []],
  ['@import url(...) unquoted, local', '@import url(css/other.css) screen;', []],
  ['@import of a missing local file', '@import "missing.css";', [['css/missing-reference', 1, 9]]],
  ['@import of a remote stylesheet (string form)', '@import "http://x.example/a.css";', [['css/import-remote', 1, 9]]],
  ['@import of a remote stylesheet (url form)', '@import url(http://x.example/a.css);', [['css/import-remote', 1, 9]]],
  ['@import url("...") remote: reported at the string', '@import url( "//x.example/a.css" );', [['css/import-remote', 1, 14]]],
  ['@IMPORT in capitals', '@IMPORT url(http://x.example/a.css);', [['css/import-remote', 1, 9]]],
  ['@\\69mport: an escape in the at-keyword', '@\\69mport "http://x.example/a.css";', [['css/import-remote', 1, 11]]],
  ['@import of a data: stylesheet', '@import "data:text/css,a{color:red}";', [['css/import-data', 1, 9]]],
  ['@import root-relative', "@import '/site.css';", [['css/root-relative-url', 1, 9]]],
  ['@import above the root', '@import "../up.css";', [['css/url-outside-bundle', 1, 9]]],
  ['@import with a comment before the target', '@import/**/"http://x.example/a.css";', [['css/import-remote', 1, 12]]],
  ['a late @import is still reported', 'a{color:red}@import "http://x.example/a.css";', [['css/import-remote', 1, 21]]],
  ['@import inside a block is still reported', 'a{@import "http://x.example/a.css";}', [['css/import-remote', 1, 11]]],
  ['@import whose first component is not a target: later url() is a plain reference', '@import layer(x) url(http://x.example/a.css);', [['css/remote-url', 1, 18]]],
  ['@import with a bare string later in the prelude: not a reference', '@import url(css/other.css) supports(display:grid) "http://x.example";', []],
  ['an at-keyword inside a value is not an at-rule', 'a{b:@import "http://x.example/a.css"}', []],
  ['a second at-keyword in a prelude does not start an at-rule', '@media @import "http://x.example/a.css";', []],
  // --- image-set() and image() strings ---
  ['image-set() strings are references', 'a{background:image-set("img/a.png" 1x, "http://x.example/b.png" 2x)}', [['css/remote-url', 1, 40]]],
  ['-webkit-image-set() strings are references', 'a{background:-webkit-image-set("img/a.png" 1x,"img/missing.png" 2x)}', [['css/missing-reference', 1, 47]]],
  ['IMAGE-SET() in capitals', 'a{background:IMAGE-SET("http://x.example/b.png" 1x)}', [['css/remote-url', 1, 24]]],
  ['type("...") inside image-set() is no reference', 'a{background:image-set("img/a.png" type("image/png") 1x)}', []],
  ['image("...") strings are references', 'a{background:image("http://x.example/b.png")}', [['css/remote-url', 1, 20]]],
  ['data: in image-set() is fine', 'a{background:image-set("data:image/png;base64,AAAA" 1x)}', []],
  // --- @font-face ---
  ['a local font source is fine (?#iefix stripped)', '@font-face{font-family:F;src:url(fonts/f.woff2?#iefix) format("woff2"),url("fonts/f.woff") format("woff")}', []],
  ['a data: font source is an error', '@font-face{font-family:F;src:url(data:font/woff2;base64,AAAA) format("woff2")}', [['css/data-font', 1, 30]]],
  ['a quoted data: font source is an error', '@font-face{src:url("data:font/woff2;base64,AAAA")}', [['css/data-font', 1, 20]]],
  ['a remote font source', '@font-face{src:url(http://x.example/f.woff2)}', [['css/remote-url', 1, 16]]],
  ['a missing font file', '@font-face{src:url(fonts/missing.woff2)}', [['css/missing-reference', 1, 16]]],
  ['@FONT-FACE in capitals', '@FONT-FACE{src:url(data:font/woff2,AAAA)}', [['css/data-font', 1, 16]]],
  ['@font-face inside @media', '@media screen{@font-face{src:url("data:font/woff2,x")}}', [['css/data-font', 1, 34]]],
  // A browser loads the first source it supports; the fallbacks after a shipped one are never requested.
  ['a missing fallback after a shipped font source: no finding', '@font-face{src:url(fonts/f.woff2) format("woff2"), url(fonts/f.ttf) format("truetype")}', []],
  ['a missing first source before a shipped one: error at the missing one', '@font-face{src:url(fonts/x.woff2) format("woff2"), url(fonts/f.woff) format("woff")}', [['css/missing-reference', 1, 16]]],
  ['the next src declaration starts over', '@font-face{src:url(fonts/f.woff2);src:url(fonts/x.ttf)}', [['css/missing-reference', 1, 39]]],
  ['the next @font-face starts over', '@font-face{src:url(fonts/f.woff2)}@font-face{src:url(fonts/x.ttf)}', [['css/missing-reference', 1, 50]]],
  ['outside @font-face every reference counts', 'a{background:url(img/a.png),url(img/x.png)}', [['css/missing-reference', 1, 29]]],
  // --- custom properties carrying a remote URL into a URL position (D-34) ---
  ['a remote string pasted into image-set() by var()', ':root{--a:"https://x.example/a.png"}b{background:image-set(var(--a) 1x)}', [['css/remote-url-in-custom-property', 1, 11]]],
  ['a remote string pasted into src() by var()', 'b{--img: "//cdn.example/a.png"; mask:src(var(--img))}', [['css/remote-url-in-custom-property', 1, 10]]],
  ['a remote string pasted into image() by var()', 'b{--i:x "https://x.example/a.png";background:image(var(--i))}', [['css/remote-url-in-custom-property', 1, 9]]],
  ['other side: a local string in the custom property', ':root{--a:"img/a.png"}b{background:image-set(var(--a) 1x)}', []],
  ['other side: the remote string is used outside a URL position', ':root{--a:"https://x.example"}b::after{content:var(--a)}', []],
  ['other side: a remote string in an ordinary property', 'b{content:"https://x.example/a.png";background:image-set(var(--content) 1x)}', []],
  ['other side: another custom property is used', ':root{--a:"https://x.example/a.png";--b:"img/a.png"}b{background:image-set(var(--b) 1x)}', []],
  ['after the @font-face block, data: images are fine again', '@font-face{src:url(fonts/f.woff2)}a{background:url(data:image/png,x)}', []],
  ['local("...") font names are not references', '@font-face{src:local("http://x.example"),url(fonts/f.woff2)}', []],
  // --- positions ---
  ['line and column after CR LF', 'a{\r\n  background: url(http://x.example/a.png)\r\n}', [['css/remote-url', 2, 15]]],
  ['a bad string ends at the newline; the next line still scans', 'a{content:"abc\nb:url(http://x.example/a.png)}', [['css/remote-url', 2, 3]]],
  ['findings are in source order', 'a{background:url(/x.png)}\nb{background:url(//y.example/b.png)}', [['css/root-relative-url', 1, 14], ['css/remote-url', 2, 14]]],
  // --- function names, compared in place or decoded (policy fast paths) ---
  ['an escaped quoted url( is a url function', 'a{background:u\\72l("http://x.example/a.png")}', [['css/remote-url', 1, 20]]],
  ['URL("...") in capitals is a url function', 'a{background:URL("http://x.example/a.png")}', [['css/remote-url', 1, 18]]],
  ['SRC("...") in capitals is a url function', 'a{background:SRC("http://x.example/a.png")}', [['css/remote-url', 1, 18]]],
  ['an escaped image-set() still takes strings', 'a{background:image-s\\65t("http://x.example/b.png" 1x)}', [['css/remote-url', 1, 26]]],
  ['a name one letter longer is no url function', 'a{background:urls("http://x.example/a.png")}', []],
  ['a name one letter shorter is no url function', 'a{background:ur("http://x.example/a.png")}', []],
  ['var() is no url function', 'a{background:var("http://x.example/a.png")}', []],
  ['Url("...") in mixed case is a url function', 'a{background:Url("http://x.example/a.png")}', [['css/remote-url', 1, 18]]],
  ['-WEBKIT-IMAGE-SET() in capitals still takes strings', 'a{background:-WEBKIT-IMAGE-SET("http://x.example/b.png" 1x)}', [['css/remote-url', 1, 32]]],
  ['Image() in mixed case still takes strings', 'a{background:Image("http://x.example/b.png")}', [['css/remote-url', 1, 20]]],
  ['a non-ASCII look-alike of url( is no url function', 'a{background:\u00fbrl("http://x.example/a.png")}', []],
  ['a name of the same shape as src( is no url function', 'a{background:sin("http://x.example/a.png")}', []],
  ['a dimension then ( is no function: 1url("...") is no reference', 'a{b:1url("http://x.example/a.png")}', []],
  // --- slots that a run of plain tokens ends (skipIgnorableTokens) ---
  ['@import whose first component is an ident: the string after it is no target', '@import screen "http://x.example/a.css";', []],
  ['@import whose first component is a number: later url() is a plain reference', '@import 1 url(http://x.example/a.css);', [['css/remote-url', 1, 11]]],
  ['src() whose first argument is an ident: the string after it is no reference', 'a{b:src(x "http://x.example/a.png")}', []],
  ['url() with whitespace only before the string still takes it', 'a{b:url( \t "http://x.example/a.png")}', [['css/remote-url', 1, 12]]],
  ['an at-keyword after a selector run is not an at-rule', 'a b @import "http://x.example/a.css";', []],
  ['an at-keyword after whitespace at a statement start is an at-rule', 'a{}  \n @import "http://x.example/a.css";', [['css/import-remote', 2, 10]]],
  ['CDO and CDC at top level keep the statement start', '<!-- --> @import "http://x.example/a.css";', [['css/import-remote', 1, 18]]],
  ['CDC after an ident ends the statement start', 'a --> @import "http://x.example/a.css";', []],
  ['a reference after a long run of plain tokens', '.c1 > .item:hover, a.b #id *, x[y] { margin: 0 -1.5e3px 4px/8px !important; background: url(http://x.example/a.png) }', [['css/remote-url', 1, 89]]],
  ['@font-face after plain rules: its url() is a font source', '.a{color:red}@font-face{font-family:F;src:url(data:font/woff2,AAAA)}', [['css/data-font', 1, 43]]],
  // --- declarations mode (style="") ---
  ['declarations: a remote url', 'background:url(http://x.example/a.png); color:red', [['css/remote-url', 1, 12]], { mode: 'declarations' }],
  ['declarations: a local url that exists', 'background:url(img/a.png)', [], { mode: 'declarations' }],
  ['declarations: a string is not a reference', 'content:"url(http://x.example)"', [], { mode: 'declarations' }],
];

for (const [proves, css, expected, options] of ROWS) {
  test(`css policy: ${proves}`, () => {
    assert.deepEqual(run(css, options), expected);
  });
}

test('css policy: mapOffset places findings in the embedding file (a <style> element)', () => {
  const html = '<!doctype html>\n<style>\n  a { background: url(http://x.example/a.png) }\n</style>\n';
  const css = html.slice(html.indexOf('<style>') + 7, html.indexOf('</style>'));
  const base = html.indexOf('<style>') + 7;
  const findings = new FindingList();
  const scan = new FileScan('index.html', html, bundleViewOf(BUNDLE), findings);
  checkCss(scan, { text: css, mode: 'stylesheet', baseDir: '', mapOffset: (o) => o + base });
  assert.deepEqual(findings.items.map((f) => [f.rule, f.file, f.line, f.column]), [['css/remote-url', 'index.html', 3, 19]]);
});

test('css policy: a style attribute resolves against the document folder', () => {
  const html = '<p style="background:url(img/a.png);mask:url(img/missing.png)">';
  const css = 'background:url(img/a.png);mask:url(img/missing.png)';
  const base = html.indexOf('"') + 1;
  const findings = new FindingList();
  const scan = new FileScan('pages/index.html', html, bundleViewOf(['pages/index.html', 'pages/img/a.png']), findings);
  checkCss(scan, { text: css, mode: 'declarations', baseDir: 'pages', mapOffset: (o) => o + base });
  assert.deepEqual(findings.items.map((f) => [f.rule, f.line, f.column]), [['css/missing-reference', 1, 42]]);
});

test('css policy: the did-you-mean names the listed path', () => {
  const findings = new FindingList();
  const css = 'a{background:url(img/case.png)}';
  checkCss(new FileScan('style.css', css, bundleViewOf(BUNDLE), findings), { text: css, mode: 'stylesheet', baseDir: '', mapOffset: (o) => o });
  assert.equal(findings.items.length, 1);
  assert.ok(findings.items[0].message.includes('"Img/Case.png"'));
});

// --- checkStylesheet: bundle .css files (bytes in) ---

const utf8 = (text) => new TextEncoder().encode(text);

function runFile(file, bytes, bundle = BUNDLE) {
  const findings = new FindingList();
  checkStylesheet(file, bytes, bundleViewOf(bundle), findings);
  return findings.items.map((f) => [f.rule, f.file, f.line, f.column]);
}

test('checkStylesheet: clean file, no findings', () => {
  assert.deepEqual(runFile('style.css', utf8('a{background:url(img/a.png)}')), []);
});

test('checkStylesheet: url() resolves against the stylesheet folder', () => {
  assert.deepEqual(runFile('css/other.css', utf8('a{background:url(../img/a.png)}')), []);
  assert.deepEqual(runFile('css/other.css', utf8('a{background:url(img/a.png)}')), [['css/missing-reference', 'css/other.css', 1, 14]]);
});

test('checkStylesheet: a leading BOM is fine and does not shift columns', () => {
  const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('@import url(http://x.example/a.css);')]);
  assert.deepEqual(runFile('style.css', bytes), [['css/import-remote', 'style.css', 1, 9]]);
});

test('checkStylesheet: invalid UTF-8 is a warning, and the rest still scans', () => {
  const bytes = Uint8Array.from([...utf8('/* '), 0xff, ...utf8(' */\n@import "http://x.example/a.css";')]);
  assert.deepEqual(runFile('style.css', bytes), [
    ['css/invalid-utf8', 'style.css', 1, 4],
    ['css/import-remote', 'style.css', 2, 9],
  ]);
});

test('checkStylesheet: U+FFFD from a bad byte is read as the browser reads it', () => {
  // The replacement character is an ident: it starts a qualified rule whose prelude
  // swallows the @import (a browser does not import), while url() still counts.
  const bytes = Uint8Array.from([...utf8('a{}'), 0xff, ...utf8('\n@import "http://x.example/a.css";\nurl(//x.example/b.png)')]);
  assert.deepEqual(runFile('style.css', bytes), [
    ['css/invalid-utf8', 'style.css', 1, 4],
    ['css/remote-url', 'style.css', 3, 1],
  ]);
});

test('checkStylesheet: invalid UTF-8 after a BOM is located after the BOM', () => {
  const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, 0x61, 0xc3]);
  assert.deepEqual(runFile('style.css', bytes), [['css/invalid-utf8', 'style.css', 1, 2]]);
});

test('checkStylesheet: a truncated sequence at the very start', () => {
  assert.deepEqual(runFile('style.css', Uint8Array.from([0xe2, 0x82])), [['css/invalid-utf8', 'style.css', 1, 1]]);
});

test('checkStylesheet: a 5 MiB stylesheet is scanned to the end (timing lives in bench/fuzz-css.mjs)', () => {
  const chunk = '.a{background:url(img/a.png) no-repeat;font:12px/1.5 "Helvetica Neue",sans-serif}/* c */\n';
  const clean = utf8(chunk.repeat(Math.ceil((5 * 1024 * 1024) / chunk.length)));
  assert.deepEqual(runFile('style.css', clean), []);
  // A remote reference at the very end proves the scan reached the last byte.
  const tail = utf8(chunk.repeat(Math.ceil((5 * 1024 * 1024) / chunk.length)) + '.z{background:url(http://x/y.png)}');
  const lines = Math.ceil((5 * 1024 * 1024) / chunk.length) + 1;
  assert.deepEqual(runFile('style.css', tail), [['css/remote-url', 'style.css', lines, 15]]);
});

// --- the catalogue ---

test('@charset: only UTF-8 (D-22 for stylesheets): error at the label', () => {
  const runBytes = (css) => {
    const findings = new FindingList();
    checkStylesheet('style.css', new TextEncoder().encode(css), bundleViewOf(BUNDLE), findings);
    return findings.items.map((f) => [f.rule, f.line, f.column]);
  };
  assert.deepEqual(runBytes('@charset "iso-2022-jp";\na{color:red}'), [['css/charset-not-utf8', 1, 11]]);
  assert.deepEqual(runBytes("@CHARSET 'windows-1252';"), [['css/charset-not-utf8', 1, 11]], 'any letter case and quote');
  assert.deepEqual(runBytes('\ufeff@charset "shift_jis";'), [['css/charset-not-utf8', 1, 11]], 'after a byte-order mark');
  assert.deepEqual(runBytes('@charset "utf-8";\na{color:red}'), [], 'other side: utf-8');
  assert.deepEqual(runBytes('@charset "UTF-8";'), [], 'other side: letter case of the label');
  assert.deepEqual(runBytes('a{color:red}\n@charset "iso-8859-1";'), [], 'other side: not at the start, so no browser reads it');
  assert.deepEqual(runBytes('a{content:"@charset \\"x\\";"}'), [], 'other side: text that only mentions it');
});

test('css catalogue: ids, severities and fields', () => {
  assert.deepEqual(
    CSS_RULES.map((r) => [r.id, r.severity]),
    [
      ['css/remote-url', 'error'],
      ['css/import-remote', 'error'],
      ['css/import-data', 'error'],
      ['css/data-font', 'error'],
      ['css/root-relative-url', 'error'],
      ['css/url-outside-bundle', 'error'],
      ['css/missing-reference', 'error'],
      ['css/bad-url', 'warning'],
      ['css/invalid-utf8', 'warning'],
      ['css/remote-url-in-custom-property', 'error'],
      ['css/charset-not-utf8', 'error'],
    ],
  );
  for (const rule of CSS_RULES) {
    assert.ok(rule.title.length > 0 && !rule.title.endsWith('.'), rule.id);
    assert.ok(rule.ref.length > 0 && rule.hint.length > 0, rule.id);
  }
});

test('css catalogue: every rule is exercised by a row above', () => {
  const used = new Set(ROWS.flatMap(([, , expected]) => expected.map(([rule]) => rule)));
  used.add('css/invalid-utf8'); // checkStylesheet tests
  used.add('css/charset-not-utf8'); // the @charset test
  assert.deepEqual(CSS_RULES.map((r) => r.id).filter((id) => !used.has(id)), []);
});
