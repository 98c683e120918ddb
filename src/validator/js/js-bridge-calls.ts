// Bridge calls with literal arguments (`PLATFORM.cart.manage('delete', …)`): the request the runtime would send
// (src/bridge/runtime.ts) is built from the literals and module constants and put through the host's checks (D-23);
// the refusal is reported at the field's pointer. A computed value stands in as a valid one (validValue), so only
// literal text can fail, and a field missing from an object with a spread may come from the spread.
import { actionSpec, checkRequest, type FieldSpec } from '../bridge/requests.js';
import type { JsonObject, JsonValue } from '../bridge/payload.js';
import { capabilityByKey } from '../capabilities.js';
import { suggest } from '../suggest.js';
import { cookStringAt, cookTemplateAt, JsLexer, Punct, PUNCTUATORS, Ring, Token, TokenFlag, Word } from './lexer.js';

/** A value the code computes. */
const COMPUTED: unique symbol = Symbol('computed');

/** An object literal: its literal entries, whether it has a spread, and where each entry's value starts. */
interface ObjectLiteral {
  readonly kind: 'object';
  readonly entries: Map<string, Literal>;
  readonly open: boolean;
  readonly at: Map<string, number>;
}
interface ArrayLiteral {
  readonly kind: 'array';
  readonly items: Literal[];
  readonly at: number[];
}
type Literal = null | boolean | number | string | ObjectLiteral | ArrayLiteral | typeof COMPUTED;

/** Tokens read per call's arguments, and how deep literals nest before the rest counts as computed. */
const MAX_TOKENS = 4000;
const MAX_DEPTH = 64;

const PUNCT_MINUS = PUNCTUATORS.indexOf('-');

/** Reads the arguments of a call from the `(` at `open`; null when they cannot be read (the budget, an unbalanced text). */
class ArgumentReader {
  private readonly lexer: JsLexer;
  private kind = 0;
  private code = 0;
  private start = 0;
  private end = 0;
  private newline = false;
  private tokens = 0;
  failed = false;

  /**
   * `constants`: module constants resolved so far (shared by the readers of one call);
   * `declaration`: the reader reads a `const` initializer, which a `;` or a line break ends.
   */
  constructor(
    private readonly text: string,
    open: number,
    private readonly constants: Map<string, Literal>,
    private readonly declaration = false,
  ) {
    this.lexer = new JsLexer(text, { skipComments: true, start: open });
    this.advance();
  }

  /** The initializer the reader starts at, as a literal. */
  readInitializer(): Literal {
    const value = this.value(0);
    return this.failed ? COMPUTED : value;
  }

  private advance(): void {
    if (++this.tokens > MAX_TOKENS) {
      this.failed = true;
      this.kind = Token.Eof;
      return;
    }
    this.kind = this.lexer.scan();
    const slot = (this.lexer.count - 1) & Ring.Mask;
    this.code = this.lexer.ringCodes[slot]!;
    this.start = this.lexer.ringStarts[slot]!;
    this.end = this.lexer.ringEnds[slot]!;
    this.newline = (this.lexer.ringFlags[slot]! & TokenFlag.Newline) !== 0;
  }

  private isPunct(code: number): boolean {
    return this.kind === Token.Punctuator && this.code === code;
  }

  /** The argument list: values and where each starts; null when unreadable. */
  readArguments(): { values: Literal[]; at: number[] } | null {
    if (!this.isPunct(Punct.LParen)) return null;
    this.advance();
    const values: Literal[] = [];
    const at: number[] = [];
    while (!this.isPunct(Punct.RParen)) {
      if (this.kind === Token.Eof || this.failed) return null;
      if (this.isPunct(Punct.Ellipsis)) {
        // `f(...args)`: nothing after it is in a known place.
        return { values, at };
      }
      at.push(this.start);
      values.push(this.value(0));
      if (this.isPunct(Punct.Comma)) this.advance();
      else if (!this.isPunct(Punct.RParen)) return null;
    }
    return { values, at };
  }

  /** One expression up to a `,` or a closing bracket at its level. */
  private value(depth: number): Literal {
    const kind = this.kind;
    if (depth < MAX_DEPTH) {
      let literal: Literal | undefined;
      if (kind === Token.String) literal = cookStringAt(this.text, this.start, this.end) ?? COMPUTED;
      else if (kind === Token.Template) literal = cookTemplateAt(this.text, this.start, this.end) ?? COMPUTED;
      else if (kind === Token.Number) literal = numberValue(this.text.slice(this.start, this.end));
      else if (kind === Token.Keyword && (this.code === Word.True || this.code === Word.False || this.code === Word.Null)) {
        literal = this.code === Word.True ? true : this.code === Word.False ? false : null;
      } else if (this.isPunct(PUNCT_MINUS)) {
        this.advance();
        if (this.kind === Token.Number) {
          const n = numberValue(this.text.slice(this.start, this.end));
          literal = typeof n === 'number' ? -n : COMPUTED;
        } else return this.skip();
      } else if (this.isPunct(Punct.LBrace)) {
        const object = this.object(depth);
        return this.ends() ? object : this.skip();
      } else if (this.isPunct(Punct.LBracket)) {
        const array = this.array(depth);
        return this.ends() ? array : this.skip();
      } else if (kind === Token.Identifier && !this.declaration) {
        const name = this.text.slice(this.start, this.end);
        this.advance();
        return this.ends() ? moduleConstant(this.text, name, this.constants) : this.skip();
      }
      if (literal !== undefined) {
        this.advance();
        return this.ends() ? literal : this.skip();
      }
    }
    return this.skip();
  }

  private ends(): boolean {
    if (this.declaration && (this.isPunct(Punct.Semicolon) || this.newline || this.kind === Token.Eof)) return true;
    return this.isPunct(Punct.Comma) || this.isPunct(Punct.RParen) || this.isPunct(Punct.RBrace) || this.isPunct(Punct.RBracket);
  }

  /** Steps over the rest of an expression the reader does not follow: it is computed. */
  private skip(): Literal {
    let depth = 0;
    for (;;) {
      if (depth === 0 && this.ends()) return COMPUTED;
      if (this.kind === Token.Eof || this.failed) {
        this.failed = true;
        return COMPUTED;
      }
      if (this.kind === Token.Punctuator) {
        const c = this.code;
        if (c === Punct.LParen || c === Punct.LBracket || c === Punct.LBrace) depth++;
        else if (c === Punct.RParen || c === Punct.RBracket || c === Punct.RBrace) depth--;
      } else if (this.kind === Token.TemplateHead) depth++;
      else if (this.kind === Token.TemplateTail) depth--;
      this.advance();
    }
  }

  /** `{` … `}` (the reader stands on `{`); ends past the `}`. */
  private object(depth: number): Literal {
    this.advance();
    const entries = new Map<string, Literal>();
    const at = new Map<string, number>();
    let open = false;
    while (!this.isPunct(Punct.RBrace)) {
      if (this.kind === Token.Eof || this.failed) return this.skip();
      let key: string | null = null;
      if (this.isPunct(Punct.Ellipsis)) {
        open = true;
        this.advance();
        this.skip();
      } else if (this.kind === Token.Identifier || this.kind === Token.Keyword || this.kind === Token.String || this.kind === Token.Number) {
        key = this.kind === Token.String ? cookStringAt(this.text, this.start, this.end) : this.kind === Token.Number ? String(numberValue(this.text.slice(this.start, this.end))) : this.text.slice(this.start, this.end);
        const keyStart = this.start;
        this.advance();
        if (this.isPunct(Punct.Colon)) {
          this.advance();
          const valueStart = this.start;
          const value = this.value(depth + 1);
          if (key !== null) {
            entries.set(key, value);
            at.set(key, valueStart);
          } else open = true;
        } else {
          // Shorthand `{ page }`, or a method: the value is computed.
          if (key !== null) {
            entries.set(key, COMPUTED);
            at.set(key, keyStart);
          }
          if (!this.ends()) this.skip();
        }
      } else {
        // `[computed]: value`: any key.
        open = true;
        this.skip();
      }
      if (this.isPunct(Punct.Comma)) this.advance();
      else if (!this.isPunct(Punct.RBrace)) return this.skip();
    }
    this.advance();
    return { kind: 'object', entries, open, at };
  }

  /** `[` … `]` (the reader stands on `[`); ends past the `]`. */
  private array(depth: number): Literal {
    this.advance();
    const items: Literal[] = [];
    const at: number[] = [];
    while (!this.isPunct(Punct.RBracket)) {
      if (this.kind === Token.Eof || this.failed) return this.skip();
      at.push(this.start);
      if (this.isPunct(Punct.Ellipsis)) {
        this.skip();
        return this.finishComputedArray();
      }
      items.push(this.isPunct(Punct.Comma) ? null : this.value(depth + 1));
      if (this.isPunct(Punct.Comma)) this.advance();
      else if (!this.isPunct(Punct.RBracket)) return this.skip();
    }
    this.advance();
    return { kind: 'array', items, at };
  }

  private finishComputedArray(): Literal {
    while (!this.isPunct(Punct.RBracket)) {
      if (this.kind === Token.Eof || this.failed) return COMPUTED;
      this.advance();
      this.skip();
    }
    this.advance();
    return COMPUTED;
  }
}

/** Module constants looked up per call, and the names a constant may have. */
const MAX_CONSTANTS = 16;
const CONSTANT_NAME = /^[A-Z][A-Z0-9_]*$/;

/** A module constant (`const PAGE_SIZE = 10;`): a capitals name (unlikely to be shadowed) declared once, with `const`
 *  only, and initialized with a literal; anything else is computed. */
function moduleConstant(text: string, name: string, constants: Map<string, Literal>): Literal {
  const known = constants.get(name);
  if (known !== undefined) return known;
  if (!CONSTANT_NAME.test(name) || constants.size >= MAX_CONSTANTS) return COMPUTED;
  constants.set(name, COMPUTED); // a constant defined by itself stays computed
  const declared = new RegExp(`\\b(const|let|var|function|class)\\s+${name}\\b`, 'g');
  let at = -1;
  let count = 0;
  for (let m = declared.exec(text); m !== null; m = declared.exec(text)) {
    if (++count > 1 || m[1] !== 'const') return COMPUTED;
    at = m.index + m[0].length;
  }
  if (at < 0) return COMPUTED;
  const assign = /^\s*=/.exec(text.slice(at, at + 64));
  if (assign === null) return COMPUTED;
  const value = new ArgumentReader(text, at + assign[0].length, constants, true).readInitializer();
  constants.set(name, value);
  return value;
}

function numberValue(text: string): Literal {
  const clean = text.replace(/_/g, '');
  if (clean.endsWith('n')) return COMPUTED; // BigInt: no JSON value
  const n = /^0[0-7]+$/.test(clean) ? NaN : Number(clean);
  return Number.isFinite(n) ? n : COMPUTED;
}

/** How a named method builds its request (src/bridge/runtime.ts): the action, and the payload from the arguments. */
interface MethodShape {
  readonly capability: string;
  /** The fixed action, or -1: the first argument is the action. */
  readonly action: string | -1;
  /** Payload: the argument at this index, or an object of these fields from the arguments in order. */
  readonly payload: number | readonly string[];
}

const METHODS: ReadonlyMap<string, MethodShape> = new Map<string, MethodShape>([
  ['analytics.track', { capability: 'analytics.events.write', action: 'track', payload: ['event', 'properties'] }],
  ['booking.availability', { capability: 'booking.availability.read', action: 'list', payload: 0 }],
  ['booking.start', { capability: 'booking.create', action: 'start', payload: 0 }],
  ['cart.manage', { capability: 'cart.manage', action: -1, payload: 1 }],
  ['catalog.products', { capability: 'catalog.products.read', action: 'list', payload: 0 }],
  ['communications.text', { capability: 'communications.sms.open', action: 'open', payload: ['message'] }],
  ['forms.submit', { capability: 'forms.submit', action: 'submit', payload: ['form', 'fields'] }],
  ['theme.read', { capability: 'site.theme.read', action: 'read', payload: [] }],
  ['waivers.start', { capability: 'waivers.start', action: 'start', payload: ['waiver'] }],
]);

/** Actions by what a word means: a verb that is not an action suggests the action that does it. */
const ACTION_MEANINGS: Readonly<Record<string, string>> = {
  delete: 'remove',
  del: 'remove',
  clear: 'remove',
  drop: 'remove',
  set: 'update',
  change: 'update',
  edit: 'update',
  put: 'add',
  insert: 'add',
  create: 'add',
  push: 'add',
  get: 'list',
  read: 'list',
  fetch: 'list',
  search: 'list',
};

/** The action meant by an unknown one: by meaning (`delete`: `remove`), then by spelling. */
export function suggestAction(action: string, actions: readonly string[]): string | undefined {
  const meant = ACTION_MEANINGS[action.toLowerCase()];
  return meant !== undefined && actions.includes(meant) ? meant : suggest(action, actions);
}

export interface BridgeCallFinding {
  readonly message: string;
  readonly offset: number;
}

/** The call whose `(` is at `open` (`method`: `area.method` or `request`): what the host would refuse, or null. */
export function checkBridgeCall(text: string, method: string, open: number, shown: string): BridgeCallFinding | null {
  const read = new ArgumentReader(text, open, new Map()).readArguments();
  if (read === null) return null;
  const { values, at } = read;
  let capability: string;
  let action: Literal;
  let actionAt: number;
  let payload: Literal;
  /** Offsets of the payload's top-level fields (path -> offset), and of the payload itself. */
  let payloadAt: number;
  let fieldAt: Map<string, number> | undefined;
  if (method === 'request') {
    const key = values[0];
    if (typeof key !== 'string' || capabilityByKey(key) === undefined) return null;
    capability = key;
    action = values.length > 1 ? values[1]! : COMPUTED;
    actionAt = at[1] ?? open;
    payload = values.length > 2 ? values[2]! : undefinedPayload();
    payloadAt = at[2] ?? open;
  } else {
    const shape = METHODS.get(method);
    if (shape === undefined) return null;
    capability = shape.capability;
    action = shape.action === -1 ? (values.length > 0 ? values[0]! : COMPUTED) : shape.action;
    actionAt = at[0] ?? open;
    payloadAt = open;
    if (typeof shape.payload === 'number') {
      payload = values.length > shape.payload ? values[shape.payload]! : undefinedPayload();
      payloadAt = at[shape.payload] ?? open;
    } else {
      const entries = new Map<string, Literal>();
      fieldAt = new Map();
      shape.payload.forEach((name, i) => {
        // An argument left out is `undefined`, which JSON leaves out.
        if (i < values.length) {
          entries.set(name, values[i]!);
          fieldAt!.set(name, at[i]!);
        }
      });
      payload = { kind: 'object', entries, open: false, at: fieldAt };
    }
  }
  if (action === COMPUTED) return null;
  const def = capabilityByKey(capability)!;
  if (typeof action !== 'string' || !def.actions.includes(action)) {
    const written = typeof action === 'string' ? JSON.stringify(action) : 'a non-string value';
    const near = typeof action === 'string' ? suggestAction(action, def.actions) : undefined;
    return {
      message: `${shown}: the action ${written} is not one of ${capability}'s (${def.actions.map((a) => `"${a}"`).join(', ')}): the host answers INVALID_REQUEST${near === undefined ? '' : `; did you mean "${near}"?`}`,
      offset: actionAt,
    };
  }
  const spec = actionSpec(capability, action)!;
  if (payload === COMPUTED) return null;
  const request = standIn(payload, { name: '', kind: 'object', required: true, fields: spec.fields }, {});
  const answer = checkRequest({ capability, action, payload: request.value }, [capability], [capability]);
  if (answer.ok) return null;
  if (answer.code !== 'INVALID_REQUEST' && answer.code !== 'PAYLOAD_TOO_LARGE' && answer.code !== 'PAYLOAD_TOO_COMPLEX') return null;
  const path = /"([^"]*)"/.exec(answer.message.slice(answer.message.indexOf(': ') + 1))?.[1];
  // A field missing from an object with a spread may come from the spread.
  if (answer.code === 'INVALID_REQUEST' && path !== undefined && answer.message.includes(' is required') && request.open.has(parentOf(path))) return null;
  const pointer = path === undefined || answer.code !== 'INVALID_REQUEST' ? '' : '/' + path.split('.').join('/');
  const offset = pointer === '' ? payloadAt : (request.at.get(path!) ?? request.at.get(parentOf(path!)) ?? payloadAt);
  return {
    message: `${shown}: the host answers ${answer.code}: ${answer.message}${pointer === '' ? '' : ` (payload pointer ${pointer})`}`,
    offset,
  };
}

/** `undefined` as the payload: the runtime sends `{}`. */
function undefinedPayload(): Literal {
  return { kind: 'object', entries: new Map(), open: false, at: new Map() };
}

function parentOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
}

interface StandIn {
  readonly value: JsonValue;
  /** Field paths (dotted, as the host's messages write them) -> offsets in the module. */
  readonly at: Map<string, number>;
  /** Paths of objects with a spread ('' for the payload). */
  readonly open: Set<string>;
}

/** A literal's JSON value, computed values replaced by a valid value of their field (`spec`, when the schema has one). */
function standIn(literal: Literal, spec: FieldSpec | undefined, siblings: JsonObject, path = '', out: StandIn = { value: null, at: new Map(), open: new Set() }): StandIn {
  const value = toJson(literal, spec, siblings, path, out);
  return { value, at: out.at, open: out.open };
}

function toJson(literal: Literal, spec: FieldSpec | undefined, siblings: JsonObject, path: string, out: StandIn): JsonValue {
  if (literal === COMPUTED) return validValue(spec, siblings);
  if (literal === null || typeof literal !== 'object') return literal;
  if (literal.kind === 'array') return literal.items.map((item) => toJson(item, undefined, {}, path, out));
  if (literal.open) out.open.add(path);
  const fields = spec === undefined ? undefined : fieldsOf(spec, siblings);
  const object: JsonObject = {};
  // Literal entries first, so a variant's selector (`form`) is known before `fields`.
  for (const [key, value] of literal.entries) if (value !== COMPUTED && !(typeof value === 'object' && value !== null)) object[key] = value;
  for (const [key, value] of literal.entries) {
    const child = path === '' ? key : `${path}.${key}`;
    const at = literal.at.get(key);
    if (at !== undefined) out.at.set(child, at);
    object[key] = toJson(value, fields?.find((f) => f.name === key), object, child, out);
  }
  return object;
}

/** The fields of an object field, a variant chosen by its sibling when it has variants. */
function fieldsOf(spec: FieldSpec, siblings: JsonObject): readonly FieldSpec[] | undefined {
  if (spec.variantOf === undefined) return spec.fields;
  const selector = siblings[spec.variantOf];
  return typeof selector === 'string' && Object.prototype.hasOwnProperty.call(spec.variants!, selector) ? spec.variants![selector] : undefined;
}

function validValue(spec: FieldSpec | undefined, siblings: JsonObject): JsonValue {
  if (spec === undefined) return null;
  switch (spec.kind) {
    case 'string':
      return 'x'.repeat(spec.min ?? 0);
    case 'integer':
      return spec.min ?? 1;
    case 'number':
      return 0;
    case 'boolean':
      return true;
    case 'date':
      return '2000-01-01';
    case 'date-time':
      return '2000-01-01T00:00:00Z';
    case 'choice':
      return spec.choices![0]!;
    case 'object': {
      const object: JsonObject = {};
      for (const f of fieldsOf(spec, siblings) ?? []) if (f.required) object[f.name] = validValue(f, object);
      return object;
    }
  }
}
