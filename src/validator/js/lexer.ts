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

/**
 * Size of the token ring (a power of two): every token the lexer produces is also kept
 * in `ringKinds`/`ringCodes`/`ringStarts`/`ringEnds`/`ringFlags` at slot
 * `(count - 1) & RING_MASK`, so a caller can look back at the last few without keeping
 * objects (the policy looks back 6 tokens and ahead 4).
 */
export const RING_SIZE = 16;
export const RING_MASK = RING_SIZE - 1;
/** ringFlags bits. */
export const FLAG_NEWLINE = 1;
export const FLAG_ESCAPED = 2;
export const FLAG_KEY = 4;

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

  // --- every token produced so far, the last RING_SIZE of them kept (see RING_SIZE) ---
  /** Tokens produced so far; the newest is at slot `(count - 1) & RING_MASK`. */
  count = 0;
  readonly ringKinds = new Int32Array(RING_SIZE);
  readonly ringCodes = new Int32Array(RING_SIZE);
  readonly ringStarts = new Int32Array(RING_SIZE);
  readonly ringEnds = new Int32Array(RING_SIZE);
  readonly ringFlags = new Uint8Array(RING_SIZE);

  readonly words: JsWords;
  private readonly text: string;
  private readonly skipComments: boolean;
  private pos = 0;
  private finished = false;
  /** Set by escapedName: the decoded name (the value of the current token when `escaped`), and whether it held a `\u` escape. */
  private decodedName = '';
  private escapedNameHadEscape = false;

  // The state below lives in fields between calls; `run` copies it into locals (cheap to
  // read and write before V8 optimises) and back.

  // Newline seen since the last significant token (for newlineBefore and ASI-aware choices).
  private pendingNewline = false;

  // --- the regular-expression goal state (see `run`, "goal")
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
    // The module sentinel at the bottom of the brace stack.
    this.braceKinds[0] = BRACE_MODULE;
    this.braceDepth = 1;
  }

  /** The next token as a JsToken, comments included unless `skipComments`; `eof` (repeatedly) at the end. */
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

  /** Lexes the next token into the fields above (and the ring) and returns its kind; TOKEN_EOF (repeatedly) at the end. */
  scan(): number {
    return this.run(null);
  }

  /**
   * Lexes tokens (each into the ring) until one is an identifier or keyword whose word id
   * is set in `stopWords`, or the end; that token is left in the fields, as by scan().
   * Callers that care about a few names skip everything else at the lexer's own pace.
   */
  scanUntil(stopWords: Uint8Array): number {
    return this.run(stopWords);
  }

  /**
   * The lexer proper: one loop over the text, one token per iteration. All of it sits in
   * one function with its state in locals, because that is what runs fast before V8
   * optimises (local reads are register moves, field reads are inline-cache calls) and
   * what V8 optimises cheaply (one compilation, no helper inlined into many callers).
   * `stopWords` null: return after one token.
   */
  private run(stopWords: Uint8Array | null): number {
    if (this.finished) return this.eof();
    const text = this.text;
    const n = text.length;
    const words = this.words;
    const wordFlags = words.flags;
    const wordSlots = words.slots;
    const wordKeys = words.keys;
    const wordNames = words.names;
    const skipComments = this.skipComments;
    const ringKinds = this.ringKinds;
    const ringCodes = this.ringCodes;
    const ringStarts = this.ringStarts;
    const ringEnds = this.ringEnds;
    const ringFlags = this.ringFlags;
    let count = this.count;
    let p = this.pos;
    let pendingNewline = this.pendingNewline;
    let regexAllowed = this.regexAllowed;
    let statementStart = this.statementStart;
    let prevKind = this.prevKind;
    let prevCode = this.prevCode;
    let prevKey = this.prevKey;
    let prevPrevKind = this.prevPrevKind;
    let prevPrevCode = this.prevPrevCode;
    let prevPrevKey = this.prevPrevKey;
    let prevIsMember = this.prevIsMember;
    let prevRegexAllowedBefore = this.prevRegexAllowedBefore;
    let prevStatementStartBefore = this.prevStatementStartBefore;
    let pendingFunctionExpression = this.pendingFunctionExpression;
    let pendingExpressionBody = this.pendingExpressionBody;
    let braceDepth = this.braceDepth;
    let parenDepth = this.parenDepth;
    let bracketDepth = this.bracketDepth;
    // Stacks are re-read after any push that may grow them.
    let braceKinds = this.braceKinds;
    let braceGroups = this.braceGroups;

    let kind = TOKEN_EOF;
    let code = 0;
    let start = 0;
    let end = 0;
    let newline = false;
    let escaped = false;
    let key = false;
    for (;;) {
      // ===== WhiteSpace (12.2), LineTerminator (12.3) and comments (12.4) between tokens
      let c = 0;
      let cls = 0;
      for (;;) {
        if (p >= n) break;
        c = text.charCodeAt(p);
        if (c < 0x80) {
          cls = CHAR_CLASS[c]!;
          if (cls === CH_SPACE) {
            p++;
            continue;
          }
          if (cls === CH_LINE) {
            // Remembered for newlineBefore (ASI-aware choices); the indentation after a
            // line break is the longest run of spaces in real code, so take it here.
            pendingNewline = true;
            p++;
            while (text.charCodeAt(p) === 0x20) p++;
            continue;
          }
          if (cls === CH_SLASH && skipComments) {
            const c1 = text.charCodeAt(p + 1);
            if (c1 === 0x2f) {
              p = this.lineCommentEnd(p);
              continue;
            }
            if (c1 === 0x2a) {
              const close = this.blockCommentEnd(p);
              if (!pendingNewline) pendingNewline = hasLineTerminator(text, p + 2, close);
              p = close;
              continue;
            }
          }
          break;
        }
        if (c === 0x2028 || c === 0x2029) {
          pendingNewline = true;
          p++;
          continue;
        }
        if (isNonAsciiWhiteSpace(c)) {
          p++;
          continue;
        }
        break;
      }
      start = p;
      escaped = false;
      code = 0;

      // ===== one token from `start` (InputElementDiv or InputElementRegExp by regexAllowed)
      if (p >= n) {
        kind = TOKEN_EOF;
        end = n;
      } else if (c >= 0x80) {
        const cp = text.codePointAt(p)!;
        if (isIdentifierStart(cp)) {
          end = this.escapedName(p);
          kind = TOKEN_IDENTIFIER;
          code = words.id(this.decodedName);
          escaped = this.escapedNameHadEscape;
          if (!escaped && (wordFlags[code]! & WF_RESERVED) !== 0) kind = TOKEN_KEYWORD;
        } else {
          kind = TOKEN_INVALID;
          end = p + (cp > 0xffff ? 2 : 1);
        }
      } else {
        switch (cls) {
          case CH_NAME: {
            // 12.7 IdentifierName, fast path: a plain ASCII name (nearly every name in
            // real code), looked up in the word table by its first and last characters and
            // length, without slicing it out of the text.
            let q = p + 1;
            let d = text.charCodeAt(q);
            while (d < 0x80 && ASCII_ID[d] !== 0) d = text.charCodeAt(++q);
            if (d === 0x5c || (d > 0x7f && q < n)) {
              end = this.escapedName(p);
              code = words.id(this.decodedName);
              escaped = this.escapedNameHadEscape;
            } else {
              end = q;
              const length = q - p;
              const hash = ((c << 16) ^ (text.charCodeAt(q - 1) << 6) ^ length) | 0;
              let slot = Math.imul(hash, 0x9e3779b1) >>> (32 - WORD_SLOT_BITS);
              for (;;) {
                const candidate = wordSlots[slot]!;
                if (candidate === 0) break;
                if (wordKeys[slot] === hash) {
                  const name = wordNames[candidate]!;
                  if (name.length === length && text.startsWith(name, p)) {
                    code = candidate;
                    break;
                  }
                }
                slot = (slot + 1) & WORD_SLOT_MASK;
              }
            }
            kind = !escaped && (wordFlags[code]! & WF_RESERVED) !== 0 ? TOKEN_KEYWORD : TOKEN_IDENTIFIER;
            break;
          }
          case CH_BACKSLASH:
            end = this.escapedName(p);
            code = words.id(this.decodedName);
            escaped = this.escapedNameHadEscape;
            kind = !escaped && (wordFlags[code]! & WF_RESERVED) !== 0 ? TOKEN_KEYWORD : TOKEN_IDENTIFIER;
            break;
          case CH_QUOTE: {
            // 12.9.4 StringLiteral: escapes are skipped here and decoded on demand by
            // cookString. A raw LF or CR ends the literal unterminated (U+2028/U+2029 are
            // allowed since ES2019); a backslash before a line terminator is a LineContinuation.
            let q = p + 1;
            end = -1;
            while (q < n) {
              const d = text.charCodeAt(q);
              if (d === c) {
                end = q + 1;
                break;
              }
              if (d === 0x5c) {
                q += text.charCodeAt(q + 1) === 0x0d && text.charCodeAt(q + 2) === 0x0a ? 3 : 2;
                continue;
              }
              if (d === 0x0a || d === 0x0d) break;
              q++;
            }
            if (end < 0) {
              this.error('unterminated-string', p);
              end = q < n ? q : n;
            }
            kind = TOKEN_STRING;
            break;
          }
          case CH_DIGIT:
            end = this.numericLiteral(p);
            kind = TOKEN_NUMBER;
            break;
          case CH_SLASH: {
            const c1 = text.charCodeAt(p + 1);
            if (c1 === 0x2f) {
              end = this.lineCommentEnd(p);
              kind = TOKEN_LINE_COMMENT;
            } else if (c1 === 0x2a) {
              end = this.blockCommentEnd(p);
              if (!pendingNewline) pendingNewline = hasLineTerminator(text, p + 2, end);
              kind = TOKEN_BLOCK_COMMENT;
            } else if (regexAllowed) {
              end = this.regularExpression(p);
              kind = TOKEN_REGEX;
            } else {
              kind = TOKEN_PUNCTUATOR;
              code = c1 === 0x3d ? P_SLASH_ASSIGN : P_SLASH;
              end = p + (c1 === 0x3d ? 2 : 1);
            }
            break;
          }
          case CH_BACKTICK: {
            const scanned = this.template(p, p + 1);
            end = scanned >> 1;
            kind = (scanned & 1) === 1 ? TOKEN_TEMPLATE_HEAD : TOKEN_TEMPLATE;
            break;
          }
          case CH_DOT:
            if (isDecimalDigit(text.charCodeAt(p + 1))) {
              end = this.numericLiteral(p);
              kind = TOKEN_NUMBER;
            } else {
              kind = TOKEN_PUNCTUATOR;
              code = text.charCodeAt(p + 1) === 0x2e && text.charCodeAt(p + 2) === 0x2e ? P_ELLIPSIS : P_DOT;
              end = p + PUNCTUATOR_LENGTH[code]!;
            }
            break;
          case CH_HASH: {
            // HashbangComment only as the first characters of the source (12.5 "Hashbang
            // Comments"); a BOM before it is no character of the source (the decoder strips it).
            const after = text.codePointAt(p + 1);
            if ((p === 0 || (p === 1 && text.charCodeAt(0) === 0xfeff)) && after === 0x21) {
              end = this.lineCommentEnd(p);
              kind = TOKEN_HASHBANG;
            } else if (after !== undefined && (after === 0x5c || isIdentifierStart(after))) {
              // PrivateIdentifier `#name`: its word id is the id of the name.
              end = this.escapedName(p + 1);
              code = words.id(this.decodedName);
              escaped = this.escapedNameHadEscape;
              kind = TOKEN_PRIVATE_NAME;
            } else {
              kind = TOKEN_INVALID;
              end = p + 1;
            }
            break;
          }
          case CH_CLOSE_BRACE:
            if (braceKinds[braceDepth - 1] === BRACE_TEMPLATE) {
              // The `}` that closes a substitution belongs to the template: TemplateMiddle or TemplateTail.
              braceDepth--;
              const scanned = this.template(p, p + 1);
              end = scanned >> 1;
              kind = (scanned & 1) === 1 ? TOKEN_TEMPLATE_MIDDLE : TOKEN_TEMPLATE_TAIL;
            } else {
              kind = TOKEN_PUNCTUATOR;
              code = P_RBRACE;
              end = p + 1;
            }
            break;
          default: {
            // 12.8 Punctuators, longest match.
            code = punctuatorAt(text, p);
            if (code < 0) {
              kind = TOKEN_INVALID;
              end = p + 1;
            } else {
              kind = TOKEN_PUNCTUATOR;
              end = p + PUNCTUATOR_LENGTH[code]!;
            }
          }
        }
      }
      p = end;

      // ===== what the token does to the goal state
      if (kind === TOKEN_INVALID) {
        // A character no token starts with: recorded, stepped over, not significant.
        this.error('invalid-character', start);
        newline = pendingNewline;
        key = false;
      } else if (kind >= TOKEN_LINE_COMMENT) {
        // Comments, the hashbang and the end change nothing; a comment holding a line
        // terminator counted as one above.
        newline = pendingNewline;
        key = false;
        if (kind === TOKEN_EOF) {
          this.pos = p;
          this.braceDepth = braceDepth;
          this.parenDepth = parenDepth;
          this.bracketDepth = bracketDepth;
          this.finishBrackets();
        }
      } else {
        newline = pendingNewline;
        pendingNewline = false;
        // Keys: whether a name-like token is a property name of an object literal or
        // class body: directly inside one, after `{`, `,`, (class) `;` or `}`, after a
        // modifier (`get`, `set`, `async`, `static`) that was itself in that position,
        // after a generator `*` in that position, or (class) after a line break that
        // ends a field. Decided from the state before the token.
        key = false;
        const braceKind = braceKinds[braceDepth - 1];
        if (kind <= TOKEN_NUMBER && (braceKind === BRACE_OBJECT || braceKind === BRACE_CLASS_DECLARATION || braceKind === BRACE_CLASS_EXPRESSION) && parenDepth + bracketDepth === braceGroups[braceDepth - 1] && prevKind !== TOKEN_NONE) {
          const isClass = braceKind !== BRACE_OBJECT;
          if (prevKind === TOKEN_PUNCTUATOR) {
            if (prevCode === P_LBRACE || prevCode === P_COMMA) key = true;
            else if (isClass && (prevCode === P_SEMICOLON || prevCode === P_RBRACE)) key = true;
            else if (prevCode === P_STAR) {
              if (prevPrevKind === TOKEN_PUNCTUATOR) {
                key = prevPrevCode === P_LBRACE || prevPrevCode === P_COMMA || (isClass && (prevPrevCode === P_SEMICOLON || prevPrevCode === P_RBRACE));
              } else {
                // Only name-like tokens are keys, and only names have a word code (strings and numbers have 0).
                key = prevPrevKind !== TOKEN_NONE && prevPrevKey && (wordFlags[prevPrevCode]! & WF_MODIFIER) !== 0;
              }
            } else key = isClass && newline && !regexAllowed;
          } else if (prevKey && (prevKind === TOKEN_IDENTIFIER || prevKind === TOKEN_KEYWORD) && (wordFlags[prevCode]! & WF_MODIFIER) !== 0) {
            key = true;
          } else key = isClass && newline && !regexAllowed;
        }

        // The goal after the token (regexAllowed: a `/` next starts a regular expression;
        // statementStart: a statement starts next). The heuristic, by token:
        // - none, `;`, `{`, operators and most punctuators, template head/middle: regex.
        // - identifier, number, string, regex, template end, private name, `]`: division.
        //   `a = b\n/re/g.test(c)` therefore divides, as the grammar says (no ASI before `/`).
        // - keyword: regex, except `this`, `super`, `null`, `true`, `false` and a keyword
        //   used as a property name (`x.return / 2`, `{ if: ... }`): division. The
        //   identifier `of` directly inside `for (...)` acts as a keyword.
        // - `)`: regex when it closes `if (`, `while (`, `for (`, `with (` (a statement
        //   follows: `if (x) /re/.test(y)`), else division.
        // - `}`: regex when it closes a block, a function or arrow body or a class
        //   declaration (a statement follows), division when it closes an object literal,
        //   a function expression body or a class expression: see classifyOpenBrace.
        // - `++`/`--`: as before them (prefix: an operand follows; postfix: an operator does).
        const regexBefore = regexAllowed;
        const statementBefore = statementStart;
        const afterDot = prevKind === TOKEN_PUNCTUATOR && (prevCode === P_DOT || prevCode === P_OPTIONAL_CHAIN);
        const wasMember = prevIsMember;
        prevIsMember = false;
        if (kind === TOKEN_IDENTIFIER) {
          prevIsMember = afterDot;
          if (code === W_ASYNC && !afterDot) {
            // `async function`: the function's position is the position of `async`; keep the pending flags.
          } else if (!(pendingFunctionExpression && !afterDot)) {
            pendingFunctionExpression = false;
          }
          pendingExpressionBody = false;
          regexAllowed = !afterDot && !escaped && code === W_OF && !key && parenDepth > 0 && this.parenKinds[parenDepth - 1] === PAREN_FOR;
          statementStart = false;
        } else if (kind === TOKEN_PUNCTUATOR) {
          const expressionBody = pendingExpressionBody;
          pendingExpressionBody = false;
          if (code !== P_STAR && code !== P_LPAREN) pendingFunctionExpression = false;
          if (code > P_DECREMENT) {
            // An operator (every code past the structural ones): an operand follows.
            regexAllowed = true;
            statementStart = false;
          } else {
            switch (code) {
              case P_LPAREN: {
                let parenKind = PAREN_NORMAL;
                if (pendingFunctionExpression) parenKind = PAREN_FUNCTION_PARAMS;
                else if (prevKind === TOKEN_KEYWORD && !wasMember && !prevKey) {
                  if (prevCode === W_IF || prevCode === W_WHILE || prevCode === W_WITH) parenKind = PAREN_CONDITION;
                  else if (prevCode === W_FOR) parenKind = PAREN_FOR;
                  else if (prevCode === W_AWAIT && prevPrevKind === TOKEN_KEYWORD && prevPrevCode === W_FOR) parenKind = PAREN_FOR;
                }
                pendingFunctionExpression = false;
                if (parenDepth === this.parenKinds.length) this.growParens();
                this.parenKinds[parenDepth] = parenKind;
                this.parenStarts[parenDepth] = start;
                parenDepth++;
                regexAllowed = true;
                statementStart = false;
                break;
              }
              case P_RPAREN: {
                let parenKind = PAREN_NORMAL;
                if (parenDepth === 0) this.error('unbalanced-bracket', start);
                else parenKind = this.parenKinds[--parenDepth]!;
                const condition = parenKind === PAREN_CONDITION || parenKind === PAREN_FOR;
                pendingExpressionBody = parenKind === PAREN_FUNCTION_PARAMS;
                regexAllowed = condition;
                statementStart = condition;
                break;
              }
              case P_LBRACKET:
                if (bracketDepth === this.bracketStarts.length) this.bracketStarts = grow(this.bracketStarts);
                this.bracketStarts[bracketDepth++] = start;
                regexAllowed = true;
                statementStart = false;
                break;
              case P_RBRACKET:
                if (bracketDepth === 0) this.error('unbalanced-bracket', start);
                else bracketDepth--;
                regexAllowed = false;
                statementStart = false;
                break;
              case P_LBRACE: {
                // What the brace opens decides what a `/` after its `}` means (classifyOpenBrace).
                let braceKind: number;
                if (expressionBody) braceKind = BRACE_FUNCTION_EXPRESSION;
                else if (this.pendingClass && braceDepth === this.pendingClassBraces && parenDepth + bracketDepth === this.pendingClassGroups) {
                  this.pendingClass = false;
                  braceKind = this.pendingClassExpression ? BRACE_CLASS_EXPRESSION : BRACE_CLASS_DECLARATION;
                } else braceKind = classifyOpenBrace(prevKind, prevCode, prevKey || wasMember, newline, regexAllowed, statementStart, braceKinds[braceDepth - 1]!, wordFlags);
                if (braceDepth === braceKinds.length) {
                  this.growBraces();
                  braceKinds = this.braceKinds;
                  braceGroups = this.braceGroups;
                }
                braceKinds[braceDepth] = braceKind;
                this.braceStarts[braceDepth] = start;
                braceGroups[braceDepth] = parenDepth + bracketDepth;
                this.braceTernaries[braceDepth] = 0;
                braceDepth++;
                regexAllowed = true;
                statementStart = braceKind === BRACE_BLOCK || braceKind === BRACE_FUNCTION_EXPRESSION;
                break;
              }
              case P_RBRACE: {
                // Never pops the module sentinel; an unmatched `}` ends a statement.
                let braceKind = BRACE_BLOCK;
                if (braceDepth === 1) this.error('unbalanced-bracket', start);
                else braceKind = braceKinds[--braceDepth]!;
                if (this.pendingClass && braceDepth < this.pendingClassBraces) this.pendingClass = false;
                const endsStatement = braceKind === BRACE_BLOCK || braceKind === BRACE_CLASS_DECLARATION || braceKind === BRACE_MODULE;
                regexAllowed = endsStatement;
                statementStart = endsStatement;
                break;
              }
              case P_INCREMENT:
              case P_DECREMENT:
                // regexAllowed unchanged: prefix keeps expecting an operand, postfix an operator.
                statementStart = false;
                break;
              case P_QUESTION:
                if (parenDepth + bracketDepth === braceGroups[braceDepth - 1]) this.braceTernaries[braceDepth - 1]!++;
                regexAllowed = true;
                statementStart = false;
                break;
              case P_COLON: {
                // A label or `case x:` (a statement follows) only directly in a block, when no `?` waits for it.
                const braceKind = braceKinds[braceDepth - 1];
                let statement = false;
                if (parenDepth + bracketDepth === braceGroups[braceDepth - 1]) {
                  if (this.braceTernaries[braceDepth - 1]! > 0) this.braceTernaries[braceDepth - 1]!--;
                  else statement = braceKind === BRACE_BLOCK || braceKind === BRACE_MODULE || braceKind === BRACE_FUNCTION_EXPRESSION;
                }
                regexAllowed = true;
                statementStart = statement;
                break;
              }
              case P_SEMICOLON:
                regexAllowed = true;
                statementStart = true;
                break;
              default:
                regexAllowed = true;
                statementStart = false;
            }
          }
        } else if (kind === TOKEN_KEYWORD) {
          pendingExpressionBody = false;
          if (afterDot || key) {
            // A property name spelled like a keyword.
            prevIsMember = afterDot;
            regexAllowed = false;
            statementStart = false;
            pendingFunctionExpression = false;
          } else {
            if (code === W_FUNCTION) {
              let regex = regexAllowed;
              let statement = statementStart;
              if (prevKind === TOKEN_IDENTIFIER && prevCode === W_ASYNC && !wasMember) {
                regex = prevRegexAllowedBefore;
                statement = prevStatementStartBefore;
              }
              pendingFunctionExpression = regex && !statement;
            } else {
              pendingFunctionExpression = false;
            }
            if (code === W_CLASS) {
              this.pendingClass = true;
              this.pendingClassExpression = regexAllowed && !statementStart;
              this.pendingClassBraces = braceDepth;
              this.pendingClassGroups = parenDepth + bracketDepth;
            }
            const flags = wordFlags[code]!;
            regexAllowed = (flags & WF_VALUE) === 0;
            statementStart = (flags & WF_STATEMENT) !== 0;
          }
        } else if (kind === TOKEN_TEMPLATE_HEAD || kind === TOKEN_TEMPLATE_MIDDLE) {
          pendingFunctionExpression = false;
          pendingExpressionBody = false;
          regexAllowed = true;
          statementStart = false;
          // A `${` opens a 'template' brace; its `}` resumes the template (above).
          if (braceDepth === braceKinds.length) {
            this.growBraces();
            braceKinds = this.braceKinds;
            braceGroups = this.braceGroups;
          }
          braceKinds[braceDepth] = BRACE_TEMPLATE;
          this.braceStarts[braceDepth] = end - 2;
          braceGroups[braceDepth] = parenDepth + bracketDepth;
          this.braceTernaries[braceDepth] = 0;
          braceDepth++;
        } else {
          // number, string, regex, template, template-tail, private-name
          pendingFunctionExpression = false;
          pendingExpressionBody = false;
          regexAllowed = false;
          statementStart = false;
        }
        prevPrevKind = prevKind;
        prevPrevCode = prevCode;
        prevPrevKey = prevKey;
        prevKind = kind;
        prevCode = code;
        prevKey = key;
        prevRegexAllowedBefore = regexBefore;
        prevStatementStartBefore = statementBefore;
      }

      // ===== record the token; return it unless it is skipped or uninteresting
      if (kind === TOKEN_LINE_COMMENT || kind === TOKEN_BLOCK_COMMENT || kind === TOKEN_HASHBANG) {
        if (skipComments) continue;
      }
      const slot = count & RING_MASK;
      ringKinds[slot] = kind;
      ringCodes[slot] = code;
      ringStarts[slot] = start;
      ringEnds[slot] = end;
      ringFlags[slot] = (newline ? FLAG_NEWLINE : 0) | (escaped ? FLAG_ESCAPED : 0) | (key ? FLAG_KEY : 0);
      count++;
      if (stopWords === null || kind === TOKEN_EOF || (kind <= TOKEN_KEYWORD && stopWords[code] === 1)) break;
    }

    this.count = count;
    this.pos = p;
    this.pendingNewline = pendingNewline;
    this.regexAllowed = regexAllowed;
    this.statementStart = statementStart;
    this.prevKind = prevKind;
    this.prevCode = prevCode;
    this.prevKey = prevKey;
    this.prevPrevKind = prevPrevKind;
    this.prevPrevCode = prevPrevCode;
    this.prevPrevKey = prevPrevKey;
    this.prevIsMember = prevIsMember;
    this.prevRegexAllowedBefore = prevRegexAllowedBefore;
    this.prevStatementStartBefore = prevStatementStartBefore;
    this.pendingFunctionExpression = pendingFunctionExpression;
    this.pendingExpressionBody = pendingExpressionBody;
    this.braceDepth = braceDepth;
    this.parenDepth = parenDepth;
    this.bracketDepth = bracketDepth;
    this.kind = kind;
    this.code = code;
    this.start = start;
    this.end = end;
    this.newlineBefore = newline;
    this.escaped = escaped;
    this.key = key;
    return kind;
  }

  // ===== end of input ==========================================================

  /** Anything still open at the end is a syntax error; reports the innermost opener (once). */
  private finishBrackets(): void {
    this.finished = true;
    let open = -1;
    if (this.braceDepth > 1) open = this.braceStarts[this.braceDepth - 1]!;
    if (this.parenDepth > 0) open = Math.max(open, this.parenStarts[this.parenDepth - 1]!);
    if (this.bracketDepth > 0) open = Math.max(open, this.bracketStarts[this.bracketDepth - 1]!);
    if (open >= 0) this.error('unclosed-bracket', open);
  }

  /** The `eof` token again, after the end (recorded like any other token). */
  private eof(): number {
    const n = this.text.length;
    const slot = this.count & RING_MASK;
    this.ringKinds[slot] = TOKEN_EOF;
    this.ringCodes[slot] = 0;
    this.ringStarts[slot] = n;
    this.ringEnds[slot] = n;
    this.ringFlags[slot] = this.newlineBefore ? FLAG_NEWLINE : 0;
    this.count++;
    return TOKEN_EOF;
  }

  private error(kind: JsLexErrorKind, offset: number): void {
    if (this.errors.length < MAX_LEX_ERRORS) this.errors.push({ kind, offset });
  }

  private growBraces(): void {
    this.braceKinds = grow(this.braceKinds);
    this.braceStarts = grow(this.braceStarts);
    this.braceGroups = grow(this.braceGroups);
    this.braceTernaries = grow(this.braceTernaries);
  }

  private growParens(): void {
    this.parenKinds = grow(this.parenKinds);
    this.parenStarts = grow(this.parenStarts);
  }

  // ===== 12.4 Comments =========================================================

  /** SingleLineComment (and HashbangComment) from `start`: the end, before the line terminator. */
  private lineCommentEnd(start: number): number {
    // A native search: the comment ends at the first LF, CR, LS or PS, so it reads no further than the comment.
    LINE_TERMINATOR.lastIndex = start + 2;
    return LINE_TERMINATOR.test(this.text) ? LINE_TERMINATOR.lastIndex - 1 : this.text.length;
  }

  /** MultiLineComment from `start`: the end, after the `*\/` (or the end of the text, recorded unterminated). */
  private blockCommentEnd(start: number): number {
    const close = this.text.indexOf('*/', start + 2);
    if (close >= 0) return close + 2;
    this.error('unterminated-comment', start);
    return this.text.length;
  }

  // ===== 12.9.6 Template Literal Lexical Components ============================

  /**
   * From `from` (just after a backtick or a substitution's `}`) to the closing backtick
   * or the next `${`: returns `end * 2 + 1` when it stops at `${` (a head or middle),
   * `end * 2` otherwise. Line terminators are allowed; unterminated runs to the end.
   */
  private template(start: number, from: number): number {
    const text = this.text;
    const n = text.length;
    let p = from;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === 0x60) return (p + 1) * 2;
      if (c === 0x24 && text.charCodeAt(p + 1) === 0x7b) return (p + 2) * 2 + 1;
      p += c === 0x5c ? 2 : 1;
    }
    this.error('unterminated-template', start);
    return n * 2;
  }

  // ===== 12.9.3 Numeric Literals ===============================================

  /**
   * NumericLiteral from `start`, returning its end: decimal (with fraction and exponent),
   * `0x`/`0o`/`0b`, BigInt `n`, separators `_` between digits. Legacy octal (`017`) and
   * NonOctalDecimalIntegerLiteral (`08`) are syntax errors in strict code: recorded, and
   * lexed as decimals.
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
    return p;
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
   * The general IdentifierName (or PrivateIdentifier, from its `#` at `start`) with
   * `\u` escapes and non-ASCII characters, from `nameStart`: returns the end and leaves
   * the decoded name in `decodedName`. An escaped name is never a keyword: `\u0069mport`
   * is the identifier "import" (as a keyword it would be a syntax error).
   */
  private escapedName(nameStart: number): number {
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
    this.escapedNameHadEscape = pieces !== null;
    this.decodedName = pieces === null ? text.slice(nameStart, p) : pieces.join('') + text.slice(pieceStart, p);
    return p;
  }

  // ===== 12.9.5 Regular Expression Literals ====================================

  /**
   * RegularExpressionLiteral from `start`, returning its end: body up to an unescaped `/`
   * outside a class (`/[/]/` is one literal), then flags (IdentifierPartChar). A line
   * terminator ends it unterminated.
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
    return p;
  }
}

/** Whether `text[from, to)` holds a line terminator: a MultiLineComment holding one counts as one for ASI (12.4, 12.10). */
function hasLineTerminator(text: string, from: number, to: number): boolean {
  // Bounded by the comment: a search to the end of the text would make a line of many `/* */` comments quadratic.
  for (let p = from; p < to; p++) {
    if (isLineTerminator(text.charCodeAt(p))) return true;
  }
  return false;
}

/**
 * What a `{` opens, from the token before it, when it is neither a function
 * expression's body nor a class body (the classic heuristic; a parser would know, a
 * lexer has to guess). `prevIsName` is true when the previous token is a property name
 * (a key, or a member after `.`).
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
function classifyOpenBrace(prevKind: number, prevCode: number, prevIsName: boolean, newline: boolean, regexAllowed: boolean, statementStart: boolean, outer: number, wordFlags: Uint8Array): number {
  switch (prevKind) {
    case TOKEN_NONE:
      return BRACE_BLOCK;
    case TOKEN_PUNCTUATOR:
      switch (prevCode) {
        case P_RPAREN:
        case P_ARROW:
        case P_SEMICOLON:
        case P_RBRACE:
          return BRACE_BLOCK;
        case P_LBRACE:
          // prev is the brace now on top of the stack (`outer`).
          return outer === BRACE_BLOCK || outer === BRACE_MODULE || outer === BRACE_FUNCTION_EXPRESSION ? BRACE_BLOCK : BRACE_OBJECT;
        case P_COLON:
          return statementStart ? BRACE_BLOCK : BRACE_OBJECT;
        default:
          return BRACE_OBJECT;
      }
    case TOKEN_KEYWORD:
      if (prevIsName) return newline ? BRACE_BLOCK : BRACE_OBJECT;
      if (prevCode === W_RETURN || prevCode === W_YIELD) return newline ? BRACE_BLOCK : BRACE_OBJECT;
      return (wordFlags[prevCode]! & WF_EXPRESSION) !== 0 ? BRACE_OBJECT : BRACE_BLOCK;
    case TOKEN_IDENTIFIER:
      if (regexAllowed && !newline) return BRACE_OBJECT; // `for (x of {...})`
      return BRACE_BLOCK;
    case TOKEN_TEMPLATE_HEAD:
    case TOKEN_TEMPLATE_MIDDLE:
      return BRACE_OBJECT;
    default:
      return newline ? BRACE_BLOCK : BRACE_OBJECT;
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
