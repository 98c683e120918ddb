// GitHub Actions workflow commands for a report: `::error file=…,line=…,col=…,title=…::message`.
// The runner turns each line of stdout that starts with `::` into an annotation on the
// file and line. Values are escaped as the runner unescapes them: a message that holds
// a line break could otherwise end the command early and start another one (for example
// `::stop-commands::` or `::add-mask::`) from text that came out of a checked file.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { escapeTerminal, ruleById, type Finding } from '../validator/internal.js';
import type { Report } from '../pipeline/report.js';
import type { AcknowledgedFinding } from '../load/project-config.js';

/**
 * Escapes a command's message (the text after `::`): `%`, CR and LF, as the runner
 * unescapes them. Text from the input goes through escapeTerminal first (D-29): the log
 * viewer renders terminal escapes, so a control character in a file name would otherwise
 * recolour or hide lines of the log.
 */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value (`file=`, `title=`): as data, plus `:` and `,`, which end a value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** True when the environment says this process runs as a GitHub Actions step. */
export function inGitHubActions(env: NodeJS.ProcessEnv): boolean {
  return env['GITHUB_ACTIONS'] === 'true';
}

/**
 * The path GitHub shows the annotation on: relative to the workspace (the repository
 * checkout) when the file is inside it, with `/` separators; otherwise absolute, which the
 * runner still prints but cannot attach to a file of the repository.
 */
export function annotationPath(projectDir: string, file: string, workspace: string | undefined): string {
  const absolute = resolve(projectDir, file);
  if (workspace !== undefined && workspace !== '') {
    const rel = relative(resolve(workspace), absolute);
    if (rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return absolute.split(sep).join('/');
}

function commandOf(finding: Finding, projectDir: string, workspace: string | undefined): string {
  const properties: string[] = [];
  if (finding.file !== undefined) properties.push(`file=${escapeProperty(escapeTerminal(annotationPath(projectDir, finding.file, workspace)))}`);
  if (finding.line !== undefined) {
    properties.push(`line=${finding.line}`);
    if (finding.column !== undefined) properties.push(`col=${finding.column}`);
  }
  properties.push(`title=${escapeProperty(finding.rule)}`);
  // Findings placed by a JSON pointer alone have no line: the pointer says where.
  const where = finding.pointer !== undefined ? ` (${escapeTerminal(finding.pointer)})` : '';
  const hint = ruleById(finding.rule)?.hint;
  const more = finding.truncated !== undefined && finding.truncated > 0 ? `\nand ${finding.truncated} more findings of this rule, not listed` : '';
  const message = `${escapeTerminal(finding.message)}${where}${more}${hint !== undefined ? `\nhint: ${hint}` : ''}`;
  return `::${finding.severity} ${properties.join(',')}::${escapeData(message)}`;
}

/** An acknowledged warning (D-33) as a notice, with its reason: shown, never counted as a problem. */
function noticeOf(finding: AcknowledgedFinding, projectDir: string, workspace: string | undefined): string {
  const command = commandOf(finding, projectDir, workspace).replace(/^::warning /, '::notice ');
  return `${command}${escapeData(`\nacknowledged: ${escapeTerminal(finding.reason)}`)}`;
}

export interface AnnotationOptions {
  /** `check --list-acknowledged`: the acknowledged warnings too, as notices. */
  readonly listAcknowledged?: boolean;
}

/** One workflow command per finding, in report order; empty when there are none. */
export function renderAnnotations(report: Report, projectDir: string, workspace: string | undefined, options: AnnotationOptions = {}): string {
  const lines = report.findings.map((f) => commandOf(f, projectDir, workspace) + '\n');
  if (options.listAcknowledged === true) for (const f of report.acknowledged ?? []) lines.push(noticeOf(f, projectDir, workspace) + '\n');
  return lines.join('');
}
