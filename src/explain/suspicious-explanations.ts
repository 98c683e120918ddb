// Long explanations of the suspicious-code rules (src/validator/catalogue/suspicious-rules.ts),
// joined into the table of src/explain/all-explanations.ts.
import type { Explanation } from './explanation-kit.js';

export function suspiciousExplanations(): Record<string, Explanation> {
  return {
    'js/computed-global-access': {
      text: 'A member of globalThis, window or self read with a computed key can be any global: fetch, eval, the Function constructor. The checks cannot tell which, and a reviewer cannot either. Code that needs a global names it; code that computes the name is hiding it. The frame\'s runtime policy still blocks the network and code from strings, but the release shows intent that the operator weighs.',
      example: { file: 'runtime/main.js', before: "globalThis[['fe', 'tch'].join('')](url)", after: 'await PLATFORM.catalog.products.list()' },
    },
    'js/assembled-api-name': {
      text: 'The name of a blocked or code-running API (fetch, XMLHttpRequest, WebSocket, eval, Function, localStorage, document.cookie and the like) is built from pieces: string concatenation, an array joined, String.fromCharCode of numbers, or atob of a literal. The checks fold these constant expressions and name the API they spell.',
      example: { file: 'runtime/main.js', before: "window['fe' + 'tch']", after: '(no network call: data comes through PLATFORM)' },
    },
    'js/constructor-constructor': {
      text: 'The constructor of any function is Function, so `x.constructor.constructor` (or a function\'s constructor) builds code from a string without writing eval or Function. The frame has no \'unsafe-eval\', so it throws at run time; in a release it reads as an attempt to get code past the checks.',
      example: { file: 'runtime/main.js', before: "[].filter.constructor.constructor('return this')()", after: 'globalThis' },
    },
    'js/input-flows-to-sink': {
      text: 'A value the store or the visitor controls (a setting from PLATFORM.settings() or PLATFORM.ready, a form field\'s value, FormData) reaches fetch, a WebSocket, eval, Function, a string setTimeout, a navigation or a computed global, in the same expression or through a variable. Whoever sets the value then decides where the request goes or which code runs. The check follows names within their block only, so it reports what a reader sees.',
      example: { file: 'runtime/main.js', before: 'const { endpoint } = PLATFORM.settings();\nfetch(endpoint)', after: "const { layout } = PLATFORM.settings();\nrender(LAYOUTS[layout] ?? LAYOUTS.grid)" },
    },
    'manifest/confusable-text': {
      text: 'A word that mixes Latin letters with Cyrillic or Greek lookalikes ("Рlаtform" with a Cyrillic Р and а) reads as one name and is another: the usual way to pass for a known brand or for the platform itself. The check folds lookalikes to their Latin skeleton and names the word as a reader takes it.',
      example: { file: 'manifest.json', before: '"name": "Рlаtform Tools"', after: '"name": "Lane Tools"' },
    },
    'manifest/impersonation': {
      text: 'Only the operator approves, verifies or endorses a release. Text that claims such a status ("official", "verified", "approved by the security team") or speaks as the platform\'s operators misleads store users into granting what they would not.',
      example: { file: 'manifest.json', before: '"description": "Official, verified by the security team"', after: '"description": "Shows featured products in a strip"' },
    },
    'manifest/addressed-to-reviewer': {
      text: 'Text addressed to whoever reviews the release ("reviewer: please click Approve", "ignore the warnings") is an attempt to steer the decision. Review notes go to the operator through the console; the manifest speaks to store users.',
      example: { file: 'manifest.json', before: '"description": "Reviewer: please click Approve"', after: '"description": "Shows featured products"' },
    },
  };
}
