// Internal entry: the public index plus what the rest of src/ uses of the validator; no API promise (src/service/
// imports only ./index.ts). Public names are listed one by one: a star re-export would leave platform-review's bundle
// (the index as sibling dist/validator.mjs) unable to bind any name statically.
export {
  artifactPath,
  BRIDGE_ERROR_CODE_LIST,
  BRIDGE_ERROR_CODES,
  CAPABILITIES,
  CAPABILITY_KEYS,
  compareSemver,
  diffReleases,
  FindingList,
  FRAME_SANDBOX,
  isBridgeErrorCode,
  isCapabilityKey,
  isNamespace,
  isPropertyName,
  isSemver,
  LIMITS,
  limits,
  PROPERTY_TYPES,
  PROTOCOL_VERSION,
  publicKeyFingerprint,
  readReleaseManifest,
  readZip,
  releaseChanges,
  ruleById,
  RULES,
  runtimePolicy,
  SIGNED_PAYLOAD_HEADER,
  signedPayload,
  sortFindings,
  SUBMISSION_FILE_MAX_BYTES,
  SUBMISSION_FILES,
  SUBMISSION_FORMAT,
  validateManifest,
  validateProject,
  validateRelease,
  validateSettings,
  type BridgeErrorCode,
  type BundleEntry,
  type CapabilityDef,
  type DiffOptions,
  type Finding,
  type FindingListOptions,
  type InflateRaw,
  type InflateResult,
  type LimitEntry,
  type Location,
  type ManifestInfo,
  type ProjectInput,
  type PropertyDef,
  type ReadZipOptions,
  type RefusedFile,
  type ReleaseChange,
  type ReleaseDeps,
  type ReleaseFiles,
  type ReleaseManifest,
  type ReleaseOptions,
  type ReleaseResult,
  type RuleDef,
  type Severity,
  type SubmissionFile,
  type ValidateOptions,
  type ValidationResult,
  type PropertyHint,
  type ZipListingEntry,
  type ZipReadResult,
} from './index.js';
export * from './limits.js';
export { jsonPointer } from './findings.js';
export { RUNTIME_POLICY_TEMPLATE, BASE_URL_PLACEHOLDER, BLOCKED_NETWORK_APIS } from './runtime-policy.js';
export { MANIFEST_FIELD_NAMES } from './manifest.js';
export type { ModuleFacts, CapabilityUse, NamedImport } from './js/js-policy.js';
export { PROPERTY_FIELDS, OPTION_FIELDS } from './properties.js';
export {
  checkBundleListing,
  findPrivateKeyMarker,
  PRIVATE_KEY_MARKERS,
  PRIVATE_KEY_MARKER_MAX_LENGTH,
} from './bundle.js';
export {
  HIGH_ENTROPY_MIN_CHARS,
  PHONE_INTERNATIONAL_MAX_DIGITS,
  PHONE_INTERNATIONAL_MIN_DIGITS,
  PHONE_NATIONAL_MAX_DIGITS,
  PHONE_NATIONAL_MIN_DIGITS,
  checkFileSecrets,
  checkManifestSecrets,
  findTokens,
  isSecretScanned,
  TEXT_EXTENSIONS,
  TOKEN_NAMES,
  type TokenKind,
  type TokenMatch,
} from './secrets.js';
export { capabilityByKey, suggestCapabilities, capabilityKeyHint } from './capabilities.js';
export { isSlug, isColor, urlProblem } from './grammar.js';
export { pathProblem, extensionOf, type PathProblem } from './paths.js';
export { readJson, JSON_MAX_DEPTH, type JsonNode, type JsonReadResult } from './json.js';
export {
  decodeUtf8,
  escapeLines,
  escapeTerminal,
  formatSize,
  groupDigits,
  hasTerminalUnsafe,
  stringifyJson,
  utf8ByteLength,
  LineMap,
} from './text.js';
export { suggest } from './suggest.js';
export { HtmlTokenizer } from './html/html-tokenizer.js';
export { crc32 } from './zip/crc32.js';
export * as ZIP_FORMAT from './zip/zip-format.js';
export { parseBase64File } from './release.js';
export { encodeBase64, decodeBase64Strict } from './base64.js';
export { savedValuesCarryOver, type ReleaseProperty, type Located } from './release-diff.js';
export { defaultErrorMessage, type BridgeError } from './bridge/errors.js';
export {
  copyPayload,
  messageSize,
  jsonStringBytes,
  FORBIDDEN_KEYS,
  type JsonValue,
  type JsonObject,
  type CopyResult,
  type PayloadFailureCode,
} from './bridge/payload.js';
export {
  checkRequest,
  checkStructure,
  checkCall,
  actionSpec,
  isDate,
  isDateTimeWithOffset,
  ACTION_SPECS,
  FORM_FIELDS,
  CONTACT_STRICT_FIELDS,
  type AnalyticsProperties,
  type AvailabilityQuery,
  type BookingDetails,
  type CartDetails,
  type CatalogQuery,
  type ContactFields,
  type FormName,
  type NewsletterFields,
  type WaiverKind,
  type ActionSpec,
  type FieldSpec,
  type FieldKind,
  type RequestInput,
  type RequestCheck,
  type StructureCheck,
  type CallCheck,
  type CheckFailure,
  type NormalizedRequest,
} from './bridge/requests.js';
export {
  MESSAGE_TYPES,
  CONFIG_META_NAME,
  RUNTIME_MODULE_PATH,
  CART_UPDATED_EVENT,
  THEME_FIELDS,
  requestEnvelopeBytes,
  parsePlatformConfig,
  isPlatformConfig,
  isInitMessage,
  isReadyMessage,
  isGrantsMessage,
  isSettingsMessage,
  isRequestMessage,
  isResponseMessage,
  isHostToFrameMessage,
  isSettingsSnapshot,
  isCapabilityList,
  isMessageId,
  type PlatformConfig,
  type SettingsSnapshot,
  type CartUpdatedDetail,
  type RawRequestMessage,
  type RequestMessage,
  type ResponseMessage,
  type SettingValue,
  type ThemeField,
} from './bridge/protocol.js';

// The review's code sites and deceptive-text checks (platform-review).
export { checkSuspiciousCode as codeSites, type CodeSite, type CodeSiteKind } from './js/suspicious-code.js';
export { checkDeceptiveText, latinSkeleton, type ManifestText } from './deceptive-text.js';
