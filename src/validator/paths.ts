// D-2: one path grammar for bundle files and the entrypoint, for the ZIP writer and every reader: segments of ASCII
// letters, digits, `.`, `_`, `-`, not starting with `.` (no `.DS_Store`, `._a.png`, `.`, `..`).

export type PathProblem =
  | 'empty'
  | 'leading-slash'
  | 'backslash'
  | 'query-or-fragment'
  | 'empty-segment'
  | 'dot-segment'
  | 'hidden-segment'
  | 'bad-character';

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** The first problem of a bundle-relative path, or null when it is safe. */
export function pathProblem(path: string): PathProblem | null {
  if (path === '') return 'empty';
  if (path.startsWith('/')) return 'leading-slash';
  if (path.includes('\\')) return 'backslash';
  if (path.includes('?') || path.includes('#')) return 'query-or-fragment';
  for (const segment of path.split('/')) {
    if (segment === '') return 'empty-segment';
    if (segment === '.' || segment === '..') return 'dot-segment';
    if (!SEGMENT.test(segment)) return 'bad-character';
    if (segment.startsWith('.')) return 'hidden-segment';
  }
  return null;
}

/** Human words for each problem, used in finding messages. */
export const PATH_PROBLEM_TEXT: Readonly<Record<PathProblem, string>> = {
  'empty': 'the path is empty',
  'leading-slash': 'it starts with "/" (paths are relative to runtime/)',
  'backslash': 'it contains a backslash (use "/")',
  'query-or-fragment': 'it contains "?" or "#"',
  'empty-segment': 'it has an empty segment ("//" or a trailing "/")',
  'dot-segment': 'it has a "." or ".." segment',
  'hidden-segment': 'a segment starts with "." (hidden files are not allowed)',
  'bad-character': 'a segment has a character other than ASCII letters, digits, ".", "_" and "-"',
};

/** Lowercased extension after the last `.` of the last segment ('' when none). D-2: case-insensitive. */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}
