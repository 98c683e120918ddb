// `platform-review <release-dir> [--json]`: the operator's offline review. Built from
// dist/validator.mjs (imported at run time, exactly the module the server side vendors)
// and Node built-ins; it reads the release folder and changes nothing.
import { parseArgs } from './args.js';
import { PLAIN, ansiStyle } from './project/report.js';
import { runReleaseCheck } from './release/release-report.js';
import { isScanWorker, runScanWorker, setScanWorkerScript } from './release/parallel-scan.js';
import { UsageError } from './usage-error.js';
import { colorWanted, withoutNoColorFlag } from './color.js';

declare const __PLATFORM_EXT_VERSION__: string;

const FLAGS = {
  json: { type: 'boolean', description: 'Print the report as one JSON object (format platform-extension-report-v1)' },
  help: { type: 'boolean', description: 'Show this help', short: 'h' },
  version: { type: 'boolean', description: 'Print the version', short: 'V' },
} as const;

const HELP = `Usage: platform-review <release-dir> [--json]

Reviews a release folder offline with the production validators: the manifest, the
archive (structure and contents), both hashes, the submission record, the key fingerprint,
the signature, capabilities and property definitions. Changes nothing.

Exit status: 0 no errors (warnings allowed), 1 at least one error, 2 usage error or
unreadable folder.

Options:
  --json         Print the report as one JSON object (format platform-extension-report-v1)
  --no-color     No colours (as NO_COLOR=1 does; FORCE_COLOR=1 colours a pipe too)
  -h, --help     Show this help
  -V, --version  Print the version
`;

function main(given: readonly string[]): number {
  try {
    const argv = withoutNoColorFlag(given);
    const args = parseArgs(argv, FLAGS, 'review');
    if (args.flags['help'] === true) {
      process.stdout.write(HELP);
      return 0;
    }
    if (args.flags['version'] === true) {
      process.stdout.write(`${__PLATFORM_EXT_VERSION__}\n`);
      return 0;
    }
    if (args.positionals.length !== 1) throw new UsageError('platform-review takes one release folder: platform-review <release-dir> [--json]');
    const color = argv.length === given.length && colorWanted(process.stdout.isTTY === true, process.env);
    const style = color ? ansiStyle() : PLAIN;
    return runReleaseCheck('review', args.positionals[0]!, args.flags['json'] === true, style, (text) => process.stdout.write(text));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`platform-review: ${error.message.replace('run "platform-ext review --help"', 'run "platform-review --help"')}\n`);
      return 2;
    }
    process.stderr.write(`platform-review: internal error: ${(error as Error)?.message ?? String(error)}\nThis is a bug; please report it.\n`);
    return 2;
  }
}

// Large archives are scanned on a worker running this file too (src/release/parallel-scan.ts).
if (isScanWorker()) {
  runScanWorker();
} else {
  setScanWorkerScript(new URL(import.meta.url));
  process.exitCode = main(process.argv.slice(2));
}
