// The one table of the ZIP format for the reader (D-16) and package's writer (as ZIP_FORMAT), from APPNOTE.TXT 6.3.10
// 4.3 and 4.4: what a D-15 archive uses or a D-16 reader must recognise to refuse. Little-endian (4.4.1.1).

/** Signatures, read as little-endian 32-bit numbers ("PK" then two bytes). */
export const LOCAL_HEADER_SIGNATURE = 0x04034b50; // 4.3.7 local file header
export const CENTRAL_HEADER_SIGNATURE = 0x02014b50; // 4.3.12 central directory file header
export const END_OF_CENTRAL_DIRECTORY_SIGNATURE = 0x06054b50; // 4.3.16 end of central directory record
export const ZIP64_END_LOCATOR_SIGNATURE = 0x07064b50; // 4.3.15 zip64 end of central directory locator

/** Fixed lengths, before the variable name, extra field and comment. */
export const LOCAL_HEADER_LENGTH = 30; // 4.3.7
export const CENTRAL_HEADER_LENGTH = 46; // 4.3.12
export const END_OF_CENTRAL_DIRECTORY_LENGTH = 22; // 4.3.16
export const ZIP64_END_LOCATOR_LENGTH = 20; // 4.3.15

/** Local file header field offsets (4.3.7); the name follows the fixed part (4.4.17). */
export const LOCAL_SIGNATURE = 0;
export const LOCAL_VERSION_NEEDED = 4;
export const LOCAL_FLAGS = 6;
export const LOCAL_METHOD = 8;
export const LOCAL_TIME = 10;
export const LOCAL_DATE = 12;
export const LOCAL_CRC32 = 14;
export const LOCAL_COMPRESSED_SIZE = 18;
export const LOCAL_UNCOMPRESSED_SIZE = 22;
export const LOCAL_NAME_LENGTH = 26;
export const LOCAL_EXTRA_LENGTH = 28;

/** Central directory file header field offsets (4.3.12); the name follows the fixed part. */
export const CENTRAL_SIGNATURE = 0;
export const CENTRAL_VERSION_MADE_BY = 4;
export const CENTRAL_VERSION_NEEDED = 6;
export const CENTRAL_FLAGS = 8;
export const CENTRAL_METHOD = 10;
export const CENTRAL_TIME = 12;
export const CENTRAL_DATE = 14;
export const CENTRAL_CRC32 = 16;
export const CENTRAL_COMPRESSED_SIZE = 20;
export const CENTRAL_UNCOMPRESSED_SIZE = 24;
export const CENTRAL_NAME_LENGTH = 28;
export const CENTRAL_EXTRA_LENGTH = 30;
export const CENTRAL_COMMENT_LENGTH = 32;
export const CENTRAL_DISK_START = 34;
export const CENTRAL_INTERNAL_ATTRIBUTES = 36;
export const CENTRAL_EXTERNAL_ATTRIBUTES = 38;
export const CENTRAL_LOCAL_HEADER_OFFSET = 42;

/** End of central directory record field offsets (4.3.16). */
export const END_SIGNATURE = 0;
export const END_DISK = 4;
export const END_CENTRAL_DIRECTORY_DISK = 6;
export const END_ENTRIES_ON_DISK = 8;
export const END_ENTRIES_TOTAL = 10;
export const END_CENTRAL_DIRECTORY_SIZE = 12;
export const END_CENTRAL_DIRECTORY_OFFSET = 16;
export const END_COMMENT_LENGTH = 20;

export const MAX_COMMENT_LENGTH = 0xffff; // 4.4.26 (.ZIP file comment length, 2 bytes)

/** 4.4.5 compression methods the contract allows. */
export const METHOD_STORED = 0;
export const METHOD_DEFLATE = 8;

/** 4.4.4 general purpose bit flags. */
export const FLAG_ENCRYPTED = 0x0001; // bit 0: traditional PKWARE encryption
export const FLAG_COMPRESSION_OPTIONS = 0x0006; // bits 1-2: deflate speed/level hint, read by nobody
export const FLAG_DATA_DESCRIPTOR = 0x0008; // bit 3: sizes and CRC follow the data
export const FLAG_STRONG_ENCRYPTION = 0x0040; // bit 6
export const FLAG_UTF8 = 0x0800; // bit 11: language encoding flag (EFS)
export const FLAG_MASKED_HEADERS = 0x2000; // bit 13: central directory encryption

/** 4.4.3 version needed to extract: 1.0 for stored data, 2.0 covers deflate; ZIP64 needs 4.5, AES 5.1. */
export const VERSION_STORED = 10;
export const VERSION_DEFLATE = 20;

/** 4.4.2 upper byte of "version made by": the host system that wrote the attributes. */
export const HOST_MSDOS = 0;
export const HOST_UNIX = 3;

export const ZIP64_EXTRA_ID = 0x0001; // 4.5.2 ZIP64 extended information extra field

/** ZIP64 sentinels: a field holding all ones defers to the ZIP64 records (4.4.1.4). */
export const SENTINEL_16 = 0xffff;
export const SENTINEL_32 = 0xffffffff;

/** A D-15 archive stays strictly below the sentinels, which send a reader to ZIP64 records (4.4.8, 4.4.22, 4.4.24). */
export const MAX_ENTRIES = SENTINEL_16 - 1;
export const MAX_32 = SENTINEL_32 - 1;
export const MAX_NAME_LENGTH = 0xffff; // 4.4.10: a 2-byte name length

/** MS-DOS attribute bits (low byte of the external attributes). */
export const DOS_DIRECTORY = 0x10;
export const DOS_ARCHIVE = 0x20;

/** Unix st_mode bits, stored in the upper 16 bits of the external attributes by Unix hosts. */
export const UNIX_TYPE_MASK = 0o170000;
export const UNIX_REGULAR_FILE = 0o100000;
export const UNIX_DIRECTORY = 0o040000;
export const UNIX_SYMLINK = 0o120000;
export const UNIX_SETUID_SETGID_STICKY = 0o007000;

/** 4.4.2: host UNIX, so the external attributes hold a Unix mode; version 2.0, the newest feature used. */
export const D15_VERSION_MADE_BY = (HOST_UNIX << 8) | VERSION_DEFLATE;
/** External attributes (4.4.15) under UNIX: st_mode in the upper 16 bits, a regular file with mode rw-r--r--. */
export const D15_EXTERNAL_ATTRIBUTES = ((UNIX_REGULAR_FILE | 0o644) << 16) >>> 0;
/** General purpose flags (4.4.4): none (no encryption, no data descriptor; names are ASCII, so bit 11 is not needed). */
export const D15_FLAGS = 0;
/** MS-DOS time and date (4.4.6): 00:00:00 on 1980-01-01 ((year - 1980) << 9 | month << 5 | day), the earliest. */
export const D15_DOS_TIME = 0x0000;
export const D15_DOS_DATE = 0x0021;
