// contract-snapshot/bridge-protocol.md, rendered from the validator's bridge tables (message types, error codes,
// limits); request fields come from request-fields.ts, which contract.md prints too.
import {
  BRIDGE_ERROR_CODES,
  BRIDGE_ERROR_CODE_LIST,
  CAPABILITIES,
  CART_UPDATED_EVENT,
  CONFIG_META_NAME,
  FORBIDDEN_KEYS,
  INITIALIZATION_TIMEOUT_MS,
  MAX_CAPABILITIES,
  MAX_PENDING_CALLS,
  MAX_PROPERTIES,
  MESSAGE_MAX_BYTES,
  MESSAGE_TYPES,
  PAYLOAD_MAX_COLLECTION_ENTRIES,
  PAYLOAD_MAX_DEPTH,
  PAYLOAD_MAX_NODES,
  PAYLOAD_MAX_OBJECT_ENTRIES,
  PROTOCOL_VERSION,
  REQUEST_TIMEOUT_MS,
  RUNTIME_MODULE_PATH,
  THEME_FIELDS,
  groupDigits,
} from '../validator/internal.js';
import { RESPONSE_SUMMARIES } from './api-tables.js';
import { requestSections } from './request-fields.js';

/** What the response table adds to contract.md's summary of a result. */
const RESPONSE_NOTES: Readonly<Record<string, string>> = {
  'analytics.events.write': '; `{tracked: false}` and nothing recorded when the visitor has not consented',
  'communications.sms.open': '; `ADAPTER_UNAVAILABLE` when the site has no valid text-message link',
  'site.theme.read': ` (${THEME_FIELDS.map((f) => `\`${f}\``).join(', ')})`,
};

function errorTable(): string {
  return ['| Code | Condition |', '| --- | --- |', ...BRIDGE_ERROR_CODE_LIST.map((code) => `| \`${code}\` | ${BRIDGE_ERROR_CODES[code]} |`)].join('\n');
}

/** BRIDGE_PROTOCOL_DOC's text, rendered on each call so that loading this module renders nothing. */
export function renderProtocolDoc(): string {
  const t = MESSAGE_TYPES;
  return `# Bridge protocol, version ${PROTOCOL_VERSION}

Generated from the validator's tables (src/validator/bridge/). It describes how the
extension's frame and the storefront host talk, as \`platform-ext preview\` implements it.
The production platform is the final authority; the codes, limits and check order below
are the contract's and D-23's.

## Parts

- **Runtime** (in the frame): the module that defines \`window.PLATFORM\`. The frame is
  sandboxed with \`allow-scripts\` only, so its origin is opaque (\`"null"\`).
- **Host** (the storefront page that embeds the frame): owns the grants, the settings,
  and the adapters that perform each operation.
- Both run the same checks (the validator module), the frame before it sends a call and
  the host again on what arrives.

## Launch: what the platform injects

The platform adds two elements at the very start of the entrypoint's \`<head>\`:

\`\`\`html
<meta name="${CONFIG_META_NAME}" content='{"protocol":${PROTOCOL_VERSION},"parentOrigin":"<host page origin>","baseUrl":"<release base URL>"}'>
<script src="<release base URL>${RUNTIME_MODULE_PATH}"></script>
\`\`\`

The config is a closed JSON object:

| Key | Rule |
| --- | --- |
| \`protocol\` | \`${PROTOCOL_VERSION}\` |
| \`parentOrigin\` | the host page's origin, \`http(s)://host[:port]\` |
| \`baseUrl\` | the release base URL, \`http(s)://…/\` (ends with \`/\`) |
| \`initializationTimeoutMs\` | optional, integer 1 to ${groupDigits(INITIALIZATION_TIMEOUT_MS)}; only ever shortens the timeout (tests) |
| \`requestTimeoutMs\` | optional, integer 1 to ${groupDigits(REQUEST_TIMEOUT_MS)}; only ever shortens the timeout (tests) |

The runtime reads the first \`<meta name="${CONFIG_META_NAME}">\` of the document. The
contract calls what the platform injects its runtime module and does not say how the
document loads it (not specified by the contract). The preview and \`platform-ext/testing\`
load it as an external script (the runtime policy forbids inline script), served from
the base URL (the policy's \`script-src\`). Its path starts with a \`.\` segment, which
no bundle path can have (D-2), so it never collides with a bundle file. The preview makes
it parser-blocking (a tool choice), so the parser runs it before it reaches any script of
the extension and \`window.PLATFORM\` exists before any extension module runs, including
\`<script type="module" async>\`, which runs as soon as it has loaded. Extension code
should still wait for \`PLATFORM.ready\` rather than rely on that order. A missing or
malformed config leaves the runtime waiting for a channel that cannot come:
\`PLATFORM.ready\` rejects with \`INITIALIZATION_TIMEOUT\`.

## Handshake

1. The host creates a \`MessageChannel\` and posts \`{"type":"${t.init}","protocol":${PROTOCOL_VERSION}}\`
   to the frame's window with target origin \`"*"\` (a sandboxed frame's origin is opaque),
   transferring exactly one port. The host does this on every \`load\` event of the frame
   (the runtime's listener exists by then) and closes the previous channel, if any.
2. The runtime accepts the first message on its window for which all hold:
   \`event.source === window.parent\`; \`event.origin\` equals the config's \`parentOrigin\`;
   the data is exactly the init message (no other keys); exactly one port came with it.
   Anything else is ignored (not an error). After acceptance the window listener is removed;
   all further traffic is on the port.
3. The host sends the ready state as the first message on the port:
   \`{"type":"${t.ready}","protocol":${PROTOCOL_VERSION},"capabilities":[…],"settings":{…}}\`,
   where \`capabilities\` are the granted keys (declared in the manifest and granted by the
   store user) and \`settings\` the public values (property name -> boolean, number or string).
4. \`PLATFORM.ready\` resolves to a deeply frozen \`{capabilities, settings}\` when a valid ready
   message arrives within ${groupDigits(INITIALIZATION_TIMEOUT_MS)} ms of the runtime starting. Otherwise it rejects
   with \`INITIALIZATION_TIMEOUT\`, every queued call rejects with \`INITIALIZATION_TIMEOUT\`, and
   so does every later call (the state "failed" is final).

## Messages

All messages are closed JSON objects; a receiver drops anything that is not exactly one of
these shapes (the host counts dropped messages in its log).

| Direction | Shape |
| --- | --- |
| host -> frame window | \`{"type":"${t.init}","protocol":${PROTOCOL_VERSION}}\` + one \`MessagePort\` |
| host -> frame (port) | \`{"type":"${t.ready}","protocol":${PROTOCOL_VERSION},"capabilities":[string],"settings":{name: boolean\\|number\\|string}}\` |
| host -> frame (port) | \`{"type":"${t.grants}","capabilities":[string]}\` (grants changed; the preview's own message) |
| host -> frame (port) | \`{"type":"${t.settings}","settings":{…}}\` (settings changed; the preview's own message) |
| frame -> host (port) | \`{"type":"${t.request}","id":n,"capability":string,"action":string,"payload":{…}}\` |
| host -> frame (port) | \`{"type":"${t.response}","id":n,"ok":true,"result":…}\` |
| host -> frame (port) | \`{"type":"${t.response}","id":n,"ok":false,"error":{"code":string,"message":string}}\` |

- \`id\` is an integer from 1 to ${Number.MAX_SAFE_INTEGER}, chosen by the frame, unique per call; the
  response echoes it. A response for an id that is not pending (for example after its
  timeout) is ignored.
- \`capabilities\` lists at most ${MAX_CAPABILITIES} unique keys of the nine; \`settings\` has at most
  ${MAX_PROPERTIES} keys, each a property name.
- The grants and settings messages are the preview's own (D-26): the contract names no event
  the frame can subscribe to. The runtime only updates what \`PLATFORM.capabilities()\` and
  \`PLATFORM.settings()\` return; extension code reads them again when it needs the current
  values, and a call to a capability no longer granted rejects with \`CAPABILITY_NOT_GRANTED\`.
- The \`payload\` sent is the frame's validated copy (not the object the extension passed), before
  defaults are applied, so that both sides measure the same message.

## The API in the frame

| Member | Behaviour |
| --- | --- |
| \`PLATFORM.ready\` | promise of the deeply frozen \`{capabilities, settings}\` of the ready message |
| \`PLATFORM.capabilities()\` | the currently granted keys (frozen array; \`[]\` before ready) |
| \`PLATFORM.settings()\` | the current settings (frozen object; \`{}\` before ready) |
| \`PLATFORM.request(capability, action, payload)\` | one call; \`payload\` absent means \`{}\` |
${CAPABILITIES.map((c) => `| \`${c.method}\` | \`request("${c.key}", …)\` (below) |`).join('\n')}

Named methods build the payload: \`analytics.track(event, properties)\` sends
\`{event, properties}\`; \`booking.availability(query)\`, \`booking.start(details)\` and
\`catalog.products(query)\` send their argument; \`cart.manage(action, details)\` sends
\`details\` with that action; \`communications.text(message)\` sends \`{message}\`;
\`forms.submit(form, fields)\` sends \`{form, fields}\`; \`theme.read()\` sends \`{}\`;
\`waivers.start(waiver)\` sends \`{waiver}\`. A property whose value is \`undefined\` is absent.

\`window.PLATFORM\` and its namespaces are frozen and cannot be replaced. Every method returns a
promise; a rejection is an \`Error\` whose \`code\` is one of the codes below and whose \`message\`
never carries host internals (stack traces, adapter errors).

## Order of checks

Each call is checked in this order, by the frame before sending and by the host on arrival;
the first failure decides the code (D-23):

1. The frame's pending calls: a call made while ${MAX_PENDING_CALLS} calls are pending is
   \`TOO_MANY_REQUESTS\` (frame only; calls waiting for the handshake count as pending).
2. Structure of the message and payload: size (\`PAYLOAD_TOO_LARGE\`), then depth, nodes and
   entries (\`PAYLOAD_TOO_COMPLEX\`), then value types (\`INVALID_PAYLOAD\`). Within this step the
   ranking is by code, whatever the order of keys: a payload that is too large and too deep is
   \`PAYLOAD_TOO_LARGE\`; too deep and holding a function is \`PAYLOAD_TOO_COMPLEX\`.
3. Capability: not one of the nine keys, not declared in the manifest, or not currently granted:
   \`CAPABILITY_NOT_GRANTED\`. The host reads the grants at the moment a call arrives, so a
   revocation applies to the next call even before the frame hears of it.
4. Action: not one of the capability's actions: \`INVALID_REQUEST\`.
5. Fields: the payload must be an object with exactly the fields below (unknown fields,
   missing required fields, wrong types and values out of bounds are \`INVALID_REQUEST\`).

Then the host: a capability the preview was told to fail (\`--fail\`) rejects with
\`REQUEST_FAILED\`; otherwise the adapter runs. An adapter that reports the feature missing
gives \`ADAPTER_UNAVAILABLE\`; any other adapter failure gives \`REQUEST_FAILED\` with a generic
message.

## Payload rules (D-23)

- Crosses: plain objects (prototype \`Object.prototype\` or \`null\`), arrays (prototype
  \`Array.prototype\`, no holes, no named properties), strings, finite numbers, booleans, \`null\`.
- \`INVALID_PAYLOAD\`: functions, symbols, bigint, \`undefined\` in an array, class instances
  (including \`Date\`, \`Map\`, \`Set\`, \`RegExp\`, typed arrays, DOM nodes, array subclasses),
  \`NaN\` and \`±Infinity\`, the keys ${FORBIDDEN_KEYS.map((k) => `\`${k}\``).join(', ')} (as own keys, whatever
  their value), symbol-keyed and non-enumerable properties, and any value whose reading throws
  (a Proxy whose traps throw, a revoked Proxy, a throwing getter).
- An object property whose value is \`undefined\` is dropped as absent; \`-0\` crosses as \`0\`.
- A getter is called exactly once; the copy keeps what it returned, and the copy is what is sent.
- Depth: the root value is at depth 1; each entry is one deeper than its container; every
  value counts, leaves included. At most ${PAYLOAD_MAX_DEPTH}.
- Nodes: every value counts once per visit (a shared reference counts each time it is
  reached). At most ${groupDigits(PAYLOAD_MAX_NODES)}. A cycle is \`PAYLOAD_TOO_COMPLEX\`.
- Entries: at most ${PAYLOAD_MAX_COLLECTION_ENTRIES} per array ("entries per collection") and ${PAYLOAD_MAX_OBJECT_ENTRIES} per object ("entries per
  object"), counted after dropping \`undefined\` properties. Reading "collection" as arrays
  and objects gives the same result, since the object limit is the smaller.
- Size: the UTF-8 byte length of \`JSON.stringify\` of the whole request message (envelope
  included) is at most ${groupDigits(MESSAGE_MAX_BYTES)}. While the payload is being checked, a value that cannot cross
  is counted as \`null\` (4 bytes).

## Requests by capability

${requestSections(3)}
## Responses

| Capability | \`result\` |
| --- | --- |
${CAPABILITIES.map((c) => `| \`${c.key}\` | ${RESPONSE_SUMMARIES[c.key]!}${RESPONSE_NOTES[c.key] ?? ''} |`).join('\n')}

## Cart-updated event

The contract says the storefront dispatches its normal cart-updated event after a cart
operation; the event's name, payload and any other event are not specified by the contract
(D-26). What follows is the preview's own choice. After each cart operation whose result has
\`ok: true\`, the preview's host page dispatches on its own \`window\`:

\`\`\`js
new CustomEvent('${CART_UPDATED_EVENT}', { detail: { itemCount, total } })
\`\`\`

\`itemCount\` (number) and \`total\` (formatted string) are the cart after the operation. The
event is the host page's; the frame never sees it (it cannot reach its parent).

## Timeouts and limits

| Limit | Value |
| --- | --- |
| Handshake (ready state received) | ${groupDigits(INITIALIZATION_TIMEOUT_MS)} ms from the runtime's start, else \`INITIALIZATION_TIMEOUT\` |
| One call | ${groupDigits(REQUEST_TIMEOUT_MS)} ms from the call, else \`REQUEST_TIMEOUT\` (a late response is ignored) |
| Pending calls per frame | ${MAX_PENDING_CALLS} |
| Message size | ${groupDigits(MESSAGE_MAX_BYTES)} bytes |
| Payload depth / nodes | ${PAYLOAD_MAX_DEPTH} / ${groupDigits(PAYLOAD_MAX_NODES)} |
| Entries per array / per object | ${PAYLOAD_MAX_COLLECTION_ENTRIES} / ${PAYLOAD_MAX_OBJECT_ENTRIES} |

## Errors

A failed response carries \`{code, message}\`; the frame rejects with an \`Error\` whose
\`code\` is the code and whose \`message\` is the message.

${errorTable()}
`;
}

/** The Markdown text of contract-snapshot/bridge-protocol.md. */
export const BRIDGE_PROTOCOL_DOC: string = /* @__PURE__ */ renderProtocolDoc();
