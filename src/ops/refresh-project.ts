// `init --refresh`: regenerates contract-snapshot/ and CONTEXT.md in place (contract "Versioning").
// Preconditions are all checked first, so a refusal changes nothing; contract-snapshot/ is generated
// and replaced whole (two renames); a hand-written CONTEXT.md is the publisher's, never overwritten.
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { nodeCrypto } from '../node/builtins.js';
import { createFileExclusive, writeFileAtomic, writeNewFileInStaging } from '../node/atomic-write.js';
import { generatedDrift, isGeneratedContext, projectContextVariant, type DriftItem } from '../contract/snapshot-drift.js';
import { UsageError } from '../node/usage-error.js';
import { CONTEXT_FILE, SNAPSHOT_FOLDER, generatedFiles } from '../contract/scaffold.js';

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function checkPreconditions(dir: string): void {
  const manifest = lstatOrNull(join(dir, 'manifest.json'));
  if (manifest === null || !manifest.isFile()) {
    throw new UsageError(
      `"${dir}" has no manifest.json: --refresh updates the contract snapshot of an existing project; ` +
        'to create a project run "platform-ext init <dir> --namespace <publisher>/<package> --name <text>"',
    );
  }
  const folder = join(dir, SNAPSHOT_FOLDER);
  const folderStats = lstatOrNull(folder);
  if (folderStats !== null) {
    if (!folderStats.isDirectory()) {
      throw new UsageError(`"${folder}" is not a folder: move it away, then run "platform-ext init --refresh" again`);
    }
    for (const name of readdirSync(folder)) {
      const stats = lstatOrNull(join(folder, name));
      if (stats === null || !stats.isFile()) {
        throw new UsageError(
          `"${join(folder, name)}" is not a regular file: ${SNAPSHOT_FOLDER}/ holds only generated files and is replaced whole; move it out, then run again`,
        );
      }
    }
  }
  const context = join(dir, CONTEXT_FILE);
  const contextStats = lstatOrNull(context);
  if (contextStats !== null) {
    if (!isGeneratedContext(context)) {
      throw new UsageError(`"${context}" was not written by platform-ext (it is not a context document): rename it, then run "platform-ext init --refresh" again`);
    }
  }
}

function replaceSnapshotFolder(dir: string): void {
  const tag = `${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}`;
  const fresh = join(dir, `.${SNAPSHOT_FOLDER}.${tag}.tmp`);
  const old = join(dir, `.${SNAPSHOT_FOLDER}.${tag}.old`);
  const target = join(dir, SNAPSHOT_FOLDER);
  mkdirSync(fresh);
  try {
    for (const [path, content] of generatedFiles()) {
      if (path.startsWith(`${SNAPSHOT_FOLDER}/`)) writeNewFileInStaging(join(fresh, path.slice(SNAPSHOT_FOLDER.length + 1)), content);
    }
    const hadOld = lstatOrNull(target) !== null;
    if (hadOld) renameSync(target, old);
    try {
      renameSync(fresh, target);
    } catch (error) {
      if (hadOld) renameSync(old, target);
      throw error;
    }
    rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

/** The drift `check` reports, plus every generated file that is absent. */
export function refreshPlan(dir: string): DriftItem[] {
  const items = generatedDrift(dir);
  const expected = generatedFiles();
  if (lstatOrNull(join(dir, SNAPSHOT_FOLDER)) === null) {
    for (const path of expected.keys()) if (path.startsWith(`${SNAPSHOT_FOLDER}/`)) items.push({ file: path, kind: 'missing' });
  }
  if (lstatOrNull(join(dir, CONTEXT_FILE)) === null) items.push({ file: CONTEXT_FILE, kind: 'missing' });
  return items.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

export function refreshGenerated(dir: string): DriftItem[] {
  checkPreconditions(dir);
  const items = refreshPlan(dir);
  if (items.length === 0) return items;
  try {
    if (items.some((item) => item.file !== CONTEXT_FILE)) replaceSnapshotFolder(dir);
    if (items.some((item) => item.file === CONTEXT_FILE)) {
      const path = join(dir, CONTEXT_FILE);
      const context = generatedFiles(projectContextVariant(dir)).get(CONTEXT_FILE)!;
      if (lstatOrNull(path) === null) createFileExclusive(path, context);
      else writeFileAtomic(path, context);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot refresh "${dir}": ${(error as Error).message}`);
  }
  return items;
}
