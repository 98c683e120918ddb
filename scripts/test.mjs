#!/usr/bin/env node
// Runs node:test over an explicit list: every test/*.test.mjs at the top of test/ (never
// fixtures: Node 20 would otherwise run every .js under a folder named test). Extra
// arguments narrow the list: `node scripts/test.mjs html` runs the files whose name has "html".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const filters = process.argv.slice(2);
const files = readdirSync(join(root, 'test'))
  .filter((name) => name.endsWith('.test.mjs'))
  .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
  .sort()
  .map((name) => join('test', name));
if (files.length === 0) {
  console.error('test: no test files matched');
  process.exit(2);
}
const result = spawnSync(process.execPath, ['--test', ...files], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
