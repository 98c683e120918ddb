// What the programmatic API (src/api.ts) may name; it checks its callers' arguments and wraps these.
export { checkProject, type CheckProjectOptions } from './check-project.js';
export { packageProject, type PackageOutcome, type PackageProjectOptions } from './package-project.js';
export { verifyRelease, type VerifyOutcome } from './verify-release.js';
export { reviewRelease, type ReviewOptions } from './review-release.js';
export type { Report, ReportCommand, ReviewReport } from '../pipeline/report.js';
export type {
  ChangedFile,
  DiffCapability,
  DiffFile,
  ReleaseDiff,
  ReleaseSummary,
  SignerPinning,
  SummaryCapability,
  SummaryFile,
  SummaryProperty,
  SummaryTotal,
} from '../pipeline/release-summary.js';
export type { Finding, Severity } from '../validator/internal.js';
export { UsageError } from '../node/usage-error.js';
