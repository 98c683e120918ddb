// The programmatic API (`import ... from 'platform-ext'`, dist/api.mjs): each function
// returns what its command's --json prints (D-20) and never prints; usage problems
// (what the CLI answers with exit status 2, D-21) reject with a PlatformExtError and a
// code; findings never throw. Checked against the CLI on the example and on broken
// projects and releases, through the package's own `exports` (a consumer project whose
// node_modules links to this one), and with tsc against dist/api.d.ts without Node types.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, keygen, makeProject, runCli, tempDir } from '../support/project.mjs';
import { checkProject, packageProject, verifyRelease, reviewRelease, PlatformExtError } from '../../dist/api.mjs';

const REVIEW = join(ROOT, 'dist/platform-review.mjs');
const EXAMPLE = join(ROOT, 'examples/hello-world');

/** A project with errors in the manifest and the entrypoint. */
function brokenProject(t) {
  return makeProject(t, {
    manifest: { version: '1.0', capabilities: ['cart.manage', 'nope'] },
    files: { 'runtime/index.html': '<!doctype html><script>alert(1)</script><script type="module" src="missing.js"></script>' },
  });
}

async function rejection(promise, what = "") {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail(`expected a rejection: ${what}`);
}

test('checkProject equals check --json: clean example, broken project, --strict and --baseline', async (t) => {
  const broken = brokenProject(t);
  const warned = makeProject(t, { files: { 'runtime/index.html': '<!doctype html><form></form><script type="module" src="main.js"></script>' } });
  // [what, folder, API options, CLI flags]
  const rows = [
    ['example', EXAMPLE, undefined, []],
    ['broken', broken, undefined, []],
    ['warnings only', warned, {}, []],
    ['warnings only, strict', warned, { strict: true }, ['--strict']],
    ['relative target kept as given', 'examples/hello-world', undefined, []],
  ];
  for (const [what, dir, options, flags] of rows) {
    const report = await checkProject(dir, options);
    const cli = runCli(['check', dir, '--json', ...flags], { cwd: ROOT });
    assert.deepEqual(report, cli.json, what);
    assert.equal(report.ok, cli.status === 0, `${what}: ok matches the exit status`);
  }
  assert.equal((await checkProject(broken)).ok, false);
  assert.ok((await checkProject(broken)).errors > 0);
  assert.equal((await checkProject(warned, { strict: true })).ok, false, 'strict fails on warnings');
  assert.equal((await checkProject(warned)).ok, true);
});

test('packageProject writes the same set as package; verifyRelease and reviewRelease equal verify --json and platform-review --json', async (t) => {
  const key = keygen(tempDir(t), 'k').privateKey;
  const dir = tempDir(t);
  const viaApi = join(dir, 'api-out');
  const viaCli = join(dir, 'cli-out');
  const result = await packageProject(EXAMPLE, { out: viaApi, privateKey: key });
  assert.equal(result.ok, true);
  assert.equal(result.written, true);
  assert.equal(result.out, viaApi);
  assert.equal(result.namespace, 'acme/hello-world');
  assert.equal(result.artifactPath, 'extensions/acme/hello-world/1.0.0/bundle.zip');
  assert.deepEqual(result.report, (await checkProject(EXAMPLE)), 'the report is the check of the project');
  const cli = runCli(['package', EXAMPLE, '--out', viaCli, '--private-key', key]);
  assert.equal(cli.status, 0, cli.stderr);
  const files = readdirSync(viaCli).sort();
  assert.deepEqual(readdirSync(viaApi).sort(), files);
  for (const f of files) assert.ok(readFileSync(join(viaApi, f)).equals(readFileSync(join(viaCli, f))), `${f}: byte-identical`);
  assert.ok(cli.stdout.includes(result.artifactSha256) && cli.stdout.includes(result.manifestSha256) && cli.stdout.includes(result.publicKeyId));
  assert.equal(result.compressedBytes, readFileSync(join(viaApi, 'bundle.zip')).length);

  // A clean release and a tampered one (manifest edited after signing).
  const tampered = join(dir, 'tampered');
  cpSync(viaApi, tampered, { recursive: true });
  writeFileSync(join(tampered, 'manifest.json'), readFileSync(join(tampered, 'manifest.json'), 'utf8').replace('Hello World', 'Hello There'));
  for (const [what, release, ok] of [['clean', viaApi, true], ['tampered', tampered, false]]) {
    const verified = await verifyRelease(release);
    assert.deepEqual(verified, runCli(['verify', release, '--json']).json, `${what}: verify`);
    assert.equal(verified.ok, ok, what);
    const reviewed = await reviewRelease(release);
    const r = spawnSync(process.execPath, [REVIEW, release, '--json'], { encoding: 'utf8' });
    assert.deepEqual(reviewed, JSON.parse(r.stdout), `${what}: review`);
    assert.equal(reviewed.command, 'review');
  }
  assert.ok((await verifyRelease(tampered)).findings.some((f) => f.rule === 'release/signature-invalid'));

  // Replacing an earlier set works as in the CLI; a dry run writes nothing and needs no key.
  assert.equal((await packageProject(EXAMPLE, { out: viaApi, privateKey: key })).written, true);
  const dry = await packageProject(EXAMPLE, { dryRun: true });
  assert.deepEqual([dry.ok, dry.written, dry.out, dry.compressedBytes], [true, false, undefined, result.compressedBytes]);
  assert.deepEqual(dry.files.map((f) => f.path), ['images/logo.png', 'index.html', 'lib/format.js', 'main.js', 'styles.css']);
});

test('packageProject on a broken project: ok false, nothing written, the report of check', async (t) => {
  const key = keygen(tempDir(t), 'k').privateKey;
  const broken = brokenProject(t);
  const out = join(tempDir(t), 'out');
  const result = await packageProject(broken, { out, privateKey: key });
  assert.equal(result.ok, false);
  assert.equal(result.written, false);
  assert.equal(existsSync(out), false, 'nothing written');
  assert.deepEqual(result.report, runCli(['check', broken, '--json']).json);
  assert.equal(result.artifactSha256, undefined);
});

test('usage problems reject with PlatformExtError and a code; findings never throw', async (t) => {
  const key = keygen(tempDir(t), 'k').privateKey;
  const project = makeProject(t);
  const clean = makeProject(t);
  const keyInside = join(project, 'k.pem');
  cpSync(key, keyInside);
  const busy = join(tempDir(t), 'busy');
  mkdirSync(busy);
  writeFileSync(join(busy, 'notes.txt'), 'mine');
  const notRelease = tempDir(t);
  // [what, call, code]
  const rows = [
    ['check: missing folder', () => checkProject(join(notRelease, 'nope')), 'ERR_USAGE'],
    ['check: baseline not a submission set', () => checkProject(project, { baseline: notRelease }), 'ERR_USAGE'],
    ['check: folder not a string', () => checkProject(42), 'ERR_INVALID_ARGUMENT'],
    ['check: empty folder name', () => checkProject(''), 'ERR_INVALID_ARGUMENT'],
    ['check: unknown option', () => checkProject(project, { json: true }), 'ERR_INVALID_ARGUMENT'],
    ['check: option of the wrong type', () => checkProject(project, { strict: 'yes' }), 'ERR_INVALID_ARGUMENT'],
    ['check: options not an object', () => checkProject(project, 'strict'), 'ERR_INVALID_ARGUMENT'],
    ['package: no out or key', () => packageProject(project, {}), 'ERR_INVALID_ARGUMENT'],
    ['package: no options', () => packageProject(project), 'ERR_INVALID_ARGUMENT'],
    ['package: key inside the project (D-4)', () => packageProject(project, { out: join(notRelease, 'o'), privateKey: keyInside }), 'ERR_USAGE'],
    ['package: key missing', () => packageProject(project, { out: join(notRelease, 'o'), privateKey: join(notRelease, 'none.pem') }), 'ERR_USAGE'],
    ['package: out folder holds other files', () => packageProject(clean, { out: busy, privateKey: key }), 'ERR_USAGE'],
    ['verify: missing folder', () => verifyRelease(join(notRelease, 'nope')), 'ERR_USAGE'],
    ['review: not a string', () => reviewRelease(undefined), 'ERR_INVALID_ARGUMENT'],
  ];
  for (const [what, call, code] of rows) {
    const promise = call();
    assert.ok(promise instanceof Promise, `${what}: returns a promise, never throws synchronously`);
    const error = await rejection(promise, what);
    assert.ok(error instanceof PlatformExtError, `${what}: ${error}`);
    assert.equal(error.code, code, what);
    assert.equal(error.name, 'PlatformExtError');
  }
  assert.deepEqual(readdirSync(busy), ['notes.txt'], 'never overwrites what it did not create');
  // A folder that is not a release is still a report (the missing files are findings), as in verify.
  const empty = await verifyRelease(notRelease);
  assert.equal(empty.ok, false);
  assert.ok(empty.findings.some((f) => f.rule === 'release/missing-file'));
});

test('through the package exports: import("platform-ext") prints nothing, and the types need no Node types', (t) => {
  const consumer = tempDir(t);
  mkdirSync(join(consumer, 'node_modules'));
  symlinkSync(ROOT, join(consumer, 'node_modules/platform-ext'), 'dir');
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const out = join(consumer, 'out');
  const key = keygen(tempDir(t), 'k').privateKey;
  const broken = brokenProject(t);
  writeFileSync(
    join(consumer, 'run.mjs'),
    `import { writeFileSync } from 'node:fs';
import * as api from 'platform-ext';
import { validateManifest } from 'platform-ext/validator';
import pkg from 'platform-ext/package.json' with { type: 'json' };
const results = {
  exports: Object.keys(api).sort(),
  validator: typeof validateManifest,
  version: pkg.version,
  check: await api.checkProject(${JSON.stringify(EXAMPLE)}),
  broken: await api.checkProject(${JSON.stringify(broken)}),
  packaged: await api.packageProject(${JSON.stringify(EXAMPLE)}, { out: ${JSON.stringify(out)}, privateKey: ${JSON.stringify(key)} }),
  failed: await api.packageProject(${JSON.stringify(broken)}, { dryRun: true }),
  verify: await api.verifyRelease(${JSON.stringify(out)}),
  review: await api.reviewRelease(${JSON.stringify(out)}),
  error: await api.checkProject('/no/such/folder').catch((e) => e.code),
};
writeFileSync('results.json', JSON.stringify(results));
`,
  );
  const r = spawnSync(process.execPath, ['run.mjs'], { cwd: consumer, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '', 'the API never prints');
  assert.equal(r.stderr.replace(/^.*ExperimentalWarning.*\n|^\(Use `node --trace-warnings.*\n/gm, ''), '', 'nor writes to stderr');
  const results = JSON.parse(readFileSync(join(consumer, 'results.json'), 'utf8'));
  assert.deepEqual(results.exports, ['PlatformExtError', 'checkProject', 'packageProject', 'reviewRelease', 'verifyRelease']);
  assert.equal(results.validator, 'function');
  assert.equal(results.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  assert.equal(results.check.ok, true);
  assert.equal(results.broken.ok, false);
  assert.equal(results.packaged.written, true);
  assert.equal(results.failed.ok, false);
  assert.deepEqual([results.verify.ok, results.verify.command, results.review.command], [true, 'verify', 'review']);
  assert.equal(results.error, 'ERR_USAGE');

  // The declarations, as a TypeScript consumer sees them through `exports` (no @types/node).
  writeFileSync(
    join(consumer, 'use.ts'),
    `import { checkProject, packageProject, PlatformExtError, type Report, type PackageResult, type Finding } from 'platform-ext';
import { validateManifest, FindingList } from 'platform-ext/validator';
export async function run(): Promise<number> {
  const report: Report = await checkProject('.', { strict: true, baseline: 'release' });
  const first: Finding | undefined = report.findings[0];
  const packaged: PackageResult = await packageProject('.', { dryRun: true });
  const code: 'ERR_INVALID_ARGUMENT' | 'ERR_USAGE' = new PlatformExtError('ERR_USAGE', 'x').code;
  validateManifest(new Uint8Array(), new FindingList());
  return report.errors + (first?.line ?? 0) + packaged.files.length + code.length;
}
// @ts-expect-error: an unknown option is a type error too
checkProject('.', { json: true });
`,
  );
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], types: [], strict: true, noEmit: true }, files: ['use.ts'] }),
  );
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', consumer], { cwd: consumer, encoding: 'utf8' });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});
