// The explanations the snapshot adds to the validator's tables, in this project's words:
// what each capability grants, when each bridge error happens and what extension code
// should do about it, and a summary of every decision D-n (../shared/design/DECISIONS.md).
// Numbers are never typed here: they come from limits.ts through the template strings.
//
// Careful: no text here may contain a private-key armour line (the five dashes, BEGIN and
// the key kind): `check` flags any project file holding one (D-4), and these texts are
// copied into every project's contract-snapshot/.
import {
  BUNDLE_MAX_COMPRESSION_RATIO,
  BUNDLE_PATH_MAX_BYTES,
  DEFAULTS_MAX_BYTES,
  DNS_LABEL_MAX_CHARS,
  DNS_NAME_MAX_CHARS,
  INITIALIZATION_TIMEOUT_MS,
  MAX_PENDING_CALLS,
  MESSAGE_MAX_BYTES,
  PAYLOAD_MAX_DEPTH,
  PAYLOAD_MAX_NODES,
  REQUEST_TIMEOUT_MS,
  SEMVER_MAX_NUMERIC,
  SETTINGS_MAX_BYTES,
  URL_PORT_MAX_DIGITS,
  IPV4_OCTET_MAX,
} from '../validator/limits.js';
import { JSON_MAX_DEPTH } from '../validator/json.js';
import { THEME_FIELDS } from '../validator/bridge/messages.js';
import { FORBIDDEN_KEYS } from '../validator/bridge/payload.js';
import { SIGNED_PAYLOAD_HEADER } from '../validator/release.js';
import { groupDigits } from '../validator/text.js';
import type { BridgeErrorCode } from '../validator/bridge/errors.js';

/** What granting each capability lets the extension do, keyed by capability key. */
export const CAPABILITY_GRANTS: Readonly<Record<string, string>> = {
  'analytics.events.write': "Record named analytics events (with an optional label and value) in the site's analytics, subject to the site's tracking settings and the visitor's consent.",
  'booking.availability.read': 'Read the public availability of a bookable lane for one date and duration.',
  'booking.create': "Open the site's booking flow for the visitor, optionally preset to a lane and times; the visitor completes the booking there.",
  'cart.manage': "Add, remove or change the quantity of a product in the visitor's cart; the storefront then announces the cart change itself.",
  'catalog.products.read': "Search and page through the store's product catalog (name, route, image, formatted price, stock).",
  'communications.sms.open': "Open the visitor's messaging app addressed to the store's configured text number, optionally with a prefilled message.",
  'forms.submit': "Submit the site's contact or newsletter form on the visitor's behalf; the site applies its own anti-abuse checks.",
  'site.theme.read': `Read the site's theme (${THEME_FIELDS.length} CSS values: colors, fonts, spacing, radius) to match the storefront's look.`,
  'waivers.start': "Open the site's waiver flow (range, rental or class) for the visitor.",
};

/** When each code happens, and what extension code should do. */
export const ERROR_DETAILS: Readonly<Record<BridgeErrorCode, { readonly when: string; readonly handle: string }>> = {
  CAPABILITY_NOT_GRANTED: {
    when: 'The call names a capability that is not one of the nine keys, is not in the manifest, was not approved by the store user, or was revoked since (the host reads grants when each call arrives).',
    handle: 'Expected in normal operation: hide or disable the feature. Check PLATFORM.capabilities() before offering it.',
  },
  ADAPTER_UNAVAILABLE: {
    when: 'The call is valid and granted, but the site cannot perform it, for example no valid text-message number or the feature is not configured.',
    handle: 'Hide the feature for this site; retrying will not help.',
  },
  INVALID_REQUEST: {
    when: 'The action is not one of the capability\'s actions, or the payload breaks the request schema: a missing required field, an unknown field, a wrong type or a value out of bounds.',
    handle: 'A bug in the extension: fix the call. The declarations in platform.d.ts catch most of these before run time.',
  },
  INVALID_PAYLOAD: {
    when: `The payload holds something that cannot cross the bridge: a function, symbol, bigint, class instance (Date, Map, DOM node...), a non-finite number, undefined inside an array, or a key named ${FORBIDDEN_KEYS.join(', ')}.`,
    handle: 'A bug in the extension: pass plain JSON data only.',
  },
  INITIALIZATION_TIMEOUT: {
    when: `The host did not open the channel within ${groupDigits(INITIALIZATION_TIMEOUT_MS)} ms of the runtime starting. PLATFORM.ready rejects, and so does every call, now and later.`,
    handle: 'Show a neutral fallback (or nothing); the frame will not recover without a reload.',
  },
  REQUEST_TIMEOUT: {
    when: `The host did not answer one call within ${groupDigits(REQUEST_TIMEOUT_MS)} ms; a late answer is ignored.`,
    handle: 'Offer the visitor a retry; do not retry in a tight loop.',
  },
  TOO_MANY_REQUESTS: {
    when: `The frame already has ${MAX_PENDING_CALLS} calls waiting for an answer (calls made before the handshake count too). Checked before anything else.`,
    handle: 'Wait for earlier calls to settle; debounce calls driven by typing or scrolling.',
  },
  PAYLOAD_TOO_LARGE: {
    when: `The whole request message, serialized as JSON, exceeds ${groupDigits(MESSAGE_MAX_BYTES)} UTF-8 bytes.`,
    handle: 'A bug in the extension: send less data.',
  },
  PAYLOAD_TOO_COMPLEX: {
    when: `The payload nests deeper than ${PAYLOAD_MAX_DEPTH}, has more than ${groupDigits(PAYLOAD_MAX_NODES)} values, has a collection with too many entries, or contains a cycle.`,
    handle: 'A bug in the extension: send flatter, smaller data.',
  },
  REQUEST_FAILED: {
    when: 'The host refused or failed the operation for a reason it does not make public.',
    handle: 'Show a short, friendly failure message and let the visitor try again; never show the raw error.',
  },
};

/** One decision: number, short title, and the summary in this project's words. */
export interface DecisionSummary {
  readonly id: number;
  readonly title: string;
  readonly text: string;
}

/**
 * Every decision where the contract is silent or ambiguous, summarised. Numbering follows
 * DECISIONS.md and is permanent; the order here is numeric.
 */
export const DECISIONS: readonly DecisionSummary[] = [
  {
    id: 1,
    title: 'Entrypoint root',
    text: 'The `entrypoint` is a path relative to `runtime/`, and `runtime/` is the root of `bundle.zip`: archive entry names are paths relative to it. New projects use `index.html`.',
  },
  {
    id: 2,
    title: 'Path segments',
    text: 'Every segment of a bundle path (and of the entrypoint) is one or more ASCII letters, digits, `.`, `_` or `-`, never starts with `.` (so hidden files and `.`/`..` segments are out). Extension checks ignore letter case, and two paths collide when their ASCII-lowercased forms are equal. Amended (D-2a): every path is at most ' + BUNDLE_PATH_MAX_BYTES + ' bytes, the entrypoint\'s limit, and no path is both a file and the folder of another (`lib` beside `lib/x.js`, compared lowercased).',
  },
  {
    id: 3,
    title: 'Nothing skipped',
    text: 'Every file under `runtime/` is packaged. A file that breaks a rule is reported by name with a fix; the tool never leaves it out quietly. Empty folders do not count.',
  },
  {
    id: 4,
    title: 'Private keys',
    text: 'A file anywhere in a project (outside `node_modules/`) or a release folder that holds PEM private-key armour (PKCS#8, OpenSSH or encrypted PKCS#8) is an error for check, package, verify and review. `init` writes a `.gitignore` that ignores `*.pem` and `*.key`. A file the scan cannot read (permissions, a pipe or device, a file too large to scan) is a warning naming it, never skipped in silence (D-30).',
  },
  {
    id: 5,
    title: 'Strict manifest bytes',
    text: `The manifest is UTF-8 without a byte-order mark, one JSON object, and no object in it has the same key twice, at any depth, even when the two spellings differ only by escapes: two parsers must never read signed bytes differently. The tool also refuses lone-surrogate escapes, numbers that overflow or underflow, and nesting deeper than ${JSON_MAX_DEPTH}.`,
  },
  {
    id: 6,
    title: 'Measuring defaults and settings',
    text: `Total defaults = UTF-8 length of JSON.stringify of an object mapping each property that has a default to that default; at most ${groupDigits(DEFAULTS_MAX_BYTES)} bytes. Saved settings are measured the same way, at most ${groupDigits(SETTINGS_MAX_BYTES)} bytes.`,
  },
  {
    id: 7,
    title: 'Select and number values',
    text: 'A select default or saved setting must equal the `value` of one option, exactly. A number default or setting must be finite and lie within `min` and `max` when they are given.',
  },
  {
    id: 8,
    title: 'Required properties',
    text: '`required: true` on a string-valued type (color, image, select, text, textarea, url) needs a default with at least one character that is not whitespace; on boolean and number it needs a default to be present.',
  },
  {
    id: 9,
    title: 'URL values',
    text: `A url or image value is empty; or site-relative (exactly one leading \`/\`, then no whitespace, backslash or control character); or an http/https URL (scheme in any case) whose host is a DNS name (labels of 1 to ${DNS_LABEL_MAX_CHARS} letters, digits and hyphens, no hyphen at either end, at most ${DNS_NAME_MAX_CHARS} characters, \`xn--\` labels allowed), a dotted-quad IPv4 address (parts 0 to ${IPV4_OCTET_MAX}) or a bracketed IPv6 address, with an optional port of 1 to ${URL_PORT_MAX_DIGITS} digits and an optional path, query and fragment without whitespace or backslash, and no \`user:password@\`.`,
  },
  {
    id: 10,
    title: 'Counting bytes and characters',
    text: 'Limits stated in bytes count UTF-8 bytes. Limits stated in characters (bridge request fields, select option labels and values, the entrypoint) count UTF-16 code units, as JavaScript `length` does.',
  },
  {
    id: 11,
    title: 'Key and signature files',
    text: '`publisher-public-key.txt` is the padded standard base64 of the 32 raw Ed25519 public-key bytes; `signature.txt` is the padded base64 of the 64-byte signature; each may end with one `\\n` and holds nothing else (no `\\r`, spaces or extra lines). Decoding is strict: exactly 44 or 88 characters of the standard alphabet, and re-encoding must give the same text.',
  },
  {
    id: 12,
    title: 'Key fingerprint',
    text: '`publisher_public_key_id` is the lowercase hex SHA-256 of the 32 raw public-key bytes.',
  },
  {
    id: 13,
    title: 'Private key file',
    text: '`keygen` writes the private key as PKCS#8 PEM (the format OpenSSL reads and writes) with mode 0600, and never overwrites an existing file.',
  },
  {
    id: 14,
    title: 'Signed payload',
    text: `The signature covers five lines of UTF-8 text, each ended by \`\\n\` and none by \`\\r\`: \`${SIGNED_PAYLOAD_HEADER}\`, \`namespace=<ns>\`, \`version=<v>\`, \`manifest-sha256=<hex>\`, \`artifact-sha256=<hex>\`. Split on \`\\n\` this gives six pieces, the last empty. The decision pins a test vector (see Release and signature below).`,
  },
  {
    id: 15,
    title: 'Archives the tool writes',
    text: 'Entries sorted by the bytes of their names; no directory entries, extra fields, comments, data descriptors, encryption or ZIP64; every timestamp 1980-01-01 00:00:00; fixed attributes; method 8 (deflate) or 0 (stored). Same input, same bytes, on every Node.js from 20 and every CPU.',
  },
  {
    id: 16,
    title: 'Archives the tool accepts',
    text: `Every byte is accounted for: one end record at the very end with no comment, nothing before the first local header or between records, no overlaps, central and local headers agreeing (name, method, flags, sizes, CRC), a matching entry count, methods 0 and 8 only, no encryption, ZIP64, spanning or directory entries, attributes of a plain regular file (a Unix regular-file mode or permission bits alone, never setuid/setgid/sticky, beside at most the MS-DOS read-only and archive bits: D-16a), no extra fields except the extended timestamp 0x5455, Unix owner 0x7875 and NTFS times 0x000a, well formed and once each per header (D-16a, what zip -r writes), CRC and sizes verified while inflating (never past the declared size), a compression ratio of at most ${BUNDLE_MAX_COMPRESSION_RATIO} per entry and overall, and every bundle rule of the contract. Nothing is written to disk.`,
  },
  {
    id: 17,
    title: 'Runtime policy',
    text: 'One content-security policy (runtime-policy.txt) is what the preview serves to the frame and what `check` reasons about: scripts, styles, images and fonts only from the release base URL (images also from `data:`), inline `<style>` and `style` attributes allowed, and nothing else: no connections, frames, workers, objects, form submissions or `<base>`.',
  },
  {
    id: 18,
    title: 'Scripts in the entrypoint',
    text: 'No `<base>` element (the platform injects its own). The only script allowed is `<script type="module" src="...">` with a local relative URL to a `.js` or `.mjs` file in the bundle and no body.',
  },
  {
    id: 19,
    title: 'Local references',
    text: 'References in HTML (`src`, `href`, `srcset`, `poster`...), CSS (`url()`, `@import`) and JavaScript (static imports and dynamic imports of a string literal) must resolve to a file in the bundle. Remote references (any scheme other than `data:` for images, or `//host`) and bare module specifiers are errors. Comments and strings that are not references are ignored.',
  },
  {
    id: 20,
    title: 'JSON report',
    text: '`check --json`, `verify --json` and `review --json` print one object: `format` `platform-extension-report-v1`, `command`, `target`, `ok`, `errors`, `warnings` and `findings`, each finding with `rule`, `severity`, `message` and, where they apply, `file`, `pointer` (a JSON pointer into the manifest), `line` and `column`. Rule ids are permanent `area/kebab-name` and listed in rules.json.',
  },
  {
    id: 21,
    title: 'Exit status',
    text: '0 means no errors (warnings allowed), 1 at least one error finding, 2 a usage error or an unreadable target, with a message on standard error saying what to do.',
  },
  {
    id: 22,
    title: 'Entrypoint HTML details',
    text: 'The entrypoint is valid UTF-8 without NUL and any `<meta charset>` says utf-8. A module `src` is a plain relative path (no `%`, `?`, `#` or `\\`; `./` and `../` are fine while the result stays in the bundle). Errors: a `<script>` with both `src` and a body, data blocks (JSON, import maps, speculation rules), `<noscript>`, and `<a>`/`<area>` links other than `#fragment` (the frame must not navigate). `<form>` is a warning: submission is blocked, so use `PLATFORM.forms.submit`. Every attribute that holds a URL is checked after entity decoding.',
  },
  {
    id: 23,
    title: 'Bridge payloads and check order',
    text: `The root value is at depth 1; values are counted each time they are reached, so a shared object counts twice and a cycle is PAYLOAD_TOO_COMPLEX. Only plain objects, arrays, strings, finite numbers, booleans and null cross; anything else, and the keys ${FORBIDDEN_KEYS.join(', ')}, is INVALID_PAYLOAD. A property set to undefined is dropped, undefined in an array is INVALID_PAYLOAD, and -0 becomes 0. The frame validates while making a fresh copy and sends the copy; the host validates again. Message size is the UTF-8 length of the whole serialized message. The first failing check decides the code, in this order: pending calls (frame only), payload structure, capability (CAPABILITY_NOT_GRANTED), action (INVALID_REQUEST), request fields including unknown ones (INVALID_REQUEST).`,
  },
  {
    id: 24,
    title: 'Semantic-version bound',
    text: `Numeric identifiers of a semantic version are at most ${SEMVER_MAX_NUMERIC} (the largest integer a JSON number holds exactly).`,
  },
  {
    id: 25,
    title: 'Preview server',
    text: '`preview` listens on 127.0.0.1 only, answers only `Host: 127.0.0.1:<port>` or `localhost:<port>`, serves only the files of the bundle listing, sends the runtime policy and `sandbox allow-scripts` on every frame response, allows any origin on frame assets (the sandboxed frame has an opaque origin), sends correct MIME types with `nosniff` and `no-store`; `--port 0` picks a free port and a busy port is a clear error.',
  },
];
