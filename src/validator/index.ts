// Public entry of the standalone validator (dist/validator.mjs). Values in, findings out:
// no file system, no network, no DOM. The server side vendors this module as it is.
export * from './limits.js';
export { RULES, ruleById, type RuleDef } from './rules.js';
export { FindingList, sortFindings, jsonPointer, type Finding, type Severity, type Location } from './findings.js';
export { RUNTIME_POLICY_TEMPLATE, BASE_URL_PLACEHOLDER, FRAME_SANDBOX, runtimePolicy, BLOCKED_NETWORK_APIS } from './runtime-policy.js';
