// The manifest check (src/validator/manifest.ts): one table row per rule and boundary,
// asserting rule ids and pointers (and line/column where the row is about location).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateManifest } from '../../build/validator/manifest.js';
import { exactJsonInteger } from '../../build/validator/json.js';
import { FindingList } from '../../build/validator/findings.js';
import { ruleById } from '../../build/validator/rules.js';
import { MANIFEST_RULES } from '../../build/validator/catalogue/manifest-rules.js';
import { CAPABILITIES, CAPABILITY_KEYS, isCapabilityKey, capabilityByKey, suggestCapabilities, capabilityKeyHint } from '../../build/validator/capabilities.js';
import { MANIFEST_MAX_BYTES, MAX_CAPABILITIES, MAX_PROPERTIES, NAME_MAX_BYTES, DESCRIPTION_MAX_BYTES, ENTRYPOINT_MAX_CHARS } from '../../build/validator/limits.js';

const encode = (text) => new TextEncoder().encode(text);

function base() {
  return {
    schema_version: 1,
    protocol_version: 1,
    namespace: 'acme/hello-world',
    version: '1.0.0',
    name: 'Hello world',
    description: 'Says hello.',
    entrypoint: 'index.html',
    capabilities: ['catalog.products.read'],
    properties: { headline: { type: 'text', label: 'Headline', default: 'Hello' } },
  };
}

/** Runs the check on an object (pretty-printed) or on raw text/bytes. */
function run(input, file) {
  const findings = new FindingList();
  const bytes = input instanceof Uint8Array ? input : encode(typeof input === 'string' ? input : JSON.stringify(input, null, 2));
  const info = file === undefined ? validateManifest(bytes, findings) : validateManifest(bytes, findings, file);
  return { info, findings: findings.items };
}

/** `rule pointer` pairs, sorted, for exact comparison. */
function pairs(findings) {
  return findings.map((f) => `${f.rule} ${f.pointer}`).sort();
}

function withField(name, value) {
  const m = base();
  if (value === undefined) delete m[name];
  else m[name] = value;
  return m;
}

test('the base manifest passes and the info carries every field', () => {
  const { info, findings } = run(base());
  assert.deepEqual(findings, []);
  assert.equal(info.namespace, 'acme/hello-world');
  assert.equal(info.version, '1.0.0');
  assert.equal(info.name, 'Hello world');
  assert.equal(info.description, 'Says hello.');
  assert.equal(info.entrypoint, 'index.html');
  assert.deepEqual(info.capabilities, ['catalog.products.read']);
  assert.deepEqual(info.properties, [{ name: 'headline', type: 'text', label: 'Headline', required: false, default: 'Hello' }]);
});

test('every finding is catalogued with severity error, file, pointer, line and column', () => {
  const { findings } = run('{"$schema":"x","capabilities":["nope"],"properties":[]}', 'ext/manifest.json');
  assert.ok(findings.length >= 3);
  for (const f of findings) {
    assert.equal(f.severity, 'error');
    assert.equal(f.file, 'ext/manifest.json');
    assert.equal(typeof f.pointer, 'string');
    assert.ok(f.line >= 1 && f.column >= 1, JSON.stringify(f));
  }
  for (const rule of MANIFEST_RULES) {
    assert.match(rule.id, /^manifest\/[a-z0-9-]+$/);
    assert.equal(ruleById(rule.id), rule);
    assert.ok(!rule.title.endsWith('.'), rule.id);
  }
});

test('size (D-5): 65,536 bytes is read, 65,537 is refused unparsed', () => {
  const text = JSON.stringify(base());
  const at = text + ' '.repeat(MANIFEST_MAX_BYTES - text.length);
  assert.equal(encode(at).length, 65_536);
  assert.deepEqual(run(at).findings, []);
  const over = run(at + ' ');
  assert.deepEqual(pairs(over.findings), ['manifest/too-large ']);
  assert.equal(over.info, null);
  assert.deepEqual([over.findings[0].line, over.findings[0].column], [1, 1]);
  // A too-large manifest is not parsed: broken JSON gives only the size finding.
  assert.deepEqual(pairs(run('{' + ' '.repeat(MANIFEST_MAX_BYTES)).findings), ['manifest/too-large ']);
  // Multi-byte characters count as bytes: 65,536 bytes of which most are 3-byte characters.
  const prefix = '{"schema_version":1,"protocol_version":1,"namespace":"a/b","version":"1.0.0","name":"n","entrypoint":"index.html","capabilities":[],"properties":{},"description":"';
  const fill = MANIFEST_MAX_BYTES - encode(prefix + '"}').length;
  const wide = prefix + '\u20ac'.repeat(Math.floor(fill / 3)) + 'x'.repeat(fill % 3) + '"}';
  assert.equal(encode(wide).length, MANIFEST_MAX_BYTES);
  assert.deepEqual(pairs(run(wide).findings), ['manifest/description-length /description'], 'read (only the description is too long)');
  assert.deepEqual(pairs(run(wide.replace('x', 'xx') + '').findings), ['manifest/too-large ']);
});

test('bytes and syntax (D-5): UTF-8, BOM, JSON, duplicates, with line and column', () => {
  const rows = [
    // [what, bytes or text, expected rule, line, column, pointer]
    ['invalid UTF-8 on line 2', Uint8Array.from([...encode('{\n  "name": "ab'), 0xff, ...encode('"}')]), 'manifest/invalid-utf8', 2, 14, ''],
    ['overlong sequence first', Uint8Array.from([0xc0, 0xaf]), 'manifest/invalid-utf8', 1, 1, ''],
    ['invalid UTF-8 after multi-byte characters', Uint8Array.from([...encode('{"é€😀'), 0x80]), 'manifest/invalid-utf8', 1, 7, ''],
    ['BOM', Uint8Array.from([0xef, 0xbb, 0xbf, ...encode(JSON.stringify(base()))]), 'manifest/bom', 1, 1, ''],
    ['trailing comma', '{\n  "a": 1,\n}', 'manifest/invalid-json', 3, 1, ''],
    ['comment', '{\n  // no\n}', 'manifest/invalid-json', 2, 3, ''],
    ['empty file', '', 'manifest/invalid-json', 1, 1, ''],
    ['lone surrogate escape', '{"name":"\\ud800"}', 'manifest/invalid-json', 1, 10, ''],
    ['number overflow', '{"schema_version":1e999}', 'manifest/invalid-json', 1, 19, ''],
    ['nesting deeper than 64', '{"properties":' + '['.repeat(64) + ']'.repeat(64) + '}', 'manifest/invalid-json', 1, 78, ''], // the 64th "[" is depth 65
    ['duplicate top-level key', '{\n  "name": "a",\n  "name": "b"\n}', 'manifest/duplicate-key', 3, 3, '/name'],
    ['duplicate after escape decoding', '{"name":"a","n\\u0061me":"b"}', 'manifest/duplicate-key', 1, 13, '/name'],
    ['duplicate deep inside properties', '{"properties":{"p":{"type":"text","options":[{"value":"a","value":"b"}]}}}', 'manifest/duplicate-key', 1, 59, '/properties/p/options/0/value'],
  ];
  for (const [what, input, rule, line, column, pointer] of rows) {
    const { info, findings } = run(input);
    assert.equal(info, null, what);
    assert.equal(findings.length, 1, what);
    assert.deepEqual([findings[0].rule, findings[0].line, findings[0].column, findings[0].pointer], [rule, line, column, pointer], what);
  }
});

test('the top-level value must be an object', () => {
  for (const text of ['[]', '"x"', '1', 'null', 'true']) {
    const { info, findings } = run(text);
    assert.equal(info, null);
    assert.deepEqual(pairs(findings), ['manifest/not-object '], text);
  }
  const { findings } = run('\n  []');
  assert.deepEqual([findings[0].line, findings[0].column], [2, 3]);
});

test('unknown fields, including $schema, are refused at the key', () => {
  const m = { $schema: 'https://example.com/s.json', ...base(), Name: 'x', extra: null };
  const { info, findings } = run(m);
  assert.deepEqual(pairs(findings), ['manifest/unknown-field /$schema', 'manifest/unknown-field /Name', 'manifest/unknown-field /extra']);
  assert.deepEqual([findings[0].line, findings[0].column], [2, 3], 'the key, not the value');
  assert.notEqual(info, null, 'the rest is still read');
  assert.deepEqual(pairs(run({ ...base(), 'a/b~c': 1 }).findings), ['manifest/unknown-field /a~1b~0c'], 'RFC 6901 escaping');
});

test('missing required fields are each reported at the root; description is optional', () => {
  for (const name of ['schema_version', 'protocol_version', 'namespace', 'version', 'name', 'entrypoint', 'capabilities', 'properties']) {
    const { findings } = run(withField(name, undefined));
    assert.deepEqual(pairs(findings), ['manifest/missing-field '], name);
    assert.deepEqual([findings[0].line, findings[0].column], [1, 1], name);
  }
  assert.deepEqual(run(withField('description', undefined)).findings, []);
  assert.equal(run('{}').findings.length, 8, 'all eight at once');
});

test('wrong JSON types', () => {
  const rows = [
    ['schema_version', '1'], ['schema_version', true], ['protocol_version', null], ['protocol_version', [1]],
    ['namespace', 1], ['version', 1], ['name', ['x']], ['description', null], ['entrypoint', {}],
    ['capabilities', 'cart.manage'], ['capabilities', {}], ['properties', []], ['properties', null],
  ];
  for (const [name, value] of rows) {
    assert.deepEqual(pairs(run(withField(name, value)).findings), [`manifest/wrong-type /${name}`], `${name} = ${JSON.stringify(value)}`);
  }
});

test('schema_version and protocol_version (D-39): every spelling of the integer 1, nothing else', () => {
  const text = JSON.stringify(base());
  const bad = ['manifest/schema-version /schema_version'];
  const rows = [
    ['1', []],
    ['1.0', []],
    ['1.000', []],
    ['1e0', []],
    ['1E0', []],
    ['1e+0', []],
    ['1e-0', []],
    ['10e-1', []],
    ['100E-2', []],
    ['0.1e1', []],
    ['0.01e+2', []],
    ['1.00000000000000001', bad],
    ['0.99999999999999999', bad],
    ['1.5', bad],
    ['15e-1', bad],
    ['1e1', bad],
    ['0.1', bad],
    ['2', bad],
    ['2.0', bad],
    ['0', bad],
    ['-0.0', bad],
    ['-1', bad],
    ['-1.0e0', bad],
  ];
  for (const [spelled, expected] of rows) {
    assert.deepEqual(pairs(run(text.replace('"schema_version":1', `"schema_version":${spelled}`)).findings), expected, `schema_version ${spelled}`);
    const protocol = expected.map((p) => p.replaceAll('schema', 'protocol'));
    assert.deepEqual(pairs(run(text.replace('"protocol_version":1', `"protocol_version":${spelled}`)).findings), protocol, `protocol_version ${spelled}`);
  }
});

test('exactJsonInteger: the exact decimal value of the text, not the rounded double', () => {
  const rows = [
    ['1', 1], ['1.0', 1], ['10e-1', 1], ['0.1e1', 1], ['-0.0', 0], ['0e999999999', 0], ['-2e0', -2], ['42.000e+1', 420],
    ['9007199254740991', 9007199254740991], ['9.007199254740991e15', 9007199254740991],
    ['9007199254740992', undefined], ['1e16', undefined], ['1.5', undefined], ['1.00000000000000001', undefined],
    ['1e-1000000', undefined], ['1e1000000', undefined], ['01', undefined], ['1.', undefined], ['.5', undefined], ['+1', undefined], ['', undefined],
  ];
  for (const [text, expected] of rows) assert.equal(exactJsonInteger(text), expected, text);
});

test('namespace and version grammar', () => {
  const rows = [
    ['namespace', 'a/b', []],
    ['namespace', 'a1/b-2', []],
    ['namespace', 'Acme/x', ['manifest/namespace /namespace']],
    ['namespace', 'a--b/c', ['manifest/namespace /namespace']],
    ['namespace', 'acme', ['manifest/namespace /namespace']],
    ['version', '1.2.3-rc.1+build.5', []],
    ['version', '9007199254740991.0.0', []],
    ['version', '9007199254740992.0.0', ['manifest/version /version']],
    ['version', 'v1.0.0', ['manifest/version /version']],
    ['version', '1.0', ['manifest/version /version']],
    ['version', '1.0.0/../x', ['manifest/version /version']],
  ];
  for (const [name, value, expected] of rows) {
    const { info, findings } = run(withField(name, value));
    assert.deepEqual(pairs(findings), expected, `${name} ${value}`);
    assert.equal(info[name], expected.length === 0 ? value : undefined, 'only valid values reach the info');
  }
});

test('name 1..120 and description 0..500 UTF-8 bytes (D-10), with multi-byte characters', () => {
  assert.equal(NAME_MAX_BYTES, 120);
  assert.equal(DESCRIPTION_MAX_BYTES, 500);
  const rows = [
    ['name', '', ['manifest/name-length /name']],
    ['name', 'x', []],
    ['name', '\u20ac'.repeat(40), []], // 120 bytes, 40 characters
    ['name', '\u20ac'.repeat(40) + 'x', ['manifest/name-length /name']], // 121 bytes
    ['name', 'x'.repeat(118) + '\u00e9', []], // 120 bytes
    ['name', 'x'.repeat(119) + '\u00e9', ['manifest/name-length /name']], // 121 bytes, 120 characters
    ['name', '😀'.repeat(30), []], // 120 bytes, 60 code units
    ['name', '😀'.repeat(30) + 'x', ['manifest/name-length /name']],
    ['description', '', []],
    ['description', '\u00e9'.repeat(250), []], // 500 bytes
    ['description', '\u00e9'.repeat(250) + 'x', ['manifest/description-length /description']],
    ['description', 'x'.repeat(500), []],
    ['description', 'x'.repeat(501), ['manifest/description-length /description']],
  ];
  for (const [name, value, expected] of rows) {
    assert.deepEqual(pairs(run(withField(name, value)).findings), expected, `${name} of ${value.length} code units`);
  }
});

test('entrypoint: path grammar (D-2), 255 characters (D-10), .html in any case', () => {
  assert.equal(ENTRYPOINT_MAX_CHARS, 255);
  const P = 'manifest/entrypoint-path /entrypoint';
  const L = 'manifest/entrypoint-too-long /entrypoint';
  const H = 'manifest/entrypoint-not-html /entrypoint';
  const rows = [
    ['index.html', []],
    ['INDEX.HTML', []],
    ['pages/main.Html', []],
    ['a-b_c.d.html', []],
    ['runtime/index.html', []], // D-1: relative to runtime/, so this is runtime/runtime/index.html; the bundle check finds it
    ['a'.repeat(250) + '.html', []], // 255 characters
    ['a'.repeat(251) + '.html', [L]], // 256 characters
    ['a/'.repeat(126) + 'b.html', [L]], // 258 characters of valid segments
    ['', [P]],
    ['/index.html', [P]],
    ['a\\index.html', [P]],
    ['index.html?x=1', [P]],
    ['index.html#top', [P]],
    ['./index.html', [P]],
    ['a/../index.html', [P]],
    ['.index.html', [P]],
    ['a//index.html', [P]],
    ['a/', [P, H]],
    ['caf\u00e9.html', [P]],
    ['my page.html', [P]],
    ['index.htm', [H]],
    ['index', [H]],
    ['index.html.js', [H]],
    ['html', [H]],
    ['/' + 'a'.repeat(255) + '.htm', [H, P, L]],
  ];
  for (const [value, expected] of rows) {
    const { info, findings } = run(withField('entrypoint', value));
    assert.deepEqual(pairs(findings), [...expected].sort(), JSON.stringify(value));
    assert.equal(info.entrypoint, expected.length === 0 ? value : undefined);
  }
});

test('capabilities: the nine keys, unique, at most 32 entries', () => {
  assert.equal(MAX_CAPABILITIES, 32);
  const nine = [...CAPABILITY_KEYS];
  const rows = [
    ['none', [], []],
    ['all nine', nine, []],
    ['unknown key', ['cart.manage', 'cart.read'], ['manifest/capability-unknown /capabilities/1']],
    ['wrong case', ['Cart.manage'], ['manifest/capability-unknown /capabilities/0']],
    ['trailing space', ['cart.manage '], ['manifest/capability-unknown /capabilities/0']],
    ['duplicate, reported at the second', ['cart.manage', 'forms.submit', 'cart.manage'], ['manifest/capability-duplicate /capabilities/2']],
    ['non-string entry', ['cart.manage', 7, null], ['manifest/wrong-type /capabilities/1', 'manifest/wrong-type /capabilities/2']],
    ['32 entries (duplicates, but not too many)', Array.from({ length: 32 }, (_, i) => nine[i % 9]), Array.from({ length: 23 }, (_, i) => `manifest/capability-duplicate /capabilities/${i + 9}`)],
  ];
  for (const [what, value, expected] of rows) {
    const { info, findings } = run(withField('capabilities', value));
    assert.deepEqual(pairs(findings), [...expected].sort(), what);
    assert.deepEqual(info.capabilities, [...new Set(value.filter((k) => typeof k === 'string' && isCapabilityKey(k)))], what);
  }
  const thirtyThree = Array.from({ length: 33 }, (_, i) => nine[i % 9]);
  const over = pairs(run(withField('capabilities', thirtyThree)).findings);
  assert.ok(over.includes('manifest/too-many-capabilities /capabilities'));
  assert.equal(over.filter((p) => p.startsWith('manifest/capability-duplicate')).length, 24);
});

test('unknown capability keys: suggested by spelling, else by meaning (the noun, then the verb)', () => {
  const rows = [
    // Spelling first: within two edits.
    ['Cart.manage', ['cart.manage']],
    ['cart.manag', ['cart.manage']],
    ['forms.submt', ['forms.submit']],
    // One key has the noun: the verb does not matter.
    ['cart.write', ['cart.manage']],
    ['cart.add', ['cart.manage']],
    ['cart', ['cart.manage']],
    ['theme.read', ['site.theme.read']],
    ['site.read', ['site.theme.read']],
    ['products.read', ['catalog.products.read']],
    ['catalog.product.list', ['catalog.products.read']],
    ['analytics.track', ['analytics.events.write']],
    ['sms.send', ['communications.sms.open']],
    ['waiver.sign', ['waivers.start']],
    ['form.send', ['forms.submit']],
    // Two keys have the noun: the verb (or one of the key's actions) picks one.
    ['booking.read', ['booking.availability.read']],
    ['booking.start', ['booking.create']],
    ['booking.write', ['booking.availability.read', 'booking.create']],
    // No noun in common: the keys with that verb.
    ['submit', ['forms.submit']],
    ['orders.submit', ['forms.submit']],
    ['user.read', ['booking.availability.read', 'catalog.products.read', 'site.theme.read']],
    // Nothing in common: no suggestion.
    ['location.geo', []],
    ['', []],
    ['...', []],
  ];
  for (const [input, expected] of rows) assert.deepEqual(suggestCapabilities(input), expected, input);
  assert.equal(capabilityKeyHint('cart.write'), 'did you mean "cart.manage"?');
  assert.match(capabilityKeyHint('booking.write'), /^did you mean one of "booking\.availability\.read", "booking\.create"\?$/);
  assert.ok(CAPABILITY_KEYS.every((key) => capabilityKeyHint('location.geo').includes(key)), 'no suggestion: every key is listed');
  for (const key of CAPABILITY_KEYS) assert.deepEqual(suggestCapabilities(key), [key], `a known key suggests itself: ${key}`);
  // The manifest's message carries the suggestion, not the list of nine.
  const [finding] = run(withField('capabilities', ['cart.write'])).findings;
  assert.equal(finding.rule, 'manifest/capability-unknown');
  assert.ok(finding.message.includes('"cart.manage"') && !finding.message.includes('forms.submit'), finding.message);
});

test('capability table: nine frozen entries with risk, method and actions', () => {
  assert.equal(CAPABILITIES.length, 9);
  assert.ok(Object.isFrozen(CAPABILITIES) && CAPABILITIES.every((c) => Object.isFrozen(c) && Object.isFrozen(c.actions)));
  assert.deepEqual(capabilityByKey('cart.manage'), { key: 'cart.manage', risk: 'medium', method: 'PLATFORM.cart.manage', actions: ['add', 'remove', 'update'] });
  assert.deepEqual(CAPABILITIES.filter((c) => c.risk === 'medium').map((c) => c.key), ['booking.create', 'cart.manage', 'forms.submit', 'waivers.start']);
  assert.equal(capabilityByKey('site.theme.read').method, 'PLATFORM.theme.read');
  assert.equal(isCapabilityKey('toString'), false, 'no prototype keys');
  assert.equal(isCapabilityKey('__proto__'), false);
});

test('properties: up to 64 definitions', () => {
  assert.equal(MAX_PROPERTIES, 64);
  const props = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'boolean', label: 'P' }]));
  assert.deepEqual(run(withField('properties', {})).findings, []);
  assert.deepEqual(run(withField('properties', props(64))).findings, []);
  assert.equal(run(withField('properties', props(64))).info.properties.length, 64);
  assert.deepEqual(pairs(run(withField('properties', props(65))).findings), ['manifest/too-many-properties /properties']);
});

test('one pass reports every problem, and the info keeps what was valid', () => {
  const text = [
    '{',
    '  "schema_version": 2,',
    '  "namespace": "Bad",',
    '  "version": "1.0.0",',
    '  "name": "",',
    '  "entrypoint": "index.htm",',
    '  "capabilities": ["x", "cart.manage"],',
    '  "properties": {"Bad": {"type": "text", "label": ""}},',
    '  "$schema": "s"',
    '}',
  ].join('\n');
  const { info, findings } = run(text);
  assert.deepEqual(pairs(findings), [
    'manifest/capability-unknown /capabilities/0',
    'manifest/entrypoint-not-html /entrypoint',
    'manifest/missing-field ',
    'manifest/name-length /name',
    'manifest/namespace /namespace',
    'manifest/schema-version /schema_version',
    'manifest/unknown-field /$schema',
    'property/label-length /properties/Bad/label',
    'property/name /properties/Bad',
  ]);
  const at = (rule) => findings.find((f) => f.rule === rule);
  assert.deepEqual([at('manifest/schema-version').line, at('manifest/schema-version').column], [2, 21]);
  assert.deepEqual([at('manifest/capability-unknown').line, at('manifest/capability-unknown').column], [7, 20]);
  assert.deepEqual([at('property/name').line, at('property/name').column], [8, 18], 'a property name is located at its key');
  assert.deepEqual([at('property/label-length').line, at('property/label-length').column], [8, 51]);
  assert.deepEqual([at('manifest/unknown-field').line, at('manifest/unknown-field').column], [9, 3]);
  assert.equal(info.version, '1.0.0');
  assert.deepEqual(info.capabilities, ['cart.manage']);
  assert.equal(info.namespace, undefined);
  assert.equal(info.properties.length, 1);
});

test('CRLF and CR line ends count as one line break each', () => {
  const { findings } = run('{\r\n"$schema": 1,\r"x": 2\n}');
  assert.deepEqual(findings.filter((f) => f.rule === 'manifest/unknown-field').map((f) => [f.pointer, f.line, f.column]), [['/$schema', 2, 1], ['/x', 3, 1]]);
});

test('D-29a: a tag character outside an emoji tag sequence is an error, another invisible character a warning; what D-29a keeps passes', () => {
  const TAG = 'manifest/tag-character';
  const INVISIBLE = 'manifest/invisible-character';
  assert.equal(ruleById(TAG).severity, 'error');
  assert.equal(ruleById(INVISIBLE).severity, 'warning');
  const tags = (word) => [...word].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
  const scotland = `\u{1F3F4}${tags('gbsct')}\u{E007F}`;
  const rows = [
    ['plain', 'Lane booking', []],
    ['tags spelling a word', `Lane${tags('IGNORE')}`, [TAG]],
    ['one tag (U+E0020, the tag space)', 'Lane\u{E0020}', [TAG]],
    ['U+E0001, the language tag', '\u{E0001}Lane', [TAG]],
    ['a complete emoji tag sequence', `Lanes ${scotland}`, []],
    ['the sequence without its cancel tag', `Lanes \u{1F3F4}${tags('gbsct')}`, [TAG]],
    ['the cancel tag alone', 'Lanes\u{E007F}', [TAG]],
    ['tags after another emoji than the black flag', `Lanes \u{1F3F3}${tags('gbsct')}\u{E007F}`, [TAG]],
    ['zero-width space', 'Lane\u200bbooking', [INVISIBLE]],
    ['soft hyphen', 'Lane\u00adbooking', [INVISIBLE]],
    ['combining grapheme joiner', 'Lane\u034f', [INVISIBLE]],
    ['Hangul fillers', '\u115f\u1160Lane', [INVISIBLE]],
    ['Hangul filler U+3164', '\u3164Lane', [INVISIBLE]],
    ['Khmer inherent vowel', 'Lane\u17b4', [INVISIBLE]],
    ['Mongolian vowel separator', 'Lane\u180e', [INVISIBLE]],
    ['line separator', 'Lane\u2028booking', [INVISIBLE]],
    ['paragraph separator', 'Lane\u2029booking', [INVISIBLE]],
    ['word joiner', 'Lane\u2060booking', [INVISIBLE]],
    ['invisible times', 'a\u2062b', [INVISIBLE]],
    ['byte order mark', '\ufeffLane', [INVISIBLE]],
    ['interlinear annotation anchor', 'Lane\ufff9', [INVISIBLE]],
    ['right-to-left mark (allowed by D-29; a warning under D-29a)', 'Lane \u200f', [INVISIBLE]],
    ['Arabic number sign (a format character)', '\u0600Lane', [INVISIBLE]],
    ['ZWJ inside an emoji', 'Team \u{1F468}\u200d\u{1F469}\u200d\u{1F467}', []],
    ['ZWNJ inside a Persian word', '\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645', []],
    ['VS16 after a heart, then ZWJ and fire', '\u2764\ufe0f\u200d\u{1F525}', []],
    ['an ideographic variation selector after a CJK ideograph', '\u845b\u{E0100}', []],
    ['ZWJ at the start', '\u200dLane', [INVISIBLE]],
    ['ZWJ after a space', 'Lane \u200d', [INVISIBLE]],
    ['two ZWJ in a row', 'a\u200d\u200db', [INVISIBLE]],
    ['two variation selectors after one character', 'e\u{E0100}\u{E0101}', [INVISIBLE]],
    ['a variation selector after a ZWJ', 'a\u200d\ufe0f', [INVISIBLE]],
    ['a tag and a zero-width space', `a${tags('X')}\u200b`, [INVISIBLE, TAG]],
    ['a bidi override is D-29\'s error alone', 'Lane \u202e', ['manifest/control-character']],
  ];
  for (const [what, name, expected] of rows) {
    const { findings } = run({ ...base(), name });
    assert.deepEqual(findings.map((f) => f.rule).sort(), expected, what);
    for (const f of findings) assert.equal(f.pointer, '/name', what);
  }
  // Every string the store shows gets the same check.
  const label = { ...base(), properties: { p: { type: 'select', label: `L${tags('A')}`, help: 'h\u200b', options: [{ label: 'a\u00ad', value: `v${tags('B')}` }], default: `v${tags('B')}` } } };
  assert.deepEqual(pairs(run({ ...label, description: 'x\u2060' }).findings), [
    `${INVISIBLE} /description`,
    `${INVISIBLE} /properties/p/help`,
    `${INVISIBLE} /properties/p/options/0/label`,
    `${TAG} /properties/p/default`,
    `${TAG} /properties/p/label`,
    `${TAG} /properties/p/options/0/value`,
  ]);
});

test('D-29a escaper against Unicode data: what it escapes is never an identifier character of UTS #39; the named characters are always escaped', async () => {
  const { readFileSync } = await import('node:fs');
  const { escapeTerminal, stringifyJson } = await import('../../build/validator/text.js');
  // The host's Unicode properties the escaper is built from exist in every supported Node.js.
  assert.ok(/\p{Default_Ignorable_Code_Point}/u.test('\u3164') && /\p{Cf}/u.test('\u{E0041}'));
  const allowed = new Uint8Array(0x110000);
  const data = readFileSync(new URL('../corpus/unicode-security/IdentifierStatus.txt', import.meta.url), 'utf8');
  for (const line of data.split('\n')) {
    const m = /^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*Allowed\b/.exec(line);
    if (m !== null) allowed.fill(1, parseInt(m[1], 16), parseInt(m[2] ?? m[1], 16) + 1);
  }
  assert.ok(allowed.reduce((n, x) => n + x, 0) > 30_000, 'the Allowed ranges were read');
  const escapedAllowed = [];
  for (let cp = 0; cp < 0x110000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    if (allowed[cp] === 1 && escapeTerminal(`a${c}`) !== `a${c}`) escapedAllowed.push(cp.toString(16));
  }
  assert.deepEqual(escapedAllowed, [], 'identifier characters are shown as they are');
  // D-29a's own list, after a visible character and alone, in text and JSON.
  const named = [0xad, 0x34f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180c, 0x180d, 0x180e, 0x180f, 0x3164, 0x2028, 0x2029, 0xe0000, 0xe0001, 0xe0041, 0xe007f];
  for (const cp of named) {
    const c = String.fromCodePoint(cp);
    assert.equal(escapeTerminal(`a${c}`), `a\\u{${cp.toString(16)}}`, cp.toString(16));
    assert.doesNotMatch(stringifyJson(`a${c}`), /[^\x20-\x7e]/, cp.toString(16));
    assert.equal(JSON.parse(stringifyJson(`a${c}`)), `a${c}`);
  }
});
