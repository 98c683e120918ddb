// Text helpers for every scanner, ECMAScript only: a host's fatal TextDecoder is a fast path, else a strict decoder.

interface FatalDecoder {
  decode(input: Uint8Array): string;
}
type DecoderConstructor = new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => FatalDecoder;

let hostDecoder: FatalDecoder | null | undefined;

function getHostDecoder(): FatalDecoder | null {
  if (hostDecoder === undefined) {
    const ctor = (globalThis as { TextDecoder?: DecoderConstructor }).TextDecoder;
    hostDecoder = ctor === undefined ? null : new ctor('utf-8', { fatal: true, ignoreBOM: true });
  }
  return hostDecoder;
}

/** Strict UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF). A BOM is kept as U+FEFF. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  const host = getHostDecoder();
  if (host !== null) {
    try {
      return host.decode(bytes);
    } catch {
      return null;
    }
  }
  return decodeUtf8Portable(bytes);
}

/** The portable decoder behind decodeUtf8; exported for tests. */
export function decodeUtf8Portable(bytes: Uint8Array): string | null {
  const parts: string[] = [];
  let units: number[] = [];
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b0 = bytes[i]!;
    let cp: number;
    if (b0 < 0x80) {
      cp = b0;
      i += 1;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      const b1 = bytes[i + 1];
      if (b1 === undefined || (b1 & 0xc0) !== 0x80) return null;
      cp = ((b0 & 0x1f) << 6) | (b1 & 0x3f);
      i += 2;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      const b1 = bytes[i + 1];
      const b2 = bytes[i + 2];
      if (b1 === undefined || b2 === undefined || (b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80) return null;
      if (b0 === 0xe0 && b1 < 0xa0) return null; // overlong
      if (b0 === 0xed && b1 >= 0xa0) return null; // surrogate
      cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
      i += 3;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      const b1 = bytes[i + 1];
      const b2 = bytes[i + 2];
      const b3 = bytes[i + 3];
      if (b1 === undefined || b2 === undefined || b3 === undefined) return null;
      if ((b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) return null;
      if (b0 === 0xf0 && b1 < 0x90) return null; // overlong
      if (b0 === 0xf4 && b1 >= 0x90) return null; // above U+10FFFF
      cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
      i += 4;
    } else {
      return null;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else {
      units.push(cp);
    }
    if (units.length >= 8192) {
      parts.push(String.fromCharCode(...units));
      units = [];
    }
  }
  parts.push(String.fromCharCode(...units));
  return parts.join('');
}

/** UTF-8 byte length of a JavaScript string; a lone surrogate counts as U+FFFD (3 bytes), as an encoder writes it. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Maps string offsets (UTF-16 code units) to 1-based line and column; built once per file. */
export class LineMap {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    if (!text.includes('\r')) {
      // The common case (LF only) via native indexOf: this runs at a file's first finding, on a cold start.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a) this.starts.push(i + 1);
      else if (c === 0x0d) {
        if (text.charCodeAt(i + 1) === 0x0a) i++;
        this.starts.push(i + 1);
      }
    }
  }

  /** 1-based line and column (column counts UTF-16 code units from the line start). */
  at(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}

/** ASCII lowercase (the HTML and CSS specs' "ASCII lowercase"; never locale-dependent). */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** `1234567` -> `1,234,567`, the same on every host (no locale data). */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// D-29, D-29a: characters a reader cannot see as themselves, which can take over a terminal or hide words: controls,
// format characters (Cf: bidi controls, tags, BOM), default-ignorables, line and paragraph separators and lone
// surrogates, by the host's Unicode properties. A complete emoji tag sequence is its own alternative, matched whole.
const UNSEEN_CLASS = '[\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\p{Cs}\\u2028\\u2029]';
const EMOJI_TAG_SEQUENCE = '\\u{1F3F4}[\\u{E0020}-\\u{E007E}]+\\u{E007F}';
const UNSEEN = new RegExp(`${EMOJI_TAG_SEQUENCE}|${UNSEEN_CLASS}`, 'gu');
const UNSEEN_TEST = new RegExp(UNSEEN_CLASS, 'u');
const UNSEEN_ONE = new RegExp(`^${UNSEEN_CLASS}$`, 'u');
const SPACE = /^\s$/u;

function isVariationSelector(cp: number): boolean {
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

/** The code point ending just before `offset` (a surrogate pair counts as one), or undefined at the start. */
function codePointBefore(text: string, offset: number): string | undefined {
  if (offset === 0) return undefined;
  const low = text.charCodeAt(offset - 1);
  if (low >= 0xdc00 && low <= 0xdfff && offset >= 2) {
    const high = text.charCodeAt(offset - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(offset - 2, offset);
  }
  return text[offset - 1];
}

function isVisible(char: string | undefined): boolean {
  return char !== undefined && !UNSEEN_ONE.test(char) && !SPACE.test(char);
}

// `text` with what D-29a never shows rewritten by `write`, except one selector, ZWJ or ZWNJ after a visible character
// (and a ZWJ or ZWNJ after such a selector: emoji) and emoji tag sequences; longer runs are hidden data's carrier.
function rewriteUnseen(text: string, write: (char: string) => string): string {
  if (!UNSEEN_TEST.test(text)) return text;
  let keptSelectorEnd = -1;
  return text.replace(UNSEEN, (match: string, offset: number) => {
    const cp = match.codePointAt(0)!;
    if (cp === 0x1f3f4) return match;
    const joiner = cp === 0x200c || cp === 0x200d;
    if (joiner || isVariationSelector(cp)) {
      const before = codePointBefore(text, offset);
      const afterSelector = joiner && keptSelectorEnd === offset;
      if (afterSelector || (isVisible(before) && keptSelectorEnd !== offset)) {
        if (!joiner) keptSelectorEnd = offset + match.length;
        return match;
      }
    }
    return write(match);
  });
}

/** True when `text` holds a character D-29a never prints as is (whether or not its context keeps it). */
export function hasTerminalUnsafe(text: string): boolean {
  return UNSEEN_TEST.test(text);
}

/** D-29a: each unseen character as `\u{hex}`, so input never controls a terminal or a ticket (every text output). */
export function escapeTerminal(text: string): string {
  return rewriteUnseen(text, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

// U+E0001 is itself always escaped, so no stand-in is left in a string once tokenised.
const JSON_TOKEN = '\u{E0001}';
const JSON_TOKENS = /\u{E0001}([0-9a-f]+)\u{E0001}/gu;

/** Each character to escape as a token naming its UTF-16 units (JSON.stringify escapes controls and lone surrogates). */
function tokenise(text: string): string {
  return rewriteUnseen(text, (c) => {
    const unit = c.charCodeAt(0);
    if (unit < 0x20 || (c.length === 1 && unit >= 0xd800 && unit <= 0xdfff)) return c;
    let hex = '';
    for (let i = 0; i < c.length; i++) hex += c.charCodeAt(i).toString(16).padStart(4, '0');
    return `${JSON_TOKEN}${hex}${JSON_TOKEN}`;
  });
}

function tokeniseJson(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return tokenise(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  // Keys come from the input too (a manifest's property names).
  const keys = Object.keys(value);
  if (!keys.some((k) => UNSEEN_TEST.test(k))) return value;
  const out: Record<string, unknown> = {};
  for (const k of keys) out[tokenise(k)] = (value as Record<string, unknown>)[k];
  return out;
}

/** JSON.stringify for every JSON the tool prints, with escapeTerminal's characters as `\\uXXXX` escapes (D-29a):
 * the same values for a parser, no invisible or controlling character in the bytes. */
export function stringifyJson(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, tokeniseJson, indent);
  return text.replace(JSON_TOKENS, (_token, hex: string) => hex.replace(/[0-9a-f]{4}/g, (unit) => `\\u${unit}`));
}

/** escapeTerminal for a message of several lines: its own line breaks kept, every other D-29a character escaped. */
export function escapeLines(message: string): string {
  return message
    .split('\n')
    .map((line) => escapeTerminal(line))
    .join('\n');
}

// D-29: C0, DEL, C1 and bidi embeddings, overrides and isolates can show a store page or review screen in another
// order than stored. Marks right-to-left scripts need (U+200E, U+200F, U+061C) and joiners stay allowed.
const MANIFEST_STRING_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const MANIFEST_STRING_UNSAFE_EXCEPT_LINE_BREAK = /[\u0000-\u0009\u000b-\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

/** The first character a manifest string may not hold, as `U+XXXX`; `lineBreaks` allows `\n` and `\r\n`. */
export function manifestStringProblem(text: string, lineBreaks = false): string | undefined {
  const match = (lineBreaks ? MANIFEST_STRING_UNSAFE_EXCEPT_LINE_BREAK : MANIFEST_STRING_UNSAFE).exec(text);
  return match === null ? undefined : `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** D-29a: the first tag character outside an emoji tag sequence (`tag`, an error: tags can spell hidden words) and
 * the first other unseen character (`invisible`, a warning), as `U+XXXX`; controls are manifestStringProblem's. */
export function manifestStringUnseen(text: string): { readonly tag?: string; readonly invisible?: string } {
  let tag: string | undefined;
  let invisible: string | undefined;
  rewriteUnseen(text, (c) => {
    const cp = c.codePointAt(0)!;
    if (cp >= 0xe0000 && cp <= 0xe007f) tag ??= codePointName(c);
    else if (!MANIFEST_STRING_UNSAFE.test(c) && !/\p{Cs}/u.test(c)) invisible ??= codePointName(c);
    return c;
  });
  return { ...(tag !== undefined && { tag }), ...(invisible !== undefined && { invisible }) };
}

/** `1536` -> `1.5 KiB`; exact bytes below 1 KiB. Binary units, one decimal. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = value.toFixed(1).replace(/\.0$/, '');
  return `${text} ${units[unit]}`;
}
