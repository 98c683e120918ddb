// The launcher (scripts/launcher.mjs -> dist/platform-ext.mjs) and the code it runs keep
// no cache of compiled code: nothing under the user's cache folders is read or written,
// so nothing planted there can change what a command does, run foreign code or hang it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CLI, ROOT } from '../support/project.mjs';

const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
/** A command that hangs is killed after this long and fails its test. */
const HANG_MS = 30_000;
const EXAMPLE = join(ROOT, 'examples/hello-world');

/** A HOME and an XDG_CACHE_HOME of their own, removed after the test. */
function homes(t) {
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-launcher-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const home = join(dir, 'home');
  const cache = join(dir, 'cache');
  mkdirSync(home);
  mkdirSync(cache);
  const env = { ...process.env, NO_COLOR: '1', HOME: home, XDG_CACHE_HOME: cache };
  delete env.NODE_COMPILE_CACHE;
  return { home, cache, env };
}

function run(args, env) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: HANG_MS, killSignal: 'SIGKILL' });
  assert.equal(r.signal, null, `${args.join(' ')} was killed (${r.signal}): it hung or crashed`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every path under `dir`, relative to it. */
function listAll(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    out.push(entry.name);
    if (entry.isDirectory()) out.push(...listAll(join(dir, entry.name)).map((p) => join(entry.name, p)));
  }
  return out;
}

const COMMANDS = [
  ['check', EXAMPLE, '--json'],
  ['check', EXAMPLE],
  ['--help'],
  ['context', '--help'],
  ['nonsense'],
];

test('--version is answered by the launcher alone: it runs without the CLI beside it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-launcher-alone-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(CLI, join(dir, 'platform-ext.mjs'));
  for (const flag of ['--version', '-V']) {
    const r = spawnSync(process.execPath, [join(dir, 'platform-ext.mjs'), flag], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${VERSION}\n`);
  }
  // Anything else needs the CLI, which is its own file.
  const r = spawnSync(process.execPath, [join(dir, 'platform-ext.mjs'), '--help'], { encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /ERR_MODULE_NOT_FOUND/);
});

test('the launcher is small: the CLI and its commands are chunks under dist/cli/, and check and package one file each', () => {
  assert.ok(statSync(CLI).size < 2048, `dist/platform-ext.mjs is ${statSync(CLI).size} bytes`);
  const chunks = readdirSync(join(ROOT, 'dist/cli'));
  assert.ok(chunks.includes('cli.mjs'));
  for (const command of ['check', 'init', 'keygen', 'package', 'verify', 'preview', 'context']) {
    assert.ok(chunks.some((f) => f.startsWith(`${command}-`) && f.endsWith('.mjs')), `a chunk for ${command}`);
  }
  // `check` and `package` each start from a module of their own that imports Node's
  // built-ins only (minified import statements: no space after `import`, unlike example
  // code in rule texts), and the launcher imports that module for its command.
  const launcher = readFileSync(CLI, 'utf8');
  for (const command of ['check', 'package']) {
    const text = readFileSync(join(ROOT, `dist/cli/${command}.mjs`), 'utf8');
    const imported = [...text.matchAll(/(?:^|[;\n])import(?:\{[^}]*\}|\*as [\w$]+ )?from"([^"]+)"/g)].map((m) => m[1]);
    assert.ok(imported.includes('node:fs'), `${command}: ${imported.join(', ')}`);
    assert.deepEqual(imported.filter((s) => !s.startsWith('node:')), [], command);
    assert.ok(launcher.includes(`import('./cli/${command}.mjs')`), `the launcher imports cli/${command}.mjs`);
  }
});

test('no command writes anything under HOME or XDG_CACHE_HOME', (t) => {
  const { home, cache, env } = homes(t);
  for (const args of COMMANDS) run(args, env);
  assert.deepEqual(listAll(home), []);
  assert.deepEqual(listAll(cache), []);
});

test('files planted under $XDG_CACHE_HOME/platform-ext (FIFO, /dev/zero, garbage .v8) change nothing and hang nothing', (t) => {
  const clean = homes(t);
  const expected = COMMANDS.map((args) => run(args, clean.env));
  const { cache, home, env } = homes(t);
  // Names a code cache might use: whatever a first run leaves there, and plausible others.
  for (const args of COMMANDS) run(args, env);
  const base = join(cache, 'platform-ext');
  const homeBase = join(home, '.cache/platform-ext');
  const names = new Set(existsSync(base) ? readdirSync(base) : []);
  for (const command of ['check', 'context', 'other', 'help', 'nonsense', 'package']) {
    names.add(`${VERSION}-${command}.v8`);
    names.add(`${command}.v8`);
  }
  for (const dir of [base, homeBase]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    let k = 0;
    for (const name of names) {
      const path = join(dir, name);
      const kind = k++ % 3;
      if (kind === 0) spawnSync('mkfifo', [path]);
      else if (kind === 1) symlinkSync('/dev/zero', path);
      else writeFileSync(path, Buffer.concat([Buffer.from([0xc0, 0xde, 0x01, 0x00]), Buffer.alloc(4092, 0x5a)]));
    }
  }
  const before = listAll(cache).sort();
  COMMANDS.forEach((args, i) => {
    const r = run(args, env);
    assert.equal(r.status, expected[i].status, args.join(' '));
    assert.equal(r.stdout, expected[i].stdout, args.join(' '));
    assert.equal(r.stderr, expected[i].stderr, args.join(' '));
  });
  assert.deepEqual(listAll(cache).sort(), before, 'nothing added or removed');
});

/**
 * What would read or write a cache of compiled code, or anything in the user's cache
 * folders: the folder names, V8's code cache API and Node's compile cache switch.
 */
const CACHE_PATTERN = /XDG_CACHE_HOME|\.cache\b|enableCompileCache|NODE_COMPILE_CACHE|cachedData|CachedData/;

function filesUnder(dir, extensions) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full, extensions));
    else if (extensions.some((e) => entry.name.endsWith(e))) out.push(full);
  }
  return out;
}

test('no source, build script or built file of ours names a cache folder or a code cache API', () => {
  const files = [
    ...filesUnder(join(ROOT, 'src'), ['.ts']),
    ...filesUnder(join(ROOT, 'scripts'), ['.mjs', '.js', '.ts']),
    ...filesUnder(join(ROOT, 'dist'), ['.mjs', '.js']),
  ];
  assert.ok(files.some((f) => f.endsWith('dist/cli/cli.mjs')), 'build first: npm run build');
  const hits = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const m = CACHE_PATTERN.exec(text);
    if (m !== null) hits.push(`${relative(ROOT, file)}: ${text.slice(Math.max(0, m.index - 40), m.index + 40).replace(/\s+/g, ' ')}`);
  }
  assert.deepEqual(hits, []);
  // The bundles embed what `check` compares generated files with (only build/ reads it from a file).
  const reading = files.filter((f) => {
    const text = readFileSync(f, 'utf8');
    return f.includes('/dist/') && text.includes('generated-digests.json') && !text.includes('"CONTEXT.md":[');
  });
  assert.deepEqual(reading.map((f) => relative(ROOT, f)), []);
});
