// `check --format sarif`: a SARIF 2.1.0 log. Rules are the whole catalogue in order, so a ruleIndex never depends on
// the findings; the log is a pure function of report, folders and version (no times, no host names).
import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeTerminal, RULES, type Finding, type RuleDef } from '../validator/internal.js';
import { explanationOf } from '../explain/all-explanations.js';
import { exitStatusOf, type Report, type ReportFinding } from '../pipeline/report.js';

declare const __PLATFORM_EXT_VERSION__: string;
const VERSION = typeof __PLATFORM_EXT_VERSION__ === 'string' ? __PLATFORM_EXT_VERSION__ : '0.0.0-dev';

export const SARIF_VERSION = '2.1.0';
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
export const TOOL_NAME = 'platform-ext';
// No `informationUri`/`helpUri`: the package has no published page, so each rule's docs travel in the log (`help`).
/** URIs outside a repository are relative to the project folder (SARIF 3.4.4). */
export const PROJECT_ROOT_BASE_ID = 'PROJECTROOT';
/** URIs inside a repository: GitHub reads them against its root, so each one carries the project's subfolder. */
export const REPOSITORY_ROOT_BASE_ID = 'SRCROOT';

/** Percent-encodes each path segment, so any file name is a valid URI reference (RFC 3986). */
export function relativeFileUri(file: string): string {
  return file
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

function markdownCode(text: string): string {
  // A fence longer than any backtick run inside the example, so the block never ends early.
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${text}\n${fence}`;
}

function ruleDescriptor(rule: RuleDef): Record<string, unknown> {
  const long = explanationOf(rule.id);
  const area = rule.id.slice(0, rule.id.indexOf('/'));
  const fullText = long?.text ?? rule.title;
  const helpText = long === undefined ? rule.hint : `${rule.hint}\n\nBefore (${long.example.file}):\n${long.example.before}\n\nAfter:\n${long.example.after}`;
  const helpMarkdown =
    long === undefined
      ? rule.hint
      : `${rule.hint}\n\n${long.text}\n\nContract: ${rule.ref}\n\n**Before** (${long.example.file}):\n\n${markdownCode(long.example.before)}\n\n**After:**\n\n${markdownCode(long.example.after)}`;
  return {
    id: rule.id,
    shortDescription: { text: rule.title },
    fullDescription: { text: fullText },
    help: { text: helpText, markdown: helpMarkdown },
    defaultConfiguration: { level: rule.severity },
    properties: { contractReference: rule.ref, tags: [area] },
  };
}

interface UriBase {
  readonly id: string;
  readonly projectPath: string;
}

function folderUrl(dir: string): string {
  const url = pathToFileURL(dir).href;
  return url.endsWith('/') ? url : `${url}/`;
}

function resultOf(finding: Finding, ruleIndex: number, base: UriBase, reason?: string): Record<string, unknown> {
  const location: Record<string, unknown> = {};
  if (finding.file !== undefined) {
    const physical: Record<string, unknown> = {
      artifactLocation: { uri: relativeFileUri(base.projectPath + finding.file), uriBaseId: base.id },
    };
    if (finding.line !== undefined) {
      const region: Record<string, number> = { startLine: finding.line };
      if (finding.column !== undefined) region['startColumn'] = finding.column;
      physical['region'] = region;
    }
    location['physicalLocation'] = physical;
  }
  if (finding.pointer !== undefined) location['logicalLocations'] = [{ fullyQualifiedName: finding.pointer, kind: 'member' }];
  const result: Record<string, unknown> = {
    ruleId: finding.rule,
    ruleIndex,
    level: finding.severity,
    // D-29a: a viewer shows the message as text, so characters no reader sees are escaped
    // as every other output escapes them (the log's JSON escapes them again as \u).
    message: { text: escapeTerminal(finding.message) },
  };
  if (Object.keys(location).length > 0) result['locations'] = [location];
  // An acknowledged warning (D-33): an external suppression with the publisher's reason (SARIF 3.27.23, 3.35).
  if (reason !== undefined) result['suppressions'] = [{ kind: 'external', status: 'accepted', justification: reason }];
  // D-20a: the hint travels with each result; SARIF `fixes` would need exact replacement bytes, which a hint lacks.
  const properties: Record<string, string> = {};
  if (finding.pointer !== undefined) properties['pointer'] = finding.pointer;
  const hint = (finding as ReportFinding).hint;
  if (hint !== undefined) properties['hint'] = hint;
  if (Object.keys(properties).length > 0) result['properties'] = properties;
  return result;
}

/** The SARIF log; when `repositoryRoot` holds `projectDir`, URIs are relative to that root, as code scanning reads them. */
export function buildSarif(report: Report, projectDir: string, repositoryRoot?: string): Record<string, unknown> {
  const indexById = new Map<string, number>();
  RULES.forEach((rule, i) => indexById.set(rule.id, i));
  const indexOf = (f: Finding): number => {
    const index = indexById.get(f.rule);
    if (index === undefined) throw new Error(`internal: rule ${f.rule} is not in the catalogue`);
    return index;
  };
  const inRepository = repositoryRoot === undefined ? undefined : relative(repositoryRoot, projectDir);
  const within = inRepository !== undefined && inRepository !== '..' && !inRepository.startsWith(`..${sep}`) && !isAbsolute(inRepository);
  const projectPath = within && inRepository !== '' ? `${inRepository.split(sep).join('/')}/` : '';
  const base: UriBase = within ? { id: REPOSITORY_ROOT_BASE_ID, projectPath } : { id: PROJECT_ROOT_BASE_ID, projectPath: '' };
  const results = report.findings.map((f) => resultOf(f, indexOf(f), base));
  for (const f of report.acknowledged ?? []) results.push(resultOf(f, indexOf(f), base, f.reason));
  const baseIds: Record<string, unknown> = within
    ? {
        [REPOSITORY_ROOT_BASE_ID]: { uri: folderUrl(repositoryRoot!) },
        [PROJECT_ROOT_BASE_ID]: { uri: projectPath === '' ? './' : relativeFileUri(projectPath), uriBaseId: REPOSITORY_ROOT_BASE_ID },
      }
    : { [PROJECT_ROOT_BASE_ID]: { uri: folderUrl(projectDir) } };
  const run: Record<string, unknown> = {
    tool: {
      driver: {
        name: TOOL_NAME,
        version: VERSION,
        semanticVersion: VERSION,
        rules: RULES.map(ruleDescriptor),
      },
    },
    // The exit status the command returns, so a log read on its own still says pass or fail.
    invocations: [{ executionSuccessful: true, exitCode: exitStatusOf(report) }],
    originalUriBaseIds: baseIds,
    columnKind: 'utf16CodeUnits',
    results,
  };
  // D-20a: the contract version checked against; per rule, the findings left out, so a log never looks complete.
  run['properties'] = {
    contract_version: report.contract_version,
    ...(report.strict === true && { strict: true }),
    ...(report.truncated !== undefined && { truncated: report.truncated }),
  };
  return { $schema: SARIF_SCHEMA_URI, version: SARIF_VERSION, runs: [run] };
}
