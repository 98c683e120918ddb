// contract-snapshot/manifest.schema.json: the manifest as a JSON Schema (draft 2020-12),
// built from the validator's tables so that an editor, a CI step and the tool read the same
// rules. It is as strict as JSON Schema allows: closed objects, the grammar of every string
// as an anchored pattern, the enums, per-type property rules and every count and length.
//
// What a schema cannot say is left to `platform-ext check` and listed in SCHEMA_GAPS (the
// differential test holds the schema to that list): anything about bytes rather than parsed
// values (size, UTF-8, duplicate keys, how a number is spelled), lengths the contract counts
// in UTF-8 bytes or UTF-16 code units where JSON Schema counts code points, and rules that
// compare two fields. Where a limit is counted differently, the schema uses the same number
// on code points, which is never stricter than the tool: a string that has more code points
// than the limit also has at least as many bytes and code units.
//
// Patterns are ECMAScript regular expressions read with the `u` flag (as ajv and editors
// do), anchored, and free of ambiguous nested repetition so no input can make them slow.
import {
  CAPABILITY_KEYS,
  DESCRIPTION_MAX_BYTES,
  DNS_LABEL_MAX_CHARS,
  DNS_NAME_MAX_CHARS,
  ENTRYPOINT_MAX_CHARS,
  HELP_MAX_BYTES,
  IPV4_OCTET_MAX,
  LABEL_MAX_BYTES,
  LABEL_MIN_BYTES,
  MAX_CAPABILITIES,
  MAX_PROPERTIES,
  NAME_MAX_BYTES,
  NAME_MIN_BYTES,
  OPTION_TEXT_MAX_CHARS,
  OPTION_TEXT_MIN_CHARS,
  PROPERTY_NAME_MAX_CHARS,
  SELECT_OPTIONS_MAX,
  SELECT_OPTIONS_MIN,
  SEMVER_MAX_NUMERIC,
  URL_PORT_MAX_DIGITS,
  VALUE_MAX_BYTES,
  PROPERTY_FIELDS,
  PROPERTY_TYPES,
  OPTION_FIELDS,
  MANIFEST_FIELD_NAMES,
  JSON_MAX_DEPTH,
} from '../validator/internal.js';
import { MANIFEST_SCHEMA_VERSION, BRIDGE_PROTOCOL_VERSION } from './versions.js';

/** The schema's `$id`: a name, not a place to download from (the snapshot is offline). */
export const MANIFEST_SCHEMA_ID = `urn:platform-extension:manifest-schema:${MANIFEST_SCHEMA_VERSION}`;

// Pattern pieces, each named after the grammar it copies (grammar.ts, paths.ts).

/**
 * Decimal numbers without leading zeros whose value is at most `max` (a non-negative safe
 * integer), as one alternation: shorter numbers freely, then numbers of max's length digit
 * by digit (a prefix of max, one smaller digit, then anything). Used for D-24's semver bound
 * and IPv4 octets, so the number is written once, in limits.ts.
 */
export function decimalAtMostPattern(max: number): string {
  const s = String(max);
  const alternatives = ['0'];
  if (s.length >= 2) alternatives.push(s.length === 2 ? '[1-9]' : `[1-9][0-9]{0,${s.length - 2}}`);
  for (let i = 0; i < s.length; i++) {
    const digit = Number(s[i]);
    const lowest = i === 0 ? 1 : 0;
    if (digit - 1 < lowest) continue;
    const range = digit - 1 === lowest ? String(lowest) : `[${lowest}-${digit - 1}]`;
    const rest = s.length - i - 1;
    alternatives.push(`${s.slice(0, i)}${range}${rest === 0 ? '' : rest === 1 ? '[0-9]' : `[0-9]{${rest}}`}`);
  }
  if (s !== '0') alternatives.push(s);
  return `(?:${alternatives.join('|')})`;
}

const SLUG = '[a-z][a-z0-9]*(?:-[a-z0-9]+)*';
/** `<publisher-slug>/<package-slug>` (grammar.ts isNamespace). */
export const NAMESPACE_PATTERN = `^${SLUG}/${SLUG}$`;

const SEMVER_NUMERIC = decimalAtMostPattern(SEMVER_MAX_NUMERIC);
// A pre-release identifier is numeric, or has at least one letter or hyphen: digits, then
// the first non-digit, then anything (one way to match, so no backtracking blow-up).
const SEMVER_PRE = `(?:${SEMVER_NUMERIC}|[0-9]*[A-Za-z-][0-9A-Za-z-]*)`;
const SEMVER_BUILD = '[0-9A-Za-z-]+';
/** Semantic version with D-24's bound on numeric identifiers (grammar.ts isSemver). */
export const SEMVER_PATTERN = `^${SEMVER_NUMERIC}\\.${SEMVER_NUMERIC}\\.${SEMVER_NUMERIC}(?:-${SEMVER_PRE}(?:\\.${SEMVER_PRE})*)?(?:\\+${SEMVER_BUILD}(?:\\.${SEMVER_BUILD})*)?$`;

/** Property names (grammar.ts isPropertyName; the length is the schema's maxLength). */
export const PROPERTY_NAME_PATTERN = '^[a-z][A-Za-z0-9_]*$';

/** `#` and six or eight hex digits (grammar.ts isColor). */
export const COLOR_PATTERN = '^#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$';

// D-2: a segment is ASCII letters, digits, `.`, `_`, `-` and does not start with `.`
// (which also rules out `.` and `..`); the entrypoint's last segment ends in `.html`, any case.
const PATH_SEGMENT = '[A-Za-z0-9_-][A-Za-z0-9._-]*';
/** The entrypoint (paths.ts pathProblem and the `html` extension, D-1, D-2). */
export const ENTRYPOINT_PATTERN = `^(?:${PATH_SEGMENT}/)*${PATH_SEGMENT}\\.[Hh][Tt][Mm][Ll]$`;

// D-9 URLs. Characters never allowed anywhere: whitespace (what JavaScript's \s matches),
// backslash, C0 and C1 control characters.
const URL_CHAR = '[^\\s\\\\\\x00-\\x1f\\x7f-\\x9f]';
const OCTET = decimalAtMostPattern(IPV4_OCTET_MAX);
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
/** RFC 4291 section 2.2 text forms (grammar.ts isIpv6), written as RFC 3986's IPv6address rule. */
function ipv6Pattern(): string {
  const groups = (n: number): string => (n === 0 ? '' : `(?:${H16}:){${n}}`);
  const head = (n: number): string => (n < 0 ? '' : n === 0 ? `(?:${H16})?` : `(?:(?:${H16}:){0,${n}}${H16})?`);
  return `(?:${[
    `${groups(6)}${LS32}`,
    `::${groups(5)}${LS32}`,
    `${head(0)}::${groups(4)}${LS32}`,
    `${head(1)}::${groups(3)}${LS32}`,
    `${head(2)}::${groups(2)}${LS32}`,
    `${head(3)}::${H16}:${LS32}`,
    `${head(4)}::${LS32}`,
    `${head(5)}::${H16}`,
    `${head(6)}::`,
  ].join('|')})`;
}
const HOST_END = '(?:[:/?#]|$)';
const DNS_LABEL = `[A-Za-z0-9](?:[A-Za-z0-9-]{0,${DNS_LABEL_MAX_CHARS - 2}}[A-Za-z0-9])?`;
// A host whose last label is a number (decimal or 0x hex) is read by browsers as an IPv4
// address, so only the dotted quad may end that way; a DNS name is at most 253 characters.
const DNS_NAME = `(?=[^:/?#]{1,${DNS_NAME_MAX_CHARS}}${HOST_END})(?:${DNS_LABEL}\\.)*(?![0-9]+${HOST_END})(?!0[xX][0-9A-Fa-f]*${HOST_END})${DNS_LABEL}`;
const HOST = `(?:\\[${ipv6Pattern()}\\]|${IPV4}(?=${HOST_END})|${DNS_NAME})`;
/** D-9: empty, site-relative (one leading `/`), or http(s) with a host, optional port, path, query, fragment. */
export const URL_PATTERN = `^(?:/(?:[^/\\s\\\\\\x00-\\x1f\\x7f-\\x9f]${URL_CHAR}*)?|[Hh][Tt][Tt][Pp][Ss]?://${HOST}(?::[0-9]{1,${URL_PORT_MAX_DIGITS}})?(?:[/?#]${URL_CHAR}*)?)?$`;

/** A required string-valued property needs a character that is not whitespace (D-8; JavaScript's trim and \s agree). */
const NOT_BLANK_PATTERN = '\\S';

// The schema.

type Schema = { [key: string]: unknown };

/** The JSON type a default of each property type has (Property definition). */
function valueSchema(type: (typeof PROPERTY_TYPES)[number]): Schema {
  switch (type) {
    case 'boolean':
      return { type: 'boolean' };
    case 'number':
      return { type: 'number', description: 'A number; within min and max when they are given (D-7).' };
    case 'color':
      return { type: 'string', pattern: COLOR_PATTERN, maxLength: VALUE_MAX_BYTES.color, description: '"#" and six or eight hex digits.' };
    case 'select':
      return { type: 'string', maxLength: VALUE_MAX_BYTES.select, description: `One of the option values (D-7); at most ${VALUE_MAX_BYTES.select} UTF-8 bytes.` };
    case 'text':
      return { type: 'string', maxLength: VALUE_MAX_BYTES.text, description: `At most ${VALUE_MAX_BYTES.text} UTF-8 bytes.` };
    case 'textarea':
      return { type: 'string', maxLength: VALUE_MAX_BYTES.textarea, description: `At most ${VALUE_MAX_BYTES.textarea} UTF-8 bytes.` };
    case 'url':
    case 'image':
      // One definition for both: the contract gives image "the same rule as url".
      if (VALUE_MAX_BYTES.url !== VALUE_MAX_BYTES.image) throw new Error('internal: url and image sizes differ; split urlValue');
      return { $ref: '#/$defs/urlValue' };
  }
}

/** One `if type is T then ...` branch: the default's type, D-8, and which fields T forbids. */
function typeRule(type: (typeof PROPERTY_TYPES)[number]): Schema {
  const forbidden: Schema = {};
  if (type !== 'select') forbidden.options = false;
  if (type !== 'number') {
    forbidden.min = false;
    forbidden.max = false;
  }
  const stringValued = type !== 'boolean' && type !== 'number';
  const requiredRule: Schema = stringValued
    ? { required: ['default'], properties: { default: { type: 'string', pattern: NOT_BLANK_PATTERN } } }
    : { required: ['default'] };
  const then: Schema = {
    properties: { default: valueSchema(type), ...forbidden },
    ...(type === 'select' ? { required: ['options'] } : {}),
    if: { properties: { required: { const: true } }, required: ['required'] },
    then: requiredRule,
  };
  return { if: { properties: { type: { const: type } }, required: ['type'] }, then };
}

/** One sentence per manifest field, shared by the schema and contract.md. */
export const MANIFEST_FIELD_TEXT: Readonly<Record<string, string>> = {
  schema_version: 'Always 1: version 1 of the manifest schema is closed.',
  protocol_version: 'Always 1: version 1 of the bridge protocol is closed.',
  namespace: '"<publisher-slug>/<package-slug>": each slug is a lowercase letter, then lowercase letters and digits, with single hyphens between groups. It never changes once registered.',
  version: `Semantic version such as 1.0.0 (numeric identifiers without leading zeros and at most ${SEMVER_MAX_NUMERIC}, D-24). An approved version is never reused.`,
  name: `Display name, ${NAME_MIN_BYTES} to ${NAME_MAX_BYTES} UTF-8 bytes.`,
  description: `Optional, at most ${DESCRIPTION_MAX_BYTES} UTF-8 bytes.`,
  entrypoint: `The HTML file inside runtime/ that the frame loads, relative to runtime/ (D-1), for example "index.html"; at most ${ENTRYPOINT_MAX_CHARS} characters of ASCII letters, digits, ".", "_", "-" and "/" (D-2).`,
  capabilities: `The capability keys the extension asks the store user to grant, each once, at most ${MAX_CAPABILITIES}; [] when none. Declaring is not granting.`,
  properties: `Settings shown in the store builder, by property name, at most ${MAX_PROPERTIES}; {} when none. Values are public: never put secrets, tokens or customer data in them.`,
};

/** The manifest schema as a plain object, fields in the contract's order. */
export function manifestSchema(): Schema {
  const fieldSchemas: Schema = {
    schema_version: { const: MANIFEST_SCHEMA_VERSION },
    protocol_version: { const: BRIDGE_PROTOCOL_VERSION },
    namespace: { type: 'string', pattern: NAMESPACE_PATTERN, examples: ['acme/hello-world'] },
    version: { type: 'string', pattern: SEMVER_PATTERN, examples: ['1.0.0'] },
    name: { type: 'string', minLength: NAME_MIN_BYTES, maxLength: NAME_MAX_BYTES },
    description: { type: 'string', maxLength: DESCRIPTION_MAX_BYTES },
    entrypoint: { type: 'string', maxLength: ENTRYPOINT_MAX_CHARS, pattern: ENTRYPOINT_PATTERN, examples: ['index.html'] },
    capabilities: { type: 'array', maxItems: MAX_CAPABILITIES, uniqueItems: true, items: { enum: [...CAPABILITY_KEYS] } },
    properties: {
      type: 'object',
      maxProperties: MAX_PROPERTIES,
      propertyNames: { $ref: '#/$defs/propertyName' },
      additionalProperties: { $ref: '#/$defs/property' },
    },
  };
  const properties: Schema = {};
  for (const name of MANIFEST_FIELD_NAMES) {
    const field = fieldSchemas[name];
    if (field === undefined) throw new Error(`internal: no schema for manifest field ${name}`);
    properties[name] = { description: MANIFEST_FIELD_TEXT[name], ...(field as Schema) };
  }
  const definitionFields: Schema = {
    type: { enum: [...PROPERTY_TYPES], description: 'The control the builder shows and the JSON type of the value.' },
    label: { type: 'string', minLength: LABEL_MIN_BYTES, maxLength: LABEL_MAX_BYTES, description: `${LABEL_MIN_BYTES} to ${LABEL_MAX_BYTES} UTF-8 bytes.` },
    default: { description: 'Must have the property type; see the per-type rules.' },
    required: { type: 'boolean', description: 'When true a default is needed; for string types it must contain a non-whitespace character (D-8).' },
    help: { type: 'string', maxLength: HELP_MAX_BYTES, description: `At most ${HELP_MAX_BYTES} UTF-8 bytes.` },
    options: { $ref: '#/$defs/options' },
    min: { type: 'number', description: 'number only; not greater than max.' },
    max: { type: 'number', description: 'number only; not less than min.' },
  };
  for (const f of PROPERTY_FIELDS) if (!(f in definitionFields)) throw new Error(`internal: no schema for property field ${f}`);
  const optionText: Schema = { type: 'string', minLength: OPTION_TEXT_MIN_CHARS, maxLength: OPTION_TEXT_MAX_CHARS };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: MANIFEST_SCHEMA_ID,
    title: `Website extension manifest (schema version ${MANIFEST_SCHEMA_VERSION})`,
    description:
      'manifest.json of a website extension. Generated by platform-ext from the validator it runs; `platform-ext check` is the full check (byte-level rules, UTF-8 byte lengths and cross-field rules are beyond JSON Schema). The manifest may not contain "$schema": map this file to manifest.json in the editor settings instead.',
    type: 'object',
    required: MANIFEST_FIELD_NAMES.filter((n) => n !== 'description'),
    properties,
    additionalProperties: false,
    $defs: {
      propertyName: {
        type: 'string',
        pattern: PROPERTY_NAME_PATTERN,
        maxLength: PROPERTY_NAME_MAX_CHARS,
        description: `A lowercase letter, then letters, digits and underscores; at most ${PROPERTY_NAME_MAX_CHARS} characters.`,
      },
      property: {
        type: 'object',
        required: ['type', 'label'],
        properties: definitionFields,
        additionalProperties: false,
        allOf: PROPERTY_TYPES.map(typeRule),
      },
      options: {
        type: 'array',
        minItems: SELECT_OPTIONS_MIN,
        maxItems: SELECT_OPTIONS_MAX,
        uniqueItems: true,
        description: `select only, and required there: ${SELECT_OPTIONS_MIN} to ${SELECT_OPTIONS_MAX} options whose values are all different.`,
        items: {
          type: 'object',
          required: [...OPTION_FIELDS],
          properties: { label: optionText, value: optionText },
          additionalProperties: false,
        },
      },
      urlValue: {
        type: 'string',
        maxLength: VALUE_MAX_BYTES.url,
        pattern: URL_PATTERN,
        description: 'url and image values: empty, site-relative ("/..."), or an http or https URL with a DNS name or IP address, optional port, path, query and fragment; no credentials, whitespace or backslashes (D-9).',
      },
    },
  };
}

/**
 * Manifest and property rules that the schema does not decide on its own, with the reason.
 * `none`: the schema never sees it. `partial`: the schema catches some cases (a count on
 * code points, identical options) and `check` the rest. Every other manifest and property
 * rule is decided exactly alike by the schema and `check` (the differential test).
 */
export const SCHEMA_GAPS: readonly { readonly rule: string; readonly reach: 'none' | 'partial'; readonly why: string }[] = [
  { rule: 'manifest/too-large', reach: 'none', why: 'a size in bytes of the file; a schema sees parsed values' },
  { rule: 'manifest/invalid-utf8', reach: 'none', why: 'about bytes before parsing (D-5)' },
  { rule: 'manifest/bom', reach: 'none', why: 'about bytes before parsing (D-5)' },
  { rule: 'manifest/invalid-json', reach: 'none', why: `strict JSON (lone surrogates, numbers that overflow, nesting over ${JSON_MAX_DEPTH}) is decided by the reader (D-5)` },
  { rule: 'manifest/duplicate-key', reach: 'none', why: 'a parsed object keeps one of the two members, so the schema never sees the duplicate (D-5)' },
  { rule: 'manifest/schema-version', reach: 'partial', why: 'every spelling of the integer 1 (`1`, `1.0`, `1e0`) is accepted by both (D-39); a value a little off 1 such as `1.00000000000000001` reaches the schema rounded to 1, while the tool reads its exact digits' },
  { rule: 'manifest/protocol-version', reach: 'partial', why: 'as schema-version' },
  { rule: 'manifest/name-length', reach: 'partial', why: 'counted in UTF-8 bytes (D-10); the schema counts code points' },
  { rule: 'manifest/description-length', reach: 'partial', why: 'counted in UTF-8 bytes (D-10); the schema counts code points' },
  { rule: 'property/label-length', reach: 'partial', why: 'counted in UTF-8 bytes (D-10); the schema counts code points' },
  { rule: 'property/help-length', reach: 'partial', why: 'counted in UTF-8 bytes (D-10); the schema counts code points' },
  { rule: 'property/option-length', reach: 'partial', why: 'counted in UTF-16 code units (D-10); the schema counts code points' },
  { rule: 'property/option-value-repeated', reach: 'none', why: 'a warning, not a refusal: a value repeated under another label is allowed (D-40); identical options are refused by both (`uniqueItems`)' },
  { rule: 'property/value-too-large', reach: 'partial', why: 'counted in UTF-8 bytes; the schema counts code points (exact for color)' },
  { rule: 'property/range-inverted', reach: 'none', why: 'compares two fields (min and max)' },
  { rule: 'property/value-out-of-range', reach: 'none', why: 'compares the default with min and max of the same definition (D-7)' },
  { rule: 'property/value-not-option', reach: 'none', why: 'compares the default with the option values (D-7)' },
  { rule: 'property/defaults-too-large', reach: 'none', why: 'a byte total over all definitions (D-6)' },
  { rule: 'manifest/control-character', reach: 'none', why: 'control characters and bidirectional overrides in displayed strings (D-29); the schema states types and lengths, and a line break depends on the property type' },
  { rule: 'manifest/tag-character', reach: 'none', why: 'tag characters in displayed strings (D-29a); a complete emoji tag sequence is allowed, which depends on the characters around each tag' },
  { rule: 'manifest/invisible-character', reach: 'none', why: 'a warning about invisible characters in displayed strings (D-29a); whether a joiner or selector is allowed depends on the character before it' },
  { rule: 'property/setting-unknown', reach: 'none', why: 'about saved settings, which are not part of the manifest' },
  { rule: 'property/settings-too-large', reach: 'none', why: 'about saved settings, which are not part of the manifest (D-6)' },
];
