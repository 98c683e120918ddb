// `platform-ext package <dir> --out <dir> --private-key <file>` and `--dry-run`: runs
// ops/package-project.ts and prints its outcome: the findings when the project has errors
// (nothing written), the listing with each limit for a dry run, the hashes and the path
// written otherwise.
import { sep } from 'node:path';
import type { ParsedArgs } from './args.js';
import { ansiStyle, PLAIN, renderText } from '../render/report-text.js';
import { UsageError } from '../node/usage-error.js';
import {
  escapeTerminal,
  BUNDLE_MAX_COMPRESSED_BYTES,
  BUNDLE_MAX_COMPRESSION_RATIO,
  BUNDLE_MAX_EXPANDED_BYTES,
  BUNDLE_MAX_FILE_BYTES,
  BUNDLE_MAX_FILES,
  formatSize,
  SUBMISSION_FILES,
} from '../validator/internal.js';
import { packageProject, type PackageOutcome } from '../ops/package-project.js';
import { exitStatusOf } from '../pipeline/report.js';
import { trace } from '../node/trace.js';
import type { CommandIo } from './command-io.js';
import type { CommandSpec } from './command-spec.js';

function budgetLines(outcome: PackageOutcome): string[] {
  const expanded = outcome.files.reduce((n, f) => n + f.size, 0);
  const largest = outcome.files.reduce((a, f) => (f.size > (a?.size ?? -1) ? f : a), undefined as (typeof outcome.files)[number] | undefined);
  const compressed = outcome.compressedBytes ?? 0;
  const ratio = compressed === 0 ? 0 : expanded / compressed;
  return [
    `  files          ${outcome.files.length} of ${BUNDLE_MAX_FILES}`,
    `  expanded       ${formatSize(expanded)} of ${formatSize(BUNDLE_MAX_EXPANDED_BYTES)}`,
    `  largest file   ${formatSize(largest?.size ?? 0)} of ${formatSize(BUNDLE_MAX_FILE_BYTES)}${largest ? ` (runtime/${escapeTerminal(largest.path)})` : ''}`,
    `  compressed     ${formatSize(compressed)} of ${formatSize(BUNDLE_MAX_COMPRESSED_BYTES)} (ratio ${ratio.toFixed(1)}, at most ${BUNDLE_MAX_COMPRESSION_RATIO})`,
  ];
}

function runPackage(args: ParsedArgs, io: CommandIo): number {
  trace('command');
  if (args.positionals.length !== 1) throw new UsageError('"package" takes one project folder: platform-ext package <dir> --out <dir> --private-key <file>');
  const dir = args.positionals[0]!;
  const dryRun = args.flags['dry-run'] === true;
  const out = args.flags['out'];
  const keyPath = args.flags['private-key'];
  if (!dryRun && (typeof out !== 'string' || typeof keyPath !== 'string')) {
    throw new UsageError('"package" needs --out <dir> and --private-key <file> (or --dry-run to see what would be packaged)');
  }
  const outcome = packageProject(dir, {
    dryRun,
    ...(typeof out === 'string' && { out }),
    ...(typeof keyPath === 'string' && !dryRun && { privateKey: keyPath }),
  });
  const status = exitStatusOf(outcome.report);
  if (status !== 0) {
    io.out(renderText(outcome.report, io.color ? ansiStyle() : PLAIN));
    io.err('platform-ext: package stopped: the project has errors (listed above); nothing was written\n');
    return status;
  }
  if (dryRun) {
    const lines = [`Would package ${outcome.namespace} ${outcome.version} from ${dir}/runtime:`];
    let width = 0;
    for (const f of outcome.files) width = Math.max(width, escapeTerminal(f.path).length);
    for (const f of outcome.files) lines.push(`  ${escapeTerminal(f.path).padEnd(width)}  ${formatSize(f.size).padStart(9)}`);
    lines.push('', ...budgetLines(outcome), '', 'Dry run: nothing was written.');
    io.out(lines.join('\n') + '\n');
    return 0;
  }
  io.out(
    [
      `Packaged ${outcome.namespace} ${outcome.version}`,
      ...budgetLines(outcome),
      `  manifest       sha256 ${outcome.manifestSha256}`,
      `  artifact       sha256 ${outcome.artifactSha256}`,
      `  key            ${outcome.publicKeyId}`,
      `  artifact path  ${outcome.artifactPath}`,
      '',
      `Wrote ${out}${sep}: ${SUBMISSION_FILES.join(', ')}`,
      `Check it as the store will: platform-ext verify ${out}`,
      '',
    ].join('\n'),
  );
  return 0;
}

export const command: CommandSpec = {
  name: 'package',
  usage: 'platform-ext package <dir> --out <dir> --private-key <file> | platform-ext package <dir> --dry-run',
  summary: 'Check, build the deterministic bundle.zip, sign, and write the five submission files',
  details:
    'Runs the full check first: with any error nothing is written. The same source and key always give\n' +
    'byte-identical files. The out folder must be absent, empty, or an earlier submission set, which is\n' +
    'replaced whole.\n\n' +
    'Exit status: 0 written (with --dry-run: listed), 1 the project has errors (nothing written), 2 usage\n' +
    'error, unreadable project or key, or an out folder that cannot be used.',
  flags: {
    out: { type: 'string', valueName: '<dir>', description: 'Folder for the five submission files: absent, empty, or a set package wrote there (replaced whole)' },
    'private-key': { type: 'string', valueName: '<file>', description: 'The Ed25519 private key (PKCS#8 PEM) from keygen; must be outside the project' },
    'dry-run': { type: 'boolean', description: 'List what would go into the archive, with sizes against each limit; needs no key, writes nothing' },
    help: { type: 'boolean', description: 'Show this help', short: 'h' },
  },
  run: runPackage,
};
