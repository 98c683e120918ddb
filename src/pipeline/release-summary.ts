// The operator's view of a release and its diff against the baseline, as data for every rendering.
// Values come from the release files, never from submission.json's claims; manifest strings are shown
// as written, valid or not, so the operator sees what the release claims to be. Unreadable: null.
import {
  BUNDLE_MAX_COMPRESSED_BYTES,
  BUNDLE_MAX_COMPRESSION_RATIO,
  BUNDLE_MAX_EXPANDED_BYTES,
  BUNDLE_MAX_FILE_BYTES,
  BUNDLE_MAX_FILES,
  capabilityByKey,
  compareSemver,
  isSemver,
  MANIFEST_MAX_BYTES,
  MAX_CAPABILITIES,
  MAX_PROPERTIES,
  readJson,
  savedValuesCarryOver,
  type ReleaseManifest,
  type ReleaseResult,
} from '../validator/internal.js';
import { sha256Hex } from '../node/hashes.js';

/** Whether the signer's fingerprint was compared with the publisher's active keys (--known-keys). */
export type SignerPinning = 'pinned' | 'unknown' | 'not-pinned' | 'new';

export interface SummaryCapability {
  readonly key: string;
  readonly risk: 'low' | 'medium';
  readonly method: string;
  readonly actions: readonly string[];
}

export interface SummaryProperty {
  readonly name: string;
  readonly type: string;
  readonly label: string | null;
  readonly help?: string | null;
  readonly option_labels?: readonly string[];
  readonly required: boolean;
  /** Absent when there is no (valid) default. */
  readonly default?: boolean | number | string;
}

export interface SummaryFile {
  readonly path: string;
  readonly size: number;
  readonly compressed_size: number;
  readonly method: 'stored' | 'deflate' | 'other';
  /** Null for an empty compressed stream. */
  readonly ratio: number | null;
  /** SHA-256 of the verified content; null when the entry was not inflated (the archive broke a limit). */
  readonly sha256: string | null;
}

export interface SummaryTotal {
  /** A stable name (compare contract-snapshot/limits.json). */
  readonly limit: 'bundle.compressedBytes' | 'bundle.expandedBytes' | 'bundle.files' | 'bundle.largestFileBytes' | 'bundle.highestFileRatio' | 'bundle.archiveRatio' | 'manifest.bytes' | 'manifest.capabilities' | 'manifest.properties';
  readonly used: number;
  readonly max: number;
  readonly unit: 'bytes' | 'count' | 'ratio';
  readonly share: number;
}

export interface ReleaseSummary {
  readonly namespace: string | null;
  readonly version: string | null;
  readonly name: string | null;
  readonly description: string | null;
  readonly entrypoint: string | null;
  readonly manifest_sha256: string | null;
  readonly artifact_sha256: string | null;
  readonly signer: {
    /** D-12; null when the key is missing or malformed. */
    readonly fingerprint: string | null;
    readonly signature_valid: boolean;
    readonly pinning: SignerPinning;
  };
  readonly capabilities: readonly SummaryCapability[];
  readonly properties: readonly SummaryProperty[];
  /** Null when the archive is missing or its structure was refused. */
  readonly files: readonly SummaryFile[] | null;
  readonly totals: readonly SummaryTotal[];
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function methodName(method: number): SummaryFile['method'] {
  return method === 0 ? 'stored' : method === 8 ? 'deflate' : 'other';
}

function total(limit: SummaryTotal['limit'], used: number, max: number, unit: SummaryTotal['unit']): SummaryTotal {
  return { limit, used, max, unit, share: round(used / max, 4) };
}

export function summaryFiles(result: ReleaseResult): SummaryFile[] | null {
  const listing = result.archiveListing;
  if (listing === undefined) return null;
  const entries = result.bundleEntries ?? [];
  return listing.map((entry, index) => {
    const content = entries[index]?.path === entry.path ? entries[index]!.content : undefined;
    return {
      path: entry.path,
      size: entry.size,
      compressed_size: entry.compressedSize,
      method: methodName(entry.method),
      ratio: entry.compressedSize === 0 ? null : round(entry.size / entry.compressedSize, 2),
      sha256: content === undefined ? null : sha256Hex(content),
    };
  });
}

const MANIFEST_STRINGS = ['namespace', 'version', 'name', 'description', 'entrypoint'] as const;
type ManifestStrings = Record<(typeof MANIFEST_STRINGS)[number], string | null>;

export function manifestStrings(bytes: Uint8Array | null): ManifestStrings {
  const out: ManifestStrings = { namespace: null, version: null, name: null, description: null, entrypoint: null };
  if (bytes === null || bytes.length > MANIFEST_MAX_BYTES) return out;
  const read = readJson(bytes);
  if (!read.ok || read.value.kind !== 'object') return out;
  for (const entry of read.value.entries) {
    if ((MANIFEST_STRINGS as readonly string[]).includes(entry.key) && entry.value.kind === 'string') out[entry.key as keyof ManifestStrings] = entry.value.value;
  }
  return out;
}

export function buildReleaseSummary(result: ReleaseResult, archiveBytes: number | null, manifestBytes: Uint8Array | null, pinning: SignerPinning): ReleaseSummary {
  const manifest = result.manifest;
  const written = manifestStrings(manifestBytes);
  const capabilities = (manifest?.capabilities ?? []).flatMap((key): SummaryCapability[] => {
    const def = capabilityByKey(key);
    return def === undefined ? [] : [{ key, risk: def.risk, method: def.method, actions: [...def.actions] }];
  });
  const properties = (manifest?.properties ?? []).map(
    (p): SummaryProperty => ({
      name: p.name,
      type: p.type,
      label: p.label ?? null,
      help: p.help ?? null,
      ...(p.options !== undefined && { option_labels: p.options.map((o) => o.label) }),
      required: p.required,
      ...(p.default !== undefined && { default: p.default }),
    }),
  );
  const files = summaryFiles(result);
  const totals: SummaryTotal[] = [];
  if (archiveBytes !== null) totals.push(total('bundle.compressedBytes', archiveBytes, BUNDLE_MAX_COMPRESSED_BYTES, 'bytes'));
  if (files !== null) {
    const expanded = files.reduce((sum, f) => sum + f.size, 0);
    totals.push(total('bundle.expandedBytes', expanded, BUNDLE_MAX_EXPANDED_BYTES, 'bytes'));
    totals.push(total('bundle.files', files.length, BUNDLE_MAX_FILES, 'count'));
    totals.push(total('bundle.largestFileBytes', Math.max(0, ...files.map((f) => f.size)), BUNDLE_MAX_FILE_BYTES, 'bytes'));
    // An empty compressed stream that expands to something is an unbounded ratio (the reader refuses it).
    const ratios = files.map((f) => (f.compressed_size === 0 ? (f.size === 0 ? 0 : Infinity) : f.size / f.compressed_size));
    const highest = Math.max(0, ...ratios);
    totals.push(total('bundle.highestFileRatio', Number.isFinite(highest) ? round(highest, 2) : BUNDLE_MAX_COMPRESSION_RATIO + 1, BUNDLE_MAX_COMPRESSION_RATIO, 'ratio'));
    if (archiveBytes !== null && archiveBytes > 0) totals.push(total('bundle.archiveRatio', round(expanded / archiveBytes, 2), BUNDLE_MAX_COMPRESSION_RATIO, 'ratio'));
  }
  if (manifestBytes !== null) totals.push(total('manifest.bytes', manifestBytes.length, MANIFEST_MAX_BYTES, 'bytes'));
  if (manifest !== null) {
    totals.push(total('manifest.capabilities', capabilities.length, MAX_CAPABILITIES, 'count'));
    totals.push(total('manifest.properties', properties.length, MAX_PROPERTIES, 'count'));
  }
  return {
    ...written,
    manifest_sha256: result.manifestSha256 ?? null,
    artifact_sha256: result.artifactSha256 ?? null,
    signer: { fingerprint: result.publicKeyId ?? null, signature_valid: result.signatureValid, pinning },
    capabilities,
    properties,
    files,
    totals,
  };
}

// The release diff as data (the findings come from the validator's diffReleases, D-28).

// Contract "States and transitions": what a capability change means in every store running the baseline.
export const CAPABILITY_ADDED_NOTE = 'needs a new permission review; off until approved';
export const CAPABILITY_REMOVED_NOTE = 'grant removed automatically';

export interface DiffCapability {
  readonly key: string;
  /** Null for a string that is not one of the nine keys. */
  readonly risk: 'low' | 'medium' | null;
  readonly note: string;
}

export interface DiffFile {
  readonly path: string;
  readonly size: number;
}

export interface ChangedFile {
  readonly path: string;
  readonly size_before: number;
  readonly size_after: number;
  readonly lines_added?: number;
  readonly lines_removed?: number;
  /** Bounded; null when the files are too far apart to align. */
  readonly hunks?: readonly string[] | null;
}

export interface ReleaseDiff {
  readonly baseline: string;
  readonly version: { readonly from: string | null; readonly to: string | null; readonly higher: boolean | null };
  readonly signer: {
    readonly from: string | null;
    readonly to: string | null;
    readonly changed: boolean;
  };
  readonly capabilities: { readonly added: readonly DiffCapability[]; readonly removed: readonly DiffCapability[] };
  readonly properties: {
    readonly added: readonly { readonly name: string; readonly type: string | null }[];
    readonly removed: readonly { readonly name: string; readonly type: string | null }[];
    readonly retyped: readonly { readonly name: string; readonly from: string; readonly to: string; readonly saved_values_carry_over: boolean }[];
  };
  /** Null when either archive could not be listed. */
  readonly files: { readonly added: readonly DiffFile[]; readonly removed: readonly DiffFile[]; readonly changed: readonly ChangedFile[] } | null;
}

export interface DiffSide {
  readonly manifest: ReleaseManifest | null;
  readonly fingerprint: string | null;
  readonly files: readonly SummaryFile[] | null;
}

function uniqueStrings(values: readonly { readonly value: string }[]): string[] {
  return [...new Set(values.map((v) => v.value))];
}

function capabilityChange(key: string, note: string): DiffCapability {
  return { key, risk: capabilityByKey(key)?.risk ?? null, note };
}

// Without content (an archive over a limit is not inflated), equal sizes count as the same file.
function sameFile(a: SummaryFile, b: SummaryFile): boolean {
  if (a.sha256 !== null && b.sha256 !== null) return a.sha256 === b.sha256;
  return a.size === b.size;
}

export function buildReleaseDiff(baselineDir: string, baseline: DiffSide, current: DiffSide): ReleaseDiff {
  const from = baseline.manifest?.version?.value ?? null;
  const to = current.manifest?.version?.value ?? null;
  const higher = from !== null && to !== null && isSemver(from) && isSemver(to) ? compareSemver(to, from) > 0 : null;

  const before = uniqueStrings(baseline.manifest?.capabilities ?? []);
  const now = uniqueStrings(current.manifest?.capabilities ?? []);
  const added = now.filter((k) => !before.includes(k)).map((k) => capabilityChange(k, CAPABILITY_ADDED_NOTE));
  const removed = before.filter((k) => !now.includes(k)).map((k) => capabilityChange(k, CAPABILITY_REMOVED_NOTE));

  const oldProps = baseline.manifest?.properties ?? [];
  const newProps = current.manifest?.properties ?? [];
  const oldByName = new Map(oldProps.map((p) => [p.name, p]));
  const newByName = new Map(newProps.map((p) => [p.name, p]));
  const propAdded = newProps.filter((p) => !oldByName.has(p.name)).map((p) => ({ name: p.name, type: p.type?.value ?? null }));
  const propRemoved = oldProps.filter((p) => !newByName.has(p.name)).map((p) => ({ name: p.name, type: p.type?.value ?? null }));
  const retyped = oldProps.flatMap((p) => {
    const next = newByName.get(p.name);
    if (p.type === undefined || next?.type === undefined || p.type.value === next.type.value) return [];
    return [{ name: p.name, from: p.type.value, to: next.type.value, saved_values_carry_over: savedValuesCarryOver(p.type.value, next.type.value) }];
  });

  let files: ReleaseDiff['files'] = null;
  if (baseline.files !== null && current.files !== null) {
    const oldFiles = new Map(baseline.files.map((f) => [f.path, f]));
    const newFiles = new Map(current.files.map((f) => [f.path, f]));
    files = {
      added: current.files.filter((f) => !oldFiles.has(f.path)).map((f) => ({ path: f.path, size: f.size })),
      removed: baseline.files.filter((f) => !newFiles.has(f.path)).map((f) => ({ path: f.path, size: f.size })),
      changed: current.files.flatMap((f) => {
        const old = oldFiles.get(f.path);
        return old === undefined || sameFile(old, f) ? [] : [{ path: f.path, size_before: old.size, size_after: f.size }];
      }),
    };
  }

  return {
    baseline: baselineDir,
    version: { from, to, higher },
    signer: { from: baseline.fingerprint, to: current.fingerprint, changed: baseline.fingerprint !== null && current.fingerprint !== null && baseline.fingerprint !== current.fingerprint },
    capabilities: { added, removed },
    properties: { added: propAdded, removed: propRemoved, retyped },
    files,
  };
}
