// Tree construction, lite (HTML 13.2.6): enough of the stack of open elements for content states and foreign content;
// where it cannot be exact, the policy also checks the other reading (ambiguity.ts).
import type { ContentState, TagToken } from './html-tokenizer.js';

export type Namespace = 'html' | 'svg' | 'math';

export interface OpenElement {
  readonly name: string;
  readonly namespace: Namespace;
  readonly htmlIntegrationPoint: boolean;
  readonly mathTextIntegrationPoint: boolean;
  readonly rawText: boolean;
}

export interface StartTagResult {
  readonly namespace: Namespace | null;
  readonly contentState: ContentState | null;
  readonly element: OpenElement | null;
}

const CONTENT_STATE_OF: ReadonlyMap<string, ContentState> = new Map<string, ContentState>([
  ['title', 'rcdata'],
  ['textarea', 'rcdata'],
  ['style', 'rawtext'],
  ['xmp', 'rawtext'],
  ['iframe', 'rawtext'],
  ['noembed', 'rawtext'],
  ['noframes', 'rawtext'],
  // Scripting is enabled in the frame (sandbox allow-scripts), so <noscript> is RAWTEXT.
  ['noscript', 'rawtext'],
  ['script', 'scriptData'],
  ['plaintext', 'plaintext'],
]);

const VOID_ELEMENTS = new Set([
  'area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'image', 'img', 'input',
  'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

const BREAKOUT_START_TAGS = new Set([
  'b', 'big', 'blockquote', 'body', 'br', 'center', 'code', 'dd', 'div', 'dl', 'dt', 'em', 'embed',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'hr', 'i', 'img', 'li', 'listing', 'menu', 'meta', 'nobr',
  'ol', 'p', 'pre', 'ruby', 's', 'small', 'span', 'strong', 'strike', 'sub', 'sup', 'table', 'tt', 'u',
  'ul', 'var',
]);

const CLOSES_P = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'details', 'dialog', 'dir', 'div', 'dl',
  'fieldset', 'figcaption', 'figure', 'footer', 'header', 'hgroup', 'main', 'menu', 'nav', 'ol', 'p',
  'search', 'section', 'summary', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'listing', 'form',
  'plaintext', 'xmp', 'hr', 'table',
]);

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

const SCOPE_BOUNDARIES = new Set(['applet', 'caption', 'html', 'table', 'td', 'th', 'marquee', 'object', 'template']);

const SPECIAL = new Set([
  'address', 'applet', 'area', 'article', 'aside', 'base', 'basefont', 'bgsound', 'blockquote', 'body',
  'br', 'button', 'caption', 'center', 'col', 'colgroup', 'dd', 'details', 'dir', 'div', 'dl', 'dt',
  'embed', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frame', 'frameset', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html', 'iframe', 'img', 'input', 'keygen', 'li',
  'link', 'listing', 'main', 'marquee', 'menu', 'meta', 'nav', 'noembed', 'noframes', 'noscript',
  'object', 'ol', 'p', 'param', 'plaintext', 'pre', 'script', 'search', 'section', 'select', 'source',
  'style', 'summary', 'table', 'tbody', 'td', 'template', 'textarea', 'tfoot', 'th', 'thead', 'title',
  'tr', 'track', 'ul', 'wbr', 'xmp',
]);

const SCOPED_END_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'button', 'center', 'details', 'dialog', 'dir', 'div',
  'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'header', 'hgroup', 'listing', 'main', 'menu',
  'nav', 'ol', 'pre', 'search', 'section', 'summary', 'ul', 'form', 'li', 'dd', 'dt', 'applet',
  'marquee', 'object',
  // Formatting elements: the adoption agency algorithm, approximated as "pop to it in scope".
  'a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u',
]);

const KIND_FOREIGN_ROOT = 1;
const KIND_TABLE_PART = 2;
const KIND_CLOSES_P = 4;
const KIND_HEADING = 8;
const KIND_LIST_ITEM = 16;
const KIND_RAW_TEXT = 32;
const KIND_NOT_PUSHED = 64;

const START_TAG_KIND = new Map<string, number>();
function addKind(names: Iterable<string>, bit: number): void {
  for (const n of names) START_TAG_KIND.set(n, (START_TAG_KIND.get(n) ?? 0) | bit);
}
addKind(['svg', 'math'], KIND_FOREIGN_ROOT);
addKind(['caption', 'col', 'colgroup', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr'], KIND_TABLE_PART);
addKind(CLOSES_P, KIND_CLOSES_P);
addKind(HEADINGS, KIND_HEADING);
addKind(['li', 'dd', 'dt'], KIND_LIST_ITEM);
addKind(CONTENT_STATE_OF.keys(), KIND_RAW_TEXT);
addKind(VOID_ELEMENTS, KIND_NOT_PUSHED);
addKind(['frameset', 'html', 'body', 'head'], KIND_NOT_PUSHED);
// <table> is handled by name after the p check (it has an entry through CLOSES_P).

const VOID_RESULT: StartTagResult = { namespace: 'html', contentState: null, element: null };

const TABLE_PART_ROUNDS = 6;

const TABLE_PARTS = new Set(['caption', 'col', 'colgroup', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr']);
const TABLE_SECTIONS = new Set(['tbody', 'thead', 'tfoot']);
const TABLE_CONTEXT = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup', 'template']);

function htmlElement(name: string, rawText = false): OpenElement {
  return { name, namespace: 'html', htmlIntegrationPoint: false, mathTextIntegrationPoint: false, rawText };
}

function attributeValue(tag: TagToken, name: string): string | undefined {
  for (const a of tag.attributes) if (a.name === name) return a.value;
  return undefined;
}

function asciiLowerText(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function foreignElement(tag: TagToken, namespace: 'svg' | 'math'): OpenElement {
  const name = tag.name;
  let htmlIntegrationPoint = false;
  let mathTextIntegrationPoint = false;
  if (namespace === 'svg') {
    htmlIntegrationPoint = name === 'foreignobject' || name === 'desc' || name === 'title';
  } else if (name === 'mi' || name === 'mo' || name === 'mn' || name === 'ms' || name === 'mtext') {
    mathTextIntegrationPoint = true;
  } else if (name === 'annotation-xml') {
    const encoding = attributeValue(tag, 'encoding');
    if (encoding !== undefined) {
      const e = asciiLowerText(encoding);
      htmlIntegrationPoint = e === 'text/html' || e === 'application/xhtml+xml';
    }
  }
  return { name, namespace, htmlIntegrationPoint, mathTextIntegrationPoint, rawText: false };
}

const END_OTHER = 0;
const END_IGNORED = 1;
const END_P = 2;
const END_HEADING = 3;
const END_TEMPLATE = 4;
const END_TABLE = 5;
const END_FORM = 6;
const END_SCOPED = 7;

const END_TAG_KIND = new Map<string, number>();
for (const n of ['br', 'body', 'html', 'head', 'frameset']) END_TAG_KIND.set(n, END_IGNORED);
for (const n of SCOPED_END_TAGS) END_TAG_KIND.set(n, END_SCOPED);
END_TAG_KIND.set('select', END_SCOPED);
for (const n of HEADINGS) END_TAG_KIND.set(n, END_HEADING);
for (const n of [...TABLE_PARTS, 'table']) END_TAG_KIND.set(n, END_TABLE);
END_TAG_KIND.set('p', END_P);
END_TAG_KIND.set('template', END_TEMPLATE);
END_TAG_KIND.set('form', END_FORM);

// Per stack entry, the index of the nearest element of each kind at or below it (-1: none), so "is X in scope" is
// a lookup, not a walk down the stack (`<div>` x 10^6 would be quadratic).
const NEAREST_HTML = 0;
const NEAREST_SPECIAL = 1;
const NEAREST_LIST_ITEM_STOP = 2;
const NEAREST_SCOPE = 3;
const NEAREST_BUTTON_SCOPE = 4;
const NEAREST_TABLE_SCOPE = 5;
const NEAREST_TABLE_CONTEXT = 6;
const BOUNDARY_KINDS = 7;
/** Deeper elements are not modelled (`degraded`); browsers nest deeper, so the policy then checks both readings. */
const MAX_MODELLED_DEPTH = 1024;
const INITIAL_CAPACITY = 64;

function isScopeBoundary(e: OpenElement): boolean {
  if (e.namespace === 'html') return SCOPE_BOUNDARIES.has(e.name);
  return e.mathTextIntegrationPoint || e.name === 'annotation-xml' || (e.namespace === 'svg' && (e.name === 'foreignobject' || e.name === 'desc' || e.name === 'title'));
}

function isSpecial(e: OpenElement): boolean {
  return e.namespace === 'html' ? SPECIAL.has(e.name) : isScopeBoundary(e);
}

function boundaryBits(e: OpenElement): number {
  const html = e.namespace === 'html';
  const name = e.name;
  const special = isSpecial(e);
  const scope = isScopeBoundary(e);
  let bits = 0;
  if (html) bits |= 1 << NEAREST_HTML;
  if (special) bits |= 1 << NEAREST_SPECIAL;
  if (special && !(html && (name === 'address' || name === 'div' || name === 'p'))) bits |= 1 << NEAREST_LIST_ITEM_STOP;
  if (scope) bits |= 1 << NEAREST_SCOPE;
  if (scope || (html && name === 'button')) bits |= 1 << NEAREST_BUTTON_SCOPE;
  if (html && (name === 'html' || name === 'table' || name === 'template')) bits |= 1 << NEAREST_TABLE_SCOPE;
  if (html && TABLE_CONTEXT.has(name)) bits |= 1 << NEAREST_TABLE_CONTEXT;
  return bits;
}

interface SharedElement {
  readonly element: OpenElement;
  readonly bits: number;
  readonly result: StartTagResult;
}

const HTML_ELEMENTS = new Map<string, SharedElement>();

function sharedHtmlElement(name: string, rawText: boolean): SharedElement {
  const key = rawText ? name + ' raw' : name;
  let found = HTML_ELEMENTS.get(key);
  if (found === undefined) {
    const element = htmlElement(name, rawText);
    found = { element, bits: boundaryBits(element), result: { namespace: 'html', contentState: null, element } };
    if (HTML_ELEMENTS.size < 4096) HTML_ELEMENTS.set(key, found);
  }
  return found;
}

export class TreeModel {
  private readonly elements: OpenElement[] = [];
  private bounds = new Int32Array(INITIAL_CAPACITY * BOUNDARY_KINDS);
  /** Per-name stacks of the indices where an element of that name is open, by namespace kind. */
  private readonly htmlPositions = new Map<string, number[]>();
  private readonly foreignPositions = new Map<string, number[]>();
  private isDegraded = false;
  /** The top of `elements`, kept in a field: it is read several times per token. */
  private currentElement: OpenElement | undefined = undefined;

  /** Called for every element as it leaves the stack (the policy finishes SVG <style> text there). */
  constructor(private readonly onPop: (element: OpenElement) => void = () => {}) {}

  /** The current node (no fragment case, so also the adjusted current node). */
  get current(): OpenElement | undefined {
    return this.currentElement;
  }

  /** 13.2.5.42: CDATA sections are recognized only when the adjusted current node is foreign. */
  get inForeignContent(): boolean {
    const c = this.current;
    return c !== undefined && c.namespace !== 'html';
  }

  get depth(): number {
    return this.elements.length;
  }

  /**
   * True once an element was not modelled because the stack was MAX_MODELLED_DEPTH deep:
   * from then on the model may disagree with a browser, and the policy checks both
   * readings (as it does after SVG or MathML).
   */
  get degraded(): boolean {
    return this.isDegraded;
  }

  /** Processes a start tag as the tree construction dispatcher (13.2.6) would. */
  startTag(tag: TagToken): StartTagResult {
    if (this.usesForeignRules(tag.name)) {
      if (BREAKOUT_START_TAGS.has(tag.name) || (tag.name === 'font' && this.fontBreaksOut(tag))) {
        this.popForeign();
      } else {
        const namespace = this.current!.namespace as 'svg' | 'math';
        const element = foreignElement(tag, namespace);
        if (tag.selfClosing) return { namespace, contentState: null, element: null };
        return { namespace, contentState: null, element: this.push(element) ? element : null };
      }
    }
    return this.htmlStartTag(tag);
  }

  /** Processes an end tag (raw-text end tags included). */
  endTag(tag: TagToken): void {
    const current = this.current;
    if (current === undefined) return;
    if (current.rawText) {
      this.popTo(this.elements.length - 1);
      return;
    }
    if (current.namespace !== 'html') {
      if (tag.name === 'br' || tag.name === 'p') {
        this.popForeign();
        this.htmlEndTag(tag.name);
        return;
      }
      this.foreignEndTag(tag.name);
      return;
    }
    this.htmlEndTag(tag.name);
  }

  /** Empties the stack at the end of the input (every element is "popped"). */
  finish(): void {
    this.popTo(0);
  }

  // The stack

  private pushHtml(name: string, rawText = false): boolean {
    const shared = sharedHtmlElement(name, rawText);
    return this.pushWith(shared.element, shared.bits);
  }

  private push(element: OpenElement): boolean {
    return this.pushWith(element, boundaryBits(element));
  }

  /** Pushes unless the stack is MAX_MODELLED_DEPTH deep (then the model is degraded). */
  private pushWith(element: OpenElement, bits: number): boolean {
    const i = this.elements.length;
    if (i >= MAX_MODELLED_DEPTH) {
      this.isDegraded = true;
      return false;
    }
    if ((i + 1) * BOUNDARY_KINDS > this.bounds.length) {
      const grown = new Int32Array(this.bounds.length * 2);
      grown.set(this.bounds);
      this.bounds = grown;
    }
    const b = this.bounds;
    const at = i * BOUNDARY_KINDS;
    for (let k = 0; k < BOUNDARY_KINDS; k++) b[at + k] = (bits & (1 << k)) !== 0 ? i : i === 0 ? -1 : b[at - BOUNDARY_KINDS + k]!;
    this.elements.push(element);
    this.currentElement = element;
    const positions = element.namespace === 'html' ? this.htmlPositions : this.foreignPositions;
    let list = positions.get(element.name);
    if (list === undefined) {
      list = [];
      positions.set(element.name, list);
    }
    list.push(i);
    return true;
  }

  /** Pops every element at index >= `index`. */
  private popTo(index: number): void {
    while (this.elements.length > index) {
      const element = this.elements.pop()!;
      (element.namespace === 'html' ? this.htmlPositions : this.foreignPositions).get(element.name)!.pop();
      this.currentElement = this.elements[this.elements.length - 1];
      this.onPop(element);
    }
  }

  /** Index of the highest open HTML element with this name, or -1. */
  private lastHtml(name: string): number {
    const list = this.htmlPositions.get(name);
    return list === undefined || list.length === 0 ? -1 : list[list.length - 1]!;
  }

  /** Index of the highest open SVG or MathML element with this name, or -1. */
  private lastForeign(name: string): number {
    const list = this.foreignPositions.get(name);
    return list === undefined || list.length === 0 ? -1 : list[list.length - 1]!;
  }

  /** The nearest boundary of `kind` at or below the current node (-1: none). */
  private top(kind: number): number {
    const n = this.elements.length;
    return n === 0 ? -1 : this.bounds[(n - 1) * BOUNDARY_KINDS + kind]!;
  }

  /** Index of the HTML element `name` if it is in the given scope (no boundary above it), or -1. */
  private inScope(name: string, kind: number = NEAREST_SCOPE): number {
    const i = this.lastHtml(name);
    return i >= 0 && this.top(kind) <= i ? i : -1;
  }

  /** Pops until the current node is HTML, a MathML text integration point or an HTML integration point. */
  private popForeign(): void {
    for (;;) {
      const node = this.current;
      if (node === undefined || node.namespace === 'html' || node.mathTextIntegrationPoint || node.htmlIntegrationPoint) return;
      this.popTo(this.elements.length - 1);
    }
  }

  // Start tags

  /** 13.2.6 dispatcher: whether a start tag is handled by "in foreign content". */
  private usesForeignRules(name: string): boolean {
    const node = this.current;
    if (node === undefined || node.namespace === 'html') return false;
    if (node.mathTextIntegrationPoint && name !== 'mglyph' && name !== 'malignmark') return false;
    if (node.namespace === 'math' && node.name === 'annotation-xml' && name === 'svg') return false;
    if (node.htmlIntegrationPoint) return false;
    return true;
  }

  private fontBreaksOut(tag: TagToken): boolean {
    for (const a of tag.attributes) if (a.name === 'color' || a.name === 'face' || a.name === 'size') return true;
    return false;
  }

  private closeP(): void {
    const i = this.inScope('p', NEAREST_BUTTON_SCOPE);
    if (i >= 0) this.popTo(i);
  }

  private htmlStartTag(tag: TagToken): StartTagResult {
    const name = tag.name;
    const kind = START_TAG_KIND.get(name) ?? 0;
    if (kind === 0) return this.pushShared(name, null);
    if ((kind & KIND_FOREIGN_ROOT) !== 0) {
      const namespace = name as 'svg' | 'math';
      const element = foreignElement(tag, namespace);
      if (tag.selfClosing) return { namespace, contentState: null, element: null };
      return { namespace, contentState: null, element: this.push(element) ? element : null };
    }
    if ((kind & KIND_TABLE_PART) !== 0) return this.tablePartStartTag(name);
    if ((kind & KIND_CLOSES_P) !== 0) this.closeP();
    if (name === 'table') {
      const t = this.top(NEAREST_TABLE_CONTEXT);
      if (t >= 0 && this.elements[t]!.name === 'table') this.popTo(t);
    } else if ((kind & KIND_HEADING) !== 0) {
      const c = this.current;
      if (c !== undefined && c.namespace === 'html' && HEADINGS.has(c.name)) this.popTo(this.elements.length - 1);
    } else if ((kind & KIND_LIST_ITEM) !== 0) {
      this.closeListItem(name);
    }
    if ((kind & KIND_RAW_TEXT) !== 0) {
      const contentState = CONTENT_STATE_OF.get(name)!;
      if (contentState === 'plaintext') return { namespace: 'html', contentState, element: null };
      return this.pushShared(name, contentState);
    }
    if ((kind & KIND_NOT_PUSHED) !== 0) {
      return VOID_RESULT;
    }
    return this.pushShared(name, null);
  }

  /** Pushes the shared HTML element for `name`; its result object is shared too. */
  private pushShared(name: string, contentState: ContentState | null): StartTagResult {
    const shared = sharedHtmlElement(name, contentState !== null);
    if (!this.pushWith(shared.element, shared.bits)) return { namespace: 'html', contentState, element: null };
    return contentState === null ? shared.result : { namespace: 'html', contentState, element: shared.element };
  }

  /** "In body" li / dd / dt: close an open item of the same kind, unless a special element is above it. */
  private closeListItem(name: string): void {
    const i = name === 'li' ? this.lastHtml('li') : Math.max(this.lastHtml('dd'), this.lastHtml('dt'));
    if (i >= 0 && this.top(NEAREST_LIST_ITEM_STOP) <= i) this.popTo(i);
  }

  /**
   * Table part start tags (caption, col, colgroup, tbody, td, tfoot, th, thead, tr): in the
   * table insertion modes they "clear the stack back to a table context" or "close the
   * cell", popping anything above, foreign elements and integration points included. In
   * body, with no table open, they are ignored.
   */
  private tablePartStartTag(name: string): StartTagResult {
    for (let round = 0; round < TABLE_PART_ROUNDS; round++) {
      const i = this.top(NEAREST_TABLE_CONTEXT);
      if (i < 0) return { namespace: null, contentState: null, element: null };
      const context = this.elements[i]!.name;
      if (context === 'template') break;
      if (context === 'td' || context === 'th' || context === 'caption' || context === 'colgroup') {
        if (context === 'colgroup' && name === 'col') {
          this.popTo(i + 1);
          return { namespace: 'html', contentState: null, element: null };
        }
        this.popTo(i); // close the cell / caption / column group, then reprocess
        continue;
      }
      if (context === 'tr') {
        this.popTo(i + 1);
        if (name === 'td' || name === 'th') break;
        this.popTo(i); // a new row or section closes this row
        continue;
      }
      if (TABLE_SECTIONS.has(context)) {
        this.popTo(i + 1);
        if (name === 'tr') break;
        if (name === 'td' || name === 'th') {
          this.pushHtml('tr');
          break;
        }
        this.popTo(i);
        continue;
      }
      this.popTo(i + 1);
      if (name === 'td' || name === 'th') {
        this.pushHtml('tbody');
        this.pushHtml('tr');
      } else if (name === 'tr') {
        this.pushHtml('tbody');
      } else if (name === 'col') {
        this.pushHtml('colgroup');
        return { namespace: 'html', contentState: null, element: null };
      }
      break;
    }
    if (name === 'col') return { namespace: 'html', contentState: null, element: null };
    const shared = sharedHtmlElement(name, false);
    return { namespace: 'html', contentState: null, element: this.pushWith(shared.element, shared.bits) ? shared.element : null };
  }

  // End tags

  /**
   * 13.2.6.5 "any other end tag" in foreign content: walking down from the current node
   * over foreign elements, the first one with the token's name is popped with everything
   * above it; reaching an HTML element hands the token to the HTML rules.
   */
  private foreignEndTag(name: string): void {
    const match = this.lastForeign(name);
    if (match > this.top(NEAREST_HTML)) this.popTo(match);
    else this.htmlEndTag(name);
  }

  /** HTML end tags ("in body" and the table modes), approximated as described in the header. */
  private htmlEndTag(name: string): void {
    const kind = END_TAG_KIND.get(name) ?? END_OTHER;
    if (kind === END_IGNORED) return;
    if (kind === END_P) return this.closeP();
    let i: number;
    if (kind === END_HEADING) {
      i = -1;
      for (const h of HEADINGS) i = Math.max(i, this.lastHtml(h));
      if (i >= 0 && this.top(NEAREST_SCOPE) > i) i = -1;
    } else if (kind === END_TEMPLATE) {
      i = this.lastHtml('template');
    } else if (kind === END_TABLE) {
      i = this.inScope(name, NEAREST_TABLE_SCOPE);
    } else if (kind === END_FORM) {
      // "In body" </form> is modelled only where the form is the current node.
      const c = this.current;
      i = c !== undefined && c.namespace === 'html' && c.name === 'form' ? this.elements.length - 1 : -1;
    } else if (kind === END_SCOPED) {
      i = this.inScope(name);
    } else {
      i = this.lastHtml(name);
      if (i >= 0 && this.top(NEAREST_SPECIAL) > i) i = -1;
    }
    if (i >= 0) this.popTo(i);
  }

}
