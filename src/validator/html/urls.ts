// URL attributes (D-19, D-22), checked on every element in every namespace so no wrong guess lets a URL through.

export type UrlAttributeKind = 'single' | 'srcset' | 'list';

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

/** Elements whose `href` loads a resource; on any other element `href` is a link, which must not navigate. */
export const RESOURCE_HREF_ELEMENTS = new Set([
  'link', 'base', 'use', 'image', 'feimage', 'pattern', 'lineargradient', 'radialgradient', 'textpath',
  'mpath', 'filter', 'tref', 'script', 'cursor', 'animate', 'animatemotion', 'animatetransform',
  'animatecolor', 'set', 'discard', 'font-face-uri', 'glyphref', 'altglyph', 'color-profile', 'style',
]);

export const ANIMATION_ELEMENTS = new Set(['animate', 'set', 'animatemotion', 'animatetransform', 'animatecolor']);

export const PRESENTATION_URL_ATTRIBUTES = new Set([
  'fill', 'stroke', 'filter', 'clip-path', 'mask', 'marker', 'marker-start', 'marker-mid', 'marker-end', 'cursor',
]);

export interface UrlPart {
  readonly url: string;
  readonly offset: number;
}

function isAsciiWhitespace(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
}

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

export function urlsOf(kind: UrlAttributeKind, value: string): UrlPart[] {
  if (kind === 'srcset') return srcsetUrls(value);
  if (kind === 'list') return spaceSeparatedUrls(value);
  return [{ url: value, offset: 0 }];
}

export function stripAsciiWhitespace(text: string): string {
  return text.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
}

export function leadingWhitespaceLength(text: string): number {
  let i = 0;
  while (i < text.length && isAsciiWhitespace(text.charCodeAt(i))) i++;
  return i;
}
