// The rule catalogue: permanent `area/kebab-name` ids (D-20; a retired id is never reused), severity, title, reference
// and fix hint. Each area keeps its rules in catalogue/<area>.ts; this module joins them and checks the ids.
import type { Severity } from './findings.js';
import { MANIFEST_RULES } from './catalogue/manifest-rules.js';
import { DECEPTIVE_TEXT_RULES } from './catalogue/deceptive-rules.js';
import { PROPERTY_RULES } from './catalogue/property-rules.js';
import { BUNDLE_RULES, PROJECT_RULES } from './catalogue/bundle-rules.js';
import { HTML_RULES } from './catalogue/html-rules.js';
import { CSS_RULES } from './catalogue/css-rules.js';
import { JS_RULES } from './catalogue/js-rules.js';
import { SUSPICIOUS_CODE_RULES } from './catalogue/suspicious-rules.js';
import { RELEASE_RULES } from './catalogue/release-rules.js';
import { ARCHIVE_RULES } from './catalogue/archive-rules.js';
import { BASELINE_RULES } from './catalogue/baseline-rules.js';
import { SECRET_RULES } from './catalogue/secret-rules.js';
import { REVIEW_BASELINE_RULES, REVIEW_HISTORY_RULES, REVIEW_RELEASE_RULES } from './catalogue/review-rules.js';
import { CONFIG_RULES } from './catalogue/config-rules.js';

export interface RuleDef {
  /** Permanent id, `area/kebab-name`. */
  readonly id: string;
  readonly severity: Severity;
  /** One line, sentence case, no trailing period. */
  readonly title: string;
  /** Contract section and decisions, for example `Manifest; D-5`. */
  readonly ref: string;
  /** How to fix it, one or two sentences. */
  readonly hint: string;
}

const RULE_ID = /^[a-z]+\/[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const RULES: readonly RuleDef[] = [
  ...MANIFEST_RULES,
  ...DECEPTIVE_TEXT_RULES,
  ...PROPERTY_RULES,
  ...PROJECT_RULES,
  ...BUNDLE_RULES,
  ...HTML_RULES,
  ...CSS_RULES,
  ...JS_RULES,
  ...SUSPICIOUS_CODE_RULES,
  ...RELEASE_RULES,
  ...REVIEW_RELEASE_RULES,
  ...ARCHIVE_RULES,
  ...BASELINE_RULES,
  ...REVIEW_BASELINE_RULES,
  ...REVIEW_HISTORY_RULES,
  ...SECRET_RULES,
  ...CONFIG_RULES,
];

const BY_ID = new Map<string, RuleDef>();
for (const rule of RULES) {
  if (!RULE_ID.test(rule.id)) throw new Error(`internal: malformed rule id ${rule.id}`);
  if (BY_ID.has(rule.id)) throw new Error(`internal: duplicate rule id ${rule.id}`);
  BY_ID.set(rule.id, rule);
}

/** True for a well-formed rule id, `area/kebab-name`. */
export function isRuleId(id: string): boolean {
  return RULE_ID.test(id);
}

export function ruleById(id: string): RuleDef | undefined {
  return BY_ID.get(id);
}
