// Code that hides what it calls, and where a module calls what an operator weighs. Reads the
// lexer's tokens (no parse): (1) suspicious code, reported by `check` and the review as
// warnings: a computed member of the global object with a key that is not a literal
// (`globalThis[k]`), the name of a blocked API assembled from pieces (constant string
// concatenation, `[...].join(...)`, `String.fromCharCode` of numbers, `atob` of a literal),
// and `constructor.constructor` (the Function constructor reached without its name);
// (2) the call sites of capabilities and risky APIs (network, code from strings, navigation,
// storage), each with its line and a one-line excerpt, for the operator's review; (3) through
// value-flow.ts, settings and form values that visibly reach those APIs.
import { decodeBase64Strict } from '../base64.js';
import { CAPABILITIES } from '../capabilities.js';
import type { FindingList } from '../findings.js';
import { cookString, cookTemplate, tokenizeJs, type JsToken } from './lexer.js';
import { checkValueFlows } from './value-flow.js';

/** Names whose assembly from pieces hides a blocked or code-running API. */
const BLOCKED_NAMES: ReadonlySet<string> = new Set([
  'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'sendBeacon', 'Worker', 'SharedWorker', 'importScripts',
  'RTCPeerConnection', 'eval', 'Function', 'setTimeout', 'setInterval', 'localStorage', 'sessionStorage', 'indexedDB',
  'cookie', 'open', 'location', 'top', 'parent', 'opener', 'postMessage', 'constructor', 'import',
]);
const GLOBAL_OBJECTS: ReadonlySet<string> = new Set(['globalThis', 'window', 'self', 'frames']);

export type CodeSiteKind = 'capability' | 'network' | 'code-from-string' | 'navigation' | 'storage';

/** One place a module calls a capability or a risky API. */
export interface CodeSite {
  readonly kind: CodeSiteKind;
  /** The capability key, or the API's name. */
  readonly name: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The line of code, trimmed and cut to a bounded length (escape it before printing). */
  readonly excerpt: string;
}

const API_KINDS: ReadonlyMap<string, CodeSiteKind> = new Map<string, CodeSiteKind>([
  ...['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'sendBeacon', 'Worker', 'SharedWorker', 'importScripts', 'RTCPeerConnection'].map((n) => [n, 'network'] as const),
  ...['eval', 'Function'].map((n) => [n, 'code-from-string'] as const),
  ...['location', 'open', 'top', 'parent', 'opener'].map((n) => [n, 'navigation'] as const),
  ...['localStorage', 'sessionStorage', 'indexedDB', 'cookie'].map((n) => [n, 'storage'] as const),
]);

/** PLATFORM method paths (`cart.manage`) to their capability key. */
const METHOD_CAPABILITY: ReadonlyMap<string, string> = new Map(CAPABILITIES.map((c) => [c.method.replace(/^PLATFORM\./, ''), c.key]));

/** Characters of an excerpt. */
const EXCERPT_CHARS = 120;
/** Sites kept per module: a module calling fetch ten thousand times needs no longer list. */
const MAX_SITES_PER_MODULE = 200;
/** Findings of each suspicious-code rule per module. */
const MAX_FINDINGS_PER_RULE = 20;
/** Pieces folded into one string at most (a longer expression is not folded). */
const MAX_PIECES = 256;

interface Folded {
  readonly value: string;
  /** Index of the token after the expression. */
  readonly end: number;
  /** Whether the value was assembled (more than one piece, or through join/fromCharCode/atob). */
  readonly assembled: boolean;
}

class Source {
  readonly tokens: JsToken[];
  private readonly lineStarts: number[] = [0];
  constructor(readonly text: string) {
    this.tokens = tokenizeJs(text).tokens.filter((t) => t.type !== 'line-comment' && t.type !== 'block-comment' && t.type !== 'hashbang');
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }
  is(i: number, value: string): boolean {
    const t = this.tokens[i];
    return t !== undefined && (t.type === 'punctuator' || t.type === 'identifier' || t.type === 'keyword') && t.value === value;
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }
  excerpt(offset: number): string {
    const { line } = this.position(offset);
    const start = this.lineStarts[line - 1]!;
    const next = this.lineStarts[line];
    const text = this.text.slice(start, next === undefined ? this.text.length : next - 1).trim();
    const chars = [...text];
    return chars.length <= EXCERPT_CHARS ? text : `${chars.slice(0, EXCERPT_CHARS).join('')}...`;
  }
}

/** A string literal or template without substitutions at `i`, cooked. */
function literal(src: Source, i: number): string | null {
  const t = src.tokens[i];
  if (t === undefined) return null;
  if (t.type === 'string') return cookString(src.text, t);
  if (t.type === 'template') return cookTemplate(src.text, t);
  return null;
}

/** A primary that folds to a constant string: a literal, an array of literals joined, String.fromCharCode, atob, parentheses. */
function primary(src: Source, i: number, depth: number): Folded | null {
  if (depth > 8) return null;
  const lit = literal(src, i);
  if (lit !== null) return { value: lit, end: i + 1, assembled: false };
  if (src.is(i, '(')) {
    const inner = fold(src, i + 1, depth + 1);
    return inner !== null && src.is(inner.end, ')') ? { ...inner, end: inner.end + 1 } : null;
  }
  if (src.is(i, '[')) {
    const parts: string[] = [];
    let k = i + 1;
    while (!src.is(k, ']')) {
      const part = fold(src, k, depth + 1);
      if (part === null || parts.length >= MAX_PIECES) return null;
      parts.push(part.value);
      k = part.end;
      if (src.is(k, ',')) k++;
      else if (!src.is(k, ']')) return null;
    }
    k++;
    if (!(src.is(k, '.') && src.is(k + 1, 'join') && src.is(k + 2, '('))) return null;
    let separator = ',';
    k += 3;
    if (!src.is(k, ')')) {
      const sep = fold(src, k, depth + 1);
      if (sep === null) return null;
      separator = sep.value;
      k = sep.end;
    }
    return src.is(k, ')') ? { value: parts.join(separator), end: k + 1, assembled: true } : null;
  }
  if (src.is(i, 'String') && src.is(i + 1, '.') && src.is(i + 2, 'fromCharCode') && src.is(i + 3, '(')) {
    let k = i + 4;
    let value = '';
    while (!src.is(k, ')')) {
      const t = src.tokens[k];
      if (t === undefined || t.type !== 'number' || value.length >= MAX_PIECES) return null;
      const code = Number(src.text.slice(t.start, t.end).replace(/_/g, ''));
      if (!Number.isInteger(code) || code < 0 || code > 0xffff) return null;
      value += String.fromCharCode(code);
      k++;
      if (src.is(k, ',')) k++;
      else if (!src.is(k, ')')) return null;
    }
    return { value, end: k + 1, assembled: true };
  }
  if (src.is(i, 'atob') && src.is(i + 1, '(')) {
    const arg = fold(src, i + 2, depth + 1);
    if (arg === null || !src.is(arg.end, ')')) return null;
    const bytes = decodeBase64Strict(arg.value);
    if (bytes === null) return null;
    let value = '';
    for (const b of bytes) value += String.fromCharCode(b);
    return { value, end: arg.end + 1, assembled: true };
  }
  return null;
}

/** A constant string expression at `i`: primaries joined by `+`. */
function fold(src: Source, i: number, depth = 0): Folded | null {
  let first = primary(src, i, depth);
  if (first === null) return null;
  let { value, end, assembled } = first;
  let pieces = 1;
  while (src.is(end, '+') && pieces < MAX_PIECES) {
    const next = primary(src, end + 1, depth);
    if (next === null) break;
    value += next.value;
    end = next.end;
    assembled = true;
    pieces++;
  }
  first = null;
  return { value, end, assembled };
}

/**
 * Reports suspicious code in one module (js/computed-global-access, js/assembled-api-name,
 * js/constructor-constructor) and returns the call sites of capabilities and risky APIs.
 */
export function checkSuspiciousCode(file: string, text: string, findings: FindingList | null): CodeSite[] {
  const src = new Source(text);
  const sites: CodeSite[] = [];
  const counts = new Map<string, number>();
  const report = (rule: string, message: string, offset: number) => {
    if (findings === null) return;
    const n = counts.get(rule) ?? 0;
    counts.set(rule, n + 1);
    if (n < MAX_FINDINGS_PER_RULE) findings.add(rule, message, { file, ...src.position(offset) });
  };
  const site = (kind: CodeSiteKind, name: string, offset: number) => {
    if (sites.length < MAX_SITES_PER_MODULE) sites.push({ kind, name, file, ...src.position(offset), excerpt: src.excerpt(offset) });
  };
  const tokens = src.tokens;
  let foldedUntil = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const afterDot = i > 0 && (src.is(i - 1, '.') || src.is(i - 1, '?.'));
    // Names assembled from pieces (a fold covers its own sub-expressions once).
    if (i >= foldedUntil) {
      const folded = fold(src, i);
      if (folded !== null) {
        foldedUntil = folded.end;
        if (folded.assembled && BLOCKED_NAMES.has(folded.value)) {
          report('js/assembled-api-name', `The name "${folded.value}" is assembled from pieces, which hides the call from a reader and from checks`, t.start);
          const kind = API_KINDS.get(folded.value);
          if (kind !== undefined) site(kind, folded.value, t.start);
        }
      }
    }
    if (t.type !== 'identifier' && t.type !== 'keyword') continue;
    const name = t.value;
    if (GLOBAL_OBJECTS.has(name) && !afterDot && src.is(i + 1, '[')) {
      const key = literal(src, i + 2);
      if (key === null || !src.is(i + 3, ']')) report('js/computed-global-access', `${name}[...] with a key that is not a literal: any global, fetch or eval included, can be reached this way`, t.start);
      else {
        const kind = API_KINDS.get(key);
        if (kind !== undefined) site(kind, key, t.start);
      }
    }
    if (name === 'constructor' && (src.is(i + 1, '.') && src.is(i + 2, 'constructor'))) {
      report('js/constructor-constructor', 'constructor.constructor reaches the Function constructor without naming it: code built from a string', t.start);
      site('code-from-string', 'Function', t.start);
    }
    if (name === 'PLATFORM' && !afterDot) {
      if (src.is(i + 1, '.') && src.is(i + 2, 'request') && src.is(i + 3, '(')) {
        const key = literal(src, i + 4);
        if (key !== null) site('capability', key, t.start);
      } else if (src.is(i + 1, '.') && src.is(i + 3, '.')) {
        const path = `${tokens[i + 2]?.value ?? ''}.${tokens[i + 4]?.value ?? ''}`;
        const key = METHOD_CAPABILITY.get(path) ?? METHOD_CAPABILITY.get(tokens[i + 2]?.value ?? '');
        if (key !== undefined) site('capability', key, t.start);
      } else if (src.is(i + 1, '.')) {
        const key = METHOD_CAPABILITY.get(tokens[i + 2]?.value ?? '');
        if (key !== undefined) site('capability', key, t.start);
      }
    }
    const kind = API_KINDS.get(name);
    if (kind === undefined || t.key) continue;
    // `x.open` and `x.top` are only navigation on the window; other names count as members too (`navigator.sendBeacon`, `document.cookie`).
    if (kind === 'navigation' && afterDot && !(i >= 2 && GLOBAL_OBJECTS.has(tokens[i - 2]!.value)) && name !== 'location') continue;
    if (kind === 'navigation' && !afterDot && name !== 'location' && !src.is(i + 1, '(') && !src.is(i + 1, '.')) continue;
    if (name === 'Function' && !src.is(i + 1, '(')) continue;
    site(kind, name, t.start);
  }
  // String arguments of setTimeout and setInterval run as code.
  for (let i = 0; i + 2 < tokens.length; i++) {
    if ((src.is(i, 'setTimeout') || src.is(i, 'setInterval')) && src.is(i + 1, '(') && literal(src, i + 2) !== null) site('code-from-string', tokens[i]!.value, tokens[i]!.start);
  }
  checkValueFlows({ tokens, is: (i, v) => src.is(i, v), foldEnd: (i) => fold(src, i) }, (rule, message, offset, api) => {
    report(rule, message, offset);
    if (api !== undefined) site('code-from-string', api, offset);
  });
  return sites;
}
