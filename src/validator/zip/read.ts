// The hardened ZIP reader (contract "Bundle (bundle.zip)", D-16) of `verify` and `platform-review`: for hostile input,
// it accepts only archives in which every byte is accounted for and refuses the rest rather than repair it.
// 1. Structure (nothing inflated): one end record, the last 22 bytes; the central directory ending where it starts;
//    local records back to back from offset 0 up to it; central and local headers agreeing. No byte is left for two
//    readers to interpret differently: no prefix (self-extractor stubs, polyglots), no overlap (CVE-2024-0450, two
//    names for one record), no hidden local header ("Janus"/"Master Key": local-header and directory readers differ).
// 2. Policy (sound structure only): archive size, declared sizes, count and ratios before inflating; each stream walked
//    (deflate-bound.ts) to prove its size, then inflated capped and checked for length, CRC-32 and consumed input.
// Pure: bytes in, findings and entries out; no node: module, the caller injects raw-DEFLATE decompression.
import type { BundleEntry } from '../bundle.js';
import type { FindingList } from '../findings.js';
import {
  BUNDLE_MAX_COMPRESSED_BYTES,
  BUNDLE_MAX_COMPRESSION_RATIO,
  BUNDLE_MAX_EXPANDED_BYTES,
  BUNDLE_MAX_FILE_BYTES,
  BUNDLE_MAX_FILES,
} from '../limits.js';
import { deflateBound } from './deflate-bound.js';
import { groupDigits } from '../text.js';
import { crc32 } from './crc32.js';
import {
  CENTRAL_COMMENT_LENGTH,
  CENTRAL_COMPRESSED_SIZE,
  CENTRAL_CRC32,
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
  CENTRAL_UNCOMPRESSED_SIZE,
  CENTRAL_VERSION_MADE_BY,
  CENTRAL_VERSION_NEEDED,
  DOS_ARCHIVE,
  DOS_DIRECTORY,
  END_CENTRAL_DIRECTORY_DISK,
  END_CENTRAL_DIRECTORY_OFFSET,
  END_CENTRAL_DIRECTORY_SIZE,
  END_COMMENT_LENGTH,
  END_DISK,
  END_ENTRIES_ON_DISK,
  END_ENTRIES_TOTAL,
  END_OF_CENTRAL_DIRECTORY_LENGTH,
  END_OF_CENTRAL_DIRECTORY_SIGNATURE,
  FLAG_COMPRESSION_OPTIONS,
  FLAG_DATA_DESCRIPTOR,
  FLAG_ENCRYPTED,
  FLAG_MASKED_HEADERS,
  FLAG_STRONG_ENCRYPTION,
  FLAG_UTF8,
  HOST_MSDOS,
  HOST_UNIX,
  LOCAL_COMPRESSED_SIZE,
  LOCAL_CRC32,
  LOCAL_EXTRA_LENGTH,
  LOCAL_FLAGS,
  LOCAL_HEADER_LENGTH,
  LOCAL_HEADER_SIGNATURE,
  LOCAL_METHOD,
  LOCAL_NAME_LENGTH,
  LOCAL_UNCOMPRESSED_SIZE,
  LOCAL_VERSION_NEEDED,
  MAX_COMMENT_LENGTH,
  METHOD_DEFLATE,
  METHOD_STORED,
  SENTINEL_16,
  SENTINEL_32,
  UNIX_DIRECTORY,
  UNIX_REGULAR_FILE,
  UNIX_SETUID_SETGID_STICKY,
  UNIX_SYMLINK,
  UNIX_TYPE_MASK,
  VERSION_DEFLATE,
  ZIP64_END_LOCATOR_LENGTH,
  ZIP64_END_LOCATOR_SIGNATURE,
  ZIP64_EXTRA_ID,
} from './zip-format.js';

/** An inflater's answer; `crc32`, when given, is the CRC-32 of `data` (a platform may compute it natively). */
export type InflateResult =
  | { readonly ok: true; readonly data: Uint8Array; readonly crc32?: number }
  | { readonly ok: false; readonly reason: 'corrupt' | 'too-long' | 'too-short' | 'trailing-data' };

/** Inflates to exactly `expectedSize` (the declared size, also the cap), 'trailing-data' unless all input is consumed.
 * It is handed only streams proven within the cap (deflateBound), so even an adapter ignoring the cap never inflates
 * more; one that stops at the cap itself may say so (ReadZipOptions.inflaterStopsAtCap). */
export type InflateRaw = (compressed: Uint8Array, expectedSize: number) => InflateResult;

export interface ZipReadResult {
  /** In central-directory order (size as declared, content once verified); null when the structure was refused. */
  readonly entries: BundleEntry[] | null;
  /** Each entry as the central directory declares it, once the structure passed (even if policy stopped inflation). */
  readonly listing?: readonly ZipListingEntry[];
}

/** One entry as its central record declares it: `size` uncompressed, `method` 0 or 8, `crc32` verified when inflated. */
export interface ZipListingEntry {
  readonly path: string;
  readonly size: number;
  readonly compressedSize: number;
  readonly method: number;
  readonly crc32: number;
}

// A hostile directory can hold 65,534 entries with several problems each; the archive is refused after the first.
const MAX_ARCHIVE_FINDINGS = 100;
const NAME_DISPLAY_MAX = 100;
/** Flag bits a D-16 archive may carry: UTF-8 names (harmless for ASCII names) and the deflate level hint. */
const ALLOWED_FLAGS = FLAG_UTF8 | FLAG_COMPRESSION_OPTIONS;
const ENCRYPTION_FLAGS = FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION | FLAG_MASKED_HEADERS;
/** 4.4.6: bit 0 of the internal attributes says "apparently text"; the other bits are reserved. */
const INTERNAL_TEXT_FLAG = 1;

interface ReadState {
  readonly bytes: Uint8Array;
  readonly findings: FindingList;
  readonly file: string;
  /** False once any problem was found: the archive is then refused. */
  sound: boolean;
  reported: number;
  readonly storedCrc: (data: Uint8Array) => number;
  readonly walk: boolean;
}

interface EndRecord {
  readonly offset: number;
  readonly entryCount: number;
  readonly directoryOffset: number;
  readonly directorySize: number;
}

interface CentralRecord {
  /** One character per name byte: equal keys are equal name bytes. */
  readonly key: string;
  readonly label: string;
  readonly nameStart: number;
  readonly nameLength: number;
  readonly flags: number;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localOffset: number;
  readonly versionNeeded: number;
  readonly extraReported: boolean;
  /** Where the compressed data starts and where the entry's record ends (set by readLocalHeaders). */
  dataStart: number;
  end: number;
}

export interface ReadZipOptions {
  /** false: every entry is still inflated and verified, but its bytes dropped at once (package's read-back). */
  readonly keepContent?: boolean;
  /** CRC-32 of stored entries as the platform computes it (the same function). Default: crc32.ts. */
  readonly crc32?: (data: Uint8Array) => number;
  /** True only for an inflater that never produces more than its cap: skips the deflate-bound walk. Default false. */
  readonly inflaterStopsAtCap?: boolean;
}

/** Reads a bundle archive; findings name `file`. Size and count limits (bundle/file-too-large, ...) are left to
 * checkBundleListing over `entries`; when one is broken, nothing is inflated. */
export function readZip(bytes: Uint8Array, inflate: InflateRaw, findings: FindingList, file = 'bundle.zip', options: ReadZipOptions = {}): ZipReadResult {
  const keepContent = options.keepContent !== false;
  const state: ReadState = { bytes, findings, file, sound: true, reported: 0, storedCrc: options.crc32 ?? crc32, walk: options.inflaterStopsAtCap !== true };
  // Before parsing anything: a bundle over the limit is refused without reading a record.
  if (bytes.length > BUNDLE_MAX_COMPRESSED_BYTES) {
    problem(
      state,
      'archive/compressed-too-large',
      `The archive is ${formatBytes(bytes.length)}; a bundle may be at most ${formatBytes(BUNDLE_MAX_COMPRESSED_BYTES)}`,
    );
    return { entries: null };
  }

  const end = locateEnd(state);
  if (end === null) return { entries: null };
  const records = readCentralDirectory(state, end);
  if (records === null) return { entries: null };
  if (readLocalHeaders(state, records, end.directoryOffset)) checkLayout(state, records, end.directoryOffset);
  if (!state.sound) return { entries: null };

  const inflateAllowed = checkPolicy(state, records);
  const entries: BundleEntry[] = [];
  for (const record of records) {
    const content = inflateAllowed ? extract(state, record, inflate) : null;
    entries.push(
      content === null || !keepContent
        ? { path: record.key, kind: 'file', size: record.uncompressedSize }
        : { path: record.key, kind: 'file', size: record.uncompressedSize, content },
    );
  }
  const listing = records.map((r) => ({ path: r.key, size: r.uncompressedSize, compressedSize: r.compressedSize, method: r.method, crc32: r.crc }));
  return { entries, listing };
}

function problem(state: ReadState, rule: string, message: string): void {
  state.sound = false;
  if (state.reported >= MAX_ARCHIVE_FINDINGS) return;
  state.reported++;
  state.findings.add(rule, message, { file: state.file });
}

// 4.3.16: the last 22 bytes, no comment (it can hide a header); trailing bytes are what stubs and polyglots leave.
// Another end signature can lie only in entry data (checkLayout accounts for every other byte, names are ASCII, extras
// and comments refused), and readers search backwards from the end: they all meet this one first.
function locateEnd(state: ReadState): EndRecord | null {
  const { bytes } = state;
  const last = bytes.length - END_OF_CENTRAL_DIRECTORY_LENGTH;
  if (last < 0) {
    problem(state, 'archive/not-zip', `The file is ${formatBytes(bytes.length)}, shorter than an end of central directory record`);
    return null;
  }
  if (readU32(bytes, last) !== END_OF_CENTRAL_DIRECTORY_SIGNATURE) {
    explainMissingEnd(state, last);
    return null;
  }
  const commentLength = readU16(bytes, last + END_COMMENT_LENGTH);
  if (commentLength !== 0) {
    // The record is the last 22 bytes, so the comment it declares is not even there.
    problem(state, 'archive/eocd-comment', `The end of central directory record declares a ${commentLength}-byte comment: archive comments are not allowed`);
    return null;
  }
  const disk = readU16(bytes, last + END_DISK);
  const directoryDisk = readU16(bytes, last + END_CENTRAL_DIRECTORY_DISK);
  const entriesOnDisk = readU16(bytes, last + END_ENTRIES_ON_DISK);
  const entryCount = readU16(bytes, last + END_ENTRIES_TOTAL);
  const directorySize = readU32(bytes, last + END_CENTRAL_DIRECTORY_SIZE);
  const directoryOffset = readU32(bytes, last + END_CENTRAL_DIRECTORY_OFFSET);

  // 4.4.1.4: all-ones defers to ZIP64 records, never needed by a bundle and a second set of sizes to disagree on.
  if (
    disk === SENTINEL_16 ||
    directoryDisk === SENTINEL_16 ||
    entriesOnDisk === SENTINEL_16 ||
    entryCount === SENTINEL_16 ||
    directorySize === SENTINEL_32 ||
    directoryOffset === SENTINEL_32
  ) {
    problem(state, 'archive/zip64', 'The end of central directory record defers to ZIP64 records: ZIP64 is not allowed');
    return null;
  }
  // Spanned archives: a reader that ignores disk numbers would read another disk's offsets.
  if (disk !== 0 || directoryDisk !== 0 || entriesOnDisk !== entryCount) {
    problem(
      state,
      'archive/multi-disk',
      `The end of central directory record names disk ${disk}, central directory disk ${directoryDisk} and ${entriesOnDisk} of ${entryCount} entries on this disk: an archive must be one disk`,
    );
    return null;
  }

  const directoryEnd = directoryOffset + directorySize;
  if (directoryEnd !== last) {
    explainDirectoryPlacement(state, last, directoryOffset, directorySize, entryCount);
    return null;
  }
  return { offset: last, entryCount, directoryOffset, directorySize };
}

function explainMissingEnd(state: ReadState, last: number): void {
  const { bytes } = state;
  const floor = Math.max(0, last - MAX_COMMENT_LENGTH);
  for (let at = last - 1; at >= floor; at--) {
    if (bytes[at] !== 0x50 || readU32(bytes, at) !== END_OF_CENTRAL_DIRECTORY_SIGNATURE) continue;
    const commentLength = readU16(bytes, at + END_COMMENT_LENGTH);
    const following = last - at;
    if (commentLength > 0) {
      problem(state, 'archive/eocd-comment', `The end of central directory record has a ${commentLength}-byte comment: archive comments are not allowed`);
    }
    if (following > commentLength) {
      problem(state, 'archive/trailing-data', `The file continues for ${formatBytes(following - commentLength)} after the end of central directory record`);
    }
    return;
  }
  problem(state, 'archive/not-zip', 'The file has no end of central directory record: it is not a ZIP archive or it is truncated');
}

function explainDirectoryPlacement(state: ReadState, endOffset: number, directoryOffset: number, directorySize: number, entryCount: number): void {
  const { bytes } = state;
  const directoryEnd = directoryOffset + directorySize;
  if (directoryEnd > endOffset) {
    problem(
      state,
      'archive/gap-or-overlap',
      `The central directory (offset ${directoryOffset}, ${formatBytes(directorySize)}) runs past the end of central directory record at offset ${endOffset}`,
    );
    return;
  }
  const locator = endOffset - ZIP64_END_LOCATOR_LENGTH;
  if (locator >= directoryEnd && readU32(bytes, locator) === ZIP64_END_LOCATOR_SIGNATURE) {
    problem(state, 'archive/zip64', 'A ZIP64 end of central directory locator precedes the end record: ZIP64 is not allowed');
    return;
  }
  // Bytes prepended without adjusting offsets (stub, polyglot): the directory sits right before the end, offset short.
  const shift = endOffset - directoryEnd;
  if (entryCount === 0 && directorySize === 0) {
    problem(state, 'archive/prefix-bytes', `The empty archive has ${formatBytes(shift)} before its end of central directory record`);
    return;
  }
  const shiftedStart = endOffset - directorySize;
  if (
    directorySize >= CENTRAL_HEADER_LENGTH &&
    readU32(bytes, shiftedStart) === CENTRAL_HEADER_SIGNATURE &&
    readU32(bytes, 0) !== LOCAL_HEADER_SIGNATURE
  ) {
    problem(state, 'archive/prefix-bytes', `The archive has ${formatBytes(shift)} before its first record: the central directory offsets are short by that much`);
    return;
  }
  problem(
    state,
    'archive/gap-or-overlap',
    `The central directory (offset ${directoryOffset}, ${formatBytes(directorySize)}) ends ${formatBytes(shift)} before the end of central directory record`,
  );
}

// 4.3.12: a header that does not fit ends parsing (null: the rest is unlocatable); field problems list in one pass.
function readCentralDirectory(state: ReadState, end: EndRecord): CentralRecord[] | null {
  const { bytes } = state;
  const directoryEnd = end.directoryOffset + end.directorySize;
  const records: CentralRecord[] = [];
  const seen = new Map<string, string>();
  let at = end.directoryOffset;
  for (let index = 0; index < end.entryCount; index++) {
    if (at === directoryEnd) {
      problem(state, 'archive/entry-count', `The end record declares ${end.entryCount} entries but the central directory holds ${index}`);
      return null;
    }
    if (at + CENTRAL_HEADER_LENGTH > directoryEnd || readU32(bytes, at) !== CENTRAL_HEADER_SIGNATURE) {
      problem(state, 'archive/central-directory-corrupt', `Central directory entry ${index + 1} at offset ${at} is not a central file header`);
      return null;
    }
    const nameLength = readU16(bytes, at + CENTRAL_NAME_LENGTH);
    const extraLength = readU16(bytes, at + CENTRAL_EXTRA_LENGTH);
    const commentLength = readU16(bytes, at + CENTRAL_COMMENT_LENGTH);
    const next = at + CENTRAL_HEADER_LENGTH + nameLength + extraLength + commentLength;
    if (next > directoryEnd) {
      problem(state, 'archive/central-directory-corrupt', `Central directory entry ${index + 1} at offset ${at} runs past the end of the central directory`);
      return null;
    }
    const nameStart = at + CENTRAL_HEADER_LENGTH;
    const key = bytesToKey(bytes, nameStart, nameLength);
    const label = displayName(key);
    const flags = readU16(bytes, at + CENTRAL_FLAGS);
    const method = readU16(bytes, at + CENTRAL_METHOD);
    const compressedSize = readU32(bytes, at + CENTRAL_COMPRESSED_SIZE);
    const uncompressedSize = readU32(bytes, at + CENTRAL_UNCOMPRESSED_SIZE);
    const localOffset = readU32(bytes, at + CENTRAL_LOCAL_HEADER_OFFSET);

    if (!isPrintableAscii(bytes, nameStart, nameLength)) {
      // Non-ASCII names decode differently by reader (CP437, UTF-8, Info-ZIP path field); D-2 allows ASCII.
      problem(state, 'archive/name-not-ascii', `${label}: the name has bytes outside printable ASCII`);
    }
    checkFlagsAndMethod(state, label, flags, method);
    const versionNeeded = readU16(bytes, at + CENTRAL_VERSION_NEEDED);
    if (versionNeeded > VERSION_DEFLATE) {
      problem(state, 'archive/version-needed', `${label}: it needs version ${versionNeeded / 10} to extract; stored and deflated entries need at most 2.0`);
    }
    const zip64 =
      compressedSize === SENTINEL_32 ||
      uncompressedSize === SENTINEL_32 ||
      localOffset === SENTINEL_32 ||
      readU16(bytes, at + CENTRAL_DISK_START) === SENTINEL_16 ||
      hasZip64Extra(bytes, nameStart + nameLength, extraLength);
    const extraProblem = zip64 ? null : extraFieldProblem(bytes, nameStart + nameLength, extraLength, 'central');
    if (zip64) {
      problem(state, 'archive/zip64', `${label}: the central header uses ZIP64 fields`);
    } else if (extraProblem !== null) {
      problem(state, 'archive/extra-field', `${label}: the central header's extra fields are refused: ${extraProblem}`);
    } else if (readU16(bytes, at + CENTRAL_DISK_START) !== 0) {
      problem(state, 'archive/multi-disk', `${label}: the entry starts on disk ${readU16(bytes, at + CENTRAL_DISK_START)}`);
    }
    if (commentLength > 0) {
      problem(state, 'archive/file-comment', `${label}: the entry has a ${commentLength}-byte comment`);
    }
    checkAttributes(state, label, key, readU16(bytes, at + CENTRAL_VERSION_MADE_BY), readU32(bytes, at + CENTRAL_EXTERNAL_ATTRIBUTES));
    const internal = readU16(bytes, at + CENTRAL_INTERNAL_ATTRIBUTES);
    if ((internal & ~INTERNAL_TEXT_FLAG) !== 0) {
      problem(state, 'archive/bad-attributes', `${label}: the internal attributes 0x${hex(internal, 4)} set reserved bits`);
    }
    if (method === METHOD_STORED && compressedSize !== uncompressedSize && !zip64) {
      // A stored entry's data is its content: two sizes leave a reader to pick one.
      problem(
        state,
        'archive/size-mismatch',
        `${label}: the entry is stored but declares ${formatBytes(compressedSize)} compressed and ${formatBytes(uncompressedSize)} uncompressed`,
      );
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      // Readers disagree on which of two same-named entries wins (first, last, or both).
      problem(state, 'archive/duplicate-name', `${label}: the name occurs twice in the central directory`);
    } else {
      seen.set(key, label);
    }
    records.push({
      key,
      label,
      nameStart,
      nameLength,
      flags,
      method,
      crc: readU32(bytes, at + CENTRAL_CRC32),
      compressedSize,
      uncompressedSize,
      localOffset,
      versionNeeded,
      extraReported: zip64 || extraProblem !== null,
      dataStart: -1,
      end: -1,
    });
    at = next;
  }
  if (at !== directoryEnd) {
    problem(
      state,
      'archive/entry-count',
      `The end record declares ${end.entryCount} entries but ${formatBytes(directoryEnd - at)} of the central directory follow them`,
    );
    return null;
  }
  return records;
}

function checkFlagsAndMethod(state: ReadState, label: string, flags: number, method: number): void {
  if ((flags & ENCRYPTION_FLAGS) !== 0) {
    problem(state, 'archive/encrypted', `${label}: the entry is encrypted (flags 0x${hex(flags, 4)})`);
  }
  if ((flags & FLAG_DATA_DESCRIPTOR) !== 0) {
    // Sizes after the data: streaming and directory readers may see different sizes; the data's end is unproven.
    problem(state, 'archive/data-descriptor', `${label}: the entry uses a data descriptor (flag bit 3)`);
  }
  const unknown = flags & ~(ALLOWED_FLAGS | ENCRYPTION_FLAGS | FLAG_DATA_DESCRIPTOR);
  if (unknown !== 0) {
    problem(state, 'archive/unsupported-flags', `${label}: the flags 0x${hex(flags, 4)} set bits this reader does not accept (0x${hex(unknown, 4)})`);
  }
  if (method !== METHOD_STORED && method !== METHOD_DEFLATE) {
    problem(state, 'archive/unsupported-method', `${label}: compression method ${method} is not allowed; use 0 (stored) or 8 (deflate)`);
  }
}

// 4.4.15: zero, a Unix regular-file mode without setuid/setgid/sticky, or MS-DOS archive/read-only; anything else
// (a symbolic link, a device, a directory, hidden files) is a claim an extractor could act on.
function checkAttributes(state: ReadState, label: string, key: string, madeBy: number, attributes: number): void {
  const host = madeBy >>> 8;
  const mode = attributes >>> 16;
  const type = mode & UNIX_TYPE_MASK;
  const dosDirectory = (host === HOST_MSDOS || host === HOST_UNIX) && (attributes & DOS_DIRECTORY) !== 0;
  if (key.endsWith('/') || dosDirectory || (host === HOST_UNIX && type === UNIX_DIRECTORY)) {
    // Directories are implied by file paths (D-15 writes none); an empty one means nothing.
    problem(state, 'archive/directory-entry', `${label}: the entry is a directory`);
    return;
  }
  if (attributes === 0) return;
  // D-16a: the low 16 bits are MS-DOS attributes (Info-ZIP writes them beside a Unix mode): read-only and archive only.
  if ((attributes & 0xffff & ~DOS_ALLOWED) !== 0) {
    problem(state, 'archive/bad-attributes', `${label}: the MS-DOS attributes 0x${hex(attributes & 0xffff, 4)} set more than the read-only and archive bits`);
    return;
  }
  if (host === HOST_UNIX) {
    if ((type !== UNIX_REGULAR_FILE && type !== 0) || (mode & UNIX_SETUID_SETGID_STICKY) !== 0) {
      const what = type === UNIX_SYMLINK ? 'a symbolic link' : type !== UNIX_REGULAR_FILE && type !== 0 ? 'not a regular file' : 'a regular file with setuid, setgid or sticky bits';
      problem(state, 'archive/bad-attributes', `${label}: the Unix attributes 0x${hex(attributes, 8)} (mode ${mode.toString(8)}) describe ${what}`);
    }
    return;
  }
  if (host === HOST_MSDOS) {
    if (mode !== 0) {
      problem(state, 'archive/bad-attributes', `${label}: the MS-DOS attributes 0x${hex(attributes, 8)} set bits above the attribute byte`);
    }
    return;
  }
  problem(state, 'archive/bad-attributes', `${label}: the attributes 0x${hex(attributes, 8)} come from host system ${host}; only MS-DOS (0) and Unix (3) attributes, or none, are accepted`);
}

// 4.3.7: a reader walking local headers (streaming unzip, antivirus) must see what a directory reader sees. False when a
// header is unreadable: its extent is unknown and checkLayout would only repeat the problem.
function readLocalHeaders(state: ReadState, records: CentralRecord[], directoryOffset: number): boolean {
  const { bytes } = state;
  let readable = true;
  for (const record of records) {
    const at = record.localOffset;
    if (at + LOCAL_HEADER_LENGTH > directoryOffset) {
      problem(state, 'archive/gap-or-overlap', `${record.label}: the local header at offset ${at} overlaps the central directory at offset ${directoryOffset}`);
      readable = false;
      continue;
    }
    if (readU32(bytes, at) !== LOCAL_HEADER_SIGNATURE) {
      problem(state, 'archive/local-header-corrupt', `${record.label}: there is no local file header at offset ${at}`);
      readable = false;
      continue;
    }
    const nameLength = readU16(bytes, at + LOCAL_NAME_LENGTH);
    const extraLength = readU16(bytes, at + LOCAL_EXTRA_LENGTH);
    const dataStart = at + LOCAL_HEADER_LENGTH + nameLength + extraLength;
    if (dataStart > directoryOffset) {
      problem(state, 'archive/gap-or-overlap', `${record.label}: the local header at offset ${at} runs into the central directory`);
      readable = false;
      continue;
    }
    const differences: string[] = [];
    if (nameLength !== record.nameLength || !sameBytes(bytes, at + LOCAL_HEADER_LENGTH, record.nameStart, nameLength)) differences.push('name');
    if (readU16(bytes, at + LOCAL_FLAGS) !== record.flags) differences.push('flags');
    if (readU16(bytes, at + LOCAL_METHOD) !== record.method) differences.push('method');
    if (readU32(bytes, at + LOCAL_CRC32) !== record.crc) differences.push('CRC-32');
    if (readU32(bytes, at + LOCAL_COMPRESSED_SIZE) !== record.compressedSize) differences.push('compressed size');
    if (readU32(bytes, at + LOCAL_UNCOMPRESSED_SIZE) !== record.uncompressedSize) differences.push('uncompressed size');
    if (differences.length > 0) {
      problem(state, 'archive/header-mismatch', `${record.label}: the local header at offset ${at} disagrees with the central directory on ${differences.join(', ')}`);
    }
    const versionNeeded = readU16(bytes, at + LOCAL_VERSION_NEEDED);
    if (versionNeeded > VERSION_DEFLATE && record.versionNeeded <= VERSION_DEFLATE) {
      problem(state, 'archive/version-needed', `${record.label}: the local header needs version ${versionNeeded / 10} to extract; at most 2.0 is accepted`);
    }
    if (!record.extraReported) {
      if (hasZip64Extra(bytes, at + LOCAL_HEADER_LENGTH + nameLength, extraLength)) {
        problem(state, 'archive/zip64', `${record.label}: the local header has a ZIP64 extra field`);
      } else {
        const extraProblem = extraFieldProblem(bytes, at + LOCAL_HEADER_LENGTH + nameLength, extraLength, 'local');
        if (extraProblem !== null) problem(state, 'archive/extra-field', `${record.label}: the local header's extra fields are refused: ${extraProblem}`);
      }
    }
    record.dataStart = dataStart;
    record.end = dataStart + record.compressedSize;
  }
  return readable;
}

// Records in offset order tile the bytes before the directory exactly: a gap can hide a record only some readers see;
// an overlap counts one compressed block many times (zip bombs) or gives one record two names.
function checkLayout(state: ReadState, records: readonly CentralRecord[], directoryOffset: number): void {
  const order = records.slice().sort((a, b) => a.localOffset - b.localOffset);
  let expected = 0;
  let previous: CentralRecord | null = null;
  for (const record of order) {
    if (record.localOffset > expected) {
      if (previous === null) {
        problem(state, 'archive/prefix-bytes', `The archive has ${formatBytes(record.localOffset)} before its first local header (${record.label})`);
      } else {
        problem(state, 'archive/gap-or-overlap', `There is a gap of ${formatBytes(record.localOffset - expected)} between ${previous.label} and ${record.label}`);
      }
    } else if (record.localOffset < expected && previous !== null) {
      problem(state, 'archive/gap-or-overlap', `${record.label} at offset ${record.localOffset} overlaps ${previous.label}, which ends at offset ${expected}`);
    }
    // After an overlap the later end still bounds what has been accounted for.
    expected = Math.max(expected, record.end);
    previous = record;
  }
  if (previous === null) {
    if (directoryOffset > 0) problem(state, 'archive/prefix-bytes', `The empty archive has ${formatBytes(directoryOffset)} before its central directory`);
    return;
  }
  if (expected < directoryOffset) {
    problem(state, 'archive/gap-or-overlap', `There is a gap of ${formatBytes(directoryOffset - expected)} between ${previous.label} and the central directory`);
  } else if (expected > directoryOffset) {
    problem(state, 'archive/gap-or-overlap', `${previous.label}: its data runs ${formatBytes(expected - directoryOffset)} into the central directory`);
  }
}

// Whether inflating is allowed: no size or count limit (the listing rules report those) nor ratio broken. Ratios compare
// as integers (u > 100 * c): c = 0 < u is unbounded, 0/0 is 0; the archive's is the sizes' sum over its own length.
function checkPolicy(state: ReadState, records: readonly CentralRecord[]): boolean {
  let total = 0;
  // The count too: 65,534 entries within every other limit would each cost an inflater call.
  let withinSizes = records.length <= BUNDLE_MAX_FILES;
  for (const record of records) {
    total += record.uncompressedSize;
    if (record.uncompressedSize > BUNDLE_MAX_FILE_BYTES) withinSizes = false;
  }
  if (total > BUNDLE_MAX_EXPANDED_BYTES) withinSizes = false;

  let withinRatios = true;
  for (const record of records) {
    if (record.uncompressedSize > record.compressedSize * BUNDLE_MAX_COMPRESSION_RATIO) {
      withinRatios = false;
      const ratio = record.compressedSize === 0 ? 'an unbounded ratio' : `a ratio of ${formatRatio(record.uncompressedSize, record.compressedSize)}`;
      problem(
        state,
        'archive/compression-ratio',
        `${record.label}: ${formatBytes(record.compressedSize)} compressed, ${formatBytes(record.uncompressedSize)} uncompressed, ${ratio}; at most ${BUNDLE_MAX_COMPRESSION_RATIO} is allowed`,
      );
    }
  }
  const size = state.bytes.length;
  if (total > size * BUNDLE_MAX_COMPRESSION_RATIO) {
    withinRatios = false;
    problem(
      state,
      'archive/compression-ratio',
      `The archive is ${formatBytes(size)} and its entries add up to ${formatBytes(total)}, a ratio of ${formatRatio(total, size)}; at most ${BUNDLE_MAX_COMPRESSION_RATIO} is allowed`,
    );
  }
  return withinSizes && withinRatios;
}

function extract(state: ReadState, record: CentralRecord, inflate: InflateRaw): Uint8Array | null {
  const compressed = state.bytes.subarray(record.dataStart, record.end);
  let data: Uint8Array;
  let reportedCrc: number | undefined;
  if (record.method === METHOD_STORED) {
    data = compressed;
    try {
      reportedCrc = state.storedCrc(data);
    } catch {
      // An injected function that throws is no answer: crc32.ts decides below.
    }
  } else {
    // Before any inflater runs: a stream over the declared size, or no DEFLATE at all, is refused from its own bits.
    const bound = state.walk ? deflateBound(compressed, record.uncompressedSize) : 'within';
    if (bound !== 'within') {
      reportInflateFailure(state, record, bound === 'over' ? 'too-long' : 'corrupt');
      return null;
    }
    let result: InflateResult;
    try {
      result = inflate(compressed, record.uncompressedSize);
    } catch {
      // The injected inflater should report, not throw; bad input still never throws here.
      result = { ok: false, reason: 'corrupt' };
    }
    if (!result.ok) {
      reportInflateFailure(state, record, result.reason);
      return null;
    }
    data = result.data;
    reportedCrc = result.crc32;
  }
  if (data.length !== record.uncompressedSize) {
    problem(state, 'archive/size-mismatch', `${record.label}: the data is ${formatBytes(data.length)} but ${formatBytes(record.uncompressedSize)} are declared`);
    return null;
  }
  // A CRC from the inflater is only taken as a number in range; anything else is recomputed.
  const actual = typeof reportedCrc === 'number' && reportedCrc >>> 0 === reportedCrc ? reportedCrc : crc32(data);
  if (actual !== record.crc) {
    problem(state, 'archive/crc-mismatch', `${record.label}: the CRC-32 of the content is ${hex(actual, 8)} but ${hex(record.crc, 8)} is declared`);
    return null;
  }
  return data;
}

function reportInflateFailure(state: ReadState, record: CentralRecord, reason: 'corrupt' | 'too-long' | 'too-short' | 'trailing-data'): void {
  const declared = formatBytes(record.uncompressedSize);
  switch (reason) {
    case 'too-long':
      problem(state, 'archive/size-mismatch', `${record.label}: the data inflates to more than the declared ${declared} (inflating stopped there)`);
      return;
    case 'too-short':
      problem(state, 'archive/size-mismatch', `${record.label}: the data inflates to fewer than the declared ${declared}`);
      return;
    case 'trailing-data':
      problem(state, 'archive/trailing-deflate-data', `${record.label}: bytes follow the end of the DEFLATE stream inside the entry's compressed data`);
      return;
    default:
      problem(state, 'archive/corrupt-deflate', `${record.label}: the compressed data is not a valid DEFLATE stream`);
  }
}

/** Little-endian reads; every caller has checked the bounds first. */
function readU16(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8);
}

function readU32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

function sameBytes(bytes: Uint8Array, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (bytes[a + i] !== bytes[b + i]) return false;
  return true;
}

function isPrintableAscii(bytes: Uint8Array, start: number, length: number): boolean {
  for (let i = start; i < start + length; i++) {
    const b = bytes[i]!;
    if (b < 0x20 || b > 0x7e) return false;
  }
  return true;
}

/** D-16a: the MS-DOS attribute bits an entry may carry, read-only (0x01) and archive (0x20). */
const DOS_ALLOWED = 0x01 | DOS_ARCHIVE;
/** D-16a: the extra fields standard tools write that cannot change what a reader sees. */
const EXTRA_TIMESTAMP = 0x5455;
const EXTRA_UNIX_OWNER = 0x7875;
const EXTRA_NTFS_TIMES = 0x000a;
/** 0x000a's one attribute tag (modification, access and creation times, 8 bytes each). */
const NTFS_TIMES_TAG = 1;
const NTFS_TIMES_SIZE = 24;

// D-16a: the fields tile the extra area exactly, each an allowed one, well formed, at most once. What is wrong, or null.
function extraFieldProblem(bytes: Uint8Array, start: number, length: number, header: 'central' | 'local'): string | null {
  const end = start + length;
  const seen = new Set<number>();
  let at = start;
  while (at < end) {
    if (at + 4 > end) return `${end - at} stray bytes after the last field`;
    const id = readU16(bytes, at);
    const size = readU16(bytes, at + 2);
    const data = at + 4;
    if (data + size > end) return `field 0x${hex(id, 4)} runs past the extra area`;
    if (id !== EXTRA_TIMESTAMP && id !== EXTRA_UNIX_OWNER && id !== EXTRA_NTFS_TIMES) return `field 0x${hex(id, 4)} is not one of 0x5455, 0x7875, 0x000a`;
    if (seen.has(id)) return `field 0x${hex(id, 4)} occurs twice`;
    seen.add(id);
    const malformed =
      id === EXTRA_TIMESTAMP ? !timestampWellFormed(bytes, data, size, header) : id === EXTRA_UNIX_OWNER ? !unixOwnerWellFormed(bytes, data, size) : !ntfsTimesWellFormed(bytes, data, size);
    if (malformed) return `field 0x${hex(id, 4)} is malformed`;
    at = data + size;
  }
  return null;
}

/** 0x5455: a flags byte (bits 0-2: modification, access, creation time present) and a 4-byte time per bit; a central header carries at most the first. */
function timestampWellFormed(bytes: Uint8Array, data: number, size: number, header: 'central' | 'local'): boolean {
  if (size < 1 || (size - 1) % 4 !== 0) return false;
  const flags = bytes[data]!;
  if ((flags & ~7) !== 0) return false;
  const present = (flags & 1) + ((flags >> 1) & 1) + ((flags >> 2) & 1);
  const times = (size - 1) / 4;
  return header === 'local' ? times === present : times <= Math.min(present, 1);
}

/** 0x7875: empty (Info-ZIP's central header), or version 1, then a sized UID and a sized GID (each 0-8 bytes) and nothing more. */
function unixOwnerWellFormed(bytes: Uint8Array, data: number, size: number): boolean {
  if (size === 0) return true;
  if (size < 3 || bytes[data] !== 1) return false;
  const uidSize = bytes[data + 1]!;
  if (uidSize > 8 || 2 + uidSize >= size) return false;
  const gidSize = bytes[data + 2 + uidSize]!;
  return gidSize <= 8 && 3 + uidSize + gidSize === size;
}

/** 0x000a: 4 reserved bytes, then exactly one attribute, tag 1 with its 24 bytes of times. */
function ntfsTimesWellFormed(bytes: Uint8Array, data: number, size: number): boolean {
  return size === 4 + 4 + NTFS_TIMES_SIZE && readU16(bytes, data + 4) === NTFS_TIMES_TAG && readU16(bytes, data + 6) === NTFS_TIMES_SIZE;
}

/** 4.5.1: extra data is a list of (id, size, data) blocks; a truncated block ends the walk. */
function hasZip64Extra(bytes: Uint8Array, start: number, length: number): boolean {
  const end = start + length;
  for (let at = start; at + 4 <= end; at += 4 + readU16(bytes, at + 2)) {
    if (readU16(bytes, at) === ZIP64_EXTRA_ID) return true;
  }
  return false;
}

/** One UTF-16 unit per byte (ISO-8859-1): for ASCII names this is the name itself. */
function bytesToKey(bytes: Uint8Array, start: number, length: number): string {
  let out = '';
  // Chunks keep the argument list of fromCharCode short (names run to 65,535 bytes).
  for (let at = start; at < start + length; at += 4096) {
    out += String.fromCharCode(...bytes.subarray(at, Math.min(at + 4096, start + length)));
  }
  return out;
}

/** A name for messages: quoted, non-printable bytes as \xNN, long names shortened. */
function displayName(key: string): string {
  const shown = key.length > NAME_DISPLAY_MAX ? key.slice(0, NAME_DISPLAY_MAX) : key;
  let out = '"';
  let plain = 0;
  for (let i = 0; i < shown.length; i++) {
    const c = shown.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += shown.slice(plain, i) + `\\x${hex(c, 2)}`;
    plain = i + 1;
  }
  out += shown.slice(plain) + (shown.length < key.length ? '..."' : '"');
  return out;
}

function hex(n: number, digits: number): string {
  return n.toString(16).padStart(digits, '0');
}

function formatBytes(n: number): string {
  return `${groupDigits(n)} bytes`;
}

function formatRatio(uncompressed: number, compressed: number): string {
  return (Math.floor((uncompressed / compressed) * 10) / 10).toString();
}
