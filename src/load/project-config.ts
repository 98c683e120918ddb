// Acknowledged warnings (D-33) from platform-ext.config.json: a matching warning moves to `acknowledged`
// and no longer fails --strict; errors never can. `file` ending in "/" covers a folder. Read as
// untrusted input (no link, capped, strict JSON): every problem is a config/* finding, never a throw.
//   {"acknowledged": [{"rule": "js/network-api", "file": "runtime/vendor/chart.js", "reason": "..."}]}
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import {
  ACK_CONFIG_MAX_BYTES,
  ACK_REASON_MAX_CHARS,
  FindingList,
  jsonPointer,
  LineMap,
  readJson,
  ruleById,
  RULES,
  sortFindings,
  suggest,
  type Finding,
  type JsonNode,
} from '../validator/internal.js';
import { readCapped } from '../node/file-open.js';

export const CONFIG_FILE = 'platform-ext.config.json';

export interface Acknowledgement {
  readonly rule: string;
  readonly file: string;
  readonly reason: string;
  /** For the unused-entry finding. */
  readonly pointer: string;
  readonly line?: number;
  readonly column?: number;
}

export interface AcknowledgedFinding extends Finding {
  readonly reason: string;
}

export interface ProjectConfig {
  readonly present: boolean;
  readonly acknowledgements: readonly Acknowledgement[];
  /** Problems with the file itself (config/* rules). */
  readonly findings: readonly Finding[];
}

const ENTRY_KEYS = ['rule', 'file', 'reason'] as const;
const TOP_KEYS = ['acknowledged'] as const;

// A project path as findings name files.
function pathProblem(path: string): string | null {
  if (path.startsWith('/')) return 'starts with "/": give the path relative to the project folder, for example "runtime/vendor/chart.js"';
  if (path.includes('\\')) return 'contains "\\": separate folders with "/"';
  const segments = (path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return 'has an empty, "." or ".." segment';
  return null;
}

export function loadProjectConfig(projectDir: string): ProjectConfig {
  const path = join(projectDir, CONFIG_FILE);
  const findings = new FindingList();
  const fail = (message: string, at: { pointer?: string; line?: number; column?: number } = {}): ProjectConfig => {
    findings.add('config/invalid-json', message, { file: CONFIG_FILE, ...at });
    return { present: true, acknowledgements: [], findings: findings.items };
  };
  let stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return { present: false, acknowledgements: [], findings: [] };
    return fail(`${CONFIG_FILE} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): check its permissions`);
  }
  if (stats.isSymbolicLink()) return fail(`${CONFIG_FILE} is a symbolic link: it is not followed; make it a regular file`);
  if (!stats.isFile()) return fail(`${CONFIG_FILE} is not a regular file: make it a file holding one JSON object`);
  const bytes = readCapped(path, ACK_CONFIG_MAX_BYTES);
  if (bytes === null) return fail(`${CONFIG_FILE} cannot be read: check its permissions`);
  if (bytes.length > ACK_CONFIG_MAX_BYTES) return fail(`${CONFIG_FILE} is larger than ${ACK_CONFIG_MAX_BYTES} bytes: list fewer acknowledgements, or acknowledge a folder ("runtime/vendor/") instead of each file`);
  const read = readJson(bytes);
  if (!read.ok) {
    const at = read.text !== null && read.error.kind !== 'invalid-utf8' ? new LineMap(read.text).at(read.error.offset) : {};
    return fail(`${CONFIG_FILE} is not strict JSON: ${read.error.message}`, { ...(read.error.pointer !== undefined && { pointer: read.error.pointer }), ...at });
  }
  const lines = new LineMap(read.text);
  const where = (node: JsonNode, pointer: string) => ({ file: CONFIG_FILE, pointer, ...lines.at(node.offset) });
  const root = read.value;
  if (root.kind !== 'object') return fail(`${CONFIG_FILE} holds a JSON ${root.kind}, not an object: write {"acknowledged": [...]}`, { pointer: '', ...lines.at(root.offset) });

  const acknowledgements: Acknowledgement[] = [];
  for (const member of root.entries) {
    if (!(TOP_KEYS as readonly string[]).includes(member.key)) {
      findings.add('config/invalid-entry', `"${member.key}" is not a setting of ${CONFIG_FILE}: the only one is "acknowledged"`, where(member.value, jsonPointer(member.key)));
      continue;
    }
    const list = member.value;
    if (list.kind !== 'array') {
      findings.add('config/invalid-entry', `"acknowledged" is a JSON ${list.kind}: it must be an array of {"rule", "file", "reason"} objects`, where(list, '/acknowledged'));
      continue;
    }
    list.items.forEach((item, index) => {
      const pointer = jsonPointer('acknowledged', index);
      if (item.kind !== 'object') {
        findings.add('config/invalid-entry', `Entry ${index} is a JSON ${item.kind}: each entry is an object with "rule", "file" and "reason"`, where(item, pointer));
        return;
      }
      const values: Partial<Record<(typeof ENTRY_KEYS)[number], string>> = {};
      let sound = true;
      for (const field of item.entries) {
        const fieldPointer = jsonPointer('acknowledged', index, field.key);
        const key = ENTRY_KEYS.find((k) => k === field.key);
        if (key === undefined) {
          findings.add('config/invalid-entry', `"${field.key}" is not a field of an acknowledgement: the fields are "rule", "file" and "reason"`, where(field.value, fieldPointer));
          sound = false;
          continue;
        }
        if (field.value.kind !== 'string' || field.value.value.trim() === '') {
          findings.add('config/invalid-entry', `"${key}" must be a non-empty string`, where(field.value, fieldPointer));
          sound = false;
          continue;
        }
        values[key] = field.value.value;
      }
      for (const key of ENTRY_KEYS) {
        if (values[key] === undefined && !item.entries.some((f) => f.key === key)) {
          findings.add('config/invalid-entry', `Entry ${index} has no "${key}": each acknowledgement names the rule, the file and the reason it is safe`, where(item, pointer));
          sound = false;
        }
      }
      if (!sound) return;
      const { rule, file, reason } = values as Record<(typeof ENTRY_KEYS)[number], string>;
      const problem = pathProblem(file);
      if (problem !== null) {
        findings.add('config/invalid-entry', `"file" ${problem}`, where(item, jsonPointer('acknowledged', index, 'file')));
        return;
      }
      if (reason.length > ACK_REASON_MAX_CHARS) {
        findings.add('config/invalid-entry', `"reason" is ${reason.length} characters; at most ${ACK_REASON_MAX_CHARS} are read: shorten it`, where(item, jsonPointer('acknowledged', index, 'reason')));
        return;
      }
      const def = ruleById(rule);
      if (def === undefined) {
        const near = suggest(rule, RULES.map((r) => r.id));
        findings.add(
          'config/unknown-rule',
          `"${rule}" is not a rule id${near !== undefined ? `: did you mean "${near}"?` : ': copy it from the finding\'s "rule"'}`,
          where(item, jsonPointer('acknowledged', index, 'rule')),
        );
        return;
      }
      if (def.severity === 'error') {
        findings.add('config/error-acknowledged', `"${rule}" reports errors, which can never be acknowledged: fix the finding instead`, where(item, jsonPointer('acknowledged', index, 'rule')));
        return;
      }
      acknowledgements.push({ rule, file, reason, pointer, ...lines.at(item.offset) });
    });
  }
  return { present: true, acknowledgements, findings: findings.items };
}

function covers(entry: Acknowledgement, finding: Finding): boolean {
  if (finding.rule !== entry.rule || finding.file === undefined) return false;
  return entry.file.endsWith('/') ? finding.file.startsWith(entry.file) : finding.file === entry.file;
}

export interface AcknowledgedResult {
  readonly findings: Finding[];
  /** Each with the first covering entry's reason. */
  readonly acknowledged: AcknowledgedFinding[];
}

export interface AcknowledgeOptions {
  /** False in the preview: an entry may cover a warning only `check` makes (archive size, baseline...). */
  readonly reportUnused?: boolean;
}

// config/* findings are never acknowledged: they say the acknowledgements themselves are wrong.
export function applyAcknowledgements(config: ProjectConfig, findings: readonly Finding[], options: AcknowledgeOptions = {}): AcknowledgedResult {
  if (!config.present) return { findings: [...findings], acknowledged: [] };
  const used = new Set<Acknowledgement>();
  const kept: Finding[] = [];
  const acknowledged: AcknowledgedFinding[] = [];
  for (const finding of findings) {
    if (finding.severity !== 'warning' || finding.rule.startsWith('config/')) {
      kept.push(finding);
      continue;
    }
    const matching = config.acknowledgements.filter((entry) => covers(entry, finding));
    if (matching.length === 0) {
      kept.push(finding);
      continue;
    }
    for (const entry of matching) used.add(entry);
    acknowledged.push({ ...finding, reason: matching[0]!.reason });
  }
  const extra = new FindingList();
  for (const entry of config.acknowledgements) {
    if (used.has(entry) || options.reportUnused === false) continue;
    extra.add('config/unused-acknowledgement', `No "${entry.rule}" warning in "${entry.file}" to acknowledge`, {
      file: CONFIG_FILE,
      pointer: entry.pointer,
      ...(entry.line !== undefined && { line: entry.line, column: entry.column }),
    });
  }
  return { findings: sortFindings([...kept, ...config.findings, ...extra.items]), acknowledged };
}
