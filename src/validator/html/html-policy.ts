// The entrypoint policy (contract "Bundle"; D-17..D-19, D-22) over the tokens as a browser's tree builder reads them
// (tree-model.ts); where readings can differ (SVG, MathML, <select>, <template>), ambiguity.ts checks the other one.
import { checkCss, type CssSource } from '../css/css-policy.js';
import { FindingList } from '../findings.js';
import { extensionOf } from '../paths.js';
import { classifyReference, dirName, rootRelativeHint, rootRelativeTwin, type ReferenceResult } from '../references.js';
import { FileScan, type BundleView } from '../scan.js';
import { asciiLower, decodeUtf8, LineMap } from '../text.js';
import { AmbiguityScanner } from './ambiguity.js';
import { OffsetMap } from './offset-map.js';
import { HtmlTokenizer, type CharacterToken, type HtmlAttribute, type TagToken } from './html-tokenizer.js';
import { TreeModel, type Namespace, type OpenElement } from './tree-model.js';
import {
  ANIMATION_ELEMENTS,
  PRESENTATION_URL_ATTRIBUTES,
  RESOURCE_HREF_ELEMENTS,
  URL_ATTRIBUTES,
  leadingWhitespaceLength,
  stripAsciiWhitespace,
  urlsOf,
} from './urls.js';

const FRAME_ELEMENTS = new Set(['iframe', 'frame', 'frameset', 'portal', 'fencedframe']);
const PLUGIN_ELEMENTS = new Set(['object', 'embed', 'applet']);
const LEGACY_RAW_TEXT_ELEMENTS = new Set(['xmp', 'noembed', 'noframes', 'plaintext']);
const RAW_TEXT_CANDIDATES = new Set(['title', 'textarea', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'script', 'plaintext']);
const AMBIGUITY_TRIGGERS = new Set(['svg', 'math', 'select', 'template', 'frameset', 'frame']);

const JAVASCRIPT_MIME_TYPES = new Set([
  'application/ecmascript', 'application/javascript', 'application/x-ecmascript', 'application/x-javascript',
  'text/ecmascript', 'text/javascript', 'text/javascript1.0', 'text/javascript1.1', 'text/javascript1.2',
  'text/javascript1.3', 'text/javascript1.4', 'text/javascript1.5', 'text/jscript', 'text/livescript',
  'text/x-ecmascript', 'text/x-javascript',
]);

const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'livescript']);

/** Module scripts: a plain relative path has none of these (D-22), nor controls or spaces. */
const NOT_PLAIN_PATH = /[%?#\\\u0000-\u0020\u007f]/;

const ASCII_WHITESPACE_ONLY = /^[\t\n\f\r ]*$/;

const REPORTS_PER_RULE_LIMIT = 100;

const REFERENCE_MEMO_SIZE = 4096;

export function checkEntrypointHtml(file: string, bytes: Uint8Array, bundle: BundleView, findings: FindingList): void {
  const decoded = decodeUtf8(bytes);
  if (decoded === null) {
    reportInvalidUtf8(file, bytes, findings);
    return;
  }
  // The BOM is not content (13.2.3.1) and editors do not count it as a column.
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  new EntrypointScanner(new CappedFileScan(file, text, bundle, findings)).run();
}

/** At most REPORTS_PER_RULE_LIMIT findings per rule: a 5 MiB document can repeat one mistake a million times. */
class CappedFileScan extends FileScan {
  private readonly counts = new Map<string, number>();

  /** Counts one finding of `rule`; false once the rule has reached the limit. */
  allow(rule: string): boolean {
    const n = this.counts.get(rule) ?? 0;
    if (n >= REPORTS_PER_RULE_LIMIT) return false;
    this.counts.set(rule, n + 1);
    return true;
  }

  override report(rule: string, message: string, offset?: number): void {
    if (this.allow(rule)) super.report(rule, message, offset);
  }
}

function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b0 = bytes[i]!;
    let need: number;
    let min = 0x80;
    let max = 0xbf;
    if (b0 < 0x80) {
      i++;
      continue;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) need = 1;
    else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      if (b0 === 0xe0) min = 0xa0; // overlong
      if (b0 === 0xed) max = 0x9f; // surrogate
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      if (b0 === 0xf0) min = 0x90; // overlong
      if (b0 === 0xf4) max = 0x8f; // above U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const b = bytes[i + k];
      if (b === undefined) return i;
      if (k === 1 ? b < min || b > max : (b & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return n;
}

function reportInvalidUtf8(file: string, bytes: Uint8Array, findings: FindingList): void {
  const bad = firstInvalidUtf8Byte(bytes);
  let prefix = decodeUtf8(bytes.subarray(0, bad)) ?? '';
  if (prefix.charCodeAt(0) === 0xfeff) prefix = prefix.slice(1);
  const { line, column } = new LineMap(prefix).at(prefix.length);
  findings.add('html/invalid-utf8', `The entrypoint is not valid UTF-8: byte 0x${(bytes[bad] ?? 0).toString(16).padStart(2, '0')} at byte offset ${bad}`, { file, line, column });
}

function attribute(tag: TagToken, name: string): HtmlAttribute | undefined {
  for (const a of tag.attributes) if (a.name === name) return a;
  return undefined;
}

function valueOffset(attr: HtmlAttribute, at: number): number {
  return attr.valueMap === null ? attr.valueStart + at : attr.valueMap.map(at);
}

interface StyleCollector {
  readonly parts: string[];
  readonly map: OffsetMap;
  readonly contentStart: number;
  readonly ambiguous: boolean;
}

interface RawElement {
  readonly tag: TagToken;
  bodyOffset: number;
}

class EntrypointScanner {
  private readonly text: string;
  private readonly baseDir: string;
  private readonly tokenizer: HtmlTokenizer;
  private readonly model: TreeModel;
  private readonly ambiguity: AmbiguityScanner;
  private readonly styles = new Map<OpenElement, StyleCollector>();
  /** Set once a start tag makes the tree model's reading uncertain (AMBIGUITY_TRIGGERS). */
  private uncertain = false;
  private raw: RawElement | null = null;
  /** Start of the token being processed (where elements popped by it end). */
  private tokenStart = 0;
  /** classifyReference results by URL text (documents repeat their URLs); bounded. */
  private readonly references = new Map<string, ReferenceResult>();

  constructor(private readonly scan: CappedFileScan) {
    this.text = scan.text;
    this.baseDir = dirName(scan.file);
    this.tokenizer = new HtmlTokenizer(this.text);
    this.model = new TreeModel((element) => this.popped(element));
    this.ambiguity = new AmbiguityScanner(this.text);
  }

  run(): void {
    const nul = this.text.indexOf('\u0000');
    if (nul >= 0) this.scan.report('html/nul-character', 'The entrypoint contains a NUL (U+0000) character', nul);
    for (;;) {
      this.tokenizer.allowCdata = this.model.inForeignContent;
      const token = this.tokenizer.next();
      this.tokenStart = token.start;
      switch (token.type) {
        case 'startTag':
          this.startTag(token);
          break;
        case 'endTag':
          if (this.raw !== null) this.finishRaw(token.start);
          this.model.endTag(token);
          break;
        case 'character':
          this.characters(token);
          break;
        case 'comment':
          if (this.uncertain && token.data.startsWith('[CDATA[') && this.text.startsWith('<![CDATA[', token.start)) this.checkCdata(token.start);
          break;
        case 'cdataStart':
          if (this.uncertain) this.checkCdata(token.start);
          break;
        case 'doctype':
          break;
        case 'eof':
          if (this.raw !== null) this.finishRaw(this.text.length);
          this.model.finish();
          return;
      }
    }
  }

  // Tokens

  private startTag(tag: TagToken): void {
    if (AMBIGUITY_TRIGGERS.has(tag.name)) this.uncertain = true;
    const parent = this.model.current;
    const result = this.model.startTag(tag);
    if (this.model.degraded) this.uncertain = true;
    // A tag the tree builder ignores is still checked, as if it were HTML: cheap and safe.
    const namespace: Namespace = result.namespace ?? 'html';
    this.checkAttributes(tag, namespace, parent);
    this.checkElement(tag, namespace);
    const ambiguous = this.uncertain && RAW_TEXT_CANDIDATES.has(tag.name) && this.checkRawTextReadings(tag);
    if (result.contentState !== null) {
      this.tokenizer.switchTo(result.contentState);
      if (result.contentState !== 'plaintext') this.raw = { tag, bodyOffset: -1 };
    }
    if (result.element !== null && namespace !== 'html' && tag.name === 'style') {
      this.styles.set(result.element, { parts: [], map: new OffsetMap(), contentStart: tag.end, ambiguous });
    }
  }

  private characters(token: CharacterToken): void {
    const raw = this.raw;
    if (raw !== null) {
      if (raw.bodyOffset < 0 && !ASCII_WHITESPACE_ONLY.test(token.data)) {
        raw.bodyOffset = token.literal ? token.start + leadingWhitespaceLength(token.data) : token.start;
      }
      return;
    }
    const current = this.model.current;
    const style = current === undefined ? undefined : this.styles.get(current);
    if (style === undefined) return;
    style.parts.push(token.data);
    if (token.literal) style.map.literal(token.start, token.data.length);
    else style.map.decoded(token.start, token.data.length, token.end - token.start);
  }

  /** The end tag (or the end of input at `end`) of an HTML raw-text element. */
  private finishRaw(end: number): void {
    const { tag, bodyOffset } = this.raw!;
    this.raw = null;
    if (tag.name === 'script') this.checkScript(tag, bodyOffset);
    else if (tag.name === 'style') this.checkStyleText(tag.end, end);
  }

  /** The tree model popped an element: an SVG/MathML <style> is complete. */
  private popped(element: OpenElement): void {
    const style = this.styles.get(element);
    if (style === undefined) return;
    this.styles.delete(element);
    const primary: CssSource = {
      text: style.parts.join(''),
      mode: 'stylesheet',
      baseDir: this.baseDir,
      mapOffset: (o) => style.map.map(o),
    };
    let alternative: CssSource | null = null;
    if (!style.ambiguous) {
      const rawText = this.text.slice(style.contentStart, Math.max(style.contentStart, this.tokenStart));
      if (rawText.includes('&')) alternative = this.linearCss(rawText, style.contentStart);
    }
    this.checkCssReadings(primary, alternative);
  }

  // Ambiguity (D-22): see ambiguity.ts.

  /** Refuses markup in what an HTML parser would read as raw text; true when it found some. */
  private checkRawTextReadings(tag: TagToken): boolean {
    const start = tag.end;
    const end = tag.name === 'plaintext' ? this.text.length : this.ambiguity.rawTextEnd(tag.name, start);
    const markup = this.ambiguity.rawTextMarkup(start, end);
    if (markup < 0) return false;
    this.scan.report(
      'html/ambiguous-markup',
      `Markup inside <${tag.name}> in a document with SVG, MathML, <select> or <template>: HTML parsers disagree on whether it is text`,
      markup,
    );
    return true;
  }

  private checkCdata(start: number): void {
    const markup = this.ambiguity.cdataDifference(start);
    if (markup >= 0) {
      this.scan.report(
        'html/ambiguous-markup',
        'Markup inside a CDATA section after a ">": it is text in SVG or MathML but markup where the section reads as a comment',
        markup,
      );
    }
  }

  // Elements

  private checkElement(tag: TagToken, namespace: Namespace): void {
    const name = tag.name;
    const at = tag.start;
    if (name === 'script') {
      if (namespace !== 'html') this.scan.report('html/foreign-script', `A <script> element inside ${namespace === 'svg' ? 'SVG' : 'MathML'}`, at);
    } else if (name === 'base') {
      this.scan.report('html/base-element', 'A <base> element: the platform injects its own base URL', at);
    } else if (FRAME_ELEMENTS.has(name)) {
      this.scan.report('html/frame-element', `A <${name}> element: the frame cannot contain frames`, at);
    } else if (PLUGIN_ELEMENTS.has(name)) {
      this.scan.report('html/plugin-element', `An <${name}> element: plug-in content is not allowed`, at);
    } else if (name === 'noscript') {
      this.scan.report('html/noscript', 'A <noscript> element', at);
    } else if (LEGACY_RAW_TEXT_ELEMENTS.has(name)) {
      this.scan.report('html/legacy-raw-text-element', `An obsolete <${name}> element`, at);
    } else if (name === 'form') {
      this.scan.report('html/form-element', 'A <form> element: submission is blocked in the frame; use PLATFORM.forms.submit', at);
    } else if (name === 'meta') {
      this.checkMeta(tag);
    } else if (ANIMATION_ELEMENTS.has(name)) {
      this.checkAnimation(tag);
    }
  }

  private checkScript(tag: TagToken, bodyOffset: number): void {
    const at = tag.start;
    const src = attribute(tag, 'src');
    const kind = scriptKind(tag);
    if (kind === 'data') {
      const type = attribute(tag, 'type')?.value ?? '';
      this.scan.report('html/script-data-block', `A <script type="${type}"> data block`, at);
      return;
    }
    if (kind === 'classic') {
      if (src === undefined) {
        this.scan.report('html/inline-script', 'An inline <script>', at);
        return;
      }
      // Checked as a module's src too, so that adding type="module" brings no new finding.
      this.scan.report('html/classic-script', 'A classic <script src> (not type="module")', at);
    } else if (src === undefined) {
      this.scan.report('html/inline-script', 'An inline <script type="module"> without src', at);
      return;
    }
    const where = kind === 'classic' ? '<script src>' : '<script type="module" src>';
    if (bodyOffset >= 0) this.scan.report('html/script-body-with-src', `A ${where} with a body`, bodyOffset);
    this.checkModuleSrc(src, where);
  }

  private checkModuleSrc(src: HtmlAttribute, where: string): void {
    const at = valueOffset(src, leadingWhitespaceLength(src.value));
    const ref = classifyReference(src.value, this.baseDir);
    if (ref.type === 'remote' || ref.type === 'data') {
      this.checkReference(ref, src.value, at, where, false);
      return;
    }
    const value = stripAsciiWhitespace(src.value);
    if (value === '' || NOT_PLAIN_PATH.test(value)) {
      this.scan.report('html/module-src-not-plain', `The script src "${src.value}" is not a plain relative path (no %, ?, #, backslash, spaces or control characters)`, at);
      return;
    }
    if (ref.type === 'local') {
      const ext = extensionOf(ref.path);
      if (ext !== 'js' && ext !== 'mjs') {
        this.scan.report('html/module-src-not-javascript', `The script src "${src.value}" is not a .js or .mjs file`, at);
        return;
      }
    }
    this.checkReference(ref, src.value, at, where, false);
  }

  private checkMeta(tag: TagToken): void {
    const charset = attribute(tag, 'charset');
    if (charset !== undefined) this.checkCharsetLabel(charset.value, valueOffset(charset, 0));
    const httpEquiv = attribute(tag, 'http-equiv');
    if (httpEquiv === undefined) return;
    const kind = asciiLower(stripAsciiWhitespace(httpEquiv.value));
    if (kind === 'content-security-policy' || kind === 'content-security-policy-report-only') {
      this.scan.report('html/authored-csp', `A <meta http-equiv="${httpEquiv.value}">: the platform serves the only policy`, tag.start);
    } else if (kind === 'refresh') {
      this.scan.report('html/meta-refresh', 'A <meta http-equiv="refresh">', tag.start);
    } else if (kind === 'content-type') {
      const content = attribute(tag, 'content');
      if (content === undefined) return;
      const found = charsetFromContent(content.value);
      if (found !== null) this.checkCharsetLabel(found.label, valueOffset(content, found.offset));
    }
  }

  /** D-22: the label must be "utf-8" (ASCII case-insensitive, surrounding whitespace ignored). */
  private checkCharsetLabel(label: string, at: number): void {
    if (asciiLower(stripAsciiWhitespace(label)) === 'utf-8') return;
    this.scan.report('html/meta-charset', `The document declares the encoding "${label}"; it must be "utf-8"`, at);
  }

  /**
   * SVG animation: `attributeName` may point the animation at an event handler (script)
   * or at href (navigation, script URLs); `values`, `from`, `to`, `by` are then URLs.
   */
  private checkAnimation(tag: TagToken): void {
    const targetAttr = attribute(tag, 'attributename');
    if (targetAttr === undefined) return;
    const target = asciiLower(stripAsciiWhitespace(targetAttr.value));
    if (target.startsWith('on')) {
      this.scan.report('html/event-handler-attribute', `An SVG animation of the event handler attribute "${targetAttr.value}"`, valueOffset(targetAttr, 0));
      return;
    }
    const isHref = target === 'href' || target.endsWith(':href');
    const isCss = target === 'style' || PRESENTATION_URL_ATTRIBUTES.has(target);
    if (!isHref && !isCss) return;
    for (const name of ['values', 'from', 'to', 'by']) {
      const attr = attribute(tag, name);
      if (attr === undefined) continue;
      const pieces = name === 'values' ? splitWithOffsets(attr.value, ';') : [{ text: attr.value, offset: 0 }];
      for (const piece of pieces) {
        const lead = leadingWhitespaceLength(piece.text);
        const value = stripAsciiWhitespace(piece.text);
        if (value === '') continue;
        const at = valueOffset(attr, piece.offset + lead);
        if (isHref) {
          const ref = classifyReference(value, this.baseDir);
          if (ref.type === 'remote' && SCRIPT_SCHEMES.has(ref.scheme)) {
            this.scan.report('html/javascript-url', `A ${ref.scheme}: URL in an SVG animation of href`, at);
          } else if (ref.type !== 'fragment') {
            this.scan.report('html/animated-href', `An SVG animation sets href to "${value}"`, at);
          }
        } else {
          const prefix = target === 'style' ? '' : `${target}:`;
          const base = piece.offset;
          checkCss(this.scan, {
            text: prefix + piece.text,
            mode: 'declarations',
            baseDir: this.baseDir,
            mapOffset: (o) => valueOffset(attr, Math.max(0, o - prefix.length) + base),
          });
        }
      }
    }
  }

  // Attributes

  private checkAttributes(tag: TagToken, namespace: Namespace, parent: OpenElement | undefined): void {
    for (const dup of tag.duplicates) {
      this.scan.report('html/duplicate-attribute', `The attribute "${dup.name}" is repeated on <${tag.name}>`, dup.nameStart);
    }
    for (const attr of tag.attributes) {
      const name = attr.name;
      // `x:on*` too: no handler in today's browsers, but refusing it covers engines that honoured XML event attributes.
      if (isEventHandlerName(name)) {
        this.scan.report('html/event-handler-attribute', `An inline event handler attribute "${name}" on <${tag.name}>`, attr.nameStart);
        continue;
      }
      if (name === 'style') {
        checkCss(this.scan, { text: attr.value, mode: 'declarations', baseDir: this.baseDir, mapOffset: (o) => valueOffset(attr, o) });
        continue;
      }
      if (PRESENTATION_URL_ATTRIBUTES.has(name)) {
        const prefix = `${name}:`;
        checkCss(this.scan, {
          text: prefix + attr.value,
          mode: 'declarations',
          baseDir: this.baseDir,
          mapOffset: (o) => (o < prefix.length ? attr.nameStart + o : valueOffset(attr, o - prefix.length)),
        });
        continue;
      }
      const kind = URL_ATTRIBUTES.get(name);
      if (kind === undefined) continue;
      if (tag.name === 'script' && namespace === 'html' && name === 'src') continue;
      for (const part of urlsOf(kind, attr.value)) this.checkUrlAttribute(tag, namespace, parent, attr, part.url, part.offset);
    }
  }

  private classify(url: string): ReferenceResult {
    let ref = this.references.get(url);
    if (ref === undefined) {
      ref = classifyReference(url, this.baseDir);
      if (this.references.size < REFERENCE_MEMO_SIZE) this.references.set(url, ref);
    }
    return ref;
  }

  private checkUrlAttribute(tag: TagToken, namespace: Namespace, parent: OpenElement | undefined, attr: HtmlAttribute, url: string, offset: number): void {
    const at = valueOffset(attr, offset + leadingUrlJunkLength(url));
    const ref = this.classify(url);
    const where = `<${tag.name} ${attr.name}>`;
    if (ref.type === 'remote' && SCRIPT_SCHEMES.has(ref.scheme)) {
      this.scan.report('html/javascript-url', `A ${ref.scheme}: URL in ${where}`, at);
      return;
    }
    const isLink = (attr.name === 'href' || attr.name === 'xlink:href') && !RESOURCE_HREF_ELEMENTS.has(tag.name);
    if (isLink) {
      if (ref.type !== 'fragment') this.scan.report('html/navigation-link', `The link ${where} "${url}" would navigate the frame; only "#fragment" links are allowed`, at);
      return;
    }
    this.checkReference(ref, url, at, where, isImageResource(tag, namespace, attr.name, parent));
  }

  /** D-19: the shared verdict for a classified reference. */
  private checkReference(ref: ReferenceResult, url: string, at: number, where: string, imageAllowed: boolean): void {
    switch (ref.type) {
      case 'empty':
      case 'fragment':
        return;
      case 'data':
        if (!imageAllowed) this.scan.report('html/data-url-not-image', `A data: URL in ${where}, which is not an image`, at);
        return;
      case 'remote':
        if (SCRIPT_SCHEMES.has(ref.scheme)) this.scan.report('html/javascript-url', `A ${ref.scheme}: URL in ${where}`, at);
        else this.scan.report('html/remote-reference', `The remote reference "${url}" in ${where}`, at);
        return;
      case 'root': {
        // Vite's default base writes `/assets/…`; the relative twin is what loads (and counts as used).
        const twin = rootRelativeTwin(url, this.scan.bundle);
        this.scan.report('html/reference-outside-bundle', `The reference "${url}" in ${where} leaves the bundle${twin === undefined ? '' : rootRelativeHint(twin)}`, at);
        return;
      }
      case 'outside':
        this.scan.report('html/reference-outside-bundle', `The reference "${url}" in ${where} leaves the bundle`, at);
        return;
      case 'local': {
        if (this.scan.bundle.has(ref.path)) return;
        const near = this.scan.bundle.caseInsensitiveMatch(ref.path);
        const hint = near !== undefined ? ` (did you mean "${near}"?)` : '';
        this.scan.report('html/missing-reference', `"${url}" in ${where} is not a file of the bundle: "${ref.path}"${hint}`, at);
        return;
      }
    }
  }

  // CSS

  /** An HTML <style>: its raw text maps one-to-one onto the file. */
  private checkStyleText(start: number, end: number): void {
    const rawText = this.text.slice(start, end);
    const primary = this.linearCss(rawText, start);
    const alternative = this.uncertain && rawText.includes('&') ? this.decodedCss(rawText, start) : null;
    this.checkCssReadings(primary, alternative);
  }

  private linearCss(text: string, start: number): CssSource {
    return { text, mode: 'stylesheet', baseDir: this.baseDir, mapOffset: (o) => start + o };
  }

  /** `text` read in the data state (character references decoded), mapped back to the file. */
  private decodedCss(text: string, start: number): CssSource {
    const tokenizer = new HtmlTokenizer(text);
    const parts: string[] = [];
    const map = new OffsetMap();
    for (let t = tokenizer.next(); t.type !== 'eof'; t = tokenizer.next()) {
      if (t.type !== 'character') continue;
      parts.push(t.data);
      if (t.literal) map.literal(start + t.start, t.data.length);
      else map.decoded(start + t.start, t.data.length, t.end - t.start);
    }
    return { text: parts.join(''), mode: 'stylesheet', baseDir: this.baseDir, mapOffset: (o) => map.map(o) };
  }

  /** Checks the primary reading, then adds the other reading's findings that are new. */
  private checkCssReadings(primary: CssSource, alternative: CssSource | null): void {
    const findings = this.scan.findings;
    const before = findings.items.length;
    checkCss(this.scan, primary);
    if (alternative === null) return;
    const seen = new Set<string>();
    for (let i = before; i < findings.items.length; i++) {
      const f = findings.items[i]!;
      seen.add(`${f.rule} ${f.line} ${f.column}`);
    }
    const extra = new FindingList();
    checkCss(new FileScan(this.scan.file, this.text, this.scan.bundle, extra), alternative);
    for (const f of extra.items) {
      if (seen.has(`${f.rule} ${f.line} ${f.column}`) || !this.scan.allow(f.rule)) continue;
      findings.add(f.rule, f.message, { file: f.file, line: f.line, column: f.column });
    }
  }
}

function scriptKind(tag: TagToken): 'classic' | 'module' | 'data' {
  const type = attribute(tag, 'type');
  const language = attribute(tag, 'language');
  let essence: string;
  if (type !== undefined) {
    essence = asciiLower(stripAsciiWhitespace(type.value));
    if (type.value === '') return 'classic';
  } else if (language !== undefined && language.value !== '') {
    essence = 'text/' + asciiLower(language.value);
  } else {
    return 'classic';
  }
  if (JAVASCRIPT_MIME_TYPES.has(essence)) return 'classic';
  if (essence === 'module') return 'module';
  return 'data';
}

function isImageResource(tag: TagToken, namespace: Namespace, attr: string, parent: OpenElement | undefined): boolean {
  const name = tag.name;
  if ((name === 'img' || name === 'image') && (attr === 'src' || attr === 'srcset')) return true;
  if (name === 'source' && attr === 'srcset') return parent !== undefined && parent.namespace === 'html' && parent.name === 'picture';
  if (name === 'input' && attr === 'src') {
    const type = attribute(tag, 'type');
    return type !== undefined && asciiLower(type.value) === 'image';
  }
  if (name === 'video' && attr === 'poster') return true;
  if ((name === 'image' || name === 'feimage') && (attr === 'href' || attr === 'xlink:href')) return namespace !== 'html' || name === 'image';
  return false;
}

function charsetFromContent(content: string): { label: string; offset: number } | null {
  const lower = asciiLower(content);
  let from = 0;
  for (;;) {
    const i = lower.indexOf('charset', from);
    if (i < 0) return null;
    let p = i + 'charset'.length;
    while (p < content.length && /[\t\n\f\r ]/.test(content[p]!)) p++;
    if (content[p] !== '=') {
      from = p;
      continue;
    }
    p++;
    while (p < content.length && /[\t\n\f\r ]/.test(content[p]!)) p++;
    const q = content[p];
    if (q === '"' || q === "'") {
      const close = content.indexOf(q, p + 1);
      if (close < 0) return null;
      return { label: content.slice(p + 1, close), offset: p + 1 };
    }
    let e = p;
    while (e < content.length && !/[\t\n\f\r ;]/.test(content[e]!)) e++;
    if (e === p) return null;
    return { label: content.slice(p, e), offset: p };
  }
}

function isEventHandlerName(name: string): boolean {
  const local = name.lastIndexOf(':') + 1;
  return name.charCodeAt(local) === 0x6f && name.charCodeAt(local + 1) === 0x6e;
}

function leadingUrlJunkLength(url: string): number {
  let i = 0;
  while (i < url.length && url.charCodeAt(i) <= 0x20) i++;
  return i;
}

function splitWithOffsets(text: string, separator: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  let start = 0;
  for (;;) {
    const i = text.indexOf(separator, start);
    if (i < 0) {
      out.push({ text: text.slice(start), offset: start });
      return out;
    }
    out.push({ text: text.slice(start, i), offset: start });
    start = i + separator.length;
  }
}
