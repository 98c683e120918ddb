// Rules of deceptive text in the manifest (src/validator/deceptive-text.ts), reported by the
// operator's review: strings that store users and operators read. Ids are permanent.
import type { RuleDef } from '../rules.js';

export const DECEPTIVE_TEXT_RULES: readonly RuleDef[] = [
  {
    id: 'manifest/confusable-text',
    severity: 'warning',
    title: 'A word of the manifest mixes Latin letters with lookalikes from another script',
    ref: 'D-29a',
    hint: 'Write each word in one script: a Cyrillic "а" in a Latin word makes it look like another name.',
  },
  {
    id: 'manifest/impersonation',
    severity: 'warning',
    title: 'Manifest text claims an official status or the platform\'s voice',
    ref: 'What the service does (rule 3)',
    hint: 'Describe what the extension does; only the operator approves, verifies or endorses a release.',
  },
  {
    id: 'manifest/addressed-to-reviewer',
    severity: 'warning',
    title: 'Manifest text is addressed to the reviewer',
    ref: 'What the service does (rule 3)',
    hint: 'Write for the store user: review notes go to the operator through the console, not into the manifest.',
  },
];
