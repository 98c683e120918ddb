// ECMAScript lexer for module code (ECMA-262 clause 12), to find imports and a few names reliably: it never guesses where a
// string, comment, template or regex starts or ends. The one parser question (regex or division) is a heuristic, see
// `significant` and `classifyOpenBrace`. Linear time, never throws; an unterminated construct ends its token and goes to
// `errors`. Module code only: `<!--` lexes as `<`, `!`, `--`. A fresh process spends most of a scan compiling the lexer,
// so the hot path allocates nothing per token (a typed-array ring) and each helper has one caller.

export type JsTokenType =
  | 'identifier'
  | 'keyword'
  | 'private-name'
  | 'punctuator'
  | 'number'
  | 'string'
  | 'template'
  | 'template-head'
  | 'template-middle'
  | 'template-tail'
  | 'regex'
  | 'line-comment'
  | 'block-comment'
  | 'hashbang'
  | 'invalid'
  | 'eof';

export interface JsToken {
  readonly type: JsTokenType;
  readonly start: number;
  readonly end: number;
  /** Names: `\u` escapes decoded; punctuators: their text; else '' (see cookString/cookTemplate). */
  readonly value: string;
  readonly newlineBefore: boolean;
  /** An identifier spelled with `\u` escapes. Such a name is never a keyword (an escaped keyword is a syntax error). */
  readonly escaped: boolean;
  /** Where an object literal or class body expects a property name (`{fetch: 1}`); name-like tokens only. */
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

// The codes are `const enum`s: esbuild inlines each use as a literal, cheaper than a variable read before V8 optimises.

/** Errors recorded per source; the policy reports only the first, so a flood of garbage stays cheap. */
const MAX_LEX_ERRORS = 100;

/** Token kinds (JS_TOKEN_TYPES names them); the name-like ones first, so `kind <= Token.Number` means "may be a key". */
export const enum Token {
  Identifier = 0,
  Keyword = 1,
  PrivateName = 2,
  String = 3,
  Number = 4,
  Punctuator = 5,
  Template = 6,
  TemplateHead = 7,
  TemplateMiddle = 8,
  TemplateTail = 9,
  Regex = 10,
  LineComment = 11,
  BlockComment = 12,
  Hashbang = 13,
  Invalid = 14,
  Eof = 15,
  None = -1,
}

export const JS_TOKEN_TYPES: readonly JsTokenType[] = [
  'identifier', 'keyword', 'private-name', 'string', 'number', 'punctuator', 'template', 'template-head',
  'template-middle', 'template-tail', 'regex', 'line-comment', 'block-comment', 'hashbang', 'invalid', 'eof',
];

/** Punctuator codes (12.8), PUNCTUATORS[code] the text; the goal heuristic's come first, from 19 on an operand follows. */
export const enum Punct {
  LBrace = 0,
  RBrace = 1,
  LParen = 2,
  RParen = 3,
  LBracket = 4,
  RBracket = 5,
  Semicolon = 6,
  Comma = 7,
  Colon = 8,
  Question = 9,
  Dot = 10,
  OptionalChain = 11,
  Arrow = 12,
  Star = 13,
  Assign = 14,
  Increment = 15,
  Decrement = 16,
  Slash = 17,
  SlashAssign = 18,
  Ellipsis = 21,
}

/** Word ids (JsWords): reserved words 1..46 in RESERVED_WORDS order, then CONTEXTUAL_WORDS (the lexer test checks each). */
export const enum Word {
  Await = 1,
  Catch = 4,
  Class = 5,
  Const = 6,
  Default = 9,
  False = 16,
  Export = 14,
  For = 18,
  Function = 19,
  If = 20,
  Import = 21,
  In = 22,
  Instanceof = 23,
  New = 24,
  Null = 25,
  Return = 26,
  This = 29,
  True = 31,
  Typeof = 33,
  Var = 34,
  While = 36,
  With = 37,
  Yield = 38,
  Let = 41,
  Async = 47,
  Of = 48,
}

const enum WordFlag {
  Reserved = 1,
  Value = 2,
  Expression = 4,
  Modifier = 8,
  Statement = 16,
}

const enum WordTable {
  /** log2 of the word hash table size: 1024 slots keep it at most 1/4 full, so a miss is one load. */
  SlotBits = 10,
  SlotMask = 1023,
  MaxWords = 256,
}

/** What an open `{` is (classifyOpenBrace), deciding a `/` after its `}`: a statement ends after Block and ClassDeclaration
 *  (regex), an expression after Object, FunctionExpression, ClassExpression (division); Template's `}` resumes the template. */
const enum Brace {
  Module = 0,
  Block = 1,
  Object = 2,
  Template = 3,
  FunctionExpression = 4,
  ClassDeclaration = 5,
  ClassExpression = 6,
}

/** What an open `(` is: after Condition's or For's `)` a statement follows (regex); FunctionParams' `{` is a function-expression
 *  body; DeclarationParams' names are bindings; inside For, `of` is a keyword. */
const enum Paren {
  Normal = 0,
  Condition = 1,
  For = 2,
  FunctionParams = 3,
  DeclarationParams = 4,
}

const STACK_CAPACITY = 64;

const enum Ch {
  Other = 0,
  Space = 1,
  Line = 2,
  Name = 3,
  Digit = 4,
  Quote = 5,
  Slash = 6,
  Backtick = 7,
  Hash = 8,
  CloseBrace = 9,
  Dot = 10,
  Backslash = 11,
}

/** The token ring: the last Ring.Size tokens at slot `(count - 1) & Ring.Mask`, so callers look back without objects. */
export const enum Ring {
  /** A power of two. */
  Size = 32,
  Mask = 31,
}

export const enum TokenFlag {
  Newline = 1,
  Escaped = 2,
  Key = 4,
  /** An identifier bound where the lexer sees it (isBinding): declarator, function, class, catch, parameter or pattern
   *  name; a shorthand-looking key before `:` (`{fetch: f}`) carries it too, for the caller to tell apart. */
  Binding = 8,
  /** No brace or function parameter list is open around the token (`this` in a default parameter is the call's). */
  TopLevel = 16,
}

export const PUNCTUATORS: readonly string[] = [
  '{', '}', '(', ')', '[', ']', ';', ',', ':', '?', '.', '?.', '=>', '*', '=', '++', '--', '/', '/=',
  '~', '@', '...', '<', '<<', '<<=', '<=', '>', '>>', '>>=', '>>>', '>>>=', '>=', '==', '===', '!', '!=', '!==',
  '+', '+=', '-', '-=', '**', '**=', '*=', '%', '%=', '&', '&&', '&&=', '&=', '|', '||', '||=', '|=', '^', '^=',
  '??', '??=',
];

const PUNCTUATOR_LENGTH = Uint8Array.from(PUNCTUATORS, (p) => p.length);

/** ASCII -> 1 + the code of the one-character punctuator it always is (`(` `[` `{` `;` `,` …): no trie walk. */
const SINGLE_PUNCTUATOR = new Uint8Array(128);
for (const p of ['(', ')', '[', ']', '{', ';', ',', ':', '~', '@']) SINGLE_PUNCTUATOR[p.charCodeAt(0)] = PUNCTUATORS.indexOf(p) + 1;

/** ReservedWord (12.7.2) plus the words reserved in strict mode code (13.1.1), which module code always is. */
const RESERVED_WORDS: readonly string[] = [
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do',
  'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in',
  'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof',
  'var', 'void', 'while', 'with', 'yield',
  'implements', 'interface', 'let', 'package', 'private', 'protected', 'public', 'static',
];

const CONTEXTUAL_WORDS: readonly string[] = ['async', 'of', 'get', 'set'];

const VALUE_KEYWORDS: readonly string[] = ['this', 'super', 'null', 'true', 'false'];
const EXPRESSION_KEYWORDS: readonly string[] = [
  'case', 'typeof', 'in', 'instanceof', 'new', 'delete', 'void', 'throw', 'default', 'extends', 'await',
  'return', 'yield',
  // Declarations: `const {a, b} = x` opens a pattern, which reads like an object literal.
  'const', 'let', 'var',
];
const KEY_MODIFIERS: readonly string[] = ['get', 'set', 'async', 'static'];
const STATEMENT_KEYWORDS: readonly string[] = ['else', 'do', 'export', 'default'];

function wordKey(first: number, last: number, length: number): number {
  return ((first & 0xffff) << 16) ^ ((last & 0xffff) << 6) ^ length;
}

function wordSlot(key: number): number {
  return Math.imul(key, 0x9e3779b1) >>> (32 - WordTable.SlotBits);
}

/** Names a lexer recognises, each with a small id (0: any other), so no token is sliced or compared; build once, share. */
export class JsWords {
  /** Id -> name; id 0 is every other name. */
  readonly names: readonly string[];
  /** Id -> WordFlag bits. */
  readonly flags: Uint8Array;
  /** Open addressing by wordSlot(wordKey(...)): slot -> id (0 = empty). */
  readonly slots: Uint16Array;
  /** Slot -> the wordKey of the word in it, so most collisions are told apart without reading text. */
  readonly keys: Int32Array;
  private readonly ids = new Map<string, number>();

  constructor(extra: Iterable<string> = []) {
    const names: string[] = [''];
    for (const name of [...RESERVED_WORDS, ...CONTEXTUAL_WORDS, ...extra]) {
      if (name === '' || this.ids.has(name) || names.length >= WordTable.MaxWords) continue;
      this.ids.set(name, names.length);
      names.push(name);
    }
    this.names = names;
    this.flags = new Uint8Array(names.length);
    this.slots = new Uint16Array(1 << WordTable.SlotBits);
    this.keys = new Int32Array(1 << WordTable.SlotBits);
    const mark = (list: readonly string[], flag: number): void => {
      for (const name of list) this.flags[this.ids.get(name)!]! |= flag;
    };
    mark(RESERVED_WORDS, WordFlag.Reserved);
    mark(VALUE_KEYWORDS, WordFlag.Value);
    mark(EXPRESSION_KEYWORDS, WordFlag.Expression);
    mark(KEY_MODIFIERS, WordFlag.Modifier);
    mark(STATEMENT_KEYWORDS, WordFlag.Statement);
    for (let id = 1; id < names.length; id++) {
      const name = names[id]!;
      const key = wordKey(name.charCodeAt(0), name.charCodeAt(name.length - 1), name.length);
      let slot = wordSlot(key);
      while (this.slots[slot] !== 0) slot = (slot + 1) & WordTable.SlotMask;
      this.slots[slot] = id;
      this.keys[slot] = key;
    }
  }

  /** The id of `name`, 0 when it is not one of the words. */
  id(name: string): number {
    return this.ids.get(name) ?? 0;
  }

  /** The id of the ASCII name `text[start, end)`, 0 when it is not one of the words; nothing is sliced. */
  idAt(text: string, start: number, end: number): number {
    const length = end - start;
    const key = wordKey(text.charCodeAt(start), text.charCodeAt(end - 1), length);
    for (let slot = wordSlot(key); ; slot = (slot + 1) & WordTable.SlotMask) {
      const id = this.slots[slot]!;
      if (id === 0) return 0;
      if (this.keys[slot] === key) {
        const name = this.names[id]!;
        if (name.length === length && text.startsWith(name, start)) return id;
      }
    }
  }
}

const LEXER_WORDS = new JsWords();

/** Typed-array stacks: `{` repeated millions of times stays cheap, and the GC never traces typed-array memory. */
function grow(stack: Int32Array): Int32Array {
  const grown = new Int32Array(stack.length * 2);
  grown.set(stack);
  return grown;
}

function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

function isNonAsciiWhiteSpace(c: number): boolean {
  return c === 0xa0 || c === 0xfeff || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;
}

function isDecimalDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

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

function isIdentifierStart(cp: number): boolean {
  if (cp < 0x80) return isAsciiIdentifierStart(cp);
  return ID_START.test(String.fromCodePoint(cp));
}

function isIdentifierPart(cp: number): boolean {
  if (cp < 0x80) return isAsciiIdentifierPart(cp);
  return cp === 0x200c || cp === 0x200d || ID_CONTINUE.test(String.fromCodePoint(cp));
}

function isRadixDigit(c: number, radix: number): boolean {
  if (radix === 16) return isHexDigit(c);
  if (radix === 8) return c >= 0x30 && c <= 0x37;
  return c === 0x30 || c === 0x31;
}

const CHAR_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (ASCII_ID[c] === 1) CHAR_CLASS[c] = Ch.Name;
  else if (ASCII_ID[c] === 2) CHAR_CLASS[c] = Ch.Digit;
}
CHAR_CLASS[0x20] = CHAR_CLASS[0x09] = CHAR_CLASS[0x0b] = CHAR_CLASS[0x0c] = Ch.Space;
CHAR_CLASS[0x0a] = CHAR_CLASS[0x0d] = Ch.Line;
CHAR_CLASS[0x22] = CHAR_CLASS[0x27] = Ch.Quote;
CHAR_CLASS[0x2f] = Ch.Slash;
CHAR_CLASS[0x60] = Ch.Backtick;
CHAR_CLASS[0x23] = Ch.Hash;
CHAR_CLASS[0x7d] = Ch.CloseBrace;
CHAR_CLASS[0x2e] = Ch.Dot;
CHAR_CLASS[0x5c] = Ch.Backslash;

/** Global regexes for native searches: `lastIndex` is set before each use. */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/g;
const TEMPLATE_SPECIAL = /[`\\$]/g;

/** Punctuators (12.8) as an ASCII trie (node * 128 + char -> child; PUNCTUATOR_AT_NODE: code or -1): small to compile. */
const PUNCTUATOR_TRIE: Int16Array = new Int16Array(128 * 128);
const PUNCTUATOR_AT_NODE: Int8Array = new Int8Array(128).fill(-1);
{
  let nodes = 1;
  PUNCTUATORS.forEach((text, code) => {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const at = node * 128 + text.charCodeAt(i);
      if (PUNCTUATOR_TRIE[at] === 0) PUNCTUATOR_TRIE[at] = nodes++;
      node = PUNCTUATOR_TRIE[at]!;
    }
    PUNCTUATOR_AT_NODE[node] = code;
  });
}

/** Punctuator (12.8), longest match: the code or -1. The caller handles `}` and `/`; `?.` before a digit is a conditional. */
function punctuatorAt(text: string, p: number): number {
  let node = 0;
  let code = -1;
  for (let i = p; i < p + 4; i++) {
    const c = text.charCodeAt(i);
    // `c < 0x80` is false past the end too (NaN).
    if (!(c < 0x80)) break;
    node = PUNCTUATOR_TRIE[node * 128 + c]!;
    if (node === 0) break;
    const here = PUNCTUATOR_AT_NODE[node]!;
    if (here >= 0) code = here;
  }
  if (code === Punct.OptionalChain && isDecimalDigit(text.charCodeAt(p + 2))) return Punct.Question;
  return code;
}

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
  readonly words?: JsWords;
  readonly skipComments?: boolean;
  /** Where to start lexing (default 0): a statement's first token, read with a fresh goal state. */
  readonly start?: number;
  /** Mark TokenFlag.Binding on every identifier, not only on those with a word id (all a policy needs). */
  readonly allBindings?: boolean;
}

export class JsLexer {
  /** Lexical errors in source order (at most MAX_LEX_ERRORS). */
  readonly errors: JsLexError[] = [];

  // --- every token produced so far, the last Ring.Size of them kept (see Ring.Size) ---
  /** Tokens produced so far; the newest (the one scan() returned) is at slot `(count - 1) & Ring.Mask`. */
  count = 0;
  readonly ringKinds = new Int32Array(Ring.Size);
  readonly ringCodes = new Int32Array(Ring.Size);
  readonly ringStarts = new Int32Array(Ring.Size);
  readonly ringEnds = new Int32Array(Ring.Size);
  readonly ringFlags = new Uint8Array(Ring.Size);
  /** Offset of the innermost brace open around the token (`{` or a template's `${`), -1 at the top level: which object literal a key belongs to. */
  readonly ringBraces = new Int32Array(Ring.Size);

  readonly words: JsWords;
  private readonly text: string;
  private readonly skipComments: boolean;
  private readonly allBindings: boolean;
  private pos = 0;
  private finished = false;
  /** Set by escapedName (in otherToken): the name held a `\u` escape; `decodedName` is the name. */
  private escaped = false;
  private decodedName = '';
  /** Set by otherToken: the kind and code of the token it lexed. */
  private otherKind = Token.Eof;
  private otherCode = 0;

  // Newline seen since the last significant token (for newlineBefore and ASI-aware choices).
  private pendingNewline = false;

  // --- the regular-expression goal state (see `significant`)
  /** A `/` here starts a RegularExpressionLiteral (InputElementRegExp), else it divides. */
  private regexAllowed = true;
  /** The next token starts a statement (so `function`/`class` there is a declaration). */
  private statementStart = true;
  /** The previous significant token and the one before it: kind (Token.None for none), code, key. */
  private prevKind = Token.None;
  private prevCode = 0;
  private prevKey = false;
  private prevPrevKind = Token.None;
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
  /** The nesting (see `nesting`) just inside each open paren. */
  private parenNestings: Int32Array = new Int32Array(STACK_CAPACITY);
  /** Open parameter lists of functions (Paren.FunctionParams, Paren.DeclarationParams): no token in one is at the top level. */
  private functionParens = 0;
  private bracketDepth = 0;
  private bracketStarts: Int32Array = new Int32Array(STACK_CAPACITY);

  // --- function and class expressions (their `}` ends an expression: `/` after it divides)
  private pendingFunctionExpression = false;
  private pendingExpressionBody = false;
  private pendingClass = false;
  private pendingClassExpression = false;
  private pendingClassBraces = 0;
  private pendingClassGroups = 0;

  // --- bindings (TokenFlag.Binding)
  /** After `function` (and its name or `*`) or `catch`: the next `(` opens a parameter list. */
  private pendingParams = false;
  /**
   * Open `var`/`let`/`const` declarations, innermost last: the nesting of the keyword
   * times two, plus one while declarator names are being read (up to a `=` at that
   * nesting; a `,` there starts the next declarator). A declaration ends at `;`, at `in`
   * or `of` in a `for` head, when a bracket around it closes, or where automatic
   * semicolon insertion ends it (a line break before a token that cannot continue it).
   */
  private declarations: Int32Array = new Int32Array(STACK_CAPACITY);
  private declarationCount = 0;
  /** The innermost open declaration's entry (declarations[declarationCount - 1]), -2 when none: `>> 1` is then -1, below any nesting. */
  private declarationTop = -2;

  constructor(text: string, options: JsLexerOptions = {}) {
    this.text = text;
    this.words = options.words ?? LEXER_WORDS;
    this.skipComments = options.skipComments === true;
    this.allBindings = options.allBindings === true;
    this.pos = options.start ?? 0;
    // A skipped hashbang is stepped over here, once, rather than looked for at every token.
    if (this.pos === 0 && this.skipComments && isHashbangAt(text, text.charCodeAt(0) === 0xfeff ? 1 : 0)) this.pos = this.lineCommentEnd(text.charCodeAt(0) === 0xfeff ? 1 : 0);
    this.braceKinds[0] = Brace.Module;
    this.braceDepth = 1;
  }

  /** The next token as a JsToken, comments included unless `skipComments`; `eof` (repeatedly) at the end. */
  next(): JsToken {
    const kind = this.scan();
    const slot = (this.count - 1) & Ring.Mask;
    const start = this.ringStarts[slot]!;
    const end = this.ringEnds[slot]!;
    const flags = this.ringFlags[slot]!;
    const escaped = (flags & TokenFlag.Escaped) !== 0;
    let value = '';
    if (kind <= Token.PrivateName) {
      value = escaped ? this.decodedName : this.text.slice(kind === Token.PrivateName ? start + 1 : start, end);
    } else if (kind === Token.Punctuator) {
      value = PUNCTUATORS[this.ringCodes[slot]!]!;
    }
    return { type: JS_TOKEN_TYPES[kind]!, start, end, value, newlineBefore: (flags & TokenFlag.Newline) !== 0, escaped, key: (flags & TokenFlag.Key) !== 0 };
  }

  /** The name of the last token lexed when it held a `\u` escape (decoded), else null. */
  lastEscapedName(): string | null {
    return this.escaped ? this.decodedName : null;
  }

  /** Lexes the next token into the ring (see Ring.Size) and returns its kind; Token.Eof (repeatedly) at the end. */
  scan(): number {
    return this.finished ? this.eof() : this.token();
  }

  /**
   * Lexes tokens (each into the ring) until one is an identifier or keyword whose word id
   * is set in `stopWords`, `this` at the top level (TokenFlag.TopLevel), a literal
   * isStopLiteral accepts, or the end, and returns its kind. A
   * caller that cares about a few names skips everything else at the lexer's own pace.
   */
  scanUntil(stopWords: Uint8Array): number {
    if (this.finished) return this.eof();
    // Only this loop is compiled on the stack (OSR) for a long run; `token` is compiled once, on its own.
    for (;;) {
      const kind = this.token();
      const slot = (this.count - 1) & Ring.Mask;
      if (kind === Token.Eof || (kind <= Token.Keyword && stopWords[this.ringCodes[slot]!] === 1)) return kind;
      if (kind === Token.Keyword && this.ringCodes[slot] === Word.This && this.braceDepth === 1 && this.functionParens === 0) return kind;
      if ((kind === Token.String || kind === Token.Template || kind === Token.TemplateHead) && isStopLiteral(this.text, kind, this.ringStarts[slot]!)) return kind;
    }
  }

  /** Open `var`/`let`/`const` declarations around the last token lexed (0: none). */
  get openDeclarations(): number {
    return this.declarationCount;
  }

  /**
   * The lexer proper: one token, recorded in the ring; returns its kind. It holds only
   * the character-level work; what a token does to the goal state is `significant`,
   * called from this one place, so each piece is compiled once by V8 and no helper is
   * copied into many callers (in a fresh process, compiling is most of the cost of a
   * scan: bench/scan-speed-js.mjs).
   */
  private token(): number {
    const text = this.text;
    const n = text.length;
    const words = this.words;
    const skipComments = this.skipComments;
    // Module-level tables through locals: TurboFan then checks each once per token, not at every character.
    const charClass = CHAR_CLASS;
    const asciiId = ASCII_ID;
    let p = this.pos;
    let newline = this.pendingNewline;
    let c = 0;
    let cls = 0;
    for (;;) {
      if (p >= n) break;
      c = text.charCodeAt(p);
      if (c < 0x80) {
        cls = charClass[c]!;
        if (cls === Ch.Space) {
          p++;
          continue;
        }
        if (cls === Ch.Line) {
          newline = true;
          p++;
          continue;
        }
        if (cls === Ch.Slash && skipComments) {
          const c1 = text.charCodeAt(p + 1);
          if (c1 === 0x2f) {
            p = this.lineCommentEnd(p);
            continue;
          }
          if (c1 === 0x2a) {
            // A MultiLineComment holding a line terminator counts as one (12.4, 12.10).
            const close = this.blockCommentEnd(p);
            if (!newline) newline = hasLineTerminator(text, p + 2, close);
            p = close;
            continue;
          }
        }
        break;
      }
      if (c === 0x2028 || c === 0x2029) {
        newline = true;
        p++;
        continue;
      }
      if (isNonAsciiWhiteSpace(c)) {
        p++;
        continue;
      }
      break;
    }
    const start = p;
    let escaped = false;

    // ===== one token: the common ones here (kind stays -1 for the rest), the rest in otherToken
    let kind = -1;
    let code = 0;
    let end = p;
    if (p < n && c < 0x80) {
      switch (cls) {
        case Ch.Name: {
          // 12.7 IdentifierName, fast path: a plain ASCII name, looked up without slicing it out.
          let q = p + 1;
          let d = text.charCodeAt(q);
          while (d < 0x80 && asciiId[d] !== 0) d = text.charCodeAt(++q);
          if (!(d === 0x5c || (d > 0x7f && q < n))) {
            end = q;
            code = words.idAt(text, p, q);
            kind = (words.flags[code]! & WordFlag.Reserved) !== 0 ? Token.Keyword : Token.Identifier;
          }
          break;
        }
        case Ch.Quote:
          end = this.stringLiteral(p, c);
          kind = Token.String;
          break;
        case Ch.Digit:
          end = this.numericLiteral(p);
          kind = Token.Number;
          break;
        case Ch.Slash: {
          const c1 = text.charCodeAt(p + 1);
          if (c1 !== 0x2f && c1 !== 0x2a && !this.regexAllowed) {
            kind = Token.Punctuator;
            code = c1 === 0x3d ? Punct.SlashAssign : Punct.Slash;
            end = p + (c1 === 0x3d ? 2 : 1);
          }
          break;
        }
        case Ch.Dot:
          if (!isDecimalDigit(text.charCodeAt(p + 1))) {
            kind = Token.Punctuator;
            code = text.charCodeAt(p + 1) === 0x2e && text.charCodeAt(p + 2) === 0x2e ? Punct.Ellipsis : Punct.Dot;
            end = p + PUNCTUATOR_LENGTH[code]!;
          }
          break;
        case Ch.CloseBrace:
          if (this.braceKinds[this.braceDepth - 1] !== Brace.Template) {
            kind = Token.Punctuator;
            code = Punct.RBrace;
            end = p + 1;
          }
          break;
        case Ch.Other:
          code = SINGLE_PUNCTUATOR[c]! - 1;
          if (code >= 0) {
            kind = Token.Punctuator;
            end = p + 1;
            break;
          }
          code = punctuatorAt(text, p);
          if (code >= 0) {
            kind = Token.Punctuator;
            end = p + PUNCTUATOR_LENGTH[code]!;
          }
          break;
      }
    }
    if (kind < 0) {
      end = this.otherToken(p, c);
      kind = this.otherKind;
      code = this.otherCode;
      escaped = this.escaped;
    }
    p = end;

    let marks = 0;
    if (kind < Token.LineComment) {
      marks = this.significant(kind, code, start, end, newline, escaped);
      this.pendingNewline = false;
    } else {
      newline = this.insignificant(kind, start, end, newline);
      this.pendingNewline = newline;
    }
    const slot = this.count & Ring.Mask;
    this.ringKinds[slot] = kind;
    this.ringCodes[slot] = code;
    this.ringStarts[slot] = start;
    this.ringEnds[slot] = end;
    this.ringFlags[slot] = (newline ? TokenFlag.Newline : 0) | (escaped ? TokenFlag.Escaped : 0) | marks | (this.braceDepth === 1 && this.functionParens === 0 ? TokenFlag.TopLevel : 0);
    this.ringBraces[slot] = this.braceDepth > 1 ? this.braceStarts[this.braceDepth - 1]! : -1;
    this.count++;
    this.pos = p;
    return kind;
  }

  /**
   * The tokens `token` leaves out, at `p` (first code unit `c`): the end of the text,
   * names with escapes or non-ASCII characters, private names, templates, regular
   * expressions, comments and the hashbang (when not skipped), and characters no token
   * starts with. Returns the end; the kind and code are left in otherKind and otherCode.
   * Out of the hot function so that V8 compiles the common path small.
   */
  private otherToken(p: number, c: number): number {
    const text = this.text;
    const n = text.length;
    this.otherCode = 0;
    this.escaped = false;
    if (p >= n) {
      this.otherKind = Token.Eof;
      return n;
    }
    if (c >= 0x80 || c === 0x5c || ASCII_ID[c] === 1) {
      if (c >= 0x80 && !isIdentifierStart(text.codePointAt(p)!)) {
        this.otherKind = Token.Invalid;
        return p + (text.codePointAt(p)! > 0xffff ? 2 : 1);
      }
      const end = this.escapedName(p);
      this.otherCode = this.words.id(this.decodedName);
      this.otherKind = this.nameKind(this.otherCode);
      return end;
    }
    switch (c) {
      case 0x2f: {
        const c1 = text.charCodeAt(p + 1);
        if (c1 === 0x2f) {
          this.otherKind = Token.LineComment;
          return this.lineCommentEnd(p);
        }
        if (c1 === 0x2a) {
          this.otherKind = Token.BlockComment;
          return this.blockCommentEnd(p);
        }
        this.otherKind = Token.Regex;
        return this.regularExpression(p);
      }
      case 0x2e:
        this.otherKind = Token.Number;
        return this.numericLiteral(p);
      case 0x60: {
        const scanned = this.template(p, p + 1);
        this.otherKind = (scanned & 1) === 1 ? Token.TemplateHead : Token.Template;
        return scanned >> 1;
      }
      case 0x7d: {
        // The `}` that closes a substitution belongs to the template: TemplateMiddle or TemplateTail.
        this.braceDepth--;
        const scanned = this.template(p, p + 1);
        this.otherKind = (scanned & 1) === 1 ? Token.TemplateMiddle : Token.TemplateTail;
        return scanned >> 1;
      }
      case 0x23: {
        // HashbangComment only at the very start (12.5); a BOM before it is no character of the source.
        const after = text.codePointAt(p + 1);
        if (isHashbangAt(text, p)) {
          this.otherKind = Token.Hashbang;
          return this.lineCommentEnd(p);
        }
        if (after !== undefined && (after === 0x5c || isIdentifierStart(after))) {
          const end = this.escapedName(p + 1);
          this.otherCode = this.words.id(this.decodedName);
          this.otherKind = Token.PrivateName;
          return end;
        }
        break;
      }
    }
    this.otherKind = Token.Invalid;
    return p + 1;
  }

  /** What a token that is not significant does: the error of an invalid character, the line terminator in a comment, the end. Returns newlineBefore. */
  private insignificant(kind: number, start: number, end: number, newline: boolean): boolean {
    if (kind === Token.Invalid) {
      this.error('invalid-character', start);
    } else if (kind === Token.BlockComment) {
      if (!newline && hasLineTerminator(this.text, start + 2, end)) newline = true;
    } else if (kind === Token.Eof) {
      this.finishBrackets();
    }
    return newline;
  }

  /** An identifier is a keyword when it is an unescaped reserved word (an escaped one is a syntax error, and stays a name). */
  private nameKind(code: number): number {
    return !this.escaped && (this.words.flags[code]! & WordFlag.Reserved) !== 0 ? Token.Keyword : Token.Identifier;
  }

  /**
   * A significant token: decides whether it is a property key (from the state before
   * it), moves the goal state on, and returns the key flag.
   *
   * Keys: a name-like token is a property name of an object literal or class body when
   * it is directly inside one, after `{`, `,`, (class) `;` or `}`, after a modifier
   * (`get`, `set`, `async`, `static`) that was itself in that position, after a generator
   * `*` in that position, or (class) after a line break that ends a field.
   *
   * The goal after the token (regexAllowed: a `/` next starts a regular expression;
   * statementStart: a statement starts next), by token:
   * - none, `;`, `{`, operators and most punctuators, template head/middle: regex.
   * - identifier, number, string, regex, template end, private name, `]`: division.
   *   `a = b\n/re/g.test(c)` therefore divides, as the grammar says (no ASI before `/`).
   * - keyword: regex, except `this`, `super`, `null`, `true`, `false` and a keyword used
   *   as a property name (`x.return / 2`, `{ if: ... }`): division. The identifier `of`
   *   directly inside `for (...)` acts as a keyword.
   * - `)`: regex when it closes `if (`, `while (`, `for (`, `with (` (a statement follows:
   *   `if (x) /re/.test(y)`), else division.
   * - `}`: regex when it closes a block, a function or arrow body or a class declaration
   *   (a statement follows), division when it closes an object literal, a function
   *   expression body or a class expression (an expression ends): see classifyOpenBrace.
   * - `++`/`--`: as before them (prefix: an operand follows; postfix: an operator does).
   *
   * Returns the token's TokenFlag.Key and TokenFlag.Binding bits.
   */
  private significant(kind: number, code: number, start: number, end: number, newline: boolean, escaped: boolean): number {
    const prevKind = this.prevKind;
    const prevCode = this.prevCode;
    const params = this.pendingParams;
    if (params) this.pendingParams = false;
    // ASI ends a declaration: a line break after a complete expression, before a token that cannot continue it.
    if (newline && !this.regexAllowed && this.declarationTop >> 1 === this.nesting()) {
      if (kind === Token.Identifier || kind === Token.Number || kind === Token.String || kind === Token.Template || kind === Token.TemplateHead || (kind === Token.Keyword && code !== Word.In && code !== Word.Instanceof)) {
        this.popDeclaration();
      }
    }
    let key = false;
    if (kind <= Token.Number) {
      const braceKind = this.braceKinds[this.braceDepth - 1];
      if ((braceKind === Brace.Object || braceKind === Brace.ClassDeclaration || braceKind === Brace.ClassExpression) && prevKind !== Token.None && this.atBraceLevel()) {
        const isClass = braceKind !== Brace.Object;
        if (prevKind === Token.Punctuator) {
          if (prevCode === Punct.LBrace || prevCode === Punct.Comma) key = true;
          else if (isClass && (prevCode === Punct.Semicolon || prevCode === Punct.RBrace)) key = true;
          else if (prevCode === Punct.Star) {
            const before = this.prevPrevKind;
            const b = this.prevPrevCode;
            if (before === Token.Punctuator) key = b === Punct.LBrace || b === Punct.Comma || (isClass && (b === Punct.Semicolon || b === Punct.RBrace));
            // Only name-like tokens are keys, and only names have a word code (strings and numbers have 0).
            else key = before !== Token.None && this.prevPrevKey && (this.words.flags[b]! & WordFlag.Modifier) !== 0;
          } else key = isClass && newline && !this.regexAllowed;
        } else if (this.prevKey && (prevKind === Token.Identifier || prevKind === Token.Keyword) && (this.words.flags[prevCode]! & WordFlag.Modifier) !== 0) {
          key = true;
        } else key = isClass && newline && !this.regexAllowed;
      }
    }

    const regexBefore = this.regexAllowed;
    const statementBefore = this.statementStart;
    const afterDot = prevKind === Token.Punctuator && (prevCode === Punct.Dot || prevCode === Punct.OptionalChain);
    const wasMember = this.prevIsMember;
    let binding = false;
    this.prevIsMember = false;
    switch (kind) {
      case Token.Identifier:
        this.prevIsMember = afterDot;
        if (!afterDot) {
          if (code !== 0 || this.allBindings) binding = this.isBinding(prevKind, prevCode, wasMember);
          if (params) this.pendingParams = true;
        }
        if (code === Word.Async && !afterDot) {
          // `async function`: the function's position is the position of `async`; keep the pending flags.
        } else if (!(this.pendingFunctionExpression && !afterDot)) {
          this.pendingFunctionExpression = false;
        }
        this.pendingExpressionBody = false;
        // `of` is `for (x of y)`'s keyword only where an operator is expected; else a name (`i < of / 2`).
        this.regexAllowed = !afterDot && !escaped && code === Word.Of && !key && !regexBefore && this.parenDepth > 0 && this.parenKinds[this.parenDepth - 1] === Paren.For;
        if (this.regexAllowed) this.endDeclarationHere();
        this.statementStart = false;
        break;
      case Token.Punctuator:
        this.afterPunctuator(code, start, newline, wasMember, params);
        break;
      case Token.Keyword:
        this.pendingExpressionBody = false;
        if (afterDot || key) {
          this.prevIsMember = afterDot;
          this.regexAllowed = false;
          this.statementStart = false;
          this.pendingFunctionExpression = false;
        } else {
          this.afterKeyword(code, wasMember);
        }
        break;
      case Token.TemplateHead:
      case Token.TemplateMiddle:
        this.pendingFunctionExpression = false;
        this.pendingExpressionBody = false;
        this.regexAllowed = true;
        this.statementStart = false;
        this.pushBrace(Brace.Template, end - 2);
        break;
      default:
        this.pendingFunctionExpression = false;
        this.pendingExpressionBody = false;
        this.regexAllowed = false;
        this.statementStart = false;
    }
    this.prevPrevKind = prevKind;
    this.prevPrevCode = prevCode;
    this.prevPrevKey = this.prevKey;
    this.prevKind = kind;
    this.prevCode = code;
    this.prevKey = key;
    this.prevRegexAllowedBefore = regexBefore;
    this.prevStatementStartBefore = statementBefore;
    return (key ? TokenFlag.Key : 0) | (binding ? TokenFlag.Binding : 0);
  }

  /** Brackets open around the current position, the module's sentinel brace included. */
  private nesting(): number {
    return this.braceDepth + this.parenDepth + this.bracketDepth;
  }

  /**
   * Whether an identifier (not after `.`) stands where a name is bound, from the token
   * before it: after `var`/`let`/`const`/`function`/`class` or `function*`; after the `,`
   * between declarators; directly in a parameter list (after `(`, `,` or `...`); or in a
   * destructuring pattern of a declaration or parameter list (after `{`, `[`, `,`, `:`
   * or `...`). Arrow functions' and methods' parameters are known only after their `)`:
   * the caller looks at those itself.
   */
  private isBinding(prevKind: number, prevCode: number, wasMember: boolean): boolean {
    if (prevKind === Token.Keyword) {
      if (this.prevKey || wasMember) return false;
      return prevCode === Word.Var || prevCode === Word.Let || prevCode === Word.Const || prevCode === Word.Function || prevCode === Word.Class;
    }
    if (prevKind !== Token.Punctuator) return false;
    if (prevCode === Punct.Star) return this.prevPrevKind === Token.Keyword && this.prevPrevCode === Word.Function;
    const listed = prevCode === Punct.LParen || prevCode === Punct.Comma || prevCode === Punct.Ellipsis;
    if (!listed && prevCode !== Punct.LBrace && prevCode !== Punct.LBracket && prevCode !== Punct.Colon) return false;
    const nesting = this.nesting();
    const declaration = this.declarationTop;
    if (declaration >= 0) {
      if ((declaration & 1) === 1) {
        const at = declaration >> 1;
        if (nesting === at) return prevCode === Punct.Comma;
        if (nesting > at) return true;
      }
    }
    if (this.parenDepth > 0) {
      const kind = this.parenKinds[this.parenDepth - 1];
      if (kind === Paren.FunctionParams || kind === Paren.DeclarationParams) {
        const at = this.parenNestings[this.parenDepth - 1]!;
        if (nesting === at) return listed;
        return nesting > at;
      }
    }
    return false;
  }

  /** Ends the innermost declaration if it is at the current nesting (`;`, `in`/`of` of a `for` head). */
  private endDeclarationHere(): void {
    if (this.declarationTop >> 1 === this.nesting()) this.popDeclaration();
  }

  /** Ends the declarations inside a bracket that just closed. */
  private endDeclarationsInside(): void {
    const nesting = this.nesting();
    while (this.declarationTop >> 1 > nesting) this.popDeclaration();
  }

  private popDeclaration(): void {
    this.declarationCount--;
    this.declarationTop = this.declarationCount > 0 ? this.declarations[this.declarationCount - 1]! : -2;
  }


  /** The goal after a keyword at work (not a property name). */
  private afterKeyword(code: number, wasMember: boolean): void {
    if (code === Word.Function) {
      let regex = this.regexAllowed;
      let statement = this.statementStart;
      if (this.prevKind === Token.Identifier && this.prevCode === Word.Async && !wasMember) {
        regex = this.prevRegexAllowedBefore;
        statement = this.prevStatementStartBefore;
      }
      this.pendingFunctionExpression = regex && !statement;
    } else {
      this.pendingFunctionExpression = false;
    }
    if (code === Word.Class) {
      this.pendingClass = true;
      this.pendingClassExpression = this.regexAllowed && !this.statementStart;
      this.pendingClassBraces = this.braceDepth;
      this.pendingClassGroups = this.parenDepth + this.bracketDepth;
    }
    if (code === Word.Function || code === Word.Catch) this.pendingParams = true;
    else if (code === Word.Var || code === Word.Let || code === Word.Const) {
      if (this.declarationCount === this.declarations.length) this.declarations = grow(this.declarations);
      this.declarationTop = this.nesting() * 2 + 1;
      this.declarations[this.declarationCount++] = this.declarationTop;
    } else if (code === Word.In) this.endDeclarationHere();
    const flags = this.words.flags[code]!;
    this.regexAllowed = (flags & WordFlag.Value) === 0;
    this.statementStart = (flags & WordFlag.Statement) !== 0;
  }

  /** The goal after a punctuator, and the bracket stacks. */
  private afterPunctuator(v: number, start: number, newline: boolean, prevWasMember: boolean, params: boolean): void {
    const expressionBody = this.pendingExpressionBody;
    this.pendingExpressionBody = false;
    if (v !== Punct.Star && v !== Punct.LParen) this.pendingFunctionExpression = false;
    switch (v) {
      case Punct.LParen: {
        let kind = Paren.Normal;
        if (this.pendingFunctionExpression) kind = Paren.FunctionParams;
        else if (params) kind = Paren.DeclarationParams;
        else if (this.prevKind === Token.Keyword && !prevWasMember && !this.prevKey) {
          const p = this.prevCode;
          if (p === Word.If || p === Word.While || p === Word.With) kind = Paren.Condition;
          else if (p === Word.For) kind = Paren.For;
          else if (p === Word.Await && this.prevPrevKind === Token.Keyword && this.prevPrevCode === Word.For) kind = Paren.For;
        }
        this.pendingFunctionExpression = false;
        const depth = this.parenDepth;
        if (depth === this.parenKinds.length) {
          this.parenKinds = grow(this.parenKinds);
          this.parenStarts = grow(this.parenStarts);
          this.parenNestings = grow(this.parenNestings);
        }
        this.parenKinds[depth] = kind;
        if (kind === Paren.FunctionParams || kind === Paren.DeclarationParams) this.functionParens++;
        this.parenStarts[depth] = start;
        this.parenDepth = depth + 1;
        this.parenNestings[depth] = this.nesting();
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      }
      case Punct.RParen: {
        let kind = Paren.Normal;
        if (this.parenDepth === 0) this.error('unbalanced-bracket', start);
        else kind = this.parenKinds[--this.parenDepth]!;
        if (kind === Paren.FunctionParams || kind === Paren.DeclarationParams) this.functionParens--;
        if (this.declarationTop >> 1 > this.nesting()) this.endDeclarationsInside();
        const condition = kind === Paren.Condition || kind === Paren.For;
        this.pendingExpressionBody = kind === Paren.FunctionParams;
        this.regexAllowed = condition;
        this.statementStart = condition;
        return;
      }
      case Punct.LBracket: {
        const depth = this.bracketDepth;
        if (depth === this.bracketStarts.length) this.bracketStarts = grow(this.bracketStarts);
        this.bracketStarts[depth] = start;
        this.bracketDepth = depth + 1;
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      }
      case Punct.RBracket:
        if (this.bracketDepth === 0) this.error('unbalanced-bracket', start);
        else this.bracketDepth--;
        if (this.declarationTop >> 1 > this.nesting()) this.endDeclarationsInside();
        this.regexAllowed = false;
        this.statementStart = false;
        return;
      case Punct.LBrace: {
        let kind: number;
        if (expressionBody) kind = Brace.FunctionExpression;
        else if (this.pendingClass && this.braceDepth === this.pendingClassBraces && this.parenDepth + this.bracketDepth === this.pendingClassGroups) {
          this.pendingClass = false;
          kind = this.pendingClassExpression ? Brace.ClassExpression : Brace.ClassDeclaration;
        } else {
          kind = classifyOpenBrace(this.prevKind, this.prevCode, this.prevKey || prevWasMember, newline, this.regexAllowed, this.statementStart, this.braceKinds[this.braceDepth - 1]!, this.words.flags);
        }
        this.pushBrace(kind, start);
        this.regexAllowed = true;
        this.statementStart = kind === Brace.Block || kind === Brace.FunctionExpression;
        return;
      }
      case Punct.RBrace: {
        // Never pops the module sentinel; an unmatched `}` ends a statement.
        let kind = Brace.Block;
        if (this.braceDepth === 1) this.error('unbalanced-bracket', start);
        else kind = this.braceKinds[--this.braceDepth]!;
        if (this.declarationTop >> 1 > this.nesting()) this.endDeclarationsInside();
        if (this.pendingClass && this.braceDepth < this.pendingClassBraces) this.pendingClass = false;
        const endsStatement = kind === Brace.Block || kind === Brace.ClassDeclaration || kind === Brace.Module;
        this.regexAllowed = endsStatement;
        this.statementStart = endsStatement;
        return;
      }
      case Punct.Increment:
      case Punct.Decrement:
        // regexAllowed unchanged: prefix keeps expecting an operand, postfix an operator.
        this.statementStart = false;
        return;
      case Punct.Question:
        if (this.atBraceLevel()) this.braceTernaries[this.braceDepth - 1]!++;
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      case Punct.Colon: {
        // A label or `case x:` (a statement follows) only directly in a block, when no `?` waits for it.
        const kind = this.braceKinds[this.braceDepth - 1];
        let statement = false;
        if (this.atBraceLevel()) {
          if (this.braceTernaries[this.braceDepth - 1]! > 0) this.braceTernaries[this.braceDepth - 1]!--;
          else statement = kind === Brace.Block || kind === Brace.Module || kind === Brace.FunctionExpression;
        }
        this.regexAllowed = true;
        this.statementStart = statement;
        return;
      }
      case Punct.Semicolon:
        if (this.declarationTop >> 1 === this.nesting()) this.popDeclaration();
        this.regexAllowed = true;
        this.statementStart = true;
        return;
      case Punct.Star:
        this.pendingParams = params;
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      case Punct.Assign:
      case Punct.Comma:
        // At a declaration's own nesting, `=` starts a declarator's initializer and `,` the next declarator.
        const top = this.declarationTop;
        if (top >> 1 === this.nesting()) {
          const next = (top & ~1) | (v === Punct.Comma ? 1 : 0);
          if (next !== top) {
            this.declarationTop = next;
            this.declarations[this.declarationCount - 1] = next;
          }
        }
        this.regexAllowed = true;
        this.statementStart = false;
        return;
      default:
        this.regexAllowed = true;
        this.statementStart = false;
    }
  }

  /** Directly inside the innermost brace, not inside a `(` or `[` opened within it. */
  private atBraceLevel(): boolean {
    return this.parenDepth + this.bracketDepth === this.braceGroups[this.braceDepth - 1];
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

  /** StringLiteral (12.9.4) from its quote at `start`: returns the end (unterminated: at the line terminator or the end). */
  private stringLiteral(start: number, quote: number): number {
    // Escapes are decoded on demand (cookString); a raw LF or CR ends it unterminated (LS/PS allowed since ES2019).
    const text = this.text;
    const n = text.length;
    let p = start + 1;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === quote) return p + 1;
      if (c === 0x5c) {
        p += text.charCodeAt(p + 1) === 0x0d && text.charCodeAt(p + 2) === 0x0a ? 3 : 2;
        continue;
      }
      if (c === 0x0a || c === 0x0d) break;
      p++;
    }
    this.error('unterminated-string', start);
    return p < n ? p : n;
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
    const slot = this.count & Ring.Mask;
    this.ringKinds[slot] = Token.Eof;
    this.ringCodes[slot] = 0;
    this.ringStarts[slot] = n;
    this.ringEnds[slot] = n;
    this.ringFlags[slot] = this.ringFlags[(this.count - 1) & Ring.Mask]!;
    this.count++;
    return Token.Eof;
  }

  private error(kind: JsLexErrorKind, offset: number): void {
    if (this.errors.length < MAX_LEX_ERRORS) this.errors.push({ kind, offset });
  }

  // ===== 12.4 Comments =========================================================

  /** SingleLineComment (and HashbangComment) from `start`: the end, before the line terminator. */
  private lineCommentEnd(start: number): number {
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
    // A native search: a template's text can be long (markup, CSS), and a JS loop runs slow before V8 optimises it.
    let p = from;
    for (;;) {
      TEMPLATE_SPECIAL.lastIndex = p;
      if (!TEMPLATE_SPECIAL.test(text)) break;
      p = TEMPLATE_SPECIAL.lastIndex - 1;
      const c = text.charCodeAt(p);
      if (c === 0x60) return (p + 1) * 2;
      if (c === 0x24) {
        if (text.charCodeAt(p + 1) === 0x7b) return (p + 2) * 2 + 1;
        p++;
      } else {
        p += 2;
      }
    }
    this.error('unterminated-template', start);
    return text.length * 2;
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
    // No IdentifierStart or DecimalDigit may follow a NumericLiteral (12.9.3): `3in x`, `1.toString()`.
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
   * `\u` escapes and non-ASCII characters, from `nameStart`: returns the end, leaves the
   * decoded name in `decodedName` and sets `escaped` when it held an escape. An escaped
   * name is never a keyword: `\u0069mport` is the identifier "import" (as a keyword it
   * would be a syntax error).
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
    this.escaped = pieces !== null;
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

function isHashbangAt(text: string, p: number): boolean {
  return (p === 0 || (p === 1 && text.charCodeAt(0) === 0xfeff)) && text.charCodeAt(p) === 0x23 && text.charCodeAt(p + 1) === 0x21;
}

function hasLineTerminator(text: string, from: number, to: number): boolean {
  // Bounded by the comment: a search to the end of the text would make a line of many `/* */` comments quadratic.
  for (let p = from; p < to; p++) {
    if (isLineTerminator(text.charCodeAt(p))) return true;
  }
  return false;
}

/** What a `{` opens when it is no function-expression or class body (a guess; a wrong one only misreads a `/` right after
 *  its `}`): a block at the start or after `)`, `=>`, `;`, `}`, `else`, `try`, `finally`, `do`, `static`, `export`, `import`
 *  or an identifier; after `{` or `:`, a block within a block or after a label or `case x:`; after `return`/`yield`, an
 *  object unless a line break intervenes; otherwise an object literal. */
function classifyOpenBrace(prevKind: number, prevCode: number, prevIsName: boolean, newline: boolean, regexAllowed: boolean, statementStart: boolean, outer: number, wordFlags: Uint8Array): number {
  switch (prevKind) {
    case Token.None:
      return Brace.Block;
    case Token.Punctuator:
      switch (prevCode) {
        case Punct.RParen:
        case Punct.Arrow:
        case Punct.Semicolon:
        case Punct.RBrace:
          return Brace.Block;
        case Punct.LBrace:
          return outer === Brace.Block || outer === Brace.Module || outer === Brace.FunctionExpression ? Brace.Block : Brace.Object;
        case Punct.Colon:
          return statementStart ? Brace.Block : Brace.Object;
        default:
          return Brace.Object;
      }
    case Token.Keyword:
      if (prevIsName) return newline ? Brace.Block : Brace.Object;
      if (prevCode === Word.Return || prevCode === Word.Yield) return newline ? Brace.Block : Brace.Object;
      return (wordFlags[prevCode]! & WordFlag.Expression) !== 0 ? Brace.Object : Brace.Block;
    case Token.Identifier:
      if (regexAllowed && !newline) return Brace.Object; // `for (x of {...})`
      return Brace.Block;
    case Token.TemplateHead:
    case Token.TemplateMiddle:
      return Brace.Object;
    default:
      return newline ? Brace.Block : Brace.Object;
  }
}

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

/** SV (12.9.4.3) of a 'string' token; null if unterminated or with an escape strict code rejects (`\1`, `\8`, bad `\x`). */
export function cookString(text: string, token: JsToken): string | null {
  if (token.type !== 'string') return null;
  return cookStringAt(text, token.start, token.end);
}

export function cookStringAt(text: string, start: number, end: number): string | null {
  if (end - start < 2) return null;
  if (text.charCodeAt(end - 1) !== text.charCodeAt(start)) return null;
  return cookBody(text, start + 1, end - 1, false);
}

/** TV (12.9.6.1) of a NoSubstitutionTemplate token; null if unterminated or holding an invalid escape. */
export function cookTemplate(text: string, token: JsToken): string | null {
  if (token.type !== 'template') return null;
  return cookTemplateAt(text, token.start, token.end);
}

/** A literal the policy stops at: starting with `/` (a site-root path) or `<` (markup; a template may lead with spaces). */
export function isStopLiteral(text: string, kind: number, start: number): boolean {
  let c = text.charCodeAt(start + 1);
  if (c === 0x2f) return kind !== Token.TemplateHead;
  if (c === 0x3c) return true;
  if (kind === Token.String || (c !== 0x0a && c !== 0x20)) return false;
  let p = start + 2;
  while (c === 0x0a || c === 0x20 || c === 0x09 || c === 0x0d) c = text.charCodeAt(p++);
  return c === 0x3c;
}

export function cookTemplatePart(text: string, from: number, to: number): string | null {
  return cookBody(text, from, to, true);
}

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
