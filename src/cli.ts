// The CLI edge: argv, help text, exit codes. The only place that sets the exit status
// (D-21: 0 no errors, 1 error findings, 2 usage error or unreadable target).
import { parseArgs, type FlagSpec } from './commands/args.js';
import type { CommandIo } from './commands/command-io.js';
import { fstatSync, writeSync } from 'node:fs';
import { nodeTty } from './node/builtins.js';
import { UsageError } from './node/usage-error.js';
import { escapeLines, suggest } from './validator/index.js';
import { NO_COLOR_FLAG, NO_COLOR_HELP, colorWanted, withoutNoColorFlag } from './commands/color.js';

declare const __PLATFORM_EXT_VERSION__: string;
const VERSION = typeof __PLATFORM_EXT_VERSION__ === 'string' ? __PLATFORM_EXT_VERSION__ : '0.0.0-dev';

interface Command {
  readonly usage: string;
  readonly summary: string;
  readonly details: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** Long-running commands (preview) resolve with their exit status when they stop. */
  readonly run: (args: ReturnType<typeof parseArgs>, io: CommandIo) => number | Promise<number>;
}

/**
 * Each command's module is imported when that command runs: in dist/ every command is a
 * chunk of its own (scripts/build.mjs), so a command loads only the code it uses.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  init: () => import('./commands/init.js').then((m) => ({ ...m.INIT_HELP, flags: m.INIT_FLAGS, run: m.runInit })),
  check: () => import('./commands/check.js').then((m) => ({ ...CHECK_HELP, flags: m.CHECK_FLAGS, run: m.runCheck })),
  keygen: () => import('./commands/keygen.js').then((m) => ({ ...KEYGEN_HELP, flags: m.KEYGEN_FLAGS, run: m.runKeygen })),
  package: () => import('./commands/package.js').then((m) => ({ ...PACKAGE_HELP, flags: m.PACKAGE_FLAGS, run: m.runPackage })),
  verify: () => import('./commands/verify.js').then((m) => ({ ...VERIFY_HELP, flags: m.VERIFY_FLAGS, run: m.runVerify })),
  preview: () => import('./commands/preview.js').then((m) => ({ ...m.PREVIEW_HELP, flags: m.PREVIEW_FLAGS, run: m.runPreview })),
  context: () => import('./commands/context.js').then((m) => ({ ...m.CONTEXT_HELP, flags: m.CONTEXT_FLAGS, run: m.runContext })),
};

/** The command named `name`: an own key of COMMANDS only (never `toString` or `__proto__`). */
function commandLoader(name: string): (() => Promise<Command>) | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

type CommandHelp = Pick<Command, 'usage' | 'summary' | 'details'>;

const CHECK_HELP: CommandHelp = {
    usage: 'platform-ext check [<dir>] [--format text|json|sarif] [--strict] [--baseline <release-dir>] | platform-ext check --explain <rule-id> [--json] | platform-ext check --list-rules [--json]',
    summary: 'Validate a project against contract v1 (manifest, bundle, entrypoint, CSS, modules)',
    details:
      'Loads <dir>/manifest.json and everything under <dir>/runtime/ (default <dir>: the current folder),\n' +
      'runs every rule and reports all findings at once. Other project files are scanned for private keys.\n\n' +
      'In a GitHub Actions step (GITHUB_ACTIONS=true) the text output also prints workflow annotations.\n\n' +
      'Exit status: 0 no errors (warnings allowed; with --strict, no findings at all), 1 at least one error\n' +
      '(with --strict: error or warning), 2 usage error or unreadable folder.',
};

const KEYGEN_HELP: CommandHelp = {
    usage: 'platform-ext keygen --private-key <file> --public-key <file>',
    summary: 'Create an Ed25519 key pair for signing releases',
    details:
      'Writes the private key as PKCS#8 PEM (mode 0600) and the public key as one line of base64,\n' +
      'and prints the key fingerprint (SHA-256 of the public key). Never overwrites a file, and refuses\n' +
      'to put a private key inside an extension project.\n\n' +
      'Exit status: 0 both keys written, 2 usage error, a file that exists, or a folder that cannot be written.',
};

const PACKAGE_HELP: CommandHelp = {
    usage: 'platform-ext package <dir> --out <dir> --private-key <file> | platform-ext package <dir> --dry-run',
    summary: 'Check, build the deterministic bundle.zip, sign, and write the five submission files',
    details:
      'Runs the full check first: with any error nothing is written. The same source and key always give\n' +
      'byte-identical files. The out folder must be absent, empty, or an earlier submission set, which is\n' +
      'replaced whole.\n\n' +
      'Exit status: 0 written (with --dry-run: listed), 1 the project has errors (nothing written), 2 usage\n' +
      'error, unreadable project or key, or an out folder that cannot be used.',
};

const VERIFY_HELP: CommandHelp = {
    usage: 'platform-ext verify <out-dir> [--json]',
    summary: 'Verify a submission set as the store will: archive, contents, hashes, record, key, signature',
    details:
      'Reopens bundle.zip with the hardened reader, validates its contents with the same rules as check,\n' +
      'recomputes both hashes, checks submission.json and the key fingerprint, and verifies the signature,\n' +
      'saying what changed when it fails.\n\n' +
      'Exit status: 0 no errors, 1 at least one error, 2 usage error or unreadable folder.',
};

/** The list of commands: loads every command's module for its summary. */
async function globalHelp(): Promise<string> {
  const names = Object.keys(COMMANDS);
  const commands = await Promise.all(names.map((n) => COMMANDS[n]!()));
  const width = Math.max(...names.map((n) => n.length));
  return [
    `platform-ext ${VERSION}: build, check and ship website extensions for platform contract v1`,
    '',
    'Usage: platform-ext <command> [options]',
    '',
    'Commands:',
    ...names.map((n, i) => `  ${n.padEnd(width)}  ${commands[i]!.summary}`),
    '',
    'Options:',
    '  -h, --help     Show help (also: platform-ext <command> --help)',
    '  -V, --version  Print the version',
    `  ${NO_COLOR_FLAG}     ${NO_COLOR_HELP}`,
    '',
    'Exit status: 0 success, 1 error findings, 2 usage error or unreadable input (each command\'s help says more).',
    '',
  ].join('\n');
}

function commandHelp(name: string, command: Command): string {
  const rows = Object.entries(command.flags).map(([flag, spec]) => [
    `${spec.short !== undefined ? `-${spec.short}, ` : '    '}--${flag}${spec.type === 'string' ? ` ${spec.valueName ?? '<value>'}` : ''}`,
    spec.description,
  ]);
  rows.push([`    ${NO_COLOR_FLAG}`, NO_COLOR_HELP]);
  // One column for the descriptions, as wide as the longest option with its value.
  const width = Math.max(...rows.map(([left]) => left!.length));
  const flagLines = rows.map(([left, description]) => `  ${left!.padEnd(width)}  ${description}`);
  return [`Usage: ${command.usage}`, '', command.summary, '', command.details, '', 'Options:', ...flagLines, ''].join('\n') + (name ? '' : '');
}

export async function main(given: readonly string[], givenIo: CommandIo): Promise<number> {
  // --no-color is accepted anywhere before `--`, by every command.
  const argv = withoutNoColorFlag(given);
  const io = argv.length === given.length ? givenIo : { ...givenIo, color: false };
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const named = first === 'help' && rest[0] !== undefined ? commandLoader(rest[0]) : undefined;
    if (named !== undefined) {
      io.out(commandHelp(rest[0]!, await named()));
      return 0;
    }
    io.out(await globalHelp());
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-V') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  try {
    const load = commandLoader(first);
    if (load === undefined) {
      const near = suggest(first, Object.keys(COMMANDS));
      throw new UsageError(
        first.startsWith('-')
          ? `Unknown option "${first}": run "platform-ext --help" for usage`
          : near !== undefined
            ? `Unknown command "${first}": did you mean "${near}"?`
            : `Unknown command "${first}": run "platform-ext --help" for the commands`,
      );
    }
    const command = await load();
    const args = parseArgs(rest, command.flags, first);
    if (args.flags['help'] === true) {
      io.out(commandHelp(first, command));
      return 0;
    }
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`platform-ext: ${escapeLines(error.message)}\n`);
      return 2;
    }
    // Anything else is our bug: say so plainly, without a stack trace unless asked.
    io.err(
      `platform-ext: internal error: ${escapeLines((error as Error)?.message ?? String(error))}\n` +
        'This is a bug in platform-ext; run again with PLATFORM_EXT_DEBUG=1 for details and report it.\n',
    );
    if (process.env['PLATFORM_EXT_DEBUG'] === '1') io.err(`${(error as Error)?.stack ?? ''}\n`);
    return 2;
  }
}

/**
 * Writes to stdout or stderr. Synchronous writes to the descriptor spare every run the
 * set-up of Node's stream stack (a few milliseconds of the start-up that bench/check.mjs
 * bounds); a pipe that is full (EAGAIN) falls back to the stream, which queues.
 */
function writeOut(fd: 1 | 2, text: string): void {
  if (readerGone[fd]) return;
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') {
      readerGone[fd] = true;
      return;
    }
    if (code !== 'EAGAIN') throw error;
    const stream = fd === 1 ? process.stdout : process.stderr;
    // The reader may close the pipe while the stream still queues (`check | head`): that
    // ends the output, quietly, as for any Unix filter; it is not an error of the command.
    if (stream.listenerCount('error') === 0) {
      stream.on('error', (streamError: NodeJS.ErrnoException) => {
        if (streamError.code !== 'EPIPE') throw streamError;
        readerGone[fd] = true;
      });
    }
    stream.write(bytes.subarray(offset));
  }
}

/**
 * Whether stdout is a terminal, without building `process.stdout`: that stream (a socket
 * over a pipe, a TTY stream over a terminal) costs a measurable share of a command's
 * start-up (bench/check.mjs, bench/bridge.mjs), and writeOut never needs it. A pipe or a
 * file is answered from one fstat; only a character device (a terminal, or /dev/null)
 * asks node:tty.
 */
function stdoutIsTerminal(): boolean {
  try {
    return fstatSync(1).isCharacterDevice() && nodeTty().isatty(1);
  } catch {
    return false;
  }
}

/** Whether the reader of stdout (1) or stderr (2) closed its end: further output is dropped. */
const readerGone: Record<1 | 2, boolean> = { 1: false, 2: false };

const io: CommandIo = {
  out: (text) => writeOut(1, text),
  err: (text) => writeOut(2, text),
  color: colorWanted(stdoutIsTerminal(), process.env),
};
void main(process.argv.slice(2), io).then((status) => {
  process.exitCode = status;
});
