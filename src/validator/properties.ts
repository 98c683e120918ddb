// Property definitions, defaults and saved settings (Property definition; D-6 to D-10): properties are public
// controls in the store builder, so each value meets its type's grammar and size, and the totals one budget.
// Definitions are read from the node tree (findings get pointer and line); settings are plain values, same rules.
import { jsonPointer, type FindingList } from './findings.js';
import { isColor, isPropertyName, urlProblem, URL_PROBLEM_TEXT } from './grammar.js';
import { jsonValueOf, type JsonEntry, type JsonNode, type JsonObjectNode } from './json.js';
import {
  DEFAULTS_MAX_BYTES,
  HELP_MAX_BYTES,
  LABEL_MAX_BYTES,
  LABEL_MIN_BYTES,
  OPTION_TEXT_MAX_CHARS,
  OPTION_TEXT_MIN_CHARS,
  PROPERTY_NAME_MAX_CHARS,
  SELECT_OPTIONS_MAX,
  SELECT_OPTIONS_MIN,
  SETTINGS_MAX_BYTES,
  VALUE_MAX_BYTES,
} from './limits.js';
import { groupDigits, manifestStringProblem, manifestStringUnseen, utf8ByteLength } from './text.js';

/** The `type` enum (Property definition). */
export const PROPERTY_TYPES = ['boolean', 'color', 'image', 'number', 'select', 'text', 'textarea', 'url'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/** The fields a definition may have; anything else is refused (schema version 1 is closed). */
export const PROPERTY_FIELDS = ['type', 'label', 'default', 'required', 'help', 'options', 'min', 'max'] as const;
/** Option objects are closed too: exactly `label` and `value`. */
export const OPTION_FIELDS = ['label', 'value'] as const;

export interface SelectOption {
  readonly label: string;
  readonly value: string;
}

/** What was read validly from one definition; returned for every definition with a valid `type`. */
export interface PropertyDef {
  readonly name: string;
  readonly type: PropertyType;
  readonly label?: string;
  readonly help?: string;
  readonly required: boolean;
  /** `select` only: the options that are well-formed. */
  readonly options?: readonly SelectOption[];
  readonly min?: number;
  readonly max?: number;
  /** Present only when the default passed every value rule. */
  readonly default?: boolean | number | string;
}

export type Report = (rule: string, message: string, pointer: string, offset?: number) => void;

/** D-29, D-29a: a string the store shows holds no control, bidi override or stray tag character (errors) nor, as a
 * warning, another invisible one; `lineBreaks` allows `\n`. True when it passes (a warning still passes). */
export function checkManifestString(text: string, report: Report, pointer: string, offset: number | undefined, what: string, lineBreaks = false): boolean {
  const problem = manifestStringProblem(text, lineBreaks);
  if (problem !== undefined) {
    report('manifest/control-character', `${what} holds the character ${problem}, a control character or bidirectional override${lineBreaks ? '' : ' (a line break is allowed only in a textarea default)'}`, pointer, offset);
  }
  const unseen = manifestStringUnseen(text);
  if (unseen.tag !== undefined) {
    report('manifest/tag-character', `${what} holds the tag character ${unseen.tag} outside an emoji tag sequence: tag characters are invisible and can spell hidden words`, pointer, offset);
  }
  if (unseen.invisible !== undefined) {
    report('manifest/invisible-character', `${what} holds the invisible character ${unseen.invisible}: the store shows nothing where it is`, pointer, offset);
  }
  return problem === undefined && unseen.tag === undefined;
}

export function isPropertyType(s: string): s is PropertyType {
  return (PROPERTY_TYPES as readonly string[]).includes(s);
}

function valueTypeOf(type: PropertyType): 'boolean' | 'number' | 'string' {
  return type === 'boolean' ? 'boolean' : type === 'number' ? 'number' : 'string';
}

function quote(s: string): string {
  const shown = s.length <= 60 ? s : `${s.slice(0, 57)}...`;
  return JSON.stringify(shown);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a non-finite number';
  const t = typeof value;
  return t === 'object' || t === 'undefined' ? `an ${t}` : `a ${t}`;
}

// Value rules by type (Property definition), shared by defaults and saved settings.

interface ValueRules {
  readonly type: PropertyType;
  readonly optionValues?: ReadonlySet<string>;
  readonly min?: number;
  readonly max?: number;
}

/** Checks one default or setting; true when it passes every rule. `what` names it in messages. */
function checkValue(rules: ValueRules, value: unknown, report: Report, pointer: string, offset: number | undefined, what: string): boolean {
  const expected = valueTypeOf(rules.type);
  // `number` must be finite (D-7); a manifest number always is (json.ts), a setting may not be.
  if (typeof value !== expected || (expected === 'number' && !Number.isFinite(value))) {
    report('property/value-type', `${what} must be a ${expected === 'number' ? 'finite number' : expected} for type "${rules.type}", not ${describe(value)}`, pointer, offset);
    return false;
  }
  let ok = true;
  if (typeof value === 'number') {
    if ((rules.min !== undefined && value < rules.min) || (rules.max !== undefined && value > rules.max)) {
      report('property/value-out-of-range', `${what} ${value} is outside ${rules.min ?? '-infinity'} to ${rules.max ?? 'infinity'}`, pointer, offset);
      ok = false;
    }
    return ok;
  }
  if (typeof value !== 'string') return ok;
  const type = rules.type as keyof typeof VALUE_MAX_BYTES;
  const max = VALUE_MAX_BYTES[type];
  const bytes = utf8ByteLength(value);
  if (bytes > max) {
    report('property/value-too-large', `${what} is ${groupDigits(bytes)} UTF-8 bytes; a ${type} value holds at most ${groupDigits(max)}`, pointer, offset);
    ok = false;
  }
  if (type === 'color' && !isColor(value)) {
    report('property/value-format', `${what} ${quote(value)} is not a color: use "#" and six or eight hex digits`, pointer, offset);
    ok = false;
  } else if (type === 'url' || type === 'image') {
    const problem = urlProblem(value);
    if (problem !== null) {
      report('property/value-format', `${what} ${quote(value)} is not an allowed URL: ${URL_PROBLEM_TEXT[problem]}`, pointer, offset);
      ok = false;
    }
  } else if (type === 'select' && rules.optionValues !== undefined && !rules.optionValues.has(value)) {
    report('property/value-not-option', `${what} ${quote(value)} is not the value of any option`, pointer, offset);
    ok = false;
  }
  return ok;
}

// The count limit is the manifest's rule; returns the definitions with a valid `type` and the fields that passed.
export function validatePropertyDefinitions(properties: JsonObjectNode, report: Report, pointer = '/properties'): PropertyDef[] {
  const out: PropertyDef[] = [];
  for (const entry of properties.entries) {
    const def = validateDefinition(entry, report, pointer + jsonPointer(entry.key));
    if (def !== null) out.push(def);
  }
  checkDefaultsBudget(properties, report, pointer);
  return out;
}

function validateDefinition(entry: JsonEntry, report: Report, pointer: string): PropertyDef | null {
  const name = entry.key;
  if (!isPropertyName(name)) {
    report('property/name', `The property name ${quote(name)} must start with a lowercase letter, continue with letters, digits and underscores, and have at most ${PROPERTY_NAME_MAX_CHARS} characters`, pointer, entry.keyOffset);
  }
  const node = entry.value;
  if (node.kind !== 'object') {
    report('property/wrong-type', `The definition of ${quote(name)} must be an object, not ${article(node.kind)}`, pointer, node.offset);
    return null;
  }
  const fields = new Map<string, JsonEntry>();
  for (const field of node.entries) {
    if ((PROPERTY_FIELDS as readonly string[]).includes(field.key)) fields.set(field.key, field);
    else report('property/unknown-field', `${quote(field.key)} is not a field of a property definition (allowed: ${PROPERTY_FIELDS.join(', ')})`, pointer + jsonPointer(field.key), field.keyOffset);
  }

  let type: PropertyType | null = null;
  const typeField = fields.get('type');
  if (typeField === undefined) {
    report('property/missing-field', `The definition of ${quote(name)} has no "type"`, pointer, node.offset);
  } else if (typeField.value.kind !== 'string') {
    report('property/wrong-type', `"type" must be a string, not ${article(typeField.value.kind)}`, pointer + '/type', typeField.value.offset);
  } else if (!isPropertyType(typeField.value.value)) {
    report('property/unknown-type', `${quote(typeField.value.value)} is not a property type (allowed: ${PROPERTY_TYPES.join(', ')})`, pointer + '/type', typeField.value.offset);
  } else {
    type = typeField.value.value;
  }

  // label: required, 1 to 100 UTF-8 bytes (D-10).
  let label: string | undefined;
  const labelField = fields.get('label');
  if (labelField === undefined) {
    report('property/missing-field', `The definition of ${quote(name)} has no "label"`, pointer, node.offset);
  } else if (labelField.value.kind !== 'string') {
    report('property/wrong-type', `"label" must be a string, not ${article(labelField.value.kind)}`, pointer + '/label', labelField.value.offset);
  } else {
    checkManifestString(labelField.value.value, report, pointer + '/label', labelField.value.offset, '"label"');
    const bytes = utf8ByteLength(labelField.value.value);
    if (bytes < LABEL_MIN_BYTES || bytes > LABEL_MAX_BYTES) {
      report('property/label-length', `"label" is ${bytes} UTF-8 bytes; it must be ${LABEL_MIN_BYTES} to ${LABEL_MAX_BYTES}`, pointer + '/label', labelField.value.offset);
    } else label = labelField.value.value;
  }

  let help: string | undefined;
  const helpField = fields.get('help');
  if (helpField !== undefined) {
    if (helpField.value.kind !== 'string') {
      report('property/wrong-type', `"help" must be a string, not ${article(helpField.value.kind)}`, pointer + '/help', helpField.value.offset);
    } else if (!checkManifestString(helpField.value.value, report, pointer + '/help', helpField.value.offset, '"help"')) {
      // reported
    } else if (utf8ByteLength(helpField.value.value) > HELP_MAX_BYTES) {
      report('property/help-length', `"help" is ${utf8ByteLength(helpField.value.value)} UTF-8 bytes; it may be at most ${HELP_MAX_BYTES}`, pointer + '/help', helpField.value.offset);
    } else help = helpField.value.value;
  }

  let required = false;
  const requiredField = fields.get('required');
  if (requiredField !== undefined) {
    if (requiredField.value.kind !== 'boolean') {
      report('property/wrong-type', `"required" must be true or false, not ${article(requiredField.value.kind)}`, pointer + '/required', requiredField.value.offset);
    } else required = requiredField.value.value;
  }

  let options: SelectOption[] | undefined;
  const optionsField = fields.get('options');
  if (type === 'select') {
    if (optionsField === undefined) {
      report('property/options-missing', `The select ${quote(name)} has no "options"`, pointer, node.offset);
    } else {
      options = validateOptions(optionsField.value, report, pointer + '/options') ?? undefined;
    }
  } else if (type !== null && optionsField !== undefined) {
    report('property/options-forbidden', `"options" is allowed only on type "select", not "${type}"`, pointer + '/options', optionsField.keyOffset);
  }

  // min, max: number only; finite (json.ts refuses overflow); min <= max.
  let min: number | undefined;
  let max: number | undefined;
  for (const bound of ['min', 'max'] as const) {
    const field = fields.get(bound);
    if (field === undefined || type === null) continue;
    if (type !== 'number') {
      report('property/range-forbidden', `"${bound}" is allowed only on type "number", not "${type}"`, pointer + '/' + bound, field.keyOffset);
    } else if (field.value.kind !== 'number') {
      report('property/wrong-type', `"${bound}" must be a number, not ${article(field.value.kind)}`, pointer + '/' + bound, field.value.offset);
    } else if (bound === 'min') min = field.value.value;
    else max = field.value.value;
  }
  if (min !== undefined && max !== undefined && min > max) {
    const minField = fields.get('min')!;
    report('property/range-inverted', `"min" (${min}) is greater than "max" (${max})`, pointer + '/min', minField.value.offset);
    // Both bounds stay: a default or setting must still satisfy each.
  }

  let defaultValue: boolean | number | string | undefined;
  const defaultField = fields.get('default');
  let defaultTypeOk = false;
  if (type !== null && defaultField !== undefined) {
    const rules: ValueRules = {
      type,
      ...(options !== undefined ? { optionValues: new Set(options.map((o) => o.value)) } : {}),
      ...(min !== undefined ? { min } : {}),
      ...(max !== undefined ? { max } : {}),
    };
    const value = scalarOf(defaultField.value);
    defaultTypeOk = typeof value === valueTypeOf(type);
    const safe = typeof value !== 'string' || checkManifestString(value, report, pointer + '/default', defaultField.value.offset, 'The default', type === 'textarea');
    if (checkValue(rules, value, report, pointer + '/default', defaultField.value.offset, 'The default') && safe) {
      defaultValue = value as boolean | number | string;
    }
  }
  if (type !== null && required) {
    // D-8: string types need a non-whitespace character; boolean and number need a default.
    if (defaultField === undefined) {
      report('property/required-default', `${quote(name)} is required, so it needs a default`, pointer, node.offset);
    } else if (defaultTypeOk && defaultField.value.kind === 'string' && defaultField.value.value.trim() === '') {
      report('property/required-default', `${quote(name)} is required, so its default must contain a non-whitespace character`, pointer + '/default', defaultField.value.offset);
    }
  }

  if (type === null) return null;
  return {
    name,
    type,
    required,
    ...(label !== undefined ? { label } : {}),
    ...(help !== undefined ? { help } : {}),
    ...(options !== undefined ? { options } : {}),
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    ...(defaultValue !== undefined ? { default: defaultValue } : {}),
  };
}

/** A scalar node's value; containers and null become a stand-in of the same JSON type name. */
function scalarOf(node: JsonNode): unknown {
  switch (node.kind) {
    case 'string':
    case 'number':
    case 'boolean':
      return node.value;
    case 'null':
      return null;
    case 'array':
      return [];
    default:
      return {};
  }
}

function article(kind: string): string {
  return kind === 'object' || kind === 'array' ? `an ${kind}` : kind === 'null' ? 'null' : `a ${kind}`;
}

// 1 to 100 closed `{label, value}` objects of 1 to 100 UTF-16 units (D-10). Identical options are an error, a value
// repeated under another label a warning (D-40: a setting stores only the value). Returns the well-formed options,
// or null when `options` is not an array.
function validateOptions(node: JsonNode, report: Report, pointer: string): SelectOption[] | null {
  const out: SelectOption[] = [];
  if (node.kind !== 'array') {
    report('property/wrong-type', `"options" must be an array, not ${article(node.kind)}`, pointer, node.offset);
    return null;
  }
  const count = node.items.length;
  if (count < SELECT_OPTIONS_MIN || count > SELECT_OPTIONS_MAX) {
    report('property/options-count', `"options" has ${count} entries; it must have ${SELECT_OPTIONS_MIN} to ${SELECT_OPTIONS_MAX}`, pointer, node.offset);
  }
  const seen = new Map<string, Set<string>>();
  node.items.forEach((item, index) => {
    const at = `${pointer}/${index}`;
    if (item.kind !== 'object') {
      report('property/wrong-type', `An option must be an object {label, value}, not ${article(item.kind)}`, at, item.offset);
      return;
    }
    const texts: Partial<Record<'label' | 'value', string>> = {};
    for (const field of item.entries) {
      if (field.key !== 'label' && field.key !== 'value') {
        report('property/unknown-field', `${quote(field.key)} is not a field of an option (allowed: ${OPTION_FIELDS.join(', ')})`, at + jsonPointer(field.key), field.keyOffset);
        continue;
      }
      const v = field.value;
      if (v.kind !== 'string') {
        report('property/wrong-type', `An option "${field.key}" must be a string, not ${article(v.kind)}`, `${at}/${field.key}`, v.offset);
        continue;
      }
      checkManifestString(v.value, report, `${at}/${field.key}`, v.offset, `An option "${field.key}"`);
      if (v.value.length < OPTION_TEXT_MIN_CHARS || v.value.length > OPTION_TEXT_MAX_CHARS) {
        report('property/option-length', `An option "${field.key}" has ${v.value.length} characters; it must have ${OPTION_TEXT_MIN_CHARS} to ${OPTION_TEXT_MAX_CHARS}`, `${at}/${field.key}`, v.offset);
      }
      texts[field.key] = v.value;
    }
    if (texts.label !== undefined && texts.value !== undefined) {
      const labels = seen.get(texts.value);
      if (labels === undefined) {
        seen.set(texts.value, new Set([texts.label]));
      } else if (labels.has(texts.label)) {
        report('property/option-duplicate', `Another option is the same {label, value}: ${quote(texts.label)}, ${quote(texts.value)}`, at, item.offset);
      } else {
        const valueNode = item.entries.find((f) => f.key === 'value')!.value;
        report('property/option-value-repeated', `Another option already has the value ${quote(texts.value)} under another label: a saved setting cannot tell ${quote(texts.label)} from it`, `${at}/value`, valueNode.offset);
        labels.add(texts.label);
      }
    }
    for (const required of OPTION_FIELDS) {
      if (!item.entries.some((f) => f.key === required)) {
        report('property/missing-field', `An option has no "${required}"`, at, item.offset);
      }
    }
    if (texts.label !== undefined && texts.value !== undefined) out.push({ label: texts.label, value: texts.value });
  });
  return out;
}

// D-6: the UTF-8 length of JSON.stringify of {name: default} over the properties that have a default.
function checkDefaultsBudget(properties: JsonObjectNode, report: Report, pointer: string): void {
  const defaults: Record<string, unknown> = Object.create(null);
  let any = false;
  for (const entry of properties.entries) {
    if (entry.value.kind !== 'object') continue;
    const field = entry.value.entries.find((f) => f.key === 'default');
    if (field === undefined) continue;
    defaults[entry.key] = jsonValueOf(field.value);
    any = true;
  }
  if (!any) return;
  const bytes = utf8ByteLength(JSON.stringify(defaults));
  if (bytes > DEFAULTS_MAX_BYTES) {
    report('property/defaults-too-large', `All defaults together are ${groupDigits(bytes)} bytes of JSON; the limit is ${groupDigits(DEFAULTS_MAX_BYTES)}`, pointer, properties.offset);
  }
}

// Saved settings (D-6, D-7): names must be defined, values follow their property's rules, totals as for defaults.

/** Validates saved settings against the definitions; pointers under `pointerBase`, no line/column; never throws. */
export function validateSettings(properties: readonly PropertyDef[], settings: unknown, findings: FindingList, pointerBase = '', file?: string): void {
  const report: Report = (rule, message, pointer) => {
    findings.add(rule, message, file === undefined ? { pointer } : { file, pointer });
  };
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    report('property/wrong-type', `Settings must be an object, not ${describe(settings)}`, pointerBase);
    return;
  }
    // Only what JSON.parse makes: a Map or class instance would be read through its own keys, not as the store reads it.
  if (!isPlainObject(settings)) {
    report('property/wrong-type', 'Settings must be a plain JSON object (prototype Object.prototype or null), not a Map, class instance or other object', pointerBase);
    return;
  }
  const byName = new Map<string, PropertyDef>();
  for (const def of properties) byName.set(def.name, def);
  try {
    for (const key of Object.keys(settings)) {
      const pointer = pointerBase + jsonPointer(key);
      const def = byName.get(key);
      if (def === undefined) {
        report('property/setting-unknown', `There is no property named ${quote(key)}`, pointer);
        continue;
      }
      // Read the own data property only: an accessor would run code and could change.
      const descriptor = Object.getOwnPropertyDescriptor(settings, key);
      if (descriptor === undefined || !('value' in descriptor)) {
        report('property/value-type', `The setting ${quote(key)} is not a plain value`, pointer);
        continue;
      }
      const rules: ValueRules = {
        type: def.type,
        ...(def.options !== undefined ? { optionValues: new Set(def.options.map((o) => o.value)) } : {}),
        ...(def.min !== undefined ? { min: def.min } : {}),
        ...(def.max !== undefined ? { max: def.max } : {}),
      };
      checkSettingValue(rules, descriptor.value, report, pointer, `The setting ${quote(key)}`);
    }
    const text = JSON.stringify(settings);
    const bytes = text === undefined ? 0 : utf8ByteLength(text);
    if (bytes > SETTINGS_MAX_BYTES) {
      report('property/settings-too-large', `The settings are ${groupDigits(bytes)} bytes of JSON; the limit is ${groupDigits(SETTINGS_MAX_BYTES)}`, pointerBase);
    }
  } catch {
    // A Proxy, a throwing toJSON, a BigInt or a cycle: not JSON-compatible settings.
    report('property/wrong-type', 'The settings cannot be read as a JSON object', pointerBase);
  }
}

/** True for an object whose prototype is Object.prototype or null (what JSON.parse makes); false for anything else, a throwing Proxy included. */
function isPlainObject(value: object): boolean {
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false;
  }
}

/** A lone surrogate: no Unicode scalar value, so no UTF-8 encoding (a manifest default with one is refused by the JSON reader). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// The checks a default gets (D-29, value rules), plus the lone surrogate the manifest's JSON reader refuses first.
function checkSettingValue(rules: ValueRules, value: unknown, report: Report, pointer: string, what: string): void {
  if (typeof value === 'string') {
    const surrogate = LONE_SURROGATE.exec(value);
    if (surrogate !== null) {
      const unit = `U+${surrogate[0].charCodeAt(0).toString(16).toUpperCase()}`;
      report('property/value-type', `${what} must be Unicode text, but it holds the lone surrogate ${unit}, which no UTF-8 text can carry`, pointer);
      return;
    }
  }
  if (typeof value === 'string') checkManifestString(value, report, pointer, undefined, what, rules.type === 'textarea');
  checkValue(rules, value, report, pointer, undefined, what);
}
