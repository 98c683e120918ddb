// Rules of the operator's review (platform-review): whose key signed the release, and
// whether that key changed since the approved baseline (contract "Authentication" 5: a
// changed fingerprint under an existing publisher identity is never accepted silently;
// rule 3 of "What the service does": trusting the publisher is the operator's decision).
// Only platform-review reports them: it alone knows the publisher's active keys
// (--known-keys) and the approved release (--baseline). Ids are permanent. The catalogue
// lists each group after the other rules of its area.
import type { RuleDef } from '../rules.js';

export const REVIEW_RELEASE_RULES: readonly RuleDef[] = [
  {
    id: 'release/unknown-signing-key',
    severity: 'error',
    title: 'The release is signed by a key that is not among the publisher\'s active keys',
    ref: 'Authentication 5 and 6; rule 3',
    hint: 'The signing key is not one the publisher registered: ask the publisher to add it in the console (and revoke the old one) or to sign with a registered key.',
  },
  {
    id: 'release/signer-not-pinned',
    severity: 'warning',
    title: 'The signing key was not compared with the publisher\'s active keys',
    ref: 'Authentication 5 and 6; rule 3',
    hint: 'Pass the publisher\'s active public keys or fingerprints with --known-keys, so that a release signed by any other key is refused.',
  },
];

export const REVIEW_BASELINE_RULES: readonly RuleDef[] = [
  {
    id: 'baseline/signer-changed',
    severity: 'error',
    title: 'The release is signed by another key than the baseline release, and no known key vouches for it',
    ref: 'Authentication 5; Versioning',
    hint: 'A changed fingerprint is never accepted silently: confirm the rotation with the publisher and pass their active keys with --known-keys.',
  },
];
