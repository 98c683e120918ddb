// `check --baseline <previous-release-dir>`: the release diff (contract "Versioning";
// "States and transitions", capability grant; D-7, D-24). Both sides of every rule: the
// pure diff over two manifests (src/validator/release-diff.ts), semantic-version precedence,
// which property types keep saved values, and the CLI end to end (a real package as the
// baseline; folders that are not a submission set are usage errors, exit 2, D-21).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_MANIFEST, ROOT, makeProject, runCli, summarize, tempDir } from '../support/project.mjs';
import { FindingList, RULES, compareSemver, diffReleases, readReleaseManifest, savedValuesCarryOver, PROPERTY_TYPES, isSemver, SUBMISSION_FILES } from '../../build/validator/internal.js';

const encode = (value) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
const manifestOf = (overrides) => ({ ...BASE_MANIFEST, ...overrides });

/** `rule pointer` for each finding of diffing `current` against `baseline` (field overrides of BASE_MANIFEST). */
function diff(baseline, current) {
  const findings = new FindingList();
  diffReleases(readReleaseManifest(encode(manifestOf(baseline))), readReleaseManifest(encode(manifestOf(current))), findings);
  return findings.items.map((f) => `${f.rule} ${f.pointer}`);
}

const TEXT = { type: 'text', label: 'T' };
const NUMBER = { type: 'number', label: 'N', min: 1, max: 10 };
const SELECT = { type: 'select', label: 'S', options: [{ label: 'A', value: 'a' }, { label: 'B', value: 'b' }] };

test('version: a later release needs a higher version by semver precedence (Versioning; D-24)', () => {
  // [what it proves, baseline version, current version, expected findings]
  const NOT_HIGHER = ['baseline/version-not-higher /version'];
  const rows = [
    ['same version', '1.0.0', '1.0.0', NOT_HIGHER],
    ['patch higher', '1.0.0', '1.0.1', []],
    ['minor higher', '1.0.9', '1.1.0', []],
    ['major higher', '1.9.9', '2.0.0', []],
    ['lower patch', '1.0.1', '1.0.0', NOT_HIGHER],
    ['lower major, higher minor', '2.0.0', '1.99.0', NOT_HIGHER],
    ['numbers compare as numbers: 1.10.0 > 1.9.0', '1.9.0', '1.10.0', []],
    ['numbers compare as numbers: 1.9.0 < 1.10.0', '1.10.0', '1.9.0', NOT_HIGHER],
    ['release above its pre-release', '1.0.0-rc.1', '1.0.0', []],
    ['pre-release below its release', '1.0.0', '1.0.0-rc.1', NOT_HIGHER],
    ['pre-release of the next patch is higher', '1.0.0', '1.0.1-alpha', []],
    ['rc.2 > rc.1', '1.0.0-rc.1', '1.0.0-rc.2', []],
    ['numeric identifiers as numbers: rc.10 > rc.2', '1.0.0-rc.2', '1.0.0-rc.10', []],
    ['numeric identifier below alphanumeric: alpha.1 < alpha.beta', '1.0.0-alpha.beta', '1.0.0-alpha.1', NOT_HIGHER],
    ['longer identifier list wins: alpha.1 > alpha', '1.0.0-alpha', '1.0.0-alpha.1', []],
    ['alphanumeric in ASCII order: beta > alpha', '1.0.0-alpha', '1.0.0-beta', []],
    ['ASCII order: upper case sorts before lower case', '1.0.0-alpha', '1.0.0-Beta', NOT_HIGHER],
    ['build metadata does not count: same precedence', '1.0.0+build.1', '1.0.0+build.2', NOT_HIGHER],
    ['build metadata does not count: added', '1.0.0', '1.0.0+hotfix', NOT_HIGHER],
    ['build metadata on a higher version', '1.0.0+a', '1.0.1', []],
    ['largest numeric identifier (D-24)', '9007199254740990.0.0', '9007199254740991.0.0', []],
    ['current version not a semver: the manifest check reports it, no diff finding', '1.0.0', '1.0', []],
    ['current version not a string: no diff finding', '1.0.0', 2, []],
  ];
  for (const [what, from, to, expected] of rows) assert.deepEqual(diff({ version: from }, { version: to }), expected, what);
});

test('semver precedence: the ordered list of semver.org section 11, every pair both ways', () => {
  const ordered = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.1.0', '2.0.0', '10.0.0'];
  for (const v of ordered) assert.ok(isSemver(v), v);
  for (let i = 0; i < ordered.length; i++) {
    for (let j = 0; j < ordered.length; j++) {
      const expected = i < j ? -1 : i > j ? 1 : 0;
      assert.equal(compareSemver(ordered[i], ordered[j]), expected, `${ordered[i]} vs ${ordered[j]}`);
    }
  }
  assert.equal(compareSemver('1.0.0+a', '1.0.0+b'), 0, 'build metadata is ignored');
  assert.equal(compareSemver('1.0.0-rc.1+a', '1.0.0-rc.1'), 0);
  // Exact beyond the precision of a double's ordering of nearby values.
  assert.equal(compareSemver('1.0.0-9007199254740991', '1.0.0-9007199254740990'), 1);
});

test('namespace: immutable across releases (Manifest; Versioning)', () => {
  const rows = [
    ['same namespace', 'acme/test-ext', []],
    ['another package slug', 'acme/test-ext-2', ['baseline/namespace-changed /namespace']],
    ['another publisher slug', 'other/test-ext', ['baseline/namespace-changed /namespace']],
  ];
  for (const [what, namespace, expected] of rows) {
    assert.deepEqual(diff({ version: '1.0.0' }, { version: '1.0.1', namespace }), expected, what);
  }
  assert.deepEqual(diff({}, { version: '1.0.1', namespace: 7 }), [], 'a namespace of the wrong type is the manifest check\'s finding');
});

test('capabilities: added ones need a new permission review, removed ones lose their grant', () => {
  const rows = [
    ['unchanged', ['cart.manage'], ['cart.manage'], []],
    ['reordered', ['cart.manage', 'site.theme.read'], ['site.theme.read', 'cart.manage'], []],
    ['one added', ['cart.manage'], ['cart.manage', 'forms.submit'], ['baseline/capability-added /capabilities/1']],
    ['added to none', [], ['site.theme.read'], ['baseline/capability-added /capabilities/0']],
    ['added twice (the manifest check reports the duplicate)', [], ['forms.submit', 'forms.submit'], ['baseline/capability-added /capabilities/0']],
    ['one removed', ['cart.manage', 'forms.submit'], ['cart.manage'], ['baseline/capability-removed /capabilities']],
    ['all removed', ['cart.manage', 'forms.submit'], [], ['baseline/capability-removed /capabilities', 'baseline/capability-removed /capabilities']],
    ['one swapped for another', ['cart.manage'], ['forms.submit'], ['baseline/capability-added /capabilities/0', 'baseline/capability-removed /capabilities']],
  ];
  for (const [what, before, after, expected] of rows) {
    assert.deepEqual(diff({ capabilities: before }, { version: '1.0.1', capabilities: after }), expected, what);
  }
});

test('properties: removed, retyped or narrowed is a warning (D-28), added or widened is fine', () => {
  const rows = [
    ['unchanged', { a: TEXT }, { a: TEXT }, []],
    ['added', { a: TEXT }, { a: TEXT, b: NUMBER }, []],
    ['removed', { a: TEXT, b: NUMBER }, { a: TEXT }, ['baseline/property-removed /properties']],
    ['renamed (removed + added)', { a: TEXT }, { a2: TEXT }, ['baseline/property-removed /properties']],
    ['retyped text -> number', { a: TEXT }, { a: { type: 'number', label: 'T' } }, ['baseline/property-retyped /properties/a/type']],
    ['retyped textarea -> text (4096 bytes do not fit 500)', { a: { type: 'textarea', label: 'T' } }, { a: TEXT }, ['baseline/property-retyped /properties/a/type']],
    ['widened text -> textarea', { a: TEXT }, { a: { type: 'textarea', label: 'T' } }, []],
    ['url -> image (one rule, D-9)', { a: { type: 'url', label: 'U' } }, { a: { type: 'image', label: 'U' } }, []],
    ['select -> text', { a: SELECT }, { a: TEXT }, []],
    ['text -> select', { a: TEXT }, { a: SELECT }, ['baseline/property-retyped /properties/a/type']],
    ['boolean -> text', { a: { type: 'boolean', label: 'B' } }, { a: TEXT }, ['baseline/property-retyped /properties/a/type']],
    ['select option removed', { a: SELECT }, { a: { ...SELECT, options: [SELECT.options[0]] } }, ['baseline/property-narrowed /properties/a/options']],
    ['select option added', { a: SELECT }, { a: { ...SELECT, options: [...SELECT.options, { label: 'C', value: 'c' }] } }, []],
    ['select option relabelled (same value)', { a: SELECT }, { a: { ...SELECT, options: [{ label: 'Z', value: 'a' }, SELECT.options[1]] } }, []],
    ['number min raised', { n: NUMBER }, { n: { ...NUMBER, min: 2 } }, ['baseline/property-narrowed /properties/n/min']],
    ['number max lowered', { n: NUMBER }, { n: { ...NUMBER, max: 9 } }, ['baseline/property-narrowed /properties/n/max']],
    ['number range widened', { n: NUMBER }, { n: { ...NUMBER, min: 0, max: 11 } }, []],
    ['number gains a bound', { n: { type: 'number', label: 'N' } }, { n: { type: 'number', label: 'N', max: 5 } }, ['baseline/property-narrowed /properties/n/max']],
    ['number loses its bounds', { n: NUMBER }, { n: { type: 'number', label: 'N' } }, []],
    // A definition with its own errors still exists: never "removed", and an unknown type is not compared.
    ['current definition with an unknown type', { a: TEXT }, { a: { type: 'texty', label: 'T' } }, []],
    ['current definition that is not an object', { a: TEXT }, { a: 'text' }, []],
  ];
  for (const [what, before, after, expected] of rows) {
    assert.deepEqual(diff({ properties: before }, { version: '1.0.1', properties: after }), expected, what);
  }
  for (const id of ['baseline/property-removed', 'baseline/property-retyped', 'baseline/property-narrowed']) {
    assert.equal(RULES.find((r) => r.id === id)?.severity, 'warning', `${id} is a warning (D-28)`);
  }
  assert.equal(RULES.find((r) => r.id === 'baseline/version-not-higher')?.severity, 'error', 'the same version stays an error');
});

test('saved values carry over exactly to the same type, url <-> image, and larger free-text types', () => {
  const allowed = new Set(['text>textarea', 'select>text', 'select>textarea', 'color>text', 'color>textarea', 'url>image', 'image>url', 'url>textarea', 'image>textarea']);
  for (const from of PROPERTY_TYPES) {
    for (const to of PROPERTY_TYPES) {
      assert.equal(savedValuesCarryOver(from, to), from === to || allowed.has(`${from}>${to}`), `${from} -> ${to}`);
    }
  }
});

test('findings point into the current manifest with line and column', () => {
  const baseline = readReleaseManifest(encode(manifestOf({})));
  const text = JSON.stringify(manifestOf({ version: '1.0.0', capabilities: ['forms.submit'] }), null, 2);
  const current = readReleaseManifest(encode(text));
  const findings = new FindingList();
  diffReleases(baseline, current, findings, { file: 'release/manifest.json' });
  const lines = text.split('\n');
  for (const f of findings.items) {
    assert.equal(f.file, 'release/manifest.json');
    const needle = f.rule === 'baseline/version-not-higher' ? '"1.0.0"' : '"forms.submit"';
    assert.equal(lines[f.line - 1].indexOf(needle) + 1, f.column, f.rule);
  }
  assert.deepEqual(findings.items.map((f) => f.rule).sort(), ['baseline/capability-added', 'baseline/version-not-higher']);
  assert.equal(readReleaseManifest(encode('[]')), null, 'not an object');
  assert.equal(readReleaseManifest(encode('{"a":1,"a":2}')), null, 'duplicate keys (D-5)');
});

// ---------------------------------------------------------------------------------
// The CLI, end to end.
// ---------------------------------------------------------------------------------

/** The example packaged for real: the baseline release and a copy of its project to change. */
function releasedExample(t) {
  const dir = tempDir(t);
  const key = runCli(['keygen', '--private-key', join(dir, 'k.pem'), '--public-key', join(dir, 'k.pub')]);
  assert.equal(key.status, 0, key.stderr);
  const project = join(dir, 'project');
  cpSync(join(ROOT, 'examples/hello-world'), project, { recursive: true });
  const release = join(dir, 'release-1.0.0');
  const r = runCli(['package', project, '--out', release, '--private-key', join(dir, 'k.pem')]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const edit = (change) => {
    const path = join(project, 'manifest.json');
    writeFileSync(path, JSON.stringify(change(JSON.parse(readFileSync(path, 'utf8'))), null, 2));
  };
  return { dir, project, release, edit };
}

test('check --baseline against a real package: exit status and rule ids for each change', (t) => {
  const { project, release, edit } = releasedExample(t);
  const check = (...extra) => runCli(['check', project, '--baseline', release, '--json', ...extra]);

  let r = check();
  assert.equal(r.status, 1, 'unchanged project: same version');
  assert.deepEqual(summarize(r.json), ['baseline/version-not-higher manifest.json /version']);

  edit((m) => ({ ...m, version: '1.0.1' }));
  r = check();
  assert.equal(r.status, 0, r.stdout);
  assert.deepEqual(r.json.findings, []);

  edit((m) => ({ ...m, capabilities: [...m.capabilities, 'forms.submit'] }));
  r = check();
  assert.equal(r.status, 0, 'an added capability is a warning');
  // No module of the example uses the new capability: D-34 says so too.
  assert.deepEqual(summarize(r.json), ['baseline/capability-added manifest.json /capabilities/4', 'js/capability-unused manifest.json /capabilities/4']);
  assert.equal(check('--strict').status, 1, '--strict fails on the warning');

  edit((m) => {
    const { accent, ...rest } = m.properties;
    return { ...m, capabilities: m.capabilities.filter((c) => c !== 'forms.submit'), properties: rest };
  });
  r = check();
  assert.equal(r.status, 0, 'a removed property is a warning (D-28: names and types "should" be kept)');
  // The example's code still reads settings.accent, which now never has a value.
  assert.deepEqual(summarize(r.json), ['baseline/property-removed manifest.json /properties', 'js/setting-unknown runtime/main.js']);
  assert.equal(r.json.findings[0].severity, 'warning');
  assert.equal(check('--strict').status, 1, '--strict fails on it');

  edit((m) => ({ ...m, namespace: 'acme/hello-world-2', properties: { ...m.properties, accent: { type: 'color', label: 'Accent colour' } } }));
  r = check();
  assert.equal(r.status, 1);
  assert.deepEqual(summarize(r.json), ['baseline/namespace-changed manifest.json /namespace']);

  // Without --baseline, nothing of the diff.
  r = runCli(['check', project, '--json']);
  assert.equal(r.status, 0, r.stdout);
  assert.ok(r.json.findings.every((f) => !f.rule.startsWith('baseline/')));
  // The text and SARIF outputs carry the same findings.
  r = runCli(['check', project, '--baseline', release, '--format', 'sarif']);
  assert.equal(r.status, 1);
  assert.deepEqual(r.json.runs[0].results.map((x) => x.ruleId), ['baseline/namespace-changed']);
  r = runCli(['check', project, '--baseline', release]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /baseline\/namespace-changed/);
});

test('check --baseline: a folder that is not a readable submission set is a usage error (exit 2)', (t) => {
  const dir = tempDir(t);
  const project = makeProject(t);
  const good = JSON.stringify(manifestOf({ version: '0.9.0' }));
  const set = (name, files) => {
    const folder = join(dir, name);
    mkdirSync(folder);
    for (const [file, content] of Object.entries(files)) writeFileSync(join(folder, file), content);
    return folder;
  };
  const five = (manifest) => Object.fromEntries(SUBMISSION_FILES.map((f) => [f, f === 'manifest.json' ? manifest : 'x']));
  writeFileSync(join(dir, 'a-file'), good);
  // [what it proves, baseline path, a fragment the message must name]
  const rows = [
    ['missing folder', join(dir, 'nope'), 'nope'],
    ['a file, not a folder', join(dir, 'a-file'), 'a-file'],
    ['empty folder', set('empty', {}), 'bundle.zip'],
    ['only the manifest', set('manifest-only', { 'manifest.json': good }), 'signature.txt'],
    ['manifest is not JSON', set('not-json', five('{"version": "1.0.0",}')), 'manifest.json'],
    ['manifest is not an object', set('array', five('[]')), 'manifest.json'],
    ['manifest has a BOM (D-5)', set('bom', five('\ufeff' + good)), 'manifest.json'],
    ['manifest has no valid version', set('no-version', five(JSON.stringify(manifestOf({ version: 'one' })))), '"version"'],
    ['manifest has no valid namespace', set('no-namespace', five(JSON.stringify(manifestOf({ namespace: 'Acme' })))), '"namespace"'],
  ];
  for (const [what, baseline, fragment] of rows) {
    const r = runCli(['check', project, '--baseline', baseline, '--json']);
    assert.equal(r.status, 2, `${what}: ${r.stdout}${r.stderr}`);
    assert.equal(r.stdout, '', `${what}: no report`);
    assert.ok(r.stderr.startsWith('platform-ext: ') && r.stderr.includes(fragment), `${what}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /\n\s+at /, `${what}: no stack trace`);
  }
  // Both sides: the same set with a good manifest is a baseline (only the manifest is compared).
  const r = runCli(['check', project, '--baseline', set('good', five(good)), '--json']);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.json.findings, []);
  // The flag belongs to checking a folder.
  assert.equal(runCli(['check', '--list-rules', '--baseline', join(dir, 'good')]).status, 2);
  assert.equal(runCli(['check', '--explain', 'baseline/namespace-changed', '--baseline', join(dir, 'good')]).status, 2);
  assert.equal(runCli(['check', project, '--baseline']).status, 2, 'the flag needs a value');
});
