// Renders findings: the D-20 JSON report and the grouped text report. Both render the
// same findings; neither decides anything.
import { escapeTerminal, ruleById, type Finding } from '../validator/index.js';
import type { AcknowledgedFinding } from '../load/project-config.js';
import { CONTRACT_VERSION } from '../contract/versions.js';

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
   * MAX_FINDINGS_PER_RULE_AND_FILE per rule and file). Present only when some were left out;
   * `errors` and `warnings` count the listed findings.
   */
  readonly truncated?: Readonly<Record<string, number>>;
  /**
   * Present only when the project has platform-ext.config.json (D-33): the warnings it
   * acknowledges, each with its reason. They are not in `findings` nor counted in
   * `warnings`, so they never fail --strict.
   */
  readonly acknowledged?: readonly AcknowledgedFinding[];
}

export interface ReportOptions {
  /** `check --strict`: warnings fail the run as errors do (exit status 1). */
  readonly strict?: boolean;
  /** The acknowledged warnings (D-33); given only when the project has a config file. */
  readonly acknowledged?: readonly AcknowledgedFinding[];
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
  };
}

export interface Style {
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly bold: (s: string) => string;
  readonly green: (s: string) => string;
}

export const PLAIN: Style = { red: (s) => s, yellow: (s) => s, dim: (s) => s, bold: (s) => s, green: (s) => s };

export function ansiStyle(): Style {
  const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
  return { red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22), green: wrap(32, 39) };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export interface TextOptions {
  /** `check --list-acknowledged`: list the acknowledged warnings with their reasons after the findings. */
  readonly listAcknowledged?: boolean;
}

/**
 * Text report: findings grouped by file, each with line:column, severity, message, rule id
 * and a hint; after a file's findings, how many more of a rule were left out. Every text
 * that came from the input (file names, pointers, messages quoting values, the target) is
 * printed through escapeTerminal (D-29), so no input can move the cursor, recolour the
 * screen or reorder a line into "no problems found".
 */
export function renderText(report: Report, style: Style, options: TextOptions = {}): string {
  const lines: string[] = [];
  const groups = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const key = f.file ?? '';
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = []));
    group.push(f);
  }
  const target = escapeTerminal(report.target);
  for (const [file, group] of groups) {
    lines.push(style.bold(file === '' ? target : escapeTerminal(file)));
    const whereOf = (f: Finding) => (f.line !== undefined ? `${f.line}:${f.column ?? 1}` : escapeTerminal(f.pointer ?? ''));
    // A loop, not a spread: a group may hold any number of findings.
    let widest = 5;
    for (const f of group) widest = Math.max(widest, whereOf(f).length);
    const width = Math.min(24, widest);
    const more = new Map<string, { count: number; severity: Finding['severity'] }>();
    for (const f of group) {
      const severity = f.severity === 'error' ? style.red('error  ') : style.yellow('warning');
      // The root pointer "" (a finding about the whole document, such as invalid JSON) adds nothing to the line.
      const pointer = f.line !== undefined && f.pointer !== undefined && f.pointer !== '' ? ` ${style.dim(`(${escapeTerminal(f.pointer)})`)}` : '';
      lines.push(`  ${whereOf(f).padEnd(width)}  ${severity}  ${escapeTerminal(f.message)}${pointer}  ${style.dim(f.rule)}`);
      const hint = ruleById(f.rule)?.hint;
      if (hint !== undefined) lines.push(`  ${''.padEnd(width)}  ${''.padEnd(7)}  ${style.dim(`hint: ${hint}`)}`);
      if (f.truncated !== undefined && f.truncated > 0) {
        const seen = more.get(f.rule);
        more.set(f.rule, { count: (seen?.count ?? 0) + f.truncated, severity: f.severity });
      }
    }
    for (const [rule, { count, severity }] of more) {
      const label = severity === 'error' ? style.red('error  ') : style.yellow('warning');
      lines.push(`  ${''.padEnd(width)}  ${label}  and ${count} more ${count === 1 ? 'finding' : 'findings'} of this rule in this file, not listed  ${style.dim(rule)}`);
    }
    lines.push('');
  }
  const acknowledged = report.acknowledged ?? [];
  if (options.listAcknowledged === true) {
    lines.push(style.bold(`Acknowledged warnings (platform-ext.config.json): ${acknowledged.length}`));
    for (const f of acknowledged) {
      const where = f.line !== undefined ? `:${f.line}:${f.column ?? 1}` : f.pointer !== undefined ? ` ${escapeTerminal(f.pointer)}` : '';
      lines.push(`  ${escapeTerminal(f.file ?? report.target)}${where}  ${style.dim(f.rule)}  ${escapeTerminal(f.message)}`);
      lines.push(`    ${style.dim(`reason: ${escapeTerminal(f.reason)}`)}`);
    }
    lines.push('');
  }
  const failed = !report.ok;
  const acknowledgedNote = acknowledged.length > 0 ? ` (${acknowledged.length} acknowledged)` : '';
  let summary =
    report.errors === 0 && report.warnings === 0
      ? style.green(`✓ ${target}: no problems found${acknowledgedNote}`)
      : `${failed ? style.red('✖') : style.yellow('!')} ${target}: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}${acknowledgedNote}`;
  let notListed = 0;
  for (const rule in report.truncated ?? {}) notListed += report.truncated![rule]!;
  if (notListed > 0) summary += ` (and ${notListed} more not listed)`;
  // Under --strict a run with warnings fails; say so, or the exit status looks unexplained.
  lines.push(report.strict === true && report.warnings > 0 ? `${summary} ${style.red('(--strict: warnings fail)')}` : summary);
  return lines.join('\n') + '\n';
}
