// A test hook: with PLATFORM_EXT_TEST_PAUSE_AT naming a phase, the process says "paused at
// <phase>" on stderr when it gets there and waits, so that a test can act at exactly that
// point: kill it (test/cli/package-faults.test.mjs), or change the files it is reading and
// then create the file PLATFORM_EXT_TEST_RESUME_FILE names to let it go on
// (test/cli/hostile-files.test.mjs). Without the variable, nothing happens.
import { existsSync, writeSync } from 'node:fs';

/** The longest a pause lasts: longer than any test waits before it acts. */
const PAUSE_MS = 60_000;
/** How often a pause looks for the resume file. */
const POLL_MS = 10;

export function pausePoint(phase: string): void {
  if (process.env['PLATFORM_EXT_TEST_PAUSE_AT'] !== phase) return;
  writeSync(2, `paused at ${phase}\n`);
  const resume = process.env['PLATFORM_EXT_TEST_RESUME_FILE'];
  const slot = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited < PAUSE_MS; waited += POLL_MS) {
    if (resume !== undefined && existsSync(resume)) return;
    Atomics.wait(slot, 0, 0, POLL_MS);
  }
}
