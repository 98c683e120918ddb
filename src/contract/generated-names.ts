// Where a project's generated files live and how a generated context document starts: the
// little that `check` needs of the contract's generators (src/contract/snapshot-drift.ts),
// in a module of its own so that `check` does not load the generators themselves.

/** The snapshot's folder inside a project. */
export const SNAPSHOT_FOLDER = 'contract-snapshot';
/** The context document inside a project. */
export const CONTEXT_FILE = 'CONTEXT.md';

/**
 * The first line of every context document. `context --out` replaces an existing file only
 * when it starts with this line (a document it wrote), and `check` compares a project's
 * CONTEXT.md only when it does (a hand-written CONTEXT.md is the publisher's own).
 */
export const CONTEXT_MARKER = '<!-- platform-ext context document: generated, do not edit.';

/** True when `text` is a context document this tool wrote (any version). */
export function isContextDocument(text: string): boolean {
  return text.startsWith(CONTEXT_MARKER);
}
