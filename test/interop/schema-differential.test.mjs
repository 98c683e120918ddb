// Differential test of contract-snapshot/manifest.schema.json (ajv, JSON Schema 2020-12)
// against the validator (validateManifest), on every manifest the test suite feeds the
// validator (recorded by running the manifest, property and grammar suites under
// test/support/record-loader.mjs), the manifest fuzz campaign's 12,000 seeded cases, and
// the boundary rows below. They must agree wherever JSON Schema can express the rule:
//   - the schema never refuses a manifest the validator accepts;
//   - every finding whose rule is not in SCHEMA_GAPS has a schema error at its pointer;
//   - every rule in SCHEMA_GAPS really is a gap: some case fires it while the schema accepts
//     (or, for the byte-level rules, there is nothing for the schema to read).
// The grammar patterns are checked the same way against grammar.ts on every recorded string
// plus seeded mutations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { validateManifest } from '../../build/validator/manifest.js';
import { FindingList } from '../../build/validator/findings.js';
import { MANIFEST_RULES } from '../../build/validator/catalogue/manifest-rules.js';
import { PROPERTY_RULES } from '../../build/validator/catalogue/property-rules.js';
import { isNamespace, isSemver, isPropertyName, isColor, urlProblem } from '../../build/validator/grammar.js';
import { NAME_MAX_BYTES, LABEL_MAX_BYTES, HELP_MAX_BYTES, DESCRIPTION_MAX_BYTES, OPTION_TEXT_MAX_CHARS, VALUE_MAX_BYTES, DEFAULTS_MAX_BYTES, SEMVER_MAX_NUMERIC, MAX_PROPERTIES } from '../../build/validator/limits.js';
import { SCHEMA_GAPS, MANIFEST_SCHEMA_ID, NAMESPACE_PATTERN, SEMVER_PATTERN, PROPERTY_NAME_PATTERN, COLOR_PATTERN, URL_PATTERN, ENTRYPOINT_PATTERN, decimalAtMostPattern } from '../../build/contract/schema.js';
import { prng, pick, mutateText } from '../support/fuzz.mjs';
import { nextCase } from '../support/fuzz-manifest.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const schema = JSON.parse(readFileSync(join(root, 'contract-snapshot/manifest.schema.json'), 'utf8'));
const encode = (text) => new TextEncoder().encode(text);

const warnings = [];
const ajv = new Ajv2020.default({ allErrors: true, logger: { log() {}, warn: (...a) => warnings.push(a.join(' ')), error: (...a) => warnings.push(a.join(' ')) } });
ajv.addSchema(schema);
const validate = ajv.getSchema(MANIFEST_SCHEMA_ID);

/** The rules that are about bytes: the schema has no parsed value to judge. */
const READ_RULES = new Set(['manifest/too-large', 'manifest/invalid-utf8', 'manifest/bom', 'manifest/invalid-json', 'manifest/duplicate-key']);
/** Rules about saved settings: validateManifest never reports them. */
const SETTINGS_RULES = new Set(['property/setting-unknown', 'property/settings-too-large']);
const GAPS = new Map(SCHEMA_GAPS.map((g) => [g.rule, g]));

/** An ajv error's place as the validator would name it: the member, not its object, for a bad or extra key. */
function errorPointer(e) {
  const escape = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');
  if (e.keyword === 'additionalProperties') return `${e.instancePath}/${escape(e.params.additionalProperty)}`;
  if (e.keyword === 'propertyNames' && e.params.propertyName !== undefined) return `${e.instancePath}/${escape(e.params.propertyName)}`;
  return e.instancePath;
}

function related(a, b) {
  if (a === '' || b === '') return a === b;
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** Compares one manifest; returns what happened, or throws an assertion naming the case. */
function compare(bytes, label, stats) {
  const list = new FindingList();
  validateManifest(bytes, list);
  const findings = list.items;
  const rules = new Set(findings.map((f) => f.rule));
  for (const r of rules) stats.fired.add(r);
  if ([...rules].some((r) => READ_RULES.has(r))) {
    stats.skipped++;
    return;
  }
  const data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  const valid = validate(data);
  const errors = valid ? [] : validate.errors.map(errorPointer);
  const show = () => `${label}: ${new TextDecoder().decode(bytes).slice(0, 400)}\nvalidator: ${JSON.stringify(findings.map((f) => `${f.rule} ${f.pointer}`))}\nschema: ${JSON.stringify(valid ? [] : validate.errors.map((e) => `${e.keyword} ${errorPointer(e)}`))}`;
  stats.compared++;
  if (valid) stats.schemaAccepted++;
  // The schema is never stricter than the tool.
  if (!valid) assert.ok(findings.length > 0, `schema refuses a manifest the validator accepts\n${show()}`);
  for (const f of findings) {
    if (GAPS.has(f.rule)) {
      if (valid) stats.gapShown.add(f.rule);
      continue;
    }
    assert.ok(!valid, `schema accepts a manifest with ${f.rule}\n${show()}`);
    assert.ok(errors.some((p) => related(p, f.pointer)), `no schema error at ${f.pointer} for ${f.rule}\n${show()}`);
    stats.agreed.add(f.rule);
  }
}

function newStats() {
  return { fired: new Set(), agreed: new Set(), gapShown: new Set(), compared: 0, skipped: 0, schemaAccepted: 0 };
}

/** The environment of a recording run: not marked as a child of this test runner, so the suite reports normally. */
function childEnv(out) {
  const env = { ...process.env, PLATFORM_RECORD_CALLS: out };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

/** Runs the suites under the recording hooks; returns {validateManifest: [base64], isSemver: [...], ...}. */
function recordSuites() {
  const dir = mkdtempSync(join(tmpdir(), 'schema-diff-'));
  const merged = {};
  try {
    for (const suite of ['manifest', 'properties', 'grammar']) {
      const out = join(dir, `${suite}.json`);
      const r = spawnSync(process.execPath, ['--no-warnings', '--experimental-loader', './test/support/record-loader.mjs', `test/validator/${suite}.test.mjs`], {
        cwd: root,
        env: childEnv(out),
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      assert.equal(r.error, undefined, `${suite}: ${r.error}`);
      assert.ok(existsSync(out), `test/${suite}.test.mjs recorded nothing (exit ${r.status}):\n${r.stderr.slice(0, 2000)}`);
      const calls = JSON.parse(readFileSync(out, 'utf8'));
      for (const [fn, inputs] of Object.entries(calls)) merged[fn] = [...new Set([...(merged[fn] ?? []), ...inputs])];
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return merged;
}

const recorded = recordSuites();

function base(properties = {}) {
  return { schema_version: 1, protocol_version: 1, namespace: 'acme/hello', version: '1.0.0', name: 'Hello', entrypoint: 'index.html', capabilities: [], properties };
}

/** Boundary rows for the rules and gaps (both sides of each count, bytes against code points). */
function boundaryRows() {
  const rows = [];
  const add = (what, value) => rows.push([what, typeof value === 'string' ? value : JSON.stringify(value)]);
  const euro = '\u20ac'; // 3 UTF-8 bytes, 1 code point
  const emoji = '\ud83d\ude00'; // 4 UTF-8 bytes, 2 UTF-16 code units, 1 code point
  add('valid', base());
  add('name at the byte limit', { ...base(), name: 'x'.repeat(NAME_MAX_BYTES) });
  add('name over in code points', { ...base(), name: 'x'.repeat(NAME_MAX_BYTES + 1) });
  add('name over in bytes only', { ...base(), name: euro.repeat(NAME_MAX_BYTES / 3 + 1) });
  add('description over in bytes only', { ...base(), description: euro.repeat(Math.floor(DESCRIPTION_MAX_BYTES / 3) + 1) });
  add('label over in bytes only', base({ p: { type: 'text', label: euro.repeat(Math.floor(LABEL_MAX_BYTES / 3) + 1) } }));
  add('help over in bytes only', base({ p: { type: 'text', label: 'L', help: euro.repeat(HELP_MAX_BYTES / 3 + 1) } }));
  add('option over in code units only', base({ p: { type: 'select', label: 'L', options: [{ label: emoji.repeat(OPTION_TEXT_MAX_CHARS / 2 + 1), value: 'a' }] } }));
  add('options with one value, two labels', base({ p: { type: 'select', label: 'L', options: [{ label: 'A', value: 'a' }, { label: 'B', value: 'a' }] } }));
  add('identical options', base({ p: { type: 'select', label: 'L', options: [{ label: 'A', value: 'a' }, { label: 'A', value: 'a' }] } }));
  add('text default over in bytes only', base({ p: { type: 'text', label: 'L', default: euro.repeat(VALUE_MAX_BYTES.text / 2) } }));
  add('text default over in code points', base({ p: { type: 'text', label: 'L', default: 'x'.repeat(VALUE_MAX_BYTES.text + 1) } }));
  add('min above max', base({ p: { type: 'number', label: 'L', min: 2, max: 1 } }));
  add('number default out of range', base({ p: { type: 'number', label: 'L', min: 0, max: 1, default: 2 } }));
  add('select default not an option', base({ p: { type: 'select', label: 'L', options: [{ label: 'A', value: 'a' }], default: 'b' } }));
  const big = {};
  for (let i = 0; i < 5; i++) big[`p${i}`] = { type: 'textarea', label: 'L', default: 'x'.repeat(Math.ceil(DEFAULTS_MAX_BYTES / 5)) };
  add('defaults over the total', base(big));
  add('schema_version spelled 1.0', JSON.stringify(base()).replace('"schema_version":1', '"schema_version":1.0'));
  add('protocol_version spelled 1e0', JSON.stringify(base()).replace('"protocol_version":1', '"protocol_version":1e0'));
  add('semver at the D-24 bound', { ...base(), version: `${SEMVER_MAX_NUMERIC}.0.0` });
  add('semver over the D-24 bound', { ...base(), version: `${SEMVER_MAX_NUMERIC + 1}.0.0` });
  add('$schema field', { $schema: './contract-snapshot/manifest.schema.json', ...base() });
  add('required text with a blank default', base({ p: { type: 'text', label: 'L', required: true, default: ' \u00a0\t' } }));
  add('required number without a default', base({ p: { type: 'number', label: 'L', required: true } }));
  add('required boolean with a default', base({ p: { type: 'boolean', label: 'L', required: true, default: false } }));
  add('range on text, options on number', base({ p: { type: 'text', label: 'L', min: 1 }, q: { type: 'number', label: 'L', options: [] } }));
  add('unknown type with options', base({ p: { type: 'date', label: 'L', options: [{ label: 'a', value: 'a' }] } }));
  const many = {};
  for (let i = 0; i <= MAX_PROPERTIES; i++) many[`p${i}`] = { type: 'boolean', label: 'L' };
  add('one property too many', base(many));
  add('entrypoint of 200 astral characters', { ...base(), entrypoint: `${emoji.repeat(130)}.html` });
  add('entrypoint hidden segment', { ...base(), entrypoint: 'a/.b/index.html' });
  add('entrypoint upper-case extension', { ...base(), entrypoint: 'pages/Index.HTML' });
  add('capability duplicate and unknown', { ...base(), capabilities: ['cart.manage', 'cart.manage', 'cart.manages'] });
  return rows;
}

test('the schema is draft 2020-12, compiles without strict-mode warnings, and is closed', () => {
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(typeof validate, 'function');
  assert.deepEqual(warnings, []);
  assert.equal(schema.additionalProperties, false);
  assert.equal(schema.$defs.property.additionalProperties, false);
  assert.equal(schema.$defs.options.items.additionalProperties, false);
  // The exported patterns are the ones in the file.
  const text = JSON.stringify(schema);
  for (const p of [NAMESPACE_PATTERN, SEMVER_PATTERN, PROPERTY_NAME_PATTERN, COLOR_PATTERN, URL_PATTERN, ENTRYPOINT_PATTERN]) assert.ok(text.includes(JSON.stringify(p)), p.slice(0, 40));
});

test('decimalAtMostPattern: exactly the numbers up to the bound, no leading zeros', () => {
  for (const max of [0, 1, 9, 10, 19, 99, 100, 255, 1000, 65535, 909]) {
    const re = new RegExp(`^${decimalAtMostPattern(max)}$`, 'u');
    for (let n = 0; n <= Math.max(max * 2, 120); n++) assert.equal(re.test(String(n)), n <= max, `${max}: ${n}`);
    assert.equal(re.test('00'), false);
    assert.equal(re.test(`0${max}`), false);
  }
  const big = new RegExp(`^${decimalAtMostPattern(SEMVER_MAX_NUMERIC)}$`, 'u');
  assert.equal(big.test(String(SEMVER_MAX_NUMERIC)), true);
  assert.equal(big.test('9007199254740992'), false);
  assert.equal(big.test('9007199254740990'), true);
  assert.equal(big.test('8999999999999999'), true);
  assert.equal(big.test('10000000000000000'), false);
});

test('the recorded suites fed the validator enough cases to mean something', () => {
  assert.ok((recorded.validateManifest ?? []).length >= 200, `manifests: ${(recorded.validateManifest ?? []).length}`);
  for (const fn of ['isNamespace', 'isSemver', 'isPropertyName', 'isColor', 'urlProblem']) assert.ok((recorded[fn] ?? []).length >= 10, `${fn}: ${(recorded[fn] ?? []).length}`);
});

test('every manifest of the test suite, the boundary rows and 12,000 fuzz cases: schema and validator agree', () => {
  const stats = newStats();
  for (const b64 of recorded.validateManifest) compare(Uint8Array.from(Buffer.from(b64, 'base64')), 'recorded', stats);
  for (const [what, text] of boundaryRows()) compare(encode(text), what, stats);
  const rng = prng(0x5eed); // the seed of test/validator/fuzz-manifest.test.mjs: the same cases
  for (let i = 0; i < 12_000; i++) compare(nextCase(rng).bytes, `fuzz case ${i}`, stats);

  // Every expressible manifest and property rule was exercised and matched.
  for (const rule of [...MANIFEST_RULES, ...PROPERTY_RULES].map((r) => r.id)) {
    if (GAPS.has(rule)) continue;
    assert.ok(stats.agreed.has(rule), `no case exercised ${rule}`);
  }
  // Every gap is real: shown with the schema accepting, or a byte-level rule that fired.
  for (const gap of SCHEMA_GAPS) {
    assert.ok(MANIFEST_RULES.some((r) => r.id === gap.rule) || PROPERTY_RULES.some((r) => r.id === gap.rule), `unknown rule ${gap.rule}`);
    if (SETTINGS_RULES.has(gap.rule)) continue;
    if (READ_RULES.has(gap.rule)) assert.ok(stats.fired.has(gap.rule), `no case fired ${gap.rule}`);
    else assert.ok(stats.gapShown.has(gap.rule), `${gap.rule} is listed as a gap but no case shows the schema accepting it`);
  }
  assert.ok(stats.compared > 5000 && stats.schemaAccepted > 100, JSON.stringify({ ...stats, fired: stats.fired.size }));
});

/** Seeded mutations of `seeds` with a dictionary of the grammar's interesting pieces. */
function mutations(seed, seeds, dictionary, count) {
  const rng = prng(seed);
  const out = [];
  for (let i = 0; i < count; i++) out.push(mutateText(rng, pick(rng, seeds), dictionary, 3));
  return out;
}

test('grammar patterns agree with grammar.ts on every recorded string and seeded mutations', () => {
  const compile = (s) => ajv.compile({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...s });
  const rows = [
    ['isNamespace', isNamespace, ajv.getSchema(`${MANIFEST_SCHEMA_ID}#/properties/namespace`), ['a', 'z9', '-', '--', '/', 'A', '1', 'acme/hello-world', '\u00e9']],
    ['isSemver', isSemver, ajv.getSchema(`${MANIFEST_SCHEMA_ID}#/properties/version`), ['0', '1', '01', '9', '.', '-', '+', 'a', 'A-', String(SEMVER_MAX_NUMERIC), String(SEMVER_MAX_NUMERIC + 1), '1.0.0-rc.1+b.5', '\uff11']],
    ['isPropertyName', isPropertyName, ajv.getSchema(`${MANIFEST_SCHEMA_ID}#/$defs/propertyName`), ['a', 'B', '_', '9', 'x'.repeat(30), '\u00e9']],
    ['isColor', isColor, compile({ type: 'string', pattern: COLOR_PATTERN }), ['#', 'a', 'F', 'g', '0', '#a1b2c3', '\n']],
    [
      'urlProblem',
      (s) => urlProblem(s) === null,
      compile({ type: 'string', pattern: URL_PATTERN }),
      ['http://', 'HTTPS://', '[', ']', '::', ':', '.', '/', '//', '@', '%', '?', '#', '0', '00', '255', '256', '0x1', '-', 'a', 'xn--', ' ', '\\', '\u00a0', '\u0085', '\u2028', '\u00e9', '1.2.3.4', '[::ffff:1.2.3.4]', ':65535', ':123456', 'x'.repeat(63), '.x'.repeat(130)],
    ],
  ];
  for (const [fn, check, schemaCheck, dictionary] of rows) {
    assert.equal(typeof schemaCheck, 'function', fn);
    const seeds = recorded[fn];
    // Long recorded strings (a 2 MB URL) are compared as they are, not mutated: copying them 20,000 times proves nothing more.
    const inputs = [...seeds, ...mutations(fn.length * 7919, seeds.filter((x) => x.length <= 4096), dictionary, 20_000)];
    let accepted = 0;
    for (const s of inputs) {
      const expected = check(s);
      if (expected) accepted++;
      if (schemaCheck(s) !== expected) assert.fail(`${fn}(${JSON.stringify(s).slice(0, 300)}) is ${expected}, the schema says ${!expected}`);
    }
    assert.ok(accepted > 20 && accepted < inputs.length - 20, `${fn}: ${accepted} of ${inputs.length} accepted; the inputs must cover both sides`);
  }
});
