// Tree construction, lite (WHATWG HTML 13.2.6): only as much of the stack of open elements
// as it takes to know, for each token, what a browser's tree builder would do with the
// tokenizer and the namespace:
//   - which content state follows a start tag (13.2.6.2: RCDATA, RAWTEXT, script data,
//     PLAINTEXT), which happens only for HTML elements;
//   - whether the adjusted current node is foreign (SVG or MathML), which decides whether
//     `<![CDATA[` opens a CDATA section (13.2.5.42) and whether a start tag is handled by
//     the rules for foreign content (13.2.6.5), where `<style>` is not raw text;
//   - when foreign content ends: breakout tags, end tags, and the table algorithms that
//     pop through integration points.
// It does not build a tree, run the adoption agency algorithm or foster-parent. Where it
// cannot be exact, policy.ts does not rely on it: whenever a document has SVG, MathML,
// <select> or <template> (the contexts where browsers, spec versions and this model can
// disagree), the policy also checks each raw-text element and CDATA section under the
// other reading (see "ambiguous markup" in policy.ts).
//
// Linear time: every downward scan of the stack stops after STACK_SCAN_LIMIT entries (a
// deeper match reads as "not found", which only ever sends the policy to its ambiguity
// checks), and pops are paid for by pushes.
import type { ContentState, TagToken } from './tokenizer.js';

export type Namespace = 'html' | 'svg' | 'math';

export interface OpenElement {
  /** ASCII-lowercased local name (SVG case adjustment is not needed for comparisons). */
  readonly name: string;
  readonly namespace: Namespace;
  /** HTML integration point (13.2.6.5): SVG foreignObject/desc/title, annotation-xml with an HTML encoding. */
  readonly htmlIntegrationPoint: boolean;
  /** MathML text integration point: mi, mo, mn, ms, mtext. */
  readonly mathTextIntegrationPoint: boolean;
  /** An HTML element whose content the tokenizer reads as text (its end tag pops it). */
  readonly rawText: boolean;
}

export interface StartTagResult {
  /** The namespace the element is created in; null when the tree builder ignores the tag. */
  readonly namespace: Namespace | null;
  /** The content state the tokenizer switches to, or null to stay in the data state. */
  readonly contentState: ContentState | null;
  /** The element pushed on the stack, if any (void and self-closing foreign elements are not). */
  readonly element: OpenElement | null;
}

/** Deepest a single scan of the stack goes (see the header). */
const STACK_SCAN_LIMIT = 512;

/** 13.2.6.2 and "in body": the HTML elements whose content is not tokenized as markup. */
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

/** Void elements (13.1.2): never pushed. `image` is read as `img` in body. */
const VOID_ELEMENTS = new Set([
  'area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'image', 'img', 'input',
  'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

/** 13.2.6.5: start tags that break out of foreign content (`font` only with color, face or size). */
const BREAKOUT_START_TAGS = new Set([
  'b', 'big', 'blockquote', 'body', 'br', 'center', 'code', 'dd', 'div', 'dl', 'dt', 'em', 'embed',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'hr', 'i', 'img', 'li', 'listing', 'menu', 'meta', 'nobr',
  'ol', 'p', 'pre', 'ruby', 's', 'small', 'span', 'strong', 'strike', 'sub', 'sup', 'table', 'tt', 'u',
  'ul', 'var',
]);

/** Start tags that close an open `p` in button scope ("in body"). */
const CLOSES_P = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'details', 'dialog', 'dir', 'div', 'dl',
  'fieldset', 'figcaption', 'figure', 'footer', 'header', 'hgroup', 'main', 'menu', 'nav', 'ol', 'p',
  'search', 'section', 'summary', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'listing', 'form',
  'plaintext', 'xmp', 'hr', 'table',
]);

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** "Has an element in scope" boundaries (HTML ones; foreign integration points are added by `isScopeBoundary`). */
const SCOPE_BOUNDARIES = new Set(['applet', 'caption', 'html', 'table', 'td', 'th', 'marquee', 'object', 'template']);

/** The "special" category (13.2.4.2), HTML part: "any other end tag" stops at these. */
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

/** End tags handled with "in scope" (not "any other end tag"): they pass over special elements. */
const SCOPED_END_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'button', 'center', 'details', 'dialog', 'dir', 'div',
  'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'header', 'hgroup', 'listing', 'main', 'menu',
  'nav', 'ol', 'pre', 'search', 'section', 'summary', 'ul', 'form', 'li', 'dd', 'dt', 'applet',
  'marquee', 'object',
  // Formatting elements: the adoption agency algorithm, approximated as "pop to it in scope".
  'a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u',
]);

/** Enough rounds of "close and reprocess" to get from a cell up to its table (cell, row, section, table). */
const TABLE_PART_ROUNDS = 6;

/** Table structure (13.2.6.4.9-15): these start and end tags pop through anything above their context. */
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
    // 13.2.6.5: an HTML integration point when `encoding` is text/html or
    // application/xhtml+xml, ASCII case-insensitively (no whitespace trimming).
    const encoding = attributeValue(tag, 'encoding');
    if (encoding !== undefined) {
      const e = asciiLowerText(encoding);
      htmlIntegrationPoint = e === 'text/html' || e === 'application/xhtml+xml';
    }
  }
  return { name, namespace, htmlIntegrationPoint, mathTextIntegrationPoint, rawText: false };
}

export class TreeModel {
  private readonly stack: OpenElement[] = [];

  /** Called for every element as it leaves the stack (the policy finishes SVG <style> text there). */
  constructor(private readonly onPop: (element: OpenElement) => void = () => {}) {}

  /** The current node (no fragment case, so also the adjusted current node). */
  get current(): OpenElement | undefined {
    return this.stack[this.stack.length - 1];
  }

  /** 13.2.5.42: CDATA sections are recognized only when the adjusted current node is foreign. */
  get inForeignContent(): boolean {
    const c = this.current;
    return c !== undefined && c.namespace !== 'html';
  }

  get depth(): number {
    return this.stack.length;
  }

  /** Processes a start tag as the tree construction dispatcher (13.2.6) would. */
  startTag(tag: TagToken): StartTagResult {
    if (this.usesForeignRules(tag.name)) {
      if (BREAKOUT_START_TAGS.has(tag.name) || (tag.name === 'font' && this.fontBreaksOut(tag))) {
        // Pop until an HTML element or an integration point is current, then reprocess.
        this.popForeign();
      } else {
        const namespace = this.current!.namespace as 'svg' | 'math';
        const element = foreignElement(tag, namespace);
        // A self-closing foreign element is acknowledged and popped at once.
        if (tag.selfClosing) return { namespace, contentState: null, element: null };
        this.push(element);
        return { namespace, contentState: null, element };
      }
    }
    return this.htmlStartTag(tag);
  }

  /** Processes an end tag (raw-text end tags included). */
  endTag(tag: TagToken): void {
    const current = this.current;
    if (current === undefined) return;
    if (current.rawText) {
      // In a raw-text state the tokenizer emits only the appropriate end tag.
      this.popTo(this.stack.length - 1);
      return;
    }
    // The dispatcher sends end tags to the foreign rules whenever the current node is not HTML.
    if (current.namespace !== 'html') {
      if (tag.name === 'br' || tag.name === 'p') {
        // Breakout end tags (current spec; older engines treat them as "any other end tag",
        // which the ambiguity checks in policy.ts cover).
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

  // ---------------------------------------------------------------------------------

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

  private push(element: OpenElement): void {
    this.stack.push(element);
  }

  /** Pops every element at index >= `index`. */
  private popTo(index: number): void {
    while (this.stack.length > index) this.onPop(this.stack.pop()!);
  }

  /** Pops until the current node is HTML, a MathML text integration point or an HTML integration point. */
  private popForeign(): void {
    for (;;) {
      const node = this.current;
      if (node === undefined || node.namespace === 'html' || node.mathTextIntegrationPoint || node.htmlIntegrationPoint) return;
      this.popTo(this.stack.length - 1);
    }
  }

  /** Index of the nearest matching element above the scan limit, or -1. */
  private findDown(match: (e: OpenElement) => boolean, stop: (e: OpenElement) => boolean): number {
    const floor = Math.max(0, this.stack.length - STACK_SCAN_LIMIT);
    for (let i = this.stack.length - 1; i >= floor; i--) {
      const e = this.stack[i]!;
      if (match(e)) return i;
      if (stop(e)) return -1;
    }
    return -1;
  }

  private isScopeBoundary(e: OpenElement): boolean {
    if (e.namespace === 'html') return SCOPE_BOUNDARIES.has(e.name);
    // MathML mi, mo, mn, ms, mtext, annotation-xml and SVG foreignObject, desc, title.
    return e.mathTextIntegrationPoint || e.name === 'annotation-xml' || (e.namespace === 'svg' && (e.name === 'foreignobject' || e.name === 'desc' || e.name === 'title'));
  }

  private isSpecial(e: OpenElement): boolean {
    return e.namespace === 'html' ? SPECIAL.has(e.name) : this.isScopeBoundary(e);
  }

  /** Index of an HTML element named `name` "in scope" (button scope adds `button`), or -1. */
  private inScope(name: string, button = false): number {
    return this.findDown(
      (e) => e.namespace === 'html' && e.name === name,
      (e) => this.isScopeBoundary(e) || (button && e.namespace === 'html' && e.name === 'button'),
    );
  }

  private closeP(): void {
    const i = this.inScope('p', true);
    if (i >= 0) this.popTo(i);
  }

  private htmlStartTag(tag: TagToken): StartTagResult {
    const name = tag.name;
    if (name === 'svg' || name === 'math') {
      const element = foreignElement(tag, name);
      if (tag.selfClosing) return { namespace: name, contentState: null, element: null };
      this.push(element);
      return { namespace: name, contentState: null, element };
    }
    if (TABLE_PARTS.has(name)) return this.tablePartStartTag(name);
    if (CLOSES_P.has(name)) this.closeP();
    if (name === 'table') {
      // "In table": a nested <table> start tag closes the current table first.
      const t = this.findDown((e) => e.namespace === 'html' && TABLE_CONTEXT.has(e.name), (e) => e.namespace === 'html' && e.name === 'html');
      if (t >= 0 && this.stack[t]!.name === 'table') this.popTo(t);
    } else if (HEADINGS.has(name)) {
      const c = this.current;
      if (c !== undefined && c.namespace === 'html' && HEADINGS.has(c.name)) this.popTo(this.stack.length - 1);
    } else if (name === 'li' || name === 'dd' || name === 'dt') {
      this.closeListItem(name);
    }
    const contentState = CONTENT_STATE_OF.get(name) ?? null;
    if (contentState !== null) {
      const element = htmlElement(name, contentState !== 'plaintext');
      if (contentState !== 'plaintext') this.push(element);
      return { namespace: 'html', contentState, element };
    }
    if (VOID_ELEMENTS.has(name)) return { namespace: 'html', contentState: null, element: null };
    if (name === 'frameset' || name === 'html' || name === 'body' || name === 'head') {
      // Merged into existing elements or ignored; never a new open element here.
      return { namespace: 'html', contentState: null, element: null };
    }
    const element = htmlElement(name);
    this.push(element);
    return { namespace: 'html', contentState: null, element };
  }

  /** "In body" li / dd / dt: close an open item of the same kind, stopping at special elements. */
  private closeListItem(name: string): void {
    const kinds = name === 'li' ? ['li'] : ['dd', 'dt'];
    const i = this.findDown(
      (e) => e.namespace === 'html' && kinds.includes(e.name),
      (e) => this.isSpecial(e) && !(e.namespace === 'html' && (e.name === 'address' || e.name === 'div' || e.name === 'p')),
    );
    if (i >= 0) this.popTo(i);
  }

  /**
   * Table part start tags (caption, col, colgroup, tbody, td, tfoot, th, thead, tr): in the
   * table insertion modes they "clear the stack back to a table context" or "close the
   * cell", popping anything above, foreign elements and integration points included. In
   * body, with no table open, they are ignored.
   */
  private tablePartStartTag(name: string): StartTagResult {
    for (let round = 0; round < TABLE_PART_ROUNDS; round++) {
      const i = this.findDown((e) => e.namespace === 'html' && TABLE_CONTEXT.has(e.name), (e) => e.namespace === 'html' && e.name === 'html');
      if (i < 0) return { namespace: null, contentState: null, element: null };
      const context = this.stack[i]!.name;
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
          this.push(htmlElement('tr'));
          break;
        }
        this.popTo(i);
        continue;
      }
      // context === 'table'
      this.popTo(i + 1);
      if (name === 'td' || name === 'th') {
        this.push(htmlElement('tbody'));
        this.push(htmlElement('tr'));
      } else if (name === 'tr') {
        this.push(htmlElement('tbody'));
      } else if (name === 'col') {
        this.push(htmlElement('colgroup'));
        return { namespace: 'html', contentState: null, element: null };
      }
      break;
    }
    if (name === 'col') return { namespace: 'html', contentState: null, element: null };
    const element = htmlElement(name);
    this.push(element);
    return { namespace: 'html', contentState: null, element };
  }

  /** 13.2.6.5 "any other end tag" in foreign content. */
  private foreignEndTag(name: string): void {
    const floor = Math.max(0, this.stack.length - STACK_SCAN_LIMIT);
    for (let i = this.stack.length - 1; i >= floor; i--) {
      const node = this.stack[i]!;
      // Only foreign nodes are examined here: the walk hands over at the first HTML one.
      if (node.name === name) {
        this.popTo(i);
        return;
      }
      const previous = this.stack[i - 1];
      if (previous === undefined) return; // reached the topmost element: ignore
      if (previous.namespace === 'html') {
        // "Process the token according to the rules given in the section corresponding
        // to the current insertion mode in HTML content."
        this.htmlEndTag(name);
        return;
      }
    }
  }

  /** HTML end tags ("in body" and the table modes), approximated as described in the header. */
  private htmlEndTag(name: string): void {
    if (name === 'br' || name === 'body' || name === 'html' || name === 'head' || name === 'frameset') return;
    if (name === 'p') return this.closeP();
    if (HEADINGS.has(name)) {
      const i = this.findDown((e) => e.namespace === 'html' && HEADINGS.has(e.name), (e) => this.isScopeBoundary(e));
      if (i >= 0) this.popTo(i);
      return;
    }
    if (name === 'template') {
      const i = this.findDown((e) => e.namespace === 'html' && e.name === 'template', () => false);
      if (i >= 0) this.popTo(i);
      return;
    }
    if (name === 'table' || TABLE_PARTS.has(name)) {
      // Table scope: only html, table and template stop the search; what lies between
      // (integration points and foreign elements too) is popped.
      const i = this.findDown(
        (e) => e.namespace === 'html' && e.name === name,
        (e) => e.namespace === 'html' && (e.name === 'html' || e.name === 'template' || (e.name === 'table' && name !== 'table')),
      );
      if (i >= 0) this.popTo(i);
      return;
    }
    if (name === 'select') {
      const i = this.findDown((e) => e.namespace === 'html' && e.name === 'select', (e) => this.isScopeBoundary(e));
      if (i >= 0) this.popTo(i);
      return;
    }
    if (name === 'form') {
      // "In body" </form> (no template open): removes the form element itself, in scope,
      // leaving anything opened inside it on the stack.
      const i = this.inScope('form');
      if (i >= 0) {
        const [form] = this.stack.splice(i, 1);
        this.onPop(form!);
      }
      return;
    }
    if (SCOPED_END_TAGS.has(name)) {
      const i = this.inScope(name);
      if (i >= 0) this.popTo(i);
      return;
    }
    // "Any other end tag": the nearest element of that name, unless a special element comes first.
    const i = this.findDown((e) => e.namespace === 'html' && e.name === name, (e) => this.isSpecial(e));
    if (i >= 0) this.popTo(i);
  }
}
