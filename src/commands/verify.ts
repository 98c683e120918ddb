// `platform-ext verify <out-dir> [--json]`: runs ops/verify-release.ts and prints its report,
// as JSON or as text followed by what was recomputed. Exit status 0 when the set is valid, 1
// when it is not (D-21).
import type { ParsedArgs } from './args.js';
import { ansiStyle, PLAIN, renderText } from '../render/report-text.js';
import { verifyRelease } from '../ops/verify-release.js';
import { exitStatusOf } from '../pipeline/report.js';
import { escapeTerminal, stringifyJson, type ReleaseResult } from '../validator/internal.js';
import { UsageError } from '../node/usage-error.js';
import type { CommandIo } from './command-io.js';
import type { CommandSpec } from './command-spec.js';

/** Lines after the findings: what was recomputed (text output only). */
function recomputed(result: ReleaseResult): string[] {
  const lines: string[] = [];
  if (result.manifest?.namespace !== undefined) lines.push(`  release        ${escapeTerminal(result.manifest.namespace)} ${escapeTerminal(result.manifest.version ?? '?')}`);
  if (result.manifestSha256 !== undefined) lines.push(`  manifest       sha256 ${result.manifestSha256}`);
  if (result.artifactSha256 !== undefined) lines.push(`  artifact       sha256 ${result.artifactSha256}`);
  if (result.publicKeyId !== undefined) lines.push(`  key            ${result.publicKeyId}`);
  lines.push(`  signature      ${result.signatureValid ? 'valid' : 'NOT valid'}`);
  return lines;
}

function runVerify(args: ParsedArgs, io: CommandIo): number {
  if (args.positionals.length !== 1) throw new UsageError('"verify" takes one release folder: platform-ext verify <out-dir>');
  const { report, result } = verifyRelease(args.positionals[0]!);
  if (args.flags['json'] === true) io.out(stringifyJson(report) + '\n');
  else io.out(renderText(report, io.color ? ansiStyle() : PLAIN) + recomputed(result).join('\n') + '\n');
  return exitStatusOf(report);
}

export const command: CommandSpec = {
  name: 'verify',
  usage: 'platform-ext verify <out-dir> [--json]',
  summary: 'Verify a submission set as the store will: archive, contents, hashes, record, key, signature',
  details:
    'Reopens bundle.zip with the hardened reader, validates its contents with the same rules as check,\n' +
    'recomputes both hashes, checks submission.json and the key fingerprint, and verifies the signature,\n' +
    'saying what changed when it fails.\n\n' +
    'Exit status: 0 no errors, 1 at least one error, 2 usage error or unreadable folder.',
  flags: {
    json: { type: 'boolean', description: 'Print the report as one JSON object (format platform-extension-report-v1)' },
    help: { type: 'boolean', description: 'Show this help', short: 'h' },
  },
  run: runVerify,
};
