// The operator's review of one release folder (platform-review and reviewRelease() of the
// API): the release check that `verify` runs, then who signed it against the publisher's
// active keys (--known-keys), then the release diff against the approved baseline
// (--baseline, the validator's diffReleases as `check --baseline` runs it, D-28), with the
// release summary and the diff as data. Reads the folders, writes nothing. Node built-ins
// and the validator's index only (part of platform-review).
import {
  FindingList,
  checkDeceptiveText,
  codeSites,
  type ManifestText,
  compareSemver,
  type CodeSite,
  isSemver,
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
import { readHistory, type PublisherHistory } from '../load/history.js';
import type { CodeReview, HistoryFacts, RiskSummary, Verdict } from '../pipeline/review-verdict.js';

export type { CodeReview, Decision, HistoryFacts, RiskSummary, Verdict } from '../pipeline/review-verdict.js';
import { operatorHint } from '../explain/operator-hints.js';
import { UsageError } from '../node/usage-error.js';
import { isText, lineDiff } from '../pipeline/text-diff.js';
import { runReleasePipeline, type ReleaseRun } from '../pipeline/release-pipeline.js';
import { buildReleaseDiff, buildReleaseSummary, summaryFiles, type ReleaseDiff, type ReleaseSummary, type SignerPinning } from '../pipeline/release-summary.js';

export interface ReviewOptions {
  /** `--known-keys <file>`: the publisher's active public keys or fingerprints, one a line. */
  readonly knownKeys?: string;
  /** `--baseline <dir>`: the approved release this one updates. */
  readonly baseline?: string;
  /** `--history <file>`: the publisher's record as the service core exports it. */
  readonly history?: string;
  /** `--first-release`: the operator states this is the publisher's first submission (the signer is new). */
  readonly firstRelease?: boolean;
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

/** Approved means approved once: a release later revoked was approved and its version stays used. */
const WAS_APPROVED = new Set(['approved', 'revoked']);

/** The release against the publisher's record: version, signer, publisher state, namespace. */
function historyFindings(history: PublisherHistory, namespace: string | null, version: string | null, fingerprint: string | undefined, findings: FindingList): { signer: RiskSummary['signer']; facts: HistoryFacts } {
  const at = { file: 'manifest.json' };
  const approved = history.submissions.filter((s) => WAS_APPROVED.has(s.state));
  const publisher = history.publisher;
  if (publisher.state === 'revoked') findings.add('history/publisher-revoked', `The publisher "${publisher.id}" is revoked in "${history.file}"`, { file: 'submission.json' });
  const namespaces = [...new Set(approved.map((s) => s.namespace))];
  if (namespace !== null && namespaces.length > 0 && !namespaces.includes(namespace)) {
    findings.add('history/namespace-changed', `The release's namespace is "${namespace}"; the publisher's approved releases are under ${namespaces.map((n) => `"${n}"`).join(', ')}`, { ...at, pointer: '/namespace' });
  }
  const mine = approved.filter((s) => s.namespace === namespace);
  const versions = mine.map((s) => s.version).filter(isSemver).sort(compareSemver);
  const last = versions.at(-1) ?? null;
  if (version !== null && isSemver(version)) {
    const same = mine.find((s) => s.version === version);
    if (same !== undefined) {
      findings.add('history/version-already-approved', `Version ${version} of "${namespace}" was approved before (submission ${same.id}, ${same.submittedAt}): an approved version is never reused`, { ...at, pointer: '/version' });
    } else if (last !== null && compareSemver(version, last) <= 0) {
      findings.add('history/version-not-higher', `Version ${version} is not higher than ${last}, the last approved version of "${namespace}"`, { ...at, pointer: '/version' });
    }
  }
  let signer: RiskSummary['signer'] = 'not-pinned';
  if (fingerprint !== undefined) {
    const key = publisher.keys.find((k) => k.id === fingerprint);
    const where = { file: 'publisher-public-key.txt' };
    if (key === undefined) {
      findings.add('history/signer-unknown', `The release is signed by the key ${fingerprint}, which is none of the keys of the publisher "${publisher.id}" in "${history.file}"`, where);
      signer = 'unknown';
    } else if (key.state === 'revoked') {
      findings.add('history/signer-revoked', `The release is signed by the key ${fingerprint}, which the publisher revoked on ${key.revokedAt ?? '(no date)'}`, where);
      signer = 'revoked';
    } else if (!approved.some((s) => s.publicKeyId === fingerprint)) {
      findings.add('history/signer-new', `The release is signed by the key ${fingerprint}, active since ${key.addedAt}, which signed none of the publisher's approved releases`, where);
      signer = 'new';
    } else signer = 'pinned';
  }
  return {
    signer,
    facts: { publisher: publisher.id, publisher_state: publisher.state, last_approved: last, approved_versions: versions },
  };
}

const JS_FILE = /\.m?js$/i;
const API_KINDS = ['network', 'code-from-string', 'navigation', 'storage'] as const;

/** The code behind each declared capability and each risky API, from the bundle's modules as verified. */
function codeReview(check: ReleaseRun, declared: readonly string[]): CodeReview {
  const sites: CodeSite[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (const entry of check.result.bundleEntries ?? []) {
    // Named as the findings name bundle files: inside bundle.zip.
    if (JS_FILE.test(entry.path)) sites.push(...codeSites(`bundle.zip/${entry.path}`, decoder.decode(entry.content), null));
  }
  return {
    capabilities: declared.map((key) => {
      const mine = sites.filter((s) => s.kind === 'capability' && s.name === key);
      return { key, used: mine.length > 0, sites: mine };
    }),
    apis: API_KINDS.map((kind) => ({ kind, sites: sites.filter((s) => s.kind === kind) })),
  };
}

/** The manifest strings people read: name, description, and each property's label, help and option labels. */
function manifestTexts(bytes: Uint8Array | null): ManifestText[] {
  if (bytes === null || bytes.length > MANIFEST_MAX_BYTES) return [];
  let m: unknown;
  try {
    m = JSON.parse(new TextDecoder('utf-8', { fatal: false }).decode(bytes));
  } catch {
    return [];
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return [];
  const out: ManifestText[] = [];
  const o = m as Record<string, unknown>;
  const push = (pointer: string, value: unknown) => {
    if (typeof value === 'string') out.push({ pointer, text: value });
  };
  push('/name', o['name']);
  push('/description', o['description']);
  const props = o['properties'];
  if (typeof props === 'object' && props !== null && !Array.isArray(props)) {
    for (const [name, def] of Object.entries(props as Record<string, unknown>)) {
      if (typeof def !== 'object' || def === null) continue;
      const d = def as Record<string, unknown>;
      const at = `/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      push(`${at}/label`, d['label']);
      push(`${at}/help`, d['help']);
      if (Array.isArray(d['options'])) d['options'].forEach((opt, k) => typeof opt === 'object' && opt !== null && push(`${at}/options/${k}/label`, (opt as Record<string, unknown>)['label']));
    }
  }
  return out;
}

/** The changed text files of the diff with their line counts and hunks (from both verified archives). */
function withLineDiffs(diff: ReleaseDiff, before: ReleaseRun, after: ReleaseRun): ReleaseDiff {
  if (diff.files === null) return diff;
  const content = (run: ReleaseRun, path: string) => run.result.bundleEntries?.find((e) => e.path === path)?.content;
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const changed = diff.files.changed.map((f) => {
    const a = content(before, f.path);
    const b = content(after, f.path);
    if (a === undefined || b === undefined || !isText(a) || !isText(b)) return f;
    return { ...f, ...lineDiff(decoder.decode(a), decoder.decode(b)) };
  });
  return { ...diff, files: { ...diff.files, changed } };
}

/** Rules that, in a review, mean "reject unless the publisher explains": code that reaches the network or runs strings, code hiding what it calls, text that deceives. */
export const EXPLAIN_OR_REJECT: ReadonlySet<string> = new Set([
  'js/network-api',
  'js/eval-blocked',
  'js/computed-global-access',
  'js/assembled-api-name',
  'js/constructor-constructor',
  'js/input-flows-to-sink',
  'manifest/invisible-character', 'manifest/tag-character',
  'manifest/confusable-text',
  'manifest/impersonation',
  'manifest/addressed-to-reviewer',
]);
const SUSPICIOUS_CODE = new Set(['js/network-api', 'js/eval-blocked', 'js/computed-global-access', 'js/assembled-api-name', 'js/constructor-constructor', 'js/input-flows-to-sink']);
const DECEPTIVE_TEXT = new Set(['manifest/invisible-character', 'manifest/tag-character', 'manifest/confusable-text', 'manifest/impersonation', 'manifest/addressed-to-reviewer']);
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
  const history = options.history !== undefined ? readHistory(options.history) : null;
  const baseline = options.baseline !== undefined ? loadBaseline(options.baseline) : null;
  const baselineCheck = baseline !== null ? runReleasePipeline(baseline.dir) : null;
  const check = runReleasePipeline(target);

  const extra = new FindingList();
  const fingerprint = check.result.publicKeyId;
  // The baseline or a stated first release settle the signer without --known-keys (their own findings say how).
  const vouched = baseline !== null || history !== null || options.firstRelease === true;
  let pinning = signerFindings(fingerprint, known, extra, vouched);
  checkDeceptiveText(manifestTexts(check.loaded.release.files['manifest.json']), extra);
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
    diff = withLineDiffs(diff, baselineCheck, check);
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
  let historyFacts: HistoryFacts | undefined;
  if (history !== null) {
    const written = manifestOf(check);
    const h = new FindingList();
    const out = historyFindings(history, written?.namespace?.value ?? null, written?.version?.value ?? null, fingerprint, h);
    findings = findings.concat(h.items);
    historyFacts = out.facts;
    // --known-keys, when given, has the last word on the key; otherwise the history's.
    if (known === null && signer !== 'unknown') {
      signer = out.signer;
      pinning = out.signer === 'pinned' ? 'pinned' : out.signer === 'new' ? 'new' : out.signer === 'not-pinned' ? 'not-pinned' : 'unknown';
    }
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
    ...(historyFacts !== undefined && { history: historyFacts }),
    code: codeReview(check, summary.capabilities.map((c) => c.key)),
    summary,
    ...(diff !== undefined && { diff }),
  };
}

/** Characters `--show` prints at most; the rest is counted (a bundle file can be large). */
export const SHOW_MAX_CHARS = 200_000;

/**
 * `platform-review <dir> --show <file>`: one file of the bundle as the hardened reader
 * verified it, decoded as UTF-8 (invalid bytes as U+FFFD), never written to disk. A path the
 * archive does not hold, or an archive that was refused, is a UsageError naming the files.
 */
export function showBundleFile(target: string, path: string): { readonly text: string; readonly cut: number } {
  const check = runReleasePipeline(target);
  const entries = check.result.bundleEntries;
  if (entries === undefined) throw new UsageError(`The archive of "${target}" could not be read: run platform-review without --show to see why`);
  const entry = entries.find((e) => e.path === path);
  if (entry === undefined) {
    const names = entries.slice(0, 20).map((e) => e.path).join(', ');
    throw new UsageError(`bundle.zip holds no file "${path}"; it holds: ${names}${entries.length > 20 ? `, and ${entries.length - 20} more` : ''}`);
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(entry.content);
  return text.length <= SHOW_MAX_CHARS ? { text, cut: 0 } : { text: text.slice(0, SHOW_MAX_CHARS), cut: text.length - SHOW_MAX_CHARS };
}
