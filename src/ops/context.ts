// `context` as a use case: the context document for AI coding agents, returned or written. An existing
// file is replaced (atomically) only when it is a context document; a new one is created exclusively.
import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { contextDocument } from '../contract/context-document.js';
import type { TemplateName } from '../contract/templates.js';
import { createFileExclusive, writeFileAtomic } from '../node/atomic-write.js';
import { isGeneratedContext } from '../contract/snapshot-drift.js';
import { UsageError } from '../node/usage-error.js';

export interface ContextOptions {
  readonly template: TemplateName;
  readonly out?: string;
}

export interface ContextOutcome {
  /** The same bytes on every run for a template. */
  readonly document: string;
  readonly written: boolean;
}

/** Throws a UsageError for a file that is not a context document, a missing folder and a failed write. */
export function agentContext(options: ContextOptions): ContextOutcome {
  const document = contextDocument(options.template);
  const out = options.out;
  if (out === undefined) return { document, written: false };
  let exists = false;
  try {
    lstatSync(out);
    exists = true;
  } catch {
    exists = false;
  }
  if (exists && !isGeneratedContext(out)) {
    throw new UsageError(`"${out}" exists and is not a context document written by platform-ext: choose another --out file, or move it away`);
  }
  try {
    lstatSync(dirname(out));
  } catch {
    throw new UsageError(`The folder "${dirname(out)}" for --out does not exist: create it first`);
  }
  try {
    if (exists) writeFileAtomic(out, document);
    else createFileExclusive(out, document);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`"${out}" appeared while the document was being written: nothing was overwritten; run again`);
    throw new UsageError(`Cannot write "${out}": ${(error as Error).message}`);
  }
  return { document, written: true };
}
