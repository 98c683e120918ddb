// The package as users get it, from a clean clone: the checkout's files as a clone holds
// them (what git tracks or would track: no dist/, build/ or node_modules/), with the dev
// dependencies linked in (what `npm ci` would install; the test has no network). `npm pack`
// there must build dist/ itself (the `prepare` script); the tarball's file list is checked,
// it is installed with `npm install --global` into a temporary prefix offline, from an
// empty npm cache (it has no runtime dependencies, so nothing is fetched), and the
// installed bins run --version, init, check, keygen, package, verify and platform-review;
// the API, the validator, the testing mock and the service core are imported through the
// package's `exports`; an upload validator built on platform-ext/validator/node refuses a
// release signed by an unpinned key; the service core's walkthrough runs in the clone. `npm install --global <path to the clone>` works too, and without the dev
// dependencies `prepare` says to run `npm ci` first.
//
// The bins start with `#!/usr/bin/env node`: the Node.js running this test is put first on
// PATH, so that scripts/node-matrix.mjs runs them on the Node.js it is testing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { ROOT } from '../support/project.mjs';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** The environment without npm's own variables (set when this runs under `npm test`), with an isolated cache. */
function cleanEnv(home, withNodeFirst) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  env.XDG_CACHE_HOME = join(home, 'cache');
  env.NO_COLOR = '1';
  env.GITHUB_ACTIONS = '';
  // npm runs `prepare` with the Node.js on PATH: the one under test.
  env.PATH = withNodeFirst ? `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` : process.env.PATH ?? '';
  return env;
}

function npm(args, cwd, home, expected = 0) {
  const r = spawnSync('npm', [...args, '--cache', join(home, 'npm-cache'), '--no-update-notifier', '--no-audit', '--no-fund'], { cwd, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.equal(r.error, undefined, `npm ${args[0]}: ${r.error?.message}`);
  assert.equal(r.status, expected, `npm ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r;
}

/** A clean clone of the checkout: the files git tracks or would track, as they are in the working tree. */
function cleanClone(into) {
  const r = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, `the test needs a git checkout: ${r.stderr}`);
  let copied = 0;
  for (const rel of r.stdout.split('\0')) {
    // node_modules is linked in by the caller; a symlink to it is not matched by .gitignore's node_modules/.
    if (rel === '' || rel === 'node_modules' || rel.startsWith('node_modules/')) continue;
    const from = join(ROOT, rel);
    if (!existsSync(from) || !lstatSync(from).isFile()) continue; // deleted in the working tree
    mkdirSync(dirname(join(into, rel)), { recursive: true });
    copyFileSync(from, join(into, rel));
    copied++;
  }
  assert.ok(copied > 100, 'the checkout was copied');
  for (const built of ['dist', 'build', 'node_modules']) assert.ok(!existsSync(join(into, built)), `a clean clone has no ${built}/`);
}

/** The tarball's entries: path (without the leading package/) and mode bits, from `tar -tvzf`. */
function tarEntries(tarball) {
  const r = spawnSync('tar', ['-tvzf', tarball], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const entries = new Map();
  for (const line of r.stdout.split('\n').filter(Boolean)) {
    const m = /^(\S+)\s+\S+\s+\d+\s+\S+\s+\S+\s+package\/(.*)$/.exec(line);
    assert.ok(m !== null, line);
    const bits = m[1].slice(1);
    const mode = [...bits].reduce((n, c, i) => (c === '-' ? n : n | (1 << (8 - i))), 0);
    entries.set(m[2], mode);
  }
  return entries;
}

/**
 * `init --template vite` by the tool at `bin` (run with this Node.js), then the printed next
 * steps: npm install, build, check, keygen, package, verify. The project's package.json must
 * link platform-ext with `file:` (the package is not on the registry) and never name a
 * registry version of it. Vite and TypeScript come from this repository's node_modules:
 * the test has no network, so their registry ranges are replaced with `file:` links to the
 * same versions; platform-ext's line stays exactly as init wrote it.
 */
function viteProjectSteps(home, bin, expectedTool, name) {
  // npm's own options first: whatever follows "--" goes to the script or the command.
  const npmFirst = (args, cwd) => {
    const r = spawnSync('npm', ['--cache', join(home, 'npm-cache'), '--no-update-notifier', '--no-audit', '--no-fund', ...args], { cwd, encoding: 'utf8', env: cleanEnv(home, true) });
    assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    return r;
  };
  const work = join(home, `vite-${name}`);
  mkdirSync(work);
  let r = spawnSync(process.execPath, [bin, 'init', 'shelf', '--namespace', 'acme/vite-shelf', '--name', 'Vite shelf', '--template', 'vite'], { cwd: work, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.equal(r.status, 0, `init --template vite: ${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /npm install/);
  const project = join(work, 'shelf');
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  assert.equal(pkg.devDependencies['platform-ext'], `file:${expectedTool}`, 'linked to the tool that ran init');
  assert.equal(pkg.dependencies, undefined);
  for (const dep of ['vite', 'typescript']) pkg.devDependencies[dep] = `file:${join(ROOT, 'node_modules', dep)}`;
  writeFileSync(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
  npmFirst(['install', '--offline'], project);
  assert.ok(existsSync(join(project, 'node_modules/.bin/platform-ext')), 'npm linked the platform-ext command');
  npmFirst(['run', 'build'], project);
  r = npmFirst(['run', '--silent', 'check', '--', '--json'], project);
  assert.deepEqual(JSON.parse(r.stdout).findings.map((f) => f.rule), []);
  const keys = join(home, `keys-${name}`);
  mkdirSync(keys);
  npmFirst(['exec', '--no', '--', 'platform-ext', 'keygen', '--private-key', join(keys, 'acme.pem'), '--public-key', join(keys, 'acme.pub')], project);
  npmFirst(['run', 'package', '--', join(keys, 'acme.pem')], project);
  r = npmFirst(['exec', '--no', '--', 'platform-ext', 'verify', 'release', '--json'], project);
  assert.equal(JSON.parse(r.stdout).ok, true);
}

test('npm pack of a clean clone builds dist/; the tarball installs globally offline and every command and entry point works', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'platform-ext-pack-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const clone = join(home, 'clone');
  cleanClone(clone);

  // Without the dev dependencies, prepare stops and says what to run.
  let r = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: clone, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /npm ci/);
  assert.ok(!existsSync(join(clone, 'dist')));

  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  const packs = join(home, 'packs');
  mkdirSync(packs);
  npm(['pack', '--pack-destination', packs], clone, home);
  const tarballs = readdirSync(packs).filter((f) => f.endsWith('.tgz'));
  assert.deepEqual(tarballs, [`${PACKAGE.name}-${PACKAGE.version}.tgz`]);
  const tarball = join(packs, tarballs[0]);
  const modes = tarEntries(tarball);
  const files = [...modes.keys()];

  // The service core's walkthrough runs in the clone (which `npm pack` built) through the
  // package's own `exports` (a self-reference to platform-ext/service) and prints every step.
  r = spawnSync(process.execPath, ['examples/service/walkthrough.mjs'], { cwd: clone, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.equal(r.status, 0, `walkthrough: ${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /Every step behaved as the contract says\.\n$/);

  // Sources, tests and tooling stay out (a template's TypeScript is a project file, not ours),
  // but for scripts/prepare.mjs: npm runs it when a project made by init --template vite
  // links the installed package, and there it leaves the built copy as it is.
  const forbidden = files.filter(
    (f) =>
      (/^(src|test|build|bench|scripts|examples|node_modules|test-artifacts)\//.test(f) && f !== 'scripts/prepare.mjs') ||
      (f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('templates/')),
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
    'dist/validator-node.mjs',
    'dist/validator-node.d.ts',
    'dist/validator-worker.mjs',
    'docs/api.md',
    'dist/api.mjs',
    'dist/api.d.ts',
    'dist/types/api.d.ts',
    'dist/testing.mjs',
    'dist/testing.d.ts',
    'dist/service.mjs',
    'dist/service.d.ts',
    'dist/types/service/index.d.ts',
    'contract-snapshot/rules.json',
    'contract-snapshot/service-refusals.json',
    'contract-snapshot/limits.json',
    'templates/scaffold/manifest.json',
  ];
  // The CLI's chunks, each of which some command imports.
  for (const chunk of readdirSync(join(ROOT, 'dist/cli'))) required.push(`dist/cli/${chunk}`);
  assert.ok(required.includes('dist/cli/cli.mjs'));
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

  // Installed globally into an empty prefix, offline, from an empty cache.
  const prefix = join(home, 'prefix');
  npm(['install', '--global', '--prefix', prefix, '--offline', tarball], home, home);
  const work = join(home, 'work');
  mkdirSync(work);
  const run = (name, args) => spawnSync(join(prefix, 'bin', name), args, { cwd: work, encoding: 'utf8', env: cleanEnv(home, true) });
  const json = (result) => JSON.parse(result.stdout);

  r = run('platform-ext', ['--version']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), PACKAGE.version);

  r = run('platform-ext', ['init', 'my-ext', '--namespace', 'acme/my-ext', '--name', 'My extension']);
  assert.equal(r.status, 0, `init: ${r.stdout}${r.stderr}`);
  assert.ok(existsSync(join(work, 'my-ext/manifest.json')), 'init wrote a project');
  assert.ok(existsSync(join(work, 'my-ext/runtime')), 'init wrote runtime/');

  r = run('platform-ext', ['check', 'my-ext', '--json']);
  assert.equal(r.status, 0, `check: ${r.stdout}${r.stderr}`);
  assert.deepEqual([json(r).ok, json(r).errors], [true, 0]);

  mkdirSync(join(work, 'keys'));
  r = run('platform-ext', ['keygen', '--private-key', 'keys/acme.pem', '--public-key', 'keys/acme.pub']);
  assert.equal(r.status, 0, `keygen: ${r.stderr}`);
  r = run('platform-ext', ['package', 'my-ext', '--out', 'release', '--private-key', 'keys/acme.pem']);
  assert.equal(r.status, 0, `package: ${r.stdout}${r.stderr}`);
  r = run('platform-ext', ['verify', 'release', '--json']);
  assert.equal(r.status, 0, `verify: ${r.stdout}${r.stderr}`);
  assert.equal(json(r).ok, true);
  r = run('platform-review', ['release', '--json', '--first-release']);
  assert.equal(r.status, 0, `platform-review: ${r.stdout}${r.stderr}`);
  assert.deepEqual([json(r).command, json(r).ok], ['review', true]);
  r = run('platform-ext', ['check', 'my-ext', '--baseline', 'release', '--json']);
  assert.equal(r.status, 1, 'same version as the baseline');
  assert.deepEqual(json(r).findings.map((f) => f.rule), ['baseline/version-not-higher']);

  // init --template vite from the installed tarball, then its printed steps.
  viteProjectSteps(home, join(prefix, 'lib/node_modules/platform-ext/dist/platform-ext.mjs'), join(prefix, 'lib/node_modules/platform-ext'), 'tarball');

  // The API, the validator and the testing mock through `exports`, from the global copy:
  // a module in <prefix>/lib resolves bare names in <prefix>/lib/node_modules.
  const lib = join(prefix, 'lib');
  writeFileSync(
    join(lib, 'use-api.mjs'),
    `import { checkProject, verifyRelease, PlatformExtError } from 'platform-ext';
import { RULES } from 'platform-ext/validator';
import { createMockPlatform } from 'platform-ext/testing';
const service = await import('platform-ext/service');
const created = service.decidePublisher(null, { type: 'create', actor: { kind: 'publisher-member', id: 'olivia' }, keyId: 'a'.repeat(64) }, { now: 0, newId: 'pub-1' });
const malformed = service.decidePublisher(null, 'not a command', {}).refusal.code;
process.chdir(${JSON.stringify(work)});
const check = await checkProject('my-ext');
const verify = await verifyRelease('release');
const error = await checkProject('nowhere').catch((e) => e instanceof PlatformExtError && e.code);
const mock = await createMockPlatform({ manifest: 'my-ext' });
const ready = typeof (await mock.platform.ready).capabilities;
mock.dispose();
console.log(JSON.stringify({ check: check.ok, verify: verify.ok, error, rules: RULES.length, ready, service: [created.ok, created.records[0].revision, malformed, service.REFUSALS.length > 30] }));
`,
  );
  r = spawnSync(process.execPath, ['use-api.mjs'], { cwd: lib, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.equal(r.status, 0, r.stderr);
  const used = json(r);
  assert.deepEqual([used.check, used.verify, used.error, used.ready], [true, true, 'ERR_USAGE', 'object']);
  assert.deepEqual(used.service, [true, 1, 'service/malformed-command', true], 'platform-ext/service decides from the tarball');
  assert.ok(used.rules > 150);
  // An upload validator built from the tarball alone (M2): platform-ext/validator/node's
  // adapter and validateSubmission, with the publisher's known key pinned. A release signed
  // by a stranger's fresh key fails with the pinning option, passes without it, and the
  // worker pool gives the same answer off the main thread.
  r = run('platform-ext', ['keygen', '--private-key', 'keys/stranger.pem', '--public-key', 'keys/stranger.pub']);
  assert.equal(r.status, 0, `keygen: ${r.stderr}`);
  r = run('platform-ext', ['package', 'my-ext', '--out', 'release-stranger', '--private-key', 'keys/stranger.pem']);
  assert.equal(r.status, 0, `package: ${r.stdout}${r.stderr}`);
  writeFileSync(
    join(lib, 'upload-validator.mjs'),
    `import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_RELEASE_DEPS, validateSubmission, createSubmissionPool } from 'platform-ext/validator/node';
import { SUBMISSION_FILES, publicKeyFingerprint, validateRelease } from 'platform-ext/validator';
const work = ${JSON.stringify(work)};
const upload = (dir) => Object.fromEntries(SUBMISSION_FILES.map((name) => [name, readFileSync(join(work, dir, name))]));
const knownKeys = [readFileSync(join(work, 'keys/acme.pub'), 'utf8')];
const rules = (result) => result.findings.filter((f) => f.severity === 'error').map((f) => f.rule);
const pool = createSubmissionPool();
const inWorker = await pool.validate(upload('release-stranger'), { knownKeys });
await pool.close();
console.log(JSON.stringify({
  pinned: rules(validateSubmission(upload('release'), { knownKeys })),
  stranger: rules(validateSubmission(upload('release-stranger'), { knownKeys })),
  strangerUnpinned: rules(validateSubmission(upload('release-stranger'))),
  direct: rules(validateRelease({ files: upload('release-stranger'), otherNames: [] }, NODE_RELEASE_DEPS, { knownKeys: [publicKeyFingerprint(knownKeys[0], NODE_RELEASE_DEPS.sha256Hex)] })),
  inWorker: rules(inWorker),
  bytesKept: validateSubmission(upload('release')).bundleEntries.some((e) => e.content !== undefined),
}));
`,
  );
  r = spawnSync(process.execPath, ['upload-validator.mjs'], { cwd: lib, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(json(r), {
    pinned: [],
    stranger: ['release/unknown-signing-key'],
    strangerUnpinned: [],
    direct: ['release/unknown-signing-key'],
    inWorker: ['release/unknown-signing-key'],
    bytesKept: false,
  });
  // Sources are not importable: only what `exports` lists.
  r = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('platform-ext/dist/api.mjs')"], { cwd: lib, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /ERR_PACKAGE_PATH_NOT_EXPORTED/);

  // init --template vite from the clean clone (built by npm pack above), then its printed steps.
  viteProjectSteps(home, join(clone, 'dist/platform-ext.mjs'), clone, 'clone');

  // `npm install --global <path to a clone>` (after `npm ci` there) builds and links it.
  rmSync(join(clone, 'dist'), { recursive: true, force: true });
  const linked = join(home, 'prefix-from-clone');
  npm(['install', '--global', '--prefix', linked, '--offline', clone], home, home);
  r = spawnSync(join(linked, 'bin', 'platform-ext'), ['check', 'my-ext', '--json'], { cwd: work, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.equal(r.status, 0, `check from the clone's install: ${r.stdout}${r.stderr}`);
  assert.equal(json(r).ok, true);
  r = spawnSync(join(linked, 'bin', 'platform-review'), ['release', '--json', '--first-release'], { cwd: work, encoding: 'utf8', env: cleanEnv(home, true) });
  assert.equal(r.status, 0, `platform-review from the clone's install: ${r.stdout}${r.stderr}`);
});
