// `platform-ext preview [<dir>] [--port <n>] [--deny <caps>] [--fail <caps>] [--upgrade-from <release-dir>] [--empty-catalog] [--strict-host]`:
// serve the extension in a storefront-like page with a mock bridge (D-25), re-check on
// every change, and stop cleanly on Ctrl+C (SIGINT) or SIGTERM.
//
// Argument problems throw a UsageError synchronously (the CLI prints it, exit 2). Once the
// arguments are sound the command returns a promise: it resolves with 2 after printing
// the reason when the server cannot start (port in use, folder unreadable), and with 0
// when a signal stops it.
import type { ParsedArgs } from './args.js';
import { BRIDGE_ERROR_CODE_LIST, capabilityKeyHint, isBridgeErrorCode, isCapabilityKey, suggest, escapeLines, escapeTerminal, type Finding } from '../validator/internal.js';
import { previewSession, type CheckSummary, type PreviewAssets, type PreviewServer } from '../ops/preview-session.js';
import { UsageError } from '../node/usage-error.js';
import type { CommandIo } from './command-io.js';
import type { CommandSpec } from './command-spec.js';

/** The port `preview` uses when none is given. */
export const DEFAULT_PREVIEW_PORT = 7070;
const MAX_PORT = 65_535;

export const PREVIEW_FLAGS = {
  port: { type: 'string', valueName: '<n>', description: `Port on 127.0.0.1 (default ${DEFAULT_PREVIEW_PORT}; 0 picks a free port)` },
  deny: { type: 'string', valueName: '<caps>', description: 'Comma-separated capability keys to start as not granted' },
  fail: { type: 'string', valueName: '<caps>', description: 'Comma-separated capability keys whose calls reject: key (REQUEST_FAILED) or key=CODE' },
  'upgrade-from': { type: 'string', valueName: '<release-dir>', description: 'Run this packaged release first; the page upgrades it to the project' },
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
      throw new UsageError(`Unknown capability "${key}" in "--${flag}": ${capabilityKeyHint(key)}`);
    }
    if (!keys.includes(key)) keys.push(key);
  }
  if (keys.length === 0) throw new UsageError(`The option "--${flag}" needs at least one capability key, for example "--${flag} cart.manage"`);
  return keys;
}

/** Codes `--fail key=CODE` takes: every call code (INITIALIZATION_TIMEOUT is the page's "Never open the channel"). */
const FAIL_CODES = BRIDGE_ERROR_CODE_LIST.filter((code) => code !== 'INITIALIZATION_TIMEOUT');

/**
 * `--fail`: comma-separated `key` or `key=CODE`. Returns the plain keys (REQUEST_FAILED)
 * and the keys with another code.
 */
export function parseFailList(text: string): { fail: string[]; failCodes: Record<string, string> } {
  const fail: string[] = [];
  const failCodes: Record<string, string> = {};
  const keys: string[] = [];
  const codes: string[] = [];
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    keys.push(eq < 0 ? item : item.slice(0, eq).trim());
    codes.push(eq < 0 ? 'REQUEST_FAILED' : item.slice(eq + 1).trim());
  }
  // The keys are checked as --deny's are (unknown key: a suggestion).
  parseCapabilityList(keys.join(','), 'fail');
  keys.forEach((key, i) => {
    const code = codes[i]!;
    if (!isBridgeErrorCode(code) || code === 'INITIALIZATION_TIMEOUT') {
      const near = suggest(code.toUpperCase(), FAIL_CODES);
      const why = code === 'INITIALIZATION_TIMEOUT' ? 'is the handshake\'s code, not a call\'s: the preview page\'s "Never open the channel" makes it' : `is not an error code${near !== undefined ? `: did you mean "${near}"?` : ''}`;
      throw new UsageError(`"${code}" in "--fail ${key}=${code}" ${why} (codes: ${FAIL_CODES.join(', ')})`);
    }
    delete failCodes[key];
    const at = fail.indexOf(key);
    if (at >= 0) fail.splice(at, 1);
    if (code === 'REQUEST_FAILED') fail.push(key);
    else failCodes[key] = code;
  });
  return { fail, failCodes };
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
  const { fail, failCodes } = typeof failFlag === 'string' ? parseFailList(failFlag) : { fail: [], failCodes: {} };
  const upgradeFlag = args.flags['upgrade-from'];
  if (upgradeFlag === '') throw new UsageError('The option "--upgrade-from" needs a release folder (the one "platform-ext package" wrote)');
  const upgradeFrom = typeof upgradeFlag === 'string' ? upgradeFlag : undefined;
  const emptyCatalog = args.flags['empty-catalog'] === true;
  const strictHost = args.flags['strict-host'] === true;

  return previewSession({
    dir,
    port,
    deny,
    fail,
    failCodes,
    ...(upgradeFrom !== undefined && { upgradeFrom }),
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
        const failing = [...fail, ...Object.entries(failCodes).map(([key, code]) => `${key} (${code})`)];
        if (failing.length > 0) notes.push(`failing: ${failing.join(', ')}`);
        if (upgradeFrom !== undefined) notes.push(`upgrade from the release in ${upgradeFrom}`);
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

export const command: CommandSpec = {
  name: 'preview',
  usage: 'platform-ext preview [<dir>] [--port <n>] [--deny <caps>] [--fail <caps>] [--upgrade-from <release-dir>] [--empty-catalog] [--strict-host]',
  summary: 'Serve the extension in a sample storefront with a mock bridge, re-checking on every change',
  details:
    'Serves <dir> (default: the current folder) on 127.0.0.1 only and prints the URL. The page runs the\n' +
    'extension in the production sandbox and runtime policy, with sample catalog, cart, theme, booking,\n' +
    'forms, text message, waiver and analytics data, live capability grants, settings and a call log.\n' +
    'Saving a file re-checks the project; errors are shown over the frame until they are fixed.\n' +
    '--deny and --fail take comma-separated capability keys; --fail key=CODE makes the key\'s calls reject\n' +
    'with that error code (a plain key: REQUEST_FAILED). --upgrade-from runs a packaged release first,\n' +
    'from its bundle.zip, and the page upgrades it to the project, rolls back and revokes as a store\n' +
    'would. --strict-host makes the mock host require every contact-form field, which the contract\n' +
    'leaves optional. Stop with Ctrl+C.\n\n' +
    'Exit status: 0 when stopped, 2 usage error, unreadable folder or port in use.',
  flags: PREVIEW_FLAGS,
  run: (args, io) => runPreview(args, io),
};
