// Public entry of the standalone validator (dist/validator.mjs). Values in, findings out:
// no file system, no network, no DOM. The server side vendors this module as it is.
export * from './limits.js';
export { RULES, ruleById, type RuleDef } from './rules.js';
export { FindingList, sortFindings, jsonPointer, type Finding, type Severity, type Location } from './findings.js';
export { RUNTIME_POLICY_TEMPLATE, BASE_URL_PLACEHOLDER, FRAME_SANDBOX, runtimePolicy, BLOCKED_NETWORK_APIS } from './runtime-policy.js';
export { bundleViewOf, type BundleView } from './scan.js';
export { validateProject, scanBundleFile, bundleFilePaths, hasContentScan, warmUpContentScans, type ProjectInput, type ValidateOptions, type ValidationResult, type ContentScan } from './validate.js';
export { validateManifest, type ManifestInfo } from './manifest.js';
export { validateSettings, PROPERTY_TYPES, type PropertyDef } from './properties.js';
export {
  checkBundleListing,
  findPrivateKeyMarker,
  PRIVATE_KEY_MARKERS,
  PRIVATE_KEY_MARKER_MAX_LENGTH,
  type BundleEntry,
} from './bundle.js';
export { checkFileSecrets, checkManifestSecrets, findTokens, isSecretScanned, TEXT_EXTENSIONS, TOKEN_NAMES, type TokenKind, type TokenMatch } from './secrets.js';
export { CAPABILITIES, CAPABILITY_KEYS, isCapabilityKey, capabilityByKey, type CapabilityDef } from './capabilities.js';
export { isNamespace, isSemver, isPropertyName, isColor, urlProblem } from './grammar.js';
export { pathProblem, extensionOf, type PathProblem } from './paths.js';
export { readJson, type JsonReadResult } from './json.js';
export { decodeUtf8, utf8ByteLength, groupDigits } from './text.js';
export { readZip, type InflateRaw, type InflateResult, type ZipReadResult, type ReadZipOptions, type ZipListingEntry } from './zip/read.js';
export { crc32 } from './zip/crc32.js';
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
} from './baseline.js';
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
  BRIDGE_PROTOCOL_DOC,
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
} from './bridge/protocol.js';
