// Which attributes hold URLs, and how to split the ones that hold several (D-19, D-22:
// "any attribute whose value is a URL ... is checked after entity decoding"). The table
// is deliberately wider than what one element would fetch: an attribute is checked on
// every element, in every namespace, so that a wrong guess about an element or a
// namespace never lets a javascript: or remote URL through.

export type UrlAttributeKind = 'single' | 'srcset' | 'list';

/** Attribute name (lowercase, as tokenized) -> how its value holds URLs. */
export const URL_ATTRIBUTES: ReadonlyMap<string, UrlAttributeKind> = new Map<string, UrlAttributeKind>([
  ['href', 'single'],
  ['xlink:href', 'single'],
  ['src', 'single'],
  ['srcset', 'srcset'],
  ['imagesrcset', 'srcset'],
  ['poster', 'single'],
  ['action', 'single'],
  ['formaction', 'single'],
  ['lowsrc', 'single'],
  ['dynsrc', 'single'],
  ['background', 'single'],
  ['cite', 'single'],
  ['longdesc', 'single'],
  ['data', 'single'],
  ['codebase', 'single'],
  ['classid', 'single'],
  ['manifest', 'single'],
  ['icon', 'single'],
  ['profile', 'single'],
  ['ping', 'list'],
  ['archive', 'list'],
  ['attributionsrc', 'list'],
]);

/**
 * Elements whose `href` (or `xlink:href`) loads or points at a resource rather than being
 * a hyperlink. On any other element, in any namespace (HTML a and area, SVG a, MathML
 * elements, unknown elements), `href` is treated as a link, which must not navigate.
 */
export const RESOURCE_HREF_ELEMENTS = new Set([
  'link', 'base', 'use', 'image', 'feimage', 'pattern', 'lineargradient', 'radialgradient', 'textpath',
  'mpath', 'filter', 'tref', 'script', 'cursor', 'animate', 'animatemotion', 'animatetransform',
  'animatecolor', 'set', 'discard', 'font-face-uri', 'glyphref', 'altglyph', 'color-profile', 'style',
]);

/** SVG animation elements (their `attributeName` may target href or an event handler). */
export const ANIMATION_ELEMENTS = new Set(['animate', 'set', 'animatemotion', 'animatetransform', 'animatecolor']);

/** Presentation attributes whose value may hold a CSS url() (SVG fill="url(...)" and friends). */
export const PRESENTATION_URL_ATTRIBUTES = new Set([
  'fill', 'stroke', 'filter', 'clip-path', 'mask', 'marker', 'marker-start', 'marker-mid', 'marker-end', 'cursor',
]);

/** A URL inside an attribute value, with its offset in the decoded value. */
export interface UrlPart {
  readonly url: string;
  readonly offset: number;
}

function isAsciiWhitespace(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
}

/**
 * The URLs of a srcset value, per "parse a srcset attribute" (HTML 4.8.4.3.10): skip
 * whitespace and commas, take the run of non-whitespace as the URL (trailing commas
 * removed), then skip the descriptors up to a comma outside parentheses.
 */
export function srcsetUrls(value: string): UrlPart[] {
  const out: UrlPart[] = [];
  const n = value.length;
  let pos = 0;
  while (pos < n) {
    while (pos < n && (isAsciiWhitespace(value.charCodeAt(pos)) || value.charCodeAt(pos) === 0x2c)) pos++;
    if (pos >= n) break;
    const start = pos;
    while (pos < n && !isAsciiWhitespace(value.charCodeAt(pos))) pos++;
    let url = value.slice(start, pos);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      // Descriptors: up to a comma that is not inside parentheses, or the end.
      let inParens = false;
      while (pos < n) {
        const c = value.charCodeAt(pos);
        pos++;
        if (inParens) {
          if (c === 0x29) inParens = false;
        } else if (c === 0x28) {
          inParens = true;
        } else if (c === 0x2c) {
          break;
        }
      }
    }
    if (url !== '') out.push({ url, offset: start });
  }
  return out;
}

/** The URLs of a space-separated list (ping, archive, attributionsrc). */
export function spaceSeparatedUrls(value: string): UrlPart[] {
  const out: UrlPart[] = [];
  const n = value.length;
  let pos = 0;
  while (pos < n) {
    while (pos < n && isAsciiWhitespace(value.charCodeAt(pos))) pos++;
    const start = pos;
    while (pos < n && !isAsciiWhitespace(value.charCodeAt(pos))) pos++;
    if (pos > start) out.push({ url: value.slice(start, pos), offset: start });
  }
  return out;
}

/** The URLs an attribute value holds, by kind. */
export function urlsOf(kind: UrlAttributeKind, value: string): UrlPart[] {
  if (kind === 'srcset') return srcsetUrls(value);
  if (kind === 'list') return spaceSeparatedUrls(value);
  return [{ url: value, offset: 0 }];
}

/** Strips leading and trailing ASCII whitespace (HTML "strip leading and trailing ASCII whitespace"). */
export function stripAsciiWhitespace(text: string): string {
  return text.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
}

/** The first ASCII-whitespace-trimmed offset of `text` (for pointing at a value's content). */
export function leadingWhitespaceLength(text: string): number {
  let i = 0;
  while (i < text.length && isAsciiWhitespace(text.charCodeAt(i))) i++;
  return i;
}
