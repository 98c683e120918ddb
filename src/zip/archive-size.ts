// The size of the archive `package` would write, for `check`: an over-limit bundle fails `check` with the
// same rule id as `package` and `verify`. Exact (compressEntry, as `package` does) unless storing fits.
// The per-entry ratio cannot fail: compressEntry pads an over-ratio entry with a stored tail (D-41).
import { BUNDLE_MAX_COMPRESSED_BYTES, FindingList, sortFindings, type BundleEntry, type Finding, formatSize, ZIP_FORMAT } from '../validator/internal.js';
import { compressEntry } from './compress-entry.js';
import { compressEntries } from './parallel-compression.js';

const { CENTRAL_HEADER_LENGTH, END_OF_CENTRAL_DIRECTORY_LENGTH, LOCAL_HEADER_LENGTH } = ZIP_FORMAT;

export interface ArchiveFile {
  readonly path: string;
  readonly content: Uint8Array;
}

function layoutBytes(files: readonly ArchiveFile[]): number {
  let total = END_OF_CENTRAL_DIRECTORY_LENGTH;
  for (const file of files) total += LOCAL_HEADER_LENGTH + CENTRAL_HEADER_LENGTH + 2 * file.path.length;
  return total;
}

export interface ArchiveSize {
  readonly bytes: number;
  /** False when storing every file fits: nothing was compressed and `bytes` is an upper bound. */
  readonly compressed: boolean;
}

/** writeZip(files)'s size, or an upper bound within the limit (compressEntry never makes an entry larger). */
export function archiveSize(files: readonly ArchiveFile[]): ArchiveSize {
  const layout = layoutBytes(files);
  let stored = layout;
  for (const file of files) stored += file.content.length;
  if (stored <= BUNDLE_MAX_COMPRESSED_BYTES) return { bytes: stored, compressed: false };
  let exact = layout;
  for (const file of files) exact += compressEntry(file.content).data.length;
  return { bytes: exact, compressed: true };
}

/** Null when a file was not read (unreadable or over a limit: already an error, its size unknown). */
function archiveFiles(entries: readonly BundleEntry[] | null): ArchiveFile[] | null {
  if (entries === null) return null;
  const files: ArchiveFile[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'file' || entry.content === undefined) return null;
    files.push({ path: entry.path, content: entry.content });
  }
  return files;
}

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
