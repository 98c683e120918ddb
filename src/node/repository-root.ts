// The repository root above a project (often in a subfolder), for outputs read against it by code scanning (SARIF).
import { lstatSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

export function isWithin(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

// The nearest `.git` entry (a worktree's is a file) at or above `dir`, else `workspace` (GITHUB_WORKSPACE) holding it.
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
