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

/**
 * The context document comes in one variant per `init --template`: the workflow and the
 * reference extension of a Vite project differ from those of a plain one. Its first line
 * names the variant, so that `check` and `init --refresh` compare and rewrite a project's
 * CONTEXT.md with the variant it was written as.
 */
export type ContextVariant = 'plain' | 'vite';

/** The whole first line of the context document of `variant`. */
export function contextFirstLine(variant: ContextVariant): string {
  const command = variant === 'plain' ? 'platform-ext context' : `platform-ext context --template ${variant}`;
  return `${CONTEXT_MARKER} Regenerate with "${command}", or in a project with "platform-ext init --refresh". -->`;
}

/** The variant a context document's first line names (any text that is not the vite line is plain). */
export function contextVariantOf(text: string): ContextVariant {
  return text.startsWith(contextFirstLine('vite')) ? 'vite' : 'plain';
}

/** Where the build records the size and digest of a variant's document (src/contract/snapshot-drift.ts). */
export function contextDigestKey(variant: ContextVariant): string {
  return variant === 'plain' ? CONTEXT_FILE : `${CONTEXT_FILE}#${variant}`;
}
