// `verify` as a use case: the submission set exactly as the store will see it (D-16), as a report.
import { runReleasePipeline } from '../pipeline/release-pipeline.js';
import { buildReport, type Report } from '../pipeline/report.js';
import type { ReleaseResult } from '../validator/internal.js';

export interface VerifyOutcome {
  readonly report: Report;
  readonly result: ReleaseResult;
}

export function verifyRelease(dir: string): VerifyOutcome {
  const run = runReleasePipeline(dir);
  return { report: buildReport('verify', dir, run.findings), result: run.result };
}
