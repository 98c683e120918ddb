// `init` as a use case: a new project from the scaffold in an absent or empty folder, written whole in
// a temp folder and renamed into place, so a failure leaves nothing behind; a non-empty folder is refused.
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { nodeCrypto } from '../node/builtins.js';
import { writeNewFileInStaging } from '../node/atomic-write.js';
import { nameProblem, namespaceProblem, scaffoldFiles } from '../contract/scaffold.js';
import { DEFAULT_TEMPLATE, type TemplateName } from '../contract/templates.js';
import { UsageError } from '../node/usage-error.js';
import { fileSpecifier, toolRoot } from '../node/tool-root.js';

export interface InitProjectOptions {
  readonly namespace: string;
  readonly name: string;
  readonly template?: TemplateName;
}

export interface InitOutcome {
  readonly files: number;
  /** The `file:` specifier of this tool in devDependencies; null when it cannot be linked (`toolProblem`). */
  readonly toolLink?: string | null;
  readonly toolProblem?: string;
}

/** Adds platform-ext as `spec` in byte-ordered devDependencies: the package is not on the npm registry. */
export function withToolDependency(packageJson: string, spec: string): string {
  const pkg = JSON.parse(packageJson) as { devDependencies?: Record<string, string> };
  const deps = { ...(pkg.devDependencies ?? {}), 'platform-ext': spec };
  pkg.devDependencies = Object.fromEntries(Object.entries(deps).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

// Short: a long project name must not push the temp name past the file system's limit.
function tempName(): string {
  return `.platform-ext-init.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`;
}

function writeAll(root: string, files: ReadonlyMap<string, string>): void {
  for (const [path, content] of files) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeNewFileInStaging(full, content);
  }
}

function createFolder(absolute: string, files: ReadonlyMap<string, string>): void {
  const temp = join(dirname(absolute), tempName());
  try {
    mkdirSync(temp);
    writeAll(temp, files);
    renameSync(temp, absolute);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

// The folder itself stays (a shell may be in it): written inside, moved out; on failure the moved
// entries are removed again (the folder was empty, so they are all ours).
function fillEmptyFolder(absolute: string, files: ReadonlyMap<string, string>): void {
  const temp = join(absolute, tempName());
  const moved: string[] = [];
  try {
    mkdirSync(temp);
    writeAll(temp, files);
    const entries = readdirSync(temp).sort();
    if (readdirSync(absolute).length !== 1) throw Object.assign(new Error('the folder is no longer empty'), { code: 'ENOTEMPTY' });
    for (const entry of entries) {
      renameSync(join(temp, entry), join(absolute, entry));
      moved.push(entry);
    }
  } catch (error) {
    for (const entry of moved) rmSync(join(absolute, entry), { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** Returns whether the target exists. */
function checkTarget(target: string): boolean {
  let stats;
  try {
    stats = lstatSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new UsageError(`Cannot read "${target}": ${(error as Error).message}`);
  }
  if (stats.isSymbolicLink()) throw new UsageError(`"${target}" is a symbolic link: give the path of a new or empty folder`);
  if (!stats.isDirectory()) throw new UsageError(`"${target}" exists and is not a folder: choose a new folder name`);
  if (readdirSync(target).length > 0) {
    throw new UsageError(`"${target}" is not empty: init writes only into a new or empty folder, so that nothing of yours is overwritten; choose another folder`);
  }
  return true;
}

export function initProject(target: string, options: InitProjectOptions): InitOutcome {
  const { namespace, name } = options;
  const template = options.template ?? DEFAULT_TEMPLATE;
  const problem = namespaceProblem(namespace) ?? nameProblem(name);
  if (problem !== null) throw new UsageError(problem);
  const absolute = resolve(target);
  const parent = dirname(absolute);
  let parentIsFolder = false;
  try {
    parentIsFolder = statSync(parent).isDirectory();
  } catch {
    parentIsFolder = false;
  }
  if (!parentIsFolder) throw new UsageError(`The folder "${dirname(target)}" does not exist: create it first, or choose another place for "${basename(target)}"`);
  const existed = checkTarget(target);

  let files = scaffoldFiles({ namespace, name }, template);
  let link: { toolLink: string | null; toolProblem?: string } | undefined;
  const packageJson = files.get('package.json');
  if (packageJson !== undefined) {
    const root = toolRoot();
    link = root.ok ? { toolLink: fileSpecifier(root.path) } : { toolLink: null, toolProblem: root.why };
    if (root.ok) files = new Map(files).set('package.json', withToolDependency(packageJson, fileSpecifier(root.path)));
  }
  try {
    if (existed) fillEmptyFolder(absolute, files);
    else createFolder(absolute, files);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new UsageError(`"${target}" is no longer empty (something was written to it meanwhile); nothing was written`);
    throw new UsageError(`Cannot create "${target}": ${(error as Error).message}; nothing was written`);
  }
  return { files: files.size, ...link };
}
