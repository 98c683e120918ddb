// What a store's server pays to validate one upload with platform-ext/validator/node, from
// this checkout's dist/: validations per second on the main thread for the example
// extension and for a large bundle (bench/projects.mjs's 20 MiB project, about 5 MiB
// compressed), the longest event-loop stall while a large one runs on the main thread and
// while it runs in createSubmissionPool's worker, and the pool's rate with two threads.
// Figures are printed, never asserted; docs/api.md quotes a run. Run `npm run build` first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { makeBundle } from './projects.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist/platform-ext.mjs');
const { SUBMISSION_FILES } = await import(pathToFileURL(join(root, 'dist/validator.mjs')).href);
const { validateSubmission, createSubmissionPool } = await import(pathToFileURL(join(root, 'dist/validator-node.mjs')).href);

const work = mkdtempSync(join(tmpdir(), 'validator-server-'));
try {
  const tool = (...args) => execFileSync(process.execPath, [cli, ...args], { cwd: work, stdio: 'pipe' });
  mkdirSync(join(work, 'keys'));
  tool('keygen', '--private-key', 'keys/k.pem', '--public-key', 'keys/k.pub');
  tool('package', join(root, 'examples/hello-world'), '--out', 'small', '--private-key', 'keys/k.pem');
  makeBundle(join(work, 'big-project'), 4 << 20, root);
  tool('package', 'big-project', '--out', 'big', '--private-key', 'keys/k.pem');
  const upload = (dir) => Object.fromEntries(SUBMISSION_FILES.map((name) => [name, readFileSync(join(work, dir, name))]));
  const knownKeys = [readFileSync(join(work, 'keys/k.pub'), 'utf8')];
  const small = upload('small');
  const big = upload('big');
  for (const [name, files] of [['small', small], ['big', big]]) {
    const result = validateSubmission(files, { knownKeys });
    if (result.errors !== 0) throw new Error(`bench/validator-server.mjs: the ${name} release has errors: ${result.findings.map((f) => f.rule).join(', ')}`);
  }
  console.log(`example bundle ${statSync(join(work, 'small/bundle.zip')).size} B; large bundle ${(statSync(join(work, 'big/bundle.zip')).size / (1 << 20)).toFixed(2)} MiB compressed, 20 MiB expanded`);

  const rate = (files, ms) => {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < ms) {
      validateSubmission(files, { knownKeys });
      n++;
    }
    return (n * 1000) / (performance.now() - start);
  };
  rate(small, 300);
  console.log(`main thread, example: ${rate(small, 2000).toFixed(0)} validations/s`);
  console.log(`main thread, large:   ${rate(big, 4000).toFixed(2)} validations/s`);

  const stall = async (run) => {
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    await run();
    h.disable();
    return h.max / 1e6;
  };
  const tick = () => new Promise((resolve) => setTimeout(resolve, 10));
  const onMain = await stall(async () => {
    for (let i = 0; i < 5; i++) {
      await tick();
      validateSubmission(big, { knownKeys });
    }
    await tick();
  });
  const pool = createSubmissionPool({ threads: 2 });
  await pool.validate(small);
  const inWorker = await stall(async () => {
    for (let i = 0; i < 5; i++) await pool.validate(big, { knownKeys });
  });
  console.log(`longest event-loop stall, large on the main thread: ${onMain.toFixed(0)} ms; in the pool: ${inWorker.toFixed(0)} ms`);
  let done = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: 12 }, () => pool.validate(big, { knownKeys }).then(() => done++)));
  console.log(`pool of 2 threads, large: ${((done * 1000) / (performance.now() - start)).toFixed(2)} validations/s`);
  await pool.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
