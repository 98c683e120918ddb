// The context document (`platform-ext context`, CONTEXT.md in every scaffold): one Markdown file from which an AI agent
// can write a correct extension, a pure function of the embedded contract (no date, path or version: byte-stable, so
// `check` can compare a project's copy). Budget: 60,000 bytes (test/contract/context.test.mjs), so nothing is said
// twice; each `init --template` has its variant, and what a project does not need stays in contract-snapshot/.
import { RULES, CAPABILITIES, BRIDGE_ERROR_CODE_LIST } from '../validator/internal.js';
import { DECISIONS, ERROR_DETAILS } from './prose.js';
import { snapshotFiles } from './snapshot.js';
import { DEFAULT_TEMPLATE, renderTemplates, type ScaffoldValues, type TemplateName } from './templates.js';
import { contextFirstLine } from './generated-names.js';

export { CONTEXT_MARKER, isContextDocument } from './generated-names.js';


/** The namespace and name the reference extension is rendered for. */
export const SAMPLE_VALUES: ScaffoldValues = Object.freeze({ namespace: 'acme/sample-extension', name: 'Sample extension' });

/** Each template's files shown as the reference extension, in reading order (the module, stylesheet, settings and prose are left to `init`). */
const REFERENCE_FILES: Readonly<Record<TemplateName, readonly { readonly path: string; readonly lang: string }[]>> = {
  plain: [
    { path: 'manifest.json', lang: 'json' },
    { path: 'runtime/index.html', lang: 'html' },
  ],
  vite: [
    { path: 'manifest.json', lang: 'json' },
    { path: 'index.html', lang: 'html' },
  ],
};

/** The type-check of a plain project, for an agent without a terminal and an empty npm cache (`--yes`: npx asks nothing). */
export const TYPECHECK_COMMAND = 'npx --yes -p typescript@7 tsc -p jsconfig.json';

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

/** The rule list: every rule id by area, in catalogue order, warnings marked. */
function compactCatalogue(): string {
  const areas = new Map<string, string[]>();
  for (const rule of RULES) {
    const slash = rule.id.indexOf('/');
    const area = rule.id.slice(0, slash);
    const names = areas.get(area) ?? [];
    // Plain names (kebab-case reads as itself): code spans would cost two bytes a rule of the size bound.
    names.push(`${rule.id.slice(slash + 1)}${rule.severity === 'warning' ? ' (W)' : ''}`);
    areas.set(area, names);
  }
  return [...areas].map(([area, names]) => `- **${area}/** (${names.length}): ${names.join(', ')}`).join('\n');
}

/** Absent from this build's snapshot: said plainly rather than leaving a section out. */
function missing(file: string): string {
  return `_contract-snapshot/${file} is not part of this build's snapshot._`;
}

const CANNOT = `## A. What version 1 cannot do

Plan around these before writing code; no setting or permission changes them.

- No network: no \`fetch\`, \`XMLHttpRequest\`, \`WebSocket\`, \`EventSource\`, beacons, and no
  remote scripts, styles, images, fonts or imports. Everything ships in \`runtime/\`.
- No reading of the cart: \`PLATFORM.cart.manage\` adds, removes and updates a line and
  answers the item count and total; there is no call that lists the cart's contents.
- No navigation: links other than \`#fragment\`, \`window.open\`, \`location\` changes and form
  submission do nothing or are refused. Flows (booking, waivers, text messages) are opened by
  their capability, never by a URL of yours.
- No sizing of the frame: the storefront decides the frame's size; lay the extension out
  responsively inside whatever it is given.
- No storage or session: no cookies, \`localStorage\`, \`sessionStorage\`, IndexedDB, or any
  access to the storefront page's DOM. State lasts as long as the frame's document.
- No workers, nested frames, plug-ins, pop-ups or inline scripts; module scripts only.
- No secrets: properties and their defaults are public. There is no server-side code.
- No events to subscribe to: the contract names none for the frame. A revoked grant or a
  changed setting shows when \`PLATFORM.capabilities()\` or \`PLATFORM.settings()\` is read
  again (each returns the current values) and as \`CAPABILITY_NOT_GRANTED\` on a call: handle
  both. The grants and settings messages in \`bridge-protocol.md\` are the preview's own (D-26).
- Store images and theme fonts: use a product's \`image\` as given, never fetch it; theme
  fonts are CSS \`font-family\` values (D-44).
- Capabilities are closed: nine keys, fixed actions, fixed request fields. Unknown fields
  are refused, not ignored.`;

/** Part B's steps that differ between a plain project (runtime/ by hand) and a Vite one (src/ built into runtime/). */
const STEPS: Readonly<Record<TemplateName, { readonly start: string; readonly check: string; readonly preview: string; readonly types: readonly string[] }>> = {
  plain: {
    start: `Start from the reference extension (part H); \`platform-ext init <dir> --namespace
   <publisher>/<package> --name "<text>"\` writes it with this document, the snapshot and the
   editor and type-check settings. Change \`manifest.json\` and the files under \`runtime/\`.`,
    check: 'Run `platform-ext check` (`--json` for one JSON object)',
    preview: 'Run `platform-ext preview` and open the printed URL',
    types: [
      `Type-check: \`${TYPECHECK_COMMAND}\` must print nothing; the declarations of
   part F reject unknown methods, wrong payloads and misspelt names.`,
    ],
  },
  vite: {
    start: `This project was made by \`platform-ext init --template vite\` (part H): change
   \`manifest.json\`, \`index.html\` and the TypeScript under \`src/\`. Never edit \`runtime/\`:
   \`npm run build\` type-checks \`src/\` against part F, then rewrites \`runtime/\`, the folder
   that is packaged. Keep \`vite.config.ts\` as it is: each setting is there for the contract.`,
    check: 'Run `npm run build`, then `npm run check` (`npm run check -- --json` for one JSON object)',
    preview: 'Run `npm run dev` (it rebuilds on every change; options go after `--`) and open the URL',
    types: [],
  },
};

function workflow(template: TemplateName): string {
  const steps = STEPS[template];
  const list = [
    steps.start,
    `Declare in \`manifest.json\` exactly the capabilities the code calls: \`check\` reports a
   call to an undeclared capability as an error and a declared one the code never uses as a
   warning. Declared is not granted: every call can reject with \`CAPABILITY_NOT_GRANTED\`.
   Catch every rejection and show visitors friendly text, never the raw error.`,
    `Read configuration with \`await PLATFORM.ready\` and \`PLATFORM.settings()\`: properties are
   public, so never put secrets, tokens, customer data or private configuration in them.`,
    `${steps.check}
   and fix every error: exit 0 means no errors. Each finding names its rule (part G), file,
   pointer or line, and a fix; \`platform-ext check --explain <rule-id>\` says why, with an example.`,
    `${steps.preview}:
   a sample storefront with a mock store, live grants and settings. \`--deny <caps>\` starts
   capabilities as not granted, \`--fail <caps>\` makes their calls reject with
   \`REQUEST_FAILED\`, \`--empty-catalog\` empties the catalogue, \`--strict-host\` requires
   every contact-form field: try each so every error path shows readable text.`,
    ...steps.types,
    `Who does what: you change the code and run \`check\`, the preview, the type-check and
   \`package --dry-run\`. The publisher, a person, owns the signing key and the release
   (\`keygen\`, \`package --out\`, \`verify\`): leave those to them; never touch a private key.`,
    `A warning the publisher has reviewed can be acknowledged in \`platform-ext.config.json\`
   (D-33): \`{"acknowledged":[{"rule":"…","file":"…","reason":"…"}]}\`; errors never can.`,
    `Never edit \`contract-snapshot/\` or \`CONTEXT.md\`: \`platform-ext init --refresh\`
   regenerates both.`,
  ];
  return `## B. Workflow

A website extension is a folder with \`manifest.json\` and a \`runtime/\` folder. Only
\`runtime/\` is packaged: it holds exactly one HTML file (the entrypoint, \`index.html\`),
its module scripts, stylesheets, images and fonts. The extension runs in a sandboxed frame
on the storefront under a strict content-security policy and reaches the store only through
\`window.PLATFORM\` (parts C and F), one capability per operation.

${list.map((step, i) => `${i + 1}. ${step}`).join('\n')}

Rules that most often fail a first attempt: inline \`<script>\` or \`on*=\` attributes;
classic (non-module) scripts; remote URLs and bare import specifiers (there is no npm at run
time); network APIs; storage, cookies, navigation and pop-ups; links other than
\`#fragment\`; a second HTML file; files outside the allowed extensions; \`$schema\` or any
other unknown field in the manifest; a \`required\` property without a usable default.`;
}

/** One task-oriented recipe per capability: what it is for, a call, and what can go wrong. */
interface Recipe {
  readonly task: string;
  readonly code: string;
  /** Failures particular to this capability, beyond the codes every call can get. */
  readonly note: string;
}

const RECIPES: Readonly<Record<string, Recipe>> = {
  'analytics.events.write': {
    task: 'Record that something happened (a view, a click), for the store\'s analytics',
    code: "const { tracked } = await PLATFORM.analytics.track('promo_clicked', { label: 'summer', value: 1 });",
    note: '`tracked: false` means the visitor has not consented: not an error, show nothing.',
  },
  'booking.availability.read': {
    task: 'Show the free times of a bookable lane on one day',
    code: "const slots = await PLATFORM.booking.availability({ laneId: 3, date: '2025-06-01', durationMinutes: 60 });",
    note: 'The response\'s shape is not specified by the contract: read it defensively. ADAPTER_UNAVAILABLE when the site has no booking.',
  },
  'booking.create': {
    task: 'Send the visitor into the site\'s booking flow, optionally preset',
    code: "await PLATFORM.booking.start({ laneId: 3, startsAt: '2025-06-01T10:00:00+02:00' });",
    note: 'The visitor completes the booking in the site\'s own flow; the call answers once the flow has opened. ADAPTER_UNAVAILABLE when the site has no booking.',
  },
  'cart.manage': {
    task: 'Add a product to the cart, change its quantity or remove it',
    code: "const { ok, itemCount, total } = await PLATFORM.cart.manage('add', { productId: 42, quantity: 1 });",
    note: '`ok: false` means the store refused the change (for example sold out): say so in plain words. The cart\'s contents cannot be read.',
  },
  'catalog.products.read': {
    task: 'List or search the store\'s products',
    code: "const { products, lastPage } = await PLATFORM.catalog.products({ search: 'lamp', page: 1, limit: 12 });",
    note: 'An empty `products` list is a normal answer: show an empty state, not an error.',
  },
  'communications.sms.open': {
    task: 'Open the visitor\'s messaging app addressed to the store',
    code: "await PLATFORM.communications.text('Hello, I have a question about my order');",
    note: 'ADAPTER_UNAVAILABLE when the store has no valid text-message number: hide the button.',
  },
  'forms.submit': {
    task: 'Send the site\'s contact or newsletter form',
    code: "const { ok } = await PLATFORM.forms.submit('newsletter', { email });",
    note: 'The contract does not say which contact fields are mandatory (the tool treats all as optional); send every field you collect. `ok: false` means the site did not accept the form.',
  },
  'site.theme.read': {
    task: 'Match the storefront\'s colours, fonts and spacing',
    code: "const theme = await PLATFORM.theme.read(); root.style.setProperty('--primary', theme.primary);",
    note: 'Keep a built-in look for when the capability is denied or the call fails.',
  },
  'waivers.start': {
    task: 'Open the site\'s waiver flow (range, rental or class)',
    code: "await PLATFORM.waivers.start('rental');",
    note: 'ADAPTER_UNAVAILABLE when the site does not offer that waiver.',
  },
};

function recipes(): string {
  const common = BRIDGE_ERROR_CODE_LIST.filter((code) => code !== 'ADAPTER_UNAVAILABLE' && code !== 'INITIALIZATION_TIMEOUT');
  const perCapability = CAPABILITIES.map((c) => {
    const r = RECIPES[c.key]!;
    return `### ${r.task}\n\nCapability \`${c.key}\` (${c.risk} risk), \`${c.method}\`.\n\n${fenced(r.code, 'js')}\n\n${r.note}`;
  });
  const errors = BRIDGE_ERROR_CODE_LIST.map((code) => `| \`${code}\` | ${ERROR_DETAILS[code].handle} |`);
  return `## C. Recipes

Every call returns a promise. Besides the notes of each recipe, any call can reject with
${common.map((c) => `\`${c}\``).join(', ')}, and every call rejects with
\`INITIALIZATION_TIMEOUT\` when the handshake never happened. Wrap each call:

${fenced(`try {
  const page = await PLATFORM.catalog.products({ limit: 12 });
  render(page.products);
} catch (error) {
  // error.code is one of the codes below; show plain words, never error.message.
  showNotice(error.code === 'CAPABILITY_NOT_GRANTED' ? 'Products are not available here.' : 'Something went wrong. Please try again.');
}`, 'js')}

${perCapability.join('\n\n')}

### Error codes

What each code asks of extension code (their meanings are in part F's \`BridgeErrorCode\`):

| Code | What to do |
| --- | --- |
${errors.join('\n')}`;
}

/** The numbered sections of contract.md a project needs, by number, in order (7: release and signature). */
const CONTRACT_SECTIONS = [2, 3, 4, 5, 7, 11];

/** The manifest section with its field table replaced by the whole schema, whose descriptions are the table's words. */
function withSchema(sections: string, schema: string | undefined): string {
  if (schema === undefined) return sections;
  const lines = sections.split('\n');
  const start = lines.findIndex((line, i) => line.startsWith('| Field |') && lines.slice(0, i).some((l) => /^## 3\. /.test(l)));
  if (start < 0) return sections;
  let end = start;
  while (end < lines.length && lines[end]!.startsWith('|')) end++;
  const block =
    'The fields, as `contract-snapshot/manifest.schema.json` (JSON Schema 2020-12) states them; `check` adds what a schema cannot say (UTF-8 byte lengths, duplicate keys, cross-field rules):\n\n' +
    fenced(JSON.stringify(JSON.parse(schema)), 'json');
  return [...lines.slice(0, start), ...block.split('\n'), ...lines.slice(end)].join('\n');
}

/** The limits table (section 11) without its source column: extension code needs the names and values. */
function withoutLimitSources(sections: string): string {
  let inLimits = false;
  return sections
    .split('\n')
    .map((line) => {
      if (/^## /.test(line)) inLimits = /^## 11\. /.test(line);
      if (!inLimits || !line.startsWith('| ')) return line;
      const cells = line.slice(2, -2).split(' | ');
      return cells.length === 3 ? `| ${cells[0]} | ${cells[1]} |` : line;
    })
    .join('\n');
}

/** The level-2 sections of contract.md whose number is in `keep`, fenced code left alone. */
function contractSections(contract: string, keep: readonly number[]): string {
  const lines = contract.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  let keeping = false;
  for (const line of lines) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && opener === null) {
      const heading = /^## (\d+)\. /.exec(line);
      if (heading !== null) keeping = keep.includes(Number(heading[1]));
      else if (/^## /.test(line)) keeping = false;
    }
    if (fence !== null) {
      if (opener !== null && opener[1]![0] === fence[0] && opener[1]!.length >= fence.length && line.trim() === opener[1]) fence = null;
    } else if (opener !== null) {
      fence = opener[1]!;
    }
    if (keeping) out.push(line);
  }
  return out.join('\n').trim();
}

/**
 * The decisions that shape extension code and that part D does not already state in full;
 * the others (signing, archives, reports, preview) are in contract-snapshot/contract.md.
 */
const CODE_DECISIONS = new Set(['2', '7', '8', '9', '10', '18', '19', '22', '23', '26', '27', '34', '44']);
/** Shape extension code too, but part D's sections say all of them: listed by title only. */
const STATED_IN_PART_D = ['1', '2a', '4', '5', '6', '17'];

function decisions(): string {
  const rows = DECISIONS.filter((d) => CODE_DECISIONS.has(d.id)).map((d) => `- **D-${d.id} ${d.title}** (tool decision). ${d.text}`);
  const stated = DECISIONS.filter((d) => STATED_IN_PART_D.includes(d.id)).map((d) => `D-${d.id} (${d.title.toLowerCase()})`);
  return `## E. Tool decisions\n\nWhere the contract is silent, \`platform-ext\` decides as follows. These are the tool's choices, not the contract's; the store's own validators have the final word. Part D states ${stated.join(', ')} where they apply.\n\n${rows.join('\n')}`;
}

/** The whole context document, for a project made with `template` (its workflow and reference extension). */
export function contextDocument(template: TemplateName = DEFAULT_TEMPLATE): string {
  const snapshot = snapshotFiles();
  const parts: string[] = [];
  parts.push(contextFirstLine(template));
  parts.push(`# Website extensions for the platform: context for AI coding agents (contract v1)

This document is self-contained for writing extension code: what the platform cannot do,
recipes for each capability, the contract's rules for a project, the tool's decisions, the
API declarations of \`window.PLATFORM\`, the rule ids of \`platform-ext check\` and a complete
reference extension. Where they disagree with anything else you know, they win. The whole
contract, the manifest schema and the rules with their fixes are in \`contract-snapshot/\`.

Parts: A. What version 1 cannot do. B. Workflow. C. Recipes. D. The contract for a project.
E. Tool decisions. F. API declarations. G. Rule catalogue. H. Reference extension.`);
  parts.push(CANNOT);
  parts.push(workflow(template));
  parts.push(recipes());

  const contract = snapshot.get('contract.md');
  parts.push(
    `## D. The contract for a project\n\nThe sections of \`contract-snapshot/contract.md\` that govern a project's files, in the project's words.\n\n` +
      (contract !== undefined ? demoteHeadings(withoutLimitSources(withSchema(contractSections(contract, CONTRACT_SECTIONS), snapshot.get('manifest.schema.json'))), 1) : missing('contract.md')),
  );
  parts.push(decisions());

  const declarations = snapshot.get('platform.d.ts');
  parts.push(
    `## F. API declarations\n\n\`contract-snapshot/platform.d.ts\`: every member of \`window.PLATFORM\`, each request and response, the error codes.\n\n` +
      (declarations !== undefined ? fenced(declarations, 'ts') : missing('platform.d.ts')),
  );

  const warnings = RULES.filter((r) => r.severity === 'warning').length;
  parts.push(
    `## G. Rule catalogue\n\n${RULES.length} rules, each with a permanent id \`<area>/<name>\`: ${RULES.length - warnings} errors, which fail ` +
      `\`check\`, and ${warnings} warnings, marked (W). Every finding names its rule, the file, JSON pointer or line, and how to fix it; ` +
      `\`contract-snapshot/rules.json\` has each rule's title, contract reference and fix, and \`platform-ext check --list-rules\` prints them.\n\n` +
      compactCatalogue(),
  );

  const reference = renderTemplates(SAMPLE_VALUES, template);
  const files = REFERENCE_FILES[template].map(({ path, lang }) => `### ${path}\n\n${fenced(reference.get(path) ?? '', lang)}`);
  const writer = template === DEFAULT_TEMPLATE ? '`platform-ext init`' : `\`platform-ext init --template ${template}\``;
  const styles = template === DEFAULT_TEMPLATE ? 'runtime/styles.css' : 'src/styles.css';
  const moduleFile = template === DEFAULT_TEMPLATE ? 'runtime/main.js' : 'src/main.ts';
  parts.push(
    `## H. Reference extension\n\n\`manifest.json\` and the entrypoint as ${writer} writes them, for the namespace \`${SAMPLE_VALUES.namespace}\`. ` +
      `Beside them it writes \`${styles}\` and \`${moduleFile}\`, a module that reads the settings and the theme, lists products, adds them to the cart and turns every error code into words for visitors, as part C shows; ` +
      `the project passes \`check\` with no findings and type-checks against part F.\n\n${files.join('\n\n')}`,
  );
  return `${parts.join('\n\n')}\n`;
}
