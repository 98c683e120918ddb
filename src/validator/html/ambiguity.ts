// Parser-differential checks (D-22): whether raw text or `<![CDATA[` holds markup depends on the reading (HTML or
// foreign content, browser or sanitizer); these find markup the other reading would see, in amortized linear time.

function isMarkupStart(text: string, at: number): boolean {
  const c = text.charCodeAt(at + 1);
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2f || c === 0x21 || c === 0x3f;
}

class ForwardFinder {
  private cachedFrom = 1;
  private cachedResult = 0;

  constructor(private readonly search: (from: number) => number) {}

  find(from: number): number {
    if (from >= this.cachedFrom && from <= this.cachedResult) return this.cachedResult;
    const result = this.search(from);
    this.cachedFrom = from;
    this.cachedResult = result;
    return result;
  }
}

const END_TAG_DELIMITERS = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x2f, 0x3e]);

export class AmbiguityScanner {
  private readonly markup: ForwardFinder;
  private readonly endTags = new Map<string, ForwardFinder>();
  private readonly greaterThan: ForwardFinder;
  private readonly cdataEnd: ForwardFinder;

  constructor(private readonly text: string) {
    const n = text.length;
    this.markup = new ForwardFinder((from) => {
      let i = text.indexOf('<', from);
      while (i >= 0 && !isMarkupStart(text, i)) i = text.indexOf('<', i + 1);
      return i < 0 ? n : i;
    });
    this.greaterThan = new ForwardFinder((from) => {
      const i = text.indexOf('>', from);
      return i < 0 ? n : i;
    });
    this.cdataEnd = new ForwardFinder((from) => {
      const i = text.indexOf(']]>', from);
      return i < 0 ? n : i;
    });
  }

  /**
   * Where the raw text of an element named `name` (lowercase) that starts at `from` would
   * end in RCDATA/RAWTEXT/script data: the first `</name` followed by whitespace, `/` or `>`
   * (the "appropriate end tag"), or the end of the input.
   */
  rawTextEnd(name: string, from: number): number {
    let finder = this.endTags.get(name);
    if (finder === undefined) {
      const text = this.text;
      const n = text.length;
      finder = new ForwardFinder((start) => {
        let i = text.indexOf('</', start);
        while (i >= 0) {
          const after = i + 2 + name.length;
          if (after < n && END_TAG_DELIMITERS.has(text.charCodeAt(after)) && text.slice(i + 2, after).toLowerCase() === name) return i;
          i = text.indexOf('</', i + 2);
        }
        return n;
      });
      this.endTags.set(name, finder);
    }
    return finder.find(from);
  }

  /**
   * The first `<` in [from, to) that one reading of raw-text content would take as markup
   * and the other as text, or -1. A CDATA section is text under both readings (RAWTEXT,
   * and foreign content) when it closes before `to` and has no markup after an early `>`
   * (see cdataDifference), so `<svg><style><![CDATA[...]]></style>` is fine.
   */
  rawTextMarkup(from: number, to: number): number {
    let at = from;
    for (;;) {
      const i = this.markupIn(at, to);
      if (i < 0 || !this.text.startsWith('<![CDATA[', i)) return i;
      const end = this.cdataEnd.find(i + '<![CDATA['.length);
      if (end + ']]>'.length > to || this.cdataDifference(i) >= 0) return i;
      at = end + ']]>'.length;
    }
  }

  /** Offset of the first markup-starting `<` in [from, to), or -1. */
  markupIn(from: number, to: number): number {
    if (from >= to) return -1;
    const i = this.markup.find(from);
    return i < to ? i : -1;
  }

  /**
   * `<![CDATA[` at `start`: as a CDATA section it ends at `]]>`; as a bogus comment, at the
   * first `>`. When that `>` comes first, the text between it and `]]>` is markup under the
   * bogus-comment reading and text under the other. Returns the offset of the first markup
   * `<` there, or -1 when both readings see the same markup.
   */
  cdataDifference(start: number): number {
    const bodyStart = start + '<![CDATA['.length;
    const gt = this.greaterThan.find(bodyStart);
    const end = this.cdataEnd.find(bodyStart);
    if (gt >= end) return -1;
    return this.markupIn(gt + 1, end);
  }
}
