// The scaffold templates (one folder per `init --template`: templates/scaffold/ for
// `plain`, templates/vite/ for `vite`) for embedding in the CLI: every file as text, keyed
// by the template's folder name, then by its path inside that folder with "/" separators,
// in byte order. The CLI build passes them to esbuild `define` as __PLATFORM_TEMPLATES__
// (a JSON string of that object); src/contract/templates.ts reads it, and reads the
// folders themselves when it runs unbundled (build/, the tests).
//
//   import { templateDefines } from './build-templates.mjs';
//   define: { ...templateDefines(root), ... }
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The template folders under templates/, one per `init --template` (src/contract/templates.ts names them). */
export const TEMPLATE_FOLDERS = ['scaffold', 'vite'];

function listFiles(dir, prefix, out, folder) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) listFiles(join(dir, entry.name), rel, out, folder);
    else if (entry.isFile()) out.push(rel);
    else throw new Error(`templates/${folder}/${rel} is neither a file nor a folder`);
  }
  return out;
}

/** The template files: folder name -> path inside templates/<folder>/ -> text. */
export function readTemplates(root) {
  const all = {};
  for (const folder of TEMPLATE_FOLDERS) {
    const dir = join(root, 'templates', folder);
    const files = {};
    for (const rel of listFiles(dir, '', [], folder).sort()) files[rel] = readFileSync(join(dir, rel), 'utf8');
    all[folder] = files;
  }
  return all;
}

/** The esbuild `define` entry for the templates. */
export function templateDefines(root) {
  return { __PLATFORM_TEMPLATES__: JSON.stringify(JSON.stringify(readTemplates(root))) };
}
