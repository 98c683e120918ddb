// contract-snapshot/contract.md: the whole contract in this project's words, for publishers,
// CI pipelines, AI agents and the server side. Every rule id, limit, error code, capability,
// property type and decision D-n appears here, and every number is read from the validator's
// tables (limits.ts through LIMITS and the named constants), never typed twice.
// test/contract/snapshot-content.test.mjs checks the coverage.
import {
  CAPABILITIES,
  BRIDGE_ERROR_CODES,
  BRIDGE_ERROR_CODE_LIST,
  CART_UPDATED_EVENT,
  THEME_FIELDS,
  ACTION_SPECS,
  ALLOWED_EXTENSIONS,
  BUNDLE_PATH_MAX_BYTES,
  BUNDLE_MAX_FILES,
  DEFAULTS_MAX_BYTES,
  INITIALIZATION_TIMEOUT_MS,
  INVITATION_LIFETIME_DAYS,
  LIMITS,
  MANIFEST_MAX_BYTES,
  MAX_PENDING_CALLS,
  REQUEST_TIMEOUT_MS,
  VALUE_MAX_BYTES,
  MANIFEST_FIELD_NAMES,
  PROPERTY_TYPES,
  artifactPath,
  signedPayload,
  SUBMISSION_FILES,
  SUBMISSION_FORMAT,
  RULES,
  BASE_URL_PLACEHOLDER,
  RUNTIME_POLICY_TEMPLATE,
  groupDigits,
  type FieldSpec,
  type LimitEntry,
} from '../validator/internal.js';
import { RESPONSE_SUMMARIES } from './api-tables.js';
import { CAPABILITY_GRANTS, DECISIONS, ERROR_DETAILS, NOT_SPECIFIED } from './prose.js';
import { MANIFEST_FIELD_TEXT } from './schema.js';
import { BRIDGE_PROTOCOL_VERSION, CONTRACT_VERSION, MANIFEST_SCHEMA_VERSION } from './versions.js';

/** D-14's test vector: the private key seed is the bytes 1 to 32. A test recomputes every value. */
export const SIGNING_TEST_VECTOR = {
  seedHex: Array.from({ length: 32 }, (_, i) => (i + 1).toString(16).padStart(2, '0')).join(''),
  namespace: 'acme/hello-world',
  version: '1.0.0',
  manifest: '{}',
  bundle: '',
  publicKey: 'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=',
  fingerprint: '65b60673d6ed884bf01c2c222d82ada0740f29ac3355d6a925c81f17f47a27b8',
  signature: 'Vv6pfDSSyPZvamr2ARK2syYBFBR7bY8Os5gOTP4uVYsUJfe7nOrk4oSLM4OiZ7zvaVmVWia6wY6NbIoqM2IpAA==',
} as const;

/** A limit's value as contract.md shows it: grouped digits, or the list. */
export function limitText(limit: LimitEntry): string {
  const v = limit.value;
  if (typeof v === 'number') return limit.name === 'semver.maxNumericIdentifier' ? String(v) : groupDigits(v);
  return v.map((x) => String(x)).join(', ');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/** A compact rule for one request field: its type, bounds and default. */
function fieldRule(f: FieldSpec): string {
  let rule: string;
  switch (f.kind) {
    case 'string':
      rule = f.min !== undefined && f.min > 0 ? `${f.min}-${groupDigits(f.max!)} chars` : `<= ${groupDigits(f.max!)} chars`;
      break;
    case 'integer':
      rule = f.max === Number.MAX_SAFE_INTEGER ? 'positive integer' : `integer ${groupDigits(f.min!)}-${groupDigits(f.max!)}`;
      break;
    case 'number':
      rule = 'finite number';
      break;
    case 'boolean':
      rule = 'boolean';
      break;
    case 'date':
      rule = 'YYYY-MM-DD';
      break;
    case 'date-time':
      rule = `ISO 8601 date-time with offset, <= ${f.max} chars`;
      break;
    case 'choice':
      rule = f.choices!.map((c) => JSON.stringify(c)).join(' or ');
      break;
    case 'object':
      rule = 'object';
      break;
  }
  return f.default === undefined ? rule : `${rule}, default ${JSON.stringify(f.default)}`;
}

/** `field` rule, `optional?` rule; nested fields with a dotted prefix, form variants by name. */
function fieldList(fields: readonly FieldSpec[], prefix = ''): string[] {
  const out: string[] = [];
  for (const f of fields) {
    if (f.variants !== undefined) {
      for (const [value, inner] of Object.entries(f.variants)) out.push(`${prefix}${f.name} for "${value}": {${fieldList(inner).join(', ')}}`);
      continue;
    }
    if (f.fields !== undefined) {
      out.push(`${prefix}${f.name}${f.required ? '' : '?'} {${fieldList(f.fields).join(', ')}}`);
      continue;
    }
    out.push(`${prefix}${f.name}${f.required ? '' : '?'} ${fieldRule(f)}`);
  }
  return out;
}

function requestText(key: string): string {
  const spec = ACTION_SPECS.find((s) => s.capability === key)!;
  return spec.fields.length === 0 ? 'none' : fieldList(spec.fields).join('; ');
}

function valueRule(type: (typeof PROPERTY_TYPES)[number]): [string, string] {
  switch (type) {
    case 'boolean':
      return ['boolean', 'no size limit'];
    case 'number':
      return ['finite number, within min and max when given (D-7)', 'no size limit'];
    case 'color':
      return ['string: "#" and 6 or 8 hex digits', `${VALUE_MAX_BYTES.color} bytes`];
    case 'select':
      return ['string equal to one option value (D-7)', `${VALUE_MAX_BYTES.select} bytes`];
    case 'text':
      return ['string', `${VALUE_MAX_BYTES.text} bytes`];
    case 'textarea':
      return ['string', `${groupDigits(VALUE_MAX_BYTES.textarea)} bytes`];
    case 'url':
      return ['string: a URL under D-9', `${groupDigits(VALUE_MAX_BYTES.url)} bytes`];
    case 'image':
      return ['string: a URL under D-9', `${groupDigits(VALUE_MAX_BYTES.image)} bytes`];
  }
}

const UNIT_WORDS: Readonly<Record<LimitEntry['unit'], string>> = {
  bytes: ' bytes',
  characters: ' characters',
  count: '',
  ms: ' ms',
  ratio: '',
  days: ' days',
  value: '',
  list: '',
};

/** Every rule, one line each, grouped by area in catalogue order. */
function ruleList(): string {
  const out: string[] = [];
  let area = '';
  for (const r of RULES) {
    const a = r.id.slice(0, r.id.indexOf('/'));
    if (a !== area) {
      if (area !== '') out.push('');
      out.push(`**${a}**`, '');
      area = a;
    }
    out.push(`- \`${r.id}\`${r.severity === 'warning' ? ' (warning)' : ''}: ${r.title}`);
  }
  return out.join('\n');
}

/** The text of contract-snapshot/contract.md. */
export function renderContractMd(): string {
  const limitRows = LIMITS.map((l) => [`\`${l.name}\``, `${limitText(l)}${UNIT_WORDS[l.unit]}`, l.source]);
    const capabilityRows = CAPABILITIES.map((c) => [
    `\`${c.key}\``,
    c.risk,
    `\`${c.method}\`, ${c.actions.length === 1 ? 'action' : 'actions'} ${c.actions.map((a) => `\`${a}\``).join(', ')}`,
    requestText(c.key),
    RESPONSE_SUMMARIES[c.key]!,
  ]);
  const errorRows = BRIDGE_ERROR_CODE_LIST.map((code) => [`\`${code}\``, BRIDGE_ERROR_CODES[code], ERROR_DETAILS[code].when, ERROR_DETAILS[code].handle]);
  const payload = signedPayload('<namespace>', '<version>', '<manifest sha-256 hex>', '<bundle sha-256 hex>');
  const v = SIGNING_TEST_VECTOR;
  return `# Website extension contract, version ${CONTRACT_VERSION}

Generated by platform-ext from the tables its validator and bridge run on; never edited by
hand. It restates the platform's contract (protocol and manifest schema version ${MANIFEST_SCHEMA_VERSION}) in this
project's words, with the decisions (D-n) the tool takes where the contract is silent. The
platform's production validators remain the final authority. Companion files in this folder:
\`manifest.schema.json\`, \`platform.d.ts\`, \`rules.json\`, \`limits.json\`, \`errors.json\`,
\`capabilities.json\`, \`runtime-policy.txt\`, \`bridge-protocol.md\`, \`version.json\`.

## 1. The service in brief

- An extension is a signed, immutable bundle of static files that an online store installs.
  It runs in a sandboxed frame on the storefront and reaches store features only through
  the bridge object \`window.PLATFORM\`, whose operations are called capabilities.
- Nothing runs until a store user installs the extension and approves the capabilities it
  asks for. Declaring a capability is not being granted it.
- Every release is a signed snapshot that never changes; there is no unsigned or
  self-published path, and a site never runs code fetched from a publisher's server.
- Passing automated validation does not publish a release: operators verify the publisher,
  permissions, code, signature and experience, trust the publisher, approve the release and
  review any public listing as separate decisions. Whoever submitted a release cannot approve it.
- The frame has no network, no application session, storage, cookies, parent DOM, forms,
  nested frames, workers, plug-ins, pop-ups or top-level navigation.
- Version ${CONTRACT_VERSION} is closed: no extra manifest fields, capabilities, actions or message shapes.
- Distribution: public free (listed; installed after reviewing capabilities), private or
  unlisted (only through a publisher's installation link), paid or contact-pricing (listed;
  the publisher sends the store a private link). Links can be tied to one store, limited in
  uses and given a UTC expiry; only a hash of the token is stored; opening a link only shows
  its terms, the signed-in store must accept it, and reopening by the same store uses nothing.
  Revoking a link stops new redemptions; revoking a release or publisher stops the code.
- Publisher teams: owners, administrators, developers. Owners invite by private link valid
  for ${INVITATION_LIFETIME_DAYS} days; inviting reveals nothing about the address and adds no one until the
  signed-in recipient with the matching address accepts. Before an owner is removed, or an
  owner's user account deleted, a second owner must have been invited. For a legacy publisher
  that predates the developer console, operators may assign the first owner but never replace
  an existing one.
- Submission files stay private while awaiting review and are deleted after any decision or
  a failed validation; on approval the bundle is first copied to immutable storage. Records,
  hashes, the validation report and the decision trail are kept.

## 2. Project layout

A project is \`manifest.json\` plus a \`runtime/\` folder. Only \`runtime/\` is packaged, and
it is the root of \`bundle.zip\` (D-1); the manifest travels next to the archive, never in it.
Everything under \`runtime/\` is packaged (D-3). No private key belongs anywhere in a project (D-4).

## 3. Manifest (\`manifest.json\`)

Signed as exact bytes: UTF-8, no byte-order mark, one JSON object, no duplicate keys (D-5),
at most ${groupDigits(MANIFEST_MAX_BYTES)} bytes. Unknown fields, \`$schema\` included, are refused: editors map
\`manifest.schema.json\` to the file through their settings instead.

${table(['Field', 'Required', 'Rule'], MANIFEST_FIELD_NAMES.map((n) => [`\`${n}\``, n === 'description' ? 'no' : 'yes', MANIFEST_FIELD_TEXT[n]!]))}

\`schema_version\` and \`protocol_version\` must be written exactly \`1\` (not \`1.0\`).
Property names: a lowercase letter, then letters, digits and underscores.

## 4. Properties

Properties become controls in the store builder and their values are public: never put
secrets, tokens, customer data or private configuration in a default or a setting.

| Field | Rule |
| --- | --- |
| \`type\` | required; one of ${PROPERTY_TYPES.map((t) => `\`${t}\``).join(', ')} |
| \`label\` | required; see the limits |
| \`default\` | must have the type's value rule (below) |
| \`required\` | boolean; true needs a usable default (D-8) |
| \`help\` | optional text; see the limits |
| \`options\` | select only, required there: objects \`{label, value}\` of 1 or more characters each, values all different |
| \`min\`, \`max\` | number only; min not greater than max |

${table(['Type', 'Value', 'Largest value'], PROPERTY_TYPES.map((t) => [`\`${t}\``, ...valueRule(t)]))}

All defaults together are at most ${groupDigits(DEFAULTS_MAX_BYTES)} bytes, and so are saved settings (D-6). Settings for
names that are not properties are refused. Saved settings survive upgrades: keep names and
compatible types across releases.

## 5. Bundle and runtime policy

- Allowed file extensions (any letter case, D-2): ${ALLOWED_EXTENSIONS.map((e) => `\`${e}\``).join(', ')}. Everything
  else (JSON, Markdown, source maps, TypeScript, lock files, licences, hidden files) is refused.
- Exactly one HTML file, the entrypoint. At most ${BUNDLE_MAX_FILES} files; sizes and the compression ratio are in the limits.
- Paths: relative, safe ASCII segments (D-2), at most ${BUNDLE_PATH_MAX_BYTES} bytes, no two paths equal when lowercased, no path both
  a file and a folder of another (D-2a), no symbolic links.
- JavaScript: only local module files, loaded by \`<script type="module" src>\` or imports (D-18, D-19, D-22).
- No remote resources; no inline script or event handlers, \`javascript:\` URLs, authored
  content-security policies, \`<base>\`, frames, objects, embeds or applets.
- At launch the platform injects its config (parent origin, base URL) and its runtime module.
- Storage path of a release: \`${artifactPath('{namespace}', '{version}')}\`.

The frame's content-security policy (D-17; \`${BASE_URL_PLACEHOLDER}\` is the release base URL):

\`\`\`
${RUNTIME_POLICY_TEMPLATE}
\`\`\`

## 6. Bridge (\`window.PLATFORM\`)

\`PLATFORM.ready\` resolves to a deeply frozen \`{capabilities, settings}\` (granted keys, public
settings). \`PLATFORM.capabilities()\` and \`PLATFORM.settings()\` return the current values;
\`PLATFORM.request(capability, action, payload)\` is the low-level form of every method.
Messages carry plain JSON data only (D-23); each call is checked by the frame and again by
the host. The theme is ${THEME_FIELDS.length} CSS value strings: ${THEME_FIELDS.map((f) => `\`${f}\``).join(', ')}.
The handshake must finish within ${groupDigits(INITIALIZATION_TIMEOUT_MS)} ms and each call within ${groupDigits(REQUEST_TIMEOUT_MS)} ms; at most ${MAX_PENDING_CALLS} calls
may be pending. After a cart operation the storefront page (not the frame) dispatches its normal
cart-updated event; its name and payload are not specified by the contract (the preview's page
uses \`${CART_UPDATED_EVENT}\`, its own choice). Analytics honours the site's consent state. Types:
\`platform.d.ts\`; wire format and check order: \`bridge-protocol.md\`.

### Capabilities

Request fields marked \`?\` are optional; characters are UTF-16 code units (D-10).

${table(['Capability', 'Risk', 'Method', 'Request', 'Response'], capabilityRows)}

What each grants:

${CAPABILITIES.map((c) => `- \`${c.key}\`: ${CAPABILITY_GRANTS[c.key]}`).join('\n')}

### Errors

A rejected call raises an \`Error\` whose \`code\` is one of these. Never show raw error
details to visitors.

${table(['Code', 'Meaning', 'When', 'What to do'], errorRows)}

## 7. Release and signature

A submission is five files uploaded together: ${SUBMISSION_FILES.map((f) => `\`${f}\``).join(', ')}.
\`submission.json\` is a closed object with exactly \`format\` (\`${SUBMISSION_FORMAT}\`),
\`namespace\`, \`version\`, \`artifact_path\` (\`${artifactPath('<publisher-slug>/<package-slug>', '<version>')}\`),
\`manifest_sha256\`, \`artifact_sha256\` and \`publisher_public_key_id\` (each 64 lowercase hex digits).

The publisher signs with Ed25519 over this UTF-8 text (D-14), every line ended by \`\\n\`:

\`\`\`
${payload}\`\`\`

The text ends with the \`\\n\` of its fifth line, with no empty line after it: a signature over
one more \`\\n\` is refused as \`release/signature-extra-line-break\`.
\`publisher-public-key.txt\` and \`signature.txt\` hold strict base64 (D-11); the key id is the
SHA-256 of the raw public key (D-12). Any change to the manifest bytes (even line endings),
the bundle or the record after signing makes verification fail.
The private key never enters a project, archive, submission or source control; publishers keep
at least one active key, rotate by adding the new key before revoking the old one, and a changed
fingerprint is never accepted silently. The last active key cannot be revoked, and a publisher
that has been revoked cannot be restored.

Test vector (D-14): private key seed = the bytes 0x01 to 0x20 (\`${v.seedHex}\`), namespace
\`${v.namespace}\`, version \`${v.version}\`, manifest bytes \`${v.manifest}\`, empty bundle. Public key
\`${v.publicKey}\`; fingerprint \`${v.fingerprint}\`; signature
\`${v.signature}\`.

## 8. Lifecycle

- Capabilities: declared and not granted until the store user approves; a revoked grant makes
  calls fail with \`CAPABILITY_NOT_GRANTED\`; a release that adds a capability triggers a new
  review (off until approved); a dropped capability loses its grant automatically.
- Releases: a failed validation keeps its report and the same version may be fixed and
  resubmitted; a passing one waits for review; approval makes the version permanent (never
  reused); rejection, requested changes or withdrawal free the version for the correction;
  revocation stops the code from launching. The previous verified release is kept for a
  one-step rollback.
- Frame: initializing, then ready when the channel opens in time, else failed with
  \`INITIALIZATION_TIMEOUT\`; a pending call resolves, rejects, or fails with \`REQUEST_TIMEOUT\`.

## 9. Versioning

Contract ${CONTRACT_VERSION}, manifest schema ${MANIFEST_SCHEMA_VERSION} and protocol ${BRIDGE_PROTOCOL_VERSION} are closed. Release versions are semantic
versions (D-24); the namespace never changes; a behaviour or source change after approval needs
a higher version. A newer contract is adopted by regenerating a project's snapshot and context
file, never by editing them.

## 10. The developer tool

\`platform-ext\` (Node.js 20 or newer, no dependencies): \`init\` creates a project, \`check\`
validates it (exit status D-21, JSON report D-20), \`preview\` serves it with a mock bridge,
\`keygen\` makes an Ed25519 key pair (D-13), \`package\` builds and signs the five submission
files, \`verify\` re-checks them as the store will, and \`context\` writes a one-file context
document. The operator's \`platform-review\` runs the same checks as \`verify\` and changes nothing.

## 11. Limits

${table(['Limit', 'Value', 'Source'], limitRows)}

## 12. Rules the tool checks

Ids are permanent; every rule is an error unless marked as a warning. \`rules.json\` adds the
contract reference and a fix for each.

${ruleList()}

## 13. Decisions

${DECISIONS.map((d) => `- **D-${d.id} ${d.title}.** ${d.text}`).join('\n')}

## 14. Not specified by the contract

The contract leaves these open. The tool enforces nothing about them beyond what the sections
above state; where it has to pick something, the choice is marked as the tool's own.

${NOT_SPECIFIED.map((n) => `- ${n.topic}: not specified by the contract. ${n.tool}`).join('\n')}
`;
}
