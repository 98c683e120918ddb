// `package` as a use case: check (any error: nothing written), the deterministic archive (D-15) read
// back with the hardened reader (D-16) so the store never refuses it, hashed, signed (D-14), written.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { base64Line, parsePrivateKey, publicKeyBytes, readPrivateKeyFile, signEd25519 } from '../node/ed25519-keys.js';
import { writeNewFileInStaging } from '../node/atomic-write.js';
import { readFile } from '../node/file-open.js';
import { formatMarker, isMarked, markedFile, PACKAGE_MARKER, readMarker, type MarkedFile } from '../load/package-marker.js';
import { buildReport, type Report } from '../pipeline/report.js';
import { crc32, sha256Hex } from '../node/hashes.js';
import { UsageError } from '../node/usage-error.js';
import {
  artifactPath,
  FindingList,
  readZip,
  signedPayload,
  sortFindings,
  SUBMISSION_FILE_MAX_BYTES,
  SUBMISSION_FILES,
  SUBMISSION_FORMAT,
  type Finding,
  type PropertyHint,
  type SubmissionFile,
} from '../validator/internal.js';
import { compressEntries, sharedBytes } from '../zip/parallel-compression.js';
import { provenInflater, type StreamProof } from '../zip/read-back-proof.js';
import { trace } from '../node/trace.js';
import { assembleZip } from '../zip/zip-writer.js';
import { checkLoadedProject, type ProjectRun } from '../pipeline/project-pipeline.js';
import { loadProject } from '../load/project-loader.js';

interface Built {
  readonly findings: Finding[];
  readonly zip?: Uint8Array;
  readonly proofs?: readonly StreamProof[];
  /** Not the bytes: those are let go once the archive holds them. */
  readonly files: readonly { path: string; size: number }[];
  readonly namespace?: string;
  readonly version?: string;
  readonly manifest: Uint8Array | null;
  readonly hints?: readonly PropertyHint[];
}

// Read once into shared memory; files are compressed (on a worker too) while the check runs here.
function checkAndAssemble(dir: string): Built {
  const project = loadProject(dir, { allocate: sharedBytes });
  trace('loaded');
  const files = (project.input.files ?? []).flatMap((e) => (e.kind === 'file' && e.content !== undefined ? [{ path: e.path, content: e.content }] : []));
  let run: ProjectRun | undefined;
  const compressed = compressEntries(files, {
    alongside: () => {
      run = checkLoadedProject(project);
      trace('checked');
      return !run.findings.some((f) => f.severity === 'error');
    },
  });
  const { findings, result } = run!;
  const manifest = project.input.manifest;
  const hints = result.hints ?? [];
  if (compressed === null) return { findings, files: listing(files), manifest, hints };
  trace('compressed');
  const zip = assembleZip(files, compressed.entries);
  trace('assembled');
  return {
    findings,
    zip,
    proofs: compressed.proofs,
    files: listing(files),
    manifest,
    hints,
    ...(result.manifest?.namespace !== undefined && { namespace: result.manifest.namespace }),
    ...(result.manifest?.version !== undefined && { version: result.manifest.version }),
  };
}

// The read-back (D-16) runs the reader's structure and policy layers, taking node:zlib's inflate results
// for the streams that are byte for byte the proven ones (src/zip/read-back-proof.ts).
function buildArchive(dir: string): Built {
  const built = checkAndAssemble(dir);
  if (built.zip === undefined) return built;
  const readBack = new FindingList();
  // node:zlib's CRC-32 for stored entries: the validator's own is JavaScript, compiled for this one pass.
  readZip(built.zip, provenInflater(built.proofs ?? []), readBack, 'bundle.zip', { keepContent: false, crc32, inflaterStopsAtCap: true });
  trace('read back');
  return { ...built, findings: sortFindings(built.findings.concat(readBack.items)) };
}

function listing(files: readonly { path: string; content: Uint8Array }[]): { path: string; size: number }[] {
  return files.map((f) => ({ path: f.path, size: f.content.length }));
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

type OutState = { readonly mode: 'absent' } | { readonly mode: 'replace'; readonly previous: readonly MarkedFile[] };

const NOT_OURS = 'package never overwrites what it cannot prove it wrote; move them away or choose an empty or new folder';

// Absent, empty, or only what package wrote: its marker and submission files whose bytes it lists.
function checkOutFolder(out: string): OutState {
  let stat;
  try {
    stat = lstatSync(out);
  } catch {
    return { mode: 'absent' };
  }
  if (!stat.isDirectory()) throw new UsageError(`--out "${out}" exists and is not a folder: choose a new folder`);
  const names = readdirSync(out).sort();
  if (names.length === 0) return { mode: 'replace', previous: [] };
  const foreign = names.filter((n) => n !== PACKAGE_MARKER && !(SUBMISSION_FILES as readonly string[]).includes(n));
  if (foreign.length > 0) {
    throw new UsageError(
      `--out "${out}" holds files that are not a submission set (${foreign.slice(0, 5).map((n) => `"${n}"`).join(', ')}${foreign.length > 5 ? ', ...' : ''}): ${NOT_OURS}`,
    );
  }
  const previous = names.includes(PACKAGE_MARKER) ? readMarker(join(out, PACKAGE_MARKER)) : null;
  const present = names.filter((n) => n !== PACKAGE_MARKER) as SubmissionFile[];
  if (previous === null) {
    throw new UsageError(`--out "${out}" holds ${present.map((n) => `"${n}"`).join(', ')} but no ${PACKAGE_MARKER} of package's own describing them: ${NOT_OURS}`);
  }
  // A killed run's marker lists two versions of a file; only the one found matters for the next marker.
  const found: MarkedFile[] = [];
  for (const name of present) {
    const read = readFile(join(out, name), SUBMISSION_FILE_MAX_BYTES[name]);
    if (!read.ok || !isMarked(previous, name, read.bytes)) {
      throw new UsageError(`--out "${out}" has "${name}", which is not what package wrote there (${PACKAGE_MARKER} lists other bytes): ${NOT_OURS}`);
    }
    found.push(markedFile(name, read.bytes));
  }
  return { mode: 'replace', previous: found };
}

const NEXT_MARKER = `${PACKAGE_MARKER}.next`;

// A killed run's staging folder: its marker, copies of it, and submission files that are the listed
// bytes or shorter (a write cut short).
function provenStaging(folder: string): boolean {
  if (!lstatSync(folder).isDirectory()) return false;
  const marked = readMarker(join(folder, PACKAGE_MARKER));
  if (marked === null) return false;
  return readdirSync(folder).every((name) => {
    if (name === PACKAGE_MARKER) return true;
    if (name === NEXT_MARKER) return readMarker(join(folder, name)) !== null;
    if (!(SUBMISSION_FILES as readonly string[]).includes(name)) return false;
    const listed = marked.filter((f) => f.name === name);
    const read = readFile(join(folder, name), Math.max(0, ...listed.map((f) => f.size)));
    if (!read.ok) return false;
    return listed.some((f) => read.bytes.length < f.size) || isMarked(marked, name as SubmissionFile, read.bytes);
  });
}

// Anything not proven package's own is left alone (never delete what we cannot prove we created).
function removeLeftovers(parent: string, out: string): void {
  const prefix = `.${basename(out)}.staging-`;
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const path = join(parent, name);
    try {
      if (provenStaging(path)) rmSync(path, { recursive: true, force: true });
    } catch { /* Gone meanwhile or not ours to touch: leave it. */ }
  }
}

// Names the file in a failed write: the error carries no path of its own.
function stageFile(path: string, data: Uint8Array | string): void {
  try {
    writeNewFileInStaging(path, data, 0o644);
  } catch (error) {
    throw Object.assign(error as Error, { path });
  }
}

// Staged beside `out`, marker first; an earlier set is replaced file by file (atomic renames, `out` always
// exists), the marker meanwhile listing old and new bytes so a run killed anywhere leaves a provable `out`.
function writeSet(out: string, contents: ReadonlyMap<SubmissionFile, Uint8Array | string>, state: OutState, onStage: (stage: string) => void): void {
  const parent = dirname(resolve(out));
  const marked = [...contents].map(([name, data]) => markedFile(name, data));
  const final = formatMarker(marked);
  const during = state.mode === 'replace' ? formatMarker([...state.previous.filter((p) => !marked.some((m) => m.name === p.name && m.sha256 === p.sha256)), ...marked]) : final;
  try {
    mkdirSync(parent, { recursive: true });
    removeLeftovers(parent, out);
    const stage = mkdtempSync(join(parent, `.${basename(out)}.staging-`));
    try {
      stageFile(join(stage, PACKAGE_MARKER), during);
      onStage('staging');
      for (const [name, data] of contents) stageFile(join(stage, name), data);
      onStage('staged');
      if (state.mode === 'absent') {
        renameSync(stage, out);
        onStage('renamed');
        return;
      }
      stageFile(join(stage, NEXT_MARKER), during);
      renameSync(join(stage, NEXT_MARKER), join(out, PACKAGE_MARKER));
      for (const name of contents.keys()) {
        renameSync(join(stage, name), join(out, name));
        onStage(`renamed:${name}`);
      }
      if (during !== final) {
        stageFile(join(stage, NEXT_MARKER), final);
        renameSync(join(stage, NEXT_MARKER), join(out, PACKAGE_MARKER));
      }
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  } catch (error) {
    throw writeError(error, out);
  }
}

// A usage error naming the path (D-21), not an internal error.
const WRITE_ERRORS: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exhausted',
  EFBIG: 'the file is larger than this process may write (ulimit -f)',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  EIO: 'an input/output error',
  ENAMETOOLONG: 'the name is too long',
  ENOTDIR: 'a part of the path is not a folder',
  EEXIST: 'something else appeared there meanwhile',
  ENOTEMPTY: 'something else appeared there meanwhile',
};

function writeError(error: unknown, out: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined || WRITE_ERRORS[code] === undefined) return error;
  const path = (error as NodeJS.ErrnoException).path ?? out;
  return new UsageError(`Cannot write the submission set to "${out}": ${WRITE_ERRORS[code]} (${code} at "${path}")`);
}

// Before any work: a wrong path should not cost a full build. Key never inside the project (D-4).
function loadSigningKey(dir: string, keyPath: string, out: string): ReturnType<typeof parsePrivateKey> {
  if (isInside(realOrResolved(keyPath), realOrResolved(dir))) {
    throw new UsageError(`The private key "${keyPath}" is inside the project "${dir}": move it out (D-4: a private key is never part of a project)`);
  }
  if (isInside(resolve(out), resolve(dir, 'runtime'))) {
    throw new UsageError(`The out folder "${out}" is inside runtime/: everything there is packaged; choose a folder outside runtime/`);
  }
  return parsePrivateKey(readPrivateKeyFile(keyPath), keyPath);
}

/** The five submission files (D-12 to D-14), and what the summary shows. */
function submissionSet(built: Built & { zip: Uint8Array }, key: ReturnType<typeof parsePrivateKey>) {
  const manifestSha256 = sha256Hex(built.manifest!);
  const artifactSha256 = sha256Hex(built.zip);
  const publicKey = publicKeyBytes(key);
  const keyId = sha256Hex(publicKey);
  const signature = signEd25519(key, Buffer.from(signedPayload(built.namespace!, built.version!, manifestSha256, artifactSha256), 'utf8'));
  const record = {
    format: SUBMISSION_FORMAT,
    namespace: built.namespace!,
    version: built.version!,
    artifact_path: artifactPath(built.namespace!, built.version!),
    manifest_sha256: manifestSha256,
    artifact_sha256: artifactSha256,
    publisher_public_key_id: keyId,
  };
  const contents = new Map<SubmissionFile, Uint8Array | string>([
    ['bundle.zip', built.zip],
    ['manifest.json', built.manifest!],
    ['publisher-public-key.txt', base64Line(publicKey)],
    ['signature.txt', base64Line(signature)],
    ['submission.json', `${JSON.stringify(record, null, 2)}\n`],
  ]);
  return { contents, manifestSha256, artifactSha256, keyId, artifactPath: record.artifact_path };
}

export interface PackageProjectOptions {
  readonly out?: string;
  readonly privateKey?: string;
  readonly dryRun?: boolean;
  /** A seam for tests that stop the process at exactly one stage of the write. */
  readonly onStage?: (stage: string) => void;
}

export interface PackageOutcome {
  /** Check plus read-back (D-16); any error means nothing was written. */
  readonly report: Report;
  readonly written: boolean;
  readonly namespace?: string;
  readonly version?: string;
  readonly files: readonly { path: string; size: number }[];
  readonly compressedBytes?: number;
  readonly manifestSha256?: string;
  readonly artifactSha256?: string;
  /** The key fingerprint (D-12). */
  readonly publicKeyId?: string;
  readonly artifactPath?: string;
}

/** Missing out/key, a key inside the project, a foreign out folder or a failed write: UsageError. */
export function packageProject(dir: string, options: PackageProjectOptions): PackageOutcome {
  const dryRun = options.dryRun === true;
  const { out, privateKey: keyPath } = options;
  if (!dryRun && (out === undefined || keyPath === undefined)) {
    throw new UsageError('"package" needs an out folder and a private key (or a dry run to see what would be packaged)');
  }
  const key = dryRun ? undefined : loadSigningKey(dir, keyPath!, out!);
  trace('start');
  const built = buildArchive(dir);
  const base = {
    report: buildReport('check', dir, built.findings, { ...(built.hints !== undefined && { hints: built.hints }) }),
    files: built.files,
    ...(built.namespace !== undefined && { namespace: built.namespace }),
    ...(built.version !== undefined && { version: built.version }),
  };
  if (built.findings.some((f) => f.severity === 'error') || built.zip === undefined) return { ...base, written: false };
  if (dryRun) return { ...base, written: false, compressedBytes: built.zip.length };
  const state = checkOutFolder(out!);
  const set = submissionSet(built as Built & { zip: Uint8Array }, key!);
  trace('hashed and signed');
  writeSet(out!, set.contents, state, options.onStage ?? (() => {}));
  trace('written');
  return {
    ...base,
    written: true,
    compressedBytes: built.zip.length,
    manifestSha256: set.manifestSha256,
    artifactSha256: set.artifactSha256,
    publicKeyId: set.keyId,
    artifactPath: set.artifactPath,
  };
}
