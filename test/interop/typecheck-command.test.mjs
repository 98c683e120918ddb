// The documented type-check command (TYPECHECK_COMMAND, as AGENTS.md, the scaffold's
// README and CONTEXT.md give it) runs without a terminal and with an empty npm cache:
// npx must install TypeScript without asking. The test has no network, so a registry on
// 127.0.0.1 serves a stand-in "typescript" package whose `tsc` records the arguments it
// got; the command's words are run as they are, with the registry and a fresh cache given
// through npm's environment, stdin not a terminal, and npm set not to answer prompts
// (npm_config_yes=false, as npm 7 and 8 behave without a terminal): a command without
// --yes is then canceled, the documented one runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { TYPECHECK_COMMAND } from '../../build/contract/context-document.js';

const VERSION = '7.0.99';

/** The stand-in package as a registry tarball: package/package.json and package/bin/tsc.js. */
function standInTarball(home) {
  const root = join(home, 'pkg', 'package');
  mkdirSync(join(root, 'bin'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'typescript', version: VERSION, bin: { tsc: 'bin/tsc.js' } }));
  writeFileSync(join(root, 'bin/tsc.js'), "#!/usr/bin/env node\nrequire('node:fs').writeFileSync(process.env.TSC_RECORD, JSON.stringify(process.argv.slice(2)));\n");
  chmodSync(join(root, 'bin/tsc.js'), 0o755);
  const tarball = join(home, 'typescript.tgz');
  const r = spawnSync('tar', ['-czf', tarball, '-C', join(home, 'pkg'), 'package']);
  assert.equal(r.status, 0, String(r.stderr));
  return readFileSync(tarball);
}

/** A registry that knows one package, on a free port of 127.0.0.1. */
async function startRegistry(t, tarball) {
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  const server = createServer((request, response) => {
    const base = `http://127.0.0.1:${server.address().port}`;
    if (request.url === '/typescript') {
      const manifest = { name: 'typescript', version: VERSION, bin: { tsc: 'bin/tsc.js' }, dist: { tarball: `${base}/typescript/-/typescript-${VERSION}.tgz`, integrity } };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ name: 'typescript', 'dist-tags': { latest: VERSION }, versions: { [VERSION]: manifest } }));
    } else if (request.url === `/typescript/-/typescript-${VERSION}.tgz`) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(tarball);
    } else {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not found"}');
    }
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  t.after(() => new Promise((done) => server.close(done)));
  return `http://127.0.0.1:${server.address().port}/`;
}

/** Runs `command` (words split on spaces) in `cwd` with no terminal; resolves with its status and output. */
function run(command, cwd, env) {
  const [file, ...args] = command.split(' ');
  return new Promise((done) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => done({ status, output }));
  });
}

test('the documented type-check command installs TypeScript without a terminal, from an empty cache', async (t) => {
  assert.match(TYPECHECK_COMMAND, /^npx .* tsc -p jsconfig\.json$/);
  const home = mkdtempSync(join(tmpdir(), 'platform-ext-npx-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const registry = await startRegistry(t, standInTarball(home));
  const project = join(home, 'project');
  mkdirSync(project);
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  Object.assign(env, {
    npm_config_registry: registry,
    npm_config_cache: join(home, 'cache'),
    npm_config_yes: 'false',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    TSC_RECORD: join(home, 'tsc-args.json'),
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  });

  // Without --yes, npx that may not ask cancels.
  const before = await run('npx -p typescript tsc -p jsconfig.json', project, env);
  assert.notEqual(before.status, 0, before.output);
  assert.match(before.output, /no YES option/, 'canceled, not a registry failure');
  assert.equal(existsSync(env.TSC_RECORD), false);

  const r = await run(TYPECHECK_COMMAND, project, env);
  assert.equal(r.status, 0, r.output);
  assert.deepEqual(JSON.parse(readFileSync(env.TSC_RECORD, 'utf8')), ['-p', 'jsconfig.json']);
});
