// The long form of every catalogued rule, for `check --explain <rule-id>` and the SARIF
// rule descriptors, one file per catalogue file (src/explain/<area>-explanations.ts beside
// src/validator/catalogue/<area>-rules.ts): why the rule exists (the attack or the disagreement it prevents), what
// exactly it checks, and a short before/after of a fix. The catalogue's one-line title,
// severity, contract reference and hint stay in src/validator/catalogue/ (that module is
// vendored by the server side and kept small); these texts live on the Node side only.
// Ids here must match the catalogue exactly: test/explain/explain.test.mjs fails on a rule without
// an entry and on an entry without a rule. Contract numbers come from limits.ts.
import type { Explanation } from './explanation-kit.js';
import { manifestExplanations } from './manifest-explanations.js';
import { propertyExplanations } from './property-explanations.js';
import { bundleExplanations } from './bundle-explanations.js';
import { htmlExplanations } from './html-explanations.js';
import { cssExplanations } from './css-explanations.js';
import { jsExplanations } from './js-explanations.js';
import { releaseExplanations } from './release-explanations.js';
import { archiveExplanations } from './archive-explanations.js';
import { baselineExplanations } from './baseline-explanations.js';
import { secretExplanations } from './secret-explanations.js';
import { configExplanations } from './config-explanations.js';
import { reviewExplanations } from './review-explanations.js';
import { suspiciousExplanations } from './suspicious-explanations.js';

export type { Explanation, FixExample } from './explanation-kit.js';

let table: Readonly<Record<string, Explanation>> | undefined;

/**
 * Every explanation, keyed by rule id. Built on first use: a plain `check` never needs the
 * texts, so start-up (bench/check.mjs) does not pay for them.
 */
export function allExplanations(): Readonly<Record<string, Explanation>> {
  table ??= Object.freeze({
    ...manifestExplanations(),
    ...propertyExplanations(),
    ...bundleExplanations(),
    ...htmlExplanations(),
    ...cssExplanations(),
    ...jsExplanations(),
    ...suspiciousExplanations(),
    ...releaseExplanations(),
    ...archiveExplanations(),
    ...baselineExplanations(),
    ...secretExplanations(),
    ...reviewExplanations(),
    ...configExplanations(),
  });
  return table;
}

export function explanationOf(ruleId: string): Explanation | undefined {
  const all = allExplanations();
  return Object.prototype.hasOwnProperty.call(all, ruleId) ? all[ruleId] : undefined;
}
