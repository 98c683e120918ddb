// `platform-ext context [--out <file>]`: the one-file context document (issue 5).
import type { ParsedArgs } from '../args.js';
import { UsageError } from '../usage-error.js';
import type { CommandIo } from './io.js';

export const CONTEXT_FLAGS = {
  out: { type: 'string', valueName: '<file>', description: 'Write the document to <file> instead of standard output' },
  help: { type: 'boolean', description: 'Show this help', short: 'h' },
} as const;

export const CONTEXT_HELP = {
  usage: 'platform-ext context [--out <file>]',
  summary: 'Print the context document for AI coding agents',
  details: 'Not built yet.',
} as const;

export function runContext(_args: ParsedArgs, _io: CommandIo): number {
  throw new UsageError('"context" is not built yet');
}
