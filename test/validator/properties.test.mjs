// Property definitions, defaults and saved settings (src/validator/properties.ts): one
// table row per rule and boundary (D-6, D-7, D-8, D-9, D-10), asserting rule ids and
// pointers; byte limits are probed with multi-byte characters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateManifest } from '../../build/validator/manifest.js';
import { validateSettings, PROPERTY_TYPES } from '../../build/validator/properties.js';
import { FindingList } from '../../build/validator/findings.js';
import { ruleById } from '../../build/validator/rules.js';
import { PROPERTY_RULES } from '../../build/validator/catalogue/property-rules.js';
import { VALUE_MAX_BYTES, DEFAULTS_MAX_BYTES, SETTINGS_MAX_BYTES, LABEL_MAX_BYTES, HELP_MAX_BYTES, SELECT_OPTIONS_MAX, OPTION_TEXT_MAX_CHARS } from '../../build/validator/limits.js';

const encode = (text) => new TextEncoder().encode(text);
const bytes = (text) => encode(text).length;

function manifestWith(properties) {
  return {
    schema_version: 1,
    protocol_version: 1,
    namespace: 'acme/hello-world',
    version: '1.0.0',
    name: 'Hello',
    entrypoint: 'index.html',
    capabilities: [],
    properties,
  };
}

function check(properties, text) {
  const findings = new FindingList();
  const info = validateManifest(encode(text ?? JSON.stringify(manifestWith(properties), null, 2)), findings);
  return { info, findings: findings.items };
}

const pairs = (findings) => findings.map((f) => `${f.rule} ${f.pointer}`).sort();
/** One property `p`, and what the check says about it. */
const one = (def) => pairs(check({ p: def }).findings);

const opts = (...values) => values.map((value) => ({ label: `L ${value}`, value }));

test('the catalogue: property/ ids, error severity but for the D-40 warning, titles without a period', () => {
  for (const rule of PROPERTY_RULES) {
    assert.match(rule.id, /^property\/[a-z0-9-]+$/);
    assert.equal(ruleById(rule.id), rule);
    assert.equal(rule.severity, rule.id === 'property/option-value-repeated' ? 'warning' : 'error', rule.id);
    assert.ok(!rule.title.endsWith('.') && rule.hint.length > 0, rule.id);
  }
});

test('property names', () => {
  const rows = [
    ['a', []],
    ['headline_Color2', []],
    ['a'.repeat(64), []],
    ['a'.repeat(65), ['property/name /properties/' + 'a'.repeat(65)]],
    ['Bad', ['property/name /properties/Bad']],
    ['_x', ['property/name /properties/_x']],
    ['a-b', ['property/name /properties/a-b']],
    ['a/b', ['property/name /properties/a~1b']],
    ['', ['property/name /properties/']],
  ];
  for (const [name, expected] of rows) assert.deepEqual(pairs(check({ [name]: { type: 'text', label: 'L' } }).findings), expected, name);
});

test('definition shape: object, closed fields, required type and label', () => {
  const rows = [
    ['not an object', 'text', ['property/wrong-type /properties/p']],
    ['array', [], ['property/wrong-type /properties/p']],
    ['unknown field', { type: 'text', label: 'L', placeholder: 'x' }, ['property/unknown-field /properties/p/placeholder']],
    ['$schema-like field', { type: 'text', label: 'L', $comment: 'x' }, ['property/unknown-field /properties/p/$comment']],
    ['missing type', { label: 'L' }, ['property/missing-field /properties/p']],
    ['missing label', { type: 'text' }, ['property/missing-field /properties/p']],
    ['missing both', {}, ['property/missing-field /properties/p', 'property/missing-field /properties/p']],
    ['type not a string', { type: 1, label: 'L' }, ['property/wrong-type /properties/p/type']],
    ['unknown type', { type: 'string', label: 'L' }, ['property/unknown-type /properties/p/type']],
    ['type in wrong case', { type: 'Text', label: 'L' }, ['property/unknown-type /properties/p/type']],
    ['label not a string', { type: 'text', label: 5 }, ['property/wrong-type /properties/p/label']],
    ['help not a string', { type: 'text', label: 'L', help: null }, ['property/wrong-type /properties/p/help']],
    ['required not a boolean', { type: 'text', label: 'L', required: 'yes' }, ['property/wrong-type /properties/p/required']],
  ];
  for (const [what, def, expected] of rows) assert.deepEqual(one(def), expected, what);
  for (const type of PROPERTY_TYPES) {
    const def = { type, label: 'L', ...(type === 'select' ? { options: opts('a') } : {}) };
    assert.deepEqual(one(def), [], `every type is accepted: ${type}`);
  }
});

test('label 1..100 and help 0..300 UTF-8 bytes (D-10)', () => {
  assert.equal(LABEL_MAX_BYTES, 100);
  assert.equal(HELP_MAX_BYTES, 300);
  const L = ['property/label-length /properties/p/label'];
  const H = ['property/help-length /properties/p/help'];
  const rows = [
    ['empty label', { label: '' }, L],
    ['100-byte label of 2-byte characters', { label: '\u00e9'.repeat(50) }, []],
    ['101-byte label', { label: '\u00e9'.repeat(50) + 'x' }, L],
    ['100-byte label of 4-byte characters', { label: '😀'.repeat(25) }, []],
    ['100 bytes in 99 code units', { label: 'x'.repeat(98) + '\u00e9' }, []],
    ['101 bytes in 100 code units', { label: 'x'.repeat(99) + '\u00e9' }, L],
    ['empty help', { label: 'L', help: '' }, []],
    ['300-byte help', { label: 'L', help: '\u20ac'.repeat(100) }, []],
    ['301-byte help', { label: 'L', help: '\u20ac'.repeat(100) + 'x' }, H],
  ];
  for (const [what, fields, expected] of rows) assert.deepEqual(one({ type: 'text', ...fields }), expected, what);
});

test('select options: required, 1..100 closed unique objects of 1..100-character strings', () => {
  assert.equal(SELECT_OPTIONS_MAX, 100);
  assert.equal(OPTION_TEXT_MAX_CHARS, 100);
  const O = '/properties/p/options';
  const many = (n) => Array.from({ length: n }, (_, i) => ({ label: `L${i}`, value: `v${i}` }));
  const rows = [
    ['select without options', { type: 'select', label: 'L' }, ['property/options-missing /properties/p']],
    ['options on text', { type: 'text', label: 'L', options: opts('a') }, [`property/options-forbidden ${O}`]],
    ['options on boolean', { type: 'boolean', label: 'L', options: [] }, [`property/options-forbidden ${O}`]],
    ['options not an array', { type: 'select', label: 'L', options: { a: 'a' } }, [`property/wrong-type ${O}`]],
    ['no options', { type: 'select', label: 'L', options: [] }, [`property/options-count ${O}`]],
    ['one option', { type: 'select', label: 'L', options: many(1) }, []],
    ['100 options', { type: 'select', label: 'L', options: many(100) }, []],
    ['101 options', { type: 'select', label: 'L', options: many(101) }, [`property/options-count ${O}`]],
    ['option not an object', { type: 'select', label: 'L', options: ['a'] }, [`property/wrong-type ${O}/0`]],
    ['option without value', { type: 'select', label: 'L', options: [{ label: 'a' }] }, [`property/missing-field ${O}/0`]],
    ['option without label', { type: 'select', label: 'L', options: [{ value: 'a' }] }, [`property/missing-field ${O}/0`]],
    ['option with an extra field', { type: 'select', label: 'L', options: [{ label: 'a', value: 'a', selected: true }] }, [`property/unknown-field ${O}/0/selected`]],
    ['option value not a string', { type: 'select', label: 'L', options: [{ label: 'a', value: 1 }] }, [`property/wrong-type ${O}/0/value`]],
    ['empty option value', { type: 'select', label: 'L', options: [{ label: 'a', value: '' }] }, [`property/option-length ${O}/0/value`]],
    ['empty option label', { type: 'select', label: 'L', options: [{ label: '', value: 'a' }] }, [`property/option-length ${O}/0/label`]],
    ['100-character texts (D-10: code units)', { type: 'select', label: 'L', options: [{ label: '\u00e9'.repeat(100), value: '😀'.repeat(50) }] }, []],
    ['101-character label', { type: 'select', label: 'L', options: [{ label: 'x'.repeat(101), value: 'a' }] }, [`property/option-length ${O}/0/label`]],
    ['51 emoji = 102 code units', { type: 'select', label: 'L', options: [{ label: 'a', value: '😀'.repeat(51) }] }, [`property/option-length ${O}/0/value`]],
    // D-40: identical {label, value} objects are an error; a value under another label a warning.
    ['value repeated under another label: a warning at the second', { type: 'select', label: 'L', options: [{ label: 'a', value: 'x' }, { label: 'b', value: 'x' }] }, [`property/option-value-repeated ${O}/1/value`]],
    ['identical objects: an error at the second', { type: 'select', label: 'L', options: [{ label: 'a', value: 'x' }, { label: 'a', value: 'x' }] }, [`property/option-duplicate ${O}/1`]],
    ['identical objects, fields in another order', { type: 'select', label: 'L', options: [{ label: 'a', value: 'x' }, { value: 'x', label: 'a' }] }, [`property/option-duplicate ${O}/1`]],
    ['labels differing only in case are different objects', { type: 'select', label: 'L', options: [{ label: 'a', value: 'x' }, { label: 'A', value: 'x' }] }, [`property/option-value-repeated ${O}/1/value`]],
    ['three options on one value: the third identical to the first', { type: 'select', label: 'L', options: [{ label: 'a', value: 'x' }, { label: 'b', value: 'x' }, { label: 'a', value: 'x' }] }, [`property/option-duplicate ${O}/2`, `property/option-value-repeated ${O}/1/value`]],
    ['three labels on one value: two warnings', { type: 'select', label: 'L', options: [{ label: 'a', value: 'x' }, { label: 'b', value: 'x' }, { label: 'c', value: 'x' }] }, [`property/option-value-repeated ${O}/1/value`, `property/option-value-repeated ${O}/2/value`]],
    ['same label, different values', { type: 'select', label: 'L', options: [{ label: 'a', value: 'x' }, { label: 'a', value: 'y' }] }, []],
    ['values differing only in case', { type: 'select', label: 'L', options: opts('x', 'X') }, []],
  ];
  for (const [what, def, expected] of rows) assert.deepEqual(one(def), expected, what);
});

test('min and max: number only, numbers, min <= max', () => {
  const rows = [
    ['min and max on number', { type: 'number', label: 'L', min: -1.5, max: 1e6 }, []],
    ['min equals max', { type: 'number', label: 'L', min: 3, max: 3 }, []],
    ['min above max', { type: 'number', label: 'L', min: 3.0001, max: 3 }, ['property/range-inverted /properties/p/min']],
    ['min on text', { type: 'text', label: 'L', min: 1 }, ['property/range-forbidden /properties/p/min']],
    ['max on select', { type: 'select', label: 'L', options: opts('a'), max: 1 }, ['property/range-forbidden /properties/p/max']],
    ['min not a number', { type: 'number', label: 'L', min: '1' }, ['property/wrong-type /properties/p/min']],
    ['max null', { type: 'number', label: 'L', max: null }, ['property/wrong-type /properties/p/max']],
  ];
  for (const [what, def, expected] of rows) assert.deepEqual(one(def), expected, what);
});

test('defaults by type: JSON type, byte size at and over each limit, grammar', () => {
  const D = '/properties/p/default';
  const T = [`property/value-type ${D}`];
  const S = [`property/value-too-large ${D}`];
  const F = [`property/value-format ${D}`];
  // Strings of exactly n UTF-8 bytes made of 3-byte characters (plus ASCII to finish).
  const sized = (n, prefix = '') => prefix + '\u20ac'.repeat(Math.floor((n - prefix.length) / 3)) + 'x'.repeat((n - prefix.length) % 3);
  assert.equal(bytes(sized(500)), 500);
  const rows = [
    ['boolean', true, []], ['boolean', false, []], ['boolean', 'true', T], ['boolean', 0, T], ['boolean', null, T],
    ['number', 0, []], ['number', -2.5e-3, []], ['number', '5', T], ['number', [], T], ['number', {}, T],
    ['color', '#a1B2c3', []], ['color', '#a1B2c3d4', []], ['color', 'red', F], ['color', '#abc', F], ['color', 1, T],
    ['color', '#a1b2c3d4e', [...S, ...F]], // 10 bytes
    ['text', '', []], ['text', sized(VALUE_MAX_BYTES.text), []], ['text', sized(VALUE_MAX_BYTES.text + 1), S], ['text', 5, T],
    ['textarea', '😀'.repeat(1024), []], ['textarea', '😀'.repeat(1024) + 'x', S], ['textarea', sized(4096), []], ['textarea', sized(4097), S],
    ['url', '', []], ['url', '/' + '\u00e9'.repeat(1023) + 'a', []], ['url', '/' + '\u00e9'.repeat(1024), S],
    ['url', 'https://example.com/a', []], ['url', 'javascript:alert(1)', F], ['url', '//evil.example', F], ['url', 'http://u:p@x', F],
    ['url', '/' + 'a'.repeat(2048), S], ['url', 'a b'.repeat(1000), [...S, ...F]],
    ['image', '/img/a.png', []], ['image', 'data:image/png;base64,AAAA', F], ['image', 'https://[::1]:8443/x.png', []], ['image', false, T],
  ];
  assert.equal(VALUE_MAX_BYTES.url, 2048);
  for (const [type, value, expected] of rows) {
    assert.deepEqual(one({ type, label: 'L', default: value }), [...expected].sort(), `${type} ${JSON.stringify(value).slice(0, 40)}`);
  }
});

test('select and number defaults follow options and min/max (D-7)', () => {
  const D = '/properties/p/default';
  const rows = [
    ['select default is an option value', { type: 'select', label: 'L', options: opts('a', 'b'), default: 'b' }, []],
    ['select default is a label, not a value', { type: 'select', label: 'L', options: [{ label: 'Big', value: 'b' }], default: 'Big' }, [`property/value-not-option ${D}`]],
    ['select default in a different case', { type: 'select', label: 'L', options: opts('a'), default: 'A' }, [`property/value-not-option ${D}`]],
    ['select default of 500 bytes, not an option', { type: 'select', label: 'L', options: opts('a'), default: 'x'.repeat(500) }, [`property/value-not-option ${D}`]],
    ['select default of 501 bytes', { type: 'select', label: 'L', options: opts('a'), default: 'x'.repeat(501) }, [`property/value-not-option ${D}`, `property/value-too-large ${D}`]],
    ['select default when options are not an array: only the options finding', { type: 'select', label: 'L', options: 'a', default: 'a' }, ['property/wrong-type /properties/p/options']],
    ['number at min', { type: 'number', label: 'L', min: 0, max: 10, default: 0 }, []],
    ['number at max', { type: 'number', label: 'L', min: 0, max: 10, default: 10 }, []],
    ['number below min', { type: 'number', label: 'L', min: 0, max: 10, default: -0.001 }, [`property/value-out-of-range ${D}`]],
    ['number above max', { type: 'number', label: 'L', min: 0, max: 10, default: 10.5 }, [`property/value-out-of-range ${D}`]],
    ['only min', { type: 'number', label: 'L', min: 5, default: 1e300 }, []],
    ['only min, below', { type: 'number', label: 'L', min: 5, default: 4 }, [`property/value-out-of-range ${D}`]],
    ['only max, above', { type: 'number', label: 'L', max: 5, default: 6 }, [`property/value-out-of-range ${D}`]],
  ];
  for (const [what, def, expected] of rows) assert.deepEqual(one(def), [...expected].sort(), what);
});

test('required (D-8): string types need a non-whitespace default, boolean and number a default', () => {
  const R = ['property/required-default /properties/p'];
  const RD = ['property/required-default /properties/p/default'];
  const rows = [
    ['text with text', { type: 'text', default: 'x' }, []],
    ['text with a padded character', { type: 'text', default: '  x  ' }, []],
    ['text without default', { type: 'text' }, R],
    ['text empty', { type: 'text', default: '' }, RD],
    ['text of whitespace (its tab and line break are control characters: D-29)', { type: 'text', default: ' \t\r\n' }, ['manifest/control-character /properties/p/default', ...RD]],
    ['text of Unicode spaces', { type: 'text', default: '\u00a0\u2003\u3000' }, RD],
    ['textarea blank', { type: 'textarea', default: '\n\n' }, RD],
    ['url empty (valid URL, but blank)', { type: 'url', default: '' }, RD],
    ['image without default', { type: 'image' }, R],
    ['color without default', { type: 'color' }, R],
    ['select without default', { type: 'select', options: opts('a') }, R],
    ['select with a blank option value as default', { type: 'select', options: opts(' '), default: ' ' }, RD],
    ['boolean false is present', { type: 'boolean', default: false }, []],
    ['boolean without default', { type: 'boolean' }, R],
    ['number 0 is present', { type: 'number', default: 0 }, []],
    ['number without default', { type: 'number' }, R],
    ['wrong-type default: only the type finding', { type: 'text', default: 5 }, ['property/value-type /properties/p/default']],
    ['required false needs nothing', { type: 'text', required: false }, []],
  ];
  for (const [what, def, expected] of rows) {
    const required = 'required' in def ? def.required : true;
    assert.deepEqual(one({ label: 'L', ...def, required }), expected, what);
  }
});

test('defaults budget (D-6): 16,384 JSON-encoded bytes of {name: default} is fine, 16,385 is not', () => {
  assert.equal(DEFAULTS_MAX_BYTES, 16_384);
  // Six textarea defaults (each under its own 4,096-byte limit); escapes count as JSON writes them.
  const build = (total) => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const values = names.map(() => '\u20ac'.repeat(900)); // 2,700 bytes each
    values[0] = 'q"\n' + values[0]; // `"` and newline cost 2 bytes each in JSON
    const measure = () => bytes(JSON.stringify(Object.fromEntries(names.map((n, i) => [n, values[i]]))));
    values[5] += 'x'.repeat(total - measure());
    assert.equal(measure(), total);
    return Object.fromEntries(names.map((n, i) => [n, { type: 'textarea', label: 'L', default: values[i] }]));
  };
  assert.deepEqual(pairs(check(build(16_384)).findings), []);
  assert.deepEqual(pairs(check(build(16_385)).findings), ['property/defaults-too-large /properties']);
  // Defaults of every type count, including booleans and numbers, and invalid ones.
  const withNumbers = build(16_384);
  withNumbers.n = { type: 'number', label: 'L' };
  assert.deepEqual(pairs(check(withNumbers).findings), [], 'no default, no cost');
  withNumbers.n.default = 1;
  assert.deepEqual(pairs(check(withNumbers).findings), ['property/defaults-too-large /properties'], '`,"n":1` tips it over');
});

test('line and column of definition findings point at the offending key or value', () => {
  const text = '{"schema_version":1,"protocol_version":1,"namespace":"a/b","version":"1.0.0","name":"n","entrypoint":"index.html","capabilities":[],\n"properties":{\n  "p": {"type": "color", "label": "L", "default": "red", "extra": 1},\n  "q": 5\n}}';
  const { findings } = check(null, text);
  const at = (rule) => {
    const f = findings.find((x) => x.rule === rule);
    return [f.pointer, f.line, f.column];
  };
  assert.deepEqual(at('property/value-format'), ['/properties/p/default', 3, 51]);
  assert.deepEqual(at('property/unknown-field'), ['/properties/p/extra', 3, 58]);
  assert.deepEqual(at('property/wrong-type'), ['/properties/q', 4, 8]);
});

test('the definitions returned: valid type only, and the default only when valid', () => {
  const { info } = check({
    a: { type: 'select', label: 'A', options: opts('x', 'y'), default: 'y', required: true, help: 'H' },
    b: { type: 'number', label: 'B', min: 0, max: 5, default: 9 },
    c: { type: 'nope', label: 'C' },
    d: 'x',
  });
  assert.deepEqual(info.properties, [
    { name: 'a', type: 'select', label: 'A', help: 'H', required: true, options: opts('x', 'y'), default: 'y' },
    { name: 'b', type: 'number', label: 'B', required: false, min: 0, max: 5 },
  ]);
});

// ---------------------------------------------------------------------------------
// Saved settings
// ---------------------------------------------------------------------------------

function definitions() {
  const { info, findings } = check({
    flag: { type: 'boolean', label: 'F' },
    size: { type: 'number', label: 'S', min: 1, max: 10 },
    tint: { type: 'color', label: 'C' },
    pick: { type: 'select', label: 'P', options: opts('a', 'b') },
    title: { type: 'text', label: 'T', required: true, default: 'x' },
    body: { type: 'textarea', label: 'B' },
    link: { type: 'url', label: 'L' },
    logo: { type: 'image', label: 'I' },
  });
  assert.deepEqual(findings, []);
  return info.properties;
}

function settings(values, pointerBase, file) {
  const findings = new FindingList();
  validateSettings(definitions(), values, findings, pointerBase, file);
  return findings.items;
}

test('settings: valid values of every type pass', () => {
  const ok = { flag: false, size: 10, tint: '#000000ff', pick: 'b', title: 'Hi', body: 'a\nb', link: 'https://x.example/', logo: '' };
  assert.deepEqual(settings(ok), []);
  assert.deepEqual(settings({}), [], 'nothing saved');
});

test('settings: unknown names, wrong types and each value rule, with pointers under the base', () => {
  const rows = [
    ['unknown setting', { nope: 1 }, ['property/setting-unknown /nope']],
    ['__proto__ from JSON.parse is just an unknown name', JSON.parse('{"__proto__":1}'), ['property/setting-unknown /__proto__']],
    ['boolean as string', { flag: 'true' }, ['property/value-type /flag']],
    ['NaN', { size: NaN }, ['property/value-type /size']],
    ['Infinity', { size: Infinity }, ['property/value-type /size']],
    ['number below min', { size: 0.5 }, ['property/value-out-of-range /size']],
    ['number at max', { size: 10 }, []],
    ['number above max', { size: 10.01 }, ['property/value-out-of-range /size']],
    ['color grammar', { tint: 'blue' }, ['property/value-format /tint']],
    ['select not an option', { pick: 'c' }, ['property/value-not-option /pick']],
    ['text at 500 bytes', { title: '\u00e9'.repeat(250) }, []],
    ['text at 501 bytes', { title: '\u00e9'.repeat(250) + 'x' }, ['property/value-too-large /title']],
    ['blank required text is not refused in settings (D-8 is about defaults)', { title: ' ' }, []],
    ['textarea at 4,097 bytes', { body: '😀'.repeat(1024) + 'x' }, ['property/value-too-large /body']],
    ['url scheme', { link: 'javascript:void(0)' }, ['property/value-format /link']],
    ['image at 2,049 bytes', { logo: '/' + 'a'.repeat(2048) }, ['property/value-too-large /logo']],
    ['null value', { body: null }, ['property/value-type /body']],
    ['object value', { body: { a: 1 } }, ['property/value-type /body']],
    ['undefined value', { body: undefined }, ['property/value-type /body']],
  ];
  for (const [what, values, expected] of rows) assert.deepEqual(pairs(settings(values)), expected, what);
  const based = settings({ nope: 1, 'a/b': 2 }, '/settings', 'settings.json');
  assert.deepEqual(pairs(based), ['property/setting-unknown /settings/a~1b', 'property/setting-unknown /settings/nope']);
  assert.ok(based.every((f) => f.file === 'settings.json'));
});

test('settings that are not a plain JSON object are one finding, never an exception', () => {
  const getter = {};
  Object.defineProperty(getter, 'body', { enumerable: true, get() { throw new Error('boom'); } });
  const trap = new Proxy({}, { ownKeys() { throw new Error('trap'); } });
  const rows = [
    ['null', null, ['property/wrong-type ']],
    ['array', ['a'], ['property/wrong-type ']],
    ['string', 'x', ['property/wrong-type ']],
    ['number', 5, ['property/wrong-type ']],
    ['undefined', undefined, ['property/wrong-type ']],
    ['an accessor is not a plain value', getter, ['property/value-type /body', 'property/wrong-type ']],
    ['a Proxy whose keys throw', trap, ['property/wrong-type ']],
    ['a BigInt value', { size: 1n }, ['property/value-type /size', 'property/wrong-type ']],
  ];
  for (const [what, values, expected] of rows) assert.deepEqual(pairs(settings(values)), expected, what);
  const cyclic = { body: 'x', nope: {} };
  cyclic.nope.self = cyclic;
  assert.deepEqual(pairs(settings(cyclic)), ['property/setting-unknown /nope', 'property/wrong-type ']);
});

test('settings get exactly the checks a default gets: D-29 characters, and no lone surrogate', () => {
  const C = (name) => [`manifest/control-character /${name}`];
  const rows = [
    ['text plain', { title: 'Hello' }, []],
    ['text with NUL', { title: 'a\u0000b' }, C('title')],
    ['text with ESC', { title: 'a\u001b[2Jb' }, C('title')],
    ['text with RLO', { title: 'Lane \u202enoitaroced' }, C('title')],
    ['text with an isolate', { title: 'a\u2067b\u2069' }, C('title')],
    // D-29a: invisible format characters are a warning in a setting as in a default (no longer allowed as D-29 had them).
    ['text with RLM and ZWJ (invisible: D-29a warns)', { title: 'a\u200f\u200d' }, ['manifest/invisible-character /title']],
    ['text with a line break', { title: 'a\nb' }, C('title')],
    ['textarea with line breaks', { body: 'a\nb\r\nc' }, []],
    ['textarea with a lone CR', { body: 'a\rb' }, C('body')],
    ['textarea with LRE', { body: 'a\u202ab' }, C('body')],
    ['select value with PDF (also not an option)', { pick: 'a\u202c' }, [...C('pick'), 'property/value-not-option /pick']],
    ['text with a surrogate pair', { title: 'a\ud83d\ude00b' }, []],
    ['text with a lone high surrogate', { title: 'a\ud800b' }, ['property/value-type /title']],
    ['text ending in a high surrogate', { title: 'a\udbff' }, ['property/value-type /title']],
    ['text with a lone low surrogate', { title: '\udc00a' }, ['property/value-type /title']],
    ['textarea with reversed surrogates', { body: '\ude00\ud83d' }, ['property/value-type /body']],
  ];
  for (const [what, values, expected] of rows) assert.deepEqual(pairs(settings(values)).sort(), [...expected].sort(), what);
  // The same strings as defaults: the same rule ids (a lone surrogate cannot reach a default: the JSON reader refuses it).
  for (const [what, values, expected] of rows.filter(([w]) => !w.includes('surrogate') && !w.includes('select'))) {
    const [name, value] = Object.entries(values)[0];
    const type = name === 'body' ? 'textarea' : 'text';
    const asDefault = one({ type, label: 'L', default: value }).filter((p) => /^manifest\/(control|invisible)-character/.test(p));
    assert.deepEqual(asDefault.length, expected.length, `${what} as a default`);
  }
});

test('settings must be a plain JSON object: prototype Object.prototype or null', () => {
  class Saved {
    constructor() {
      this.title = 'x';
    }
  }
  const withNull = Object.create(null);
  withNull.title = 'x';
  const rows = [
    ['object literal', { title: 'x' }, []],
    ['JSON.parse', JSON.parse('{"title":"x"}'), []],
    ['null prototype', withNull, []],
    ['a Map (would be read as {})', new Map([['title', 'x']]), ['property/wrong-type ']],
    ['an empty Map', new Map(), ['property/wrong-type ']],
    ['a class instance', new Saved(), ['property/wrong-type ']],
    ['a Date', new Date(0), ['property/wrong-type ']],
    ['an object inheriting from a plain one', Object.create({ title: 'x' }), ['property/wrong-type ']],
    ['a String object', new String('x'), ['property/wrong-type ']],
    ['a Proxy whose prototype trap throws', new Proxy({}, { getPrototypeOf() { throw new Error('trap'); } }), ['property/wrong-type ']],
  ];
  for (const [what, values, expected] of rows) assert.deepEqual(pairs(settings(values)), expected, what);
});

test('settings budget (D-6): 16,384 JSON-encoded bytes is fine, 16,385 is not', () => {
  assert.equal(SETTINGS_MAX_BYTES, 16_384);
  const defs = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, type: 'textarea', required: false }));
  const build = (total) => {
    const values = { a: '\u20ac'.repeat(1300), b: '😀'.repeat(1000), c: '"'.repeat(1500), d: 'x'.repeat(4000), e: '' };
    values.e = 'y'.repeat(total - bytes(JSON.stringify(values)));
    assert.equal(bytes(JSON.stringify(values)), total);
    return values;
  };
  const run = (values) => {
    const findings = new FindingList();
    validateSettings(defs, values, findings, '/settings');
    return pairs(findings.items);
  };
  assert.deepEqual(run(build(16_384)), []);
  assert.deepEqual(run(build(16_385)), ['property/settings-too-large /settings']);
});

test('D-29: control characters and bidi overrides in manifest strings are errors; a line break only in a textarea default', () => {
  const C = (p) => [`manifest/control-character /properties/p${p}`];
  const rows = [
    ['label plain', { label: 'Lane color' }, []],
    ['label with ESC', { label: 'Lane \u001b[2J' }, C('/label')],
    ['label with DEL', { label: 'Lane\u007f' }, C('/label')],
    ['label with C1 CSI', { label: 'Lane\u009b' }, C('/label')],
    ['label with RLO', { label: 'Lane \u202enoitaroced' }, C('/label')],
    ['label with an isolate', { label: 'Lane \u2067x\u2069' }, C('/label')],
    ['label with RLM and ZWJ (right-to-left text and emoji need them)', { label: 'Lane \u200f\u200d' }, []],
    ['label with a line break', { label: 'Lane\nx' }, C('/label')],
    ['help with a tab', { label: 'L', help: 'a\tb' }, C('/help')],
    ['help plain', { label: 'L', help: 'a b' }, []],
    ['text default with a line break', { label: 'L', type: 'text', default: 'a\nb' }, C('/default')],
    ['textarea default with line breaks', { label: 'L', type: 'textarea', default: 'a\nb\r\nc' }, []],
    ['textarea default with a lone CR', { label: 'L', type: 'textarea', default: 'a\rb' }, C('/default')],
    ['textarea default with ESC', { label: 'L', type: 'textarea', default: 'a\u001bb' }, C('/default')],
    ['textarea default with LRE', { label: 'L', type: 'textarea', default: 'a\u202ab' }, C('/default')],
    ['option label with NUL', { label: 'L', type: 'select', options: [{ label: 'a\u0000', value: 'a' }], default: 'a' }, C('/options/0/label')],
    ['option value with PDF', { label: 'L', type: 'select', options: [{ label: 'a', value: 'a\u202c' }], default: 'a\u202c' }, [...C('/default'), ...C('/options/0/value')]],
  ];
  for (const [what, def, expected] of rows) {
    assert.deepEqual(one({ type: 'text', ...def }).filter((p) => p.startsWith('manifest/control-character')), expected, what);
  }
  const top = (fields) => pairs(check({}, JSON.stringify({ ...manifestWith({}), ...fields })).findings).filter((p) => p.startsWith('manifest/control-character'));
  assert.deepEqual(top({ name: 'Hello é‏' }), [], 'name with an accent and RLM');
  assert.deepEqual(top({ name: ']0;pwnedHello' }), ['manifest/control-character /name'], 'name with an OSC sequence');
  assert.deepEqual(top({ description: 'Fine.' }), []);
  assert.deepEqual(top({ description: 'Two\nlines' }), ['manifest/control-character /description'], 'description with a line break');
  assert.deepEqual(top({ description: 'x⁦y' }), ['manifest/control-character /description'], 'description with LRI');
});
