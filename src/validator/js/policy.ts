// Policy over a JavaScript module's token stream (lexer.ts): the imports it makes
// (D-19) and the browser APIs the runtime policy (D-17) or the sandbox blocks.
//
// Imports: static `import ... from 'x'`, `import 'x'`, `export ... from 'x'` (with import
// attributes), and dynamic `import` calls whose one argument is a string literal or a
// no-substitution template.
// Everything else the module says is looked at as tokens, so strings, comments, template
// text and regular expressions never produce findings (D-19: "comments and string
// contents that are not references are never findings").
//
// API uses are found by name, cheaply: an identifier token that is not a property name
// (`obj.fetch` is not, `window.fetch` is), not a property key (`{fetch: 1}`), and not the
// name being declared (`function fetch`). Aliases (`const f = fetch`), computed access
// (`window['fetch']`) and shadowing locals are out of reach of a lexer and are accepted:
// the runtime policy still blocks what this misses, the warnings only say so early.
import type { FindingList } from '../findings.js';
import { extensionOf } from '../paths.js';
import { classifyReference, dirName } from '../references.js';
import { BLOCKED_NETWORK_APIS } from '../runtime-policy.js';
import { FileScan, type BundleView } from '../scan.js';
import { decodeUtf8, LineMap } from '../text.js';
import { cookString, cookTemplate, JsLexer, type JsLexErrorKind, type JsToken } from './lexer.js';

/** Extensions a module specifier may point at (D-18: modules are `.js`/`.mjs`; D-2: any letter case). */
const MODULE_EXTENSIONS: ReadonlySet<string> = new Set(['js', 'mjs']);

/**
 * D-22 says a module script `src` is a plain relative path: no `%`, `?`, `#`, `\`. The
 * same rule applies to import specifiers, so one module reads the same whether the page
 * or another module loads it; spaces and control characters (which the URL parser
 * strips or escapes) are refused with them.
 */
// eslint-disable-next-line no-control-regex
const NOT_PLAIN = /[%?#\\\u0000-\u0020\u007f]/;

/** Names that are the global object itself: `window.fetch` is `fetch`. */
const GLOBAL_OBJECTS: ReadonlySet<string> = new Set(['window', 'self', 'globalThis']);

/** BLOCKED_NETWORK_APIS split into global names (`fetch`) and members of a global (`navigator.sendBeacon`). */
const NETWORK_GLOBALS = new Set<string>();
const NETWORK_MEMBERS = new Map<string, Set<string>>();
for (const api of BLOCKED_NETWORK_APIS) {
  const dot = api.indexOf('.');
  if (dot < 0) {
    NETWORK_GLOBALS.add(api);
  } else {
    const owner = api.slice(0, dot);
    let members = NETWORK_MEMBERS.get(owner);
    if (members === undefined) NETWORK_MEMBERS.set(owner, (members = new Set()));
    members.add(api.slice(dot + 1));
  }
}

/** What a watched global name is; one map lookup decides whether an identifier needs a closer look. */
type GlobalKind = 'network' | 'webrtc' | 'storage' | 'eval' | 'timer' | 'location';

/** Owners whose members are checked (`navigator.sendBeacon`, `document.cookie`, `top.location`, `location.href`, `window.x`). */
const MEMBER_OWNERS = new Set<string>(['document', 'top', 'parent', 'location', ...GLOBAL_OBJECTS]);

/** WebRTC constructors: a content-security policy does not govern peer connections, so the sandbox cannot stop them. */
const WEBRTC_GLOBALS: ReadonlySet<string> = new Set(['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel']);

/** Storage bound to an origin: the sandboxed frame's origin is opaque, and these throw a SecurityError. */
const STORAGE_GLOBALS: ReadonlySet<string> = new Set(['localStorage', 'sessionStorage', 'indexedDB']);

const GLOBAL_KINDS = new Map<string, GlobalKind>();
for (const name of NETWORK_GLOBALS) GLOBAL_KINDS.set(name, 'network');
for (const name of NETWORK_MEMBERS.keys()) MEMBER_OWNERS.add(name);
for (const name of WEBRTC_GLOBALS) GLOBAL_KINDS.set(name, 'webrtc');
for (const name of STORAGE_GLOBALS) GLOBAL_KINDS.set(name, 'storage');
GLOBAL_KINDS.set('eval', 'eval').set('Function', 'eval');
GLOBAL_KINDS.set('setTimeout', 'timer').set('setInterval', 'timer');
GLOBAL_KINDS.set('location', 'location');

/** Keywords after which an identifier is the name being declared, not a use. */
const DECLARING_KEYWORDS: ReadonlySet<string> = new Set(['function', 'class', 'const', 'let', 'var']);

/**
 * Findings of one rule per module: a minified library can call `fetch` hundreds of times
 * and a hostile file can hold a million `import(x)`; the first ones say all there is.
 */
const MAX_FINDINGS_PER_RULE = 100;

/** How many taken tokens the stream remembers (a member check looks back at `window . navigator . sendBeacon`). */
const HISTORY = 6;

/** Significant tokens (comments dropped) with a little lookahead (a queue) and history (a ring). */
class SignificantTokens {
  /** Pulled but not yet taken, from `aheadHead`. */
  private readonly ahead: JsToken[] = [];
  private aheadHead = 0;
  /** The last HISTORY taken tokens; `recent[recentAt]` is the newest. */
  private readonly recent: (JsToken | null)[] = new Array<JsToken | null>(HISTORY).fill(null);
  private recentAt = 0;

  constructor(private readonly lexer: JsLexer) {}

  private pull(): JsToken {
    for (;;) {
      const token = this.lexer.next();
      const t = token.type;
      if (t !== 'line-comment' && t !== 'block-comment' && t !== 'hashbang') return token;
    }
  }

  /** The k-th token not yet taken (0 = the next one). */
  peek(k = 0): JsToken {
    while (this.ahead.length - this.aheadHead <= k) this.ahead.push(this.pull());
    return this.ahead[this.aheadHead + k]!;
  }

  take(): JsToken {
    let token: JsToken;
    if (this.aheadHead < this.ahead.length) {
      token = this.ahead[this.aheadHead++]!;
      if (this.aheadHead === this.ahead.length) {
        this.ahead.length = 0;
        this.aheadHead = 0;
      }
    } else {
      token = this.pull();
    }
    this.recentAt = this.recentAt === HISTORY - 1 ? 0 : this.recentAt + 1;
    this.recent[this.recentAt] = token;
    return token;
  }

  /** The k-th most recently taken token (1 = the last one taken, k <= HISTORY), or null. */
  last(k: number): JsToken | null {
    return this.recent[(this.recentAt - k + 1 + HISTORY) % HISTORY] ?? null;
  }
}

interface ScanContext {
  readonly scan: FileScan;
  readonly baseDir: string;
  readonly tokens: SignificantTokens;
  syntaxReported: boolean;
  /** Findings so far per rule (see MAX_FINDINGS_PER_RULE). */
  readonly counts: Map<string, number>;
}

interface TypeAttribute {
  readonly value: string;
  readonly offset: number;
}

/**
 * Checks one module file of the bundle: decodes it (module scripts are always UTF-8),
 * then scans it with `scanJsModule`, resolving imports against the module's own folder.
 */
export function checkJsModule(file: string, bytes: Uint8Array, bundle: BundleView, findings: FindingList): void {
  const text = decodeUtf8(bytes);
  if (text === null) {
    const at = invalidUtf8Position(bytes);
    findings.add('js/invalid-utf8', 'The module is not valid UTF-8: browsers decode module scripts as UTF-8 whatever the server says, so this text would change', {
      file,
      line: at.line,
      column: at.column,
    });
    return;
  }
  scanJsModule(new FileScan(file, text, bundle, findings), dirName(file));
}

/** Scans module text already decoded; relative specifiers resolve against `baseDir` (a bundle folder, '' for the root). */
export function scanJsModule(scan: FileScan, baseDir: string): void {
  const lexer = new JsLexer(scan.text);
  const tokens = new SignificantTokens(lexer);
  const ctx: ScanContext = { scan, baseDir, tokens, syntaxReported: false, counts: new Map() };
  for (;;) {
    const token = tokens.take();
    if (token.type === 'eof') break;
    if (token.type === 'keyword') {
      // `x.import(...)`, `{ import() {} }`: property names, not the keyword at work.
      if (token.key || isDot(tokens.last(2))) continue;
      if (token.value === 'import') importDeclarationOrCall(ctx, token);
      else if (token.value === 'export') exportFrom(ctx);
    } else if (token.type === 'identifier') {
      checkIdentifier(ctx, token);
    }
  }
  const first = lexer.errors[0];
  if (first !== undefined && !ctx.syntaxReported) reportSyntax(ctx, first.kind, first.offset);
}

// ===== token predicates ======================================================

function isPunct(token: JsToken | null, value: string): boolean {
  return token !== null && token.type === 'punctuator' && token.value === value;
}

function isDot(token: JsToken | null): boolean {
  return token !== null && token.type === 'punctuator' && (token.value === '.' || token.value === '?.');
}

/** A contextual keyword (`from`, `as`, `assert`): written plainly, as an escaped one is a syntax error. */
function isWord(token: JsToken | null, word: string): boolean {
  return token !== null && token.type === 'identifier' && !token.escaped && token.value === word;
}

function isIdentifierName(token: JsToken): boolean {
  return token.type === 'identifier' || token.type === 'keyword';
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 200 ? text.slice(0, 200) + '…' : text);
}

// ===== imports (ECMA-262 16.2.2 "Imports", 16.2.3 "Exports", 13.3.10 "Import Calls") ====

/** After the `import` keyword: `import.meta`, `import(...)`, `import 'x'` or `import <clause> from 'x'`. */
function importDeclarationOrCall(ctx: ScanContext, keyword: JsToken): void {
  const tokens = ctx.tokens;
  const next = tokens.peek();
  if (isDot(next)) return; // import.meta
  if (isPunct(next, '(')) {
    importCall(ctx, keyword);
    return;
  }
  if (next.type === 'string') {
    tokens.take();
    moduleSpecifier(ctx, next, importAttributes(ctx));
    return;
  }
  // ImportClause: a default binding, `* as ns`, `{ a, b as c, "d" as e }`, or a phase
  // keyword (`defer`, `source`) before them. Only those tokens are stepped over, so a
  // broken declaration never swallows the code after it.
  let depth = 0;
  for (;;) {
    const t = tokens.peek();
    if (depth === 0 && isWord(t, 'from') && tokens.peek(1).type === 'string') {
      tokens.take();
      const specifier = tokens.take();
      moduleSpecifier(ctx, specifier, importAttributes(ctx));
      return;
    }
    if (isPunct(t, '{')) {
      if (depth > 0) return;
      depth++;
    } else if (isPunct(t, '}')) {
      if (depth === 0) return;
      depth--;
    } else if (depth === 0 ? !(t.type === 'identifier' || isPunct(t, '*') || isPunct(t, ',')) : !(isIdentifierName(t) || t.type === 'string' || isPunct(t, ','))) {
      return;
    }
    tokens.take();
  }
}

/** After `export`: `* from`, `* as ns from`, `{ ... } from`; other exports declare local things. */
function exportFrom(ctx: ScanContext): void {
  const tokens = ctx.tokens;
  const next = tokens.peek();
  if (isPunct(next, '*')) {
    tokens.take();
    if (isWord(tokens.peek(), 'as')) {
      tokens.take();
      const name = tokens.peek();
      if (!isIdentifierName(name) && name.type !== 'string') return;
      tokens.take();
    }
  } else if (isPunct(next, '{')) {
    tokens.take();
    for (;;) {
      const t = tokens.peek();
      if (isPunct(t, '}')) {
        tokens.take();
        break;
      }
      if (!isIdentifierName(t) && t.type !== 'string' && !isPunct(t, ',')) return;
      tokens.take();
    }
  } else {
    return;
  }
  if (isWord(tokens.peek(), 'from') && tokens.peek(1).type === 'string') {
    tokens.take();
    const specifier = tokens.take();
    moduleSpecifier(ctx, specifier, importAttributes(ctx));
  }
}

/**
 * `import(...)`: a lone string or no-substitution template (optionally followed by an
 * options object) is checked like a static import; anything else cannot be checked.
 */
function importCall(ctx: ScanContext, keyword: JsToken): void {
  const tokens = ctx.tokens;
  tokens.take(); // (
  const argument = tokens.peek();
  const after = tokens.peek(1);
  if ((argument.type === 'string' || argument.type === 'template') && (isPunct(after, ')') || isPunct(after, ','))) {
    tokens.take();
    let attribute: TypeAttribute | null = null;
    if (isPunct(tokens.peek(), ',')) {
      tokens.take();
      attribute = importCallOptions(ctx);
    }
    moduleSpecifier(ctx, argument, attribute);
    return;
  }
  report(ctx, 
    'js/dynamic-import-unchecked',
    'This dynamic import takes a computed specifier, which cannot be checked: it must name a .js or .mjs file of the bundle at run time',
    keyword.start,
  );
}

/** WithClause after a module specifier: `with { type: 'json' }` (or the retired `assert {...}`). */
function importAttributes(ctx: ScanContext): TypeAttribute | null {
  const tokens = ctx.tokens;
  const t = tokens.peek();
  const introducer = (t.type === 'keyword' && t.value === 'with') || (isWord(t, 'assert') && !t.newlineBefore);
  if (!introducer || !isPunct(tokens.peek(1), '{')) return null;
  tokens.take();
  tokens.take();
  return attributeEntries(ctx);
}

/** The options of an import call: `{ with: { type: 'json' } }`. */
function importCallOptions(ctx: ScanContext): TypeAttribute | null {
  const tokens = ctx.tokens;
  const key = tokens.peek(1);
  const introducer = (key.type === 'keyword' && key.value === 'with') || isWord(key, 'assert');
  if (!isPunct(tokens.peek(), '{') || !introducer || !isPunct(tokens.peek(2), ':') || !isPunct(tokens.peek(3), '{')) return null;
  for (let i = 0; i < 4; i++) tokens.take();
  return attributeEntries(ctx);
}

/** `key: 'value'` pairs after an opening `{`, through the `}`; returns the `type` entry if any. */
function attributeEntries(ctx: ScanContext): TypeAttribute | null {
  const tokens = ctx.tokens;
  const text = ctx.scan.text;
  let found: TypeAttribute | null = null;
  for (;;) {
    const key = tokens.peek();
    if (isPunct(key, '}')) {
      tokens.take();
      return found;
    }
    if (!isIdentifierName(key) && key.type !== 'string') return found;
    const value = tokens.peek(2);
    if (!isPunct(tokens.peek(1), ':') || value.type !== 'string') return found;
    tokens.take();
    tokens.take();
    tokens.take();
    const name = key.type === 'string' ? cookString(text, key) : key.value;
    if (name === 'type') found = { value: cookString(text, value) ?? '', offset: key.start };
    if (isPunct(tokens.peek(), ',')) tokens.take();
  }
}

/** A ModuleSpecifier token (string, or template for import calls) with its type attribute. */
function moduleSpecifier(ctx: ScanContext, token: JsToken, attribute: TypeAttribute | null): void {
  if (attribute !== null) {
    // JSON files cannot be in the bundle (allowed extensions) and CSS module scripts are
    // neither JavaScript nor portable: the type attribute alone decides, one finding.
    report(ctx, 
      'js/module-type-attribute',
      `This import asks for a ${quoted(attribute.value)} module: only JavaScript modules can be imported`,
      attribute.offset,
    );
    return;
  }
  const text = ctx.scan.text;
  const value = token.type === 'template' ? cookTemplate(text, token) : cookString(text, token);
  if (value === null) {
    reportSyntax(ctx, 'invalid-escape', token.start);
    return;
  }
  checkSpecifier(ctx, value, token.start);
}

/**
 * D-19 and D-22 for one specifier, classified the way a browser resolves a module
 * specifier without an import map (HTML "resolve a module specifier"): one starting with
 * `/`, `./` or `../` is a URL relative to the module; one that parses as an absolute URL
 * is that URL; anything else is bare and fails to resolve.
 */
function checkSpecifier(ctx: ScanContext, specifier: string, offset: number): void {
  const scan = ctx.scan;
  const shown = quoted(specifier);
  const ref = classifyReference(specifier, ctx.baseDir);
  const relative = specifier.startsWith('/') || specifier.startsWith('./') || specifier.startsWith('../');
  if (!relative) {
    if (ref.type === 'remote' || ref.type === 'data') {
      const scheme = ref.type === 'data' ? 'data' : ref.scheme;
      report(ctx, 'js/remote-import', `Import of ${shown} loads a "${scheme}:" URL: only modules of the release can be imported`, offset);
    } else if (specifier === '') {
      report(ctx, 'js/bare-specifier', 'The import specifier is empty: name a module file such as "./main.js"', offset);
    } else {
      report(ctx, 'js/bare-specifier', `Import specifier ${shown} is a bare name: there are no import maps, so copy the module into the bundle and import it by a relative path ("./...")`, offset);
    }
    return;
  }
  switch (ref.type) {
    case 'remote':
      report(ctx, 'js/remote-import', `Import of ${shown} is protocol-relative ("//host"): only modules of the release can be imported`, offset);
      return;
    case 'root':
      report(ctx, 'js/root-relative-import', `Import specifier ${shown} starts at the site root, outside the release: use a path relative to this module`, offset);
      return;
    case 'outside':
      report(ctx, 'js/import-outside-bundle', `Import specifier ${shown} climbs above the bundle root`, offset);
      return;
    case 'local':
      break;
    default:
      report(ctx, 'js/bare-specifier', `Import specifier ${shown} does not name a module file`, offset);
      return;
  }
  if (NOT_PLAIN.test(specifier)) {
    report(ctx, 'js/import-not-plain', `Import specifier ${shown} is not a plain relative path: it has a "%", "?", "#", "\\", space or control character`, offset);
    return;
  }
  const path = ref.path;
  const resolved = path === specifier.replace(/^\.\//, '') ? '' : ` (bundle path "${path}")`;
  if (!scan.bundle.has(path)) {
    const near = scan.bundle.caseInsensitiveMatch(path);
    const extension = extensionOf(path);
    let detail = '';
    if (near !== undefined) detail = `; did you mean "${near}" (letter case differs)?`;
    else if (!MODULE_EXTENSIONS.has(extension)) detail = '; only .js and .mjs modules can be imported';
    report(ctx, 'js/missing-module', `Imported module ${shown}${resolved} is not in the bundle${detail}`, offset);
    return;
  }
  if (!MODULE_EXTENSIONS.has(extensionOf(path))) {
    report(ctx, 'js/not-javascript-module', `Import of ${shown}${resolved} names a file that is not a .js or .mjs module`, offset);
  }
}

// ===== API uses ==============================================================

/** An identifier token just taken: a global name, or a member of one. */
function checkIdentifier(ctx: ScanContext, token: JsToken): void {
  const tokens = ctx.tokens;
  const before = tokens.last(2);
  if (isDot(before)) {
    const owner = tokens.last(3);
    if (owner !== null && owner.type === 'identifier' && MEMBER_OWNERS.has(owner.value) && isGlobalName(tokens, 3)) checkMember(ctx, owner, token);
    return;
  }
  if (token.key) {
    // `{fetch: 1}` and `{ fetch() {} }` name a property; only shorthand `{fetch}` uses the value.
    const next = tokens.peek();
    if (!isPunct(next, ',') && !isPunct(next, '}')) return;
  }
  if (before !== null && before.type === 'keyword' && DECLARING_KEYWORDS.has(before.value)) return;
  checkGlobal(ctx, token, token);
}

/** Whether the identifier taken k tokens ago refers to a global: not a property, or a property of `window`/`self`/`globalThis`. */
function isGlobalName(tokens: SignificantTokens, k: number): boolean {
  if (!isDot(tokens.last(k + 1))) return true;
  const owner = tokens.last(k + 2);
  return owner !== null && owner.type === 'identifier' && GLOBAL_OBJECTS.has(owner.value) && !isDot(tokens.last(k + 3));
}

/** A global name used directly (`fetch(...)`) or through the global object (`window.fetch`); reported at `at`. */
function checkGlobal(ctx: ScanContext, name: JsToken, at: JsToken): void {
  const v = name.value;
  const kind = GLOBAL_KINDS.get(v);
  if (kind === undefined) return;
  const tokens = ctx.tokens;
  switch (kind) {
    case 'network':
      report(ctx, 'js/network-api', `"${v}" is blocked by the runtime policy (no connections or workers): it fails in production`, at.start);
      return;
    case 'webrtc':
      report(ctx, 'js/webrtc', `"${v}" opens WebRTC connections, which the runtime policy cannot block`, at.start);
      return;
    case 'storage':
      report(ctx, 'js/storage-unavailable', `"${v}" throws in the sandboxed frame: its origin is opaque, so there is no storage`, at.start);
      return;
    case 'eval':
      if (isPunct(tokens.peek(), '(')) {
        report(ctx, 'js/eval-blocked', `"${v}" compiles code from a string, which the runtime policy blocks (no 'unsafe-eval')`, at.start);
      }
      return;
    case 'timer': {
      const argument = tokens.peek(1);
      const stringArgument = argument.type === 'string' || argument.type === 'template' || argument.type === 'template-head';
      if (isPunct(tokens.peek(), '(') && stringArgument) {
        report(ctx, 'js/eval-blocked', `"${v}" with a string compiles code, which the runtime policy blocks (no 'unsafe-eval'): pass a function`, at.start);
      }
      return;
    }
    case 'location':
      if (isPunct(tokens.peek(), '=') && !isFragmentLiteral(ctx, tokens.peek(1))) {
        report(ctx, 'js/navigation', 'Assigning "location" navigates the frame away from the extension, which the frame must not do', at.start);
      }
      return;
  }
}

/** `owner.member` where `owner` is a global name; reported at the owner. */
function checkMember(ctx: ScanContext, owner: JsToken, member: JsToken): void {
  const tokens = ctx.tokens;
  const o = owner.value;
  const m = member.value;
  if (GLOBAL_OBJECTS.has(o)) {
    checkGlobal(ctx, member, owner);
    if (m === 'open' && isPunct(tokens.peek(), '(')) {
      report(ctx, 'js/navigation', `"${o}.open" would open a popup, which the sandbox blocks`, owner.start);
    }
    return;
  }
  if (NETWORK_MEMBERS.get(o)?.has(m) === true) {
    report(ctx, 'js/network-api', `"${o}.${m}" is blocked by the runtime policy (no connections): it fails in production`, owner.start);
  } else if (o === 'document' && m === 'cookie') {
    report(ctx, 'js/storage-unavailable', '"document.cookie" throws in the sandboxed frame: its origin is opaque, so there are no cookies', owner.start);
  } else if ((o === 'top' || o === 'parent') && m === 'location') {
    report(ctx, 'js/navigation', `"${o}.location" reaches the page around the frame, which the sandbox blocks`, owner.start);
  } else if (o === 'document' && m === 'location') {
    if (isPunct(tokens.peek(), '=') && !isFragmentLiteral(ctx, tokens.peek(1))) {
      report(ctx, 'js/navigation', 'Assigning "document.location" navigates the frame away from the extension, which the frame must not do', owner.start);
    }
  } else if (o === 'location') {
    const next = tokens.peek();
    const navigates =
      (m === 'href' && isPunct(next, '=') && !isFragmentLiteral(ctx, tokens.peek(1))) ||
      ((m === 'assign' || m === 'replace') && isPunct(next, '(') && !isFragmentLiteral(ctx, tokens.peek(1)));
    if (navigates) {
      report(ctx, 'js/navigation', `"location.${m}" navigates the frame away from the extension, which the frame must not do`, owner.start);
    }
  }
}

/** A string or template literal starting with `#`: same-document navigation, which is fine. */
function isFragmentLiteral(ctx: ScanContext, token: JsToken): boolean {
  const text = ctx.scan.text;
  if (token.type !== 'string' && token.type !== 'template' && token.type !== 'template-head') return false;
  return text.charCodeAt(token.start + 1) === 0x23;
}

// ===== reporting helpers =====================================================

const SYNTAX_TEXT: Readonly<Record<JsLexErrorKind, string>> = {
  'unterminated-string': 'a string literal is not closed on its line',
  'unterminated-template': 'a template literal is not closed',
  'unterminated-regex': 'a regular expression is not closed on its line',
  'unterminated-comment': 'a /* comment is not closed',
  'invalid-character': 'a character that cannot start a token',
  'invalid-escape': 'an invalid escape sequence',
  'invalid-number': 'a malformed number (legacy octal, misplaced "_", or a letter right after it)',
  'unbalanced-bracket': 'a closing bracket without an opening one',
  'unclosed-bracket': 'a bracket that is never closed',
};

function report(ctx: ScanContext, rule: string, message: string, offset: number): void {
  const count = ctx.counts.get(rule) ?? 0;
  if (count >= MAX_FINDINGS_PER_RULE) return;
  ctx.counts.set(rule, count + 1);
  ctx.scan.report(rule, message, offset);
}

function reportSyntax(ctx: ScanContext, kind: JsLexErrorKind, offset: number): void {
  if (ctx.syntaxReported) return;
  ctx.syntaxReported = true;
  report(ctx, 'js/syntax-error', `The module does not look like valid JavaScript here: ${SYNTAX_TEXT[kind]}`, offset);
}

/** Line and column (UTF-16 code units of the valid text before it) of the first byte that breaks UTF-8. */
function invalidUtf8Position(bytes: Uint8Array): { line: number; column: number } {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    let size = 0;
    let min = 0x80;
    let max = 0xbf;
    if (b < 0x80) size = 1;
    else if (b >= 0xc2 && b <= 0xdf) size = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      size = 3;
      if (b === 0xe0) min = 0xa0; // overlong
      if (b === 0xed) max = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      size = 4;
      if (b === 0xf0) min = 0x90; // overlong
      if (b === 0xf4) max = 0x8f; // above U+10FFFF
    } else break;
    if (i + size > n) break;
    let ok = true;
    for (let k = 1; k < size; k++) {
      const c = bytes[i + k]!;
      if (c < (k === 1 ? min : 0x80) || c > (k === 1 ? max : 0xbf)) ok = false;
    }
    if (!ok) break;
    i += size;
  }
  const prefix = decodeUtf8(bytes.subarray(0, i)) ?? '';
  return new LineMap(prefix).at(prefix.length);
}
