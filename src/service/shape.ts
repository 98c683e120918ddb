// Readers of the plain JSON the core accepts, each returning a fresh copy so a decision never shares an
// object with the caller. Anything else throws Malformed, which becomes a refusal, never an exception.
// A failure's pointer is prefixed on its way out, so reading a valid record builds no pointer text.

/** Thrown by a reader; caught at the edge of every decision function. */
export class Malformed {
  constructor(
    readonly pointer: string,
    readonly message: string,
  ) {}
}

export type Reader<T> = (value: unknown, pointer: string) => T;

/** Keys that would reach an object's prototype when copied naively. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Longest identifier (record ids, actor ids, store ids) in UTF-16 units: the project's own cap (D-43). */
export const ID_MAX_CHARS = 128;
/** Longest free text (a reason, a note): the project's own cap (D-43). */
export const NOTE_MAX_CHARS = 1000;
/** Longest e-mail address (RFC 5321's path limit). */
export const EMAIL_MAX_CHARS = 254;
/** Most entries of any list inside a record (keys, members, stores, trail): the project's own cap (D-43). */
export const LIST_MAX_ENTRIES = 10_000;

export function fail(pointer: string, message: string): never {
  throw new Malformed(pointer, message);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function escapeKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function shown(key: string): string {
  return JSON.stringify(key.length <= 40 ? key : `${key.slice(0, 37)}...`);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// For settings, whose names are not known in advance.
function ownEntries(value: unknown, pointer: string): [string, unknown][] {
  if (!isPlainObject(value)) fail(pointer, `must be a plain JSON object, not ${describe(value)}`);
  const out: [string, unknown][] = [];
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') fail(pointer, 'has a symbol key');
    if (FORBIDDEN_KEYS.has(key)) fail(`${pointer}/${escapeKey(key)}`, `is the key ${shown(key)}, which is refused (it would reach a prototype)`);
    const d = Object.getOwnPropertyDescriptor(value, key);
    if (d === undefined || !('value' in d)) fail(`${pointer}/${escapeKey(key)}`, 'is an accessor, not a value');
    out.push([key, d.value]);
  }
  return out;
}

const OPTIONAL = Symbol('optional');
type Optional<T> = Reader<T | undefined> & { [OPTIONAL]: true };

/** A field that may be absent (absent stays absent in the copy). */
export function opt<T>(reader: Reader<T>): Optional<T> {
  const r = ((v: unknown, p: string) => reader(v, p)) as Optional<T>;
  r[OPTIONAL] = true;
  return r;
}

type Shape = Record<string, Reader<unknown>>;
type Out<S extends Shape> = { [K in keyof S]: S[K] extends Optional<infer T> ? T | undefined : S[K] extends Reader<infer T> ? T : never };

/** A closed object: every field in `shape`, nothing else. */
export function obj<S extends Shape>(shape: S): Reader<Out<S>> {
  const names = Object.keys(shape);
  const known = new Set(names);
  const readers = names.map((n) => shape[n]!);
  const optional = readers.map((r) => (r as Partial<Optional<unknown>>)[OPTIONAL] === true);
  return (value, pointer) => {
    if (!isPlainObject(value)) fail(pointer, `must be a plain JSON object, not ${describe(value)}`);
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key !== 'string') fail(pointer, 'has a symbol key');
      if (!known.has(key)) {
        if (FORBIDDEN_KEYS.has(key)) fail(`${pointer}/${escapeKey(key)}`, `is the key ${shown(key)}, which is refused (it would reach a prototype)`);
        fail(`${pointer}/${escapeKey(key)}`, `is not a field here (fields: ${names.join(', ')})`);
      }
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      // Each field is read once, from its descriptor: an accessor is refused, not run.
      const d = Object.getOwnPropertyDescriptor(value, name);
      if (d === undefined) {
        if (optional[i]) continue;
        fail(pointer, `lacks the field ${shown(name)}`);
      }
      if (!('value' in d)) fail(`${pointer}/${escapeKey(name)}`, 'is an accessor, not a value');
      let read: unknown;
      try {
        read = readers[i]!(d.value, '');
      } catch (error) {
        throw error instanceof Malformed ? new Malformed(`/${escapeKey(name)}${error.pointer}`, error.message) : error;
      }
      if (read !== undefined) out[name] = read;
    }
    return out as Out<S>;
  };
}

export function str(max: number, pattern?: RegExp, what = 'a string'): Reader<string> {
  return (value, pointer) => {
    if (typeof value !== 'string') fail(pointer, `must be ${what}, not ${describe(value)}`);
    if (value.length === 0) fail(pointer, 'must not be empty');
    if (value.length > max) fail(pointer, `is ${value.length} characters long; at most ${max} are allowed`);
    if (pattern !== undefined && !pattern.test(value)) fail(pointer, `is not ${what}`);
    return value;
  };
}

/** Visible ASCII, no spaces: what the core accepts as an id. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@+-]*$/;
export const id: Reader<string> = str(ID_MAX_CHARS, ID_PATTERN, 'an id (letters, digits and . _ : @ + -, starting with a letter or digit)');
export const note: Reader<string> = str(NOTE_MAX_CHARS);
/** 64 lowercase hex characters: a SHA-256 (hashes, key fingerprints, token hashes). */
export const hex64: Reader<string> = str(64, /^[0-9a-f]{64}$/, '64 lowercase hex characters');
/** An e-mail address as the core compares it: one @, no spaces or control characters. */
export const email: Reader<string> = str(EMAIL_MAX_CHARS, /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+$/, 'an e-mail address');

export function int(min: number, max: number): Reader<number> {
  return (value, pointer) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail(pointer, `must be an integer, not ${describe(value)}`);
    if (value < min || value > max) fail(pointer, `must be from ${min} to ${max}`);
    return value;
  };
}

export const bool: Reader<boolean> = (value, pointer) => {
  if (typeof value !== 'boolean') fail(pointer, `must be true or false, not ${describe(value)}`);
  return value;
};

export function oneOf<T extends string>(values: readonly T[]): Reader<T> {
  return (value, pointer) => {
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) fail(pointer, `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
    return value as T;
  };
}

export function literal<T extends string>(v: T): Reader<T> {
  return oneOf([v]);
}

export function nullable<T>(reader: Reader<T>): Reader<T | null> {
  return (value, pointer) => (value === null ? null : reader(value, pointer));
}

export function arr<T>(item: Reader<T>, max = LIST_MAX_ENTRIES): Reader<T[]> {
  return (value, pointer) => {
    if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) fail(pointer, `must be an array, not ${describe(value)}`);
    const length = value.length;
    if (length > max) fail(pointer, `has ${length} entries; at most ${max} are allowed`);
    const out: T[] = [];
    // Each entry is read once; other properties are never read, so none can reach a record.
    for (let i = 0; i < length; i++) {
      if (!Object.hasOwn(value, i)) fail(`${pointer}/${i}`, 'is a hole, not a value');
      try {
        out.push(item(value[i], ''));
      } catch (error) {
        throw error instanceof Malformed ? new Malformed(`/${i}${error.pointer}`, error.message) : error;
      }
    }
    return out;
  };
}

export function uniqueArr<T>(item: Reader<T>, key: (v: T) => string, max = LIST_MAX_ENTRIES): Reader<T[]> {
  const list = arr(item, max);
  return (value, pointer) => {
    const out = list(value, pointer);
    const seen = new Set<string>();
    out.forEach((v, i) => {
      const k = key(v);
      if (seen.has(k)) fail(`${pointer}/${i}`, `repeats ${shown(k)}`);
      seen.add(k);
    });
    return out;
  };
}

/** A JSON object of string -> boolean | finite number | string (saved settings), copied. */
export function settingValues(maxEntries: number, maxChars: number): Reader<Record<string, boolean | number | string>> {
  return (value, pointer) => {
    const entries = ownEntries(value, pointer);
    if (entries.length > maxEntries) fail(pointer, `has ${entries.length} settings; at most ${maxEntries} are allowed`);
    const out: Record<string, boolean | number | string> = {};
    for (const [key, v] of entries) {
      if (key.length === 0 || key.length > ID_MAX_CHARS) fail(`${pointer}/${escapeKey(key)}`, `a setting name is 1 to ${ID_MAX_CHARS} characters`);
      if (typeof v === 'string') {
        if (v.length > maxChars) fail(`${pointer}/${escapeKey(key)}`, `is ${v.length} characters long; at most ${maxChars} are allowed`);
      } else if (!(typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))) {
        fail(`${pointer}/${escapeKey(key)}`, `must be a boolean, a finite number or a string, not ${describe(v)}`);
      }
      out[key] = v as boolean | number | string;
    }
    return out;
  };
}

export function pointerSegment(key: string): string {
  return `/${escapeKey(key)}`;
}
