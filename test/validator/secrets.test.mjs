// Secret scanning (contract "Property definition": properties are public;
// D-4 keeps `secret/private-key`): access tokens in bundle text files and manifest strings
// (secret/access-token, error), random-looking strings, e-mail addresses and phone numbers
// in property defaults (warnings). Tables test both sides of every boundary; a regular-
// expression oracle written here checks the sampling scanner; real code must give nothing.
//
// No whole token is written in this file: every sample is assembled at run time from a
// split prefix and seeded random characters, so neither this file nor any scanner that
// reads it sees a credential.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  BINARY_EXTENSIONS,
  TEXT_EXTENSIONS,
  checkFileSecrets,
  checkManifestSecrets,
  codeUnitBytes,
  findEmails,
  findHighEntropy,
  findPhones,
  findTokens,
  isSecretScanned,
  shannonEntropy,
} from '../../build/validator/secrets.js';
import { FindingList } from '../../build/validator/findings.js';
import { RULES } from '../../build/validator/rules.js';
import { ALLOWED_EXTENSIONS } from '../../build/validator/limits.js';
import { validateProject } from '../../build/validator/validate.js';
import { loadProject } from '../../build/load/project-loader.js';
import { mutateText, pick, prng } from '../support/fuzz.mjs';
import { BASE_HTML, BASE_MANIFEST, ROOT } from '../support/project.mjs';
import { initScaffold } from '../support/scaffold.mjs';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const ALNUM_ = ALNUM + '_';
const WORD = ALNUM_ + '-';
const HEX = '0123456789abcdef';
const UPPER_DIGIT = UPPER + DIGITS;

const rng = prng(0x5ec7e7);
/** `n` seeded random characters of `alphabet`. */
function rand(n, alphabet = ALNUM) {
  let s = '';
  for (let k = 0; k < n; k++) s += alphabet[Math.floor(rng() * alphabet.length)];
  return s;
}
/** Random characters with every class (upper case, lower case, digits) that `alphabet` has, as real keys have. */
function mixed(n, alphabet = ALNUM) {
  const classes = [/[A-Z]/, /[a-z]/, /[0-9]/].filter((re) => re.test(alphabet));
  for (;;) {
    const s = rand(n, alphabet);
    if (n < classes.length || classes.every((re) => re.test(s))) return s;
  }
}
const b64url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const bytes = (text) => Buffer.from(text, 'utf8');

const RULE_IDS = ['secret/access-token', 'secret/high-entropy-default', 'secret/email-in-default', 'secret/phone-in-default'];

test('the four rules are in the catalogue with their severities; secret/private-key stays', () => {
  const byId = new Map(RULES.map((r) => [r.id, r]));
  assert.equal(byId.get('secret/access-token').severity, 'error');
  assert.equal(byId.get('secret/high-entropy-default').severity, 'warning');
  assert.equal(byId.get('secret/email-in-default').severity, 'warning');
  assert.equal(byId.get('secret/phone-in-default').severity, 'warning');
  assert.equal(byId.get('secret/private-key').severity, 'error');
});

test('every allowed extension is either scanned as text or known as binary, never both', () => {
  for (const ext of ALLOWED_EXTENSIONS) {
    assert.notEqual(TEXT_EXTENSIONS.includes(ext), BINARY_EXTENSIONS.includes(ext), ext);
    assert.equal(isSecretScanned(ext), TEXT_EXTENSIONS.includes(ext), ext);
  }
  assert.deepEqual([...TEXT_EXTENSIONS, ...BINARY_EXTENSIONS].sort(), [...ALLOWED_EXTENSIONS].sort());
});

// ---------------------------------------------------------------------------------
// Token shapes: each row makes a token with a body of `length` (the documented length or
// minimum), a body with one character of the wrong alphabet, and says whether one more
// character still makes a token (minimum lengths) or not (exact lengths).
// ---------------------------------------------------------------------------------

const webhook = (team = 9, channel = 9, secret = 24) =>
  `https://hoo${'ks.slack.com/services/'}T${rand(team - 1, UPPER_DIGIT)}/B${rand(channel - 1, UPPER_DIGIT)}/${mixed(secret)}`;
const jwt = (header = { alg: 'HS256', typ: 'JWT' }, signature = 43) => `${b64url(header)}.${b64url({ sub: '42', name: 'x' })}.${rand(signature, WORD)}`;

const SHAPES = [
  // [kind, prefix, body alphabet, length, exact, a character outside the body alphabet]
  ['github-token', 'gh' + 'p_', ALNUM_, 36, false, '-'],
  ['github-token', 'gh' + 'o_', ALNUM_, 36, false, '-'],
  ['github-token', 'gh' + 'u_', ALNUM_, 36, false, '-'],
  ['github-token', 'gh' + 'r_', ALNUM_, 36, false, '+'],
  ['github-token', 'gh' + 's_', ALNUM_, 36, false, '+'],
  ['github-token', 'github' + '_pat_', ALNUM_, 82, false, '-'],
  ['gitlab-token', 'gl' + 'pat-', WORD, 20, false, '+'],
  ['slack-token', 'xo' + 'xb-', ALNUM + '-', 20, false, '_'],
  ['slack-token', 'xo' + 'xp-', ALNUM + '-', 20, false, '_'],
  ['slack-token', 'xa' + 'pp-', ALNUM + '-', 20, false, '_'],
  ['stripe-secret-key', 'sk' + '_live_', ALNUM, 20, false, '_'],
  ['stripe-secret-key', 'rk' + '_live_', ALNUM, 20, false, '-'],
  ['aws-access-key-id', 'AK' + 'IA', UPPER_DIGIT, 16, true, 'q'],
  ['aws-access-key-id', 'AS' + 'IA', UPPER_DIGIT, 16, true, '_'],
  ['google-api-key', 'AI' + 'za', WORD, 35, true, '.'],
  ['npm-token', 'np' + 'm_', ALNUM, 36, true, '_'],
  ['shopify-token', 'sh' + 'pat_', HEX, 32, false, 'g'],
  ['shopify-token', 'sh' + 'pss_', HEX, 32, false, 'x'],
];

function tokenOf([, prefix, alphabet, length]) {
  // Slack bodies start with a digit group, as real ones do (the shape needs a digit).
  const body = prefix.startsWith('x') ? `${rand(10, DIGITS)}-${mixed(length - 11, alphabet.replace('-', ''))}` : mixed(length, alphabet);
  return prefix + body;
}

/** `rule line:column` of checkFileSecrets on `text`. */
function scanFile(text, file = 'main.js') {
  const findings = new FindingList();
  checkFileSecrets(file, bytes(text), findings);
  return findings.items.map((f) => `${f.rule} ${f.file} ${f.line}:${f.column}`);
}

test('each token shape: found at the documented length, with boundaries on both sides, and not one character short', () => {
  for (const row of SHAPES) {
    const [kind, prefix, alphabet, length, exact, bad] = row;
    const token = tokenOf(row);
    const label = `${kind} ${prefix}`;
    assert.equal(token.length, prefix.length + length, label);
    const at = (text) => findTokens(bytes(text)).map((m) => `${m.kind} ${m.start}-${m.end}`);
    // The length, in a string, alone, at the start and at the end of a file.
    assert.deepEqual(at(`const t = "${token}";`), [`${kind} 11-${11 + token.length}`], label);
    assert.deepEqual(at(token), [`${kind} 0-${token.length}`], `${label} alone`);
    assert.deepEqual(at(`${token}\n`), [`${kind} 0-${token.length}`], `${label} at the start`);
    assert.deepEqual(at(`x = ${token}`), [`${kind} 4-${4 + token.length}`], `${label} at the end`);
    // One character short.
    assert.deepEqual(at(`"${token.slice(0, -1)}"`), [], `${label} one short`);
    // One character long: still a token for minimum lengths, not for exact ones.
    const longer = token + rand(1, alphabet.replace('-', '').replace('_', ''));
    assert.deepEqual(at(`"${longer}"`), exact ? [] : [`${kind} 1-${1 + longer.length}`], `${label} one long`);
    // A character of the wrong alphabet in the middle of the body.
    const middle = prefix.length + Math.floor(length / 2);
    assert.deepEqual(at(`"${token.slice(0, middle)}${bad}${token.slice(middle + 1)}"`), [], `${label} wrong character ${bad}`);
    // Inside a longer word: no boundary before, or a word character right after.
    for (const before of ['x', '0', '_', '-']) assert.deepEqual(at(`"${before}${token}"`), [], `${label} after ${before}`);
    if (exact) for (const after of ['_', '-']) assert.deepEqual(at(`"${token}${after}"`), [], `${label} before ${after}`);
    // Punctuation is a boundary on both sides.
    assert.deepEqual(at(`(${token})`).length, 1, `${label} in parentheses`);
    assert.deepEqual(at(`a.${token}.b`).length, 1, `${label} between dots`);
  }
});

test('AWS documentation sample ids (ending in EXAMPLE) are not reported; publishable Stripe keys and test keys are not secrets here', () => {
  const at = (text) => findTokens(bytes(text)).length;
  assert.equal(at(`"${'AK' + 'IA'}${rand(9, UPPER_DIGIT)}EXAMPLE"`), 0);
  assert.equal(at(`"${'AK' + 'IA'}${rand(9, UPPER_DIGIT)}EXAMPLF"`), 1);
  assert.equal(at(`"${'pk' + '_live_'}${mixed(24)}"`), 0);
  assert.equal(at(`"${'sk' + '_test_'}${mixed(24)}"`), 0);
  assert.equal(at(`"${'sk' + '_live_'}${mixed(24)}"`), 1);
});

test('GitHub ghs_ tokens of the newer format go on through "." and "-" parts; GitLab routable tokens through "." parts; a trailing period is not part of a token', () => {
  const ghs = `${'gh' + 's_'}${rand(36, ALNUM_)}.${rand(20, WORD)}-${rand(5)}`;
  assert.deepEqual(findTokens(bytes(`"${ghs}"`)).map((m) => [m.kind, m.end - m.start]), [['github-token', ghs.length]]);
  const glpat = `${'gl' + 'pat-'}${rand(27, WORD)}.01.${rand(9, ALNUM)}`;
  assert.deepEqual(findTokens(bytes(`${glpat}. Next`)).map((m) => [m.kind, m.end - m.start]), [['gitlab-token', glpat.length]]);
  // The first part must have the minimum itself: "glpat-" and a short part then dots is no token.
  assert.deepEqual(findTokens(bytes(`${'gl' + 'pat-'}${rand(19, WORD)}.${rand(30)}`)), []);
  assert.deepEqual(findTokens(bytes(`${'gh' + 'p_'}${rand(35)}.${rand(30)}`)), []);
  // What follows inside a token is not a second token (here the fixed part of a webhook URL).
  const nested = `${'gh' + 's_'}${rand(36)}.${webhook().slice('https://'.length)} `;
  assert.deepEqual(findTokens(bytes(nested)).map((m) => [m.kind, m.start, m.end]), [['github-token', 0, nested.indexOf('/')]]);
});

test('SendGrid keys: exactly 22 and 43 characters after "SG."', () => {
  const make = (a, b) => `${'S' + 'G.'}${rand(a, WORD)}.${rand(b, WORD)}`;
  const at = (text) => findTokens(bytes(text)).map((m) => `${m.kind} ${m.start}-${m.end}`);
  const key = make(22, 43);
  assert.equal(key.length, 69, 'Twilio SendGrid: API keys are 69 characters long');
  assert.deepEqual(at(`"${key}"`), ['sendgrid-api-key 1-70']);
  assert.deepEqual(at(key), ['sendgrid-api-key 0-69']);
  for (const [a, b] of [[21, 43], [23, 43], [22, 42], [22, 44]]) assert.deepEqual(at(`"${make(a, b)}"`), [], `${a}.${b}`);
  assert.deepEqual(at(`"x${key}"`), [], 'inside a word');
  // The first part may itself begin like another shape: the earlier start wins.
  const tricky = `${'S' + 'G.'}${'gh' + 'p_'}${rand(18, WORD)}.${rand(43, WORD)}`;
  assert.deepEqual(at(tricky), ['sendgrid-api-key 0-69']);
});

test('Slack incoming-webhook URLs: T and B ids of 9 or more characters, a secret of 24 or more', () => {
  const at = (text) => findTokens(bytes(text)).map((m) => `${m.kind} ${m.start}-${m.end}`);
  const url = webhook();
  const start = url.indexOf('hoo');
  assert.deepEqual(at(`fetch("${url}")`), [`slack-webhook ${7 + start}-${7 + url.length}`]);
  assert.deepEqual(at(webhook(9, 9, 23)), [], 'a secret of 23');
  assert.deepEqual(at(webhook(8, 9, 24)), [], 'a team id of 8');
  assert.deepEqual(at(webhook(9, 8, 24)), [], 'a channel id of 8');
  assert.deepEqual(at(webhook(63, 9, 24)).length, 1, 'an id of 63');
  assert.deepEqual(at(webhook(64, 9, 24)), [], 'an id of 64 is not an id');
  assert.deepEqual(at(webhook(9, 9, 24).replace('/services/', '/workflows/')), []);
  assert.deepEqual(at(webhook().replace('https://hoo', 'https://xhoo')), [], 'another host');
});

test('JSON Web Tokens: three base64url parts, a header of 20 or more naming "alg", a signature of 16 or more', () => {
  const at = (text) => findTokens(bytes(text)).map((m) => `${m.kind} ${m.start}-${m.end}`);
  const token = jwt();
  assert.deepEqual(at(`Bearer ${token}`), [`json-web-token 7-${7 + token.length}`]);
  assert.deepEqual(at(`"${jwt(undefined, 16)}"`).length, 1, 'a signature of 16');
  assert.deepEqual(at(`"${jwt(undefined, 15)}"`), [], 'a signature of 15');
  assert.deepEqual(at(`"${jwt({ typ: 'JWT', kid: '1' })}"`), [], 'no "alg" in the header');
  assert.equal(b64url({ alg: 'HS256' }).length, 20);
  assert.deepEqual(at(`"${jwt({ alg: 'HS256' })}"`).length, 1, 'the shortest header of a registered algorithm');
  assert.deepEqual(at(`"${jwt({ alg: 'HS25' })}"`), [], 'a header of 19');
  assert.deepEqual(at(`"${token}.${rand(20, WORD)}"`), [], 'a fourth part');
  assert.deepEqual(at(`${token}. Then`).length, 1, 'a sentence may end after it');
  assert.deepEqual(at(`"${token.replace('.', '')}"`), [], 'two parts');
  // A base64-encoded JSON document (an inline source map) is not a token.
  assert.deepEqual(at(`//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify({ version: 3, sources: ['a.ts'], mappings: 'AAAA' })).toString('base64')}`), []);
});

test('file findings: line and column in UTF-16 code units, LF, CRLF and CR line ends, a byte-order mark, every text extension', () => {
  const token = tokenOf(SHAPES[0]);
  assert.deepEqual(scanFile(`// a\nconst a = 1;\nconst t = "${token}";\n`), ['secret/access-token main.js 3:12']);
  assert.deepEqual(scanFile(`// a\r\nconst a = 1;\r\nconst t = "${token}";\r\n`), ['secret/access-token main.js 3:12']);
  assert.deepEqual(scanFile(`// a\rb\r"${token}"`), ['secret/access-token main.js 3:2']);
  assert.deepEqual(scanFile(`const é = "😀 ${token}"`), ['secret/access-token main.js 1:15'], 'é is one unit, the emoji two');
  assert.deepEqual(scanFile(`\ufeff"${token}"`), ['secret/access-token main.js 1:2'], 'a BOM takes no column');
  assert.deepEqual(scanFile(token), ['secret/access-token main.js 1:1']);
  assert.deepEqual(scanFile(`<p>${token}</p>`, 'index.html'), ['secret/access-token index.html 1:4']);
  assert.deepEqual(scanFile(`a { background: url("x?k=${token}") }`, 'a.css'), ['secret/access-token a.css 1:26']);
});

test('file findings: one per distinct token, at its first place; the message never holds the whole token', () => {
  const a = tokenOf(SHAPES[0]);
  const b = tokenOf(SHAPES[12]);
  const findings = new FindingList();
  checkFileSecrets('m.js', bytes(`"${a}"\n"${b}"\n"${a}"\n"${a}"`), findings);
  assert.deepEqual(findings.items.map((f) => `${f.rule} ${f.line}:${f.column}`), ['secret/access-token 1:2', 'secret/access-token 2:2']);
  for (const f of findings.items) {
    assert.ok(!f.message.includes(a) && !f.message.includes(b), 'redacted');
    assert.ok(!f.message.includes(a.slice(0, 12)) && !f.message.includes(b.slice(0, 12)), 'only the prefix and four characters');
  }
  assert.match(findings.items[0].message, /\b3\b/, 'the count of the repeated token');
});

// ---------------------------------------------------------------------------------
// The project: which files are scanned, and the manifest's strings and defaults.
// ---------------------------------------------------------------------------------

function entry(path, text) {
  const content = typeof text === 'string' ? bytes(text) : text;
  return { path, kind: 'file', size: content.length, content };
}

function secretFindings(result) {
  return result.findings.filter((f) => f.rule.startsWith('secret/')).map((f) => `${f.rule} ${f.file}${f.pointer !== undefined ? ` ${f.pointer}` : ''} ${f.line}:${f.column}`);
}

test('validateProject scans html, css, js and mjs files, not images or fonts, and names them with the bundle prefix', () => {
  const token = tokenOf(SHAPES[10]);
  const files = [
    entry('index.html', BASE_HTML.replace('<body>', `<body>${token}`)),
    entry('main.js', `export const k = "${token}";\n`),
    entry('lib/x.mjs', `"${token}"`),
    entry('style.css', `/* ${token} */`),
    entry('img/a.png', `\x89PNG "${token}"`),
    entry('fonts/a.woff2', `wOF2 "${token}"`),
  ];
  const result = validateProject({ manifest: bytes(JSON.stringify(BASE_MANIFEST)), files }, { bundlePrefix: 'runtime/' });
  const col = BASE_HTML.indexOf('<body>') + '<body>'.length + 1;
  assert.deepEqual(secretFindings(result), [
    `secret/access-token runtime/index.html 1:${col}`,
    'secret/access-token runtime/lib/x.mjs 1:2',
    'secret/access-token runtime/main.js 1:19',
    'secret/access-token runtime/style.css 1:4',
  ]);
  assert.ok(result.errors >= 4);
});

/** A manifest text with these properties (pretty-printed, so strings have distinct lines). */
function manifestWith(properties, extra = {}) {
  return JSON.stringify({ ...BASE_MANIFEST, ...extra, properties }, null, 2);
}

/** `rule pointer line:column` of the secret findings of a manifest. */
function scanManifest(text) {
  const findings = new FindingList();
  checkManifestSecrets(bytes(text), findings);
  return findings.items.map((f) => `${f.rule} ${f.pointer} ${f.line}:${f.column}`);
}

/** Line and column (1-based) where `needle` starts in `text`. */
function place(text, needle) {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `${line}:${at - before.lastIndexOf('\n')}`;
}

test('manifest: a token in any string is an error at that string: default, label, help, option, description', () => {
  const token = tokenOf(SHAPES[16]);
  const text = manifestWith(
    {
      key: { type: 'text', label: 'Key', default: `k=${token}` },
      name_tag: { type: 'text', label: `Label ${token}x` },
      help_tag: { type: 'text', label: 'Help', help: `see ${token}` },
      layout: { type: 'select', label: 'Layout', default: 'grid', options: [{ label: 'Grid', value: 'grid' }, { label: 'Row', value: token }] },
    },
    { description: `Token ${token}` },
  );
  assert.deepEqual(scanManifest(text).sort(), [
    `secret/access-token /description ${place(text, `"Token ${token}"`)}`,
    `secret/access-token /properties/help_tag/help ${place(text, `"see ${token}"`)}`,
    `secret/access-token /properties/key/default ${place(text, `"k=${token}"`)}`,
    `secret/access-token /properties/layout/options/1/value ${place(text, `"${token}"`)}`,
  ].sort(), 'the label has a word character right after the token: no boundary, no finding');
});

test('manifest: pointers escape "~" and "/" (RFC 6901), and the scan is part of validateProject', () => {
  const email = 'jane.doe@acme-shop.com';
  const text = manifestWith({ contact: { type: 'text', label: 'Contact', default: email } });
  const result = validateProject({ manifest: bytes(text), files: [entry('index.html', BASE_HTML), entry('main.js', 'export {};')] });
  assert.deepEqual(secretFindings(result), [`secret/email-in-default manifest.json /properties/contact/default ${place(text, `"${email}"`)}`]);
  assert.equal(result.errors, 0);
  assert.equal(result.warnings, 1);
  // A manifest that cannot be read is not scanned (manifest/invalid-json says why).
  assert.deepEqual(scanManifest('{"properties": {"a": {"default": "x@y.co"'), []);
  assert.deepEqual(scanManifest('[]'), []);
});

test('defaults: e-mail addresses (a warning), but not reserved example domains, scoped names, versions or labels', () => {
  const rows = [
    ['jane.doe@acme-shop.com', 1],
    ['Write to sales+eu@shop.co.uk.', 1],
    ['a@b.io, c@d.io', 1],
    ['JANE@ACME.COM', 1],
    ['you@example.com', 0],
    ['you@mail.example.org', 0],
    ['you@shop.test', 0],
    ['you@shop.invalid', 0],
    ['@acme/widgets', 0],
    ['react@18.2.0', 0],
    ['user@localhost', 0],
    ['a@b', 0],
    ['a@b.c', 0],
    ['a@-b.com', 0],
    ['.@b.com', 0],
    ['@media screen', 0],
    ['no address here', 0],
  ];
  for (const [value, count] of rows) {
    const text = manifestWith({ contact: { type: 'text', label: 'Contact', default: value } });
    const expected = count === 0 ? [] : [`secret/email-in-default /properties/contact/default ${place(text, JSON.stringify(value))}`];
    assert.deepEqual(scanManifest(text), expected, value);
  }
  // Only defaults: the same address in a label or help text is the publisher's own words.
  assert.deepEqual(scanManifest(manifestWith({ contact: { type: 'text', label: 'jane.doe@acme-shop.com', help: 'Mail jane.doe@acme-shop.com' } })), []);
  assert.deepEqual(findEmails('x jane@acme.io y'), [{ start: 2, end: 14 }]);
});

test('defaults: phone numbers (a warning), but not dates, times, prices, versions, colors, ids or IP addresses', () => {
  const rows = [
    ['+44 20 7946 0958', true],
    ['+1 (555) 123-4567', true],
    ['+44 (0)20 7946 0958', true],
    ['+15551234567', true],
    ['+1234567', false], // 7 digits
    ['+12345678', true], // 8 digits
    ['+123456789012345', true], // 15 digits
    ['+1234567890123456', false], // 16 digits
    ['+0 555 123 4567', false], // a country code never starts with 0
    ['Call +33 1 23 45 67 89 today', true],
    ['(555) 123-4567', true],
    ['555-123-4567', true],
    ['555.123.4567', true],
    ['020 7946 0958', true],
    ['06 12 34 56 78', true],
    ['555-123-456', false], // 9 digits
    ['0555-123-45678', false], // 12 digits
    ['5551234567', false], // no groups
    ['2024-01-15', false],
    ['2024-01-15 12:30', false],
    ['01.02.2024 12:30', false],
    ['1 299 000', false],
    ['1.2.3', false],
    ['10.11.12.13', false],
    ['192.168.100.200', false],
    ['v1.0.0+20130313144700', false],
    ['#0f766e', false],
    ['ISBN 978-3-16-148410-0', false],
    ['order 555-123-4567x', false],
    ['555-123-4567.89', false],
    ['id-555-123-4567', false],
    ['Opening hours 9-17', false],
  ];
  for (const [value, found] of rows) {
    const text = manifestWith({ phone: { type: 'textarea', label: 'Phone', default: value } });
    const expected = found ? [`secret/phone-in-default /properties/phone/default ${place(text, JSON.stringify(value))}`] : [];
    assert.deepEqual(scanManifest(text), expected, value);
  }
  // Not in url and image defaults (digits there are ids), nor in labels.
  assert.deepEqual(scanManifest(manifestWith({ link: { type: 'url', label: 'Link', default: 'https://shop.example/p/555-123-4567' } })), []);
  assert.deepEqual(scanManifest(manifestWith({ phone: { type: 'text', label: '+44 20 7946 0958' } })), []);
});

test('defaults: long random-looking strings (a warning); boundaries of length, hex, case mix and words', () => {
  const key = mixed(32);
  const rows = [
    [key, 'text', true],
    [mixed(31), 'text', false],
    [`api key: ${key}`, 'textarea', true],
    [rand(32, HEX), 'text', true],
    ['0'.repeat(32), 'text', false],
    [rand(31, HEX), 'text', false],
    ['550e8400-e29b-41d4-a716-446655440000', 'text', false], // a UUID
    ['ThisIsAVeryLongCamelCaseIdentifierName2', 'text', false],
    ['/Products/Summer-Sale-2024/Banner-Image-Large', 'text', false],
    ['Free shipping on all orders over 50 euros this week', 'textarea', false],
    [rand(40, UPPER + LOWER), 'text', false], // no digits
    [key, 'select', true],
    [`https://cdn.shop.example/img/${rand(32, HEX)}.png`, 'image', false], // a content hash in the path
    [`https://cdn.shop.example/img/a.png?sig=${key}`, 'image', true],
    [`https://shop.example/p#${key}`, 'url', true],
  ];
  for (const [value, type, found] of rows) {
    const def = type === 'select' ? { type, label: 'X', default: value, options: [{ label: 'K', value }] } : { type, label: 'X', default: value };
    const text = manifestWith({ x: def });
    const expected = found ? [`secret/high-entropy-default /properties/x/default ${place(text, JSON.stringify(value))}`] : [];
    assert.deepEqual(scanManifest(text), expected, `${type} ${value}`);
  }
  // A token is reported as a token, not a second time as a random string.
  const token = tokenOf(SHAPES[10]);
  assert.deepEqual(scanManifest(manifestWith({ x: { type: 'text', label: 'X', default: token } })).map((f) => f.split(' ')[0]), ['secret/access-token']);
  // Colors, numbers and booleans are never judged.
  assert.deepEqual(scanManifest(manifestWith({ c: { type: 'color', label: 'C', default: '#0f766e' }, n: { type: 'number', label: 'N', default: 5551234567 } })), []);
});

test('the random-string test finds at least 95 of 100 seeded random keys of 32 characters, and no word-like text', () => {
  const local = prng(99);
  const draw = (n, alphabet) => Array.from({ length: n }, () => alphabet[Math.floor(local() * alphabet.length)]).join('');
  for (const alphabet of [ALNUM, ALNUM + '+/', HEX]) {
    let hits = 0;
    for (let k = 0; k < 1000; k++) if (findHighEntropy(draw(32, alphabet)).length === 1) hits++;
    assert.ok(hits >= 950, `${alphabet.length} symbols: ${hits} of 1000`);
  }
  const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`)];
  const words = docs.flatMap((rel) => readFileSync(join(ROOT, rel), 'utf8').match(/[A-Za-z0-9+/_-]{32,}/g) ?? []);
  const flagged = words.filter((w) => !/^[0-9a-f]+$/i.test(w) && findHighEntropy(w).length > 0);
  assert.deepEqual(flagged, [], 'words and paths of README.md and docs/');
  assert.equal(shannonEntropy(''), 0);
  assert.equal(shannonEntropy('aaaa'), 0);
  assert.equal(shannonEntropy('abcd'), 2);
});

// ---------------------------------------------------------------------------------
// The sampling scanner against a plain oracle, real code, fuzzing, a fresh project.
// ---------------------------------------------------------------------------------

const W = 'A-Za-z0-9_-';
/** One sticky expression per shape, from the documented shapes (not from secrets.ts), and a check of the match. */
const ORACLE = [
  ['github-token', new RegExp(`gh[pour]_[A-Za-z0-9_]{36,}(?![${W}])`, 'y')],
  ['github-token', /ghs_[A-Za-z0-9_]{36}[A-Za-z0-9_.-]*/y, (m) => m.replace(/\.+$/, '')],
  ['github-token', new RegExp(`github_pat_[A-Za-z0-9_]{82,}(?![${W}])`, 'y')],
  ['gitlab-token', /glpat-[A-Za-z0-9_-]{20}[A-Za-z0-9_.-]*/y, (m) => m.replace(/\.+$/, '')],
  ['slack-token', new RegExp(`(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]{20,}(?![${W}])`, 'y'), (m) => (/[0-9]/.test(m.slice(5)) ? m : null)],
  ['slack-webhook', new RegExp(`hooks\\.slack\\.com/services/T[A-Z0-9]{8,62}/B[A-Z0-9]{8,62}/[A-Za-z0-9]{24,}(?![${W}])`, 'y')],
  ['stripe-secret-key', new RegExp(`[sr]k_live_[A-Za-z0-9]{20,}(?![${W}])`, 'y')],
  ['shopify-token', new RegExp(`shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32,}(?![${W}])`, 'y')],
  ['aws-access-key-id', new RegExp(`A[KS]IA[A-Z0-9]{16}(?![${W}])`, 'y'), (m) => (m.endsWith('EXAMPLE') ? null : m)],
  ['google-api-key', new RegExp(`AIza[${W}]{35}(?![${W}])`, 'y')],
  ['npm-token', new RegExp(`npm_[A-Za-z0-9]{36}(?![${W}])`, 'y')],
  ['sendgrid-api-key', new RegExp(`SG\\.[${W}]{22}\\.[${W}]{43}(?![${W}])`, 'y')],
  [
    'json-web-token',
    new RegExp(`eyJ[${W}]{17,}\\.eyJ[${W}]*\\.[${W}]{16,}(?![${W}])(?!\\.[${W}])`, 'y'),
    (m) => (Buffer.from(m.split('.')[0].slice(0, 512), 'base64url').toString('latin1').includes('"alg"') ? m : null),
  ],
];

/** Every token by the plain method: at each word start, try each shape; resume after a token. */
function oracle(text) {
  const out = [];
  const isWord = (c) => c !== undefined && /[A-Za-z0-9_-]/.test(c);
  let i = 0;
  while (i < text.length) {
    if (!isWord(text[i]) || isWord(text[i - 1])) {
      i++;
      continue;
    }
    let hit = null;
    for (const [kind, re, accept = (m) => m] of ORACLE) {
      re.lastIndex = i;
      const m = re.exec(text);
      const token = m === null ? null : accept(m[0]);
      if (token !== null) {
        hit = `${kind} ${i}-${i + token.length}`;
        i += token.length;
        break;
      }
    }
    if (hit !== null) out.push(hit);
    else i++;
  }
  return out;
}

const found = (text) => findTokens(Buffer.from(text, 'latin1')).map((m) => `${m.kind} ${m.start}-${m.end}`);

/** Texts made of real tokens, near misses and code, joined by separators. */
function tokenSoup(r, pieces = 12) {
  const parts = [];
  for (let k = 0; k < pieces; k++) {
    const choice = Math.floor(r() * 8);
    if (choice < 3) parts.push(tokenOf(pick(r, SHAPES)));
    else if (choice === 3) parts.push(pick(r, [jwt(), webhook(), `${'S' + 'G.'}${rand(22, WORD)}.${rand(43, WORD)}`]));
    else if (choice === 4) parts.push(tokenOf(pick(r, SHAPES)).slice(0, -Math.ceil(r() * 3)));
    else if (choice === 5) parts.push(rand(Math.floor(r() * 40), WORD + '.'));
    else parts.push(pick(r, ['function f(a){return a.b.c}', 'url(data:image/png;base64,iVBORw0KGgo=)', 'ghp', 'AKIA', 'eyJ', 'SG.', 'hooks.slack.com/services/T']));
    parts.push(pick(r, [' ', '"', '.', '/', '\n', '', '-', '_', '=', ':']));
  }
  return parts.join('');
}

test('the sampling scanner finds exactly what a plain scan of every word start finds (seeded texts of tokens and near misses)', () => {
  const r = prng(7);
  for (let k = 0; k < 1500; k++) {
    const text = tokenSoup(r);
    assert.deepEqual(found(text), oracle(text), JSON.stringify(text));
  }
});

test('fuzz: 10,000 seeded mutations of a file and a manifest: no exception, findings inside the text, the oracle agrees', () => {
  const r = prng(2025);
  const fileSeed = `// lib\nexport const a = "${tokenOf(SHAPES[0])}";\nconst b = '${jwt()}'; // ${webhook()}\n.c{background:url(${tokenOf(SHAPES[13])})}\n`;
  const manifestSeed = manifestWith({
    contact: { type: 'text', label: 'Contact', default: 'jane@acme-shop.com +44 20 7946 0958' },
    key: { type: 'textarea', label: 'Key', default: `${mixed(40)} ${tokenOf(SHAPES[6])}` },
    link: { type: 'url', label: 'Link', default: `https://a.example/?k=${mixed(32)}` },
  });
  const dictionary = ['"', '\\', '\n', '\r\n', '.', '/', '@', '+', '(', ')', '-', '_', 'eyJ', 'SG.', 'AKIA', 'gh' + 'p_', 'glpat-', 'xoxb-', '\u00e9', '\ud83d\ude00', '{', '}', ':', ',', '0', 'Z'];
  for (let k = 0; k < 10_000; k++) {
    const text = mutateText(r, k % 2 === 0 ? fileSeed : manifestSeed, dictionary, 6);
    const data = bytes(text);
    const list = new FindingList();
    checkFileSecrets('f.js', data, list);
    checkManifestSecrets(data, list);
    for (const f of list.items) {
      assert.ok(RULE_IDS.includes(f.rule), f.rule);
      assert.ok(f.line >= 1 && f.column >= 1, `${f.rule} ${f.line}:${f.column}`);
    }
    for (const find of [findEmails, findPhones, findHighEntropy]) {
      let last = 0;
      for (const s of find(text)) {
        assert.ok(s.start >= last && s.end > s.start && s.end <= text.length, `${find.name} ${JSON.stringify(text)}`);
        last = s.end;
      }
    }
    if (k % 5 === 0) {
      const ascii = text.replace(/[^\x00-\x7f]/g, '?');
      assert.deepEqual(found(ascii), oracle(ascii), JSON.stringify(ascii));
    }
  }
});

/** Every file under `dir` whose extension is scanned (a plain walk: recursive readdir needs Node 20.1). */
function textFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...textFiles(path));
    else if (e.isFile() && /\.(?:m?js|css|html)$/.test(e.name)) out.push(path);
  }
  return out;
}

test('no finding in real code: the built validator and CLI, the Playwright bundles, the example project', () => {
  const paths = [
    join(ROOT, 'dist/validator.mjs'),
    join(ROOT, 'dist/platform-ext.mjs'),
    ...textFiles(join(ROOT, 'dist/cli')),
    join(ROOT, 'node_modules/playwright-core/lib/coreBundle.js'),
    join(ROOT, 'node_modules/playwright-core/lib/utilsBundle.js'),
    ...textFiles(join(ROOT, 'node_modules/playwright-core/lib/vite')),
    ...textFiles(join(ROOT, 'build/validator')),
    ...textFiles(join(ROOT, 'examples/hello-world')),
  ];
  let total = 0;
  for (const path of paths) {
    const data = readFileSync(path);
    total += data.length;
    assert.deepEqual(findTokens(data).map((m) => m.kind), [], path);
  }
  assert.ok(total > 8 << 20, `${total} bytes of real code`);
  const example = loadProject(join(ROOT, 'examples/hello-world'));
  assert.deepEqual(secretFindings(validateProject(example.input, { bundlePrefix: 'runtime/' })), []);
});

test('a fresh project from init has no secret findings', (t) => {
  const { dir } = initScaffold(t);
  const project = loadProject(dir);
  const result = validateProject(project.input, { bundlePrefix: 'runtime/' });
  assert.deepEqual(secretFindings(result), []);
  assert.equal(project.keyHits.length, 0);
});

test('strings of the manifest are scanned by UTF-16 code units: characters above U+00FF are boundaries', () => {
  const token = tokenOf(SHAPES[0]);
  assert.deepEqual(findTokens(codeUnitBytes(`€${token}€`)).map((m) => `${m.start}-${m.end}`), [`1-${1 + token.length}`]);
  assert.deepEqual(findTokens(codeUnitBytes(`é${token}`)).length, 1, 'é (U+00E9) is not a word character');
});
