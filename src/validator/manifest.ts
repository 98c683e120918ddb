// The manifest check (Manifest; Property definition; D-1, D-2, D-5 to D-10, D-24): the signed bytes are read strictly
// (json.ts) and judged as written, every finding with a pointer and line, all in one pass. Integers (D-39): the exact
// decimal value counts (exactJsonInteger), so `1.0` and `10e-1` are 1 but `1.00000000000000001` is not.
import { capabilityKeyHint, isCapabilityKey } from './capabilities.js';
import { jsonPointer, type FindingList } from './findings.js';
import { isNamespace, isSemver } from './grammar.js';
import { exactJsonInteger, readJson, type JsonEntry, type JsonNode, type JsonReadError } from './json.js';
import {
  DESCRIPTION_MAX_BYTES,
  ENTRYPOINT_MAX_CHARS,
  MANIFEST_MAX_BYTES,
  MAX_CAPABILITIES,
  MAX_PROPERTIES,
  NAME_MAX_BYTES,
  NAME_MIN_BYTES,
  SEMVER_MAX_NUMERIC,
} from './limits.js';
import { extensionOf, pathProblem, PATH_PROBLEM_TEXT } from './paths.js';
import { checkManifestString, validatePropertyDefinitions, type PropertyDef, type Report } from './properties.js';
import { decodeUtf8, groupDigits, LineMap, utf8ByteLength } from './text.js';

/** What the manifest check could read validly, for callers that go on (bundle check, package, preview). */
export interface ManifestInfo {
  readonly namespace?: string;
  readonly version?: string;
  readonly name?: string;
  readonly description?: string;
  /** Bundle path of the HTML entrypoint (relative to `runtime/`, D-1), when valid. */
  readonly entrypoint?: string;
  /** Known capability keys, each once, in manifest order. */
  readonly capabilities: string[];
  /** Definitions with a valid `type` (see PropertyDef). */
  readonly properties: PropertyDef[];
}

type FieldKind = 'version-one' | 'string' | 'array' | 'object';

const MANIFEST_FIELDS: ReadonlyMap<string, { readonly kind: FieldKind; readonly required: boolean }> = new Map([
  ['schema_version', { kind: 'version-one', required: true }],
  ['protocol_version', { kind: 'version-one', required: true }],
  ['namespace', { kind: 'string', required: true }],
  ['version', { kind: 'string', required: true }],
  ['name', { kind: 'string', required: true }],
  ['description', { kind: 'string', required: false }],
  ['entrypoint', { kind: 'string', required: true }],
  ['capabilities', { kind: 'array', required: true }],
  ['properties', { kind: 'object', required: true }],
]);

export const MANIFEST_FIELD_NAMES: readonly string[] = [...MANIFEST_FIELDS.keys()];

const KIND_TYPE: Readonly<Record<FieldKind, JsonNode['kind']>> = {
  'version-one': 'number',
  'string': 'string',
  'array': 'array',
  'object': 'object',
};

function article(kind: string): string {
  return kind === 'object' || kind === 'array' ? `an ${kind}` : kind === 'null' ? 'null' : `a ${kind}`;
}

function quote(s: string): string {
  return JSON.stringify(s.length <= 60 ? s : `${s.slice(0, 57)}...`);
}

/** Checks the manifest bytes, adding every finding; what was read validly, or null when not a JSON object at all. */
export function validateManifest(bytes: Uint8Array, findings: FindingList, file = 'manifest.json'): ManifestInfo | null {
  // D-5 and Limits: the size cap comes first, and a manifest over it is not parsed.
  if (bytes.length > MANIFEST_MAX_BYTES) {
    findings.add('manifest/too-large', `The manifest is ${groupDigits(bytes.length)} bytes; the limit is ${groupDigits(MANIFEST_MAX_BYTES)}`, { file, pointer: '', line: 1, column: 1 });
    return null;
  }
  const read = readJson(bytes);
  if (!read.ok) {
    reportReadError(read.error, read.text, bytes, findings, file);
    return null;
  }
  const text = read.text;
  let lineMap: LineMap | undefined;
  const report: Report = (rule, message, pointer, offset) => {
    lineMap ??= new LineMap(text);
    const { line, column } = lineMap.at(offset ?? 0);
    findings.add(rule, message, { file, pointer, line, column });
  };

  const root = read.value;
  if (root.kind !== 'object') {
    report('manifest/not-object', `The manifest must be a JSON object, not ${article(root.kind)}`, '', root.offset);
    return null;
  }

  const info: { -readonly [K in keyof ManifestInfo]: ManifestInfo[K] } = { capabilities: [], properties: [] };
  const present = new Set<string>();
  for (const entry of root.entries) {
    const field = MANIFEST_FIELDS.get(entry.key);
    const pointer = jsonPointer(entry.key);
    if (field === undefined) {
      // Schema version 1 is closed: `$schema` and every other extra field is refused.
      report('manifest/unknown-field', `${quote(entry.key)} is not a manifest field (allowed: ${MANIFEST_FIELD_NAMES.join(', ')})`, pointer, entry.keyOffset);
      continue;
    }
    present.add(entry.key);
    const expected = KIND_TYPE[field.kind];
    if (entry.value.kind !== expected) {
      const wanted = field.kind === 'version-one' ? 'the integer 1' : article(expected);
      report('manifest/wrong-type', `"${entry.key}" must be ${wanted}, not ${article(entry.value.kind)}`, pointer, entry.value.offset);
      continue;
    }
    checkField(entry, report, info);
  }
  for (const [name, field] of MANIFEST_FIELDS) {
    if (field.required && !present.has(name)) {
      report('manifest/missing-field', `The manifest has no "${name}"`, '', root.offset);
    }
  }
  return info;
}

function checkField(entry: JsonEntry, report: Report, info: { -readonly [K in keyof ManifestInfo]: ManifestInfo[K] }): void {
  const node = entry.value;
  const pointer = jsonPointer(entry.key);
  switch (entry.key) {
    case 'schema_version':
    case 'protocol_version': {
      // The integer 1 in any spelling (see the file comment).
      if (node.kind === 'number' && exactJsonInteger(node.text) !== 1) {
        const rule = entry.key === 'schema_version' ? 'manifest/schema-version' : 'manifest/protocol-version';
        const rounded = node.value === 1 ? ' (a value a little off 1 that a parser would round to 1)' : '';
        report(rule, `"${entry.key}" must be the integer 1, found ${node.text.length <= 40 ? node.text : node.text.slice(0, 37) + '...'}${rounded}`, pointer, node.offset);
      }
      return;
    }
    case 'namespace': {
      if (node.kind !== 'string') return;
      if (isNamespace(node.value)) info.namespace = node.value;
      else report('manifest/namespace', `The namespace ${quote(node.value)} is not "<publisher-slug>/<package-slug>" of lowercase letters and digits with single hyphens, each slug starting with a letter`, pointer, node.offset);
      return;
    }
    case 'version': {
      if (node.kind !== 'string') return;
      if (isSemver(node.value)) info.version = node.value;
      else report('manifest/version', `The version ${quote(node.value)} is not a semantic version such as 1.0.0 (numbers without leading zeros, each at most ${SEMVER_MAX_NUMERIC})`, pointer, node.offset);
      return;
    }
    case 'name': {
      if (node.kind !== 'string') return;
      checkManifestString(node.value, report, pointer, node.offset, 'The name');
      const bytes = utf8ByteLength(node.value);
      if (bytes < NAME_MIN_BYTES || bytes > NAME_MAX_BYTES) {
        report('manifest/name-length', `The name is ${bytes} UTF-8 bytes; it must be ${NAME_MIN_BYTES} to ${NAME_MAX_BYTES}`, pointer, node.offset);
      } else info.name = node.value;
      return;
    }
    case 'description': {
      if (node.kind !== 'string') return;
      checkManifestString(node.value, report, pointer, node.offset, 'The description');
      const bytes = utf8ByteLength(node.value);
      if (bytes > DESCRIPTION_MAX_BYTES) {
        report('manifest/description-length', `The description is ${bytes} UTF-8 bytes; it may be at most ${DESCRIPTION_MAX_BYTES}`, pointer, node.offset);
      } else info.description = node.value;
      return;
    }
    case 'entrypoint': {
      if (node.kind !== 'string') return;
      if (checkEntrypoint(node.value, report, pointer, node.offset)) info.entrypoint = node.value;
      return;
    }
    case 'capabilities': {
      if (node.kind === 'array') info.capabilities = checkCapabilities(node.items, report, pointer, node.offset);
      return;
    }
    case 'properties': {
      if (node.kind !== 'object') return;
      if (node.entries.length > MAX_PROPERTIES) {
        report('manifest/too-many-properties', `There are ${node.entries.length} properties; the limit is ${MAX_PROPERTIES}`, pointer, node.offset);
      }
      info.properties = validatePropertyDefinitions(node, report, pointer);
      return;
    }
    default:
      return;
  }
}

// Entrypoint (Manifest; D-1, D-2, D-10): paths.ts's grammar, ENTRYPOINT_MAX_CHARS UTF-16 units, `.html` in any case.
function checkEntrypoint(value: string, report: Report, pointer: string, offset: number): boolean {
  let ok = true;
  if (value.length > ENTRYPOINT_MAX_CHARS) {
    report('manifest/entrypoint-too-long', `The entrypoint has ${value.length} characters; the limit is ${ENTRYPOINT_MAX_CHARS}`, pointer, offset);
    ok = false;
  }
  const problem = pathProblem(value);
  if (problem !== null) {
    report('manifest/entrypoint-path', `The entrypoint ${quote(value)} is not a safe relative path: ${PATH_PROBLEM_TEXT[problem]}`, pointer, offset);
    ok = false;
  }
  // The extension of the path part: `index.html?x` is a path problem, not a wrong extension.
  const pathPart = value.split(/[?#]/, 1)[0]!;
  if (pathPart !== '' && extensionOf(pathPart) !== 'html') {
    report('manifest/entrypoint-not-html', `The entrypoint ${quote(value)} does not end in ".html"`, pointer, offset);
    ok = false;
  }
  return ok;
}

/** Up to MAX_CAPABILITIES unique keys from the nine (Manifest; Capabilities and operations). */
function checkCapabilities(items: readonly JsonNode[], report: Report, pointer: string, offset: number): string[] {
  if (items.length > MAX_CAPABILITIES) {
    report('manifest/too-many-capabilities', `There are ${items.length} capability entries; the limit is ${MAX_CAPABILITIES}`, pointer, offset);
  }
  const keys: string[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const at = `${pointer}/${index}`;
    if (item.kind !== 'string') {
      report('manifest/wrong-type', `A capability must be a string, not ${article(item.kind)}`, at, item.offset);
    } else if (!isCapabilityKey(item.value)) {
      report('manifest/capability-unknown', `${quote(item.value)} is not a capability key: ${capabilityKeyHint(item.value)}`, at, item.offset);
    } else if (seen.has(item.value)) {
      report('manifest/capability-duplicate', `${quote(item.value)} is listed more than once`, at, item.offset);
    } else {
      seen.add(item.value);
      keys.push(item.value);
    }
  });
  return keys;
}

// One finding where reading stopped: a document that cannot be read has no agreed meaning, so nothing else is checked.
function reportReadError(error: JsonReadError, text: string | null, bytes: Uint8Array, findings: FindingList, file: string): void {
  let line = 1;
  let column = 1;
  if (text !== null) {
    ({ line, column } = new LineMap(text).at(error.offset));
  } else if (error.kind === 'invalid-utf8') {
    // The bytes before the first bad sequence are valid UTF-8: decode them to place it.
    const before = decodeUtf8(bytes.subarray(0, error.offset)) ?? '';
    ({ line, column } = new LineMap(before).at(before.length));
  }
  const at = { file, pointer: error.pointer ?? '', line, column };
  switch (error.kind) {
    case 'bom':
      findings.add('manifest/bom', 'The manifest starts with a byte-order mark', at);
      return;
    case 'invalid-utf8':
      findings.add('manifest/invalid-utf8', `The manifest is not valid UTF-8 (byte ${error.offset})`, at);
      return;
    case 'duplicate-key':
      findings.add('manifest/duplicate-key', `The manifest is ambiguous: ${error.message}`, at);
      return;
    default:
      findings.add('manifest/invalid-json', `The manifest is not valid JSON: ${error.message}`, at);
  }
}
