// A small, strict argument parser: known flags only, `--flag value` or `--flag=value`,
// `--` ends the flags. Anything unknown is a UsageError with a suggestion.
import { UsageError } from '../node/usage-error.js';
import { suggest } from '../validator/internal.js';

export interface FlagSpec {
  readonly type: 'boolean' | 'string';
  readonly description: string;
  /** Shown in help for string flags, e.g. `<file>`. */
  readonly valueName?: string;
  readonly short?: string;
}

export interface ParsedArgs {
  readonly flags: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

export function parseArgs(argv: readonly string[], specs: Readonly<Record<string, FlagSpec>>, command: string): ParsedArgs {
  const flags: Record<string, string | boolean | undefined> = {};
  const positionals: string[] = [];
  const shorts = new Map<string, string>();
  for (const [name, spec] of Object.entries(specs)) if (spec.short !== undefined) shorts.set(spec.short, name);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
    } else if (arg.startsWith('-') && arg.length > 1) {
      name = shorts.get(arg.slice(1));
      if (name === undefined) throw new UsageError(`Unknown option "${arg}" for "${command}": run "platform-ext ${command} --help" for the options`);
    } else {
      positionals.push(arg);
      continue;
    }
    // Own keys only: `--__proto__`, `--toString` and `--constructor` name what every object
    // inherits, never a flag.
    const spec = Object.prototype.hasOwnProperty.call(specs, name) ? specs[name] : undefined;
    if (spec === undefined) {
      const near = suggest(name, Object.keys(specs));
      throw new UsageError(
        `Unknown option "--${name}" for "${command}"${near !== undefined ? `: did you mean "--${near}"?` : `: run "platform-ext ${command} --help" for the options`}`,
      );
    }
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`The option "--${name}" takes no value`);
      flags[name] = true;
    } else {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) {
        throw new UsageError(`The option "--${name}" needs a value ${spec.valueName ?? ''}`.trimEnd());
      }
      flags[name] = value;
    }
  }
  return { flags, positionals };
}

/**
 * `--format <f>` and its alias `--json` (check and platform-review): one of `formats`,
 * 'text' when neither is given. An unknown format (with the nearest one suggested) or
 * `--json` beside another format is a usage error.
 */
export function outputFormat<F extends string>(flags: ParsedArgs['flags'], formats: readonly F[]): F | 'text' | 'json' {
  const given = flags['format'];
  const json = flags['json'] === true;
  if (typeof given !== 'string') return json ? 'json' : 'text';
  const format = formats.find((f) => f === given);
  if (format === undefined) {
    const near = suggest(given.toLowerCase(), formats);
    throw new UsageError(`Unknown format "${given}" for "--format"${near !== undefined ? `: did you mean "${near}"?` : ''} (use ${formats.map((f) => `"${f}"`).join(', ')})`);
  }
  if (json && format !== 'json') throw new UsageError(`"--json" means "--format json" and conflicts with "--format ${format}": give one of them`);
  return format;
}
