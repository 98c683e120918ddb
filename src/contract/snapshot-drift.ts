// Does a project's generated copy of the contract (contract-snapshot/ and CONTEXT.md,
// written by `init`) still equal the contract this tool embeds? Contract "Versioning": a
// scaffold is regenerated to adopt a newer contract, and the snapshot inside a project is
// never edited by hand. `check` turns each difference into a warning
// (project/snapshot-stale, project/context-stale) naming `platform-ext init --refresh`,
// which rewrites exactly these files (src/ops/refresh-project.ts).
//
// Read-only and bounded: a file whose size differs from the expected bytes is "changed"
// without being read, links are never followed, and a project without contract-snapshot/
// (one not made by init) or whose CONTEXT.md is its own (no context-document marker) gets
// no warning at all.
import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../node/hashes.js';
import { readFile, readHead } from '../node/file-open.js';
import { FindingList, sortFindings, type Finding } from '../validator/internal.js';
import { CONTEXT_FILE, CONTEXT_MARKER, SNAPSHOT_FOLDER, contextDigestKey, contextFirstLine, contextVariantOf, isContextDocument, type ContextVariant } from './generated-names.js';

export type DriftKind = 'changed' | 'missing' | 'unexpected' | 'not-a-folder';

export interface DriftItem {
  /** Project-relative path with "/" separators. */
  readonly file: string;
  readonly kind: DriftKind;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

declare const __PLATFORM_GENERATED_DIGESTS__: string | undefined;

/** Size in bytes and SHA-256 (hex) of each generated file, by project-relative path. */
type Digests = ReadonlyMap<string, readonly [number, string]>;

/**
 * The expected files as digests, computed by the build from the contract's generators
 * (scripts/build.mjs writeGeneratedDigests): the bundled CLI embeds them, the transpiled
 * build/ that tests import reads them from build/contract/generated-digests.json. A check
 * thus neither renders the snapshot and the context document nor loads their generators.
 */
function expectedDigests(): Digests {
  const text =
    typeof __PLATFORM_GENERATED_DIGESTS__ === 'string'
      ? __PLATFORM_GENERATED_DIGESTS__
      : readFileSync(new URL('./generated-digests.json', import.meta.url), 'utf8');
  return new Map(Object.entries(JSON.parse(text) as Record<string, [number, string]>));
}

/** True when the regular file at `path` holds exactly the bytes `expected` describes. */
function sameContent(path: string, stats: Stats, expected: readonly [number, string]): boolean {
  const [size, sha256] = expected;
  if (!stats.isFile() || stats.size !== size) return false;
  const actual = readFile(path, size);
  return actual.ok && actual.bytes.length === size && sha256Hex(actual.bytes) === sha256;
}

/** True when the file at `path` is a regular file that starts with the context document's marker (read: its first line only). */
export function isGeneratedContext(path: string): boolean {
  const stats = lstatOrNull(path);
  if (stats === null || !stats.isFile()) return false;
  const head = readHead(path, Buffer.byteLength(CONTEXT_MARKER));
  return head !== null && isContextDocument(Buffer.from(head.buffer, head.byteOffset, head.length).toString('utf8'));
}

/** The names of Vite's configuration file (the vite template writes the first). */
const VITE_CONFIGS = ['vite.config.ts', 'vite.config.js', 'vite.config.mjs', 'vite.config.mts', 'vite.config.cjs', 'vite.config.cts'];

/**
 * The context variant of the project in `dir`: the one its CONTEXT.md names, or, without
 * a generated CONTEXT.md, vite when the project has a Vite configuration file.
 */
export function projectContextVariant(dir: string): ContextVariant {
  const path = join(dir, CONTEXT_FILE);
  if (isGeneratedContext(path)) {
    const head = readHead(path, Buffer.byteLength(contextFirstLine('vite')));
    if (head !== null) return contextVariantOf(Buffer.from(head.buffer, head.byteOffset, head.length).toString('utf8'));
  }
  return VITE_CONFIGS.some((name) => lstatOrNull(join(dir, name))?.isFile() === true) ? 'vite' : 'plain';
}

/** Every difference between the project's generated files and this tool's, in path order. */
export function generatedDrift(dir: string): DriftItem[] {
  // Built only for a project that has something to compare: `check` on any other project
  // pays nothing for this.
  let built: Digests | undefined;
  const expected = (): Digests => (built ??= expectedDigests());
  const items: DriftItem[] = [];
  const folder = join(dir, SNAPSHOT_FOLDER);
  const folderStats = lstatOrNull(folder);
  if (folderStats !== null) {
    if (!folderStats.isDirectory()) {
      items.push({ file: SNAPSHOT_FOLDER, kind: 'not-a-folder' });
    } else {
      let present: string[] = [];
      try {
        present = readdirSync(folder);
      } catch {
        present = [];
      }
      for (const [path, digest] of expected()) {
        if (!path.startsWith(`${SNAPSHOT_FOLDER}/`)) continue;
        const stats = lstatOrNull(join(dir, path));
        if (stats === null) items.push({ file: path, kind: 'missing' });
        else if (!sameContent(join(dir, path), stats, digest)) items.push({ file: path, kind: 'changed' });
      }
      for (const name of present) {
        const path = `${SNAPSHOT_FOLDER}/${name}`;
        if (!expected().has(path)) items.push({ file: path, kind: 'unexpected' });
      }
    }
  }
  const contextPath = join(dir, CONTEXT_FILE);
  const contextStats = lstatOrNull(contextPath);
  if (contextStats !== null && isGeneratedContext(contextPath) && !sameContent(contextPath, contextStats, expected().get(contextDigestKey(projectContextVariant(dir)))!)) {
    items.push({ file: CONTEXT_FILE, kind: 'changed' });
  }
  return items.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** A shell word for `text` (single quotes when it holds anything but safe characters). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command that regenerates the project's snapshot and context document in place. */
export function refreshCommand(target: string): string {
  return target === '.' || target === './' ? 'platform-ext init --refresh' : `platform-ext init --refresh ${shellWord(target)}`;
}

const WHAT: Readonly<Record<DriftKind, string>> = {
  changed: 'differs from the contract this tool enforces (edited by hand, or written by another version of platform-ext)',
  missing: 'is missing from the project',
  unexpected: "is not part of this tool's contract snapshot (left from another version of platform-ext)",
  'not-a-folder': 'is not a folder',
};

/** `findings` plus a warning for each drift item of the project at `target`, sorted. */
export function withSnapshotDrift(target: string, findings: readonly Finding[]): Finding[] {
  const items = generatedDrift(target);
  if (items.length === 0) return [...findings];
  const list = new FindingList();
  const fix = `run "${refreshCommand(target)}" to regenerate ${SNAPSHOT_FOLDER}/ and ${CONTEXT_FILE} in place (nothing else is touched)`;
  for (const item of items) {
    const rule = item.file === CONTEXT_FILE ? 'project/context-stale' : 'project/snapshot-stale';
    list.add(rule, `"${item.file}" ${WHAT[item.kind]}: ${fix}`, { file: item.file });
  }
  return sortFindings(findings.concat(list.items));
}
