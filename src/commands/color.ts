// Whether output is coloured, by the common conventions, in this order: the --no-color
// option; NO_COLOR (set and not empty: no colours, whatever else is set, as a standing
// wish of the user); FORCE_COLOR (set and not empty: colours even into a pipe, unless it
// is 0 or false); else colours only on a terminal.

export const NO_COLOR_FLAG = '--no-color';
export const NO_COLOR_HELP = 'No colours (as NO_COLOR=1 does; FORCE_COLOR=1 colours a pipe too)';

export function colorWanted(stdoutIsTerminal: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  const no = env['NO_COLOR'];
  if (no !== undefined && no !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return stdoutIsTerminal;
}

/** The arguments without --no-color before the first `--` (after it, every argument is an operand). */
export function withoutNoColorFlag(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  const out = argv.filter((arg, i) => arg !== NO_COLOR_FLAG || (end >= 0 && i > end));
  return out.length === argv.length ? argv : out;
}
