// The operator's review of one release folder (platform-review and reviewRelease() of the
// API): the release check that `verify` runs, then who signed it against the publisher's
// active keys (--known-keys), then the release diff against the approved baseline
// (--baseline, the validator's diffReleases as `check --baseline` runs it, D-28), with the
// release summary and the diff as data. Reads the folders, writes nothing. Node built-ins
// and the validator's index only (part of platform-review).
import {
  FindingList,
  MANIFEST_MAX_BYTES,
  readReleaseManifest,
  ruleById,
  sortFindings,
  type Finding,
  type ReleaseManifest,
} from '../validator/internal.js';
import { baselineFindings, loadBaseline } from '../load/baseline-loader.js';
import { buildReport, type ReportFinding, type ReviewReport } from '../pipeline/report.js';
import { readKnownKeys, type KnownKeys } from '../load/known-keys.js';
import { operatorHint } from '../explain/operator-hints.js';
import { runReleasePipeline, type ReleaseRun } from '../pipeline/release-pipeline.js';
import { buildReleaseDiff, buildReleaseSummary, summaryFiles, type ReleaseDiff, type SignerPinning } from '../pipeline/release-summary.js';

export interface ReviewOptions {
  /** `--known-keys <file>`: the publisher's active public keys or fingerprints, one a line. */
  readonly knownKeys?: string;
  /** `--baseline <dir>`: the approved release this one updates. */
  readonly baseline?: string;
}

function manifestOf(check: ReleaseRun): ReleaseManifest | null {
  const bytes = check.loaded.release.files['manifest.json'];
  return bytes === null || bytes.length > MANIFEST_MAX_BYTES ? null : readReleaseManifest(bytes);
}

function listed(fingerprints: readonly string[]): string {
  const shown = fingerprints.slice(0, 5).join(', ');
  return fingerprints.length > 5 ? `${shown} and ${fingerprints.length - 5} more` : shown;
}

/** The signer against the known keys: its pinning and the finding it gives (none when pinned). */
function signerFindings(fingerprint: string | undefined, known: KnownKeys | null, findings: FindingList): SignerPinning {
  if (fingerprint === undefined) return 'not-pinned'; // no key to compare: its own finding says why
  if (known === null) {
    findings.add('release/signer-not-pinned', `The signing key ${fingerprint} was not compared with the publisher's active keys: signer not pinned (no --known-keys)`, {
      file: 'publisher-public-key.txt',
    });
    return 'not-pinned';
  }
  if (known.fingerprints.includes(fingerprint)) return 'pinned';
  findings.add(
    'release/unknown-signing-key',
    `The release is signed by the key ${fingerprint}, which is not among the publisher's active keys in "${known.file}": ${listed(known.fingerprints)}`,
    { file: 'publisher-public-key.txt' },
  );
  return 'unknown';
}

/** Findings of the review with the operator's hint on each (src/explain/operator-hints.ts). */
function withOperatorHints(findings: readonly Finding[]): ReportFinding[] {
  return findings.map((f) => {
    const rule = ruleById(f.rule);
    return rule === undefined ? f : { ...f, hint: operatorHint(rule) };
  });
}

/**
 * Reviews the release folder `target`. A usage problem (an unreadable folder, a known-keys
 * file that lists no key, a baseline that is not a submission set) throws a UsageError
 * before anything is reviewed.
 */
export function reviewRelease(target: string, options: ReviewOptions = {}): ReviewReport {
  const known = options.knownKeys !== undefined ? readKnownKeys(options.knownKeys) : null;
  const baseline = options.baseline !== undefined ? loadBaseline(options.baseline) : null;
  const baselineCheck = baseline !== null ? runReleasePipeline(baseline.dir) : null;
  const check = runReleasePipeline(target);

  const extra = new FindingList();
  const fingerprint = check.result.publicKeyId;
  const pinning = signerFindings(fingerprint, known, extra);
  let findings: Finding[] = check.findings.concat(extra.items);

  const { files } = check.loaded.release;
  const summary = buildReleaseSummary(check.result, files['bundle.zip']?.length ?? null, files['manifest.json'], pinning);
  let diff: ReleaseDiff | undefined;
  if (baseline !== null && baselineCheck !== null) {
    findings = findings.concat(baselineFindings(baseline, files['manifest.json']));
    diff = buildReleaseDiff(
      baseline.dir,
      { manifest: baseline.manifest, fingerprint: baselineCheck.result.publicKeyId ?? null, files: summaryFiles(baselineCheck.result) },
      { manifest: manifestOf(check), fingerprint: fingerprint ?? null, files: summary.files },
    );
    // A changed key with no known keys to vouch for it (with them, release/unknown-signing-key decides).
    if (diff.signer.changed && known === null) {
      const changed = new FindingList();
      changed.add('baseline/signer-changed', `The release is signed by the key ${diff.signer.to}; the baseline release "${baseline.dir}" by ${diff.signer.from}`, {
        file: 'publisher-public-key.txt',
      });
      findings = findings.concat(changed.items);
    }
  }
  const report = buildReport('review', target, withOperatorHints(sortFindings(findings)));
  return { ...report, command: 'review', summary, ...(diff !== undefined && { diff }) };
}
