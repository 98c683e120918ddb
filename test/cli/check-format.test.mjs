// `check` output options: --format text|json|sarif and its alias --json (conflicts are
// usage errors, exit 2 per D-21), --strict on both sides of the boundary (warnings only:
// exit 0 without, 1 with; no findings: 0 with), and GitHub Actions workflow annotations
// (printed only when GITHUB_ACTIONS=true, only with text output, escaped as the runner reads them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeProject, runCli, ROOT } from '../support/project.mjs';
import { annotationPath, escapeData, escapeProperty, renderAnnotations } from '../../build/render/annotations.js';
import { buildReport } from '../../build/pipeline/report.js';

const WARNINGS_ONLY = { files: { 'runtime/main.js': "fetch('/api');\n" } }; // js/network-api (warning)
const ERRORS_ONLY = { manifest: { extra: true } }; // manifest/unknown-field (error)
const BOTH = { manifest: { extra: true }, files: { 'runtime/main.js': "fetch('/api');\n" } };

/** What stdout is: a D-20 report, a SARIF log, or text. */
function kindOf(stdout) {
  try {
    const value = JSON.parse(stdout);
    if (value.format === 'platform-extension-report-v1') return 'json';
    if (value.version === '2.1.0' && Array.isArray(value.runs)) return 'sarif';
    return 'other-json';
  } catch {
    return 'text';
  }
}

function githubEnv(extra) {
  return { env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: '', ...extra } };
}

const annotationLines = (stdout) => stdout.split('\n').filter((l) => l.startsWith('::'));

test('--format matrix: each value and the --json alias select the output; default is text', (t) => {
  const dir = makeProject(t);
  const rows = [
    [[], 'text'],
    [['--format', 'text'], 'text'],
    [['--format=text'], 'text'],
    [['--format', 'json'], 'json'],
    [['--format=json'], 'json'],
    [['--json'], 'json'],
    [['--json', '--format', 'json'], 'json'],
    [['--format', 'json', '--json'], 'json'],
    [['--format', 'sarif'], 'sarif'],
    [['--format=sarif'], 'sarif'],
  ];
  for (const [args, kind] of rows) {
    const r = runCli(['check', dir, ...args]);
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(kindOf(r.stdout), kind, args.join(' '));
    assert.equal(r.stderr, '', args.join(' '));
  }
});

test('--json is exactly --format json (same bytes), with and without findings', (t) => {
  for (const spec of [{}, BOTH]) {
    const dir = makeProject(t, spec);
    const a = runCli(['check', dir, '--json']);
    const b = runCli(['check', dir, '--format', 'json']);
    assert.equal(a.status, b.status);
    assert.equal(a.stdout, b.stdout);
  }
});

test('conflicting or unknown format options are usage errors (exit 2, nothing on stdout)', (t) => {
  const dir = makeProject(t);
  const rows = [
    // [args, a fragment stderr must contain]
    [['--json', '--format', 'text'], '"--format text"'],
    [['--json', '--format', 'sarif'], '"--format sarif"'],
    [['--format', 'sarif', '--json'], '"--json"'],
    [['--format', 'xml'], '"xml"'],
    [['--format', 'JSON'], 'did you mean "json"'],
    [['--format', 'sarf'], 'did you mean "sarif"'],
    [['--format', ''], '"--format"'],
    [['--format'], '--format'],
    [['--strict=yes'], '--strict'],
  ];
  for (const [args, fragment] of rows) {
    const r = runCli(['check', dir, ...args]);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}`);
    assert.equal(r.stdout, '', args.join(' '));
    assert.ok(r.stderr.includes(fragment), `${args.join(' ')}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('--list-rules and --explain refuse options that only shape a check (exit 2)', (t) => {
  const dir = makeProject(t);
  const rows = [
    ['check', '--list-rules', '--format', 'sarif'],
    ['check', '--list-rules', '--strict'],
    ['check', '--list-rules', dir],
    ['check', '--explain', 'manifest/bom', '--format', 'sarif'],
    ['check', '--explain', 'manifest/bom', '--strict'],
    ['check', '--explain', 'manifest/bom', dir],
    ['check', '--explain', 'manifest/bom', '--list-rules'],
  ];
  for (const args of rows) {
    const r = runCli(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
  }
  // ...and accept the format options that do apply.
  assert.equal(kindOf(runCli(['check', '--list-rules', '--format', 'json']).stdout), 'other-json');
  assert.equal(runCli(['check', '--list-rules', '--format', 'json']).stdout, runCli(['check', '--list-rules', '--json']).stdout);
  assert.equal(runCli(['check', '--list-rules', '--format', 'text']).stdout, runCli(['check', '--list-rules']).stdout);
});

test('--list-rules --json prints the document contract-snapshot/rules.json holds (one shape per format id)', () => {
  const r = runCli(['check', '--list-rules', '--json']);
  assert.equal(r.status, 0);
  const printed = JSON.parse(r.stdout);
  assert.deepEqual(printed, JSON.parse(readFileSync(join(ROOT, 'contract-snapshot/rules.json'), 'utf8')));
  assert.equal(printed.format, 'platform-extension-rules-v1');
  assert.equal(printed.contract, 1);
});

test('--strict: exit status on both sides of the warning boundary, in every format', (t) => {
  const projects = {
    clean: makeProject(t),
    warnings: makeProject(t, WARNINGS_ONLY),
    errors: makeProject(t, ERRORS_ONLY),
    both: makeProject(t, BOTH),
  };
  // [project, --strict, expected exit status]
  const rows = [
    ['clean', false, 0],
    ['clean', true, 0],
    ['warnings', false, 0],
    ['warnings', true, 1],
    ['errors', false, 1],
    ['errors', true, 1],
    ['both', false, 1],
    ['both', true, 1],
  ];
  for (const [name, strict, status] of rows) {
    for (const format of ['text', 'json', 'sarif']) {
      const args = ['check', projects[name], '--format', format, ...(strict ? ['--strict'] : [])];
      const r = runCli(args);
      assert.equal(r.status, status, `${name} ${format} strict=${strict}: ${r.stderr}`);
      if (format === 'json') {
        assert.equal(r.json.ok, status === 0, `${name} strict=${strict}: ok follows the exit status`);
        assert.equal(r.json.strict, strict ? true : undefined, 'strict appears only under --strict');
      }
      if (format === 'sarif') assert.equal(JSON.parse(r.stdout).runs[0].invocations[0].exitCode, status);
    }
  }
});

test('--strict: the reports say why a warnings-only run failed; without it the D-20 report is unchanged', (t) => {
  const dir = makeProject(t, WARNINGS_ONLY);
  const plain = runCli(['check', dir, '--json']);
  assert.equal(plain.status, 0);
  assert.deepEqual(Object.keys(plain.json), ['format', 'command', 'target', 'ok', 'errors', 'warnings', 'findings', 'tool', 'contract_version']);
  assert.deepEqual(plain.json.findings.map((f) => f.rule), ['js/network-api']);
  const strict = runCli(['check', dir, '--json', '--strict']);
  assert.deepEqual(Object.keys(strict.json), ['format', 'command', 'target', 'ok', 'strict', 'errors', 'warnings', 'findings', 'tool', 'contract_version']);
  assert.deepEqual({ ...strict.json, ok: true, strict: undefined }, { ...plain.json, strict: undefined }, 'only ok and strict differ');
  const text = runCli(['check', dir, '--strict']);
  const summary = text.stdout.trimEnd().split('\n').at(-1);
  assert.match(summary, /--strict/);
  assert.doesNotMatch(runCli(['check', dir]).stdout, /--strict/);
  // A clean project under --strict says nothing about it: nothing failed.
  assert.doesNotMatch(runCli(['check', makeProject(t), '--strict']).stdout, /--strict/);
});

test('GitHub annotations: printed only when GITHUB_ACTIONS is exactly "true", and only with text output', (t) => {
  const dir = makeProject(t, BOTH);
  const workspace = dirname(dir);
  for (const value of ['', 'false', '1', 'TRUE', 'yes']) {
    const r = runCli(['check', dir], githubEnv({ GITHUB_ACTIONS: value, GITHUB_WORKSPACE: workspace }));
    assert.equal(annotationLines(r.stdout).length, 0, `GITHUB_ACTIONS=${JSON.stringify(value)}`);
  }
  const r = runCli(['check', dir], githubEnv({ GITHUB_WORKSPACE: workspace }));
  assert.equal(r.status, 1);
  const report = runCli(['check', dir, '--json']).json;
  const lines = annotationLines(r.stdout);
  assert.equal(lines.length, report.findings.length, 'one command per finding');
  lines.forEach((line, i) => {
    const f = report.findings[i];
    const m = /^::(error|warning) ([^:]*)::(.*)$/.exec(line);
    assert.ok(m, line);
    assert.equal(m[1], f.severity);
    const props = Object.fromEntries(m[2].split(',').map((p) => p.split('=')));
    assert.equal(props.title, f.rule);
    assert.equal(props.file, `${dir.slice(workspace.length + 1)}/${f.file}`, 'relative to GITHUB_WORKSPACE');
    assert.equal(props.line, f.line === undefined ? undefined : String(f.line));
    assert.equal(props.col, f.column === undefined ? undefined : String(f.column));
  });
  // The text report still follows, unchanged.
  assert.ok(r.stdout.endsWith(runCli(['check', dir]).stdout));
  for (const format of ['json', 'sarif']) {
    const machine = runCli(['check', dir, '--format', format], githubEnv({ GITHUB_WORKSPACE: workspace }));
    assert.equal(kindOf(machine.stdout), format, `${format} stays one parseable document`);
  }
});

test('GitHub annotations: a project outside GITHUB_WORKSPACE (or with none) gets absolute paths', (t) => {
  const dir = makeProject(t, ERRORS_ONLY);
  for (const workspace of ['', join(ROOT, 'test')]) {
    const r = runCli(['check', dir], githubEnv({ GITHUB_WORKSPACE: workspace }));
    const [line] = annotationLines(r.stdout);
    assert.ok(line.includes(`file=${escapeProperty(join(dir, 'manifest.json'))},`), line);
  }
});

test('GitHub annotations: file names and messages are escaped, so every finding stays one command', (t) => {
  // Bundle names that break D-2 reach the messages and the file= property verbatim.
  const dir = makeProject(t, {
    files: { 'runtime/a,b:c.png': 'x', 'runtime/100%.png': 'x', 'runtime/two\nlines.png': 'x' },
  });
  const report = runCli(['check', dir, '--json']).json;
  assert.ok(report.findings.length >= 3);
  const r = runCli(['check', dir], githubEnv({ GITHUB_WORKSPACE: dirname(dir) }));
  const lines = annotationLines(r.stdout);
  assert.equal(lines.length, report.findings.length);
  const base = dir.slice(dirname(dir).length + 1);
  const files = lines.map((l) => /file=([^,]*),/.exec(l)?.[1]);
  assert.ok(files.includes(`${base}/runtime/a%2Cb%3Ac.png`), files.join(' '));
  assert.ok(files.includes(`${base}/runtime/100%25.png`), files.join(' '));
  // D-29: a control character in a name is written as \u{…} before the runner's own escaping.
  assert.ok(files.includes(`${base}/runtime/two\\u{a}lines.png`), files.join(' '));
  for (const line of lines) assert.doesNotMatch(line.slice(line.indexOf('::', 2) + 2), /[\r\n]/);
});

test('escaping table: data escapes %, CR, LF; properties also : and ,', () => {
  // [input, escapeData, escapeProperty]
  const rows = [
    ['runtime/index.html', 'runtime/index.html', 'runtime/index.html'],
    ['100%', '100%25', '100%25'],
    ['%0A', '%250A', '%250A'],
    ['a\nb', 'a%0Ab', 'a%0Ab'],
    ['a\r\nb', 'a%0D%0Ab', 'a%0D%0Ab'],
    ['a:b', 'a:b', 'a%3Ab'],
    ['a,b', 'a,b', 'a%2Cb'],
    ['::stop-commands::x', '::stop-commands::x', '%3A%3Astop-commands%3A%3Ax'],
    ['x\n::error::injected', 'x%0A::error::injected', 'x%0A%3A%3Aerror%3A%3Ainjected'],
    ['', '', ''],
  ];
  for (const [input, data, property] of rows) {
    assert.equal(escapeData(input), data, JSON.stringify(input));
    assert.equal(escapeProperty(input), property, JSON.stringify(input));
  }
});

test('annotation paths: relative inside the workspace, absolute outside it', () => {
  // [project, file, workspace, expected]
  const rows = [
    ['/w/repo', 'manifest.json', '/w/repo', 'manifest.json'],
    ['/w/repo/ext', 'runtime/a.js', '/w/repo', 'ext/runtime/a.js'],
    ['/w/repo/ext', 'runtime/a.js', '/w/repo/', 'ext/runtime/a.js'],
    ['/w/repo2', 'manifest.json', '/w/repo', '/w/repo2/manifest.json'],
    ['/w/other', 'manifest.json', '/w/repo', '/w/other/manifest.json'],
    ['/w/repo', 'manifest.json', undefined, '/w/repo/manifest.json'],
    ['/w/repo', 'manifest.json', '', '/w/repo/manifest.json'],
    ['/w/repo', '..weird/x.js', '/w/repo', '..weird/x.js'],
  ];
  for (const [project, file, workspace, expected] of rows) {
    assert.equal(annotationPath(project, file, workspace), expected, `${project} ${file} ${workspace}`);
  }
});

test('annotations for findings without a line or without a file: no line=/file= property, pointer in the message', () => {
  const report = buildReport('check', '.', [
    { rule: 'property/defaults-too-large', severity: 'error', message: 'Too big', file: 'manifest.json', pointer: '/properties' },
    { rule: 'bundle/missing-runtime', severity: 'error', message: 'No runtime' },
  ]);
  const lines = renderAnnotations(report, '/w/repo', '/w/repo').trimEnd().split('\n');
  assert.deepEqual(lines.map((l) => l.slice(0, l.indexOf('::', 2) + 2)), [
    '::error file=manifest.json,title=property/defaults-too-large::',
    '::error title=bundle/missing-runtime::',
  ]);
  assert.ok(lines[0].includes('(/properties)'));
  assert.equal(renderAnnotations(buildReport('check', '.', []), '/w/repo', '/w/repo'), '');
});

test('check --help lists the new options', () => {
  const r = runCli(['check', '--help']);
  assert.equal(r.status, 0);
  for (const flag of ['--format', '--json', '--strict', '--explain', '--list-rules']) assert.ok(r.stdout.includes(flag), flag);
});

test('D-29 and D-29a escaping table: controls, DEL, C1, bidi, format and default-ignorable characters become \\u{…}; other text and emoji sequences are unchanged', async () => {
  const { escapeTerminal, escapeLines } = await import('../../build/validator/text.js');
  const rows = [
    ['runtime/index.html', 'runtime/index.html'],
    ['café ✓ 日本', 'café ✓ 日本'],
    ['a\u001b[31mb', 'a\\u{1b}[31mb'],
    ['\u0000\u0007\u0008\t\n\r', '\\u{0}\\u{7}\\u{8}\\u{9}\\u{a}\\u{d}'],
    ['\u007f\u0080\u0085\u009b\u009f', '\\u{7f}\\u{80}\\u{85}\\u{9b}\\u{9f}'],
    ['\u061c\u200b\u200e\u200f\u2028\u2029', '\\u{61c}\\u{200b}\\u{200e}\\u{200f}\\u{2028}\\u{2029}'],
    ['\u202a\u202e\u2060\u2066\u2069\ufeff', '\\u{202a}\\u{202e}\\u{2060}\\u{2066}\\u{2069}\\u{feff}'],
    // D-29a: every format and default-ignorable character, tags spelling a hidden word among them.
    ['\u00a0\u2010\u206a', '\u00a0\u2010\\u{206a}'],
    ['x\u00ad\u034f\u3164\u{E0041}\u{E0042}', 'x\\u{ad}\\u{34f}\\u{3164}\\u{e0041}\\u{e0042}'],
    ['\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}', '\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}'],
    ['\u{1F468}\u200d\u{1F469} \u2764\ufe0f', '\u{1F468}\u200d\u{1F469} \u2764\ufe0f'],
    ['\u200d\ufe0f', '\\u{200d}\\u{fe0f}'],
  ];
  for (const [input, expected] of rows) assert.equal(escapeTerminal(input), expected, JSON.stringify(input));
  assert.equal(escapeLines('one \u001b\ntwo\r'), 'one \\u{1b}\ntwo\\u{d}', 'its own line breaks stay');
});

test('renderText and renderAnnotations: no spread over the findings, hostile fields escaped, truncated counts said', async () => {
  const { renderText, PLAIN } = await import('../../build/render/report-text.js');
  const findings = [];
  for (let i = 0; i < 200_000; i++) findings.push({ rule: 'css/missing-reference', severity: 'error', message: 'm', file: 'a.css', pointer: `/${i}` });
  findings.push({ rule: 'css/missing-reference', severity: 'error', message: 'x\u001b[2J', file: 'b\u202e.css', line: 1, column: 1, truncated: 7 });
  const report = buildReport('verify', 'rel\u001b[0m', findings);
  assert.deepEqual(report.truncated, { 'css/missing-reference': 7 });
  assert.deepEqual(report.findings.filter((f) => 'truncated' in f).map((f) => f.truncated), [7], 'the carrying finding says how many (additive field)');
  const text = renderText(report, PLAIN);
  assert.doesNotMatch(text, /[\u001b\u202e]/);
  assert.match(text, /and 7 more findings of this rule, not listed/);
  assert.match(text, /\(and 7 more not listed\)/);
  const annotations = renderAnnotations(report, '/p', undefined);
  assert.doesNotMatch(annotations, /[\u001b\u202e]/);
  assert.equal(annotations.split('\n').length - 1, findings.length);
});

test('hints (a property no module reads): listed after the findings, never counted, never failing --strict; not in SARIF (issue 24.3)', (t) => {
  const properties = { title: { type: 'text', label: 'Title' }, unused: { type: 'boolean', label: 'Unused' } };
  const reads = 'export const t = PLATFORM.settings().title;\n';
  const rows = [
    // [proves, main.js, wanted hint pointers, warnings]
    ['one property unread: a hint at its key', reads, ['/properties/unused'], 0],
    ['other side: both read, no hints field at all', 'const { title, unused } = PLATFORM.settings();\nexport { title, unused };\n', null, 0],
    ['other side: a computed read may read any', reads + 'export const u = PLATFORM.settings()[name];\n', null, 0],
    ['other side: the settings passed to a helper', reads + 'show(PLATFORM.settings());\n', null, 0],
    ['with a warning: the warning alone decides --strict', reads + "fetch('/api');\n", ['/properties/unused'], 1],
  ];
  for (const [proves, main, want, warnings] of rows) {
    const dir = makeProject(t, { manifest: { properties }, files: { 'runtime/main.js': main } });
    const json = runCli(['check', dir, '--json']);
    assert.equal(json.status, 0, proves);
    assert.deepEqual(json.json.hints?.map((h) => h.pointer) ?? null, want, proves);
    assert.equal(json.json.warnings, warnings, `${proves}: counts`);
    assert.equal(json.json.errors, 0, `${proves}: counts`);
    if (want !== null) assert.deepEqual(Object.keys(json.json.hints[0]), ['file', 'pointer', 'line', 'column', 'message'], proves);
    const strict = runCli(['check', dir, '--strict', '--json']);
    assert.equal(strict.status, warnings > 0 ? 1 : 0, `${proves}: --strict`);
    const text = runCli(['check', dir], { env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' } });
    const hintLines = text.stdout.split('\n').filter((l) => l.startsWith('hint  '));
    assert.equal(hintLines.length, want?.length ?? 0, proves);
    if (warnings === 0) assert.match(text.stdout, /no problems found/, proves);
    const sarif = runCli(['check', dir, '--format', 'sarif']);
    assert.doesNotMatch(sarif.stdout, /properties\/unused/, `${proves}: SARIF leaves hints out`);
  }
});

test('renderText: the file, message and pointer of a hint are escaped like other input text', async () => {
  const { renderText, PLAIN } = await import('../../build/render/report-text.js');
  const report = buildReport('check', 'p', [], { hints: [{ file: 'm\u001b[2J.json', pointer: '/properties/a\u202eb', line: 3, column: 5, message: 'No module reads "a\u001b[0m"' }] });
  assert.equal(report.ok, true);
  assert.equal(report.errors + report.warnings, 0);
  const text = renderText(report, PLAIN);
  assert.doesNotMatch(text, /[\u001b\u202e]/);
  assert.match(text, /^hint {2}m\\u\{1b\}\[2J\.json:3:5 /m);
  assert.match(text, /no problems found/);
  assert.equal(buildReport('check', 'p', [], { hints: [] }).hints, undefined, 'no hints: no field');
});

test('FindingList lists one rule for at most MAX_FILES_PER_RULE files and counts findings in further files on its last one listed', async () => {
  const { FindingList } = await import('../../build/validator/findings.js');
  const { MAX_FILES_PER_RULE: FILES, BUNDLE_MAX_FILES } = await import('../../build/validator/limits.js');
  assert.equal(FILES, BUNDLE_MAX_FILES, 'a bundle within its file limit is never cut');
  for (const [files, listed, truncated] of [[FILES - 1, FILES - 1, undefined], [FILES, FILES, undefined], [FILES + 1, FILES, 1], [FILES * 10, FILES, FILES * 9]]) {
    const list = new FindingList();
    // Two findings per file: the second in a listed file is listed, both in a file past the cap are counted.
    for (let i = 0; i < files; i++) {
      list.add('bundle/extension-not-allowed', `f${i}`, { file: `f${i}` });
      list.add('bundle/extension-not-allowed', `f${i} again`, { file: `f${i}` });
    }
    list.add('bundle/path-invalid', 'another rule', { file: `f${files}` });
    const ofRule = list.items.filter((f) => f.rule === 'bundle/extension-not-allowed');
    assert.equal(new Set(ofRule.map((f) => f.file)).size, listed, `${files} files`);
    assert.equal(ofRule.length, listed * 2, `${files} files`);
    assert.equal(ofRule.at(-1).truncated, truncated === undefined ? undefined : truncated * 2, `${files} files`);
    assert.equal(list.items.length, listed * 2 + 1, 'another rule has its own count');
  }
});

test('FindingList keeps MAX_FINDINGS_PER_RULE_AND_FILE findings per rule and file and counts the rest on the last one kept', async () => {
  const { FindingList } = await import('../../build/validator/findings.js');
  const { MAX_FINDINGS_PER_RULE_AND_FILE: CAP } = await import('../../build/validator/limits.js');
  for (const [added, listed, truncated] of [[CAP - 1, CAP - 1, undefined], [CAP, CAP, undefined], [CAP + 1, CAP, 1], [CAP * 50, CAP, CAP * 49]]) {
    const list = new FindingList();
    for (let i = 0; i < added; i++) list.add('css/missing-reference', `m${i}`, { file: 'a.css', line: 1, column: i + 1 });
    list.add('css/missing-reference', 'other file', { file: 'b.css' });
    list.add('manifest/unknown-field', 'other rule', { file: 'a.css' });
    const inA = list.items.filter((f) => f.file === 'a.css' && f.rule === 'css/missing-reference');
    assert.equal(inA.length, listed, `${added} added`);
    assert.equal(inA.at(-1).truncated, truncated, `${added} added`);
    assert.equal(list.items.length, listed + 2, 'other files and rules have their own count');
  }
});
