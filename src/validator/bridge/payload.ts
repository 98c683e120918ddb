// D-23: what may cross the bridge. The frame and the host both run copyPayload; it
// validates while it builds a fresh deep copy, and the copy is what is sent (structured
// clone would otherwise carry `__proto__` own keys, shared references and -0, and drop
// prototypes silently: ARCHITECTURE "Pitfalls").
//
// Definitions (written down in BRIDGE_PROTOCOL_DOC):
// - Depth: the root value is at depth 1; an entry of a value at depth d is at depth d + 1.
//   Every value counts, leaves included, so 11 nested arrays around a number reach 12.
// - Nodes: every value reached counts once per visit (a shared reference counts each time;
//   a value that cannot cross is still a node; a dropped `undefined` property is not).
// - Entries: an array may hold at most PAYLOAD_MAX_COLLECTION_ENTRIES entries and an
//   object at most PAYLOAD_MAX_OBJECT_ENTRIES properties (after dropping `undefined`
//   ones). The contract's "collection" reads as "array": an object is also a collection,
//   but its own limit is the smaller one, so both readings refuse exactly the same values.
// - Size: UTF-8 bytes of the JSON text of the whole message (`messageSize`). While
//   copying, the size is summed incrementally; a value that cannot cross is counted as
//   `null` (4 bytes), the length it would take if it were replaced by a placeholder.
//
// The first failure by D-23's order decides the code, whatever the order of the keys:
// size (PAYLOAD_TOO_LARGE), then depth, nodes, entries (PAYLOAD_TOO_COMPLEX, a cycle
// included), then value types (INVALID_PAYLOAD). To honour that order the walk goes on
// after a lower-ranked failure, measuring bytes only; it stays bounded because every
// value reached adds at least one byte and the walk stops once the size limit is passed,
// and a cycle's back edge is never followed. The walk is iterative: a hostile chain
// cannot exhaust the call stack.
//
// Hostile values: every read goes through Reflect (ownKeys, getOwnPropertyDescriptor,
// getPrototypeOf) inside try/catch, so a Proxy whose traps throw, a revoked Proxy or a
// throwing getter becomes INVALID_PAYLOAD and never an exception. A getter is called
// exactly once, and its result is what the copy holds.
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

/** One array or object being copied: its entries are read lazily, one at a time. */
interface Container {
  readonly source: object;
  readonly isArray: boolean;
  readonly depth: number;
  /** Object keys (strings) or null for an array. */
  readonly keys: readonly string[] | null;
  /** Array length or number of keys. */
  readonly length: number;
  index: number;
  /** Entries emitted so far (commas, entry limits). */
  entries: number;
  /** The copy being filled, or null once copying has stopped. */
  readonly copy: JsonValue[] | JsonObject | null;
}

/** Failure ranks in D-23 order; higher wins. */
const RANK_NONE = 0;
const RANK_TYPES = 1;
const RANK_COMPLEX = 2;

interface Walk {
  bytes: number;
  nodes: number;
  rank: number;
  message: string;
  readonly stack: Container[];
  readonly ancestors: Set<object>;
}

/** Records a failure when it outranks the one known. Callers on hot paths test the rank first, so that messages are only built when they can matter. */
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

/**
 * Visits one value at `depth`: counts it, checks its type, adds its bytes, and returns
 * its copy (a leaf), a container to push, or null when it cannot be copied.
 */
function visit(walk: Walk, value: unknown, depth: number, copying: boolean): { leaf: JsonValue } | { push: Container } | null {
  walk.nodes++;
  if (walk.rank < RANK_COMPLEX) {
    if (depth > PAYLOAD_MAX_DEPTH) fail(walk, RANK_COMPLEX, TOO_DEEP);
    else if (walk.nodes > PAYLOAD_MAX_NODES) fail(walk, RANK_COMPLEX, TOO_MANY_NODES);
  }
  switch (typeof value) {
    case 'string':
      // Every code unit takes at least one byte: a string longer than the limit is not
      // scanned (a lower bound that already passes the limit is enough).
      walk.bytes += value.length > MESSAGE_MAX_BYTES ? value.length + 2 : jsonStringBytes(value);
      return { leaf: value };
    case 'boolean':
      walk.bytes += value ? 4 : 5;
      return { leaf: value };
    case 'number': {
      if (!Number.isFinite(value)) break;
      // -0 crosses as 0 (D-23); JSON writes both as "0".
      const n = value === 0 ? 0 : value;
      walk.bytes += String(n).length;
      return { leaf: n };
    }
    case 'object': {
      if (value === null) {
        walk.bytes += NULL_BYTES;
        return { leaf: null };
      }
      return enterContainer(walk, value, depth, copying);
    }
    default:
      break;
  }
  // undefined (in an array), non-finite numbers, functions, symbols, bigint.
  if (walk.rank < RANK_TYPES) fail(walk, RANK_TYPES, `A value cannot cross the bridge: ${describeType(value)}`);
  walk.bytes += NULL_BYTES;
  return null;
}

function enterContainer(walk: Walk, value: object, depth: number, copying: boolean): { push: Container } | null {
  if (walk.ancestors.has(value)) {
    // A cycle: its JSON would never end. The back edge is not followed (D-23: PAYLOAD_TOO_COMPLEX).
    fail(walk, RANK_COMPLEX, 'The payload contains a cycle');
    walk.bytes += NULL_BYTES;
    return null;
  }
  const isArray = isArrayValue(value);
  const proto = protoOf(value);
  let container: Container | null = null;
  if (isArray === true && proto === Array.prototype) {
    container = enterArray(walk, value, depth, copying);
  } else if (isArray === false && (proto === Object.prototype || proto === null)) {
    container = enterObject(walk, value, depth, copying);
  } else {
    // Class instances, Date, Map, Set, typed arrays, DOM nodes, Array subclasses, and
    // anything whose prototype could not be read.
    if (walk.rank < RANK_TYPES) fail(walk, RANK_TYPES, `A value cannot cross the bridge: ${describeType(value)}`);
  }
  if (container === null) {
    walk.bytes += NULL_BYTES;
    return null;
  }
  walk.bytes += 2; // [] or {}
  walk.ancestors.add(value);
  return { push: container };
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
    // Holes and extra named properties both show as a key count other than length + 1
    // (the indices and `length`). Checked only while no failure is known: it cannot
    // outrank one, and a long array is already refused above.
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
  let raw: (string | symbol)[];
  try {
    raw = Reflect.ownKeys(value);
  } catch {
    fail(walk, RANK_TYPES, 'A value cannot cross the bridge: an object whose keys cannot be read');
    return null;
  }
  const keys: string[] = [];
  for (const key of raw) {
    if (typeof key === 'string') keys.push(key);
    else fail(walk, RANK_TYPES, 'A value cannot cross the bridge: a symbol-keyed property');
  }
  return { source: value, isArray: false, depth, keys, length: keys.length, index: 0, entries: 0, copy: copying ? {} : null };
}

/** Reads one own property once. `absent` for a hole or a missing key; `threw` when a trap or getter threw. */
function readOwn(source: object, key: string): { value: unknown } | 'absent' | 'hidden' | 'threw' {
  try {
    const descriptor = Reflect.getOwnPropertyDescriptor(source, key);
    if (descriptor === undefined) return 'absent';
    if (descriptor.enumerable !== true) return 'hidden';
    if ('value' in descriptor) return { value: descriptor.value };
    // An accessor: called exactly once, and the copy keeps what it returned.
    const getter = descriptor.get;
    return { value: getter === undefined ? undefined : Reflect.apply(getter, source, []) };
  } catch {
    return 'threw';
  }
}

/**
 * D-23 structural check that builds a fresh deep copy. `envelopeBytes` is the size of the
 * rest of the message (everything but this payload), so that the size limit applies to
 * the whole message. Never throws, whatever `value` is.
 */
export function copyPayload(value: unknown, envelopeBytes = 0): CopyResult {
  const walk: Walk = { bytes: envelopeBytes, nodes: 0, rank: RANK_NONE, message: '', stack: [], ancestors: new Set() };
  const tooLarge = (): CopyResult => ({ ok: false, code: 'PAYLOAD_TOO_LARGE', message: TOO_LARGE });
  let root: JsonValue = null;
  const first = visit(walk, value, 1, true);
  if (walk.bytes > MESSAGE_MAX_BYTES) return tooLarge();
  if (first !== null) {
    if ('leaf' in first) root = first.leaf;
    else {
      root = first.push.copy as JsonValue;
      walk.stack.push(first.push);
    }
  }
  const stack = walk.stack;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.index >= top.length) {
      stack.pop();
      walk.ancestors.delete(top.source);
      continue;
    }
    const index = top.index++;
    const key = top.isArray ? String(index) : top.keys![index]!;
    if (!top.isArray && FORBIDDEN_KEYS.includes(key)) {
      if (walk.rank < RANK_TYPES) fail(walk, RANK_TYPES, `A key cannot cross the bridge: ${quoteKey(key)}`);
      continue;
    }
    const read = readOwn(top.source, key);
    let entry: unknown;
    if (typeof read === 'object') entry = read.value;
    else if (read === 'absent' && top.isArray) entry = undefined; // a hole reads as undefined
    else {
      if (read === 'absent') continue; // a key that vanished (a Proxy's ownKeys lied): nothing to copy
      if (walk.rank < RANK_TYPES) fail(walk, RANK_TYPES, read === 'hidden' ? `A non-enumerable property cannot cross the bridge: ${quoteKey(key)}` : 'A value cannot be read');
      if (top.isArray) walk.bytes += (top.entries++ > 0 ? 1 : 0) + NULL_BYTES;
      if (walk.bytes > MESSAGE_MAX_BYTES) return tooLarge();
      continue;
    }
    // D-23: an object property whose value is undefined is dropped as absent.
    if (entry === undefined && !top.isArray) continue;
    top.entries++;
    if (top.entries > 1) walk.bytes += 1; // the comma
    if (!top.isArray) {
      walk.bytes += jsonStringBytes(key) + 1; // "key":
      if (top.entries > PAYLOAD_MAX_OBJECT_ENTRIES) fail(walk, RANK_COMPLEX, TOO_MANY_OBJECT_ENTRIES);
    }
    const copying = top.copy !== null && walk.rank === RANK_NONE;
    const child = visit(walk, entry, top.depth + 1, copying);
    if (walk.bytes > MESSAGE_MAX_BYTES) return tooLarge();
    if (child === null) continue;
    if (copying) {
      // A container visited while copying always has a copy to fill (created above).
      const childCopy = 'leaf' in child ? child.leaf : (child.push.copy as JsonValue);
      // Plain assignment is safe here: every prototype-reaching key was refused above.
      if (top.isArray) (top.copy as JsonValue[]).push(childCopy);
      else (top.copy as JsonObject)[key] = childCopy;
    }
    if ('push' in child) stack.push(child.push);
  }
  if (walk.rank === RANK_COMPLEX) return { ok: false, code: 'PAYLOAD_TOO_COMPLEX', message: walk.message };
  if (walk.rank === RANK_TYPES) return { ok: false, code: 'INVALID_PAYLOAD', message: walk.message };
  return { ok: true, value: root, bytes: walk.bytes };
}
