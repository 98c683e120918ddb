// ECMAScript lexer for module code, shaped after ECMA-262 clause 12 "ECMAScript Language:
// Lexical Grammar". Its job is to find static imports and a few identifiers reliably, so
// it never has to guess where a string, comment, template or regular expression starts
// or ends. It is not a parser: the one place the lexical grammar needs the syntactic
// grammar (InputElementRegExp vs InputElementDiv, 12 "ECMAScript Language: Lexical
// Grammar", first paragraphs) is decided by the heuristic documented at `advanceGoal`
// and `classifyOpenBrace`.
//
// Guarantees: linear time (every loop advances `pos`, stacks grow by one entry per
// character at most), never throws, unterminated constructs end the token (at EOF, or at
// the line terminator for strings and regular expressions, which cannot span lines) and
// are recorded in `errors` for the caller to report or ignore.
//
// Module code only: HTML-like comments (B.1.1 "HTML-like Comments") exist only in
// scripts, so `<!--` lexes as `<`, `!`, `--` here, as a browser lexes a module.

export type JsTokenType =
  /** IdentifierName that is not an unescaped reserved word (contextual words such as `from`, `of`, `as` included). */
  | 'identifier'
  /** Unescaped ReservedWord of strict module code (12.7.2 "Keywords and Reserved Words"). */
  | 'keyword'
  /** PrivateIdentifier `#name`. */
  | 'private-name'
  | 'punctuator'
  | 'number'
  | 'string'
  /** NoSubstitutionTemplate: a whole template literal without `${`. */
  | 'template'
  /** TemplateHead: from the backtick through `${`. */
  | 'template-head'
  /** TemplateMiddle: from `}` through the next `${`. */
  | 'template-middle'
  /** TemplateTail: from `}` through the closing backtick. */
  | 'template-tail'
  | 'regex'
  | 'line-comment'
  | 'block-comment'
  /** HashbangComment `#!...` at the very start of the source (ES2023). */
  | 'hashbang'
  /** A character no token can start with. */
  | 'invalid'
  | 'eof';

export interface JsToken {
  readonly type: JsTokenType;
  /** Offset of the first UTF-16 code unit. */
  readonly start: number;
  /** Offset after the last code unit. */
  readonly end: number;
  /**
   * Identifiers and keywords: the name with `\u` escapes decoded. Punctuators: their
   * text. Everything else: '' (read strings and templates with cookString/cookTemplate).
   */
  readonly value: string;
  /** A line terminator (or a multi-line comment holding one) comes between this token and the previous significant one. */
  readonly newlineBefore: boolean;
  /** An identifier spelled with `\u` escapes. Such a name is never a keyword (an escaped keyword is a syntax error). */
  readonly escaped: boolean;
  /**
   * The token sits where an object literal or class body expects a property name
   * (`{fetch: 1}`, `{ import() {} }`, `class { static x }`). Set on name-like tokens only.
   */
  readonly key: boolean;
}

export type JsLexErrorKind =
  | 'unterminated-string'
  | 'unterminated-template'
  | 'unterminated-regex'
  | 'unterminated-comment'
  | 'invalid-character'
  | 'invalid-escape'
  | 'invalid-number'
  | 'unbalanced-bracket'
  | 'unclosed-bracket';

export interface JsLexError {
  readonly kind: JsLexErrorKind;
  readonly offset: number;
}

/** Errors recorded per source; the policy reports only the first, so a flood of garbage stays cheap. */
const MAX_LEX_ERRORS = 100;

/** ReservedWord (12.7.2) plus the words reserved in strict mode code (13.1.1), which module code always is. */
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do',
  'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in',
  'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof',
  'var', 'void', 'while', 'with', 'yield',
  'implements', 'interface', 'let', 'package', 'private', 'protected', 'public', 'static',
]);

/** Keywords that are whole expressions: a `/` after them divides. */
const VALUE_KEYWORDS: ReadonlySet<string> = new Set(['this', 'super', 'null', 'true', 'false']);

/** Keywords after which a `{` starts an expression (an object literal), not a block. */
const EXPRESSION_KEYWORDS: ReadonlySet<string> = new Set([
  'case', 'typeof', 'in', 'instanceof', 'new', 'delete', 'void', 'throw', 'default', 'extends', 'await',
  'return', 'yield',
  // Declarations: `const {a, b} = x` opens a pattern, which reads like an object literal.
  'const', 'let', 'var',
]);

/** Method modifiers that may stand before a property name in an object literal or class body. */
const KEY_MODIFIERS: ReadonlySet<string> = new Set(['get', 'set', 'async', 'static']);

/**
 * What an open `{` is, decided when it opens (see classifyOpenBrace). The kind decides
 * what a `/` after the matching `}` means.
 */
type BraceKind =
  /** The module body: a sentinel at the bottom of the stack. */
  | 'module'
  /** Block statement, function or arrow body, switch body: a `}` ends a statement, `/` after it starts a regex. */
  | 'block'
  /** Object literal (or pattern): a `}` ends an expression, `/` after it divides. */
  | 'object'
  /** `${` of a template: the matching `}` resumes the template. */
  | 'template'
  /** Body of a function expression: `}` ends an expression. */
  | 'function-expression'
  /** Body of a class declaration: `}` ends a statement. */
  | 'class-declaration'
  /** Body of a class expression: `}` ends an expression. */
  | 'class-expression';

/** What an open `(` is: decides what a `/` after the matching `)` means. */
type ParenKind =
  /** Grouping, call arguments, parameters: `)` ends an expression. */
  | 'normal'
  /** `if (`, `while (`, `with (`: `)` is followed by a statement, so `/` starts a regex. */
  | 'condition'
  /** `for (` / `for await (`: like a condition; inside it `of` is a keyword. */
  | 'for'
  /** Parameters of a function expression: the `{` after `)` is a function-expression body. */
  | 'function-params';

const BRACE_KINDS: readonly BraceKind[] = ['module', 'block', 'object', 'template', 'function-expression', 'class-declaration', 'class-expression'];
const BRACE_CODE: Readonly<Record<BraceKind, number>> = {
  'module': 0, 'block': 1, 'object': 2, 'template': 3, 'function-expression': 4, 'class-declaration': 5, 'class-expression': 6,
};
const PAREN_KINDS: readonly ParenKind[] = ['normal', 'condition', 'for', 'function-params'];
const PAREN_CODE: Readonly<Record<ParenKind, number>> = { 'normal': 0, 'condition': 1, 'for': 2, 'function-params': 3 };

/**
 * A stack of small integers in a typed array that doubles when full. Bracket stacks live
 * here rather than in JS arrays: `{` repeated five million times must stay cheap, and
 * typed-array memory is never traced by the garbage collector.
 */
class IntStack {
  private data = new Int32Array(64);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  pop(): number {
    return this.data[--this.length]!;
  }

  top(): number {
    return this.data[this.length - 1]!;
  }

  addToTop(delta: number): void {
    this.data[this.length - 1]! += delta;
  }
}

// --- character classes (12.2 "White Space", 12.3 "Line Terminators", 12.7 "Names and Keywords")

function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

/** WhiteSpace: TAB, VT, FF, ZWNBSP and every Zs code point (SP, NBSP, U+1680, U+2000-U+200A, U+202F, U+205F, U+3000). */
function isWhiteSpace(c: number): boolean {
  if (c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c) return true;
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0xfeff || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;
}

function isDecimalDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** ASCII identifier characters: 1 = IdentifierStartChar (letters, `$`, `_`), 2 = digit (part only). A table keeps the hot loop branch-light. */
const ASCII_ID = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x24 || c === 0x5f) ASCII_ID[c] = 1;
  else if (c >= 0x30 && c <= 0x39) ASCII_ID[c] = 2;
}

function isAsciiIdentifierStart(c: number): boolean {
  return c < 0x80 && ASCII_ID[c] === 1;
}

function isAsciiIdentifierPart(c: number): boolean {
  return c < 0x80 && ASCII_ID[c] !== 0;
}

const ID_START = /^\p{ID_Start}$/u;
const ID_CONTINUE = /^\p{ID_Continue}$/u;

/** IdentifierStartChar: UnicodeIDStart, `$`, `_`. */
function isIdentifierStart(cp: number): boolean {
  if (cp < 0x80) return isAsciiIdentifierStart(cp);
  return ID_START.test(String.fromCodePoint(cp));
}

/** IdentifierPartChar: UnicodeIDContinue, `$`, ZWNJ, ZWJ. */
function isIdentifierPart(cp: number): boolean {
  if (cp < 0x80) return isAsciiIdentifierPart(cp);
  return cp === 0x200c || cp === 0x200d || ID_CONTINUE.test(String.fromCodePoint(cp));
}

function digitTest(radix: number): (c: number) => boolean {
  if (radix === 16) return isHexDigit;
  if (radix === 8) return (c) => c >= 0x30 && c <= 0x37;
  if (radix === 2) return (c) => c === 0x30 || c === 0x31;
  return isDecimalDigit;
}

/**
 * Punctuator and DivPunctuator (12.8), longest match first. `}` and `/` are handled by
 * the caller (template continuation, comments, regular expressions) before this runs
 * for them; `?.` is not taken before a digit (`a?.5:b` is a conditional).
 */
function punctuatorAt(text: string, p: number): string | null {
  const c1 = text.charCodeAt(p + 1);
  const c2 = text.charCodeAt(p + 2);
  switch (text.charCodeAt(p)) {
    case 0x7b: return '{';
    case 0x7d: return '}';
    case 0x28: return '(';
    case 0x29: return ')';
    case 0x5b: return '[';
    case 0x5d: return ']';
    case 0x3b: return ';';
    case 0x2c: return ',';
    case 0x7e: return '~';
    case 0x3a: return ':';
    // `@` is not an ECMAScript punctuator yet (decorators); taking it keeps the lexer in step.
    case 0x40: return '@';
    case 0x2e: return c1 === 0x2e && c2 === 0x2e ? '...' : '.';
    case 0x3c:
      if (c1 === 0x3c) return c2 === 0x3d ? '<<=' : '<<';
      return c1 === 0x3d ? '<=' : '<';
    case 0x3e:
      if (c1 === 0x3e) {
        if (c2 === 0x3e) return text.charCodeAt(p + 3) === 0x3d ? '>>>=' : '>>>';
        return c2 === 0x3d ? '>>=' : '>>';
      }
      return c1 === 0x3d ? '>=' : '>';
    case 0x3d:
      if (c1 === 0x3d) return c2 === 0x3d ? '===' : '==';
      return c1 === 0x3e ? '=>' : '=';
    case 0x21:
      if (c1 === 0x3d) return c2 === 0x3d ? '!==' : '!=';
      return '!';
    case 0x2b: return c1 === 0x2b ? '++' : c1 === 0x3d ? '+=' : '+';
    case 0x2d: return c1 === 0x2d ? '--' : c1 === 0x3d ? '-=' : '-';
    case 0x2a:
      if (c1 === 0x2a) return c2 === 0x3d ? '**=' : '**';
      return c1 === 0x3d ? '*=' : '*';
    case 0x25: return c1 === 0x3d ? '%=' : '%';
    case 0x26:
      if (c1 === 0x26) return c2 === 0x3d ? '&&=' : '&&';
      return c1 === 0x3d ? '&=' : '&';
    case 0x7c:
      if (c1 === 0x7c) return c2 === 0x3d ? '||=' : '||';
      return c1 === 0x3d ? '|=' : '|';
    case 0x5e: return c1 === 0x3d ? '^=' : '^';
    case 0x3f:
      if (c1 === 0x3f) return c2 === 0x3d ? '??=' : '??';
      if (c1 === 0x2e && !isDecimalDigit(c2)) return '?.';
      return '?';
    case 0x2f: return c1 === 0x3d ? '/=' : '/';
    default: return null;
  }
}

/** Reads `\u` escape digits at `p` (just after `\u`): `XXXX` or `{X...}`. Returns the code point and the end, or -1. */
function readUnicodeEscape(text: string, p: number): { cp: number; end: number } {
  if (text.charCodeAt(p) === 0x7b) {
    let q = p + 1;
    let cp = 0;
    while (q < text.length && isHexDigit(text.charCodeAt(q))) {
      cp = cp * 16 + parseInt(text[q]!, 16);
      // Cap the value, not the loop: `\u{000000041}` is valid, huge values are not.
      if (cp > 0x10ffff) cp = 0x110000;
      q++;
    }
    if (q === p + 1 || text.charCodeAt(q) !== 0x7d || cp > 0x10ffff) return { cp: -1, end: Math.max(q, p) };
    return { cp, end: q + 1 };
  }
  for (let i = 0; i < 4; i++) {
    if (!isHexDigit(text.charCodeAt(p + i))) return { cp: -1, end: p + i };
  }
  return { cp: parseInt(text.slice(p, p + 4), 16), end: p + 4 };
}

export class JsLexer {
  /** Lexical errors in source order (at most MAX_LEX_ERRORS). */
  readonly errors: JsLexError[] = [];

  private readonly text: string;
  private pos = 0;
  private finished = false;
  private eofToken: JsToken | null = null;

  // Newline seen since the last significant token (for newlineBefore and ASI-aware choices).
  private pendingNewline = false;

  // --- the regular-expression goal state (see advanceGoal)
  /** A `/` here starts a RegularExpressionLiteral (InputElementRegExp), else it divides. */
  private regexAllowed = true;
  /** The next token starts a statement (so `function`/`class` there is a declaration). */
  private statementStart = true;
  private prev: JsToken | null = null;
  private prevPrev: JsToken | null = null;
  /** `prev` is a property name after `.`/`?.` (so `x.if (` is a call, `x.return / 2` divides). */
  private prevIsMember = false;
  /** regexAllowed/statementStart as they were before `prev` (for `async function`). */
  private prevRegexAllowedBefore = true;
  private prevStatementStartBefore = true;

  // --- bracket stacks: parallel arrays (kind, offset of the opener, group depth at open)
  // The brace stack starts with the 'module' sentinel, which is never popped.
  private readonly braceKinds = new IntStack();
  private readonly braceStarts = new IntStack();
  private readonly braceGroups = new IntStack();
  /** Unmatched `?` directly in each brace level: a `:` matching one is not a label. */
  private readonly braceTernaries = new IntStack();
  private readonly parenKinds = new IntStack();
  private readonly parenStarts = new IntStack();
  private readonly bracketStarts = new IntStack();

  // --- function and class expressions (their `}` ends an expression: `/` after it divides)
  private pendingFunctionExpression = false;
  private pendingExpressionBody = false;
  private pendingClass = false;
  private pendingClassExpression = false;
  private pendingClassBraces = 0;
  private pendingClassGroups = 0;

  constructor(text: string) {
    this.text = text;
    this.pushBrace('module', 0);
  }

  private topBrace(): BraceKind {
    return BRACE_KINDS[this.braceKinds.top()]!;
  }

  private topParen(): ParenKind | null {
    return this.parenKinds.length === 0 ? null : PAREN_KINDS[this.parenKinds.top()]!;
  }

  /** The next token, comments included; `eof` (repeatedly) at the end. */
  next(): JsToken {
    if (this.finished) return this.eofToken!;
    const text = this.text;
    const n = text.length;
    let p = this.pos;
    // WhiteSpace and LineTerminator (12.2, 12.3) separate tokens and are not tokens here.
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === 0x20 || c === 0x09) p++;
      else if (isLineTerminator(c)) {
        this.pendingNewline = true;
        p++;
      } else if (c > 0x7f && isWhiteSpace(c)) p++;
      else if (c === 0x0b || c === 0x0c) p++;
      else break;
    }
    this.pos = p;
    if (p >= n) return this.finish();

    const c = text.charCodeAt(p);
    if (c === 0x2f) {
      const c1 = text.charCodeAt(p + 1);
      if (c1 === 0x2f) return this.lineComment(p, 'line-comment');
      if (c1 === 0x2a) return this.blockComment(p);
      if (this.regexAllowed) return this.regularExpression(p);
      return this.punctuator(p, c1 === 0x3d ? '/=' : '/');
    }
    if (c === 0x22 || c === 0x27) return this.stringLiteral(p, c);
    if (c === 0x60) return this.template(p, p + 1, true);
    if (isDecimalDigit(c) || (c === 0x2e && isDecimalDigit(text.charCodeAt(p + 1)))) return this.numericLiteral(p);
    if (isAsciiIdentifierStart(c) || c === 0x5c) return this.identifierName(p, 'identifier');
    if (c === 0x23) {
      // HashbangComment only as the first characters of the source (12.5 "Hashbang
      // Comments"); a BOM before it is no character of the source (the decoder strips it).
      if ((p === 0 || (p === 1 && text.charCodeAt(0) === 0xfeff)) && text.charCodeAt(p + 1) === 0x21) return this.lineComment(p, 'hashbang');
      const after = text.codePointAt(p + 1);
      if (after !== undefined && (after === 0x5c || isIdentifierStart(after))) return this.identifierName(p, 'private-name');
      return this.invalid(p, 1);
    }
    if (c === 0x7d && this.topBrace() === 'template') {
      // The `}` that closes a substitution belongs to the template: TemplateMiddle or TemplateTail.
      this.popBrace();
      return this.template(p, p + 1, false);
    }
    if (c > 0x7f) {
      const cp = text.codePointAt(p)!;
      if (isIdentifierStart(cp)) return this.identifierName(p, 'identifier');
      return this.invalid(p, cp > 0xffff ? 2 : 1);
    }
    const punct = punctuatorAt(text, p);
    if (punct !== null) return this.punctuator(p, punct);
    return this.invalid(p, 1);
  }

  // ===== end of input ==========================================================

  private finish(): JsToken {
    this.finished = true;
    // Anything still open is a syntax error; report the innermost opener.
    let open = -1;
    if (this.braceKinds.length > 1) open = this.braceStarts.top();
    if (this.parenStarts.length > 0) open = Math.max(open, this.parenStarts.top());
    if (this.bracketStarts.length > 0) open = Math.max(open, this.bracketStarts.top());
    if (open >= 0) this.error('unclosed-bracket', open);
    const n = this.text.length;
    this.eofToken = { type: 'eof', start: n, end: n, value: '', newlineBefore: this.pendingNewline, escaped: false, key: false };
    return this.eofToken;
  }

  private error(kind: JsLexErrorKind, offset: number): void {
    if (this.errors.length < MAX_LEX_ERRORS) this.errors.push({ kind, offset });
  }

  // ===== 12.4 Comments =========================================================

  /** SingleLineComment (and HashbangComment): up to, not including, the line terminator. */
  private lineComment(start: number, type: 'line-comment' | 'hashbang'): JsToken {
    const text = this.text;
    let p = start + 2;
    while (p < text.length && !isLineTerminator(text.charCodeAt(p))) p++;
    return this.insignificant(type, start, p);
  }

  /** MultiLineComment: a line terminator inside counts as one for ASI (12.4, 12.10). */
  private blockComment(start: number): JsToken {
    const text = this.text;
    let close = text.indexOf('*/', start + 2);
    if (close < 0) {
      this.error('unterminated-comment', start);
      close = text.length;
    }
    for (let p = start + 2; p < close; p++) {
      if (isLineTerminator(text.charCodeAt(p))) {
        this.pendingNewline = true;
        break;
      }
    }
    return this.insignificant('block-comment', start, Math.min(close + 2, text.length));
  }

  private insignificant(type: JsTokenType, start: number, end: number): JsToken {
    this.pos = end;
    return { type, start, end, value: '', newlineBefore: this.pendingNewline, escaped: false, key: false };
  }

  // ===== 12.9.4 String Literals ================================================

  /**
   * StringLiteral. Escapes are skipped here and decoded on demand by cookString. A raw
   * LF or CR ends the literal unterminated (U+2028/U+2029 are allowed since ES2019); a
   * backslash before a line terminator is a LineContinuation.
   */
  private stringLiteral(start: number, quote: number): JsToken {
    const text = this.text;
    const n = text.length;
    let p = start + 1;
    let closed = false;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === quote) {
        p++;
        closed = true;
        break;
      }
      if (c === 0x5c) {
        p += text.charCodeAt(p + 1) === 0x0d && text.charCodeAt(p + 2) === 0x0a ? 3 : 2;
        continue;
      }
      if (c === 0x0a || c === 0x0d) break;
      p++;
    }
    if (!closed) this.error('unterminated-string', start);
    return this.significant('string', start, Math.min(p, n), '', false);
  }

  // ===== 12.9.6 Template Literal Lexical Components ============================

  /**
   * From just after a backtick (head = true) or a substitution's `}` (head = false) to
   * the closing backtick or the next `${`. A `${` pushes a 'template' brace; its `}`
   * comes back here. Line terminators are allowed; unterminated runs to EOF.
   */
  private template(start: number, from: number, head: boolean): JsToken {
    const text = this.text;
    const n = text.length;
    let p = from;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === 0x60) {
        return this.significant(head ? 'template' : 'template-tail', start, p + 1, '', false);
      }
      if (c === 0x24 && text.charCodeAt(p + 1) === 0x7b) {
        const token = this.significant(head ? 'template-head' : 'template-middle', start, p + 2, '', false);
        this.pushBrace('template', p);
        return token;
      }
      p += c === 0x5c ? 2 : 1;
    }
    this.error('unterminated-template', start);
    return this.significant(head ? 'template' : 'template-tail', start, n, '', false);
  }

  // ===== 12.9.3 Numeric Literals ===============================================

  /**
   * NumericLiteral: decimal (with fraction and exponent), `0x`/`0o`/`0b`, BigInt `n`,
   * separators `_` between digits. Legacy octal (`017`) and NonOctalDecimalIntegerLiteral
   * (`08`) are syntax errors in strict code: recorded, and lexed as decimals.
   */
  private numericLiteral(start: number): JsToken {
    const text = this.text;
    let p = start;
    const c0 = text.charCodeAt(p);
    const c1 = text.charCodeAt(p + 1) | 0x20;
    if (c0 === 0x30 && (c1 === 0x78 || c1 === 0x6f || c1 === 0x62)) {
      const radix = c1 === 0x78 ? 16 : c1 === 0x6f ? 8 : 2;
      const after = this.digits(p + 2, digitTest(radix));
      if (after === p + 2) this.error('invalid-number', start);
      p = after;
      if (text.charCodeAt(p) === 0x6e) p++;
    } else {
      let integer = true;
      if (c0 === 0x30 && isDecimalDigit(text.charCodeAt(p + 1))) this.error('invalid-number', start);
      if (c0 !== 0x2e) p = this.digits(p, isDecimalDigit);
      if (text.charCodeAt(p) === 0x2e) {
        integer = false;
        p = this.digits(p + 1, isDecimalDigit);
      }
      const e = text.charCodeAt(p) | 0x20;
      if (e === 0x65) {
        integer = false;
        let q = p + 1;
        const sign = text.charCodeAt(q);
        if (sign === 0x2b || sign === 0x2d) q++;
        const after = this.digits(q, isDecimalDigit);
        if (after === q) this.error('invalid-number', start);
        p = after;
      }
      if (integer && text.charCodeAt(p) === 0x6e) p++;
    }
    // "The SourceCharacter immediately following a NumericLiteral must not be an
    // IdentifierStart or DecimalDigit" (12.9.3): `3in x`, `1.toString()`.
    const next = text.codePointAt(p);
    if (next !== undefined && (next === 0x5c || isDecimalDigit(next) || isIdentifierStart(next))) this.error('invalid-number', p);
    return this.significant('number', start, p, '', false);
  }

  /** Digits with NumericLiteralSeparator: a `_` must sit between two digits. */
  private digits(from: number, isDigit: (c: number) => boolean): number {
    const text = this.text;
    let p = from;
    let lastDigit = false;
    while (p < text.length) {
      const c = text.charCodeAt(p);
      if (isDigit(c)) lastDigit = true;
      else if (c === 0x5f) {
        if (!lastDigit || !isDigit(text.charCodeAt(p + 1))) this.error('invalid-number', p);
        lastDigit = false;
      } else break;
      p++;
    }
    return p;
  }

  // ===== 12.7 Names and Keywords ===============================================

  /**
   * IdentifierName (or PrivateIdentifier when `type` is 'private-name', starting at `#`),
   * with UnicodeEscapeSequence decoded into `value`. An escaped name is never a keyword:
   * `\u0069mport` is the identifier "import" (as a keyword it would be a syntax error).
   */
  private identifierName(start: number, type: 'identifier' | 'private-name'): JsToken {
    const text = this.text;
    const n = text.length;
    let p = type === 'private-name' ? start + 1 : start;
    const nameStart = p;
    // Fast path: a plain ASCII name (nearly every name in real code).
    if (isAsciiIdentifierStart(text.charCodeAt(p))) {
      let q = p + 1;
      let c = text.charCodeAt(q);
      while (c < 0x80 && ASCII_ID[c] !== 0) c = text.charCodeAt(++q);
      if (!(c === 0x5c || (c > 0x7f && q < n))) {
        const value = text.slice(nameStart, q);
        const first = text.charCodeAt(nameStart);
        // Reserved words are 2 to 10 lowercase letters: skip the set lookup for the rest.
        const reserved = type === 'identifier' && first >= 0x61 && first <= 0x7a && q - nameStart >= 2 && q - nameStart <= 10 && RESERVED_WORDS.has(value);
        return this.significant(reserved ? 'keyword' : type, start, q, value, false);
      }
    }
    let pieces: string[] | null = null;
    let pieceStart = p;
    let first = true;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (first ? isAsciiIdentifierStart(c) : isAsciiIdentifierPart(c)) {
        p++;
      } else if (c === 0x5c) {
        pieces ??= [];
        pieces.push(text.slice(pieceStart, p));
        if (text.charCodeAt(p + 1) !== 0x75) {
          // `\` not followed by `u`: not an escape at all; step over it so the lexer moves on.
          this.error('invalid-escape', p);
          p++;
        } else {
          const escape = readUnicodeEscape(text, p + 2);
          if (escape.cp < 0 || !(first ? isIdentifierStart(escape.cp) : isIdentifierPart(escape.cp))) {
            this.error('invalid-escape', p);
          } else {
            pieces.push(String.fromCodePoint(escape.cp));
          }
          p = Math.max(escape.end, p + 2);
        }
        pieceStart = p;
      } else if (c > 0x7f) {
        const cp = text.codePointAt(p)!;
        if (!(first ? isIdentifierStart(cp) : isIdentifierPart(cp))) break;
        p += cp > 0xffff ? 2 : 1;
      } else {
        break;
      }
      first = false;
    }
    const escaped = pieces !== null;
    const value = pieces === null ? text.slice(nameStart, p) : pieces.join('') + text.slice(pieceStart, p);
    if (type === 'identifier' && !escaped && RESERVED_WORDS.has(value)) return this.significant('keyword', start, p, value, false);
    return this.significant(type, start, p, value, escaped);
  }

  // ===== 12.9.5 Regular Expression Literals ====================================

  /**
   * RegularExpressionLiteral: body up to an unescaped `/` outside a class (`/[/]/` is
   * one literal), then flags (IdentifierPartChar). A line terminator ends it unterminated.
   */
  private regularExpression(start: number): JsToken {
    const text = this.text;
    const n = text.length;
    let p = start + 1;
    let inClass = false;
    let closed = false;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (isLineTerminator(c)) break;
      if (c === 0x5c) {
        p++;
        if (p < n && !isLineTerminator(text.charCodeAt(p))) p++;
        continue;
      }
      if (inClass) {
        if (c === 0x5d) inClass = false;
      } else if (c === 0x5b) {
        inClass = true;
      } else if (c === 0x2f) {
        p++;
        closed = true;
        break;
      }
      p++;
    }
    if (closed) {
      while (p < n) {
        const cp = text.codePointAt(p)!;
        if (!isIdentifierPart(cp)) break;
        p += cp > 0xffff ? 2 : 1;
      }
    } else {
      this.error('unterminated-regex', start);
    }
    return this.significant('regex', start, p, '', false);
  }

  // ===== 12.8 Punctuators ======================================================

  private punctuator(start: number, value: string): JsToken {
    return this.significant('punctuator', start, start + value.length, value, false);
  }

  private invalid(start: number, length: number): JsToken {
    this.error('invalid-character', start);
    this.pos = start + length;
    return { type: 'invalid', start, end: start + length, value: '', newlineBefore: this.pendingNewline, escaped: false, key: false };
  }

  // ===== bookkeeping for the goal symbol =======================================

  private groupDepth(): number {
    return this.parenKinds.length + this.bracketStarts.length;
  }

  private pushBrace(kind: BraceKind, offset: number): void {
    this.braceKinds.push(BRACE_CODE[kind]);
    this.braceStarts.push(offset);
    this.braceGroups.push(this.groupDepth());
    this.braceTernaries.push(0);
  }

  /** Pops a brace (never the module sentinel) and returns its kind; 'block' when unbalanced. */
  private popBrace(): BraceKind {
    if (this.braceKinds.length === 1) return 'block';
    this.braceStarts.pop();
    this.braceGroups.pop();
    this.braceTernaries.pop();
    return BRACE_KINDS[this.braceKinds.pop()]!;
  }

  /** Directly inside the innermost brace, not inside a `(` or `[` opened within it. */
  private atBraceLevel(): boolean {
    return this.groupDepth() === this.braceGroups.top();
  }

  /**
   * Whether a name-like token here is a property name of an object literal or class
   * body: directly inside one, after `{`, `,`, (class) `;` or `}`, after a modifier
   * (`get`, `set`, `async`, `static`) that was itself in that position, after a
   * generator `*` in that position, or (class) after a line break that ends a field.
   */
  private keyPosition(newline: boolean): boolean {
    const kind = this.topBrace();
    const isClass = kind === 'class-declaration' || kind === 'class-expression';
    if (kind !== 'object' && !isClass) return false;
    if (!this.atBraceLevel()) return false;
    const prev = this.prev;
    if (prev === null) return false;
    if (prev.type === 'punctuator') {
      const v = prev.value;
      if (v === '{' || v === ',') return true;
      if (isClass && (v === ';' || v === '}')) return true;
      if (v === '*') {
        const before = this.prevPrev;
        if (before === null) return false;
        if (before.type === 'punctuator') return before.value === '{' || before.value === ',' || (isClass && (before.value === ';' || before.value === '}'));
        return before.key && KEY_MODIFIERS.has(before.value);
      }
    } else if (prev.key && (prev.type === 'identifier' || prev.type === 'keyword') && KEY_MODIFIERS.has(prev.value)) {
      return true;
    }
    return isClass && newline && !this.regexAllowed;
  }

  /**
   * Creates a significant token and moves the goal state on. Keys are decided first,
   * from the state before the token.
   */
  private significant(type: JsTokenType, start: number, end: number, value: string, escaped: boolean): JsToken {
    const newline = this.pendingNewline;
    const nameLike = type === 'identifier' || type === 'keyword' || type === 'string' || type === 'number' || type === 'private-name';
    const key = nameLike && this.keyPosition(newline);
    const token: JsToken = { type, start, end, value, newlineBefore: newline, escaped, key };
    this.pos = end;
    this.pendingNewline = false;
    const regexBefore = this.regexAllowed;
    const statementBefore = this.statementStart;
    this.advanceGoal(token);
    this.prevPrev = this.prev;
    this.prev = token;
    this.prevRegexAllowedBefore = regexBefore;
    this.prevStatementStartBefore = statementBefore;
    return token;
  }

  /**
   * The regular-expression goal after `token` (`regexAllowed`), and whether a statement
   * starts next (`statementStart`). The heuristic, by previous significant token:
   * - none, `;`, `{`, operators and most punctuators, template head/middle: regex.
   * - identifier, number, string, regex, template end, private name, `]`: division.
   *   `a = b\n/re/g.test(c)` therefore divides, as the grammar says (no ASI before `/`).
   * - keyword: regex, except `this`, `super`, `null`, `true`, `false` and a keyword used
   *   as a property name (`x.return / 2`, `{ if: ... }`): division. The identifier `of`
   *   directly inside `for (...)` acts as a keyword.
   * - `)`: regex when it closes `if (`, `while (`, `for (`, `with (` (a statement
   *   follows: `if (x) /re/.test(y)`), else division.
   * - `}`: regex when it closes a block, a function or arrow body or a class declaration
   *   (a statement follows), division when it closes an object literal, a function
   *   expression body or a class expression (an expression ends): see classifyOpenBrace.
   * - `++`/`--`: as before them (prefix: an operand follows; postfix: an operator does).
   */
  private advanceGoal(token: JsToken): void {
    const prev = this.prev;
    const afterDot = prev !== null && prev.type === 'punctuator' && (prev.value === '.' || prev.value === '?.');
    const wasMember = this.prevIsMember;
    this.prevIsMember = false;
    switch (token.type) {
      case 'identifier': {
        this.prevIsMember = afterDot;
        if (token.value === 'async' && !afterDot) {
          // `async function`: the function's position is the position of `async`; keep the pending flags.
        } else if (!(this.pendingFunctionExpression && !afterDot)) {
          this.pendingFunctionExpression = false;
        }
        this.pendingExpressionBody = false;
        const inFor = this.topParen() === 'for';
        this.regexAllowed = !afterDot && !token.escaped && token.value === 'of' && inFor && !token.key;
        this.statementStart = false;
        return;
      }
      case 'keyword': {
        this.pendingExpressionBody = false;
        if (afterDot || token.key) {
          // A property name spelled like a keyword.
          this.prevIsMember = afterDot;
          this.regexAllowed = false;
          this.statementStart = false;
          this.pendingFunctionExpression = false;
          return;
        }
        const v = token.value;
        if (v === 'function') {
          let regex = this.regexAllowed;
          let statement = this.statementStart;
          if (prev !== null && prev.type === 'identifier' && prev.value === 'async' && !wasMember) {
            regex = this.prevRegexAllowedBefore;
            statement = this.prevStatementStartBefore;
          }
          this.pendingFunctionExpression = regex && !statement;
        } else {
          this.pendingFunctionExpression = false;
        }
        if (v === 'class') {
          this.pendingClass = true;
          this.pendingClassExpression = this.regexAllowed && !this.statementStart;
          this.pendingClassBraces = this.braceKinds.length;
          this.pendingClassGroups = this.groupDepth();
        }
        this.regexAllowed = !VALUE_KEYWORDS.has(v);
        this.statementStart = v === 'else' || v === 'do' || v === 'export' || v === 'default';
        return;
      }
      case 'punctuator':
        this.afterPunctuator(token, prev, wasMember);
        return;
      case 'template-head':
      case 'template-middle':
        this.pendingFunctionExpression = false;
        this.pendingExpressionBody = false;
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      default:
        // number, string, regex, template, template-tail, private-name
        this.pendingFunctionExpression = false;
        this.pendingExpressionBody = false;
        this.regexAllowed = false;
        this.statementStart = false;
    }
  }

  private afterPunctuator(token: JsToken, prev: JsToken | null, prevWasMember: boolean): void {
    const v = token.value;
    const expressionBody = this.pendingExpressionBody;
    this.pendingExpressionBody = false;
    if (v !== '*' && v !== '(') this.pendingFunctionExpression = false;
    switch (v) {
      case '(': {
        let kind: ParenKind = 'normal';
        if (this.pendingFunctionExpression) kind = 'function-params';
        else if (prev !== null && prev.type === 'keyword' && !prevWasMember && !prev.key) {
          if (prev.value === 'if' || prev.value === 'while' || prev.value === 'with') kind = 'condition';
          else if (prev.value === 'for') kind = 'for';
          else if (prev.value === 'await' && this.prevPrev !== null && this.prevPrev.type === 'keyword' && this.prevPrev.value === 'for') kind = 'for';
        }
        this.pendingFunctionExpression = false;
        this.parenKinds.push(PAREN_CODE[kind]);
        this.parenStarts.push(token.start);
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      }
      case ')': {
        let kind: ParenKind = 'normal';
        if (this.parenKinds.length === 0) this.error('unbalanced-bracket', token.start);
        else {
          kind = PAREN_KINDS[this.parenKinds.pop()]!;
          this.parenStarts.pop();
        }
        const condition = kind === 'condition' || kind === 'for';
        this.pendingExpressionBody = kind === 'function-params';
        this.regexAllowed = condition;
        this.statementStart = condition;
        return;
      }
      case '[':
        this.bracketStarts.push(token.start);
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      case ']':
        if (this.bracketStarts.length === 0) this.error('unbalanced-bracket', token.start);
        else this.bracketStarts.pop();
        this.regexAllowed = false;
        this.statementStart = false;
        return;
      case '{': {
        const kind = this.classifyOpenBrace(prev, prevWasMember, token.newlineBefore, expressionBody);
        this.pushBrace(kind, token.start);
        this.regexAllowed = true;
        this.statementStart = kind === 'block' || kind === 'function-expression';
        return;
      }
      case '}': {
        if (this.braceKinds.length === 1) this.error('unbalanced-bracket', token.start);
        const kind = this.popBrace();
        if (this.pendingClass && this.braceKinds.length < this.pendingClassBraces) this.pendingClass = false;
        const endsStatement = kind === 'block' || kind === 'class-declaration' || kind === 'module';
        this.regexAllowed = endsStatement;
        this.statementStart = endsStatement;
        return;
      }
      case '++':
      case '--':
        // regexAllowed unchanged: prefix keeps expecting an operand, postfix an operator.
        this.statementStart = false;
        return;
      case '?':
        if (this.atBraceLevel()) this.braceTernaries.addToTop(1);
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      case ':': {
        // A label or `case x:` (a statement follows) only directly in a block, when no `?` waits for it.
        const kind = this.topBrace();
        let statement = false;
        if (this.atBraceLevel()) {
          if (this.braceTernaries.top() > 0) this.braceTernaries.addToTop(-1);
          else statement = kind === 'block' || kind === 'module' || kind === 'function-expression';
        }
        this.regexAllowed = true;
        this.statementStart = statement;
        return;
      }
      case ';':
        this.regexAllowed = true;
        this.statementStart = true;
        return;
      default:
        this.regexAllowed = true;
        this.statementStart = false;
    }
  }

  /**
   * What a `{` opens, from the token before it (the classic heuristic; a parser would
   * know, a lexer has to guess):
   * - after `function (...)` in expression position: a function-expression body;
   *   after `class ... ` : that class's body (expression or declaration by position);
   * - after `)`, `=>`, `;`, `}`, `else`, `try`, `finally`, `do`, `static`, `export`,
   *   `import`, an identifier (class heritage, or a line break before the brace), or at
   *   the start: a block;
   * - after `{`: a block inside a block, an object inside anything else;
   * - after `:`: a block after a label or `case x:`, an object after a property name or
   *   a conditional's `?`;
   * - after `return`/`yield`: an object, unless a line break intervenes (ASI makes it a
   *   block);
   * - after any other operator or punctuator, an expression keyword, `${`, or the `of`
   *   of `for (... of`: an object literal.
   * A wrong guess can only misread a `/` directly after the matching `}`.
   */
  private classifyOpenBrace(prev: JsToken | null, prevWasMember: boolean, newline: boolean, expressionBody: boolean): BraceKind {
    if (expressionBody) return 'function-expression';
    if (this.pendingClass && this.braceKinds.length === this.pendingClassBraces && this.groupDepth() === this.pendingClassGroups) {
      this.pendingClass = false;
      return this.pendingClassExpression ? 'class-expression' : 'class-declaration';
    }
    if (prev === null) return 'block';
    switch (prev.type) {
      case 'punctuator':
        switch (prev.value) {
          case ')':
          case '=>':
          case ';':
          case '}':
            return 'block';
          case '{': {
            // prev is the brace now on top of the stack.
            const outer = this.topBrace();
            return outer === 'block' || outer === 'module' || outer === 'function-expression' ? 'block' : 'object';
          }
          case ':':
            return this.statementStart ? 'block' : 'object';
          default:
            return 'object';
        }
      case 'keyword':
        if (prev.key || prevWasMember) return newline ? 'block' : 'object';
        if (prev.value === 'return' || prev.value === 'yield') return newline ? 'block' : 'object';
        return EXPRESSION_KEYWORDS.has(prev.value) ? 'object' : 'block';
      case 'identifier':
        if (this.regexAllowed && !newline) return 'object'; // `for (x of {...})`
        return 'block';
      case 'template-head':
      case 'template-middle':
        return 'object';
      default:
        return newline ? 'block' : 'object';
    }
  }
}

/** Every token of `text`, comments included, without the final `eof`. */
export function tokenizeJs(text: string): { tokens: JsToken[]; errors: readonly JsLexError[] } {
  const lexer = new JsLexer(text);
  const tokens: JsToken[] = [];
  for (;;) {
    const token = lexer.next();
    if (token.type === 'eof') break;
    tokens.push(token);
  }
  return { tokens, errors: lexer.errors };
}

/**
 * The string value (SV, 12.9.4.3) of a 'string' token, or null when it is unterminated or
 * holds an escape that strict code rejects (`\1`, `\8`, a malformed `\x`/`\u`).
 */
export function cookString(text: string, token: JsToken): string | null {
  if (token.type !== 'string' || token.end - token.start < 2) return null;
  if (text.charCodeAt(token.end - 1) !== text.charCodeAt(token.start)) return null;
  return cookBody(text, token.start + 1, token.end - 1, false);
}

/**
 * The cooked value (TV, 12.9.6.1) of a NoSubstitutionTemplate token, or null when it is
 * unterminated or holds an invalid escape (only tagged templates may).
 */
export function cookTemplate(text: string, token: JsToken): string | null {
  if (token.type !== 'template' || token.end - token.start < 2 || text.charCodeAt(token.end - 1) !== 0x60) return null;
  return cookBody(text, token.start + 1, token.end - 1, true);
}

/** Decodes EscapeSequence and LineContinuation in `text[from, to)`; templates also normalise CR and CRLF to LF. */
function cookBody(text: string, from: number, to: number, template: boolean): string | null {
  let out = '';
  let runStart = from;
  let p = from;
  while (p < to) {
    const c = text.charCodeAt(p);
    if (template && c === 0x0d) {
      out += text.slice(runStart, p) + '\n';
      p += text.charCodeAt(p + 1) === 0x0a ? 2 : 1;
      runStart = p;
      continue;
    }
    if (c !== 0x5c) {
      p++;
      continue;
    }
    out += text.slice(runStart, p);
    const e = text.charCodeAt(p + 1);
    let next = p + 2;
    switch (e) {
      case 0x6e: out += '\n'; break;
      case 0x74: out += '\t'; break;
      case 0x72: out += '\r'; break;
      case 0x62: out += '\b'; break;
      case 0x66: out += '\f'; break;
      case 0x76: out += '\v'; break;
      case 0x30:
        // `\0` only when no digit follows; `\00` and `\01` are legacy octal.
        if (isDecimalDigit(text.charCodeAt(p + 2))) return null;
        out += '\0';
        break;
      case 0x78: {
        if (!isHexDigit(text.charCodeAt(p + 2)) || !isHexDigit(text.charCodeAt(p + 3))) return null;
        out += String.fromCharCode(parseInt(text.slice(p + 2, p + 4), 16));
        next = p + 4;
        break;
      }
      case 0x75: {
        const escape = readUnicodeEscape(text, p + 2);
        if (escape.cp < 0 || escape.end > to) return null;
        out += String.fromCodePoint(escape.cp);
        next = escape.end;
        break;
      }
      case 0x0d:
        // LineContinuation: contributes nothing (CRLF is one terminator).
        if (text.charCodeAt(p + 2) === 0x0a) next = p + 3;
        break;
      case 0x0a:
      case 0x2028:
      case 0x2029:
        break;
      default:
        // LegacyOctalEscapeSequence and NonOctalDecimalEscapeSequence are strict-mode errors.
        if (isDecimalDigit(e)) return null;
        if (p + 1 >= to) return null;
        // NonEscapeCharacter stands for itself (a surrogate pair is kept whole by slicing).
        next = p + 1;
        runStart = next;
        p = next + 1;
        continue;
    }
    p = next;
    runStart = p;
  }
  return out + text.slice(runStart, to);
}
