#!/usr/bin/env node
// npm's `prepare` step: builds dist/ (and build/) so that `npm pack` of a clean clone, `npm
// install` in a clone and `npm install --global <path to a clone>` give a working tool.
// The build needs the dev dependencies; without them it stops with what to run instead of
// a module-resolution stack.
//
// A project made by `init --template vite` links this package with a `file:` dependency,
// and npm runs a linked package's `prepare` when it installs the project (npm's INIT_CWD
// is then the project, not this folder). A copy already built (a clone after `npm ci`, an
// installed tarball, which has no src/ and no dev dependencies) is used as it is.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const built = existsSync(join(root, 'dist/platform-ext.mjs'));
const linked = process.env.INIT_CWD !== undefined && resolve(process.env.INIT_CWD) !== root;
if (built && (linked || !existsSync(join(root, 'src')))) process.exit(0);
const missing = ['esbuild', 'typescript'].filter((name) => !existsSync(join(root, 'node_modules', name, 'package.json')));
if (missing.length > 0) {
  process.stderr.write(
    `platform-ext: building dist/ needs the dev dependencies (${missing.join(', ')} missing in ${join(root, 'node_modules')}).\n` +
      `Run \`npm ci\` in ${root} first, then run the same command again.\n`,
  );
  process.exit(1);
}
const result = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
