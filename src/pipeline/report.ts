// The D-20 report as a value: the JSON every command prints with --json, and what the
// renderers (src/render/: text, SARIF, annotations) read. The decisions about a run live
// here, for every use case that returns a report: pass or fail (`ok`, with --strict), how
// many findings each rule had beyond those listed (`truncated`), and the exit status that
// follows (exitStatusOf, D-21). The findings come from the validator and the loaders, in
// their order; src/render/ formats what this decides and decides nothing itself.
import { ruleById, type Finding, type PropertyHint } from '../validator/internal.js';
import type { AcknowledgedFinding } from '../load/project-config.js';
import { CONTRACT_VERSION } from '../contract/versions.js';
import type { ReleaseDiff, ReleaseSummary } from '../pipeline/release-summary.js';
import type { CodeReview, HistoryFacts, RiskSummary, Verdict } from '../pipeline/review-verdict.js';

declare const __PLATFORM_EXT_VERSION__: string;
/** The tool's version as bundled; transpiled sources (tests of build/) have no version. */
export const TOOL_VERSION = typeof __PLATFORM_EXT_VERSION__ === 'string' ? __PLATFORM_EXT_VERSION__ : '0.0.0-dev';

/** D-20a: who wrote a report, and against which contract. */
export interface ReportTool {
  readonly name: 'platform-ext';
  readonly version: string;
}

/** D-20a: a finding as reports print it, with the fix text of its rule (or the text its command gives it); every finding of a Report is one. */
export interface ReportFinding extends Finding {
  readonly hint?: string;
}

export type ReportCommand = 'check' | 'verify' | 'review';

export interface Report {
  readonly format: 'platform-extension-report-v1';
  /** D-20a, after the D-20 fields in the JSON (additive: consumers ignore fields they do not know). */
  readonly tool: ReportTool;
  readonly contract_version: typeof CONTRACT_VERSION;
  readonly command: ReportCommand;
  readonly target: string;
  readonly ok: boolean;
  /** Present (true) only under `check --strict`: warnings fail too, so `ok` is false when there are any. */
  readonly strict?: true;
  readonly errors: number;
  readonly warnings: number;
  readonly findings: readonly Finding[];
  /**
   * Per rule, how many findings were found beyond those listed (reports list at most
   * MAX_FINDINGS_PER_RULE_AND_FILE per rule and file, for at most MAX_FILES_PER_RULE files
   * per rule). Present only when some were left out;
   * `errors` and `warnings` count the listed findings.
   */
  readonly truncated?: Readonly<Record<string, number>>;
  /**
   * Present only when the project has platform-ext.config.json (D-33): the warnings it
   * acknowledges, each with its reason. They are not in `findings` nor counted in
   * `warnings`, so they never fail --strict.
   */
  readonly acknowledged?: readonly AcknowledgedFinding[];
  /** `check` only, when there are some (D-20a): notes that are no findings (a property no module reads); never counted. */
  readonly hints?: readonly ReportHint[];
}

/** A hint as reports print it: where (file, pointer, line, column) and what. */
export type ReportHint = PropertyHint;

export interface ReportOptions {
  /** `check --strict`: warnings fail the run as errors do (exit status 1). */
  readonly strict?: boolean;
  /** The acknowledged warnings (D-33); given only when the project has a config file. */
  readonly acknowledged?: readonly AcknowledgedFinding[];
  /** The hints of the run; nothing else in the report depends on them. */
  readonly hints?: readonly PropertyHint[];
}

/** A hint in a fixed key order: file, pointer, line, column, message. */
function orderedHint(h: PropertyHint): ReportHint {
  return {
    file: h.file,
    pointer: h.pointer,
    ...(h.line !== undefined && { line: h.line }),
    ...(h.column !== undefined && { column: h.column }),
    message: h.message,
  };
}

/**
 * A finding in the D-20 key order (rule, severity, message, file, pointer, line, column), then
 * its hint (D-20a): the finding's own when its command gave one, else its rule's; then, on
 * the last listed finding of a rule in a file, how many more were left out (additive).
 */
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
  // `strict` sits next to `ok` because it changes what `ok` means; without --strict the
  // report is exactly the D-20 shape (verify and review never pass it).
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

/**
 * D-21: the exit status of a command whose run ended in `report`: 0 when it passes, 1 when
 * it fails. (Status 2, a usage error or an unreadable target, comes with no report.)
 */
export function exitStatusOf(report: Pick<Report, 'ok'>): 0 | 1 {
  return report.ok ? 0 : 1;
}

/** The D-20 report of a review, with the release summary and, against a baseline, the diff (additive fields, D-20a). */
export interface ReviewReport extends Report {
  readonly command: 'review';
  readonly findings: readonly ReportFinding[];
  /** The proposed decision, first in the text output. */
  readonly verdict: Verdict;
  /** The few facts the decision rests on. */
  readonly risk: RiskSummary;
  /** With --history: what the publisher's record says. */
  readonly history?: HistoryFacts;
  /** The call sites of each declared capability and each risky API. */
  readonly code: CodeReview;
  readonly summary: ReleaseSummary;
  readonly diff?: ReleaseDiff;
}
