// `platform-ext check [dir] [--json] [--list-rules]`: validate a project folder in one pass.
import { FindingList, RULES, sortFindings, validateProject } from '../validator/index.js';
import { loadProject } from '../project/load.js';
import { ansiStyle, buildReport, PLAIN, renderText } from '../project/report.js';
import type { ParsedArgs } from '../args.js';
import { UsageError } from '../usage-error.js';
import type { CommandIo } from './io.js';

export const CHECK_FLAGS = {
  json: { type: 'boolean', description: 'Print the report as one JSON object (format platform-extension-report-v1)' },
  'list-rules': { type: 'boolean', description: 'Print the rule catalogue instead of checking (with --json: as JSON)' },
  help: { type: 'boolean', description: 'Show this help', short: 'h' },
} as const;

function listRules(json: boolean, io: CommandIo): number {
  if (json) {
    io.out(JSON.stringify({ format: 'platform-extension-rules-v1', rules: RULES }, null, 2) + '\n');
    return 0;
  }
  const width = Math.max(...RULES.map((r) => r.id.length));
  const lines = RULES.map((r) => `${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${r.title}  (${r.ref})`);
  io.out(lines.join('\n') + '\n');
  return 0;
}

export function runCheck(args: ParsedArgs, io: CommandIo): number {
  const json = args.flags['json'] === true;
  if (args.flags['list-rules'] === true) {
    if (args.positionals.length > 0) throw new UsageError('"--list-rules" takes no folder');
    return listRules(json, io);
  }
  if (args.positionals.length > 1) {
    throw new UsageError(`"check" takes one project folder, got ${args.positionals.length}: ${args.positionals.map((p) => `"${p}"`).join(' ')}`);
  }
  const target = args.positionals[0] ?? '.';
  const project = loadProject(target);
  const result = validateProject(project.input, { bundlePrefix: 'runtime/' });
  let findings = result.findings;
  if (project.keyHits.length > 0) {
    const extra = new FindingList();
    for (const hit of project.keyHits) extra.add('secret/private-key', `"${hit.file}" contains "${hit.marker}"`, { file: hit.file });
    findings = sortFindings(findings.concat(extra.items));
  }
  const report = buildReport('check', target, findings);
  if (json) io.out(JSON.stringify(report) + '\n');
  else io.out(renderText(report, io.color ? ansiStyle() : PLAIN));
  return report.ok ? 0 : 1;
}
