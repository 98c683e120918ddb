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
//
// Speed: `platform-ext check` runs in a fresh process, so most of a scan runs before V8
// has optimised anything (bench/scan-speed-js.mjs measures it). The hot path therefore
// allocates nothing per token: `scan()` leaves the token in the lexer's own fields as
// small integers (a kind, a punctuator or word code, offsets), names are looked up in a
// hash table without slicing them out of the text, and the loops that skip comments and
// string bodies are tight or native. `next()` wraps the same scan in JsToken objects for
// callers that want values (tests, tools).

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

// ===== token kinds (the `kind` field after scan(); JS_TOKEN_TYPES names them) ==========
// The name-like kinds come first, so `kind <= TOKEN_NUMBER` asks "may this be a property key".

export const TOKEN_IDENTIFIER = 0;
export const TOKEN_KEYWORD = 1;
export const TOKEN_PRIVATE_NAME = 2;
export const TOKEN_STRING = 3;
export const TOKEN_NUMBER = 4;
export const TOKEN_PUNCTUATOR = 5;
export const TOKEN_TEMPLATE = 6;
export const TOKEN_TEMPLATE_HEAD = 7;
export const TOKEN_TEMPLATE_MIDDLE = 8;
export const TOKEN_TEMPLATE_TAIL = 9;
export const TOKEN_REGEX = 10;
export const TOKEN_LINE_COMMENT = 11;
export const TOKEN_BLOCK_COMMENT = 12;
export const TOKEN_HASHBANG = 13;
export const TOKEN_INVALID = 14;
export const TOKEN_EOF = 15;
/** No token (the "previous token" before the first one). */
const TOKEN_NONE = -1;

/** Kind code -> JsTokenType. */
export const JS_TOKEN_TYPES: readonly JsTokenType[] = [
  'identifier', 'keyword', 'private-name', 'string', 'number', 'punctuator', 'template', 'template-head',
  'template-middle', 'template-tail', 'regex', 'line-comment', 'block-comment', 'hashbang', 'invalid', 'eof',
];

// ===== punctuator codes (12.8 "Punctuators"); PUNCTUATORS[code] is the text ===========
// The codes the goal heuristic and the policy tell apart come first; the rest are
// operators that all behave alike (an operand follows).

export const P_LBRACE = 0;
export const P_RBRACE = 1;
export const P_LPAREN = 2;
export const P_RPAREN = 3;
export const P_LBRACKET = 4;
export const P_RBRACKET = 5;
export const P_SEMICOLON = 6;
export const P_COMMA = 7;
export const P_COLON = 8;
export const P_QUESTION = 9;
export const P_DOT = 10;
export const P_OPTIONAL_CHAIN = 11;
export const P_ARROW = 12;
export const P_STAR = 13;
export const P_ASSIGN = 14;
export const P_INCREMENT = 15;
export const P_DECREMENT = 16;
const P_SLASH = 17;
const P_SLASH_ASSIGN = 18;
const P_TILDE = 19;
const P_AT = 20;
const P_ELLIPSIS = 21;
const P_LT = 22;
const P_SHL = 23;
const P_SHL_ASSIGN = 24;
const P_LE = 25;
const P_GT = 26;
const P_SHR = 27;
const P_SHR_ASSIGN = 28;
const P_USHR = 29;
const P_USHR_ASSIGN = 30;
const P_GE = 31;
const P_EQ = 32;
const P_STRICT_EQ = 33;
const P_NOT = 34;
const P_NE = 35;
const P_STRICT_NE = 36;
const P_PLUS = 37;
const P_PLUS_ASSIGN = 38;
const P_MINUS = 39;
const P_MINUS_ASSIGN = 40;
const P_EXPONENT = 41;
const P_EXPONENT_ASSIGN = 42;
const P_STAR_ASSIGN = 43;
const P_PERCENT = 44;
const P_PERCENT_ASSIGN = 45;
const P_AND = 46;
const P_LOGICAL_AND = 47;
const P_LOGICAL_AND_ASSIGN = 48;
const P_AND_ASSIGN = 49;
const P_OR = 50;
const P_LOGICAL_OR = 51;
const P_LOGICAL_OR_ASSIGN = 52;
const P_OR_ASSIGN = 53;
const P_XOR = 54;
const P_XOR_ASSIGN = 55;
const P_COALESCE = 56;
const P_COALESCE_ASSIGN = 57;

/** Punctuator code -> text, in code order. */
export const PUNCTUATORS: readonly string[] = [
  '{', '}', '(', ')', '[', ']', ';', ',', ':', '?', '.', '?.', '=>', '*', '=', '++', '--', '/', '/=',
  '~', '@', '...', '<', '<<', '<<=', '<=', '>', '>>', '>>=', '>>>', '>>>=', '>=', '==', '===', '!', '!=', '!==',
  '+', '+=', '-', '-=', '**', '**=', '*=', '%', '%=', '&', '&&', '&&=', '&=', '|', '||', '||=', '|=', '^', '^=',
  '??', '??=',
];

/** Punctuator code -> length in code units. */
const PUNCTUATOR_LENGTH = Uint8Array.from(PUNCTUATORS, (p) => p.length);

// ===== words: names the lexer (or its caller) must recognise ==========================

/** ReservedWord (12.7.2) plus the words reserved in strict mode code (13.1.1), which module code always is. */
const RESERVED_WORDS: readonly string[] = [
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do',
  'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in',
  'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof',
  'var', 'void', 'while', 'with', 'yield',
  'implements', 'interface', 'let', 'package', 'private', 'protected', 'public', 'static',
];

/** Contextual words the goal heuristic looks at. */
const CONTEXTUAL_WORDS: readonly string[] = ['async', 'of', 'get', 'set'];

/** Word flags (JsWords.flags). */
const WF_RESERVED = 1;
/** Keywords that are whole expressions: a `/` after them divides. */
const WF_VALUE = 2;
/** Keywords after which a `{` starts an expression (an object literal), not a block. */
const WF_EXPRESSION = 4;
/** Method modifiers that may stand before a property name in an object literal or class body. */
const WF_MODIFIER = 8;
/** Keywords after which a statement starts. */
const WF_STATEMENT = 16;

const VALUE_KEYWORDS: readonly string[] = ['this', 'super', 'null', 'true', 'false'];
const EXPRESSION_KEYWORDS: readonly string[] = [
  'case', 'typeof', 'in', 'instanceof', 'new', 'delete', 'void', 'throw', 'default', 'extends', 'await',
  'return', 'yield',
  // Declarations: `const {a, b} = x` opens a pattern, which reads like an object literal.
  'const', 'let', 'var',
];
const KEY_MODIFIERS: readonly string[] = ['get', 'set', 'async', 'static'];
const STATEMENT_KEYWORDS: readonly string[] = ['else', 'do', 'export', 'default'];

/** Word ids of the lexer's own words: reserved words are 1..RESERVED_WORDS.length, in list order. */
function lexerWordId(name: string): number {
  const reserved = RESERVED_WORDS.indexOf(name);
  return reserved >= 0 ? reserved + 1 : RESERVED_WORDS.length + 1 + CONTEXTUAL_WORDS.indexOf(name);
}

export const W_AWAIT = lexerWordId('await');
export const W_CLASS = lexerWordId('class');
export const W_CONST = lexerWordId('const');
export const W_DEFAULT = lexerWordId('default');
export const W_EXPORT = lexerWordId('export');
export const W_FOR = lexerWordId('for');
export const W_FUNCTION = lexerWordId('function');
export const W_IF = lexerWordId('if');
export const W_IMPORT = lexerWordId('import');
export const W_LET = lexerWordId('let');
export const W_RETURN = lexerWordId('return');
export const W_VAR = lexerWordId('var');
export const W_WHILE = lexerWordId('while');
export const W_WITH = lexerWordId('with');
export const W_YIELD = lexerWordId('yield');
const W_ASYNC = lexerWordId('async');
const W_OF = lexerWordId('of');

/** log2 of the word hash table size: 1024 slots keep it at most 1/4 full, so a miss is one load. */
const WORD_SLOT_BITS = 10;
const WORD_SLOT_MASK = (1 << WORD_SLOT_BITS) - 1;
/** Words beyond this many do not fit the table sparsely enough; extra words past it are ignored. */
const MAX_WORDS = 1 << (WORD_SLOT_BITS - 2);

/** The hash key of a name of `length` code units from its first and last code units. */
function wordKey(first: number, last: number, length: number): number {
  return ((first & 0xffff) << 16) ^ ((last & 0xffff) << 6) ^ length;
}

function wordSlot(key: number): number {
  return Math.imul(key, 0x9e3779b1) >>> (32 - WORD_SLOT_BITS);
}

/**
 * The names a lexer recognises: every reserved word, the contextual words of the goal
 * heuristic, and any names its caller adds (the policy's watched APIs). Each has a small
 * integer id (0 = any other name), so neither the lexer nor the policy slices or compares
 * strings per token. Build one at module load and share it.
 */
export class JsWords {
  /** Id -> name; id 0 is every other name. */
  readonly names: readonly string[];
  /** Id -> WF_* flags. */
  readonly flags: Uint8Array;
  /** Open addressing by wordSlot(wordKey(...)): slot -> id (0 = empty). */
  readonly slots: Uint16Array;
  /** Slot -> the wordKey of the word in it, so most collisions are told apart without reading text. */
  readonly keys: Int32Array;
  private readonly ids = new Map<string, number>();

  constructor(extra: Iterable<string> = []) {
    const names: string[] = [''];
    for (const name of [...RESERVED_WORDS, ...CONTEXTUAL_WORDS, ...extra]) {
      if (name === '' || this.ids.has(name) || names.length >= MAX_WORDS) continue;
      this.ids.set(name, names.length);
      names.push(name);
    }
    this.names = names;
    this.flags = new Uint8Array(names.length);
    this.slots = new Uint16Array(1 << WORD_SLOT_BITS);
    this.keys = new Int32Array(1 << WORD_SLOT_BITS);
    const mark = (list: readonly string[], flag: number): void => {
      for (const name of list) this.flags[this.ids.get(name)!]! |= flag;
    };
    mark(RESERVED_WORDS, WF_RESERVED);
    mark(VALUE_KEYWORDS, WF_VALUE);
    mark(EXPRESSION_KEYWORDS, WF_EXPRESSION);
    mark(KEY_MODIFIERS, WF_MODIFIER);
    mark(STATEMENT_KEYWORDS, WF_STATEMENT);
    for (let id = 1; id < names.length; id++) {
      const name = names[id]!;
      const key = wordKey(name.charCodeAt(0), name.charCodeAt(name.length - 1), name.length);
      let slot = wordSlot(key);
      while (this.slots[slot] !== 0) slot = (slot + 1) & WORD_SLOT_MASK;
      this.slots[slot] = id;
      this.keys[slot] = key;
    }
  }

  /** The id of `name`, 0 when it is not one of the words. */
  id(name: string): number {
    return this.ids.get(name) ?? 0;
  }
}

const LEXER_WORDS = new JsWords();

// ===== brackets =========================================================================

// What an open `{` is, decided when it opens (see classifyOpenBrace). The kind decides
// what a `/` after the matching `}` means.
/** The module body: a sentinel at the bottom of the stack. */
const BRACE_MODULE = 0;
/** Block statement, function or arrow body, switch body: a `}` ends a statement, `/` after it starts a regex. */
const BRACE_BLOCK = 1;
/** Object literal (or pattern): a `}` ends an expression, `/` after it divides. */
const BRACE_OBJECT = 2;
/** `${` of a template: the matching `}` resumes the template. */
const BRACE_TEMPLATE = 3;
/** Body of a function expression: `}` ends an expression. */
const BRACE_FUNCTION_EXPRESSION = 4;
/** Body of a class declaration: `}` ends a statement. */
const BRACE_CLASS_DECLARATION = 5;
/** Body of a class expression: `}` ends an expression. */
const BRACE_CLASS_EXPRESSION = 6;

// What an open `(` is: decides what a `/` after the matching `)` means.
/** Grouping, call arguments, parameters: `)` ends an expression. */
const PAREN_NORMAL = 0;
/** `if (`, `while (`, `with (`: `)` is followed by a statement, so `/` starts a regex. */
const PAREN_CONDITION = 1;
/** `for (` / `for await (`: like a condition; inside it `of` is a keyword. */
const PAREN_FOR = 2;
/** Parameters of a function expression: the `{` after `)` is a function-expression body. */
const PAREN_FUNCTION_PARAMS = 3;

/** Initial capacity of the bracket stacks; they double when full. */
const STACK_CAPACITY = 64;

/**
 * Typed-array stacks rather than JS arrays: `{` repeated five million times must stay
 * cheap, and typed-array memory is never traced by the garbage collector.
 */
function grow(stack: Int32Array): Int32Array {
  const grown = new Int32Array(stack.length * 2);
  grown.set(stack);
  return grown;
}

// --- character classes (12.2 "White Space", 12.3 "Line Terminators", 12.7 "Names and Keywords")

function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

/** WhiteSpace above ASCII: NBSP, ZWNBSP and the Zs code points U+1680, U+2000-U+200A, U+202F, U+205F, U+3000. */
function isNonAsciiWhiteSpace(c: number): boolean {
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

function isRadixDigit(c: number, radix: number): boolean {
  if (radix === 16) return isHexDigit(c);
  if (radix === 8) return c >= 0x30 && c <= 0x37;
  return c === 0x30 || c === 0x31;
}

/**
 * What an ASCII character may start, for the dispatch in `scan` (a dense switch over
 * small integers compiles to a jump table even before V8 optimises).
 */
// 0: a punctuator, or nothing (an invalid character).
const CH_SPACE = 1;
const CH_LINE = 2;
const CH_NAME = 3;
const CH_DIGIT = 4;
const CH_QUOTE = 5;
const CH_SLASH = 6;
const CH_BACKTICK = 7;
const CH_HASH = 8;
const CH_CLOSE_BRACE = 9;
const CH_DOT = 10;
const CH_BACKSLASH = 11;
const CHAR_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (ASCII_ID[c] === 1) CHAR_CLASS[c] = CH_NAME;
  else if (ASCII_ID[c] === 2) CHAR_CLASS[c] = CH_DIGIT;
}
CHAR_CLASS[0x20] = CHAR_CLASS[0x09] = CHAR_CLASS[0x0b] = CHAR_CLASS[0x0c] = CH_SPACE;
CHAR_CLASS[0x0a] = CHAR_CLASS[0x0d] = CH_LINE;
CHAR_CLASS[0x22] = CHAR_CLASS[0x27] = CH_QUOTE;
CHAR_CLASS[0x2f] = CH_SLASH;
CHAR_CLASS[0x60] = CH_BACKTICK;
CHAR_CLASS[0x23] = CH_HASH;
CHAR_CLASS[0x7d] = CH_CLOSE_BRACE;
CHAR_CLASS[0x2e] = CH_DOT;
CHAR_CLASS[0x5c] = CH_BACKSLASH;

/** The next line terminator (a SingleLineComment ends there), found natively; `lastIndex` is set before each use. */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/g;

/**
 * Punctuator and DivPunctuator (12.8), longest match first: the code, or -1. `}` and `/`
 * are handled by the caller (template continuation, comments, regular expressions)
 * before this runs for them; `?.` is not taken before a digit (`a?.5:b` is a conditional).
 */
function punctuatorAt(text: string, p: number): number {
  const c1 = text.charCodeAt(p + 1);
  switch (text.charCodeAt(p)) {
    case 0x7b: return P_LBRACE;
    case 0x7d: return P_RBRACE;
    case 0x28: return P_LPAREN;
    case 0x29: return P_RPAREN;
    case 0x5b: return P_LBRACKET;
    case 0x5d: return P_RBRACKET;
    case 0x3b: return P_SEMICOLON;
    case 0x2c: return P_COMMA;
    case 0x7e: return P_TILDE;
    case 0x3a: return P_COLON;
    // `@` is not an ECMAScript punctuator yet (decorators); taking it keeps the lexer in step.
    case 0x40: return P_AT;
    case 0x2e: return c1 === 0x2e && text.charCodeAt(p + 2) === 0x2e ? P_ELLIPSIS : P_DOT;
    case 0x3c:
      if (c1 === 0x3c) return text.charCodeAt(p + 2) === 0x3d ? P_SHL_ASSIGN : P_SHL;
      return c1 === 0x3d ? P_LE : P_LT;
    case 0x3e: {
      if (c1 === 0x3e) {
        const c2 = text.charCodeAt(p + 2);
        if (c2 === 0x3e) return text.charCodeAt(p + 3) === 0x3d ? P_USHR_ASSIGN : P_USHR;
        return c2 === 0x3d ? P_SHR_ASSIGN : P_SHR;
      }
      return c1 === 0x3d ? P_GE : P_GT;
    }
    case 0x3d:
      if (c1 === 0x3d) return text.charCodeAt(p + 2) === 0x3d ? P_STRICT_EQ : P_EQ;
      return c1 === 0x3e ? P_ARROW : P_ASSIGN;
    case 0x21:
      if (c1 === 0x3d) return text.charCodeAt(p + 2) === 0x3d ? P_STRICT_NE : P_NE;
      return P_NOT;
    case 0x2b: return c1 === 0x2b ? P_INCREMENT : c1 === 0x3d ? P_PLUS_ASSIGN : P_PLUS;
    case 0x2d: return c1 === 0x2d ? P_DECREMENT : c1 === 0x3d ? P_MINUS_ASSIGN : P_MINUS;
    case 0x2a:
      if (c1 === 0x2a) return text.charCodeAt(p + 2) === 0x3d ? P_EXPONENT_ASSIGN : P_EXPONENT;
      return c1 === 0x3d ? P_STAR_ASSIGN : P_STAR;
    case 0x25: return c1 === 0x3d ? P_PERCENT_ASSIGN : P_PERCENT;
    case 0x26:
      if (c1 === 0x26) return text.charCodeAt(p + 2) === 0x3d ? P_LOGICAL_AND_ASSIGN : P_LOGICAL_AND;
      return c1 === 0x3d ? P_AND_ASSIGN : P_AND;
    case 0x7c:
      if (c1 === 0x7c) return text.charCodeAt(p + 2) === 0x3d ? P_LOGICAL_OR_ASSIGN : P_LOGICAL_OR;
      return c1 === 0x3d ? P_OR_ASSIGN : P_OR;
    case 0x5e: return c1 === 0x3d ? P_XOR_ASSIGN : P_XOR;
    case 0x3f:
      if (c1 === 0x3f) return text.charCodeAt(p + 2) === 0x3d ? P_COALESCE_ASSIGN : P_COALESCE;
      if (c1 === 0x2e && !isDecimalDigit(text.charCodeAt(p + 2))) return P_OPTIONAL_CHAIN;
      return P_QUESTION;
    case 0x2f: return c1 === 0x3d ? P_SLASH_ASSIGN : P_SLASH;
    default: return -1;
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

export interface JsLexerOptions {
  /** Extra names to recognise (see JsWords); default: the lexer's own words. */
  readonly words?: JsWords;
  /** `scan()` steps over comments and the hashbang instead of returning them. */
  readonly skipComments?: boolean;
}

export class JsLexer {
  /** Lexical errors in source order (at most MAX_LEX_ERRORS). */
  readonly errors: JsLexError[] = [];

  // --- the current token, set by scan(); read-only for callers -----------------------
  /** TOKEN_* kind. */
  kind = TOKEN_EOF;
  /** Punctuators: P_* code. Identifiers, keywords, private names: word id (JsWords; 0 = other). Else 0. */
  code = 0;
  start = 0;
  end = 0;
  newlineBefore = false;
  escaped = false;
  key = false;

  readonly words: JsWords;
  private readonly text: string;
  private readonly skipComments: boolean;
  private pos = 0;
  private finished = false;
  /** Escaped names: the decoded name (the value of the current token when `escaped`). */
  private decodedName = '';

  // Newline seen since the last significant token (for newlineBefore and ASI-aware choices).
  private pendingNewline = false;

  // --- the regular-expression goal state (see advanceGoal)
  /** A `/` here starts a RegularExpressionLiteral (InputElementRegExp), else it divides. */
  private regexAllowed = true;
  /** The next token starts a statement (so `function`/`class` there is a declaration). */
  private statementStart = true;
  /** The previous significant token and the one before it: kind (TOKEN_NONE for none), code, key. */
  private prevKind = TOKEN_NONE;
  private prevCode = 0;
  private prevKey = false;
  private prevPrevKind = TOKEN_NONE;
  private prevPrevCode = 0;
  private prevPrevKey = false;
  /** `prev` is a property name after `.`/`?.` (so `x.if (` is a call, `x.return / 2` divides). */
  private prevIsMember = false;
  /** regexAllowed/statementStart as they were before `prev` (for `async function`). */
  private prevRegexAllowedBefore = true;
  private prevStatementStartBefore = true;

  // --- bracket stacks: parallel typed arrays (kind, offset of the opener, group depth at
  // open, unmatched `?` directly in it). The brace stack starts with the module sentinel,
  // which is never popped.
  private braceDepth = 0;
  private braceKinds: Int32Array = new Int32Array(STACK_CAPACITY);
  private braceStarts: Int32Array = new Int32Array(STACK_CAPACITY);
  private braceGroups: Int32Array = new Int32Array(STACK_CAPACITY);
  /** Unmatched `?` directly in each brace level: a `:` matching one is not a label. */
  private braceTernaries: Int32Array = new Int32Array(STACK_CAPACITY);
  private parenDepth = 0;
  private parenKinds: Int32Array = new Int32Array(STACK_CAPACITY);
  private parenStarts: Int32Array = new Int32Array(STACK_CAPACITY);
  private bracketDepth = 0;
  private bracketStarts: Int32Array = new Int32Array(STACK_CAPACITY);

  // --- function and class expressions (their `}` ends an expression: `/` after it divides)
  private pendingFunctionExpression = false;
  private pendingExpressionBody = false;
  private pendingClass = false;
  private pendingClassExpression = false;
  private pendingClassBraces = 0;
  private pendingClassGroups = 0;

  constructor(text: string, options: JsLexerOptions = {}) {
    this.text = text;
    this.words = options.words ?? LEXER_WORDS;
    this.skipComments = options.skipComments === true;
    this.pushBrace(BRACE_MODULE, 0);
  }

  /** The next token as a JsToken, comments included; `eof` (repeatedly) at the end. */
  next(): JsToken {
    const kind = this.scan();
    let value = '';
    if (kind <= TOKEN_PRIVATE_NAME) {
      value = this.escaped ? this.decodedName : this.text.slice(kind === TOKEN_PRIVATE_NAME ? this.start + 1 : this.start, this.end);
    } else if (kind === TOKEN_PUNCTUATOR) {
      value = PUNCTUATORS[this.code]!;
    }
    return { type: JS_TOKEN_TYPES[kind]!, start: this.start, end: this.end, value, newlineBefore: this.newlineBefore, escaped: this.escaped, key: this.key };
  }

  /**
   * Lexes the next token into the fields above and returns its kind: comments included
   * unless `skipComments`; TOKEN_EOF (repeatedly) at the end.
   */
  scan(): number {
    if (this.finished) return TOKEN_EOF;
    const text = this.text;
    const n = text.length;
    let p = this.pos;
    for (;;) {
      if (p >= n) {
        this.pos = p;
        return this.finish();
      }
      const c = text.charCodeAt(p);
      if (c >= 0x80) {
        // WhiteSpace and LineTerminator beyond ASCII (12.2, 12.3); U+2028/U+2029 end lines.
        if (c === 0x2028 || c === 0x2029) {
          this.pendingNewline = true;
          p++;
          continue;
        }
        if (isNonAsciiWhiteSpace(c)) {
          p++;
          continue;
        }
        this.pos = p;
        const cp = text.codePointAt(p)!;
        if (isIdentifierStart(cp)) return this.identifierName(p, TOKEN_IDENTIFIER);
        return this.invalid(p, cp > 0xffff ? 2 : 1);
      }
      switch (CHAR_CLASS[c]) {
        case CH_SPACE:
          // WhiteSpace (12.2) separates tokens and is not a token.
          p++;
          continue;
        case CH_LINE:
          // LineTerminator (12.3): remembered for newlineBefore (ASI-aware choices).
          this.pendingNewline = true;
          p++;
          continue;
        case CH_NAME:
        case CH_BACKSLASH:
          this.pos = p;
          return this.identifierName(p, TOKEN_IDENTIFIER);
        case CH_SLASH: {
          const c1 = text.charCodeAt(p + 1);
          if (c1 === 0x2f) {
            const end = this.lineCommentEnd(p);
            if (this.skipComments) {
              p = end;
              continue;
            }
            return this.insignificant(TOKEN_LINE_COMMENT, p, end);
          }
          if (c1 === 0x2a) {
            const end = this.blockCommentEnd(p);
            if (this.skipComments) {
              p = end;
              continue;
            }
            return this.insignificant(TOKEN_BLOCK_COMMENT, p, end);
          }
          this.pos = p;
          if (this.regexAllowed) return this.regularExpression(p);
          return this.significant(TOKEN_PUNCTUATOR, p, p + (c1 === 0x3d ? 2 : 1), c1 === 0x3d ? P_SLASH_ASSIGN : P_SLASH, false);
        }
        case CH_QUOTE:
          this.pos = p;
          return this.stringLiteral(p, c);
        case CH_BACKTICK:
          this.pos = p;
          return this.template(p, p + 1, true);
        case CH_DIGIT:
          this.pos = p;
          return this.numericLiteral(p);
        case CH_DOT:
          this.pos = p;
          if (isDecimalDigit(text.charCodeAt(p + 1))) return this.numericLiteral(p);
          break;
        case CH_HASH: {
          // HashbangComment only as the first characters of the source (12.5 "Hashbang
          // Comments"); a BOM before it is no character of the source (the decoder strips it).
          if ((p === 0 || (p === 1 && text.charCodeAt(0) === 0xfeff)) && text.charCodeAt(p + 1) === 0x21) {
            const end = this.lineCommentEnd(p);
            if (this.skipComments) {
              p = end;
              continue;
            }
            return this.insignificant(TOKEN_HASHBANG, p, end);
          }
          this.pos = p;
          const after = text.codePointAt(p + 1);
          if (after !== undefined && (after === 0x5c || isIdentifierStart(after))) return this.identifierName(p, TOKEN_PRIVATE_NAME);
          return this.invalid(p, 1);
        }
        case CH_CLOSE_BRACE:
          this.pos = p;
          if (this.braceKinds[this.braceDepth - 1] === BRACE_TEMPLATE) {
            // The `}` that closes a substitution belongs to the template: TemplateMiddle or TemplateTail.
            this.popBrace();
            return this.template(p, p + 1, false);
          }
          break;
        default:
          this.pos = p;
      }
      const punctuator = punctuatorAt(text, p);
      if (punctuator < 0) return this.invalid(p, 1);
      return this.significant(TOKEN_PUNCTUATOR, p, p + PUNCTUATOR_LENGTH[punctuator]!, punctuator, false);
    }
  }

  // ===== end of input ==========================================================

  private finish(): number {
    this.finished = true;
    // Anything still open is a syntax error; report the innermost opener.
    let open = -1;
    if (this.braceDepth > 1) open = this.braceStarts[this.braceDepth - 1]!;
    if (this.parenDepth > 0) open = Math.max(open, this.parenStarts[this.parenDepth - 1]!);
    if (this.bracketDepth > 0) open = Math.max(open, this.bracketStarts[this.bracketDepth - 1]!);
    if (open >= 0) this.error('unclosed-bracket', open);
    const n = this.text.length;
    this.setToken(TOKEN_EOF, n, n, 0, this.pendingNewline, false, false);
    return TOKEN_EOF;
  }

  private error(kind: JsLexErrorKind, offset: number): void {
    if (this.errors.length < MAX_LEX_ERRORS) this.errors.push({ kind, offset });
  }

  private setToken(kind: number, start: number, end: number, code: number, newline: boolean, escaped: boolean, key: boolean): void {
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.code = code;
    this.newlineBefore = newline;
    this.escaped = escaped;
    this.key = key;
  }

  // ===== 12.4 Comments =========================================================

  /** SingleLineComment (and HashbangComment): up to, not including, the line terminator. */
  private lineCommentEnd(start: number): number {
    // A native search: the comment ends at the first LF, CR, LS or PS, so it reads no further than the comment.
    LINE_TERMINATOR.lastIndex = start + 2;
    return LINE_TERMINATOR.test(this.text) ? LINE_TERMINATOR.lastIndex - 1 : this.text.length;
  }

  /** MultiLineComment: a line terminator inside counts as one for ASI (12.4, 12.10). */
  private blockCommentEnd(start: number): number {
    const text = this.text;
    let close = text.indexOf('*/', start + 2);
    if (close < 0) {
      this.error('unterminated-comment', start);
      close = text.length;
    }
    if (!this.pendingNewline) {
      // Bounded by the comment: a search to the end of the text would make a line of
      // many `/* */` comments quadratic.
      for (let p = start + 2; p < close; p++) {
        if (isLineTerminator(text.charCodeAt(p))) {
          this.pendingNewline = true;
          break;
        }
      }
    }
    return Math.min(close + 2, text.length);
  }

  private insignificant(kind: number, start: number, end: number): number {
    this.pos = end;
    this.setToken(kind, start, end, 0, this.pendingNewline, false, false);
    return kind;
  }

  // ===== 12.9.4 String Literals ================================================

  /**
   * StringLiteral. Escapes are skipped here and decoded on demand by cookString. A raw
   * LF or CR ends the literal unterminated (U+2028/U+2029 are allowed since ES2019); a
   * backslash before a line terminator is a LineContinuation.
   */
  private stringLiteral(start: number, quote: number): number {
    const text = this.text;
    const n = text.length;
    let p = start + 1;
    for (;;) {
      if (p >= n) break;
      const c = text.charCodeAt(p);
      if (c === quote) {
        return this.significant(TOKEN_STRING, start, p + 1, 0, false);
      }
      if (c === 0x5c) {
        p += text.charCodeAt(p + 1) === 0x0d && text.charCodeAt(p + 2) === 0x0a ? 3 : 2;
        continue;
      }
      if (c === 0x0a || c === 0x0d) break;
      p++;
    }
    this.error('unterminated-string', start);
    return this.significant(TOKEN_STRING, start, Math.min(p, n), 0, false);
  }

  // ===== 12.9.6 Template Literal Lexical Components ============================

  /**
   * From just after a backtick (head = true) or a substitution's `}` (head = false) to
   * the closing backtick or the next `${`. A `${` pushes a 'template' brace; its `}`
   * comes back here. Line terminators are allowed; unterminated runs to EOF.
   */
  private template(start: number, from: number, head: boolean): number {
    const text = this.text;
    const n = text.length;
    let p = from;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === 0x60) {
        return this.significant(head ? TOKEN_TEMPLATE : TOKEN_TEMPLATE_TAIL, start, p + 1, 0, false);
      }
      if (c === 0x24 && text.charCodeAt(p + 1) === 0x7b) {
        const kind = this.significant(head ? TOKEN_TEMPLATE_HEAD : TOKEN_TEMPLATE_MIDDLE, start, p + 2, 0, false);
        this.pushBrace(BRACE_TEMPLATE, p);
        return kind;
      }
      p += c === 0x5c ? 2 : 1;
    }
    this.error('unterminated-template', start);
    return this.significant(head ? TOKEN_TEMPLATE : TOKEN_TEMPLATE_TAIL, start, n, 0, false);
  }

  // ===== 12.9.3 Numeric Literals ===============================================

  /**
   * NumericLiteral: decimal (with fraction and exponent), `0x`/`0o`/`0b`, BigInt `n`,
   * separators `_` between digits. Legacy octal (`017`) and NonOctalDecimalIntegerLiteral
   * (`08`) are syntax errors in strict code: recorded, and lexed as decimals.
   */
  private numericLiteral(start: number): number {
    const text = this.text;
    let p = start;
    const c0 = text.charCodeAt(p);
    const c1 = text.charCodeAt(p + 1) | 0x20;
    if (c0 === 0x30 && (c1 === 0x78 || c1 === 0x6f || c1 === 0x62)) {
      const radix = c1 === 0x78 ? 16 : c1 === 0x6f ? 8 : 2;
      const after = this.radixDigits(p + 2, radix);
      if (after === p + 2) this.error('invalid-number', start);
      p = after;
      if (text.charCodeAt(p) === 0x6e) p++;
    } else {
      let integer = true;
      if (c0 === 0x30 && isDecimalDigit(text.charCodeAt(p + 1))) this.error('invalid-number', start);
      if (c0 !== 0x2e) p = this.decimalDigits(p);
      if (text.charCodeAt(p) === 0x2e) {
        integer = false;
        p = this.decimalDigits(p + 1);
      }
      const e = text.charCodeAt(p) | 0x20;
      if (e === 0x65) {
        integer = false;
        let q = p + 1;
        const sign = text.charCodeAt(q);
        if (sign === 0x2b || sign === 0x2d) q++;
        const after = this.decimalDigits(q);
        if (after === q) this.error('invalid-number', start);
        p = after;
      }
      if (integer && text.charCodeAt(p) === 0x6e) p++;
    }
    // "The SourceCharacter immediately following a NumericLiteral must not be an
    // IdentifierStart or DecimalDigit" (12.9.3): `3in x`, `1.toString()`.
    const next = text.charCodeAt(p);
    if (next < 0x80 ? next === 0x5c || ASCII_ID[next] !== 0 : next >= 0x80 && isIdentifierStart(text.codePointAt(p)!)) this.error('invalid-number', p);
    return this.significant(TOKEN_NUMBER, start, p, 0, false);
  }

  /** DecimalDigits with NumericLiteralSeparator: a `_` must sit between two digits. */
  private decimalDigits(from: number): number {
    const text = this.text;
    let p = from;
    let lastDigit = false;
    for (;;) {
      const c = text.charCodeAt(p);
      if (c >= 0x30 && c <= 0x39) lastDigit = true;
      else if (c === 0x5f) {
        if (!lastDigit || !isDecimalDigit(text.charCodeAt(p + 1))) this.error('invalid-number', p);
        lastDigit = false;
      } else break;
      p++;
    }
    return p;
  }

  /** Hex, octal or binary digits with separators, as decimalDigits. */
  private radixDigits(from: number, radix: number): number {
    const text = this.text;
    let p = from;
    let lastDigit = false;
    for (;;) {
      const c = text.charCodeAt(p);
      if (isRadixDigit(c, radix)) lastDigit = true;
      else if (c === 0x5f) {
        if (!lastDigit || !isRadixDigit(text.charCodeAt(p + 1), radix)) this.error('invalid-number', p);
        lastDigit = false;
      } else break;
      p++;
    }
    return p;
  }

  // ===== 12.7 Names and Keywords ===============================================

  /**
   * IdentifierName (or PrivateIdentifier when `kind` is TOKEN_PRIVATE_NAME, starting at
   * `#`), with UnicodeEscapeSequence decoded. An escaped name is never a keyword:
   * `\u0069mport` is the identifier "import" (as a keyword it would be a syntax error).
   */
  private identifierName(start: number, kind: number): number {
    const text = this.text;
    const n = text.length;
    const nameStart = kind === TOKEN_PRIVATE_NAME ? start + 1 : start;
    // Fast path: a plain ASCII name (nearly every name in real code), looked up in the
    // word table by its first and last characters and length, without slicing it.
    const first = text.charCodeAt(nameStart);
    if (first < 0x80 && ASCII_ID[first] === 1) {
      let q = nameStart + 1;
      let c = text.charCodeAt(q);
      while (c < 0x80 && ASCII_ID[c] !== 0) c = text.charCodeAt(++q);
      if (!(c === 0x5c || (c > 0x7f && q < n))) {
        const words = this.words;
        const length = q - nameStart;
        const key = wordKey(first, text.charCodeAt(q - 1), length);
        let slot = wordSlot(key);
        let id = 0;
        for (;;) {
          const candidate = words.slots[slot]!;
          if (candidate === 0) break;
          if (words.keys[slot] === key) {
            const name = words.names[candidate]!;
            if (name.length === length && text.startsWith(name, nameStart)) {
              id = candidate;
              break;
            }
          }
          slot = (slot + 1) & WORD_SLOT_MASK;
        }
        if (kind === TOKEN_IDENTIFIER && (words.flags[id]! & WF_RESERVED) !== 0) kind = TOKEN_KEYWORD;
        return this.significant(kind, start, q, id, false);
      }
    }
    return this.escapedName(start, nameStart, kind);
  }

  /** The general IdentifierName: `\u` escapes and non-ASCII characters. */
  private escapedName(start: number, nameStart: number, kind: number): number {
    const text = this.text;
    const n = text.length;
    let p = nameStart;
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
    const id = this.words.id(value);
    if (escaped) this.decodedName = value;
    else if (kind === TOKEN_IDENTIFIER && (this.words.flags[id]! & WF_RESERVED) !== 0) kind = TOKEN_KEYWORD;
    return this.significant(kind, start, p, id, escaped);
  }

  // ===== 12.9.5 Regular Expression Literals ====================================

  /**
   * RegularExpressionLiteral: body up to an unescaped `/` outside a class (`/[/]/` is
   * one literal), then flags (IdentifierPartChar). A line terminator ends it unterminated.
   */
  private regularExpression(start: number): number {
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
    return this.significant(TOKEN_REGEX, start, p, 0, false);
  }

  // ===== 12.8 Punctuators (see punctuatorAt) ===================================

  /** A character no token starts with: recorded, stepped over, and not significant (the goal state stays). */
  private invalid(start: number, length: number): number {
    this.error('invalid-character', start);
    this.pos = start + length;
    this.setToken(TOKEN_INVALID, start, start + length, 0, this.pendingNewline, false, false);
    return TOKEN_INVALID;
  }

  // ===== bookkeeping for the goal symbol =======================================

  private groupDepth(): number {
    return this.parenDepth + this.bracketDepth;
  }

  private pushBrace(kind: number, offset: number): void {
    const depth = this.braceDepth;
    if (depth === this.braceKinds.length) {
      this.braceKinds = grow(this.braceKinds);
      this.braceStarts = grow(this.braceStarts);
      this.braceGroups = grow(this.braceGroups);
      this.braceTernaries = grow(this.braceTernaries);
    }
    this.braceKinds[depth] = kind;
    this.braceStarts[depth] = offset;
    this.braceGroups[depth] = this.parenDepth + this.bracketDepth;
    this.braceTernaries[depth] = 0;
    this.braceDepth = depth + 1;
  }

  /** Pops a brace (never the module sentinel) and returns its kind; BRACE_BLOCK when unbalanced. */
  private popBrace(): number {
    if (this.braceDepth === 1) return BRACE_BLOCK;
    return this.braceKinds[--this.braceDepth]!;
  }

  /** Directly inside the innermost brace, not inside a `(` or `[` opened within it. */
  private atBraceLevel(): boolean {
    return this.parenDepth + this.bracketDepth === this.braceGroups[this.braceDepth - 1];
  }

  /**
   * Whether a name-like token here is a property name of an object literal or class
   * body: directly inside one, after `{`, `,`, (class) `;` or `}`, after a modifier
   * (`get`, `set`, `async`, `static`) that was itself in that position, after a
   * generator `*` in that position, or (class) after a line break that ends a field.
   */
  private keyPosition(newline: boolean): boolean {
    const kind = this.braceKinds[this.braceDepth - 1];
    const isClass = kind === BRACE_CLASS_DECLARATION || kind === BRACE_CLASS_EXPRESSION;
    if (kind !== BRACE_OBJECT && !isClass) return false;
    if (!this.atBraceLevel()) return false;
    const prevKind = this.prevKind;
    if (prevKind === TOKEN_NONE) return false;
    if (prevKind === TOKEN_PUNCTUATOR) {
      const v = this.prevCode;
      if (v === P_LBRACE || v === P_COMMA) return true;
      if (isClass && (v === P_SEMICOLON || v === P_RBRACE)) return true;
      if (v === P_STAR) {
        const before = this.prevPrevKind;
        if (before === TOKEN_NONE) return false;
        if (before === TOKEN_PUNCTUATOR) {
          const b = this.prevPrevCode;
          return b === P_LBRACE || b === P_COMMA || (isClass && (b === P_SEMICOLON || b === P_RBRACE));
        }
        // Only name-like tokens are keys, and only names have a word code.
        return this.prevPrevKey && (this.words.flags[this.prevPrevCode]! & WF_MODIFIER) !== 0;
      }
    } else if (this.prevKey && (prevKind === TOKEN_IDENTIFIER || prevKind === TOKEN_KEYWORD) && (this.words.flags[this.prevCode]! & WF_MODIFIER) !== 0) {
      return true;
    }
    return isClass && newline && !this.regexAllowed;
  }

  /**
   * Sets a significant token and moves the goal state on. Keys are decided first, from
   * the state before the token. Returns the kind.
   */
  private significant(kind: number, start: number, end: number, code: number, escaped: boolean): number {
    const newline = this.pendingNewline;
    const key = kind <= TOKEN_NUMBER && this.keyPosition(newline);
    this.setToken(kind, start, end, code, newline, escaped, key);
    this.pos = end;
    this.pendingNewline = false;
    const regexBefore = this.regexAllowed;
    const statementBefore = this.statementStart;
    this.advanceGoal(kind, code, start, newline, escaped, key);
    this.prevPrevKind = this.prevKind;
    this.prevPrevCode = this.prevCode;
    this.prevPrevKey = this.prevKey;
    this.prevKind = kind;
    // Strings and numbers keep code 0, so no word test can mistake them for a name.
    this.prevCode = code;
    this.prevKey = key;
    this.prevRegexAllowedBefore = regexBefore;
    this.prevStatementStartBefore = statementBefore;
    return kind;
  }

  /**
   * The regular-expression goal after a token (`regexAllowed`), and whether a statement
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
  private advanceGoal(kind: number, code: number, start: number, newline: boolean, escaped: boolean, key: boolean): void {
    const afterDot = this.prevKind === TOKEN_PUNCTUATOR && (this.prevCode === P_DOT || this.prevCode === P_OPTIONAL_CHAIN);
    const wasMember = this.prevIsMember;
    this.prevIsMember = false;
    switch (kind) {
      case TOKEN_IDENTIFIER: {
        this.prevIsMember = afterDot;
        if (code === W_ASYNC && !afterDot) {
          // `async function`: the function's position is the position of `async`; keep the pending flags.
        } else if (!(this.pendingFunctionExpression && !afterDot)) {
          this.pendingFunctionExpression = false;
        }
        this.pendingExpressionBody = false;
        const inFor = this.parenDepth > 0 && this.parenKinds[this.parenDepth - 1] === PAREN_FOR;
        this.regexAllowed = !afterDot && !escaped && code === W_OF && inFor && !key;
        this.statementStart = false;
        return;
      }
      case TOKEN_KEYWORD: {
        this.pendingExpressionBody = false;
        if (afterDot || key) {
          // A property name spelled like a keyword.
          this.prevIsMember = afterDot;
          this.regexAllowed = false;
          this.statementStart = false;
          this.pendingFunctionExpression = false;
          return;
        }
        if (code === W_FUNCTION) {
          let regex = this.regexAllowed;
          let statement = this.statementStart;
          if (this.prevKind === TOKEN_IDENTIFIER && this.prevCode === W_ASYNC && !wasMember) {
            regex = this.prevRegexAllowedBefore;
            statement = this.prevStatementStartBefore;
          }
          this.pendingFunctionExpression = regex && !statement;
        } else {
          this.pendingFunctionExpression = false;
        }
        if (code === W_CLASS) {
          this.pendingClass = true;
          this.pendingClassExpression = this.regexAllowed && !this.statementStart;
          this.pendingClassBraces = this.braceDepth;
          this.pendingClassGroups = this.groupDepth();
        }
        const flags = this.words.flags[code]!;
        this.regexAllowed = (flags & WF_VALUE) === 0;
        this.statementStart = (flags & WF_STATEMENT) !== 0;
        return;
      }
      case TOKEN_PUNCTUATOR:
        this.afterPunctuator(code, start, newline, wasMember);
        return;
      case TOKEN_TEMPLATE_HEAD:
      case TOKEN_TEMPLATE_MIDDLE:
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

  private afterPunctuator(v: number, start: number, newline: boolean, prevWasMember: boolean): void {
    const expressionBody = this.pendingExpressionBody;
    this.pendingExpressionBody = false;
    if (v !== P_STAR && v !== P_LPAREN) this.pendingFunctionExpression = false;
    if (v > P_DECREMENT) {
      // An operator (every code past the structural ones): an operand follows.
      this.regexAllowed = true;
      this.statementStart = false;
      return;
    }
    switch (v) {
      case P_LPAREN: {
        let kind = PAREN_NORMAL;
        if (this.pendingFunctionExpression) kind = PAREN_FUNCTION_PARAMS;
        else if (this.prevKind === TOKEN_KEYWORD && !prevWasMember && !this.prevKey) {
          const p = this.prevCode;
          if (p === W_IF || p === W_WHILE || p === W_WITH) kind = PAREN_CONDITION;
          else if (p === W_FOR) kind = PAREN_FOR;
          else if (p === W_AWAIT && this.prevPrevKind === TOKEN_KEYWORD && this.prevPrevCode === W_FOR) kind = PAREN_FOR;
        }
        this.pendingFunctionExpression = false;
        const depth = this.parenDepth;
        if (depth === this.parenKinds.length) {
          this.parenKinds = grow(this.parenKinds);
          this.parenStarts = grow(this.parenStarts);
        }
        this.parenKinds[depth] = kind;
        this.parenStarts[depth] = start;
        this.parenDepth = depth + 1;
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      }
      case P_RPAREN: {
        let kind = PAREN_NORMAL;
        if (this.parenDepth === 0) this.error('unbalanced-bracket', start);
        else kind = this.parenKinds[--this.parenDepth]!;
        const condition = kind === PAREN_CONDITION || kind === PAREN_FOR;
        this.pendingExpressionBody = kind === PAREN_FUNCTION_PARAMS;
        this.regexAllowed = condition;
        this.statementStart = condition;
        return;
      }
      case P_LBRACKET: {
        const depth = this.bracketDepth;
        if (depth === this.bracketStarts.length) this.bracketStarts = grow(this.bracketStarts);
        this.bracketStarts[depth] = start;
        this.bracketDepth = depth + 1;
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      }
      case P_RBRACKET:
        if (this.bracketDepth === 0) this.error('unbalanced-bracket', start);
        else this.bracketDepth--;
        this.regexAllowed = false;
        this.statementStart = false;
        return;
      case P_LBRACE: {
        const kind = this.classifyOpenBrace(prevWasMember, newline, expressionBody);
        this.pushBrace(kind, start);
        this.regexAllowed = true;
        this.statementStart = kind === BRACE_BLOCK || kind === BRACE_FUNCTION_EXPRESSION;
        return;
      }
      case P_RBRACE: {
        if (this.braceDepth === 1) this.error('unbalanced-bracket', start);
        const kind = this.popBrace();
        if (this.pendingClass && this.braceDepth < this.pendingClassBraces) this.pendingClass = false;
        const endsStatement = kind === BRACE_BLOCK || kind === BRACE_CLASS_DECLARATION || kind === BRACE_MODULE;
        this.regexAllowed = endsStatement;
        this.statementStart = endsStatement;
        return;
      }
      case P_INCREMENT:
      case P_DECREMENT:
        // regexAllowed unchanged: prefix keeps expecting an operand, postfix an operator.
        this.statementStart = false;
        return;
      case P_QUESTION:
        if (this.atBraceLevel()) this.braceTernaries[this.braceDepth - 1]!++;
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      case P_COLON: {
        // A label or `case x:` (a statement follows) only directly in a block, when no `?` waits for it.
        const kind = this.braceKinds[this.braceDepth - 1];
        let statement = false;
        if (this.atBraceLevel()) {
          if (this.braceTernaries[this.braceDepth - 1]! > 0) this.braceTernaries[this.braceDepth - 1]!--;
          else statement = kind === BRACE_BLOCK || kind === BRACE_MODULE || kind === BRACE_FUNCTION_EXPRESSION;
        }
        this.regexAllowed = true;
        this.statementStart = statement;
        return;
      }
      case P_SEMICOLON:
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
  private classifyOpenBrace(prevWasMember: boolean, newline: boolean, expressionBody: boolean): number {
    if (expressionBody) return BRACE_FUNCTION_EXPRESSION;
    if (this.pendingClass && this.braceDepth === this.pendingClassBraces && this.groupDepth() === this.pendingClassGroups) {
      this.pendingClass = false;
      return this.pendingClassExpression ? BRACE_CLASS_EXPRESSION : BRACE_CLASS_DECLARATION;
    }
    switch (this.prevKind) {
      case TOKEN_NONE:
        return BRACE_BLOCK;
      case TOKEN_PUNCTUATOR:
        switch (this.prevCode) {
          case P_RPAREN:
          case P_ARROW:
          case P_SEMICOLON:
          case P_RBRACE:
            return BRACE_BLOCK;
          case P_LBRACE: {
            // prev is the brace now on top of the stack.
            const outer = this.braceKinds[this.braceDepth - 1];
            return outer === BRACE_BLOCK || outer === BRACE_MODULE || outer === BRACE_FUNCTION_EXPRESSION ? BRACE_BLOCK : BRACE_OBJECT;
          }
          case P_COLON:
            return this.statementStart ? BRACE_BLOCK : BRACE_OBJECT;
          default:
            return BRACE_OBJECT;
        }
      case TOKEN_KEYWORD: {
        const p = this.prevCode;
        if (this.prevKey || prevWasMember) return newline ? BRACE_BLOCK : BRACE_OBJECT;
        if (p === W_RETURN || p === W_YIELD) return newline ? BRACE_BLOCK : BRACE_OBJECT;
        return (this.words.flags[p]! & WF_EXPRESSION) !== 0 ? BRACE_OBJECT : BRACE_BLOCK;
      }
      case TOKEN_IDENTIFIER:
        if (this.regexAllowed && !newline) return BRACE_OBJECT; // `for (x of {...})`
        return BRACE_BLOCK;
      case TOKEN_TEMPLATE_HEAD:
      case TOKEN_TEMPLATE_MIDDLE:
        return BRACE_OBJECT;
      default:
        return newline ? BRACE_BLOCK : BRACE_OBJECT;
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
  if (token.type !== 'string') return null;
  return cookStringAt(text, token.start, token.end);
}

/** cookString for the string token at `text[start, end)`. */
export function cookStringAt(text: string, start: number, end: number): string | null {
  if (end - start < 2) return null;
  if (text.charCodeAt(end - 1) !== text.charCodeAt(start)) return null;
  return cookBody(text, start + 1, end - 1, false);
}

/**
 * The cooked value (TV, 12.9.6.1) of a NoSubstitutionTemplate token, or null when it is
 * unterminated or holds an invalid escape (only tagged templates may).
 */
export function cookTemplate(text: string, token: JsToken): string | null {
  if (token.type !== 'template') return null;
  return cookTemplateAt(text, token.start, token.end);
}

/** cookTemplate for the template token at `text[start, end)`. */
export function cookTemplateAt(text: string, start: number, end: number): string | null {
  if (end - start < 2 || text.charCodeAt(end - 1) !== 0x60) return null;
  return cookBody(text, start + 1, end - 1, true);
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
