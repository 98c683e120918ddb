// The grouped text report of check, verify and package; it renders a Report and decides nothing.
import { escapeTerminal, ruleById, type Finding } from '../validator/internal.js';
import type { Report } from '../pipeline/report.js';

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
  readonly listAcknowledged?: boolean;
}

/** Findings by file, then hints; input text goes through escapeTerminal (D-29) so none can fake "no problems found". */
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
      lines.push(`  ${''.padEnd(width)}  ${label}  and ${count} more ${count === 1 ? 'finding' : 'findings'} of this rule, not listed  ${style.dim(rule)}`);
    }
    lines.push('');
  }
  for (const h of report.hints ?? []) {
    const where = h.line !== undefined ? `:${h.line}:${h.column ?? 1}` : '';
    lines.push(`${style.dim('hint')}  ${escapeTerminal(h.file)}${where}  ${escapeTerminal(h.message)} ${style.dim(`(${escapeTerminal(h.pointer)})`)}`);
  }
  if ((report.hints ?? []).length > 0) lines.push('');
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
