// The programmatic API (`import { checkProject } from 'platform-ext'`, bundled as
// dist/api.mjs with dist/api.d.ts). Each function runs the same use case (src/ops/) as its
// command and
// returns what the command's `--json` prints: a D-20 report (format
// platform-extension-report-v1). It never prints and never sets the exit status; a
// problem the CLI would answer with exit status 2 (D-21: bad arguments, an unreadable
// folder, a key inside the project, an out folder that holds other files...) rejects with
// a PlatformExtError whose `code` says which kind it is. Findings are never thrown: a
// project with errors resolves with `ok: false`.
//
// The functions return promises although most of the work is synchronous, so that moving
// a step off the main thread (compression already runs on a worker) changes nothing for
// callers.
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

/**
 * - `ERR_INVALID_ARGUMENT`: the function was called wrongly (a folder that is not a
 *   string, an unknown option, an option of the wrong type).
 * - `ERR_USAGE`: what the CLI reports with exit status 2: the folder is missing or
 *   unreadable, the baseline is not a submission set, the private key is inside the
 *   project or unreadable, the out folder holds other files. The message is the CLI's.
 */
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

export interface CheckProjectOptions {
  /** As `check --strict`: warnings fail too (`ok` is false when there is any finding). */
  readonly strict?: boolean;
  /** As `check --baseline <dir>`: an earlier submission set to diff the manifest against. */
  readonly baseline?: string;
}

export interface ReviewReleaseOptions {
  /** As `platform-review --known-keys <file>`: the publisher's active public keys or fingerprints, one a line. */
  readonly knownKeys?: string;
  /** As `platform-review --baseline <dir>`: the approved release this one updates (adds `diff`). */
  readonly baseline?: string;
  /** As `platform-review --history <file>`: the publisher's record exported by the service. */
  readonly history?: string;
  /** As `platform-review --first-release`: the publisher's first submission. */
  readonly firstRelease?: boolean;
}

export interface PackageProjectOptions {
  /** Folder for the five submission files: absent, empty, or a set package wrote there and nobody changed since (replaced whole). */
  readonly out?: string;
  /** Path of the Ed25519 private key file (PKCS#8 PEM from `platform-ext keygen`), outside the project. */
  readonly privateKey?: string;
  /** As `package --dry-run`: build and measure, write nothing, need no key. */
  readonly dryRun?: boolean;
}

export interface PackagedFile {
  /** Path inside the bundle (relative to runtime/). */
  readonly path: string;
  readonly size: number;
}

export interface PackageResult {
  /** True when there was no error: the set was written (or, in a dry run, could be). */
  readonly ok: boolean;
  /** True when the five files were written to `out`. */
  readonly written: boolean;
  /** The check of the project and the read-back of the archive, as `check --json` reports them. */
  readonly report: Report;
  readonly namespace?: string;
  readonly version?: string;
  readonly out?: string;
  readonly files: readonly PackagedFile[];
  /** Size of bundle.zip in bytes, when it was built. */
  readonly compressedBytes?: number;
  readonly manifestSha256?: string;
  readonly artifactSha256?: string;
  /** SHA-256 fingerprint of the public key (D-12). */
  readonly publicKeyId?: string;
  /** `extensions/<namespace>/<version>/bundle.zip`. */
  readonly artifactPath?: string;
}

function invalid(message: string): PlatformExtError {
  return new PlatformExtError('ERR_INVALID_ARGUMENT', message);
}

function requireFolder(name: string, dir: unknown): string {
  if (typeof dir !== 'string' || dir === '') throw invalid(`${name}: the folder must be a non-empty string, not ${dir === '' ? 'an empty string' : typeof dir}`);
  return dir;
}

/** Options must be a plain object with only known keys of the right types. */
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

/** Runs `work`, turning the CLI's usage errors into PlatformExtError. */
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

/**
 * `platform-ext package <dir> --out <out> --private-key <key>` (or `--dry-run`): check,
 * build the deterministic bundle.zip, read it back, sign and write the five files. With
 * any error finding nothing is written and `ok` is false.
 */
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

/**
 * `platform-review <dir> --json`: the operator's review of a release folder (`"command":
 * "review"`), with the release summary and, against a baseline, the diff as data. Reads
 * the folders; writes nothing.
 */
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
