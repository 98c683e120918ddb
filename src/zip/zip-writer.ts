// The deterministic ZIP writer of `package` (D-15): the bytes are a pure function of the (path, content)
// pairs. Layout (APPNOTE 4.3.6): local headers and data in name byte order, central directory, end record;
// no extras, descriptors or ZIP64, fixed times and attributes: the shape the hardened reader (D-16) accepts.

import { pathProblem, ZIP_FORMAT } from '../validator/internal.js';
import { compressEntry, type CompressedEntry, type Crc32 } from './compress-entry.js';
import { crc32 } from '../validator/internal.js';

export { compressEntry, type CompressedEntry, type Crc32 } from './compress-entry.js';

const {
  CENTRAL_COMMENT_LENGTH,
  CENTRAL_COMPRESSED_SIZE,
  CENTRAL_CRC32,
  CENTRAL_DATE,
  CENTRAL_DISK_START,
  CENTRAL_EXTERNAL_ATTRIBUTES,
  CENTRAL_EXTRA_LENGTH,
  CENTRAL_FLAGS,
  CENTRAL_HEADER_LENGTH,
  CENTRAL_HEADER_SIGNATURE,
  CENTRAL_INTERNAL_ATTRIBUTES,
  CENTRAL_LOCAL_HEADER_OFFSET,
  CENTRAL_METHOD,
  CENTRAL_NAME_LENGTH,
  CENTRAL_SIGNATURE,
  CENTRAL_TIME,
  CENTRAL_UNCOMPRESSED_SIZE,
  CENTRAL_VERSION_MADE_BY,
  CENTRAL_VERSION_NEEDED,
  D15_DOS_DATE,
  D15_DOS_TIME,
  D15_EXTERNAL_ATTRIBUTES,
  D15_FLAGS,
  D15_VERSION_MADE_BY,
  END_CENTRAL_DIRECTORY_DISK,
  END_CENTRAL_DIRECTORY_OFFSET,
  END_CENTRAL_DIRECTORY_SIZE,
  END_COMMENT_LENGTH,
  END_DISK,
  END_ENTRIES_ON_DISK,
  END_ENTRIES_TOTAL,
  END_OF_CENTRAL_DIRECTORY_LENGTH,
  END_OF_CENTRAL_DIRECTORY_SIGNATURE,
  END_SIGNATURE,
  LOCAL_COMPRESSED_SIZE,
  LOCAL_CRC32,
  LOCAL_DATE,
  LOCAL_EXTRA_LENGTH,
  LOCAL_FLAGS,
  LOCAL_HEADER_LENGTH,
  LOCAL_HEADER_SIGNATURE,
  LOCAL_METHOD,
  LOCAL_NAME_LENGTH,
  LOCAL_SIGNATURE,
  LOCAL_TIME,
  LOCAL_UNCOMPRESSED_SIZE,
  LOCAL_VERSION_NEEDED,
  MAX_32,
  MAX_ENTRIES,
  MAX_NAME_LENGTH,
  METHOD_DEFLATE,
  METHOD_STORED,
  VERSION_DEFLATE,
  VERSION_STORED,
} = ZIP_FORMAT;

/** A bundle-relative path (D-1, D-2) and its bytes. */
export interface ZipFileInput {
  readonly path: string;
  readonly content: Uint8Array;
}

interface PlannedEntry {
  name: string;
  method: number;
  crc: number;
  uncompressedSize: number;
  data: Uint8Array;
  localHeaderOffset: number;
}

/** UTF-16 order, byte order for D-2's ASCII names; not localeCompare, whose order depends on ICU data. */
function compareNames(a: ZipFileInput, b: ZipFileInput): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** Throws on input the caller should have refused (bad or duplicate path, ZIP64 sizes): a bug, not a finding. */
export function orderZipFiles(files: readonly ZipFileInput[]): ZipFileInput[] {
  if (files.length > MAX_ENTRIES) {
    throw new Error(`writeZip: ${files.length} files is more than a ZIP without ZIP64 holds (${MAX_ENTRIES})`);
  }
  for (const file of files) {
    // D-2 names are ASCII, their own bytes: no UTF-8 flag (APPNOTE 4.4.4 bit 11).
    const problem = pathProblem(file.path);
    if (problem !== null) throw new Error(`writeZip: path "${file.path}" is not a bundle path: ${problem}`);
    if (file.path.length > MAX_NAME_LENGTH) throw new Error(`writeZip: path "${file.path}" is too long for a ZIP name`);
    if (file.content.length > MAX_32) throw new Error(`writeZip: "${file.path}" is too large for a ZIP without ZIP64`);
  }
  const sorted = [...files].sort(compareNames);
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k]!.path === sorted[k - 1]!.path) throw new Error(`writeZip: path "${sorted[k]!.path}" occurs twice`);
  }
  return sorted;
}

export function writeZip(files: readonly ZipFileInput[], crc: Crc32 = crc32): Uint8Array {
  const sorted = orderZipFiles(files);
  const compressed = new Map<string, CompressedEntry>();
  for (const file of sorted) compressed.set(file.path, compressEntry(file.content, crc));
  return assembleZip(sorted, compressed);
}

/** `compressed` maps each path to compressEntry of its content; throws when one is missing or does not fit. */
export function assembleZip(files: readonly ZipFileInput[], compressed: ReadonlyMap<string, CompressedEntry>): Uint8Array {
  const sorted = orderZipFiles(files);
  const entries: PlannedEntry[] = [];
  let offset = 0;
  for (const file of sorted) {
    const entry = compressed.get(file.path);
    if (entry === undefined) throw new Error(`writeZip: no compressed entry for "${file.path}"`);
    const fits = entry.method === METHOD_DEFLATE || (entry.method === METHOD_STORED && entry.data.length === file.content.length);
    if (!fits) throw new Error(`writeZip: the compressed entry for "${file.path}" does not belong to its content`);
    entries.push({
      name: file.path,
      method: entry.method,
      crc: entry.crc32,
      uncompressedSize: file.content.length,
      data: entry.data,
      localHeaderOffset: offset,
    });
    offset += LOCAL_HEADER_LENGTH + file.path.length + entry.data.length;
  }
  const centralDirectoryOffset = offset;
  let centralDirectorySize = 0;
  for (const entry of entries) centralDirectorySize += CENTRAL_HEADER_LENGTH + entry.name.length;
  if (centralDirectoryOffset > MAX_32 || centralDirectorySize > MAX_32) {
    throw new Error('writeZip: the archive would be too large for a ZIP without ZIP64');
  }

  const archive = new Uint8Array(centralDirectoryOffset + centralDirectorySize + END_OF_CENTRAL_DIRECTORY_LENGTH);
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);

  // Local headers (APPNOTE 4.3.7) carry sizes and CRC, no data descriptor: the reader checks both copies.
  for (const entry of entries) {
    const at = entry.localHeaderOffset;
    view.setUint32(at + LOCAL_SIGNATURE, LOCAL_HEADER_SIGNATURE, true);
    view.setUint16(at + LOCAL_VERSION_NEEDED, versionNeeded(entry.method), true);
    view.setUint16(at + LOCAL_FLAGS, D15_FLAGS, true);
    view.setUint16(at + LOCAL_METHOD, entry.method, true);
    view.setUint16(at + LOCAL_TIME, D15_DOS_TIME, true);
    view.setUint16(at + LOCAL_DATE, D15_DOS_DATE, true);
    view.setUint32(at + LOCAL_CRC32, entry.crc, true);
    view.setUint32(at + LOCAL_COMPRESSED_SIZE, entry.data.length, true);
    view.setUint32(at + LOCAL_UNCOMPRESSED_SIZE, entry.uncompressedSize, true);
    view.setUint16(at + LOCAL_NAME_LENGTH, entry.name.length, true);
    view.setUint16(at + LOCAL_EXTRA_LENGTH, 0, true);
    writeAscii(archive, at + LOCAL_HEADER_LENGTH, entry.name);
    archive.set(entry.data, at + LOCAL_HEADER_LENGTH + entry.name.length);
  }

  // Central directory (APPNOTE 4.3.12).
  let at = centralDirectoryOffset;
  for (const entry of entries) {
    view.setUint32(at + CENTRAL_SIGNATURE, CENTRAL_HEADER_SIGNATURE, true);
    view.setUint16(at + CENTRAL_VERSION_MADE_BY, D15_VERSION_MADE_BY, true);
    view.setUint16(at + CENTRAL_VERSION_NEEDED, versionNeeded(entry.method), true);
    view.setUint16(at + CENTRAL_FLAGS, D15_FLAGS, true);
    view.setUint16(at + CENTRAL_METHOD, entry.method, true);
    view.setUint16(at + CENTRAL_TIME, D15_DOS_TIME, true);
    view.setUint16(at + CENTRAL_DATE, D15_DOS_DATE, true);
    view.setUint32(at + CENTRAL_CRC32, entry.crc, true);
    view.setUint32(at + CENTRAL_COMPRESSED_SIZE, entry.data.length, true);
    view.setUint32(at + CENTRAL_UNCOMPRESSED_SIZE, entry.uncompressedSize, true);
    view.setUint16(at + CENTRAL_NAME_LENGTH, entry.name.length, true);
    view.setUint16(at + CENTRAL_EXTRA_LENGTH, 0, true);
    view.setUint16(at + CENTRAL_COMMENT_LENGTH, 0, true);
    view.setUint16(at + CENTRAL_DISK_START, 0, true);
    view.setUint16(at + CENTRAL_INTERNAL_ATTRIBUTES, 0, true); // 4.4.14: no "text" claim
    view.setUint32(at + CENTRAL_EXTERNAL_ATTRIBUTES, D15_EXTERNAL_ATTRIBUTES, true);
    view.setUint32(at + CENTRAL_LOCAL_HEADER_OFFSET, entry.localHeaderOffset, true);
    writeAscii(archive, at + CENTRAL_HEADER_LENGTH, entry.name);
    at += CENTRAL_HEADER_LENGTH + entry.name.length;
  }

  // End of central directory (APPNOTE 4.3.16).
  view.setUint32(at + END_SIGNATURE, END_OF_CENTRAL_DIRECTORY_SIGNATURE, true);
  view.setUint16(at + END_DISK, 0, true);
  view.setUint16(at + END_CENTRAL_DIRECTORY_DISK, 0, true);
  view.setUint16(at + END_ENTRIES_ON_DISK, entries.length, true);
  view.setUint16(at + END_ENTRIES_TOTAL, entries.length, true);
  view.setUint32(at + END_CENTRAL_DIRECTORY_SIZE, centralDirectorySize, true);
  view.setUint32(at + END_CENTRAL_DIRECTORY_OFFSET, centralDirectoryOffset, true);
  view.setUint16(at + END_COMMENT_LENGTH, 0, true);
  return archive;
}

/** APPNOTE 4.4.3.2. */
function versionNeeded(method: number): number {
  return method === METHOD_DEFLATE ? VERSION_DEFLATE : VERSION_STORED;
}

function writeAscii(target: Uint8Array, at: number, text: string): void {
  for (let k = 0; k < text.length; k++) target[at + k] = text.charCodeAt(k);
}
