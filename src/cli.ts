// The CLI edge: the only setter of the exit status (D-21: 0 clean, 1 error findings, 2 usage or unreadable) and
// only reader of the environment (passed in CommandIo). Commands and their help live in src/commands/<name>.ts.
import { parseArgs } from './commands/args.js';
import type { CommandIo } from './commands/command-io.js';
import { commandHelp, type CommandSpec } from './commands/command-spec.js';
import { fstatSync, writeSync } from 'node:fs';
import { nodeTty } from './node/builtins.js';
import { UsageError } from './node/usage-error.js';
import { escapeLines, suggest } from './validator/internal.js';
import { NO_COLOR_FLAG, NO_COLOR_HELP, colorWanted, withoutNoColorFlag } from './commands/color.js';

declare const __PLATFORM_EXT_VERSION__: string;
const VERSION = typeof __PLATFORM_EXT_VERSION__ === 'string' ? __PLATFORM_EXT_VERSION__ : '0.0.0-dev';

// Lazy: each command is its own dist/ chunk; literal specifiers let one-command CLIs (dist/cli/*.mjs) drop the rest.
const COMMANDS: Readonly<Record<string, () => Promise<CommandSpec>>> = {
  init: () => import('./commands/init.js').then((m) => m.command),
  check: () => import('./commands/check.js').then((m) => m.command),
  keygen: () => import('./commands/keygen.js').then((m) => m.command),
  package: () => import('./commands/package.js').then((m) => m.command),
  verify: () => import('./commands/verify.js').then((m) => m.command),
  preview: () => import('./commands/preview.js').then((m) => m.command),
  context: () => import('./commands/context.js').then((m) => m.command),
};

// Own keys only: a command named `toString` or `__proto__` must not resolve.
function commandLoader(name: string): (() => Promise<CommandSpec>) | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

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

export async function main(given: readonly string[], givenIo: CommandIo): Promise<number> {
  // --no-color is accepted anywhere before `--`, by every command.
  const argv = withoutNoColorFlag(given);
  const io = argv.length === given.length ? givenIo : { ...givenIo, color: false };
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const named = first === 'help' && rest[0] !== undefined ? commandLoader(rest[0]) : undefined;
    if (named !== undefined) {
      io.out(commandHelp(await named()));
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
      io.out(commandHelp(command));
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
    if (io.env['PLATFORM_EXT_DEBUG'] === '1') io.err(`${(error as Error)?.stack ?? ''}\n`);
    return 2;
  }
}

// Synchronous writes spare start-up the set-up of Node's streams; a full pipe (EAGAIN) falls back to the stream.
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
    // A reader closing the pipe (`check | head`) ends the output quietly, as for any Unix filter.
    if (stream.listenerCount('error') === 0) {
      stream.on('error', (streamError: NodeJS.ErrnoException) => {
        if (streamError.code !== 'EPIPE') throw streamError;
        readerGone[fd] = true;
      });
    }
    stream.write(bytes.subarray(offset));
  }
}

// Without building process.stdout (costly at start-up): one fstat; only a character device asks node:tty.
function stdoutIsTerminal(): boolean {
  try {
    return fstatSync(1).isCharacterDevice() && nodeTty().isatty(1);
  } catch {
    return false;
  }
}

const readerGone: Record<1 | 2, boolean> = { 1: false, 2: false };

const io: CommandIo = {
  out: (text) => writeOut(1, text),
  err: (text) => writeOut(2, text),
  color: colorWanted(stdoutIsTerminal(), process.env),
  env: process.env,
};
void main(process.argv.slice(2), io).then((status) => {
  process.exitCode = status;
});
