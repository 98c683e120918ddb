// `check --format sarif` against the published SARIF 2.1.0 schema (a dev-only copy in
// test/fixtures/sarif/, see its README), validated with ajv. The schema's URI formats are
// checked with an RFC 3986 grammar written here (ajv-formats is not a dependency), so a
// malformed artifact URI fails validation instead of passing as an unknown format.
// Beyond the schema: ruleIndex points at the rule named by ruleId, URIs are relative to the
// project with a base id, regions and pointers match the D-20 report, output is deterministic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import AjvModule from 'ajv';
import { makeProject, runCli, writeFiles, ROOT, BASE_HTML, BASE_MANIFEST } from '../support/project.mjs';
import { RULES } from '../../build/validator/rules.js';
import { buildReport } from '../../build/pipeline/report.js';
import { buildSarif, relativeFileUri, PROJECT_ROOT_BASE_ID, REPOSITORY_ROOT_BASE_ID } from '../../build/render/sarif.js';
import { repositoryRootOf } from '../../build/node/repository-root.js';
import { allExplanations } from '../../build/explain/all-explanations.js';

const Ajv = AjvModule.default ?? AjvModule;
const EXPLANATIONS = allExplanations();
const schema = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/sarif/sarif-schema-2.1.0.json'), 'utf8'));

// RFC 3986 section 2 and 3: the characters a URI may hold, and pct-encoded triplets only.
const URI_CHARS = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9A-Fa-f]{2})*$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
function isUriReference(text) {
  if (!URI_CHARS.test(text) || text.split('#').length > 2) return false;
  if (SCHEME.test(text)) return true;
  // A relative reference: its first segment must not hold ":" (it would read as a scheme).
  const first = text.split(/[/?#]/, 1)[0];
  return !first.includes(':');
}
const isUri = (text) => SCHEME.test(text) && isUriReference(text);
const isDateTime = (text) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i.test(text);

const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat('uri', isUri);
ajv.addFormat('uri-reference', isUriReference);
ajv.addFormat('date-time', isDateTime);
const validate = ajv.compile(schema);

function assertValid(log, label) {
  const ok = validate(log);
  assert.ok(ok, `${label}: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
}

function sarifOf(dir, extra = []) {
  const r = runCli(['check', dir, '--format', 'sarif', ...extra]);
  return { status: r.status, log: JSON.parse(r.stdout), stdout: r.stdout };
}

test('the schema oracle can fail: it refuses malformed logs and URIs', () => {
  const good = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [] }] };
  assert.equal(validate(good), true);
  const bad = [
    { runs: [] }, // no version
    { version: '2.0.0', runs: [] },
    { version: '2.1.0', runs: [{ tool: { driver: {} } }] }, // driver without name
    { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }] },
    { version: '2.1.0', runs: [{ tool: { driver: { name: 'x', rules: [{ id: 'a', defaultConfiguration: { level: 'info' } }] } } }] },
    { version: '2.1.0', runs: [{ tool: { driver: { name: 'x', informationUri: 'not a uri' } } }] },
    { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'a b.js' } } }] }] }] },
    { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'x.js' }, region: { startLine: 0 } } }] }] }] },
    { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, extra: 1 }] }] },
  ];
  for (const log of bad) assert.equal(validate(log), false, JSON.stringify(log));
  // The URI grammar, both sides.
  for (const uri of ['runtime/index.html', 'a%20b.png', 'file:///tmp/x/', 'https://www.npmjs.com/package/platform-ext', '']) assert.ok(isUriReference(uri), uri);
  for (const uri of ['a b', 'a%2', 'a%zz', ':x/y', 'é.png', 'a#b#c']) assert.ok(!isUriReference(uri), uri);
});

test('a report with errors and warnings validates; results mirror the D-20 report', (t) => {
  const dir = makeProject(t, {
    manifest: { extra: true, capabilities: ['cart.manage', 'cart.manage'] },
    files: {
      'runtime/index.html': '<!doctype html><meta charset="utf-8"><script>x()</script><form></form><script type="module" src="main.js"></script>\n',
      'runtime/main.js': "fetch('/a');\nlocalStorage.x = 1;\n",
      'runtime/notes.md': '# notes',
    },
  });
  const { status, log } = sarifOf(dir);
  assert.equal(status, 1);
  assertValid(log, 'errors and warnings');
  const report = runCli(['check', dir, '--json']).json;
  const [run] = log.runs;
  assert.equal(log.runs.length, 1);
  assert.equal(run.results.length, report.findings.length);
  assert.ok(report.errors > 0 && report.warnings > 0, 'both severities are present');
  run.results.forEach((result, i) => {
    const f = report.findings[i];
    assert.equal(result.ruleId, f.rule);
    assert.equal(result.level, f.severity);
    assert.equal(result.message.text, f.message);
    const [location] = result.locations;
    const artifact = location.physicalLocation.artifactLocation;
    assert.equal(artifact.uriBaseId, PROJECT_ROOT_BASE_ID);
    assert.equal(artifact.uri, relativeFileUri(f.file));
    assert.equal(location.physicalLocation.region?.startLine, f.line);
    assert.equal(location.physicalLocation.region?.startColumn, f.column);
    assert.equal(result.properties?.pointer, f.pointer);
    assert.equal(location.logicalLocations?.[0].fullyQualifiedName, f.pointer);
  });
  assert.deepEqual(run.invocations, [{ executionSuccessful: true, exitCode: 1 }]);
  assert.equal(run.columnKind, 'utf16CodeUnits', 'columns count UTF-16 code units, as the D-20 report does');
});

test('ruleIndex points at the rule named by ruleId; the rules are the whole catalogue, in order', (t) => {
  const dir = makeProject(t, { manifest: { extra: true }, files: { 'runtime/main.js': "fetch('/a');\n" } });
  const { log } = sarifOf(dir);
  const rules = log.runs[0].tool.driver.rules;
  assert.deepEqual(rules.map((r) => r.id), RULES.map((r) => r.id));
  for (const result of log.runs[0].results) assert.equal(rules[result.ruleIndex].id, result.ruleId);
  RULES.forEach((rule, i) => {
    const d = rules[i];
    assert.equal(d.shortDescription.text, rule.title);
    assert.equal(d.defaultConfiguration.level, rule.severity);
    assert.equal(d.properties.contractReference, rule.ref);
    assert.deepEqual(d.properties.tags, [rule.id.split('/')[0]]);
    assert.equal(d.fullDescription.text, EXPLANATIONS[rule.id].text, `${rule.id}: fullDescription is the --explain text`);
    assert.ok(d.help.text.startsWith(rule.hint), rule.id);
    assert.ok(d.help.markdown.includes(EXPLANATIONS[rule.id].example.after), rule.id);
  });
  const driver = log.runs[0].tool.driver;
  assert.equal(driver.name, 'platform-ext');
  assert.equal(driver.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
});

test('the log links to no web page that may not exist: no informationUri, no helpUri', (t) => {
  const dir = makeProject(t, { manifest: { extra: true } });
  const { log } = sarifOf(dir);
  const links = [];
  (function walk(value, path) {
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'informationUri' || key === 'helpUri') links.push(`${path}/${key}`);
      walk(inner, `${path}/${key}`);
    }
  })(log, '');
  assert.deepEqual(links, []);
});

test('no findings: a valid log with an empty results array, exit 0', () => {
  const { status, log } = sarifOf('examples/hello-world');
  assert.equal(status, 0);
  assertValid(log, 'no findings');
  assert.deepEqual(log.runs[0].results, []);
  assert.deepEqual(log.runs[0].invocations, [{ executionSuccessful: true, exitCode: 0 }]);
});

test('URIs are relative to the project; the base id says where the project was', (t) => {
  const dir = makeProject(t, { files: { 'runtime/notes.md': 'x', 'runtime/sub/a b%.txt': 'x' } });
  const { log } = sarifOf(dir);
  assertValid(log, 'odd names');
  const uris = log.runs[0].results.map((r) => r.locations[0].physicalLocation.artifactLocation.uri);
  assert.ok(uris.includes('runtime/notes.md'), uris.join(' '));
  assert.ok(uris.includes('runtime/sub/a%20b%25.txt'), uris.join(' '));
  for (const uri of uris) {
    assert.ok(!SCHEME.test(uri) && !uri.startsWith('/'), `${uri} is relative`);
    assert.ok(!uri.includes(dir), `${uri} holds no absolute path`);
  }
  assert.deepEqual(log.runs[0].originalUriBaseIds, { [PROJECT_ROOT_BASE_ID]: { uri: `${pathToFileURL(dir).href}/` } });
});

test('a project in a subfolder of a git repository: URIs are relative to the repository root', (t) => {
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'platform-ext-repo-')));
  t.after(() => rmSync(repo, { recursive: true, force: true }));
  const git = spawnSync('git', ['init', '-q', repo], { encoding: 'utf8' });
  assert.equal(git.status, 0, git.stderr);
  const project = join(repo, 'sites', 'my shop', 'ext');
  writeFiles(project, { 'manifest.json': JSON.stringify(BASE_MANIFEST), 'runtime/index.html': BASE_HTML, 'runtime/main.js': 'export {};\n', 'runtime/notes.md': 'x' });
  const { log } = sarifOf(project);
  assertValid(log, 'in a repository');
  const [location] = log.runs[0].results.find((r) => r.ruleId === 'bundle/extension-not-allowed').locations;
  assert.deepEqual(location.physicalLocation.artifactLocation, { uri: 'sites/my%20shop/ext/runtime/notes.md', uriBaseId: REPOSITORY_ROOT_BASE_ID });
  assert.deepEqual(log.runs[0].originalUriBaseIds, {
    [REPOSITORY_ROOT_BASE_ID]: { uri: `${pathToFileURL(repo).href}/` },
    [PROJECT_ROOT_BASE_ID]: { uri: 'sites/my%20shop/ext/', uriBaseId: REPOSITORY_ROOT_BASE_ID },
  });
  // The same project checked from its own folder (a relative target) names the same URIs.
  const fromInside = runCli(['check', '.', '--format', 'sarif'], { cwd: project });
  assert.equal(fromInside.stdout, JSON.stringify(log, null, 2) + '\n');
});

test('the repository root: the nearest .git upwards (a folder or a file), else GITHUB_WORKSPACE when it holds the project', (t) => {
  const top = realpathSync(mkdtempSync(join(tmpdir(), 'platform-ext-root-')));
  t.after(() => rmSync(top, { recursive: true, force: true }));
  mkdirSync(join(top, 'a', '.git'), { recursive: true });
  mkdirSync(join(top, 'a', 'b', 'c'), { recursive: true });
  mkdirSync(join(top, 'w', 'p'), { recursive: true });
  writeFileSync(join(top, 'a', 'b', '.git'), 'gitdir: ../.git/worktrees/b\n');
  const rows = [
    [join(top, 'a'), undefined, join(top, 'a')],
    [join(top, 'a', 'b', 'c'), undefined, join(top, 'a', 'b')],
    [join(top, 'a', 'b', 'c'), join(top, 'w'), join(top, 'a', 'b')],
    [join(top, 'w', 'p'), join(top, 'w'), join(top, 'w')],
    [join(top, 'w', 'p'), join(top, 'a'), undefined],
    [join(top, 'w', 'p'), '', undefined],
    [join(top, 'w'), undefined, undefined],
  ];
  for (const [dir, workspace, expected] of rows) assert.equal(repositoryRootOf(dir, workspace), expected, `${dir} ${workspace}`);
  // buildSarif: a project outside the given root keeps project-relative URIs.
  const report = buildReport('check', '/w/p', [{ rule: 'bundle/path-invalid', severity: 'error', message: 'Bad name', file: 'runtime/x y' }]);
  const rows2 = [
    ['/r', 'sub/p/runtime/x%20y', REPOSITORY_ROOT_BASE_ID],
    ['/w/p', 'runtime/x%20y', REPOSITORY_ROOT_BASE_ID],
    ['/elsewhere', 'runtime/x%20y', PROJECT_ROOT_BASE_ID],
    [undefined, 'runtime/x%20y', PROJECT_ROOT_BASE_ID],
  ];
  for (const [root, uri, baseId] of rows2) {
    const log = buildSarif(report, root === '/r' ? '/r/sub/p' : '/w/p', root);
    assertValid(log, String(root));
    assert.deepEqual(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation, { uri, uriBaseId: baseId }, String(root));
  }
});

test('pointer-only findings, findings without a file, and odd file names validate too', () => {
  const report = buildReport('check', '/w/p', [
    { rule: 'property/defaults-too-large', severity: 'error', message: 'All defaults together are too large', file: 'manifest.json', pointer: '/properties' },
    { rule: 'property/settings-too-large', severity: 'error', message: 'Settings too large', pointer: '/settings' },
    { rule: 'bundle/missing-runtime', severity: 'error', message: 'There is no bundle root folder' },
    { rule: 'bundle/path-invalid', severity: 'error', message: 'Bad name', file: 'runtime/é #1?:x.png' },
    { rule: 'js/network-api', severity: 'warning', message: 'fetch', file: 'runtime/main.js', line: 3, column: 7 },
  ]);
  const log = buildSarif(report, '/w/p');
  assertValid(log, 'synthetic');
  const [pointerOnly, noFile, nothing, odd, located] = log.runs[0].results;
  assert.deepEqual(pointerOnly.locations, [
    {
      physicalLocation: { artifactLocation: { uri: 'manifest.json', uriBaseId: PROJECT_ROOT_BASE_ID } },
      logicalLocations: [{ fullyQualifiedName: '/properties', kind: 'member' }],
    },
  ]);
  // D-20a: each result carries its rule's hint.
  assert.deepEqual(pointerOnly.properties, { pointer: '/properties', hint: RULES.find((r) => r.id === 'property/defaults-too-large').hint });
  assert.deepEqual(nothing.properties, { hint: RULES.find((r) => r.id === 'bundle/missing-runtime').hint });
  assert.deepEqual(noFile.locations, [{ logicalLocations: [{ fullyQualifiedName: '/settings', kind: 'member' }] }]);
  assert.equal(nothing.locations, undefined);
  assert.equal(odd.locations[0].physicalLocation.artifactLocation.uri, 'runtime/%C3%A9%20%231%3F%3Ax.png');
  assert.deepEqual(located.locations[0].physicalLocation.region, { startLine: 3, startColumn: 7 });
  assert.equal(located.level, 'warning');
  assert.equal(located.ruleIndex, RULES.findIndex((r) => r.id === 'js/network-api'));
});

test('--strict is recorded in the log: exit code and a run property', (t) => {
  const dir = makeProject(t, { files: { 'runtime/main.js': "fetch('/a');\n" } });
  const plain = sarifOf(dir);
  const strict = sarifOf(dir, ['--strict']);
  assert.equal(plain.status, 0);
  assert.equal(strict.status, 1);
  assertValid(strict.log, 'strict');
  assert.deepEqual(plain.log.runs[0].properties, { contract_version: 1 });
  assert.deepEqual(strict.log.runs[0].properties, { contract_version: 1, strict: true });
  assert.equal(strict.log.runs[0].invocations[0].exitCode, 1);
  assert.equal(strict.log.runs[0].results[0].level, 'warning', 'levels stay the catalogue severities');
});

test('deterministic: the same project gives the same bytes, from any working folder', (t) => {
  const dir = makeProject(t, { manifest: { extra: true }, files: { 'runtime/main.js': "fetch('/a');\n" } });
  const a = runCli(['check', dir, '--format', 'sarif']).stdout;
  const b = runCli(['check', dir, '--format', 'sarif']).stdout;
  const c = runCli(['check', '.', '--format', 'sarif'], { cwd: dir }).stdout;
  assert.equal(a, b);
  assert.equal(a, c);
  assert.doesNotMatch(a, /\d{4}-\d{2}-\d{2}T\d{2}:/, 'no timestamps');
});

test('a log whose report left findings out validates, lists at most the cap per rule and file, and says how many per rule', async (t) => {
  const { MAX_FINDINGS_PER_RULE_AND_FILE: CAP } = await import('../../build/validator/limits.js');
  const urls = Array.from({ length: CAP * 3 }, (_, i) => `url(m${i}.png)`).join(' ');
  const dir = makeProject(t, {
    files: {
      'runtime/index.html': '<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="s.css"><script type="module" src="main.js"></script>\n',
      'runtime/s.css': `a{b:${urls}}`,
    },
  });
  const { status, log } = sarifOf(dir);
  assert.equal(status, 1);
  assertValid(log, 'truncated');
  const results = log.runs[0].results.filter((r) => r.ruleId === 'css/missing-reference');
  assert.equal(results.length, CAP);
  assert.deepEqual(log.runs[0].properties.truncated, { 'css/missing-reference': CAP * 2 });
});
