// Fresh scaffolds for the init, context, drift, type-check and browser tests: `platform-ext
// init` run by the built CLI into a temp folder that the test removes (t.after), and the
// template listing read straight from templates/scaffold/ (what init must reproduce).
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli } from './project.mjs';

export const TEMPLATES_DIR = join(ROOT, 'templates/scaffold');

/** A temp folder removed after `t`. */
export function tempParent(t, prefix = 'platform-ext-init-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs `platform-ext init` into a new folder; returns the folder and the CLI result. Fails the test when init fails. */
export function initScaffold(t, { namespace = 'acme/test-shelf', name = 'Test shelf', folder = 'project' } = {}) {
  const parent = tempParent(t);
  const dir = join(parent, folder);
  const result = runCli(['init', dir, '--namespace', namespace, '--name', name]);
  if (result.status !== 0) throw new Error(`init failed (${result.status}): ${result.stderr}`);
  return { dir, parent, result };
}

/** Every file under `dir` by relative path ("/" separators), in byte order. */
export function listTree(dir, prefix = '') {
  const out = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listTree(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** Every file under `dir` with its bytes as UTF-8 text (a symbolic link as "symlink -> <target>", never followed). */
export function readTree(dir) {
  return new Map(
    listTree(dir).map((rel) => {
      const path = join(dir, rel);
      return [rel, lstatSync(path).isSymbolicLink() ? `symlink -> ${readlinkSync(path)}` : readFileSync(path, 'utf8')];
    }),
  );
}
