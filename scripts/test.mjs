#!/usr/bin/env node
// Runs node:test over the suite's explicit list (scripts/test-files.mjs). Extra arguments
// narrow it to the paths under test/ that contain one of them: `node scripts/test.mjs html`
// runs the files whose path has "html", `node scripts/test.mjs validator/` the validator's.
// Output: scripts/test-reporter.mjs (one line per file, failures in full, totals last);
// `--tap` or `--spec` (or TEST_REPORTER=tap|spec|dot|<module path>) uses that reporter
// instead: `npm test -- --tap`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TEST_FILES } from './test-files.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith('--'));
const filters = args.filter((a) => !a.startsWith('--'));
const unknown = flags.filter((f) => f !== '--tap' && f !== '--spec');
if (unknown.length > 0) {
  console.error(`test: unknown option ${unknown[0]} (use --tap or --spec, or substrings of test file paths)`);
  process.exit(2);
}
const files = TEST_FILES.filter((path) => filters.length === 0 || filters.some((f) => path.slice('test/'.length).includes(f)));
if (files.length === 0) {
  console.error('test: no test files matched');
  process.exit(2);
}
const reporter = flags.includes('--tap')
  ? 'tap'
  : flags.includes('--spec')
    ? 'spec'
    : process.env.TEST_REPORTER || pathToFileURL(join(root, 'scripts/test-reporter.mjs')).href;
// On a terminal, node --test gives the test files FORCE_COLOR=1, which colours what they
// read from the tools they run (tsc, our CLI). NO_COLOR keeps their environment the same
// in a terminal and in CI, unless colour is asked for. (FORCE_COLOR=0 would not do: tsc
// colours its output whenever FORCE_COLOR is set.)
const env = { ...process.env };
if (env.NO_COLOR === undefined && env.FORCE_COLOR === undefined) env.NO_COLOR = '1';
const result = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`, '--test-reporter-destination=stdout', ...files], { cwd: root, stdio: 'inherit', env });
process.exit(result.status ?? 1);
