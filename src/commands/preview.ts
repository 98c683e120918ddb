// `platform-ext preview [<dir>] [--port <n>] [--deny <caps>] [--fail <caps>] [--empty-catalog] [--strict-host]`:
// serve the extension in a storefront-like page with a mock bridge (D-25), re-check on
// every change, and stop cleanly on Ctrl+C (SIGINT) or SIGTERM.
//
// Argument problems throw a UsageError synchronously (the CLI prints it, exit 2). Once the
// arguments are sound the command returns a promise: it resolves with 2 after printing
// the reason when the server cannot start (port in use, folder unreadable), and with 0
// when a signal stops it.
import type { ParsedArgs } from './args.js';
import { CAPABILITY_KEYS, isCapabilityKey, suggest, escapeLines, escapeTerminal, type Finding } from '../validator/index.js';
import { previewSession, type CheckSummary, type PreviewAssets, type PreviewServer } from '../ops/preview-session.js';
import { UsageError } from '../node/usage-error.js';
import type { CommandIo } from './command-io.js';

/** Text for the CLI's command table (src/cli.ts): usage line, one-line summary, details. */
export const PREVIEW_HELP = {
  usage: 'platform-ext preview [<dir>] [--port <n>] [--deny <caps>] [--fail <caps>] [--empty-catalog] [--strict-host]',
  summary: 'Serve the extension in a sample storefront with a mock bridge, re-checking on every change',
  details:
    'Serves <dir> (default: the current folder) on 127.0.0.1 only and prints the URL. The page runs the\n' +
    'extension in the production sandbox and runtime policy, with sample catalog, cart, theme, booking,\n' +
    'forms, text message, waiver and analytics data, live capability grants, settings and a call log.\n' +
    'Saving a file re-checks the project; errors are shown over the frame until they are fixed.\n' +
    '--deny and --fail take comma-separated capability keys. --strict-host makes the mock host require\n' +
    'every contact-form field, which the contract leaves optional. Stop with Ctrl+C.\n\n' +
    'Exit status: 0 when stopped, 2 usage error, unreadable folder or port in use.',
} as const;

/** The port `preview` uses when none is given. */
export const DEFAULT_PREVIEW_PORT = 7070;
const MAX_PORT = 65_535;

export const PREVIEW_FLAGS = {
  port: { type: 'string', valueName: '<n>', description: `Port on 127.0.0.1 (default ${DEFAULT_PREVIEW_PORT}; 0 picks a free port)` },
  deny: { type: 'string', valueName: '<caps>', description: 'Comma-separated capability keys to start as not granted' },
  fail: { type: 'string', valueName: '<caps>', description: 'Comma-separated capability keys whose calls reject with REQUEST_FAILED' },
  'empty-catalog': { type: 'boolean', description: 'Start the mock store with no products' },
  'strict-host': { type: 'boolean', description: 'Require every contact-form field (a stricter host than the contract)' },
  help: { type: 'boolean', description: 'Show this help', short: 'h' },
} as const;

/** `--port`: decimal digits only, 0 to 65535. */
export function parsePort(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > MAX_PORT) {
    throw new UsageError(`The option "--port" needs a number from 0 to ${MAX_PORT}, not "${text}" (0 picks a free port)`);
  }
  return Number(text);
}

/** `--deny` / `--fail`: comma-separated capability keys; an unknown key is a usage error with a suggestion. */
export function parseCapabilityList(text: string, flag: string): string[] {
  const keys: string[] = [];
  for (const raw of text.split(',')) {
    const key = raw.trim();
    if (key === '') continue;
    if (!isCapabilityKey(key)) {
      const near = suggest(key, CAPABILITY_KEYS);
      throw new UsageError(
        `Unknown capability "${key}" in "--${flag}"` +
          (near !== undefined ? `: did you mean "${near}"?` : `: the keys are ${CAPABILITY_KEYS.join(', ')}`),
      );
    }
    if (!keys.includes(key)) keys.push(key);
  }
  if (keys.length === 0) throw new UsageError(`The option "--${flag}" needs at least one capability key, for example "--${flag} cart.manage"`);
  return keys;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** At most this many findings are printed after a check; the preview page lists them all. */
export const PRINTED_FINDINGS_MAX = 20;

/** One finding on one line: severity, rule id, file:line (or pointer), message; input text escaped (D-29). */
function findingLine(f: Finding): string {
  const where = f.file === undefined ? '' : f.line !== undefined ? `${f.file}:${f.line}` : f.pointer !== undefined && f.pointer !== '' ? `${f.file} ${f.pointer}` : f.file;
  return `  ${f.severity === 'error' ? 'error  ' : 'warning'}  ${f.rule}  ${where === '' ? '' : `${escapeTerminal(where)}: `}${escapeTerminal(f.message)}`;
}

/** A check for the terminal: a summary line, then each finding (errors first), so none has to be looked up on the page. */
export function describeCheck(summary: CheckSummary): string {
  if (summary.problem !== null) return `✖ ${escapeLines(summary.problem)}`;
  let head: string;
  if (summary.errors > 0) {
    head = `✖ ${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}; the extension runs once the errors are fixed (the preview page shows each fix):`;
  } else if (summary.warnings > 0) {
    head = `! ${plural(summary.warnings, 'warning')} (the preview page shows each fix):`;
  } else {
    return '✓ No problems found';
  }
  const ordered = [...summary.findings.filter((f) => f.severity === 'error'), ...summary.findings.filter((f) => f.severity !== 'error')];
  const lines = [head, ...ordered.slice(0, PRINTED_FINDINGS_MAX).map(findingLine)];
  if (ordered.length > PRINTED_FINDINGS_MAX) lines.push(`  and ${ordered.length - PRINTED_FINDINGS_MAX} more on the preview page`);
  return lines.join('\n');
}

export interface PreviewHooks {
  /** Assets to serve instead of the embedded ones (tests running from build/). */
  readonly assets?: PreviewAssets;
  /** Told once the server listens (tests use it to reach the server). */
  readonly onListening?: (server: PreviewServer) => void;
}

export function runPreview(args: ParsedArgs, io: CommandIo, hooks: PreviewHooks = {}): Promise<number> {
  if (args.positionals.length > 1) {
    throw new UsageError(`"preview" takes one project folder, got ${args.positionals.length}: ${args.positionals.map((p) => `"${p}"`).join(' ')}`);
  }
  // Like `check`, the folder defaults to the current one.
  const dir = args.positionals[0] ?? '.';
  const portFlag = args.flags['port'];
  const port = typeof portFlag === 'string' ? parsePort(portFlag) : DEFAULT_PREVIEW_PORT;
  const denyFlag = args.flags['deny'];
  const failFlag = args.flags['fail'];
  const deny = typeof denyFlag === 'string' ? parseCapabilityList(denyFlag, 'deny') : [];
  const fail = typeof failFlag === 'string' ? parseCapabilityList(failFlag, 'fail') : [];
  const emptyCatalog = args.flags['empty-catalog'] === true;
  const strictHost = args.flags['strict-host'] === true;

  return previewSession({
    dir,
    port,
    deny,
    fail,
    emptyCatalog,
    strictHost,
    onCheck: (summary) => io.out(`Changed: ${describeCheck(summary)}\n`),
    // The URL goes out before the first check runs, so a browser can start on it meanwhile.
    onListening: (url) => io.out(`Previewing ${dir} at ${url}\n`),
    ...(hooks.assets !== undefined ? { assets: hooks.assets } : {}),
  }).then(
    (server) =>
      new Promise<number>((done) => {
        io.out(`${describeCheck(server.status())}\n`);
        const notes: string[] = [];
        if (deny.length > 0) notes.push(`not granted: ${deny.join(', ')}`);
        if (fail.length > 0) notes.push(`failing: ${fail.join(', ')}`);
        if (emptyCatalog) notes.push('empty catalog');
        if (strictHost) notes.push('strict host: every contact field required');
        if (notes.length > 0) io.out(`  ${notes.join('; ')}\n`);
        io.out('Watching for changes. Press Ctrl+C to stop.\n');
        let stopping = false;
        const stop = (): void => {
          if (stopping) return;
          stopping = true;
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void server.close().then(() => {
            io.out('Preview stopped.\n');
            done(0);
          });
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        hooks.onListening?.(server);
      }),
    (error: unknown) => {
      if (!(error instanceof UsageError)) throw error;
      io.err(`platform-ext: ${error.message}\n`);
      return 2;
    },
  );
}
