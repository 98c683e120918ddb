// The explanations the snapshot adds to the validator's tables, in this project's words:
// what each capability grants, when each bridge error happens and what extension code
// should do about it, and a summary of every decision D-n (docs/decisions.md).
// Numbers are never typed here: they come from limits.ts through the template strings.
//
// Careful: no text here may contain a private-key armour line (the five dashes, BEGIN and
// the key kind): `check` flags any project file holding one (D-4), and these texts are
// copied into every project's contract-snapshot/.
import {
  BOOKING_TIME_MAX_CHARS,
  BUNDLE_MAX_COMPRESSION_RATIO,
  BUNDLE_PATH_MAX_BYTES,
  DEFAULTS_MAX_BYTES,
  DNS_LABEL_MAX_CHARS,
  DNS_NAME_MAX_CHARS,
  INITIALIZATION_TIMEOUT_MS,
  MAX_PENDING_CALLS,
  MESSAGE_MAX_BYTES,
  PRIVATE_KEY_MAX_BYTES,
  PAYLOAD_MAX_DEPTH,
  PAYLOAD_MAX_NODES,
  REQUEST_TIMEOUT_MS,
  SEMVER_MAX_NUMERIC,
  SETTINGS_MAX_BYTES,
  URL_PORT_MAX_DIGITS,
  IPV4_OCTET_MAX,
  JSON_MAX_DEPTH,
  THEME_FIELDS,
  FORBIDDEN_KEYS,
  SIGNED_PAYLOAD_HEADER,
  groupDigits,
  type BridgeErrorCode,
} from '../validator/index.js';

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
  /** The decision's permanent number, with a letter for an amendment (`2a` amends D-2). */
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

/**
 * Every decision where the contract is silent or ambiguous, summarised. Numbering is
 * permanent; an amendment (`2a`) follows the decision it amends and wins over it.
 */
export const DECISIONS: readonly DecisionSummary[] = [
  {
    id: '1',
    title: 'Entrypoint root',
    text: 'The `entrypoint` is a path relative to `runtime/`, and `runtime/` is the root of `bundle.zip`: archive entry names are paths relative to it. New projects use `index.html`.',
  },
  {
    id: '2',
    title: 'Path segments',
    text: 'Every segment of a bundle path (and of the entrypoint) is one or more ASCII letters, digits, `.`, `_` or `-`, never starts with `.` (so hidden files and `.`/`..` segments are out). Extension checks ignore letter case, and two paths collide when their ASCII-lowercased forms are equal.',
  },
  {
    id: '2a',
    title: 'Path length and file-or-folder conflicts',
    text: `Every bundle path, not only the entrypoint, is at most ${BUNDLE_PATH_MAX_BYTES} bytes. No path may be both a file and the folder of another file (\`lib\` beside \`lib/x.js\`, compared ignoring ASCII case as collisions are): no real folder produces that, and archive extractors disagree on what to do with it.`,
  },
  {
    id: '3',
    title: 'Nothing skipped',
    text: 'Every file under `runtime/` is packaged. A file that breaks a rule is reported by name with a fix; the tool never leaves it out quietly. Empty folders do not count.',
  },
  {
    id: '4',
    title: 'Private keys',
    text: 'A file anywhere in a project (outside `node_modules/`) or a release folder that holds PEM private-key armour (PKCS#8, OpenSSH or encrypted PKCS#8) is an error for check, package, verify and review. `init` writes a `.gitignore` that ignores `*.pem` and `*.key`. A file the scan cannot read (permissions, a pipe or device, a file too large to scan) is a warning naming it, never skipped in silence (D-30).',
  },
  {
    id: '5',
    title: 'Strict manifest bytes',
    text: `The manifest is UTF-8 without a byte-order mark, one JSON object, and no object in it has the same key twice, at any depth, even when the two spellings differ only by escapes: two parsers must never read signed bytes differently. The tool also refuses lone-surrogate escapes, numbers that overflow or underflow, and nesting deeper than ${JSON_MAX_DEPTH}.`,
  },
  {
    id: '6',
    title: 'Measuring defaults and settings',
    text: `Total defaults = UTF-8 length of JSON.stringify of an object mapping each property that has a default to that default; at most ${groupDigits(DEFAULTS_MAX_BYTES)} bytes. Saved settings are measured the same way, at most ${groupDigits(SETTINGS_MAX_BYTES)} bytes.`,
  },
  {
    id: '7',
    title: 'Select and number values',
    text: 'A select default or saved setting must equal the `value` of one option, exactly. A number default or setting must be finite and lie within `min` and `max` when they are given.',
  },
  {
    id: '8',
    title: 'Required properties',
    text: '`required: true` on a string-valued type (color, image, select, text, textarea, url) needs a default with at least one character that is not whitespace; on boolean and number it needs a default to be present.',
  },
  {
    id: '9',
    title: 'URL values',
    text: `A url or image value is empty; or site-relative (exactly one leading \`/\`, then no whitespace, backslash or control character); or an http/https URL (scheme in any case) whose host is a DNS name (labels of 1 to ${DNS_LABEL_MAX_CHARS} letters, digits and hyphens, no hyphen at either end, at most ${DNS_NAME_MAX_CHARS} characters, \`xn--\` labels allowed), a dotted-quad IPv4 address (parts 0 to ${IPV4_OCTET_MAX}) or a bracketed IPv6 address, with an optional port of 1 to ${URL_PORT_MAX_DIGITS} digits and an optional path, query and fragment without whitespace or backslash, and no \`user:password@\`.`,
  },
  {
    id: '10',
    title: 'Counting bytes and characters',
    text: 'Limits stated in bytes count UTF-8 bytes. Limits stated in characters (bridge request fields, select option labels and values, the entrypoint) count UTF-16 code units, as JavaScript `length` does.',
  },
  {
    id: '11',
    title: 'Key and signature files',
    text: '`publisher-public-key.txt` is the padded standard base64 of the 32 raw Ed25519 public-key bytes; `signature.txt` is the padded base64 of the 64-byte signature; each may end with one `\\n` and holds nothing else (no `\\r`, spaces or extra lines). Decoding is strict: exactly 44 or 88 characters of the standard alphabet, and re-encoding must give the same text.',
  },
  {
    id: '12',
    title: 'Key fingerprint',
    text: '`publisher_public_key_id` is the lowercase hex SHA-256 of the 32 raw public-key bytes.',
  },
  {
    id: '13',
    title: 'Private key file',
    text: '`keygen` writes the private key as PKCS#8 PEM (the format OpenSSL reads and writes) with mode 0600, and never overwrites an existing file.',
  },
  {
    id: '14',
    title: 'Signed payload',
    text: `The signature covers five lines of UTF-8 text, each ended by \`\\n\` and none by \`\\r\`: \`${SIGNED_PAYLOAD_HEADER}\`, \`namespace=<ns>\`, \`version=<v>\`, \`manifest-sha256=<hex>\`, \`artifact-sha256=<hex>\`. Split on \`\\n\` this gives six pieces, the last empty. A test vector pins it (section 7 of contract.md in contract-snapshot/).`,
  },
  {
    id: '15',
    title: 'Archives the tool writes',
    text: 'Entries sorted by the bytes of their names; no directory entries, extra fields, comments, data descriptors, encryption or ZIP64; every timestamp 1980-01-01 00:00:00; fixed attributes; method 8 (deflate) or 0 (stored). Same input, same bytes, on every Node.js from 20 and every CPU.',
  },
  {
    id: '16',
    title: 'Archives the tool accepts',
    text: `Every byte is accounted for: one end record at the very end with no comment, nothing before the first local header or between records, no overlaps, central and local headers agreeing (name, method, flags, sizes, CRC), a matching entry count, methods 0 and 8 only, no encryption, ZIP64, spanning or directory entries, attributes of a plain regular file and no extra fields (both as D-16a amends), CRC and sizes verified while inflating (never past the declared size), a compression ratio of at most ${BUNDLE_MAX_COMPRESSION_RATIO} per entry and overall, and every bundle rule of the contract. Nothing is written to disk.`,
  },
  {
    id: '16a',
    title: 'Archives from standard tools',
    text: 'The reader also accepts what common archivers add when it cannot change what a reader sees: the extended-timestamp (0x5455), Unix owner (0x7875) and NTFS-times (0x000a) extra fields, each well formed and at most once per header; any other extra field (ZIP64, Unicode path or comment, strong encryption...) is refused. External attributes may be a Unix mode of a regular file (or type bits zero) without setuid, setgid or sticky bits, or MS-DOS attributes with only the read-only and archive bits. `package` still writes none of these.',
  },
  {
    id: '17',
    title: 'Runtime policy',
    text: 'One content-security policy (runtime-policy.txt) is what the preview serves to the frame and what `check` reasons about: scripts, styles, images and fonts only from the release base URL (images also from `data:`), inline `<style>` and `style` attributes allowed, and nothing else: no connections, frames, workers, objects, form submissions or `<base>`.',
  },
  {
    id: '18',
    title: 'Scripts in the entrypoint',
    text: 'No `<base>` element (the platform injects its own). The only script allowed is `<script type="module" src="...">` with a local relative URL to a `.js` or `.mjs` file in the bundle and no body.',
  },
  {
    id: '19',
    title: 'Local references',
    text: 'References in HTML (`src`, `href`, `srcset`, `poster`...), CSS (`url()`, `@import`) and JavaScript (static imports and dynamic imports of a string literal) must resolve to a file in the bundle. Remote references (any scheme other than `data:` for images, or `//host`) and bare module specifiers are errors. Comments and strings that are not references are ignored.',
  },
  {
    id: '20',
    title: 'JSON report',
    text: '`check --json`, `verify --json` and `review --json` print one object: `format` `platform-extension-report-v1`, `command`, `target`, `ok`, `errors`, `warnings` and `findings`, each finding with `rule`, `severity`, `message` and, where they apply, `file`, `pointer` (a JSON pointer into the manifest), `line` and `column`. Rule ids are permanent `area/kebab-name` and listed in rules.json.',
  },
  {
    id: '20a',
    title: 'Report additions',
    text: 'A finding may carry `hint`, the fix shown in text output. Every report names the tool (`tool`: name and version) and `contract_version`. Fields are only ever added: a reader ignores the ones it does not know.',
  },
  {
    id: '21',
    title: 'Exit status',
    text: '0 means no errors (warnings allowed), 1 at least one error finding, 2 a usage error or an unreadable target, with a message on standard error saying what to do.',
  },
  {
    id: '22',
    title: 'Entrypoint HTML details',
    text: 'The entrypoint is valid UTF-8 without NUL and any `<meta charset>` says utf-8. A module `src` is a plain relative path (no `%`, `?`, `#` or `\\`; `./` and `../` are fine while the result stays in the bundle). Errors: a `<script>` with both `src` and a body, data blocks (JSON, import maps, speculation rules), `<noscript>`, and `<a>`/`<area>` links other than `#fragment` (the frame must not navigate). `<form>` is a warning: submission is blocked, so use `PLATFORM.forms.submit`. Every attribute that holds a URL is checked after entity decoding.',
  },
  {
    id: '23',
    title: 'Bridge payloads and check order',
    text: `The root value is at depth 1; values are counted each time they are reached, so a shared object counts twice and a cycle is PAYLOAD_TOO_COMPLEX. Only plain objects, arrays, strings, finite numbers, booleans and null cross; anything else, and the keys ${FORBIDDEN_KEYS.join(', ')}, is INVALID_PAYLOAD. A property set to undefined is dropped, undefined in an array is INVALID_PAYLOAD, and -0 becomes 0. The frame validates while making a fresh copy and sends the copy; the host validates again. Message size is the UTF-8 length of the whole serialized message. The first failing check decides the code, in this order: pending calls (frame only), payload structure, capability (CAPABILITY_NOT_GRANTED), action (INVALID_REQUEST), request fields including unknown ones (INVALID_REQUEST).`,
  },
  {
    id: '24',
    title: 'Semantic-version bound',
    text: `Numeric identifiers of a semantic version are at most ${SEMVER_MAX_NUMERIC} (the largest integer a JSON number holds exactly).`,
  },
  {
    id: '25',
    title: 'Preview server',
    text: '`preview` listens on 127.0.0.1 only, answers only `Host: 127.0.0.1:<port>` or `localhost:<port>`, serves only the files of the bundle listing, sends the runtime policy and `sandbox allow-scripts` on every frame response, allows any origin on frame assets (the sandboxed frame has an opaque origin), sends correct MIME types with `nosniff` and `no-store`; `--port 0` picks a free port and a busy port is a clear error.',
  },
  {
    id: '26',
    title: 'No invented rules',
    text: 'Where the contract leaves something unspecified, validation checks only the shapes it does state, and every document says "not specified by the contract" rather than presenting the tool\'s choice as the contract. Every contact-form field is optional (types and bounds are still checked); `preview --strict-host` makes the mock host require them all, to rehearse a stricter store. The storefront\'s cart-updated event has no name in the contract: the name the preview page dispatches is the preview\'s own.',
  },
  {
    id: '27',
    title: 'Booking times',
    text: `\`startsAt\` and \`endsAt\` are strings of at most ${BOOKING_TIME_MAX_CHARS} characters, read as an RFC 3339 date-time with an offset (\`T\` or \`t\`, \`Z\` or \`z\`, any number of fraction digits, a leap second 60) or an ISO 8601 date-time whose offset is written \`±HHMM\` or \`±HH\`. Anything else is INVALID_REQUEST.`,
  },
  {
    id: '28',
    title: 'Release diff',
    text: 'With `--baseline`, a property removed or given another type is a warning (the contract says names and types should be kept), whose message names the consequence: saved settings of that property become unknown settings after the upgrade. `--strict` turns it into a failure. Reusing the baseline\'s version stays an error; the message says a correction of a submission that was not approved may reuse it.',
  },
  {
    id: '29',
    title: 'Output the input cannot control',
    text: 'Text output never passes control characters from input to the terminal: C0 and C1 controls, DEL and the bidirectional and invisible format characters (U+061C, U+200B to U+200F, U+202A to U+202E, U+2060 to U+2069, U+FEFF) in file names, pointers, keys and quoted values are printed as `\\u{...}` escapes. Manifest strings (name, description, labels, help, option labels and values, string defaults) holding such characters are an error; a line break is allowed only in a `textarea` default.',
  },
  {
    id: '29a',
    title: 'Every invisible character escaped',
    text: 'D-29 reaches every character a reader cannot see as itself: all of Unicode\'s format characters (Cf) and default-ignorable code points (among them the tag characters U+E0000 to U+E007F, the soft hyphen U+00AD, U+034F, the Hangul fillers U+115F, U+1160 and U+3164, U+17B4 and U+17B5, U+180B to U+180F), the line and paragraph separators U+2028 and U+2029, controls and lone surrogates. Every output writes them as escapes: `\\u{...}` in text, Markdown, annotations and SARIF messages, `\\u` escapes in JSON strings, so a JSON parser reads the same value. Left as they are: a zero-width joiner or non-joiner, or one variation selector, directly after a visible character (emoji sequences and the scripts that need them), and a complete emoji tag sequence (U+1F3F4, tag characters, U+E007F). In manifest strings a tag character outside such a sequence is an error (`manifest/tag-character`), as a bidirectional override is; any other invisible character is a warning (`manifest/invisible-character`), which `check` reports and the review shows.',
  },
  {
    id: '30',
    title: 'Opening files',
    text: `Every file read from a project, a release folder or a key path is opened without following links and without blocking, checked to be a regular file on the open descriptor, and refused by size before its bytes are read (the contract limit plus a margin; ${groupDigits(PRIVATE_KEY_MAX_BYTES)} bytes for a key). A pipe, device, socket, link or folder where a file belongs is a finding (a usage error for a key) at once, never a wait. A file the private-key scan cannot open is a warning naming it.`,
  },
  {
    id: '31',
    title: 'Weak keys and signatures',
    text: 'A publisher public key must be the canonical encoding of a curve point that is not of small order: the eight small-order points, the identity among them, are refused with their own rule. A signature whose S is not below the group order is refused too.',
  },
  {
    id: '32',
    title: 'Preview URL token',
    text: 'The preview URL starts with a random token made for each run; a request without it is answered 404, so a page or program that guesses the port can neither read the served files nor drive the mock store.',
  },
  {
    id: '33',
    title: 'Acknowledged warnings',
    text: 'A project may list reviewed warnings in `platform-ext.config.json` at its root (outside `runtime/`, never packaged), as `{rule, file, reason}` entries. A matching warning is reported as acknowledged (counted in every format and listed on request) and does not fail `--strict`. Errors can never be acknowledged, and an entry that matches nothing is itself a warning. The store never reads this file.',
  },
  {
    id: '34',
    title: 'Capability use in code',
    text: 'Calls found statically in modules are checked against the manifest: calling a capability the manifest does not declare is an error (it can only fail with CAPABILITY_NOT_GRANTED), and so is a member `PLATFORM` does not have; a declared capability with no static use and no computed `PLATFORM.request` is a warning, since each one costs the store user a permission review. A literal remote URL where something is loaded (`fetch`, `import()`, workers, sockets, event streams, image or script sources) is an error; a computed one is a warning.',
  },
  {
    id: '35',
    title: 'Performance bounds',
    text: 'Speed is bounded as a ratio against a peer doing the same work in the same run, never as an absolute time: `verify` against `check` of the same project plus `unzip -t` of its archive, the bridge\'s call rate against a bare message-port echo between the same two documents. Absolute times are reported only.',
  },
  {
    id: '36',
    title: 'Markup read two ways',
    text: 'HTML or CSS that a browser and a checker can read differently is an error, so that the checked text is the text that runs (a widening of D-22): a repeated attribute (`html/duplicate-attribute`), the obsolete raw-text elements xmp, noembed, noframes and plaintext (`html/legacy-raw-text-element`), markup whose elements depend on the parser (`html/ambiguous-markup`), and a stylesheet that declares an encoding other than UTF-8 (`css/charset-not-utf8`).',
  },
  {
    id: '37',
    title: 'Paths the runtime policy cannot close',
    text: 'Where the served policy cannot stop a way out of the frame, the code is refused: WebRTC (`js/webrtc`), because peer connections are outside what a content-security policy governs and the frame may not reach the network; JSON and CSS module imports (`js/module-type-attribute`), because no JSON file may be in the bundle and CSS module scripts do not load in every browser.',
  },
  {
    id: '38',
    title: 'Errors of the tool\'s own',
    text: 'Two errors protect the publisher beyond what the contract asks, and their explanations say so: a known-shape credential in any bundle file (`secret/access-token`), since a bundle reaches every visitor of every store that installs it, which makes the contract\'s ban on secrets in public defaults apply with more force; and a sixth file in a release folder (`release/unexpected-file`), since a submission is exactly five files and a stray key beside them is how keys leak. Every other error-level rule cites a section of the contract or a decision.',
  },
  // The service core (src/service/, docs/service.md).
  {
    id: '43',
    title: 'Service core',
    text: 'The service core (`platform-ext/service`) decides and storage applies. A record is plain JSON with a `kind`, an `id` and a `revision` that every decision changing it raises by one; a decision returns the next records and the effects to perform, as data, or a refusal with a permanent `service/` code. Where the contract says "not shown" the core models only what it names, and these choices are the project\'s own: the release states `submitted`, `failed-validation`, `awaiting-review`, `approved`, `rejected`, `changes-requested`, `withdrawn` and `revoked`, with `submitted` passed through at once since `submit` carries the validator\'s report; one submission record per upload, so a corrected version is a new record; approval needs a trusted publisher and a signing key that is still active; the modes are named `public-free`, `private` and `paid`, and a public free release is installable once its listing is published; a link or invitation stops working at its expiry instant (an invitation\'s is seven days after it was created); one use of a link is one store accepting it; e-mail addresses compare without ASCII letter case; the key fingerprint is taken as given (the core compares `publisher_public_key_id` values and never computes one); owners invite, owners and administrators manage keys and links, any member submits; a saved value that a later release no longer accepts gives way to the default in the ready snapshot; ids are 1 to 128 visible ASCII characters.',
  },
];

/** One thing the contract leaves open, and what the tool does about it. */
export interface NotSpecified {
  readonly topic: string;
  readonly tool: string;
}

/** Everything the contract says it does not show, in its order (D-26). */
export const NOT_SPECIFIED: readonly NotSpecified[] = [
  {
    topic: 'Fields of the publisher, release record, private link and invitation beyond those named here',
    tool: 'The tool reads and writes only `submission.json` and the manifest.',
  },
  {
    topic: 'The full list of release states and every move between them',
    tool: 'Section 8 lists the moves the contract names; the tool models no others.',
  },
  {
    topic: 'The service\'s HTTP endpoints (paths, methods, payloads of the developer console and storefront)',
    tool: 'The tool talks to no service: it checks, packages and verifies files offline.',
  },
  {
    topic: 'The shape of the booking availability response',
    tool: 'The preview answers with lanes and time slots of its own design; extension code should treat the shape as unknown.',
  },
  {
    topic: 'Which contact-form fields are mandatory',
    tool: 'Every contact field is optional in validation (D-26); `preview --strict-host` requires them all, a tool choice for rehearsing a stricter store.',
  },
  {
    topic: 'How a person signs in to the developer console or the storefront',
    tool: 'Nothing in the tool signs in.',
  },
  {
    topic: 'The exact input hashed to form the public-key fingerprint',
    tool: 'The tool hashes the 32 raw public-key bytes (D-12), a tool choice.',
  },
  {
    topic: 'The name and payload of the storefront\'s cart-updated event, and any other event',
    tool: 'The preview\'s page dispatches an event of its own naming (D-26); extension code cannot observe it from the frame.',
  },
];
