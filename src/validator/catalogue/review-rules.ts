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

/**
 * Rules of `platform-review --history`: the release against the publisher's record as the
 * service core exports it (contract "Versioning": an approved version is never reused;
 * "Authentication" 5 and 6: a changed or revoked key is never accepted silently).
 */
export const REVIEW_HISTORY_RULES: readonly RuleDef[] = [
  {
    id: 'history/version-already-approved',
    severity: 'error',
    title: 'This version of the extension was already approved',
    ref: 'Versioning',
    hint: 'An approved version is never reused: submit the change under a higher version.',
  },
  {
    id: 'history/version-not-higher',
    severity: 'error',
    title: 'The version is not higher than the last approved version',
    ref: 'Versioning',
    hint: 'Raise the version above the last approved one.',
  },
  {
    id: 'history/signer-revoked',
    severity: 'error',
    title: 'The release is signed by a key the publisher revoked',
    ref: 'Authentication 5 and 6',
    hint: 'Sign with one of the publisher\'s active keys: a revoked key signs nothing new.',
  },
  {
    id: 'history/signer-unknown',
    severity: 'error',
    title: 'The release is signed by a key the publisher never registered',
    ref: 'Authentication 5 and 6',
    hint: 'Register the key in the console (and revoke the old one), or sign with a registered key.',
  },
  {
    id: 'history/signer-new',
    severity: 'warning',
    title: 'The release is signed by a registered key that signed no approved release yet',
    ref: 'Authentication 5',
    hint: 'Nothing to fix if the publisher added this key: the review names it so that a new key is never accepted silently.',
  },
  {
    id: 'history/publisher-revoked',
    severity: 'error',
    title: 'The publisher is revoked',
    ref: 'Authentication 6; rule 3',
    hint: 'A revoked publisher submits nothing: the operator restores the publisher first, if at all.',
  },
  {
    id: 'history/namespace-changed',
    severity: 'error',
    title: 'The namespace differs from that of the publisher\'s approved releases',
    ref: 'Versioning; Manifest',
    hint: 'Keep the namespace of the approved releases, or submit the release as a new extension.',
  },
];
