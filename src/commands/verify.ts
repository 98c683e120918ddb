// `platform-ext verify <out-dir> [--json]`: the submission set exactly as the store will
// see it: reopen the archive (D-16), validate its contents with the same rules as
// `check`, recompute both hashes, check the record and the key, verify the signature.
import type { ParsedArgs } from './args.js';
import { ansiStyle, PLAIN } from '../render/report-text.js';
import { runReleaseCheck } from '../pipeline/release-pipeline.js';
import { UsageError } from '../node/usage-error.js';
import type { CommandIo } from './command-io.js';

export const VERIFY_FLAGS = {
  json: { type: 'boolean', description: 'Print the report as one JSON object (format platform-extension-report-v1)' },
  help: { type: 'boolean', description: 'Show this help', short: 'h' },
} as const;

export function runVerify(args: ParsedArgs, io: CommandIo): number {
  if (args.positionals.length !== 1) throw new UsageError('"verify" takes one release folder: platform-ext verify <out-dir>');
  return runReleaseCheck('verify', args.positionals[0]!, args.flags['json'] === true, io.color ? ansiStyle() : PLAIN, io.out);
}
