// The size of the archive `package` would write, for `check`: a project whose bundle.zip
// would break the contract's compressed-size limit must fail `check` exactly as it fails
// `package` and `verify`, with the same rule id. Exact where it matters: when even storing
// every file leaves the archive within the limit, nothing is compressed; otherwise every
// entry is compressed with the encoder `package` uses (compressEntry), so the size is the
// archive's own, not an estimate, and on the compression worker while the check runs, as
// `package` does. The per-entry ratio cannot fail: compressEntry pads the stream of an
// entry that would exceed the ratio limit with a stored tail (D-41), and the archive-wide
// ratio of entries that each keep within it keeps within it too.
import { BUNDLE_MAX_COMPRESSED_BYTES, FindingList, sortFindings, type BundleEntry, type Finding, formatSize, ZIP_FORMAT } from '../validator/internal.js';
import { compressEntry } from './compress-entry.js';
import { compressEntries } from './parallel-compression.js';

const { CENTRAL_HEADER_LENGTH, END_OF_CENTRAL_DIRECTORY_LENGTH, LOCAL_HEADER_LENGTH } = ZIP_FORMAT;

/** One file as the archive holds it. */
export interface ArchiveFile {
  readonly path: string;
  readonly content: Uint8Array;
}

/** Bytes of the archive besides the entries' data: both headers with the name, and the end record. */
function layoutBytes(files: readonly ArchiveFile[]): number {
  let total = END_OF_CENTRAL_DIRECTORY_LENGTH;
  for (const file of files) total += LOCAL_HEADER_LENGTH + CENTRAL_HEADER_LENGTH + 2 * file.path.length;
  return total;
}

/** What the archive of `files` would measure, and whether it was measured by compressing. */
export interface ArchiveSize {
  readonly bytes: number;
  /** False when storing every file already fits, so nothing was compressed: `bytes` is then an upper bound. */
  readonly compressed: boolean;
}

/**
 * The size of writeZip(files), or an upper bound on it when that bound is within the
 * limit (the archive of stored entries; compressEntry never makes an entry larger).
 */
export function archiveSize(files: readonly ArchiveFile[]): ArchiveSize {
  const layout = layoutBytes(files);
  let stored = layout;
  for (const file of files) stored += file.content.length;
  if (stored <= BUNDLE_MAX_COMPRESSED_BYTES) return { bytes: stored, compressed: false };
  let exact = layout;
  for (const file of files) exact += compressEntry(file.content).data.length;
  return { bytes: exact, compressed: true };
}

/** The archive's files, or null when one is not read (unreadable or over a limit: already an error, its size unknown). */
function archiveFiles(entries: readonly BundleEntry[] | null): ArchiveFile[] | null {
  if (entries === null) return null;
  const files: ArchiveFile[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'file' || entry.content === undefined) return null;
    files.push({ path: entry.path, content: entry.content });
  }
  return files;
}

/**
 * `check()`'s findings plus `archive/compressed-too-large` when the archive of `entries`
 * would exceed the limit. When storing them all would exceed it, they are compressed
 * (compressEntries) while `check` runs on this thread.
 */
export function withArchiveSize(entries: readonly BundleEntry[] | null, check: () => readonly Finding[]): Finding[] {
  const files = archiveFiles(entries);
  const stored = files === null ? 0 : layoutBytes(files) + files.reduce((n, f) => n + f.content.length, 0);
  if (files === null || stored <= BUNDLE_MAX_COMPRESSED_BYTES) {
    const findings = check();
    return files === null ? [...findings] : withSize(findings, { bytes: stored, compressed: false });
  }
  let findings: readonly Finding[] = [];
  const compressed = compressEntries(files, {
    alongside: () => {
      findings = check();
      return true;
    },
  })!;
  let bytes = layoutBytes(files);
  for (const file of files) bytes += compressed.entries.get(file.path)!.data.length;
  return withSize(findings, { bytes, compressed: true });
}

function withSize(findings: readonly Finding[], size: ArchiveSize): Finding[] {
  if (size.bytes <= BUNDLE_MAX_COMPRESSED_BYTES) return [...findings];
  const extra = new FindingList();
  extra.add(
    'archive/compressed-too-large',
    `bundle.zip would be ${formatSize(size.bytes)}, compressed as package writes it; a bundle may be at most ${formatSize(BUNDLE_MAX_COMPRESSED_BYTES)}`,
    { file: 'runtime/' },
  );
  return sortFindings(findings.concat(extra.items));
}
