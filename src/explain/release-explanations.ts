// Long explanations of the release rules (src/validator/catalogue/release-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import { SIGNED_PAYLOAD_HEADER, SUBMISSION_FILES, SUBMISSION_FORMAT } from '../validator/internal.js';
import { PACKAGE_COMMAND, listOf, type Explanation } from './explanation-kit.js';

export function releaseExplanations(): Record<string, Explanation> {
  return {
    'release/missing-file': {
      text: `A submission is five files uploaded together (contract "Submission set"): ${listOf(SUBMISSION_FILES)}. verify and platform-review check the folder exactly as the store will, so a missing file fails here first.`,
      example: { file: 'shell', before: 'release/\n  bundle.zip\n  manifest.json\n  signature.txt', after: PACKAGE_COMMAND + '   (writes all five)' },
    },
    'release/unexpected-file': {
      text: 'A release folder holds exactly the five submission files. Anything else (notes, .DS_Store, a copied key) would either be left behind on upload or, worse, uploaded: a stray private key in a release folder is how keys leak. The contract names the five files without forbidding a sixth: refusing one is this tool\'s own decision (D-38), kept as an error to protect the publisher.',
      example: { file: 'layout', before: 'release/\n  (the five files)\n  notes.txt', after: 'release/\n  (the five files)' },
    },
    'release/not-regular-file': {
      text: 'Each submission file is read only when it is a regular file in the release folder itself (D-30): it is opened without following links and without waiting, and checked on the open descriptor before a byte is read. A link would make review check bytes from elsewhere, and a named pipe or device (a FIFO named bundle.zip, a link to /dev/zero) could make verify or platform-review wait forever. The file is reported and not read.',
      example: { file: 'layout', before: 'release/bundle.zip   (a named pipe, or -> /dev/zero)', after: 'release/bundle.zip   (the archive platform-ext package wrote)' },
    },
    'release/file-too-large': {
      text: 'Each submission file has a largest size any valid one can have (the manifest and bundle limits, the exact lengths of the key and signature texts, the record\'s bounded fields). A larger file was replaced or corrupted, and it is not read further.',
      example: { file: 'layout', before: 'release/publisher-public-key.txt   (a PEM file pasted in, 3 lines)', after: 'release/publisher-public-key.txt   (one line of base64, as package wrote it)' },
    },
    'release/public-key-format': {
      text: 'publisher-public-key.txt holds the 32-byte Ed25519 public key as 44 characters of standard base64 with padding, then at most one newline (D-11). The reader is strict: a carriage return, spaces, a second newline or another spelling of the same bytes is refused, because a lenient decoder (Node\'s) accepts many spellings of one key.',
      example: { file: 'shell', before: 'publisher-public-key.txt: "ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=\\r\\n"', after: 'publisher-public-key.txt: "ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=\\n"' },
    },
    'release/signature-format': {
      text: 'signature.txt holds the 64-byte Ed25519 signature as 88 characters of standard base64 with padding, then at most one newline (D-11). Upload and copy tools that convert line endings to CRLF or re-wrap text break it.',
      example: { file: 'shell', before: 'signature.txt: "Vv6pfDSS…IpAA==\\r\\n"   (converted to CRLF)', after: 'signature.txt: "Vv6pfDSS…IpAA==\\n"   (as package wrote it)' },
    },
    'release/submission-invalid': {
      text: 'submission.json must be one strict JSON object, read with the same rules as the manifest (D-5: UTF-8 without BOM, no duplicate keys). platform-ext package writes it; editing it by hand is the usual cause.',
      example: { file: 'shell', before: 'submission.json edited by hand (a trailing comma)', after: PACKAGE_COMMAND },
    },
    'release/submission-field': {
      text: `The record is a closed object of seven string fields (contract "Submission set"): format ("${SUBMISSION_FORMAT}"), namespace, version, artifact_path (extensions/<publisher-slug>/<package-slug>/<version>/bundle.zip), manifest_sha256, artifact_sha256 and publisher_public_key_id (each 64 lowercase hex characters). A missing, extra or malformed field is refused.`,
      example: { file: 'submission.json', before: '"manifest_sha256": "5D41402ABC4B2A76B9719D911017C592…",', after: '"manifest_sha256": "5d41402abc4b2a76b9719d911017c592…",' },
    },
    'release/submission-mismatch': {
      text: 'The record must describe the files beside it: namespace and version equal the manifest\'s, artifact_path is built from them, the two hashes are the SHA-256 of the exact manifest and bundle bytes, and the key id is the fingerprint of the public key (D-12). A mismatch means a file changed after packaging (Authentication 3).',
      example: { file: 'shell', before: 'manifest.json reformatted in release/ after packaging', after: PACKAGE_COMMAND + '   (then upload the five files unchanged)' },
    },
    'release/weak-public-key': {
      text: 'Ed25519 verifiers disagree on keys that are not the canonical encoding of a curve point, and a point of small order (the identity and seven others whose multiple by 8 is the identity) lets one forged signature verify for every manifest and bundle: with the identity as key, R = identity and S = 0 verify anything. Such a key is refused before the signature is checked (D-31). A key generator never produces one, so the finding means the key was crafted.',
      example: { file: 'shell', before: 'publisher-public-key.txt: "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="   (the identity point)', after: 'platform-ext keygen --private-key ~/.config/platform-ext/acme.pem --public-key acme.pub\n' + PACKAGE_COMMAND },
    },
    'release/signature-not-canonical': {
      text: 'The second half of an Ed25519 signature is a scalar S that signers always reduce below the group order L. Adding L gives another byte string that lenient verifiers accept as the same signature, so one release would have two signatures; the store accepts only the canonical one (D-31).',
      example: { file: 'shell', before: 'signature.txt: a signature whose last 32 bytes, read little-endian, are at least L', after: PACKAGE_COMMAND + '   (then upload the files unchanged)' },
    },
    'release/signature-invalid': {
      text: `The signature is Ed25519 over five lines, each ended by a newline: ${SIGNED_PAYLOAD_HEADER}, namespace=…, version=…, manifest-sha256=… and artifact-sha256=… (D-14). It fails when the manifest or bundle changed after signing (line-ending conversion by git or an upload tool included), when another key signed, or when the signature covers another payload; verify says which.`,
      example: { file: '.gitattributes', before: '(none: git converts release/manifest.json to CRLF on checkout)', after: 'release/** -text' },
    },
    'release/signature-extra-line-break': {
      text: `The contract counts six lines in the signed text, each closed by a line break, and says the sixth is empty. D-14 reads that as five lines of text, each ended by a newline, so the payload ends with the newline after artifact-sha256=… and nothing more (the empty sixth line is what follows the last newline). Another reading adds an empty line with a newline of its own, so the payload ends in two newlines. When a signature fails, verify and platform-review try that reading; if it verifies, this finding says so in place of release/signature-invalid. It is still an error: the store verifies the D-14 payload, so a signature over the other one never passes there. D-14's test vector (section 7 of contract-snapshot/contract.md) lets a signing tool be compared byte for byte.`,
      example: { file: 'signing tool', before: '...artifact-sha256=<hex>\\n\\n   (an empty line after the five)', after: '...artifact-sha256=<hex>\\n   (the payload ends here)' },
    },
  };
}
