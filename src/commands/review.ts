// `platform-review <release-dir> [--known-keys <file>] [--baseline <dir>] [--format ...]`:
// the operator's offline review (ops/review-release.ts), rendered as text, markdown or
// JSON. Part of platform-review: Node built-ins and the validator's index only.
import { outputFormat, parseArgs } from './args.js';
import { PLAIN, ansiStyle } from '../render/report-text.js';
import { reviewRelease, showBundleFile } from '../ops/review-release.js';
import { exitStatusOf } from '../pipeline/report.js';
import { renderReviewMarkdown, renderReviewText } from '../render/review-render.js';
import { UsageError } from '../node/usage-error.js';
import { escapeLines, stringifyJson } from '../validator/internal.js';
import { colorWanted, withoutNoColorFlag } from './color.js';

declare const __PLATFORM_EXT_VERSION__: string;

const FORMATS = ['text', 'json', 'markdown'] as const;
type ReviewFormat = (typeof FORMATS)[number];

const FLAGS = {
  'known-keys': { type: 'string', valueName: '<file>', description: 'The publisher\'s active public keys or fingerprints, one a line' },
  baseline: { type: 'string', valueName: '<previous-release-dir>', description: 'The approved release this one updates: print the diff' },
  history: { type: 'string', valueName: '<file>', description: 'The publisher\'s record exported by the service (JSON)' },
  'first-release': { type: 'boolean', description: 'The publisher\'s first submission: the signer is new' },
  show: { type: 'string', valueName: '<bundle-file>', description: 'Print one file of the bundle, escaped' },
  diff: { type: 'boolean', description: 'With --baseline: print the changed lines of each text file' },
  verbose: { type: 'boolean', description: 'Also the full file listing and the limits' },
  format: { type: 'string', valueName: '<text|json|markdown>', description: 'Output format' },
  json: { type: 'boolean', description: 'Same as --format json' },
  help: { type: 'boolean', description: 'Show this help', short: 'h' },
  version: { type: 'boolean', description: 'Print the version', short: 'V' },
} as const;

const HELP = `Usage: platform-review <release-dir> [--known-keys <file>] [--baseline <previous-release-dir>]
                       [--first-release] [--verbose] [--format text|json|markdown]

Reviews a release folder offline with the production validators: the manifest, the
archive (structure and contents), both hashes, the submission record, the key fingerprint,
the signature, capabilities and property definitions. Prints the verdict and a risk
summary first, then the findings (one entry per rule), each with what to do about it, then
what the release is (name, version, hashes, signer, capabilities, properties). Changes
nothing.

The signer must be pinned: give --known-keys, --history, --baseline or --first-release;
without any of them the review cannot decide.

Exit status: 0 approve (after reading the warnings listed), 1 reject or cannot decide,
2 usage error or unreadable folder.

Options:
  --known-keys <file>   The publisher's active keys, one a line: the base64 public key
                        (as in publisher-public-key.txt) or its SHA-256 fingerprint; "#"
                        starts a comment. A release signed by another key is an error;
                        without this option the signer is not pinned (a warning).
  --baseline <dir>      The approved release this one updates: adds the diff (version,
                        signer, capabilities, properties, files) and its findings.
  --history <file>      The publisher's record as the service exports it
                        (platform-publisher-history-v1: the publisher record and their
                        release submissions): a reused or lower version, a revoked,
                        unknown or new signer, a revoked publisher, a changed namespace
  --first-release       The operator states this is the publisher's first submission:
                        the signer is new, nothing to compare it with
  --show <bundle-file>  Print one file of bundle.zip (as the archive names it) from the
                        verified archive, escaped; nothing is written to disk
  --diff                With --baseline: the changed lines of each text file (unified
                        hunks, escaped, at most 400 lines a file)
  --verbose             Also list every file and the limits block
  --format <f>          text (default), json (one platform-extension-report-v1 object with
                        the summary and the diff) or markdown (tables, for a ticket)
  --json                Same as --format json
  --no-color            No colours (as NO_COLOR=1 does; FORCE_COLOR=1 colours a pipe too)
  -h, --help            Show this help
  -V, --version         Print the version
`;

/** Where platform-review writes, and what it reads of its environment. */
export interface ReviewIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Whether standard output is a terminal (colour by default). */
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** platform-review with its arguments; returns the exit status (D-21). */
export function runReview(given: readonly string[], io: ReviewIo): number {
  try {
    const argv = withoutNoColorFlag(given);
    const args = parseArgs(argv, FLAGS, 'review');
    if (args.flags['help'] === true) {
      io.out(HELP);
      return 0;
    }
    if (args.flags['version'] === true) {
      io.out(`${__PLATFORM_EXT_VERSION__}\n`);
      return 0;
    }
    if (args.positionals.length !== 1) throw new UsageError('platform-review takes one release folder: platform-review <release-dir> [--known-keys <file>] [--baseline <dir>]');
    const show = args.flags['show'];
    if (typeof show === 'string') {
      // Read from the verified archive in memory; every control and invisible character escaped (D-29).
      const shown = showBundleFile(args.positionals[0]!, show);
      io.out(escapeLines(shown.text) + (shown.text.endsWith('\n') ? '' : '\n'));
      if (shown.cut > 0) io.out(`... and ${shown.cut} more characters, not shown\n`);
      return 0;
    }
    const format: ReviewFormat = outputFormat(args.flags, FORMATS);
    const knownKeys = args.flags['known-keys'];
    const baseline = args.flags['baseline'];
    const history = args.flags['history'];
    const report = reviewRelease(args.positionals[0]!, {
      ...(typeof knownKeys === 'string' && { knownKeys }),
      ...(typeof baseline === 'string' && { baseline }),
      ...(args.flags['first-release'] === true && { firstRelease: true }),
      ...(typeof history === 'string' && { history }),
    });
    const color = argv.length === given.length && colorWanted(io.isTTY, io.env);
    const style = color ? ansiStyle() : PLAIN;
    // D-29a: the summary's strings come from the release: invisible characters as \u escapes.
    if (format === 'json') io.out(stringifyJson(report) + '\n');
    else if (format === 'markdown') io.out(renderReviewMarkdown(report));
    else io.out(renderReviewText(report, style, { verbose: args.flags['verbose'] === true, diff: args.flags['diff'] === true }));
    return exitStatusOf(report);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`platform-review: ${escapeLines(error.message).replace('run "platform-ext review --help"', 'run "platform-review --help"')}\n`);
      return 2;
    }
    io.err(`platform-review: internal error: ${escapeLines((error as Error)?.message ?? String(error))}\nThis is a bug; please report it.\n`);
    return 2;
  }
}
