// `platform-ext check [dir] [--format text|json|sarif] [--strict]`: validate a project
// folder in one pass (ops/check-project.ts) and render the report. Also `--list-rules` (the catalogue) and `--explain <rule-id>` (one rule
// in full). Text, JSON (D-20) and SARIF render the same findings; only the exit status
// decides pass or fail (D-21), and --strict makes warnings fail it too, except the ones
// the project's platform-ext.config.json acknowledges (D-33, src/load/project-config.ts).
import { resolve } from 'node:path';
import { RULES, stringifyJson } from '../validator/internal.js';
import { checkProject } from '../ops/check-project.js';
import { exitStatusOf } from '../pipeline/report.js';
import { rulesDocument } from '../contract/rules-document.js';
import { ansiStyle, PLAIN, renderText } from '../render/report-text.js';
import { buildSarif } from '../render/sarif.js';
import { repositoryRootOf } from '../node/repository-root.js';
import { inGitHubActions, renderAnnotations } from '../render/annotations.js';
import { outputFormat, type ParsedArgs } from './args.js';
import { UsageError } from '../node/usage-error.js';
import type { CommandIo } from './command-io.js';
import type { CommandSpec } from './command-spec.js';

export const CHECK_FORMATS = ['text', 'json', 'sarif'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];


/** `--explain` and `--list-rules` print the catalogue, not a check: options that shape a check do not apply. */
function refuseWithCatalogue(flag: string, args: ParsedArgs, format: CheckFormat): void {
  if (args.positionals.length > 0) throw new UsageError(`"--${flag}" takes no folder`);
  if (args.flags['strict'] === true) throw new UsageError(`"--strict" applies to checking a folder, not to "--${flag}"`);
  if (args.flags['list-acknowledged'] === true) throw new UsageError(`"--list-acknowledged" applies to checking a folder, not to "--${flag}"`);
  if (args.flags['baseline'] !== undefined) throw new UsageError(`"--baseline" applies to checking a folder, not to "--${flag}"`);
  if (format === 'sarif') throw new UsageError(`"--${flag}" prints text or JSON, not SARIF: use "--json" or no format option`);
}

function listRules(json: boolean, io: CommandIo): number {
  if (json) {
    io.out(stringifyJson(rulesDocument(), 2) + '\n');
    return 0;
  }
  const width = Math.max(...RULES.map((r) => r.id.length));
  const lines = RULES.map((r) => `${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${r.title}  (${r.ref})`);
  io.out(lines.join('\n') + '\n');
  return 0;
}

function runCheck(args: ParsedArgs, io: CommandIo): number | Promise<number> {
  const format: CheckFormat = outputFormat(args.flags, CHECK_FORMATS);
  const style = io.color ? ansiStyle() : PLAIN;
  const explain = args.flags['explain'];
  if (typeof explain === 'string') {
    if (args.flags['list-rules'] === true) throw new UsageError('Give either "--explain <rule-id>" or "--list-rules", not both');
    refuseWithCatalogue('explain', args, format);
    // The explanations are imported for --explain only: a check does not load them.
    return Promise.all([import('../explain/rule-explanation.js'), import('../render/explanation-text.js')]).then(([{ explainRule, findRule }, { renderExplanation }]) => {
      const explanation = explainRule(findRule(explain));
      io.out(format === 'json' ? stringifyJson(explanation, 2) + '\n' : renderExplanation(explanation, style));
      return 0;
    });
  }
  if (args.flags['list-rules'] === true) {
    refuseWithCatalogue('list-rules', args, format);
    return listRules(format === 'json', io);
  }
  if (args.positionals.length > 1) {
    throw new UsageError(`"check" takes one project folder, got ${args.positionals.length}: ${args.positionals.map((p) => `"${p}"`).join(' ')}`);
  }
  const target = args.positionals[0] ?? '.';
  const baseline = args.flags['baseline'];
  const report = checkProject(target, { strict: args.flags['strict'] === true, ...(typeof baseline === 'string' && { baseline }) });
  // D-29a: JSON strings carry invisible and controlling characters as \u escapes.
  if (format === 'json') io.out(stringifyJson(report) + '\n');
  else if (format === 'sarif') {
    const projectDir = resolve(target);
    io.out(stringifyJson(buildSarif(report, projectDir, repositoryRootOf(projectDir, io.env['GITHUB_WORKSPACE'])), 2) + '\n');
  }
  else {
    // In a GitHub Actions step, the runner turns these lines into annotations on the files.
    const listAcknowledged = args.flags['list-acknowledged'] === true;
    if (inGitHubActions(io.env)) io.out(renderAnnotations(report, resolve(target), io.env['GITHUB_WORKSPACE'], { listAcknowledged }));
    io.out(renderText(report, style, { listAcknowledged }));
  }
  return exitStatusOf(report);
}

export const command: CommandSpec = {
  name: 'check',
  usage: 'platform-ext check [<dir>] [--format text|json|sarif] [--strict] [--baseline <release-dir>] | platform-ext check --explain <rule-id> [--json] | platform-ext check --list-rules [--json]',
  summary: 'Validate a project against contract v1 (manifest, bundle, entrypoint, CSS, modules)',
  details:
    'Loads <dir>/manifest.json and everything under <dir>/runtime/ (default <dir>: the current folder),\n' +
    'runs every rule and reports all findings at once. Other project files are scanned for private keys.\n\n' +
    'In a GitHub Actions step (GITHUB_ACTIONS=true) the text output also prints workflow annotations.\n\n' +
    'Exit status: 0 no errors (warnings allowed; with --strict, no findings at all), 1 at least one error\n' +
    '(with --strict: error or warning), 2 usage error or unreadable folder.',
  flags: {
    format: {
      type: 'string',
      valueName: '<text|json|sarif>',
      description: 'Output: text (default), json (one platform-extension-report-v1 object) or sarif (SARIF 2.1.0 for code scanning)',
    },
    json: { type: 'boolean', description: 'Same as --format json' },
    strict: { type: 'boolean', description: 'Warnings fail too: exit status 1 when there is any finding (acknowledged warnings do not count)' },
    'list-acknowledged': {
      type: 'boolean',
      description: 'Also list the warnings that platform-ext.config.json acknowledges, with their reasons (JSON and SARIF always carry them)',
    },
    baseline: { type: 'string', valueName: '<release-dir>', description: 'Also diff against an earlier submission set: version, namespace, capabilities, properties' },
    explain: { type: 'string', valueName: '<rule-id>', description: 'Print one rule in full: why, its contract section and an example fix (with --json: as JSON)' },
    'list-rules': { type: 'boolean', description: 'Print the rule catalogue instead of checking (with --json: as JSON)' },
    help: { type: 'boolean', description: 'Show this help', short: 'h' },
  },
  run: runCheck,
};
