// `check --explain <rule-id>`: one rule in full, as one value (render/explanation-text.ts
// writes it as text; --json prints it as it is). The catalogue gives the id, severity,
// title, contract reference and hint; all-explanations.ts gives the paragraph and the
// before/after example.
import { RULES, ruleById, suggest, type RuleDef, type Severity } from '../validator/internal.js';
import { UsageError } from '../node/usage-error.js';
import { CONTRACT_VERSION } from '../contract/versions.js';
import { explanationOf, type FixExample } from './all-explanations.js';

export const EXPLAIN_FORMAT = 'platform-extension-explain-v1';

export interface RuleExplanation {
  readonly format: typeof EXPLAIN_FORMAT;
  /** The contract version the rule belongs to (as in contract-snapshot/rules.json). */
  readonly contract: typeof CONTRACT_VERSION;
  readonly id: string;
  readonly severity: Severity;
  readonly title: string;
  /** The contract sections and decisions (D-n) the rule applies. */
  readonly ref: string;
  readonly hint: string;
  readonly explanation: string;
  readonly example: FixExample;
}

/** Rule ids near a mistyped one: close spelling first, then the same name in other areas. */
function nearRuleIds(input: string): string[] {
  const ids = RULES.map((r) => r.id);
  const lower = input.trim().toLowerCase();
  if (ids.includes(lower)) return [lower];
  const close = suggest(lower, ids);
  if (close !== undefined) return [close];
  // "unknown-field" or "css/unknown-field": the name part alone, in whichever areas have it.
  const name = lower.includes('/') ? lower.slice(lower.indexOf('/') + 1) : lower;
  const names = [...new Set(ids.map((id) => id.slice(id.indexOf('/') + 1)))];
  const nearName = names.includes(name) ? name : suggest(name, names);
  return nearName === undefined ? [] : ids.filter((id) => id.endsWith(`/${nearName}`));
}

/** The catalogued rule with this id; anything else is a usage error that suggests the nearest ids. */
export function findRule(id: string): RuleDef {
  const rule = ruleById(id);
  if (rule !== undefined) return rule;
  const near = nearRuleIds(id);
  const list = 'run "platform-ext check --list-rules" for every rule id';
  const hint =
    near.length === 0
      ? `: ${list}`
      : `: did you mean ${near.length === 1 ? `"${near[0]}"` : `one of ${near.map((n) => `"${n}"`).join(', ')}`}? (${list})`;
  throw new UsageError(`Unknown rule "${id}"${hint}`);
}

export function explainRule(rule: RuleDef): RuleExplanation {
  const long = explanationOf(rule.id);
  // Every catalogued rule has an entry (test/explain/explain.test.mjs); a gap is our bug, not the user's.
  if (long === undefined) throw new Error(`internal: rule ${rule.id} has no explanation`);
  return {
    format: EXPLAIN_FORMAT,
    contract: CONTRACT_VERSION,
    id: rule.id,
    severity: rule.severity,
    title: rule.title,
    ref: rule.ref,
    hint: rule.hint,
    explanation: long.text,
    example: long.example,
  };
}
