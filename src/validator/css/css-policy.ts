// CSS policy: which references a stylesheet, a <style> element or a style="" attribute
// makes, and whether the frame may load them (D-17, D-19). It runs over the token stream
// of tokenizer.ts with a light nesting tracker (blocks, functions, at-rule preludes); no
// full parser is needed because only these positions can make a browser fetch:
//   - a url token, or a url( / src( function whose first argument is a string;
//   - a string directly inside image-set(), -webkit-image-set() or image();
//   - the first component of an @import prelude (a string or any of the above).
// Everything else is never a finding: comments vanish in the tokenizer, and strings that
// are not in those positions are plain text (D-19). Token values are decoded, so escapes
// cannot hide a reference (`u\72l(`, `@\69mport`).
//
// Speed (the check runs in a fresh process, before V8 has optimised anything): the
// tokenizer is a cursor (nextToken returns a small-integer kind, values are decoded only
// where a reference or a name is needed), runs of tokens that cannot matter here (idents,
// numbers, hashes, delims, colons, commas) are skipped at once by skipIgnorableTokens,
// and the nesting stack holds small integers, not objects. bench/scan-speed-css.mjs
// measures it; test/validator/fuzz-css.test.mjs checks the skip against the plain tokenizer.
//
// Classification (classifyReference, relative to the referring file's folder):
//   remote (`http:`, `//host`, any scheme but data:) -> error; the policy allows only
//   the release base URL (D-17) and the contract allows no remote resources (Bundle).
//   data: -> fine for images (img-src allows data:), an error for @font-face sources
//   (font-src is the base URL only) and for @import (style-src is the base URL only).
//   root (`/x`) and `..` above the root -> error: both leave the release.
//   local -> must be a bundle file (query and fragment stripped, `?#iefix` is common),
//   except a font source after one that is in the bundle: a browser loads the first
//   source it supports and never asks for the fallbacks (`url(x.woff2), url(x.ttf)`).
// A custom property whose value holds a remote URL string is an error where the same
// stylesheet pastes it into an image or src() position with var() (D-34); a @charset
// rule must name UTF-8, the encoding the scan reads.
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
  /** CSS text: a stylesheet, a <style> element's text, or a style="" attribute value (entity-decoded). */
  readonly text: string;
  readonly mode: 'stylesheet' | 'declarations';
  /** Bundle folder that relative url() resolves against. */
  readonly baseDir: string;
  /** Maps an offset in `text` to an offset in the scanned file's text (for line and column). */
  readonly mapOffset: (cssOffset: number) => number;
}

/**
 * Reports every reference in `source` that the frame may not load. Both modes tokenize
 * the same way: a declaration list (style="") is the inside of a block, and an at-rule
 * there is invalid for the browser but still reported, to be safe.
 */
export function checkCss(scan: FileScan, source: CssSource): void {
  scanCss(scan, source.text, source.baseDir, source.mapOffset);
}

/** Checks a bundle stylesheet (`file` is its bundle path; url() resolves against its folder). */
export function checkStylesheet(file: string, bytes: Uint8Array, bundle: BundleView, findings: FindingList): void {
  let text = decodeUtf8(bytes);
  let invalidAt = -1;
  if (text === null) {
    // Browsers decode with U+FFFD for bad bytes and go on; so does the scan.
    const lossy = decodeUtf8Lossy(bytes);
    text = lossy.text;
    invalidAt = lossy.firstError;
  }
  // A leading byte-order mark is consumed by the decoder in a browser, not tokenized;
  // dropping it also keeps columns as editors show them.
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

/**
 * A `@charset` rule at the start of a stylesheet: a browser that gets no encoding from the
 * server decodes the file by its label, so anything but UTF-8 may be read as other text
 * than the one checked. Matched more loosely than browsers do (any letter case, either
 * quote, spaces), so no spelling slips through.
 */
const CHARSET_RULE = /^@charset\s*(["'])([^"'\n]*)\1/i;

function checkCharset(scan: FileScan, text: string): void {
  if (text.charCodeAt(0) !== 0x40) return;
  const rule = CHARSET_RULE.exec(text.slice(0, CHARSET_RULE_MAX_CHARS));
  if (rule === null || asciiLower(rule[2]!.trim()) === 'utf-8') return;
  scan.report('css/charset-not-utf8', `The stylesheet declares the encoding ${quoted(rule[2]!)}; it must be "utf-8"`, rule[0].length - rule[2]!.length - 1);
}

/** How much of the start of a stylesheet may hold the @charset rule (the CSS syntax spec reads the first 1024 bytes). */
const CHARSET_RULE_MAX_CHARS = 1024;

function identity(offset: number): number {
  return offset;
}

// Nesting tracker

/** What a reference loads, which decides how a data: URL is judged. */
type ReferenceKind = 'image' | 'font' | 'import';

// A frame of the nesting stack (a block, a function or a () or [] block) is one small
// integer: its kind in the low bits, then flags. Why not an object per frame: every rule
// opens a block, and in a fresh process an allocation per `{` and per function costs more
// than the bit tests below.
const FRAME_KIND_MASK = 0b11;
const FRAME_BLOCK = 0; // {}
const FRAME_SQUARE = 1; // []
const FRAME_PAREN = 2; // ()
const FRAME_FUNCTION = 3;
/** A url( or src( function: its first argument, if a string, is a URL (CSS Values 4). */
const FRAME_URL_FUNCTION = 1 << 2;
/** An image-set(), -webkit-image-set() or image() function: its direct strings are image URLs (CSS Images 4). */
const FRAME_IMAGE_FUNCTION = 1 << 3;
/** Inside an @font-face block: url() there are font sources. */
const FRAME_FONT = 1 << 4;
/** For url( and src(: the first argument is still to come. */
const FRAME_FIRST_ARGUMENT_PENDING = 1 << 5;
/** This url( / src( is the target of an @import. */
const FRAME_IMPORT_TARGET = 1 << 6;

// The at-rule whose prelude is being read, if any (only three names matter).
const PRELUDE_NONE = 0;
const PRELUDE_OTHER = 1;
const PRELUDE_IMPORT = 2;
const PRELUDE_NAMESPACE = 3;
const PRELUDE_FONT_FACE = 4;

/** Functions whose direct string arguments are image URLs (CSS Images 4); lowercase. */
const IMAGE_STRING_FUNCTIONS: readonly string[] = ['image-set', '-webkit-image-set', 'image'];

/** Functions whose first string argument is a URL (CSS Values 4: url("..."), src("...")); lowercase. */
const URL_FUNCTIONS: readonly string[] = ['url', 'src'];

/** Longest name above. */
const SPECIAL_FUNCTION_MAX_LENGTH = Math.max(...URL_FUNCTIONS.map((n) => n.length), ...IMAGE_STRING_FUNCTIONS.map((n) => n.length));

/**
 * The length and first code unit of every name above, as a table indexed by
 * length * 128 + first code unit (lowercase). A raw name without escapes is its own text,
 * so one lookup rules out var(), calc(), rgba() and the like before any comparison.
 */
const SPECIAL_FUNCTION_SHAPES = specialFunctionShapes();

function specialFunctionShapes(): Uint8Array {
  const table = new Uint8Array((SPECIAL_FUNCTION_MAX_LENGTH + 1) * 0x80);
  for (const name of [...URL_FUNCTIONS, ...IMAGE_STRING_FUNCTIONS]) table[name.length * 0x80 + name.charCodeAt(0)] = 1;
  return table;
}

/** Longest piece of a reference quoted in a message (presentation only, not a contract number). */
const QUOTED_VALUE_MAX_CHARS = 120;

/** How far before a remote URL string the custom property's name is looked for (a declaration's start). */
const CUSTOM_PROPERTY_LOOKBACK = 256;

/** `--name:` at the start of a declaration (after `{`, `;` or `}`). */
const CUSTOM_PROPERTY_START = /[{;}]\s*(--[A-Za-z0-9_-]+)\s*:[^{;}]*$/;

/** The custom property a var() names, right after its `(`. */
const VAR_NAME = /\s*(--[A-Za-z0-9_-]+)/y;

/** ASCII lowercase without a regex when there is nothing to lower (the common case). */
function lowerName(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return asciiLower(name);
  }
  return name;
}

/**
 * True when the name of the function token just consumed is `lowercase` (ASCII case-
 * insensitive, escapes decoded). Without an escape the name is its raw text, compared in
 * place: most stylesheets call var(), calc() and rgba() thousands of times, and none of
 * them needs a string.
 */
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

/** FRAME_URL_FUNCTION, FRAME_IMAGE_FUNCTION or 0 for the function token just consumed. */
function functionFlags(tokenizer: CssTokenizer): number {
  if (tokenizer.valuePrefix === '') {
    const length = tokenizer.valueEnd - tokenizer.valueStart;
    if (length > SPECIAL_FUNCTION_MAX_LENGTH) return 0;
    // `| 0x20` lowercases ASCII letters and keeps `-`; other code units may land on a
    // shape too (`& 0x7f` folds non-ASCII), which only costs the full comparison below.
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

/** PRELUDE_* for the at-keyword just consumed (`@\69mport` is `import`). */
function preludeKind(tokenizer: CssTokenizer): number {
  const name = lowerName(tokenValue(tokenizer));
  if (name === 'import') return PRELUDE_IMPORT;
  if (name === 'namespace') return PRELUDE_NAMESPACE;
  if (name === 'font-face') return PRELUDE_FONT_FACE;
  return PRELUDE_OTHER;
}

/** Initial capacity of the nesting stack; it doubles when full. */
const STACK_CAPACITY = 64;

/** The policy's state between tokens: where the scan is, the nesting stack, the at-rule prelude. */
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
    // Whitespace separates components and nothing more here; comments vanish too.
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

/**
 * The loop is small and the work per token is a function: V8 inlines a call into
 * optimised code by how often it runs per call of its caller, so the rare branches (at-
 * rules, bad urls, escaped names) stay out of the optimised code for the common ones. In
 * one loop that runs once, everything was inlined, and in a fresh process compiling that
 * cost more than it saved.
 */
function scanCss(scan: FileScan, text: string, baseDir: string, mapOffset: (cssOffset: number) => number): void {
  const p = new PolicyScan(scan, text, baseDir, mapOffset);
  takeAllTokens(p);
  if (p.remoteCustomProperties !== null && p.customPropertiesInUrls !== null) checkCustomProperties(p, p.remoteCustomProperties, p.customPropertiesInUrls);
}

/**
 * The loop on its own, with nothing after it: V8 compiles a long-running loop while it
 * runs (on-stack replacement), before the code after it has ever run, and compiled code
 * that reaches code without type feedback is thrown away and compiled again.
 */
function takeAllTokens(p: PolicyScan): void {
  const tokenizer = p.tokenizer;
  for (;;) {
    // Runs of idents, numbers, hashes, delims, colons and commas (most of a stylesheet)
    // reference nothing and open or close nothing: a run is taken at once.
    if (skipIgnorableTokens(tokenizer)) takeIgnorableTokens(p);
    const kind = nextToken(tokenizer);
    if (kind === TOKEN_EOF) return;
    takeToken(p, kind);
  }
}

/** css/remote-url-in-custom-property: each custom property with a remote URL string that var() pastes into a URL position. */
function checkCustomProperties(p: PolicyScan, remote: ReadonlyMap<string, { offset: number; value: string }>, used: ReadonlySet<string>): void {
  for (const [name, at] of remote) {
    if (!used.has(name)) continue;
    p.scan.report('css/remote-url-in-custom-property', `The custom property ${name} holds the remote URL ${quoted(at.value)}, which var(${name}) puts where an image is loaded: the frame loads files only from the release`, p.mapOffset(at.offset));
  }
}

/** A string that is no reference: if it is a remote URL and the value of a custom property, remember it (checkCustomProperties). */
function noteRemoteString(p: PolicyScan): void {
  const tokenizer = p.tokenizer;
  const text = tokenizer.text;
  const start = tokenizer.tokenStart;
  // Cheap first: a remote URL has "//" or a scheme's ":" in its raw text.
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

/** var( inside an image or src() function: the custom property it names reaches a URL position. */
function noteVarInUrl(p: PolicyScan): void {
  const tokenizer = p.tokenizer;
  if (!functionNameIs(tokenizer, 'var')) return;
  VAR_NAME.lastIndex = tokenizer.pos;
  const name = VAR_NAME.exec(tokenizer.text);
  if (name === null) return;
  p.customPropertiesInUrls ??= new Set();
  p.customPropertiesInUrls.add(name[1]!);
}

/** What takeToken does for each of a run of idents, numbers, hashes, delims, colons and commas (its `default` branch). */
function takeIgnorableTokens(p: PolicyScan): void {
  if (p.awaitingTarget && p.depth === p.preludeDepth) p.awaitingTarget = false;
  if (p.depth > 0) p.stack[p.depth - 1] = p.stack[p.depth - 1]! & ~FRAME_FIRST_ARGUMENT_PENDING;
  p.statementStart = false;
}

/** Tracks nesting and at-rule preludes through the current token, and checks it if it is a reference. */
function takeToken(p: PolicyScan, kind: number): void {
  const stack = p.stack;
  const depth = p.depth;
  const top = depth > 0 ? stack[depth - 1]! : 0;
  const font = (top & FRAME_FONT) !== 0;
  const topKind = depth > 0 ? top & FRAME_KIND_MASK : -1;

  // The first component of an @import prelude is its target (CSS Cascade: a string or
  // a url); anything else makes the rule invalid, and later url()s are plain references.
  let importTarget = false;
  if (p.awaitingTarget && depth === p.preludeDepth) {
    p.awaitingTarget = false;
    importTarget = true;
  }
  const inNamespacePrelude = p.prelude === PRELUDE_NAMESPACE;

  // A url( / src( function's first argument.
  let firstArgument = false;
  if ((top & FRAME_FIRST_ARGUMENT_PENDING) !== 0) {
    stack[depth - 1] = top & ~FRAME_FIRST_ARGUMENT_PENDING;
    firstArgument = true;
  }

  // Cases in order of frequency: an interpreter tries them one by one.
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
      // A `}` closes a block only when a block is open on top; inside a function or a
      // () or [] block it is an ordinary component value, as the parser reads it.
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
      // @namespace url(...) names a namespace; nothing is fetched.
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
      // Ignored between top-level rules, so they do not end a statement start.
      if (depth === 0) return;
      break;
    default:
      break;
  }
  p.statementStart = false;
}

/** Opens a frame on top of the nesting stack. */
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

// Reference classification

function quoted(value: string): string {
  const shown = value.length > QUOTED_VALUE_MAX_CHARS ? `${value.slice(0, QUOTED_VALUE_MAX_CHARS)}...` : value;
  return JSON.stringify(shown);
}

/** Checks the current token (a url, or a string in a reference position) as a reference. */
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
      // A fallback after a font source that loads: never requested.
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
