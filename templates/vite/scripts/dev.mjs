// `npm run dev`: builds runtime/ once, then keeps rebuilding it on every change to src/
// (vite build --watch) while `platform-ext preview` serves it. The preview waits for a
// rebuild to settle before it re-checks, so a build in progress never shows as an error.
// Ctrl+C stops both. Extra arguments go to the preview (npm run dev -- --port 0).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The JavaScript file of an installed package's command, run with this Node.js (no shell, any platform). */
function binOf(pkg, name) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const bin = JSON.parse(readFileSync(manifestPath, 'utf8')).bin;
  return join(dirname(manifestPath), typeof bin === 'string' ? bin : bin[name]);
}

/**
 * How to run platform-ext: its installed file (package.json links it), or else the
 * `platform-ext` command on the PATH (a global install), through a shell on Windows,
 * where npm installs commands as .cmd files.
 */
function platformExt() {
  try {
    return { command: process.execPath, prefix: [binOf('platform-ext', 'platform-ext')], shell: false };
  } catch {
    return { command: 'platform-ext', prefix: [], shell: process.platform === 'win32' };
  }
}

const vite = binOf('vite', 'vite');
const preview = platformExt();

const first = spawnSync(process.execPath, [vite, 'build'], { stdio: 'inherit' });
if (first.status !== 0) process.exit(first.status ?? 1);

const children = [
  spawn(process.execPath, [vite, 'build', '--watch'], { stdio: 'inherit' }),
  spawn(preview.command, [...preview.prefix, 'preview', ...process.argv.slice(2)], { stdio: 'inherit', shell: preview.shell }),
];
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
