import type { CodeSite } from '../validator/internal.js';
// The verdict, risk summary and history facts of platform-review as data (src/ops/review-release.ts
// computes them; the renderers and the JSON report print them).

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

/** What --history says of this release, in the JSON report. */
export interface HistoryFacts {
  readonly publisher: string;
  readonly publisher_state: 'active' | 'revoked';
  /** The highest approved version of this namespace; null when none. */
  readonly last_approved: string | null;
  readonly approved_versions: readonly string[];
}


/** The code behind each declared capability and each risky API (call sites with an excerpt). */
export interface CodeReview {
  readonly capabilities: readonly { readonly key: string; readonly used: boolean; readonly sites: readonly CodeSite[] }[];
  readonly apis: readonly { readonly kind: 'network' | 'code-from-string' | 'navigation' | 'storage'; readonly sites: readonly CodeSite[] }[];
}
