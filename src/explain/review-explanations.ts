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
  };
}
