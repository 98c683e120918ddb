// Long explanations of the archive rules (src/validator/catalogue/archive-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import { BUNDLE_MAX_COMPRESSED_BYTES, BUNDLE_MAX_COMPRESSION_RATIO } from '../validator/internal.js';
import { repackaged, sizeText, type Explanation } from './explanation-kit.js';

export function archiveExplanations(): Record<string, Explanation> {
  return {
    'archive/compressed-too-large': {
      text: `bundle.zip is at most ${sizeText(BUNDLE_MAX_COMPRESSED_BYTES)} (contract "Limits"). Already-compressed assets (images, fonts) barely shrink in a ZIP, so reduce them at the source.`,
      example: { file: 'layout', before: 'runtime/images/   (PNG screenshots, 7 MiB)', after: 'runtime/images/   (WebP, 900 KiB)' },
    },
    'archive/not-zip': {
      text: 'The file has no valid end-of-central-directory record: it is not a ZIP archive, or it was truncated. Usual causes are a text-mode transfer, a download that saved an error page, or a Git LFS pointer in place of the file (D-16).',
      example: {
        file: 'shell',
        before: '$ head -c 4 release/bundle.zip | od -c\n0000000   <   !   d   o   (an HTML page)',
        after: '$ head -c 4 release/bundle.zip | od -c\n0000000   P   K 003 004   (a ZIP archive)',
      },
    },
    'archive/eocd-comment': repackaged('The end record carries an archive comment. D-15 writes none and D-16 refuses one: it is a place for bytes that no reader checks.', 'zip -z release/bundle.zip   (adds an archive comment)'),
    'archive/trailing-data': repackaged('Bytes follow the end-of-central-directory record. Every byte must belong to a record (D-16); appended data is how polyglot files and smuggled payloads ride along.', 'cat release/bundle.zip notes.txt > upload.zip'),
    'archive/prefix-bytes': repackaged('Bytes precede the first local header, as in a self-extracting archive or a file glued in front (D-16). Readers that scan from the front and from the back would see different archives.', 'cat unzipsfx release/bundle.zip > bundle.zip'),
    'archive/gap-or-overlap': repackaged('The records are not back to back: there is a gap between them, or two entries share bytes. Gaps hide data, and overlapping entries are how small archives expand into huge ones (D-16).', 'a ZIP edited in place by a tool that rewrote one entry'),
    'archive/zip64': repackaged('The archive uses ZIP64 records or fields (D-15; D-16). A bundle within the limits never needs them, and accepting them would add a second way to read every size.', 'zip -fz -r bundle.zip .   (forces ZIP64)'),
    'archive/multi-disk': repackaged('The archive is split or spanned across several files or disks (D-16). A bundle is one file.', 'zip -s 1m -r bundle.zip .   (split archive)'),
    'archive/central-directory-corrupt': repackaged('A central directory header is malformed or runs past the end of the file (D-16). The archive is damaged, for example by a truncated upload.', 'an upload cut off before the end of the file'),
    'archive/entry-count': repackaged('The entry count in the end record differs from the headers actually in the central directory (D-16): two readers could list different files.', 'a central directory patched by hand or by a repair tool'),
    'archive/local-header-corrupt': repackaged('An entry has no valid local file header where the central directory says it starts (D-16).', 'a ZIP whose entries were moved without updating the central directory'),
    'archive/header-mismatch': repackaged('The local header and the central directory header of an entry disagree on name, method, flags, sizes or CRC (D-16). Readers that trust one or the other would extract different files: a known way to show a reviewer one file and ship another.', 'a ZIP modified by a tool that updates only one of the two headers'),
    'archive/name-not-ascii': {
      text: 'An entry name has bytes outside printable ASCII (D-2; D-16). Non-ASCII names are encoded differently by ZIP tools (code page 437, UTF-8 with or without the flag), so one name could mean two paths.',
      example: { file: 'layout', before: 'runtime/images/café.png', after: 'runtime/images/cafe.png   (then package again)' },
    },
    'archive/directory-entry': repackaged('The archive has an entry for a folder (a name ending in "/"). Folders are implied by file paths; a bundle holds file entries only (D-15; D-16).', 'cd runtime && zip -r ../bundle.zip .   (adds "images/" entries)'),
    'archive/encrypted': repackaged('An entry or the central directory is encrypted (D-15; D-16). The store must read every byte to review it, so bundles are never encrypted.', 'zip -e -r bundle.zip .   (asks for a password)'),
    'archive/data-descriptor': repackaged('An entry uses a data descriptor: its sizes and CRC follow the data instead of being declared in the header (D-15; D-16). Streaming writers do this; a reader cannot check sizes before inflating.', 'cd runtime && zip -r - . > ../bundle.zip   (streamed to a pipe)'),
    'archive/unsupported-flags': repackaged('An entry sets general-purpose flag bits other than the UTF-8 name flag and the deflate level hint (D-15; D-16): patched data, strong encryption or masked headers, none of which a bundle uses.', 'an archive written by a tool with encryption or patch data'),
    'archive/unsupported-method': repackaged('An entry uses a compression method other than stored (0) or deflate (8) (D-15; D-16): bzip2, LZMA, zstd and others are not read by every ZIP reader.', 'zip -Z bzip2 -r bundle.zip .'),
    'archive/version-needed': repackaged('An entry declares that it needs a ZIP version above 2.0 to extract (D-16). Stored and deflated entries need at most 2.0; a higher value means features a bundle does not use.', 'an archive written with ZIP64 or newer compression enabled'),
    'archive/extra-field': repackaged('An entry has an extra field that could change what a reader sees (a Unicode path or comment, ZIP64 data, an unknown id), a malformed one, or the same field twice (D-16; D-16a). Only the extended timestamp (0x5455), Unix owner (0x7875) and NTFS times (0x000a) fields are accepted, well formed and once each per header: they are what zip -r and 7-Zip write, and no extractor reads a different file because of them.', 'an archive whose entries carry Info-ZIP Unicode path fields (0x7075) or a second timestamp field'),
    'archive/file-comment': repackaged('An entry has a file comment (D-15; D-16): bytes that no reader checks.', 'zip -c -r bundle.zip .   (asks for entry comments)'),
    'archive/bad-attributes': repackaged('An entry\'s external attributes do not describe a plain regular file: a symbolic link, a device, setuid/setgid/sticky bits, MS-DOS bits other than read-only and archive, or host-specific attributes (D-16; D-16a). A Unix regular-file mode, or permission bits alone, is accepted. Extracting such an entry could create a link that points outside the target folder.', 'zip -y -r bundle.zip .   (-y stores symbolic links as links)'),
    'archive/duplicate-name': repackaged('Two entries have the same name (D-16). ZIP readers disagree on which copy wins, so a reviewer and a server could see different files.', 'zip bundle.zip runtime/main.js   (appending to an existing archive)'),
    'archive/size-mismatch': repackaged('An entry does not inflate to its declared size, or a stored entry\'s two sizes differ (D-16). Sizes are checked while inflating, and inflation stops at the declared size.', 'an archive damaged in transfer or crafted by hand'),
    'archive/compression-ratio': {
      text: `An entry, or the whole archive, expands more than ${BUNDLE_MAX_COMPRESSION_RATIO} times its compressed size (contract "Limits"; D-16). Real assets never compress that far; highly repetitive files (padding, generated data) do, and so do decompression bombs. The ratio is compared in whole numbers: ${BUNDLE_MAX_COMPRESSION_RATIO} passes, ${BUNDLE_MAX_COMPRESSION_RATIO + 1} does not. package writes such a file as a DEFLATE stream whose last bytes are stored blocks, keeping its ratio at or under the limit (D-41), so this finding means another tool built the archive.`,
      example: { file: 'layout', before: 'runtime/data/padding.js   (4 MiB of spaces)', after: '(removed, or generated at run time)' },
    },
    'archive/corrupt-deflate': repackaged('An entry is not a valid DEFLATE stream (D-16): the archive is damaged.', 'a bundle.zip transferred in text mode (line endings converted)'),
    'archive/trailing-deflate-data': repackaged('Bytes follow the end of the DEFLATE stream inside an entry (D-16). Every compressed byte must belong to the stream; extra bytes are a hiding place.', 'an archive crafted or damaged after compression'),
    'archive/crc-mismatch': repackaged('The CRC-32 of an entry\'s content differs from the one in its headers (D-16): the content changed after packaging or was damaged in transfer.', 'bundle.zip edited in place after packaging'),
  };
}
