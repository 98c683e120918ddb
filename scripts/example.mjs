#!/usr/bin/env node
// `npm run example`: the main job on the bundled example, with the built tool (run
// `node scripts/build.mjs` first; the npm script does). check, keygen, package, verify and
// platform-review of examples/hello-world, each printing its own output. Everything is
// written into one fresh temporary folder, removed at the end unless --keep is given;
// nothing in the repository changes. Exits 1 at the first command that fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const tool = join(root, 'dist/platform-ext.mjs');
const review = join(root, 'dist/platform-review.mjs');
if (!existsSync(tool) || !existsSync(review)) {
  process.stderr.write('example: dist/ is not built: run `npm run example` (it builds first) or `npm run build`\n');
  process.exit(1);
}
/** Relative to the repository, where the commands run, so that the tool prints it short. */
const project = 'examples/hello-world';
const work = mkdtempSync(join(tmpdir(), 'platform-ext-example-'));
const key = join(work, 'keys/publisher.pem');
const pub = join(work, 'keys/publisher.pub');
const release = join(work, 'release');

const steps = [
  ['platform-ext', tool, ['check', project]],
  ['platform-ext', tool, ['keygen', '--private-key', key, '--public-key', pub]],
  ['platform-ext', tool, ['package', project, '--out', release, '--private-key', key]],
  ['platform-ext', tool, ['verify', release]],
  ['platform-review', review, [release, '--known-keys', pub]],
];

let status = 0;
try {
  mkdirSync(join(work, 'keys'));
  for (const [name, file, args] of steps) {
    process.stdout.write(`\n$ ${name} ${args.join(' ')}\n`);
    const r = spawnSync(process.execPath, [file, ...args], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) {
      process.stderr.write(`example: ${name} ${args[0]} exited with ${r.status ?? r.signal}\n`);
      status = 1;
      break;
    }
  }
} finally {
  if (keep) process.stdout.write(`\nThe key and the submission set are in ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}
if (status === 0) process.stdout.write('\nexample: check, keygen, package, verify and platform-review all passed\n');
process.exit(status);
