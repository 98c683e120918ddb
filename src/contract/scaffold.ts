// What `init` writes and `init --refresh` rewrites, and the checks on init's two values.
//
// A project's files come from three places: the templates (one folder per `init
// --template`, rendered for the namespace and name), the contract snapshot (snapshotFiles(),
// under contract-snapshot/) and the context document (CONTEXT.md). The last two are "generated":
// never edited by hand, compared by `check` (src/contract/snapshot-drift.ts) and rewritten
// by `init --refresh`, which touches nothing else.
import { isNamespace, isSlug, NAME_MAX_BYTES, NAME_MIN_BYTES, utf8ByteLength } from '../validator/internal.js';
import { contextDocument } from './context-document.js';
import { snapshotFiles } from './snapshot.js';
import { DEFAULT_TEMPLATE, TEMPLATE_NAMES, renderTemplates, type ScaffoldValues, type TemplateName } from './templates.js';
import { CONTEXT_FILE, SNAPSHOT_FOLDER, contextDigestKey } from './generated-names.js';

export { CONTEXT_FILE, SNAPSHOT_FOLDER } from './generated-names.js';

/** A namespace close to `text` that the grammar accepts, for "did you mean". */
function namespaceSuggestion(text: string): string | undefined {
  const slugs = text
    .toLowerCase()
    .split(/[/\\.:]+/)
    .map((part) => part.replace(/[^a-z0-9]+/g, '-').replace(/^[^a-z]+/, '').replace(/-+$/, ''))
    .filter((part) => part !== '');
  if (slugs.length !== 2) return undefined;
  const candidate = `${slugs[0]}/${slugs[1]}`;
  return isNamespace(candidate) ? candidate : undefined;
}

/** Why `text` cannot be init's namespace (contract "Manifest": `namespace`), or null. */
export function namespaceProblem(text: string): string | null {
  if (isNamespace(text)) return null;
  const grammar = 'a namespace is <publisher-slug>/<package-slug>, each slug a lowercase letter, then lowercase letters and digits, with single hyphens between groups';
  const slash = text.indexOf('/');
  let what: string;
  if (slash < 0) what = 'has no "/"';
  else if (!isSlug(text.slice(0, slash))) what = `has an invalid publisher slug "${text.slice(0, slash)}"`;
  else what = `has an invalid package slug "${text.slice(slash + 1)}"`;
  const near = namespaceSuggestion(text);
  return `The namespace "${text}" ${what}: ${grammar}${near !== undefined ? `; did you mean "${near}"?` : ' (for example "acme/product-strip")'}`;
}

// C0 and C1 controls, DEL, the line and paragraph separators (line breaks in JavaScript
// comments, where the name appears), and lone surrogates (which the manifest's JSON
// cannot carry: D-5).
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udfff]/u;

/** Why `text` cannot be init's display name (contract "Manifest": `name`; D-10), or null. */
export function nameProblem(text: string): string | null {
  const bytes = utf8ByteLength(text);
  if (bytes < NAME_MIN_BYTES || text.trim() === '') return 'The name must not be empty: give the display name with --name "<text>"';
  if (bytes > NAME_MAX_BYTES) return `The name is ${bytes} bytes of UTF-8; at most ${NAME_MAX_BYTES} are allowed: shorten it`;
  if (NAME_FORBIDDEN.test(text)) return 'The name must be one line of text without control characters: remove line breaks, tabs and other control characters';
  return null;
}

/** The generated files of a project made with `template` (contract-snapshot/ and its CONTEXT.md) by project path. */
export function generatedFiles(template: TemplateName = DEFAULT_TEMPLATE): ReadonlyMap<string, string> {
  const files = new Map<string, string>();
  for (const [name, content] of snapshotFiles()) files.set(`${SNAPSHOT_FOLDER}/${name}`, content);
  files.set(CONTEXT_FILE, contextDocument(template));
  return files;
}

/**
 * What `check` compares a project with, by digest key (scripts/build.mjs records each
 * one's size and SHA-256): the snapshot and the context document of every template.
 */
export function generatedDigestSources(): ReadonlyMap<string, string> {
  const sources = new Map<string, string>(generatedFiles());
  for (const template of TEMPLATE_NAMES) sources.set(contextDigestKey(template), contextDocument(template));
  return sources;
}

/** Every file `init` writes for `template`, by project path, in byte order of the paths. */
export function scaffoldFiles(values: ScaffoldValues, template: TemplateName = DEFAULT_TEMPLATE): ReadonlyMap<string, string> {
  const all = new Map<string, string>(renderTemplates(values, template));
  for (const [path, content] of generatedFiles(template)) {
    if (all.has(path)) throw new Error(`internal: the template "${template}" has ${path}, which is generated`);
    all.set(path, content);
  }
  return new Map([...all].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
