// The root of the source repository that holds a project folder, for outputs whose paths a
// code-scanning service reads against the repository root (SARIF). A project often sits in
// a subfolder of a repository (a monorepo, an `extension/` folder beside a site).
import { lstatSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** True when `inner` is `outer` or inside it (both absolute). */
export function isWithin(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The nearest folder at or above `dir` that holds a `.git` entry (a folder, or the file a
 * worktree or submodule has), else `workspace` (GITHUB_WORKSPACE, the checkout of a GitHub
 * Actions job) when `dir` is inside it, else undefined. Only the name's existence is read.
 */
export function repositoryRootOf(dir: string, workspace?: string): string | undefined {
  const start = resolve(dir);
  for (let folder = start; ; folder = dirname(folder)) {
    try {
      lstatSync(resolve(folder, '.git'));
      return folder;
    } catch {
      // Not here: one folder up.
    }
    if (dirname(folder) === folder) break;
  }
  if (workspace !== undefined && workspace !== '' && isWithin(resolve(workspace), start)) return resolve(workspace);
  return undefined;
}
