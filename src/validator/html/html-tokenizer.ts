// The WHATWG HTML tokenizer (13.2.5), tested on every html5lib-tests case: reading `<scr<script>ipt>` or `<!--->`
// unlike a browser would be a bypass. CR and CR LF read as LF on the fly, so offsets stay in the original text.
import { matchNamedReference, numericReferenceValue } from './character-references.js';
import { OffsetMap } from './offset-map.js';

export type ContentState = 'data' | 'rcdata' | 'rawtext' | 'scriptData' | 'plaintext' | 'cdataSection';

export interface HtmlAttribute {
  readonly name: string;
  readonly value: string;
  readonly nameStart: number;
  readonly nameEnd: number;
  readonly valueStart: number;
  readonly valueEnd: number;
  readonly valueMap: OffsetMap | null;
}

export interface TagToken {
  readonly type: 'startTag' | 'endTag';
  readonly name: string;
  readonly start: number;
  readonly nameStart: number;
  readonly end: number;
  readonly selfClosing: boolean;
  readonly attributes: readonly HtmlAttribute[];
  readonly duplicates: readonly HtmlAttribute[];
}

export interface CharacterToken {
  readonly type: 'character';
  readonly data: string;
  readonly start: number;
  readonly end: number;
  readonly literal: boolean;
}

export interface CommentToken {
  readonly type: 'comment';
  readonly data: string;
  readonly start: number;
  readonly end: number;
}

export interface DoctypeToken {
  readonly type: 'doctype';
  readonly name: string | null;
  readonly publicId: string | null;
  readonly systemId: string | null;
  readonly forceQuirks: boolean;
  readonly start: number;
  readonly end: number;
}

export interface CdataMarkerToken {
  readonly type: 'cdataStart';
  readonly start: number;
  readonly end: number;
}

export interface EofToken {
  readonly type: 'eof';
  readonly start: number;
  readonly end: number;
}

export type HtmlToken = TagToken | CharacterToken | CommentToken | DoctypeToken | CdataMarkerToken | EofToken;

export interface TokenizerOptions {
  readonly initialState?: ContentState;
  readonly lastStartTag?: string;
}

const EOF = -1;
const NUL = 0x00;
const TAB = 0x09;
const LF = 0x0a;
const FF = 0x0c;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const QUOTE = 0x22;
const HASH = 0x23;
const AMP = 0x26;
const APOS = 0x27;
const DASH = 0x2d;
const SOLIDUS = 0x2f;
const SEMICOLON = 0x3b;
const LT = 0x3c;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;
const RIGHT_BRACKET = 0x5d;
const LOWER_X = 0x78;
const UPPER_X = 0x58;

const REPLACEMENT = '\ufffd';

const LT_DATA = 0;
const LT_TEXT = 1;
const LT_SCRIPT = 2;
const LT_NONE = 3;
const LT_DATA_ANY = 4;

const DATA = 1;
const RCDATA = 2;
const RAWTEXT = 3;
const SCRIPT_DATA = 4;
const PLAINTEXT = 5;
const TAG_OPEN = 6;
const END_TAG_OPEN = 7;
const TAG_NAME = 8;
const RCDATA_LESS_THAN_SIGN = 9;
const RCDATA_END_TAG_OPEN = 10;
const RCDATA_END_TAG_NAME = 11;
const RAWTEXT_LESS_THAN_SIGN = 12;
const RAWTEXT_END_TAG_OPEN = 13;
const RAWTEXT_END_TAG_NAME = 14;
const SCRIPT_DATA_LESS_THAN_SIGN = 15;
const SCRIPT_DATA_END_TAG_OPEN = 16;
const SCRIPT_DATA_END_TAG_NAME = 17;
const SCRIPT_DATA_ESCAPE_START = 18;
const SCRIPT_DATA_ESCAPE_START_DASH = 19;
const SCRIPT_DATA_ESCAPED = 20;
const SCRIPT_DATA_ESCAPED_DASH = 21;
const SCRIPT_DATA_ESCAPED_DASH_DASH = 22;
const SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN = 23;
const SCRIPT_DATA_ESCAPED_END_TAG_OPEN = 24;
const SCRIPT_DATA_ESCAPED_END_TAG_NAME = 25;
const SCRIPT_DATA_DOUBLE_ESCAPE_START = 26;
const SCRIPT_DATA_DOUBLE_ESCAPED = 27;
const SCRIPT_DATA_DOUBLE_ESCAPED_DASH = 28;
const SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH = 29;
const SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN = 30;
const SCRIPT_DATA_DOUBLE_ESCAPE_END = 31;
const BEFORE_ATTRIBUTE_NAME = 32;
const ATTRIBUTE_NAME = 33;
const AFTER_ATTRIBUTE_NAME = 34;
const BEFORE_ATTRIBUTE_VALUE = 35;
const ATTRIBUTE_VALUE_DOUBLE_QUOTED = 36;
const ATTRIBUTE_VALUE_SINGLE_QUOTED = 37;
const ATTRIBUTE_VALUE_UNQUOTED = 38;
const AFTER_ATTRIBUTE_VALUE_QUOTED = 39;
const SELF_CLOSING_START_TAG = 40;
const BOGUS_COMMENT = 41;
const MARKUP_DECLARATION_OPEN = 42;
const COMMENT_START = 43;
const COMMENT_START_DASH = 44;
const COMMENT = 45;
const COMMENT_LESS_THAN_SIGN = 46;
const COMMENT_LESS_THAN_SIGN_BANG = 47;
const COMMENT_LESS_THAN_SIGN_BANG_DASH = 48;
const COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH = 49;
const COMMENT_END_DASH = 50;
const COMMENT_END = 51;
const COMMENT_END_BANG = 52;
const DOCTYPE = 53;
const BEFORE_DOCTYPE_NAME = 54;
const DOCTYPE_NAME = 55;
const AFTER_DOCTYPE_NAME = 56;
const AFTER_DOCTYPE_PUBLIC_KEYWORD = 57;
const BEFORE_DOCTYPE_PUBLIC_IDENTIFIER = 58;
const DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED = 59;
const DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED = 60;
const AFTER_DOCTYPE_PUBLIC_IDENTIFIER = 61;
const BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS = 62;
const AFTER_DOCTYPE_SYSTEM_KEYWORD = 63;
const BEFORE_DOCTYPE_SYSTEM_IDENTIFIER = 64;
const DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED = 65;
const DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED = 66;
const AFTER_DOCTYPE_SYSTEM_IDENTIFIER = 67;
const BOGUS_DOCTYPE = 68;
const CDATA_SECTION = 69;
const CDATA_SECTION_BRACKET = 70;
const CDATA_SECTION_END = 71;
const CHARACTER_REFERENCE = 72;
const NAMED_CHARACTER_REFERENCE = 73;
const AMBIGUOUS_AMPERSAND = 74;
const NUMERIC_CHARACTER_REFERENCE = 75;
const HEXADECIMAL_CHARACTER_REFERENCE_START = 76;
const DECIMAL_CHARACTER_REFERENCE_START = 77;
const HEXADECIMAL_CHARACTER_REFERENCE = 78;
const DECIMAL_CHARACTER_REFERENCE = 79;
const NUMERIC_CHARACTER_REFERENCE_END = 80;

const CONTENT_STATES: Readonly<Record<ContentState, number>> = {
  data: DATA,
  rcdata: RCDATA,
  rawtext: RAWTEXT,
  scriptData: SCRIPT_DATA,
  plaintext: PLAINTEXT,
  cdataSection: CDATA_SECTION,
};

const ATTRIBUTE_SET_THRESHOLD = 8;
const NUMERIC_REFERENCE_CAP = 0x110000;

function isWhitespace(c: number): boolean {
  return c === TAB || c === LF || c === FF || c === SPACE || c === CR;
}

function isAsciiUpper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isAsciiHexDigit(c: number): boolean {
  return isAsciiDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isAsciiAlphanumeric(c: number): boolean {
  return isAsciiAlpha(c) || isAsciiDigit(c);
}

function startsReference(c: number): boolean {
  return c === HASH || isAsciiAlphanumeric(c);
}

function asciiLowercase(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function lowerSlice(text: string): string {
  return /[A-Z]/.test(text) ? asciiLowercase(text) : text;
}

function matchesAsciiCaseInsensitive(input: string, at: number, word: string): boolean {
  if (at + word.length > input.length) return false;
  for (let i = 0; i < word.length; i++) {
    let c = input.charCodeAt(at + i);
    if (c >= 0x61 && c <= 0x7a) c -= 0x20;
    if (c !== word.charCodeAt(i)) return false;
  }
  return true;
}

interface AttributeBuilder {
  name: string;
  nameStart: number;
  nameEnd: number;
  value: string;
  valueStart: number;
  valueEnd: number;
  valueMap: OffsetMap | null;
}

export class HtmlTokenizer {
  /**
   * Set by the consumer before each `next()`: true when "there is an adjusted current node
   * and it is not an element in the HTML namespace" (13.2.5.42), so `<![CDATA[` opens a
   * CDATA section instead of a bogus comment.
   */
  allowCdata = false;

  private readonly input: string;
  private readonly length: number;
  private pos = 0;
  private state: number;
  private returnState = DATA;
  /** Length in code units of the character `read()` last returned (2 for CR LF). */
  private charLength = 0;

  // Tokens emitted by the last step; cleared by resetting the counters (no reallocation).
  private readonly queue: HtmlToken[] = [];
  private queueHead = 0;
  private queueLength = 0;
  private finished = false;
  private lastStartTag: string | undefined;

  // The tag being built.
  private tagType: 'startTag' | 'endTag' = 'startTag';
  private tagName = '';
  private tagStart = 0;
  private tagNameStart = 0;
  private tagSelfClosing = false;
  private attributes: HtmlAttribute[] = [];
  private duplicates: HtmlAttribute[] = [];
  private attributeNames: Set<string> | null = null;
  private attribute: AttributeBuilder | null = null;

  // The temporary buffer (13.2.5): its text, and where the construct that filled it began.
  private temporaryBuffer = '';
  private temporaryStart = 0;

  // The comment or DOCTYPE being built.
  private commentData = '';
  private commentStart = 0;
  private doctypeName: string | null = null;
  private doctypePublicId: string | null = null;
  private doctypeSystemId: string | null = null;
  private doctypeForceQuirks = false;

  // Character reference: where its `&` is, and the numeric value so far.
  private referenceStart = 0;
  private characterReferenceCode = 0;

  constructor(input: string, options: TokenizerOptions = {}) {
    this.input = input;
    this.length = input.length;
    this.state = CONTENT_STATES[options.initialState ?? 'data'];
    this.lastStartTag = options.lastStartTag;
  }

  /** The next token; after the end of the input, an `eof` token every time. */
  next(): HtmlToken {
    while (this.queueHead >= this.queueLength) {
      this.queueHead = 0;
      this.queueLength = 0;
      if (this.finished) return { type: 'eof', start: this.length, end: this.length };
      this.step();
    }
    return this.queue[this.queueHead++]!;
  }

  /**
   * Switches the content state, as the tree builder does right after inserting a start
   * tag's element (13.2.6.2: RCDATA and RAWTEXT elements, script, plaintext). Call it
   * before the next `next()`.
   */
  switchTo(state: ContentState): void {
    this.state = CONTENT_STATES[state];
  }

  /** Current input offset (just past the last token returned, when the queue is empty). */
  get offset(): number {
    return this.pos;
  }

  // Input and emission helpers

  /** The current input character without consuming it; CR and CR LF read as LF. */
  private read(): number {
    const p = this.pos;
    if (p >= this.length) {
      this.charLength = 0;
      return EOF;
    }
    const c = this.input.charCodeAt(p);
    if (c === CR) {
      this.charLength = this.input.charCodeAt(p + 1) === LF ? 2 : 1;
      return LF;
    }
    this.charLength = 1;
    return c;
  }

  /** Consumes the character `read()` returned. */
  private consume(): void {
    this.pos += this.charLength;
  }

  private enqueue(token: HtmlToken): void {
    this.queue[this.queueLength++] = token;
  }

  private emitCharacters(data: string, start: number, end: number, literal: boolean): void {
    this.enqueue({ type: 'character', data, start, end, literal });
  }

  /** Emits the character `read()` returned (already consumed) as a character token. */
  private emitCurrent(c: number): void {
    const end = this.pos;
    const start = end - this.charLength;
    this.emitCharacters(String.fromCharCode(c), start, end, this.charLength === 1);
  }

  /** Emits a literal slice of the input (text runs; `</` and a temporary buffer). */
  private emitSlice(start: number, end: number): void {
    if (end > start) this.emitCharacters(this.input.slice(start, end), start, end, true);
  }

  private emitEof(): void {
    this.enqueue({ type: 'eof', start: this.length, end: this.length });
    this.finished = true;
  }

  /**
   * Fast path shared by the text states: emits the run of characters that the state would
   * emit one by one anyway, and returns false when there was none. The run stops at NUL and
   * CR (which need care), at `stop` (when not EOF), at an `&` that can start a character
   * reference (`references`: followed by an alphanumeric or `#`; any other `&` is flushed
   * as itself), and at a `<` that can start something in this state (`lessThan`):
   *   LT_DATA: a letter, `!`, `/` or `?` (tag, markup declaration, end tag, bogus comment);
   *   LT_TEXT: `/` and a letter (a possible end tag in RCDATA and RAWTEXT);
   *   LT_SCRIPT: `/` or `!` (script data end tag open, escape start);
   *   LT_NONE: never (PLAINTEXT).
   * Every other `&` and `<` would go through the reference or less-than state and come out
   * as the same literal character.
   */
  private emitTextRun(stop: number, references: boolean, lessThan: number): boolean {
    const input = this.input;
    const start = this.pos;
    let p = start;
    const n = this.length;
    for (; p < n; p++) {
      const c = input.charCodeAt(p);
      if (c === NUL || c === CR || c === stop) break;
      if (c === AMP && references) {
        if (startsReference(input.charCodeAt(p + 1))) break;
      } else if (c === LT && lessThan !== LT_NONE) {
        const d = input.charCodeAt(p + 1);
        if (lessThan === LT_DATA ? isAsciiAlpha(d) || d === BANG || d === SOLIDUS || d === QUESTION
          : lessThan === LT_TEXT ? d === SOLIDUS && isAsciiAlpha(input.charCodeAt(p + 2))
          : lessThan === LT_SCRIPT ? d === SOLIDUS || d === BANG
          : true) break;
      }
    }
    if (p === start) return false;
    this.pos = p;
    this.emitCharacters(input.slice(start, p), start, p, true);
    return true;
  }

  /** A newline in a text state: CR or CR LF is emitted as one LF. */
  private emitNewline(): void {
    this.read();
    this.consume();
    this.emitCurrent(LF);
  }

  // The tag being built.

  private createTag(type: 'startTag' | 'endTag', start: number): void {
    this.tagType = type;
    this.tagName = '';
    this.tagStart = start;
    this.tagNameStart = this.pos;
    this.tagSelfClosing = false;
    this.attributes = [];
    this.duplicates = [];
    this.attributeNames = null;
    this.attribute = null;
  }

  private startAttribute(): void {
    this.finishAttribute();
    const p = this.pos;
    this.attribute = { name: '', nameStart: p, nameEnd: p, value: '', valueStart: -1, valueEnd: -1, valueMap: null };
  }

  /**
   * Ends the current attribute. The spec checks for duplicates "when the user agent leaves
   * the attribute name state"; the name never changes after that, so checking here is the
   * same, and the dropped duplicate keeps its value and offsets for reporting.
   */
  private finishAttribute(): void {
    const a = this.attribute;
    if (a === null) return;
    this.attribute = null;
    if (a.valueStart < 0) {
      a.valueStart = a.nameEnd;
      a.valueEnd = a.nameEnd;
    }
    const attr: HtmlAttribute = a;
    let duplicate: boolean;
    if (this.attributeNames !== null) {
      duplicate = this.attributeNames.has(a.name);
    } else {
      duplicate = false;
      for (const other of this.attributes) {
        if (other.name === a.name) {
          duplicate = true;
          break;
        }
      }
    }
    if (duplicate) {
      this.duplicates.push(attr);
      return;
    }
    this.attributes.push(attr);
    if (this.attributeNames !== null) this.attributeNames.add(a.name);
    else if (this.attributes.length > ATTRIBUTE_SET_THRESHOLD) this.attributeNames = new Set(this.attributes.map((x) => x.name));
  }

  private beginAttributeValue(start: number): void {
    const a = this.attribute!;
    a.valueStart = start;
    a.valueEnd = start;
  }

  /** Appends a literal input slice to the attribute value. */
  private appendValueSlice(start: number, end: number): void {
    const a = this.attribute!;
    a.value += this.input.slice(start, end);
    if (a.valueMap !== null) a.valueMap.literal(start, end - start);
  }

  /** Appends decoded text that came from the input span [start, end) to the attribute value. */
  private appendValueDecoded(text: string, start: number, end: number): void {
    const a = this.attribute!;
    if (a.valueMap === null) {
      a.valueMap = new OffsetMap();
      a.valueMap.literal(a.valueStart, a.value.length);
    }
    a.value += text;
    a.valueMap.decoded(start, text.length, end - start);
  }

  /** Appends a character that is not a copy of the input (U+FFFD for NUL, LF for CR or CR LF). */
  private appendValueReplaced(text: string): void {
    this.appendValueDecoded(text, this.pos - this.charLength, this.pos);
  }

  private emitTag(): void {
    this.finishAttribute();
    const token: TagToken = {
      type: this.tagType,
      name: this.tagName,
      start: this.tagStart,
      nameStart: this.tagNameStart,
      end: this.pos,
      selfClosing: this.tagSelfClosing,
      attributes: this.attributes,
      duplicates: this.duplicates,
    };
    if (this.tagType === 'startTag') this.lastStartTag = this.tagName;
    this.enqueue(token);
  }

  /** "Appropriate end tag token": its name is that of the last start tag emitted. */
  private isAppropriateEndTag(): boolean {
    return this.lastStartTag !== undefined && this.tagName === this.lastStartTag;
  }

  // The comment being built.

  private createComment(start: number, data: string): void {
    this.commentStart = start;
    this.commentData = data;
  }

  private emitComment(): void {
    this.enqueue({ type: 'comment', data: this.commentData, start: this.commentStart, end: this.pos });
  }

  /** Appends the input run up to the next character in the stop set to the comment. */
  private appendCommentRun(stop1: number, stop2: number): void {
    const input = this.input;
    const start = this.pos;
    let p = start;
    const n = this.length;
    while (p < n) {
      const c = input.charCodeAt(p);
      if (c === stop1 || c === stop2 || c === NUL || c === CR) break;
      p++;
    }
    if (p === start) return;
    this.pos = p;
    this.commentData += input.slice(start, p);
  }

  // The DOCTYPE being built.

  private createDoctype(start: number): void {
    this.commentStart = start;
    this.doctypeName = null;
    this.doctypePublicId = null;
    this.doctypeSystemId = null;
    this.doctypeForceQuirks = false;
  }

  private emitDoctype(): void {
    this.enqueue({
      type: 'doctype',
      name: this.doctypeName,
      publicId: this.doctypePublicId,
      systemId: this.doctypeSystemId,
      forceQuirks: this.doctypeForceQuirks,
      start: this.commentStart,
      end: this.pos,
    });
  }

  private emitQuirkyDoctypeAndEof(): void {
    this.doctypeForceQuirks = true;
    this.emitDoctype();
    this.emitEof();
  }

  // Character references.

  private consumedAsPartOfAttribute(): boolean {
    const r = this.returnState;
    return r === ATTRIBUTE_VALUE_DOUBLE_QUOTED || r === ATTRIBUTE_VALUE_SINGLE_QUOTED || r === ATTRIBUTE_VALUE_UNQUOTED;
  }

  /** "Flush code points consumed as a character reference", when they are the raw input. */
  private flushRawReference(): void {
    const start = this.referenceStart;
    const end = this.pos;
    if (this.consumedAsPartOfAttribute()) this.appendValueSlice(start, end);
    else this.emitSlice(start, end);
  }

  /** Flush when the temporary buffer holds the decoded character(s). */
  private flushDecodedReference(value: string): void {
    const start = this.referenceStart;
    const end = this.pos;
    if (this.consumedAsPartOfAttribute()) this.appendValueDecoded(value, start, end);
    else this.emitCharacters(value, start, end, false);
  }


  private step(): void {
    switch (this.state) {
      case DATA: return this.dataState();
      case RCDATA: return this.rcdataState();
      case RAWTEXT: return this.rawtextState();
      case SCRIPT_DATA: return this.scriptDataState();
      case PLAINTEXT: return this.plaintextState();
      case TAG_OPEN: return this.tagOpenState();
      case END_TAG_OPEN: return this.endTagOpenState();
      case TAG_NAME: return this.tagNameState();
      case RCDATA_LESS_THAN_SIGN: return this.rcdataLessThanSignState();
      case RCDATA_END_TAG_OPEN: return this.rcdataEndTagOpenState();
      case RCDATA_END_TAG_NAME: return this.rcdataEndTagNameState();
      case RAWTEXT_LESS_THAN_SIGN: return this.rawtextLessThanSignState();
      case RAWTEXT_END_TAG_OPEN: return this.rawtextEndTagOpenState();
      case RAWTEXT_END_TAG_NAME: return this.rawtextEndTagNameState();
      case SCRIPT_DATA_LESS_THAN_SIGN: return this.scriptDataLessThanSignState();
      case SCRIPT_DATA_END_TAG_OPEN: return this.scriptDataEndTagOpenState();
      case SCRIPT_DATA_END_TAG_NAME: return this.scriptDataEndTagNameState();
      case SCRIPT_DATA_ESCAPE_START: return this.scriptDataEscapeStartState();
      case SCRIPT_DATA_ESCAPE_START_DASH: return this.scriptDataEscapeStartDashState();
      case SCRIPT_DATA_ESCAPED: return this.scriptDataEscapedState();
      case SCRIPT_DATA_ESCAPED_DASH: return this.scriptDataEscapedDashState();
      case SCRIPT_DATA_ESCAPED_DASH_DASH: return this.scriptDataEscapedDashDashState();
      case SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN: return this.scriptDataEscapedLessThanSignState();
      case SCRIPT_DATA_ESCAPED_END_TAG_OPEN: return this.scriptDataEscapedEndTagOpenState();
      case SCRIPT_DATA_ESCAPED_END_TAG_NAME: return this.scriptDataEscapedEndTagNameState();
      case SCRIPT_DATA_DOUBLE_ESCAPE_START: return this.scriptDataDoubleEscapeStartState();
      case SCRIPT_DATA_DOUBLE_ESCAPED: return this.scriptDataDoubleEscapedState();
      case SCRIPT_DATA_DOUBLE_ESCAPED_DASH: return this.scriptDataDoubleEscapedDashState();
      case SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH: return this.scriptDataDoubleEscapedDashDashState();
      case SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN: return this.scriptDataDoubleEscapedLessThanSignState();
      case SCRIPT_DATA_DOUBLE_ESCAPE_END: return this.scriptDataDoubleEscapeEndState();
      case BEFORE_ATTRIBUTE_NAME: return this.beforeAttributeNameState();
      case ATTRIBUTE_NAME: return this.attributeNameState();
      case AFTER_ATTRIBUTE_NAME: return this.afterAttributeNameState();
      case BEFORE_ATTRIBUTE_VALUE: return this.beforeAttributeValueState();
      case ATTRIBUTE_VALUE_DOUBLE_QUOTED: return this.attributeValueQuotedState(QUOTE);
      case ATTRIBUTE_VALUE_SINGLE_QUOTED: return this.attributeValueQuotedState(APOS);
      case ATTRIBUTE_VALUE_UNQUOTED: return this.attributeValueUnquotedState();
      case AFTER_ATTRIBUTE_VALUE_QUOTED: return this.afterAttributeValueQuotedState();
      case SELF_CLOSING_START_TAG: return this.selfClosingStartTagState();
      case BOGUS_COMMENT: return this.bogusCommentState();
      case MARKUP_DECLARATION_OPEN: return this.markupDeclarationOpenState();
      case COMMENT_START: return this.commentStartState();
      case COMMENT_START_DASH: return this.commentStartDashState();
      case COMMENT: return this.commentState();
      case COMMENT_LESS_THAN_SIGN: return this.commentLessThanSignState();
      case COMMENT_LESS_THAN_SIGN_BANG: return this.commentLessThanSignBangState();
      case COMMENT_LESS_THAN_SIGN_BANG_DASH: return this.commentLessThanSignBangDashState();
      case COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH: return this.commentLessThanSignBangDashDashState();
      case COMMENT_END_DASH: return this.commentEndDashState();
      case COMMENT_END: return this.commentEndState();
      case COMMENT_END_BANG: return this.commentEndBangState();
      case DOCTYPE: return this.doctypeState();
      case BEFORE_DOCTYPE_NAME: return this.beforeDoctypeNameState();
      case DOCTYPE_NAME: return this.doctypeNameState();
      case AFTER_DOCTYPE_NAME: return this.afterDoctypeNameState();
      case AFTER_DOCTYPE_PUBLIC_KEYWORD: return this.afterDoctypeKeywordState(true);
      case BEFORE_DOCTYPE_PUBLIC_IDENTIFIER: return this.beforeDoctypeIdentifierState(true);
      case DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED: return this.doctypeIdentifierQuotedState(true, QUOTE);
      case DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED: return this.doctypeIdentifierQuotedState(true, APOS);
      case AFTER_DOCTYPE_PUBLIC_IDENTIFIER: return this.afterDoctypePublicIdentifierState();
      case BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS: return this.betweenDoctypePublicAndSystemIdentifiersState();
      case AFTER_DOCTYPE_SYSTEM_KEYWORD: return this.afterDoctypeKeywordState(false);
      case BEFORE_DOCTYPE_SYSTEM_IDENTIFIER: return this.beforeDoctypeIdentifierState(false);
      case DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED: return this.doctypeIdentifierQuotedState(false, QUOTE);
      case DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED: return this.doctypeIdentifierQuotedState(false, APOS);
      case AFTER_DOCTYPE_SYSTEM_IDENTIFIER: return this.afterDoctypeSystemIdentifierState();
      case BOGUS_DOCTYPE: return this.bogusDoctypeState();
      case CDATA_SECTION: return this.cdataSectionState();
      case CDATA_SECTION_BRACKET: return this.cdataSectionBracketState();
      case CDATA_SECTION_END: return this.cdataSectionEndState();
      case CHARACTER_REFERENCE: return this.characterReferenceState();
      case NAMED_CHARACTER_REFERENCE: return this.namedCharacterReferenceState();
      case AMBIGUOUS_AMPERSAND: return this.ambiguousAmpersandState();
      case NUMERIC_CHARACTER_REFERENCE: return this.numericCharacterReferenceState();
      case HEXADECIMAL_CHARACTER_REFERENCE_START: return this.hexadecimalCharacterReferenceStartState();
      case DECIMAL_CHARACTER_REFERENCE_START: return this.decimalCharacterReferenceStartState();
      case HEXADECIMAL_CHARACTER_REFERENCE: return this.hexadecimalCharacterReferenceState();
      case DECIMAL_CHARACTER_REFERENCE: return this.decimalCharacterReferenceState();
      case NUMERIC_CHARACTER_REFERENCE_END: return this.numericCharacterReferenceEndState();
      default: throw new Error(`internal: unknown tokenizer state ${this.state}`);
    }
  }

  // 13.2.5.1 Data state
  private dataState(): void {
    if (this.emitTextRun(EOF, true, LT_DATA)) return;
    const c = this.read();
    if (c === EOF) return this.emitEof();
    if (c === LF) return this.emitNewline();
    const at = this.pos;
    this.consume();
    if (c === AMP) {
      this.returnState = DATA;
      this.referenceStart = at;
      this.state = CHARACTER_REFERENCE;
    } else if (c === LT) {
      this.tagStart = at;
      this.state = TAG_OPEN;
    } else {
      this.emitCurrent(c);
    }
  }

  // 13.2.5.2 RCDATA state
  private rcdataState(): void {
    if (this.emitTextRun(EOF, true, LT_TEXT)) return;
    const c = this.read();
    if (c === EOF) return this.emitEof();
    if (c === LF) return this.emitNewline();
    const at = this.pos;
    this.consume();
    if (c === AMP) {
      this.returnState = RCDATA;
      this.referenceStart = at;
      this.state = CHARACTER_REFERENCE;
    } else if (c === LT) {
      this.temporaryStart = at;
      this.state = RCDATA_LESS_THAN_SIGN;
    } else {
      this.emitCharacters(REPLACEMENT, at, at + 1, true);
    }
  }

  // 13.2.5.3 RAWTEXT state
  private rawtextState(): void {
    this.rawTextLike(RAWTEXT_LESS_THAN_SIGN, LT_TEXT);
  }

  // 13.2.5.4 Script data state
  private scriptDataState(): void {
    this.rawTextLike(SCRIPT_DATA_LESS_THAN_SIGN, LT_SCRIPT);
  }

  /** RAWTEXT and script data: text up to `<`; NUL becomes U+FFFD; no character references. */
  private rawTextLike(lessThanState: number, lessThan: number): void {
    if (this.emitTextRun(EOF, false, lessThan)) return;
    const c = this.read();
    if (c === EOF) return this.emitEof();
    if (c === LF) return this.emitNewline();
    const at = this.pos;
    this.consume();
    if (c === LT) {
      this.temporaryStart = at;
      this.state = lessThanState;
    } else {
      this.emitCharacters(REPLACEMENT, at, at + 1, true);
    }
  }

  // 13.2.5.5 PLAINTEXT state
  private plaintextState(): void {
    if (this.emitTextRun(EOF, false, LT_NONE)) return;
    const c = this.read();
    if (c === EOF) return this.emitEof();
    if (c === LF) return this.emitNewline();
    const at = this.pos;
    this.consume();
    this.emitCharacters(REPLACEMENT, at, at + 1, true);
  }

  // 13.2.5.6 Tag open state
  private tagOpenState(): void {
    const c = this.read();
    if (c === BANG) {
      this.consume();
      this.state = MARKUP_DECLARATION_OPEN;
    } else if (c === SOLIDUS) {
      this.consume();
      this.state = END_TAG_OPEN;
    } else if (isAsciiAlpha(c)) {
      this.createTag('startTag', this.tagStart);
      this.state = TAG_NAME;
    } else if (c === QUESTION) {
      this.createComment(this.tagStart, '');
      this.state = BOGUS_COMMENT;
    } else if (c === EOF) {
      this.emitSlice(this.tagStart, this.pos);
      this.emitEof();
    } else {
      this.emitSlice(this.tagStart, this.pos);
      this.state = DATA;
    }
  }

  // 13.2.5.7 End tag open state
  private endTagOpenState(): void {
    const c = this.read();
    if (isAsciiAlpha(c)) {
      this.createTag('endTag', this.tagStart);
      this.state = TAG_NAME;
    } else if (c === GT) {
      this.consume();
      this.state = DATA;
    } else if (c === EOF) {
      this.emitSlice(this.tagStart, this.pos);
      this.emitEof();
    } else {
      this.createComment(this.tagStart, '');
      this.state = BOGUS_COMMENT;
    }
  }

  // 13.2.5.8 Tag name state
  private tagNameState(): void {
    const input = this.input;
    const start = this.pos;
    let p = start;
    const n = this.length;
    let upper = false;
    while (p < n) {
      const c = input.charCodeAt(p);
      if (isWhitespace(c) || c === SOLIDUS || c === GT || c === NUL) break;
      if (isAsciiUpper(c)) upper = true;
      p++;
    }
    if (p > start) {
      const run = input.slice(start, p);
      this.tagName += upper ? asciiLowercase(run) : run;
      this.pos = p;
    }
    const c = this.read();
    if (c === EOF) return this.emitEof(); // eof-in-tag: the tag is dropped
    this.consume();
    if (isWhitespace(c)) this.state = BEFORE_ATTRIBUTE_NAME;
    else if (c === SOLIDUS) this.state = SELF_CLOSING_START_TAG;
    else if (c === GT) {
      this.state = DATA;
      this.emitTag();
    } else {
      this.tagName += REPLACEMENT; // U+0000 NULL
    }
  }

  // 13.2.5.9 RCDATA less-than sign state
  private rcdataLessThanSignState(): void {
    this.lessThanSignInText(RCDATA_END_TAG_OPEN, RCDATA);
  }

  // 13.2.5.10 RCDATA end tag open state
  private rcdataEndTagOpenState(): void {
    this.endTagOpenInText(RCDATA_END_TAG_NAME, RCDATA);
  }

  // 13.2.5.11 RCDATA end tag name state
  private rcdataEndTagNameState(): void {
    this.endTagNameInText(RCDATA);
  }

  // 13.2.5.12 RAWTEXT less-than sign state
  private rawtextLessThanSignState(): void {
    this.lessThanSignInText(RAWTEXT_END_TAG_OPEN, RAWTEXT);
  }

  // 13.2.5.13 RAWTEXT end tag open state
  private rawtextEndTagOpenState(): void {
    this.endTagOpenInText(RAWTEXT_END_TAG_NAME, RAWTEXT);
  }

  // 13.2.5.14 RAWTEXT end tag name state
  private rawtextEndTagNameState(): void {
    this.endTagNameInText(RAWTEXT);
  }

  /** RCDATA/RAWTEXT less-than sign: `/` starts a possible end tag, anything else is text. */
  private lessThanSignInText(endTagOpenState: number, textState: number): void {
    if (this.read() === SOLIDUS) {
      this.consume();
      this.temporaryBuffer = '';
      this.state = endTagOpenState;
    } else {
      this.emitSlice(this.temporaryStart, this.pos); // "<"
      this.state = textState;
    }
  }

  /** The `</` of a possible end tag in a text state: a letter must follow. */
  private endTagOpenInText(endTagNameState: number, textState: number): void {
    if (isAsciiAlpha(this.read())) {
      this.createTag('endTag', this.temporaryStart);
      this.state = endTagNameState;
    } else {
      this.emitSlice(this.temporaryStart, this.pos); // "</"
      this.state = textState;
    }
  }

  /**
   * The end tag name states of RCDATA, RAWTEXT, script data and escaped script data: only
   * an appropriate end tag (the name of the last start tag) followed by whitespace, `/`
   * or `>` ends the text; anything else is `</` plus the temporary buffer, as text.
   */
  private endTagNameInText(textState: number): void {
    const input = this.input;
    let p = this.pos;
    const n = this.length;
    while (p < n && isAsciiAlpha(input.charCodeAt(p))) p++;
    if (p > this.pos) {
      const run = input.slice(this.pos, p);
      this.tagName += lowerSlice(run);
      this.temporaryBuffer += run;
      this.pos = p;
      return;
    }
    const c = this.read();
    if (this.isAppropriateEndTag()) {
      if (isWhitespace(c)) {
        this.consume();
        this.state = BEFORE_ATTRIBUTE_NAME;
        return;
      }
      if (c === SOLIDUS) {
        this.consume();
        this.state = SELF_CLOSING_START_TAG;
        return;
      }
      if (c === GT) {
        this.consume();
        this.state = DATA;
        this.emitTag();
        return;
      }
    }
    this.emitSlice(this.temporaryStart, this.pos);
    this.state = textState;
  }

  // 13.2.5.15 Script data less-than sign state
  private scriptDataLessThanSignState(): void {
    const c = this.read();
    if (c === SOLIDUS) {
      this.consume();
      this.temporaryBuffer = '';
      this.state = SCRIPT_DATA_END_TAG_OPEN;
    } else if (c === BANG) {
      this.consume();
      this.emitSlice(this.temporaryStart, this.pos); // "<!"
      this.state = SCRIPT_DATA_ESCAPE_START;
    } else {
      this.emitSlice(this.temporaryStart, this.pos); // "<"
      this.state = SCRIPT_DATA;
    }
  }

  // 13.2.5.16 Script data end tag open state
  private scriptDataEndTagOpenState(): void {
    this.endTagOpenInText(SCRIPT_DATA_END_TAG_NAME, SCRIPT_DATA);
  }

  // 13.2.5.17 Script data end tag name state
  private scriptDataEndTagNameState(): void {
    this.endTagNameInText(SCRIPT_DATA);
  }

  // 13.2.5.18 Script data escape start state
  private scriptDataEscapeStartState(): void {
    if (this.read() === DASH) {
      this.consume();
      this.emitCurrent(DASH);
      this.state = SCRIPT_DATA_ESCAPE_START_DASH;
    } else {
      this.state = SCRIPT_DATA;
    }
  }

  // 13.2.5.19 Script data escape start dash state
  private scriptDataEscapeStartDashState(): void {
    if (this.read() === DASH) {
      this.consume();
      this.emitCurrent(DASH);
      this.state = SCRIPT_DATA_ESCAPED_DASH_DASH;
    } else {
      this.state = SCRIPT_DATA;
    }
  }

  // 13.2.5.20 Script data escaped state
  private scriptDataEscapedState(): void {
    if (this.emitTextRun(DASH, false, LT_DATA_ANY)) return;
    const c = this.read();
    if (c === EOF) return this.emitEof(); // eof-in-script-html-comment-like-text
    const at = this.pos;
    this.consume();
    if (c === DASH) {
      this.emitCurrent(c);
      this.state = SCRIPT_DATA_ESCAPED_DASH;
    } else if (c === LT) {
      this.temporaryStart = at;
      this.state = SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN;
    } else if (c === NUL) {
      this.emitCharacters(REPLACEMENT, at, at + 1, true);
    } else {
      this.emitCurrent(c);
    }
  }

  // 13.2.5.21 Script data escaped dash state
  private scriptDataEscapedDashState(): void {
    const c = this.read();
    if (c === EOF) return this.emitEof();
    const at = this.pos;
    this.consume();
    if (c === DASH) {
      this.emitCurrent(c);
      this.state = SCRIPT_DATA_ESCAPED_DASH_DASH;
    } else if (c === LT) {
      this.temporaryStart = at;
      this.state = SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN;
    } else {
      if (c === NUL) this.emitCharacters(REPLACEMENT, at, at + 1, true);
      else this.emitCurrent(c);
      this.state = SCRIPT_DATA_ESCAPED;
    }
  }

  // 13.2.5.22 Script data escaped dash dash state
  private scriptDataEscapedDashDashState(): void {
    const c = this.read();
    if (c === EOF) return this.emitEof();
    const at = this.pos;
    this.consume();
    if (c === DASH) {
      this.emitCurrent(c);
    } else if (c === LT) {
      this.temporaryStart = at;
      this.state = SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN;
    } else if (c === GT) {
      this.emitCurrent(c);
      this.state = SCRIPT_DATA;
    } else {
      if (c === NUL) this.emitCharacters(REPLACEMENT, at, at + 1, true);
      else this.emitCurrent(c);
      this.state = SCRIPT_DATA_ESCAPED;
    }
  }

  // 13.2.5.23 Script data escaped less-than sign state
  private scriptDataEscapedLessThanSignState(): void {
    const c = this.read();
    if (c === SOLIDUS) {
      this.consume();
      this.temporaryBuffer = '';
      this.state = SCRIPT_DATA_ESCAPED_END_TAG_OPEN;
    } else if (isAsciiAlpha(c)) {
      this.temporaryBuffer = '';
      this.emitSlice(this.temporaryStart, this.pos); // "<"
      this.state = SCRIPT_DATA_DOUBLE_ESCAPE_START;
    } else {
      this.emitSlice(this.temporaryStart, this.pos); // "<"
      this.state = SCRIPT_DATA_ESCAPED;
    }
  }

  // 13.2.5.24 Script data escaped end tag open state
  private scriptDataEscapedEndTagOpenState(): void {
    this.endTagOpenInText(SCRIPT_DATA_ESCAPED_END_TAG_NAME, SCRIPT_DATA_ESCAPED);
  }

  // 13.2.5.25 Script data escaped end tag name state
  private scriptDataEscapedEndTagNameState(): void {
    this.endTagNameInText(SCRIPT_DATA_ESCAPED);
  }

  // 13.2.5.26 Script data double escape start state
  private scriptDataDoubleEscapeStartState(): void {
    this.doubleEscapeBoundary(SCRIPT_DATA_DOUBLE_ESCAPED, SCRIPT_DATA_ESCAPED, SCRIPT_DATA_ESCAPED);
  }

  /**
   * Script data double escape start / end: letters are emitted and collected; at
   * whitespace, `/` or `>` the collected word decides (`script` switches).
   */
  private doubleEscapeBoundary(ifScript: number, otherwise: number, reconsumeIn: number): void {
    const input = this.input;
    let p = this.pos;
    const n = this.length;
    while (p < n && isAsciiAlpha(input.charCodeAt(p))) p++;
    if (p > this.pos) {
      const start = this.pos;
      this.temporaryBuffer += lowerSlice(input.slice(start, p));
      this.pos = p;
      this.emitSlice(start, p);
      return;
    }
    const c = this.read();
    if (isWhitespace(c) || c === SOLIDUS || c === GT) {
      this.consume();
      this.state = this.temporaryBuffer === 'script' ? ifScript : otherwise;
      this.emitCurrent(c);
    } else {
      this.state = reconsumeIn;
    }
  }

  // 13.2.5.27 Script data double escaped state
  private scriptDataDoubleEscapedState(): void {
    if (this.emitTextRun(DASH, false, LT_DATA_ANY)) return;
    const c = this.read();
    if (c === EOF) return this.emitEof();
    const at = this.pos;
    this.consume();
    if (c === DASH) {
      this.emitCurrent(c);
      this.state = SCRIPT_DATA_DOUBLE_ESCAPED_DASH;
    } else if (c === LT) {
      this.emitCurrent(c);
      this.state = SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN;
    } else if (c === NUL) {
      this.emitCharacters(REPLACEMENT, at, at + 1, true);
    } else {
      this.emitCurrent(c);
    }
  }

  // 13.2.5.28 Script data double escaped dash state
  private scriptDataDoubleEscapedDashState(): void {
    const c = this.read();
    if (c === EOF) return this.emitEof();
    const at = this.pos;
    this.consume();
    if (c === DASH) {
      this.emitCurrent(c);
      this.state = SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH;
    } else if (c === LT) {
      this.emitCurrent(c);
      this.state = SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN;
    } else {
      if (c === NUL) this.emitCharacters(REPLACEMENT, at, at + 1, true);
      else this.emitCurrent(c);
      this.state = SCRIPT_DATA_DOUBLE_ESCAPED;
    }
  }

  // 13.2.5.29 Script data double escaped dash dash state
  private scriptDataDoubleEscapedDashDashState(): void {
    const c = this.read();
    if (c === EOF) return this.emitEof();
    const at = this.pos;
    this.consume();
    if (c === DASH) {
      this.emitCurrent(c);
    } else if (c === LT) {
      this.emitCurrent(c);
      this.state = SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN;
    } else if (c === GT) {
      this.emitCurrent(c);
      this.state = SCRIPT_DATA;
    } else {
      if (c === NUL) this.emitCharacters(REPLACEMENT, at, at + 1, true);
      else this.emitCurrent(c);
      this.state = SCRIPT_DATA_DOUBLE_ESCAPED;
    }
  }

  // 13.2.5.30 Script data double escaped less-than sign state
  private scriptDataDoubleEscapedLessThanSignState(): void {
    if (this.read() === SOLIDUS) {
      this.consume();
      this.temporaryBuffer = '';
      this.emitCurrent(SOLIDUS);
      this.state = SCRIPT_DATA_DOUBLE_ESCAPE_END;
    } else {
      this.state = SCRIPT_DATA_DOUBLE_ESCAPED;
    }
  }

  // 13.2.5.31 Script data double escape end state
  private scriptDataDoubleEscapeEndState(): void {
    this.doubleEscapeBoundary(SCRIPT_DATA_ESCAPED, SCRIPT_DATA_DOUBLE_ESCAPED, SCRIPT_DATA_DOUBLE_ESCAPED);
  }

  // 13.2.5.32 Before attribute name state
  private beforeAttributeNameState(): void {
    const c = this.read();
    if (isWhitespace(c)) {
      this.consume();
    } else if (c === SOLIDUS || c === GT || c === EOF) {
      this.state = AFTER_ATTRIBUTE_NAME;
    } else if (c === EQUALS) {
      this.startAttribute();
      this.consume();
      this.attribute!.name = '=';
      this.state = ATTRIBUTE_NAME;
    } else {
      this.startAttribute();
      this.state = ATTRIBUTE_NAME;
    }
  }

  // 13.2.5.33 Attribute name state
  private attributeNameState(): void {
    const input = this.input;
    const start = this.pos;
    let p = start;
    const n = this.length;
    let upper = false;
    while (p < n) {
      const c = input.charCodeAt(p);
      if (isWhitespace(c) || c === SOLIDUS || c === GT || c === EQUALS || c === NUL) break;
      if (isAsciiUpper(c)) upper = true;
      p++;
    }
    const a = this.attribute!;
    if (p > start) {
      const run = input.slice(start, p);
      a.name += upper ? asciiLowercase(run) : run;
      this.pos = p;
      a.nameEnd = p;
    }
    const c = this.read();
    if (c === NUL) {
      this.consume();
      a.name += REPLACEMENT;
      a.nameEnd = this.pos;
    } else if (c === EQUALS) {
      a.nameEnd = this.pos;
      this.consume();
      this.state = BEFORE_ATTRIBUTE_VALUE;
    } else {
      a.nameEnd = this.pos;
      this.state = AFTER_ATTRIBUTE_NAME;
    }
  }

  // 13.2.5.34 After attribute name state
  private afterAttributeNameState(): void {
    const c = this.read();
    if (c === EOF) return this.emitEof(); // eof-in-tag
    if (isWhitespace(c)) {
      this.consume();
    } else if (c === SOLIDUS) {
      this.consume();
      this.state = SELF_CLOSING_START_TAG;
    } else if (c === EQUALS) {
      this.consume();
      this.state = BEFORE_ATTRIBUTE_VALUE;
    } else if (c === GT) {
      this.consume();
      this.state = DATA;
      this.emitTag();
    } else {
      this.startAttribute();
      this.state = ATTRIBUTE_NAME;
    }
  }

  // 13.2.5.35 Before attribute value state
  private beforeAttributeValueState(): void {
    const c = this.read();
    if (isWhitespace(c)) {
      this.consume();
    } else if (c === QUOTE) {
      this.consume();
      this.beginAttributeValue(this.pos);
      this.state = ATTRIBUTE_VALUE_DOUBLE_QUOTED;
    } else if (c === APOS) {
      this.consume();
      this.beginAttributeValue(this.pos);
      this.state = ATTRIBUTE_VALUE_SINGLE_QUOTED;
    } else if (c === GT) {
      this.beginAttributeValue(this.pos);
      this.consume();
      this.state = DATA;
      this.emitTag();
    } else {
      this.beginAttributeValue(this.pos);
      this.state = ATTRIBUTE_VALUE_UNQUOTED;
    }
  }

  // =================================================================================
  // 13.2.5.36 Attribute value (double-quoted) state
  // 13.2.5.37 Attribute value (single-quoted) state
  // =================================================================================
  private attributeValueQuotedState(quote: number): void {
    const input = this.input;
    const start = this.pos;
    let p = start;
    const n = this.length;
    while (p < n) {
      const c = input.charCodeAt(p);
      if (c === quote || c === NUL || c === CR) break;
      if (c === AMP && startsReference(input.charCodeAt(p + 1))) break;
      p++;
    }
    if (p > start) {
      this.appendValueSlice(start, p);
      this.pos = p;
    }
    const c = this.read();
    if (c === EOF) return this.emitEof(); // eof-in-tag
    const at = this.pos;
    this.consume();
    if (c === quote) {
      this.attribute!.valueEnd = at;
      this.state = AFTER_ATTRIBUTE_VALUE_QUOTED;
    } else if (c === AMP) {
      this.returnState = quote === QUOTE ? ATTRIBUTE_VALUE_DOUBLE_QUOTED : ATTRIBUTE_VALUE_SINGLE_QUOTED;
      this.referenceStart = at;
      this.state = CHARACTER_REFERENCE;
    } else if (c === NUL) {
      this.appendValueReplaced(REPLACEMENT);
    } else {
      this.appendValueReplaced('\n'); // CR or CR LF
    }
  }

  // 13.2.5.38 Attribute value (unquoted) state
  private attributeValueUnquotedState(): void {
    const input = this.input;
    const start = this.pos;
    let p = start;
    const n = this.length;
    while (p < n) {
      const c = input.charCodeAt(p);
      if (isWhitespace(c) || c === GT || c === NUL) break;
      if (c === AMP && startsReference(input.charCodeAt(p + 1))) break;
      p++;
    }
    if (p > start) {
      this.appendValueSlice(start, p);
      this.pos = p;
    }
    const c = this.read();
    if (c === EOF) return this.emitEof(); // eof-in-tag
    const at = this.pos;
    this.consume();
    if (isWhitespace(c)) {
      this.attribute!.valueEnd = at;
      this.state = BEFORE_ATTRIBUTE_NAME;
    } else if (c === AMP) {
      this.returnState = ATTRIBUTE_VALUE_UNQUOTED;
      this.referenceStart = at;
      this.state = CHARACTER_REFERENCE;
    } else if (c === GT) {
      this.attribute!.valueEnd = at;
      this.state = DATA;
      this.emitTag();
    } else {
      this.appendValueReplaced(REPLACEMENT); // U+0000 NULL
    }
  }

  // 13.2.5.39 After attribute value (quoted) state
  private afterAttributeValueQuotedState(): void {
    const c = this.read();
    if (c === EOF) return this.emitEof(); // eof-in-tag
    if (isWhitespace(c)) {
      this.consume();
      this.state = BEFORE_ATTRIBUTE_NAME;
    } else if (c === SOLIDUS) {
      this.consume();
      this.state = SELF_CLOSING_START_TAG;
    } else if (c === GT) {
      this.consume();
      this.state = DATA;
      this.emitTag();
    } else {
      this.state = BEFORE_ATTRIBUTE_NAME;
    }
  }

  // 13.2.5.40 Self-closing start tag state
  private selfClosingStartTagState(): void {
    const c = this.read();
    if (c === EOF) return this.emitEof(); // eof-in-tag
    if (c === GT) {
      this.consume();
      this.tagSelfClosing = true;
      this.state = DATA;
      this.emitTag();
    } else {
      this.state = BEFORE_ATTRIBUTE_NAME;
    }
  }

  // 13.2.5.41 Bogus comment state
  private bogusCommentState(): void {
    this.appendCommentRun(GT, GT);
    const c = this.read();
    if (c === EOF) {
      this.emitComment();
      return this.emitEof();
    }
    this.consume();
    if (c === GT) {
      this.state = DATA;
      this.emitComment();
    } else if (c === NUL) {
      this.commentData += REPLACEMENT;
    } else {
      this.commentData += '\n';
    }
  }

  // 13.2.5.42 Markup declaration open state
  private markupDeclarationOpenState(): void {
    const input = this.input;
    const p = this.pos;
    if (input.startsWith('--', p)) {
      this.pos = p + 2;
      this.createComment(this.tagStart, '');
      this.state = COMMENT_START;
    } else if (matchesAsciiCaseInsensitive(input, p, 'DOCTYPE')) {
      this.pos = p + 7;
      this.state = DOCTYPE;
    } else if (input.startsWith('[CDATA[', p)) {
      this.pos = p + 7;
      if (this.allowCdata) {
        this.enqueue({ type: 'cdataStart', start: this.tagStart, end: this.pos });
        this.state = CDATA_SECTION;
      } else {
        this.createComment(this.tagStart, '[CDATA[');
        this.state = BOGUS_COMMENT;
      }
    } else {
      this.createComment(this.tagStart, '');
      this.state = BOGUS_COMMENT;
    }
  }

  // 13.2.5.43 Comment start state
  private commentStartState(): void {
    const c = this.read();
    if (c === DASH) {
      this.consume();
      this.state = COMMENT_START_DASH;
    } else if (c === GT) {
      this.consume();
      this.state = DATA;
      this.emitComment();
    } else {
      this.state = COMMENT;
    }
  }

  // 13.2.5.44 Comment start dash state
  private commentStartDashState(): void {
    const c = this.read();
    if (c === DASH) {
      this.consume();
      this.state = COMMENT_END;
    } else if (c === GT) {
      this.consume();
      this.state = DATA;
      this.emitComment();
    } else if (c === EOF) {
      this.emitComment();
      this.emitEof();
    } else {
      this.commentData += '-';
      this.state = COMMENT;
    }
  }

  // 13.2.5.45 Comment state
  private commentState(): void {
    this.appendCommentRun(LT, DASH);
    const c = this.read();
    if (c === EOF) {
      this.emitComment(); // eof-in-comment
      return this.emitEof();
    }
    this.consume();
    if (c === LT) {
      this.commentData += '<';
      this.state = COMMENT_LESS_THAN_SIGN;
    } else if (c === DASH) {
      this.state = COMMENT_END_DASH;
    } else if (c === NUL) {
      this.commentData += REPLACEMENT;
    } else {
      this.commentData += '\n';
    }
  }

  // 13.2.5.46 Comment less-than sign state
  private commentLessThanSignState(): void {
    const c = this.read();
    if (c === BANG) {
      this.consume();
      this.commentData += '!';
      this.state = COMMENT_LESS_THAN_SIGN_BANG;
    } else if (c === LT) {
      this.consume();
      this.commentData += '<';
    } else {
      this.state = COMMENT;
    }
  }

  // 13.2.5.47 Comment less-than sign bang state
  private commentLessThanSignBangState(): void {
    if (this.read() === DASH) {
      this.consume();
      this.state = COMMENT_LESS_THAN_SIGN_BANG_DASH;
    } else {
      this.state = COMMENT;
    }
  }

  // 13.2.5.48 Comment less-than sign bang dash state
  private commentLessThanSignBangDashState(): void {
    if (this.read() === DASH) {
      this.consume();
      this.state = COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH;
    } else {
      this.state = COMMENT_END_DASH;
    }
  }

  // 13.2.5.49 Comment less-than sign bang dash dash state
  private commentLessThanSignBangDashDashState(): void {
    this.state = COMMENT_END;
  }

  // 13.2.5.50 Comment end dash state
  private commentEndDashState(): void {
    const c = this.read();
    if (c === DASH) {
      this.consume();
      this.state = COMMENT_END;
    } else if (c === EOF) {
      this.emitComment();
      this.emitEof();
    } else {
      this.commentData += '-';
      this.state = COMMENT;
    }
  }

  // 13.2.5.51 Comment end state
  private commentEndState(): void {
    const c = this.read();
    if (c === GT) {
      this.consume();
      this.state = DATA;
      this.emitComment();
    } else if (c === BANG) {
      this.consume();
      this.state = COMMENT_END_BANG;
    } else if (c === DASH) {
      this.consume();
      this.commentData += '-';
    } else if (c === EOF) {
      this.emitComment();
      this.emitEof();
    } else {
      this.commentData += '--';
      this.state = COMMENT;
    }
  }

  // 13.2.5.52 Comment end bang state
  private commentEndBangState(): void {
    const c = this.read();
    if (c === DASH) {
      this.consume();
      this.commentData += '--!';
      this.state = COMMENT_END_DASH;
    } else if (c === GT) {
      this.consume();
      this.state = DATA;
      this.emitComment();
    } else if (c === EOF) {
      this.emitComment();
      this.emitEof();
    } else {
      this.commentData += '--!';
      this.state = COMMENT;
    }
  }

  // 13.2.5.53 DOCTYPE state
  private doctypeState(): void {
    const c = this.read();
    if (c === EOF) {
      this.createDoctype(this.tagStart);
      return this.emitQuirkyDoctypeAndEof();
    }
    if (isWhitespace(c)) this.consume();
    this.state = BEFORE_DOCTYPE_NAME;
  }

  // 13.2.5.54 Before DOCTYPE name state
  private beforeDoctypeNameState(): void {
    const c = this.read();
    if (isWhitespace(c)) return this.consume();
    this.createDoctype(this.tagStart);
    if (c === EOF) return this.emitQuirkyDoctypeAndEof();
    this.consume();
    if (c === GT) {
      this.doctypeForceQuirks = true; // missing-doctype-name
      this.state = DATA;
      this.emitDoctype();
      return;
    }
    this.doctypeName = c === NUL ? REPLACEMENT : isAsciiUpper(c) ? String.fromCharCode(c + 0x20) : String.fromCharCode(c);
    this.state = DOCTYPE_NAME;
  }

  // 13.2.5.55 DOCTYPE name state
  private doctypeNameState(): void {
    const c = this.read();
    if (c === EOF) return this.emitQuirkyDoctypeAndEof();
    this.consume();
    if (isWhitespace(c)) this.state = AFTER_DOCTYPE_NAME;
    else if (c === GT) {
      this.state = DATA;
      this.emitDoctype();
    } else if (c === NUL) this.doctypeName += REPLACEMENT;
    else this.doctypeName += isAsciiUpper(c) ? String.fromCharCode(c + 0x20) : String.fromCharCode(c);
  }

  // 13.2.5.56 After DOCTYPE name state
  private afterDoctypeNameState(): void {
    const c = this.read();
    if (c === EOF) return this.emitQuirkyDoctypeAndEof();
    if (isWhitespace(c)) return this.consume();
    if (c === GT) {
      this.consume();
      this.state = DATA;
      this.emitDoctype();
      return;
    }
    if (matchesAsciiCaseInsensitive(this.input, this.pos, 'PUBLIC')) {
      this.pos += 6;
      this.state = AFTER_DOCTYPE_PUBLIC_KEYWORD;
    } else if (matchesAsciiCaseInsensitive(this.input, this.pos, 'SYSTEM')) {
      this.pos += 6;
      this.state = AFTER_DOCTYPE_SYSTEM_KEYWORD;
    } else {
      this.doctypeForceQuirks = true;
      this.state = BOGUS_DOCTYPE;
    }
  }

  // =================================================================================
  // 13.2.5.57 After DOCTYPE public keyword state
  // 13.2.5.63 After DOCTYPE system keyword state
  // =================================================================================
  private afterDoctypeKeywordState(isPublic: boolean): void {
    const c = this.read();
    if (c === EOF) return this.emitQuirkyDoctypeAndEof();
    if (isWhitespace(c)) {
      this.consume();
      this.state = isPublic ? BEFORE_DOCTYPE_PUBLIC_IDENTIFIER : BEFORE_DOCTYPE_SYSTEM_IDENTIFIER;
      return;
    }
    this.identifierOrBogus(c, isPublic);
  }

  // =================================================================================
  // 13.2.5.58 Before DOCTYPE public identifier state
  // 13.2.5.64 Before DOCTYPE system identifier state
  // =================================================================================
  private beforeDoctypeIdentifierState(isPublic: boolean): void {
    const c = this.read();
    if (c === EOF) return this.emitQuirkyDoctypeAndEof();
    if (isWhitespace(c)) return this.consume();
    this.identifierOrBogus(c, isPublic);
  }

  /** Shared tail of the keyword and before-identifier states: a quote, `>`, or bogus. */
  private identifierOrBogus(c: number, isPublic: boolean): void {
    if (c === QUOTE || c === APOS) {
      this.consume();
      if (isPublic) {
        this.doctypePublicId = '';
        this.state = c === QUOTE ? DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED : DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED;
      } else {
        this.doctypeSystemId = '';
        this.state = c === QUOTE ? DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED : DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED;
      }
    } else if (c === GT) {
      this.consume();
      this.doctypeForceQuirks = true;
      this.state = DATA;
      this.emitDoctype();
    } else {
      this.doctypeForceQuirks = true;
      this.state = BOGUS_DOCTYPE;
    }
  }

  // =================================================================================
  // 13.2.5.59 DOCTYPE public identifier (double-quoted) state
  // 13.2.5.60 DOCTYPE public identifier (single-quoted) state
  // 13.2.5.65 DOCTYPE system identifier (double-quoted) state
  // 13.2.5.66 DOCTYPE system identifier (single-quoted) state
  // =================================================================================
  private doctypeIdentifierQuotedState(isPublic: boolean, quote: number): void {
    const c = this.read();
    if (c === EOF) return this.emitQuirkyDoctypeAndEof();
    this.consume();
    if (c === quote) {
      this.state = isPublic ? AFTER_DOCTYPE_PUBLIC_IDENTIFIER : AFTER_DOCTYPE_SYSTEM_IDENTIFIER;
    } else if (c === GT) {
      this.doctypeForceQuirks = true;
      this.state = DATA;
      this.emitDoctype();
    } else {
      const ch = c === NUL ? REPLACEMENT : String.fromCharCode(c);
      if (isPublic) this.doctypePublicId += ch;
      else this.doctypeSystemId += ch;
    }
  }

  // 13.2.5.61 After DOCTYPE public identifier state
  private afterDoctypePublicIdentifierState(): void {
    const c = this.read();
    if (c === EOF) return this.emitQuirkyDoctypeAndEof();
    if (isWhitespace(c)) {
      this.consume();
      this.state = BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS;
    } else if (c === GT) {
      this.consume();
      this.state = DATA;
      this.emitDoctype();
    } else {
      this.identifierOrBogus(c, false);
    }
  }

  // 13.2.5.62 Between DOCTYPE public and system identifiers state
  private betweenDoctypePublicAndSystemIdentifiersState(): void {
    const c = this.read();
    if (c === EOF) return this.emitQuirkyDoctypeAndEof();
    if (isWhitespace(c)) return this.consume();
    if (c === GT) {
      this.consume();
      this.state = DATA;
      this.emitDoctype();
      return;
    }
    this.identifierOrBogus(c, false);
  }

  // 13.2.5.67 After DOCTYPE system identifier state
  private afterDoctypeSystemIdentifierState(): void {
    const c = this.read();
    if (c === EOF) return this.emitQuirkyDoctypeAndEof();
    this.consume();
    if (isWhitespace(c)) return;
    if (c === GT) {
      this.state = DATA;
      this.emitDoctype();
      return;
    }
    this.pos -= this.charLength;
    this.state = BOGUS_DOCTYPE;
  }

  // 13.2.5.68 Bogus DOCTYPE state
  private bogusDoctypeState(): void {
    const gt = this.input.indexOf('>', this.pos);
    if (gt < 0) {
      this.pos = this.length;
      this.emitDoctype();
      return this.emitEof();
    }
    this.pos = gt + 1;
    this.state = DATA;
    this.emitDoctype();
  }

  // 13.2.5.69 CDATA section state
  private cdataSectionState(): void {
    if (this.emitTextRun(RIGHT_BRACKET, false, LT_NONE)) return;
    const c = this.read();
    if (c === EOF) return this.emitEof(); // eof-in-cdata
    if (c === LF) return this.emitNewline();
    this.consume();
    if (c === RIGHT_BRACKET) this.state = CDATA_SECTION_BRACKET;
    else this.emitCurrent(c); // U+0000 NULL is left to the tree builder
  }

  // 13.2.5.70 CDATA section bracket state
  private cdataSectionBracketState(): void {
    if (this.read() === RIGHT_BRACKET) {
      this.consume();
      this.state = CDATA_SECTION_END;
    } else {
      this.emitSlice(this.pos - 1, this.pos); // "]"
      this.state = CDATA_SECTION;
    }
  }

  // 13.2.5.71 CDATA section end state
  private cdataSectionEndState(): void {
    const c = this.read();
    if (c === RIGHT_BRACKET) {
      this.consume();
      this.emitSlice(this.pos - 3, this.pos - 2); // the first "]" of a run of three
    } else if (c === GT) {
      this.consume();
      this.state = DATA;
    } else {
      this.emitSlice(this.pos - 2, this.pos); // "]]"
      this.state = CDATA_SECTION;
    }
  }

  // 13.2.5.72 Character reference state
  private characterReferenceState(): void {
    const c = this.read();
    if (isAsciiAlphanumeric(c)) {
      this.state = NAMED_CHARACTER_REFERENCE;
    } else if (c === HASH) {
      this.consume();
      this.state = NUMERIC_CHARACTER_REFERENCE;
    } else {
      this.flushRawReference(); // "&"
      this.state = this.returnState;
    }
  }

  // 13.2.5.73 Named character reference state
  private namedCharacterReferenceState(): void {
    const match = matchNamedReference(this.input, this.pos);
    if (match === null) {
      this.flushRawReference();
      this.state = AMBIGUOUS_AMPERSAND;
      return;
    }
    this.pos += match.length;
    if (!match.semicolon && this.consumedAsPartOfAttribute()) {
      const next = this.pos < this.length ? this.input.charCodeAt(this.pos) : EOF;
      if (next === EQUALS || isAsciiAlphanumeric(next)) {
        // "For historical reasons": `?a=1&copy=2` in an attribute stays as written.
        this.flushRawReference();
        this.state = this.returnState;
        return;
      }
    }
    this.flushDecodedReference(match.value);
    this.state = this.returnState;
  }

  // 13.2.5.74 Ambiguous ampersand state
  private ambiguousAmpersandState(): void {
    const input = this.input;
    const start = this.pos;
    let p = start;
    while (p < this.length && isAsciiAlphanumeric(input.charCodeAt(p))) p++;
    if (p > start) {
      this.pos = p;
      if (this.consumedAsPartOfAttribute()) this.appendValueSlice(start, p);
      else this.emitSlice(start, p);
      return;
    }
    this.state = this.returnState;
  }

  // 13.2.5.75 Numeric character reference state
  private numericCharacterReferenceState(): void {
    this.characterReferenceCode = 0;
    const c = this.read();
    if (c === LOWER_X || c === UPPER_X) {
      this.consume();
      this.state = HEXADECIMAL_CHARACTER_REFERENCE_START;
    } else {
      this.state = DECIMAL_CHARACTER_REFERENCE_START;
    }
  }

  // 13.2.5.76 Hexadecimal character reference start state
  private hexadecimalCharacterReferenceStartState(): void {
    if (isAsciiHexDigit(this.read())) {
      this.state = HEXADECIMAL_CHARACTER_REFERENCE;
    } else {
      this.flushRawReference();
      this.state = this.returnState;
    }
  }

  // 13.2.5.77 Decimal character reference start state
  private decimalCharacterReferenceStartState(): void {
    if (isAsciiDigit(this.read())) {
      this.state = DECIMAL_CHARACTER_REFERENCE;
    } else {
      this.flushRawReference(); // "&#"
      this.state = this.returnState;
    }
  }

  // 13.2.5.78 Hexadecimal character reference state
  private hexadecimalCharacterReferenceState(): void {
    const input = this.input;
    let code = this.characterReferenceCode;
    let p = this.pos;
    for (; p < this.length; p++) {
      const c = input.charCodeAt(p);
      let digit: number;
      if (isAsciiDigit(c)) digit = c - 0x30;
      else if (c >= 0x41 && c <= 0x46) digit = c - 0x37;
      else if (c >= 0x61 && c <= 0x66) digit = c - 0x57;
      else break;
      // Saturate: `&#x0000000000041;` is "A", and huge values must not lose precision.
      code = Math.min(code * 16 + digit, NUMERIC_REFERENCE_CAP);
    }
    this.characterReferenceCode = code;
    this.pos = p;
    if (p < this.length && input.charCodeAt(p) === SEMICOLON) this.pos++;
    this.state = NUMERIC_CHARACTER_REFERENCE_END;
  }

  // 13.2.5.79 Decimal character reference state
  private decimalCharacterReferenceState(): void {
    const input = this.input;
    let code = this.characterReferenceCode;
    let p = this.pos;
    for (; p < this.length; p++) {
      const c = input.charCodeAt(p);
      if (!isAsciiDigit(c)) break;
      code = Math.min(code * 10 + (c - 0x30), NUMERIC_REFERENCE_CAP);
    }
    this.characterReferenceCode = code;
    this.pos = p;
    if (p < this.length && input.charCodeAt(p) === SEMICOLON) this.pos++;
    this.state = NUMERIC_CHARACTER_REFERENCE_END;
  }

  // 13.2.5.80 Numeric character reference end state
  private numericCharacterReferenceEndState(): void {
    this.flushDecodedReference(numericReferenceValue(this.characterReferenceCode));
    this.state = this.returnState;
  }
}
