// CSS policy (D-17, D-19): the references a stylesheet, <style> or style="" makes and whether the frame may
// load them. A light nesting tracker over css-tokenizer.ts suffices, as only these positions fetch: a url token
// or url(/src( with a string first argument, a string directly in image-set()/image(), the first component of an
// @import prelude. Other strings are plain text (D-19); values are decoded, so escapes hide nothing (`u\72l(`).
// Remote -> error (D-17); data: is fine for images only (font-src and style-src are the base URL); root-relative
// or above the root leaves the release; local must be in the bundle, except font fallbacks after a source that
// is (browsers never fetch them). A remote URL in a custom property that var() pastes into a URL is an error (D-34).
import { FileScan, type BundleView } from '../scan.js';
import { FindingList } from '../findings.js';
import { classifyReference, dirName, rootRelativeHint, rootRelativeTwin, type ReferenceResult } from '../references.js';
import { asciiLower, decodeUtf8 } from '../text.js';
import { decodeUtf8Lossy } from './lossy-utf8.js';
import {
  createTokenizer,
  nextToken,
  skipIgnorableTokens,
  tokenValue,
  TOKEN_AT_KEYWORD,
  TOKEN_BAD_URL,
  TOKEN_CDC,
  TOKEN_CDO,
  TOKEN_CLOSE_CURLY,
  TOKEN_CLOSE_PAREN,
  TOKEN_CLOSE_SQUARE,
  TOKEN_EOF,
  TOKEN_FUNCTION,
  TOKEN_OPEN_CURLY,
  TOKEN_OPEN_PAREN,
  TOKEN_OPEN_SQUARE,
  TOKEN_SEMICOLON,
  TOKEN_STRING,
  TOKEN_URL,
  type CssTokenizer,
} from './css-tokenizer.js';

export interface CssSource {
  readonly text: string;
  readonly mode: 'stylesheet' | 'declarations';
  readonly baseDir: string;
  /** Maps an offset in `text` to one in the scanned file (for line and column). */
  readonly mapOffset: (cssOffset: number) => number;
}

// Both modes tokenize alike: style="" is a block's inside; an at-rule there is invalid but still reported.
export function checkCss(scan: FileScan, source: CssSource): void {
  scanCss(scan, source.text, source.baseDir, source.mapOffset);
}

export function checkStylesheet(file: string, bytes: Uint8Array, bundle: BundleView, findings: FindingList): void {
  let text = decodeUtf8(bytes);
  let invalidAt = -1;
  if (text === null) {
    const lossy = decodeUtf8Lossy(bytes);
    text = lossy.text;
    invalidAt = lossy.firstError;
  }
  // A browser's decoder consumes a leading BOM; dropping it also keeps columns as editors show them.
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
    if (invalidAt > 0) invalidAt--;
  }
  const scan = new FileScan(file, text, bundle, findings);
  if (invalidAt >= 0) {
    scan.report('css/invalid-utf8', 'The stylesheet is not valid UTF-8: browsers read the bad bytes as U+FFFD', invalidAt);
  }
  checkCharset(scan, text);
  scanCss(scan, text, dirName(file), identity);
}

// Without a server encoding a browser decodes by @charset, so only UTF-8 reads as the text checked.
// Matched more loosely than browsers do (case, quotes, spaces), so no spelling slips through.
const CHARSET_RULE = /^@charset\s*(["'])([^"'\n]*)\1/i;

function checkCharset(scan: FileScan, text: string): void {
  if (text.charCodeAt(0) !== 0x40) return;
  const rule = CHARSET_RULE.exec(text.slice(0, CHARSET_RULE_MAX_CHARS));
  if (rule === null || asciiLower(rule[2]!.trim()) === 'utf-8') return;
  scan.report('css/charset-not-utf8', `The stylesheet declares the encoding ${quoted(rule[2]!)}; it must be "utf-8"`, rule[0].length - rule[2]!.length - 1);
}

// The CSS syntax spec reads @charset from the first 1024 bytes.
const CHARSET_RULE_MAX_CHARS = 1024;

function identity(offset: number): number {
  return offset;
}

type ReferenceKind = 'image' | 'font' | 'import';

// A nesting frame is one small integer (kind in the low bits, then flags): no allocation per `{` or function.
const FRAME_KIND_MASK = 0b11;
const FRAME_BLOCK = 0; // {}
const FRAME_SQUARE = 1; // []
const FRAME_PAREN = 2; // ()
const FRAME_FUNCTION = 3;
const FRAME_URL_FUNCTION = 1 << 2; // url( or src(: a string first argument is a URL (CSS Values 4)
const FRAME_IMAGE_FUNCTION = 1 << 3; // image-set() or image(): direct strings are image URLs (CSS Images 4)
const FRAME_FONT = 1 << 4;
const FRAME_FIRST_ARGUMENT_PENDING = 1 << 5;
const FRAME_IMPORT_TARGET = 1 << 6;

const PRELUDE_NONE = 0;
const PRELUDE_OTHER = 1;
const PRELUDE_IMPORT = 2;
const PRELUDE_NAMESPACE = 3;
const PRELUDE_FONT_FACE = 4;

const IMAGE_STRING_FUNCTIONS: readonly string[] = ['image-set', '-webkit-image-set', 'image'];

const URL_FUNCTIONS: readonly string[] = ['url', 'src'];

const SPECIAL_FUNCTION_MAX_LENGTH = Math.max(...URL_FUNCTIONS.map((n) => n.length), ...IMAGE_STRING_FUNCTIONS.map((n) => n.length));

// Indexed by length * 128 + lowercase first code unit: one lookup rules out var(), calc() and the like.
const SPECIAL_FUNCTION_SHAPES = specialFunctionShapes();

function specialFunctionShapes(): Uint8Array {
  const table = new Uint8Array((SPECIAL_FUNCTION_MAX_LENGTH + 1) * 0x80);
  for (const name of [...URL_FUNCTIONS, ...IMAGE_STRING_FUNCTIONS]) table[name.length * 0x80 + name.charCodeAt(0)] = 1;
  return table;
}

// Presentation only, not a contract number.
const QUOTED_VALUE_MAX_CHARS = 120;

const CUSTOM_PROPERTY_LOOKBACK = 256;
const CUSTOM_PROPERTY_START = /[{;}]\s*(--[A-Za-z0-9_-]+)\s*:[^{;}]*$/;

const VAR_NAME = /\s*(--[A-Za-z0-9_-]+)/y;

function lowerName(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return asciiLower(name);
  }
  return name;
}

// An unescaped name is compared in place: var(), calc() and the like are frequent and need no string.
function functionNameIs(tokenizer: CssTokenizer, lowercase: string): boolean {
  if (tokenizer.valuePrefix !== '') return lowerName(tokenValue(tokenizer)) === lowercase;
  const start = tokenizer.valueStart;
  if (tokenizer.valueEnd - start !== lowercase.length) return false;
  const text = tokenizer.text;
  for (let i = 0; i < lowercase.length; i++) {
    let c = text.charCodeAt(start + i);
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c !== lowercase.charCodeAt(i)) return false;
  }
  return true;
}

function functionFlags(tokenizer: CssTokenizer): number {
  if (tokenizer.valuePrefix === '') {
    const length = tokenizer.valueEnd - tokenizer.valueStart;
    if (length > SPECIAL_FUNCTION_MAX_LENGTH) return 0;
    // `| 0x20` lowercases letters; another unit landing on a shape only costs the full comparison below.
    const first = (tokenizer.text.charCodeAt(tokenizer.valueStart) | 0x20) & 0x7f;
    if (SPECIAL_FUNCTION_SHAPES[length * 0x80 + first] === 0) return 0;
  }
  return functionFlagsByName(tokenizer);
}

function functionFlagsByName(tokenizer: CssTokenizer): number {
  for (let i = 0; i < URL_FUNCTIONS.length; i++) if (functionNameIs(tokenizer, URL_FUNCTIONS[i]!)) return FRAME_URL_FUNCTION;
  for (let i = 0; i < IMAGE_STRING_FUNCTIONS.length; i++) if (functionNameIs(tokenizer, IMAGE_STRING_FUNCTIONS[i]!)) return FRAME_IMAGE_FUNCTION;
  return 0;
}

function preludeKind(tokenizer: CssTokenizer): number {
  const name = lowerName(tokenValue(tokenizer));
  if (name === 'import') return PRELUDE_IMPORT;
  if (name === 'namespace') return PRELUDE_NAMESPACE;
  if (name === 'font-face') return PRELUDE_FONT_FACE;
  return PRELUDE_OTHER;
}

const STACK_CAPACITY = 64;

class PolicyScan {
  readonly scan: FileScan;
  readonly baseDir: string;
  readonly mapOffset: (cssOffset: number) => number;
  /** classifyReference results by reference text: large stylesheets repeat the same few URLs. */
  readonly classified: Map<string, ReferenceResult>;
  readonly tokenizer: CssTokenizer;
  /**
   * Frames (FRAME_*), innermost last; entries at `depth` and above are stale. A typed array
   * grown by pushFrame: a store past the end of a JS array would deoptimise takeToken the
   * first time a stylesheet nests deeper than any before it.
   */
  stack: Int32Array;
  depth: number;
  /**
   * The at-rule prelude being read: its kind, the stack depth of its at-keyword (the
   * prelude ends at `;` or `{` at this depth), and for @import whether the first
   * component is still to come.
   */
  prelude: number;
  preludeDepth: number;
  awaitingTarget: boolean;
  /**
   * True where a rule or declaration may begin: at the start, after `;`, `{` or `}` at the
   * current level. Only there is an at-keyword an at-rule (elsewhere it is a value).
   */
  statementStart: boolean;
  /** A source of the current @font-face `src` declaration is in the bundle: the sources after it are fallbacks nobody loads. */
  fontSourceFound: boolean;
  /** Custom properties whose value holds a remote URL string: name -> the string's offset and value. */
  remoteCustomProperties: Map<string, { offset: number; value: string }> | null;
  /** Custom properties pasted into an image or src() position with var(). */
  customPropertiesInUrls: Set<string> | null;

  constructor(scan: FileScan, text: string, baseDir: string, mapOffset: (cssOffset: number) => number) {
    this.scan = scan;
    this.baseDir = baseDir;
    this.mapOffset = mapOffset;
    this.classified = new Map();
    this.tokenizer = createTokenizer(text, { skipWhitespace: true });
    this.stack = new Int32Array(STACK_CAPACITY);
    this.depth = 0;
    this.prelude = PRELUDE_NONE;
    this.preludeDepth = 0;
    this.awaitingTarget = false;
    this.statementStart = true;
    this.fontSourceFound = false;
    this.remoteCustomProperties = null;
    this.customPropertiesInUrls = null;
  }
}

// Work per token is a function, so V8 keeps rare branches (at-rules, bad urls) out of the optimised loop.
function scanCss(scan: FileScan, text: string, baseDir: string, mapOffset: (cssOffset: number) => number): void {
  const p = new PolicyScan(scan, text, baseDir, mapOffset);
  takeAllTokens(p);
  if (p.remoteCustomProperties !== null && p.customPropertiesInUrls !== null) checkCustomProperties(p, p.remoteCustomProperties, p.customPropertiesInUrls);
}

// Alone, with nothing after it: on-stack-replaced code reaching code without type feedback is recompiled.
function takeAllTokens(p: PolicyScan): void {
  const tokenizer = p.tokenizer;
  for (;;) {
    if (skipIgnorableTokens(tokenizer)) takeIgnorableTokens(p);
    const kind = nextToken(tokenizer);
    if (kind === TOKEN_EOF) return;
    takeToken(p, kind);
  }
}

function checkCustomProperties(p: PolicyScan, remote: ReadonlyMap<string, { offset: number; value: string }>, used: ReadonlySet<string>): void {
  for (const [name, at] of remote) {
    if (!used.has(name)) continue;
    p.scan.report('css/remote-url-in-custom-property', `The custom property ${name} holds the remote URL ${quoted(at.value)}, which var(${name}) puts where an image is loaded: the frame loads files only from the release`, p.mapOffset(at.offset));
  }
}

function noteRemoteString(p: PolicyScan): void {
  const tokenizer = p.tokenizer;
  const text = tokenizer.text;
  const start = tokenizer.tokenStart;
  let candidate = false;
  for (let i = start + 1; i < tokenizer.pos; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a || c === 0x2f) {
      candidate = true;
      break;
    }
  }
  if (!candidate) return;
  const value = tokenValue(tokenizer);
  if (classifyReference(value, '').type !== 'remote') return;
  const from = Math.max(0, start - CUSTOM_PROPERTY_LOOKBACK);
  const declaration = CUSTOM_PROPERTY_START.exec((from === 0 ? '{' : '') + text.slice(from, start));
  if (declaration === null) return;
  p.remoteCustomProperties ??= new Map();
  if (!p.remoteCustomProperties.has(declaration[1]!)) p.remoteCustomProperties.set(declaration[1]!, { offset: start, value });
}

function noteVarInUrl(p: PolicyScan): void {
  const tokenizer = p.tokenizer;
  if (!functionNameIs(tokenizer, 'var')) return;
  VAR_NAME.lastIndex = tokenizer.pos;
  const name = VAR_NAME.exec(tokenizer.text);
  if (name === null) return;
  p.customPropertiesInUrls ??= new Set();
  p.customPropertiesInUrls.add(name[1]!);
}

// takeToken's `default` branch for a whole run of idents, numbers, hashes, delims, colons and commas.
function takeIgnorableTokens(p: PolicyScan): void {
  if (p.awaitingTarget && p.depth === p.preludeDepth) p.awaitingTarget = false;
  if (p.depth > 0) p.stack[p.depth - 1] = p.stack[p.depth - 1]! & ~FRAME_FIRST_ARGUMENT_PENDING;
  p.statementStart = false;
}

function takeToken(p: PolicyScan, kind: number): void {
  const stack = p.stack;
  const depth = p.depth;
  const top = depth > 0 ? stack[depth - 1]! : 0;
  const font = (top & FRAME_FONT) !== 0;
  const topKind = depth > 0 ? top & FRAME_KIND_MASK : -1;

  // Only the first @import component is its target (CSS Cascade); later url()s are plain references.
  let importTarget = false;
  if (p.awaitingTarget && depth === p.preludeDepth) {
    p.awaitingTarget = false;
    importTarget = true;
  }
  const inNamespacePrelude = p.prelude === PRELUDE_NAMESPACE;

  let firstArgument = false;
  if ((top & FRAME_FIRST_ARGUMENT_PENDING) !== 0) {
    stack[depth - 1] = top & ~FRAME_FIRST_ARGUMENT_PENDING;
    firstArgument = true;
  }

  switch (kind) {
    case TOKEN_SEMICOLON:
      p.fontSourceFound = false;
      if (p.prelude !== PRELUDE_NONE && depth === p.preludeDepth) endPrelude(p);
      if (depth === 0 || topKind === FRAME_BLOCK) {
        p.statementStart = true;
        return;
      }
      break;
    case TOKEN_CLOSE_PAREN:
      if (topKind === FRAME_FUNCTION || topKind === FRAME_PAREN) p.depth = depth - 1;
      break;
    case TOKEN_FUNCTION: {
      if ((top & (FRAME_IMAGE_FUNCTION | FRAME_URL_FUNCTION)) !== 0 && topKind === FRAME_FUNCTION) noteVarInUrl(p);
      const flags = functionFlags(p.tokenizer);
      let frame = FRAME_FUNCTION | flags | (font ? FRAME_FONT : 0);
      if (flags === FRAME_URL_FUNCTION) frame |= FRAME_FIRST_ARGUMENT_PENDING | (importTarget ? FRAME_IMPORT_TARGET : 0);
      pushFrame(p, frame);
      break;
    }
    case TOKEN_STRING:
      if (inNamespacePrelude) break;
      if (importTarget) checkReference(p, 'import');
      else if (firstArgument && (top & FRAME_URL_FUNCTION) !== 0) checkReference(p, (top & FRAME_IMPORT_TARGET) !== 0 ? 'import' : font ? 'font' : 'image');
      else if (topKind === FRAME_FUNCTION && (top & FRAME_IMAGE_FUNCTION) !== 0) checkReference(p, 'image');
      else noteRemoteString(p);
      break;
    case TOKEN_OPEN_CURLY: {
      p.fontSourceFound = false;
      let blockIsFont = font;
      if (p.prelude !== PRELUDE_NONE && depth === p.preludeDepth) {
        blockIsFont = blockIsFont || p.prelude === PRELUDE_FONT_FACE;
        endPrelude(p);
      }
      pushFrame(p, FRAME_BLOCK | (blockIsFont ? FRAME_FONT : 0));
      p.statementStart = true;
      return;
    }
    case TOKEN_CLOSE_CURLY:
      // Inside a function or () or [] a `}` is an ordinary component value, as the parser reads it.
      p.fontSourceFound = false;
      if (topKind === FRAME_BLOCK) {
        p.depth = depth - 1;
        if (p.prelude !== PRELUDE_NONE && depth - 1 < p.preludeDepth) endPrelude(p);
        p.statementStart = true;
        return;
      }
      break;
    case TOKEN_OPEN_SQUARE:
      pushFrame(p, FRAME_SQUARE | (font ? FRAME_FONT : 0));
      break;
    case TOKEN_CLOSE_SQUARE:
      if (topKind === FRAME_SQUARE) p.depth = depth - 1;
      break;
    case TOKEN_OPEN_PAREN:
      pushFrame(p, FRAME_PAREN | (font ? FRAME_FONT : 0));
      break;
    case TOKEN_URL:
      if (!inNamespacePrelude) checkReference(p, importTarget ? 'import' : font ? 'font' : 'image');
      break;
    case TOKEN_AT_KEYWORD:
      if (p.statementStart && p.prelude === PRELUDE_NONE && (depth === 0 || topKind === FRAME_BLOCK)) {
        p.prelude = preludeKind(p.tokenizer);
        p.preludeDepth = depth;
        p.awaitingTarget = p.prelude === PRELUDE_IMPORT;
      }
      break;
    case TOKEN_BAD_URL:
      p.scan.report('css/bad-url', 'Malformed url(): browsers drop the declaration that holds it (quote the URL or escape spaces, quotes and parentheses)', p.mapOffset(p.tokenizer.tokenStart));
      break;
    case TOKEN_CDO:
    case TOKEN_CDC:
      if (depth === 0) return;
      break;
    default:
      break;
  }
  p.statementStart = false;
}

function pushFrame(p: PolicyScan, frame: number): void {
  if (p.depth === p.stack.length) {
    const grown = new Int32Array(p.stack.length * 2);
    grown.set(p.stack);
    p.stack = grown;
  }
  p.stack[p.depth++] = frame;
}

function endPrelude(p: PolicyScan): void {
  p.prelude = PRELUDE_NONE;
  p.awaitingTarget = false;
}

function quoted(value: string): string {
  const shown = value.length > QUOTED_VALUE_MAX_CHARS ? `${value.slice(0, QUOTED_VALUE_MAX_CHARS)}...` : value;
  return JSON.stringify(shown);
}

function checkReference(ctx: PolicyScan, kind: ReferenceKind): void {
  const at = ctx.mapOffset(ctx.tokenizer.tokenStart);
  const value = tokenValue(ctx.tokenizer);
  let result = ctx.classified.get(value);
  if (result === undefined) {
    result = classifyReference(value, ctx.baseDir);
    ctx.classified.set(value, result);
  }
  const what = kind === 'import' ? '@import' : kind === 'font' ? '@font-face source' : 'CSS reference';
  switch (result.type) {
    case 'empty':
    case 'fragment':
      // url("") resolves to an invalid resource and `#id` to the document itself: no fetch.
      return;
    case 'data':
      if (kind === 'font') {
        ctx.scan.report('css/data-font', 'An @font-face source is a data: URL: fonts load only from the release (Vite inlines small fonts this way: set build.assetsInlineLimit: 0 in vite.config)', at);
      } else if (kind === 'import') {
        ctx.scan.report('css/import-data', 'An @import loads a data: URL: stylesheets load only from the release', at);
      }
      return;
    case 'remote':
      ctx.scan.report(
        kind === 'import' ? 'css/import-remote' : 'css/remote-url',
        `The ${what} ${quoted(value)} is remote: the frame loads files only from the release`,
        at,
      );
      return;
    case 'root': {
      const twin = rootRelativeTwin(value, ctx.scan.bundle);
      ctx.scan.report('css/root-relative-url', `The ${what} ${quoted(value)} starts with "/": it points to the site root, outside the release${twin === undefined ? '' : rootRelativeHint(twin)}`, at);
      return;
    }
    case 'outside':
      ctx.scan.report('css/url-outside-bundle', `The ${what} ${quoted(value)} climbs above the bundle root`, at);
      return;
    case 'local': {
      if (ctx.scan.bundle.has(result.path)) {
        if (kind === 'font') ctx.fontSourceFound = true;
        return;
      }
      if (kind === 'font' && ctx.fontSourceFound) return;
      const near = ctx.scan.bundle.caseInsensitiveMatch(result.path);
      ctx.scan.report(
        'css/missing-reference',
        near !== undefined
          ? `The ${what} ${quoted(value)} names "${result.path}", which is not in the bundle; did you mean "${near}" (letter case differs)?`
          : `The ${what} ${quoted(value)} names "${result.path}", which is not in the bundle`,
        at,
      );
      return;
    }
  }
}
