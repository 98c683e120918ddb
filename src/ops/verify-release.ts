// `verify` as a use case: the submission set exactly as the store will see it (reopen the
// archive, D-16; validate its contents with the rules of `check`; recompute both hashes;
// check the record and the key; verify the signature), as a report and the recomputed values.
import { runReleasePipeline } from '../pipeline/release-pipeline.js';
import { buildReport, type Report } from '../pipeline/report.js';
import type { ReleaseResult } from '../validator/internal.js';

export interface VerifyOutcome {
  readonly report: Report;
  /** What was recomputed: release, hashes, key, signature. */
  readonly result: ReleaseResult;
}

/** Throws a UsageError when `dir` is not a readable folder. */
export function verifyRelease(dir: string): VerifyOutcome {
  const run = runReleasePipeline(dir);
  return { report: buildReport('verify', dir, run.findings), result: run.result };
}
