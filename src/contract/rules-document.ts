// The rule catalogue as one JSON document, written once: contract-snapshot/rules.json holds
// it, and `check --list-rules --json` prints it, so that the format id names one shape.
import { RULES } from '../validator/internal.js';
import { CONTRACT_VERSION } from './versions.js';

export const RULES_FORMAT = 'platform-extension-rules-v1';

/** Every catalogued rule, with the format id and the contract version the tool enforces. */
export function rulesDocument(): { readonly format: typeof RULES_FORMAT; readonly contract: typeof CONTRACT_VERSION; readonly rules: typeof RULES } {
  return { format: RULES_FORMAT, contract: CONTRACT_VERSION, rules: RULES };
}
