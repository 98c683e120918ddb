#!/usr/bin/env node
// npm's `prepare` step: builds dist/ (and build/) so that `npm pack` of a clean clone, `npm
// install` in a clone and `npm install --global <path to a clone>` give a working tool.
// The build needs the dev dependencies; without them it stops with what to run instead of
// a module-resolution stack.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
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
