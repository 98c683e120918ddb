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
} from '../validator/index.js';
import { baselineFindings, loadBaseline } from '../load/baseline-loader.js';
import { buildReport, type ReportFinding, type ReviewReport } from '../render/report-json.js';
import { readKnownKeys, type KnownKeys } from '../load/known-keys.js';
import { operatorHint } from '../explain/operator-hints.js';
import { runReleasePipeline, type ReleaseRun } from '../pipeline/release-pipeline.js';
import { buildReleaseDiff, buildReleaseSummary, summaryFiles, type ReleaseDiff, type ReleaseSummary, type SignerPinning } from '../pipeline/release-summary.js';

export interface ReviewOptions {
  /** `--known-keys <file>`: the publisher's active public keys or fingerprints, one a line. */
  readonly knownKeys?: string;
  /** `--baseline <dir>`: the approved release this one updates. */
  readonly baseline?: string;
  /** `--first-release`: the operator states this is the publisher's first submission (the signer is new). */
  readonly firstRelease?: boolean;
}

/** The operator's decision as the review proposes it. */
export type Decision = 'reject' | 'cannot-decide' | 'approve-after-reading' | 'approve';

export interface Verdict {
  readonly decision: Decision;
  /** Entries (findings collapsed by rule) the decision rests on: to resolve, or to read before approving. */
  readonly items: number;
  /** The decision in the operator's words, one line. */
  readonly text: string;
}

/** The risk summary: the few facts an operator decides on, each from the findings and the summary. */
export interface RiskSummary {
  /** pinned: a known key, the baseline's or the history's signer; new: a first release or a key never used; unknown/revoked: not the publisher's; not-pinned: nothing to compare with. */
  readonly signer: 'pinned' | 'new' | 'unknown' | 'revoked' | 'not-pinned';
  readonly signature: 'valid' | 'invalid';
  /** match: submission.json's hashes are those of the files; mismatch: they are not; unknown: not comparable. */
  readonly hashes: 'match' | 'mismatch' | 'unknown';
  readonly capabilities: {
    readonly declared: readonly string[];
    /** Added since the baseline (empty without one). */
    readonly new: readonly string[];
    readonly unused: readonly string[];
    /** Declared capabilities of medium risk (the highest the contract names). */
    readonly high_risk: readonly string[];
  };
  /** Against the baseline; null without one. */
  readonly files: { readonly added: number; readonly removed: number; readonly changed: number } | null;
  /** Findings of suspicious code, network and code-from-strings rules. */
  readonly suspicious_code: number;
  /** Findings of deceptive text: invisible characters, confusable names, impersonation, text addressed to the reviewer. */
  readonly deceptive_text: number;
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
function signerFindings(fingerprint: string | undefined, known: KnownKeys | null, findings: FindingList, vouched: boolean): SignerPinning {
  if (fingerprint === undefined) return 'not-pinned'; // no key to compare: its own finding says why
  // Another source settles the signer (the baseline's key, the history, a stated first release).
  if (known === null && vouched) return 'not-pinned';
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

/** Rules that, in a review, mean "reject unless the publisher explains": code that reaches the network or runs strings, code hiding what it calls, text that deceives. */
export const EXPLAIN_OR_REJECT: ReadonlySet<string> = new Set([
  'js/network-api',
  'js/eval-blocked',
  'js/computed-global-access',
  'js/assembled-api-name',
  'js/constructor-constructor',
  'manifest/invisible-characters',
  'manifest/confusable-text',
  'manifest/impersonation',
  'manifest/addressed-to-reviewer',
]);
const SUSPICIOUS_CODE = new Set(['js/network-api', 'js/eval-blocked', 'js/computed-global-access', 'js/assembled-api-name', 'js/constructor-constructor']);
const DECEPTIVE_TEXT = new Set(['manifest/invisible-characters', 'manifest/confusable-text', 'manifest/impersonation', 'manifest/addressed-to-reviewer']);
const HASH_RULES = new Set(['release/submission-mismatch', 'release/submission-invalid', 'release/submission-field']);

/** How many entries the findings make once the findings of one rule collapse into one. */
function entries(findings: readonly Finding[]): number {
  return new Set(findings.map((f) => f.rule)).size;
}

/** The verdict: errors reject; then an unpinned signer cannot be decided on; then what must be explained; then what to read. */
export function decide(findings: readonly Finding[], signer: RiskSummary['signer']): Verdict {
  const errors = findings.filter((f) => f.severity === 'error');
  const explain = findings.filter((f) => f.severity === 'warning' && EXPLAIN_OR_REJECT.has(f.rule));
  if (errors.length > 0 || explain.length > 0) {
    const items = entries(errors) + entries(explain);
    const why = errors.length > 0 ? `${items} item${items === 1 ? '' : 's'} to resolve` : `reject unless the publisher explains ${items} item${items === 1 ? '' : 's'}`;
    return { decision: 'reject', items, text: errors.length > 0 ? `reject: ${why}` : `reject: ${why}` };
  }
  if (signer === 'not-pinned') {
    return {
      decision: 'cannot-decide',
      items: 1,
      text: 'cannot decide: the signer is not pinned (give --known-keys, --history, --baseline or --first-release)',
    };
  }
  const warnings = entries(findings);
  if (warnings > 0) return { decision: 'approve-after-reading', items: warnings, text: `approve after reading ${warnings} item${warnings === 1 ? '' : 's'}` };
  return { decision: 'approve', items: 0, text: 'approve: nothing to read' };
}

function riskSummary(findings: readonly Finding[], summary: ReleaseSummary, diff: ReleaseDiff | undefined, signer: RiskSummary['signer']): RiskSummary {
  const rules = new Set(findings.map((f) => f.rule));
  const unused = findings.filter((f) => f.rule === 'js/capability-unused').map((f) => /"([^"]+)"/.exec(f.message)?.[1] ?? f.message);
  return {
    signer,
    signature: summary.signer.signature_valid ? 'valid' : 'invalid',
    hashes: [...HASH_RULES].some((r) => rules.has(r)) ? 'mismatch' : summary.manifest_sha256 !== null && summary.artifact_sha256 !== null ? 'match' : 'unknown',
    capabilities: {
      declared: summary.capabilities.map((c) => c.key),
      new: diff?.capabilities.added.map((c) => c.key) ?? [],
      unused: [...new Set(unused)],
      high_risk: summary.capabilities.filter((c) => c.risk === 'medium').map((c) => c.key),
    },
    files: diff?.files ? { added: diff.files.added.length, removed: diff.files.removed.length, changed: diff.files.changed.length } : null,
    suspicious_code: findings.filter((f) => SUSPICIOUS_CODE.has(f.rule)).length,
    deceptive_text: findings.filter((f) => DECEPTIVE_TEXT.has(f.rule)).length,
  };
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
  // The baseline or a stated first release settle the signer without --known-keys (their own findings say how).
  const vouched = baseline !== null || options.firstRelease === true;
  let pinning = signerFindings(fingerprint, known, extra, vouched);
  let findings: Finding[] = check.findings.concat(extra.items);

  const { files } = check.loaded.release;
  let diff: ReleaseDiff | undefined;
  let signer: RiskSummary['signer'] = pinning === 'pinned' ? 'pinned' : pinning === 'unknown' ? 'unknown' : 'not-pinned';
  const currentFiles = summaryFiles(check.result);
  if (baseline !== null && baselineCheck !== null) {
    findings = findings.concat(baselineFindings(baseline, files['manifest.json']));
    diff = buildReleaseDiff(
      baseline.dir,
      { manifest: baseline.manifest, fingerprint: baselineCheck.result.publicKeyId ?? null, files: summaryFiles(baselineCheck.result) },
      { manifest: manifestOf(check), fingerprint: fingerprint ?? null, files: currentFiles },
    );
    // A changed key with no known keys to vouch for it (with them, release/unknown-signing-key decides).
    if (diff.signer.changed && known === null) {
      const changed = new FindingList();
      changed.add('baseline/signer-changed', `The release is signed by the key ${diff.signer.to}; the baseline release "${baseline.dir}" by ${diff.signer.from}`, {
        file: 'publisher-public-key.txt',
      });
      findings = findings.concat(changed.items);
      signer = 'unknown';
    } else if (known === null && fingerprint !== undefined && !diff.signer.changed) {
      signer = 'pinned';
      pinning = 'pinned';
    }
  }
  if (options.firstRelease === true && known === null && baseline === null && fingerprint !== undefined) {
    signer = 'new';
    pinning = 'new';
  }
  const summary = buildReleaseSummary(check.result, files['bundle.zip']?.length ?? null, files['manifest.json'], pinning);
  const sorted = sortFindings(findings);
  const report = buildReport('review', target, withOperatorHints(sorted));
  const verdict = decide(sorted, signer);
  return {
    ...report,
    ok: verdict.decision === 'approve' || verdict.decision === 'approve-after-reading',
    command: 'review',
    verdict,
    risk: riskSummary(sorted, summary, diff, signer),
    summary,
    ...(diff !== undefined && { diff }),
  };
}
