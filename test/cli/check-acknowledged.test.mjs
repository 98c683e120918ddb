// Acknowledged warnings (D-33): platform-ext.config.json beside manifest.json lists
// reviewed warnings. A covered warning leaves `findings` for the report's `acknowledged`
// list in JSON, is a suppressed result in SARIF, is counted in the text summary and
// listed with --list-acknowledged (text and GitHub annotations), and no longer fails
// --strict. Errors can never be acknowledged; an entry that covers nothing is a warning;
// every bad shape of the file is a config/* finding with a pointer. Asserts rule ids and
// pointers only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { makeProject, ROOT, runCli } from '../support/project.mjs';

// The SARIF 2.1.0 schema (test/interop/sarif.test.mjs checks URI formats in detail; here only the shape).
const Ajv = AjvModule.default ?? AjvModule;
const ajv = new Ajv({ strict: false, allErrors: true });
for (const format of ['uri', 'uri-reference', 'date-time']) ajv.addFormat(format, true);
const validateSarif = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'test/fixtures/sarif/sarif-schema-2.1.0.json'), 'utf8')));

const CONFIG = 'platform-ext.config.json';
/** A project whose only finding is one warning: runtime/extra.js is loaded by nothing. */
const EXTRA = { 'runtime/extra.js': 'export const unused = 1;\n' };
const ENTRY = { rule: 'bundle/unreferenced-module', file: 'runtime/extra.js', reason: 'loaded by a later release' };

function project(t, config, files = EXTRA) {
  return makeProject(t, { files: { ...files, ...(config !== undefined && { [CONFIG]: typeof config === 'string' ? config : JSON.stringify(config, null, 2) }) } });
}

const rules = (report) => report.findings.map((f) => `${f.rule} ${f.pointer ?? ''}`.trim());

test('without a config file the report is unchanged: the warning is a finding and fails --strict', (t) => {
  const dir = project(t, undefined);
  const r = runCli(['check', dir, '--json', '--strict']);
  assert.equal(r.status, 1);
  assert.deepEqual(rules(r.json), ['bundle/unreferenced-module']);
  assert.equal('acknowledged' in r.json, false, 'no config: exactly the D-20 shape');
});

test('an acknowledged warning: listed with its reason, not counted as a warning, passes --strict', (t) => {
  const dir = project(t, { acknowledged: [ENTRY] });
  const r = runCli(['check', dir, '--json', '--strict']);
  assert.equal(r.status, 0, r.stdout);
  assert.deepEqual(rules(r.json), []);
  assert.equal(r.json.warnings, 0);
  assert.deepEqual(
    r.json.acknowledged.map((f) => [f.rule, f.severity, f.file, f.reason]),
    [[ENTRY.rule, 'warning', ENTRY.file, ENTRY.reason]],
  );
  // A folder ending in "/" covers every file under it; a prefix that is not a folder does not.
  const folder = project(t, { acknowledged: [{ ...ENTRY, file: 'runtime/' }] });
  assert.equal(runCli(['check', folder, '--json']).json.acknowledged.length, 1);
  const prefix = project(t, { acknowledged: [{ ...ENTRY, file: 'runtime/ext' }] });
  const p = runCli(['check', prefix, '--json', '--strict']);
  assert.equal(p.status, 1);
  assert.deepEqual(rules(p.json).sort(), ['bundle/unreferenced-module', 'config/unused-acknowledgement /acknowledged/0']);
});

test('the text report counts acknowledged warnings; --list-acknowledged lists them with the reason', (t) => {
  const dir = project(t, { acknowledged: [ENTRY] });
  const plain = runCli(['check', dir]);
  assert.equal(plain.status, 0);
  assert.match(plain.stdout, /1 acknowledged/);
  assert.doesNotMatch(plain.stdout, /loaded by a later release/);
  const listed = runCli(['check', dir, '--list-acknowledged']);
  assert.equal(listed.status, 0);
  assert.match(listed.stdout, /bundle\/unreferenced-module/);
  assert.match(listed.stdout, /loaded by a later release/);
  // In a GitHub Actions step: a notice, not a warning, for the acknowledged one.
  const actions = runCli(['check', dir, '--list-acknowledged'], { env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: 'true' } });
  const commands = actions.stdout.split('\n').filter((line) => line.startsWith('::'));
  assert.deepEqual(commands.map((line) => line.slice(0, line.indexOf(' '))), ['::notice']);
  assert.match(commands[0], /title=bundle\/unreferenced-module/);
  // Usage: the flag belongs to a check.
  assert.equal(runCli(['check', '--list-rules', '--list-acknowledged']).status, 2);
});

test('SARIF: an acknowledged warning is a result with an external suppression and the reason', (t) => {
  const dir = project(t, { acknowledged: [ENTRY] });
  const r = runCli(['check', dir, '--format', 'sarif', '--strict']);
  assert.equal(r.status, 0);
  const results = r.json.runs[0].results;
  assert.deepEqual(
    results.map((x) => [x.ruleId, x.suppressions?.[0]?.kind, x.suppressions?.[0]?.justification]),
    [[ENTRY.rule, 'external', ENTRY.reason]],
  );
  assert.equal(r.json.runs[0].invocations[0].exitCode, 0);
  assert.ok(validateSarif(r.json), JSON.stringify(validateSarif.errors?.slice(0, 3)));
  // The schema has teeth here: a suppression of an unknown kind is refused.
  results[0].suppressions[0].kind = 'ignored';
  assert.equal(validateSarif(r.json), false);
});

test('errors can never be acknowledged; unknown rules and unused entries are findings', (t) => {
  const error = project(t, { acknowledged: [ENTRY, { rule: 'bundle/extension-not-allowed', file: 'runtime/notes.txt', reason: 'needed' }] }, { ...EXTRA, 'runtime/notes.txt': 'x' });
  let r = runCli(['check', error, '--json']);
  assert.equal(r.status, 1);
  assert.deepEqual(rules(r.json), ['config/error-acknowledged /acknowledged/1/rule', 'bundle/extension-not-allowed']);
  assert.equal(r.json.acknowledged.length, 1, 'the sound entry still applies');

  r = runCli(['check', project(t, { acknowledged: [ENTRY, { ...ENTRY, rule: 'bundle/unreferenced-modul' }] }), '--json']);
  assert.deepEqual(rules(r.json), ['config/unknown-rule /acknowledged/1/rule']);
  assert.equal(r.status, 1);

  r = runCli(['check', project(t, { acknowledged: [ENTRY, { ...ENTRY, file: 'runtime/gone.js' }] }), '--json', '--strict']);
  assert.deepEqual(rules(r.json), ['config/unused-acknowledgement /acknowledged/1']);
  assert.equal(r.status, 1, 'an unused entry is a warning, so --strict fails');
  assert.equal(runCli(['check', project(t, { acknowledged: [ENTRY, { ...ENTRY, file: 'runtime/gone.js' }] }), '--json']).status, 0);
});

test('every bad shape of the file is a config finding with a pointer, never a crash', (t) => {
  const rows = [
    ['not JSON', '{"acknowledged": [],}', ['config/invalid-json']],
    ['comments', '// reviewed\n{"acknowledged": []}', ['config/invalid-json']],
    ['a duplicate key', '{"acknowledged": [], "acknowledged": []}', ['config/invalid-json /acknowledged']],
    ['a byte-order mark', '\ufeff{"acknowledged": []}', ['config/invalid-json']],
    ['an array at the top', '[]', ['config/invalid-json']],
    ['an unknown setting', { acknowledged: [ENTRY], ignore: [] }, ['config/invalid-entry /ignore']],
    ['acknowledged not an array', { acknowledged: {} }, ['config/invalid-entry /acknowledged']],
    ['an entry that is not an object', { acknowledged: [ENTRY, 'js/network-api'] }, ['config/invalid-entry /acknowledged/1']],
    ['a missing reason', { acknowledged: [ENTRY, { rule: ENTRY.rule, file: ENTRY.file }] }, ['config/invalid-entry /acknowledged/1']],
    ['a blank reason', { acknowledged: [ENTRY, { ...ENTRY, reason: '  ' }] }, ['config/invalid-entry /acknowledged/1/reason']],
    ['a reason that is not a string', { acknowledged: [ENTRY, { ...ENTRY, reason: 1 }] }, ['config/invalid-entry /acknowledged/1/reason']],
    ['an unknown field', { acknowledged: [ENTRY, { ...ENTRY, until: '2027-01-01' }] }, ['config/invalid-entry /acknowledged/1/until']],
    ['an absolute file', { acknowledged: [ENTRY, { ...ENTRY, file: '/runtime/extra.js' }] }, ['config/invalid-entry /acknowledged/1/file']],
    ['a ".." file', { acknowledged: [ENTRY, { ...ENTRY, file: 'runtime/../extra.js' }] }, ['config/invalid-entry /acknowledged/1/file']],
    ['a reason too long', { acknowledged: [ENTRY, { ...ENTRY, reason: 'x'.repeat(1001) }] }, ['config/invalid-entry /acknowledged/1/reason']],
  ];
  for (const [what, config, expected] of rows) {
    const r = runCli(['check', project(t, config), '--json']);
    assert.equal(r.status, 1, `${what}: ${r.stderr}`);
    const configRules = rules(r.json).filter((x) => x.startsWith('config/'));
    assert.deepEqual(configRules, expected, what);
    assert.equal(r.json.findings.find((f) => f.rule.startsWith('config/')).file, CONFIG, what);
  }
  // The boundary: a reason of exactly the limit is read.
  const atLimit = runCli(['check', project(t, { acknowledged: [{ ...ENTRY, reason: 'x'.repeat(1000) }] }), '--json']);
  assert.deepEqual(rules(atLimit.json), []);
  // A file over the size cap, and a link, are not read.
  const large = project(t, `{"acknowledged": [], "pad": "${'x'.repeat(262_144)}"}`);
  assert.deepEqual(rules(runCli(['check', large, '--json']).json).sort(), ['bundle/unreferenced-module', 'config/invalid-json'], 'nothing acknowledged');
  const linked = project(t, undefined);
  writeFileSync(join(linked, 'real.json'), JSON.stringify({ acknowledged: [ENTRY] }));
  symlinkSync('real.json', join(linked, CONFIG));
  const l = runCli(['check', linked, '--json']);
  assert.deepEqual(rules(l.json).sort(), ['bundle/unreferenced-module', 'config/invalid-json'], 'a link is not followed');
});
