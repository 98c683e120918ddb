// CSS Syntax Module Level 3, section 4 "Tokenization", one function per algorithm.
//
// Why a real tokenizer and not a regex over url(...): escapes decode into names and
// values (`@\69mport` is the at-keyword "import", `u\72l(x)` is a url token), comments
// and strings hide look-alikes (`/* url(http://x) */` is no reference), and the exact
// rules for where a url token ends decide what a browser would fetch (D-19).
//
// Preprocessing ("Preprocessing the input stream") is done on the fly instead
// of on a copy: CR LF, CR and FF read as one LF, NUL and lone surrogates read as U+FFFD.
// Every token therefore carries `start`/`end` offsets (UTF-16 code units) into the
// ORIGINAL text, which is what findings need for line and column.
//
// Not implemented: the Editor's Draft's "unicode ranges allowed" flag (only the
// unicode-range descriptor needs it, and it never holds a reference).
//
// Linear time by construction: every algorithm only moves forward, lookahead is at most
// three code points, and values are built from slices of the source, concatenating only
// at escapes and substituted code points.

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
  /** Offset of the first code unit in the original text. */
  readonly start: number;
  /** Offset just past the last code unit in the original text. */
  readonly end: number;
  /**
   * Decoded value: the name of an ident, function, at-keyword or hash; the contents of
   * a string or url; the code point of a delim; '' for every other type.
   */
  readonly value: string;
  /** Numeric value of a number, percentage or dimension; 0 otherwise. */
  readonly numeric: number;
  /** Type flag of a number, percentage or dimension; '' otherwise. */
  readonly numberType: 'integer' | 'number' | '';
  /** The sign character written before a number, percentage or dimension, if any. */
  readonly sign: '+' | '-' | '';
  /** Unit of a dimension (decoded); '' otherwise. */
  readonly unit: string;
  /** Type flag of a hash token; '' otherwise. */
  readonly hashType: 'id' | 'unrestricted' | '';
}

export interface TokenizerOptions {
  /** Offset to start at (for example 1 to skip a byte-order mark). Default 0. */
  readonly start?: number;
  /** Emit a `comment` token for each comment (the corpus format does). Default false. */
  readonly keepComments?: boolean;
  /**
   * true: only the Editor's Draft's list of "non-ASCII ident code points" joins
   * identifiers. false (default): every non-ASCII code point does, which is what every
   * browser engine still does and what the policy must mirror; a narrower set would split
   * `\u00D7url(` differently from a browser and desynchronise quotes after it.
   */
  readonly strictIdentRanges?: boolean;
}

/** Tokenizer state: the source and the offset of the next input code point. */
export interface CssTokenizer {
  readonly text: string;
  readonly end: number;
  readonly keepComments: boolean;
  readonly strictIdentRanges: boolean;
  pos: number;
  // Results of "consume a number", kept here to avoid allocating a record per number.
  numberValue: number;
  numberType: 'integer' | 'number';
  numberSign: '+' | '-' | '';
}

/** Sentinel for "no more input" (the spec's EOF code point). */
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
const REPLACEMENT_CHARACTER = 0xfffd;
const MAX_CODE_POINT = 0x10ffff;

// ---------------------------------------------------------------------------
// Tokenizer definitions (code point classes)
// ---------------------------------------------------------------------------

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

/** Ident-start code point: a letter, a non-ASCII (ident) code point, or U+005F LOW LINE. */
function isIdentStart(s: CssTokenizer, c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === LOW_LINE;
  return !s.strictIdentRanges || isListedNonAsciiIdent(c);
}

/** Ident code point: an ident-start code point, a digit, or U+002D HYPHEN-MINUS. */
function isIdentCodePoint(s: CssTokenizer, c: number): boolean {
  return isIdentStart(s, c) || isDigit(c) || c === HYPHEN_MINUS;
}

/** Non-printable: U+0000-0008, U+000B, U+000E-001F, U+007F (NUL never reaches here: it reads as U+FFFD). */
function isNonPrintable(c: number): boolean {
  return (c >= 0 && c <= 0x08) || c === 0x0b || (c >= 0x0e && c <= 0x1f) || c === 0x7f;
}

/** Whitespace after preprocessing: newline (LF), tab, space. */
function isWhitespace(c: number): boolean {
  return c === LINE_FEED || c === SPACE || c === CHARACTER_TABULATION;
}

// ---------------------------------------------------------------------------
// Preprocessing the input stream (applied while reading)
// ---------------------------------------------------------------------------

/** The preprocessed code point at original offset `i` (EOF past the end). */
function codePointAt(s: CssTokenizer, i: number): number {
  if (i >= s.end) return EOF;
  const c = s.text.charCodeAt(i);
  if (c < 0x20) {
    // CR, CR LF and FF all read as one LF; NUL reads as U+FFFD.
    if (c === CARRIAGE_RETURN || c === FORM_FEED) return LINE_FEED;
    if (c === 0) return REPLACEMENT_CHARACTER;
    return c;
  }
  if (c >= 0xd800 && c <= 0xdfff) {
    if (c <= 0xdbff && i + 1 < s.end) {
      const d = s.text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
    }
    // A lone surrogate is a "surrogate code point": preprocessing makes it U+FFFD.
    return REPLACEMENT_CHARACTER;
  }
  return c;
}

/** Offset of the code point after the one at `i` (CR LF and surrogate pairs are one code point). */
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

/** True when the code point at `i` was substituted by preprocessing (NUL or lone surrogate -> U+FFFD). */
function isSubstituted(s: CssTokenizer, i: number): boolean {
  return s.text.charCodeAt(i) !== REPLACEMENT_CHARACTER && codePointAt(s, i) === REPLACEMENT_CHARACTER;
}

function codePointString(c: number): string {
  return c < 0x10000 ? String.fromCharCode(c) : String.fromCodePoint(c);
}

/** Consumes as much whitespace as possible. */
function consumeWhitespace(s: CssTokenizer): void {
  while (isWhitespace(codePointAt(s, s.pos))) s.pos = nextOffset(s, s.pos);
}

function makeToken(type: CssTokenType, start: number, end: number, value: string): CssToken {
  return { type, start, end, value, numeric: 0, numberType: '', sign: '', unit: '', hashType: '' };
}

// ---------------------------------------------------------------------------
// Public entry points
// ---------------------------------------------------------------------------

/** A tokenizer over `text`; call consumeToken until it returns null. */
export function createTokenizer(text: string, options: TokenizerOptions = {}): CssTokenizer {
  const start = Math.max(0, Math.min(options.start ?? 0, text.length));
  return {
    text,
    end: text.length,
    keepComments: options.keepComments === true,
    strictIdentRanges: options.strictIdentRanges === true,
    pos: start,
    numberValue: 0,
    numberType: 'integer',
    numberSign: '',
  };
}

/** Every token of `text` (no EOF token). Prefer createTokenizer for large inputs: it streams. */
export function tokenize(text: string, options: TokenizerOptions = {}): CssToken[] {
  const s = createTokenizer(text, options);
  const tokens: CssToken[] = [];
  for (let t = consumeToken(s); t !== null; t = consumeToken(s)) tokens.push(t);
  return tokens;
}

// ---------------------------------------------------------------------------
// Consume a token
// ---------------------------------------------------------------------------

/** Returns the next token, or null at EOF (the spec's <EOF-token>). */
export function consumeToken(s: CssTokenizer): CssToken | null {
  const comment = consumeComments(s);
  if (comment !== null) return comment;
  const start = s.pos;
  const c = codePointAt(s, start);
  if (c === EOF) return null;
  s.pos = nextOffset(s, start);
  switch (c) {
    case LINE_FEED:
    case CHARACTER_TABULATION:
    case SPACE:
      consumeWhitespace(s);
      return makeToken('whitespace-token', start, s.pos, '');
    case QUOTATION_MARK:
    case APOSTROPHE:
      return consumeStringToken(s, c, start);
    case NUMBER_SIGN: {
      const c1 = codePointAt(s, s.pos);
      const i2 = nextOffset(s, s.pos);
      if (isIdentCodePoint(s, c1) || isValidEscape(c1, codePointAt(s, i2))) {
        // The type flag is "id" when the name could also be read as an identifier.
        const hashType = wouldStartIdentSequence(s, s.pos) ? 'id' : 'unrestricted';
        const value = consumeIdentSequence(s);
        return { type: 'hash-token', start, end: s.pos, value, numeric: 0, numberType: '', sign: '', unit: '', hashType };
      }
      return makeToken('delim-token', start, s.pos, '#');
    }
    case LEFT_PARENTHESIS:
      return makeToken('(-token', start, s.pos, '');
    case RIGHT_PARENTHESIS:
      return makeToken(')-token', start, s.pos, '');
    case PLUS_SIGN:
      if (wouldStartNumber(s, start)) {
        s.pos = start; // reconsume
        return consumeNumericToken(s);
      }
      return makeToken('delim-token', start, s.pos, '+');
    case COMMA:
      return makeToken('comma-token', start, s.pos, '');
    case HYPHEN_MINUS: {
      if (wouldStartNumber(s, start)) {
        s.pos = start;
        return consumeNumericToken(s);
      }
      const i2 = nextOffset(s, s.pos);
      if (codePointAt(s, s.pos) === HYPHEN_MINUS && codePointAt(s, i2) === GREATER_THAN_SIGN) {
        s.pos = nextOffset(s, i2);
        return makeToken('CDC-token', start, s.pos, '');
      }
      if (wouldStartIdentSequence(s, start)) {
        s.pos = start;
        return consumeIdentLikeToken(s);
      }
      return makeToken('delim-token', start, s.pos, '-');
    }
    case FULL_STOP:
      if (wouldStartNumber(s, start)) {
        s.pos = start;
        return consumeNumericToken(s);
      }
      return makeToken('delim-token', start, s.pos, '.');
    case COLON:
      return makeToken('colon-token', start, s.pos, '');
    case SEMICOLON:
      return makeToken('semicolon-token', start, s.pos, '');
    case LESS_THAN_SIGN: {
      const i2 = nextOffset(s, s.pos);
      const i3 = nextOffset(s, i2);
      if (codePointAt(s, s.pos) === EXCLAMATION_MARK && codePointAt(s, i2) === HYPHEN_MINUS && codePointAt(s, i3) === HYPHEN_MINUS) {
        s.pos = nextOffset(s, i3);
        return makeToken('CDO-token', start, s.pos, '');
      }
      return makeToken('delim-token', start, s.pos, '<');
    }
    case COMMERCIAL_AT:
      if (wouldStartIdentSequence(s, s.pos)) {
        const name = consumeIdentSequence(s);
        return makeToken('at-keyword-token', start, s.pos, name);
      }
      return makeToken('delim-token', start, s.pos, '@');
    case LEFT_SQUARE_BRACKET:
      return makeToken('[-token', start, s.pos, '');
    case REVERSE_SOLIDUS:
      if (isValidEscape(c, codePointAt(s, s.pos))) {
        s.pos = start;
        return consumeIdentLikeToken(s);
      }
      // Parse error: a lone backslash (before a newline or EOF) is a delim.
      return makeToken('delim-token', start, s.pos, '\\');
    case RIGHT_SQUARE_BRACKET:
      return makeToken(']-token', start, s.pos, '');
    case LEFT_CURLY_BRACKET:
      return makeToken('{-token', start, s.pos, '');
    case RIGHT_CURLY_BRACKET:
      return makeToken('}-token', start, s.pos, '');
    default:
      if (isDigit(c)) {
        s.pos = start;
        return consumeNumericToken(s);
      }
      if (isIdentStart(s, c)) {
        s.pos = start;
        return consumeIdentLikeToken(s);
      }
      return makeToken('delim-token', start, s.pos, codePointString(c));
  }
}

// ---------------------------------------------------------------------------
// Consume comments
// ---------------------------------------------------------------------------

/**
 * Consumes comments. The spec returns nothing; with `keepComments` each comment comes
 * back as a token (one per call) so tools can see them. An unterminated comment runs to
 * EOF (a parse error). Searching for the end with indexOf keeps this linear.
 */
function consumeComments(s: CssTokenizer): CssToken | null {
  while (s.pos + 1 < s.end && s.text.charCodeAt(s.pos) === SOLIDUS && s.text.charCodeAt(s.pos + 1) === ASTERISK) {
    const start = s.pos;
    const close = s.text.indexOf('*/', start + 2);
    s.pos = close < 0 || close + 2 > s.end ? s.end : close + 2;
    if (s.keepComments) return makeToken('comment', start, s.pos, '');
  }
  return null;
}

// ---------------------------------------------------------------------------
// Consume a numeric token
// ---------------------------------------------------------------------------

function consumeNumericToken(s: CssTokenizer): CssToken {
  const start = s.pos;
  consumeNumber(s);
  const numeric = s.numberValue;
  const numberType = s.numberType;
  const sign = s.numberSign;
  if (wouldStartIdentSequence(s, s.pos)) {
    const unit = consumeIdentSequence(s);
    return { type: 'dimension-token', start, end: s.pos, value: '', numeric, numberType, sign, unit, hashType: '' };
  }
  if (codePointAt(s, s.pos) === PERCENTAGE_SIGN) {
    s.pos++;
    return { type: 'percentage-token', start, end: s.pos, value: '', numeric, numberType, sign, unit: '', hashType: '' };
  }
  return { type: 'number-token', start, end: s.pos, value: '', numeric, numberType, sign, unit: '', hashType: '' };
}

// ---------------------------------------------------------------------------
// Consume an ident-like token
// ---------------------------------------------------------------------------

function consumeIdentLikeToken(s: CssTokenizer): CssToken {
  const start = s.pos;
  const name = consumeIdentSequence(s);
  if (codePointAt(s, s.pos) === LEFT_PARENTHESIS) {
    s.pos++;
    if (isAsciiUrl(name)) {
      // The spec skips all but one whitespace code point here and then looks for a quote.
      // A quoted url( is an ordinary function: the skipped whitespace changes no token
      // but the whitespace token after it, so the function token ends at `(` and the
      // whitespace token keeps its full extent (as the corpus records positions).
      const open = s.pos;
      let i = open;
      while (isWhitespace(codePointAt(s, i)) && isWhitespace(codePointAt(s, nextOffset(s, i)))) i = nextOffset(s, i);
      const c1 = codePointAt(s, i);
      const c2 = isWhitespace(c1) ? codePointAt(s, nextOffset(s, i)) : EOF;
      if (c1 === QUOTATION_MARK || c1 === APOSTROPHE || c2 === QUOTATION_MARK || c2 === APOSTROPHE) {
        return makeToken('function-token', start, open, name);
      }
      s.pos = i;
      return consumeUrlToken(s, start);
    }
    return makeToken('function-token', start, s.pos, name);
  }
  return makeToken('ident-token', start, s.pos, name);
}

/** ASCII case-insensitive match for "url" (escapes already decoded into `name`). */
function isAsciiUrl(name: string): boolean {
  return name.length === 3 && (name.charCodeAt(0) | 0x20) === 0x75 && (name.charCodeAt(1) | 0x20) === 0x72 && (name.charCodeAt(2) | 0x20) === 0x6c;
}

// ---------------------------------------------------------------------------
// Consume a string token
// ---------------------------------------------------------------------------

/** `ending` is the quote that opened the string; `start` is its offset. */
function consumeStringToken(s: CssTokenizer, ending: number, start: number): CssToken {
  let value = '';
  let run = s.pos; // start of the current run of code points copied as they are
  for (;;) {
    const i = s.pos;
    const c = codePointAt(s, i);
    if (c === EOF) {
      // Parse error, but the string token still counts.
      return makeToken('string-token', start, i, value + s.text.slice(run, i));
    }
    s.pos = nextOffset(s, i);
    if (c === ending) return makeToken('string-token', start, s.pos, value + s.text.slice(run, i));
    if (c === LINE_FEED) {
      // Parse error: reconsume the newline, which ends a bad string.
      s.pos = i;
      return makeToken('bad-string-token', start, i, '');
    }
    if (c === REVERSE_SOLIDUS) {
      value += s.text.slice(run, i);
      const next = codePointAt(s, s.pos);
      if (next === LINE_FEED) s.pos = nextOffset(s, s.pos); // an escaped newline continues the string
      else if (next !== EOF) value += codePointString(consumeEscapedCodePoint(s));
      run = s.pos;
    } else if (c === REPLACEMENT_CHARACTER && isSubstituted(s, i)) {
      value += s.text.slice(run, i) + '\uFFFD';
      run = s.pos;
    }
  }
}

// ---------------------------------------------------------------------------
// Consume a url token
// ---------------------------------------------------------------------------

/** Called after `url(` (and whitespace) with `start` the offset of the name. */
function consumeUrlToken(s: CssTokenizer, start: number): CssToken {
  consumeWhitespace(s);
  let value = '';
  let run = s.pos;
  for (;;) {
    const i = s.pos;
    const c = codePointAt(s, i);
    if (c === EOF) return makeToken('url-token', start, i, value + s.text.slice(run, i)); // parse error
    s.pos = nextOffset(s, i);
    if (c === RIGHT_PARENTHESIS) return makeToken('url-token', start, s.pos, value + s.text.slice(run, i));
    if (isWhitespace(c)) {
      value += s.text.slice(run, i);
      consumeWhitespace(s);
      const next = codePointAt(s, s.pos);
      if (next === RIGHT_PARENTHESIS) {
        s.pos++;
        return makeToken('url-token', start, s.pos, value);
      }
      if (next === EOF) return makeToken('url-token', start, s.pos, value); // parse error
      consumeRemnantsOfBadUrl(s);
      return makeToken('bad-url-token', start, s.pos, '');
    }
    if (c === QUOTATION_MARK || c === APOSTROPHE || c === LEFT_PARENTHESIS || isNonPrintable(c)) {
      consumeRemnantsOfBadUrl(s);
      return makeToken('bad-url-token', start, s.pos, '');
    }
    if (c === REVERSE_SOLIDUS) {
      if (isValidEscape(c, codePointAt(s, s.pos))) {
        value += s.text.slice(run, i) + codePointString(consumeEscapedCodePoint(s));
        run = s.pos;
        continue;
      }
      consumeRemnantsOfBadUrl(s);
      return makeToken('bad-url-token', start, s.pos, '');
    }
    if (c === REPLACEMENT_CHARACTER && isSubstituted(s, i)) {
      value += s.text.slice(run, i) + '\uFFFD';
      run = s.pos;
    }
  }
}

// ---------------------------------------------------------------------------
// Consume an escaped code point
// ---------------------------------------------------------------------------

/** Called after the backslash of a valid escape; returns the code point it stands for. */
function consumeEscapedCodePoint(s: CssTokenizer): number {
  const c = codePointAt(s, s.pos);
  if (c === EOF) return REPLACEMENT_CHARACTER; // parse error
  s.pos = nextOffset(s, s.pos);
  if (!isHexDigit(c)) return c;
  // One to six hex digits, then one optional whitespace code point that ends the escape.
  let value = hexValue(c);
  for (let count = 1; count < 6 && isHexDigit(codePointAt(s, s.pos)); count++) {
    value = value * 16 + hexValue(s.text.charCodeAt(s.pos));
    s.pos++;
  }
  if (isWhitespace(codePointAt(s, s.pos))) s.pos = nextOffset(s, s.pos);
  if (value === 0 || (value >= 0xd800 && value <= 0xdfff) || value > MAX_CODE_POINT) return REPLACEMENT_CHARACTER;
  return value;
}

// ---------------------------------------------------------------------------
// Check if two code points are a valid escape
// ---------------------------------------------------------------------------

function isValidEscape(first: number, second: number): boolean {
  return first === REVERSE_SOLIDUS && second !== LINE_FEED;
}

// ---------------------------------------------------------------------------
// Check if three code points would start an ident sequence
// ---------------------------------------------------------------------------

/** Looks at the three code points starting at offset `i` without consuming them. */
function wouldStartIdentSequence(s: CssTokenizer, i: number): boolean {
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

// ---------------------------------------------------------------------------
// Check if three code points would start a number
// ---------------------------------------------------------------------------

function wouldStartNumber(s: CssTokenizer, i: number): boolean {
  const first = codePointAt(s, i);
  if (first === PLUS_SIGN || first === HYPHEN_MINUS) {
    const i2 = nextOffset(s, i);
    const second = codePointAt(s, i2);
    if (isDigit(second)) return true;
    return second === FULL_STOP && isDigit(codePointAt(s, nextOffset(s, i2)));
  }
  if (first === FULL_STOP) return isDigit(codePointAt(s, nextOffset(s, i)));
  return isDigit(first);
}

// ---------------------------------------------------------------------------
// Consume an ident sequence
// ---------------------------------------------------------------------------

function consumeIdentSequence(s: CssTokenizer): string {
  let value = '';
  let run = s.pos;
  for (;;) {
    const i = s.pos;
    const c = codePointAt(s, i);
    if (isIdentCodePoint(s, c)) {
      s.pos = nextOffset(s, i);
      if (c === REPLACEMENT_CHARACTER && isSubstituted(s, i)) {
        value += s.text.slice(run, i) + '\uFFFD';
        run = s.pos;
      }
      continue;
    }
    if (c === REVERSE_SOLIDUS && isValidEscape(c, codePointAt(s, i + 1))) {
      value += s.text.slice(run, i);
      s.pos = i + 1;
      value += codePointString(consumeEscapedCodePoint(s));
      run = s.pos;
      continue;
    }
    return value + s.text.slice(run, i);
  }
}

// ---------------------------------------------------------------------------
// Consume a number
// ---------------------------------------------------------------------------

/** Sets s.numberValue, s.numberType and s.numberSign. Numbers are ASCII, so the representation is a slice. */
function consumeNumber(s: CssTokenizer): void {
  const start = s.pos;
  let type: 'integer' | 'number' = 'integer';
  let sign: '+' | '-' | '' = '';
  const first = codePointAt(s, s.pos);
  if (first === PLUS_SIGN || first === HYPHEN_MINUS) {
    sign = first === PLUS_SIGN ? '+' : '-';
    s.pos++;
  }
  while (isDigit(codePointAt(s, s.pos))) s.pos++;
  if (codePointAt(s, s.pos) === FULL_STOP && isDigit(codePointAt(s, s.pos + 1))) {
    s.pos += 2;
    type = 'number';
    while (isDigit(codePointAt(s, s.pos))) s.pos++;
  }
  const e = codePointAt(s, s.pos);
  if (e === 0x45 || e === 0x65) {
    const next = codePointAt(s, s.pos + 1);
    if (isDigit(next)) {
      s.pos += 2;
      type = 'number';
      while (isDigit(codePointAt(s, s.pos))) s.pos++;
    } else if ((next === PLUS_SIGN || next === HYPHEN_MINUS) && isDigit(codePointAt(s, s.pos + 2))) {
      s.pos += 3;
      type = 'number';
      while (isDigit(codePointAt(s, s.pos))) s.pos++;
    }
  }
  // ECMAScript's Number() reads exactly this grammar the way "convert a string
  // to a number" does (sign, integer, fraction, exponent), including -0.
  s.numberValue = Number(s.text.slice(start, s.pos));
  s.numberType = type;
  s.numberSign = sign;
}

// ---------------------------------------------------------------------------
// Consume the remnants of a bad url
// ---------------------------------------------------------------------------

/** Skips to the `)` that ends a bad url (escaped `\)` does not end it) or to EOF. */
function consumeRemnantsOfBadUrl(s: CssTokenizer): void {
  for (;;) {
    const c = codePointAt(s, s.pos);
    if (c === EOF) return;
    s.pos = nextOffset(s, s.pos);
    if (c === RIGHT_PARENTHESIS) return;
    if (isValidEscape(c, codePointAt(s, s.pos))) consumeEscapedCodePoint(s);
  }
}
