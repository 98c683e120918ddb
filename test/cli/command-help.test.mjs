// One shape per command: each command's name, help, flags and run are one declaration
// (`export const command: CommandSpec`) in its own file, src/commands/<name>.ts. The help
// `platform-ext <name> --help` prints is built from that declaration alone, src/cli.ts holds
// no command's help (it dispatches), every command calls a use case (src/ops/), and no
// command or use case reads the process environment (the entry point passes it down).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, ROOT } from '../support/project.mjs';

const COMMANDS_DIR = join(ROOT, 'src/commands');
const CLI_SOURCE = readFileSync(join(ROOT, 'src/cli.ts'), 'utf8');
const DECLARATION = /^export const command: CommandSpec = \{$/m;

/** The files of src/commands/ that declare a command, by name (the file name without .ts). */
function commandFiles() {
  return readdirSync(COMMANDS_DIR)
    .filter((name) => name.endsWith('.ts') && DECLARATION.test(readFileSync(join(COMMANDS_DIR, name), 'utf8')))
    .map((name) => name.slice(0, -'.ts'.length))
    .sort();
}

const NAMES = commandFiles();
const { commandHelp } = await import(pathToFileURL(join(ROOT, 'build/commands/command-spec.js')).href);
const MODULES = new Map(await Promise.all(NAMES.map(async (name) => [name, (await import(pathToFileURL(join(ROOT, `build/commands/${name}.js`)).href)).command])));

function run(args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 });
  assert.equal(r.signal, null, `platform-ext ${args.join(' ')} was killed`);
  return r;
}

/** The texts a command's help is made of: usage, summary, each paragraph of details, each flag's description. */
function helpTexts(command) {
  return [command.usage, command.summary, ...command.details.split('\n\n'), ...Object.values(command.flags).map((flag) => flag.description)];
}

test('the commands that declare themselves are the ones src/cli.ts dispatches to', () => {
  const dispatched = [...CLI_SOURCE.matchAll(/import\('\.\/commands\/([a-z]+)\.js'\)/g)].map((m) => m[1]).sort();
  assert.deepEqual(dispatched, NAMES);
  assert.deepEqual(NAMES, ['check', 'context', 'init', 'keygen', 'package', 'preview', 'verify']);
});

for (const name of NAMES) {
  test(`"platform-ext ${name} --help" is the help declared in src/commands/${name}.ts`, () => {
    const command = MODULES.get(name);
    assert.equal(command.name, name, `src/commands/${name}.ts declares the command "${command.name}"`);
    assert.equal(typeof command.run, 'function');
    assert.ok(command.flags.help?.type === 'boolean', `${name} declares --help`);
    const source = readFileSync(join(COMMANDS_DIR, `${name}.ts`), 'utf8');
    assert.ok(source.includes(`name: '${name}'`), `the declaration in src/commands/${name}.ts names the command`);
    // The help as printed, whole, and its parts in order (the parts do not depend on the formatter).
    const r = run([name, '--help']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, commandHelp(command));
    assert.ok(r.stdout.startsWith(`Usage: ${command.usage}\n\n${command.summary}\n\n${command.details}\n\nOptions:\n`), r.stdout);
    for (const [flag, spec] of Object.entries(command.flags)) {
      assert.ok(r.stdout.split('\n').some((line) => line.includes(`--${flag}`) && line.endsWith(`  ${spec.description}`)), `--${flag} with its description`);
    }
    assert.equal(run(['help', name]).stdout, r.stdout, '"platform-ext help <name>" prints the same');
  });
}

test('the list of commands shows the summary each command declares', () => {
  const r = run(['--help']);
  assert.equal(r.status, 0, r.stderr);
  for (const [name, command] of MODULES) assert.match(r.stdout, new RegExp(`^  ${name} +${command.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
});

test('src/cli.ts holds no help of a command: no help field, none of their texts', () => {
  assert.doesNotMatch(CLI_SOURCE, /\b(?:usage|summary|details|description)\s*:/);
  const found = [];
  for (const [name, command] of MODULES) {
    for (const text of helpTexts(command)) {
      // Each line on its own: a text split over string literals still shows line by line.
      for (const line of text.split('\n')) if (line.length >= 20 && CLI_SOURCE.includes(line)) found.push(`${name}: ${line}`);
    }
  }
  assert.deepEqual(found, []);
});

test('every command calls a use case of src/ops/', () => {
  const without = NAMES.filter((name) => !/^import [^;]*from '\.\.\/ops\/[\w-]+\.js';$/m.test(readFileSync(join(COMMANDS_DIR, `${name}.ts`), 'utf8')));
  assert.deepEqual(without, []);
});

test('no command and no use case reads process.env: the entry points pass the environment down', () => {
  const found = [];
  for (const dir of ['src/commands', 'src/ops']) {
    for (const name of readdirSync(join(ROOT, dir)).filter((n) => n.endsWith('.ts'))) {
      readFileSync(join(ROOT, dir, name), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(?:\/\/|\*)/.test(line)) return;
          if (/\bprocess\s*\.\s*env\b/.test(line)) found.push(`${dir}/${name}:${i + 1}`);
        });
    }
  }
  assert.deepEqual(found, []);
});
