// The scaffold's templates and how they become a project's files. Each `init --template`
// has a folder in the repository: `plain` (the default: runtime/ written by hand) is
// templates/scaffold/, `vite` (TypeScript built into runtime/ by Vite) is templates/vite/.
// The CLI bundle carries them as one string (scripts/build-templates.mjs passes
// __PLATFORM_TEMPLATES__ to esbuild `define`), so an installed tool needs no templates
// folder next to it; unbundled (build/, the tests) they are read from the folders.
//
// Two placeholders, `{{namespace}}` and `{{name}}` (plus `{{publisher}}`, the namespace's
// first slug), are replaced with text encoded for the file they land in: JSON string
// content in .json files, HTML text in .html files, as is elsewhere. Template paths store
// a leading dot as "_" (`_gitignore` -> `.gitignore`): npm drops `.gitignore` from
// published packages, and a real `.vscode/` or `.editorconfig` in templates/ would apply
// to the repository itself.
import { readdirSync, readFileSync } from 'node:fs';

declare const __PLATFORM_TEMPLATES__: string | undefined;

/** The templates `init --template` offers; the first is the default. */
export const TEMPLATE_NAMES = ['plain', 'vite'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];
/** The default template. */
export const DEFAULT_TEMPLATE: TemplateName = 'plain';

/** Each template's folder under templates/ (scripts/build-templates.mjs lists the same folders). */
const TEMPLATE_FOLDER: Readonly<Record<TemplateName, string>> = { plain: 'scaffold', vite: 'vite' };

export function isTemplateName(text: string): text is TemplateName {
  return (TEMPLATE_NAMES as readonly string[]).includes(text);
}

/** The values a scaffold is rendered for; both already valid (see validateInitArgs in src/contract/scaffold.ts). */
export interface ScaffoldValues {
  readonly namespace: string;
  readonly name: string;
}

const PLACEHOLDER = /\{\{([a-z]+)\}\}/g;

function listFolder(dir: URL, prefix: string, out: Map<string, string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) listFolder(new URL(`${entry.name}/`, dir), rel, out);
    else if (entry.isFile()) out.set(rel, readFileSync(new URL(entry.name, dir), 'utf8'));
  }
}

const cached = new Map<TemplateName, ReadonlyMap<string, string>>();

/** The files of one template by path inside its folder, in byte order of the paths. */
export function scaffoldTemplates(template: TemplateName = DEFAULT_TEMPLATE): ReadonlyMap<string, string> {
  const known = cached.get(template);
  if (known !== undefined) return known;
  const folder = TEMPLATE_FOLDER[template];
  const files = new Map<string, string>();
  if (typeof __PLATFORM_TEMPLATES__ === 'string') {
    const all = JSON.parse(__PLATFORM_TEMPLATES__) as Record<string, Record<string, string>>;
    for (const [path, text] of Object.entries(all[folder] ?? {})) files.set(path, text);
  } else {
    // Unbundled: this file is build/contract/templates.js (or src/contract/templates.ts).
    listFolder(new URL(`../../templates/${folder}/`, import.meta.url), '', files);
  }
  if (files.size === 0) throw new Error(`internal: the template "${template}" has no files`);
  const sorted = new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  cached.set(template, sorted);
  return sorted;
}

/** Where a template lands in a project: a leading "_" of any segment stands for ".". */
export function projectPathOf(templatePath: string): string {
  return templatePath
    .split('/')
    .map((segment) => (segment.startsWith('_') ? `.${segment.slice(1)}` : segment))
    .join('/');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function encoderFor(path: string): (text: string) => string {
  if (path.endsWith('.json')) return (text) => JSON.stringify(text).slice(1, -1);
  if (path.endsWith('.html')) return escapeHtml;
  return (text) => text;
}

/** One template with its placeholders replaced; an unknown placeholder is our bug, not the user's. */
export function renderTemplate(templatePath: string, text: string, values: ScaffoldValues): string {
  const encode = encoderFor(templatePath);
  const known: Readonly<Record<string, string>> = {
    namespace: values.namespace,
    name: values.name,
    publisher: values.namespace.slice(0, values.namespace.indexOf('/')),
  };
  return text.replace(PLACEHOLDER, (whole, key: string) => {
    const value = known[key];
    if (value === undefined) throw new Error(`internal: the template file ${templatePath} has an unknown placeholder ${whole}`);
    return encode(value);
  });
}

/** The rendered templates by project path, in byte order of the paths. */
export function renderTemplates(values: ScaffoldValues, template: TemplateName = DEFAULT_TEMPLATE): ReadonlyMap<string, string> {
  const out: [string, string][] = [];
  for (const [path, text] of scaffoldTemplates(template)) out.push([projectPathOf(path), renderTemplate(path, text, values)]);
  out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(out);
}
