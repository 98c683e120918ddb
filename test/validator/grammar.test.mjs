// Grammar pieces (src/validator/grammar.ts): semantic version against the semver.org
// vectors plus D-24's bound, namespace, property name, color and the D-9 URL rule. Each
// table row says what it proves; both sides of every boundary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isNamespace, isSemver, isPropertyName, isColor, isSlug, isIpv6, urlProblem, URL_PROBLEM_TEXT } from '../../build/validator/grammar.js';
import { SEMVER_MAX_NUMERIC, PROPERTY_NAME_MAX_CHARS, DNS_LABEL_MAX_CHARS, DNS_NAME_MAX_CHARS } from '../../build/validator/limits.js';

const vectors = JSON.parse(readFileSync(new URL('../corpus/semver/semver-vectors.json', import.meta.url), 'utf8'));

// D-24 refuses numeric identifiers above 2^53-1; the official regex has no bound.
const D24_REFUSED_VALID = new Set(['99999999999999999999999.999999999999999999.99999999999999999']);

test('semver.org vectors: valid accepted (bar D-24), invalid and projectExtraInvalid refused', () => {
  let accepted = 0;
  for (const v of vectors.valid) {
    if (D24_REFUSED_VALID.has(v)) assert.equal(isSemver(v), false, `${v} exceeds D-24`);
    else {
      assert.equal(isSemver(v), true, v);
      accepted++;
    }
  }
  for (const v of vectors.invalid) assert.equal(isSemver(v), false, v);
  for (const { input, reason } of vectors.projectExtraInvalid) assert.equal(isSemver(input), false, `${JSON.stringify(input)}: ${reason}`);
  // Agreement with the official regex everywhere the bound does not apply.
  const official = new RegExp(vectors.officialRegexEcmaScript);
  for (const v of [...vectors.valid, ...vectors.invalid]) {
    if (!D24_REFUSED_VALID.has(v)) assert.equal(isSemver(v), official.test(v), v);
  }
  assert.equal(accepted, vectors.valid.length - 1);
  assert.ok(vectors.invalid.length >= 40 && vectors.projectExtraInvalid.length >= 12);
});

test('D-24: 9007199254740991 is the largest numeric identifier, in every numeric position', () => {
  const max = String(SEMVER_MAX_NUMERIC);
  assert.equal(max, '9007199254740991');
  const over = '9007199254740992';
  const far = '10000000000000000'; // 17 digits
  const rows = [
    ['major', (n) => `${n}.0.0`],
    ['minor', (n) => `0.${n}.0`],
    ['patch', (n) => `0.0.${n}`],
    ['pre-release numeric', (n) => `1.0.0-${n}`],
    ['second pre-release numeric', (n) => `1.0.0-rc.${n}`],
  ];
  for (const [where, make] of rows) {
    assert.equal(isSemver(make(max)), true, `${where} = max`);
    assert.equal(isSemver(make(over)), false, `${where} = max + 1`);
    assert.equal(isSemver(make(far)), false, `${where} with 17 digits`);
    assert.equal(isSemver(make('9007199254740993')), false, `${where}: a value Number() rounds down to 2^53`);
  }
  // Alphanumeric pre-release and build identifiers are not numbers: no bound.
  assert.equal(isSemver(`1.0.0-x${over}`), true, 'alphanumeric pre-release');
  assert.equal(isSemver(`1.0.0+${over}`), true, 'build identifiers are not bounded');
  assert.equal(isSemver('1.0.0+007'), true, 'build identifiers have no leading-zero rule');
  assert.equal(isSemver('1.0.0-007'), false, 'numeric pre-release identifiers do');
  assert.equal(isSemver('1.0.0-0'), true, 'zero pre-release');
  assert.equal(isSemver('1.0.0-0a'), true, 'leading zero is fine in an alphanumeric identifier');
});

test('namespace: <publisher-slug>/<package-slug>', () => {
  const rows = [
    ['a/b', true, 'shortest'],
    ['a1/b-2', true, 'digits and a hyphen between groups'],
    ['acme/hello-world', true, 'scaffold example'],
    ['a-b-c/d1-e2', true, 'several groups'],
    ['-a/b', false, 'leading hyphen'],
    ['a-/b', false, 'trailing hyphen in publisher'],
    ['a/b-', false, 'trailing hyphen in package'],
    ['a--b/c', false, 'double hyphen'],
    ['A/b', false, 'upper case'],
    ['a/B', false, 'upper case in package'],
    ['a/b/c', false, 'three parts'],
    ['a/', false, 'empty package'],
    ['/b', false, 'empty publisher'],
    ['ab', false, 'no slash'],
    ['1a/b', false, 'digit first'],
    ['a/1b', false, 'digit first in package'],
    ['a_b/c', false, 'underscore'],
    ['a.b/c', false, 'dot'],
    ['a/b ', false, 'trailing space'],
    ['é/b', false, 'non-ASCII letter'],
    ['', false, 'empty'],
  ];
  for (const [ns, ok, what] of rows) assert.equal(isNamespace(ns), ok, `${ns}: ${what}`);
  assert.equal(isSlug('a-1'), true);
  assert.equal(isSlug('a-'), false);
});

test('property names: lowercase letter first, then letters, digits, underscores; at most 64', () => {
  assert.equal(PROPERTY_NAME_MAX_CHARS, 64);
  const rows = [
    ['a', true, 'one letter'],
    ['headline_Color2', true, 'upper case after the first letter'],
    ['a'.repeat(64), true, '64 characters'],
    ['a'.repeat(65), false, '65 characters'],
    ['A', false, 'upper case first'],
    ['_a', false, 'underscore first'],
    ['1a', false, 'digit first'],
    ['a-b', false, 'hyphen'],
    ['a b', false, 'space'],
    ['', false, 'empty'],
    ['é', false, 'non-ASCII'],
    ['a\n', false, 'trailing newline ($ must not match before it)'],
  ];
  for (const [name, ok, what] of rows) assert.equal(isPropertyName(name), ok, what);
});

test('color: # and six or eight hex digits', () => {
  const rows = [
    ['#000000', true], ['#aBcDeF', true], ['#00000000', true], ['#FFFFFFFF', true],
    ['#fff', false], ['#fffff', false], ['#fffffff', false], ['#fffffffff', false],
    ['000000', false], ['#gggggg', false], ['#00000 ', false], ['', false], ['#000000\n', false],
  ];
  for (const [color, ok] of rows) assert.equal(isColor(color), ok, JSON.stringify(color));
});

test('URL (D-9): every clause, both sides', () => {
  const label63 = 'a'.repeat(DNS_LABEL_MAX_CHARS);
  // Three 63-character labels and dots take 192 characters; the fourth label sets the length.
  const nameOf = (length) => [label63, label63, label63, 'b'.repeat(length - 192)].join('.');
  const host253 = nameOf(DNS_NAME_MAX_CHARS);
  const host254 = nameOf(DNS_NAME_MAX_CHARS + 1);
  assert.equal(host253.length, 253);
  assert.equal(host254.length, 254);
  const rows = [
    // empty and site-relative
    ['', null, 'empty is allowed'],
    ['/', null, 'root'],
    ['/a/b.png?x=1#y', null, 'site-relative with query and fragment'],
    ['/caf\u00e9', null, 'non-ASCII in a path is not forbidden'],
    ['//x', 'protocol-relative', 'two slashes is not site-relative'],
    ['//', 'protocol-relative', 'just two slashes'],
    ['/a b', 'whitespace', 'space'],
    ['/a\tb', 'whitespace', 'tab'],
    ['/a\u00a0b', 'whitespace', 'no-break space'],
    ['/a\u2028b', 'whitespace', 'line separator'],
    ['/a\\b', 'backslash', 'backslash'],
    ['/\\x', 'backslash', 'slash-backslash (a browser reads it as //x)'],
    ['/a\u0000b', 'control-character', 'NUL'],
    ['/a\u007fb', 'control-character', 'DEL'],
    ['/a\u0085b', 'control-character', 'NEL (a C1 control)'],
    ['/a\u0090b', 'control-character', 'C1 control'],
    ['a/b', 'relative', 'document-relative path'],
    ['index.html', 'relative', 'bare file name'],
    ['#x', 'relative', 'fragment only'],
    // schemes
    ['http://example.com', null, 'http'],
    ['https://example.com/', null, 'https'],
    ['HTTPS://X.COM', null, 'scheme and host in upper case'],
    ['hTtP://x.com', null, 'mixed-case scheme'],
    ['javascript:alert(1)', 'scheme', 'javascript'],
    ['ftp://x', 'scheme', 'ftp'],
    ['data:image/png;base64,AAAA', 'scheme', 'data'],
    ['httpx://x', 'scheme', 'a scheme that starts with http'],
    ['http:x', 'authority', 'no //'],
    ['http:/x', 'authority', 'one /'],
    ['http://', 'host', 'no host'],
    ['http://:80', 'host', 'port without host'],
    // credentials
    ['http://user:pass@x', 'credentials', 'user and password'],
    ['http://user@x', 'credentials', 'user only'],
    ['http://x/a@b', null, '@ in a path is not a credential'],
    // DNS names
    ['http://xn--bcher-kva.example/', null, 'punycode label'],
    ['http://localhost/', null, 'single label'],
    ['http://a-b.c/', null, 'inner hyphen'],
    [`http://${label63}.com/`, null, '63-character label'],
    [`http://${label63}a.com/`, 'dns-label', '64-character label'],
    [`http://${host253}/`, null, '253-character name'],
    [`http://${host254}/`, 'dns-name-too-long', '254-character name'],
    ['http://-a.com/', 'dns-label', 'leading hyphen'],
    ['http://a-.com/', 'dns-label', 'trailing hyphen'],
    ['http://a..com/', 'dns-label', 'empty label'],
    ['http://example.com./', 'dns-label', 'trailing dot (empty label)'],
    ['http://a_b.com/', 'dns-label', 'underscore'],
    ['http://b\u00fccher.example/', 'dns-label', 'Unicode host (use the xn-- form)'],
    // IPv4
    ['http://0.0.0.0/', null, 'all zeros'],
    ['http://255.255.255.255/', null, '255 in every part'],
    ['http://1.2.3.256/', 'ipv4', '256 in a part'],
    ['http://256.1.1.1/', 'ipv4', '256 first'],
    ['http://1.2.3/', 'ipv4', 'three parts'],
    ['http://1.2.3.4.5/', 'ipv4', 'five parts'],
    ['http://01.2.3.4/', 'ipv4', 'leading zero (octal to a browser)'],
    ['http://2130706433/', 'ipv4', 'one decimal number (an address to a browser)'],
    ['http://example.0x7f/', 'ipv4', 'hex last label'],
    ['http://example.123/', 'ipv4', 'numeric last label'],
    ['http://1.2.3.4:8080/x', null, 'dotted quad with port'],
    // IPv6
    ['http://[::1]:8080/', null, 'loopback with port'],
    ['http://[::]/', null, 'unspecified'],
    ['http://[2001:db8::1]/', null, 'compressed'],
    ['http://[2001:DB8:0:0:0:0:0:1]/', null, 'eight groups, upper case'],
    ['http://[::ffff:192.0.2.1]/', null, 'embedded IPv4'],
    ['http://[1:2:3:4:5:6:1.2.3.4]/', null, 'six groups and IPv4'],
    ['http://[1:2:3:4:5:6:7:1.2.3.4]/', 'ipv6', 'seven groups and IPv4'],
    ['http://[::ffff:1.2.3.256]/', 'ipv6', 'bad embedded IPv4'],
    ['http://[1.2.3.4::]/', 'ipv6', 'IPv4 before ::'],
    ['http://[1:2:3:4:5:6:7]/', 'ipv6', 'seven groups without ::'],
    ['http://[1:2:3:4:5:6:7:8:9]/', 'ipv6', 'nine groups'],
    ['http://[1:2:3:4:5:6:7::8]/', 'ipv6', ':: standing for no group'],
    ['http://[1::2::3]/', 'ipv6', 'two ::'],
    ['http://[:::]/', 'ipv6', 'three colons'],
    ['http://[12345::]/', 'ipv6', 'five hex digits'],
    ['http://[g::]/', 'ipv6', 'not hex'],
    ['http://[fe80::1%25eth0]/', 'ipv6', 'zone identifier'],
    ['http://[::1/', 'ipv6', 'unclosed bracket'],
    ['http://[]/', 'ipv6', 'empty brackets'],
    ['http://[::1]x/', 'host', 'junk after the bracket'],
    // port
    ['http://x:1/', null, 'one digit'],
    ['http://x:12345/', null, 'five digits'],
    ['http://x:123456/', 'port', 'six digits'],
    ['http://x:/', 'port', 'empty port'],
    ['http://x:8a/', 'port', 'letter in port'],
    ['http://[::1]:/', 'port', 'empty port after IPv6'],
    // path, query, fragment
    ['http://x/a b', 'whitespace', 'space in path'],
    ['http://x/?q=a b', 'whitespace', 'space in query'],
    ['http://x/#a\\b', 'backslash', 'backslash in fragment'],
    ['http://x\\y', 'backslash', 'backslash in authority'],
    ['http://x?q', null, 'query right after host'],
    ['http://x#f', null, 'fragment right after host'],
  ];
  for (const [url, expected, what] of rows) {
    assert.equal(urlProblem(url), expected, `${what}: ${JSON.stringify(url.length > 80 ? url.slice(0, 80) + '...' : url)}`);
    if (expected !== null) assert.equal(typeof URL_PROBLEM_TEXT[expected], 'string');
  }
});

test('isIpv6 on its own (RFC 4291 text forms)', () => {
  for (const ok of ['::', '::1', '1::', '1:2:3:4:5:6:7:8', '1::8', '::1.2.3.4', 'a:b:c:d:e:f:1.2.3.4', 'ABCD::ef01']) assert.equal(isIpv6(ok), true, ok);
  for (const bad of ['', ':', '1', '1:2', ':1::', '1::2:', '1:2:3:4:5:6:7:8:', '::1.2.3', '::01.2.3.4', '1::2::3']) assert.equal(isIpv6(bad), false, bad);
});

// No timing assertion: a quadratic path over these million-character URLs would not finish
// before the test's timeout, which is the guard.
test('long hostile URLs are judged: bad hosts refused, a long path accepted', { timeout: 60_000 }, () => {
  assert.notEqual(urlProblem('http://' + 'a.'.repeat(500_000) + 'com/'), null);
  assert.notEqual(urlProblem('http://[' + '1:'.repeat(500_000) + ']/'), null);
  assert.equal(urlProblem('/' + 'a'.repeat(2_000_000)), null); // a long path alone is no problem
});
