// Long explanations of the operator's review rules (src/validator/catalogue/review-rules.ts),
// joined into the table of src/explain/all-explanations.ts.
import type { Explanation } from './explanation-kit.js';

export function reviewExplanations(): Record<string, Explanation> {
  return {
    'release/unknown-signing-key': {
      text: 'A publisher keeps one or more active keys, registered in the console; rotating means adding the new public key, signing with it, then revoking the old one (contract "Authentication" 5). platform-review --known-keys takes those active keys (public keys or fingerprints, one a line), and a release signed by any other key is refused: a valid signature by an unknown key proves only that someone holds that key, not that the publisher made the release.',
      example: { file: 'shell', before: 'platform-review release/ --known-keys acme.keys   (acme.keys lists 65b60673…; the release is signed by 1f0c9a2e…)', after: 'acme.keys lists 1f0c9a2e… after the publisher registered it in the console' },
    },
    'release/signer-not-pinned': {
      text: 'Without --known-keys, platform-review can check that the signature is valid for the key shipped beside it, but not that the key belongs to the publisher: anyone can re-package a release with a fresh key and it still verifies. Trusting the publisher is the operator\'s decision (contract rule 3 and "Authentication" 6), so the review says that the signer was not compared with the publisher\'s active keys.',
      example: { file: 'shell', before: 'platform-review release/', after: 'platform-review release/ --known-keys acme.keys' },
    },
    'baseline/signer-changed': {
      text: 'The approved baseline release and this one are signed by different keys. A changed fingerprint under an existing publisher identity is never accepted silently (contract "Authentication" 5): it is either a key rotation the publisher registered in the console, or someone else signing in the publisher\'s name. Passing the publisher\'s active keys with --known-keys settles which one it is.',
      example: { file: 'shell', before: 'platform-review release/ --baseline approved/1.0.0/', after: 'platform-review release/ --baseline approved/1.0.0/ --known-keys acme.keys' },
    },
    'history/version-already-approved': {
      text: 'The publisher\'s record (platform-review --history) holds an approved release of this namespace with this version. Stores pin an installed release by its version, so an approved version is never reused: a changed release needs a higher version.',
      example: { file: 'manifest.json', before: '"version": "1.2.0"   (1.2.0 approved on 2026-03-01)', after: '"version": "1.2.1"' },
    },
    'history/version-not-higher': {
      text: 'The last approved release of this namespace has a higher version than this one (or the same precedence). An update must be higher than what stores run, or the upgrade path breaks.',
      example: { file: 'manifest.json', before: '"version": "1.1.0"   (1.2.0 approved)', after: '"version": "1.3.0"' },
    },
    'history/signer-revoked': {
      text: 'The signing key is in the publisher\'s record, revoked. A revoked key may be in anyone\'s hands now: nothing it signs after its revocation is the publisher\'s.',
      example: { file: 'shell', before: 'signed by 1f0c9a2e… (revoked 2026-04-02)', after: 'signed by 65b60673… (active)' },
    },
    'history/signer-unknown': {
      text: 'The publisher exists, but the signing key is not one of their keys, active or revoked. A changed fingerprint under an existing publisher is never accepted silently: either the publisher forgot to register a new key, or someone else signed in their name.',
      example: { file: 'shell', before: 'signed by 9d41… (not in the publisher\'s keys)', after: 'the publisher registers 9d41… in the console, then submits again' },
    },
    'history/signer-new': {
      text: 'The signing key is an active key of the publisher that signed none of their approved releases: a first use after a rotation, or a first release. It is a warning so that a new key is always shown to the operator, never accepted silently.',
      example: { file: 'shell', before: 'signed by 65b6… (active since 2026-05-01, no approved release)', after: 'the operator confirms the rotation with the publisher' },
    },
    'history/publisher-revoked': {
      text: 'The publisher\'s record says the publisher is revoked: none of their releases may be approved until an operator restores them.',
      example: { file: 'history.json', before: '"state": "revoked"', after: '"state": "active"   (after the operator restores the publisher)' },
    },
    'history/namespace-changed': {
      text: 'The publisher\'s approved releases are under another namespace. A release under a new namespace is another extension, with its own installations: as an update it would strand every store that runs the old one.',
      example: { file: 'manifest.json', before: '"namespace": "acme/lanes2"   (acme/lanes approved)', after: '"namespace": "acme/lanes"' },
    },
  };
}
