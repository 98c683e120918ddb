import type { RuleDef } from '../rules.js';

// Rules of the project's own settings file, platform-ext.config.json (D-33): a list of
// reviewed warnings to report as acknowledged. The file sits beside manifest.json, outside
// runtime/, is never packaged and never read by the server side; only `check` reads it.
// A file that cannot be read as settings is an error, so that a typo never silently
// stops acknowledging (or starts failing) a CI run.
export const CONFIG_RULES: readonly RuleDef[] = [
  {
    id: 'config/invalid-json',
    severity: 'error',
    title: 'platform-ext.config.json is not one strict JSON object',
    ref: 'D-33; D-5',
    hint: 'Write the file as one JSON object in UTF-8 without a byte-order mark, duplicate keys or comments, for example {"acknowledged": []}; it must be a regular file, not a link.',
  },
  {
    id: 'config/invalid-entry',
    severity: 'error',
    title: 'A member of platform-ext.config.json has the wrong shape',
    ref: 'D-33',
    hint: 'The file holds only "acknowledged": an array of objects, each with exactly "rule" (a rule id), "file" (a project path such as "runtime/vendor/chart.js", or a folder ending in "/") and "reason" (why the warning is safe), all non-empty strings.',
  },
  {
    id: 'config/unknown-rule',
    severity: 'error',
    title: 'An acknowledgement names a rule that does not exist',
    ref: 'D-33',
    hint: 'Copy the rule id from the finding (check --json prints it as "rule"), or from check --list-rules.',
  },
  {
    id: 'config/error-acknowledged',
    severity: 'error',
    title: 'An acknowledgement names a rule whose findings are errors',
    ref: 'D-33; D-21',
    hint: 'Errors can never be acknowledged: the store refuses a bundle that has one. Fix the finding and remove the entry.',
  },
  {
    id: 'config/unused-acknowledgement',
    severity: 'warning',
    title: 'An acknowledgement matches no warning',
    ref: 'D-33',
    hint: 'Remove the entry, or correct its "rule" or "file": the warning it was written for is gone or has moved.',
  },
];
