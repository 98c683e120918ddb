// The long form of every catalogued rule, for `check --explain <rule-id>` and the SARIF
// rule descriptors: why the rule exists (the attack or the disagreement it prevents), what
// exactly it checks, and a short before/after of a fix. The catalogue's one-line title,
// severity, contract reference and hint stay in src/validator/catalogue/ (that module is
// vendored by the server side and kept small); these texts live on the Node side only.
// Ids here must match the catalogue exactly: test/explain/explain.test.mjs fails on a rule without
// an entry and on an entry without a rule. Contract numbers come from limits.ts.
import {
  ACK_CONFIG_MAX_BYTES,
  ACK_REASON_MAX_CHARS,
  ALLOWED_EXTENSIONS,
  BLOCKED_NETWORK_APIS,
  BUNDLE_MAX_COMPRESSED_BYTES,
  BUNDLE_MAX_COMPRESSION_RATIO,
  BUNDLE_MAX_EXPANDED_BYTES,
  BUNDLE_MAX_FILE_BYTES,
  BUNDLE_MAX_FILES,
  BUNDLE_PATH_MAX_BYTES,
  KEY_SCAN_MAX_BYTES,
  CAPABILITY_KEYS,
  DEFAULTS_MAX_BYTES,
  DESCRIPTION_MAX_BYTES,
  ENTRYPOINT_MAX_CHARS,
  HELP_MAX_BYTES,
  LABEL_MAX_BYTES,
  LABEL_MIN_BYTES,
  MANIFEST_MAX_BYTES,
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
  SETTINGS_MAX_BYTES,
  SIGNED_PAYLOAD_HEADER,
  SUBMISSION_FILES,
  SUBMISSION_FORMAT,
  URL_PORT_MAX_DIGITS,
  VALUE_MAX_BYTES,
  formatSize,
} from '../validator/index.js';
import { reviewExplanations } from './review-explanations.js';
import { JSON_MAX_DEPTH } from '../validator/index.js';
import {
  HIGH_ENTROPY_MIN_CHARS,
  PHONE_INTERNATIONAL_MAX_DIGITS,
  PHONE_INTERNATIONAL_MIN_DIGITS,
  PHONE_NATIONAL_MAX_DIGITS,
  PHONE_NATIONAL_MIN_DIGITS,
} from '../validator/index.js';
import { groupDigits } from '../validator/index.js';

export interface FixExample {
  /** What the snippets are: a project file (`manifest.json`, `runtime/main.js`), `layout` or `shell`. */
  readonly file: string;
  readonly before: string;
  readonly after: string;
}

export interface Explanation {
  /** Why the rule exists and what exactly it checks: a short paragraph, no line breaks. */
  readonly text: string;
  readonly example: FixExample;
}

const PACKAGE_COMMAND = 'platform-ext package . --out release --private-key ~/.config/platform-ext/acme.pem';

function listOf(items: readonly string[]): string {
  return items.join(', ');
}

/** Sizes as people read them and as the contract writes them: `5 MiB (5,242,880 bytes)`. */
function sizeText(bytes: number): string {
  return `${formatSize(bytes)} (${groupDigits(bytes)} bytes)`;
}

/** Archive rules: the finding means the ZIP was not written by `package`, or was changed after. */
function repackaged(text: string, before: string): Explanation {
  return {
    text: `${text} An archive written by platform-ext package never breaks this rule, so the finding means bundle.zip was built by another tool or changed after packaging.`,
    example: { file: 'shell', before, after: PACKAGE_COMMAND },
  };
}

function manifestExplanations(): Record<string, Explanation> {
  return {
    'manifest/too-large': {
      text: `manifest.json is signed as exact bytes and may be at most ${groupDigits(MANIFEST_MAX_BYTES)} bytes (contract "Limits"). The size is the file on disk, so indentation and line breaks count too. A larger manifest is refused without being parsed: the tool stops reading at the limit, as the store does.`,
      example: {
        file: 'manifest.json',
        before: '"help": "Pick the colour of the headline. This colour is used for … (a few kilobytes, repeated for every property)"',
        after: '"help": "Colour of the headline"',
      },
    },
    'manifest/invalid-utf8': {
      text: 'The manifest is read by this tool, the developer console and the production validator. A byte sequence that is not valid UTF-8 is replaced, dropped or refused depending on the reader, so the same signed bytes could mean different names and values. D-5 therefore requires valid UTF-8. The usual cause is an editor that saved the file as Latin-1 or Windows-1252.',
      example: {
        file: 'manifest.json',
        before: '"name": "Café lanes"   (saved as Windows-1252: "é" is the single byte 0xE9)',
        after: '"name": "Café lanes"   (saved as UTF-8: "é" is the two bytes 0xC3 0xA9)',
      },
    },
    'manifest/bom': {
      text: 'The file starts with the UTF-8 byte-order mark EF BB BF. JSON text exchanged between systems must not start with one (RFC 8259): JSON.parse refuses it while other readers skip it, and signed bytes must read the same everywhere (D-5). Some Windows editors add it when saving as "UTF-8 with BOM".',
      example: {
        file: 'manifest.json',
        before: '<EF BB BF>{"schema_version": 1, …   (saved as "UTF-8 with BOM")',
        after: '{"schema_version": 1, …   (saved as "UTF-8")',
      },
    },
    'manifest/invalid-json': {
      text: `The manifest is strict JSON (RFC 8259): double-quoted names and strings, no comments, no trailing commas, no NaN or Infinity. D-5 also refuses what JSON readers disagree on: lone surrogate escapes such as "\\uD800", numbers that overflow to infinity or underflow to zero (1e-400), and containers nested more than ${JSON_MAX_DEPTH} deep. The finding points at the line and column where reading stopped.`,
      example: {
        file: 'manifest.json',
        before: '{\n  // booking widget\n  "capabilities": ["booking.create",],',
        after: '{\n  "capabilities": ["booking.create"],',
      },
    },
    'manifest/duplicate-key': {
      text: 'An object has two members with the same name, at any depth. Readers disagree on duplicates: most keep the last, some the first, some refuse the file. Because the manifest is signed, two readers must never see different values in the same bytes (D-5). Names are compared after escapes are decoded, so "a" and "\\u0061" are the same name.',
      example: {
        file: 'manifest.json',
        before: '"version": "1.0.0",\n"name": "Lanes",\n"version": "1.1.0",',
        after: '"version": "1.1.0",\n"name": "Lanes",',
      },
    },
    'manifest/not-object': {
      text: 'The top-level JSON value must be one object holding the manifest fields. An array, a string, a number or null is valid JSON but not a manifest.',
      example: {
        file: 'manifest.json',
        before: '[{"schema_version": 1, "namespace": "acme/lanes", …}]',
        after: '{"schema_version": 1, "namespace": "acme/lanes", …}',
      },
    },
    'manifest/unknown-field': {
      text: 'Schema version 1 is closed (contract "What the service does", rule 6): a manifest has exactly schema_version, protocol_version, namespace, version, name, description, entrypoint, capabilities and properties. Any other member is refused by the store, including "$schema", which editors add for completion, and misspelled names such as "capabilites" (reported together with the missing field). For completion, map the schema in the editor settings instead (json.schemas in VS Code).',
      example: {
        file: 'manifest.json',
        before: '{\n  "$schema": "./contract-snapshot/manifest.schema.json",\n  "schema_version": 1,',
        after: '{\n  "schema_version": 1,',
      },
    },
    'manifest/missing-field': {
      text: 'Every manifest field except description is required. capabilities and properties are required even when empty ([] and {}), so that "none" is a stated choice and never an omission a later reader could fill in differently.',
      example: {
        file: 'manifest.json',
        before: '  "entrypoint": "index.html"\n}',
        after: '  "entrypoint": "index.html",\n  "capabilities": [],\n  "properties": {}\n}',
      },
    },
    'manifest/wrong-type': {
      text: 'Each field has one JSON type and values are never converted: schema_version and protocol_version are integers; namespace, version, name, description and entrypoint are strings; capabilities is an array of strings; properties is an object. "1" is not 1, and a version written as the number 1.0 is not a version string.',
      example: {
        file: 'manifest.json',
        before: '"version": 1.0,\n"capabilities": "cart.manage",',
        after: '"version": "1.0.0",\n"capabilities": ["cart.manage"],',
      },
    },
    'manifest/schema-version': {
      text: 'schema_version names the manifest schema, and 1 is the only one (contract "Versioning"). It must be written exactly 1: 1.0 and 1e0 are the same number to JSON.parse but different signed bytes, and a reader that keeps the source text would not see 1.',
      example: { file: 'manifest.json', before: '"schema_version": 1.0,', after: '"schema_version": 1,' },
    },
    'manifest/protocol-version': {
      text: 'protocol_version names the bridge protocol the extension speaks to window.PLATFORM, and 1 is the only one (contract "Versioning"). It must be written exactly 1, as an integer.',
      example: { file: 'manifest.json', before: '"protocol_version": "1",', after: '"protocol_version": 1,' },
    },
    'manifest/namespace': {
      text: 'The namespace identifies the extension for good: <publisher-slug>/<package-slug>, each slug a lowercase letter followed by lowercase letters and digits, with single hyphens between groups (no capitals, underscores, dots, double or trailing hyphens). It is part of the storage path extensions/{namespace}/{version}/bundle.zip and of the signed payload, and it cannot change once registered.',
      example: { file: 'manifest.json', before: '"namespace": "Acme/Lane_Booking",', after: '"namespace": "acme/lane-booking",' },
    },
    'manifest/version': {
      text: `The release version is a semantic version (contract "Versioning"): MAJOR.MINOR.PATCH, non-negative integers without leading zeros, then an optional -pre.release (numeric identifiers without leading zeros) and optional +build metadata. Numeric identifiers above ${SEMVER_MAX_NUMERIC} are refused (D-24): JavaScript numbers cannot compare them exactly. An approved version can never be reused, so any change after approval needs a higher one.`,
      example: { file: 'manifest.json', before: '"version": "v1.02",', after: '"version": "1.2.0",' },
    },
    'manifest/name-length': {
      text: `The name shown in the store and the builder is ${NAME_MIN_BYTES} to ${NAME_MAX_BYTES} bytes of UTF-8. Limits count bytes (D-10): an accented letter takes 2, most emoji 4.`,
      example: { file: 'manifest.json', before: '"name": "",', after: '"name": "Lane booking",' },
    },
    'manifest/control-character': {
      text: 'The strings a merchant and a reviewer read (name, description, property labels and help, option labels and values, string defaults) may not hold control characters (C0, DEL, C1) or bidirectional embeddings, overrides and isolates (D-29). Escape sequences can rewrite a terminal screen, and an override can show "no problems found" or a harmless label for text stored in another order. A textarea default may hold line breaks; nothing else may.',
      example: { file: 'manifest.json', before: '"label": "Lane \\u202enoitaroced"', after: '"label": "Lane decoration"' },
    },
    'manifest/description-length': {
      text: `The optional description is at most ${DESCRIPTION_MAX_BYTES} bytes of UTF-8 (D-10). It is a one-paragraph summary; the full text belongs in the marketplace listing.`,
      example: {
        file: 'manifest.json',
        before: '"description": "Book lanes online. Our widget shows … (several paragraphs)",',
        after: '"description": "Book lanes and parties from your storefront.",',
      },
    },
    'manifest/entrypoint-path': {
      text: 'The entrypoint names the HTML file the frame loads, as a path inside runtime/, which is the root of bundle.zip (D-1): it never starts with "runtime/" or "/". Segments use only ASCII letters, digits, ".", "_" and "-", do not start with ".", and are never "." or ".." (D-2). A backslash, "?" or "#" would be read as a separator, a query or a fragment by a URL parser.',
      example: { file: 'manifest.json', before: '"entrypoint": "./runtime/index.html",', after: '"entrypoint": "index.html",' },
    },
    'manifest/entrypoint-too-long': {
      text: `The entrypoint path is at most ${ENTRYPOINT_MAX_CHARS} characters, counted as UTF-16 code units like JavaScript's length (D-10).`,
      example: {
        file: 'manifest.json',
        before: '"entrypoint": "views/storefront/widgets/lane-booking/…/index.html",',
        after: '"entrypoint": "index.html",',
      },
    },
    'manifest/entrypoint-not-html': {
      text: 'The entrypoint is the one HTML file of the bundle, so its name ends in .html, in any letter case (D-2). A script, a folder or another extension (.htm, .xhtml) cannot be the entrypoint.',
      example: { file: 'manifest.json', before: '"entrypoint": "main.js",', after: '"entrypoint": "index.html",' },
    },
    'manifest/capability-unknown': {
      text: `capabilities lists keys from the closed set of protocol version 1 (contract "Capabilities and operations"): ${listOf(CAPABILITY_KEYS)}. Keys are exact and lowercase; a key outside the set cannot be granted, and the store refuses the manifest.`,
      example: {
        file: 'manifest.json',
        before: '"capabilities": ["cart.write", "Catalog.Products.Read"],',
        after: '"capabilities": ["cart.manage", "catalog.products.read"],',
      },
    },
    'manifest/capability-duplicate': {
      text: 'Each capability is requested once. The store user approves the list at installation, and every later release that adds a key triggers a new review, so the list must be a plain set.',
      example: { file: 'manifest.json', before: '"capabilities": ["cart.manage", "cart.manage"],', after: '"capabilities": ["cart.manage"],' },
    },
    'manifest/too-many-capabilities': {
      text: `The list has at most ${MAX_CAPABILITIES} entries (contract "Limits"). There are only ${CAPABILITY_KEYS.length} keys, so a longer list always holds repeated or unknown keys: fix those findings and this one goes away.`,
      example: {
        file: 'manifest.json',
        before: '"capabilities": ["cart.manage", "cart.manage", … (40 entries)],',
        after: '"capabilities": ["cart.manage", "catalog.products.read"],',
      },
    },
    'manifest/too-many-properties': {
      text: `A manifest defines at most ${MAX_PROPERTIES} properties (contract "Limits"). Each becomes a control in the store builder; group related settings (one select instead of many booleans) or drop rarely used ones.`,
      example: {
        file: 'manifest.json',
        before: '"properties": {"show_1": {…}, "show_2": {…}, … "show_80": {…}}',
        after: '"properties": {"layout": {"type": "select", "label": "Layout", "options": […]}}',
      },
    },
  };
}

function propertyExplanations(): Record<string, Explanation> {
  return {
    'property/name': {
      text: `Property names are the keys of properties, of saved settings, and of the object PLATFORM.settings() returns: a lowercase letter first, then letters, digits and underscores, at most ${PROPERTY_NAME_MAX_CHARS} characters (contract "Manifest"). Hyphens, dots and spaces are refused, so every name is also a plain JavaScript identifier.`,
      example: { file: 'manifest.json', before: '"Headline-Color": {"type": "color", …}', after: '"headline_color": {"type": "color", …}' },
    },
    'property/wrong-type': {
      text: 'A definition and each option is an object; type, label, help and option texts are strings; required is a boolean; min and max are numbers; options is an array. Saved settings (preview, store) are one object. Values are never converted: "true" is not true.',
      example: {
        file: 'manifest.json',
        before: '"columns": {"type": "number", "label": "Columns", "required": "yes", "max": "6"}',
        after: '"columns": {"type": "number", "label": "Columns", "required": true, "max": 6, "default": 3}',
      },
    },
    'property/unknown-field': {
      text: 'Property definitions are closed like the manifest (contract rule 6): type, label, default, required, help, options, min and max; an option has only label and value. Fields that other builders know (placeholder, step, description) are refused.',
      example: {
        file: 'manifest.json',
        before: '"title": {"type": "text", "label": "Title", "placeholder": "Welcome"}',
        after: '"title": {"type": "text", "label": "Title", "help": "For example: Welcome"}',
      },
    },
    'property/missing-field': {
      text: 'Every definition needs a type and a label; every select option needs a label and a value. Without them the builder cannot show a control.',
      example: { file: 'manifest.json', before: '"accent": {"type": "color"}', after: '"accent": {"type": "color", "label": "Accent colour"}' },
    },
    'property/unknown-type': {
      text: 'type is one of the eight property types: boolean, color, image, number, select, text, textarea and url. Each maps to one builder control and one value rule.',
      example: { file: 'manifest.json', before: '"title": {"type": "string", "label": "Title"}', after: '"title": {"type": "text", "label": "Title"}' },
    },
    'property/label-length': {
      text: `The label shown next to the control is ${LABEL_MIN_BYTES} to ${LABEL_MAX_BYTES} bytes of UTF-8 (contract "Limits"; D-10 counts bytes).`,
      example: { file: 'manifest.json', before: '"accent": {"type": "color", "label": ""}', after: '"accent": {"type": "color", "label": "Accent colour"}' },
    },
    'property/help-length': {
      text: `The optional help text under the control is at most ${HELP_MAX_BYTES} bytes of UTF-8 (contract "Limits"; D-10). Keep it to a sentence; longer documentation belongs in the listing.`,
      example: {
        file: 'manifest.json',
        before: '"help": "This colour is used for the headline, the buttons, the borders … (several sentences)"',
        after: '"help": "Used for the headline and buttons"',
      },
    },
    'property/options-missing': {
      text: 'A select offers only its options, so it needs an options array (contract "Errors": a select lacks options). Without it no value could ever be valid.',
      example: {
        file: 'manifest.json',
        before: '"layout": {"type": "select", "label": "Layout"}',
        after: '"layout": {"type": "select", "label": "Layout", "default": "grid",\n  "options": [{"label": "Grid", "value": "grid"}, {"label": "List", "value": "list"}]}',
      },
    },
    'property/options-forbidden': {
      text: 'options belong to select only; on any other type the builder would ignore them and the value rule would not use them, so they are refused.',
      example: {
        file: 'manifest.json',
        before: '"size": {"type": "text", "label": "Size", "options": [{"label": "Small", "value": "s"}]}',
        after: '"size": {"type": "select", "label": "Size", "options": [{"label": "Small", "value": "s"}]}',
      },
    },
    'property/options-count': {
      text: `A select has ${SELECT_OPTIONS_MIN} to ${SELECT_OPTIONS_MAX} options (contract "Limits"). An empty list offers nothing; a longer list is better served by a text property.`,
      example: {
        file: 'manifest.json',
        before: '"size": {"type": "select", "label": "Size", "options": []}',
        after: '"size": {"type": "select", "label": "Size", "options": [{"label": "Small", "value": "s"}]}',
      },
    },
    'property/option-length': {
      text: `Each option label and value is a string of ${OPTION_TEXT_MIN_CHARS} to ${OPTION_TEXT_MAX_CHARS} characters, counted as UTF-16 code units (D-10). An empty value could not be told apart from no setting.`,
      example: { file: 'manifest.json', before: '{"label": "None", "value": ""}', after: '{"label": "None", "value": "none"}' },
    },
    'property/option-duplicate': {
      text: 'Option values are unique within a select: a saved setting stores only the value, so two options with one value could not be told apart (D-7). Labels may repeat.',
      example: {
        file: 'manifest.json',
        before: '[{"label": "Small", "value": "s"}, {"label": "Short", "value": "s"}]',
        after: '[{"label": "Small", "value": "small"}, {"label": "Short", "value": "short"}]',
      },
    },
    'property/range-forbidden': {
      text: 'min and max bound number properties only; on other types they would mean nothing, so they are refused.',
      example: {
        file: 'manifest.json',
        before: '"title": {"type": "text", "label": "Title", "max": 40}',
        after: '"title": {"type": "text", "label": "Title", "help": "Up to 40 characters"}',
      },
    },
    'property/range-inverted': {
      text: 'min must not be greater than max: with an inverted range no value, default or setting, could be valid.',
      example: { file: 'manifest.json', before: '"columns": {"type": "number", "label": "Columns", "min": 6, "max": 1}', after: '"columns": {"type": "number", "label": "Columns", "min": 1, "max": 6}' },
    },
    'property/value-type': {
      text: 'A default, and every saved setting, has its property\'s type: true or false for boolean, a finite number for number, a string for every other type (D-7; contract "Errors": a default does not match its type). Quoted numbers and booleans are strings.',
      example: { file: 'manifest.json', before: '"columns": {"type": "number", "label": "Columns", "default": "3"}', after: '"columns": {"type": "number", "label": "Columns", "default": 3}' },
    },
    'property/value-too-large': {
      text: `String values have a UTF-8 byte limit per type (contract "Limits"; D-10): color ${VALUE_MAX_BYTES.color}, select ${VALUE_MAX_BYTES.select}, text ${VALUE_MAX_BYTES.text}, textarea ${VALUE_MAX_BYTES.textarea}, url ${VALUE_MAX_BYTES.url} and image ${VALUE_MAX_BYTES.image}. A longer text usually wants the textarea type; longer content belongs in the bundle.`,
      example: {
        file: 'manifest.json',
        before: '"intro": {"type": "text", "label": "Intro", "default": "Welcome to … (two paragraphs)"}',
        after: '"intro": {"type": "textarea", "label": "Intro", "default": "Welcome to … (two paragraphs)"}',
      },
    },
    'property/value-format': {
      text: `A color is "#" and six or eight hex digits (#rrggbb or #rrggbbaa; no names, #rgb or rgb()). A url or image (D-9) is empty, or site-relative (one leading "/", no whitespace, backslash or control characters), or an http or https URL whose host is a DNS name, an IPv4 address or a bracketed IPv6 address, with an optional port of 1 to ${URL_PORT_MAX_DIGITS} digits and no user:password@. The store builder and the frame then read every value the same way.`,
      example: {
        file: 'manifest.json',
        before: '"accent": {"type": "color", "label": "Accent", "default": "red"},\n"logo": {"type": "image", "label": "Logo", "default": "www.example.com/logo.png"}',
        after: '"accent": {"type": "color", "label": "Accent", "default": "#ff0000"},\n"logo": {"type": "image", "label": "Logo", "default": "https://www.example.com/logo.png"}',
      },
    },
    'property/value-not-option': {
      text: 'A select default or saved setting equals the value of one of its options exactly (D-7): the value, not the label, compared case-sensitively.',
      example: { file: 'manifest.json', before: '"default": "Grid",   (the option is {"label": "Grid", "value": "grid"})', after: '"default": "grid",' },
    },
    'property/value-out-of-range': {
      text: 'A number default or saved setting lies within min and max, both inclusive (D-7).',
      example: { file: 'manifest.json', before: '"columns": {"type": "number", "label": "Columns", "min": 1, "max": 6, "default": 0}', after: '"columns": {"type": "number", "label": "Columns", "min": 1, "max": 6, "default": 1}' },
    },
    'property/required-default': {
      text: 'required: true means the value is never empty, so the extension must work right after installation: a string-valued type (color, image, select, text, textarea, url) needs a default with at least one non-whitespace character, and a boolean or number needs a default at all (D-8; contract "Errors": a required string property has a blank default).',
      example: {
        file: 'manifest.json',
        before: '"title": {"type": "text", "label": "Title", "required": true, "default": " "}',
        after: '"title": {"type": "text", "label": "Title", "required": true, "default": "Book a lane"}',
      },
    },
    'property/defaults-too-large': {
      text: `All defaults together are at most ${groupDigits(DEFAULTS_MAX_BYTES)} bytes, measured as the UTF-8 length of JSON.stringify of the object that maps each property with a default to that default (D-6). Long texts belong in the bundle, not in defaults.`,
      example: {
        file: 'manifest.json',
        before: '"terms": {"type": "textarea", "label": "Terms", "default": "… (the full terms, 4 KB)"}, … (five of these)',
        after: '"terms_url": {"type": "url", "label": "Terms page", "default": "/pages/terms"}',
      },
    },
    'property/setting-unknown': {
      text: 'Saved settings may name only properties of the manifest; the store rejects unknown settings. This happens after a property was renamed or removed while settings (for example in preview) still use the old name.',
      example: { file: 'settings', before: '{"headline": "Hi", "old_title": "Welcome"}', after: '{"headline": "Hi"}' },
    },
    'property/settings-too-large': {
      text: `Saved settings are at most ${groupDigits(SETTINGS_MAX_BYTES)} bytes, measured like defaults: the UTF-8 length of JSON.stringify of the settings object (D-6).`,
      example: {
        file: 'settings',
        before: '{"intro": "… (a long text pasted into every textarea)", …}',
        after: '{"intro": "A short welcome", …}',
      },
    },
  };
}

function bundleExplanations(): Record<string, Explanation> {
  return {
    'project/manifest-missing': {
      text: 'A project is a folder with manifest.json at its top and runtime/ beside it. The folder given has no manifest.json: usually the command was pointed at a parent folder or at runtime/ itself.',
      example: { file: 'shell', before: 'platform-ext check my-extension/runtime', after: 'platform-ext check my-extension' },
    },
    'project/manifest-not-regular-file': {
      text: 'manifest.json is read only when it is a regular file in the project folder itself (D-30): it is opened without following links and without waiting, and checked on the open file. A link would make the tool check and sign bytes from somewhere else, a named pipe or device could make it wait forever, and a folder has no content. In a release folder the same rule speaks for manifest.json.',
      example: { file: 'layout', before: 'my-extension/manifest.json -> ../common/manifest.json', after: 'my-extension/manifest.json   (a regular file, copied by the build step)' },
    },
    'project/snapshot-stale': {
      text: 'init writes contract-snapshot/ (rules, limits, runtime policy, bridge protocol) so that editors, CI and AI agents read the same contract as the tool. A file there differs from, is missing from, or is extra to the contract this version of the tool enforces: the project was made by another version, or the files were edited. The contract says a scaffold is regenerated to adopt a newer contract and its snapshot files are never edited by hand (Versioning). It is a warning: the checks themselves always use the tool\'s own contract.',
      example: { file: 'shell', before: '(contract-snapshot/rules.json edited by hand, or written by an older platform-ext)', after: 'platform-ext init --refresh' },
    },
    'project/context-stale': {
      text: 'CONTEXT.md, written by init, is the one-file context document (contract, schema, API declarations, a reference extension) for people and AI agents working on the project. It differs from the document of the contract this version of the tool enforces, so whoever reads it would work from an outdated or edited contract (Versioning). It is a warning; a CONTEXT.md of your own (without the generated marker) is left alone.',
      example: { file: 'shell', before: '(CONTEXT.md written by an older platform-ext)', after: 'platform-ext init --refresh' },
    },
    'bundle/missing-runtime': {
      text: 'Only runtime/ is packaged: it becomes the root of bundle.zip, and the entrypoint is relative to it (D-1). Without it there is nothing to publish. The name is exact and lowercase.',
      example: {
        file: 'layout',
        before: 'my-extension/\n  manifest.json\n  index.html\n  main.js',
        after: 'my-extension/\n  manifest.json\n  runtime/\n    index.html\n    main.js',
      },
    },
    'bundle/path-invalid': {
      text: 'Bundle paths become ZIP entry names and URLs on the release origin, so every segment is 1 or more ASCII letters, digits, ".", "_" or "-", and never starts with "." (D-2). Spaces, non-ASCII letters, "%" and hidden files such as .DS_Store or ._logo.png (macOS metadata) are refused. Nothing under runtime/ is skipped silently (D-3), so such files are findings, not omissions.',
      example: { file: 'layout', before: 'runtime/images/Hero Image.png\nruntime/.DS_Store', after: 'runtime/images/hero-image.png' },
    },
    'bundle/extension-not-allowed': {
      text: `Only files with these extensions can be in the bundle: ${listOf(ALLOWED_EXTENSIONS)} (any letter case, D-2). Everything under runtime/ is packaged (D-3), so another file type is an error instead of being left out: JSON, Markdown, source maps, TypeScript, SVG files, lock files, tests and licenses. Keep sources outside runtime/ and build into it; put data in a .js module; inline SVG in the HTML or convert it.`,
      example: { file: 'layout', before: 'runtime/main.js.map\nruntime/config.json', after: 'runtime/config.js   (export default { … })' },
    },
    'bundle/entrypoint-missing': {
      text: 'The manifest\'s entrypoint must name a file under runtime/, with the same letter case: storage is case-sensitive even when your disk is not (D-1).',
      example: { file: 'manifest.json', before: '"entrypoint": "Index.html",   (the file is runtime/index.html)', after: '"entrypoint": "index.html",' },
    },
    'bundle/extra-html': {
      text: 'A bundle has exactly one HTML file, the entrypoint (contract "Bundle"). Another page could never be shown, because the frame must not navigate, and it would escape the entrypoint checks. Build extra views with JavaScript in the one page.',
      example: { file: 'layout', before: 'runtime/index.html\nruntime/about.html', after: 'runtime/index.html\nruntime/about.js   (renders the about view)' },
    },
    'bundle/case-collision': {
      text: 'Two paths differ only by letter case (compared after ASCII lowercasing, D-2). On case-insensitive disks (macOS, Windows) and in some storage they are one file, so which one is served would depend on where the bundle is unpacked.',
      example: { file: 'layout', before: 'runtime/Logo.png\nruntime/logo.png', after: 'runtime/logo.png' },
    },
    'bundle/symlink': {
      text: 'Symbolic links are not allowed in a bundle (contract "Bundle"): a link can point outside the project, ZIP has no portable way to store one, and following it would package a file the publisher never looked at.',
      example: { file: 'layout', before: 'runtime/vendor -> ../node_modules/lib/dist', after: 'runtime/vendor/lib.js   (a copy made by the build step)' },
    },
    'bundle/not-regular-file': {
      text: 'Only regular files can be packaged (D-3). A device, socket or named pipe under runtime/ has no content to archive, and reading a pipe could block forever.',
      example: { file: 'layout', before: 'runtime/debug.fifo   (a named pipe)', after: '(removed from runtime/)' },
    },
    'bundle/unreadable-file': {
      text: 'Everything under runtime/ is packaged (D-3), so a file that cannot be read (permissions, a broken mount) is an error rather than being skipped.',
      example: { file: 'shell', before: '$ ls -l runtime/logo.png\n--w------- 1 root root 2048 logo.png', after: '$ chmod a+r runtime/logo.png' },
    },
    'bundle/path-too-long': {
      text: `Every bundle path, relative to runtime/ (or an entry name inside bundle.zip), is at most ${BUNDLE_PATH_MAX_BYTES} bytes, the limit the contract sets for the entrypoint (D-2a). Longer names break extractors and file systems with a 255-byte name limit, and a 64 KB ZIP entry name is a way to make logs and reports unreadable.`,
      example: { file: 'layout', before: 'runtime/assets/generated/chunk-…(300 characters)….js', after: 'runtime/assets/chunk-3f9a2c.js' },
    },
    'bundle/path-prefix-conflict': {
      text: 'No bundle path is both a file and the folder of another file (D-2a), compared ignoring ASCII letter case as collisions are (D-2). A runtime/ folder on a case-sensitive disk can hold "Lib.js" beside "lib.js/x.js", and an archive can list "lib" beside "lib/x.js"; extractors then disagree on which one exists, so the release would not be the same files everywhere.',
      example: { file: 'layout', before: 'bundle.zip: lib   and   lib/x.js', after: 'bundle.zip: lib.js   and   lib/x.js' },
    },
    'bundle/too-many-files': {
      text: `A bundle holds at most ${BUNDLE_MAX_FILES} files (contract "Limits"). Bundle the modules with a build step, combine icons into a sprite or inline SVG, and remove unused assets.`,
      example: { file: 'layout', before: 'runtime/icons/a.png … runtime/icons/z.png (240 files)', after: 'runtime/icons.png   (one sprite)' },
    },
    'bundle/file-too-large': {
      text: `One file is at most ${sizeText(BUNDLE_MAX_FILE_BYTES)} (contract "Limits"). The loader does not read a file whose size already breaks the limit. Re-encode images (WebP, AVIF), subset fonts, and split or minify code.`,
      example: { file: 'layout', before: 'runtime/images/hero.png   (9.6 MiB)', after: 'runtime/images/hero.webp   (410 KiB)' },
    },
    'bundle/expanded-too-large': {
      text: `All bundle files together are at most ${sizeText(BUNDLE_MAX_EXPANDED_BYTES)} before compression (contract "Limits").`,
      example: { file: 'layout', before: 'runtime/images/   (64 photos at full resolution)', after: 'runtime/images/   (the same photos resized for the widget)' },
    },
    'bundle/unreferenced-module': {
      text: 'JavaScript runs in the frame only as local modules, loaded by a <script type="module" src> in the entrypoint or imported by another module (contract "Bundle": JavaScript). A .js file that nothing loads is dead weight, or a sign of a mistyped import path or of a module reached only by a computed dynamic import. It is a warning: the release is still valid.',
      example: { file: 'runtime/main.js', before: "import { renderList } from './list.js';   (runtime/grid.js is never imported)", after: "import { renderList } from './list.js';\nimport { renderGrid } from './grid.js';" },
    },
    'secret/private-key': {
      text: 'Key custody (contract "Authentication" 5): the private signing key is never part of a project, bundle, submission or source control. Every file of the project except node_modules/ and .git/ is scanned for PEM private-key markers (D-4). Whoever holds the key can sign releases in your name: if the file was ever committed, pushed or shared, add a new key in the console, sign with it, and revoke the old one.',
      example: {
        file: 'layout',
        before: 'my-extension/\n  manifest.json\n  signing.pem   (-----BEGIN PRIVATE KEY-----)',
        after: '~/.config/platform-ext/acme.pem   (outside every project)\nmy-extension/.gitignore: *.pem and *.key',
      },
    },
    'secret/not-scanned': {
      text: `The private-key scan (D-4) reads every file of the project outside runtime/, node_modules/ and .git/, and every extra file of a release folder. A file it cannot read is named in this warning rather than skipped in silence (D-30): one it has no permission to read, a named pipe, device or socket (opened without waiting, never read), or a file over ${sizeText(KEY_SCAN_MAX_BYTES)} (refused by the size of the open file, never read to its end). Links are not followed and not scanned: their targets are not part of the folder.`,
      example: { file: 'layout', before: 'my-extension/\n  recording.fifo   (a named pipe)\n  backup.img   (20 GB)', after: 'my-extension/   (the pipe and the image moved elsewhere)' },
    },
  };
}

function htmlExplanations(): Record<string, Explanation> {
  return {
    'html/invalid-utf8': {
      text: 'The frame decodes the entrypoint as UTF-8 and every check reads it that way (D-22). Invalid byte sequences become U+FFFD in a browser but are read differently by other tools, which is enough to hide markup from a checker. A byte-order mark is allowed.',
      example: { file: 'runtime/index.html', before: '<h1>Café</h1>   (saved as Windows-1252)', after: '<h1>Café</h1>   (saved as UTF-8)' },
    },
    'html/nul-character': {
      text: 'U+0000 is replaced, dropped or kept depending on the HTML tokenizer state and on the tool, a classic way to make one element read as two (D-22). It never belongs in a page.',
      example: { file: 'runtime/index.html', before: '<div title="a\u2400b">   (\u2400 stands for a U+0000 byte)', after: '<div title="ab">' },
    },
    'html/meta-charset': {
      text: 'The entrypoint is always decoded as UTF-8 (D-22). A <meta charset> or http-equiv content-type naming another encoding would make tools that honour it read different text than the browser does. Only the label "utf-8" is accepted (any letter case); aliases such as "utf8" are not.',
      example: { file: 'runtime/index.html', before: '<meta charset="iso-8859-1">', after: '<meta charset="utf-8">' },
    },
    'html/inline-script': {
      text: 'The runtime policy loads scripts only from the release\'s files (D-17), so inline code never runs in production, and the contract refuses it (Bundle: no inline JavaScript; D-18). Move the code into a module file of the bundle.',
      example: {
        file: 'runtime/index.html',
        before: "<script type=\"module\">\n  document.title = 'Lanes';\n</script>",
        after: "<script type=\"module\" src=\"main.js\"></script>\n(runtime/main.js: document.title = 'Lanes';)",
      },
    },
    'html/classic-script': {
      text: 'Only module scripts are allowed (D-18): <script type="module" src="…">. A classic script (no type, text/javascript, defer or async) runs in the global scope without imports and is refused, so every script follows one loading model that the checks understand.',
      example: { file: 'runtime/index.html', before: '<script src="main.js" defer></script>', after: '<script type="module" src="main.js"></script>' },
    },
    'html/script-data-block': {
      text: 'Script elements that carry data are refused (D-22): type="application/json" and other data blocks hide content the checks cannot interpret, "importmap" would redirect module loading past the reference checks, and "speculationrules" asks the browser to prefetch or navigate. Put data in a module and import it.',
      example: {
        file: 'runtime/index.html',
        before: '<script type="application/json" id="config">{"columns": 3}</script>',
        after: '(runtime/config.js: export const config = { columns: 3 };)',
      },
    },
    'html/script-body-with-src': {
      text: 'A script with src never runs its body, so text there is dead code at best and hidden content at worst (D-22). Leave the element empty.',
      example: { file: 'runtime/index.html', before: '<script type="module" src="main.js">init();</script>', after: '<script type="module" src="main.js"></script>' },
    },
    'html/foreign-script': {
      text: '<script> inside <svg> or <math> is parsed by the foreign-content rules and, in SVG, runs as a classic script, outside the module-only rule of D-18. Scripts belong in the HTML as module scripts.',
      example: { file: 'runtime/index.html', before: '<svg viewBox="0 0 10 10"><script>spin()</script>…</svg>', after: '<svg viewBox="0 0 10 10">…</svg>\n<script type="module" src="spin.js"></script>' },
    },
    'html/module-src-not-plain': {
      text: 'A module script src is a plain relative path (D-22): segments separated by "/", with "./" and "../" allowed while the result stays inside the bundle. "%" escapes, "?" queries, "#" fragments, backslashes, spaces and control characters are refused: each can make the browser and the checks resolve different files, and a query string is no cache-buster on an immutable release.',
      example: { file: 'runtime/index.html', before: '<script type="module" src="main.js?v=2"></script>', after: '<script type="module" src="main.js"></script>' },
    },
    'html/module-src-not-javascript': {
      text: 'A module script must load a .js or .mjs file of the bundle (D-18); TypeScript, JSON or other files are not JavaScript modules to a browser.',
      example: { file: 'runtime/index.html', before: '<script type="module" src="app.ts"></script>', after: '<script type="module" src="app.js"></script>' },
    },
    'html/event-handler-attribute': {
      text: 'on* attributes (onclick, onload, onerror …) are inline JavaScript: the runtime policy blocks them (D-17) and the contract refuses them (Bundle: no inline event handlers). Attach listeners from a module script.',
      example: {
        file: 'runtime/index.html',
        before: '<button onclick="book()">Book</button>',
        after: "<button id=\"book\">Book</button>\n(runtime/main.js: document.getElementById('book').addEventListener('click', book);)",
      },
    },
    'html/javascript-url': {
      text: 'javascript: and vbscript: URLs are inline code in an attribute (href, src, action, formaction, xlink:href …). They are found after character references are decoded (D-22), so "&#106;avascript:" is caught too.',
      example: { file: 'runtime/index.html', before: '<a href="javascript:openCart()">Cart</a>', after: '<button type="button" id="cart">Cart</button>   (listener in main.js)' },
    },
    'html/remote-reference': {
      text: 'The frame cannot reach the network (contract rule 5): the runtime policy loads resources only from the release (D-17), so a reference to another origin (https://…, //host/…) fails in production even when it works in a plain page (D-19). Copy stylesheets, scripts, images and fonts into runtime/.',
      example: { file: 'runtime/index.html', before: '<link rel="stylesheet" href="https://cdn.example.com/reset.css">', after: '<link rel="stylesheet" href="vendor/reset.css">' },
    },
    'html/missing-reference': {
      text: 'Local references (src, href, srcset, poster …) must resolve to a file of the bundle (D-19), relative to the entrypoint\'s folder and with the exact letter case. A missing file is a broken page in production.',
      example: { file: 'runtime/index.html', before: '<img src="img/Logo.PNG" alt="Logo">', after: '<img src="images/logo.png" alt="Logo">' },
    },
    'html/reference-outside-bundle': {
      text: 'A reference starting with "/" resolves against the storefront\'s origin, and "../" above runtime/ leaves the release: either way it names a file that is not part of the signed bundle (D-19).',
      example: { file: 'runtime/index.html', before: '<img src="/images/logo.png" alt="Logo">', after: '<img src="images/logo.png" alt="Logo">' },
    },
    'html/data-url-not-image': {
      text: 'The runtime policy allows data: URLs for images only (D-17): img, picture source, input type=image, video poster and SVG image. A data: URL for a stylesheet, script, font, media or link is blocked (D-19).',
      example: { file: 'runtime/index.html', before: '<link rel="stylesheet" href="data:text/css,body{margin:0}">', after: '<link rel="stylesheet" href="styles.css">' },
    },
    'html/navigation-link': {
      text: 'The frame must not navigate (contract "Behaviour notes"; D-22): a link whose href is not a #fragment would replace the extension or try to move the storefront, and version 1 has no product-navigation action. Use #fragments for in-page anchors, or a button whose listener calls a PLATFORM action that opens the flow.',
      example: { file: 'runtime/index.html', before: '<a href="/products/42">View</a>', after: '<a href="#details">View details</a>' },
    },
    'html/animated-href': {
      text: 'SVG <animate> and <set> can change href or xlink:href while the page runs, turning a harmless #fragment link into a navigation after the checks ran. Animated href values must be #fragments too (D-22).',
      example: { file: 'runtime/index.html', before: '<set attributeName="href" to="https://example.com/" begin="2s"/>', after: '<set attributeName="href" to="#step-2" begin="2s"/>' },
    },
    'html/authored-csp': {
      text: 'The platform serves one runtime policy for every extension (D-17). An authored <meta http-equiv="Content-Security-Policy"> could only narrow it, would make preview and production differ, and is refused by the contract (Bundle: no authored content-security-policy declarations).',
      example: { file: 'runtime/index.html', before: '<meta http-equiv="Content-Security-Policy" content="default-src \'self\'">', after: '(removed: the platform\'s policy applies)' },
    },
    'html/meta-refresh': {
      text: '<meta http-equiv="refresh"> reloads or navigates the frame after a delay, and the frame must not navigate (contract "Behaviour notes"; D-22). Update the page from a module script instead.',
      example: { file: 'runtime/index.html', before: '<meta http-equiv="refresh" content="60">', after: '(runtime/main.js: setInterval(refreshAvailability, 60_000);)' },
    },
    'html/base-element': {
      text: '<base> changes how every relative URL of the page resolves. The platform injects its own base URL at launch (D-18), and a second one would send references elsewhere or fight the injected one.',
      example: { file: 'runtime/index.html', before: '<base href="https://cdn.example.com/widget/">', after: '(removed: relative URLs resolve against the release)' },
    },
    'html/frame-element': {
      text: 'The extension frame cannot contain frames (iframe, frame, frameset, portal, fencedframe): the runtime policy has frame-src \'none\' (D-17) and the contract refuses them in the entrypoint.',
      example: { file: 'runtime/index.html', before: '<iframe src="https://maps.example.com/embed?q=lanes"></iframe>', after: '<img src="images/map.png" alt="Map to our lanes">' },
    },
    'html/plugin-element': {
      text: '<object>, <embed> and <applet> load plug-in or external content; the runtime policy has object-src \'none\' (D-17) and the contract refuses them.',
      example: { file: 'runtime/index.html', before: '<object data="logo.svg" type="image/svg+xml"></object>', after: '<svg viewBox="0 0 64 64">…</svg>   (inline SVG)' },
    },
    'html/noscript': {
      text: '<noscript> content is markup when scripting is off and raw text when it is on. A checker parsing with scripting off would see elements the browser never creates, and the frame always runs scripts, so the element is refused (D-22).',
      example: { file: 'runtime/index.html', before: '<noscript><img src="pixel.gif" alt=""></noscript>', after: '(removed: scripting is always on in the frame)' },
    },
    'html/legacy-raw-text-element': {
      text: 'xmp, noembed, noframes and plaintext are obsolete elements whose content browsers read as raw text but some tools read as markup, a known way to hide markup from a checker (D-22).',
      example: { file: 'runtime/index.html', before: '<xmp><b>bold</b></xmp>', after: '<pre>&lt;b&gt;bold&lt;/b&gt;</pre>' },
    },
    'html/ambiguous-markup': {
      text: 'Some markup is parsed two ways: "<" inside raw text after <svg>, <math>, <select> or <template>, and CDATA sections, where a browser\'s tree builder and simpler tokenizers disagree about where elements start (the pattern behind mutation XSS). It is refused so every parser reads the same elements (D-22).',
      example: { file: 'runtime/index.html', before: '<svg><style><img src="x.png"></style></svg>', after: '<svg><style>circle { fill: #ff0000; }</style></svg>' },
    },
    'html/duplicate-attribute': {
      text: 'When an element repeats an attribute, browsers keep the first and some tools keep the last, so the checks and the browser could see different values (D-22). Every repeat is an error.',
      example: { file: 'runtime/index.html', before: '<img src="logo.png" alt="Logo" src="logo-2x.png">', after: '<img src="logo.png" srcset="logo-2x.png 2x" alt="Logo">' },
    },
    'html/form-element': {
      text: 'Form submission is blocked in the frame (the runtime policy has form-action \'none\', D-17), and submitting would navigate. A form still works for layout and validation when a submit listener calls preventDefault() and sends the fields with PLATFORM.forms.submit (capability forms.submit). It is a warning because a form handled that way is fine.',
      example: {
        file: 'runtime/main.js',
        before: '<form action="/contact" method="post">   (in index.html, no listener)',
        after: "form.addEventListener('submit', async (event) => {\n  event.preventDefault();\n  await PLATFORM.forms.submit('contact', fields(form));\n});",
      },
    },
  };
}

function cssExplanations(): Record<string, Explanation> {
  return {
    'css/remote-url': {
      text: 'The runtime policy loads images and fonts only from the release (images also data:), so a url(), image-set() or @font-face source on another origin (https://…, //host/…) fails in production (D-17; D-19). This applies to stylesheets, <style> elements and style="" attributes.',
      example: { file: 'runtime/styles.css', before: 'background: url(https://cdn.example.com/hero.jpg);', after: 'background: url(images/hero.jpg);' },
    },
    'css/import-remote': {
      text: 'Styles load only from the release (D-17): an @import of another origin\'s stylesheet (a web-font service, a CDN) is blocked. Copy the stylesheet and the fonts it names into runtime/.',
      example: { file: 'runtime/styles.css', before: '@import url("https://fonts.example.com/css2?family=Inter");', after: '@import "fonts/inter.css";' },
    },
    'css/import-data': {
      text: 'data: URLs are allowed for images only; the runtime policy blocks them for stylesheets (D-17), so an @import of a data: URL never loads.',
      example: { file: 'runtime/styles.css', before: '@import url("data:text/css,body{margin:0}");', after: 'body { margin: 0; }' },
    },
    'css/data-font': {
      text: 'Fonts load only from the release (D-17): a data: URL in an @font-face src is blocked. Every url() inside @font-face counts as a font source.',
      example: {
        file: 'runtime/styles.css',
        before: 'src: url(data:font/woff2;base64,d09GMgABAAAAA…) format("woff2");',
        after: 'src: url(fonts/inter.woff2) format("woff2");',
      },
    },
    'css/root-relative-url': {
      text: 'A URL starting with one "/" resolves against the storefront\'s origin, not the release: the file would be looked up on the site, outside the signed bundle (D-19).',
      example: { file: 'runtime/css/site.css', before: 'background: url(/images/a.png);', after: 'background: url(../images/a.png);' },
    },
    'css/url-outside-bundle': {
      text: 'A relative URL that climbs above runtime/ with "../" names a file that is not packaged (D-19).',
      example: { file: 'runtime/styles.css', before: 'background: url(../assets/bg.png);', after: 'background: url(assets/bg.png);   (file moved to runtime/assets/)' },
    },
    'css/missing-reference': {
      text: 'Local CSS references resolve relative to the stylesheet (for <style> and style="", to the entrypoint) and must name a file of the bundle with the exact letter case (D-19). A query or fragment is ignored when matching.',
      example: { file: 'runtime/styles.css', before: 'background: url(Images/Hero.JPG);', after: 'background: url(images/hero.jpg);' },
    },
    'css/bad-url': {
      text: 'An unquoted url() containing a quote, "(", whitespace inside the path or a bad escape is a bad-url token: browsers drop the whole declaration, so the style silently does not apply (CSS Syntax 3). It is a warning because nothing is loaded from it.',
      example: { file: 'runtime/styles.css', before: 'background: url(images/hero.png");', after: 'background: url("images/hero.png");' },
    },
    'css/invalid-utf8': {
      text: 'The stylesheet is decoded as UTF-8; invalid bytes show as U+FFFD, which breaks content: strings and font names written in another encoding. It is a warning because the file is still scanned the way a browser decodes it.',
      example: { file: 'runtime/styles.css', before: '.price::after { content: "€"; }   (saved as Windows-1252)', after: '.price::after { content: "€"; }   (saved as UTF-8)' },
    },
    'css/remote-url-in-custom-property': {
      text: 'A custom property holds text, and var() pastes that text where it is used: a string like "https://…" in a custom property becomes a remote image URL inside image-set(), image() or src(). The frame loads nothing from outside the release (D-17, D-34), so a declaration whose remote string reaches such a position in the same stylesheet is an error, like a remote url().',
      example: { file: 'runtime/styles.css', before: ':root { --hero: "https://cdn.example/hero.png"; } .a { background-image: image-set(var(--hero) 1x); }', after: ':root { --hero: "../images/hero.png"; } .a { background-image: image-set(var(--hero) 1x); }' },
    },
    'css/charset-not-utf8': {
      text: 'The check reads every stylesheet as UTF-8. A browser that gets no encoding from the server honours an @charset rule at the start of the file, so a stylesheet declaring another encoding (iso-2022-jp, shift_jis, windows-1252) may be decoded into different text from the one checked, and escape sequences of some encodings can hide characters. Only a UTF-8 label is allowed.',
      example: { file: 'runtime/styles.css', before: '@charset "iso-2022-jp";', after: '@charset "utf-8";' },
    },
  };
}

function jsExplanations(): Record<string, Explanation> {
  return {
    'js/invalid-utf8': {
      text: 'Browsers always decode module scripts as UTF-8. Bytes in another encoding change string literals and can change what the lexer sees, so the checks and the browser would read different code (D-19).',
      example: { file: 'runtime/main.js', before: "const label = 'Café';   (saved as Windows-1252)", after: "const label = 'Café';   (saved as UTF-8)" },
    },
    'js/syntax-error': {
      text: 'The module lexer met something a browser would reject: an unterminated string, template, comment or regular expression, unbalanced brackets, or a stray character. A module that does not parse never runs, and nothing it imports runs either. It is a warning because the lexer is not a full parser; node --check file.mjs shows the exact error.',
      example: { file: 'runtime/main.js', before: "const message = 'Book now;", after: "const message = 'Book now';" },
    },
    'js/bare-specifier': {
      text: 'A bare specifier (lodash-es, react) resolves only through an import map or a bundler. The frame has neither: import maps are refused (D-22) and there is no network (D-19). Bundle the dependency into runtime/ with a build step, or copy its ES module file and import it by a relative path.',
      example: { file: 'runtime/main.js', before: "import { debounce } from 'lodash-es';", after: "import { debounce } from './vendor/debounce.js';" },
    },
    'js/remote-import': {
      text: 'Imports of https:, //host, data: or blob: URLs are blocked: the runtime policy loads scripts only from the release (D-17), and a site never runs code fetched from elsewhere (contract rule 2).',
      example: { file: 'runtime/main.js', before: "import confetti from 'https://cdn.example.com/confetti.mjs';", after: "import confetti from './vendor/confetti.mjs';" },
    },
    'js/root-relative-import': {
      text: 'A specifier starting with a single "/" resolves against the storefront\'s origin, outside the release (D-19).',
      example: { file: 'runtime/main.js', before: "import { api } from '/js/api.js';", after: "import { api } from './api.js';" },
    },
    'js/import-outside-bundle': {
      text: 'A relative specifier that climbs above runtime/ names a file that is not packaged (D-19), typically shared source that lives next to runtime/ instead of inside it.',
      example: { file: 'runtime/main.js', before: "import { format } from '../common/format.js';", after: "import { format } from './lib/format.js';   (copied by the build)" },
    },
    'js/import-not-plain': {
      text: 'Import specifiers follow the plain-path rule of a module script src (D-22): no "%" escapes, "?" queries, "#" fragments, backslashes, spaces or control characters, so the browser and the checks resolve the same file.',
      example: { file: 'runtime/main.js', before: "import './widget.js?v=3';", after: "import './widget.js';" },
    },
    'js/missing-module': {
      text: 'The imported file is not in the bundle (D-19). Check the path relative to the importing module and the letter case: storage is case-sensitive even when your disk is not.',
      example: { file: 'runtime/main.js', before: "import { Cart } from './Cart.js';   (the file is runtime/cart.js)", after: "import { Cart } from './cart.js';" },
    },
    'js/not-javascript-module': {
      text: 'Only .js and .mjs files can be imported as modules (D-18): importing a stylesheet, an image or a font works only with a bundler, never in the frame.',
      example: { file: 'runtime/main.js', before: "import './styles.css';", after: '(in index.html) <link rel="stylesheet" href="styles.css">' },
    },
    'js/module-type-attribute': {
      text: 'An import with { type: \'json\' } or { type: \'css\' } loads a JSON or CSS module: JSON files cannot be in the bundle, and CSS module scripts do not load in every browser (D-19). Use a .js module for data and a link element for styles.',
      example: { file: 'runtime/main.js', before: "import config from './config.json' with { type: 'json' };", after: "import config from './config.js';   (export default { … })" },
    },
    'js/dynamic-import-unchecked': {
      text: 'import() with a computed specifier cannot be resolved ahead of time, so the checks cannot tell whether the target exists or stays inside the release (D-19). At run time the policy still refuses other origins. It is a warning; a string literal per target makes every import checkable.',
      example: {
        file: 'runtime/main.js',
        before: 'const view = await import(`./views/${name}.js`);',
        after: "const VIEWS = { list: () => import('./views/list.js'), grid: () => import('./views/grid.js') };\nconst view = await VIEWS[name]();",
      },
    },
    'js/network-api': {
      text: `The frame cannot reach the network (contract rule 5): the runtime policy has connect-src 'none' and worker-src 'none' (D-17), so ${listOf(BLOCKED_NETWORK_APIS)} fail in production even when they work in a plain page. Store data comes through the bridge. It is a warning because APIs are found by name and the call may never run.`,
      example: { file: 'runtime/main.js', before: "const products = await (await fetch('/api/products')).json();", after: "const { products } = await PLATFORM.catalog.products({ search: 'shoes' });" },
    },
    'js/webrtc': {
      text: 'RTCPeerConnection and its relatives can open network connections that a content-security policy does not govern, so WebRTC would let the frame reach the network despite contract rule 5 (D-17). Unlike the other network APIs, this is an error.',
      example: { file: 'runtime/main.js', before: 'const peer = new RTCPeerConnection();', after: '(removed)' },
    },
    'js/eval-blocked': {
      text: "The runtime policy has no 'unsafe-eval' (D-17): eval, new Function and string arguments to setTimeout or setInterval throw in the frame. Some template engines and older libraries compile with Function and fail the same way. It is a warning because APIs are found by name.",
      example: { file: 'runtime/main.js', before: "setTimeout('refresh()', 1000);", after: 'setTimeout(refresh, 1000);' },
    },
    'js/storage-unavailable': {
      text: 'The frame is sandboxed without allow-same-origin, so its origin is opaque: document.cookie, localStorage, sessionStorage and indexedDB throw a SecurityError (contract rule 5; D-17). Keep state in memory for the life of the page, or make it a property the merchant configures. It is a warning because APIs are found by name.',
      example: { file: 'runtime/main.js', before: "localStorage.setItem('lane', laneId);", after: 'state.lane = laneId;   (a module-level object)' },
    },
    'js/navigation': {
      text: 'The frame must not navigate itself or the storefront, nor open popups (contract rule 5; D-22): location.assign, window.open, top.location and friends are blocked by the sandbox. Flows such as booking and waivers are opened by the host through bridge actions. It is a warning because APIs are found by name.',
      example: { file: 'runtime/main.js', before: "window.open('/booking?lane=' + laneId);", after: 'await PLATFORM.booking.start({ laneId });' },
    },
    'js/remote-url': {
      text: 'The contract allows no remote resources and the runtime policy loads scripts, images and fonts only from the release (D-17). A literal remote URL in a loading position (fetch, new WebSocket, new EventSource, new Worker, navigator.sendBeacon, an element\'s src) can only fail, so it is an error (D-34); a URL computed at run time cannot be judged and stays a warning of the API rule.',
      example: { file: 'runtime/main.js', before: "const ws = new WebSocket('wss://chat.example/socket');", after: "await PLATFORM.analytics.track('chat_opened');" },
    },
    'js/root-relative-string': {
      text: 'A release is served from a folder of its own, so "/assets/x.png" points at the storefront\'s root, not at the file of the bundle with the same path. Build tools that assume the site root (Vite with its default base) write such strings into the code. Only strings that name a file of the bundle this way are reported; it is a warning because a string may be used for something other than loading.',
      example: { file: 'runtime/assets/index.js', before: 'img.src = "/assets/logo.png";', after: 'img.src = new URL("./logo.png", import.meta.url).href;' },
    },
    'js/commonjs': {
      text: 'Every script of an extension is a module (D-18). A module has no module.exports, exports or require, and this at its top level has no value, so CommonJS files and UMD wrappers (function (root, factory) { … }(this, …)) throw or do nothing there. A use guarded by typeof module or a name the module declares itself is not reported; one finding per module.',
      example: { file: 'runtime/vendor/lib.js', before: 'module.exports = function format(n) { … };', after: 'export function format(n) { … }' },
    },
    'js/import-not-exported': {
      text: 'When a module imports a name that the imported module of the bundle does not export, the browser refuses to link the whole module graph and none of it runs. The check reads both modules\' import and export declarations (export * from included); where a module\'s exports cannot all be known, nothing is reported.',
      example: { file: 'runtime/main.js', before: "import { formatPrice } from './lib/format.js';   // format.js exports formatMoney", after: "import { formatMoney } from './lib/format.js';" },
    },
    'js/platform-unknown-member': {
      text: 'The bridge object and its namespaces are frozen and have exactly the members of protocol version 1: ready, capabilities(), settings(), request() and one named method per capability. A call to any other member (PLATFORM.cart.get()) throws a TypeError, and PLATFORM.request with a capability or action the table does not have fails with INVALID_REQUEST (D-34). Uses are found statically, also through a plain alias such as const p = window.PLATFORM.',
      example: { file: 'runtime/main.js', before: 'const cart = await PLATFORM.cart.get();', after: "await PLATFORM.cart.manage('add', { productId, quantity: 1 });" },
    },
    'js/capability-not-declared': {
      text: 'The store user grants only the capabilities the manifest declares, so a call to any other can only fail with CAPABILITY_NOT_GRANTED (D-34). Calls are found statically: PLATFORM.<area>.<method>(…) and PLATFORM.request(\'<capability>\', …) with a literal key, also through window.PLATFORM and a plain alias.',
      example: { file: 'manifest.json', before: '"capabilities": ["catalog.products.read"]   (main.js calls PLATFORM.forms.submit)', after: '"capabilities": ["catalog.products.read", "forms.submit"]' },
    },
    'js/capability-unused': {
      text: 'Every declared capability is shown to the store user for a permission review, and medium-risk ones weigh on the decision to install. A capability that no module uses statically, while no module calls PLATFORM.request with a computed capability or hands the bridge object on, is most likely a leftover (D-34). It is a warning: code the check cannot follow may still use it.',
      example: { file: 'manifest.json', before: '"capabilities": ["catalog.products.read", "cart.manage"]   (nothing calls the cart)', after: '"capabilities": ["catalog.products.read"]' },
    },
  };
}

function releaseExplanations(): Record<string, Explanation> {
  return {
    'release/missing-file': {
      text: `A submission is five files uploaded together (contract "Submission set"): ${listOf(SUBMISSION_FILES)}. verify and platform-review check the folder exactly as the store will, so a missing file fails here first.`,
      example: { file: 'shell', before: 'release/\n  bundle.zip\n  manifest.json\n  signature.txt', after: PACKAGE_COMMAND + '   (writes all five)' },
    },
    'release/unexpected-file': {
      text: 'A release folder holds exactly the five submission files. Anything else (notes, .DS_Store, a copied key) would either be left behind on upload or, worse, uploaded: a stray private key in a release folder is how keys leak.',
      example: { file: 'layout', before: 'release/\n  (the five files)\n  notes.txt', after: 'release/\n  (the five files)' },
    },
    'release/not-regular-file': {
      text: 'Each submission file is read only when it is a regular file in the release folder itself (D-30): it is opened without following links and without waiting, and checked on the open descriptor before a byte is read. A link would make review check bytes from elsewhere, and a named pipe or device (a FIFO named bundle.zip, a link to /dev/zero) could make verify or platform-review wait forever. The file is reported and not read.',
      example: { file: 'layout', before: 'release/bundle.zip   (a named pipe, or -> /dev/zero)', after: 'release/bundle.zip   (the archive platform-ext package wrote)' },
    },
    'release/file-too-large': {
      text: 'Each submission file has a largest size any valid one can have (the manifest and bundle limits, the exact lengths of the key and signature texts, the record\'s bounded fields). A larger file was replaced or corrupted, and it is not read further.',
      example: { file: 'layout', before: 'release/publisher-public-key.txt   (a PEM file pasted in, 3 lines)', after: 'release/publisher-public-key.txt   (one line of base64, as package wrote it)' },
    },
    'release/public-key-format': {
      text: 'publisher-public-key.txt holds the 32-byte Ed25519 public key as 44 characters of standard base64 with padding, then at most one newline (D-11). The reader is strict: a carriage return, spaces, a second newline or another spelling of the same bytes is refused, because a lenient decoder (Node\'s) accepts many spellings of one key.',
      example: { file: 'shell', before: 'publisher-public-key.txt: "ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=\\r\\n"', after: 'publisher-public-key.txt: "ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=\\n"' },
    },
    'release/signature-format': {
      text: 'signature.txt holds the 64-byte Ed25519 signature as 88 characters of standard base64 with padding, then at most one newline (D-11). Upload and copy tools that convert line endings to CRLF or re-wrap text break it.',
      example: { file: 'shell', before: 'signature.txt: "Vv6pfDSS…IpAA==\\r\\n"   (converted to CRLF)', after: 'signature.txt: "Vv6pfDSS…IpAA==\\n"   (as package wrote it)' },
    },
    'release/submission-invalid': {
      text: 'submission.json must be one strict JSON object, read with the same rules as the manifest (D-5: UTF-8 without BOM, no duplicate keys). platform-ext package writes it; editing it by hand is the usual cause.',
      example: { file: 'shell', before: 'submission.json edited by hand (a trailing comma)', after: PACKAGE_COMMAND },
    },
    'release/submission-field': {
      text: `The record is a closed object of seven string fields (contract "Submission set"): format ("${SUBMISSION_FORMAT}"), namespace, version, artifact_path (extensions/<publisher-slug>/<package-slug>/<version>/bundle.zip), manifest_sha256, artifact_sha256 and publisher_public_key_id (each 64 lowercase hex characters). A missing, extra or malformed field is refused.`,
      example: { file: 'submission.json', before: '"manifest_sha256": "5D41402ABC4B2A76B9719D911017C592…",', after: '"manifest_sha256": "5d41402abc4b2a76b9719d911017c592…",' },
    },
    'release/submission-mismatch': {
      text: 'The record must describe the files beside it: namespace and version equal the manifest\'s, artifact_path is built from them, the two hashes are the SHA-256 of the exact manifest and bundle bytes, and the key id is the fingerprint of the public key (D-12). A mismatch means a file changed after packaging (Authentication 3).',
      example: { file: 'shell', before: 'manifest.json reformatted in release/ after packaging', after: PACKAGE_COMMAND + '   (then upload the five files unchanged)' },
    },
    'release/weak-public-key': {
      text: 'Ed25519 verifiers disagree on keys that are not the canonical encoding of a curve point, and a point of small order (the identity and seven others whose multiple by 8 is the identity) lets one forged signature verify for every manifest and bundle: with the identity as key, R = identity and S = 0 verify anything. Such a key is refused before the signature is checked (D-31). A key generator never produces one, so the finding means the key was crafted.',
      example: { file: 'shell', before: 'publisher-public-key.txt: "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="   (the identity point)', after: 'platform-ext keygen --private-key ~/.config/platform-ext/acme.pem --public-key acme.pub\n' + PACKAGE_COMMAND },
    },
    'release/signature-not-canonical': {
      text: 'The second half of an Ed25519 signature is a scalar S that signers always reduce below the group order L. Adding L gives another byte string that lenient verifiers accept as the same signature, so one release would have two signatures; the store accepts only the canonical one (D-31).',
      example: { file: 'shell', before: 'signature.txt: a signature whose last 32 bytes, read little-endian, are at least L', after: PACKAGE_COMMAND + '   (then upload the files unchanged)' },
    },
    'release/signature-invalid': {
      text: `The signature is Ed25519 over five lines, each ended by a newline: ${SIGNED_PAYLOAD_HEADER}, namespace=…, version=…, manifest-sha256=… and artifact-sha256=… (D-14). It fails when the manifest or bundle changed after signing (line-ending conversion by git or an upload tool included), when another key signed, or when the signature covers another payload; verify says which.`,
      example: { file: '.gitattributes', before: '(none: git converts release/manifest.json to CRLF on checkout)', after: 'release/** -text' },
    },
  };
}

function archiveExplanations(): Record<string, Explanation> {
  return {
    'archive/compressed-too-large': {
      text: `bundle.zip is at most ${sizeText(BUNDLE_MAX_COMPRESSED_BYTES)} (contract "Limits"). Already-compressed assets (images, fonts) barely shrink in a ZIP, so reduce them at the source.`,
      example: { file: 'layout', before: 'runtime/images/   (PNG screenshots, 7 MiB)', after: 'runtime/images/   (WebP, 900 KiB)' },
    },
    'archive/not-zip': {
      text: 'The file has no valid end-of-central-directory record: it is not a ZIP archive, or it was truncated. Usual causes are a text-mode transfer, a download that saved an error page, or a Git LFS pointer in place of the file (D-16).',
      example: {
        file: 'shell',
        before: '$ head -c 4 release/bundle.zip | od -c\n0000000   <   !   d   o   (an HTML page)',
        after: '$ head -c 4 release/bundle.zip | od -c\n0000000   P   K 003 004   (a ZIP archive)',
      },
    },
    'archive/eocd-comment': repackaged('The end record carries an archive comment. D-15 writes none and D-16 refuses one: it is a place for bytes that no reader checks.', 'zip -z release/bundle.zip   (adds an archive comment)'),
    'archive/trailing-data': repackaged('Bytes follow the end-of-central-directory record. Every byte must belong to a record (D-16); appended data is how polyglot files and smuggled payloads ride along.', 'cat release/bundle.zip notes.txt > upload.zip'),
    'archive/prefix-bytes': repackaged('Bytes precede the first local header, as in a self-extracting archive or a file glued in front (D-16). Readers that scan from the front and from the back would see different archives.', 'cat unzipsfx release/bundle.zip > bundle.zip'),
    'archive/gap-or-overlap': repackaged('The records are not back to back: there is a gap between them, or two entries share bytes. Gaps hide data, and overlapping entries are how small archives expand into huge ones (D-16).', 'a ZIP edited in place by a tool that rewrote one entry'),
    'archive/zip64': repackaged('The archive uses ZIP64 records or fields (D-15; D-16). A bundle within the limits never needs them, and accepting them would add a second way to read every size.', 'zip -fz -r bundle.zip .   (forces ZIP64)'),
    'archive/multi-disk': repackaged('The archive is split or spanned across several files or disks (D-16). A bundle is one file.', 'zip -s 1m -r bundle.zip .   (split archive)'),
    'archive/central-directory-corrupt': repackaged('A central directory header is malformed or runs past the end of the file (D-16). The archive is damaged, for example by a truncated upload.', 'an upload cut off before the end of the file'),
    'archive/entry-count': repackaged('The entry count in the end record differs from the headers actually in the central directory (D-16): two readers could list different files.', 'a central directory patched by hand or by a repair tool'),
    'archive/local-header-corrupt': repackaged('An entry has no valid local file header where the central directory says it starts (D-16).', 'a ZIP whose entries were moved without updating the central directory'),
    'archive/header-mismatch': repackaged('The local header and the central directory header of an entry disagree on name, method, flags, sizes or CRC (D-16). Readers that trust one or the other would extract different files: a known way to show a reviewer one file and ship another.', 'a ZIP modified by a tool that updates only one of the two headers'),
    'archive/name-not-ascii': {
      text: 'An entry name has bytes outside printable ASCII (D-2; D-16). Non-ASCII names are encoded differently by ZIP tools (code page 437, UTF-8 with or without the flag), so one name could mean two paths.',
      example: { file: 'layout', before: 'runtime/images/café.png', after: 'runtime/images/cafe.png   (then package again)' },
    },
    'archive/directory-entry': repackaged('The archive has an entry for a folder (a name ending in "/"). Folders are implied by file paths; a bundle holds file entries only (D-15; D-16).', 'cd runtime && zip -r ../bundle.zip .   (adds "images/" entries)'),
    'archive/encrypted': repackaged('An entry or the central directory is encrypted (D-15; D-16). The store must read every byte to review it, so bundles are never encrypted.', 'zip -e -r bundle.zip .   (asks for a password)'),
    'archive/data-descriptor': repackaged('An entry uses a data descriptor: its sizes and CRC follow the data instead of being declared in the header (D-15; D-16). Streaming writers do this; a reader cannot check sizes before inflating.', 'cd runtime && zip -r - . > ../bundle.zip   (streamed to a pipe)'),
    'archive/unsupported-flags': repackaged('An entry sets general-purpose flag bits other than the UTF-8 name flag and the deflate level hint (D-15; D-16): patched data, strong encryption or masked headers, none of which a bundle uses.', 'an archive written by a tool with encryption or patch data'),
    'archive/unsupported-method': repackaged('An entry uses a compression method other than stored (0) or deflate (8) (D-15; D-16): bzip2, LZMA, zstd and others are not read by every ZIP reader.', 'zip -Z bzip2 -r bundle.zip .'),
    'archive/version-needed': repackaged('An entry declares that it needs a ZIP version above 2.0 to extract (D-16). Stored and deflated entries need at most 2.0; a higher value means features a bundle does not use.', 'an archive written with ZIP64 or newer compression enabled'),
    'archive/extra-field': repackaged('An entry has an extra field that could change what a reader sees (a Unicode path or comment, ZIP64 data, an unknown id), a malformed one, or the same field twice (D-16; D-16a). Only the extended timestamp (0x5455), Unix owner (0x7875) and NTFS times (0x000a) fields are accepted, well formed and once each per header: they are what zip -r and 7-Zip write, and no extractor reads a different file because of them.', 'an archive whose entries carry Info-ZIP Unicode path fields (0x7075) or a second timestamp field'),
    'archive/file-comment': repackaged('An entry has a file comment (D-15; D-16): bytes that no reader checks.', 'zip -c -r bundle.zip .   (asks for entry comments)'),
    'archive/bad-attributes': repackaged('An entry\'s external attributes do not describe a plain regular file: a symbolic link, a device, setuid/setgid/sticky bits, MS-DOS bits other than read-only and archive, or host-specific attributes (D-16; D-16a). A Unix regular-file mode, or permission bits alone, is accepted. Extracting such an entry could create a link that points outside the target folder.', 'zip -y -r bundle.zip .   (-y stores symbolic links as links)'),
    'archive/duplicate-name': repackaged('Two entries have the same name (D-16). ZIP readers disagree on which copy wins, so a reviewer and a server could see different files.', 'zip bundle.zip runtime/main.js   (appending to an existing archive)'),
    'archive/size-mismatch': repackaged('An entry does not inflate to its declared size, or a stored entry\'s two sizes differ (D-16). Sizes are checked while inflating, and inflation stops at the declared size.', 'an archive damaged in transfer or crafted by hand'),
    'archive/compression-ratio': {
      text: `An entry, or the whole archive, expands more than ${BUNDLE_MAX_COMPRESSION_RATIO} times its compressed size (contract "Limits"; D-16). Real assets never compress that far; highly repetitive files (padding, generated data) do, and so do decompression bombs. The ratio is compared in whole numbers: ${BUNDLE_MAX_COMPRESSION_RATIO} passes, ${BUNDLE_MAX_COMPRESSION_RATIO + 1} does not. package stores such a file instead of deflating it, so this finding means another tool built the archive.`,
      example: { file: 'layout', before: 'runtime/data/padding.js   (4 MiB of spaces)', after: '(removed, or generated at run time)' },
    },
    'archive/corrupt-deflate': repackaged('An entry is not a valid DEFLATE stream (D-16): the archive is damaged.', 'a bundle.zip transferred in text mode (line endings converted)'),
    'archive/trailing-deflate-data': repackaged('Bytes follow the end of the DEFLATE stream inside an entry (D-16). Every compressed byte must belong to the stream; extra bytes are a hiding place.', 'an archive crafted or damaged after compression'),
    'archive/crc-mismatch': repackaged('The CRC-32 of an entry\'s content differs from the one in its headers (D-16): the content changed after packaging or was damaged in transfer.', 'bundle.zip edited in place after packaging'),
  };
}

/** `check --baseline`: the release diff (src/validator/release-diff.ts; catalogue/baseline.ts says why each severity). */
function baselineExplanations(): Record<string, Explanation> {
  return {
    'baseline/version-not-higher': {
      text: 'An approved version can never be reused, and any change after approval needs a higher version (contract "Versioning"). Versions compare by semantic-version precedence: numbers field by field, a pre-release (1.1.0-rc.1) below its release, pre-release identifiers left to right with numeric ones below words, and build metadata after "+" ignored, so 1.0.0+build.2 is not higher than 1.0.0. Only a submission that was never approved (rejected, withdrawn, failed validation) may be corrected under the same version.',
      example: { file: 'manifest.json', before: '"version": "1.2.0"   (baseline release: 1.2.0)', after: '"version": "1.2.1"' },
    },
    'baseline/namespace-changed': {
      text: 'A namespace is immutable once registered and unchanged across releases (contract "Manifest" and "Versioning"): it names the extension in every store and in the storage path extensions/{namespace}/{version}/bundle.zip. A release under another namespace is a different extension, not an upgrade of the baseline.',
      example: { file: 'manifest.json', before: '"namespace": "acme/lanes-widget"   (baseline: acme/lanes)', after: '"namespace": "acme/lanes"' },
    },
    'baseline/capability-added': {
      text: 'Declaring a capability does not grant it. When a later release adds one, every store that installed the extension gets a new permission review, and the capability stays off until a store user approves it (contract "States and transitions"). Until then its calls reject with CAPABILITY_NOT_GRANTED, so the new code must handle that error instead of failing.',
      example: { file: 'runtime/main.js', before: 'const theme = await PLATFORM.theme.read();', after: 'const theme = await PLATFORM.theme.read().catch((e) => (e.code === "CAPABILITY_NOT_GRANTED" ? null : Promise.reject(e)));' },
    },
    'baseline/capability-removed': {
      text: 'When a later release drops a capability, stores lose its grant automatically on upgrade (contract "States and transitions"), and adding it back in a still later release means another permission review. Any code left that calls it rejects with CAPABILITY_NOT_GRANTED.',
      example: { file: 'manifest.json', before: '"capabilities": ["catalog.products.read"]   (baseline also had "cart.manage"; main.js still calls PLATFORM.cart.manage)', after: '"capabilities": ["catalog.products.read", "cart.manage"]' },
    },
    'baseline/property-removed': {
      text: 'Saved settings persist through upgrades, and property names should be preserved across releases (contract "Versioning"). A setting that names no property of the manifest is refused (contract "Property definition"), so removing a property leaves every store that saved a value for it with a setting its new release rejects. The contract says names "should" be kept, so this is a warning (D-28) that `--strict` turns into a failure. Keep the definition and stop using it instead.',
      example: { file: 'manifest.json', before: '"properties": {}   (baseline had "heading")', after: '"properties": {"heading": {"type": "text", "label": "Heading (no longer shown)"}}' },
    },
    'baseline/property-retyped': {
      text: `Saved settings persist through upgrades, so a value saved under the old type is checked against the new one (contract "Versioning" and "Property definition"; D-7). A change is compatible only when every value of the old type is valid for the new one: url and image share one rule; text (${VALUE_MAX_BYTES.text} bytes) widens to textarea (${VALUE_MAX_BYTES.textarea} bytes); select and color widen to text or textarea. Anything else (text to number, textarea to text, text to select) breaks saved values. The contract says types "should" be kept, so this is a warning (D-28) that --strict turns into a failure.`,
      example: { file: 'manifest.json', before: '"count": {"type": "text", "label": "Count"}   (baseline type: text)\n"count": {"type": "number", "label": "Count"}', after: '"count": {"type": "text", "label": "Count"}\n"item_count": {"type": "number", "label": "Count"}' },
    },
    'baseline/property-narrowed': {
      text: 'The property keeps a compatible type but accepts fewer values than in the baseline release: a select lost option values, or a number gained a tighter min or max (D-7). Stores that saved one of the values now outside would hold a setting the new release refuses; the tool cannot see saved values, so this is a warning.',
      example: { file: 'manifest.json', before: '"options": [{"label": "Grid", "value": "grid"}]   (baseline also had "row")', after: '"options": [{"label": "Grid", "value": "grid"}, {"label": "Single row", "value": "row"}]' },
    },
  };
}

// Secret scanning (src/validator/secrets.ts). Examples never hold a whole token: this
// text ships in the CLI, and a full-shape sample would be reported by every scanner.
function secretExplanations(): Record<string, Explanation> {
  return {
    'secret/access-token': {
      text: 'Every file under runtime/ is downloaded by the browsers of the shoppers of every store that installs the extension, and every string of manifest.json is public (contract "Property definition": secrets and tokens must never be placed in a default or a setting). The frame cannot reach the network at all (connect-src \'none\'), so a token in the bundle has no use and is only a leak. The scan looks for exact vendor shapes: GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab (glpat-), Slack tokens (xoxb- and the other xox?- kinds, xapp-) and incoming-webhook URLs, Stripe secret and restricted live keys (sk_live_, rk_live_), AWS access key ids (AKIA, ASIA), Google API keys (AIza), npm tokens (npm_), SendGrid keys (SG.), Shopify tokens (shpat_, shpca_, shppa_, shpss_) and signed JSON Web Tokens, each with its alphabet and length and a word boundary on both sides. A token that was ever in a file that left your machine must be treated as stolen: revoke it at the issuer, then delete it.',
      example: {
        file: 'runtime/main.js',
        before: 'const client = new Api({ token: "ghp_Xy12..." });   (a whole 40-character token)',
        after: 'const client = new Api();   (the host does any authenticated work; the token is revoked)',
      },
    },
    'secret/high-entropy-default': {
      text: `Property defaults are shown to every store in the builder and sent to the frame as settings, so they are public (contract "Property definition"). A default with a run of at least ${HIGH_ENTROPY_MIN_CHARS} base64 or hex characters that looks random (hex digits of high Shannon entropy, or upper case, lower case and digits mixed as random text mixes them) is most likely a key, a password or a signed URL. In url and image defaults only the query and fragment are judged, because paths often hold content hashes. It is a warning because the shape alone cannot prove a secret; check --strict fails on it.`,
      example: {
        file: 'manifest.json',
        before: '"api_key": {"type": "text", "label": "API key", "default": "q8Vd2LmZ7xT4..."}   (a real key)',
        after: '"api_key": {"type": "text", "label": "API key", "help": "Each store enters its own key."}',
      },
    },
    'secret/email-in-default': {
      text: 'Defaults are public and shared by every store that installs the extension, so a default must not carry personal data such as someone\'s e-mail address (contract "Property definition": customer information must never be placed in a default). Leave the default empty and let each store enter its own address. Addresses at the domains reserved for examples (example.com, example.net, example.org and the .example, .test, .invalid and .localhost names) are placeholders and are not reported.',
      example: {
        file: 'manifest.json',
        before: '"contact": {"type": "text", "label": "Contact e-mail", "default": "jane.doe@acme-shop.com"}',
        after: '"contact": {"type": "text", "label": "Contact e-mail", "default": "you@example.com"}',
      },
    },
    'secret/phone-in-default': {
      text: `Defaults are public and shared by every store, so a default must not carry personal data such as a phone number (contract "Property definition"). Reported shapes: an international number (+, a country code that does not start with 0, ${PHONE_INTERNATIONAL_MIN_DIGITS} to ${PHONE_INTERNATIONAL_MAX_DIGITS} digits in all, E.164), or a national number of ${PHONE_NATIONAL_MIN_DIGITS} or ${PHONE_NATIONAL_MAX_DIGITS} digits in groups that starts with 0 or an area code in parentheses, or is grouped 3-3-4. Dates, times, prices, versions and colors do not have these shapes. Leave the default empty and let each store enter its own number.`,
      example: {
        file: 'manifest.json',
        before: '"phone": {"type": "text", "label": "Phone", "default": "+44 20 7946 0958"}',
        after: '"phone": {"type": "text", "label": "Phone", "help": "Shown on the contact card, for example +44 20 ..."}',
      },
    },
  };
}

let table: Readonly<Record<string, Explanation>> | undefined;

/**
 * Every explanation, keyed by rule id. Built on first use: a plain `check` never needs the
 * texts, so start-up (bench/check.mjs) does not pay for them.
 */
/** platform-ext.config.json: acknowledged warnings (D-33, src/load/project-config.ts). */
function configExplanations(): Record<string, Explanation> {
  const file = 'platform-ext.config.json';
  return {
    'config/invalid-json': {
      text: `A project may keep reviewed warnings in ${file}, beside manifest.json (D-33). check reads it as strictly as the manifest (D-5): one JSON object in UTF-8, no byte-order mark, no duplicate keys, no comments, a regular file rather than a symbolic link, and at most ${sizeText(ACK_CONFIG_MAX_BYTES)}. A file that cannot be read that way is an error rather than ignored, so that a typo never silently changes what a CI run reports.`,
      example: { file, before: '{ acknowledged: [] }   (keys without quotes)', after: '{"acknowledged": []}' },
    },
    'config/invalid-entry': {
      text: `The file holds one setting, "acknowledged": an array of entries, each an object with exactly three non-empty strings. "rule" is a rule id; "file" is the path a finding names, relative to the project ("runtime/vendor/chart.js"), or a folder ending in "/" to cover every file under it; "reason" (at most ${ACK_REASON_MAX_CHARS} characters) says why the warning is safe, for whoever reviews the project next. The pointer names the member that is wrong.`,
      example: { file, before: '{"acknowledged": [{"rule": "js/network-api", "path": "runtime/vendor/chart.js"}]}', after: '{"acknowledged": [{"rule": "js/network-api", "file": "runtime/vendor/chart.js", "reason": "feature test only: typeof fetch"}]}' },
    },
    'config/unknown-rule': {
      text: 'An acknowledgement covers the warnings of one rule, named by its permanent id. An id that no rule has can never match, usually because of a typo or an id copied from a message instead of the "rule" field of the finding.',
      example: { file, before: '"rule": "js/network"', after: '"rule": "js/network-api"' },
    },
    'config/error-acknowledged': {
      text: 'Acknowledging is for warnings a person has reviewed (D-33). Errors are what the store refuses at submission, whatever the project says about them, so an entry for a rule whose findings are errors is itself an error: the only way past it is to fix the finding.',
      example: { file, before: '{"rule": "bundle/extension-not-allowed", "file": "runtime/logo.svg", "reason": "needed"}', after: '(the entry removed; logo.svg converted to logo.png)' },
    },
    'config/unused-acknowledgement': {
      text: 'An entry that covers no warning means the code it was written for changed: the warning is gone, or moved to another file. Left in place, it would silently cover a new warning of the same rule in that file that nobody reviewed; remove it or point it at the file that now has the warning.',
      example: { file, before: '{"rule": "js/network-api", "file": "runtime/vendor/chart-3.js", "reason": "..."}   (the file is now chart-4.js)', after: '{"rule": "js/network-api", "file": "runtime/vendor/chart-4.js", "reason": "..."}' },
    },
  };
}

export function allExplanations(): Readonly<Record<string, Explanation>> {
  table ??= Object.freeze({
    ...manifestExplanations(),
    ...propertyExplanations(),
    ...bundleExplanations(),
    ...htmlExplanations(),
    ...cssExplanations(),
    ...jsExplanations(),
    ...releaseExplanations(),
    ...archiveExplanations(),
    ...baselineExplanations(),
    ...secretExplanations(),
    ...reviewExplanations(),
    ...configExplanations(),
  });
  return table;
}

export function explanationOf(ruleId: string): Explanation | undefined {
  const all = allExplanations();
  return Object.prototype.hasOwnProperty.call(all, ruleId) ? all[ruleId] : undefined;
}
