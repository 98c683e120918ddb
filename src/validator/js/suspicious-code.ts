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
import { cookStringAt, cookTemplateAt, JsLexer, PUNCTUATORS, Ring, Token, TokenFlag } from './lexer.js';
import { checkValueFlows, nameKeyOf, type FlowSource } from './value-flow.js';

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

/** The keys (nameKeyOf) of the names checkSuspiciousCode looks for: other names are never sliced. */
const NAME_KEYS: ReadonlySet<number> = new Set(
  [...BLOCKED_NAMES, ...GLOBAL_OBJECTS, ...API_KINDS.keys(), 'PLATFORM', 'setTimeout', 'setInterval'].map(nameKeyOf),
);

/** Token columns; kinds, punctuator codes (PUNCTUATORS has fewer than 256) and flags fit a byte. */
interface TokenTable {
  kinds: Uint8Array;
  codes: Uint8Array;
  flags: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
}

function tokenTable(capacity: number): TokenTable {
  return { kinds: new Uint8Array(capacity), codes: new Uint8Array(capacity), flags: new Uint8Array(capacity), starts: new Int32Array(capacity), ends: new Int32Array(capacity) };
}

/**
 * The table the last module used, kept for the next while it holds at most SPARE_MAX_TOKENS: typed arrays
 * are freed only when the collector sees enough outside memory, so a table per module would pile up.
 */
let spareTable: TokenTable | null = null;
const SPARE_MAX_TOKENS = 1 << 19;

/** A module's significant tokens, lexed as asked for into typed arrays: never a list of token objects. */
class Source implements FlowSource {
  private readonly lexer: JsLexer;
  private table: TokenTable;
  /** Names written with `\u` escapes, decoded, by token index. */
  private readonly escapedNames = new Map<number, string>();
  private held = 0;
  private ended = false;
  private lineStarts: number[] | null = null;
  constructor(readonly text: string) {
    this.lexer = new JsLexer(text, { skipComments: true });
    // Sized for the text at once (about a token per five characters): growing copies every column.
    const wanted = Math.max(4096, Math.ceil(text.length / 5));
    this.table = spareTable !== null && spareTable.kinds.length >= wanted ? spareTable : tokenTable(wanted);
    spareTable = null;
  }
  /** Hands the table on to the next module (kept only when small enough). */
  dispose(): void {
    if (this.table.kinds.length <= SPARE_MAX_TOKENS) spareTable = this.table;
  }
  /** Every token, lexed to the end. */
  get length(): number {
    while (!this.ended) this.pull();
    return this.held;
  }
  /** Whether token `i` exists (lexing up to it). */
  has(i: number): boolean {
    while (i >= this.held && !this.ended) this.pull();
    return i >= 0 && i < this.held;
  }
  private pull(): void {
    const lexer = this.lexer;
    const kind = lexer.scan();
    if (kind === Token.Eof) {
      this.ended = true;
      return;
    }
    if (kind === Token.LineComment || kind === Token.BlockComment || kind === Token.Hashbang) return;
    if (this.held === this.table.kinds.length) this.grow();
    const from = (lexer.count - 1) & Ring.Mask;
    const to = this.held++;
    const table = this.table;
    table.kinds[to] = kind;
    table.codes[to] = kind === Token.Punctuator ? lexer.ringCodes[from]! : 0;
    table.starts[to] = lexer.ringStarts[from]!;
    table.ends[to] = lexer.ringEnds[from]!;
    table.flags[to] = lexer.ringFlags[from]!;
    if ((table.flags[to]! & TokenFlag.Escaped) !== 0) this.escapedNames.set(to, lexer.lastEscapedName() ?? '');
  }
  private grow(): void {
    const old = this.table;
    const table = tokenTable(old.kinds.length * 2);
    table.kinds.set(old.kinds);
    table.codes.set(old.codes);
    table.flags.set(old.flags);
    table.starts.set(old.starts);
    table.ends.set(old.ends);
    this.table = table;
  }
  kind(i: number): number {
    return this.has(i) ? this.table.kinds[i]! : Token.Eof;
  }
  start(i: number): number {
    return this.has(i) ? this.table.starts[i]! : this.text.length;
  }
  end(i: number): number {
    return this.has(i) ? this.table.ends[i]! : this.text.length;
  }
  newlineBefore(i: number): boolean {
    return this.has(i) && (this.table.flags[i]! & TokenFlag.Newline) !== 0;
  }
  nameKey(i: number): number {
    if (!this.has(i) || this.escapedNames.has(i)) return -1;
    const start = this.table.starts[i]!;
    return (this.table.ends[i]! - start) * 128 + Math.min(this.text.charCodeAt(start), 127);
  }
  /** Whether token `i` is a property key in an object literal. */
  isKey(i: number): boolean {
    return this.has(i) && (this.table.flags[i]! & TokenFlag.Key) !== 0;
  }
  /** An identifier's or keyword's name (escapes decoded), a punctuator's text, else ''. */
  value(i: number): string {
    const kind = this.kind(i);
    if (kind === Token.Punctuator) return PUNCTUATORS[this.table.codes[i]!]!;
    if (kind !== Token.Identifier && kind !== Token.Keyword) return '';
    return this.escapedNames.get(i) ?? this.text.slice(this.table.starts[i]!, this.table.ends[i]!);
  }
  /** An identifier's or keyword's name when it may be one the checks look for (NAME_KEYS), else null. */
  name(i: number): string | null {
    const kind = this.kind(i);
    if (kind !== Token.Identifier && kind !== Token.Keyword) return null;
    const escaped = this.escapedNames.get(i);
    if (escaped !== undefined) return escaped;
    return NAME_KEYS.has(this.nameKey(i)) ? this.value(i) : null;
  }
  is(i: number, value: string): boolean {
    const kind = this.kind(i);
    if (kind === Token.Punctuator) return PUNCTUATORS[this.table.codes[i]!] === value;
    if (kind !== Token.Identifier && kind !== Token.Keyword) return false;
    const escaped = this.escapedNames.get(i);
    if (escaped !== undefined) return escaped === value;
    const start = this.table.starts[i]!;
    return this.table.ends[i]! - start === value.length && this.text.startsWith(value, start);
  }
  private starts(): number[] {
    if (this.lineStarts !== null) return this.lineStarts;
    const starts = [0];
    for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) starts.push(i + 1);
    return (this.lineStarts = starts);
  }
  position(offset: number): { line: number; column: number } {
    const starts = this.starts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  }
  /** The last excerpt made, by line: many sites on one long line share it. */
  private lastExcerpt: { line: number; text: string } | null = null;
  excerpt(offset: number): string {
    const { line } = this.position(offset);
    if (this.lastExcerpt?.line === line) return this.lastExcerpt.text;
    const starts = this.starts();
    const start = starts[line - 1]!;
    const next = starts[line];
    const end = next === undefined ? this.text.length : next - 1;
    // At most twice the excerpt in code units is read: a minified line can be megabytes long.
    let from = start;
    while (from < end && /\s/.test(this.text[from]!)) from++;
    const cut = Math.min(end, from + 2 * EXCERPT_CHARS);
    const text = this.text.slice(from, cut).trimEnd();
    // Joined anew even when short: a slice would keep the whole module's text alive.
    const chars = [...text];
    const longer = chars.length > EXCERPT_CHARS || (cut < end && this.text.slice(cut, end).trim() !== '');
    const excerpt = longer ? `${chars.slice(0, EXCERPT_CHARS).join('')}...` : chars.join('');
    this.lastExcerpt = { line, text: excerpt };
    return excerpt;
  }
}

/** A string literal or template without substitutions at `i`, cooked. */
function literal(src: Source, i: number): string | null {
  const kind = src.kind(i);
  if (kind === Token.String) return cookStringAt(src.text, src.start(i), src.end(i));
  if (kind === Token.Template) return cookTemplateAt(src.text, src.start(i), src.end(i));
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
      if (src.kind(k) !== Token.Number || value.length >= MAX_PIECES) return null;
      const code = Number(src.text.slice(src.start(k), src.end(k)).replace(/_/g, ''));
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

/** Whether a fold at `i` can assemble a name: a lone literal cannot, and cooking every one would cost the most. */
function mayAssemble(src: Source, i: number): boolean {
  const kind = src.kind(i);
  if (kind === Token.String || kind === Token.Template) return src.is(i + 1, '+');
  return src.is(i, '(') || src.is(i, '[') || src.is(i, 'String') || src.is(i, 'atob');
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
export function checkSuspiciousCode(file: string, text: string, findings: FindingList | null, options: { readonly sites?: boolean } = {}): CodeSite[] {
  const wantSites = options.sites ?? true;
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
    if (wantSites && sites.length < MAX_SITES_PER_MODULE) sites.push({ kind, name, file, ...src.position(offset), excerpt: src.excerpt(offset) });
  };
  let foldedUntil = 0;
  for (let i = 0; src.has(i); i++) {
    const start = src.start(i);
    const afterDot = i > 0 && (src.is(i - 1, '.') || src.is(i - 1, '?.'));
    // Names assembled from pieces (a fold covers its own sub-expressions once).
    if (i >= foldedUntil && mayAssemble(src, i)) {
      const folded = fold(src, i);
      if (folded !== null) {
        foldedUntil = folded.end;
        if (folded.assembled && BLOCKED_NAMES.has(folded.value)) {
          report('js/assembled-api-name', `The name "${folded.value}" is assembled from pieces, which hides the call from a reader and from checks`, start);
          const kind = API_KINDS.get(folded.value);
          if (kind !== undefined) site(kind, folded.value, start);
        }
      }
    }
    const name = src.name(i);
    if (name === null) continue;
    // A string argument of setTimeout or setInterval runs as code.
    if ((name === 'setTimeout' || name === 'setInterval') && src.is(i + 1, '(') && literal(src, i + 2) !== null) site('code-from-string', name, start);
    if (GLOBAL_OBJECTS.has(name) && !afterDot && src.is(i + 1, '[')) {
      const key = literal(src, i + 2);
      if (key === null || !src.is(i + 3, ']')) report('js/computed-global-access', `${name}[...] with a key that is not a literal: any global, fetch or eval included, can be reached this way`, start);
      else {
        const kind = API_KINDS.get(key);
        if (kind !== undefined) site(kind, key, start);
      }
    }
    if (name === 'constructor' && (src.is(i + 1, '.') && src.is(i + 2, 'constructor'))) {
      report('js/constructor-constructor', 'constructor.constructor reaches the Function constructor without naming it: code built from a string', start);
      site('code-from-string', 'Function', start);
    }
    if (name === 'PLATFORM' && !afterDot) {
      if (src.is(i + 1, '.') && src.is(i + 2, 'request') && src.is(i + 3, '(')) {
        const key = literal(src, i + 4);
        if (key !== null) site('capability', key, start);
      } else if (src.is(i + 1, '.') && src.is(i + 3, '.')) {
        const key = METHOD_CAPABILITY.get(`${src.value(i + 2)}.${src.value(i + 4)}`) ?? METHOD_CAPABILITY.get(src.value(i + 2));
        if (key !== undefined) site('capability', key, start);
      } else if (src.is(i + 1, '.')) {
        const key = METHOD_CAPABILITY.get(src.value(i + 2));
        if (key !== undefined) site('capability', key, start);
      }
    }
    const kind = API_KINDS.get(name);
    if (kind === undefined || src.isKey(i)) continue;
    // `x.open` and `x.top` are only navigation on the window; other names count as members too (`navigator.sendBeacon`, `document.cookie`).
    if (kind === 'navigation' && afterDot && !(i >= 2 && GLOBAL_OBJECTS.has(src.value(i - 2))) && name !== 'location') continue;
    if (kind === 'navigation' && !afterDot && name !== 'location' && !src.is(i + 1, '(') && !src.is(i + 1, '.')) continue;
    if (name === 'Function' && !src.is(i + 1, '(')) continue;
    site(kind, name, start);
  }
  checkValueFlows(src, (i) => fold(src, i), (rule, message, offset, api) => {
    report(rule, message, offset);
    if (api !== undefined) site('code-from-string', api, offset);
  });
  src.dispose();
  return sites;
}
