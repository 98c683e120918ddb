// The programmatic API (dist/api.mjs): each function runs its command's use case (src/ops/) and resolves with the
// D-20 report `--json` prints; never prints or exits. What the CLI exits 2 for (D-21) rejects with PlatformExtError;
// findings never throw. Promises, so that moving work off the main thread changes nothing for callers.
import {
  checkProject as checkProjectOp,
  packageProject as packageProjectOp,
  reviewRelease as reviewReleaseOp,
  verifyRelease as verifyReleaseOp,
  UsageError,
  type ChangedFile,
  type DiffCapability,
  type DiffFile,
  type Finding,
  type ReleaseDiff,
  type ReleaseSummary,
  type Report,
  type ReportCommand,
  type ReviewReport,
  type Severity,
  type SignerPinning,
  type SummaryCapability,
  type SummaryFile,
  type SummaryProperty,
  type SummaryTotal,
} from './ops/index.js';

export type { Finding, Report, ReportCommand, Severity };
export type { ReviewReport, ReleaseSummary, ReleaseDiff, SignerPinning, SummaryCapability, SummaryFile, SummaryProperty, SummaryTotal, DiffCapability, DiffFile, ChangedFile };

/** `ERR_INVALID_ARGUMENT`: a wrong call (type, unknown option); `ERR_USAGE`: the CLI's exit-2 problem, its message. */
export type PlatformExtErrorCode = 'ERR_INVALID_ARGUMENT' | 'ERR_USAGE';

/** A usage problem: the call or its target is wrong, so there is no report. */
export class PlatformExtError extends Error {
  readonly code: PlatformExtErrorCode;

  constructor(code: PlatformExtErrorCode, message: string) {
    super(message);
    this.name = 'PlatformExtError';
    this.code = code;
  }
}

/** As `check --strict` (warnings fail too) and `--baseline <dir>` (an earlier submission set to diff against). */
export interface CheckProjectOptions {
  readonly strict?: boolean;
  readonly baseline?: string;
}

/** As platform-review's `--known-keys <file>`, `--baseline <dir>` (adds `diff`), `--history`, `--first-release`. */
export interface ReviewReleaseOptions {
  readonly knownKeys?: string;
  readonly baseline?: string;
  readonly history?: string;
  readonly firstRelease?: boolean;
}

/** As `package --out <dir> --private-key <pem>` (a key outside the project) or `--dry-run` (writes nothing, no key). */
export interface PackageProjectOptions {
  /** Absent, empty, or a set package wrote there and nobody changed since (replaced whole). */
  readonly out?: string;
  readonly privateKey?: string;
  readonly dryRun?: boolean;
}

/** A file of the bundle; `path` is relative to runtime/. */
export interface PackagedFile {
  readonly path: string;
  readonly size: number;
}

/** `ok`: no error (a dry run could write); `written`: the five files are in `out`; `report`: check and read-back. */
export interface PackageResult {
  readonly ok: boolean;
  readonly written: boolean;
  readonly report: Report;
  readonly namespace?: string;
  readonly version?: string;
  readonly out?: string;
  readonly files: readonly PackagedFile[];
  readonly compressedBytes?: number;
  readonly manifestSha256?: string;
  readonly artifactSha256?: string;
  readonly publicKeyId?: string;
  readonly artifactPath?: string;
}

function invalid(message: string): PlatformExtError {
  return new PlatformExtError('ERR_INVALID_ARGUMENT', message);
}

function requireFolder(name: string, dir: unknown): string {
  if (typeof dir !== 'string' || dir === '') throw invalid(`${name}: the folder must be a non-empty string, not ${dir === '' ? 'an empty string' : typeof dir}`);
  return dir;
}

function readOptions<T>(name: string, options: unknown, types: Readonly<Record<string, 'string' | 'boolean'>>): Partial<T> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw invalid(`${name}: options must be an object`);
  for (const [key, value] of Object.entries(options)) {
    const type = types[key];
    if (type === undefined) throw invalid(`${name}: unknown option "${key}" (known: ${Object.keys(types).join(', ')})`);
    if (value !== undefined && typeof value !== type) throw invalid(`${name}: option "${key}" must be a ${type}, not ${value === null ? 'null' : typeof value}`);
  }
  return options as Partial<T>;
}

function usage<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    if (error instanceof UsageError) return Promise.reject(new PlatformExtError('ERR_USAGE', error.message));
    return Promise.reject(error);
  }
}

/** `platform-ext check <dir> --json`: the project against every rule, as one report. */
export function checkProject(dir: string, options?: CheckProjectOptions): Promise<Report> {
  try {
    const target = requireFolder('checkProject', dir);
    const { strict, baseline } = readOptions<CheckProjectOptions>('checkProject', options, { strict: 'boolean', baseline: 'string' });
    return usage(() => checkProjectOp(target, { ...(strict !== undefined && { strict }), ...(baseline !== undefined && { baseline }) }));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** As `package`: check, build, read back, sign and write the five files; with an error finding nothing is written. */
export function packageProject(dir: string, options: PackageProjectOptions): Promise<PackageResult> {
  try {
    const target = requireFolder('packageProject', dir);
    const { out, privateKey, dryRun } = readOptions<PackageProjectOptions>('packageProject', options, { out: 'string', privateKey: 'string', dryRun: 'boolean' });
    if (dryRun !== true && (out === undefined || privateKey === undefined)) {
      throw invalid('packageProject: give both "out" and "privateKey", or "dryRun: true" to build without writing');
    }
    return usage(() => {
      const outcome = packageProjectOp(target, {
        ...(out !== undefined && { out }),
        ...(privateKey !== undefined && { privateKey }),
        ...(dryRun !== undefined && { dryRun }),
      });
      return { ok: outcome.report.ok, ...outcome, ...(outcome.written && { out: out! }) };
    });
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `platform-ext verify <dir> --json`: a submission set checked exactly as the store will. */
export function verifyRelease(dir: string): Promise<Report> {
  try {
    const target = requireFolder('verifyRelease', dir);
    return usage(() => verifyReleaseOp(target).report);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `platform-review <dir> --json`: the operator's review with the release summary and, given a baseline, the diff. */
export function reviewRelease(dir: string, options?: ReviewReleaseOptions): Promise<ReviewReport> {
  try {
    const target = requireFolder('reviewRelease', dir);
    const { knownKeys, baseline, history, firstRelease } = readOptions<ReviewReleaseOptions>('reviewRelease', options, {
      knownKeys: 'string',
      baseline: 'string',
      history: 'string',
      firstRelease: 'boolean',
    });
    return usage(() =>
      reviewReleaseOp(target, {
        ...(knownKeys !== undefined && { knownKeys }),
        ...(baseline !== undefined && { baseline }),
        ...(history !== undefined && { history }),
        ...(firstRelease === true && { firstRelease }),
      }),
    );
  } catch (error) {
    return Promise.reject(error);
  }
}
