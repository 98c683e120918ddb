// Long explanations of the config rules (src/validator/catalogue/config-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import { ACK_CONFIG_MAX_BYTES, ACK_REASON_MAX_CHARS } from '../validator/internal.js';
import { sizeText, type Explanation } from './explanation-kit.js';

/** platform-ext.config.json: acknowledged warnings (D-33, src/load/project-config.ts). */
export function configExplanations(): Record<string, Explanation> {
  const file = 'platform-ext.config.json';
  return {
    'config/invalid-json': {
      text: `A project may keep reviewed warnings in ${file}, beside manifest.json (D-33). check reads it as strictly as the manifest (D-5): one JSON object in UTF-8, no byte-order mark, no duplicate keys, no comments, a regular file rather than a symbolic link, and at most ${sizeText(ACK_CONFIG_MAX_BYTES)}. A file that cannot be read that way is an error rather than ignored, so that a typo never silently changes what a CI run reports.`,
      example: { file, before: '{ acknowledged: [] }   (keys without quotes)', after: '{"acknowledged": []}' },
    },
    'config/invalid-entry': {
      text: `The file holds one setting, "acknowledged": an array of entries, each an object with exactly three non-empty strings. "rule" is a rule id; "file" is the path a finding names, relative to the project ("runtime/vendor/chart.js"), or a folder ending in "/" to cover every file under it; "reason" (at most ${ACK_REASON_MAX_CHARS} characters) says why the warning is safe, for whoever reviews the project next. The pointer names the member that is wrong.`,
      example: { file, before: '{"acknowledged": [{"rule": "js/network-api", "path": "runtime/vendor/chart.js"}]}', after: '{"acknowledged": [{"rule": "js/network-api", "file": "runtime/vendor/chart.js", "reason": "feature test only: typeof fetch"}]}' },
    },
    'config/unknown-rule': {
      text: 'An acknowledgement covers the warnings of one rule, named by its permanent id. An id that no rule has can never match, usually because of a typo or an id copied from a message instead of the "rule" field of the finding.',
      example: { file, before: '"rule": "js/network"', after: '"rule": "js/network-api"' },
    },
    'config/error-acknowledged': {
      text: 'Acknowledging is for warnings a person has reviewed (D-33). Errors are what the store refuses at submission, whatever the project says about them, so an entry for a rule whose findings are errors is itself an error: the only way past it is to fix the finding.',
      example: { file, before: '{"rule": "bundle/extension-not-allowed", "file": "runtime/logo.svg", "reason": "needed"}', after: '(the entry removed; logo.svg converted to logo.png)' },
    },
    'config/unused-acknowledgement': {
      text: 'An entry that covers no warning means the code it was written for changed: the warning is gone, or moved to another file. Left in place, it would silently cover a new warning of the same rule in that file that nobody reviewed; remove it or point it at the file that now has the warning.',
      example: { file, before: '{"rule": "js/network-api", "file": "runtime/vendor/chart-3.js", "reason": "..."}   (the file is now chart-4.js)', after: '{"rule": "js/network-api", "file": "runtime/vendor/chart-4.js", "reason": "..."}' },
    },
  };
}
