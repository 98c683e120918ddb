// The size of the archive `package` would write, for `check`: a project whose bundle.zip
// would break the contract's compressed-size limit must fail `check` exactly as it fails
// `package` and `verify`, with the same rule id. Exact where it matters: when even storing
// every file leaves the archive within the limit, nothing is compressed; otherwise every
// entry is compressed with the encoder `package` uses (compressEntry), so the size is the
// archive's own, not an estimate. The per-entry ratio cannot fail: compressEntry stores an
// entry whose deflated form would exceed the ratio limit, and the archive-wide ratio of
// entries that each keep within it keeps within it too.
import { BUNDLE_MAX_COMPRESSED_BYTES, FindingList, sortFindings, type BundleEntry, type Finding } from '../validator/index.js';
import { compressEntry } from './entry.js';
import { ZIP_CENTRAL_DIRECTORY_HEADER_BYTES, ZIP_END_OF_CENTRAL_DIRECTORY_BYTES, ZIP_LOCAL_FILE_HEADER_BYTES } from './format.js';
import { formatSize } from '../project/format.js';

/** One file as the archive holds it. */
export interface ArchiveFile {
  readonly path: string;
  readonly content: Uint8Array;
}

/** Bytes of the archive besides the entries' data: both headers with the name, and the end record. */
function layoutBytes(files: readonly ArchiveFile[]): number {
  let total = ZIP_END_OF_CENTRAL_DIRECTORY_BYTES;
  for (const file of files) total += ZIP_LOCAL_FILE_HEADER_BYTES + ZIP_CENTRAL_DIRECTORY_HEADER_BYTES + 2 * file.path.length;
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

/**
 * `findings` plus `archive/compressed-too-large` when the bundle's archive would exceed the
 * limit. Only the readable files count; a bundle with errors of its own is left to them
 * (an unreadable or oversized file is already an error, and its size is not known).
 */
export function withArchiveSize(findings: readonly Finding[], entries: readonly BundleEntry[] | null): Finding[] {
  if (entries === null) return [...findings];
  const files: ArchiveFile[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'file' || entry.content === undefined) return [...findings];
    files.push({ path: entry.path, content: entry.content });
  }
  const size = archiveSize(files);
  if (size.bytes <= BUNDLE_MAX_COMPRESSED_BYTES) return [...findings];
  const extra = new FindingList();
  extra.add(
    'archive/compressed-too-large',
    `bundle.zip would be ${formatSize(size.bytes)}, compressed as package writes it; a bundle may be at most ${formatSize(BUNDLE_MAX_COMPRESSED_BYTES)}`,
    { file: 'runtime/' },
  );
  return sortFindings(findings.concat(extra.items));
}
