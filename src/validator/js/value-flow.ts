// Visible flows of store settings and form values into risky sinks, and strings held in a
// constant that reach setTimeout/setInterval. Local and lexical: a name carries what its
// declaration (or last assignment) read, within its block; parameters and redeclarations
// shadow it; a function or arrow in an expression stops the flow. Misses are accepted,
// false alarms are not: only a value read in the same expression or through a direct
// variable is reported.
import { Token } from './lexer.js';

/** What a name holds: a store setting, a form value, a form element, a constant string, or nothing of interest. */
type Held = 'setting' | 'form' | 'element' | 'string' | 'none';

/** The significant tokens of a module (suspicious-code.ts's Source): kinds are lexer.ts's Token codes. */
export interface FlowSource {
  readonly length: number;
  kind(i: number): number;
  /** An identifier's or keyword's name, a punctuator's text, else ''. */
  value(i: number): string;
  start(i: number): number;
  isKey(i: number): boolean;
  newlineBefore(i: number): boolean;
  /** nameKeyOf(the name), read from the source without slicing it; -1 when written with escapes. */
  nameKey(i: number): number;
  is(i: number, value: string): boolean;
}

/** The end of a constant string expression at `i` and whether it was assembled, or null (suspicious-code.ts's fold). */
export type FoldEnd = (i: number) => { end: number; assembled: boolean } | null;

/** `api` names the timer of a js/eval-blocked report, a call site of code from strings. */
export type FlowReport = (rule: 'js/input-flows-to-sink' | 'js/eval-blocked', message: string, offset: number, api?: string) => void;

const GLOBAL_OBJECTS: ReadonlySet<string> = new Set(['globalThis', 'window', 'self']);
/** Calls whose first argument is where a connection goes, or code. */
const FIRST_ARGUMENT_SINKS: ReadonlySet<string> = new Set(['fetch', 'WebSocket', 'EventSource', 'Worker', 'SharedWorker', 'importScripts', 'eval', 'setTimeout', 'setInterval']);
const ELEMENT_LOOKUPS: ReadonlySet<string> = new Set(['querySelector', 'getElementById', 'elements', 'namedItem']);
const OPENERS: ReadonlySet<string> = new Set(['(', '[', '{']);
const CLOSERS: ReadonlySet<string> = new Set([')', ']', '}']);

/** Tokens one expression is followed through, and blocks nested at most. */
const MAX_SPAN = 4096;
const MAX_SCOPES = 256;
/** Words whose parenthesis holds a condition, not parameters. */
const CONTROL_WORDS: ReadonlySet<string> = new Set(['if', 'for', 'while', 'switch', 'with']);
const OPERATOR_WORDS: ReadonlySet<string> = new Set(['new', 'typeof', 'void', 'delete', 'await', 'yield', 'in', 'of', 'instanceof', 'return']);

/** Whether token `i` can end an expression: after it, a new line with a name starts a statement. */
function endsValue(src: FlowSource, i: number): boolean {
  const kind = src.kind(i);
  if (kind === Token.Punctuator) return src.is(i, ')') || src.is(i, ']') || src.is(i, '}') || src.is(i, '++') || src.is(i, '--');
  return !(kind === Token.Keyword && OPERATOR_WORDS.has(src.value(i))) && kind !== Token.TemplateHead && kind !== Token.TemplateMiddle;
}

/** A punctuator's text, else ''. */
function punctuator(src: FlowSource, i: number): string {
  return src.kind(i) === Token.Punctuator ? src.value(i) : '';
}

interface Scope {
  /** Null until the scope declares a name: most blocks declare none the walk needs. */
  names: Map<string, Held> | null;
  /** An arrow's expression body: ends at a `,`, `;` or closer at this bracket depth. */
  readonly exprDepth: number | null;
}

/** A name's key as FlowSource.nameKey gives it: length * 128 + first character (127 when not ASCII). */
export function nameKeyOf(name: string): number {
  return name.length * 128 + Math.min(name.charCodeAt(0), 127);
}

/** The names the walk acts on by name; any other name matters only before `=` or `=>`. */
const ACTED_ON = ['const', 'let', 'var', 'function', 'class', 'Function', 'import', 'open', 'location', 'document', 'sendBeacon', ...FIRST_ARGUMENT_SINKS, ...GLOBAL_OBJECTS];
const ACTED_ON_KEYS: ReadonlySet<number> = new Set(ACTED_ON.map(nameKeyOf));

/** The closers table of the last module, kept while small (see suspicious-code.ts's spareTable). */
let spareClosers: Int32Array | null = null;
const SPARE_MAX_TOKENS = 1 << 19;
const RANK: Readonly<Record<Held, number>> = { none: 0, string: 0, element: 1, form: 2, setting: 3 };
const CONTROL_KEYS: ReadonlySet<number> = new Set([...CONTROL_WORDS].map(nameKeyOf));
/** Names classify reads by name; another name counts only if the module gave it a setting, form value or element. */
const CLASSIFY_KEYS: ReadonlySet<number> = new Set(['PLATFORM', 'FormData', 'value', 'valueAsNumber', 'function', ...ELEMENT_LOOKUPS].map(nameKeyOf));

export function checkValueFlows(src: FlowSource, foldEnd: FoldEnd, report: FlowReport): void {
  const count = src.length;
  // The closer of each opener, found once: every later walk jumps over bracket groups.
  const closerOf = spareClosers !== null && spareClosers.length >= count ? spareClosers : new Int32Array(Math.max(count, 4096));
  spareClosers = null;
  try {
    walkFlows(src, foldEnd, report, count, closerOf);
  } finally {
    if (closerOf.length <= SPARE_MAX_TOKENS) spareClosers = closerOf;
  }
}

function walkFlows(src: FlowSource, foldEnd: FoldEnd, report: FlowReport, count: number, closerOf: Int32Array): void {
  closerOf.fill(count, 0, count);
  const open: number[] = [];
  for (let k = 0; k < count; k++) {
    const v = punctuator(src, k);
    if (OPENERS.has(v)) open.push(k);
    else if (CLOSERS.has(v) && open.length > 0) closerOf[open.pop()!] = k;
  }
  const scopes: Scope[] = [{ names: null, exprDepth: null }];
  const namesOf = (names: readonly string[]): Map<string, Held> | null => (names.length === 0 ? null : new Map(names.map((n) => [n, 'none'])));
  // Steps of the expression walks in all: past it the module is not followed further.
  let budget = 16 * count + 65536;
  let depth = 0;
  /** Names of a parameter list just passed, shadowed in the body that follows. */
  let pending: string[] = [];

  const lookup = (name: string): Held | undefined => {
    for (let s = scopes.length - 1; s >= 0; s--) {
      const held = scopes[s]!.names?.get(name);
      if (held !== undefined) return held;
    }
    return undefined;
  };
  const afterDot = (i: number) => src.is(i - 1, '.') || src.is(i - 1, '?.');
  const isName = (i: number): boolean => {
    const kind = src.kind(i);
    return kind === Token.Identifier || kind === Token.Keyword;
  };
  /** Keys (CLASSIFY_KEYS' form) of every name the module ever gave a setting, form value or element. */
  const heldKeys = new Set<number>();
  const noteHeld = (name: string, held: Held) => {
    if (held === 'setting' || held === 'form' || held === 'element') heldKeys.add(nameKeyOf(name));
  };
  const isControlWord = (i: number): boolean => {
    const key = src.nameKey(i);
    return isName(i) && (key < 0 || CONTROL_KEYS.has(key)) && CONTROL_WORDS.has(word(i)!);
  };
  // The last few names read, by index: the walks read a name several times.
  const cachedAt = new Int32Array(8).fill(-1);
  const cached: (string | null)[] = new Array<string | null>(8).fill(null);
  const word = (i: number): string | null => {
    const slot = i & 7;
    if (cachedAt[slot] === i) return cached[slot]!;
    const kind = src.kind(i);
    const name = kind === Token.Identifier || kind === Token.Keyword ? src.value(i) : null;
    cachedAt[slot] = i;
    cached[slot] = name;
    return name;
  };
  /** A global name (not a member, unless of the global object) the module does not declare itself. */
  const globalName = (i: number): string | null => {
    const name = word(i);
    if (name === null || src.isKey(i)) return null;
    if (afterDot(i) && !GLOBAL_OBJECTS.has(word(i - 2) ?? '')) return null;
    return lookup(name) === undefined ? name : null;
  };
  /** The end of the expression starting at `i`: a `,` `;` or closer at its own depth, or a new line starting a statement. */
  const expressionEnd = (i: number): number => {
    for (let k = i, steps = 0; k < count && steps < MAX_SPAN; k++, steps++, budget--) {
      const v = punctuator(src, k);
      if (v === ',' || v === ';' || CLOSERS.has(v)) return k;
      if (k > i && src.newlineBefore(k) && word(k) !== null && endsValue(src, k - 1)) return k;
      if (OPENERS.has(v)) k = closerOf[k]!;
    }
    return Math.min(count, i + MAX_SPAN);
  };
  /** The index after the bracket that closes the one at `open`. */
  const matching = (open: number): number => Math.min(count, closerOf[open]! + 1);
  /** What the tokens [s, e) read: a setting wins over a form value, which wins over an element. */
  const classify = (s: number, end: number): Held => {
    const e = Math.min(end, s + MAX_SPAN);
    let held: Held = 'none';
    const raise = (h: Held) => {
      if (RANK[h] > RANK[held]) held = h;
    };
    for (let k = s; k < e; k++, budget--) {
      // A key that picks a member (`TABLE[setting]`) chooses among the code's own values.
      if (src.is(k, '[') && k > s && (isName(k - 1) || src.is(k - 1, ')') || src.is(k - 1, ']'))) {
        k = matching(k) - 1;
        continue;
      }
      if (src.is(k, '=>')) return 'none';
      if (!isName(k)) continue;
      const key = src.nameKey(k);
      if (key >= 0 && !CLASSIFY_KEYS.has(key) && !heldKeys.has(key)) continue;
      const name = word(k)!;
      if (name === 'function') return 'none';
      if (name === 'PLATFORM' && (!afterDot(k) || GLOBAL_OBJECTS.has(word(k - 2) ?? '')) && src.is(k + 1, '.') && (src.is(k + 2, 'settings') || src.is(k + 2, 'ready'))) raise('setting');
      else if (name === 'FormData' && src.is(k - 1, 'new')) raise('form');
      else if ((name === 'value' || name === 'valueAsNumber') && afterDot(k)) {
        const owner = word(k - 2);
        if (owner === 'target' || owner === 'currentTarget' || (owner !== null && lookup(owner) === 'element' && !afterDot(k - 2))) raise('form');
        for (let j = Math.max(s, k - 16); j < k; j++) if (ELEMENT_LOOKUPS.has(word(j) ?? '') && afterDot(j)) raise('form');
      } else if (ELEMENT_LOOKUPS.has(name) && afterDot(k)) raise('element');
      else if (!afterDot(k) && !src.isKey(k)) {
        const h = lookup(name);
        if (h === 'setting' || h === 'form') raise(h);
      }
    }
    return held;
  };
  /** Whether [s, e) is strings only: constant pieces and names holding a constant string, joined by `+`. */
  const stringExpr = (s: number, e: number): boolean => {
    for (let k = s; ; k++) {
      const folded = foldEnd(k);
      if (folded !== null) k = folded.end;
      else if (word(k) !== null && !afterDot(k) && lookup(word(k)!) === 'string') k++;
      else return false;
      if (k === e) return true;
      if (!src.is(k, '+')) return false;
    }
  };
  const sourceWords: Record<string, string> = { setting: 'A store setting', form: 'A form value' };
  const deciders: Record<string, string> = { setting: "the store's settings decide", form: 'what the visitor types decides' };
  /** Reports a sink whose argument [s, e) reads a setting or a form value. */
  const sink = (what: string, at: number, s: number, e: number) => {
    const held = classify(s, e);
    if (held === 'setting' || held === 'form') {
      report('js/input-flows-to-sink', `${sourceWords[held]} flows into ${what}: ${deciders[held]} ${what.startsWith('the global') ? 'which global is read' : 'what it runs or reaches'}`, src.start(at));
    }
  };
  /** Names of a declaration target at `i` (a name, or the names of an object or array pattern) and the index after it. */
  const targets = (i: number): { names: string[]; end: number } => {
    if (src.is(i, '{') || src.is(i, '[')) {
      const end = matching(i);
      const names: string[] = [];
      for (let k = i + 1; k < end - 1; k++) if (word(k) !== null && !afterDot(k) && !src.is(k + 1, ':')) names.push(word(k)!);
      return { names, end };
    }
    const name = word(i);
    return name === null ? { names: [], end: i } : { names: [name], end: i + 1 };
  };
  const declare = (names: readonly string[], held: Held, scope = scopes[scopes.length - 1]!) => {
    if (names.length > 0) scope.names ??= new Map();
    for (const n of names) {
      scope.names!.set(n, held);
      noteHeld(n, held);
    }
  };

  for (let i = 0; i < count && budget > 0; i++) {
    const v = src.kind(i) === Token.Punctuator ? src.value(i) : null;
    // Arrow expression bodies end at their own depth.
    while (scopes.length > 1 && scopes[scopes.length - 1]!.exprDepth !== null && (depth < scopes[scopes.length - 1]!.exprDepth! || (depth === scopes[scopes.length - 1]!.exprDepth && (v === ',' || v === ';' || (v !== null && CLOSERS.has(v)))))) scopes.pop();
    if (v === '{') {
      // Past this nesting the names are not followed (a miss, never a false alarm).
      if (scopes.length > MAX_SCOPES) return;
      depth++;
      scopes.push({ names: namesOf(pending), exprDepth: null });
      if (pending.length > 0) pending = [];
      continue;
    }
    if (v === '}') {
      depth--;
      if (scopes.length > 1) scopes.pop();
      continue;
    }
    if (v === '(' || v === '[') depth++;
    if (v === ')' || v === ']') depth--;
    // A parameter list: `(a, b) {`, `(a) =>`, `a =>`.
    if (v === '(' && !isControlWord(i - 1)) {
      const end = matching(i);
      if (src.is(end, '{') || src.is(end, '=>')) {
        for (let k = i + 1; k < end - 1; k++) if (word(k) !== null && !afterDot(k) && !src.is(k - 1, '=')) pending.push(word(k)!);
      }
    }
    if (src.kind(i) === Token.Identifier && src.is(i + 1, '=>') && !afterDot(i)) pending.push(src.value(i));
    if (v === '=>' && !src.is(i + 1, '{')) {
      if (scopes.length > MAX_SCOPES) return;
      scopes.push({ names: namesOf(pending), exprDepth: depth });
      if (pending.length > 0) pending = [];
      continue;
    }
    const kind = src.kind(i);
    if (kind !== Token.Identifier && kind !== Token.Keyword) continue;
    const key = src.nameKey(i);
    if (key >= 0 && !ACTED_ON_KEYS.has(key) && !src.is(i + 1, '=')) continue;
    const name = word(i);
    if (name === null) continue;
    // Declarations: what the initializer reads, or a constant string.
    if ((name === 'const' || name === 'let' || name === 'var') && !afterDot(i)) {
      let k = i + 1;
      let first = -1;
      for (;;) {
        const target = targets(k);
        if (target.names.length === 0) break;
        k = target.end;
        if (first < 0) first = k;
        let held: Held = 'none';
        if (src.is(k, '=')) {
          const end = expressionEnd(k + 1);
          held = name === 'const' && target.names.length === 1 && !src.is(target.end - 1, '}') && stringExpr(k + 1, end) ? 'string' : classify(k + 1, end);
          k = end;
        }
        declare(target.names, held);
        if (!src.is(k, ',')) break;
        k++;
      }
      // The initializers are scanned as any code (a later declarator reads as an assignment).
      if (first > 0) i = first - 1;
      continue;
    }
    if ((name === 'function' || name === 'class') && word(i + 1) !== null) {
      declare([word(i + 1)!], 'none');
      continue;
    }
    // Assignment to a name: it now holds what the right side reads.
    if (src.kind(i) === Token.Identifier && !afterDot(i) && src.is(i + 1, '=') && lookup(name) !== undefined) {
      const held = classify(i + 2, expressionEnd(i + 2));
      for (let s = scopes.length - 1; s >= 0; s--) {
        if (scopes[s]!.names?.has(name) === true) {
          scopes[s]!.names!.set(name, held);
          noteHeld(name, held);
          break;
        }
      }
      continue;
    }
    const global = globalName(i);
    if (global === null) {
      if (name === 'sendBeacon' && src.is(i + 1, '(') && word(i - 2) === 'navigator') sink('navigator.sendBeacon', i, i + 2, expressionEnd(i + 2));
      continue;
    }
    if (FIRST_ARGUMENT_SINKS.has(global) && src.is(i + 1, '(')) {
      const end = expressionEnd(i + 2);
      sink(`${global}(...)`, i, i + 2, end);
      // A string assembled from pieces or held in a constant, run as code by a timer.
      const argument = src.kind(i + 2);
      if ((global === 'setTimeout' || global === 'setInterval') && argument !== Token.String && argument !== Token.Template && argument !== Token.TemplateHead) {
        if (stringExpr(i + 2, end)) {
          report('js/eval-blocked', `"${global}" with a string built from pieces or constants compiles code, which the runtime policy blocks (no 'unsafe-eval'): pass a function`, src.start(i), global);
        }
      }
    } else if (global === 'Function' && src.is(i + 1, '(')) sink('Function(...)', i, i + 2, matching(i + 1) - 1);
    else if (global === 'import' && src.is(i + 1, '(')) sink('import(...)', i, i + 2, expressionEnd(i + 2));
    else if (global === 'open' && afterDot(i) && src.is(i + 1, '(')) sink(`${word(i - 2)}.open(...)`, i, i + 2, expressionEnd(i + 2));
    else if (GLOBAL_OBJECTS.has(global) && src.is(i + 1, '[')) sink(`the global object's [...]`, i, i + 2, matching(i + 1) - 1);
    else if (global === 'location' || (global === 'document' && src.is(i + 1, '.') && src.is(i + 2, 'location'))) {
      const k = global === 'document' ? i + 2 : i;
      if (src.is(k + 1, '=')) sink('location', i, k + 2, expressionEnd(k + 2));
      else if (src.is(k + 1, '.') && src.is(k + 2, 'href') && src.is(k + 3, '=')) sink('location.href', i, k + 4, expressionEnd(k + 4));
      else if (src.is(k + 1, '.') && (src.is(k + 2, 'assign') || src.is(k + 2, 'replace')) && src.is(k + 3, '(')) sink(`location.${word(k + 2)}(...)`, i, k + 4, expressionEnd(k + 4));
    }
  }
}
