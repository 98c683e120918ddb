// D-34: markup a module hands to the DOM (HTML literals for innerHTML and templates, literal attribute writes) gets
// html-policy.ts's questions, reported at the literal. Computed values are not looked at; relative references resolve
// against the document and a file the bundle lacks is left to run time (the module may build its path elsewhere).
import { checkCss } from '../css/css-policy.js';
import { FindingList } from '../findings.js';
import { classifyReference, rootRelativeHint, rootRelativeTwin } from '../references.js';
import { FileScan, type BundleView } from '../scan.js';
import { HtmlTokenizer, type HtmlAttribute, type TagToken } from '../html/html-tokenizer.js';
import { RESOURCE_HREF_ELEMENTS, URL_ATTRIBUTES, urlsOf } from '../html/urls.js';

/** Stands for `${…}` in the static text: a private-use character no markup holds. */
export const SUBSTITUTION = '\uE000';

export type MarkupReport = (rule: string, message: string, offset: number) => void;

/** Elements that make a nested browsing context or embed a plug-in: frame-src and object-src are 'none'. */
const FRAME_ELEMENTS: ReadonlySet<string> = new Set(['iframe', 'frame', 'frameset', 'portal', 'fencedframe', 'object', 'embed', 'applet']);

const SCRIPT_SCHEMES: ReadonlySet<string> = new Set(['javascript', 'vbscript', 'livescript']);

/** URL attributes the element never fetches (a citation, a description). */
const NOT_LOADED: ReadonlySet<string> = new Set(['cite', 'longdesc', 'profile']);

const SUBMISSION: ReadonlySet<string> = new Set(['action', 'formaction']);

/** Content states after a start tag, so `<script>` and `<style>` bodies are not read as markup. */
const TEXT_ELEMENTS: ReadonlyMap<string, 'rawtext' | 'rcdata' | 'scriptData'> = new Map([
  ['script', 'scriptData'],
  ['style', 'rawtext'],
  ['xmp', 'rawtext'],
  ['iframe', 'rawtext'],
  ['noembed', 'rawtext'],
  ['noframes', 'rawtext'],
  ['textarea', 'rcdata'],
  ['title', 'rcdata'],
]);

/** Handler text that does nothing: an event-support test, not a handler. */
const FEATURE_TEST_HANDLER = /^\s*(?:return\s*;?\s*|;?\s*)$/;

/** A literal is a template, not a document: its start tags read are capped. */
const MAX_TAGS = 2000;

const PREFIX = 'In markup this module builds: ';

/** Markup's references resolve against the entrypoint document's folder (the bundle root). */
const DOCUMENT_DIR = '';

function quoted(text: string): string {
  const shown = text.replaceAll(SUBSTITUTION, '${…}');
  return JSON.stringify(shown.length > 200 ? shown.slice(0, 200) + '…' : shown);
}

function isEventHandlerName(name: string): boolean {
  const local = name.lastIndexOf(':') + 1;
  return name.charCodeAt(local) === 0x6f && name.charCodeAt(local + 1) === 0x6e && name.length > local + 2;
}

/** `html`: a literal's static text, SUBSTITUTION where code is interpolated; `mapOffset` maps into the module. */
export function checkMarkup(html: string, mapOffset: (offset: number) => number, bundle: BundleView, report: MarkupReport): void {
  const tokenizer = new HtmlTokenizer(html);
  let tags = 0;
  for (;;) {
    const token = tokenizer.next();
    if (token.type === 'eof') return;
    if (token.type !== 'startTag') continue;
    if (++tags > MAX_TAGS) return;
    checkTag(token, mapOffset, bundle, report);
    const state = TEXT_ELEMENTS.get(token.name);
    if (state !== undefined && !token.selfClosing) tokenizer.switchTo(state);
  }
}

function valueOffset(attr: HtmlAttribute, at: number): number {
  return attr.valueMap === null ? attr.valueStart + at : attr.valueMap.map(at);
}

function checkTag(tag: TagToken, mapOffset: (offset: number) => number, bundle: BundleView, report: MarkupReport): void {
  const name = tag.name;
  if (name.includes(SUBSTITUTION)) return;
  if (FRAME_ELEMENTS.has(name)) {
    report('js/markup-frame', `${PREFIX}an <${name}> element: the frame may hold no frames or plug-in content, so the browser blocks it`, mapOffset(tag.start));
  }
  let navigation = false;
  let blank: HtmlAttribute | undefined;
  for (const attr of tag.attributes) {
    const a = attr.name;
    if (a.includes(SUBSTITUTION)) continue;
    if (isEventHandlerName(a)) {
      report('js/markup-event-handler', `${PREFIX}the inline event handler "${a}" on <${name}>: the runtime policy blocks inline script`, mapOffset(attr.nameStart));
      continue;
    }
    if (a === 'target') {
      if (attr.value.trim().toLowerCase() === '_blank') blank = attr;
      continue;
    }
    if (a === 'style') {
      checkStyle(attr.value, (o) => mapOffset(valueOffset(attr, o)), `the style of <${name}>`, bundle, report);
      continue;
    }
    const kind = URL_ATTRIBUTES.get(a);
    if (kind === undefined || NOT_LOADED.has(a)) continue;
    for (const part of urlsOf(kind, attr.value)) {
      const at = mapOffset(valueOffset(attr, part.offset));
      if (checkUrl(name, a, part.url, at, bundle, report)) navigation = true;
    }
  }
  if (name === 'form' && !tag.attributes.some((attr) => SUBMISSION.has(attr.name))) {
    report('js/markup-navigation', `${PREFIX}a <form>: submitting it navigates the frame, which the sandbox blocks; handle "submit" with preventDefault and send the data with PLATFORM.forms.submit`, mapOffset(tag.start));
    navigation = true;
  }
  if (blank !== undefined && !navigation) {
    report('js/markup-navigation', `${PREFIX}target="_blank" on <${name}> opens a popup, which the sandbox blocks: remove it`, mapOffset(blank.nameStart));
  }
}

/** `element`: lowercase, '' when unknown; `at`: a module offset. Returns whether it reported a navigation. */
function checkUrl(element: string, attr: string, url: string, at: number, bundle: BundleView, report: MarkupReport): boolean {
  // A value that starts with code is computed: known at run time only.
  if (url.trimStart().startsWith(SUBSTITUTION)) return false;
  const ref = classifyReference(url, DOCUMENT_DIR);
  const where = element === '' ? quoted(attr) : `<${element} ${attr}>`;
  if (ref.type === 'remote' && SCRIPT_SCHEMES.has(ref.scheme)) {
    report('js/markup-javascript-url', `${PREFIX}a ${ref.scheme}: URL in ${where}: the runtime policy blocks script URLs; attach a listener with addEventListener instead`, at);
    return false;
  }
  const isLink = (attr === 'href' || attr === 'xlink:href') && (element === '' || !RESOURCE_HREF_ELEMENTS.has(element));
  if (isLink || SUBMISSION.has(attr)) {
    if (ref.type === 'fragment' || ref.type === 'empty') return false;
    const what = SUBMISSION.has(attr) ? 'submitting the form' : 'following the link';
    report('js/markup-navigation', `${PREFIX}${where} ${quoted(url)}: ${what} navigates the frame away from the extension, which the sandbox blocks; use a "#fragment" link or handle the click in code`, at);
    return true;
  }
  if (ref.type === 'remote') {
    report('js/markup-remote-resource', `${PREFIX}${where} loads the remote URL ${quoted(url)}: the frame loads nothing from outside the release; put the file in the bundle and refer to it relatively`, at);
  } else if (ref.type === 'root') {
    const twin = rootRelativeTwin(url, bundle);
    const fix = twin === undefined ? ': refer to a file of the bundle by a relative path (a bundler does so for an imported asset)' : rootRelativeHint(twin);
    report('js/markup-root-relative', `${PREFIX}${where} ${quoted(url)} starts at the site root, where the release is not${fix}`, at);
  }
  return false;
}

/** An attribute write with a literal name (`setAttribute`, a props key); `value` is null when computed. */
export function checkAttributeWrite(element: string, name: string, value: string | null, nameAt: number, valueAt: number, bundle: BundleView, report: MarkupReport): void {
  const a = name.toLowerCase();
  if (isEventHandlerName(a)) {
    // A string handler is code compiled from a string (a function prop is not). An empty one is React DOM's and
    // Modernizr's event-support test on a detached element: nothing runs, and it falls back when blocked.
    if (value !== null && !FEATURE_TEST_HANDLER.test(value)) report('js/markup-event-handler', `${PREFIX}the inline event handler ${quoted(name)}${element === '' ? '' : ` on <${element}>`}: the runtime policy blocks inline script; use addEventListener`, nameAt);
    return;
  }
  if (value === null) return;
  if (a === 'target') {
    if (value.trim().toLowerCase() === '_blank') report('js/markup-navigation', `${PREFIX}target="_blank"${element === '' ? '' : ` on <${element}>`} opens a popup, which the sandbox blocks: remove it`, nameAt);
    return;
  }
  if (a === 'style') {
    checkStyle(value, (o) => valueAt + o, `a style${element === '' ? '' : ` of <${element}>`}`, bundle, report);
    return;
  }
  const kind = URL_ATTRIBUTES.get(a === 'srcset' ? 'srcset' : a === 'xlinkhref' ? 'xlink:href' : a);
  if (kind === undefined || NOT_LOADED.has(a)) return;
  for (const part of urlsOf(kind, value)) checkUrl(element, a === 'xlinkhref' ? 'xlink:href' : a, part.url, valueAt + part.offset, bundle, report);
}

export function checkStyle(declarations: string, mapOffset: (offset: number) => number, where: string, bundle: BundleView, report: MarkupReport): void {
  if (!declarations.includes('url(') && !declarations.includes('image-set(')) return;
  const list = new FindingList();
  checkCss(new FileScan('', declarations, bundle, list), { text: declarations, mode: 'declarations', baseDir: DOCUMENT_DIR, mapOffset: (o) => o });
  const lineStarts = [0];
  for (let i = 0; i < declarations.length; i++) if (declarations.charCodeAt(i) === 0x0a) lineStarts.push(i + 1);
  for (const f of list.items) {
    const offset = f.line === undefined ? 0 : (lineStarts[f.line - 1] ?? 0) + (f.column ?? 1) - 1;
    if (f.rule === 'css/remote-url' || f.rule === 'css/import-remote') {
      report('js/markup-remote-resource', `${PREFIX}${where}: ${f.message}`, mapOffset(offset));
    } else if (f.rule === 'css/root-relative-url') {
      report('js/markup-root-relative', `${PREFIX}${where}: ${f.message}`, mapOffset(offset));
    }
  }
}
