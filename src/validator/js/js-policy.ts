// Policy over a module's token stream (lexer.ts): its imports (D-19) and the browser APIs the runtime policy (D-17) or
// the sandbox blocks; strings, comments, template text and regexes never produce findings (D-19). An API is found by
// name; a name the module binds anywhere is its own throughout (a lexer sees no scopes, and bundlers do not reuse a
// global's name), so findings are held to the module's end. Aliases and computed access are missed: the runtime policy
// still blocks them. Also (D-34): bridge uses, literal remote URLs, CommonJS/UMD, root-relative strings, exports.
import { checkSuspiciousCode } from './suspicious-code.js';
import { FindingList } from '../findings.js';
import { extensionOf } from '../paths.js';
import { classifyReference, dirName, rootRelativeHint, rootRelativeTwin } from '../references.js';
import { BLOCKED_NETWORK_APIS } from '../runtime-policy.js';
import { CAPABILITIES, capabilityByKey } from '../capabilities.js';
import { FileScan, type BundleView } from '../scan.js';
import { checkAttributeWrite, checkMarkup, checkStyle, SUBSTITUTION } from './js-markup.js';
import { checkBridgeCall, suggestAction } from './js-bridge-calls.js';
import { decodeUtf8, LineMap } from '../text.js';
import {
  cookStringAt,
  cookTemplatePart,
  isStopLiteral,
  cookTemplateAt,
  JsLexer,
  JsWords,
  Punct,
  PUNCTUATORS,
  Ring,
  Token,
  TokenFlag,
  Word,
  type JsLexErrorKind,
} from './lexer.js';

/** Extensions a module specifier may point at (D-18: modules are `.js`/`.mjs`; D-2: any letter case). */
const MODULE_EXTENSIONS: ReadonlySet<string> = new Set(['js', 'mjs']);

// D-22: a specifier is a plain relative path like a module script `src` (no `%`, `?`, `#`, `\`, spaces, controls),
// so a module reads the same whether the page or another module loads it.
// eslint-disable-next-line no-control-regex
const NOT_PLAIN = /[%?#\\\u0000-\u0020\u007f]/;

const GLOBAL_OBJECTS: readonly string[] = ['window', 'self', 'globalThis'];

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

const MEMBER_OWNERS: readonly string[] = ['document', 'top', 'parent', 'location', ...GLOBAL_OBJECTS, ...NETWORK_MEMBERS.keys()];

const WATCHED_MEMBERS: readonly string[] = ['open', 'cookie', 'location', 'href', 'assign', 'replace', ...[...NETWORK_MEMBERS.values()].flatMap((m) => [...m])];

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

const SYNTAX_WORDS: readonly string[] = ['from', 'as', 'assert', 'type'];

const MARKUP_SINKS: readonly string[] = ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'write', 'writeln', 'parseFromString', 'createContextualFragment', 'setAttribute'];
const MARKUP_PROPS: readonly string[] = ['href', 'srcset', 'srcSet', 'poster', 'action', 'formAction', 'xlinkHref', 'target', 'backgroundImage'];

const OTHER_WATCHED: readonly string[] = ['PLATFORM', 'module', 'exports', 'require', 'src'];

const WATCHED_NAMES: readonly string[] = [...WATCHED_MEMBERS, ...GLOBAL_KINDS.flatMap(([, names]) => names)];

/** Every name the policy looks at is a word of the lexer's table: tokens are compared as small integers. */
const WORDS = new JsWords([...SYNTAX_WORDS, ...MEMBER_OWNERS, ...WATCHED_NAMES, ...OTHER_WATCHED, ...MARKUP_SINKS, ...MARKUP_PROPS]);
const W_FROM = WORDS.id('from');
const W_AS = WORDS.id('as');
const W_ASSERT = WORDS.id('assert');
const W_TYPE = WORDS.id('type');
const W_PLATFORM = WORDS.id('PLATFORM');
const W_MODULE = WORDS.id('module');
const W_EXPORTS = WORDS.id('exports');
const W_REQUIRE = WORDS.id('require');
const W_SRC = WORDS.id('src');
const W_FUNCTION = WORDS.id('Function');
const W_DOCUMENT = WORDS.id('document');
const W_INNER_HTML = WORDS.id('innerHTML');
const W_OUTER_HTML = WORDS.id('outerHTML');
const W_INSERT_ADJACENT_HTML = WORDS.id('insertAdjacentHTML');
const W_WRITE = WORDS.id('write');
const W_WRITELN = WORDS.id('writeln');
const W_SET_ATTRIBUTE = WORDS.id('setAttribute');
const W_BACKGROUND_IMAGE = WORDS.id('backgroundImage');
const W_PARSE_FROM_STRING = WORDS.id('parseFromString');
const W_CREATE_CONTEXTUAL_FRAGMENT = WORDS.id('createContextualFragment');

const GLOBAL_KIND_OF = new Uint8Array(WORDS.names.length);
for (const [kind, names] of GLOBAL_KINDS) for (const name of names) GLOBAL_KIND_OF[WORDS.id(name)] = kind;

const IS_MEMBER_OWNER = wordSet(MEMBER_OWNERS);
const IS_GLOBAL_OBJECT = wordSet(GLOBAL_OBJECTS);
const IS_WATCHED = wordSet([...WATCHED_NAMES, ...OTHER_WATCHED]);
const IS_MARKUP_WORD = wordSet([...MARKUP_SINKS, ...MARKUP_PROPS, 'src']);
// Where the lexer stops for the policy: no other token can lead to a finding. Member owners stop it because a module
// may bind `self` or `document` itself (JsLexer.scanUntil also stops at top-level `this` and `/`, `<` literals).
const STOP_WORDS = wordSet([...WATCHED_NAMES, ...OTHER_WATCHED, ...MEMBER_OWNERS, ...MARKUP_SINKS, ...MARKUP_PROPS, 'import', 'export']);
const STOP_WORDS_NO_MARKUP = wordSet([...WATCHED_NAMES, ...OTHER_WATCHED, ...MEMBER_OWNERS, 'import', 'export']);

/** PLATFORM's members that are no capability (the bridge's own API). */
const PLATFORM_OWN_MEMBERS: ReadonlySet<string> = new Set(['ready', 'capabilities', 'settings', 'request']);

const PLATFORM_AREAS: ReadonlyMap<string, ReadonlyMap<string, string>> = (() => {
  const areas = new Map<string, Map<string, string>>();
  for (const c of CAPABILITIES) {
    const [, area, method] = c.method.split('.');
    let methods = areas.get(area!);
    if (methods === undefined) areas.set(area!, (methods = new Map()));
    methods.set(method!, c.key);
  }
  return areas;
})();

/** Object.prototype's members: reading them from PLATFORM is no use of the bridge and no unknown member. */
const OBJECT_MEMBERS: ReadonlySet<string> = new Set(['constructor', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', 'toString', 'valueOf']);

/** Constructors whose first argument is a URL the frame would load (a literal remote one is an error, D-34). */
const URL_CONSTRUCTORS: ReadonlySet<string> = new Set(['WebSocket', 'EventSource', 'Worker']);

function wordSet(names: readonly string[]): Uint8Array {
  const set = new Uint8Array(WORDS.names.length);
  for (const name of names) set[WORDS.id(name)] = 1;
  return set;
}

/** Findings per rule per module: a minified library may call `fetch` hundreds of times, a hostile file a million. */
const MAX_FINDINGS_PER_RULE = 100;

/** Significant tokens from the lexer's ring: a token is a slot (-1: none). The policy looks at most PARAMETER_LOOK + 2
 *  tokens each way, well within Ring.Size, so a slot stays valid while used; what it keeps longer is copied out. */
class SignificantTokens {
  readonly kinds: Int32Array;
  /** Punctuator code or word id (lexer.ts). */
  readonly codes: Int32Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** TokenFlag bits. */
  readonly flags: Uint8Array;
  /** Offset of the innermost open brace (lexer.ts ringBraces). */
  readonly braces: Int32Array;
  /** Tokens taken so far (lexer.count - taken are pulled but waiting). */
  private taken = 0;

  constructor(
    private readonly lexer: JsLexer,
    readonly text: string,
  ) {
    this.kinds = lexer.ringKinds;
    this.codes = lexer.ringCodes;
    this.starts = lexer.ringStarts;
    this.ends = lexer.ringEnds;
    this.flags = lexer.ringFlags;
    this.braces = lexer.ringBraces;
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
  takeNextStop(stops: Uint8Array = STOP_WORDS): number {
    const lexer = this.lexer;
    while (this.taken < lexer.count) {
      const t = this.taken++ & Ring.Mask;
      const kind = this.kinds[t]!;
      if (kind === Token.Eof || (kind <= Token.Keyword && stops[this.codes[t]!] === 1)) return t;
      if (kind === Token.Keyword && this.codes[t] === Word.This && (this.flags[t]! & TokenFlag.TopLevel) !== 0) return t;
      if ((kind === Token.String || kind === Token.Template || kind === Token.TemplateHead) && isStopLiteral(this.text, kind, this.starts[t]!)) return t;
    }
    lexer.scanUntil(stops);
    this.taken = lexer.count;
    return (this.taken - 1) & Ring.Mask;
  }

  /** The k-th most recently taken token (1 = the last one taken; k plus the lookahead in use stays within Ring.Size), or -1. */
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

  /** The text of a punctuator token ('' for any other). */
  nameOfPunct(t: number): string {
    return t >= 0 && this.kinds[t] === Token.Punctuator ? PUNCTUATORS[this.codes[t]!]! : '';
  }

  isKeyword(t: number, word: number): boolean {
    return t >= 0 && this.kinds[t] === Token.Keyword && this.codes[t] === word;
  }

  /** The name of an identifier or keyword token as written (escapes stay: such a name is compared only with plain ones). */
  nameOf(t: number): string {
    return this.text.slice(this.starts[t]!, this.ends[t]!);
  }

  /** The value of a string or no-substitution template token, or null for any other token (or a bad escape). */
  literalValue(t: number): string | null {
    const kind = this.kinds[t];
    if (kind === Token.String) return cookStringAt(this.text, this.starts[t]!, this.ends[t]!);
    if (kind === Token.Template) return cookTemplateAt(this.text, this.starts[t]!, this.ends[t]!);
    return null;
  }
}

interface HeldFinding {
  readonly rule: string;
  readonly message: string;
  readonly offset: number;
  readonly name: number;
}

export interface CapabilityUse {
  readonly key: string;
  /** What the code says, e.g. `PLATFORM.cart.manage` or `PLATFORM.request("cart.manage")`. */
  readonly call: string;
  readonly line: number;
  readonly column: number;
}

/** A named import of a bundle module (`import { name } from` a relative specifier; `default` for a default import). */
export interface NamedImport {
  readonly path: string;
  readonly name: string;
  readonly line: number;
  readonly column: number;
}

/** What other files' checks need (validate.ts): plain data, so a scan made on another thread carries it over. */
export interface ModuleFacts {
  /** Names the module exports itself; null when they cannot all be known (a lexical error, an export the scan cannot read). */
  readonly exports: string[] | null;
  /** Bundle paths of `export * from` targets: their exports (but `default`) are this module's too. */
  readonly reexports: string[];
  readonly imports: NamedImport[];
  readonly capabilityUses: CapabilityUse[];
  /** The bridge is used in a way the scan cannot follow (a computed request, the object passed on): any capability may be in use. */
  readonly platformUnclear: boolean;
  readonly settingsReads: SettingRead[];
  /** The module reads settings in a way the scan cannot follow (passed on, a computed name): any property may be read. */
  readonly settingsUnclear: boolean;
}

export interface SettingRead {
  readonly name: string;
  readonly line: number;
  readonly column: number;
}

interface ScanContext {
  readonly scan: FileScan;
  readonly baseDir: string;
  tokens: SignificantTokens;
  syntaxReported: boolean;
  readonly counts: Map<string, Uint8Array>;
  readonly held: HeldFinding[];
  /** Word id -> 1 when the module binds that name itself, or tests it with `typeof` (CommonJS names). */
  readonly own: Uint8Array;
  readonly aliases: Set<string>;
  exports: string[] | null;
  readonly reexports: string[];
  readonly imports: NamedImport[];
  readonly capabilityUses: CapabilityUse[];
  readonly bridgeUses: (CapabilityUse & { readonly own: number })[];
  readonly capabilityCounts: Map<string, number>;
  platformUnclear: boolean;
  readonly settingsReads: SettingRead[];
  settingsUnclear: boolean;
  readonly settingsNames: Set<string>;
  declarationBudget: number;
  exportedDeclarations: number;
  /** rootRelativeTwin by string value (checkSlashString): bundlers repeat the same few paths. */
  readonly twins: Map<string, string | undefined>;
  readonly markup: boolean;
  readonly markupSeen: Set<number>;
  bridgeCalls: number;
  markupBudget: number;
  vitePolyfill?: boolean;
  lineMap?: LineMap;
}

interface TypeAttribute {
  readonly value: string;
  readonly offset: number;
}

/** One module file: decoded as UTF-8 (module scripts always are), imports resolved against its folder; null if unreadable. */
export function checkJsModule(file: string, bytes: Uint8Array, bundle: BundleView, findings: FindingList): ModuleFacts | null {
  const text = decodeUtf8(bytes);
  if (text === null) {
    const at = invalidUtf8Position(bytes);
    findings.add('js/invalid-utf8', 'The module is not valid UTF-8: browsers decode module scripts as UTF-8 whatever the server says, so this text would change', {
      file,
      line: at.line,
      column: at.column,
    });
    return null;
  }
  checkSuspiciousCode(file, text, findings, { sites: false }); // suspicious-code.ts: hidden names, computed globals
  return scanJsModule(new FileScan(file, text, bundle, findings), dirName(file));
}

/** Scans module text already decoded; relative specifiers resolve against `baseDir` (a bundle folder, '' for the root). */
export function scanJsModule(scan: FileScan, baseDir: string): ModuleFacts {
  const lexer = new JsLexer(scan.text, { words: WORDS, skipComments: true });
  const tokens = new SignificantTokens(lexer, scan.text);
  const ctx: ScanContext = {
    scan,
    baseDir,
    tokens,
    syntaxReported: false,
    counts: new Map(),
    held: [],
    own: new Uint8Array(WORDS.names.length),
    aliases: new Set(),
    exports: [],
    reexports: [],
    imports: [],
    capabilityUses: [],
    bridgeUses: [],
    capabilityCounts: new Map(),
    platformUnclear: false,
    settingsReads: [],
    settingsUnclear: false,
    settingsNames: new Set(),
    declarationBudget: scan.text.length,
    exportedDeclarations: 0,
    twins: new Map(),
    markup: markupAnalysis,
    markupSeen: new Set(),
    markupBudget: scan.text.length,
    bridgeCalls: 0,
  };
  const stops = markupAnalysis ? STOP_WORDS : STOP_WORDS_NO_MARKUP;
  const kinds = tokens.kinds;
  const codes = tokens.codes;
  for (;;) {
    const t = tokens.takeNextStop(stops);
    const kind = kinds[t];
    if (kind === Token.Identifier) {
      // A stop word that is an identifier (an escaped `import` is one) may be no watched name.
      if (IS_WATCHED[codes[t]!] === 1) {
        checkIdentifier(ctx, t);
        if (IS_MARKUP_WORD[codes[t]!] === 1 && ctx.markup) checkMarkupWord(ctx, t);
      } else if (IS_MARKUP_WORD[codes[t]!] === 1) {
        if (ctx.markup) checkMarkupWord(ctx, t);
      }
      else if (IS_MEMBER_OWNER[codes[t]!] === 1 && !tokens.isDot(tokens.last(2)) && isBindingAt(ctx, t)) ctx.own[codes[t]!] = 1;
    } else if (kind === Token.Keyword) {
      const code = codes[t];
      // `x.import(...)`, `{ import() {} }`: property names, not the keyword at work.
      if (tokens.isKey(t) || tokens.isDot(tokens.last(2))) continue;
      if (code === Word.Import) importDeclarationOrCall(ctx, t);
      else if (code === Word.Export) exportDeclaration(ctx, t);
      else if (code === Word.This) checkTopLevelThis(ctx, t);
    } else if (kind === Token.String || kind === Token.Template || kind === Token.TemplateHead) {
      if (scan.text.charCodeAt(tokens.starts[t]! + 1) === 0x2f) checkSlashString(ctx, t);
      else if (ctx.markup) checkMarkupShape(ctx, t);
    } else if (kind === Token.Eof) {
      break;
    }
  }
  if (ctx.aliases.size > 0) scanAliases(ctx);
  if (ctx.settingsNames.size > 0) scanSettingsNames(ctx);
  const first = lexer.errors[0];
  if (first !== undefined) {
    if (!ctx.syntaxReported) reportSyntax(ctx, first.kind, first.offset);
    ctx.exports = null;
  }
  flush(ctx);
  // The facts outlive the module's text (validate.ts keeps all), so they hold copies, not slices (see `detached`).
  return {
    exports: ctx.exports === null ? null : ctx.exports.map(detached),
    reexports: ctx.reexports.map(detached),
    imports: ctx.imports.map((i) => ({ path: detached(i.path), name: detached(i.name), line: i.line, column: i.column })),
    capabilityUses: ctx.capabilityUses.map((u) => ({ key: detached(u.key), call: detached(u.call), line: u.line, column: u.column })),
    platformUnclear: ctx.platformUnclear,
    settingsReads: ctx.settingsReads.map((r) => ({ name: detached(r.name), line: r.line, column: r.column })),
    settingsUnclear: ctx.settingsUnclear,
  };
}

// V8 makes a long slice a view into its source, so one exported name would keep the module's whole text alive; cutting
// from a fresh concatenation makes V8 copy the characters.
function detached(s: string): string {
  return (' ' + s).slice(1);
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 200 ? text.slice(0, 200) + '…' : text);
}

// ===== imports (ECMA-262 16.2.2 "Imports", 16.2.3 "Exports", 13.3.10 "Import Calls") ====

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
  // ImportClause: a default binding, `* as ns`, `{ a, b as c }`, or a phase keyword (`defer`, `source`) first. Only those
  // tokens are stepped over, so a broken declaration never swallows the code after it.
  const clause: number[] = [];
  let depth = 0;
  for (;;) {
    const t = tokens.peek();
    if (depth === 0 && tokens.isWord(t, W_FROM) && tokens.kinds[tokens.peek(1)] === Token.String) {
      tokens.take();
      const path = moduleSpecifierAfter(ctx, tokens.take());
      importClause(ctx, clause, path);
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
    clause.push(tokens.kinds[t]!, tokens.codes[t]!, tokens.starts[t]!, tokens.ends[t]!);
    tokens.take();
  }
}

/** Bindings an import clause makes, and names it imports from `path` (null: not a bundle module, reported already). */
function importClause(ctx: ScanContext, clause: readonly number[], path: string | null): void {
  const text = ctx.scan.text;
  const isPunctAt = (i: number, code: number): boolean => i < clause.length && clause[i] === Token.Punctuator && clause[i + 1] === code;
  const isAsAt = (i: number): boolean => i < clause.length && clause[i] === Token.Identifier && clause[i + 1] === W_AS;
  let braces = false;
  for (let i = 0; i < clause.length; i += 4) {
    if (isPunctAt(i, Punct.LBrace)) braces = true;
    else if (isPunctAt(i, Punct.RBrace)) braces = false;
    else if (isPunctAt(i, Punct.Comma)) continue;
    else if (isPunctAt(i, Punct.Star)) {
      if (isAsAt(i + 4) && i + 8 < clause.length) ctx.own[clause[i + 9]!] = 1;
      i += 8;
    } else if (!braces) {
      // The default binding, unless a phase keyword (`defer`, `source`) stands before the real clause.
      if (i + 4 < clause.length && ((clause[i + 4] === Token.Identifier && !isAsAt(i + 4)) || isPunctAt(i + 4, Punct.Star) || isPunctAt(i + 4, Punct.LBrace))) continue;
      ctx.own[clause[i + 1]!] = 1;
      if (path !== null) addImport(ctx, path, 'default', clause[i + 2]!);
    } else {
      const start = clause[i + 2]!;
      const end = clause[i + 3]!;
      const name = clause[i] === Token.String ? cookStringAt(text, start, end) : text.slice(start, end);
      let local = i;
      if (isAsAt(i + 4) && i + 8 < clause.length) {
        local = i + 8;
        i += 8;
      }
      ctx.own[clause[local + 1]!] = 1;
      if (path !== null && name !== null) addImport(ctx, path, name, start);
    }
  }
}

function addImport(ctx: ScanContext, path: string, name: string, offset: number): void {
  if (ctx.imports.length >= MAX_FINDINGS_PER_RULE * 10) return;
  const { line, column } = position(ctx, offset);
  ctx.imports.push({ path, name, line, column });
}

function addExport(ctx: ScanContext, name: string): void {
  if (ctx.exports !== null) ctx.exports.push(name);
}

/** After `export`: the names exported. Only `* ...` and `{ ... }` forms are taken here; a declaration is scanned as usual. */
function exportDeclaration(ctx: ScanContext, keyword: number): void {
  const tokens = ctx.tokens;
  const next = tokens.peek();
  if (tokens.isPunct(next, Punct.Star)) {
    tokens.take();
    let alias: string | null = null;
    if (tokens.isWord(tokens.peek(), W_AS)) {
      tokens.take();
      const name = tokens.peek();
      if (!tokens.isIdentifierName(name) && tokens.kinds[name] !== Token.String) return;
      alias = tokens.kinds[name] === Token.String ? tokens.literalValue(name) : tokens.nameOf(name);
      tokens.take();
    }
    if (tokens.isWord(tokens.peek(), W_FROM) && tokens.kinds[tokens.peek(1)] === Token.String) {
      tokens.take();
      const path = moduleSpecifierAfter(ctx, tokens.take());
      if (alias !== null) addExport(ctx, alias);
      else if (path !== null) ctx.reexports.push(path);
      else ctx.exports = null;
    }
    return;
  }
  if (tokens.isPunct(next, Punct.LBrace)) {
    tokens.take();
    const specifiers: { name: string | null; exported: string | null; offset: number }[] = [];
    for (;;) {
      const t = tokens.peek();
      if (tokens.isPunct(t, Punct.RBrace)) {
        tokens.take();
        break;
      }
      if (tokens.isPunct(t, Punct.Comma)) {
        tokens.take();
        continue;
      }
      if (!tokens.isIdentifierName(t) && tokens.kinds[t] !== Token.String) return;
      const name = tokens.kinds[t] === Token.String ? tokens.literalValue(t) : tokens.nameOf(t);
      const offset = tokens.starts[t]!;
      tokens.take();
      let exported = name;
      if (tokens.isWord(tokens.peek(), W_AS)) {
        tokens.take();
        const alias = tokens.peek();
        if (!tokens.isIdentifierName(alias) && tokens.kinds[alias] !== Token.String) return;
        exported = tokens.kinds[alias] === Token.String ? tokens.literalValue(alias) : tokens.nameOf(alias);
        tokens.take();
      }
      if (specifiers.length < MAX_FINDINGS_PER_RULE * 10) specifiers.push({ name, exported, offset });
    }
    let path: string | null = null;
    if (tokens.isWord(tokens.peek(), W_FROM) && tokens.kinds[tokens.peek(1)] === Token.String) {
      tokens.take();
      path = moduleSpecifierAfter(ctx, tokens.take());
    }
    for (const s of specifiers) {
      if (s.exported === null) ctx.exports = null;
      else addExport(ctx, s.exported);
      if (path !== null && s.name !== null) addImport(ctx, path, s.name, s.offset);
    }
    return;
  }
  if (tokens.kinds[next] === Token.Keyword) {
    const code = tokens.codes[next];
    if (code === Word.Default) {
      addExport(ctx, 'default');
      return;
    }
    if (code === Word.Function || code === Word.Class) {
      let name = tokens.peek(1);
      if (tokens.isPunct(name, Punct.Star)) name = tokens.peek(2);
      if (tokens.kinds[name] === Token.Identifier) addExport(ctx, tokens.nameOf(name));
      else ctx.exports = null;
      return;
    }
    if (code === Word.Const || code === Word.Let || code === Word.Var) {
      exportedDeclarators(ctx, tokens.starts[next]!, tokens.flags[keyword]!);
      return;
    }
  }
  if (tokens.kinds[next] === Token.Identifier && tokens.isKeyword(tokens.peek(1), Word.Function)) {
    let name = tokens.peek(2);
    if (tokens.isPunct(name, Punct.Star)) name = tokens.peek(3);
    if (tokens.kinds[name] === Token.Identifier) addExport(ctx, tokens.nameOf(name));
    else ctx.exports = null;
    return;
  }
  ctx.exports = null;
}

/** Names an exported `const`/`let`/`var` binds, read by a second lexer; all such reads together are bounded by the
 *  module's size (past it the exports are unknown), so no file can make this quadratic. */
function exportedDeclarators(ctx: ScanContext, start: number, exportFlags: number): void {
  if (ctx.exports === null) return;
  if (++ctx.exportedDeclarations > MAX_EXPORTED_DECLARATIONS) {
    ctx.exports = null;
    return;
  }
  // An export stands at the top level; one inside brackets is a syntax error, left to the lexer's report.
  if ((exportFlags & TokenFlag.TopLevel) === 0) {
    ctx.exports = null;
    return;
  }
  const text = ctx.scan.text;
  const lexer = new JsLexer(text, { skipComments: true, start, allBindings: true });
  lexer.scan();
  let candidate: string | null = null;
  for (;;) {
    const kind = lexer.scan();
    const slot = (lexer.count - 1) & Ring.Mask;
    const tokenStart = lexer.ringStarts[slot]!;
    if (tokenStart - start > ctx.declarationBudget) {
      ctx.exports = null;
      return;
    }
    if (candidate !== null) {
      if (!(kind === Token.Punctuator && lexer.ringCodes[slot] === Punct.Colon)) addExport(ctx, candidate);
      candidate = null;
    }
    if (kind === Token.Eof || lexer.openDeclarations === 0) break;
    if (kind === Token.Identifier && (lexer.ringFlags[slot]! & TokenFlag.Binding) !== 0 && lexer.openDeclarations === 1) {
      candidate = text.slice(tokenStart, lexer.ringEnds[slot]!);
    }
  }
  ctx.declarationBudget -= lexer.count === 0 ? 0 : lexer.ringEnds[(lexer.count - 1) & Ring.Mask]! - start;
}

const MAX_EXPORTED_DECLARATIONS = 2000;

/** The specifier just taken, then its WithClause (copied out first: the clause may run past the ring). */
function moduleSpecifierAfter(ctx: ScanContext, specifier: number): string | null {
  const tokens = ctx.tokens;
  const kind = tokens.kinds[specifier]!;
  const start = tokens.starts[specifier]!;
  const end = tokens.ends[specifier]!;
  return moduleSpecifier(ctx, kind, start, end, importAttributes(ctx));
}

/** `import(...)`: a lone string or no-substitution template (options allowed) is checked like a static import. */
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

function importAttributes(ctx: ScanContext): TypeAttribute | null {
  const tokens = ctx.tokens;
  const t = tokens.peek();
  const introducer = (tokens.kinds[t] === Token.Keyword && tokens.codes[t] === Word.With) || (tokens.isWord(t, W_ASSERT) && (tokens.flags[t]! & TokenFlag.Newline) === 0);
  if (!introducer || !tokens.isPunct(tokens.peek(1), Punct.LBrace)) return null;
  tokens.take();
  tokens.take();
  return attributeEntries(ctx);
}

function importCallOptions(ctx: ScanContext): TypeAttribute | null {
  const tokens = ctx.tokens;
  const key = tokens.peek(1);
  const introducer = (tokens.kinds[key] === Token.Keyword && tokens.codes[key] === Word.With) || tokens.isWord(key, W_ASSERT);
  if (!tokens.isPunct(tokens.peek(), Punct.LBrace) || !introducer || !tokens.isPunct(tokens.peek(2), Punct.Colon) || !tokens.isPunct(tokens.peek(3), Punct.LBrace)) return null;
  for (let i = 0; i < 4; i++) tokens.take();
  return attributeEntries(ctx);
}

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

function moduleSpecifier(ctx: ScanContext, kind: number, start: number, end: number, attribute: TypeAttribute | null): string | null {
  if (attribute !== null) {
    // JSON cannot be in the bundle and CSS module scripts are not portable: the type attribute alone decides.
    report(ctx,
      'js/module-type-attribute',
      `This import asks for a ${quoted(attribute.value)} module: only JavaScript modules can be imported`,
      attribute.offset,
    );
    return null;
  }
  const text = ctx.scan.text;
  const value = kind === Token.Template ? cookTemplateAt(text, start, end) : cookStringAt(text, start, end);
  if (value === null) {
    reportSyntax(ctx, 'invalid-escape', start);
    return null;
  }
  return checkSpecifier(ctx, value, start);
}

/** D-19 and D-22 for one specifier, resolved as a browser does without an import map: `/`, `./`, `../` relative to the
 *  module, an absolute URL as itself, anything else bare (fails). Returns the bundle module it names, or null. */
function checkSpecifier(ctx: ScanContext, specifier: string, offset: number): string | null {
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
    return null;
  }
  switch (ref.type) {
    case 'remote':
      report(ctx, 'js/remote-import', `Import of ${shown} is protocol-relative ("//host"): only modules of the release can be imported`, offset);
      return null;
    case 'root': {
      const twin = rootRelativeTwin(specifier, scan.bundle);
      report(ctx, 'js/root-relative-import', `Import specifier ${shown} starts at the site root, outside the release: use a path relative to this module${twin === undefined ? '' : rootRelativeHint(twin)}`, offset);
      return null;
    }
    case 'outside':
      report(ctx, 'js/import-outside-bundle', `Import specifier ${shown} climbs above the bundle root`, offset);
      return null;
    case 'local':
      break;
    default:
      report(ctx, 'js/bare-specifier', `Import specifier ${shown} does not name a module file`, offset);
      return null;
  }
  if (NOT_PLAIN.test(specifier)) {
    report(ctx, 'js/import-not-plain', `Import specifier ${shown} is not a plain relative path: it has a "%", "?", "#", "\\", space or control character`, offset);
    return null;
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
    return null;
  }
  if (!MODULE_EXTENSIONS.has(extensionOf(path))) {
    report(ctx, 'js/not-javascript-module', `Import of ${shown}${resolved} names a file that is not a .js or .mjs module`, offset);
    return null;
  }
  return path;
}

// ===== API uses ==============================================================

/** Tokens a parameter list is looked through for (arrow functions and methods: isBindingAt); the ring holds both directions. */
const PARAMETER_LOOK = 10;

/** `&&`, for the guard `this && this.x` that TypeScript's helpers use at the top level. */
const PUNCT_AND = PUNCTUATORS.indexOf('&&');
const PUNCT_OR = PUNCTUATORS.indexOf('||');
const PUNCT_NULLISH = PUNCTUATORS.indexOf('??');

/** Whether the identifier just taken is bound by the module: TokenFlag.Binding (a key before `:` is none), or a
 *  parameter of `x => …`, `(a, x) => …` or `m(a, x) {…}` seen through the ring. */
function isBindingAt(ctx: ScanContext, t: number): boolean {
  const tokens = ctx.tokens;
  const flags = tokens.flags[t]!;
  if ((flags & TokenFlag.Binding) !== 0) return !((flags & TokenFlag.Key) !== 0 && tokens.isPunct(tokens.peek(), Punct.Colon));
  if (tokens.isPunct(tokens.peek(), Punct.Arrow)) return true;
  const before = tokens.last(2);
  if (!tokens.isPunct(before, Punct.LParen) && !tokens.isPunct(before, Punct.Comma) && !tokens.isPunct(before, Punct.Ellipsis)) return false;
  let k = 0;
  for (;;) {
    const next = tokens.peek(k);
    if (tokens.isPunct(next, Punct.RParen)) break;
    if (!tokens.isPunct(next, Punct.Comma) || k > PARAMETER_LOOK) return false;
    if (tokens.isPunct(tokens.peek(k + 1), Punct.Ellipsis)) k++;
    if (tokens.kinds[tokens.peek(k + 1)] !== Token.Identifier) return false;
    k += 2;
  }
  const after = tokens.peek(k + 1);
  if (tokens.isPunct(after, Punct.Arrow)) return true;
  if (!tokens.isPunct(after, Punct.LBrace)) return false;
  let j = 2;
  for (;;) {
    const back = tokens.last(j);
    if (tokens.isPunct(back, Punct.LParen)) break;
    if (j > PARAMETER_LOOK) return false;
    if (tokens.isPunct(back, Punct.Ellipsis)) {
      j++;
      continue;
    }
    if (!tokens.isPunct(back, Punct.Comma) || tokens.kinds[tokens.last(j + 1)] !== Token.Identifier) return false;
    j += 2;
  }
  // The name may be a string or number key too: esbuild's CommonJS wrapper is `{ "lib.js"(exports, module) { … } }`.
  const name = tokens.last(j + 1);
  return name >= 0 && tokens.kinds[name]! <= Token.Number && tokens.isKey(name);
}

function checkIdentifier(ctx: ScanContext, token: number): void {
  const tokens = ctx.tokens;
  const code = tokens.codes[token]!;
  const before = tokens.last(2);
  if (tokens.isDot(before)) {
    const owner = tokens.last(3);
    if (owner >= 0 && tokens.kinds[owner] === Token.Identifier && IS_MEMBER_OWNER[tokens.codes[owner]!] === 1 && isGlobalName(tokens, 3)) checkMember(ctx, owner, token);
    else if (code === W_SRC) checkSrcAssignment(ctx, token);
    return;
  }
  if (isBindingAt(ctx, token)) {
    ctx.own[code] = 1;
    return;
  }
  if (tokens.isKey(token)) {
    // `{fetch: 1}` and `{ fetch() {} }` name a property; only shorthand `{fetch}` uses the value.
    const next = tokens.peek();
    if (!tokens.isPunct(next, Punct.Comma) && !tokens.isPunct(next, Punct.RBrace)) return;
  }
  if (tokens.isKeyword(before, Word.Typeof)) {
    // A feature test never fails; `typeof module` guards CommonJS code, which then never runs in a module.
    if (code === W_MODULE || code === W_EXPORTS || code === W_REQUIRE) ctx.own[code] = 1;
    return;
  }
  if (code === W_PLATFORM) checkPlatform(ctx, token, token);
  else if (code === W_MODULE || code === W_EXPORTS || code === W_REQUIRE) checkCommonJs(ctx, token);
  else checkGlobal(ctx, token, token);
}

function isGlobalName(tokens: SignificantTokens, k: number): boolean {
  if (!tokens.isDot(tokens.last(k + 1))) return true;
  const owner = tokens.last(k + 2);
  return owner >= 0 && tokens.kinds[owner] === Token.Identifier && IS_GLOBAL_OBJECT[tokens.codes[owner]!] === 1 && !tokens.isDot(tokens.last(k + 3));
}

/** A global used directly (`fetch(...)`) or via the global object (`window.fetch`); `at`'s name may prove the module's own. */
function checkGlobal(ctx: ScanContext, name: number, at: number): void {
  const tokens = ctx.tokens;
  const code = tokens.codes[name]!;
  const kind = GLOBAL_KIND_OF[code];
  if (kind === 0) return;
  const v = WORDS.names[code]!;
  const offset = tokens.starts[at]!;
  const own = tokens.codes[at]!;
  switch (kind) {
    case KIND_NETWORK:
      // `WebSocket.OPEN`, `XMLHttpRequest.DONE`: a constant read, which opens nothing.
      if (tokens.isDot(tokens.peek()) && isConstantName(tokens, tokens.peek(1))) return;
      if ((v === 'fetch' || URL_CONSTRUCTORS.has(v)) && remoteArgument(ctx, `"${v}"`, offset, own)) return;
      hold(ctx, 'js/network-api', `"${v}" is blocked by the runtime policy (no connections or workers): it fails in production${v === 'fetch' ? vitePolyfillHint(ctx) : ''}`, offset, own);
      return;
    case KIND_WEBRTC:
      hold(ctx, 'js/webrtc', `"${v}" opens WebRTC connections, which the runtime policy cannot block`, offset, own);
      return;
    case KIND_STORAGE:
      hold(ctx, 'js/storage-unavailable', `"${v}" throws in the sandboxed frame: its origin is opaque, so there is no storage`, offset, own);
      return;
    case KIND_EVAL:
      if (tokens.isPunct(tokens.peek(), Punct.LParen) && !isGlobalObjectFallback(ctx, name)) {
        hold(ctx, 'js/eval-blocked', `"${v}" compiles code from a string, which the runtime policy blocks (no 'unsafe-eval')`, offset, own);
      }
      return;
    case KIND_TIMER: {
      const argument = tokens.kinds[tokens.peek(1)];
      const stringArgument = argument === Token.String || argument === Token.Template || argument === Token.TemplateHead;
      if (tokens.isPunct(tokens.peek(), Punct.LParen) && stringArgument) {
        hold(ctx, 'js/eval-blocked', `"${v}" with a string compiles code, which the runtime policy blocks (no 'unsafe-eval'): pass a function`, offset, own);
      }
      return;
    }
    case KIND_LOCATION:
      if (tokens.isPunct(tokens.peek(), Punct.Assign) && !isFragmentLiteral(ctx, tokens.peek(1))) {
        hold(ctx, 'js/navigation', 'Assigning "location" navigates the frame away from the extension, which the frame must not do', offset, own);
      }
      return;
  }
}

function isConstantName(tokens: SignificantTokens, t: number): boolean {
  if (tokens.kinds[t] !== Token.Identifier) return false;
  const start = tokens.starts[t]!;
  const end = tokens.ends[t]!;
  for (let i = start; i < end; i++) {
    const c = tokens.text.charCodeAt(i);
    if (!((c >= 0x41 && c <= 0x5a) || c === 0x5f || (c >= 0x30 && c <= 0x39 && i > start))) return false;
  }
  return true;
}

/** `Function("return this")()` as the last fallback of the global-object idiom (`freeSelf || Function(…)()`) never runs
 *  in a browser, which has `self`. Recognised by the exact body and the `||`, `??` or `:` before it. */
function isGlobalObjectFallback(ctx: ScanContext, name: number): boolean {
  const tokens = ctx.tokens;
  if (tokens.codes[name] !== W_FUNCTION || tokens.literalValue(tokens.peek(1)) !== 'return this' || !tokens.isPunct(tokens.peek(2), Punct.RParen)) return false;
  let before = tokens.last(2);
  if (tokens.isKeyword(before, Word.New)) before = tokens.last(3);
  return tokens.isPunct(before, PUNCT_OR) || tokens.isPunct(before, PUNCT_NULLISH) || tokens.isPunct(before, Punct.Colon);
}

function checkMember(ctx: ScanContext, owner: number, member: number): void {
  const tokens = ctx.tokens;
  const o = WORDS.names[tokens.codes[owner]!]!;
  const m = WORDS.names[tokens.codes[member]!]!;
  const offset = tokens.starts[owner]!;
  // `window.navigator.sendBeacon`: the chain starts at `window`, which may be the module's own name.
  const qualified = tokens.isDot(tokens.last(4));
  const first = qualified ? tokens.last(5) : owner;
  if (tokens.isKeyword(tokens.last(qualified ? 6 : 4), Word.Typeof)) return;
  const own = tokens.codes[first]!;
  if (IS_GLOBAL_OBJECT[tokens.codes[owner]!] === 1) {
    if (tokens.codes[member] === W_PLATFORM) {
      checkPlatform(ctx, member, owner);
      return;
    }
    checkGlobal(ctx, member, owner);
    if (m === 'open' && tokens.isPunct(tokens.peek(), Punct.LParen)) {
      hold(ctx, 'js/navigation', `"${o}.open" would open a popup, which the sandbox blocks`, offset, own);
    }
    return;
  }
  if (NETWORK_MEMBERS.get(o)?.has(m) === true) {
    if (remoteArgument(ctx, `"${o}.${m}"`, offset, own)) return;
    hold(ctx, 'js/network-api', `"${o}.${m}" is blocked by the runtime policy (no connections): it fails in production`, offset, own);
  } else if (o === 'document' && m === 'cookie') {
    hold(ctx, 'js/storage-unavailable', '"document.cookie" throws in the sandboxed frame: its origin is opaque, so there are no cookies', offset, own);
  } else if ((o === 'top' || o === 'parent') && m === 'location') {
    hold(ctx, 'js/navigation', `"${o}.location" reaches the page around the frame, which the sandbox blocks`, offset, own);
  } else if (o === 'document' && m === 'location') {
    if (tokens.isPunct(tokens.peek(), Punct.Assign) && !isFragmentLiteral(ctx, tokens.peek(1))) {
      hold(ctx, 'js/navigation', 'Assigning "document.location" navigates the frame away from the extension, which the frame must not do', offset, own);
    }
  } else if (o === 'location') {
    const next = tokens.peek();
    const navigates =
      (m === 'href' && tokens.isPunct(next, Punct.Assign) && !isFragmentLiteral(ctx, tokens.peek(1))) ||
      ((m === 'assign' || m === 'replace') && tokens.isPunct(next, Punct.LParen) && !isFragmentLiteral(ctx, tokens.peek(1)));
    if (navigates) {
      hold(ctx, 'js/navigation', `"location.${m}" navigates the frame away from the extension, which the frame must not do`, offset, own);
    }
  }
}

function isFragmentLiteral(ctx: ScanContext, token: number): boolean {
  const kind = ctx.tokens.kinds[token];
  if (kind !== Token.String && kind !== Token.Template && kind !== Token.TemplateHead) return false;
  return ctx.scan.text.charCodeAt(ctx.tokens.starts[token]! + 1) === 0x23;
}

// ===== remote URLs, root-relative strings (D-19, D-34) ========================

/** A literal remote URL as the call's first argument (`fetch("https://…")`): an error (D-34), not the API's warning. */
function remoteArgument(ctx: ScanContext, what: string, offset: number, own: number): boolean {
  const tokens = ctx.tokens;
  if (!tokens.isPunct(tokens.peek(), Punct.LParen)) return false;
  const url = tokens.literalValue(tokens.peek(1));
  if (url === null || classifyReference(url, '').type !== 'remote') return false;
  hold(ctx, 'js/remote-url', `${what} loads the remote URL ${quoted(url)}: the frame loads nothing from outside the release`, offset, own);
  return true;
}

/** `x.src = "https://…"` (an image's or a script's source): a literal remote URL there is an error (D-34). */
function checkSrcAssignment(ctx: ScanContext, token: number): void {
  const tokens = ctx.tokens;
  if (!tokens.isPunct(tokens.peek(), Punct.Assign)) return;
  const url = tokens.literalValue(tokens.peek(1));
  if (url === null || classifyReference(url, '').type !== 'remote') return;
  hold(ctx, 'js/remote-url', `Setting "src" to the remote URL ${quoted(url)} loads it from outside the release, which the frame cannot do`, tokens.starts[token]!, 0);
}

/** A `/` string naming a bundle file from the site root misses the release, which is served from a folder of its own. */
function checkSlashString(ctx: ScanContext, t: number): void {
  if (ctx.markupSeen.has(ctx.tokens.starts[t]!)) return;
  const value = ctx.tokens.literalValue(t);
  if (value === null) return;
  let twin = ctx.twins.get(value);
  if (twin === undefined && !ctx.twins.has(value)) {
    twin = rootRelativeTwin(value, ctx.scan.bundle);
    if (ctx.twins.size < MAX_FINDINGS_PER_RULE * 10) ctx.twins.set(value, twin);
  }
  if (twin === undefined) return;
  hold(ctx, 'js/root-relative-string', `The string ${quoted(value)} names a file of the bundle from the site root, where the release is not${rootRelativeHint(twin)}`, ctx.tokens.starts[t]!, 0);
}

/** Vite's modulepreload polyfill fetches: its `fetch` is known by its feature test, and the message names the setting. */
function vitePolyfillHint(ctx: ScanContext): string {
  if (ctx.vitePolyfill === undefined) {
    const text = ctx.scan.text;
    ctx.vitePolyfill = text.includes('relList') && /supports\(\s*["']modulepreload["']\s*\)/.test(text);
  }
  return ctx.vitePolyfill ? "; this is Vite's modulepreload polyfill: set build.modulePreload: { polyfill: false } in vite.config" : '';
}

// ===== markup and attribute writes (js-markup.ts) ==============================

/** Run-time analysis is on unless a benchmark turns it off: a module-level switch keeps options off the check paths. */
let markupAnalysis = true;

/** For bench/run-time-analysis.mjs only. */
export function setRunTimeAnalysis(on: boolean): void {
  markupAnalysis = on;
}

/** Records a literal as looked at (bounded: past the bound a literal may be looked at twice, never missed). */
function seeLiteral(ctx: ScanContext, start: number): void {
  if (ctx.markupSeen.size < MAX_FINDINGS_PER_RULE * 100) ctx.markupSeen.add(start);
}

function endsValue(tokens: SignificantTokens, t: number): boolean {
  return tokens.isPunct(t, Punct.RParen) || tokens.isPunct(t, Punct.Comma) || tokens.isPunct(t, Punct.Semicolon) || tokens.isPunct(t, Punct.RBrace) || tokens.kinds[t] === Token.Eof || (tokens.flags[t]! & TokenFlag.Newline) !== 0;
}

function checkMarkupWord(ctx: ScanContext, t: number): void {
  const tokens = ctx.tokens;
  const code = tokens.codes[t]!;
  const next = tokens.peek();
  if (tokens.isDot(tokens.last(2))) {
    if (code === W_INNER_HTML || code === W_OUTER_HTML) {
      if (tokens.isPunct(next, Punct.Assign) || tokens.nameOfPunct(next) === '+=') markupLiteral(ctx, tokens.peek(1));
      return;
    }
    if (!tokens.isPunct(next, Punct.LParen)) {
      // `a.href = "…"`, `a.target = "_blank"`, `style.backgroundImage = "url(…)"` (`src` has its own rule).
      if (!tokens.isPunct(next, Punct.Assign) || code === W_SRC || IS_MARKUP_WORD[code] !== 1) return;
      const value = tokens.peek(1);
      const literal = tokens.literalValue(value);
      if (literal === null || !endsValue(tokens, tokens.peek(2))) return;
      const owner = tokens.last(3);
      // `location.href = …` is the navigation rule's.
      if (owner >= 0 && tokens.kinds[owner] === Token.Identifier && IS_MEMBER_OWNER[tokens.codes[owner]!] === 1) return;
      const valueAt = tokens.starts[value]! + 1;
      seeLiteral(ctx, tokens.starts[value]!);
      if (code === W_BACKGROUND_IMAGE) {
        checkStyle(`background-image:${literal}`, (o) => valueAt + Math.max(0, o - 17), '"style.backgroundImage"', ctx.scan.bundle, markupReporter(ctx, 0));
      } else {
        checkAttributeWrite('', WORDS.names[code]!, literal, tokens.starts[t]!, valueAt, ctx.scan.bundle, markupReporter(ctx, 0));
      }
      return;
    }
    const first = tokens.peek(1);
    if (code === W_INSERT_ADJACENT_HTML) {
      if (tokens.literalValue(first) !== null && tokens.isPunct(tokens.peek(2), Punct.Comma)) markupLiteral(ctx, tokens.peek(3));
    } else if (code === W_WRITE || code === W_WRITELN) {
      const owner = tokens.last(3);
      if (owner >= 0 && tokens.codes[owner] === W_DOCUMENT && tokens.kinds[owner] === Token.Identifier && !tokens.isDot(tokens.last(4))) markupLiteral(ctx, first, W_DOCUMENT);
    } else if (code === W_SET_ATTRIBUTE) {
      const name = tokens.literalValue(first);
      if (name === null || !tokens.isPunct(tokens.peek(2), Punct.Comma)) return;
      const value = tokens.peek(3);
      const literal = endsValue(tokens, tokens.peek(4)) ? tokens.literalValue(value) : null;
      if (literal !== null) seeLiteral(ctx, tokens.starts[value]!);
      checkAttributeWrite('', name, literal, tokens.starts[first]!, tokens.starts[value]! + 1, ctx.scan.bundle, markupReporter(ctx, 0));
    } else if (code === W_PARSE_FROM_STRING || code === W_CREATE_CONTEXTUAL_FRAGMENT) {
      markupLiteral(ctx, first);
    }
    return;
  }
  // A key of a props object: `jsx("a", { href: "…" })`, `h("img", { src: "…" })`.
  if (!tokens.isKey(t) || !tokens.isPunct(next, Punct.Colon) || code === W_BACKGROUND_IMAGE) return;
  const value = tokens.peek(1);
  if (tokens.kinds[value] !== Token.String && tokens.kinds[value] !== Token.Template) return;
  if (!endsValue(tokens, tokens.peek(2))) return;
  const element = propsElement(ctx.scan.text, tokens.braces[t]!);
  if (element === null) return;
  const literal = tokens.literalValue(value);
  if (literal === null) return;
  seeLiteral(ctx, tokens.starts[value]!);
  checkAttributeWrite(element, WORDS.names[code]!, literal, tokens.starts[t]!, tokens.starts[value]! + 1, ctx.scan.bundle, markupReporter(ctx, 0));
}

/** The element of a props object: the second argument of a call whose first is a literal element name (compiled JSX, Vue). */
function propsElement(text: string, brace: number): string | null {
  if (brace < 0 || text.charCodeAt(brace) !== 0x7b) return null;
  let p = skipSpaceBack(text, brace - 1);
  if (text.charCodeAt(p) !== 0x2c) return null;
  p = skipSpaceBack(text, p - 1);
  const quote = text.charCodeAt(p);
  if (quote !== 0x22 && quote !== 0x27) return null;
  let q = p - 1;
  while (q >= 0 && p - q <= 32 && isTagNameChar(text.charCodeAt(q))) q--;
  if (q < 0 || text.charCodeAt(q) !== quote || q === p - 1) return null;
  const name = text.slice(q + 1, p);
  const c = name.charCodeAt(0);
  if (!(c >= 0x61 && c <= 0x7a)) return null;
  const open = skipSpaceBack(text, q - 1);
  return text.charCodeAt(open) === 0x28 ? name : null;
}

function isTagNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
}

function skipSpaceBack(text: string, p: number): number {
  while (p >= 0) {
    const c = text.charCodeAt(p);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    p--;
  }
  return p;
}

/** A `<` literal is markup as a call's first argument (`$("<img …>")`) or a tagged template (lit's html`…`); else text. */
function checkMarkupShape(ctx: ScanContext, t: number): void {
  const tokens = ctx.tokens;
  const before = tokens.last(2);
  const kind = tokens.kinds[t];
  // The first argument only: lists of markup strings (test tables, sanitizer corpora) are data.
  const argument = tokens.isPunct(before, Punct.LParen);
  const tagged = kind !== Token.String && before >= 0 && (tokens.kinds[before] === Token.Identifier || tokens.isPunct(before, Punct.RParen) || tokens.isPunct(before, Punct.RBracket));
  if (argument || tagged) markupLiteral(ctx, t);
}

function markupReporter(ctx: ScanContext, own: number): (rule: string, message: string, offset: number) => void {
  return (rule, message, offset) => hold(ctx, rule, message, offset, own);
}

function markupLiteral(ctx: ScanContext, t: number, own = 0): void {
  const tokens = ctx.tokens;
  const kind = tokens.kinds[t];
  if (kind !== Token.String && kind !== Token.Template && kind !== Token.TemplateHead) return;
  const start = tokens.starts[t]!;
  if (ctx.markupSeen.has(start)) return;
  seeLiteral(ctx, start);
  if (kind !== Token.TemplateHead) {
    const value = tokens.literalValue(t);
    if (value === null || !value.includes('<')) return;
    const end = tokens.ends[t]!;
    // Escapes change lengths: then every finding points at the literal's start.
    const linear = value.length === end - start - 2;
    checkMarkup(value, linear ? (o) => start + 1 + o : () => start, ctx.scan.bundle, markupReporter(ctx, own));
    return;
  }
  const parts = templateParts(ctx, start);
  if (parts === null) return;
  checkMarkup(parts.html, parts.map, ctx.scan.bundle, markupReporter(ctx, own));
}

/** A template's static text (SUBSTITUTION per `${…}`), read by a lexer of its own; null past markupBudget. */
function templateParts(ctx: ScanContext, start: number): { html: string; map: (offset: number) => number } | null {
  const text = ctx.scan.text;
  const lexer = new JsLexer(text, { skipComments: true, start });
  const pieces: string[] = [];
  const at: number[] = [];
  const from: number[] = [];
  const linear: boolean[] = [];
  let length = 0;
  let depth = 0;
  const add = (s: number, e: number): void => {
    const raw = text.slice(s, e);
    const cooked = cookTemplatePart(text, s, e) ?? raw;
    if (pieces.length > 0) {
      pieces.push(SUBSTITUTION);
      length += 1;
    }
    at.push(length);
    from.push(s);
    linear.push(cooked.length === raw.length);
    pieces.push(cooked);
    length += cooked.length;
  };
  for (;;) {
    const kind = lexer.scan();
    const slot = (lexer.count - 1) & Ring.Mask;
    const s = lexer.ringStarts[slot]!;
    const e = lexer.ringEnds[slot]!;
    if (e - start > ctx.markupBudget || kind === Token.Eof) {
      ctx.markupBudget = 0;
      return null;
    }
    if (kind === Token.TemplateHead) {
      if (++depth === 1) add(s + 1, e - 2);
    } else if (kind === Token.TemplateMiddle) {
      if (depth === 1) add(s + 1, e - 2);
    } else if (kind === Token.TemplateTail) {
      if (depth === 1) {
        add(s + 1, e - 1);
        ctx.markupBudget -= e - start;
        break;
      }
      depth--;
    }
  }
  const html = pieces.join('');
  return {
    html,
    map: (o) => {
      let i = at.length - 1;
      while (i > 0 && at[i]! > o) i--;
      return linear[i] ? from[i]! + (o - at[i]!) : from[i]!;
    },
  };
}

// ===== settings the code reads =================================================

/** Tokens an object pattern before `=` is looked back through (the ring holds them with the lookahead in use). */
const PATTERN_LOOK = 16;

const MAX_SETTINGS_READS = 500;

function addSettingRead(ctx: ScanContext, name: string, offset: number): void {
  if (ctx.settingsReads.length >= MAX_SETTINGS_READS) return;
  const { line, column } = position(ctx, offset);
  ctx.settingsReads.push({ name, line, column });
}

function settingsMemberAt(ctx: ScanContext, k: number): boolean {
  const tokens = ctx.tokens;
  const next = tokens.peek(k);
  if (tokens.isDot(next)) {
    const name = tokens.peek(k + 1);
    if (!tokens.isIdentifierName(name)) return false;
    addSettingRead(ctx, tokens.nameOf(name), tokens.starts[name]!);
    return true;
  }
  if (tokens.isPunct(next, Punct.LBracket) && tokens.isPunct(tokens.peek(k + 2), Punct.RBracket)) {
    const name = tokens.literalValue(tokens.peek(k + 1));
    if (name === null) return false;
    addSettingRead(ctx, name, tokens.starts[tokens.peek(k + 1)]!);
    return true;
  }
  return false;
}

/** The names an object pattern before `= <expression>` reads, walked back from the `}` taken `back` tokens ago; `key`
 *  picks the one entry to follow (`{ settings }` of `await PLATFORM.ready`). False when unreadable. */
function patternBefore(ctx: ScanContext, back: number, key: string | null): boolean {
  const tokens = ctx.tokens;
  if (!tokens.isPunct(tokens.last(back), Punct.RBrace)) return false;
  const slots: number[] = [];
  let depth = 0;
  for (let j = back; j < back + PATTERN_LOOK; j++) {
    const t = tokens.last(j);
    if (t < 0) return false;
    slots.push(t);
    if (tokens.isPunct(t, Punct.RBrace)) depth++;
    else if (tokens.isPunct(t, Punct.LBrace) && --depth === 0) break;
    if (j === back + PATTERN_LOOK - 1) return false;
  }
  slots.reverse();
  let level = 0;
  let found = key === null;
  for (let i = 0; i < slots.length; i++) {
    const t = slots[i]!;
    if (tokens.isPunct(t, Punct.LBrace)) {
      level++;
      continue;
    }
    if (tokens.isPunct(t, Punct.RBrace)) {
      level--;
      continue;
    }
    if (tokens.isPunct(t, Punct.Ellipsis)) {
      // `...rest`: every other property, read where the scan does not follow.
      if (key === null || level > 1) ctx.settingsUnclear = true;
      continue;
    }
    const isName = tokens.isIdentifierName(t) || tokens.kinds[t] === Token.String;
    if (!isName || !(tokens.isPunct(slots[i - 1] ?? -1, Punct.LBrace) || tokens.isPunct(slots[i - 1] ?? -1, Punct.Comma))) continue;
    const name = tokens.kinds[t] === Token.String ? tokens.literalValue(t) : tokens.nameOf(t);
    if (name === null) continue;
    if (key === null) {
      if (level === 1) addSettingRead(ctx, name, tokens.starts[t]!);
      continue;
    }
    if (level === 1 && name === key) {
      found = true;
      const after = slots[i + 1] ?? -1;
      if (tokens.isPunct(after, Punct.Colon)) {
        const local = slots[i + 2] ?? -1;
        if (tokens.isPunct(local, Punct.LBrace)) continue; // nested: its names are read below, at level 2
        if (tokens.kinds[local] === Token.Identifier) ctx.settingsNames.add(tokens.nameOf(local));
        else ctx.settingsUnclear = true;
      } else {
        ctx.settingsNames.add(name);
      }
    } else if (level === 2 && key !== null) {
      addSettingRead(ctx, name, tokens.starts[t]!);
    }
  }
  void found;
  return true;
}

function settingsCall(ctx: ScanContext, k: number): void {
  const tokens = ctx.tokens;
  if (!tokens.isPunct(tokens.peek(k), Punct.LParen) || !tokens.isPunct(tokens.peek(k + 1), Punct.RParen)) {
    ctx.settingsUnclear = true;
    return;
  }
  if (settingsMemberAt(ctx, k + 2)) return;
  // `const { a, b } = PLATFORM.settings()`: the `=` is just before `PLATFORM` (or `window.PLATFORM`).
  const platformBack = tokens.isDot(tokens.last(2)) ? 4 : 2;
  if (tokens.isPunct(tokens.last(platformBack), Punct.Assign) && patternBefore(ctx, platformBack + 1, null)) return;
  ctx.settingsUnclear = true;
}

function readySettings(ctx: ScanContext, k: number): void {
  const tokens = ctx.tokens;
  if (tokens.isPunct(tokens.peek(k), Punct.RParen) && tokens.isDot(tokens.peek(k + 1)) && tokens.nameOf(tokens.peek(k + 2)) === 'settings') {
    if (!settingsMemberAt(ctx, k + 3)) ctx.settingsUnclear = true;
    return;
  }
  let back = tokens.isDot(tokens.last(2)) ? 4 : 2;
  if (tokens.isKeyword(tokens.last(back), Word.Await)) back++;
  if (tokens.isPunct(tokens.last(back), Punct.Assign)) {
    if (!patternBefore(ctx, back + 1, 'settings')) ctx.settingsUnclear = true;
    return;
  }
  // `.then(({ settings }) => …)`, `const r = await PLATFORM.ready`: not followed.
  ctx.settingsUnclear = true;
}

/** Second pass over the local names bound to the settings object: `settings.name` is a read, any other use makes reads
 *  unclear; a name bound more than once (another object in another scope) is not followed. */
function scanSettingsNames(ctx: ScanContext): void {
  const names = [...ctx.settingsNames];
  const words = new JsWords(names);
  const stops = new Uint8Array(words.names.length);
  for (const n of names) stops[words.id(n)] = 1;
  const bindings = new Uint8Array(words.names.length);
  const lexer = new JsLexer(ctx.scan.text, { words, skipComments: true });
  const tokens = new SignificantTokens(lexer, ctx.scan.text);
  const main = ctx.tokens;
  const before = ctx.settingsReads.length;
  let reused = false;
  ctx.tokens = tokens;
  for (;;) {
    const t = tokens.takeNextStop(stops);
    const kind = tokens.kinds[t];
    if (kind === Token.Eof) break;
    if (kind !== Token.Identifier || stops[tokens.codes[t]!] !== 1 || tokens.isDot(tokens.last(2))) continue;
    if ((tokens.flags[t]! & TokenFlag.Binding) !== 0 || isBindingAt(ctx, t)) {
      // The pattern's own binding counts once; a second binding is another object.
      if (!(tokens.isKey(t) && tokens.isPunct(tokens.peek(), Punct.Colon)) && ++bindings[tokens.codes[t]!]! > 1) {
        reused = true;
        break;
      }
      continue;
    }
    if (tokens.isKey(t)) continue;
    if (!settingsMemberAt(ctx, 0)) ctx.settingsUnclear = true;
  }
  ctx.tokens = main;
  if (reused) {
    ctx.settingsReads.length = before;
    ctx.settingsUnclear = true;
  }
}

// ===== CommonJS and UMD ======================================================

/** `module.exports`, `exports.x`, `require("x")` where the module has no such name of its own: code for another module system. */
function checkCommonJs(ctx: ScanContext, token: number): void {
  const tokens = ctx.tokens;
  const code = tokens.codes[token]!;
  const next = tokens.peek();
  let shown: string;
  if (code === W_MODULE) {
    if (!tokens.isDot(next) || tokens.nameOf(tokens.peek(1)) !== 'exports') return;
    shown = 'module.exports';
  } else if (code === W_EXPORTS) {
    if (!tokens.isDot(next) && !tokens.isPunct(next, Punct.Assign)) return;
    shown = 'exports';
  } else {
    if (!tokens.isPunct(next, Punct.LParen) || tokens.literalValue(tokens.peek(1)) === null) return;
    shown = 'require(…)';
  }
  hold(ctx, 'js/commonjs', `"${shown}" is CommonJS, which a module script does not have: this code throws or does nothing in the frame`, tokens.starts[token]!, code);
}

/** `this` at the top level of a module is undefined: UMD wrappers (`}(this, function () {`) and `this.x` there fail. */
function checkTopLevelThis(ctx: ScanContext, t: number): void {
  const tokens = ctx.tokens;
  if ((tokens.flags[t]! & TokenFlag.TopLevel) === 0) return;
  const next = tokens.peek();
  const used = tokens.isDot(next) || tokens.isPunct(next, Punct.LBracket) || tokens.isPunct(next, Punct.Comma) || tokens.isPunct(next, Punct.RParen);
  // `this.#x` belongs in a class body; at the top level it is a syntax error, not script code.
  if (!used || (tokens.isDot(next) && tokens.kinds[tokens.peek(1)] === Token.PrivateName)) return;
  // `this && this.x`: a guard that works in a module (TypeScript's helpers).
  if (tokens.isPunct(tokens.last(2), PUNCT_AND) && tokens.isKeyword(tokens.last(3), Word.This)) return;
  hold(ctx, 'js/commonjs', '"this" at the top level of a module is undefined: this is script (UMD or CommonJS) code, which fails in a module', tokens.starts[t]!, 0);
}

// ===== the bridge (D-34) =====================================================

function checkPlatform(ctx: ScanContext, name: number, first: number): void {
  const tokens = ctx.tokens;
  const offset = tokens.starts[first]!;
  const own = tokens.codes[first]!;
  if (!tokens.isDot(tokens.peek())) {
    platformAlias(ctx, name, first);
    return;
  }
  const member = tokens.peek(1);
  if (!tokens.isIdentifierName(member)) {
    ctx.platformUnclear = true;
    return;
  }
  checkPlatformMember(ctx, tokens.nameOf(member), 2, offset, own, 'PLATFORM', false);
}

/** `<bridge>.<m>`, the tokens after `m` at peek(k). `viaAlias`: the module may use the alias's name for other things in
 *  other scopes, so only members of the bridge's own areas are judged. */
function checkPlatformMember(ctx: ScanContext, m: string, k: number, offset: number, own: number, shown: string, viaAlias: boolean): void {
  const tokens = ctx.tokens;
  if (PLATFORM_OWN_MEMBERS.has(m)) {
    if (m === 'request') platformRequest(ctx, k, offset, own, shown);
    else if (m === 'settings' && ctx.markup) settingsCall(ctx, k);
    else if (m === 'ready' && ctx.markup) readySettings(ctx, k);
    return;
  }
  if (OBJECT_MEMBERS.has(m)) return;
  const area = PLATFORM_AREAS.get(m);
  if (area === undefined) {
    if (!viaAlias) hold(ctx, 'js/platform-unknown-member', `"${shown}.${m}" is not a member of the bridge: the call fails with a TypeError`, offset, own);
    return;
  }
  const method = tokens.peek(k + 1);
  if (!tokens.isDot(tokens.peek(k)) || !tokens.isIdentifierName(method)) {
    // `const cart = PLATFORM.cart`: followed no further.
    ctx.platformUnclear = true;
    return;
  }
  const name = tokens.nameOf(method);
  const key = area.get(name);
  if (key === undefined) {
    if (!OBJECT_MEMBERS.has(name)) hold(ctx, 'js/platform-unknown-member', `"${shown}.${m}.${name}" is not a member of the bridge: the call fails with a TypeError`, offset, own);
    return;
  }
  addCapabilityUse(ctx, key, `${shown}.${m}.${name}`, offset, own);
  const open = tokens.peek(k + 2);
  if (tokens.isPunct(open, Punct.LParen)) bridgeCall(ctx, `${m}.${name}`, tokens.starts[open]!, `${shown}.${m}.${name}(…)`, own);
}

function bridgeCall(ctx: ScanContext, method: string, open: number, shown: string, own: number): void {
  if (!ctx.markup || ++ctx.bridgeCalls > MAX_FINDINGS_PER_RULE) return;
  const found = checkBridgeCall(ctx.scan.text, method, open, shown);
  if (found !== null) hold(ctx, 'js/bridge-call-refused', found.message, found.offset, own);
}

/** `PLATFORM.request(` from peek(k): literal capability and action are checked against the table; anything else may use any capability. */
function platformRequest(ctx: ScanContext, k: number, offset: number, own: number, shown: string): void {
  const tokens = ctx.tokens;
  const capability = tokens.isPunct(tokens.peek(k), Punct.LParen) ? tokens.literalValue(tokens.peek(k + 1)) : null;
  if (capability === null) {
    ctx.platformUnclear = true;
    return;
  }
  const def = capabilityByKey(capability);
  if (def === undefined) {
    hold(ctx, 'js/platform-unknown-member', `${shown}.request(${quoted(capability)}, …) names no capability of protocol version 1: the call fails with INVALID_REQUEST`, offset, own);
    return;
  }
  const action = tokens.isPunct(tokens.peek(k + 2), Punct.Comma) ? tokens.literalValue(tokens.peek(k + 3)) : null;
  if (action !== null && !def.actions.includes(action)) {
    hold(ctx, 'js/platform-unknown-member', `${shown}.request(${quoted(capability)}, ${quoted(action)}, …): the capability has no such action (${def.actions.map((a) => `"${a}"`).join(', ')}): the call fails with INVALID_REQUEST${suggestAction(action, def.actions) === undefined ? '' : `; did you mean "${suggestAction(action, def.actions)}"?`}`, offset, own);
    return;
  }
  addCapabilityUse(ctx, capability, `${shown}.request(${quoted(capability)})`, offset, own);
  bridgeCall(ctx, 'request', tokens.starts[tokens.peek(k)]!, `${shown}.request(${quoted(capability)}, …)`, own);
}

/** `PLATFORM` not followed by `.`: `const p = PLATFORM` makes a plain alias (scanAliases); anything else passes it on. */
function platformAlias(ctx: ScanContext, name: number, first: number): void {
  const tokens = ctx.tokens;
  const back = first === name ? 2 : 4;
  const assign = tokens.last(back);
  const alias = tokens.last(back + 1);
  const next = tokens.peek();
  const ends = tokens.kinds[next] === Token.Eof || tokens.isPunct(next, Punct.Semicolon) || tokens.isPunct(next, Punct.Comma) || (tokens.flags[next]! & TokenFlag.Newline) !== 0;
  if (tokens.isPunct(assign, Punct.Assign) && alias >= 0 && tokens.kinds[alias] === Token.Identifier && !tokens.isDot(tokens.last(back + 2)) && ends && ctx.aliases.size < MAX_ALIASES) {
    ctx.aliases.add(tokens.nameOf(alias));
    return;
  }
  ctx.platformUnclear = true;
}

const MAX_ALIASES = 8;

/** Bridge uses through plain aliases (`p.cart.manage(…)`): a second pass, only for a module that makes one. */
function scanAliases(ctx: ScanContext): void {
  const names = [...ctx.aliases];
  const words = new JsWords(names);
  const stops = new Uint8Array(words.names.length);
  for (const n of names) stops[words.id(n)] = 1;
  const lexer = new JsLexer(ctx.scan.text, { words, skipComments: true });
  const tokens = new SignificantTokens(lexer, ctx.scan.text);
  const main = ctx.tokens;
  ctx.tokens = tokens;
  for (;;) {
    const t = tokens.takeNextStop(stops);
    const kind = tokens.kinds[t];
    if (kind === Token.Eof) break;
    if (kind !== Token.Identifier || stops[tokens.codes[t]!] !== 1 || tokens.isDot(tokens.last(2)) || tokens.isKey(t)) continue;
    if ((tokens.flags[t]! & TokenFlag.Binding) !== 0) continue;
    if (!tokens.isDot(tokens.peek())) {
      // The alias passed on (or another thing of the same name in another scope).
      if (!tokens.isPunct(tokens.last(2), Punct.Assign) || !tokens.isPunct(tokens.peek(), Punct.Semicolon)) ctx.platformUnclear = true;
      continue;
    }
    const member = tokens.peek(1);
    if (!tokens.isIdentifierName(member)) continue;
    checkPlatformMember(ctx, tokens.nameOf(member), 2, tokens.starts[t]!, 0, tokens.nameOf(t), true);
  }
  ctx.tokens = main;
}

/** Records a use of a capability: at most MAX_FINDINGS_PER_RULE per capability, so every capability used is recorded and the list stays small. */
function addCapabilityUse(ctx: ScanContext, key: string, call: string, offset: number, own: number): void {
  const count = ctx.capabilityCounts.get(key) ?? 0;
  if (count >= MAX_FINDINGS_PER_RULE) return;
  ctx.capabilityCounts.set(key, count + 1);
  const { line, column } = position(ctx, offset);
  ctx.bridgeUses.push({ key, call, line, column, own });
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
  hold(ctx, rule, message, offset, 0);
}

/** Holds a finding to the end (flush), dropped if `own` (word id, 0: none) proves the module's own; capped per rule and name. */
function hold(ctx: ScanContext, rule: string, message: string, offset: number, own: number): void {
  let counts = ctx.counts.get(rule);
  if (counts === undefined) ctx.counts.set(rule, (counts = new Uint8Array(WORDS.names.length)));
  if (counts[own]! >= MAX_FINDINGS_PER_RULE) return;
  counts[own]!++;
  ctx.held.push({ rule, message, offset, name: own });
}

/** Reports the held findings that stand, in source order, at most MAX_FINDINGS_PER_RULE per rule (one for js/commonjs: it says it all). */
function flush(ctx: ScanContext): void {
  const standing = ctx.held.filter((f) => f.name === 0 || ctx.own[f.name] !== 1);
  standing.sort((a, b) => a.offset - b.offset);
  const counts = new Map<string, number>();
  for (const f of standing) {
    const count = counts.get(f.rule) ?? 0;
    if (count >= (f.rule === 'js/commonjs' ? 1 : MAX_FINDINGS_PER_RULE)) continue;
    counts.set(f.rule, count + 1);
    ctx.scan.report(f.rule, f.message, f.offset);
  }
  for (const use of ctx.bridgeUses) {
    if (use.own === 0 || ctx.own[use.own] !== 1) ctx.capabilityUses.push({ key: use.key, call: use.call, line: use.line, column: use.column });
  }
}

function reportSyntax(ctx: ScanContext, kind: JsLexErrorKind, offset: number): void {
  if (ctx.syntaxReported) return;
  ctx.syntaxReported = true;
  report(ctx, 'js/syntax-error', `The module does not look like valid JavaScript here: ${SYNTAX_TEXT[kind]}`, offset);
}

function position(ctx: ScanContext, offset: number): { line: number; column: number } {
  ctx.lineMap ??= new LineMap(ctx.scan.text);
  return ctx.lineMap.at(offset);
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
