// D-23: what may cross the bridge. Frame and host both run copyPayload, which validates while building the fresh
// deep copy that is sent (structured clone would keep `__proto__` keys, shared references and -0).
// Depth, nodes, entries and size are defined in BRIDGE_PROTOCOL_DOC. The first failure in D-23's order decides the
// code whatever the key order (size; depth, nodes, entries, cycle; types), so the walk goes on after a lower-ranked
// failure measuring bytes only: each value adds a byte, so it ends at the size limit. The walk is iterative and reads
// through Reflect in try/catch: a hostile Proxy, getter or chain never throws or exhausts the stack.
import { MESSAGE_MAX_BYTES, PAYLOAD_MAX_COLLECTION_ENTRIES, PAYLOAD_MAX_DEPTH, PAYLOAD_MAX_NODES, PAYLOAD_MAX_OBJECT_ENTRIES } from '../limits.js';
import { groupDigits, utf8ByteLength } from '../text.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export type PayloadFailureCode = 'INVALID_PAYLOAD' | 'PAYLOAD_TOO_COMPLEX' | 'PAYLOAD_TOO_LARGE';

export type CopyResult =
  | { readonly ok: true; readonly value: JsonValue; /** UTF-8 bytes of the message: envelope + JSON of `value`. */ readonly bytes: number }
  | { readonly ok: false; readonly code: PayloadFailureCode; readonly message: string };

/** Keys that never cross (D-23): they name or reach prototypes on the receiving side. */
export const FORBIDDEN_KEYS: readonly string[] = Object.freeze(['__proto__', 'constructor', 'prototype']);

/** The 4 bytes of `null`, the stand-in size of a value that cannot cross. */
const NULL_BYTES = 4;

/** UTF-8 bytes of `JSON.stringify(text)`: quotes, escapes, and lone surrogates as `\uXXXX` (ES2019 well-formed stringify). */
export function jsonStringBytes(text: string): number {
  let bytes = 2;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) bytes += 2; // \" and \\
    else if (c < 0x20) bytes += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 6;
    } else if (c >= 0xdc00 && c <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

/** Message size (D-23): UTF-8 byte length of the JSON text of the whole message. */
export function messageSize(message: JsonValue): number {
  return utf8ByteLength(JSON.stringify(message));
}

interface Container {
  readonly source: object;
  readonly isArray: boolean;
  readonly depth: number;
  readonly keys: readonly string[] | null;
  readonly length: number;
  index: number;
  entries: number;
  /** The copy being filled, or null once copying has stopped. */
  readonly copy: JsonValue[] | JsonObject | null;
}

/** Failure ranks in D-23 order; higher wins. */
const RANK_NONE = 0;
const RANK_TYPES = 1;
const RANK_COMPLEX = 2;

/** Both sides walk every call, so visit() and readOwn() return a code and leave what they found in `leaf`, `pushed`, `read`. */
interface Walk {
  bytes: number;
  nodes: number;
  rank: number;
  message: string;
  readonly stack: Container[];
  /** The sources on `stack` once deeper than ANCESTORS_SCANNED; null before (a shallow stack is scanned). */
  ancestors: Set<object> | null;
  leaf: JsonValue;
  pushed: Container | null;
  read: unknown;
  /** From a structured clone: objects hold own enumerable string-keyed data properties only, read directly. */
  readonly cloned: boolean;
}

/** How deep the stack gets before the cycle check keeps a set of its sources instead of scanning it. */
const ANCESTORS_SCANNED = 16;

/** visit() results: NOTHING cannot be copied (already counted), LEAF is in walk.leaf, CONTAINER in walk.pushed. */
const VISITED_NOTHING = 0;
const VISITED_LEAF = 1;
const VISITED_CONTAINER = 2;

/** readOwn() results: VALUE (in walk.read); ABSENT: a hole or vanished key; HIDDEN: non-enumerable; THREW. */
const READ_VALUE = 0;
const READ_ABSENT = 1;
const READ_HIDDEN = 2;
const READ_THREW = 3;

/** Keeps the highest-ranked failure; hot paths test the rank first so messages are built only when they can matter. */
function fail(walk: Walk, rank: number, message: string): void {
  if (rank > walk.rank) {
    walk.rank = rank;
    walk.message = message;
  }
}

const TOO_MANY_NODES = `The payload has more than ${groupDigits(PAYLOAD_MAX_NODES)} values`;
const TOO_DEEP = `The payload is nested deeper than ${PAYLOAD_MAX_DEPTH} levels`;
const TOO_MANY_ARRAY_ENTRIES = `An array has more than ${groupDigits(PAYLOAD_MAX_COLLECTION_ENTRIES)} entries`;
const TOO_MANY_OBJECT_ENTRIES = `An object has more than ${groupDigits(PAYLOAD_MAX_OBJECT_ENTRIES)} properties`;
const TOO_LARGE = `The message is larger than ${groupDigits(MESSAGE_MAX_BYTES)} bytes`;

function tooLarge(): CopyResult {
  return { ok: false, code: 'PAYLOAD_TOO_LARGE', message: TOO_LARGE };
}

/** FORBIDDEN_KEYS.includes(key), without the call: every object key of every payload is tested. */
function isForbiddenKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}

/** Longest key quoted back in a message (presentation only, not a contract number). */
const QUOTE_MAX_CHARS = 60;

function quoteKey(key: string): string {
  return JSON.stringify(key.length > QUOTE_MAX_CHARS ? `${key.slice(0, QUOTE_MAX_CHARS)}…` : key);
}

function describeType(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return 'an object that is not a plain object or array';
  return `a ${typeof value}`;
}

/** The prototype, or a marker when reading it throws (hostile Proxy). */
const THREW = Symbol('threw');

function protoOf(value: object): object | null | typeof THREW {
  try {
    return Reflect.getPrototypeOf(value);
  } catch {
    return THREW;
  }
}

function isArrayValue(value: object): boolean | typeof THREW {
  try {
    return Array.isArray(value);
  } catch {
    return THREW; // a revoked Proxy
  }
}

/** Counts one value at `depth`, checks its type and adds its bytes; returns a VISITED_* code. */
function visit(walk: Walk, value: unknown, depth: number, copying: boolean): number {
  walk.nodes++;
  if (walk.rank < RANK_COMPLEX) {
    if (depth > PAYLOAD_MAX_DEPTH) fail(walk, RANK_COMPLEX, TOO_DEEP);
    else if (walk.nodes > PAYLOAD_MAX_NODES) fail(walk, RANK_COMPLEX, TOO_MANY_NODES);
  }
  switch (typeof value) {
    case 'string':
      // Each code unit takes at least a byte: a string over the limit needs no scan, its length already fails.
      walk.bytes += value.length > MESSAGE_MAX_BYTES ? value.length + 2 : jsonStringBytes(value);
      walk.leaf = value;
      return VISITED_LEAF;
    case 'boolean':
      walk.bytes += value ? 4 : 5;
      walk.leaf = value;
      return VISITED_LEAF;
    case 'number': {
      if (!Number.isFinite(value)) break;
      // -0 crosses as 0 (D-23); JSON writes both as "0".
      const n = value === 0 ? 0 : value;
      walk.bytes += String(n).length;
      walk.leaf = n;
      return VISITED_LEAF;
    }
    case 'object': {
      if (value === null) {
        walk.bytes += NULL_BYTES;
        walk.leaf = null;
        return VISITED_LEAF;
      }
      return enterContainer(walk, value, depth, copying);
    }
    default:
      break;
  }
  // undefined (in an array), non-finite numbers, functions, symbols, bigint.
  if (walk.rank < RANK_TYPES) fail(walk, RANK_TYPES, `A value cannot cross the bridge: ${describeType(value)}`);
  walk.bytes += NULL_BYTES;
  return VISITED_NOTHING;
}

/** Whether `value` is the source of a container on the stack: following it would close a cycle. */
function isOpenAncestor(walk: Walk, value: object): boolean {
  if (walk.ancestors !== null) return walk.ancestors.has(value);
  const stack = walk.stack;
  for (let i = 0; i < stack.length; i++) if (stack[i]!.source === value) return true;
  return false;
}

function pushContainer(walk: Walk, container: Container): void {
  const stack = walk.stack;
  stack.push(container);
  if (walk.ancestors !== null) walk.ancestors.add(container.source);
  else if (stack.length > ANCESTORS_SCANNED) walk.ancestors = new Set(stack.map((open) => open.source));
}

function popContainer(walk: Walk): void {
  const top = walk.stack.pop()!;
  // The sources on the stack are distinct (a second visit of one would be a cycle): deleting frees exactly this one.
  if (walk.ancestors !== null) walk.ancestors.delete(top.source);
}

function enterContainer(walk: Walk, value: object, depth: number, copying: boolean): number {
  if (isOpenAncestor(walk, value)) {
    // A cycle: its JSON would never end. The back edge is not followed (D-23: PAYLOAD_TOO_COMPLEX).
    fail(walk, RANK_COMPLEX, 'The payload contains a cycle');
    walk.bytes += NULL_BYTES;
    return VISITED_NOTHING;
  }
  const isArray = isArrayValue(value);
  const proto = protoOf(value);
  let container: Container | null = null;
  if (isArray === true && proto === Array.prototype) {
    container = enterArray(walk, value, depth, copying);
  } else if (isArray === false && (proto === Object.prototype || proto === null)) {
    container = enterObject(walk, value, depth, copying);
  } else {
    // Class instances, Date, Map, Set, typed arrays, DOM nodes, Array subclasses, unreadable prototypes.
    if (walk.rank < RANK_TYPES) fail(walk, RANK_TYPES, `A value cannot cross the bridge: ${describeType(value)}`);
  }
  if (container === null) {
    walk.bytes += NULL_BYTES;
    return VISITED_NOTHING;
  }
  walk.bytes += 2; // [] or {}
  walk.pushed = container;
  return VISITED_CONTAINER;
}

function enterArray(walk: Walk, value: object, depth: number, copying: boolean): Container | null {
  let length: unknown;
  let ownKeyCount = -1;
  try {
    length = Reflect.getOwnPropertyDescriptor(value, 'length')?.value;
  } catch {
    length = undefined;
  }
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    fail(walk, RANK_TYPES, 'A value cannot cross the bridge: an array whose length cannot be read');
    return null;
  }
  if (length > PAYLOAD_MAX_COLLECTION_ENTRIES) {
    fail(walk, RANK_COMPLEX, TOO_MANY_ARRAY_ENTRIES);
  } else if (walk.rank < RANK_TYPES) {
    // Holes or named properties make the key count differ from length + 1 (indices and `length`); checked only while
    // nothing has failed: it cannot outrank a failure.
    try {
      ownKeyCount = Reflect.ownKeys(value).length;
    } catch {
      ownKeyCount = -1;
    }
    if (ownKeyCount !== length + 1) fail(walk, RANK_TYPES, 'A value cannot cross the bridge: an array with holes or named properties');
  }
  return { source: value, isArray: true, depth, keys: null, length, index: 0, entries: 0, copy: copying ? [] : null };
}

function enterObject(walk: Walk, value: object, depth: number, copying: boolean): Container | null {
  if (walk.cloned) {
    // A clone's own keys are all enumerable strings: Object.keys lists exactly Reflect.ownKeys's, in the same order.
    const keys = Object.keys(value);
    return { source: value, isArray: false, depth, keys, length: keys.length, index: 0, entries: 0, copy: copying ? {} : null };
  }
  let raw: (string | symbol)[];
  try {
    raw = Reflect.ownKeys(value);
  } catch {
    fail(walk, RANK_TYPES, 'A value cannot cross the bridge: an object whose keys cannot be read');
    return null;
  }
  // The keys as they came, unless a symbol is among them: then the strings alone.
  let keys = raw as string[];
  for (let i = 0; i < raw.length; i++) {
    if (typeof raw[i] === 'string') continue;
    fail(walk, RANK_TYPES, 'A value cannot cross the bridge: a symbol-keyed property');
    keys = raw.filter((key): key is string => typeof key === 'string');
    break;
  }
  return { source: value, isArray: false, depth, keys, length: keys.length, index: 0, entries: 0, copy: copying ? {} : null };
}

/** Reads one own property once; returns a READ_* code. */
function readOwn(walk: Walk, source: object, key: string | number, isArray: boolean): number {
  if (walk.cloned && !isArray) {
    // An object key from Object.keys of a clone (enterObject): an own enumerable data property.
    walk.read = (source as Record<string, unknown>)[key];
    return READ_VALUE;
  }
  try {
    const descriptor = Reflect.getOwnPropertyDescriptor(source, key);
    if (descriptor === undefined) return READ_ABSENT;
    if (descriptor.enumerable !== true) return READ_HIDDEN;
    if ('value' in descriptor) {
      walk.read = descriptor.value;
      return READ_VALUE;
    }
    // An accessor: called exactly once, and the copy keeps what it returned.
    const getter = descriptor.get;
    walk.read = getter === undefined ? undefined : Reflect.apply(getter, source, []);
    return READ_VALUE;
  } catch {
    return READ_THREW;
  }
}

/** D-23 check that builds a fresh deep copy; never throws. `envelopeBytes`: the rest of the message, so the limit covers
 *  the whole message. `cloned`: `value` came from a structured clone (host side), so objects are read without
 *  descriptors, with the same answer (arrays, which a clone can leave with holes, are read as always). */
export function copyPayload(value: unknown, envelopeBytes = 0, cloned = false): CopyResult {
  const walk: Walk = { bytes: envelopeBytes, nodes: 0, rank: RANK_NONE, message: '', stack: [], ancestors: null, leaf: null, pushed: null, read: undefined, cloned };
  let root: JsonValue = null;
  const first = visit(walk, value, 1, true);
  if (walk.bytes > MESSAGE_MAX_BYTES) return tooLarge();
  if (first === VISITED_LEAF) root = walk.leaf;
  else if (first === VISITED_CONTAINER) {
    root = walk.pushed!.copy as JsonValue;
    pushContainer(walk, walk.pushed!);
  }
  const stack = walk.stack;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.index >= top.length) {
      popContainer(walk);
      continue;
    }
    const index = top.index++;
    const isArray = top.isArray;
    const key = isArray ? '' : top.keys![index]!;
    if (!isArray && isForbiddenKey(key)) {
      if (walk.rank < RANK_TYPES) fail(walk, RANK_TYPES, `A key cannot cross the bridge: ${quoteKey(key)}`);
      continue;
    }
    // An array's entries are read by index: the same property key as its string.
    const read = readOwn(walk, top.source, isArray ? index : key, isArray);
    let entry: unknown;
    if (read === READ_VALUE) entry = walk.read;
    else if (read === READ_ABSENT && isArray) entry = undefined; // a hole reads as undefined
    else {
      if (read === READ_ABSENT) continue; // a key that vanished (a Proxy's ownKeys lied): nothing to copy
      if (walk.rank < RANK_TYPES) {
        fail(walk, RANK_TYPES, read === READ_HIDDEN ? `A non-enumerable property cannot cross the bridge: ${quoteKey(isArray ? String(index) : key)}` : 'A value cannot be read');
      }
      if (isArray) walk.bytes += (top.entries++ > 0 ? 1 : 0) + NULL_BYTES;
      if (walk.bytes > MESSAGE_MAX_BYTES) return tooLarge();
      continue;
    }
    // D-23: an object property whose value is undefined is dropped as absent.
    if (entry === undefined && !isArray) continue;
    top.entries++;
    if (top.entries > 1) walk.bytes += 1; // the comma
    if (!isArray) {
      walk.bytes += jsonStringBytes(key) + 1; // "key":
      if (top.entries > PAYLOAD_MAX_OBJECT_ENTRIES) fail(walk, RANK_COMPLEX, TOO_MANY_OBJECT_ENTRIES);
    }
    const copying = top.copy !== null && walk.rank === RANK_NONE;
    const child = visit(walk, entry, top.depth + 1, copying);
    if (walk.bytes > MESSAGE_MAX_BYTES) return tooLarge();
    if (child === VISITED_NOTHING) continue;
    if (copying) {
      // A container visited while copying always has a copy to fill (created above).
      const childCopy = child === VISITED_LEAF ? walk.leaf : (walk.pushed!.copy as JsonValue);
      // Plain assignment is safe here: every prototype-reaching key was refused above.
      if (isArray) (top.copy as JsonValue[]).push(childCopy);
      else (top.copy as JsonObject)[key] = childCopy;
    }
    if (child === VISITED_CONTAINER) pushContainer(walk, walk.pushed!);
  }
  if (walk.rank === RANK_COMPLEX) return { ok: false, code: 'PAYLOAD_TOO_COMPLEX', message: walk.message };
  if (walk.rank === RANK_TYPES) return { ok: false, code: 'INVALID_PAYLOAD', message: walk.message };
  return { ok: true, value: root, bytes: walk.bytes };
}
