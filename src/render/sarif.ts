// `check --format sarif`: the report as a SARIF 2.1.0 log for code-scanning services and
// editors. One run. The rules are the whole catalogue in catalogue order, so a rule's
// ruleIndex never depends on which findings a run has; every result points back into it.
// The log is a pure function of the report, the project and repository folders and the version: no times,
// no host names, keys in a fixed order (determinism, as for every output of this tool).
import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeTerminal, RULES, type Finding, type RuleDef } from '../validator/internal.js';
import { explanationOf } from '../explain/all-explanations.js';
import { exitStatusOf, type Report, type ReportFinding } from '../pipeline/report.js';

declare const __PLATFORM_EXT_VERSION__: string;
const VERSION = typeof __PLATFORM_EXT_VERSION__ === 'string' ? __PLATFORM_EXT_VERSION__ : '0.0.0-dev';

export const SARIF_VERSION = '2.1.0';
/** The published SARIF 2.1.0 schema (draft-07 copy at SchemaStore); test/fixtures/sarif/ holds it. */
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
export const TOOL_NAME = 'platform-ext';
// No `informationUri` on the tool and no `helpUri` on the rules: the package has no published
// page and no repository address of its own, and a viewer must never be sent to a page that
// does not exist. Each rule's documentation travels in the log itself (`fullDescription`,
// `help`); in the repository it is docs/rules.md.
/**
 * Outside a repository, artifact URIs are relative to the project folder through this base
 * id (SARIF 3.4.4); `originalUriBaseIds` says where it was. Inside one, the project's
 * place in the repository is given relative to REPOSITORY_ROOT_BASE_ID.
 */
export const PROJECT_ROOT_BASE_ID = 'PROJECTROOT';
/**
 * Inside a repository, artifact URIs are relative to its root through this base id:
 * GitHub code scanning ignores base ids and reads relative URIs against the repository
 * root, so a project in a subfolder must carry the subfolder in every URI.
 */
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

/** Where artifact URIs start: a base id and the path of the project folder below it ('' or ending in '/'). */
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
  // A JSON pointer names a member of the manifest: the logical location of the finding
  // (SARIF 3.33), also kept verbatim in the result's properties for scripts.
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
  // An acknowledged warning (D-33): suppressed outside the code, in the project's
  // platform-ext.config.json, with the publisher's reason (SARIF 3.27.23, 3.35).
  if (reason !== undefined) result['suppressions'] = [{ kind: 'external', status: 'accepted', justification: reason }];
  // D-20a: the fix text travels with each result. SARIF's `fixes` would need the exact
  // replacement bytes, which a hint does not give; the rule's `help` has the long form.
  const properties: Record<string, string> = {};
  if (finding.pointer !== undefined) properties['pointer'] = finding.pointer;
  const hint = (finding as ReportFinding).hint;
  if (hint !== undefined) properties['hint'] = hint;
  if (Object.keys(properties).length > 0) result['properties'] = properties;
  return result;
}

/**
 * The SARIF log of a check report. `projectDir` is the folder checked; `repositoryRoot`,
 * when given and holding it, the root of its repository (absolute paths): URIs are then
 * relative to that root, as code-scanning services read them.
 */
export function buildSarif(report: Report, projectDir: string, repositoryRoot?: string): Record<string, unknown> {
  const indexById = new Map<string, number>();
  RULES.forEach((rule, i) => indexById.set(rule.id, i));
  const indexOf = (f: Finding): number => {
    const index = indexById.get(f.rule);
    // Findings come from FindingList, which accepts catalogued ids only.
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
  // D-20a: the contract version the log was checked against (the tool's is in `driver`).
  // Findings left out of the results (at most MAX_FINDINGS_PER_RULE_AND_FILE per rule and
  // file, for at most MAX_FILES_PER_RULE files, are listed), per rule: an additive run property, so a log never looks complete when it is not.
  run['properties'] = {
    contract_version: report.contract_version,
    ...(report.strict === true && { strict: true }),
    ...(report.truncated !== undefined && { truncated: report.truncated }),
  };
  return { $schema: SARIF_SCHEMA_URI, version: SARIF_VERSION, runs: [run] };
}
