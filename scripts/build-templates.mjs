// The scaffold templates (templates/scaffold/) for embedding in the CLI: every file as
// text, keyed by its path inside templates/scaffold/ with "/" separators, in byte order.
// The CLI build passes them to esbuild `define` as __PLATFORM_TEMPLATES__ (a JSON string
// of that object); src/contract/templates.ts reads it, and reads the folder itself when
// it runs unbundled (build/, the tests).
//
//   import { templateDefines } from './build-templates.mjs';
//   define: { ...templateDefines(root), ... }
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function listFiles(dir, prefix, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) listFiles(join(dir, entry.name), rel, out);
    else if (entry.isFile()) out.push(rel);
    else throw new Error(`templates/scaffold/${rel} is neither a file nor a folder`);
  }
  return out;
}

/** The template files: path inside templates/scaffold/ -> text. */
export function readTemplates(root) {
  const dir = join(root, 'templates/scaffold');
  const files = {};
  for (const rel of listFiles(dir, '', []).sort()) files[rel] = readFileSync(join(dir, rel), 'utf8');
  return files;
}

/** The esbuild `define` entry for the templates. */
export function templateDefines(root) {
  return { __PLATFORM_TEMPLATES__: JSON.stringify(JSON.stringify(readTemplates(root))) };
}
