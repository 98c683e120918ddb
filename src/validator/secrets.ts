// Secret scanning: runtime/ reaches every shopper's browser and every manifest string is public (the contract's
// Property definition: no secrets in defaults or settings); the frame has no network (D-17), so a credential in a
// bundle is never needed, only leaked. Bundle text files (TEXT_EXTENSIONS) and every manifest string: access tokens
// (`secret/access-token`, error; private keys are D-4's, in bundle.ts). String property defaults: random-looking
// strings, e-mail addresses and phone numbers (warnings: they are guesses).
// Token shapes, from the vendors' docs; each needs a token boundary on both sides (no [A-Za-z0-9_-], see cleanEnd):
// - GitHub (github.blog 2021-04-05 token formats; docs "About authentication"): gh[pousr]_ + 36+ [A-Za-z0-9_]
//   (longer tokens are announced, so a minimum; stateless ghs_ go on with `.`/`-` parts), github_pat_ + 82+.
// - GitLab ("Personal access token prefix"): glpat- + 20+ [A-Za-z0-9_-], routable ones with `.`-joined parts.
// - Slack ("Token types"): xox[abeoprs]- or xapp- + 20+ [A-Za-z0-9-] with a digit; incoming webhooks
//   hooks.slack.com/services/T.../B.../<secret>: ids T or B + 8 to 62 [A-Z0-9], a secret of 24+ letters and digits.
// - Stripe ("API keys"): sk_live_ or rk_live_ + 20+ letters and digits; pk_ and test-mode keys are harmless.
// - AWS (IAM "Unique identifier prefixes"): AKIA or ASIA + 16 [A-Z0-9]; the docs' samples ending EXAMPLE are not.
// - Google ("Manage API keys"): AIza + 35 [A-Za-z0-9_-]. npm (blog 2021-09): npm_ + 36 letters and digits.
// - SendGrid ("API keys"): SG. + 22 + `.` + 43 of [A-Za-z0-9_-]. Shopify ("Access tokens"): shp(at|ca|pa|ss)_ + 32+
//   hex digits.
// - JWT (RFC 7519, 7515): three base64url parts, header and payload starting eyJ; a header of 20+ naming "alg" and
//   a signature of 16+ (an unsigned token is no credential).
// One forward pass, no regexes, nothing quadratic: it samples (LONG_WORD) and compares a long word with the shapes
// only when its first two bytes start one; test/validator/secrets.test.mjs checks it against a plain scan.
import { jsonPointer, type FindingList } from './findings.js';
import { readJson, type JsonNode } from './json.js';
import { LineMap } from './text.js';

export const TEXT_EXTENSIONS: readonly string[] = ['css', 'html', 'js', 'mjs'];
export const BINARY_EXTENSIONS: readonly string[] = ['avif', 'gif', 'jpeg', 'jpg', 'png', 'webp', 'woff', 'woff2'];

const TEXT = new Set(TEXT_EXTENSIONS);

export function isSecretScanned(ext: string): boolean {
  return TEXT.has(ext);
}

// Byte classes: one table lookup answers every "is this byte in the set" question.

const UPPER = 1;
const LOWER = 2;
const DIGIT = 4;
const UNDERSCORE = 8;
const HYPHEN = 16;
const DOT = 32;
const HEX = 64;
const ANCHOR = 128;
const ALNUM = UPPER | LOWER | DIGIT;
/** A word: [A-Za-z0-9_-], which is also the base64url alphabet. */
const WORD = ALNUM | UNDERSCORE | HYPHEN;

const CLASS = classTable();

function classTable(): Uint8Array {
  const t = new Uint8Array(256);
  for (let c = 0x41; c <= 0x5a; c++) t[c] = UPPER;
  for (let c = 0x61; c <= 0x7a; c++) t[c] = LOWER;
  for (let c = 0x30; c <= 0x39; c++) t[c] = DIGIT | HEX;
  for (let c = 0x41; c <= 0x46; c++) t[c]! |= HEX;
  for (let c = 0x61; c <= 0x66; c++) t[c]! |= HEX;
  t[0x5f] = UNDERSCORE;
  t[0x2d] = HYPHEN;
  t[0x2e] = DOT;
  for (const c of 'AeghnrsxS') t[c.charCodeAt(0)]! |= ANCHOR;
  return t;
}

/** The first two bytes of every shape, as a 64 KiB bitmap indexed by (first << 8) | second. */
const ANCHOR_PAIRS = anchorPairs();

function anchorPairs(): Uint8Array {
  const t = new Uint8Array(65536);
  for (const pair of ['gh', 'gi', 'gl', 'xo', 'xa', 'ho', 'sk', 'rk', 'sh', 'AK', 'AS', 'AI', 'np', 'SG', 'ey']) {
    t[(pair.charCodeAt(0) << 8) | pair.charCodeAt(1)] = 1;
  }
  return t;
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

const GITHUB_PAT = ascii('github_pat_');
const GITLAB_PAT = ascii('glpat-');
const SLACK_WEBHOOK = ascii('hooks.slack.com/services/');
/** Slack team and channel ids are about ten characters; a run of 64 or more is not one (and is not read further). */
const SLACK_ID_MAX = 64;
const SLACK_APP = ascii('xapp-');
const STRIPE_LIVE = ascii('k_live_');
const SHOPIFY = ascii('shp');
const SENDGRID = ascii('SG.');
const NPM = ascii('npm_');
const JWT_START = ascii('eyJ');
const AWS_SAMPLE_SUFFIX = ascii('EXAMPLE');

export type TokenKind =
  | 'github-token'
  | 'gitlab-token'
  | 'slack-token'
  | 'slack-webhook'
  | 'stripe-secret-key'
  | 'aws-access-key-id'
  | 'google-api-key'
  | 'npm-token'
  | 'sendgrid-api-key'
  | 'shopify-token'
  | 'json-web-token';

export const TOKEN_NAMES: Readonly<Record<TokenKind, string>> = {
  'github-token': 'A GitHub token',
  'gitlab-token': 'A GitLab personal access token',
  'slack-token': 'A Slack token',
  'slack-webhook': 'A Slack incoming-webhook URL',
  'stripe-secret-key': 'A Stripe secret key',
  'aws-access-key-id': 'An AWS access key id',
  'google-api-key': 'A Google API key',
  'npm-token': 'An npm access token',
  'sendgrid-api-key': 'A SendGrid API key',
  'shopify-token': 'A Shopify access token',
  'json-web-token': 'A JSON Web Token',
};

export interface TokenMatch {
  readonly kind: TokenKind;
  readonly start: number;
  readonly end: number;
  /** Length of the fixed prefix, so a message can show it and hide the secret. */
  readonly prefix: number;
}

// Set by matchAt next to its return value (no object per candidate word).
let matchedKind: TokenKind = 'github-token';
let matchedPrefix = 0;

function runOf(b: Uint8Array, from: number, n: number, mask: number): number {
  let k = from;
  while (k < n && (CLASS[b[k]!]! & mask) !== 0) k++;
  return k - from;
}

function hasAt(b: Uint8Array, at: number, n: number, literal: Uint8Array): boolean {
  if (at + literal.length > n) return false;
  for (let k = 0; k < literal.length; k++) if (b[at + k] !== literal[k]) return false;
  return true;
}

function cleanEnd(b: Uint8Array, end: number, n: number): boolean {
  return end >= n || (CLASS[b[end]!]! & WORD) === 0;
}

function found(kind: TokenKind, prefix: number, end: number): number {
  matchedKind = kind;
  matchedPrefix = prefix;
  return end;
}

/** Drops `.` bytes at the end of [from, end): a sentence may end right after a token. */
function trimDots(b: Uint8Array, from: number, end: number): number {
  while (end > from && b[end - 1] === 0x2e) end--;
  return end;
}

// The end of the token starting at the anchor word start `i`, or -1; sets matchedKind and matchedPrefix.
function matchAt(b: Uint8Array, i: number, n: number): number {
  const c0 = b[i]!;
  const c1 = i + 1 < n ? b[i + 1]! : 0;
  switch (c0) {
    case 0x67: {
      // g: ghp_ gho_ ghu_ ghs_ ghr_, github_pat_, glpat-
      if (c1 === 0x68 && i + 3 < n && b[i + 3] === 0x5f) {
        const t = b[i + 2]!;
        if (t === 0x70 || t === 0x6f || t === 0x75 || t === 0x72 || t === 0x73) {
          const from = i + 4;
          if (runOf(b, from, n, ALNUM | UNDERSCORE) < 36) return -1;
          const end = t === 0x73 ? trimDots(b, from, from + runOf(b, from, n, WORD | DOT)) : from + runOf(b, from, n, ALNUM | UNDERSCORE);
          return cleanEnd(b, end, n) ? found('github-token', 4, end) : -1;
        }
        return -1;
      }
      if (c1 === 0x69 && hasAt(b, i, n, GITHUB_PAT)) {
        const from = i + GITHUB_PAT.length;
        const end = from + runOf(b, from, n, ALNUM | UNDERSCORE);
        return end - from >= 82 && cleanEnd(b, end, n) ? found('github-token', GITHUB_PAT.length, end) : -1;
      }
      if (c1 === 0x6c && hasAt(b, i, n, GITLAB_PAT)) {
        const from = i + GITLAB_PAT.length;
        if (runOf(b, from, n, WORD) < 20) return -1;
        const end = trimDots(b, from, from + runOf(b, from, n, WORD | DOT));
        return found('gitlab-token', GITLAB_PAT.length, end);
      }
      return -1;
    }
    case 0x78: {
      // x: xox?- and xapp-
      let from = -1;
      if (c1 === 0x6f && i + 4 < n && b[i + 2] === 0x78 && b[i + 4] === 0x2d) {
        const t = b[i + 3]!;
        if (t === 0x61 || t === 0x62 || t === 0x65 || t === 0x6f || t === 0x70 || t === 0x72 || t === 0x73) from = i + 5;
      } else if (c1 === 0x61 && hasAt(b, i, n, SLACK_APP)) {
        from = i + SLACK_APP.length;
      }
      if (from < 0) return -1;
      const end = from + runOf(b, from, n, ALNUM | HYPHEN);
      if (end - from < 20 || !cleanEnd(b, end, n)) return -1;
      return hasDigit(b, from, end) ? found('slack-token', from - i, end) : -1;
    }
    case 0x68: {
      // h: hooks.slack.com/services/T.../B.../secret
      if (c1 !== 0x6f || !hasAt(b, i, n, SLACK_WEBHOOK)) return -1;
      let k = i + SLACK_WEBHOOK.length;
      for (const lead of [0x54, 0x42]) {
        if (b[k] !== lead) return -1;
        const id = runOf(b, k + 1, n, UPPER | DIGIT);
        k += 1 + id;
        if (id < 8 || 1 + id >= SLACK_ID_MAX || b[k] !== 0x2f) return -1;
        k++;
      }
      const secret = runOf(b, k, n, ALNUM);
      return secret >= 24 && cleanEnd(b, k + secret, n) ? found('slack-webhook', SLACK_WEBHOOK.length, k + secret) : -1;
    }
    case 0x73:
    case 0x72: {
      // s, r: sk_live_ rk_live_; s: shpat_ shpca_ shppa_ shpss_
      if (c1 === 0x6b && hasAt(b, i + 1, n, STRIPE_LIVE)) {
        const from = i + 1 + STRIPE_LIVE.length;
        const end = from + runOf(b, from, n, ALNUM);
        return end - from >= 20 && cleanEnd(b, end, n) ? found('stripe-secret-key', from - i, end) : -1;
      }
      if (c0 === 0x73 && c1 === 0x68 && hasAt(b, i, n, SHOPIFY) && i + 5 < n && b[i + 5] === 0x5f) {
        const a = b[i + 3]!;
        const z = b[i + 4]!;
        const kind = (a === 0x61 && z === 0x74) || (a === 0x63 && z === 0x61) || (a === 0x70 && z === 0x61) || (a === 0x73 && z === 0x73);
        if (!kind) return -1;
        const from = i + 6;
        const end = from + runOf(b, from, n, HEX);
        return end - from >= 32 && cleanEnd(b, end, n) ? found('shopify-token', 6, end) : -1;
      }
      return -1;
    }
    case 0x41: {
      // A: AKIA ASIA (16 of [A-Z0-9]), AIza (35 of [A-Za-z0-9_-])
      if (i + 3 >= n) return -1;
      const c2 = b[i + 2]!;
      const c3 = b[i + 3]!;
      if ((c1 === 0x4b || c1 === 0x53) && c2 === 0x49 && c3 === 0x41) {
        const from = i + 4;
        const len = runOf(b, from, n, UPPER | DIGIT);
        const end = from + len;
        if (len !== 16 || !cleanEnd(b, end, n)) return -1;
        return hasAt(b, end - AWS_SAMPLE_SUFFIX.length, n, AWS_SAMPLE_SUFFIX) ? -1 : found('aws-access-key-id', 4, end);
      }
      if (c1 === 0x49 && c2 === 0x7a && c3 === 0x61) {
        const from = i + 4;
        return runOf(b, from, n, WORD) === 35 ? found('google-api-key', 4, from + 35) : -1;
      }
      return -1;
    }
    case 0x6e: {
      if (c1 !== 0x70 || !hasAt(b, i, n, NPM)) return -1;
      const from = i + NPM.length;
      return runOf(b, from, n, ALNUM) === 36 && cleanEnd(b, from + 36, n) ? found('npm-token', NPM.length, from + 36) : -1;
    }
    case 0x53: {
      if (c1 !== 0x47 || !hasAt(b, i, n, SENDGRID)) return -1;
      const first = i + SENDGRID.length;
      if (runOf(b, first, n, WORD) !== 22 || b[first + 22] !== 0x2e) return -1;
      const second = first + 23;
      return runOf(b, second, n, WORD) === 43 ? found('sendgrid-api-key', SENDGRID.length, second + 43) : -1;
    }
    case 0x65:
      return c1 === 0x79 ? matchJwt(b, i, n) : -1;
    default:
      return -1;
  }
}

function hasDigit(b: Uint8Array, from: number, end: number): boolean {
  for (let k = from; k < end; k++) if ((CLASS[b[k]!]! & DIGIT) !== 0) return true;
  return false;
}

function matchJwt(b: Uint8Array, i: number, n: number): number {
  if (!hasAt(b, i, n, JWT_START)) return -1;
  const header = runOf(b, i, n, WORD);
  // {"alg":"HS256"} is the shortest header naming a registered algorithm (RFC 7518): 20 base64url characters.
  if (header < 20 || b[i + header] !== 0x2e) return -1;
  const payload = i + header + 1;
  if (!hasAt(b, payload, n, JWT_START)) return -1;
  const payloadLength = runOf(b, payload, n, WORD);
  if (b[payload + payloadLength] !== 0x2e) return -1;
  const signature = payload + payloadLength + 1;
  const signatureLength = runOf(b, signature, n, WORD);
  if (signatureLength < 16) return -1;
  const end = signature + signatureLength;
  // A fourth part makes it something else (an encrypted JWT has five).
  if (end + 1 < n && b[end] === 0x2e && (CLASS[b[end + 1]!]! & WORD) !== 0) return -1;
  return headerNamesAlg(b, i, header) ? found('json-web-token', 3, end) : -1;
}

const BASE64URL_VALUE = base64urlValues();

function base64urlValues(): Int8Array {
  const t = new Int8Array(256).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let k = 0; k < alphabet.length; k++) t[alphabet.charCodeAt(k)] = k;
  return t;
}

// The first 512 characters are enough for any header.
function headerNamesAlg(b: Uint8Array, from: number, length: number): boolean {
  let text = '';
  let acc = 0;
  let bits = 0;
  const end = from + Math.min(length, 512);
  for (let k = from; k < end; k++) {
    acc = ((acc << 6) | BASE64URL_VALUE[b[k]!]!) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      text += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return text.includes('"alg"');
}

// Every shape has a word ([A-Za-z0-9_-] run) of at least LONG_WORD bytes, so one byte in LONG_WORD is sampled: a
// sample outside a word proves no long word starts in the bytes before it; one inside measures its word. A token
// starts at a long word, three bytes before one (`SG.`) or, for a Slack webhook, before its secret.
const LONG_WORD = 20;

// Every token, in order, never overlapping: byte offsets in UTF-8, code units in codeUnitBytes() of a string.
export function findTokens(bytes: Uint8Array): TokenMatch[] {
  const out: TokenMatch[] = [];
  const n = bytes.length;
  let p = LONG_WORD - 1;
  while (p < n) {
    if ((CLASS[bytes[p]!]! & WORD) === 0) {
      p += LONG_WORD;
      continue;
    }
    let start = p;
    while (start > 0 && (CLASS[bytes[start - 1]!]! & WORD) !== 0) start--;
    let end = p + 1;
    while (end < n && (CLASS[bytes[end]!]! & WORD) !== 0) end++;
    if (end - start >= LONG_WORD) end = tokenAround(bytes, start, end, n, out);
    p = end + LONG_WORD;
  }
  return out;
}

function isWordStart(b: Uint8Array, at: number): boolean {
  return at === 0 || (CLASS[b[at - 1]!]! & WORD) === 0;
}

// Returns where scanning resumes: the token's end, or the word's end.
function tokenAround(b: Uint8Array, start: number, end: number, n: number, out: TokenMatch[]): number {
  // In text order, so the leftmost token wins; none may start inside the previous token.
  const floor = out.length === 0 ? 0 : out[out.length - 1]!.end;
  let at = -1;
  let tokenEnd = -1;
  if (start > 0 && b[start - 1] === 0x2f) {
    at = webhookStart(b, start);
    if (at >= floor) tokenEnd = matchAt(b, at, n);
  }
  if (tokenEnd < 0 && start >= 3 && b[start - 1] === 0x2e && b[start - 2] === 0x47 && b[start - 3] === 0x53 && isWordStart(b, start - 3)) {
    at = start - 3;
    tokenEnd = matchAt(b, at, n);
  }
  if (tokenEnd < 0 && (CLASS[b[start]!]! & ANCHOR) !== 0 && start + 1 < n && ANCHOR_PAIRS[(b[start]! << 8) | b[start + 1]!] === 1) {
    at = start;
    tokenEnd = matchAt(b, at, n);
  }
  if (tokenEnd < 0) return end;
  out.push({ kind: matchedKind, start: at, end: tokenEnd, prefix: matchedPrefix });
  return Math.max(end, tokenEnd);
}

// Where `hooks.slack.com/services/T.../B.../` would start before the secret word (read backwards), or -1.
function webhookStart(b: Uint8Array, secret: number): number {
  let k = secret - 1; // the "/" before the secret
  for (const lead of [0x42, 0x54]) {
    let j = k;
    while (j > 0 && k - j < SLACK_ID_MAX && (CLASS[b[j - 1]!]! & (UPPER | DIGIT)) !== 0) j--;
    if (b[j] !== lead || j === 0 || b[j - 1] !== 0x2f) return -1;
    k = j - 1;
  }
  const at = k + 1 - SLACK_WEBHOOK.length;
  return at >= 0 && isWordStart(b, at) && hasAt(b, at, b.length, SLACK_WEBHOOK) ? at : -1;
}

/** A string as one byte per UTF-16 code unit (anything above 0xff becomes 0x80, which is in no class). */
export function codeUnitBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    out[k] = c > 0xff ? 0x80 : c;
  }
  return out;
}

/** The token as a message shows it: its fixed prefix and four more characters, never the whole secret. */
function preview(text: string, prefix: number): string {
  return `${text.slice(0, Math.min(text.length, prefix + 4))}...`;
}

function tokenText(bytes: Uint8Array, m: TokenMatch): string {
  let s = '';
  for (let k = m.start; k < m.end; k++) s += String.fromCharCode(bytes[k]!);
  return s;
}

// Line and column (UTF-16, as LineMap counts) of increasing UTF-8 byte offsets in one pass; a BOM takes no column.
class ByteLines {
  private pos: number;
  private line = 1;
  private column = 1;

  constructor(private readonly bytes: Uint8Array) {
    this.pos = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  }

  at(offset: number): { line: number; column: number } {
    const b = this.bytes;
    for (; this.pos < offset; this.pos++) {
      const c = b[this.pos]!;
      if (c === 0x0a || (c === 0x0d && b[this.pos + 1] !== 0x0a)) {
        this.line++;
        this.column = 1;
      } else if (c !== 0x0d && (c & 0xc0) !== 0x80) {
        // A UTF-8 lead byte (or ASCII); four-byte sequences are two UTF-16 code units.
        this.column += c >= 0xf0 ? 2 : 1;
      }
    }
    return { line: this.line, column: this.column };
  }
}

/** One finding per distinct token, at its first occurrence, with the count when it repeats. */
function distinct(bytes: Uint8Array, matches: readonly TokenMatch[]): { match: TokenMatch; text: string; count: number }[] {
  const byText = new Map<string, { match: TokenMatch; text: string; count: number }>();
  for (const m of matches) {
    const text = tokenText(bytes, m);
    const seen = byText.get(text);
    if (seen === undefined) byText.set(text, { match: m, text, count: 1 });
    else seen.count++;
  }
  return [...byText.values()];
}

function times(count: number): string {
  return count > 1 ? ` (${count} times)` : '';
}

/** Access tokens in one bundle text file (`file` without the caller's prefix), each distinct one once. */
export function checkFileSecrets(file: string, bytes: Uint8Array, findings: FindingList): void {
  const matches = findTokens(bytes);
  if (matches.length === 0) return;
  const lines = new ByteLines(bytes);
  for (const { match, text, count } of distinct(bytes, matches)) {
    const { line, column } = lines.at(match.start);
    findings.add(
      'secret/access-token',
      `${TOKEN_NAMES[match.kind]} ("${preview(text, match.prefix)}", ${text.length} characters) is in "${file}"${times(count)}: every bundle file is public`,
      { file, line, column },
    );
  }
}


// Call only when validateManifest could read the bytes: unreadable bytes are that check's finding.
export function checkManifestSecrets(bytes: Uint8Array, findings: FindingList, file = 'manifest.json'): void {
  const read = readJson(bytes);
  if (!read.ok || read.value.kind !== 'object') return;
  const text = read.text;
  let lineMap: LineMap | undefined;
  const at = (pointer: string, offset: number) => {
    lineMap ??= new LineMap(text);
    return { file, pointer, ...lineMap.at(offset) };
  };

  const stack: { node: JsonNode; pointer: string }[] = [{ node: read.value, pointer: '' }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    if (node.kind === 'object') {
      for (let k = node.entries.length - 1; k >= 0; k--) {
        const entry = node.entries[k]!;
        stack.push({ node: entry.value, pointer: pointer + jsonPointer(entry.key) });
      }
    } else if (node.kind === 'array') {
      for (let k = node.items.length - 1; k >= 0; k--) stack.push({ node: node.items[k]!, pointer: `${pointer}/${k}` });
    } else if (node.kind === 'string') {
      const units = codeUnitBytes(node.value);
      for (const { match, text: token, count } of distinct(units, findTokens(units))) {
        findings.add(
          'secret/access-token',
          `${TOKEN_NAMES[match.kind]} ("${preview(token, match.prefix)}", ${token.length} characters) is in the manifest at ${pointer}${times(count)}: manifest strings are public`,
          at(pointer, node.offset),
        );
      }
    }
  }

  const properties = read.value.entries.find((e) => e.key === 'properties')?.value;
  if (properties?.kind !== 'object') return;
  for (const entry of properties.entries) {
    if (entry.value.kind !== 'object') continue;
    const fields = entry.value.entries;
    const typeNode = fields.find((f) => f.key === 'type')?.value;
    const defaultNode = fields.find((f) => f.key === 'default')?.value;
    if (defaultNode?.kind !== 'string') continue;
    const type = typeNode?.kind === 'string' ? typeNode.value : '';
    if (type === 'color') continue;
    const pointer = `/properties${jsonPointer(entry.key)}/default`;
    const where = () => at(pointer, defaultNode.offset);
    const value = defaultNode.value;
    const isUrl = type === 'url' || type === 'image';

    // In a URL, paths often hold content hashes: only the query and fragment are judged.
    const query = isUrl ? queryStart(value) : 0;
    const tokens = findTokens(codeUnitBytes(value));
    const random = findHighEntropy(value, query).filter((r) => !tokens.some((t) => t.start < r.end && r.start < t.end));
    if (random.length > 0) {
      const r = random[0]!;
      findings.add(
        'secret/high-entropy-default',
        `The default of "${entry.key}" holds a random-looking string of ${r.end - r.start} characters ("${value.slice(r.start, r.start + 4)}...")${times(random.length)}: a key or password in a default is public`,
        where(),
      );
    }
    const emails = findEmails(value);
    if (emails.length > 0) {
      findings.add(
        'secret/email-in-default',
        `The default of "${entry.key}" holds the e-mail address "${value.slice(emails[0]!.start, emails[0]!.end)}"${times(emails.length)}: defaults are public`,
        where(),
      );
    }
    const phones = isUrl ? [] : findPhones(value);
    if (phones.length > 0) {
      findings.add(
        'secret/phone-in-default',
        `The default of "${entry.key}" holds the phone number "${value.slice(phones[0]!.start, phones[0]!.end)}"${times(phones.length)}: defaults are public`,
        where(),
      );
    }
  }
}

function queryStart(url: string): number {
  for (let k = 0; k < url.length; k++) {
    const c = url.charCodeAt(k);
    if (c === 0x3f || c === 0x23) return k + 1;
  }
  return url.length;
}

export interface Span {
  readonly start: number;
  readonly end: number;
}

// Random-looking strings: runs of base64 characters of HIGH_ENTROPY_MIN_CHARS or more (the shortest common API keys,
// an MD5 digest). A random 32-character key passes about 98 times in 100 (the tests measure it); paths, slugs and
// CamelCase fail: hex needs a digit, a letter and entropy >= 3.0 bits; others need all three character classes,
// entropy >= 4.0 and under half of the letters in lowercase runs of three (words). UUIDs are identifiers: no match.

export const HIGH_ENTROPY_MIN_CHARS = 32;
const HEX_MIN_ENTROPY = 3.0;
const BASE64_MIN_ENTROPY = 4.0;
const LOWERCASE_RUN = 3;
const BASE64_MAX_WORDINESS = 0.5;

export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function isBase64Char(c: number): boolean {
  return c < 0x80 && ((CLASS[c]! & WORD) !== 0 || c === 0x2b || c === 0x2f);
}

export function findHighEntropy(text: string, from = 0): Span[] {
  const out: Span[] = [];
  let k = from;
  while (k < text.length) {
    if (!isBase64Char(text.charCodeAt(k))) {
      k++;
      continue;
    }
    const start = k;
    while (k < text.length && isBase64Char(text.charCodeAt(k))) k++;
    if (k - start >= HIGH_ENTROPY_MIN_CHARS && looksRandom(text.slice(start, k))) out.push({ start, end: k });
  }
  return out;
}

function looksRandom(run: string): boolean {
  let seen = 0;
  let allHex = true;
  let letters = 0;
  let inLowercaseRuns = 0;
  let lowercaseRun = 0;
  for (let k = 0; k <= run.length; k++) {
    const cls = k < run.length ? CLASS[run.charCodeAt(k)]! : 0;
    if ((cls & HEX) === 0 && k < run.length) allHex = false;
    seen |= cls & ALNUM;
    if ((cls & (UPPER | LOWER)) !== 0) letters++;
    if ((cls & LOWER) !== 0) {
      lowercaseRun++;
    } else {
      if (lowercaseRun >= LOWERCASE_RUN) inLowercaseRuns += lowercaseRun;
      lowercaseRun = 0;
    }
  }
  if (allHex) return (seen & DIGIT) !== 0 && (seen & (UPPER | LOWER)) !== 0 && shannonEntropy(run) >= HEX_MIN_ENTROPY;
  return seen === ALNUM && inLowercaseRuns < BASE64_MAX_WORDINESS * letters && shannonEntropy(run) >= BASE64_MIN_ENTROPY;
}

// E-mail addresses: local@domain.tld. Domains RFC 2606 and RFC 6761 reserve for examples (example.com, .test,
// .invalid, ...) are placeholders, not personal data.

const RESERVED_EMAIL_TLDS = new Set(['example', 'test', 'invalid', 'localhost']);
const RESERVED_EMAIL_DOMAINS = ['example.com', 'example.net', 'example.org'];

function isEmailLocalChar(c: number): boolean {
  return c < 0x80 && ((CLASS[c]! & (ALNUM | UNDERSCORE | HYPHEN | DOT)) !== 0 || c === 0x25 || c === 0x2b);
}

function isDomainChar(c: number): boolean {
  return c < 0x80 && (CLASS[c]! & (ALNUM | HYPHEN | DOT)) !== 0;
}

export function findEmails(text: string): Span[] {
  const out: Span[] = [];
  let floor = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > floor && isEmailLocalChar(text.charCodeAt(start - 1))) start--;
    while (start < at && text.charCodeAt(start) === 0x2e) start++;
    let end = at + 1;
    while (end < text.length && isDomainChar(text.charCodeAt(end))) end++;
    while (end > at + 1 && (text.charCodeAt(end - 1) === 0x2e || text.charCodeAt(end - 1) === 0x2d)) end--;
    floor = at + 1;
    if (start === at || text.charCodeAt(at - 1) === 0x2e) continue;
    const domain = text.slice(at + 1, end).toLowerCase();
    const labels = domain.split('.');
    if (labels.length < 2 || labels.some((l) => l === '' || l.startsWith('-') || l.endsWith('-'))) continue;
    const tld = labels[labels.length - 1]!;
    if (tld.length < 2 || !/^[a-z]+$/.test(tld)) continue;
    if (RESERVED_EMAIL_TLDS.has(tld) || RESERVED_EMAIL_DOMAINS.some((d) => domain === d || domain.endsWith(`.${d}`))) continue;
    out.push({ start, end });
    floor = end;
  }
  return out;
}

// Phone numbers start after a space, a line start or punctuation other than . - / + # (never inside versions, dates
// or ids) and end before anything but a letter, a digit or [.,:/-] + digit. International (E.164): `+` and 8 to 15
// digits, first not 0, in groups (one may be parenthesised). National: 10 or 11 digits in groups of two or more,
// starting with 0 or "(", or 3-3-4. Dates, times, prices and versions are none of these.

export const PHONE_INTERNATIONAL_MIN_DIGITS = 8;
export const PHONE_INTERNATIONAL_MAX_DIGITS = 15;
export const PHONE_NATIONAL_MIN_DIGITS = 10;
export const PHONE_NATIONAL_MAX_DIGITS = 11;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isAsciiAlnum(c: number): boolean {
  return c < 0x80 && (CLASS[c]! & ALNUM) !== 0;
}

function phoneMayFollow(c: number): boolean {
  if (Number.isNaN(c)) return true;
  if (isAsciiAlnum(c)) return false;
  // . - / + # _ = & % join numbers to what precedes them (versions, ids, query strings).
  return !'.-/+#_=&%'.includes(String.fromCharCode(c));
}

export function findPhones(text: string): Span[] {
  const out: Span[] = [];
  let k = 0;
  while (k < text.length) {
    const c = text.charCodeAt(k);
    if ((c === 0x2b || c === 0x28 || isDigit(c)) && phoneMayFollow(k === 0 ? Number.NaN : text.charCodeAt(k - 1))) {
      const { end, ok } = phoneAt(text, k);
      if (ok) out.push({ start: k, end });
      // Never re-read from its middle: the tail of an invalid number is not valid either.
      if (end > k) {
        k = end;
        continue;
      }
    }
    k++;
    if (isAsciiAlnum(c) || c === 0x2b) while (k < text.length && (isAsciiAlnum(text.charCodeAt(k)) || text.charCodeAt(k) === 0x2b)) k++;
  }
  return out;
}

/** Reads the digit groups that start at `start`: where they end, and whether they are a phone number. */
function phoneAt(text: string, start: number): { end: number; ok: boolean } {
  const n = text.length;
  let k = start;
  const international = text.charCodeAt(k) === 0x2b;
  if (international) k++;
  const groups: number[] = [];
  let parenthesised = false;
  let end = -1;
  for (;;) {
    const c = text.charCodeAt(k);
    if (c === 0x28) {
      let d = k + 1;
      while (d < n && isDigit(text.charCodeAt(d))) d++;
      if (d === k + 1 || d - k - 1 > 4 || text.charCodeAt(d) !== 0x29) break;
      groups.push(d - k - 1);
      parenthesised = true;
      k = d + 1;
      end = k;
      // A group may follow ")" directly: "(0)20".
      if (isDigit(text.charCodeAt(k))) continue;
    } else if (isDigit(c)) {
      let d = k;
      while (d < n && isDigit(text.charCodeAt(d))) d++;
      groups.push(d - k);
      k = d;
      end = k;
    } else {
      break;
    }
    const s = text.charCodeAt(k);
    const next = text.charCodeAt(k + 1);
    if ((s === 0x20 || s === 0x2d || s === 0x2e) && (isDigit(next) || next === 0x28)) k++;
    else break;
  }
  if (end < 0) return { end: start, ok: false };
  const no = { end, ok: false };
  // The end: not inside a longer word or number ("12:30", "4567.89", "555-1234x").
  const after = text.charCodeAt(end);
  if (isAsciiAlnum(after)) return no;
  if ((after === 0x2e || after === 0x2c || after === 0x3a || after === 0x2f || after === 0x2d) && isDigit(text.charCodeAt(end + 1))) return no;
  let digits = 0;
  for (const g of groups) digits += g;
  if (international) {
    const first = text.charCodeAt(start + 1);
    const ok = first !== 0x30 && isDigit(first) && digits >= PHONE_INTERNATIONAL_MIN_DIGITS && digits <= PHONE_INTERNATIONAL_MAX_DIGITS;
    return { end, ok };
  }
  if (digits < PHONE_NATIONAL_MIN_DIGITS || digits > PHONE_NATIONAL_MAX_DIGITS || groups.length < 2) return no;
  if (groups.some((g) => g < 2)) return no;
  const opensWithTrunkOrArea = text.charCodeAt(start) === 0x30 || (parenthesised && text.charCodeAt(start) === 0x28);
  const northAmerican = groups.length === 3 && groups[0] === 3 && groups[1] === 3 && groups[2] === 4;
  return { end, ok: opensWithTrunkOrArea || northAmerican };
}
