// Where this tool is installed: the folder of its own package.json (name "platform-ext"),
// found by walking up from this module (dist/cli/<chunk>.mjs when bundled, build/node/ in
// the tests). `init --template vite` links a new project to it with a `file:` dependency,
// so that the project never names a registry version of a package that is not published
// (an unpublished name would fail to install, and could be registered by anyone).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ToolRoot = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly why: string };

/** True when `dir` holds this tool's package.json and its built command. */
function isToolFolder(dir: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
    return pkg.name === 'platform-ext' && existsSync(join(dir, 'dist', 'platform-ext.mjs'));
  } catch {
    return false;
  }
}

/**
 * The installed tool's folder, when a project can depend on it: not inside npx's cache
 * (`_npx`), which npm may clear at any time. `from` is a file URL inside the tool.
 */
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

/** The `file:` specifier of a folder for package.json ("/" separators on every platform). */
export function fileSpecifier(path: string): string {
  return `file:${path.split(sep).join('/')}`;
}
