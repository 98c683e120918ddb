// Rules of the release diff (`check --baseline <previous-release-dir>`, src/validator/release-diff.ts):
// what changes between an earlier submission set and the project means for stores that
// already run the earlier release (contract "Versioning"; "States and transitions",
// capability grant). Ids are permanent.
//
// Severities. The contract makes two changes impossible for a later release: a namespace
// is "immutable once registered", and "an approved version can never be reused" while a
// behaviour or source change "requires a higher version": both are errors (a correction of
// a submission that was never approved may reuse its version, which the message says).
// Property names and types "should" be kept (D-28): a removed or retyped property is a
// warning whose message names the consequence (saved settings of that property become
// settings the new release refuses), and `--strict` makes it fail. A narrowed property
// (options removed, a tighter range) breaks only the saved values that fall outside,
// which the tool cannot see: a warning too. Capability changes are legitimate
// but have consequences the publisher should plan for: an added capability stays off in
// every store until approved again, a removed one loses its grant for good; warnings.
import type { RuleDef } from '../rules.js';

export const BASELINE_RULES: readonly RuleDef[] = [
  {
    id: 'baseline/version-not-higher',
    severity: 'error',
    title: 'The version is not higher than the baseline release version',
    ref: 'Versioning; D-24; D-28',
    hint: 'Raise "version" above the baseline by semantic-version precedence (build metadata after "+" does not count; 1.0.0-rc.1 is lower than 1.0.0). Only a submission that was never approved may reuse its version.',
  },
  {
    id: 'baseline/namespace-changed',
    severity: 'error',
    title: 'The namespace differs from the baseline release',
    ref: 'Manifest; Versioning',
    hint: 'A namespace is immutable once registered: put the baseline namespace back, or publish a separate extension under the new namespace instead of an upgrade.',
  },
  {
    id: 'baseline/capability-added',
    severity: 'warning',
    title: 'A capability that the baseline release does not request',
    ref: 'States and transitions (capability grant); Versioning',
    hint: 'Every store that installed the earlier release must approve the new capability in a new permission review; until then calls reject with CAPABILITY_NOT_GRANTED, so handle that error. Remove the capability if it is not needed.',
  },
  {
    id: 'baseline/capability-removed',
    severity: 'warning',
    title: 'A capability of the baseline release is no longer requested',
    ref: 'States and transitions (capability grant); Versioning',
    hint: 'Stores lose the grant automatically on upgrade, and adding it back later needs a new approval: make sure no code still calls it, or keep it listed.',
  },
  {
    id: 'baseline/property-removed',
    severity: 'warning',
    title: 'A property of the baseline release is gone',
    ref: 'Property definition; Versioning; D-28',
    hint: 'Saved settings persist through upgrades, and a setting that names no property is refused: keep the definition (its label can say it is no longer used) and stop reading it in code.',
  },
  {
    id: 'baseline/property-retyped',
    severity: 'warning',
    title: 'A property\'s type no longer accepts the values saved under its baseline type',
    ref: 'Property definition; Versioning; D-7; D-28',
    hint: 'Saved settings keep their old values through upgrades: keep the baseline type (or one that accepts all its values, such as text to textarea), or add a property under a new name for the new type.',
  },
  {
    id: 'baseline/property-narrowed',
    severity: 'warning',
    title: 'A property accepts fewer values than in the baseline release',
    ref: 'Property definition; Versioning; D-7',
    hint: 'Saved values outside the new options or range would be refused after the upgrade: keep the removed options and the wider min/max, or make sure no store has saved them.',
  },
];
