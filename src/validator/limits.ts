// Every number of the contract lives here and nowhere else (house principle 3), naming its contract section;
// contract-snapshot/limits.json is generated from LIMITS.

/** Manifest: "A UTF-8 JSON object of at most 65,536 bytes" (Manifest; Limits). */
export const MANIFEST_MAX_BYTES = 65_536;
/** Manifest `capabilities`: up to 32 unique keys (Manifest; Limits). */
export const MAX_CAPABILITIES = 32;
/** Manifest `properties`: up to 64 definitions (Manifest; Limits). */
export const MAX_PROPERTIES = 64;
/** Manifest `name`: 1 to 120 UTF-8 bytes (Manifest; Limits). */
export const NAME_MIN_BYTES = 1;
export const NAME_MAX_BYTES = 120;
/** Manifest `description`: up to 500 UTF-8 bytes (Manifest; Limits). */
export const DESCRIPTION_MAX_BYTES = 500;
/** Manifest `entrypoint`: at most 255 characters, UTF-16 code units per D-10 (Manifest; Limits). */
export const ENTRYPOINT_MAX_CHARS = 255;
/** Property names: at most 64 characters in total (Manifest). */
export const PROPERTY_NAME_MAX_CHARS = 64;
/** Property `label`: 1 to 100 bytes (Property definition; Limits). */
export const LABEL_MIN_BYTES = 1;
export const LABEL_MAX_BYTES = 100;
/** Property `help`: up to 300 bytes (Property definition; Limits). */
export const HELP_MAX_BYTES = 300;
/** Select `options`: 1 to 100 entries (Property definition; Limits). */
export const SELECT_OPTIONS_MIN = 1;
export const SELECT_OPTIONS_MAX = 100;
/** Select option `label` and `value`: strings of 1 to 100 characters, UTF-16 code units per D-10 (Property definition). */
export const OPTION_TEXT_MIN_CHARS = 1;
export const OPTION_TEXT_MAX_CHARS = 100;
/** Default and setting value sizes in UTF-8 bytes, by type (Property definition; Limits). */
export const VALUE_MAX_BYTES = {
  color: 9,
  image: 2048,
  select: 500,
  text: 500,
  textarea: 4096,
  url: 2048,
} as const;
/** All defaults together, and saved settings, measured per D-6 (Property definition; Limits). */
export const DEFAULTS_MAX_BYTES = 16_384;
export const SETTINGS_MAX_BYTES = 16_384;

/** Bundle (Bundle; Limits). */
export const BUNDLE_MAX_COMPRESSED_BYTES = 5_242_880;
export const BUNDLE_MAX_EXPANDED_BYTES = 20_971_520;
export const BUNDLE_MAX_FILE_BYTES = 5_242_880;
export const BUNDLE_MAX_FILES = 200;
export const BUNDLE_MAX_COMPRESSION_RATIO = 100;
/** D-4, D-30: the largest file outside the bundle the private-key scan reads (a tool bound); a larger one is refused
 * by its reported size and named in a warning, never read to its end. */
export const KEY_SCAN_MAX_BYTES = 268_435_456;
/** D-2a: a bundle path (every ZIP entry name and runtime/-relative path) is at most this many bytes, the entrypoint's limit. */
export const BUNDLE_PATH_MAX_BYTES = 255;
/** Allowed bundle file extensions, compared ASCII-case-insensitively per D-2 (Bundle). */
export const ALLOWED_EXTENSIONS = ['avif', 'css', 'gif', 'html', 'jpeg', 'jpg', 'js', 'mjs', 'png', 'webp', 'woff', 'woff2'] as const;

/** Bridge (Runtime frame; Limits). */
export const INITIALIZATION_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 10_000;
export const MAX_PENDING_CALLS = 64;
export const MESSAGE_MAX_BYTES = 65_536;
export const PAYLOAD_MAX_DEPTH = 12;
export const PAYLOAD_MAX_NODES = 2000;
export const PAYLOAD_MAX_COLLECTION_ENTRIES = 500;
export const PAYLOAD_MAX_OBJECT_ENTRIES = 200;

/** Capability request bounds (Capabilities and operations; Limits). Characters are UTF-16 code units (D-10). */
export const ANALYTICS_EVENT_MAX_CHARS = 120;
export const ANALYTICS_LABEL_MAX_CHARS = 160;
export const CATALOG_SEARCH_MAX_CHARS = 200;
export const CATALOG_PAGE_MIN = 1;
export const CATALOG_PAGE_MAX = 1000;
export const CATALOG_LIMITS = [12, 24] as const;
export const CART_QUANTITY_MIN = 1;
export const CART_QUANTITY_MAX = 999;
export const BOOKING_DURATION_MIN = 5;
export const BOOKING_DURATION_MAX = 720;
export const BOOKING_TIME_MAX_CHARS = 40;
export const SMS_MESSAGE_MAX_CHARS = 500;
export const FORM_EMAIL_MAX_CHARS = 255;
export const FORM_PHONE_MAX_CHARS = 50;
export const FORM_NAME_MAX_CHARS = 255;
export const FORM_SUBJECT_MAX_CHARS = 255;
export const FORM_MESSAGE_MAX_CHARS = 5000;
export const FORM_QUESTION_TYPE_MIN = 1;
export const FORM_QUESTION_TYPE_MAX = 9;

/** Team invitations: seven days (Publisher team rules; Limits). */
export const INVITATION_LIFETIME_DAYS = 7;

/** D-24: semantic-version numeric identifiers must not exceed Number.MAX_SAFE_INTEGER. */
export const SEMVER_MAX_NUMERIC = 9_007_199_254_740_991;

/** D-30: the largest private key file read (a PKCS#8 Ed25519 key is 119 bytes as PEM); anything larger is refused unread. */
export const PRIVATE_KEY_MAX_BYTES = 65_536;

/** Findings of one rule listed per file; the rest are counted (Finding.truncated), so hostile reports stay small. */
export const MAX_FINDINGS_PER_RULE_AND_FILE = 100;

/** Files one rule's findings are listed for (a bundle's file limit, so a valid bundle is never cut); findings in
 * further files are counted on the last one listed (Finding.truncated). */
export const MAX_FILES_PER_RULE = BUNDLE_MAX_FILES;

/** D-9: DNS name limits for absolute URLs. */
export const DNS_LABEL_MAX_CHARS = 63;
export const DNS_NAME_MAX_CHARS = 253;
/** D-9: "optional port of 1-5 digits" (digits, not a numeric range: D-9 sets no 65535 cap). */
export const URL_PORT_MAX_DIGITS = 5;
/** D-9: IPv4 dotted quad parts are 0-255. */
export const IPV4_OCTET_MAX = 255;

/** D-30: platform-review --known-keys reads a list of keys up to the key-file cap, 64 KiB (a tool bound, not the contract's). */
export const KNOWN_KEYS_FILE_MAX_BYTES = 65_536;

export interface LimitEntry {
  readonly name: string;
  readonly value: number | readonly (number | string)[];
  readonly unit: 'bytes' | 'characters' | 'count' | 'ms' | 'ratio' | 'days' | 'value' | 'list';
  readonly appliesTo: string;
  readonly source: string;
}

// platform-ext.config.json (D-33) is read by `check` only, never packaged or served: not part of LIMITS.
/** Largest platform-ext.config.json read. */
export const ACK_CONFIG_MAX_BYTES = 262_144;
/** Longest `reason` of one acknowledgement, in UTF-16 code units. */
export const ACK_REASON_MAX_CHARS = 1_000;

/** The table behind contract-snapshot/limits.json; a pure call, so bundles that never read it leave it out. */
export const LIMITS: readonly LimitEntry[] = /* @__PURE__ */ ((): LimitEntry[] => [
  { name: 'manifest.maxBytes', value: MANIFEST_MAX_BYTES, unit: 'bytes', appliesTo: 'manifest', source: 'Manifest; D-5' },
  { name: 'manifest.maxCapabilities', value: MAX_CAPABILITIES, unit: 'count', appliesTo: 'manifest', source: 'Manifest' },
  { name: 'manifest.maxProperties', value: MAX_PROPERTIES, unit: 'count', appliesTo: 'manifest', source: 'Manifest' },
  { name: 'manifest.name.maxBytes', value: NAME_MAX_BYTES, unit: 'bytes', appliesTo: 'manifest', source: 'Manifest; D-10' },
  { name: 'manifest.description.maxBytes', value: DESCRIPTION_MAX_BYTES, unit: 'bytes', appliesTo: 'manifest', source: 'Manifest; D-10' },
  { name: 'manifest.entrypoint.maxChars', value: ENTRYPOINT_MAX_CHARS, unit: 'characters', appliesTo: 'manifest', source: 'Manifest; D-10' },
  { name: 'property.name.maxChars', value: PROPERTY_NAME_MAX_CHARS, unit: 'characters', appliesTo: 'property', source: 'Manifest' },
  { name: 'property.label.maxBytes', value: LABEL_MAX_BYTES, unit: 'bytes', appliesTo: 'property', source: 'Property definition' },
  { name: 'property.help.maxBytes', value: HELP_MAX_BYTES, unit: 'bytes', appliesTo: 'property', source: 'Property definition' },
  { name: 'property.options.min', value: SELECT_OPTIONS_MIN, unit: 'count', appliesTo: 'property', source: 'Property definition' },
  { name: 'property.options.max', value: SELECT_OPTIONS_MAX, unit: 'count', appliesTo: 'property', source: 'Property definition' },
  { name: 'property.option.maxChars', value: OPTION_TEXT_MAX_CHARS, unit: 'characters', appliesTo: 'property', source: 'Property definition; D-10' },
  { name: 'value.color.maxBytes', value: VALUE_MAX_BYTES.color, unit: 'bytes', appliesTo: 'settings', source: 'Property definition' },
  { name: 'value.image.maxBytes', value: VALUE_MAX_BYTES.image, unit: 'bytes', appliesTo: 'settings', source: 'Property definition' },
  { name: 'value.select.maxBytes', value: VALUE_MAX_BYTES.select, unit: 'bytes', appliesTo: 'settings', source: 'Property definition' },
  { name: 'value.text.maxBytes', value: VALUE_MAX_BYTES.text, unit: 'bytes', appliesTo: 'settings', source: 'Property definition' },
  { name: 'value.textarea.maxBytes', value: VALUE_MAX_BYTES.textarea, unit: 'bytes', appliesTo: 'settings', source: 'Property definition' },
  { name: 'value.url.maxBytes', value: VALUE_MAX_BYTES.url, unit: 'bytes', appliesTo: 'settings', source: 'Property definition' },
  { name: 'defaults.maxBytes', value: DEFAULTS_MAX_BYTES, unit: 'bytes', appliesTo: 'settings', source: 'Property definition; D-6' },
  { name: 'settings.maxBytes', value: SETTINGS_MAX_BYTES, unit: 'bytes', appliesTo: 'settings', source: 'Property definition; D-6' },
  { name: 'bundle.maxCompressedBytes', value: BUNDLE_MAX_COMPRESSED_BYTES, unit: 'bytes', appliesTo: 'bundle', source: 'Bundle' },
  { name: 'bundle.maxExpandedBytes', value: BUNDLE_MAX_EXPANDED_BYTES, unit: 'bytes', appliesTo: 'bundle', source: 'Bundle' },
  { name: 'bundle.maxFileBytes', value: BUNDLE_MAX_FILE_BYTES, unit: 'bytes', appliesTo: 'bundle', source: 'Bundle' },
  { name: 'bundle.maxFiles', value: BUNDLE_MAX_FILES, unit: 'count', appliesTo: 'bundle', source: 'Bundle' },
  { name: 'bundle.maxCompressionRatio', value: BUNDLE_MAX_COMPRESSION_RATIO, unit: 'ratio', appliesTo: 'bundle', source: 'Bundle; D-16' },
  { name: 'bundle.allowedExtensions', value: ALLOWED_EXTENSIONS, unit: 'list', appliesTo: 'bundle', source: 'Bundle; D-2' },
  { name: 'bridge.initializationTimeoutMs', value: INITIALIZATION_TIMEOUT_MS, unit: 'ms', appliesTo: 'bridge', source: 'Runtime frame' },
  { name: 'bridge.requestTimeoutMs', value: REQUEST_TIMEOUT_MS, unit: 'ms', appliesTo: 'bridge', source: 'Runtime frame' },
  { name: 'bridge.maxPendingCalls', value: MAX_PENDING_CALLS, unit: 'count', appliesTo: 'bridge', source: 'Errors' },
  { name: 'bridge.messageMaxBytes', value: MESSAGE_MAX_BYTES, unit: 'bytes', appliesTo: 'bridge', source: 'Errors; D-23' },
  { name: 'bridge.payloadMaxDepth', value: PAYLOAD_MAX_DEPTH, unit: 'count', appliesTo: 'bridge', source: 'Limits; D-23' },
  { name: 'bridge.payloadMaxNodes', value: PAYLOAD_MAX_NODES, unit: 'count', appliesTo: 'bridge', source: 'Limits; D-23' },
  { name: 'bridge.maxCollectionEntries', value: PAYLOAD_MAX_COLLECTION_ENTRIES, unit: 'count', appliesTo: 'bridge', source: 'Limits' },
  { name: 'bridge.maxObjectEntries', value: PAYLOAD_MAX_OBJECT_ENTRIES, unit: 'count', appliesTo: 'bridge', source: 'Limits' },
  { name: 'analytics.event.maxChars', value: ANALYTICS_EVENT_MAX_CHARS, unit: 'characters', appliesTo: 'analytics', source: 'Capabilities' },
  { name: 'analytics.label.maxChars', value: ANALYTICS_LABEL_MAX_CHARS, unit: 'characters', appliesTo: 'analytics', source: 'Capabilities' },
  { name: 'catalog.search.maxChars', value: CATALOG_SEARCH_MAX_CHARS, unit: 'characters', appliesTo: 'catalog', source: 'Capabilities' },
  { name: 'catalog.page.min', value: CATALOG_PAGE_MIN, unit: 'value', appliesTo: 'catalog', source: 'Capabilities' },
  { name: 'catalog.page.max', value: CATALOG_PAGE_MAX, unit: 'value', appliesTo: 'catalog', source: 'Capabilities' },
  { name: 'catalog.limit.values', value: CATALOG_LIMITS, unit: 'list', appliesTo: 'catalog', source: 'Capabilities' },
  { name: 'cart.quantity.min', value: CART_QUANTITY_MIN, unit: 'value', appliesTo: 'cart', source: 'Capabilities' },
  { name: 'cart.quantity.max', value: CART_QUANTITY_MAX, unit: 'value', appliesTo: 'cart', source: 'Capabilities' },
  { name: 'booking.duration.min', value: BOOKING_DURATION_MIN, unit: 'value', appliesTo: 'booking', source: 'Capabilities' },
  { name: 'booking.duration.max', value: BOOKING_DURATION_MAX, unit: 'value', appliesTo: 'booking', source: 'Capabilities' },
  { name: 'booking.time.maxChars', value: BOOKING_TIME_MAX_CHARS, unit: 'characters', appliesTo: 'booking', source: 'Capabilities' },
  { name: 'sms.message.maxChars', value: SMS_MESSAGE_MAX_CHARS, unit: 'characters', appliesTo: 'sms', source: 'Capabilities' },
  { name: 'forms.email.maxChars', value: FORM_EMAIL_MAX_CHARS, unit: 'characters', appliesTo: 'forms', source: 'Form fields' },
  { name: 'forms.phone.maxChars', value: FORM_PHONE_MAX_CHARS, unit: 'characters', appliesTo: 'forms', source: 'Form fields' },
  { name: 'forms.name.maxChars', value: FORM_NAME_MAX_CHARS, unit: 'characters', appliesTo: 'forms', source: 'Form fields' },
  { name: 'forms.subject.maxChars', value: FORM_SUBJECT_MAX_CHARS, unit: 'characters', appliesTo: 'forms', source: 'Form fields' },
  { name: 'forms.message.maxChars', value: FORM_MESSAGE_MAX_CHARS, unit: 'characters', appliesTo: 'forms', source: 'Form fields' },
  { name: 'forms.questionType.min', value: FORM_QUESTION_TYPE_MIN, unit: 'value', appliesTo: 'forms', source: 'Form fields' },
  { name: 'forms.questionType.max', value: FORM_QUESTION_TYPE_MAX, unit: 'value', appliesTo: 'forms', source: 'Form fields' },
  { name: 'invitation.lifetimeDays', value: INVITATION_LIFETIME_DAYS, unit: 'days', appliesTo: 'team invitations', source: 'Publisher team rules' },
  { name: 'semver.maxNumericIdentifier', value: SEMVER_MAX_NUMERIC, unit: 'value', appliesTo: 'manifest', source: 'D-24' },
  { name: 'url.dnsLabel.maxChars', value: DNS_LABEL_MAX_CHARS, unit: 'characters', appliesTo: 'settings', source: 'D-9' },
  { name: 'url.dnsName.maxChars', value: DNS_NAME_MAX_CHARS, unit: 'characters', appliesTo: 'settings', source: 'D-9' },
  { name: 'url.port.maxDigits', value: URL_PORT_MAX_DIGITS, unit: 'characters', appliesTo: 'settings', source: 'D-9' },
  { name: 'url.ipv4Octet.max', value: IPV4_OCTET_MAX, unit: 'value', appliesTo: 'settings', source: 'D-9' },
])();
