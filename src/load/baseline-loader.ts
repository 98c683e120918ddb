// `check --baseline`: diff the earlier submission set's manifest (all a store keeps across an upgrade)
// against the project's. An unreadable set is a usage error (D-21), never an empty diff that passes.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import {
  diffReleases,
  FindingList,
  isNamespace,
  isSemver,
  MANIFEST_MAX_BYTES,
  readReleaseManifest,
  sortFindings,
  SUBMISSION_FILES,
  type Finding,
  type ReleaseManifest,
} from '../validator/internal.js';
import { UsageError } from '../node/usage-error.js';
import { readCapped } from '../node/file-open.js';

export interface Baseline {
  readonly dir: string;
  readonly manifest: ReleaseManifest;
  readonly namespace: string;
  readonly version: string;
}

const WHAT_TO_PASS = 'pass the folder that "platform-ext package --out" wrote for the earlier release';

export function loadBaseline(dir: string): Baseline {
  let isFolder: boolean;
  try {
    isFolder = lstatSync(dir).isDirectory();
  } catch {
    throw new UsageError(`The baseline folder "${dir}" does not exist: ${WHAT_TO_PASS}`);
  }
  if (!isFolder) throw new UsageError(`The baseline "${dir}" is not a folder: ${WHAT_TO_PASS}`);
  const missing = SUBMISSION_FILES.filter((name) => {
    try {
      return !lstatSync(join(dir, name)).isFile();
    } catch {
      return true;
    }
  });
  if (missing.length > 0) {
    throw new UsageError(
      `The baseline "${dir}" is not a submission set: ${missing.map((n) => `"${n}"`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing or not a regular file; ${WHAT_TO_PASS} (${SUBMISSION_FILES.join(', ')})`,
    );
  }
  const bytes = readCapped(join(dir, 'manifest.json'), MANIFEST_MAX_BYTES);
  if (bytes === null) throw new UsageError(`Cannot read the baseline manifest "${join(dir, 'manifest.json')}": check its permissions`);
  const manifest = bytes.length > MANIFEST_MAX_BYTES ? null : readReleaseManifest(bytes);
  if (manifest === null) {
    throw new UsageError(
      `The baseline manifest "${join(dir, 'manifest.json')}" is not a manifest (not one strict JSON object of at most ${MANIFEST_MAX_BYTES} bytes): ${WHAT_TO_PASS}, unchanged`,
    );
  }
  const namespace = manifest.namespace?.value;
  const version = manifest.version?.value;
  if (namespace === undefined || !isNamespace(namespace) || version === undefined || !isSemver(version)) {
    throw new UsageError(
      `The baseline manifest "${join(dir, 'manifest.json')}" has no valid ${namespace === undefined || !isNamespace(namespace) ? '"namespace"' : '"version"'}, so there is nothing to compare against: ${WHAT_TO_PASS}, unchanged`,
    );
  }
  return { dir, manifest, namespace, version };
}

// No manifest or one that is not a JSON object: nothing to compare (the check reports it).
export function baselineFindings(baseline: Baseline, currentManifest: Uint8Array | null): Finding[] {
  if (currentManifest === null || currentManifest.length > MANIFEST_MAX_BYTES) return [];
  const current = readReleaseManifest(currentManifest);
  if (current === null) return [];
  const findings = new FindingList();
  diffReleases(baseline.manifest, current, findings);
  return findings.items;
}

export function withBaseline(baseline: Baseline | null, currentManifest: Uint8Array | null, findings: readonly Finding[]): Finding[] {
  if (baseline === null) return [...findings];
  const extra = baselineFindings(baseline, currentManifest);
  return extra.length === 0 ? [...findings] : sortFindings(findings.concat(extra));
}
