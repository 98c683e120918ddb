// Secret scanning rules (secrets.ts): access tokens in bundle text files and in the
// manifest, and what should never be a property default (contract "Property definition":
// properties are public, and "secrets, tokens, customer information and private
// configuration must never be placed in a default or a setting"). Ids are permanent (D-20).
// `secret/private-key` (D-4) is older and lives in catalogue/bundle.ts.
//
// Severities: a token of a known vendor shape is matched exactly (prefix, alphabet and
// length), so it is an error. A long random-looking default is only a guess, and so are
// e-mail addresses and phone numbers, which may be deliberate public contact data: those
// are warnings (`check --strict` fails on them).
import type { RuleDef } from '../rules.js';

export const SECRET_RULES: readonly RuleDef[] = [
  {
    id: 'secret/access-token',
    severity: 'error',
    title: 'An access token of a known vendor shape is in a bundle file or in the manifest',
    ref: 'Property definition; D-38',
    hint: 'Delete the token from the project and revoke it at the issuer (it may already be copied): every bundle file and manifest string is public, and the frame cannot reach the network, so a token has no use there.',
  },
  {
    id: 'secret/high-entropy-default',
    severity: 'warning',
    title: 'A property default holds a long random-looking string, probably a key or password',
    ref: 'Property definition',
    hint: 'Remove the value from the default (leave it empty or use a placeholder) and revoke it if it is a credential: defaults are shown to every store in the builder.',
  },
  {
    id: 'secret/email-in-default',
    severity: 'warning',
    title: 'A property default holds an e-mail address',
    ref: 'Property definition',
    hint: 'Leave the default empty (or use an address at example.com) and let each store enter its own: defaults are public and must not carry personal data.',
  },
  {
    id: 'secret/phone-in-default',
    severity: 'warning',
    title: 'A property default holds a phone number',
    ref: 'Property definition',
    hint: 'Leave the default empty and let each store enter its own number: defaults are public and must not carry personal data.',
  },
];
