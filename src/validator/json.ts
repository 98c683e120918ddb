// Strict JSON reader (RFC 8259) for signed bytes: the manifest is signed as exact bytes, so this refuses whatever two
// conforming parsers could read differently (D-5): invalid UTF-8 (8.1) and a BOM; duplicate names at any depth after
// escape decoding (4: receivers disagree on which wins); escaped lone surrogates (8.2: "unpredictable"); numbers that
// overflow a double or underflow to zero (6; precision loss is accepted, the node keeps the text). Nesting stops at
// JSON_MAX_DEPTH and parsing is iterative: a deep document is an error, never a stack overflow. Offsets are UTF-16
// units into the decoded text (as LineMap takes), except `invalid-utf8`'s byte offset.
import { jsonPointer } from './findings.js';
import { decodeUtf8 } from './text.js';

/** Deepest container nesting accepted (the top-level container is depth 1). The manifest needs 5. */
export const JSON_MAX_DEPTH = 64;

interface NodeBase {
  readonly offset: number;
  end: number;
}

export interface JsonObjectNode extends NodeBase {
  readonly kind: 'object';
  /** Members in source order. Names are unique (duplicates are a read error). */
  readonly entries: JsonEntry[];
}

export interface JsonArrayNode extends NodeBase {
  readonly kind: 'array';
  readonly items: JsonNode[];
}

export interface JsonStringNode extends NodeBase {
  readonly kind: 'string';
  readonly value: string;
}

export interface JsonNumberNode extends NodeBase {
  readonly kind: 'number';
  /** The parsed double (always finite). */
  readonly value: number;
  /** The number exactly as written. */
  readonly text: string;
}

export interface JsonBooleanNode extends NodeBase {
  readonly kind: 'boolean';
  readonly value: boolean;
}

export interface JsonNullNode extends NodeBase {
  readonly kind: 'null';
}

export type JsonNode = JsonObjectNode | JsonArrayNode | JsonStringNode | JsonNumberNode | JsonBooleanNode | JsonNullNode;

export interface JsonEntry {
  readonly key: string;
  readonly keyOffset: number;
  readonly value: JsonNode;
}

export type JsonErrorKind =
  | 'invalid-utf8'
  | 'bom'
  | 'unexpected-character'
  | 'unexpected-end'
  | 'control-character'
  | 'invalid-escape'
  | 'lone-surrogate'
  | 'invalid-number'
  | 'number-out-of-range'
  | 'duplicate-key'
  | 'too-deep'
  | 'trailing-content';

export interface JsonReadError {
  readonly kind: JsonErrorKind;
  /** Where reading stopped: a text offset, or a byte offset for `invalid-utf8`. */
  readonly offset: number;
  readonly message: string;
  /** For `duplicate-key`: the RFC 6901 pointer of the repeated member. */
  readonly pointer?: string;
}

export type JsonReadResult =
  | { readonly ok: true; readonly value: JsonNode; readonly text: string }
  | { readonly ok: false; readonly error: JsonReadError; readonly text: string | null };

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_1 = 0x31;
const DIGIT_9 = 0x39;
const COLON = 0x3a;
const LEFT_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RIGHT_BRACKET = 0x5d;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LEFT_BRACE = 0x7b;
const RIGHT_BRACE = 0x7d;

class ReadFailure {
  constructor(
    readonly kind: JsonErrorKind,
    readonly offset: number,
    readonly message: string,
    readonly pointer?: string,
  ) {}
}

interface Frame {
  readonly node: JsonObjectNode | JsonArrayNode;
  /** Member names seen so far (objects only). A Set, so `__proto__` is just a name. */
  readonly names: Set<string> | null;
  key: string;
  keyOffset: number;
}

/** Reads one JSON text from bytes: strict UTF-8, no BOM, no duplicate names (D-5). */
export function readJson(bytes: Uint8Array): JsonReadResult {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { ok: false, error: { kind: 'bom', offset: 0, message: 'the text starts with a UTF-8 byte-order mark' }, text: null };
  }
  const text = decodeUtf8(bytes);
  if (text === null) {
    const at = firstInvalidUtf8(bytes);
    return { ok: false, error: { kind: 'invalid-utf8', offset: at, message: `the bytes are not valid UTF-8 (at byte ${at})` }, text: null };
  }
  return readJsonText(text);
}

function readJsonText(text: string): JsonReadResult {
  try {
    return { ok: true, value: parseDocument(text), text };
  } catch (failure) {
    if (failure instanceof ReadFailure) {
      const error: { -readonly [K in keyof JsonReadError]: JsonReadError[K] } = {
        kind: failure.kind,
        offset: failure.offset,
        message: failure.message,
      };
      if (failure.pointer !== undefined) error.pointer = failure.pointer;
      return { ok: false, error, text };
    }
    throw failure;
  }
}

// Byte offset of the first ill-formed UTF-8 sequence (Unicode table 3-7), or bytes.length: where decoding failed.
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b0 = bytes[i]!;
    if (b0 < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) need = 1;
    else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      if (b0 === 0xe0) lo = 0xa0; // overlong
      if (b0 === 0xed) hi = 0x9f; // UTF-16 surrogates
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      if (b0 === 0xf0) lo = 0x90; // overlong
      if (b0 === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i;
    const b1 = bytes[i + 1];
    if (b1 === undefined || b1 < lo || b1 > hi) return i;
    for (let k = 2; k <= need; k++) {
      const b = bytes[i + k];
      if (b === undefined || (b & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return n;
}

/** A plain JavaScript value for a node (what JSON.parse would return). Members are defined, never assigned, so `__proto__` stays data. */
export function jsonValueOf(node: JsonNode): unknown {
  switch (node.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const entry of node.entries) {
        Object.defineProperty(out, entry.key, { value: jsonValueOf(entry.value), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    case 'array':
      return node.items.map(jsonValueOf);
    case 'null':
      return null;
    default:
      return node.value;
  }
}

// JSON-text = ws value ws (section 2); containers go on an explicit stack instead of recursing.
function parseDocument(text: string): JsonNode {
  const stack: Frame[] = [];
  let pos = skipWhitespace(text, 0);
  for (;;) {
    // -- A value is expected at `pos` (section 3) --
    let value: JsonNode;
    const c = text.charCodeAt(pos);
    if (c === LEFT_BRACE || c === LEFT_BRACKET) {
      if (stack.length >= JSON_MAX_DEPTH) {
        throw new ReadFailure('too-deep', pos, `containers nest deeper than ${JSON_MAX_DEPTH} levels`);
      }
      const isObject = c === LEFT_BRACE;
      const node: JsonObjectNode | JsonArrayNode = isObject
        ? { kind: 'object', offset: pos, end: -1, entries: [] }
        : { kind: 'array', offset: pos, end: -1, items: [] };
      pos = skipWhitespace(text, pos + 1);
      if (text.charCodeAt(pos) === (isObject ? RIGHT_BRACE : RIGHT_BRACKET)) {
        pos++;
        node.end = pos;
        value = node;
      } else {
        const frame: Frame = { node, names: isObject ? new Set() : null, key: '', keyOffset: 0 };
        stack.push(frame);
        if (isObject) pos = readMemberName(text, pos, stack);
        continue;
      }
    } else if (c === QUOTE) {
      const read = readString(text, pos);
      value = { kind: 'string', offset: pos, end: read.end, value: read.value };
      pos = read.end;
    } else if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
      value = readNumber(text, pos);
      pos = value.end;
    } else if (text.startsWith('true', pos)) {
      value = { kind: 'boolean', offset: pos, end: pos + 4, value: true };
      pos += 4;
    } else if (text.startsWith('false', pos)) {
      value = { kind: 'boolean', offset: pos, end: pos + 5, value: false };
      pos += 5;
    } else if (text.startsWith('null', pos)) {
      value = { kind: 'null', offset: pos, end: pos + 4 };
      pos += 4;
    } else {
      throw unexpected(text, pos, 'a value');
    }

    // -- A value is complete: attach it, then read what follows it --
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) {
        pos = skipWhitespace(text, pos);
        if (pos !== text.length) throw new ReadFailure('trailing-content', pos, 'there is more after the JSON value');
        return value;
      }
      const node = frame.node;
      if (node.kind === 'object') node.entries.push({ key: frame.key, keyOffset: frame.keyOffset, value });
      else node.items.push(value);
      pos = skipWhitespace(text, pos);
      const next = text.charCodeAt(pos);
      if (next === COMMA) {
        pos = skipWhitespace(text, pos + 1);
        if (node.kind === 'object') pos = readMemberName(text, pos, stack);
        break; // another value follows
      }
      if (next === (node.kind === 'object' ? RIGHT_BRACE : RIGHT_BRACKET)) {
        pos++;
        node.end = pos;
        stack.pop();
        value = node;
        continue; // the container is itself a complete value
      }
      throw unexpected(text, pos, node.kind === 'object' ? '"," or "}"' : '"," or "]"');
    }
  }
}

/** member = string name-separator value: reads the name and the colon, checks uniqueness (D-5). */
function readMemberName(text: string, pos: number, stack: Frame[]): number {
  const frame = stack[stack.length - 1]!;
  if (text.charCodeAt(pos) !== QUOTE) throw unexpected(text, pos, 'a member name in double quotes');
  const read = readString(text, pos);
  if (frame.names!.has(read.value)) {
    throw new ReadFailure('duplicate-key', pos, `the member name ${JSON.stringify(read.value)} appears twice in one object`, pointerOf(stack, read.value));
  }
  frame.names!.add(read.value);
  frame.key = read.value;
  frame.keyOffset = pos;
  let at = skipWhitespace(text, read.end);
  if (text.charCodeAt(at) !== COLON) throw unexpected(text, at, '":"');
  at = skipWhitespace(text, at + 1);
  return at;
}

function pointerOf(stack: readonly Frame[], name: string): string {
  const segments: (string | number)[] = [];
  for (let i = 0; i < stack.length - 1; i++) {
    const f = stack[i]!;
    segments.push(f.node.kind === 'object' ? f.key : f.node.items.length);
  }
  segments.push(name);
  return jsonPointer(...segments);
}

/** ws = *( %x20 / %x09 / %x0A / %x0D ) (section 2). Nothing else is whitespace. */
function skipWhitespace(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c !== SPACE && c !== LF && c !== CR && c !== TAB) return pos;
    pos++;
  }
}

function unexpected(text: string, pos: number, expected: string): ReadFailure {
  if (pos >= text.length) return new ReadFailure('unexpected-end', pos, `the text ends where ${expected} was expected`);
  const c = text.codePointAt(pos)!;
  const shown = c >= 0x21 && c <= 0x7e ? `"${String.fromCharCode(c)}"` : `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  return new ReadFailure('unexpected-character', pos, `found ${shown} where ${expected} was expected`);
}

// string = quotation-mark *char quotation-mark (section 7); unescaped runs are sliced, not copied.
function readString(text: string, start: number): { value: string; end: number } {
  let pos = start + 1;
  let runStart = pos;
  let parts: string[] | null = null;
  for (;;) {
    if (pos >= text.length) throw new ReadFailure('unexpected-end', pos, 'the text ends inside a string');
    const c = text.charCodeAt(pos);
    if (c === QUOTE) {
      const tail = text.slice(runStart, pos);
      return { value: parts === null ? tail : (parts.push(tail), parts.join('')), end: pos + 1 };
    }
    if (c < 0x20) {
      // unescaped = %x20-21 / %x23-5B / %x5D-10FFFF: control characters must be escaped.
      throw new ReadFailure('control-character', pos, `a string holds the control character U+${c.toString(16).toUpperCase().padStart(4, '0')} unescaped`);
    }
    if (c !== BACKSLASH) {
      pos++;
      continue;
    }
    parts ??= [];
    parts.push(text.slice(runStart, pos));
    const escaped = readEscape(text, pos);
    parts.push(escaped.value);
    pos = escaped.end;
    runStart = pos;
  }
}

/** escape: `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` `\uXXXX`; a surrogate must be half of an escaped pair. */
function readEscape(text: string, pos: number): { value: string; end: number } {
  const e = text.charCodeAt(pos + 1);
  switch (e) {
    case QUOTE: return { value: '"', end: pos + 2 };
    case BACKSLASH: return { value: '\\', end: pos + 2 };
    case 0x2f: return { value: '/', end: pos + 2 };
    case 0x62: return { value: '\b', end: pos + 2 };
    case 0x66: return { value: '\f', end: pos + 2 };
    case 0x6e: return { value: '\n', end: pos + 2 };
    case 0x72: return { value: '\r', end: pos + 2 };
    case 0x74: return { value: '\t', end: pos + 2 };
    case 0x75: {
      const unit = hex4(text, pos + 2);
      if (unit < 0) throw new ReadFailure('invalid-escape', pos, 'a \\u escape needs four hex digits');
      if (unit >= 0xdc00 && unit <= 0xdfff) {
        throw new ReadFailure('lone-surrogate', pos, `the escape \\u${text.slice(pos + 2, pos + 6)} is a lone low surrogate`);
      }
      if (unit >= 0xd800 && unit <= 0xdbff) {
        // A high surrogate counts only when an escaped low surrogate follows at once.
        const low = text.charCodeAt(pos + 6) === BACKSLASH && text.charCodeAt(pos + 7) === 0x75 ? hex4(text, pos + 8) : -1;
        if (low < 0xdc00 || low > 0xdfff) {
          throw new ReadFailure('lone-surrogate', pos, `the escape \\u${text.slice(pos + 2, pos + 6)} is a high surrogate without a low surrogate escape after it`);
        }
        return { value: String.fromCharCode(unit, low), end: pos + 12 };
      }
      return { value: String.fromCharCode(unit), end: pos + 6 };
    }
    default:
      if (pos + 1 >= text.length) throw new ReadFailure('unexpected-end', pos + 1, 'the text ends inside a string');
      throw new ReadFailure('invalid-escape', pos, `"\\${String.fromCodePoint(text.codePointAt(pos + 1)!)}" is not a JSON escape`);
  }
}

function hex4(text: string, pos: number): number {
  let value = 0;
  for (let i = 0; i < 4; i++) {
    const c = text.charCodeAt(pos + i);
    let d: number;
    if (c >= DIGIT_0 && c <= DIGIT_9) d = c - DIGIT_0;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else return -1;
    value = value * 16 + d;
  }
  return value;
}

// number = [ minus ] int [ frac ] [ exp ] (section 6)
// int = zero / ( digit1-9 *DIGIT ); frac = decimal-point 1*DIGIT; exp = e [ minus / plus ] 1*DIGIT
function readNumber(text: string, start: number): JsonNumberNode {
  let pos = start;
  if (text.charCodeAt(pos) === MINUS) pos++;
  let nonZeroDigit = false; // a non-zero digit in int or frac: the value cannot be 0
  const first = text.charCodeAt(pos);
  if (first === DIGIT_0) {
    pos++;
    const after = text.charCodeAt(pos);
    if (after >= DIGIT_0 && after <= DIGIT_9) throw new ReadFailure('invalid-number', start, 'a number has a leading zero');
  } else if (first >= DIGIT_1 && first <= DIGIT_9) {
    nonZeroDigit = true;
    pos = skipDigits(text, pos);
  } else {
    throw new ReadFailure('invalid-number', start, 'a number needs a digit after "-"');
  }
  if (text.charCodeAt(pos) === DOT) {
    const fracStart = pos + 1;
    pos = skipDigits(text, fracStart);
    if (pos === fracStart) throw new ReadFailure('invalid-number', start, 'a number needs a digit after "."');
    if (!nonZeroDigit) {
      for (let i = fracStart; i < pos; i++) {
        if (text.charCodeAt(i) !== DIGIT_0) {
          nonZeroDigit = true;
          break;
        }
      }
    }
  }
  const e = text.charCodeAt(pos);
  if (e === LOWER_E || e === UPPER_E) {
    pos++;
    const sign = text.charCodeAt(pos);
    if (sign === PLUS || sign === MINUS) pos++;
    const expStart = pos;
    pos = skipDigits(text, expStart);
    if (pos === expStart) throw new ReadFailure('invalid-number', start, 'a number needs a digit in its exponent');
  }
  const source = text.slice(start, pos);
  // The RFC 8259 grammar is a subset of ECMAScript's StringNumericLiteral, so Number() rounds it correctly.
  const value = Number(source);
  if (!Number.isFinite(value)) {
    throw new ReadFailure('number-out-of-range', start, `the number ${abbreviate(source)} is too large for a double`);
  }
  if (value === 0 && nonZeroDigit) {
    throw new ReadFailure('number-out-of-range', start, `the number ${abbreviate(source)} is too small for a double (it would read as 0)`);
  }
  return { kind: 'number', offset: start, end: pos, value, text: source };
}

function skipDigits(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos); // NaN past the end, which is not a digit
    if (!(c >= DIGIT_0 && c <= DIGIT_9)) return pos;
    pos++;
  }
}

function abbreviate(source: string): string {
  return source.length <= 40 ? source : `${source.slice(0, 37)}...`;
}

const JSON_NUMBER = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/** D-39: the integer a number's text denotes exactly (`1.0`, `10e-1` are 1), decided on the digits; undefined when
 * not an integer (`1.00000000000000001`) or beyond Number.MAX_SAFE_INTEGER. */
export function exactJsonInteger(text: string): number | undefined {
  const parts = JSON_NUMBER.exec(text);
  if (parts === null) return undefined;
  const digits = (parts[2]! + (parts[3] ?? '')).replace(/^0+/, '');
  if (digits === '') return 0; // any zero: `0`, `-0.0`, `0e999`
  const exponentText = parts[4] ?? '0';
  // A non-zero value with a 7-digit exponent is a fraction or far beyond a safe integer.
  if (exponentText.replace(/^[+-]?0*/, '').length > 6) return undefined;
  const significant = digits.replace(/0+$/, '');
  const exponent = Number(exponentText) - (parts[3]?.length ?? 0) + (digits.length - significant.length);
  if (exponent < 0 || significant.length + exponent > 16) return undefined;
  const value = Number(significant + '0'.repeat(exponent));
  if (!Number.isSafeInteger(value)) return undefined;
  return parts[1] === '-' ? -value : value;
}
