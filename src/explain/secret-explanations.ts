// Long explanations of the secret rules (src/validator/catalogue/secret-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import { HIGH_ENTROPY_MIN_CHARS, PHONE_INTERNATIONAL_MAX_DIGITS, PHONE_INTERNATIONAL_MIN_DIGITS, PHONE_NATIONAL_MAX_DIGITS, PHONE_NATIONAL_MIN_DIGITS } from '../validator/internal.js';
import type { Explanation } from './explanation-kit.js';

// Secret scanning (src/validator/secrets.ts). Examples never hold a whole token: this
// text ships in the CLI, and a full-shape sample would be reported by every scanner.
export function secretExplanations(): Record<string, Explanation> {
  return {
    'secret/access-token': {
      text: 'Every file under runtime/ is downloaded by the browsers of the shoppers of every store that installs the extension, and every string of manifest.json is public (contract "Property definition": secrets and tokens must never be placed in a default or a setting). The frame cannot reach the network at all (connect-src \'none\'), so a token in the bundle has no use and is only a leak. The scan looks for exact vendor shapes: GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab (glpat-), Slack tokens (xoxb- and the other xox?- kinds, xapp-) and incoming-webhook URLs, Stripe secret and restricted live keys (sk_live_, rk_live_), AWS access key ids (AKIA, ASIA), Google API keys (AIza), npm tokens (npm_), SendGrid keys (SG.), Shopify tokens (shpat_, shpca_, shppa_, shpss_) and signed JSON Web Tokens, each with its alphabet and length and a word boundary on both sides. A token that was ever in a file that left your machine must be treated as stolen: revoke it at the issuer, then delete it. In the manifest this is the contract\'s rule; in a bundle file it is this tool\'s own decision (D-38), kept as an error: a bundle is served to every visitor of every store that installs it, so the contract\'s rule against secrets in public defaults applies to it with more force.',
      example: {
        file: 'runtime/main.js',
        before: 'const client = new Api({ token: "ghp_Xy12..." });   (a whole 40-character token)',
        after: 'const client = new Api();   (the host does any authenticated work; the token is revoked)',
      },
    },
    'secret/high-entropy-default': {
      text: `Property defaults are shown to every store in the builder and sent to the frame as settings, so they are public (contract "Property definition"). A default with a run of at least ${HIGH_ENTROPY_MIN_CHARS} base64 or hex characters that looks random (hex digits of high Shannon entropy, or upper case, lower case and digits mixed as random text mixes them) is most likely a key, a password or a signed URL. In url and image defaults only the query and fragment are judged, because paths often hold content hashes. It is a warning because the shape alone cannot prove a secret; check --strict fails on it.`,
      example: {
        file: 'manifest.json',
        before: '"api_key": {"type": "text", "label": "API key", "default": "q8Vd2LmZ7xT4..."}   (a real key)',
        after: '"api_key": {"type": "text", "label": "API key", "help": "Each store enters its own key."}',
      },
    },
    'secret/email-in-default': {
      text: 'Defaults are public and shared by every store that installs the extension, so a default must not carry personal data such as someone\'s e-mail address (contract "Property definition": customer information must never be placed in a default). Leave the default empty and let each store enter its own address. Addresses at the domains reserved for examples (example.com, example.net, example.org and the .example, .test, .invalid and .localhost names) are placeholders and are not reported.',
      example: {
        file: 'manifest.json',
        before: '"contact": {"type": "text", "label": "Contact e-mail", "default": "jane.doe@acme-shop.com"}',
        after: '"contact": {"type": "text", "label": "Contact e-mail", "default": "you@example.com"}',
      },
    },
    'secret/phone-in-default': {
      text: `Defaults are public and shared by every store, so a default must not carry personal data such as a phone number (contract "Property definition"). Reported shapes: an international number (+, a country code that does not start with 0, ${PHONE_INTERNATIONAL_MIN_DIGITS} to ${PHONE_INTERNATIONAL_MAX_DIGITS} digits in all, E.164), or a national number of ${PHONE_NATIONAL_MIN_DIGITS} or ${PHONE_NATIONAL_MAX_DIGITS} digits in groups that starts with 0 or an area code in parentheses, or is grouped 3-3-4. Dates, times, prices, versions and colors do not have these shapes. Leave the default empty and let each store enter its own number.`,
      example: {
        file: 'manifest.json',
        before: '"phone": {"type": "text", "label": "Phone", "default": "+44 20 7946 0958"}',
        after: '"phone": {"type": "text", "label": "Phone", "help": "Shown on the contact card, for example +44 20 ..."}',
      },
    },
  };
}
