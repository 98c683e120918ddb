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
// Classification (classifyReference, relative to the referring file's folder):
//   remote (`http:`, `//host`, any scheme but data:) -> error; the policy allows only
//   the release base URL (D-17) and the contract allows no remote resources (Bundle).
//   data: -> fine for images (img-src allows data:), an error for @font-face sources
//   (font-src is the base URL only) and for @import (style-src is the base URL only).
//   root (`/x`) and `..` above the root -> error: both leave the release.
//   local -> must be a bundle file (query and fragment stripped, `?#iefix` is common).
import { FileScan, type BundleView } from '../scan.js';
import type { FindingList } from '../findings.js';
import { classifyReference, dirName, type ReferenceResult } from '../references.js';
import { asciiLower, decodeUtf8 } from '../text.js';
import { decodeUtf8Lossy } from './lossy-utf8.js';
import { consumeToken, createTokenizer, type CssToken } from './tokenizer.js';

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
  scanCss(scan, text, dirName(file), identity);
}

function identity(offset: number): number {
  return offset;
}

// ---------------------------------------------------------------------------
// Nesting tracker
// ---------------------------------------------------------------------------

/** What a reference loads, which decides how a data: URL is judged. */
type ReferenceKind = 'image' | 'font' | 'import';

interface Frame {
  readonly kind: '{' | '[' | '(' | 'function';
  /** Lowercased function name ('' for blocks). */
  readonly name: string;
  /** Inside an @font-face block: url() there are font sources. */
  readonly font: boolean;
  /** For url( and src(: the first argument decides whether this is a reference. */
  firstArgumentPending: boolean;
  /** This url( / src( is the target of an @import. */
  readonly importTarget: boolean;
}

interface AtRulePrelude {
  /** Lowercased, decoded name (`@\69mport` is `import`). */
  readonly name: string;
  /** Stack depth of the at-keyword: the prelude ends at `;` or `{` at this depth. */
  readonly depth: number;
  /** @import: the first component is still to come. */
  awaitingTarget: boolean;
}

/** Functions whose direct string arguments are image URLs (CSS Images 4). */
const IMAGE_STRING_FUNCTIONS = new Set(['image-set', '-webkit-image-set', 'image']);

/** Functions whose first string argument is a URL (CSS Values 4: url("..."), src("...")). */
const URL_FUNCTIONS = new Set(['url', 'src']);

/** Longest piece of a reference quoted in a message (presentation only, not a contract number). */
const QUOTED_VALUE_MAX_CHARS = 120;

interface Context {
  readonly scan: FileScan;
  readonly baseDir: string;
  readonly mapOffset: (cssOffset: number) => number;
  /** classifyReference results by reference text: large stylesheets repeat the same few URLs. */
  readonly classified: Map<string, ReferenceResult>;
}

function scanCss(scan: FileScan, text: string, baseDir: string, mapOffset: (cssOffset: number) => number): void {
  const ctx: Context = { scan, baseDir, mapOffset, classified: new Map() };
  const tokenizer = createTokenizer(text);
  const stack: Frame[] = [];
  let prelude: AtRulePrelude | null = null;
  // True where a rule or declaration may begin: at the start, after `;`, `{` or `}` at the
  // current level. Only there is an at-keyword an at-rule (elsewhere it is a value).
  let statementStart = true;

  for (let token = consumeToken(tokenizer); token !== null; token = consumeToken(tokenizer)) {
    const type = token.type;
    if (type === 'whitespace-token' || type === 'comment') continue;
    const top = stack.length > 0 ? stack[stack.length - 1]! : undefined;
    const font = top?.font ?? false;

    // The first component of an @import prelude is its target (CSS Cascade: a string or
    // a url); anything else makes the rule invalid, and later url()s are plain references.
    let importTarget = false;
    if (prelude !== null && prelude.awaitingTarget && stack.length === prelude.depth) {
      prelude.awaitingTarget = false;
      importTarget = true;
    }
    const inNamespacePrelude = prelude !== null && prelude.name === 'namespace';

    // A url( / src( function's first argument.
    let firstArgument = false;
    if (top !== undefined && top.firstArgumentPending) {
      top.firstArgumentPending = false;
      firstArgument = true;
    }

    switch (type) {
      case 'url-token':
        // @namespace url(...) names a namespace; nothing is fetched.
        if (!inNamespacePrelude) checkReference(ctx, token, importTarget ? 'import' : font ? 'font' : 'image');
        break;
      case 'string-token':
        if (inNamespacePrelude) break;
        if (importTarget) checkReference(ctx, token, 'import');
        else if (firstArgument && URL_FUNCTIONS.has(top!.name)) checkReference(ctx, token, top!.importTarget ? 'import' : font ? 'font' : 'image');
        else if (top !== undefined && top.kind === 'function' && IMAGE_STRING_FUNCTIONS.has(top.name)) checkReference(ctx, token, 'image');
        break;
      case 'bad-url-token':
        ctx.scan.report('css/bad-url', 'Malformed url(): browsers drop the declaration that holds it (quote the URL or escape spaces, quotes and parentheses)', mapOffset(token.start));
        break;
      case 'function-token': {
        const name = asciiLower(token.value);
        const isUrlFunction = URL_FUNCTIONS.has(name);
        stack.push({ kind: 'function', name, font, firstArgumentPending: isUrlFunction, importTarget: importTarget && isUrlFunction });
        break;
      }
      case '(-token':
        stack.push({ kind: '(', name: '', font, firstArgumentPending: false, importTarget: false });
        break;
      case '[-token':
        stack.push({ kind: '[', name: '', font, firstArgumentPending: false, importTarget: false });
        break;
      case ')-token':
        if (top !== undefined && (top.kind === 'function' || top.kind === '(')) stack.pop();
        break;
      case ']-token':
        if (top !== undefined && top.kind === '[') stack.pop();
        break;
      case '{-token': {
        let blockIsFont = font;
        if (prelude !== null && stack.length === prelude.depth) {
          blockIsFont = blockIsFont || prelude.name === 'font-face';
          prelude = null;
        }
        stack.push({ kind: '{', name: '', font: blockIsFont, firstArgumentPending: false, importTarget: false });
        statementStart = true;
        continue;
      }
      case '}-token':
        // A `}` closes a block only when a block is open on top; inside a function or a
        // () or [] block it is an ordinary component value, as the parser reads it.
        if (top !== undefined && top.kind === '{') {
          stack.pop();
          if (prelude !== null && stack.length < prelude.depth) prelude = null;
          statementStart = true;
          continue;
        }
        break;
      case 'semicolon-token':
        if (prelude !== null && stack.length === prelude.depth) prelude = null;
        if (top === undefined || top.kind === '{') {
          statementStart = true;
          continue;
        }
        break;
      case 'at-keyword-token':
        if (statementStart && prelude === null && (top === undefined || top.kind === '{')) {
          prelude = { name: asciiLower(token.value), depth: stack.length, awaitingTarget: false };
          prelude.awaitingTarget = prelude.name === 'import';
        }
        break;
      case 'CDO-token':
      case 'CDC-token':
        // Ignored between top-level rules, so they do not end a statement start.
        if (top === undefined) continue;
        break;
      default:
        break;
    }
    statementStart = false;
  }
}

// ---------------------------------------------------------------------------
// Reference classification
// ---------------------------------------------------------------------------

function quoted(value: string): string {
  const shown = value.length > QUOTED_VALUE_MAX_CHARS ? `${value.slice(0, QUOTED_VALUE_MAX_CHARS)}...` : value;
  return JSON.stringify(shown);
}

function checkReference(ctx: Context, token: CssToken, kind: ReferenceKind): void {
  const at = ctx.mapOffset(token.start);
  const value = token.value;
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
        ctx.scan.report('css/data-font', 'An @font-face source is a data: URL: fonts load only from the release', at);
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
    case 'root':
      ctx.scan.report('css/root-relative-url', `The ${what} ${quoted(value)} starts with "/": it points to the site root, outside the release`, at);
      return;
    case 'outside':
      ctx.scan.report('css/url-outside-bundle', `The ${what} ${quoted(value)} climbs above the bundle root`, at);
      return;
    case 'local': {
      if (ctx.scan.bundle.has(result.path)) return;
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
