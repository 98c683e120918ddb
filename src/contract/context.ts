// The context document (`platform-ext context`, and CONTEXT.md in every scaffold): one
// self-contained Markdown file from which an AI coding agent can write a correct extension
// with no other source. It is a pure function of the tool's embedded contract: the
// snapshot (snapshotFiles()), the rule catalogue and the scaffold's templates rendered for
// a sample namespace. No date, path, tool version or locale goes in, so every run gives
// the same bytes and a project's copy can be compared with it (`check`,
// project/context-stale).
//
// Budget: at most 80,000 bytes of UTF-8 (issue 5: "at most 80 KB"; test/context.test.mjs
// holds it). So nothing is said twice: the contract's own list of rules (the one section
// of contract.md that names every rule id) is replaced by a pointer to part E, where the
// catalogue is summarised compactly (every id by area, the warnings marked; titles,
// references and fixes are in contract-snapshot/rules.json and in every finding), and the
// schema is printed without indentation and without its annotations (contract.md says the
// same in part B).
import { RULES } from '../validator/rules.js';
import { snapshotFiles } from './snapshot.js';
import { renderTemplates, type ScaffoldValues } from './templates.js';
import { CONTEXT_MARKER } from './generated-names.js';

export { CONTEXT_MARKER, isContextDocument } from './generated-names.js';


/** The namespace and name the reference extension is rendered for. */
export const SAMPLE_VALUES: ScaffoldValues = Object.freeze({ namespace: 'acme/sample-extension', name: 'Sample extension' });

/** The scaffold files shown as the reference extension, in reading order (the rest are settings and prose). */
const REFERENCE_FILES: readonly { readonly path: string; readonly lang: string }[] = [
  { path: 'manifest.json', lang: 'json' },
  { path: 'runtime/index.html', lang: 'html' },
  { path: 'runtime/main.js', lang: 'js' },
  { path: 'runtime/styles.css', lang: 'css' },
];

/** A fenced block whose fence is longer than any run of backticks inside `text`. */
function fenced(text: string, lang: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}

/**
 * Markdown embedded under a section: its ATX headings move down `levels` (at most to
 * level 6) so they nest under the section's heading; fenced code is left alone.
 */
function demoteHeadings(markdown: string, levels: number): string {
  let fence: string | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      if (fence !== null) {
        if (opener !== null && opener[1]![0] === fence[0] && opener[1]!.length >= fence.length && line.trim() === opener[1]) fence = null;
        return line;
      }
      if (opener !== null) {
        fence = opener[1]!;
        return line;
      }
      const heading = /^(#{1,6})(?=\s|$)/.exec(line);
      if (heading === null) return line;
      const depth = Math.min(6, heading[1]!.length + levels);
      return `${'#'.repeat(depth)}${line.slice(heading[1]!.length)}`;
    })
    .join('\n');
}

/**
 * contract.md without its list of rules: the level-2 section that names every rule id is
 * replaced by its heading and a pointer to the catalogue (part E). Nothing else changes;
 * a contract without such a section is kept whole.
 */
function withoutRuleList(contract: string): string {
  const lines = contract.split('\n');
  const starts: number[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(lines[i]!);
    if (fence !== null) {
      if (opener !== null && opener[1]![0] === fence[0] && opener[1]!.length >= fence.length) fence = null;
    } else if (opener !== null) {
      fence = opener[1]!;
    } else if (/^##\s/.test(lines[i]!)) {
      starts.push(i);
    }
  }
  for (let k = 0; k < starts.length; k++) {
    const from = starts[k]!;
    const to = k + 1 < starts.length ? starts[k + 1]! : lines.length;
    const body = lines.slice(from, to).join('\n');
    if (RULES.every((rule) => body.includes(`\`${rule.id}\``))) {
      return [...lines.slice(0, from + 1), '', 'The rules are listed once, in part E (Rule catalogue) of this document.', '', ...lines.slice(to)].join('\n');
    }
  }
  return contract;
}

/** Part E's list: every rule id by area, in catalogue order, warnings marked. */
function compactCatalogue(): string {
  const areas = new Map<string, string[]>();
  for (const rule of RULES) {
    const slash = rule.id.indexOf('/');
    const area = rule.id.slice(0, slash);
    const names = areas.get(area) ?? [];
    names.push(`\`${rule.id.slice(slash + 1)}\`${rule.severity === 'warning' ? ' (W)' : ''}`);
    areas.set(area, names);
  }
  return [...areas].map(([area, names]) => `- **${area}/** (${names.length}): ${names.join(', ')}`).join('\n');
}

/** Annotation keywords (JSON Schema 2020-12 meta-data vocabulary and `$comment`): they never change what validates. */
const SCHEMA_ANNOTATIONS = new Set(['title', 'description', 'examples', '$comment', 'default', 'deprecated', 'readOnly', 'writeOnly']);
/** Keywords whose value is a map of names to subschemas (the names are data, never keywords). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Keywords whose value is one subschema. */
const SCHEMA_ONE = new Set(['items', 'not', 'if', 'then', 'else', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/**
 * A schema without its annotations: the same validation in fewer bytes. Only keyword
 * positions are touched, so a manifest field named "description" keeps its subschema.
 */
function withoutAnnotations(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_ANNOTATIONS.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutAnnotations(sub)]));
    } else if (SCHEMA_ONE.has(key)) {
      out[key] = withoutAnnotations(value);
    } else if (SCHEMA_LIST.has(key) && Array.isArray(value)) {
      out[key] = value.map(withoutAnnotations);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Absent from this build's snapshot: said plainly rather than leaving a section out. */
function missing(file: string): string {
  return `_contract-snapshot/${file} is not part of this build's snapshot._`;
}

const WORKFLOW = `## A. Workflow for agents

A website extension is a folder with \`manifest.json\` and a \`runtime/\` folder. Only
\`runtime/\` is packaged: it holds exactly one HTML file (the entrypoint, \`index.html\`),
its module scripts, stylesheets, images and fonts. The extension runs in a sandboxed frame
on the storefront under a strict content-security policy (the runtime policy, in part B)
and reaches the store only through \`window.PLATFORM\` (part D), one capability per
operation.

1. Start from the reference extension (part F); \`platform-ext init <dir> --namespace
   <publisher>/<package> --name "<text>"\` writes it with this document, the snapshot and the
   editor and type-check settings.
2. Declare in \`manifest.json\` exactly the capabilities the code calls. Declared is not
   granted: every call can reject with \`CAPABILITY_NOT_GRANTED\`, and any call can reject
   with another code of the error table. Catch every rejection and show visitors friendly
   text, never the raw error.
3. Read configuration with \`PLATFORM.ready\` / \`PLATFORM.settings()\`: properties are
   public, so never put secrets, tokens, customer data or private configuration in a
   property default or setting.
4. Run \`platform-ext check\` (\`--json\` for one JSON object) and fix every error: exit 0
   means no errors. Each finding names its rule (part E), file, JSON pointer or line.
5. Run \`platform-ext preview\` and open the printed URL: a sample storefront with a mock
   store, live capability grants and settings. \`--deny <caps>\` starts capabilities as not
   granted, \`--fail <caps>\` makes their calls reject with \`REQUEST_FAILED\`,
   \`--empty-catalog\` empties the catalogue: try each so every error path shows text a
   visitor can read.
6. Type-check with the project's \`jsconfig.json\` (for example
   \`npx -p typescript tsc -p jsconfig.json\`): the declarations of part D reject unknown
   methods, wrong payloads, misspelt capabilities and form names.
7. Releasing is the publisher's step: \`platform-ext package <dir> --out <out-dir>
   --private-key <file>\` signs with a key kept outside the project, and
   \`platform-ext verify <out-dir>\` checks the result as the store will. Never create, copy
   or commit a private key inside the project: \`check\` refuses any file holding one.
8. Never edit \`contract-snapshot/\` or \`CONTEXT.md\`: \`platform-ext init --refresh\`
   regenerates both, and \`check\` warns when they differ from the tool's contract.

Rules that most often fail a first attempt: inline \`<script>\` or \`on*=\` attributes;
classic (non-module) scripts; remote URLs (scripts, styles, images, fonts, imports) and
bare import specifiers (there is no npm at run time); \`fetch\`, \`XMLHttpRequest\` and
other network APIs (the frame has no network); storage, cookies, navigation and popups;
links other than \`#fragment\`; a second HTML file; files outside the allowed extensions;
\`$schema\` or any other unknown field in the manifest; a \`required\` property without a
usable default.`;

/** The whole context document. */
export function contextDocument(): string {
  const snapshot = snapshotFiles();
  const parts: string[] = [];
  parts.push(`${CONTEXT_MARKER} Regenerate with "platform-ext context", or in a project with "platform-ext init --refresh". -->`);
  parts.push(`# Website extensions for the platform: context for AI coding agents (contract v1)

This document is self-contained: the contract, the manifest schema, the API declarations
of \`window.PLATFORM\`, the rule catalogue of \`platform-ext check\` and a complete reference
extension. Where they disagree with anything else you know, they win.

Parts: A. Workflow for agents. B. The contract. C. Manifest schema. D. API declarations.
E. Rule catalogue. F. Reference extension.`);
  parts.push(WORKFLOW);

  const contract = snapshot.get('contract.md');
  parts.push(`## B. The contract\n\n${contract !== undefined ? demoteHeadings(withoutRuleList(contract).trimEnd(), 2) : missing('contract.md')}`);

  const schema = snapshot.get('manifest.schema.json');
  parts.push(
    `## C. Manifest schema\n\nJSON Schema 2020-12 for \`manifest.json\` (\`contract-snapshot/manifest.schema.json\`, printed compactly without its annotations). ` +
      `Editors validate with it; \`platform-ext check\` also applies the rules a schema cannot express (sizes in bytes, duplicate keys, ` +
      `rules that compare two fields such as a select default and its options). A \`$schema\` field in the manifest is an error.\n\n` +
      (schema !== undefined ? fenced(JSON.stringify(withoutAnnotations(JSON.parse(schema))), 'json') : missing('manifest.schema.json')),
  );

  const declarations = snapshot.get('platform.d.ts');
  parts.push(
    `## D. API declarations\n\n\`contract-snapshot/platform.d.ts\`: every member of \`window.PLATFORM\`, each request and response, the error codes.\n\n` +
      (declarations !== undefined ? fenced(declarations, 'ts') : missing('platform.d.ts')),
  );

  const warnings = RULES.filter((r) => r.severity === 'warning').length;
  parts.push(
    `## E. Rule catalogue\n\n${RULES.length} rules, each with a permanent id \`<area>/<name>\`: ${RULES.length - warnings} errors, which fail ` +
      `\`check\`, and ${warnings} warnings, marked (W). Every finding names its rule, the file, JSON pointer or line, and how to fix it; ` +
      `\`contract-snapshot/rules.json\` has each rule's title, contract reference and fix, and \`platform-ext check --list-rules\` prints them.\n\n` +
      compactCatalogue(),
  );

  const reference = renderTemplates(SAMPLE_VALUES);
  const files = REFERENCE_FILES.map(({ path, lang }) => `### ${path}\n\n${fenced(reference.get(path) ?? '', lang)}`);
  parts.push(
    `## F. Reference extension\n\n\`manifest.json\` and \`runtime/\` as \`platform-ext init\` writes them, for the namespace \`${SAMPLE_VALUES.namespace}\`. ` +
      `It passes \`check\` with no findings, type-checks against part D and handles every error code.\n\n${files.join('\n\n')}`,
  );
  return `${parts.join('\n\n')}\n`;
}
