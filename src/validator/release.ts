// A submission set checked as one value, by `verify` and `platform-review` (contract "Submission set", "Authentication"
// 3 to 5; D-11 to D-14, D-16). Hashing, signature checks and inflation are passed in: the validator stays a leaf.
import { decodeBase64Strict } from './base64.js';
import { FindingList, sortFindings, type Finding } from './findings.js';
import { isNamespace, isSemver } from './grammar.js';
import { readJson, type JsonObjectNode } from './json.js';
import { validateProject, type ValidationResult } from './validate.js';
import { readZip, type InflateRaw, type ZipListingEntry, type ZipReadResult } from './zip/read.js';
import { findPrivateKeyMarker, type BundleEntry } from './bundle.js';
import { BUNDLE_MAX_COMPRESSED_BYTES, MANIFEST_MAX_BYTES } from './limits.js';
import { groupDigits } from './text.js';
import { publicKeyWeakness, signatureScalarCanonical } from './ed25519.js';

/** File names of a submission set, in the order the contract lists them. */
export const SUBMISSION_FILES = ['bundle.zip', 'manifest.json', 'publisher-public-key.txt', 'signature.txt', 'submission.json'] as const;
export type SubmissionFile = (typeof SUBMISSION_FILES)[number];

/** The `format` constant of submission.json. */
export const SUBMISSION_FORMAT = 'platform-extension-submission-v1';
/** First line of the signed payload (D-14). */
export const SIGNED_PAYLOAD_HEADER = 'platform-extension-release-v1';

/** D-11: 32-byte key and 64-byte signature as padded base64. */
const PUBLIC_KEY_BYTES = 32;
const SIGNATURE_BYTES = 64;
// Keys, the artifact path's fixed parts, three hashes and punctuation: well under this.
const SUBMISSION_RECORD_FIXED_MAX_BYTES = 1024;

/** Loader caps: nothing longer is valid. The record holds namespace and version twice, unescaped (both grammars are
 * JSON-safe ASCII), so it is at most twice the manifest limit plus its fixed part. */
export const SUBMISSION_FILE_MAX_BYTES: Readonly<Record<SubmissionFile, number>> = {
  'bundle.zip': BUNDLE_MAX_COMPRESSED_BYTES,
  'manifest.json': MANIFEST_MAX_BYTES,
  'publisher-public-key.txt': 1024,
  'signature.txt': 1024,
  'submission.json': 2 * MANIFEST_MAX_BYTES + SUBMISSION_RECORD_FIXED_MAX_BYTES,
};

const HEX64 = /^[0-9a-f]{64}$/;

const WEAKNESS_TEXT = {
  'non-canonical': 'is not the canonical encoding of a point (its y coordinate is not reduced, or x = 0 carries a sign bit)',
  'not-on-curve': 'does not encode a point of the Ed25519 curve',
  'small-order': 'encodes a point of small order (one of the eight points whose multiple by 8 is the identity)',
} as const;

export interface ReleaseFiles {
  /** Each submission file's bytes; null when missing. Over-long files are cut by the loader to their cap + 1. */
  readonly files: Readonly<Record<SubmissionFile, Uint8Array | null>>;
  /** Names of other entries in the release folder (each is an error). */
  readonly otherNames: readonly string[];
  /** Present but unread (null in `files`): not a regular file, too large by the size seen first (D-30), or unreadable. */
  readonly refused?: Readonly<Partial<Record<SubmissionFile, RefusedFile>>>;
}

/** Why a loader did not read a submission file that is there. */
export interface RefusedFile {
  readonly reason: 'symlink' | 'directory' | 'special' | 'too-large' | 'unreadable';
  readonly size?: number;
}

const REFUSED_TEXT: Readonly<Record<Exclude<RefusedFile['reason'], 'too-large'>, string>> = {
  symlink: 'a symbolic link (never followed)',
  directory: 'a folder',
  special: 'a FIFO, device or socket',
  unreadable: 'not readable (permissions)',
};

export interface ReleaseDeps {
  readonly inflateRaw: InflateRaw;
  readonly sha256Hex: (bytes: Uint8Array) => string;
  readonly verifyEd25519: (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;
  /** CRC-32 of stored entries, natively where the platform has it (ReadZipOptions.crc32); default crc32.ts. */
  readonly crc32?: (bytes: Uint8Array) => number;
  /** True only when `inflateRaw` never produces more than the size it is handed (ReadZipOptions.inflaterStopsAtCap). */
  readonly inflateRawStopsAtCap?: boolean;
}

/** What a caller may ask of validateRelease beyond the files. */
export interface ReleaseOptions {
  /** The publisher's active keys (D-12 fingerprints or base64 public keys): a release signed by another key gets
   * release/unknown-signing-key (contract "Authentication" 5). Absent: the signer is compared with nothing. */
  readonly knownKeys?: readonly string[];
  /** Keep the inflated bytes of the bundle's entries in `bundleEntries` (default: only path, kind and size). */
  readonly keepEntryBytes?: boolean;
}

export interface ReleaseResult extends ValidationResult {
  /** Recomputed values, for the report's summary (absent when a file was missing). */
  readonly manifestSha256?: string;
  readonly artifactSha256?: string;
  readonly publicKeyId?: string;
  readonly signatureValid: boolean;
  /** The archive's entries as its central directory lists them, when its structure was sound. */
  readonly archiveListing?: readonly ZipListingEntry[];
  /** The entries as validated, when the structure was sound; bytes only with ReleaseOptions.keepEntryBytes. */
  readonly bundleEntries?: Readonly<NonNullable<ZipReadResult['entries']>>;
}

/** D-14: the five-line payload, each line ended by `\n`. */
export function signedPayload(namespace: string, version: string, manifestSha256: string, artifactSha256: string): string {
  return `${SIGNED_PAYLOAD_HEADER}\nnamespace=${namespace}\nversion=${version}\nmanifest-sha256=${manifestSha256}\nartifact-sha256=${artifactSha256}\n`;
}

/** The storage path of a release (contract "Bundle": `extensions/{namespace}/{version}/bundle.zip`). */
export function artifactPath(namespace: string, version: string): string {
  return `extensions/${namespace}/${version}/bundle.zip`;
}

const FINGERPRINT = /^[0-9a-fA-F]{64}$/;

/** D-12: the fingerprint (lowercase hex SHA-256 of the raw key) of a fingerprint in any case or a base64 public key
 * as in publisher-public-key.txt (one final newline allowed); null for anything else. */
export function publicKeyFingerprint(key: string, sha256Hex: (bytes: Uint8Array) => string): string | null {
  if (FINGERPRINT.test(key)) return key.toLowerCase();
  const text = key.endsWith('\n') ? key.slice(0, -1) : key;
  const raw = decodeBase64Strict(text);
  return raw !== null && raw.length === PUBLIC_KEY_BYTES ? sha256Hex(raw) : null;
}

function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/** D-11: exactly the base64 text and at most one `\n` (no `\r`, no spaces): the decoded bytes or a reason. */
export function parseBase64File(bytes: Uint8Array, expectedBytes: number): { ok: true; value: Uint8Array } | { ok: false; reason: string } {
  let text = latin1(bytes);
  if (text.endsWith('\n')) text = text.slice(0, -1);
  if (/[\r\n\t ]/.test(text)) return { ok: false, reason: 'it holds whitespace other than one final newline (a CR, a space or a second line)' };
  const expectedChars = Math.ceil(expectedBytes / 3) * 4;
  if (text.length !== expectedChars) return { ok: false, reason: `it has ${text.length} characters; ${expectedChars} are expected` };
  const value = decodeBase64Strict(text);
  if (value === null || value.length !== expectedBytes) return { ok: false, reason: 'it is not canonical standard base64 with padding' };
  return { ok: true, value };
}

interface SubmissionRecord {
  readonly format?: string;
  readonly namespace?: string;
  readonly version?: string;
  readonly artifact_path?: string;
  readonly manifest_sha256?: string;
  readonly artifact_sha256?: string;
  readonly publisher_public_key_id?: string;
}

const RECORD_FIELDS: Readonly<Record<keyof SubmissionRecord, (v: string) => boolean>> = {
  format: (v) => v === SUBMISSION_FORMAT,
  namespace: isNamespace,
  version: isSemver,
  artifact_path: (v) => {
    const m = /^extensions\/([^/]+\/[^/]+)\/([^/]+)\/bundle\.zip$/.exec(v);
    return m !== null && isNamespace(m[1]!) && isSemver(m[2]!);
  },
  manifest_sha256: (v) => HEX64.test(v),
  artifact_sha256: (v) => HEX64.test(v),
  publisher_public_key_id: (v) => HEX64.test(v),
};

function readRecord(bytes: Uint8Array, findings: FindingList): SubmissionRecord | null {
  const file = 'submission.json';
  const read = readJson(bytes);
  if (!read.ok) {
    findings.add('release/submission-invalid', `submission.json cannot be read: ${read.error.message}`, { file, pointer: read.error.pointer ?? '' });
    return null;
  }
  if (read.value.kind !== 'object') {
    findings.add('release/submission-invalid', 'submission.json must be a JSON object', { file, pointer: '' });
    return null;
  }
  const record: Record<string, string> = {};
  const node: JsonObjectNode = read.value;
  for (const entry of node.entries) {
    const pointer = `/${entry.key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const check = (RECORD_FIELDS as Record<string, ((v: string) => boolean) | undefined>)[entry.key];
    if (check === undefined) {
      findings.add('release/submission-field', `Unknown field "${entry.key}" (the record is a closed object)`, { file, pointer });
      continue;
    }
    if (entry.value.kind !== 'string' || !check(entry.value.value)) {
      findings.add('release/submission-field', `"${entry.key}" is not in its required format`, { file, pointer });
      continue;
    }
    record[entry.key] = entry.value.value;
  }
  for (const key of Object.keys(RECORD_FIELDS)) {
    if (!node.entries.some((e) => e.key === key)) findings.add('release/submission-field', `Missing field "${key}"`, { file, pointer: '' });
  }
  return record;
}

/** Manifest edits that keep the JSON meaning: line endings and trailing whitespace. */
function whitespaceVariants(bytes: Uint8Array): Uint8Array[] {
  const text = latin1(bytes);
  const variants = new Set<string>();
  const lf = text.replace(/\r\n/g, '\n');
  variants.add(lf);
  variants.add(lf.replace(/\n/g, '\r\n'));
  for (const base of [lf, lf.replace(/\n/g, '\r\n')]) {
    variants.add(base.replace(/[ \t]+(\r?\n)/g, '$1'));
    variants.add(base.endsWith('\n') ? base.replace(/\r?\n$/, '') : base + (base.includes('\r\n') ? '\r\n' : '\n'));
  }
  variants.delete(text);
  return [...variants].map(asciiBytes);
}

/** Validates a submission set; throws only for a `knownKeys` entry that is neither fingerprint nor key (names its index). */
export function validateRelease(release: ReleaseFiles, deps: ReleaseDeps, options: ReleaseOptions = {}): ReleaseResult {
  const known = options.knownKeys?.map((entry, index) => {
    const fingerprint = typeof entry === 'string' ? publicKeyFingerprint(entry, deps.sha256Hex) : null;
    if (fingerprint === null) throw new TypeError(`validateRelease: knownKeys[${index}] is neither a fingerprint (64 hex digits) nor a base64 Ed25519 public key`);
    return fingerprint;
  });
  const top = new FindingList();
  const { files } = release;
  for (const name of SUBMISSION_FILES) {
    const refused = release.refused?.[name];
    if (refused !== undefined) {
      // A manifest that is not a regular file is the project rule's to report (validateProject, below).
      if (refused.reason !== 'too-large') {
        if (name !== 'manifest.json') top.add('release/not-regular-file', `${name} is ${REFUSED_TEXT[refused.reason]}, not a regular file; it was not read`, { file: name });
      } else if (name === 'bundle.zip') {
        top.add('archive/compressed-too-large', `The archive is ${groupDigits(refused.size ?? 0)} bytes; a bundle may be at most ${groupDigits(BUNDLE_MAX_COMPRESSED_BYTES)} bytes (not read)`, { file: name });
      } else {
        top.add('release/file-too-large', `${name} is ${groupDigits(refused.size ?? 0)} bytes, larger than ${SUBMISSION_FILE_MAX_BYTES[name]} bytes (not read)`, { file: name });
      }
    } else if (files[name] === null) top.add('release/missing-file', `${name} is missing`, { file: name });
    // The archive's own size rule (archive/compressed-too-large) speaks for bundle.zip.
    else if (name !== 'bundle.zip' && files[name]!.length > SUBMISSION_FILE_MAX_BYTES[name]) {
      top.add('release/file-too-large', `${name} is larger than ${SUBMISSION_FILE_MAX_BYTES[name]} bytes`, { file: name });
    }
  }
  for (const name of release.otherNames) top.add('release/unexpected-file', `"${name}" is not part of a submission set`, { file: name });
  // D-4: key material in any file of the set (the bundle's entries are scanned by the listing rules).
  for (const name of SUBMISSION_FILES) {
    const bytes = files[name];
    if (bytes === null || name === 'bundle.zip') continue;
    const marker = findPrivateKeyMarker(bytes);
    if (marker !== null) top.add('secret/private-key', `${name} contains "${marker}"`, { file: name });
  }

  // The archive and its contents: structure (D-16), then the same rules as `check`.
  const manifestBytes = files['manifest.json'];
  const bundleBytes = files['bundle.zip'];
  const manifestRefused = release.refused?.['manifest.json'];
  let contentFindings: Finding[] = [];
  let manifestInfo: ValidationResult['manifest'] = null;
  let archiveListing: readonly ZipListingEntry[] | undefined;
  let bundleEntries: ZipReadResult['entries'] | undefined;
  if (bundleBytes !== null) {
    const zipFindings = new FindingList();
    const zip = readZip(bundleBytes, deps.inflateRaw, zipFindings, 'bundle.zip', {
      ...(deps.crc32 !== undefined && { crc32: deps.crc32 }),
      inflaterStopsAtCap: deps.inflateRawStopsAtCap === true,
    });
    // A loop, not a spread into push: an archive of many entries may bring many findings.
    for (const f of zipFindings.items) top.items.push(f);
    const project = validateProject(
      { manifest: manifestBytes, files: zip.entries ?? [], ...(manifestRefused !== undefined && { manifestRefused }) },
      { bundlePrefix: 'bundle.zip/', skipBundle: zip.entries === null },
    );
    contentFindings = project.findings;
    archiveListing = zip.listing;
    bundleEntries = zip.entries;
    manifestInfo = project.manifest;
  } else if (manifestBytes !== null || manifestRefused !== undefined) {
    const project = validateProject({ manifest: manifestBytes, files: [], ...(manifestRefused !== undefined && { manifestRefused }) }, { bundlePrefix: 'bundle.zip/', skipBundle: true });
    contentFindings = project.findings;
    manifestInfo = project.manifest;
  }

  const manifestSha256 = manifestBytes === null ? undefined : deps.sha256Hex(manifestBytes);
  const artifactSha256 = bundleBytes === null ? undefined : deps.sha256Hex(bundleBytes);
  let publicKey: Uint8Array | undefined;
  let signature: Uint8Array | undefined;
  if (files['publisher-public-key.txt'] !== null) {
    const parsed = parseBase64File(files['publisher-public-key.txt']!, PUBLIC_KEY_BYTES);
    if (parsed.ok) publicKey = parsed.value;
    else top.add('release/public-key-format', `publisher-public-key.txt is malformed: ${parsed.reason}`, { file: 'publisher-public-key.txt' });
  }
  if (files['signature.txt'] !== null) {
    const parsed = parseBase64File(files['signature.txt']!, SIGNATURE_BYTES);
    if (parsed.ok) signature = parsed.value;
    else top.add('release/signature-format', `signature.txt is malformed: ${parsed.reason}`, { file: 'signature.txt' });
  }
  const publicKeyId = publicKey === undefined ? undefined : deps.sha256Hex(publicKey);
  // D-31: a key or signature that libraries disagree on, or that verifies forgeries, is refused before any verification.
  let verifiable = true;
  if (publicKey !== undefined) {
    const weakness = publicKeyWeakness(publicKey);
    if (weakness !== undefined) {
      verifiable = false;
      top.add('release/weak-public-key', `publisher-public-key.txt ${WEAKNESS_TEXT[weakness]}: no signature made with it can be trusted`, { file: 'publisher-public-key.txt' });
    }
  }
  if (signature !== undefined && !signatureScalarCanonical(signature)) {
    verifiable = false;
    top.add('release/signature-not-canonical', 'signature.txt has a scalar S that is not reduced (S is at least the group order L): a valid Ed25519 signature never has one', { file: 'signature.txt' });
  }
  const record = files['submission.json'] === null ? null : readRecord(files['submission.json']!, top);

  const namespace = manifestInfo?.namespace ?? record?.namespace;
  const version = manifestInfo?.version ?? record?.version;
  if (record !== null) {
    const mismatch = (field: keyof SubmissionRecord, actual: string | undefined, what: string) => {
      const recorded = record[field];
      if (recorded !== undefined && actual !== undefined && recorded !== actual) {
        top.add('release/submission-mismatch', `"${field}" is ${recorded} but ${what} is ${actual}`, { file: 'submission.json', pointer: `/${field}` });
      }
    };
    mismatch('namespace', manifestInfo?.namespace, 'the manifest namespace');
    mismatch('version', manifestInfo?.version, 'the manifest version');
    if (namespace !== undefined && version !== undefined) mismatch('artifact_path', artifactPath(namespace, version), 'the storage path of this namespace and version');
    mismatch('manifest_sha256', manifestSha256, 'the SHA-256 of manifest.json');
    mismatch('artifact_sha256', artifactSha256, 'the SHA-256 of bundle.zip');
    mismatch('publisher_public_key_id', publicKeyId, 'the fingerprint of publisher-public-key.txt');
  }

  let signatureValid = false;
  if (verifiable && publicKey !== undefined && signature !== undefined && namespace !== undefined && version !== undefined && manifestSha256 !== undefined && artifactSha256 !== undefined) {
    const verifyWith = (ns: string, v: string, m: string, a: string) => deps.verifyEd25519(publicKey!, asciiBytes(signedPayload(ns, v, m, a)), signature!);
    signatureValid = verifyWith(namespace, version, manifestSha256, artifactSha256);
    // For the explanation: the payload as recorded at packaging time (an edited manifest may name another version).
    const verifies = (m: string, a: string) =>
      verifyWith(namespace, version, m, a) || (record?.namespace !== undefined && record.version !== undefined && verifyWith(record.namespace, record.version, m, a));
    if (!signatureValid) {
      // The contract's six lines with an empty sixth also read as five plus an empty one; D-14 stands, so such a
      // signature is still refused, with a finding naming the difference.
      const payload = signedPayload(namespace, version, manifestSha256, artifactSha256);
      if (deps.verifyEd25519(publicKey, asciiBytes(payload + '\n'), signature)) {
        top.add(
          'release/signature-extra-line-break',
          `The signature verifies over D-14's payload followed by one more line break: ${payload.length + 1} bytes ending in 0a 0a, where D-14's ${payload.length} end in a single 0a after the artifact-sha256 line (the signer read the contract's empty last line as an extra line break)`,
          { file: 'signature.txt' },
        );
      } else {
        top.add('release/signature-invalid', explainSignature(verifies, manifestBytes!, manifestSha256, artifactSha256, record, publicKeyId, deps), { file: 'signature.txt' });
      }
    }
  }

  // Pinning: the signer against the publisher's known keys, when the caller has them.
  if (known !== undefined && publicKeyId !== undefined && !known.includes(publicKeyId)) {
    top.add(
      'release/unknown-signing-key',
      `The release is signed by the key ${publicKeyId}, which is not among the publisher's ${known.length} known key${known.length === 1 ? '' : 's'}`,
      { file: 'publisher-public-key.txt' },
    );
  }

  const findings = sortFindings(top.items.concat(contentFindings));
  let errors = 0;
  for (const f of findings) if (f.severity === 'error') errors++;
  const result: ReleaseResult = { findings, errors, warnings: findings.length - errors, manifest: manifestInfo, signatureValid };
  return {
    ...result,
    ...(manifestSha256 !== undefined && { manifestSha256 }),
    ...(artifactSha256 !== undefined && { artifactSha256 }),
    ...(publicKeyId !== undefined && { publicKeyId }),
    ...(archiveListing !== undefined && { archiveListing }),
    ...(bundleEntries !== undefined && bundleEntries !== null && { bundleEntries: options.keepEntryBytes === true ? bundleEntries : bundleEntries.map(withoutBytes) }),
  };
}

function withoutBytes(entry: BundleEntry): BundleEntry {
  if (entry.content === undefined) return entry;
  const { content: _dropped, ...rest } = entry;
  return rest;
}

/** Says why a signature fails, trying the explanations the contract lists. */
function explainSignature(
  verifies: (manifestHex: string, artifactHex: string) => boolean,
  manifestBytes: Uint8Array,
  manifestSha256: string,
  artifactSha256: string,
  record: SubmissionRecord | null,
  publicKeyId: string | undefined,
  deps: ReleaseDeps,
): string {
  const recordedManifest = record?.manifest_sha256;
  const recordedArtifact = record?.artifact_sha256;
  const manifestChanged = recordedManifest !== undefined && recordedManifest !== manifestSha256;
  const bundleChanged = recordedArtifact !== undefined && recordedArtifact !== artifactSha256;
  if ((manifestChanged || bundleChanged) && verifies(recordedManifest ?? manifestSha256, recordedArtifact ?? artifactSha256)) {
    const parts: string[] = [];
    if (manifestChanged) {
      const onlyWhitespace = whitespaceVariants(manifestBytes).some((v) => deps.sha256Hex(v) === recordedManifest);
      parts.push(onlyWhitespace ? 'manifest.json changed after signing, in line endings or whitespace only (an editor or an upload converted it)' : 'manifest.json changed after signing');
    }
    if (bundleChanged) parts.push('bundle.zip changed after signing');
    return `The signature is over the original files: ${parts.join('; ')}`;
  }
  if (record !== null && publicKeyId !== undefined && record.publisher_public_key_id !== undefined && record.publisher_public_key_id !== publicKeyId) {
    return 'The signature does not verify, and publisher-public-key.txt is not the key named in submission.json: the release was signed with a different key';
  }
  // The hashes agree but the signature does not: whoever changed the files rewrote the record too.
  if (record !== null && recordedManifest === manifestSha256 && recordedArtifact === artifactSha256) {
    return 'The hashes in submission.json match the files, but the signature does not verify over them: the files were changed after signing and the submission record was edited along with them, or the signature was made with a different key or over another payload';
  }
  return 'The signature does not verify with publisher-public-key.txt over this manifest and bundle: it was made with a different key or over another payload';
}
