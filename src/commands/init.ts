// `platform-ext init <dir> --namespace <ns> --name <text>`: scaffold a project (issue 5).
import type { ParsedArgs } from '../args.js';
import { UsageError } from '../usage-error.js';
import type { CommandIo } from './io.js';

export const INIT_FLAGS = {
  namespace: { type: 'string', valueName: '<ns>', description: 'The extension namespace (vendor.name)' },
  name: { type: 'string', valueName: '<text>', description: 'The display name' },
  help: { type: 'boolean', description: 'Show this help', short: 'h' },
} as const;

export const INIT_HELP = {
  usage: 'platform-ext init <dir> --namespace <ns> --name <text>',
  summary: 'Create a new extension project',
  details: 'Not built yet.',
} as const;

export function runInit(_args: ParsedArgs, _io: CommandIo): number {
  throw new UsageError('"init" is not built yet');
}
