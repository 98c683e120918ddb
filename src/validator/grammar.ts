// Grammar pieces of the contract (Manifest; Property definition; Versioning; D-9; D-24): hand-written scanners or
// anchored regexes without nested quantifiers, so untrusted text is read in linear time.
import {
  DNS_LABEL_MAX_CHARS,
  DNS_NAME_MAX_CHARS,
  IPV4_OCTET_MAX,
  PROPERTY_NAME_MAX_CHARS,
  SEMVER_MAX_NUMERIC,
  URL_PORT_MAX_DIGITS,
} from './limits.js';

function isLowerLetter(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

const HYPHEN = 0x2d;

// Namespace (Manifest): it becomes a storage path (`extensions/{namespace}/...`), hence lowercase slugs only.

/** A slug: `[a-z][a-z0-9]*` groups joined by single hyphens, no leading or trailing hyphen. */
export function isSlug(s: string): boolean {
  if (s.length === 0 || !isLowerLetter(s.charCodeAt(0))) return false;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isLowerLetter(c) || isDigit(c)) continue;
    if (c === HYPHEN && i + 1 < s.length && s.charCodeAt(i + 1) !== HYPHEN) continue;
    return false;
  }
  return true;
}

/** `<publisher-slug>/<package-slug>` (Manifest). */
export function isNamespace(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  return isSlug(s.slice(0, slash)) && isSlug(s.slice(slash + 1));
}

// Semantic version (Versioning; semver.org 2.0.0 BNF): numeric identifiers have no leading zero and are at most
// SEMVER_MAX_NUMERIC (D-24); build identifiers are never compared as numbers, so neither rule applies to them.
// ASCII only: fullwidth digits and other `\d` look-alikes are refused.

function isNumericIdentifier(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) if (!isDigit(s.charCodeAt(i))) return false;
  if (s.length > 1 && s.charCodeAt(0) === 0x30) return false;
  // 17+ digits exceed the bound; below, Number() rounds only values above 2^53, beyond the bound anyway.
  if (s.length > String(SEMVER_MAX_NUMERIC).length) return false;
  return Number(s) <= SEMVER_MAX_NUMERIC;
}

function isAlphanumericIdentifier(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isAsciiLetter(c) && !isDigit(c) && c !== HYPHEN) return false;
  }
  return true;
}

function isAllDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

/** Semantic version per the contract's Versioning table, with D-24's numeric bound. */
export function isSemver(s: string): boolean {
  const plus = s.indexOf('+');
  const beforeBuild = plus < 0 ? s : s.slice(0, plus);
  if (plus >= 0) {
    // `split` keeps empty pieces, so `1.0.0+`, `+a..b` and a second `+` all fail here.
    for (const id of s.slice(plus + 1).split('.')) if (!isAlphanumericIdentifier(id)) return false;
  }
  const hyphen = beforeBuild.indexOf('-');
  const core = hyphen < 0 ? beforeBuild : beforeBuild.slice(0, hyphen);
  if (hyphen >= 0) {
    for (const id of beforeBuild.slice(hyphen + 1).split('.')) {
      if (!isAlphanumericIdentifier(id)) return false;
      if (isAllDigits(id) && !isNumericIdentifier(id)) return false;
    }
  }
  const parts = core.split('.');
  return parts.length === 3 && parts.every(isNumericIdentifier);
}

const PROPERTY_NAME = /^[a-z][A-Za-z0-9_]*$/;

/** A property name (Manifest): a lowercase letter, then letters, digits and `_`; at most PROPERTY_NAME_MAX_CHARS. */
export function isPropertyName(s: string): boolean {
  return s.length <= PROPERTY_NAME_MAX_CHARS && PROPERTY_NAME.test(s);
}

const COLOR = /^#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/;

export function isColor(s: string): boolean {
  return COLOR.test(s);
}

// URL (`url` and `image` values; D-9): empty, site-relative (one leading `/`) or http(s) absolute with host, optional
// port, path, query and fragment, no userinfo; never whitespace, backslash or controls. The host is a DNS name, an IPv4
// dotted quad without leading zeros (WHATWG URL reads `010` as octal: another address) or a bracketed IPv6 literal
// (RFC 4291 section 2.2, no zone).


export type UrlProblem =
  | 'whitespace'
  | 'backslash'
  | 'control-character'
  | 'protocol-relative'
  | 'relative'
  | 'scheme'
  | 'authority'
  | 'credentials'
  | 'host'
  | 'dns-label'
  | 'dns-name-too-long'
  | 'ipv4'
  | 'ipv6'
  | 'port';

// Built by a call marked pure, so bundles that never read it (the frame's runtime) leave it out.
export const URL_PROBLEM_TEXT: Readonly<Record<UrlProblem, string>> = /* @__PURE__ */ ((): Record<UrlProblem, string> => ({
  'whitespace': 'it contains whitespace',
  'backslash': 'it contains a backslash',
  'control-character': 'it contains a control character',
  'protocol-relative': 'it starts with "//" (a site-relative URL starts with exactly one "/")',
  'relative': 'it is neither empty, site-relative ("/...") nor an http or https URL',
  'scheme': 'only the http and https schemes are allowed',
  'authority': 'the scheme must be followed by "//" and a host',
  'credentials': 'it contains credentials ("user:pass@")',
  'host': 'the host is missing or is not a DNS name, IPv4 address or bracketed IPv6 address',
  'dns-label': `a host name label is empty, longer than ${DNS_LABEL_MAX_CHARS} characters, has a character other than letters, digits and hyphens, or starts or ends with a hyphen`,
  'dns-name-too-long': `the host name is longer than ${DNS_NAME_MAX_CHARS} characters`,
  'ipv4': 'the host looks like an IPv4 address but is not a dotted quad of 0-255 without leading zeros',
  'ipv6': 'the bracketed host is not a valid IPv6 address',
  'port': `the port is not 1 to ${URL_PORT_MAX_DIGITS} digits`,
}))();

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Whitespace (ECMAScript WhiteSpace and LineTerminator), backslash or control character: the first found, or null. */
function forbiddenCharacter(s: string): UrlProblem | null {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) return 'backslash';
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return 'whitespace';
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return 'control-character';
    if (c >= 0xa0 && /\s/.test(s[i]!)) return 'whitespace';
  }
  return null;
}

/** null when `s` is a valid `url`/`image` value (D-9), otherwise the first problem. */
export function urlProblem(s: string): UrlProblem | null {
  if (s === '') return null;
  const bad = forbiddenCharacter(s);
  if (bad !== null) return bad;
  if (s.charCodeAt(0) === 0x2f) return s.charCodeAt(1) === 0x2f ? 'protocol-relative' : null;
  const scheme = SCHEME.exec(s);
  if (scheme === null) return 'relative';
  const name = scheme[1]!.toLowerCase();
  if (name !== 'http' && name !== 'https') return 'scheme';
  let pos = scheme[0].length;
  if (!s.startsWith('//', pos)) return 'authority';
  pos += 2;
  // The authority runs to the first `/`, `?` or `#` (WHATWG URL, authority state).
  let end = pos;
  while (end < s.length) {
    const c = s.charCodeAt(end);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    end++;
  }
  return authorityProblem(s.slice(pos, end));
}

function authorityProblem(authority: string): UrlProblem | null {
  if (authority.includes('@')) return 'credentials';
  let host: string;
  let rest: string; // what follows the host: '' or ':port'
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    if (close < 0) return 'ipv6';
    if (!isIpv6(authority.slice(1, close))) return 'ipv6';
    host = authority.slice(0, close + 1);
    rest = authority.slice(close + 1);
  } else {
    const colon = authority.indexOf(':');
    host = colon < 0 ? authority : authority.slice(0, colon);
    rest = colon < 0 ? '' : authority.slice(colon);
    if (host === '') return 'host';
    const problem = hostNameProblem(host);
    if (problem !== null) return problem;
  }
  if (rest !== '') {
    if (rest.charCodeAt(0) !== 0x3a) return 'host';
    const port = rest.slice(1);
    if (port.length < 1 || port.length > URL_PORT_MAX_DIGITS || !isAllDigits(port)) return 'port';
  }
  return null;
}

function hostNameProblem(host: string): UrlProblem | null {
  const labels = host.split('.');
  // WHATWG URL reads a host ending in a numeric label as IPv4 in several spellings; only the dotted quad is allowed.
  const last = labels[labels.length - 1]!;
  if (last !== '' && (isAllDigits(last) || /^0[xX][0-9A-Fa-f]*$/.test(last))) {
    return isDottedQuad(labels) ? null : 'ipv4';
  }
  if (host.length > DNS_NAME_MAX_CHARS) return 'dns-name-too-long';
  for (const label of labels) if (!isDnsLabel(label)) return 'dns-label';
  return null;
}

function isDnsLabel(label: string): boolean {
  if (label.length < 1 || label.length > DNS_LABEL_MAX_CHARS) return false;
  if (label.charCodeAt(0) === HYPHEN || label.charCodeAt(label.length - 1) === HYPHEN) return false;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (!isAsciiLetter(c) && !isDigit(c) && c !== HYPHEN) return false;
  }
  return true;
}

function isDottedQuad(parts: readonly string[]): boolean {
  if (parts.length !== 4) return false;
  for (const part of parts) {
    if (part.length < 1 || part.length > 3 || !isAllDigits(part)) return false;
    if (part.length > 1 && part.charCodeAt(0) === 0x30) return false;
    if (Number(part) > IPV4_OCTET_MAX) return false;
  }
  return true;
}

/** RFC 4291 section 2.2: eight groups of 1-4 hex digits, one `::`, an optional final dotted quad; no zone id. */
export function isIpv6(text: string): boolean {
  const gap = text.indexOf('::');
  if (gap >= 0 && text.indexOf('::', gap + 1) >= 0) return false; // at most one `::`
  const head = gap < 0 ? text : text.slice(0, gap);
  const tail = gap < 0 ? '' : text.slice(gap + 2);
  const groups = [...(head === '' ? [] : head.split(':')), ...(tail === '' ? [] : tail.split(':'))];
  let units = 0;
  // An embedded dotted quad is the last thing written (so not before a trailing `::`).
  const last = groups[groups.length - 1];
  if (last !== undefined && last.includes('.') && (gap < 0 || tail !== '')) {
    if (!isDottedQuad(last.split('.'))) return false;
    groups.pop();
    units = 2;
  }
  for (const group of groups) {
    if (group.length < 1 || group.length > 4) return false;
    for (let i = 0; i < group.length; i++) if (!isHexDigit(group.charCodeAt(i))) return false;
    units++;
  }
  // `::` stands for at least one zero group, so with it at most 7 are written.
  return gap < 0 ? units === 8 : units <= 7;
}
