// Public entry of the standalone validator (dist/validator.mjs, `platform-ext/validator`): values in, findings out, no
// file system, network or DOM. Each name has a line in docs/api.md (tested), at most 80; the rest is ./internal.ts.

// Limits of the contract: each number as `limits.NAME`, and the table of them all.
export * as limits from './limits.js';
export { LIMITS, type LimitEntry } from './limits.js';

// The rule catalogue and findings.
export { RULES, ruleById, type RuleDef } from './rules.js';
export { FindingList, sortFindings, type Finding, type Severity, type Location, type FindingListOptions } from './findings.js';

// Capabilities, property types and the grammar of manifest values.
export { CAPABILITIES, CAPABILITY_KEYS, isCapabilityKey, type CapabilityDef } from './capabilities.js';
export { PROPERTY_TYPES, type PropertyDef } from './properties.js';
export { isNamespace, isSemver, isPropertyName } from './grammar.js';

// Validating a manifest, settings and a project's files.
export { validateManifest, type ManifestInfo } from './manifest.js';
export { validateSettings } from './properties.js';
export { validateProject, type ProjectInput, type ValidateOptions, type ValidationResult, type PropertyHint } from './validate.js';
export type { BundleEntry } from './bundle.js';

// Validating a release (a submission set), its signing payload and the key fingerprint.
export {
  validateRelease,
  signedPayload,
  artifactPath,
  publicKeyFingerprint,
  SUBMISSION_FILES,
  SUBMISSION_FORMAT,
  SUBMISSION_FILE_MAX_BYTES,
  SIGNED_PAYLOAD_HEADER,
  type ReleaseFiles,
  type ReleaseOptions,
  type RefusedFile,
  type ReleaseDeps,
  type ReleaseResult,
  type SubmissionFile,
} from './release.js';

// Reading an archive.
export { readZip, type InflateRaw, type InflateResult, type ZipReadResult, type ReadZipOptions, type ZipListingEntry } from './zip/read.js';

// The release diff against an approved baseline, as findings and as data.
export { readReleaseManifest, diffReleases, releaseChanges, compareSemver, type ReleaseManifest, type ReleaseChange, type DiffOptions } from './release-diff.js';

// Error codes of the bridge, the protocol version, and what the store serves a frame with.
export { BRIDGE_ERROR_CODES, BRIDGE_ERROR_CODE_LIST, isBridgeErrorCode, type BridgeErrorCode } from './bridge/errors.js';
export { PROTOCOL_VERSION } from './bridge/protocol.js';
export { runtimePolicy, FRAME_SANDBOX } from './runtime-policy.js';
