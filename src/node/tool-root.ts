// Where this tool is installed: `init --template vite` depends on it by `file:`, since a registry version of an
// unpublished name fails to install and could be registered by anyone.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ToolRoot = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly why: string };

function isToolFolder(dir: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
    return pkg.name === 'platform-ext' && existsSync(join(dir, 'dist', 'platform-ext.mjs'));
  } catch {
    return false;
  }
}

// Never inside npx's cache (`_npx`), which npm may clear at any time. `from` is a file URL inside the tool.
export function toolRoot(from: string = import.meta.url): ToolRoot {
  let dir: string;
  try {
    dir = dirname(fileURLToPath(from));
  } catch {
    return { ok: false, why: 'this copy of platform-ext is not a file on disk' };
  }
  for (let depth = 0; depth < 6; depth += 1) {
    if (isToolFolder(dir)) {
      if (dir.split(sep).includes('_npx')) return { ok: false, why: `this copy of platform-ext runs from npx's cache (${dir}), which npm may clear` };
      return { ok: true, path: dir };
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { ok: false, why: 'the folder this copy of platform-ext is installed in was not found' };
}

export function fileSpecifier(path: string): string {
  return `file:${path.split(sep).join('/')}`;
}
