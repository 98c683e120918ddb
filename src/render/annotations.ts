// GitHub Actions workflow commands, one per finding. Values are escaped as the runner unescapes them, so a line
// break in checked text cannot end a command early and start another one (`::stop-commands::`, `::add-mask::`).
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { escapeTerminal, ruleById, type Finding } from '../validator/internal.js';
import type { Report } from '../pipeline/report.js';
import type { AcknowledgedFinding } from '../load/project-config.js';

/** Escapes a message (`%`, CR, LF); input text goes through escapeTerminal first (D-29): the log renders escapes. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value (`file=`, `title=`): as data, plus `:` and `,`, which end a value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function inGitHubActions(env: NodeJS.ProcessEnv): boolean {
  return env['GITHUB_ACTIONS'] === 'true';
}

/** Workspace-relative with `/` when inside the checkout (so GitHub attaches it to the file); otherwise absolute. */
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
  readonly listAcknowledged?: boolean;
}

export function renderAnnotations(report: Report, projectDir: string, workspace: string | undefined, options: AnnotationOptions = {}): string {
  const lines = report.findings.map((f) => commandOf(f, projectDir, workspace) + '\n');
  if (options.listAcknowledged === true) for (const f of report.acknowledged ?? []) lines.push(noticeOf(f, projectDir, workspace) + '\n');
  return lines.join('');
}
