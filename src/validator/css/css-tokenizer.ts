// CSS Syntax Level 3, section 4 "Tokenization", one function per algorithm. A real tokenizer, not a regex:
// escapes decode into names (`@\69mport`), comments and strings hide look-alikes, and where a url token ends
// decides what a browser fetches (D-19). Preprocessing happens while reading (CR LF, CR, FF read as LF; NUL and lone
// surrogates as U+FFFD), so offsets point into the original text, as findings need. A cursor: nextToken() leaves
// the token in fields and allocates nothing; values are decoded on request. Fast paths take runs of code units
// that preprocessing leaves alone. The "unicode ranges allowed" flag is not implemented (no reference lives
// in unicode-range). Linear: every algorithm moves forward with at most three code points of lookahead.

export type CssTokenType =
  | 'ident-token'
  | 'function-token'
  | 'at-keyword-token'
  | 'hash-token'
  | 'string-token'
  | 'bad-string-token'
  | 'url-token'
  | 'bad-url-token'
  | 'delim-token'
  | 'number-token'
  | 'percentage-token'
  | 'dimension-token'
  | 'whitespace-token'
  | 'CDO-token'
  | 'CDC-token'
  | 'colon-token'
  | 'semicolon-token'
  | 'comma-token'
  | '[-token'
  | ']-token'
  | '(-token'
  | ')-token'
  | '{-token'
  | '}-token'
  /** Only with `keepComments`: the spec's "consume comments" returns nothing. */
  | 'comment';

export interface CssToken {
  readonly type: CssTokenType;
  readonly start: number;
  readonly end: number;
  /** Decoded: the name, the string or url contents, or a delim's code point; '' for other types. */
  readonly value: string;
  readonly numeric: number;
  readonly numberType: 'integer' | 'number' | '';
  readonly sign: '+' | '-' | '';
  readonly unit: string;
  readonly hashType: 'id' | 'unrestricted' | '';
}

export interface TokenizerOptions {
  readonly start?: number;
  /** Emit a `comment` token for each comment (the corpus format does). Default false. */
  readonly keepComments?: boolean;
  readonly skipWhitespace?: boolean;
  // true: only the Editor's Draft's non-ASCII ident list joins names. The default (every non-ASCII code point) is
  // what browsers do; a narrower set would split `\u00D7url(` differently and desynchronise the quotes after it.
  readonly strictIdentRanges?: boolean;
}

// Small integers so that a switch over them is a jump table; TOKEN_TYPES names each as the spec does.
export const TOKEN_EOF = 0;
export const TOKEN_IDENT = 1;
export const TOKEN_FUNCTION = 2;
export const TOKEN_AT_KEYWORD = 3;
export const TOKEN_HASH = 4;
export const TOKEN_STRING = 5;
export const TOKEN_BAD_STRING = 6;
export const TOKEN_URL = 7;
export const TOKEN_BAD_URL = 8;
export const TOKEN_DELIM = 9;
export const TOKEN_NUMBER = 10;
export const TOKEN_PERCENTAGE = 11;
export const TOKEN_DIMENSION = 12;
export const TOKEN_WHITESPACE = 13;
export const TOKEN_CDO = 14;
export const TOKEN_CDC = 15;
export const TOKEN_COLON = 16;
export const TOKEN_SEMICOLON = 17;
export const TOKEN_COMMA = 18;
export const TOKEN_OPEN_SQUARE = 19;
export const TOKEN_CLOSE_SQUARE = 20;
export const TOKEN_OPEN_PAREN = 21;
export const TOKEN_CLOSE_PAREN = 22;
export const TOKEN_OPEN_CURLY = 23;
export const TOKEN_CLOSE_CURLY = 24;
export const TOKEN_COMMENT = 25;

const TOKEN_TYPES: readonly CssTokenType[] = [
  'whitespace-token', // TOKEN_EOF: never materialised
  'ident-token',
  'function-token',
  'at-keyword-token',
  'hash-token',
  'string-token',
  'bad-string-token',
  'url-token',
  'bad-url-token',
  'delim-token',
  'number-token',
  'percentage-token',
  'dimension-token',
  'whitespace-token',
  'CDO-token',
  'CDC-token',
  'colon-token',
  'semicolon-token',
  'comma-token',
  '[-token',
  ']-token',
  '(-token',
  ')-token',
  '{-token',
  '}-token',
  'comment',
];

// The current token lives in fields, each set in the constructor with its final representation: one shape for V8
// (a field changing from small integer to double would deoptimise every reader).
export class CssTokenizer {
  readonly text: string;
  readonly end: number;
  readonly keepComments: boolean;
  readonly skipWhitespace: boolean;
  readonly strictIdentRanges: boolean;
  /** Offset of the next input code point. */
  pos: number;
  /** Kind of the current token (TOKEN_*); TOKEN_EOF once the input is used up. */
  kind: number;
  /** Extent of the current token in the original text. */
  tokenStart: number;
  tokenEnd: number;
  /**
   * Decoded value of the current ident, function, at-keyword, hash, string, url or delim
   * (for a dimension: its unit) is valuePrefix + text.slice(valueStart, valueEnd): the
   * prefix holds what was decoded before the last run of code units copied as they are,
   * and is '' unless an escape or a substituted code point came up.
   */
  valuePrefix: string;
  valueStart: number;
  valueEnd: number;
  /** Number part of a number, percentage or dimension: its extent, type flag and sign. */
  numberStart: number;
  numberEnd: number;
  numberIsInteger: boolean;
  /** PLUS_SIGN, HYPHEN_MINUS or 0 (no sign written). */
  numberSign: number;
  /** Type flag of a hash token: true for "id". */
  hashIsId: boolean;

  constructor(text: string, start: number, keepComments: boolean, skipWhitespace: boolean, strictIdentRanges: boolean) {
    this.text = text;
    this.end = text.length;
    this.keepComments = keepComments;
    this.skipWhitespace = skipWhitespace;
    this.strictIdentRanges = strictIdentRanges;
    this.pos = start;
    this.kind = TOKEN_EOF;
    this.tokenStart = start;
    this.tokenEnd = start;
    this.valuePrefix = '';
    this.valueStart = start;
    this.valueEnd = start;
    this.numberStart = start;
    this.numberEnd = start;
    this.numberIsInteger = true;
    this.numberSign = 0;
    this.hashIsId = false;
  }
}

const EOF = -1;

const LINE_FEED = 0x0a;
const CHARACTER_TABULATION = 0x09;
const FORM_FEED = 0x0c;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const QUOTATION_MARK = 0x22; // "
const NUMBER_SIGN = 0x23; // #
const PERCENTAGE_SIGN = 0x25; // %
const APOSTROPHE = 0x27; // '
const LEFT_PARENTHESIS = 0x28;
const RIGHT_PARENTHESIS = 0x29;
const ASTERISK = 0x2a;
const PLUS_SIGN = 0x2b;
const COMMA = 0x2c;
const HYPHEN_MINUS = 0x2d;
const FULL_STOP = 0x2e;
const SOLIDUS = 0x2f;
const COLON = 0x3a;
const SEMICOLON = 0x3b;
const LESS_THAN_SIGN = 0x3c;
const EXCLAMATION_MARK = 0x21;
const GREATER_THAN_SIGN = 0x3e;
const COMMERCIAL_AT = 0x40;
const LEFT_SQUARE_BRACKET = 0x5b;
const REVERSE_SOLIDUS = 0x5c;
const RIGHT_SQUARE_BRACKET = 0x5d;
const LOW_LINE = 0x5f;
const LEFT_CURLY_BRACKET = 0x7b;
const RIGHT_CURLY_BRACKET = 0x7d;
const DELETE = 0x7f;
const REPLACEMENT_CHARACTER = 0xfffd;
const MAX_CODE_POINT = 0x10ffff;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function hexValue(c: number): number {
  if (c <= 0x39) return c - 0x30;
  if (c <= 0x46) return c - 0x41 + 10;
  return c - 0x61 + 10;
}

/** Non-ASCII ident code point, the Editor's Draft's list (the names of HTML custom elements). */
function isListedNonAsciiIdent(c: number): boolean {
  if (c < 0x2000) return c === 0xb7 || (c >= 0xc0 && c <= 0xd6) || (c >= 0xd8 && c <= 0xf6) || (c >= 0xf8 && c <= 0x37d) || c >= 0x37f;
  if (c < 0x3001) {
    return c === 0x200c || c === 0x200d || c === 0x203f || c === 0x2040 || (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef);
  }
  return c <= 0xd7ff || (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xfffd) || c >= 0x10000;
}

function isIdentStart(s: CssTokenizer, c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === LOW_LINE;
  return !s.strictIdentRanges || isListedNonAsciiIdent(c);
}

function isIdentCodePoint(s: CssTokenizer, c: number): boolean {
  return isIdentStart(s, c) || isDigit(c) || c === HYPHEN_MINUS;
}

function isNonPrintable(c: number): boolean {
  return (c >= 0 && c <= 0x08) || c === 0x0b || (c >= 0x0e && c <= 0x1f) || c === DELETE;
}

function isWhitespace(c: number): boolean {
  return c === LINE_FEED || c === SPACE || c === CHARACTER_TABULATION;
}

function asciiTable(test: (c: number) => boolean): Uint8Array {
  const table = new Uint8Array(0x80);
  for (let c = 0; c < 0x80; c++) table[c] = test(c) ? 1 : 0;
  return table;
}

// NUL reads as U+FFFD, an ident code point, but is substituted, so it leaves the fast path.
const ASCII_IDENT = asciiTable((c) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === LOW_LINE || isDigit(c) || c === HYPHEN_MINUS);

const ASCII_IDENT_START = asciiTable((c) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === LOW_LINE);

const RAW_WHITESPACE = asciiTable((c) => c === CHARACTER_TABULATION || c === LINE_FEED || c === FORM_FEED || c === CARRIAGE_RETURN || c === SPACE);

const SINGLE_UNIT_TOKENS = kindTable([
  [LEFT_PARENTHESIS, TOKEN_OPEN_PAREN],
  [RIGHT_PARENTHESIS, TOKEN_CLOSE_PAREN],
  [COMMA, TOKEN_COMMA],
  [COLON, TOKEN_COLON],
  [SEMICOLON, TOKEN_SEMICOLON],
  [LEFT_SQUARE_BRACKET, TOKEN_OPEN_SQUARE],
  [RIGHT_SQUARE_BRACKET, TOKEN_CLOSE_SQUARE],
  [LEFT_CURLY_BRACKET, TOKEN_OPEN_CURLY],
  [RIGHT_CURLY_BRACKET, TOKEN_CLOSE_CURLY],
]);

function kindTable(pairs: readonly (readonly [number, number])[]): Uint8Array {
  const table = new Uint8Array(0x80);
  for (const [c, kind] of pairs) table[c] = kind;
  return table;
}

function codePointAt(s: CssTokenizer, i: number): number {
  if (i >= s.end) return EOF;
  const c = s.text.charCodeAt(i);
  if (c < 0x20) {
    if (c === CARRIAGE_RETURN || c === FORM_FEED) return LINE_FEED;
    if (c === 0) return REPLACEMENT_CHARACTER;
    return c;
  }
  if (c >= 0xd800 && c <= 0xdfff) {
    if (c <= 0xdbff && i + 1 < s.end) {
      const d = s.text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
    }
    return REPLACEMENT_CHARACTER;
  }
  return c;
}

function nextOffset(s: CssTokenizer, i: number): number {
  if (i >= s.end) return i;
  const c = s.text.charCodeAt(i);
  if (c === CARRIAGE_RETURN) return i + 1 < s.end && s.text.charCodeAt(i + 1) === LINE_FEED ? i + 2 : i + 1;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.end) {
    const d = s.text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return i + 2;
  }
  return i + 1;
}

function isSubstituted(s: CssTokenizer, i: number): boolean {
  return s.text.charCodeAt(i) !== REPLACEMENT_CHARACTER && codePointAt(s, i) === REPLACEMENT_CHARACTER;
}

// Digits are never preprocessed and no preprocessed code point is one: the raw unit decides.
function isDigitAt(s: CssTokenizer, i: number): boolean {
  if (i >= s.end) return false;
  const c = s.text.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

function skipDigits(s: CssTokenizer, i: number): number {
  const text = s.text;
  const end = s.end;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    i++;
  }
  return i;
}

function codePointString(c: number): string {
  return c < 0x10000 ? String.fromCharCode(c) : String.fromCodePoint(c);
}

// Counting raw tab, LF, FF, CR and space units consumes the same code points as the spec (CR LF is two).
function consumeWhitespace(s: CssTokenizer): void {
  const text = s.text;
  const end = s.end;
  const whitespace = RAW_WHITESPACE;
  let i = s.pos;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || whitespace[c] === 0) break;
    i++;
  }
  s.pos = i;
}

function setRawValue(s: CssTokenizer, start: number, end: number): void {
  s.valuePrefix = '';
  s.valueStart = start;
  s.valueEnd = end;
}

export function createTokenizer(text: string, options: TokenizerOptions = {}): CssTokenizer {
  const start = Math.max(0, Math.min(options.start ?? 0, text.length));
  return new CssTokenizer(text, start, options.keepComments === true, options.skipWhitespace === true, options.strictIdentRanges === true);
}

export function tokenize(text: string, options: TokenizerOptions = {}): CssToken[] {
  const s = createTokenizer(text, options);
  const tokens: CssToken[] = [];
  for (let t = consumeToken(s); t !== null; t = consumeToken(s)) tokens.push(t);
  return tokens;
}

/** Consumes a token and returns it as a record, or null at EOF (the spec's <EOF-token>). */
export function consumeToken(s: CssTokenizer): CssToken | null {
  const kind = nextToken(s);
  if (kind === TOKEN_EOF) return null;
  let numeric = 0;
  let numberType: CssToken['numberType'] = '';
  let sign: CssToken['sign'] = '';
  let unit = '';
  if (kind === TOKEN_NUMBER || kind === TOKEN_PERCENTAGE || kind === TOKEN_DIMENSION) {
    numeric = tokenNumeric(s);
    numberType = s.numberIsInteger ? 'integer' : 'number';
    sign = s.numberSign === PLUS_SIGN ? '+' : s.numberSign === HYPHEN_MINUS ? '-' : '';
    unit = tokenUnit(s);
  }
  return {
    type: TOKEN_TYPES[kind]!,
    start: s.tokenStart,
    end: s.tokenEnd,
    value: tokenValue(s),
    numeric,
    numberType,
    sign,
    unit,
    hashType: kind === TOKEN_HASH ? (s.hashIsId ? 'id' : 'unrestricted') : '',
  };
}

export function tokenValue(s: CssTokenizer): string {
  switch (s.kind) {
    case TOKEN_IDENT:
    case TOKEN_FUNCTION:
    case TOKEN_AT_KEYWORD:
    case TOKEN_HASH:
    case TOKEN_STRING:
    case TOKEN_URL:
    case TOKEN_DELIM:
      return decodedValue(s);
    default:
      return '';
  }
}

export function tokenUnit(s: CssTokenizer): string {
  return s.kind === TOKEN_DIMENSION ? decodedValue(s) : '';
}

// Number() reads what "consume a number" accepts as "convert a string to a number" does, -0 included.
export function tokenNumeric(s: CssTokenizer): number {
  return Number(s.text.slice(s.numberStart, s.numberEnd));
}

function decodedValue(s: CssTokenizer): string {
  const raw = s.text.slice(s.valueStart, s.valueEnd);
  return s.valuePrefix === '' ? raw : s.valuePrefix + raw;
}

// Only `/` can start a comment, so "consume comments" runs from that case and consumption starts over.
export function nextToken(s: CssTokenizer): number {
  const text = s.text;
  let start = s.pos;
  let kind = TOKEN_EOF;
  for (;;) {
    start = s.pos;
    if (start >= s.end) break;
    const c = text.charCodeAt(start);
    // Every case but whitespace, NUL and non-ASCII starts with one ASCII unit that preprocessing leaves alone.
    s.pos = start + 1;
    if (c < 0x80) {
      // Fast routing for the commonest starts; each goes where the spec's branch for it goes.
      const single = SINGLE_UNIT_TOKENS[c]!;
      if (single !== 0) {
        kind = single;
        break;
      }
      if (ASCII_IDENT_START[c] === 1) {
        s.pos = start;
        kind = consumeIdentLikeToken(s);
        break;
      }
    }
    switch (c) {
      case LINE_FEED:
      case CHARACTER_TABULATION:
      case SPACE:
      case CARRIAGE_RETURN: // reads as LF
      case FORM_FEED: // reads as LF
        consumeWhitespace(s);
        if (s.skipWhitespace) continue;
        kind = TOKEN_WHITESPACE;
        break;
      case QUOTATION_MARK:
      case APOSTROPHE:
        kind = consumeStringToken(s, c);
        break;
      case NUMBER_SIGN: {
        const c1 = codePointAt(s, s.pos);
        if (isIdentCodePoint(s, c1) || isValidEscape(c1, codePointAt(s, nextOffset(s, s.pos)))) {
          s.hashIsId = wouldStartIdentSequence(s, s.pos);
          consumeIdentSequence(s);
          kind = TOKEN_HASH;
        } else {
          kind = consumeDelim(s, start);
        }
        break;
      }
      case PLUS_SIGN:
        if (wouldStartNumber(s, start)) {
          s.pos = start; // reconsume
          kind = consumeNumericToken(s);
        } else {
          kind = consumeDelim(s, start);
        }
        break;
      case HYPHEN_MINUS:
        if (wouldStartNumber(s, start)) {
          s.pos = start;
          kind = consumeNumericToken(s);
        } else if (codePointAt(s, s.pos) === HYPHEN_MINUS && codePointAt(s, s.pos + 1) === GREATER_THAN_SIGN) {
          s.pos += 2;
          kind = TOKEN_CDC;
        } else if (wouldStartIdentSequence(s, start)) {
          s.pos = start;
          kind = consumeIdentLikeToken(s);
        } else {
          kind = consumeDelim(s, start);
        }
        break;
      case FULL_STOP:
        if (wouldStartNumber(s, start)) {
          s.pos = start;
          kind = consumeNumericToken(s);
        } else {
          kind = consumeDelim(s, start);
        }
        break;
      case LESS_THAN_SIGN:
        if (codePointAt(s, s.pos) === EXCLAMATION_MARK && codePointAt(s, s.pos + 1) === HYPHEN_MINUS && codePointAt(s, s.pos + 2) === HYPHEN_MINUS) {
          s.pos += 3;
          kind = TOKEN_CDO;
        } else {
          kind = consumeDelim(s, start);
        }
        break;
      case COMMERCIAL_AT:
        if (wouldStartIdentSequence(s, s.pos)) {
          consumeIdentSequence(s);
          kind = TOKEN_AT_KEYWORD;
        } else {
          kind = consumeDelim(s, start);
        }
        break;
      case REVERSE_SOLIDUS:
        if (isValidEscape(c, codePointAt(s, s.pos))) {
          s.pos = start;
          kind = consumeIdentLikeToken(s);
        } else {
          kind = consumeDelim(s, start);
        }
        break;
      case SOLIDUS:
        if (s.pos < s.end && text.charCodeAt(s.pos) === ASTERISK) {
          consumeComment(s, start);
          if (s.keepComments) {
            kind = TOKEN_COMMENT;
            break;
          }
          continue; // the spec consumes comments, then the token after them
        }
        kind = consumeDelim(s, start);
        break;
      // U+0028 (, U+0029 ), U+002C COMMA, U+003A COLON, U+003B SEMICOLON, U+005B [,
      // U+005D ], U+007B {, U+007D }: a token of their own (SINGLE_UNIT_TOKENS, above).
      // Ident-start code points: an ident-like token (above, and below for non-ASCII).
      default:
        if (isDigit(c)) {
          s.pos = start;
          kind = consumeNumericToken(s);
        } else if (c < 0x80 && c !== 0) {
          kind = consumeDelim(s, start);
        } else {
          s.pos = start;
          if (isIdentStart(s, codePointAt(s, start))) {
            kind = consumeIdentLikeToken(s);
          } else {
            s.pos = nextOffset(s, start);
            kind = consumeDelim(s, start);
          }
        }
        break;
    }
    break;
  }
  s.kind = kind;
  s.tokenStart = start;
  s.tokenEnd = s.pos;
  return kind;
}

const NOT_PLAIN = '[^\\t\\n\\f\\r !#$%&*+,\\-./0-9:<=>?A-Z^_`a-z|~]';

// Ends a plain run: a non-plain unit, or the start of `/*`, `<!--`, `-->` (the match starts at lastIndex - 1).
// A regex, not a table loop: V8 runs it natively from the first call. No nested quantifiers: linear.
const PLAIN_RUN_END = new RegExp(`${NOT_PLAIN}|\\/(?=\\*)|<(?=!--)|-(?=->)`, 'g');

const PLAIN = plainTable();

function plainTable(): Uint8Array {
  const notPlain = new RegExp(NOT_PLAIN);
  return asciiTable((c) => !notPlain.test(String.fromCharCode(c)));
}

// No token starting in a run goes on through these; `(`, `\`, `-`, NUL and non-ASCII may continue the last one.
const ENDS_PLAIN_RUN = asciiTable((c) => c !== 0 && c !== LEFT_PARENTHESIS && c !== REVERSE_SOLIDUS && c !== HYPHEN_MINUS);

// Consumes whitespace, idents, hashes, delims, colons, commas and numbers (none can hold a reference or open a
// block); true when one was not whitespace. Equivalent to nextToken: every token starting in a plain run is one of
// these, so a run ending at ENDS_PLAIN_RUN or EOF is taken whole; otherwise its last token (the trailing ident units,
// or from a `#` before them) may go on and is left, and a `.` or `+` before a digit falls back to one by one.
// Each run is scanned at most twice: linear. The current-token fields are meaningless afterwards.
export function skipIgnorableTokens(s: CssTokenizer): boolean {
  const text = s.text;
  const end = s.end;
  const whitespace = RAW_WHITESPACE;
  let start = s.pos;
  while (start < end) {
    const u = text.charCodeAt(start);
    if (u >= 0x80 || whitespace[u] === 0) break;
    start++;
  }
  if (start < end) {
    const u = text.charCodeAt(start);
    if (u >= 0x80 || PLAIN[u] === 0) {
      s.pos = start;
      return false;
    }
  }
  PLAIN_RUN_END.lastIndex = start;
  const runEnd = PLAIN_RUN_END.test(text) ? PLAIN_RUN_END.lastIndex - 1 : end;
  let stop = runEnd;
  if (runEnd < end) {
    const u = text.charCodeAt(runEnd);
    if (u >= 0x80 || ENDS_PLAIN_RUN[u] === 0) {
      const ident = ASCII_IDENT;
      while (stop > start && ident[text.charCodeAt(stop - 1)] === 1) stop--;
      if (stop > start) {
        const before = text.charCodeAt(stop - 1);
        if (before === NUMBER_SIGN) stop--;
        else if ((before === FULL_STOP || before === PLUS_SIGN) && isDigit(text.charCodeAt(stop))) return skipTokensOneByOne(s, runEnd);
      }
    }
  }
  s.pos = stop;
  return stop > start;
}

function skipTokensOneByOne(s: CssTokenizer, runEnd: number): boolean {
  let skipped = false;
  for (;;) {
    const at = s.pos;
    if (at >= runEnd) break;
    const kind = nextToken(s);
    if (s.pos > runEnd) {
      s.pos = at; // this token goes on past the run: leave it to the caller
      break;
    }
    if (kind !== TOKEN_WHITESPACE) skipped = true;
  }
  return skipped;
}

function consumeDelim(s: CssTokenizer, start: number): number {
  setRawValue(s, start, s.pos);
  if (isSubstituted(s, start)) {
    s.valuePrefix = '\uFFFD';
    s.valueStart = s.pos;
  }
  return TOKEN_DELIM;
}

// Unterminated runs to EOF; indexOf keeps it linear. The spec's loop over comments is nextToken starting over.
function consumeComment(s: CssTokenizer, start: number): void {
  const close = s.text.indexOf('*/', start + 2);
  s.pos = close < 0 || close + 2 > s.end ? s.end : close + 2;
}

function consumeNumericToken(s: CssTokenizer): number {
  consumeNumber(s);
  if (wouldStartIdentSequence(s, s.pos)) {
    consumeIdentSequence(s); // the unit
    return TOKEN_DIMENSION;
  }
  if (s.pos < s.end && s.text.charCodeAt(s.pos) === PERCENTAGE_SIGN) {
    s.pos++;
    return TOKEN_PERCENTAGE;
  }
  return TOKEN_NUMBER;
}

function consumeIdentLikeToken(s: CssTokenizer): number {
  consumeIdentSequence(s);
  if (s.pos < s.end && s.text.charCodeAt(s.pos) === LEFT_PARENTHESIS) {
    s.pos++;
    if (isAsciiUrl(s)) {
      // The spec skips all but one whitespace code point before looking for a quote; the function token still ends
      // at `(` and the whitespace token keeps its full extent (as the corpus records positions).
      const open = s.pos;
      let i = open;
      while (isWhitespace(codePointAt(s, i)) && isWhitespace(codePointAt(s, nextOffset(s, i)))) i = nextOffset(s, i);
      const c1 = codePointAt(s, i);
      const c2 = isWhitespace(c1) ? codePointAt(s, nextOffset(s, i)) : EOF;
      if (c1 === QUOTATION_MARK || c1 === APOSTROPHE || c2 === QUOTATION_MARK || c2 === APOSTROPHE) {
        return TOKEN_FUNCTION;
      }
      s.pos = i;
      return consumeUrlToken(s);
    }
    return TOKEN_FUNCTION;
  }
  return TOKEN_IDENT;
}

function isAsciiUrl(s: CssTokenizer): boolean {
  if (s.valuePrefix === '') {
    const i = s.valueStart;
    const text = s.text;
    return s.valueEnd - i === 3 && (text.charCodeAt(i) | 0x20) === 0x75 && (text.charCodeAt(i + 1) | 0x20) === 0x72 && (text.charCodeAt(i + 2) | 0x20) === 0x6c;
  }
  const name = decodedValue(s);
  return name.length === 3 && (name.charCodeAt(0) | 0x20) === 0x75 && (name.charCodeAt(1) | 0x20) === 0x72 && (name.charCodeAt(2) | 0x20) === 0x6c;
}

function consumeStringToken(s: CssTokenizer, ending: number): number {
  const text = s.text;
  const end = s.end;
  let prefix = '';
  let run = s.pos; // start of the current run of code points copied as they are
  let i = s.pos;
  for (;;) {
    // Units but the quote, `\`, surrogates and <= U+000D (preprocessing changes those) stand for themselves.
    while (i < end) {
      const u = text.charCodeAt(i);
      if (u === ending || u === REVERSE_SOLIDUS || u <= CARRIAGE_RETURN || (u >= 0xd800 && u <= 0xdfff)) break;
      i++;
    }
    if (i < end && text.charCodeAt(i) === ending) {
      s.pos = i + 1; // the ending quote, one code unit
      break;
    }
    const c = codePointAt(s, i);
    if (c === EOF) {
      s.pos = i;
      break;
    }
    const next = nextOffset(s, i);
    if (c === ending) {
      s.pos = next;
      break;
    }
    if (c === LINE_FEED) {
      s.pos = i;
      return TOKEN_BAD_STRING;
    }
    if (c === REVERSE_SOLIDUS) {
      prefix += text.slice(run, i);
      s.pos = next;
      const escaped = codePointAt(s, s.pos);
      if (escaped === LINE_FEED) s.pos = nextOffset(s, s.pos); // an escaped newline continues the string
      else if (escaped !== EOF) prefix += codePointString(consumeEscapedCodePoint(s));
      run = s.pos;
      i = s.pos;
      continue;
    }
    if (c === REPLACEMENT_CHARACTER && isSubstituted(s, i)) {
      prefix += text.slice(run, i) + '\uFFFD';
      run = next;
    }
    i = next;
  }
  s.valuePrefix = prefix;
  s.valueStart = run;
  s.valueEnd = i;
  return TOKEN_STRING;
}

function consumeUrlToken(s: CssTokenizer): number {
  consumeWhitespace(s);
  const text = s.text;
  const end = s.end;
  let prefix = '';
  let run = s.pos;
  let i = s.pos;
  for (;;) {
    // Units above U+0020 but quotes, parentheses, `\`, DELETE and surrogates stand for themselves.
    while (i < end) {
      const u = text.charCodeAt(i);
      if (u <= SPACE || u === QUOTATION_MARK || u === APOSTROPHE || u === LEFT_PARENTHESIS || u === RIGHT_PARENTHESIS || u === REVERSE_SOLIDUS || u === DELETE || (u >= 0xd800 && u <= 0xdfff)) break;
      i++;
    }
    const c = codePointAt(s, i);
    if (c === EOF) {
      s.pos = i; // parse error
      break;
    }
    s.pos = nextOffset(s, i);
    if (c === RIGHT_PARENTHESIS) break;
    if (isWhitespace(c)) {
      consumeWhitespace(s);
      const next = codePointAt(s, s.pos);
      if (next === RIGHT_PARENTHESIS) {
        s.pos++;
        break;
      }
      if (next === EOF) break; // parse error
      consumeRemnantsOfBadUrl(s);
      return TOKEN_BAD_URL;
    }
    if (c === QUOTATION_MARK || c === APOSTROPHE || c === LEFT_PARENTHESIS || isNonPrintable(c)) {
      consumeRemnantsOfBadUrl(s);
      return TOKEN_BAD_URL;
    }
    if (c === REVERSE_SOLIDUS) {
      if (isValidEscape(c, codePointAt(s, s.pos))) {
        prefix += text.slice(run, i) + codePointString(consumeEscapedCodePoint(s));
        run = s.pos;
        i = s.pos;
        continue;
      }
      consumeRemnantsOfBadUrl(s);
      return TOKEN_BAD_URL;
    }
    if (c === REPLACEMENT_CHARACTER && isSubstituted(s, i)) {
      prefix += text.slice(run, i) + '\uFFFD';
      run = s.pos;
    }
    i = s.pos;
  }
  s.valuePrefix = prefix;
  s.valueStart = run;
  s.valueEnd = i;
  return TOKEN_URL;
}

function consumeEscapedCodePoint(s: CssTokenizer): number {
  const c = codePointAt(s, s.pos);
  if (c === EOF) return REPLACEMENT_CHARACTER; // parse error
  s.pos = nextOffset(s, s.pos);
  if (!isHexDigit(c)) return c;
  let value = hexValue(c);
  for (let count = 1; count < 6 && isHexDigit(codePointAt(s, s.pos)); count++) {
    value = value * 16 + hexValue(s.text.charCodeAt(s.pos));
    s.pos++;
  }
  if (isWhitespace(codePointAt(s, s.pos))) s.pos = nextOffset(s, s.pos);
  if (value === 0 || (value >= 0xd800 && value <= 0xdfff) || value > MAX_CODE_POINT) return REPLACEMENT_CHARACTER;
  return value;
}

function isValidEscape(first: number, second: number): boolean {
  return first === REVERSE_SOLIDUS && second !== LINE_FEED;
}

function wouldStartIdentSequence(s: CssTokenizer, i: number): boolean {
  // An ASCII first unit other than `-`, `\` and NUL decides alone.
  if (i < s.end) {
    const u = s.text.charCodeAt(i);
    if (u < 0x80 && u !== HYPHEN_MINUS && u !== REVERSE_SOLIDUS && u !== 0) return ASCII_IDENT_START[u] === 1;
  }
  const first = codePointAt(s, i);
  if (first === HYPHEN_MINUS) {
    const i2 = nextOffset(s, i);
    const second = codePointAt(s, i2);
    if (isIdentStart(s, second) || second === HYPHEN_MINUS) return true;
    return isValidEscape(second, codePointAt(s, nextOffset(s, i2)));
  }
  if (isIdentStart(s, first)) return true;
  if (first === REVERSE_SOLIDUS) return isValidEscape(first, codePointAt(s, nextOffset(s, i)));
  return false;
}

// Signs, `.` and digits are never preprocessed and no preprocessed code point is one: raw units decide.
function wouldStartNumber(s: CssTokenizer, i: number): boolean {
  if (i >= s.end) return false;
  const first = s.text.charCodeAt(i);
  if (first === PLUS_SIGN || first === HYPHEN_MINUS) {
    if (isDigitAt(s, i + 1)) return true;
    return i + 1 < s.end && s.text.charCodeAt(i + 1) === FULL_STOP && isDigitAt(s, i + 2);
  }
  if (first === FULL_STOP) return isDigitAt(s, i + 1);
  return isDigit(first);
}

function consumeIdentSequence(s: CssTokenizer): void {
  const text = s.text;
  const end = s.end;
  const ident = ASCII_IDENT;
  let prefix = '';
  let run = s.pos;
  let i = s.pos;
  for (;;) {
    while (i < end) {
      const u = text.charCodeAt(i);
      if (u >= 0x80 || ident[u] === 0) break;
      i++;
    }
    if (i >= end) break;
    const u = text.charCodeAt(i);
    if (u < 0x80 && u !== 0 && u !== REVERSE_SOLIDUS) break;
    const c = codePointAt(s, i);
    if (c >= 0x80 && isIdentCodePoint(s, c)) {
      const next = nextOffset(s, i);
      if (c === REPLACEMENT_CHARACTER && isSubstituted(s, i)) {
        prefix += text.slice(run, i) + '\uFFFD';
        run = next;
      }
      i = next;
      continue;
    }
    if (c === REVERSE_SOLIDUS && isValidEscape(c, codePointAt(s, i + 1))) {
      prefix += text.slice(run, i);
      s.pos = i + 1;
      prefix += codePointString(consumeEscapedCodePoint(s));
      run = s.pos;
      i = s.pos;
      continue;
    }
    break;
  }
  s.pos = i;
  s.valuePrefix = prefix;
  s.valueStart = run;
  s.valueEnd = i;
}

// The value is computed only on request (tokenNumeric): the policy never needs it.
function consumeNumber(s: CssTokenizer): void {
  const text = s.text;
  s.numberStart = s.pos;
  let integer = true;
  let sign = 0;
  const first = text.charCodeAt(s.pos);
  if (first === PLUS_SIGN || first === HYPHEN_MINUS) {
    sign = first;
    s.pos++;
  }
  s.pos = skipDigits(s, s.pos);
  if (s.pos < s.end && text.charCodeAt(s.pos) === FULL_STOP && isDigitAt(s, s.pos + 1)) {
    integer = false;
    s.pos = skipDigits(s, s.pos + 2);
  }
  const e = s.pos < s.end ? text.charCodeAt(s.pos) : EOF;
  if (e === 0x45 || e === 0x65) {
    const next = s.pos + 1 < s.end ? text.charCodeAt(s.pos + 1) : EOF;
    if (isDigit(next)) {
      integer = false;
      s.pos = skipDigits(s, s.pos + 2);
    } else if ((next === PLUS_SIGN || next === HYPHEN_MINUS) && isDigitAt(s, s.pos + 2)) {
      integer = false;
      s.pos = skipDigits(s, s.pos + 3);
    }
  }
  s.numberEnd = s.pos;
  s.numberIsInteger = integer;
  s.numberSign = sign;
}

function consumeRemnantsOfBadUrl(s: CssTokenizer): void {
  for (;;) {
    const c = codePointAt(s, s.pos);
    if (c === EOF) return;
    s.pos = nextOffset(s, s.pos);
    if (c === RIGHT_PARENTHESIS) return;
    if (isValidEscape(c, codePointAt(s, s.pos))) consumeEscapedCodePoint(s);
  }
}
