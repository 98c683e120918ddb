// Renders the operator's review (src/ops/review-release.ts) for a terminal and for a
// ticket. Text: the release summary first, then the diff against the baseline, then the
// findings with what the operator should do about each, and a one-line verdict last, in
// lines of at most 100 columns where the values allow it. Markdown: the same review as
// tables, for pasting into a ticket. Every value that comes from the release (names, paths, labels, defaults,
// messages) is printed with control, bidirectional and invisible format characters as
// `\u{…}` escapes (D-29): the input never controls the terminal or the ticket's layout.
import { BUNDLE_MAX_FILES, DESCRIPTION_MAX_BYTES, MAX_PROPERTIES, escapeTerminal, formatSize } from '../validator/internal.js';
import { PLAIN as PLAIN_STYLE, type Style } from './report-text.js';
import type { ReportFinding, ReviewReport } from '../pipeline/report.js';
import type { ReleaseDiff, ReleaseSummary, SignerPinning, SummaryTotal } from '../pipeline/release-summary.js';

/**
 * A value from the release cut after as many characters as a valid description holds: an
 * invalid manifest or archive can put 64 KiB into one name (the JSON report keeps it whole).
 */
function clip(text: string): string {
  const chars = [...text];
  return chars.length <= DESCRIPTION_MAX_BYTES ? text : `${chars.slice(0, DESCRIPTION_MAX_BYTES).join('')}... (${chars.length} characters in all)`;
}

/** A value from the release as the text output prints it: cut (clip), then escaped. */
function safe(text: string): string {
  return escapeTerminal(clip(text));
}

function shown(value: string | null): string {
  return value === null ? '(unknown)' : safe(value);
}

function defaultText(value: boolean | number | string | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? safe(JSON.stringify(value)) : String(value);
}

const PINNING_TEXT: Readonly<Record<SignerPinning, string>> = {
  pinned: 'among the publisher\'s known keys',
  unknown: 'NOT among the publisher\'s known keys',
  'not-pinned': 'signer not pinned (no --known-keys)',
  new: 'a new signer: the publisher\'s first release (--first-release)',
};

const TOTAL_NAMES: Readonly<Record<SummaryTotal['limit'], string>> = {
  'bundle.compressedBytes': 'archive size',
  'bundle.expandedBytes': 'expanded size',
  'bundle.files': 'files',
  'bundle.largestFileBytes': 'largest file',
  'bundle.highestFileRatio': 'highest file ratio',
  'bundle.archiveRatio': 'archive ratio',
  'manifest.bytes': 'manifest size',
  'manifest.capabilities': 'capabilities',
  'manifest.properties': 'properties',
};

function amount(value: number, unit: SummaryTotal['unit']): string {
  return unit === 'bytes' ? formatSize(value) : String(value);
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

function ratioText(ratio: number | null): string {
  return ratio === null ? '-' : ratio.toFixed(1);
}

/**
 * A hostile archive can list tens of thousands of entries and a manifest thousands of
 * properties: the text and Markdown show as many as a valid release can have (the JSON
 * report keeps them all), then say how many more there are.
 */
function capped<T>(items: readonly T[], max: number): { readonly shown: readonly T[]; readonly more: string | null } {
  return items.length <= max ? { shown: items, more: null } : { shown: items.slice(0, max), more: `... and ${items.length - max} more (a valid release has at most ${max})` };
}

/** Characters of a summary value per line: with its label, a line fits 100 columns. */
const VALUE_WIDTH = 84;
/** Characters of a finding's message or hint per line, after its indent. */
const FINDING_WIDTH = 92;

/** A long text in lines of at most `width` characters, broken at spaces where there are any. */
function wrap(text: string | null, width = VALUE_WIDTH): string[] {
  if (text === null) return [];
  const lines: string[] = [];
  let rest = text;
  while ([...rest].length > width) {
    const head = [...rest].slice(0, width + 1).join('');
    const space = head.lastIndexOf(' ');
    const cut = space > 0 ? space : [...rest].slice(0, width).join('').length;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(space > 0 ? cut + 1 : cut);
  }
  lines.push(rest);
  return lines;
}

/** Rows padded to their columns' widths (the last column is never padded). */
function table(rows: readonly (readonly string[])[], indent = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length))).join('  ').trimEnd());
}

/** The release summary as text lines. */
export function summaryLines(summary: ReleaseSummary, style: Style, verbose = true): string[] {
  const lines: string[] = [];
  const signer = summary.signer;
  const pin = signer.pinning === 'pinned' ? style.green(PINNING_TEXT.pinned) : signer.pinning === 'unknown' ? style.red(PINNING_TEXT.unknown) : style.yellow(PINNING_TEXT[signer.pinning]);
  lines.push(
    ...table([
      ['release', `${shown(summary.namespace)} ${shown(summary.version)}`],
      ['name', shown(summary.name)],
      ...wrap(summary.description === null ? null : safe(summary.description)).map((line, i) => [i === 0 ? 'description' : '', line]),
      ['entrypoint', shown(summary.entrypoint)],
      ['manifest', `sha256 ${shown(summary.manifest_sha256)}`],
      ['artifact', `sha256 ${shown(summary.artifact_sha256)}`],
      ['signer', shown(signer.fingerprint)],
      ['', `signature ${signer.signature_valid ? 'valid' : style.red('NOT valid')}; ${pin}`],
    ]),
  );
  lines.push('', style.bold(`Capabilities (${summary.capabilities.length})`));
  if (summary.capabilities.length === 0) lines.push('  none');
  else lines.push(...table(summary.capabilities.map((c) => [c.key, c.risk, c.method, c.actions.join(', ')])));
  lines.push('', style.bold(`Properties (${summary.properties.length})`));
  if (summary.properties.length === 0) lines.push('  none');
  else {
    const props = capped(summary.properties, MAX_PROPERTIES);
    lines.push(
      ...table([
        ['name', 'type', 'required', 'label', 'default'].map(style.dim),
        ...props.shown.map((p) => [safe(p.name), p.type, p.required ? 'yes' : 'no', p.label === null ? '' : safe(p.label), defaultText(p.default)]),
      ]),
    );
    if (props.more !== null) lines.push(`  ${props.more}`);
    // What store users read beside each field: help texts and option labels, escaped.
    for (const p of props.shown) {
      if (p.help !== undefined && p.help !== null) wrap(`${safe(p.name)} help: ${safe(p.help)}`, FINDING_WIDTH).forEach((l) => lines.push(`  ${l}`));
      if (p.option_labels !== undefined && p.option_labels.length > 0) wrap(`${safe(p.name)} options: ${p.option_labels.map(safe).join(', ')}`, FINDING_WIDTH).forEach((l) => lines.push(`  ${l}`));
    }
  }
  if (summary.files === null) lines.push('', style.bold('Files'), '  not listed: the archive is missing or was refused');
  else if (!verbose) lines.push('', style.bold(`Files (${summary.files.length})`), '  listed with --verbose');
  else {
    lines.push('', style.bold(`Files (${summary.files.length})`));
    const files = capped(summary.files, BUNDLE_MAX_FILES);
    lines.push(
      ...table([
        ['size', 'compressed', 'method', 'ratio', 'path'].map(style.dim),
        ...files.shown.map((f) => [formatSize(f.size), formatSize(f.compressed_size), f.method, ratioText(f.ratio), safe(f.path)]),
      ]),
    );
    if (files.more !== null) lines.push(`  ${files.more}`);
  }
  if (!verbose) return lines;
  lines.push('', style.bold('Limits'));
  lines.push(...table(summary.totals.map((t) => [TOTAL_NAMES[t.limit], `${amount(t.used, t.unit)} of ${amount(t.max, t.unit)}`, t.share > 1 ? style.red(percent(t.share)) : percent(t.share)])));
  return lines;
}

/** The diff against the baseline as text lines. */
export function diffLines(diff: ReleaseDiff, style: Style, hunks = false): string[] {
  const lines: string[] = ['', style.bold(`Changes since the baseline ${safe(diff.baseline)}`)];
  const rows: string[][] = [];
  const higher = diff.version.higher === null ? '' : diff.version.higher ? ' (higher)' : ` ${style.red('(NOT higher)')}`;
  rows.push(['version', `${shown(diff.version.from)} -> ${shown(diff.version.to)}${higher}`]);
  if (diff.signer.changed) rows.push(['signer', `${style.red('changed')} from ${shown(diff.signer.from)}`], ['', `          to ${shown(diff.signer.to)}`]);
  else rows.push(['signer', 'unchanged']);
  for (const c of diff.capabilities.added) rows.push(['+ capability', `${safe(c.key)} (${c.risk ?? 'unknown'}): ${c.note}`]);
  for (const c of diff.capabilities.removed) rows.push(['- capability', `${safe(c.key)} (${c.risk ?? 'unknown'}): ${c.note}`]);
  const more: string[] = [];
  const list = <T>(items: readonly T[], max: number, what: string): readonly T[] => {
    const c = capped(items, max);
    if (c.more !== null) more.push(`${what} ${c.more}`);
    return c.shown;
  };
  for (const p of list(diff.properties.added, MAX_PROPERTIES, 'properties added:')) rows.push(['+ property', `${safe(p.name)} (${p.type ?? 'no valid type'})`]);
  for (const p of list(diff.properties.removed, MAX_PROPERTIES, 'properties removed:')) {
    rows.push(['- property', `${safe(p.name)} (${p.type ?? 'no valid type'}): saved settings become unknown settings`]);
  }
  for (const p of list(diff.properties.retyped, MAX_PROPERTIES, 'properties retyped:')) {
    rows.push(['~ property', `${safe(p.name)}: ${p.from} -> ${p.to}${p.saved_values_carry_over ? ' (saved values still fit)' : ': saved values no longer fit'}`]);
  }
  if (diff.files === null) rows.push(['files', 'not compared: an archive is missing or was refused']);
  else {
    for (const f of list(diff.files.added, BUNDLE_MAX_FILES, 'files added:')) rows.push(['+ file', `${safe(f.path)} (${formatSize(f.size)})`]);
    for (const f of list(diff.files.removed, BUNDLE_MAX_FILES, 'files removed:')) rows.push(['- file', `${safe(f.path)} (${formatSize(f.size)})`]);
    for (const f of list(diff.files.changed, BUNDLE_MAX_FILES, 'files changed:')) {
      const lines = f.lines_added !== undefined ? `, +${f.lines_added} -${f.lines_removed ?? 0} lines` : '';
      rows.push(['~ file', `${safe(f.path)} (${formatSize(f.size_before)} -> ${formatSize(f.size_after)}${lines})`]);
    }
    if (diff.files.added.length + diff.files.removed.length + diff.files.changed.length === 0) rows.push(['files', 'unchanged']);
  }
  lines.push(...table(rows), ...more.map((m) => `  ${m}`));
  // --diff: the changed hunks of each text file, every line escaped.
  if (hunks && diff.files !== null) {
    for (const f of diff.files.changed) {
      if (f.hunks === undefined) continue;
      lines.push('', style.bold(`--- a/${safe(f.path)}`), style.bold(`+++ b/${safe(f.path)}`));
      if (f.hunks === null) lines.push('  (too far apart to align: counts only)');
      else for (const h of f.hunks) lines.push(h.startsWith('+') ? style.green(safe(h)) : h.startsWith('-') ? style.red(safe(h)) : safe(h));
    }
  }
  return lines;
}

/** How many errors and warnings, in words. */
function counts(report: ReviewReport): string {
  let notListed = 0;
  for (const rule in report.truncated ?? {}) notListed += report.truncated![rule]!;
  const more = notListed > 0 ? `, and ${notListed} more not listed` : '';
  return `${report.errors} error${report.errors === 1 ? '' : 's'}, ${report.warnings} warning${report.warnings === 1 ? '' : 's'}${more}`;
}

/** Places listed under one collapsed entry; the rest are counted. */
const MAX_PLACES = 12;

/** Where a finding is: its file, line and column, pointer (cut, not yet escaped). */
function rawPlace(f: ReportFinding): string {
  const at = f.line !== undefined ? ` ${f.line}:${f.column ?? 1}` : '';
  const pointer = f.pointer !== undefined && f.pointer !== '' ? ` ${clip(f.pointer)}` : '';
  return `${f.file === undefined ? '(the release folder)' : clip(f.file)}${at}${pointer}`;
}

const place = (f: ReportFinding): string => escapeTerminal(rawPlace(f));

/** The findings of one rule together, in the order the first of each comes. */
export function collapseFindings(findings: readonly ReportFinding[]): ReportFinding[][] {
  const groups = new Map<string, ReportFinding[]>();
  for (const f of findings) {
    let group = groups.get(f.rule);
    if (group === undefined) groups.set(f.rule, (group = []));
    group.push(f);
  }
  return [...groups.values()];
}

/**
 * The findings, one entry per rule: severity, rule id and how many; the first message; the
 * places (file, line, pointer) of all of them; then what the operator should do. Everything
 * from the release is escaped.
 */
export function findingLines(report: ReviewReport, style: Style): string[] {
  if (report.findings.length === 0) return [];
  const lines: string[] = [style.bold(`Findings (${counts(report)})`)];
  for (const group of collapseFindings(report.findings)) {
    const f = group[0]!;
    const severity = f.severity === 'error' ? style.red('error') : style.yellow('warning');
    let notListed = 0;
    for (const g of group) notListed += g.truncated ?? 0;
    const count = group.length + notListed;
    lines.push(`  ${severity} ${style.dim(f.rule)}${count > 1 ? ` (${count} findings)` : ''}  ${place(f)}`);
    for (const line of wrap(safe(f.message), FINDING_WIDTH)) lines.push(`    ${line}`);
    if (group.length > 1) {
      const places = group.slice(0, MAX_PLACES).map(place);
      if (group.length > MAX_PLACES) places.push(`and ${group.length - MAX_PLACES} more`);
      wrap(`at ${places.join('; ')}`, FINDING_WIDTH).forEach((line) => lines.push(`    ${line}`));
    }
    if (notListed > 0) lines.push(`    ${style.dim(`and ${notListed} more findings of ${f.rule}, not listed`)}`);
    if (f.hint !== undefined) wrap(`What to do: ${f.hint}`, FINDING_WIDTH).forEach((line) => lines.push(`    ${style.dim(line)}`));
  }
  return lines;
}

const SIGNER_WORDS: Readonly<Record<ReviewReport['risk']['signer'], string>> = {
  pinned: 'pinned',
  new: 'new (first release: nothing to compare with)',
  unknown: 'UNKNOWN (not the publisher\'s key)',
  revoked: 'REVOKED',
  'not-pinned': 'not pinned',
};

function names(keys: readonly string[]): string {
  return keys.length === 0 ? 'none' : keys.map(safe).join(', ');
}

/** The verdict line and four lines of risk: the first five lines of the text output. */
export function headLines(report: ReviewReport, style: Style): string[] {
  const r = report.risk;
  const v = report.verdict;
  const mark = v.decision === 'reject' || v.decision === 'cannot-decide' ? style.red('✖') : v.decision === 'approve-after-reading' ? style.yellow('!') : style.green('✓');
  const what = `${shown(report.summary.namespace)} ${shown(report.summary.version)}`;
  const signer = r.signer === 'pinned' ? style.green(SIGNER_WORDS.pinned) : r.signer === 'new' ? style.yellow(SIGNER_WORDS.new) : style.red(SIGNER_WORDS[r.signer]);
  const files = r.files === null ? 'no baseline given: nothing compared' : `${r.files.added} added, ${r.files.changed} changed, ${r.files.removed} removed since the baseline`;
  return [
    `${mark} ${v.text}  (${what}, ${safe(report.target)})`,
    `  signer ${signer}; signature ${r.signature === 'valid' ? 'valid' : style.red('NOT valid')}; hashes ${r.hashes === 'mismatch' ? style.red('DO NOT match') : r.hashes === 'match' ? 'match' : 'unknown'}`,
    `  capabilities ${r.capabilities.declared.length}; new: ${names(r.capabilities.new)}; unused: ${names(r.capabilities.unused)}; medium risk: ${names(r.capabilities.high_risk)}`,
    `  files ${report.summary.files?.length ?? 'not listed'}; ${files}`,
    `  suspicious code: ${r.suspicious_code === 0 ? 'none' : style.red(`${r.suspicious_code} finding${r.suspicious_code === 1 ? '' : 's'}`)}; deceptive text: ${r.deceptive_text === 0 ? 'none' : style.red(`${r.deceptive_text} finding${r.deceptive_text === 1 ? '' : 's'}`)}`,
  ];
}

/** The last line repeats the verdict: a mark, the folder, and the decision in the operator's terms. */
export function verdictLine(report: ReviewReport, style: Style): string {
  const d = report.verdict.decision;
  const mark = d === 'reject' || d === 'cannot-decide' ? style.red('✖') : d === 'approve-after-reading' ? style.yellow('!') : style.green('✓');
  return `${mark} ${safe(report.target)}: ${verdict(report)}`;
}

/** Sites listed per capability or API in the text; the JSON report keeps every one. */
const MAX_SITES_SHOWN = 8;

const API_TITLES: Readonly<Record<string, string>> = {
  network: 'network',
  'code-from-string': 'code from strings',
  navigation: 'navigation',
  storage: 'storage',
};

/** The code behind each capability and each risky API: file, line and the line of code, escaped. */
export function codeLines(report: ReviewReport, style: Style): string[] {
  const lines: string[] = ['', style.bold('Code behind capabilities and risky APIs')];
  const sites = (list: readonly { file: string; line: number; excerpt: string }[]) => {
    for (const s of list.slice(0, MAX_SITES_SHOWN)) {
      const at = `      ${safe(s.file)}:${s.line}  `;
      // The excerpt is cut to the line's 100 columns (before escaping, so an escape is never cut).
      const room = Math.max(20, 100 - [...at].length);
      const chars = [...s.excerpt];
      lines.push(at + safe(chars.length <= room ? s.excerpt : `${chars.slice(0, room - 3).join('')}...`));
    }
    if (list.length > MAX_SITES_SHOWN) lines.push(`      and ${list.length - MAX_SITES_SHOWN} more (all in the JSON report)`);
  };
  for (const c of report.code.capabilities) {
    lines.push(`  ${safe(c.key)}: ${c.used ? `used at ${c.sites.length} place${c.sites.length === 1 ? '' : 's'}` : style.yellow('UNUSED')}`);
    sites(c.sites);
  }
  if (report.code.capabilities.length === 0) lines.push('  no capability declared');
  for (const a of report.code.apis) {
    if (a.sites.length === 0) continue;
    lines.push(`  ${style.red(API_TITLES[a.kind] ?? a.kind)}: ${a.sites.length} place${a.sites.length === 1 ? '' : 's'}`);
    sites(a.sites);
  }
  return lines;
}

/** Options of the text rendering. */
export interface ReviewTextOptions {
  /** Also the full file listing and the limits block. */
  readonly verbose?: boolean;
  /** With a baseline: the changed hunks of each text file. */
  readonly diff?: boolean;
}

/** The whole review for a terminal: verdict and risk first, then the findings, the summary, the diff. */
export function renderReviewText(report: ReviewReport, style: Style, options: ReviewTextOptions = {}): string {
  const lines = headLines(report, style);
  const findings = findingLines(report, style);
  // A loop, not a spread into push: the list is as long as the findings allow.
  if (findings.length > 0) lines.push('');
  for (const line of findings) lines.push(line);
  lines.push(...codeLines(report, style));
  lines.push('', style.bold('The release'));
  lines.push(...summaryLines(report.summary, style, options.verbose === true));
  if (report.diff !== undefined) lines.push(...diffLines(report.diff, style, options.diff === true));
  lines.push('', verdictLine(report, style));
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------
// Markdown (GitHub-flavoured tables)
// ---------------------------------------------------------------------------------

/**
 * A table cell: Markdown's specials backslash-escaped and `&` `<` `>` as entities, then the
 * D-29 escapes (whose backslash Markdown shows as it is: `u` is not an escapable character).
 */
export function markdownCell(text: string): string {
  return escapeTerminal(
    text
      .replace(/[\\`*_[\]#|~!]/g, (c) => `\\${c}`)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;'),
  );
}

function markdownTable(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

/** A value from the release in a cell: cut as in the text (clip), then escaped for Markdown. */
function cell(text: string): string {
  return markdownCell(clip(text));
}

const code = (text: string | null) => (text === null ? '(unknown)' : cell(text));

/** The review as Markdown for a ticket: the same values as the text and JSON renderings. */
export function renderReviewMarkdown(report: ReviewReport): string {
  const s = report.summary;
  const out: string[] = [];
  out.push(`## Release review: ${code(s.namespace)} ${code(s.version)}`, '');
  // Verdict and risk first, as in the text output (markdownCell escapes what the release wrote).
  out.push(`**Verdict:** ${markdownCell(verdict(report))}`, '');
  for (const line of headLines(report, PLAIN_STYLE).slice(1)) out.push(`- ${markdownCell(line.trim())}`);
  out.push('');
  out.push(
    ...markdownTable(
      ['Field', 'Value'],
      [
        ['Namespace', code(s.namespace)],
        ['Version', code(s.version)],
        ['Name', code(s.name)],
        ['Description', code(s.description)],
        ['Entrypoint', code(s.entrypoint)],
        ['Manifest SHA-256', code(s.manifest_sha256)],
        ['Artifact SHA-256', code(s.artifact_sha256)],
        ['Signer fingerprint', code(s.signer.fingerprint)],
        ['Signature', s.signer.signature_valid ? 'valid' : '**NOT valid**'],
        ['Signer pinning', PINNING_TEXT[s.signer.pinning]],
        ['Tool', `${cell(report.tool.name)} ${cell(report.tool.version)}, contract version ${report.contract_version}`],
      ],
    ),
  );
  out.push('', `### Capabilities (${s.capabilities.length})`, '');
  out.push(...markdownTable(['Capability', 'Risk', 'Method', 'Actions'], s.capabilities.map((c) => [cell(c.key), c.risk, cell(c.method), cell(c.actions.join(', '))])));
  out.push('', `### Properties (${s.properties.length})`, '');
  const props = capped(s.properties, MAX_PROPERTIES);
  out.push(
    ...markdownTable(
      ['Name', 'Type', 'Required', 'Label', 'Default', 'Help', 'Options'],
      props.shown.map((p) => [
        cell(p.name),
        p.type,
        p.required ? 'yes' : 'no',
        p.label === null ? '' : cell(p.label),
        p.default === undefined ? '' : cell(JSON.stringify(p.default)),
        p.help === undefined || p.help === null ? '' : cell(p.help),
        cell((p.option_labels ?? []).join(', ')),
      ]),
    ),
  );
  if (props.more !== null) out.push('', props.more);
  out.push('', `### Files (${s.files === null ? 'not listed' : s.files.length})`, '');
  const files = capped(s.files ?? [], BUNDLE_MAX_FILES);
  out.push(
    ...markdownTable(
      ['Path', 'Size', 'Compressed', 'Method', 'Ratio', 'SHA-256'],
      files.shown.map((f) => [cell(f.path), String(f.size), String(f.compressed_size), f.method, ratioText(f.ratio), f.sha256 ?? '']),
    ),
  );
  if (files.more !== null) out.push('', files.more);
  out.push('', '### Limits', '');
  out.push(...markdownTable(['Limit', 'Used', 'Maximum', 'Share'], s.totals.map((t) => [TOTAL_NAMES[t.limit], amount(t.used, t.unit), amount(t.max, t.unit), percent(t.share)])));
  const d = report.diff;
  if (d !== undefined) {
    out.push('', `### Changes since the baseline ${cell(d.baseline)}`, '');
    const rows: string[][] = [];
    rows.push(['version', '', code(d.version.from), code(d.version.to), d.version.higher === null ? '' : d.version.higher ? 'higher' : '**not higher**']);
    rows.push(['signer', d.signer.changed ? 'changed' : 'unchanged', code(d.signer.from), code(d.signer.to), '']);
    for (const c of d.capabilities.added) rows.push(['capability', 'added', '', `${cell(c.key)} (${c.risk ?? 'unknown'})`, c.note]);
    for (const c of d.capabilities.removed) rows.push(['capability', 'removed', `${cell(c.key)} (${c.risk ?? 'unknown'})`, '', c.note]);
    const more: string[] = [];
    const list = <T>(items: readonly T[], max: number, what: string): readonly T[] => {
      const c = capped(items, max);
      if (c.more !== null) more.push(`${what} ${c.more}`);
      return c.shown;
    };
    for (const p of list(d.properties.added, MAX_PROPERTIES, 'properties added:')) rows.push(['property', 'added', '', `${cell(p.name)} (${p.type ?? '?'})`, '']);
    for (const p of list(d.properties.removed, MAX_PROPERTIES, 'properties removed:')) rows.push(['property', 'removed', `${cell(p.name)} (${p.type ?? '?'})`, '', 'saved settings become unknown settings']);
    for (const p of list(d.properties.retyped, MAX_PROPERTIES, 'properties retyped:')) rows.push(['property', 'retyped', `${cell(p.name)} (${p.from})`, `${cell(p.name)} (${p.to})`, p.saved_values_carry_over ? 'saved values still fit' : 'saved values no longer fit']);
    for (const f of list(d.files?.added ?? [], BUNDLE_MAX_FILES, 'files added:')) rows.push(['file', 'added', '', `${cell(f.path)} (${f.size} B)`, '']);
    for (const f of list(d.files?.removed ?? [], BUNDLE_MAX_FILES, 'files removed:')) rows.push(['file', 'removed', `${cell(f.path)} (${f.size} B)`, '', '']);
    for (const f of list(d.files?.changed ?? [], BUNDLE_MAX_FILES, 'files changed:')) rows.push(['file', 'changed', `${cell(f.path)} (${f.size_before} B)`, `${cell(f.path)} (${f.size_after} B)`, '']);
    out.push(...markdownTable(['What', 'Change', 'Before', 'After', 'Note'], rows));
    for (const m of more) out.push('', m);
  }
  out.push('', `### Findings (${counts(report)})`, '');
  out.push(
    ...markdownTable(
      ['Severity', 'Rule', 'Count', 'Where', 'Message', 'What to do'],
      collapseFindings(report.findings).map((group) => {
        const f = group[0]!;
        const places = group.slice(0, MAX_PLACES).map(rawPlace);
        if (group.length > MAX_PLACES) places.push(`and ${group.length - MAX_PLACES} more`);
        const count = group.reduce((n, g) => n + 1 + (g.truncated ?? 0), 0);
        return [f.severity, markdownCell(f.rule), String(count), markdownCell(places.join('; ')), markdownCell(f.message), markdownCell(f.hint ?? '')];
      }),
    ),
  );
  out.push('', `**Verdict:** ${verdict(report)}`);
  return out.join('\n') + '\n';
}

/** One line: what the review found, in the operator's terms. */
export function verdict(report: ReviewReport): string {
  return report.findings.length === 0 ? report.verdict.text : `${report.verdict.text} (${counts(report)})`;
}
