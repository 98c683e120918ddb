// `check --explain <rule-id>`: every catalogued rule has a long explanation and a
// before/after fix example (and the table has no entry for a rule that does not exist);
// the output names the contract reference; an unknown id is a usage error (exit 2, D-21)
// that suggests the nearest ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../support/project.mjs';
import { RULES } from '../../build/validator/rules.js';
import {
  BUNDLE_MAX_FILES,
  BUNDLE_MAX_COMPRESSION_RATIO,
  DESCRIPTION_MAX_BYTES,
  MANIFEST_MAX_BYTES,
  MAX_CAPABILITIES,
  SEMVER_MAX_NUMERIC,
  VALUE_MAX_BYTES,
} from '../../build/validator/limits.js';
import { groupDigits } from '../../build/validator/text.js';
import { allExplanations, explanationOf } from '../../build/explain/all-explanations.js';
import { explainRule, findRule } from '../../build/explain/rule-explanation.js';
import { renderExplanation, wrapText } from '../../build/render/explanation-text.js';
import { PLAIN } from '../../build/render/report-text.js';
import { CONTRACT_VERSION } from '../../build/contract/versions.js';

const EXPLANATIONS = allExplanations();

test('every rule in the catalogue has an explanation and a fix example; the table names no other ids', () => {
  const ids = RULES.map((r) => r.id);
  const missing = ids.filter((id) => explanationOf(id) === undefined);
  assert.deepEqual(missing, [], 'rules without an explanation (add them to src/explain/all-explanations.ts)');
  const unknown = Object.keys(EXPLANATIONS).filter((id) => !ids.includes(id));
  assert.deepEqual(unknown, [], 'explanations for ids that are not in the catalogue');
  assert.ok(ids.length >= 150, `the catalogue has ${ids.length} rules`);
});

test('explanations are complete paragraphs and the examples really change something', () => {
  for (const rule of RULES) {
    const e = EXPLANATIONS[rule.id];
    assert.ok(e.text.length >= 80, `${rule.id}: explanation too short`);
    assert.doesNotMatch(e.text, /\n/, `${rule.id}: one paragraph`);
    assert.match(e.text, /[.)]$/, `${rule.id}: ends a sentence`);
    assert.doesNotMatch(e.text + e.example.before + e.example.after, /\bundefined\b|\[object /, `${rule.id}: interpolation`);
    assert.doesNotMatch(e.text, /\$\{/, `${rule.id}: a template left unfilled`);
    assert.notEqual(e.text, rule.title, `${rule.id}: says more than the title`);
    assert.ok(e.example.file.length > 0, rule.id);
    assert.ok(e.example.before.trim().length > 0 && e.example.after.trim().length > 0, `${rule.id}: before and after`);
    assert.notEqual(e.example.before, e.example.after, `${rule.id}: the fix changes something`);
  }
  assert.equal(explanationOf('constructor'), undefined, 'no prototype keys');
  assert.equal(explanationOf('manifest/nope'), undefined);
});

test('contract numbers in explanations come from limits.ts', () => {
  // [rule, text the explanation must contain]
  const rows = [
    ['manifest/too-large', groupDigits(MANIFEST_MAX_BYTES)],
    ['manifest/description-length', String(DESCRIPTION_MAX_BYTES)],
    ['manifest/too-many-capabilities', String(MAX_CAPABILITIES)],
    ['manifest/version', String(SEMVER_MAX_NUMERIC)],
    ['property/value-too-large', `textarea ${VALUE_MAX_BYTES.textarea}`],
    ['bundle/too-many-files', String(BUNDLE_MAX_FILES)],
    ['archive/compression-ratio', `${BUNDLE_MAX_COMPRESSION_RATIO + 1} does not`],
  ];
  for (const [id, fragment] of rows) assert.ok(EXPLANATIONS[id].text.includes(fragment), `${id}: ${fragment}`);
});

test('the text rendering holds the id, severity, title, explanation, contract reference, hint and example', () => {
  for (const rule of RULES) {
    const text = renderExplanation(explainRule(rule), PLAIN);
    const e = EXPLANATIONS[rule.id];
    assert.ok(text.startsWith(`${rule.id}  ${rule.severity}\n${rule.title}\n`), rule.id);
    assert.ok(text.includes(`Contract: ${rule.ref}\n`), rule.id);
    const flat = text.replace(/\s+/g, ' ');
    assert.ok(flat.includes(e.text.replace(/\s+/g, ' ')), `${rule.id}: explanation`);
    assert.ok(flat.includes(rule.hint.replace(/\s+/g, ' ')), `${rule.id}: hint`);
    for (const line of e.example.before.split('\n').concat(e.example.after.split('\n'))) assert.ok(text.includes(`    ${line}\n`), `${rule.id}: ${line}`);
  }
});

test('word wrap: lines within the width unless one word is longer; no words lost', () => {
  const rows = [
    ['', 10, []],
    ['one', 10, ['one']],
    ['aaa bbb ccc', 7, ['aaa bbb', 'ccc']],
    ['aaa bbb ccc', 6, ['aaa', 'bbb', 'ccc']],
    ['averyveryverylongword x', 5, ['averyveryverylongword', 'x']],
    ['  spaced   out\ttext  ', 80, ['spaced out text']],
  ];
  for (const [text, width, lines] of rows) assert.deepEqual(wrapText(text, width), lines, JSON.stringify(text));
});

test('check --explain prints one rule: exit 0, the id, the contract reference and the example', () => {
  // One rule per area, through the real CLI.
  const areas = [...new Set(RULES.map((r) => r.id.split('/')[0]))];
  for (const area of areas) {
    const rule = RULES.find((r) => r.id.startsWith(`${area}/`));
    const r = runCli(['check', '--explain', rule.id]);
    assert.equal(r.status, 0, `${rule.id}: ${r.stderr}`);
    assert.equal(r.stderr, '');
    assert.ok(r.stdout.startsWith(rule.id), rule.id);
    assert.ok(r.stdout.includes(rule.ref), `${rule.id}: names the ref`);
    assert.ok(r.stdout.includes(EXPLANATIONS[rule.id].example.after.split('\n')[0]), `${rule.id}: example`);
  }
  assert.equal(runCli(['check', '--explain=manifest/bom']).stdout, runCli(['check', '--explain', 'manifest/bom']).stdout);
});

test('check --explain --json prints one JSON object with the same content', () => {
  for (const format of [['--json'], ['--format', 'json']]) {
    const r = runCli(['check', '--explain', 'html/inline-script', ...format]);
    assert.equal(r.status, 0);
    const rule = RULES.find((x) => x.id === 'html/inline-script');
    assert.deepEqual(r.json, {
      format: 'platform-extension-explain-v1',
      contract: CONTRACT_VERSION,
      id: rule.id,
      severity: rule.severity,
      title: rule.title,
      ref: rule.ref,
      hint: rule.hint,
      explanation: EXPLANATIONS[rule.id].text,
      example: EXPLANATIONS[rule.id].example,
    });
  }
});

test('an unknown rule id is a usage error (exit 2) that suggests the nearest ids', () => {
  // [input, ids the message must suggest (empty: none)]
  const rows = [
    ['manifest/unknown-feild', ['manifest/unknown-field']],
    ['html/inline-scripts', ['html/inline-script']],
    ['MANIFEST/BOM', ['manifest/bom']],
    ['unknown-field', ['manifest/unknown-field', 'property/unknown-field']],
    ['css/inline-script', ['html/inline-script']],
    ['invalid-utf8', ['manifest/invalid-utf8', 'html/invalid-utf8', 'css/invalid-utf8', 'js/invalid-utf8']],
    ['zzz/qqqqqqqq', []],
    ['', []],
  ];
  for (const [input, suggestions] of rows) {
    const r = runCli(['check', '--explain', input]);
    assert.equal(r.status, 2, JSON.stringify(input));
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.includes(`"${input}"`), r.stderr);
    assert.ok(r.stderr.includes('--list-rules'), 'says where the ids are');
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    const suggested = [...r.stderr.matchAll(/"([a-z]+\/[a-z0-9-]+)"/g)].map((m) => m[1]).filter((id) => id !== input);
    assert.deepEqual(suggested.sort(), [...suggestions].sort(), JSON.stringify(input));
  }
  assert.equal(runCli(['check', '--explain']).status, 2, 'the id is required');
  // The same lookup in-process: an exact id is never "unknown".
  for (const rule of RULES) assert.equal(findRule(rule.id), rule);
});
