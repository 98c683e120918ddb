// The one shape of a command: its name, help, flags and run in one declaration, exported
// as `command` by the command's own file (src/commands/<name>.ts). src/cli.ts only
// dispatches to these; the help a user reads is assembled here from the declaration.
import type { FlagSpec, ParsedArgs } from './args.js';
import type { CommandIo } from './command-io.js';
import { NO_COLOR_FLAG, NO_COLOR_HELP } from './color.js';

export interface CommandSpec {
  /** The word after `platform-ext`; the file is src/commands/<name>.ts. */
  readonly name: string;
  /** The usage line(s), after "Usage: ". */
  readonly usage: string;
  /** One line, for the list of commands and the head of the command's help. */
  readonly summary: string;
  /** What the command does and its exit statuses (D-21), as lines of at most 100 columns. */
  readonly details: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /**
   * Runs the command with its parsed arguments and returns its exit status; long-running
   * commands (preview) resolve with it when they stop. A usage problem is a thrown UsageError.
   */
  readonly run: (args: ParsedArgs, io: CommandIo) => number | Promise<number>;
}

/** `platform-ext <name> --help`: usage, summary, details, then every option with its description. */
export function commandHelp(command: CommandSpec): string {
  const rows = Object.entries(command.flags).map(([flag, spec]) => [
    `${spec.short !== undefined ? `-${spec.short}, ` : '    '}--${flag}${spec.type === 'string' ? ` ${spec.valueName ?? '<value>'}` : ''}`,
    spec.description,
  ]);
  rows.push([`    ${NO_COLOR_FLAG}`, NO_COLOR_HELP]);
  // One column for the descriptions, as wide as the longest option with its value.
  const width = Math.max(...rows.map(([left]) => left!.length));
  const flagLines = rows.map(([left, description]) => `  ${left!.padEnd(width)}  ${description}`);
  return [`Usage: ${command.usage}`, '', command.summary, '', command.details, '', 'Options:', ...flagLines, ''].join('\n');
}
