// The strict JSON reader (src/validator/json.ts) against nst/JSONTestSuite and tables of
// our stricter choices (D-5): every y_ file is accepted (except the two with duplicate
// keys, which D-5 refuses), every n_ file is refused, and each i_ file gets the decision
// the table below documents. Accepted values must equal JSON.parse's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJson, jsonValueOf, firstInvalidUtf8, JSON_MAX_DEPTH } from '../../build/validator/json.js';

// Paths, not URLs: some corpus names contain `#`.
const PARSING = fileURLToPath(new URL('../corpus/json-test-suite/test_parsing/', import.meta.url));
const TRANSFORM = fileURLToPath(new URL('../corpus/json-test-suite/test_transform/', import.meta.url));
const encode = (text) => new TextEncoder().encode(text);
const read = (text) => readJson(encode(text));
const corpusFiles = (dir) => readdirSync(dir).filter((name) => name.endsWith('.json')).sort();

// D-5: "y_" files the suite accepts but we refuse, because two readers disagree on duplicates.
const Y_REFUSED_DUPLICATES = new Set(['y_object_duplicated_key.json', 'y_object_duplicated_key_and_value.json']);

// Our decision for every implementation-defined ("i_") case, with the reason in json.ts.
const I_DECISIONS = {
  // Overflow to Infinity: a manifest number must be finite.
  'i_number_huge_exp.json': 'number-out-of-range',
  'i_number_neg_int_huge_exp.json': 'number-out-of-range',
  'i_number_pos_double_huge_exp.json': 'number-out-of-range',
  'i_number_real_neg_overflow.json': 'number-out-of-range',
  'i_number_real_pos_overflow.json': 'number-out-of-range',
  // A non-zero literal that underflows to 0 would read as a different value.
  'i_number_double_huge_neg_exp.json': 'number-out-of-range',
  'i_number_real_underflow.json': 'number-out-of-range',
  // Finite, only imprecise: accepted (the node keeps the source text).
  'i_number_too_big_neg_int.json': 'accept',
  'i_number_too_big_pos_int.json': 'accept',
  'i_number_very_big_negative_int.json': 'accept',
  // Lone surrogate escapes name no Unicode scalar value.
  'i_object_key_lone_2nd_surrogate.json': 'lone-surrogate',
  'i_string_1st_surrogate_but_2nd_missing.json': 'lone-surrogate',
  'i_string_1st_valid_surrogate_2nd_invalid.json': 'lone-surrogate',
  'i_string_incomplete_surrogate_and_escape_valid.json': 'lone-surrogate',
  'i_string_incomplete_surrogate_pair.json': 'lone-surrogate',
  'i_string_incomplete_surrogates_escape_valid.json': 'lone-surrogate',
  'i_string_invalid_lonely_surrogate.json': 'lone-surrogate',
  'i_string_invalid_surrogate.json': 'lone-surrogate',
  'i_string_inverted_surrogates_U+1D11E.json': 'lone-surrogate',
  'i_string_lone_second_surrogate.json': 'lone-surrogate',
  // Not UTF-8 (D-5): other encodings, overlongs, surrogates, truncations.
  'i_string_UTF-16LE_with_BOM.json': 'invalid-utf8',
  'i_string_UTF-8_invalid_sequence.json': 'invalid-utf8',
  'i_string_UTF8_surrogate_U+D800.json': 'invalid-utf8',
  'i_string_invalid_utf-8.json': 'invalid-utf8',
  'i_string_iso_latin_1.json': 'invalid-utf8',
  'i_string_lone_utf8_continuation_byte.json': 'invalid-utf8',
  'i_string_not_in_unicode_range.json': 'invalid-utf8',
  'i_string_overlong_sequence_2_bytes.json': 'invalid-utf8',
  'i_string_overlong_sequence_6_bytes.json': 'invalid-utf8',
  'i_string_overlong_sequence_6_bytes_null.json': 'invalid-utf8',
  'i_string_truncated-utf-8.json': 'invalid-utf8',
  'i_string_utf16BE_no_BOM.json': 'invalid-utf8',
  'i_string_utf16LE_no_BOM.json': 'invalid-utf8',
  // Deeper than JSON_MAX_DEPTH.
  'i_structure_500_nested_arrays.json': 'too-deep',
  // D-5: no byte-order mark.
  'i_structure_UTF-8_BOM_empty_object.json': 'bom',
};

// test_transform: what we read (a JSON.stringify of the value) or the error kind.
const TRANSFORM_DECISIONS = {
  'number_-9223372036854775808.json': '[-9223372036854776000]',
  'number_-9223372036854775809.json': '[-9223372036854776000]',
  'number_1.0.json': '[1]',
  'number_1.000000000000000005.json': '[1]',
  'number_1000000000000000.json': '[1000000000000000]',
  'number_10000000000000000999.json': '[10000000000000000000]',
  'number_1e-999.json': 'number-out-of-range',
  'number_1e6.json': '[1000000]',
  'number_9223372036854775807.json': '[9223372036854776000]',
  'number_9223372036854775808.json': '[9223372036854776000]',
  // Names are compared as code units, never normalized: NFC and NFD spellings are two names.
  'object_key_nfc_nfd.json': '{"\u00e9":"NFC","e\u0301":"NFD"}',
  'object_key_nfd_nfc.json': '{"e\u0301":"NFD","\u00e9":"NFC"}',
  'object_same_key_different_values.json': 'duplicate-key',
  'object_same_key_same_value.json': 'duplicate-key',
  'object_same_key_unclear_values.json': 'duplicate-key',
  'string_1_escaped_invalid_codepoint.json': 'lone-surrogate',
  'string_1_invalid_codepoint.json': 'invalid-utf8',
  'string_2_escaped_invalid_codepoints.json': 'lone-surrogate',
  'string_2_invalid_codepoints.json': 'invalid-utf8',
  'string_3_escaped_invalid_codepoints.json': 'lone-surrogate',
  'string_3_invalid_codepoints.json': 'invalid-utf8',
  'string_with_escaped_NULL.json': '["A\\u0000B"]',
};

test('JSONTestSuite test_parsing: y_ accepted (bar D-5 duplicates), n_ refused, i_ as decided', () => {
  const counts = { y: 0, n: 0, i: 0 };
  const files = corpusFiles(PARSING);
  assert.ok(files.length >= 300, 'the corpus is present');
  for (const name of files) {
    const bytes = new Uint8Array(readFileSync(join(PARSING, name)));
    const result = readJson(bytes);
    const prefix = name.slice(0, 2);
    if (prefix === 'y_') {
      counts.y++;
      if (Y_REFUSED_DUPLICATES.has(name)) {
        assert.equal(result.ok, false, name);
        assert.equal(result.error.kind, 'duplicate-key', name);
        assert.equal(result.error.pointer, '/a', name);
      } else {
        assert.equal(result.ok, true, `${name}: ${result.ok ? '' : result.error.message}`);
        // Our tree means exactly what JSON.parse reads.
        assert.deepEqual(jsonValueOf(result.value), JSON.parse(new TextDecoder().decode(bytes)), name);
      }
    } else if (prefix === 'n_') {
      counts.n++;
      assert.equal(result.ok, false, `${name} must be refused`);
    } else if (prefix === 'i_') {
      counts.i++;
      const expected = I_DECISIONS[name];
      assert.ok(expected !== undefined, `${name} needs a decision in the table`);
      assert.equal(result.ok ? 'accept' : result.error.kind, expected, name);
    }
  }
  assert.equal(counts.i, Object.keys(I_DECISIONS).length, 'every decision names a corpus file');
  assert.ok(counts.y >= 95 && counts.n >= 188, JSON.stringify(counts));
});

test('JSONTestSuite test_transform: values or refusals as decided', () => {
  const files = corpusFiles(TRANSFORM);
  assert.equal(files.length, Object.keys(TRANSFORM_DECISIONS).length);
  for (const name of files) {
    const result = readJson(new Uint8Array(readFileSync(join(TRANSFORM, name))));
    const got = result.ok ? JSON.stringify(jsonValueOf(result.value)) : result.error.kind;
    assert.equal(got, TRANSFORM_DECISIONS[name], name);
  }
});

test('accept/refuse table: both sides of each strict choice', () => {
  const rows = [
    // [what it proves, input, expected error kind or 'ok']
    ['escaped and plain names are duplicates after decoding', '{"a":1,"\\u0061":2}', 'duplicate-key'],
    ['distinct names are fine', '{"a":1,"b":2}', 'ok'],
    ['case differs: not duplicates', '{"a":1,"A":2}', 'ok'],
    ['__proto__ is an ordinary name', '{"__proto__":1}', 'ok'],
    ['__proto__ twice is a duplicate', '{"__proto__":1,"__proto__":2}', 'duplicate-key'],
    ['same name in sibling objects is fine', '[{"a":1},{"a":1}]', 'ok'],
    ['surrogate pair escape', '"\\ud83d\\ude00"', 'ok'],
    ['high surrogate then non-surrogate escape', '"\\ud83d\\u0041"', 'lone-surrogate'],
    ['high surrogate at end of string', '"\\ud83d"', 'lone-surrogate'],
    ['lone low surrogate', '"\\ude00"', 'lone-surrogate'],
    ['lone surrogate in a name', '{"\\ud800":1}', 'lone-surrogate'],
    ['escape with uppercase hex', '"\\u00E9"', 'ok'],
    ['short \\u escape', '"\\u00e"', 'invalid-escape'],
    ['unknown escape', '"\\x41"', 'invalid-escape'],
    ['raw tab in a string', '"a\tb"', 'control-character'],
    ['raw DEL is allowed', '"a\u007fb"', 'ok'],
    ['U+2028 raw is allowed', '"a\u2028b"', 'ok'],
    ['largest finite double', '1.7976931348623157e308', 'ok'],
    ['just past it overflows', '1.7976931348623159e308', 'number-out-of-range'],
    ['negative overflow', '-1e400', 'number-out-of-range'],
    ['smallest subnormal', '5e-324', 'ok'],
    ['a non-zero literal that reads as 0', '1e-400', 'number-out-of-range'],
    ['zero with a huge negative exponent is still zero', '0e-400', 'ok'],
    ['0.000 with a huge negative exponent is still zero', '-0.000e-999', 'ok'],
    ['leading zero', '01', 'invalid-number'],
    ['lone minus', '-', 'invalid-number'],
    ['missing fraction digits', '1.', 'invalid-number'],
    ['missing exponent digits', '1e+', 'invalid-number'],
    ['plus sign', '+1', 'unexpected-character'],
    ['form feed is not JSON whitespace', '\f{}', 'unexpected-character'],
    ['no-break space is not JSON whitespace', '{}\u00a0', 'trailing-content'],
    ['all four whitespace characters', ' \t\r\n{}\n\r\t ', 'ok'],
    ['two values', '{} {}', 'trailing-content'],
    ['empty text', '', 'unexpected-end'],
    ['only whitespace', '   ', 'unexpected-end'],
    ['unterminated string', '"abc', 'unexpected-end'],
    ['unterminated escape', '"\\', 'unexpected-end'],
    ['trailing comma in array', '[1,]', 'unexpected-character'],
    ['trailing comma in object', '{"a":1,}', 'unexpected-character'],
    ['missing colon', '{"a" 1}', 'unexpected-character'],
    ['single quotes', "{'a':1}", 'unexpected-character'],
    ['comment', '{} // x', 'trailing-content'],
    ['NaN literal', 'NaN', 'unexpected-character'],
    ['truncated true', 'tru', 'unexpected-character'],
    ['scalar top level is readable (manifest.ts requires an object)', '"x"', 'ok'],
  ];
  for (const [what, text, expected] of rows) {
    const result = read(text);
    assert.equal(result.ok ? 'ok' : result.error.kind, expected, what);
  }
});

test('byte-level refusals: BOM and invalid UTF-8 with the byte offset', () => {
  const bom = readJson(Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0x7d));
  assert.equal(bom.error.kind, 'bom');
  assert.equal(bom.error.offset, 0);
  // A BOM-like sequence inside a string is just U+FEFF.
  assert.equal(readJson(encode('"\ufeff"')).ok, true);
  const rows = [
    ['continuation byte at 3', [0x5b, 0x22, 0x61, 0x80, 0x22, 0x5d], 3],
    ['overlong 2-byte at 2', [0x5b, 0x22, 0xc0, 0xaf, 0x22, 0x5d], 2],
    ['encoded surrogate at 2', [0x5b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d], 2],
    ['above U+10FFFF at 2', [0x5b, 0x22, 0xf4, 0x90, 0x80, 0x80, 0x22, 0x5d], 2],
    ['truncated at the end', [0x22, 0xe2, 0x82], 1],
    ['valid multi-byte then bad', [0x22, 0xc3, 0xa9, 0xff, 0x22], 3],
  ];
  for (const [what, bytes, offset] of rows) {
    const result = readJson(Uint8Array.from(bytes));
    assert.equal(result.error.kind, 'invalid-utf8', what);
    assert.equal(result.error.offset, offset, what);
    assert.equal(firstInvalidUtf8(Uint8Array.from(bytes)), offset, what);
  }
  assert.equal(firstInvalidUtf8(encode('héllo 😀')), encode('héllo 😀').length, 'valid text has no bad offset');
});

test('depth: JSON_MAX_DEPTH containers are fine, one more is refused (no stack overflow)', () => {
  assert.equal(JSON_MAX_DEPTH, 64);
  const nest = (n) => '['.repeat(n) + ']'.repeat(n);
  assert.equal(read(nest(JSON_MAX_DEPTH)).ok, true);
  const deep = read(nest(JSON_MAX_DEPTH + 1));
  assert.equal(deep.error.kind, 'too-deep');
  assert.equal(deep.error.offset, JSON_MAX_DEPTH);
  const objects = (n) => '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1);
  assert.equal(read(objects(JSON_MAX_DEPTH)).ok, true);
  assert.equal(read(objects(JSON_MAX_DEPTH + 1)).error.kind, 'too-deep');
  assert.equal(read('['.repeat(100_000)).error.kind, 'too-deep', 'a huge unclosed nest is a clean error');
});

test('the tree keeps offsets of every key and value, number source text, and entry order', () => {
  const text = '{\n  "b": [1.50, -0, "x"],\n  "a": {"k\\n": true, "n": null}\n}';
  const result = read(text);
  assert.equal(result.ok, true);
  const root = result.value;
  assert.equal(root.kind, 'object');
  assert.deepEqual([root.offset, root.end], [0, text.length]);
  assert.deepEqual(root.entries.map((e) => e.key), ['b', 'a'], 'source order, not sorted');
  const [b, a] = root.entries;
  assert.equal(b.keyOffset, text.indexOf('"b"'));
  assert.equal(b.value.offset, text.indexOf('['));
  assert.equal(b.value.end, text.indexOf(']') + 1);
  const [num, negZero, str] = b.value.items;
  assert.deepEqual([num.kind, num.value, num.text, num.offset], ['number', 1.5, '1.50', text.indexOf('1.50')]);
  assert.ok(Object.is(negZero.value, -0), '-0 keeps its sign, as JSON.parse does');
  assert.equal(negZero.text, '-0');
  assert.deepEqual([str.value, str.offset, str.end], ['x', text.indexOf('"x"'), text.indexOf('"x"') + 3]);
  assert.equal(a.value.entries[0].key, 'k\n', 'names are decoded');
  assert.equal(a.value.entries[0].keyOffset, text.indexOf('"k\\n"'));
  assert.equal(a.value.entries[1].value.kind, 'null');
  assert.equal(a.value.entries[1].value.offset, text.indexOf('null'));
});

test('offsets count UTF-16 code units of the decoded text', () => {
  const text = '{"😀é":"x","b":1}';
  const result = read(text);
  assert.equal(result.value.entries[1].keyOffset, text.indexOf('"b"'));
  assert.equal(result.value.entries[1].keyOffset, 11, "the emoji counts 2");
});

test('duplicate-key errors carry the pointer and the offset of the repeated name', () => {
  const text = '{"a":[0,{"x~/":1,"y":{"z":1,"z":2}}]}';
  const result = read(text);
  assert.equal(result.error.kind, 'duplicate-key');
  assert.equal(result.error.pointer, '/a/1/y/z');
  assert.equal(result.error.offset, text.lastIndexOf('"z"'));
  const escaped = read('{"x~/":{"q":1,"q":1}}');
  assert.equal(escaped.error.pointer, '/x~0~1/q', 'RFC 6901 escaping');
});

test('jsonValueOf defines __proto__ as data, never as the prototype', () => {
  const value = jsonValueOf(read('{"__proto__":{"polluted":true}}').value);
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.deepEqual(Object.keys(value), ['__proto__']);
  assert.equal({}.polluted, undefined);
  assert.deepEqual(value, JSON.parse('{"__proto__":{"polluted":true}}'));
});

// No timing assertion (speed is the benchmarks' business): a reader that went quadratic on
// 5 MiB would not finish before the test's timeout, which is the guard here.
test('a 5 MiB document of many small objects reads whole', { timeout: 60_000 }, () => {
  const item = '{"k":"' + 'x'.repeat(40) + '\\n","n":12345.678e-2,"b":[true,false,null]},';
  const text = '[' + item.repeat(Math.ceil((5 * 1024 * 1024) / item.length)).slice(0, -1) + ']';
  const result = readJson(encode(text));
  assert.equal(result.ok, true);
  assert.equal(result.ok && jsonValueOf(result.value).length, Math.ceil((5 * 1024 * 1024) / item.length));
});
