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
//
// Speed (bench/scan-speed-js.mjs): every name this policy looks at is a word of the
// lexer's word table, so a token is a few small integers in a ring (no object per
// token), and an identifier whose word code is 0 is skipped without a look.
import { FindingList } from '../findings.js';
import { extensionOf } from '../paths.js';
import { classifyReference, dirName } from '../references.js';
import { BLOCKED_NETWORK_APIS } from '../runtime-policy.js';
import { FileScan, type BundleView } from '../scan.js';
import { decodeUtf8, LineMap } from '../text.js';
import {
  cookStringAt,
  cookTemplateAt,
  JsLexer,
  JsWords,
  Punct,
  Ring,
  Token,
  TokenFlag,
  Word,
  type JsLexErrorKind,
} from './lexer.js';

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
const GLOBAL_OBJECTS: readonly string[] = ['window', 'self', 'globalThis'];

/** BLOCKED_NETWORK_APIS split into global names (`fetch`) and members of a global (`navigator.sendBeacon`). */
const NETWORK_GLOBALS: string[] = [];
const NETWORK_MEMBERS = new Map<string, Set<string>>();
for (const api of BLOCKED_NETWORK_APIS) {
  const dot = api.indexOf('.');
  if (dot < 0) {
    NETWORK_GLOBALS.push(api);
  } else {
    const owner = api.slice(0, dot);
    let members = NETWORK_MEMBERS.get(owner);
    if (members === undefined) NETWORK_MEMBERS.set(owner, (members = new Set()));
    members.add(api.slice(dot + 1));
  }
}

/** WebRTC constructors: a content-security policy does not govern peer connections, so the sandbox cannot stop them. */
const WEBRTC_GLOBALS: readonly string[] = ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel'];

/** Storage bound to an origin: the sandboxed frame's origin is opaque, and these throw a SecurityError. */
const STORAGE_GLOBALS: readonly string[] = ['localStorage', 'sessionStorage', 'indexedDB'];

/** Owners whose members are checked (`navigator.sendBeacon`, `document.cookie`, `top.location`, `location.href`, `window.x`). */
const MEMBER_OWNERS: readonly string[] = ['document', 'top', 'parent', 'location', ...GLOBAL_OBJECTS, ...NETWORK_MEMBERS.keys()];

/** Members checkMember looks at beyond the watched globals. */
const WATCHED_MEMBERS: readonly string[] = ['open', 'cookie', 'location', 'href', 'assign', 'replace', ...[...NETWORK_MEMBERS.values()].flatMap((m) => [...m])];

/** What a watched global name is (GLOBAL_KIND_OF); 0 = not watched. */
const KIND_NETWORK = 1;
const KIND_WEBRTC = 2;
const KIND_STORAGE = 3;
const KIND_EVAL = 4;
const KIND_TIMER = 5;
const KIND_LOCATION = 6;
const GLOBAL_KINDS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [KIND_NETWORK, NETWORK_GLOBALS],
  [KIND_WEBRTC, WEBRTC_GLOBALS],
  [KIND_STORAGE, STORAGE_GLOBALS],
  [KIND_EVAL, ['eval', 'Function']],
  [KIND_TIMER, ['setTimeout', 'setInterval']],
  [KIND_LOCATION, ['location']],
];

/** Contextual words of import and export declarations, and the attribute key. */
const SYNTAX_WORDS: readonly string[] = ['from', 'as', 'assert', 'type'];

/** Names whose identifier tokens checkIdentifier can report: watched globals and members. */
const WATCHED_NAMES: readonly string[] = [...WATCHED_MEMBERS, ...GLOBAL_KINDS.flatMap(([, names]) => names)];

/** Every name the policy looks at is a word of the lexer's table (see JsWords). */
const WORDS = new JsWords([...SYNTAX_WORDS, ...MEMBER_OWNERS, ...WATCHED_NAMES]);
const W_FROM = WORDS.id('from');
const W_AS = WORDS.id('as');
const W_ASSERT = WORDS.id('assert');
const W_TYPE = WORDS.id('type');

/** Word id -> KIND_* of a watched global. */
const GLOBAL_KIND_OF = new Uint8Array(WORDS.names.length);
for (const [kind, names] of GLOBAL_KINDS) for (const name of names) GLOBAL_KIND_OF[WORDS.id(name)] = kind;

/** Word id -> 1 when the word is a member owner, a global object, a watched name. */
const IS_MEMBER_OWNER = wordSet(MEMBER_OWNERS);
const IS_GLOBAL_OBJECT = wordSet(GLOBAL_OBJECTS);
const IS_WATCHED = wordSet(WATCHED_NAMES);
/** Where the lexer stops for the policy: watched names and the `import` and `export` keywords; no other token can lead to a finding. */
const STOP_WORDS = wordSet([...WATCHED_NAMES, 'import', 'export']);

/** Keywords after which an identifier is the name being declared, not a use. */
const DECLARING_KEYWORDS = new Set([Word.Function, Word.Class, Word.Const, Word.Let, Word.Var]);

function wordSet(names: readonly string[]): Uint8Array {
  const set = new Uint8Array(WORDS.names.length);
  for (const name of names) set[WORDS.id(name)] = 1;
  return set;
}

/**
 * Findings of one rule per module: a minified library can call `fetch` hundreds of times
 * and a hostile file can hold a million `import(x)`; the first ones say all there is.
 */
const MAX_FINDINGS_PER_RULE = 100;

/**
 * Significant tokens (the lexer drops comments) with a little lookahead and history,
 * read from the lexer's token ring (lexer.ts Ring.Size): a token is a slot number (-1:
 * none) and its fields are read from `kinds`, `codes`, `starts`, `ends` and `flags` at
 * that slot. The policy looks back at most 6 taken tokens (`window . navigator .
 * sendBeacon`) and ahead at most 4, so a slot stays valid while it is in use; a token
 * the policy holds longer (a module specifier) is copied out.
 */
class SignificantTokens {
  readonly kinds: Int32Array;
  /** Punctuator code or word id (lexer.ts). */
  readonly codes: Int32Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** TokenFlag bits. */
  readonly flags: Uint8Array;
  /** Tokens taken so far (lexer.count - taken are pulled but waiting). */
  private taken = 0;

  constructor(private readonly lexer: JsLexer) {
    this.kinds = lexer.ringKinds;
    this.codes = lexer.ringCodes;
    this.starts = lexer.ringStarts;
    this.ends = lexer.ringEnds;
    this.flags = lexer.ringFlags;
  }

  /** The k-th token not yet taken (0 = the next one). */
  peek(k = 0): number {
    while (this.lexer.count <= this.taken + k) this.lexer.scan();
    return (this.taken + k) & Ring.Mask;
  }

  take(): number {
    if (this.lexer.count === this.taken) this.lexer.scan();
    return this.taken++ & Ring.Mask;
  }

  /**
   * Takes tokens up to and including the next one the policy acts on: an identifier or
   * keyword whose word id is in STOP_WORDS, or the end. The tokens in between are taken
   * too (they are history), at the lexer's pace rather than one call each.
   */
  takeNextStop(): number {
    const lexer = this.lexer;
    while (this.taken < lexer.count) {
      const t = this.taken++ & Ring.Mask;
      const kind = this.kinds[t]!;
      if (kind === Token.Eof || (kind <= Token.Keyword && STOP_WORDS[this.codes[t]!] === 1)) return t;
    }
    lexer.scanUntil(STOP_WORDS);
    this.taken = lexer.count;
    return (this.taken - 1) & Ring.Mask;
  }

  /** The k-th most recently taken token (1 = the last one taken, k <= 6), or -1. */
  last(k: number): number {
    const index = this.taken - k;
    return index < 0 ? -1 : index & Ring.Mask;
  }

  isPunct(t: number, code: number): boolean {
    return t >= 0 && this.kinds[t] === Token.Punctuator && this.codes[t] === code;
  }

  isDot(t: number): boolean {
    return t >= 0 && this.kinds[t] === Token.Punctuator && (this.codes[t] === Punct.Dot || this.codes[t] === Punct.OptionalChain);
  }

  /** A contextual keyword (`from`, `as`, `assert`): written plainly, as an escaped one is a syntax error. */
  isWord(t: number, word: number): boolean {
    return t >= 0 && this.kinds[t] === Token.Identifier && (this.flags[t]! & TokenFlag.Escaped) === 0 && this.codes[t] === word;
  }

  isIdentifierName(t: number): boolean {
    return this.kinds[t] === Token.Identifier || this.kinds[t] === Token.Keyword;
  }

  isKey(t: number): boolean {
    return (this.flags[t]! & TokenFlag.Key) !== 0;
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
  const lexer = new JsLexer(scan.text, { words: WORDS, skipComments: true });
  const tokens = new SignificantTokens(lexer);
  const ctx: ScanContext = { scan, baseDir, tokens, syntaxReported: false, counts: new Map() };
  const kinds = tokens.kinds;
  const codes = tokens.codes;
  for (;;) {
    const t = tokens.takeNextStop();
    const kind = kinds[t];
    if (kind === Token.Identifier) {
      // A stop word that is an identifier (an escaped `import` is one) may be no watched name.
      if (IS_WATCHED[codes[t]!] === 1) checkIdentifier(ctx, t);
    } else if (kind === Token.Keyword) {
      const code = codes[t];
      // `x.import(...)`, `{ import() {} }`: property names, not the keyword at work.
      if (tokens.isKey(t) || tokens.isDot(tokens.last(2))) continue;
      if (code === Word.Import) importDeclarationOrCall(ctx, t);
      else if (code === Word.Export) exportFrom(ctx);
    } else if (kind === Token.Eof) {
      break;
    }
  }
  const first = lexer.errors[0];
  if (first !== undefined && !ctx.syntaxReported) reportSyntax(ctx, first.kind, first.offset);
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 200 ? text.slice(0, 200) + '…' : text);
}

// ===== imports (ECMA-262 16.2.2 "Imports", 16.2.3 "Exports", 13.3.10 "Import Calls") ====

/** After the `import` keyword: `import.meta`, `import(...)`, `import 'x'` or `import <clause> from 'x'`. */
function importDeclarationOrCall(ctx: ScanContext, keyword: number): void {
  const tokens = ctx.tokens;
  const next = tokens.peek();
  if (tokens.isDot(next)) return; // import.meta
  if (tokens.isPunct(next, Punct.LParen)) {
    importCall(ctx, tokens.starts[keyword]!);
    return;
  }
  if (tokens.kinds[next] === Token.String) {
    tokens.take();
    moduleSpecifierAfter(ctx, next);
    return;
  }
  // ImportClause: a default binding, `* as ns`, `{ a, b as c, "d" as e }`, or a phase
  // keyword (`defer`, `source`) before them. Only those tokens are stepped over, so a
  // broken declaration never swallows the code after it.
  let depth = 0;
  for (;;) {
    const t = tokens.peek();
    if (depth === 0 && tokens.isWord(t, W_FROM) && tokens.kinds[tokens.peek(1)] === Token.String) {
      tokens.take();
      moduleSpecifierAfter(ctx, tokens.take());
      return;
    }
    if (tokens.isPunct(t, Punct.LBrace)) {
      if (depth > 0) return;
      depth++;
    } else if (tokens.isPunct(t, Punct.RBrace)) {
      if (depth === 0) return;
      depth--;
    } else if (
      depth === 0
        ? !(tokens.kinds[t] === Token.Identifier || tokens.isPunct(t, Punct.Star) || tokens.isPunct(t, Punct.Comma))
        : !(tokens.isIdentifierName(t) || tokens.kinds[t] === Token.String || tokens.isPunct(t, Punct.Comma))
    ) {
      return;
    }
    tokens.take();
  }
}

/** After `export`: `* from`, `* as ns from`, `{ ... } from`; other exports declare local things. */
function exportFrom(ctx: ScanContext): void {
  const tokens = ctx.tokens;
  const next = tokens.peek();
  if (tokens.isPunct(next, Punct.Star)) {
    tokens.take();
    if (tokens.isWord(tokens.peek(), W_AS)) {
      tokens.take();
      const name = tokens.peek();
      if (!tokens.isIdentifierName(name) && tokens.kinds[name] !== Token.String) return;
      tokens.take();
    }
  } else if (tokens.isPunct(next, Punct.LBrace)) {
    tokens.take();
    for (;;) {
      const t = tokens.peek();
      if (tokens.isPunct(t, Punct.RBrace)) {
        tokens.take();
        break;
      }
      if (!tokens.isIdentifierName(t) && tokens.kinds[t] !== Token.String && !tokens.isPunct(t, Punct.Comma)) return;
      tokens.take();
    }
  } else {
    return;
  }
  if (tokens.isWord(tokens.peek(), W_FROM) && tokens.kinds[tokens.peek(1)] === Token.String) {
    tokens.take();
    moduleSpecifierAfter(ctx, tokens.take());
  }
}

/** The specifier token just taken, then its WithClause: the token is copied out first, as the clause may run past the ring. */
function moduleSpecifierAfter(ctx: ScanContext, specifier: number): void {
  const tokens = ctx.tokens;
  const kind = tokens.kinds[specifier]!;
  const start = tokens.starts[specifier]!;
  const end = tokens.ends[specifier]!;
  moduleSpecifier(ctx, kind, start, end, importAttributes(ctx));
}

/**
 * `import(...)`: a lone string or no-substitution template (optionally followed by an
 * options object) is checked like a static import; anything else cannot be checked.
 */
function importCall(ctx: ScanContext, keywordStart: number): void {
  const tokens = ctx.tokens;
  tokens.take(); // (
  const argument = tokens.peek();
  const after = tokens.peek(1);
  const kind = tokens.kinds[argument]!;
  if ((kind === Token.String || kind === Token.Template) && (tokens.isPunct(after, Punct.RParen) || tokens.isPunct(after, Punct.Comma))) {
    tokens.take();
    const start = tokens.starts[argument]!;
    const end = tokens.ends[argument]!;
    let attribute: TypeAttribute | null = null;
    if (tokens.isPunct(tokens.peek(), Punct.Comma)) {
      tokens.take();
      attribute = importCallOptions(ctx);
    }
    moduleSpecifier(ctx, kind, start, end, attribute);
    return;
  }
  report(ctx,
    'js/dynamic-import-unchecked',
    'This dynamic import takes a computed specifier, which cannot be checked: it must name a .js or .mjs file of the bundle at run time',
    keywordStart,
  );
}

/** WithClause after a module specifier: `with { type: 'json' }` (or the retired `assert {...}`). */
function importAttributes(ctx: ScanContext): TypeAttribute | null {
  const tokens = ctx.tokens;
  const t = tokens.peek();
  const introducer = (tokens.kinds[t] === Token.Keyword && tokens.codes[t] === Word.With) || (tokens.isWord(t, W_ASSERT) && (tokens.flags[t]! & TokenFlag.Newline) === 0);
  if (!introducer || !tokens.isPunct(tokens.peek(1), Punct.LBrace)) return null;
  tokens.take();
  tokens.take();
  return attributeEntries(ctx);
}

/** The options of an import call: `{ with: { type: 'json' } }`. */
function importCallOptions(ctx: ScanContext): TypeAttribute | null {
  const tokens = ctx.tokens;
  const key = tokens.peek(1);
  const introducer = (tokens.kinds[key] === Token.Keyword && tokens.codes[key] === Word.With) || tokens.isWord(key, W_ASSERT);
  if (!tokens.isPunct(tokens.peek(), Punct.LBrace) || !introducer || !tokens.isPunct(tokens.peek(2), Punct.Colon) || !tokens.isPunct(tokens.peek(3), Punct.LBrace)) return null;
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
    if (tokens.isPunct(key, Punct.RBrace)) {
      tokens.take();
      return found;
    }
    if (!tokens.isIdentifierName(key) && tokens.kinds[key] !== Token.String) return found;
    const value = tokens.peek(2);
    if (!tokens.isPunct(tokens.peek(1), Punct.Colon) || tokens.kinds[value] !== Token.String) return found;
    tokens.take();
    tokens.take();
    tokens.take();
    // An identifier key compares by word id (escapes decoded, as the name's value); a string key by its value.
    const isType = tokens.kinds[key] === Token.String ? cookStringAt(text, tokens.starts[key]!, tokens.ends[key]!) === 'type' : tokens.codes[key] === W_TYPE;
    if (isType) found = { value: cookStringAt(text, tokens.starts[value]!, tokens.ends[value]!) ?? '', offset: tokens.starts[key]! };
    if (tokens.isPunct(tokens.peek(), Punct.Comma)) tokens.take();
  }
}

/** A ModuleSpecifier token (string, or template for import calls) at `text[start, end)` with its type attribute. */
function moduleSpecifier(ctx: ScanContext, kind: number, start: number, end: number, attribute: TypeAttribute | null): void {
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
  const value = kind === Token.Template ? cookTemplateAt(text, start, end) : cookStringAt(text, start, end);
  if (value === null) {
    reportSyntax(ctx, 'invalid-escape', start);
    return;
  }
  checkSpecifier(ctx, value, start);
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

/** A watched identifier just taken: a global name, or a member of one. */
function checkIdentifier(ctx: ScanContext, token: number): void {
  const tokens = ctx.tokens;
  const before = tokens.last(2);
  if (tokens.isDot(before)) {
    const owner = tokens.last(3);
    if (owner >= 0 && tokens.kinds[owner] === Token.Identifier && IS_MEMBER_OWNER[tokens.codes[owner]!] === 1 && isGlobalName(tokens, 3)) checkMember(ctx, owner, token);
    return;
  }
  if (tokens.isKey(token)) {
    // `{fetch: 1}` and `{ fetch() {} }` name a property; only shorthand `{fetch}` uses the value.
    const next = tokens.peek();
    if (!tokens.isPunct(next, Punct.Comma) && !tokens.isPunct(next, Punct.RBrace)) return;
  }
  if (before >= 0 && tokens.kinds[before] === Token.Keyword && DECLARING_KEYWORDS.has(tokens.codes[before]!)) return;
  checkGlobal(ctx, token, token);
}

/** Whether the identifier taken k tokens ago refers to a global: not a property, or a property of `window`/`self`/`globalThis`. */
function isGlobalName(tokens: SignificantTokens, k: number): boolean {
  if (!tokens.isDot(tokens.last(k + 1))) return true;
  const owner = tokens.last(k + 2);
  return owner >= 0 && tokens.kinds[owner] === Token.Identifier && IS_GLOBAL_OBJECT[tokens.codes[owner]!] === 1 && !tokens.isDot(tokens.last(k + 3));
}

/** A global name used directly (`fetch(...)`) or through the global object (`window.fetch`); reported at `at`. */
function checkGlobal(ctx: ScanContext, name: number, at: number): void {
  const tokens = ctx.tokens;
  const code = tokens.codes[name]!;
  const kind = GLOBAL_KIND_OF[code];
  if (kind === 0) return;
  const v = WORDS.names[code]!;
  const offset = tokens.starts[at]!;
  switch (kind) {
    case KIND_NETWORK:
      report(ctx, 'js/network-api', `"${v}" is blocked by the runtime policy (no connections or workers): it fails in production`, offset);
      return;
    case KIND_WEBRTC:
      report(ctx, 'js/webrtc', `"${v}" opens WebRTC connections, which the runtime policy cannot block`, offset);
      return;
    case KIND_STORAGE:
      report(ctx, 'js/storage-unavailable', `"${v}" throws in the sandboxed frame: its origin is opaque, so there is no storage`, offset);
      return;
    case KIND_EVAL:
      if (tokens.isPunct(tokens.peek(), Punct.LParen)) {
        report(ctx, 'js/eval-blocked', `"${v}" compiles code from a string, which the runtime policy blocks (no 'unsafe-eval')`, offset);
      }
      return;
    case KIND_TIMER: {
      const argument = tokens.kinds[tokens.peek(1)];
      const stringArgument = argument === Token.String || argument === Token.Template || argument === Token.TemplateHead;
      if (tokens.isPunct(tokens.peek(), Punct.LParen) && stringArgument) {
        report(ctx, 'js/eval-blocked', `"${v}" with a string compiles code, which the runtime policy blocks (no 'unsafe-eval'): pass a function`, offset);
      }
      return;
    }
    case KIND_LOCATION:
      if (tokens.isPunct(tokens.peek(), Punct.Assign) && !isFragmentLiteral(ctx, tokens.peek(1))) {
        report(ctx, 'js/navigation', 'Assigning "location" navigates the frame away from the extension, which the frame must not do', offset);
      }
      return;
  }
}

/** `owner.member` where `owner` is a global name; reported at the owner. */
function checkMember(ctx: ScanContext, owner: number, member: number): void {
  const tokens = ctx.tokens;
  const o = WORDS.names[tokens.codes[owner]!]!;
  const m = WORDS.names[tokens.codes[member]!]!;
  const offset = tokens.starts[owner]!;
  if (IS_GLOBAL_OBJECT[tokens.codes[owner]!] === 1) {
    checkGlobal(ctx, member, owner);
    if (m === 'open' && tokens.isPunct(tokens.peek(), Punct.LParen)) {
      report(ctx, 'js/navigation', `"${o}.open" would open a popup, which the sandbox blocks`, offset);
    }
    return;
  }
  if (NETWORK_MEMBERS.get(o)?.has(m) === true) {
    report(ctx, 'js/network-api', `"${o}.${m}" is blocked by the runtime policy (no connections): it fails in production`, offset);
  } else if (o === 'document' && m === 'cookie') {
    report(ctx, 'js/storage-unavailable', '"document.cookie" throws in the sandboxed frame: its origin is opaque, so there are no cookies', offset);
  } else if ((o === 'top' || o === 'parent') && m === 'location') {
    report(ctx, 'js/navigation', `"${o}.location" reaches the page around the frame, which the sandbox blocks`, offset);
  } else if (o === 'document' && m === 'location') {
    if (tokens.isPunct(tokens.peek(), Punct.Assign) && !isFragmentLiteral(ctx, tokens.peek(1))) {
      report(ctx, 'js/navigation', 'Assigning "document.location" navigates the frame away from the extension, which the frame must not do', offset);
    }
  } else if (o === 'location') {
    const next = tokens.peek();
    const navigates =
      (m === 'href' && tokens.isPunct(next, Punct.Assign) && !isFragmentLiteral(ctx, tokens.peek(1))) ||
      ((m === 'assign' || m === 'replace') && tokens.isPunct(next, Punct.LParen) && !isFragmentLiteral(ctx, tokens.peek(1)));
    if (navigates) {
      report(ctx, 'js/navigation', `"location.${m}" navigates the frame away from the extension, which the frame must not do`, offset);
    }
  }
}

/** A string or template literal starting with `#`: same-document navigation, which is fine. */
function isFragmentLiteral(ctx: ScanContext, token: number): boolean {
  const kind = ctx.tokens.kinds[token];
  if (kind !== Token.String && kind !== Token.Template && kind !== Token.TemplateHead) return false;
  return ctx.scan.text.charCodeAt(ctx.tokens.starts[token]! + 1) === 0x23;
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
