// The D-20 report as a value, and the decisions about a run (`ok`, `truncated`, exit status D-21);
// src/render/ formats what this decides and decides nothing itself.
import { ruleById, type Finding, type PropertyHint } from '../validator/internal.js';
import type { AcknowledgedFinding } from '../load/project-config.js';
import { CONTRACT_VERSION } from '../contract/versions.js';
import type { ReleaseDiff, ReleaseSummary } from '../pipeline/release-summary.js';
import type { CodeReview, HistoryFacts, RiskSummary, Verdict } from '../pipeline/review-verdict.js';

declare const __PLATFORM_EXT_VERSION__: string;
// Transpiled sources (tests of build/) have no version.
export const TOOL_VERSION = typeof __PLATFORM_EXT_VERSION__ === 'string' ? __PLATFORM_EXT_VERSION__ : '0.0.0-dev';

/** D-20a. */
export interface ReportTool {
  readonly name: 'platform-ext';
  readonly version: string;
}

/** D-20a: a finding with the fix text of its rule, or the text its command gives it. */
export interface ReportFinding extends Finding {
  readonly hint?: string;
}

export type ReportCommand = 'check' | 'verify' | 'review';

export interface Report {
  readonly format: 'platform-extension-report-v1';
  readonly tool: ReportTool;
  readonly contract_version: typeof CONTRACT_VERSION;
  readonly command: ReportCommand;
  readonly target: string;
  readonly ok: boolean;
  readonly strict?: true;
  readonly errors: number;
  readonly warnings: number;
  readonly findings: readonly Finding[];
  /** Per rule, findings beyond those listed; `errors` and `warnings` count the listed ones. */
  readonly truncated?: Readonly<Record<string, number>>;
  /** D-33: not in `findings` nor counted in `warnings`, so they never fail --strict. */
  readonly acknowledged?: readonly AcknowledgedFinding[];
  /** D-20a: notes that are no findings; never counted. */
  readonly hints?: readonly ReportHint[];
}

export type ReportHint = PropertyHint;

export interface ReportOptions {
  readonly strict?: boolean;
  readonly acknowledged?: readonly AcknowledgedFinding[];
  readonly hints?: readonly PropertyHint[];
}

function orderedHint(h: PropertyHint): ReportHint {
  return {
    file: h.file,
    pointer: h.pointer,
    ...(h.line !== undefined && { line: h.line }),
    ...(h.column !== undefined && { column: h.column }),
    message: h.message,
  };
}

/** D-20 key order, then the hint (D-20a) and the count left out (additive). */
function ordered(f: Finding): Record<string, unknown> {
  const o: Record<string, unknown> = { rule: f.rule, severity: f.severity, message: f.message };
  if (f.file !== undefined) o['file'] = f.file;
  if (f.pointer !== undefined) o['pointer'] = f.pointer;
  if (f.line !== undefined) o['line'] = f.line;
  if (f.column !== undefined) o['column'] = f.column;
  const hint = (f as ReportFinding).hint ?? ruleById(f.rule)?.hint;
  if (hint !== undefined) o['hint'] = hint;
  if (f.truncated !== undefined && f.truncated > 0) o['truncated'] = f.truncated;
  return o;
}

export function buildReport(command: ReportCommand, target: string, findings: readonly Finding[], options: ReportOptions = {}): Report {
  let errors = 0;
  const truncated: Record<string, number> = {};
  let anyTruncated = false;
  for (const f of findings) {
    if (f.severity === 'error') errors++;
    if (f.truncated !== undefined && f.truncated > 0) {
      truncated[f.rule] = (truncated[f.rule] ?? 0) + f.truncated;
      anyTruncated = true;
    }
  }
  const warnings = findings.length - errors;
  const strict = options.strict === true;
  const orderedFindings = findings.map((f) => ordered(f) as unknown as Finding);
  // `strict` sits next to `ok` because it changes what `ok` means.
  return {
    format: 'platform-extension-report-v1',
    command,
    target,
    ok: errors === 0 && (!strict || warnings === 0),
    ...(strict ? { strict: true as const } : {}),
    errors,
    warnings,
    findings: orderedFindings,
    ...(options.acknowledged !== undefined && {
      acknowledged: options.acknowledged.map((f) => ({ ...ordered(f), reason: f.reason }) as unknown as AcknowledgedFinding),
    }),
    tool: { name: 'platform-ext', version: TOOL_VERSION },
    contract_version: CONTRACT_VERSION,
    ...(anyTruncated ? { truncated } : {}),
    ...(options.hints !== undefined && options.hints.length > 0 && { hints: options.hints.map(orderedHint) }),
  };
}

/** D-21; status 2 (a usage error) comes with no report. */
export function exitStatusOf(report: Pick<Report, 'ok'>): 0 | 1 {
  return report.ok ? 0 : 1;
}

/** A review's report: D-20 plus additive fields (D-20a). */
export interface ReviewReport extends Report {
  readonly command: 'review';
  readonly findings: readonly ReportFinding[];
  readonly verdict: Verdict;
  readonly risk: RiskSummary;
  readonly history?: HistoryFacts;
  /** The call sites of each declared capability and each risky API. */
  readonly code: CodeReview;
  readonly summary: ReleaseSummary;
  readonly diff?: ReleaseDiff;
}
