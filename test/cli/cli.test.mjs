// The CLI edge: exit statuses (D-21), the JSON report (D-20), usage errors, loader limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { makeProject, runCli, summarize, ROOT } from '../support/project.mjs';
import { RULES } from '../../build/validator/rules.js';
import { loadProject } from '../../build/load/project-loader.js';

const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

test('--version prints the package version; exit 0', () => {
  const r = runCli(['--version']);
  assert.equal(r.status, 0);
  assert.equal(r.stdout, `${version}\n`);
  assert.equal(runCli(['-V']).stdout, `${version}\n`);
});

test('help: global and per command; no arguments is a usage error (exit 2) that still prints help', () => {
  assert.equal(runCli(['--help']).status, 0);
  assert.match(runCli(['--help']).stdout, /\bcheck\b/);
  const c = runCli(['check', '--help']);
  assert.equal(c.status, 0);
  assert.match(c.stdout, /--json/);
  assert.match(c.stdout, /--list-rules/);
  assert.equal(runCli(['help', 'check']).stdout, c.stdout);
  assert.equal(runCli([]).status, 2);
});

test('unknown command and unknown flag are usage errors with a suggestion (exit 2, stderr)', () => {
  const a = runCli(['chek']);
  assert.equal(a.status, 2);
  assert.equal(a.stdout, '');
  assert.match(a.stderr, /"chek".*"check"/);
  const b = runCli(['check', '--jsn', '.']);
  assert.equal(b.status, 2);
  assert.match(b.stderr, /"--jsn".*"--json"/);
  const c = runCli(['check', '--json=yes']);
  assert.equal(c.status, 2);
  const d = runCli(['check', 'a', 'b']);
  assert.equal(d.status, 2);
  assert.doesNotMatch(a.stderr + b.stderr + c.stderr + d.stderr, /\n\s+at /, 'no stack traces');
});

test('flags and commands are looked up as own keys only: names every object inherits are unknown (exit 2)', () => {
  for (const name of ['__proto__', 'toString', 'constructor', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
    for (const argv of [['check', `--${name}`, 'x', '.'], ['check', `--${name}=x`, '.'], ['verify', `--${name}`, 'x', '.'], [name]]) {
      const r = runCli(argv);
      assert.equal(r.status, 2, argv.join(' '));
      assert.match(r.stderr, /Unknown (option|command)/, argv.join(' '));
      assert.doesNotMatch(r.stderr, /internal error/, argv.join(' '));
    }
  }
});

test('a missing or non-folder target is exit 2 with a message naming it', (t) => {
  const r = runCli(['check', '/nonexistent/platform-ext-xyz']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /platform-ext-xyz/);
  const dir = makeProject(t);
  const f = runCli(['check', join(dir, 'manifest.json')]);
  assert.equal(f.status, 2);
  assert.match(f.stderr, /not a folder/);
});

test('the bundled example checks clean: exit 0, D-20 report with no findings, one hint (its unread property)', () => {
  const r = runCli(['check', 'examples/hello-world', '--json'], { cwd: ROOT });
  assert.equal(r.status, 0, r.stdout);
  assert.deepEqual(r.json, {
    format: 'platform-extension-report-v1',
    command: 'check',
    target: 'examples/hello-world',
    ok: true,
    errors: 0,
    warnings: 0,
    findings: [],
    tool: { name: 'platform-ext', version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version },
    contract_version: 1,
    // The example's code never reads "more_link": a hint (issue 24.3), which is no finding.
    hints: [{ file: 'manifest.json', pointer: '/properties/more_link', line: 49, column: 5, message: r.json.hints?.[0]?.message }],
  });
  const text = runCli(['check', 'examples/hello-world'], { cwd: ROOT });
  assert.equal(text.status, 0);
  assert.match(text.stdout, /^hint {2}manifest\.json:49:5 .*\(\/properties\/more_link\)$/m);
  assert.match(text.stdout, /no problems found/);
  const strict = runCli(['check', 'examples/hello-world', '--strict', '--json'], { cwd: ROOT });
  assert.equal(strict.status, 0, 'a hint never fails --strict');
  assert.equal(strict.json.ok, true);
});

test('errors: exit 1, every finding in one pass, D-20 keys in order', (t) => {
  const dir = makeProject(t, {
    manifest: { namespace: 'Bad Namespace', extra: true },
    files: { 'runtime/notes.md': '# notes', 'runtime/Main.js': 'export {};' },
  });
  const r = runCli(['check', dir, '--json']);
  assert.equal(r.status, 1);
  assert.deepEqual(Object.keys(r.json), ['format', 'command', 'target', 'ok', 'errors', 'warnings', 'findings', 'tool', 'contract_version']);
  assert.equal(r.json.target, dir);
  assert.equal(r.json.ok, false);
  const got = summarize(r.json);
  for (const expected of [
    'manifest/unknown-field manifest.json /extra',
    'manifest/namespace manifest.json /namespace',
    'bundle/extension-not-allowed runtime/notes.md',
    'bundle/case-collision runtime/main.js',
  ]) {
    assert.ok(got.includes(expected), `${expected} in ${JSON.stringify(got)}`);
  }
  assert.equal(r.json.errors, r.json.findings.filter((f) => f.severity === 'error').length);
  for (const f of r.json.findings) {
    const keys = Object.keys(f);
    const order = ['rule', 'severity', 'message', 'file', 'pointer', 'line', 'column', 'hint'];
    assert.deepEqual(keys, order.filter((k) => keys.includes(k)));
    // D-20a: the fix text of the text output travels with each finding.
    assert.equal(f.hint, RULES.find((rule) => rule.id === f.rule).hint, f.rule);
  }
  const text = runCli(['check', dir]);
  assert.equal(text.status, 1);
  assert.match(text.stdout, /manifest\.json\n/);
  assert.match(text.stdout, /manifest\/unknown-field/);
  assert.match(text.stdout, /hint: /);
});

test('warnings only: exit 0 and ok true', (t) => {
  const dir = makeProject(t, { files: { 'runtime/unused.js': 'export const x = 1;\n' } });
  const r = runCli(['check', dir, '--json']);
  assert.equal(r.status, 0, r.stdout);
  assert.equal(r.json.ok, true);
  assert.deepEqual(summarize(r.json), ['bundle/unreferenced-module runtime/unused.js']);
});

test('missing manifest and missing runtime/ are findings (exit 1), not crashes', (t) => {
  const dir = makeProject(t, { manifest: null, defaults: false, files: { 'README.md': 'x' } });
  const r = runCli(['check', dir, '--json']);
  assert.equal(r.status, 1);
  assert.deepEqual(summarize(r.json), ['project/manifest-missing manifest.json', 'bundle/missing-runtime runtime/']);
});

test('symlinks in runtime/ are reported, never followed', (t) => {
  const dir = makeProject(t);
  symlinkSync('/etc/passwd', join(dir, 'runtime/passwd.png'));
  symlinkSync('/etc', join(dir, 'runtime/etc'));
  const r = runCli(['check', dir, '--json']);
  assert.equal(r.status, 1);
  assert.deepEqual(summarize(r.json), ['bundle/symlink runtime/etc', 'bundle/symlink runtime/passwd.png']);
});

test('private keys anywhere in the project (outside node_modules/) are errors (D-4), also across a chunk boundary', (t) => {
  const marker = '-----BEGIN PRIVATE KEY-----';
  const straddle = Buffer.concat([Buffer.alloc((1 << 20) - 10, 0x61), Buffer.from(`${marker}\nabc\n`)]);
  const dir = makeProject(t, {
    files: {
      'keys/dev.pem': `${marker}\nMC4CAQAw\n-----END PRIVATE KEY-----\n`,
      'big/straddle.txt': straddle,
      'node_modules/pkg/test.pem': `${marker}\n`,
      'notes/public.pem': '-----BEGIN PUBLIC KEY-----\n',
    },
  });
  const r = runCli(['check', dir, '--json']);
  assert.equal(r.status, 1);
  assert.deepEqual(summarize(r.json), ['secret/private-key big/straddle.txt', 'secret/private-key keys/dev.pem']);
});

test('a 1 GiB sparse file in runtime/ is reported by size, never read', (t) => {
  const dir = makeProject(t);
  const big = join(dir, 'runtime/huge.png');
  writeFileSync(big, '');
  truncateSync(big, 1 << 30);
  const before = process.resourceUsage().maxRSS;
  const project = loadProject(dir);
  const entry = project.input.files.find((e) => e.path === 'huge.png');
  assert.equal(entry.size, 1 << 30);
  assert.equal(entry.content, undefined);
  assert.ok(process.resourceUsage().maxRSS - before < 256 * 1024, 'no gigabyte was allocated');
  const r = runCli(['check', dir, '--json']);
  assert.deepEqual(summarize(r.json), ['bundle/expanded-too-large', 'bundle/file-too-large runtime/huge.png']);
});

test('a project with 10,000 files is reported (too many files), not choked on', (t) => {
  const dir = makeProject(t);
  mkdirSync(join(dir, 'runtime/many'));
  for (let i = 0; i < 10_000; i++) writeFileSync(join(dir, `runtime/many/f${i}.png`), 'x');
  const r = runCli(['check', dir, '--json']);
  assert.equal(r.status, 1);
  assert.deepEqual(summarize(r.json), ['bundle/too-many-files']);
});

test('--list-rules prints the catalogue; with --json, every rule', () => {
  const r = runCli(['check', '--list-rules', '--json']);
  assert.equal(r.status, 0);
  assert.deepEqual(r.json.rules.map((x) => x.id), RULES.map((x) => x.id));
  const text = runCli(['check', '--list-rules']);
  for (const rule of RULES) assert.ok(text.stdout.includes(rule.id), rule.id);
});

test('the entrypoint must exist in runtime/ (D-1), with a hint when only the letter case differs', (t) => {
  const missing = makeProject(t, { manifest: { entrypoint: 'app.html' } });
  const r = runCli(['check', missing, '--json']);
  assert.equal(r.status, 1);
  assert.ok(summarize(r.json).includes('bundle/entrypoint-missing manifest.json /entrypoint'), summarize(r.json).join('\n'));
  const cased = makeProject(t, { manifest: { entrypoint: 'Index.html' } });
  const c = runCli(['check', cased, '--json']);
  const finding = c.json.findings.find((f) => f.rule === 'bundle/entrypoint-missing');
  assert.equal(finding.pointer, '/entrypoint');
  assert.match(finding.message, /"index\.html"/);
});

// A reader that stops early (`platform-ext context | head -c 100`) closes the pipe while
// output is still queued: the command must end quietly, not with an unhandled EPIPE stack
// trace. Through a shell, as users meet it (the shell's pipe is what makes the write
// non-blocking and the close race the output).
test('output into a pipe the reader closes early ends quietly (no stack trace)', async () => {
  const { spawnSync } = await import('node:child_process');
  const cli = join(ROOT, 'dist/platform-ext.mjs');
  for (const args of ['context', 'check --list-rules', 'check --list-rules --json']) {
    for (let round = 0; round < 3; round++) {
      const r = spawnSync('sh', ['-c', `"${process.execPath}" "${cli}" ${args} | head -c 100 >/dev/null`], { encoding: 'utf8' });
      assert.equal(r.stderr, '', `${args}: stderr must stay empty`);
    }
  }
});

test('colour: on for a terminal (under a pseudo-terminal from `script`), off for a pipe and with NO_COLOR', (t) => {
  const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (script.status !== 0) {
    t.skip('util-linux `script` is not installed: no pseudo-terminal to test with');
    return;
  }
  const example = join(ROOT, 'examples/hello-world');
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'dist/platform-ext.mjs'))} check ${JSON.stringify(example)}`;
  const environment = (extra) => {
    const env = { ...process.env, GITHUB_ACTIONS: '', ...extra };
    if (extra.NO_COLOR === undefined) delete env.NO_COLOR;
    // node --test sets FORCE_COLOR=1 for test files when its own output is a terminal.
    if (extra.FORCE_COLOR === undefined) delete env.FORCE_COLOR;
    return env;
  };
  const underTerminal = (extra) => spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: environment(extra) });
  const ESC = '\u001b[';
  const colored = underTerminal({});
  assert.equal(colored.status, 0, colored.stderr);
  assert.ok(colored.stdout.includes(ESC), `a terminal gets colour: ${JSON.stringify(colored.stdout)}`);
  assert.ok(!underTerminal({ NO_COLOR: '1' }).stdout.includes(ESC), 'NO_COLOR turns it off');
  const piped = runCli(['check', example], { env: environment({}) });
  assert.equal(piped.status, 0);
  assert.ok(!piped.stdout.includes(ESC), 'a pipe gets none');
});
