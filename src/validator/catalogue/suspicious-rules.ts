// Rules of suspicious code (src/validator/js/suspicious-code.ts): JavaScript that hides what
// it calls from a reader and from the checks of js-policy. The runtime policy still blocks
// what it blocks; these say that the code tries to hide it, which an operator weighs as
// intent. Ids are permanent.
import type { RuleDef } from '../rules.js';

export const SUSPICIOUS_CODE_RULES: readonly RuleDef[] = [
  {
    id: 'js/computed-global-access',
    severity: 'warning',
    title: 'A member of the global object is read with a key that is not a literal',
    ref: 'What the service does (rule 5); D-17',
    hint: 'Call the function by its name (or through the PLATFORM bridge): globalThis[key] hides which global is used.',
  },
  {
    id: 'js/assembled-api-name',
    severity: 'warning',
    title: 'The name of a blocked API is assembled from pieces',
    ref: 'What the service does (rule 5); D-17',
    hint: 'Write the name as it is, or better remove the call: the frame blocks the API, and a hidden name reads as an attempt to get past the checks.',
  },
  {
    id: 'js/constructor-constructor',
    severity: 'warning',
    title: 'constructor.constructor reaches the Function constructor',
    ref: 'D-17',
    hint: "Use ordinary functions: the runtime policy has no 'unsafe-eval', so code built from strings throws.",
  },
  {
    id: 'js/input-flows-to-sink',
    severity: 'warning',
    title: 'A store setting or a form value flows into a network call, code from strings, navigation or a computed global',
    ref: 'What the service does (rule 5); D-17',
    hint: 'Let the input choose among values written in the code (a lookup table, a fixed URL), never be the URL, the code or the global name itself.',
  },
];
