// ZIP record layouts and the fixed values our archives use (D-15), from PKWARE's
// APPNOTE.TXT 6.3.x. Section numbers are in the trailing comments. All fields are
// little-endian (4.4.1.1). The writer (src/zip/zip-writer.ts) uses these; the reader may too, so
// that one set of numbers describes the format in both directions (house principle 6).

// ---------------------------------------------------------------------------------------
// Signatures and fixed record sizes
// ---------------------------------------------------------------------------------------

export const ZIP_LOCAL_FILE_HEADER_SIGNATURE = 0x04034b50; // 4.3.7 local file header signature "PK\3\4"
export const ZIP_CENTRAL_DIRECTORY_HEADER_SIGNATURE = 0x02014b50; // 4.3.12 central file header signature "PK\1\2"
export const ZIP_END_OF_CENTRAL_DIRECTORY_SIGNATURE = 0x06054b50; // 4.3.16 end of central dir signature "PK\5\6"
export const ZIP_LOCAL_FILE_HEADER_BYTES = 30; // 4.3.7 fixed part; file name and extra field follow
export const ZIP_CENTRAL_DIRECTORY_HEADER_BYTES = 46; // 4.3.12 fixed part; name, extra, comment follow
export const ZIP_END_OF_CENTRAL_DIRECTORY_BYTES = 22; // 4.3.16 fixed part; the archive comment follows

// ---------------------------------------------------------------------------------------
// Field offsets inside each record
// ---------------------------------------------------------------------------------------

/** Local file header (4.3.7). */
export const ZIP_LOCAL = {
  signature: 0, // 4 bytes
  versionNeeded: 4, // 2 bytes, 4.4.3
  flags: 6, // 2 bytes, 4.4.4
  method: 8, // 2 bytes, 4.4.5
  time: 10, // 2 bytes, 4.4.6
  date: 12, // 2 bytes, 4.4.6
  crc32: 14, // 4 bytes, 4.4.7
  compressedSize: 18, // 4 bytes, 4.4.8
  uncompressedSize: 22, // 4 bytes, 4.4.9
  nameLength: 26, // 2 bytes, 4.4.10
  extraLength: 28, // 2 bytes, 4.4.11
  name: 30, // 4.4.17
} as const;

/** Central directory file header (4.3.12). */
export const ZIP_CENTRAL = {
  signature: 0, // 4 bytes
  versionMadeBy: 4, // 2 bytes, 4.4.2
  versionNeeded: 6, // 2 bytes, 4.4.3
  flags: 8, // 2 bytes, 4.4.4
  method: 10, // 2 bytes, 4.4.5
  time: 12, // 2 bytes, 4.4.6
  date: 14, // 2 bytes, 4.4.6
  crc32: 16, // 4 bytes, 4.4.7
  compressedSize: 20, // 4 bytes, 4.4.8
  uncompressedSize: 24, // 4 bytes, 4.4.9
  nameLength: 28, // 2 bytes, 4.4.10
  extraLength: 30, // 2 bytes, 4.4.11
  commentLength: 32, // 2 bytes, 4.4.12
  diskNumberStart: 34, // 2 bytes, 4.4.13
  internalAttributes: 36, // 2 bytes, 4.4.14
  externalAttributes: 38, // 4 bytes, 4.4.15
  localHeaderOffset: 42, // 4 bytes, 4.4.16
  name: 46, // 4.4.17
} as const;

/** End of central directory record (4.3.16). */
export const ZIP_END = {
  signature: 0, // 4 bytes
  diskNumber: 4, // 2 bytes, 4.4.19
  centralDirectoryDisk: 6, // 2 bytes, 4.4.20
  entriesOnDisk: 8, // 2 bytes, 4.4.21
  entries: 10, // 2 bytes, 4.4.22
  centralDirectorySize: 12, // 4 bytes, 4.4.23
  centralDirectoryOffset: 16, // 4 bytes, 4.4.24
  commentLength: 20, // 2 bytes, 4.4.25
} as const;

// ---------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------

export const ZIP_METHOD_STORED = 0; // 4.4.5: the file is stored (no compression)
export const ZIP_METHOD_DEFLATED = 8; // 4.4.5: the file is Deflated (RFC 1951, 5.5)
export const ZIP_VERSION_NEEDED_STORED = 10; // 4.4.3.2: 1.0, default value
export const ZIP_VERSION_NEEDED_DEFLATED = 20; // 4.4.3.2: 2.0, file is compressed using Deflate
/**
 * Version made by (4.4.2): upper byte 3 = UNIX (4.4.2.2), so that the external attributes
 * hold a Unix mode; lower byte 20 = specification 2.0 (4.4.2.3), the newest feature we use.
 */
export const ZIP_VERSION_MADE_BY = 0x0314;
/** External attributes (4.4.15) under UNIX: st_mode in the upper 16 bits; 0100644 = regular file, rw-r--r--. */
export const ZIP_EXTERNAL_ATTRIBUTES_REGULAR_FILE = (0o100644 << 16) >>> 0;
/** General purpose flags (4.4.4): 0 (no encryption, no data descriptor; names are ASCII so bit 11 is not needed). */
export const ZIP_FLAGS = 0;
/** MS-DOS time (4.4.6): 00:00:00 (hours << 11 | minutes << 5 | seconds / 2). D-15. */
export const ZIP_DOS_TIME = 0x0000;
/** MS-DOS date (4.4.6): 1980-01-01 ((year - 1980) << 9 | month << 5 | day), the earliest DOS date. D-15. */
export const ZIP_DOS_DATE = 0x0021;

/**
 * The largest values a 2- and 4-byte field may hold in an archive without ZIP64. 0xFFFF and
 * 0xFFFFFFFF themselves mean "see the ZIP64 record" (4.4.1.4, 4.4.8, 4.4.22, 4.4.24), so a
 * reader may go looking for one: archives without ZIP64 stay strictly below them.
 */
export const ZIP_MAX_ENTRIES = 0xfffe;
export const ZIP_MAX_32 = 0xfffffffe;
/** Names are at most this many bytes: the name length field is 2 bytes (4.4.10). */
export const ZIP_MAX_NAME_BYTES = 0xffff;
