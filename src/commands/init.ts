// `platform-ext init <dir> --namespace <ns> --name <text> [--template plain|vite]`: a new
// project from the scaffold (src/ops/init-project.ts), then the next steps;
// `platform-ext init --refresh [<dir>]`: regenerate an existing project's
// contract-snapshot/ and CONTEXT.md in place (src/ops/refresh-project.ts).
import { resolve } from 'node:path';
import type { ParsedArgs } from './args.js';
import { refreshGenerated } from '../ops/refresh-project.js';
import { initProject, type InitOutcome } from '../ops/init-project.js';
import { DEFAULT_TEMPLATE, isTemplateName, TEMPLATE_NAMES, type TemplateName } from '../contract/templates.js';
import { suggest } from '../validator/internal.js';
import { UsageError } from '../node/usage-error.js';
import type { CommandIo } from './command-io.js';
import type { CommandSpec } from './command-spec.js';

/** A shell word for `text`, for the printed commands (single quotes when needed). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `--template`: one of TEMPLATE_NAMES, with a suggestion for a near miss. */
function templateOf(args: ParsedArgs): TemplateName {
  const given = args.flags['template'];
  if (given === undefined) return DEFAULT_TEMPLATE;
  if (typeof given === 'string' && isTemplateName(given)) return given;
  const text = String(given);
  const near = suggest(text.toLowerCase(), TEMPLATE_NAMES);
  throw new UsageError(
    `Unknown template "${text}" for "--template"${near !== undefined ? `: did you mean "${near}"?` : ''} (use ${TEMPLATE_NAMES.map((n) => `"${n}"`).join(' or ')})`,
  );
}

/**
 * What package.json says about platform-ext: linked from this tool's own folder (it is
 * not on the npm registry), or, when this copy cannot be linked, nothing, with what to do.
 */
function toolLinkLines(outcome: InitOutcome): string[] {
  if (outcome.toolLink === undefined) return [];
  if (outcome.toolLink !== null) {
    return [
      `package.json links platform-ext from this copy of the tool (${outcome.toolLink}): the package is not on the npm registry.`,
      'On another machine, change that line to where platform-ext is installed there.',
      '',
    ];
  }
  return [
    `package.json does not name platform-ext: ${outcome.toolProblem ?? 'this copy of the tool cannot be linked'}.`,
    'Its scripts call the platform-ext command: install the tool first (npm install --global <clone or tarball of platform-ext>),',
    'or add "platform-ext": "file:<its folder>" to devDependencies.',
    '',
  ];
}

function viteNextSteps(target: string, namespace: string, outcome: InitOutcome): string {
  const publisher = namespace.slice(0, namespace.indexOf('/'));
  return [
    `Created ${target} for ${namespace} (Vite and TypeScript): ${outcome.files} files.`,
    '',
    ...toolLinkLines(outcome),
    'Next steps:',
    ...(resolve(target) === process.cwd() ? [] : [`  cd ${shellWord(target)}`]),
    '  npm install',
    '  npm run dev                     # rebuilds runtime/ on every change and previews it; Ctrl+C stops it',
    '  npm run build && npm run check  # type-check, build, then every rule of the contract, offline',
    '',
    'When it is ready to release, you sign it (AGENTS.md leaves keys and signing to you, not to an AI agent;',
    'the private key stays outside the project, D-4):',
    '  mkdir -p ~/.config/platform-ext',
    `  npx --no platform-ext keygen --private-key ~/.config/platform-ext/${publisher}.pem --public-key ~/.config/platform-ext/${publisher}.pub`,
    `  npm run package -- ~/.config/platform-ext/${publisher}.pem`,
    '',
    'README.md explains each step and each Vite setting; AGENTS.md and CONTEXT.md are for AI coding agents.',
    '',
  ].join('\n');
}

function nextSteps(target: string, namespace: string, count: number): string {
  const publisher = namespace.slice(0, namespace.indexOf('/'));
  const key = `~/.config/platform-ext/${publisher}.pem`;
  return [
    `Created ${target} for ${namespace}: ${count} files.`,
    '',
    'Next steps:',
    ...(resolve(target) === process.cwd() ? [] : [`  cd ${shellWord(target)}`]),
    '  platform-ext preview            # try it in a sample storefront; Ctrl+C stops it',
    '  platform-ext check              # every rule of the contract, offline',
    '',
    'When it is ready to release, you sign it (AGENTS.md leaves keys and signing to you, not to an AI agent;',
    'the private key stays outside the project, D-4):',
    '  mkdir -p ~/.config/platform-ext',
    `  platform-ext keygen --private-key ${key} --public-key ~/.config/platform-ext/${publisher}.pub`,
    `  platform-ext package . --out release --private-key ${key}`,
    '  platform-ext verify release',
    '',
    'README.md explains each step; AGENTS.md and CONTEXT.md are for AI coding agents.',
    '',
  ].join('\n');
}

function runRefresh(args: ParsedArgs, io: CommandIo): number {
  if (args.flags['namespace'] !== undefined || args.flags['name'] !== undefined || args.flags['template'] !== undefined) {
    throw new UsageError('"--refresh" takes no --namespace, --name or --template: it changes only contract-snapshot/ and CONTEXT.md');
  }
  if (args.positionals.length > 1) throw new UsageError(`"init --refresh" takes one project folder, got ${args.positionals.length}`);
  const dir = args.positionals[0] ?? '.';
  const changed = refreshGenerated(dir);
  if (changed.length === 0) {
    io.out(`${dir}: contract-snapshot/ and CONTEXT.md are current; nothing was written.\n`);
    return 0;
  }
  io.out([`${dir}: regenerated from the contract this tool enforces:`, ...changed.map((item) => `  ${item.file} (${item.kind})`), ''].join('\n'));
  return 0;
}

function runInit(args: ParsedArgs, io: CommandIo): number {
  if (args.flags['refresh'] === true) return runRefresh(args, io);
  const usage = 'platform-ext init <dir> --namespace <publisher>/<package> --name "<text>"';
  if (args.positionals.length === 0) throw new UsageError(`"init" needs the folder to create: ${usage}`);
  if (args.positionals.length > 1) {
    throw new UsageError(`"init" takes one folder, got ${args.positionals.length}: ${args.positionals.map((p) => `"${p}"`).join(' ')} (quote a name with spaces)`);
  }
  const namespace = args.flags['namespace'];
  const name = args.flags['name'];
  if (typeof namespace !== 'string') throw new UsageError(`"init" needs --namespace <publisher>/<package>: ${usage}`);
  if (typeof name !== 'string') throw new UsageError(`"init" needs --name <text>: ${usage}`);
  const template = templateOf(args);
  const target = args.positionals[0]!;
  const outcome = initProject(target, { namespace, name, template });
  io.out(template === 'vite' ? viteNextSteps(target, namespace, outcome) : nextSteps(target, namespace, outcome.files));
  return 0;
}

export const command: CommandSpec = {
  name: 'init',
  usage: 'platform-ext init <dir> --namespace <ns> --name <text> [--template plain|vite] | platform-ext init --refresh [<dir>]',
  summary: 'Create a new extension project, or refresh its contract snapshot',
  details:
    'Creates <dir> (which must be absent or empty) with manifest.json, runtime/ (index.html, main.js,\n' +
    'styles.css: a working example), contract-snapshot/ (the contract, schema and API declarations),\n' +
    'jsconfig.json, .vscode/settings.json, .editorconfig, .gitignore, AGENTS.md, README.md and CONTEXT.md,\n' +
    'then prints the next steps. Nothing is written unless everything is.\n\n' +
    'With --template vite, the project is TypeScript (src/main.ts, index.html) built by Vite into\n' +
    'runtime/, with vite.config.ts set for the contract, tsconfig.json with the API declarations and\n' +
    'package.json scripts dev (rebuild on change plus preview), build, check and package. As platform-ext\n' +
    'is not on the npm registry, package.json links this copy of the tool (file:<its folder>).\n\n' +
    'With --refresh, rewrites only contract-snapshot/ and CONTEXT.md of the project in <dir> from the\n' +
    'contract this tool enforces ("check" warns when they differ). A CONTEXT.md not written by\n' +
    'platform-ext is never overwritten.\n\n' +
    'Exit status: 0 done, 2 usage error or the folder cannot be written.',
  flags: {
    namespace: { type: 'string', valueName: '<ns>', description: 'The namespace, <publisher-slug>/<package-slug> (for example acme/product-strip)' },
    name: { type: 'string', valueName: '<text>', description: 'The display name (1 to 120 bytes of UTF-8, one line)' },
    template: {
      type: 'string',
      valueName: '<plain|vite>',
      description: 'plain (default): runtime/ written by hand; vite: TypeScript in src/, built into runtime/ by Vite',
    },
    refresh: { type: 'boolean', description: 'Regenerate contract-snapshot/ and CONTEXT.md of an existing project (default: the current folder); nothing else is touched' },
    help: { type: 'boolean', description: 'Show this help', short: 'h' },
  },
  run: runInit,
};
