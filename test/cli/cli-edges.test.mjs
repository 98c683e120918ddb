// Rough edges of the command line: colour follows --no-color, NO_COLOR and FORCE_COLOR;
// help aligns its option column and states the exit statuses of every command; a "did you
// mean" line ends at its question mark; a misspelt capability names the closest key
// instead of listing all nine (in check and in the testing mock's grants); a finding about
// the whole document prints no empty pointer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CAPABILITY_KEYS } from '../../build/validator/capabilities.js';
import { createMockPlatform } from '../../build/testing.js';
import { ROOT, makeProject, runCli } from '../support/project.mjs';
import { tempParent } from '../support/scaffold.mjs';

const REVIEW = join(ROOT, 'dist/platform-review.mjs');
const ESC = '\u001b[';
const COMMANDS = ['init', 'check', 'keygen', 'package', 'verify', 'preview', 'context'];

/** The environment of a pipe with the colour variables given (and no others). */
function colorEnv(extra) {
  const env = { ...process.env, GITHUB_ACTIONS: '' };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  return { ...env, ...extra };
}

/** A project with one error finding, so that the text report has coloured parts. */
const withError = (t) => makeProject(t, { manifest: { version: '1.0' } });

test('colour: FORCE_COLOR colours a pipe; NO_COLOR and --no-color win over it; empty values count as unset', (t) => {
  const dir = withError(t);
  const run = (args, extra) => runCli(['check', dir, ...args], { env: colorEnv(extra) });
  assert.ok(run([], {}).stdout.length > 0);
  assert.ok(!run([], {}).stdout.includes(ESC), 'a pipe: no colour');
  assert.ok(run([], { FORCE_COLOR: '1' }).stdout.includes(ESC), 'FORCE_COLOR=1');
  assert.ok(run([], { FORCE_COLOR: 'true' }).stdout.includes(ESC), 'FORCE_COLOR=true');
  assert.ok(!run([], { FORCE_COLOR: '0' }).stdout.includes(ESC), 'FORCE_COLOR=0');
  assert.ok(!run([], { FORCE_COLOR: '' }).stdout.includes(ESC), 'FORCE_COLOR empty');
  assert.ok(!run([], { FORCE_COLOR: '1', NO_COLOR: '1' }).stdout.includes(ESC), 'NO_COLOR wins');
  assert.ok(run([], { FORCE_COLOR: '1', NO_COLOR: '' }).stdout.includes(ESC), 'NO_COLOR empty is unset');
  for (const args of [['--no-color'], []]) {
    const r = runCli(args.length > 0 ? ['--no-color', 'check', dir] : ['check', dir, '--no-color'], { env: colorEnv({ FORCE_COLOR: '1' }) });
    assert.equal(r.status, 1, r.stderr);
    assert.ok(!r.stdout.includes(ESC), '--no-color before or after the command');
  }
  // After `--`, --no-color is an operand (a folder of that name), not the option.
  const operand = runCli(['check', '--', '--no-color'], { env: colorEnv({}) });
  assert.equal(operand.status, 2);
});

test('colour: platform-review follows the same variables and --no-color', (t) => {
  // An empty folder (a project folder is refused as a usage error): the report is text with a coloured summary.
  const dir = tempParent(t);
  const run = (args, extra) => spawnSync(process.execPath, [REVIEW, ...args, dir], { encoding: 'utf8', env: colorEnv(extra) });
  assert.ok(run([], { FORCE_COLOR: '1' }).stdout.includes(ESC), 'FORCE_COLOR=1');
  assert.ok(!run([], { FORCE_COLOR: '1', NO_COLOR: '1' }).stdout.includes(ESC), 'NO_COLOR');
  const r = run(['--no-color'], { FORCE_COLOR: '1' });
  assert.notEqual(r.status, 2, r.stderr);
  assert.ok(!r.stdout.includes(ESC), '--no-color');
});

/** The option rows of a help text: [left part, column where the description starts]. */
function optionColumns(help) {
  const rows = help.slice(help.indexOf('\nOptions:\n') + 10).split('\n').filter((l) => /^ {2}\S|^ {6}--/.test(l));
  return rows.map((line) => {
    const m = /^( +(?:-\w, )?--[\w-]+(?: \S+)?)( {2,})\S/.exec(line);
    assert.ok(m !== null, `an option row: ${JSON.stringify(line)}`);
    return m[1].length + m[2].length;
  });
}

test('help: every command aligns its descriptions in one column and states its exit statuses', () => {
  for (const command of COMMANDS) {
    const r = runCli([command, '--help']);
    assert.equal(r.status, 0, command);
    const columns = optionColumns(r.stdout);
    assert.ok(columns.length >= 2, `${command}: options listed`);
    assert.equal(new Set(columns).size, 1, `${command}: one description column, not ${[...new Set(columns)].join(', ')}`);
    assert.match(r.stdout, /^Exit status: 0 /m, command);
    assert.match(r.stdout, /--no-color/, command);
  }
  const global = runCli(['--help']);
  assert.match(global.stdout, /^Exit status: 0 /m);
  assert.match(global.stdout, /--no-color/);
  const review = spawnSync(process.execPath, [REVIEW, '--help'], { encoding: 'utf8' });
  assert.equal(review.status, 0);
  assert.match(review.stdout, /^Exit status: 0 /m);
  assert.equal(new Set(optionColumns(review.stdout)).size, 1);
});

test('"did you mean": the suggestion ends the line, with no punctuation after its question mark', () => {
  const cases = [
    [['chek'], '"check"'],
    [['check', '--fromat', 'json'], '"--format"'],
    [['verify', '--jsno'], '"--json"'],
  ];
  for (const [args, near] of cases) {
    const r = runCli(args);
    assert.equal(r.status, 2, args.join(' '));
    const line = r.stderr.trimEnd();
    assert.ok(line.endsWith(`did you mean ${near}?`), `${args.join(' ')}: ${line}`);
    assert.doesNotMatch(line, /\?[:;,.]/);
  }
  // Without a close name, the way to the list instead.
  assert.match(runCli(['zzzzzzz']).stderr, /platform-ext --help/);
});

test('a misspelt capability names the closest key, not the nine; one that means a key names it; an unknown one lists the nine', (t) => {
  const findingFor = (capability) => {
    const dir = makeProject(t, { manifest: { capabilities: [capability] } });
    const r = runCli(['check', dir, '--json']);
    const found = r.json.findings.filter((f) => f.rule === 'manifest/capability-unknown');
    assert.deepEqual(found.map((f) => f.pointer), ['/capabilities/0'], capability);
    return found[0].message;
  };
  for (const [typo, near] of [['cart.manag', 'cart.manage'], ['Cart.Manage', 'cart.manage'], ['site.theme.raed', 'site.theme.read'], ['forms.submitt', 'forms.submit'], ['cart.write', 'cart.manage'], ['theme.read', 'site.theme.read']]) {
    const message = findingFor(typo);
    assert.ok(message.includes(`"${near}"`), `${typo}: ${message}`);
    assert.deepEqual(CAPABILITY_KEYS.filter((k) => k !== near && message.includes(k)), [], `${typo}: only the closest key`);
  }
  const unknown = findingFor('telepathy.beam');
  assert.deepEqual(CAPABILITY_KEYS.filter((k) => !unknown.includes(k)), [], 'no close key: all nine are named');
});

test('the testing mock: a misspelt grant names the closest key, an unknown one lists the nine', async () => {
  const messageFor = async (key) => {
    const error = await createMockPlatform({ grants: [key] }).then(
      (mock) => mock.dispose(),
      (e) => e,
    );
    assert.equal(error?.code, 'ERR_INVALID_OPTION', key);
    return error.message;
  };
  const typo = await messageFor('cart.manag');
  assert.ok(typo.includes('"cart.manage"'), typo);
  assert.deepEqual(CAPABILITY_KEYS.filter((k) => k !== 'cart.manage' && typo.includes(k)), []);
  const meant = await messageFor('cart.write');
  assert.ok(meant.includes('"cart.manage"'), meant);
  assert.deepEqual(CAPABILITY_KEYS.filter((k) => k !== 'cart.manage' && meant.includes(k)), []);
  const unknown = await messageFor('telepathy.beam');
  assert.deepEqual(CAPABILITY_KEYS.filter((k) => !unknown.includes(k)), []);
});

test('a finding at the root pointer prints no empty "()" in the text report; JSON keeps pointer ""', (t) => {
  const dir = makeProject(t, { manifest: '{"schema_version": 1,' });
  const text = runCli(['check', dir]);
  assert.equal(text.status, 1);
  const line = text.stdout.split('\n').find((l) => l.includes('manifest/invalid-json'));
  assert.ok(line !== undefined, text.stdout);
  assert.ok(!line.includes('()'), line);
  const json = runCli(['check', dir, '--json']).json;
  assert.deepEqual(json.findings.map((f) => [f.rule, f.pointer]), [['manifest/invalid-json', '']]);
  // A finding with a pointer keeps it.
  const typed = runCli(['check', makeProject(t, { manifest: { version: '1.0' } })]);
  assert.match(typed.stdout, /\(\/version\)/);
});
