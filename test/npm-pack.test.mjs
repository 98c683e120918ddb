// The package as users get it: `npm pack` this folder (dist/ must be built), check the
// tarball's file list, install it offline into a temporary project (it has no runtime
// dependencies, so nothing is fetched), then run the installed bins from
// node_modules/.bin (--version, init, check, keygen, package, verify, platform-review)
// and import the API and the validator through the package's `exports`.
//
// The bins start with `#!/usr/bin/env node`: the Node.js running this test is put first on
// PATH, so that scripts/node-matrix.mjs runs them on the Node.js it is testing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { ROOT } from './support/project.mjs';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** The environment without npm's own variables (set when this runs under `npm test`), with an isolated cache. */
function cleanEnv(home, withNodeFirst) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  env.XDG_CACHE_HOME = join(home, 'cache');
  env.NO_COLOR = '1';
  env.GITHUB_ACTIONS = '';
  if (withNodeFirst) env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;
  return env;
}

function npm(args, cwd, home) {
  const r = spawnSync('npm', [...args, '--cache', join(home, 'npm-cache'), '--no-update-notifier'], { cwd, encoding: 'utf8', env: cleanEnv(home, false) });
  assert.equal(r.error, undefined, `npm ${args[0]}: ${r.error?.message}`);
  assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

test('npm pack: the tarball holds dist/, templates/, contract-snapshot/ and the README, never sources or tests', async (t) => {
  assert.ok(existsSync(join(ROOT, 'dist/platform-ext.mjs')) && existsSync(join(ROOT, 'dist/api.mjs')), 'build first: npm run build');
  const home = mkdtempSync(join(tmpdir(), 'platform-ext-pack-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const packs = join(home, 'packs');
  mkdirSync(packs);
  const [packed] = JSON.parse(npm(['pack', '--pack-destination', packs, '--json', '--ignore-scripts'], ROOT, home));
  const tarball = join(packs, packed.filename);
  assert.ok(existsSync(tarball));
  const files = packed.files.map((f) => f.path);
  const modes = new Map(packed.files.map((f) => [f.path, f.mode]));

  // Sources, tests and tooling stay out (a template's TypeScript is a project file, not ours).
  const forbidden = files.filter(
    (f) => /^(src|test|build|bench|scripts|examples|node_modules|test-artifacts)\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('templates/')),
  );
  assert.deepEqual(forbidden, []);
  assert.deepEqual(files.filter((f) => /\.pem$|\.key$|\.tgz$/.test(f)), [], 'no keys or tarballs');
  // What the package needs is in.
  const required = [
    'package.json',
    'README.md',
    'dist/platform-ext.mjs',
    'dist/platform-review.mjs',
    'dist/validator.mjs',
    'dist/validator.d.ts',
    'dist/api.mjs',
    'dist/api.d.ts',
    'dist/types/api.d.ts',
    'contract-snapshot/rules.json',
    'contract-snapshot/limits.json',
    'templates/scaffold/manifest.json',
  ];
  assert.deepEqual(required.filter((f) => !files.includes(f)), []);
  assert.ok(files.some((f) => f.startsWith('templates/scaffold/runtime/')));
  assert.ok(files.includes('templates/vite/vite.config.ts'), 'the vite template');
  // Every bin and every `exports` target is in the tarball; the bins are executable.
  for (const bin of Object.values(PACKAGE.bin)) {
    assert.ok(files.includes(bin), bin);
    assert.ok((modes.get(bin) & 0o111) !== 0, `${bin} is executable`);
  }
  const targets = Object.values(PACKAGE.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)));
  for (const target of targets) assert.ok(files.includes(target.replace(/^\.\//, '')), target);

  // Installed offline into an empty project: no dependency is fetched.
  const consumer = join(home, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  npm(['install', tarball, '--offline', '--no-audit', '--no-fund', '--no-package-lock'], consumer, home);
  const bin = (name) => join(consumer, 'node_modules/.bin', name);
  const run = (name, args) => spawnSync(bin(name), args, { cwd: consumer, encoding: 'utf8', env: cleanEnv(home, true) });
  const json = (r) => JSON.parse(r.stdout);

  let r = run('platform-ext', ['--version']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), PACKAGE.version);

  r = run('platform-ext', ['init', 'my-ext', '--namespace', 'acme/my-ext', '--name', 'My extension']);
  assert.equal(r.status, 0, `init: ${r.stdout}${r.stderr}`);
  assert.ok(existsSync(join(consumer, 'my-ext/manifest.json')), 'init wrote a project');
  assert.ok(existsSync(join(consumer, 'my-ext/runtime')), 'init wrote runtime/');

  r = run('platform-ext', ['check', 'my-ext', '--json']);
  assert.equal(r.status, 0, `check: ${r.stdout}${r.stderr}`);
  assert.deepEqual([json(r).ok, json(r).errors], [true, 0]);

  mkdirSync(join(consumer, 'keys'));
  r = run('platform-ext', ['keygen', '--private-key', 'keys/acme.pem', '--public-key', 'keys/acme.pub']);
  assert.equal(r.status, 0, `keygen: ${r.stderr}`);
  r = run('platform-ext', ['package', 'my-ext', '--out', 'release', '--private-key', 'keys/acme.pem']);
  assert.equal(r.status, 0, `package: ${r.stdout}${r.stderr}`);
  r = run('platform-ext', ['verify', 'release', '--json']);
  assert.equal(r.status, 0, `verify: ${r.stdout}${r.stderr}`);
  assert.equal(json(r).ok, true);
  r = run('platform-review', ['release', '--json']);
  assert.equal(r.status, 0, `platform-review: ${r.stdout}${r.stderr}`);
  assert.deepEqual([json(r).command, json(r).ok], ['review', true]);
  r = run('platform-ext', ['check', 'my-ext', '--baseline', 'release', '--json']);
  assert.equal(r.status, 1, 'same version as the baseline');
  assert.deepEqual(json(r).findings.map((f) => f.rule), ['baseline/version-not-higher']);

  // The API and the validator through `exports`.
  writeFileSync(
    join(consumer, 'use-api.mjs'),
    `import { checkProject, verifyRelease, PlatformExtError } from 'platform-ext';
import { RULES } from 'platform-ext/validator';
const check = await checkProject('my-ext');
const verify = await verifyRelease('release');
const error = await checkProject('nowhere').catch((e) => e instanceof PlatformExtError && e.code);
console.log(JSON.stringify({ check: check.ok, verify: verify.ok, error, rules: RULES.length }));
`,
  );
  r = spawnSync(process.execPath, ['use-api.mjs'], { cwd: consumer, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.equal(r.status, 0, r.stderr);
  const used = json(r);
  assert.deepEqual([used.check, used.verify, used.error], [true, true, 'ERR_USAGE']);
  assert.ok(used.rules > 150);
  // Sources are not importable: only what `exports` lists.
  r = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('platform-ext/dist/api.mjs')"], { cwd: consumer, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /ERR_PACKAGE_PATH_NOT_EXPORTED/);
});
