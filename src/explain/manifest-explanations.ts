// Long explanations of the manifest rules (src/validator/catalogue/manifest-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import { CAPABILITY_KEYS, DESCRIPTION_MAX_BYTES, ENTRYPOINT_MAX_CHARS, JSON_MAX_DEPTH, MANIFEST_MAX_BYTES, MAX_CAPABILITIES, MAX_PROPERTIES, NAME_MAX_BYTES, NAME_MIN_BYTES, SEMVER_MAX_NUMERIC, groupDigits } from '../validator/internal.js';
import { listOf, type Explanation } from './explanation-kit.js';

export function manifestExplanations(): Record<string, Explanation> {
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
      text: 'schema_version names the manifest schema, and 1 is the only one (contract "Versioning"). JSON has one number 1, so every spelling whose exact value is the integer 1 is accepted (1, 1.0, 1e0, 10e-1; D-39); 1.5, 2, "1" and 1.00000000000000001 (a value a parser would round to 1) are not.',
      example: { file: 'manifest.json', before: '"schema_version": 2,', after: '"schema_version": 1,' },
    },
    'manifest/protocol-version': {
      text: 'protocol_version names the bridge protocol the extension speaks to window.PLATFORM, and 1 is the only one (contract "Versioning"). It must be the integer 1, in any JSON spelling of it (1, 1.0, 1e0; D-39), and a number, not a string.',
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
    'manifest/tag-character': {
      text: 'Tag characters (U+E0000 to U+E007F) draw nothing, yet each stands for an ASCII letter: a run of them spells a word that a merchant, a reviewer and the tool\'s own reports never show, but that a program or a language model reading the text takes in (D-29a). Their one visible use is an emoji tag sequence, a black flag U+1F3F4 followed by tags and the cancel tag U+E007F (the flags of England, Scotland and Wales); a complete sequence is allowed, any other tag character is an error. Reports print them as `\\u{...}` escapes.',
      example: { file: 'manifest.json', before: '"name": "Lane booking\\udb40\\udc41\\udb40\\udc42"', after: '"name": "Lane booking"' },
    },
    'manifest/invisible-character': {
      text: 'A name, description, label, help text, option or string default holds a character no reader sees as itself: a zero-width space or joiner, a soft hyphen, a Hangul filler, a directional mark, an invisible operator or another Unicode format or default-ignorable character (D-29a). Such characters make two strings that look the same compare different and can hide text from a reviewer; reports print them as `\\u{...}` escapes. A zero-width joiner or non-joiner, or one variation selector, directly after a visible character is left alone (emoji and scripts that need them). It is a warning, not an error: right-to-left text may need its marks, and a reviewed one can be acknowledged in platform-ext.config.json (D-33).',
      example: { file: 'manifest.json', before: '"label": "Lane\\u200bcolor"', after: '"label": "Lane color"' },
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
