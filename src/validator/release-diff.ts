// The release diff of `check --baseline`: what manifest changes mean for stores running the earlier release (contract
// "Versioning", "States and transitions"); catalogue/baseline.ts argues each severity. Both manifests are read as
// written (a property with other errors still exists); a change with no place in the current one points at its member.
import { jsonPointer, type FindingList } from './findings.js';
import { isSemver } from './grammar.js';
import { readJson, type JsonNode, type JsonObjectNode } from './json.js';
import { VALUE_MAX_BYTES } from './limits.js';
import { isPropertyType, type PropertyType } from './properties.js';
import { LineMap } from './text.js';

/** A value of the manifest and the text offset where it is written. */
export interface Located<T> {
  readonly value: T;
  readonly offset: number;
}

export interface ReleaseProperty {
  readonly name: string;
  readonly offset: number;
  readonly type?: Located<PropertyType>;
  /** `select`: the option values that are strings, with the offset of `options`. */
  readonly options?: Located<readonly string[]>;
  readonly min?: Located<number>;
  readonly max?: Located<number>;
}

/** The parts of a manifest that a release diff compares, with their places in the text. */
export interface ReleaseManifest {
  readonly namespace?: Located<string>;
  readonly version?: Located<string>;
  /** Every string of `capabilities`, in order (duplicates and unknown keys included). */
  readonly capabilities: readonly Located<string>[];
  /** Offset of the `capabilities` value, or of the manifest when it has none. */
  readonly capabilitiesOffset: number;
  readonly properties: readonly ReleaseProperty[];
  readonly propertiesOffset: number;
  readonly text: string;
}

function member(node: JsonObjectNode, key: string): JsonNode | undefined {
  for (const entry of node.entries) if (entry.key === key) return entry.value;
  return undefined;
}

function stringAt(node: JsonNode | undefined): Located<string> | undefined {
  return node?.kind === 'string' ? { value: node.value, offset: node.offset } : undefined;
}

function numberAt(node: JsonNode | undefined): Located<number> | undefined {
  return node?.kind === 'number' ? { value: node.value, offset: node.offset } : undefined;
}

function readProperty(name: string, offset: number, node: JsonNode): ReleaseProperty {
  if (node.kind !== 'object') return { name, offset };
  const typeNode = stringAt(member(node, 'type'));
  const optionsNode = member(node, 'options');
  let options: Located<readonly string[]> | undefined;
  if (optionsNode?.kind === 'array') {
    const values: string[] = [];
    for (const item of optionsNode.items) {
      const value = item.kind === 'object' ? member(item, 'value') : undefined;
      if (value?.kind === 'string') values.push(value.value);
    }
    options = { value: values, offset: optionsNode.offset };
  }
  const min = numberAt(member(node, 'min'));
  const max = numberAt(member(node, 'max'));
  return {
    name,
    offset,
    ...(typeNode !== undefined && isPropertyType(typeNode.value) && { type: { value: typeNode.value, offset: typeNode.offset } }),
    ...(options !== undefined && { options }),
    ...(min !== undefined && { min }),
    ...(max !== undefined && { max }),
  };
}

/** Reads manifest bytes with the strict reader (D-5); null unless one JSON object; wrongly typed fields are left out. */
export function readReleaseManifest(bytes: Uint8Array): ReleaseManifest | null {
  const read = readJson(bytes);
  if (!read.ok || read.value.kind !== 'object') return null;
  const root = read.value;
  const namespace = stringAt(member(root, 'namespace'));
  const version = stringAt(member(root, 'version'));
  const capabilitiesNode = member(root, 'capabilities');
  const capabilities: Located<string>[] = [];
  if (capabilitiesNode?.kind === 'array') {
    for (const item of capabilitiesNode.items) if (item.kind === 'string') capabilities.push({ value: item.value, offset: item.offset });
  }
  const propertiesNode = member(root, 'properties');
  const properties = propertiesNode?.kind === 'object' ? propertiesNode.entries.map((e) => readProperty(e.key, e.keyOffset, e.value)) : [];
  return {
    ...(namespace !== undefined && { namespace }),
    ...(version !== undefined && { version }),
    capabilities,
    capabilitiesOffset: capabilitiesNode?.offset ?? root.offset,
    properties,
    propertiesOffset: propertiesNode?.offset ?? root.offset,
    text: read.text,
  };
}

// Semver precedence (semver.org 2.0.0, section 11) for strings passing isSemver: build metadata ignored, a pre-release
// below its release; identifiers left to right, numeric ones as numbers and below alphanumeric ones (ASCII order), and
// a longer list wins when the other is its prefix.

function isNumeric(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return id.length > 0;
}

/** Numeric identifiers without leading zeros: the longer is the larger, else text order (exact at any size). */
function compareNumeric(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareIdentifiers(a: string, b: string): number {
  const an = isNumeric(a);
  const bn = isNumeric(b);
  if (an && bn) return compareNumeric(a, b);
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** -1, 0 or 1 as `a` has lower, equal or higher precedence than `b`; both must pass isSemver. */
export function compareSemver(a: string, b: string): -1 | 0 | 1 {
  const strip = (v: string) => (v.includes('+') ? v.slice(0, v.indexOf('+')) : v);
  const split = (v: string): [string[], string[]] => {
    const hyphen = v.indexOf('-');
    const core = hyphen < 0 ? v : v.slice(0, hyphen);
    return [core.split('.'), hyphen < 0 ? [] : v.slice(hyphen + 1).split('.')];
  };
  const [coreA, preA] = split(strip(a));
  const [coreB, preB] = split(strip(b));
  for (let i = 0; i < 3; i++) {
    const c = compareNumeric(coreA[i] ?? '0', coreB[i] ?? '0');
    if (c !== 0) return c < 0 ? -1 : 1;
  }
  if (preA.length === 0 || preB.length === 0) {
    if (preA.length === preB.length) return 0;
    return preA.length === 0 ? 1 : -1;
  }
  for (let i = 0; i < Math.min(preA.length, preB.length); i++) {
    const c = compareIdentifiers(preA[i]!, preB[i]!);
    if (c !== 0) return c < 0 ? -1 : 1;
  }
  return preA.length === preB.length ? 0 : preA.length < preB.length ? -1 : 1;
}

// A saved value carries over from `from` to `to` (contract "Property definition") when every value allowed for `from`
// is allowed for `to`: the same type, `url` and `image` (one rule, D-9), or free text at least as large as a string
// type. Booleans and numbers only to themselves; nothing to `select` (new options) or to a grammar from free text.
type StringType = Exclude<PropertyType, 'boolean' | 'number'>;

function isStringType(t: PropertyType): t is StringType {
  return t !== 'boolean' && t !== 'number';
}

function isUrlLike(t: PropertyType): boolean {
  return t === 'url' || t === 'image';
}

export function savedValuesCarryOver(from: PropertyType, to: PropertyType): boolean {
  if (from === to) return true;
  if (!isStringType(from) || !isStringType(to)) return false;
  if (isUrlLike(from) && isUrlLike(to)) return VALUE_MAX_BYTES[to] >= VALUE_MAX_BYTES[from];
  if (to === 'text' || to === 'textarea') return VALUE_MAX_BYTES[to] >= VALUE_MAX_BYTES[from];
  return false;
}

function quote(s: string): string {
  return JSON.stringify(s.length <= 60 ? s : `${s.slice(0, 57)}...`);
}

function listQuoted(items: readonly string[]): string {
  const shown = items.slice(0, 5).map(quote).join(', ');
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown;
}

export interface DiffOptions {
  /** Name of the current manifest in findings (default `manifest.json`). */
  readonly file?: string;
}

/** Adds a finding per change that matters to stores running the baseline; invalid current fields are skipped. */
export function diffReleases(baseline: ReleaseManifest, current: ReleaseManifest, findings: FindingList, options: DiffOptions = {}): void {
  const file = options.file ?? 'manifest.json';
  for (const c of releaseChanges(baseline, current)) findings.add(c.rule, c.message, { file, pointer: c.pointer, line: c.line, column: c.column });
}

/** One change between a baseline release's manifest and the current one, as data. */
export interface ReleaseChange {
  /** The baseline/* rule the change is reported under (its severity is the catalogue's). */
  readonly rule: string;
  readonly message: string;
  /** Where in the current manifest: JSON pointer, and 1-based line and column. */
  readonly pointer: string;
  readonly line: number;
  readonly column: number;
  readonly subject?: string;
  /** The value in the baseline and in the current release, when each has one (an option list, a bound, a type). */
  readonly before?: string | number | readonly string[];
  readonly after?: string | number | readonly string[];
}

type Values = Pick<ReleaseChange, 'subject' | 'before' | 'after'>;
type Report = (rule: string, message: string, pointer: string, offset: number, values?: Values) => void;

/** diffReleases' changes as values in the same order, for a caller that stores or shows the diff. */
export function releaseChanges(baseline: ReleaseManifest, current: ReleaseManifest): ReleaseChange[] {
  const changes: ReleaseChange[] = [];
  let lineMap: LineMap | undefined;
  const report: Report = (rule, message, pointer, offset, values = {}) => {
    lineMap ??= new LineMap(current.text);
    const { line, column } = lineMap.at(offset);
    changes.push({ rule, message, pointer, line, column, ...values });
  };

  // Namespace: immutable once registered (Manifest; Versioning).
  if (baseline.namespace !== undefined && current.namespace !== undefined && baseline.namespace.value !== current.namespace.value) {
    report(
      'baseline/namespace-changed',
      `The namespace is ${quote(current.namespace.value)}; the baseline release is ${quote(baseline.namespace.value)}, and a namespace never changes between releases`,
      '/namespace',
      current.namespace.offset,
      { before: baseline.namespace.value, after: current.namespace.value },
    );
  }

  // Version: higher by precedence (Versioning: an approved version is never reused).
  const from = baseline.version?.value;
  const to = current.version;
  if (from !== undefined && to !== undefined && isSemver(from) && isSemver(to.value)) {
    const order = compareSemver(to.value, from);
    if (order <= 0) {
      const how =
        order < 0 ? 'is lower than' : to.value === from ? 'is the version of' : 'has the same precedence as (build metadata does not count)';
      report(
        'baseline/version-not-higher',
        `The version ${quote(to.value)} ${how} the baseline release ${quote(from)}: a later release needs a higher version (a correction of a submission that was never approved may reuse it)`,
        '/version',
        to.offset,
        { before: from, after: to.value },
      );
    }
  }

  // Capabilities: compared as written (unknown keys are the manifest check's to report).
  const before = new Set(baseline.capabilities.map((c) => c.value));
  const now = new Set<string>();
  current.capabilities.forEach((c, index) => {
    if (now.has(c.value)) return;
    now.add(c.value);
    if (!before.has(c.value)) {
      report(
        'baseline/capability-added',
        `${quote(c.value)} is new since the baseline release: stores that installed it must approve it in a new permission review, and calls reject with CAPABILITY_NOT_GRANTED until they do`,
        jsonPointer('capabilities', index),
        c.offset,
        { subject: c.value },
      );
    }
  });
  const removed = [...before].filter((key) => !now.has(key));
  for (const key of removed) {
    report(
      'baseline/capability-removed',
      `${quote(key)} was requested by the baseline release and is not any more: stores lose its grant on upgrade`,
      '/capabilities',
      current.capabilitiesOffset,
      { subject: key },
    );
  }

  // Properties: saved settings persist through upgrades (Versioning; Property definition).
  const currentByName = new Map(current.properties.map((p) => [p.name, p]));
  for (const old of baseline.properties) {
    const next = currentByName.get(old.name);
    if (next === undefined) {
      report(
        'baseline/property-removed',
        `The property ${quote(old.name)} of the baseline release is gone: settings saved for it persist through the upgrade and become unknown settings, which the new release refuses`,
        '/properties',
        current.propertiesOffset,
        { subject: old.name },
      );
      continue;
    }
    if (old.type === undefined || next.type === undefined) continue;
    const pointer = jsonPointer('properties', old.name);
    if (!savedValuesCarryOver(old.type.value, next.type.value)) {
      report(
        'baseline/property-retyped',
        `The property ${quote(old.name)} is a ${quote(next.type.value)}; in the baseline release it is a ${quote(old.type.value)}: settings saved under the old type persist through the upgrade and are not valid ${quote(next.type.value)} values`,
        `${pointer}/type`,
        next.type.offset,
        { subject: old.name, before: old.type.value, after: next.type.value },
      );
      continue;
    }
    narrowing(old, next, pointer, report);
  }
  return changes;
}

/** Same or compatible type: options dropped from a select, or a number range made tighter. */
function narrowing(old: ReleaseProperty, next: ReleaseProperty, pointer: string, report: Report): void {
  const type = next.type!.value;
  if (type === 'select' && old.type!.value === 'select' && old.options !== undefined && next.options !== undefined) {
    const kept = new Set(next.options.value);
    const dropped = old.options.value.filter((v) => !kept.has(v));
    if (dropped.length > 0) {
      report(
        'baseline/property-narrowed',
        `The select ${quote(old.name)} no longer has the option value${dropped.length === 1 ? '' : 's'} ${listQuoted(dropped)} of the baseline release: a store that saved ${dropped.length === 1 ? 'it' : 'one of them'} would hold a value that is not an option`,
        `${pointer}/options`,
        next.options.offset,
        { subject: old.name, before: dropped },
      );
    }
  }
  if (type === 'number') {
    // A bound that appears, or moves inwards, leaves earlier saved values outside.
    if (next.min !== undefined && (old.min === undefined || next.min.value > old.min.value)) {
      report(
        'baseline/property-narrowed',
        `"min" of ${quote(old.name)} is ${next.min.value}; the baseline release ${old.min === undefined ? 'has no minimum' : `allows down to ${old.min.value}`}, so saved values below ${next.min.value} would be out of range`,
        `${pointer}/min`,
        next.min.offset,
        { subject: old.name, ...(old.min !== undefined && { before: old.min.value }), after: next.min.value },
      );
    }
    if (next.max !== undefined && (old.max === undefined || next.max.value < old.max.value)) {
      report(
        'baseline/property-narrowed',
        `"max" of ${quote(old.name)} is ${next.max.value}; the baseline release ${old.max === undefined ? 'has no maximum' : `allows up to ${old.max.value}`}, so saved values above ${next.max.value} would be out of range`,
        `${pointer}/max`,
        next.max.offset,
        { subject: old.name, ...(old.max !== undefined && { before: old.max.value }), after: next.max.value },
      );
    }
  }
}
