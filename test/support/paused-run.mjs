// A child process for tests that act at one exact point of a use case: it runs `package`
// or `check` through the use case's own seams (ops/package-project.ts `onStage`,
// ops/check-project.ts `onListed`), says "paused at <point>" on stderr when it gets there,
// and waits: until killed (test/cli/package-faults.test.mjs), or until the resume file
// exists (test/cli/hostile-files.test.mjs changes the files meanwhile).
//   node paused-run.mjs package <project> <out> <key> <stage>
//   node paused-run.mjs check <project> <resume-file>     (pauses after runtime/ is listed)
// Exit status as the CLI's: 0 passed, 1 error findings; check prints its JSON report.
import { existsSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './project.mjs';

const { packageProject } = await import(join(ROOT, 'build/ops/package-project.js'));
const { checkProject } = await import(join(ROOT, 'build/ops/check-project.js'));

/** Says where it is, then waits for `resume()` (at most a minute: longer than any test waits). */
function pause(point, resume = () => false) {
  writeSync(2, `paused at ${point}\n`);
  const slot = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited < 60_000 && !resume(); waited += 10) Atomics.wait(slot, 0, 0, 10);
}

const [command, project, ...rest] = process.argv.slice(2);
if (command === 'package') {
  const [out, privateKey, stage] = rest;
  const outcome = packageProject(project, { out, privateKey, onStage: (s) => s === stage && pause(s) });
  process.exitCode = outcome.written ? 0 : 1;
} else {
  const [resumeFile] = rest;
  let paused = false;
  const report = checkProject(project, {
    onListed: () => {
      if (paused) return;
      paused = true;
      pause('runtime-listed', () => existsSync(resumeFile));
    },
  });
  process.stdout.write(JSON.stringify(report));
  process.exitCode = report.ok ? 0 : 1;
}
