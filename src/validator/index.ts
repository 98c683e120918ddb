// Public entry of the standalone validator (dist/validator.mjs). Values in, findings out:
// no file system, no network, no DOM. The server side vendors this module as it is.
export * from './limits.js';
export { RULES, ruleById, type RuleDef } from './rules.js';
export { FindingList, sortFindings, jsonPointer, type Finding, type Severity, type Location } from './findings.js';
export { RUNTIME_POLICY_TEMPLATE, BASE_URL_PLACEHOLDER, FRAME_SANDBOX, runtimePolicy, BLOCKED_NETWORK_APIS } from './runtime-policy.js';
export { validateProject, type ProjectInput, type ValidateOptions, type ValidationResult } from './validate.js';
export { validateManifest, MANIFEST_FIELD_NAMES, type ManifestInfo } from './manifest.js';
export type { ModuleFacts, CapabilityUse, NamedImport } from './js/js-policy.js';
export { checkSuspiciousCode as codeSites, type CodeSite, type CodeSiteKind } from './js/suspicious-code.js';
export { validateSettings, PROPERTY_TYPES, PROPERTY_FIELDS, OPTION_FIELDS, type PropertyDef } from './properties.js';
export {
  checkBundleListing,
  findPrivateKeyMarker,
  PRIVATE_KEY_MARKERS,
  PRIVATE_KEY_MARKER_MAX_LENGTH,
  type BundleEntry,
} from './bundle.js';
export {
  HIGH_ENTROPY_MIN_CHARS,
  PHONE_INTERNATIONAL_MAX_DIGITS,
  PHONE_INTERNATIONAL_MIN_DIGITS,
  PHONE_NATIONAL_MAX_DIGITS,
  PHONE_NATIONAL_MIN_DIGITS,
  checkFileSecrets, checkManifestSecrets, findTokens, isSecretScanned, TEXT_EXTENSIONS, TOKEN_NAMES, type TokenKind, type TokenMatch } from './secrets.js';
export { CAPABILITIES, CAPABILITY_KEYS, isCapabilityKey, capabilityByKey, suggestCapabilities, capabilityKeyHint, type CapabilityDef } from './capabilities.js';
export { isNamespace, isSemver, isSlug, isPropertyName, isColor, urlProblem } from './grammar.js';
export { pathProblem, extensionOf, type PathProblem } from './paths.js';
export { readJson, JSON_MAX_DEPTH, type JsonNode, type JsonReadResult } from './json.js';
export { decodeUtf8, escapeLines, escapeTerminal, formatSize, groupDigits, hasTerminalUnsafe, stringifyJson, utf8ByteLength, LineMap } from './text.js';
export { suggest } from './suggest.js';
export { HtmlTokenizer } from './html/html-tokenizer.js';
export { readZip, type InflateRaw, type InflateResult, type ZipReadResult, type ReadZipOptions, type ZipListingEntry } from './zip/read.js';
export { crc32 } from './zip/crc32.js';
export * as ZIP_FORMAT from './zip/zip-format.js';
export {
  validateRelease,
  signedPayload,
  artifactPath,
  parseBase64File,
  SUBMISSION_FILES,
  SUBMISSION_FORMAT,
  SUBMISSION_FILE_MAX_BYTES,
  SIGNED_PAYLOAD_HEADER,
  type ReleaseFiles,
  type RefusedFile,
  type ReleaseDeps,
  type ReleaseResult,
  type SubmissionFile,
} from './release.js';
export { encodeBase64, decodeBase64Strict } from './base64.js';
export {
  readReleaseManifest,
  diffReleases,
  compareSemver,
  savedValuesCarryOver,
  type ReleaseManifest,
  type ReleaseProperty,
  type Located,
  type DiffOptions,
} from './release-diff.js';
export { BRIDGE_ERROR_CODES, BRIDGE_ERROR_CODE_LIST, isBridgeErrorCode, defaultErrorMessage, type BridgeErrorCode, type BridgeError } from './bridge/errors.js';
export { copyPayload, messageSize, jsonStringBytes, FORBIDDEN_KEYS, type JsonValue, type JsonObject, type CopyResult, type PayloadFailureCode } from './bridge/payload.js';
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
  renderProtocolDoc,
  PROTOCOL_VERSION,
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
export { checkDeceptiveText, latinSkeleton, type ManifestText } from './deceptive-text.js';
