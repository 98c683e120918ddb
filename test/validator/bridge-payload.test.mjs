// D-23 payload rules (src/validator/bridge/payload.ts): what crosses the bridge, the copy
// that is sent, and both sides of every structural limit (depth, nodes, entries, message
// size), plus the ranking of codes inside the structure check and hostile values (Proxy,
// getters) that must never throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyPayload, messageSize, jsonStringBytes, FORBIDDEN_KEYS } from '../../build/validator/bridge/payload.js';
import {
  MESSAGE_MAX_BYTES,
  PAYLOAD_MAX_DEPTH,
  PAYLOAD_MAX_NODES,
  PAYLOAD_MAX_COLLECTION_ENTRIES,
  PAYLOAD_MAX_OBJECT_ENTRIES,
} from '../../build/validator/limits.js';
import { prng } from '../support/fuzz.mjs';
import { fuzzBridgeCase } from '../support/fuzz-bridge.mjs';

const code = (result) => (result.ok ? 'ok' : result.code);

/** `levels` nested arrays around `leaf`: depth levels + 1 when leaf is a scalar. */
function nestArrays(levels, leaf) {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** `levels` nested objects {a: …} around `leaf`. */
function nestObjects(levels, leaf) {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));
const objectOf = (n) => Object.fromEntries(range(n, (i) => [`k${i}`, i]));

test('plain JSON values cross, as a fresh deep copy with its size', () => {
  const input = { a: [1, 'two', true, null, { b: -1.5 }], c: {}, d: [], e: '' };
  const result = copyPayload(input);
  assert.equal(result.ok, true);
  assert.deepEqual(result.value, input);
  assert.notEqual(result.value, input, 'a new object');
  assert.notEqual(result.value.a, input.a, 'new arrays too');
  assert.notEqual(result.value.a[4], input.a[4]);
  assert.equal(result.bytes, messageSize(input));
  for (const scalar of ['x', 0, 1e21, -3, true, false, null]) assert.deepEqual(copyPayload(scalar), { ok: true, value: scalar, bytes: messageSize(scalar) });
});

test('depth: the root is at depth 1, leaves count; 12 is accepted and 13 refused', () => {
  const rows = [
    // [what it proves, value, expected]
    ['11 arrays around a number reach depth 12', nestArrays(PAYLOAD_MAX_DEPTH - 1, 0), 'ok'],
    ['12 arrays around a number reach depth 13', nestArrays(PAYLOAD_MAX_DEPTH, 0), 'PAYLOAD_TOO_COMPLEX'],
    ['12 nested arrays, the innermost empty: depth 12', nestArrays(PAYLOAD_MAX_DEPTH - 1, []), 'ok'],
    ['13 nested arrays, the innermost empty: depth 13', nestArrays(PAYLOAD_MAX_DEPTH, []), 'PAYLOAD_TOO_COMPLEX'],
    ['11 objects around a string: depth 12', nestObjects(PAYLOAD_MAX_DEPTH - 1, 's'), 'ok'],
    ['12 objects around a string: depth 13', nestObjects(PAYLOAD_MAX_DEPTH, 's'), 'PAYLOAD_TOO_COMPLEX'],
    ['12 objects around null: depth 13', nestObjects(PAYLOAD_MAX_DEPTH, null), 'PAYLOAD_TOO_COMPLEX'],
    ['a scalar root is depth 1', 5, 'ok'],
  ];
  for (const [what, value, expected] of rows) assert.equal(code(copyPayload(value)), expected, what);
});

test('nodes: every value counts once per visit; 2000 is accepted and 2001 refused', () => {
  const full = PAYLOAD_MAX_COLLECTION_ENTRIES - 1; // 499 numbers per inner array
  // root + 4 arrays + 4 × 499 numbers = 2001; one number fewer = 2000.
  const over = [range(full), range(full), range(full), range(full)];
  const at = [range(full), range(full), range(full), range(full - 1)];
  assert.equal(1 + 4 + 4 * full, PAYLOAD_MAX_NODES + 1, 'the row is built at the boundary');
  assert.equal(code(copyPayload(at)), 'ok', '2000 nodes');
  assert.equal(code(copyPayload(over)), 'PAYLOAD_TOO_COMPLEX', '2001 nodes');

  // A shared reference counts each time it is reached (D-23), and is copied each time.
  const shared = range(full);
  const sharedOver = [shared, shared, shared, shared];
  const sharedAt = [shared, shared, shared, range(full - 1)];
  assert.equal(code(copyPayload(sharedOver)), 'PAYLOAD_TOO_COMPLEX', 'a shared array reached 4 times: 2001 nodes');
  const ok = copyPayload(sharedAt);
  assert.equal(code(ok), 'ok', 'reached 3 times: 2000 nodes');
  assert.notEqual(ok.value[0], ok.value[1], 'each visit gets its own copy');

  // A dropped undefined property is not a node: root object + a 1999-node list = 2000.
  const list1999 = [range(full), range(full), range(full), range(full - 2)];
  assert.equal(code(copyPayload({ list: list1999, gone: undefined })), 'ok', 'the undefined property is not counted');
  assert.equal(code(copyPayload({ list: list1999, one: 1 })), 'PAYLOAD_TOO_COMPLEX', 'a defined one is: 2001');
});

test('entries: 500 per array and 200 per object', () => {
  const rows = [
    ['an array of 500', range(PAYLOAD_MAX_COLLECTION_ENTRIES), 'ok'],
    ['an array of 501', range(PAYLOAD_MAX_COLLECTION_ENTRIES + 1), 'PAYLOAD_TOO_COMPLEX'],
    ['an object of 200', objectOf(PAYLOAD_MAX_OBJECT_ENTRIES), 'ok'],
    ['an object of 201', objectOf(PAYLOAD_MAX_OBJECT_ENTRIES + 1), 'PAYLOAD_TOO_COMPLEX'],
    ['201 keys, one undefined (dropped): 200 entries', { ...objectOf(PAYLOAD_MAX_OBJECT_ENTRIES), gone: undefined }, 'ok'],
    ['an array of 201 entries is fine (the object limit is for objects)', range(PAYLOAD_MAX_OBJECT_ENTRIES + 1), 'ok'],
    ['a nested array of 501', { a: [range(PAYLOAD_MAX_COLLECTION_ENTRIES + 1)] }, 'PAYLOAD_TOO_COMPLEX'],
    ['a sparse array with length 2^32-1', new Array(2 ** 32 - 1), 'PAYLOAD_TOO_LARGE'],
  ];
  for (const [what, value, expected] of rows) assert.equal(code(copyPayload(value)), expected, what);
});

test('message size: UTF-8 bytes of the JSON of the whole message; 65,536 accepted, 65,537 refused', () => {
  // A string payload alone: its JSON is the text plus two quotes.
  const ascii = (n) => 'a'.repeat(n);
  assert.equal(messageSize(ascii(MESSAGE_MAX_BYTES - 2)), MESSAGE_MAX_BYTES);
  assert.equal(code(copyPayload(ascii(MESSAGE_MAX_BYTES - 2))), 'ok');
  assert.equal(code(copyPayload(ascii(MESSAGE_MAX_BYTES - 1))), 'PAYLOAD_TOO_LARGE');
  // Multi-byte: '€' is 3 bytes in UTF-8, one UTF-16 unit.
  const euros = '€'.repeat((MESSAGE_MAX_BYTES - 2 - 2) / 3) + 'aa';
  assert.equal(messageSize(euros), MESSAGE_MAX_BYTES);
  assert.equal(code(copyPayload(euros)), 'ok');
  assert.equal(code(copyPayload(euros + 'a')), 'PAYLOAD_TOO_LARGE');
  // The envelope counts: the same payload with 10 bytes of envelope.
  const payload = { text: ascii(MESSAGE_MAX_BYTES - 10 - messageSize({ text: '' })) };
  assert.equal(messageSize(payload) + 10, MESSAGE_MAX_BYTES);
  assert.equal(copyPayload(payload, 10).bytes, MESSAGE_MAX_BYTES);
  assert.equal(code(copyPayload(payload, 11)), 'PAYLOAD_TOO_LARGE');
  // Escapes count as written: a quote is 2 bytes, a control character 6.
  const quotes = '"'.repeat((MESSAGE_MAX_BYTES - 2) / 2);
  assert.equal(code(copyPayload(quotes)), 'ok');
  assert.equal(code(copyPayload(quotes + 'a')), 'PAYLOAD_TOO_LARGE');
});

test('jsonStringBytes equals the UTF-8 length of JSON.stringify', () => {
  const samples = ['', 'plain', '"\\', '\b\f\n\r\t', '\u0000\u001f\u007f', 'é€😀', '\ud800', 'a\udc00b', '\ud83d\ude00\ud83d', '\u2028\u2029', 'x'.repeat(70)];
  for (const s of samples) assert.equal(jsonStringBytes(s), Buffer.byteLength(JSON.stringify(s)), JSON.stringify(s));
});

class Point {
  constructor() {
    this.x = 1;
  }
}
class FakeNode {
  constructor() {
    this.nodeType = 1;
    this.nodeName = 'DIV';
  }
}
class MyArray extends Array {}

test('INVALID_PAYLOAD: every value D-23 refuses', () => {
  const definedKey = (key) => {
    const o = {};
    Object.defineProperty(o, key, { value: 1, enumerable: true, configurable: true, writable: true });
    return o;
  };
  const hidden = {};
  Object.defineProperty(hidden, 'secret', { value: 1, enumerable: false });
  const named = [1, 2];
  named.extra = 3;
  const rows = [
    ['a function', { f() {} }],
    ['an arrow function at the root', () => 1],
    ['a symbol value', { s: Symbol('x') }],
    ['a bigint', { n: 1n }],
    ['a class instance', { p: new Point() }],
    ['a Date', { d: new Date(0) }],
    ['a Map', { m: new Map() }],
    ['a Set', { s: new Set() }],
    ['a typed array', { t: new Uint8Array(2) }],
    ['an ArrayBuffer', { b: new ArrayBuffer(2) }],
    ['a RegExp', { r: /x/ }],
    ['an Error', { e: new Error('x') }],
    ['a DOM-node-like class instance', { node: new FakeNode() }],
    ['an Array subclass', { a: MyArray.from([1]) }],
    ['an object with a non-plain prototype', { o: Object.create({ inherited: 1 }) }],
    ['NaN', { n: NaN }],
    ['Infinity', { n: Infinity }],
    ['-Infinity', [-Infinity]],
    ['own key __proto__ from JSON.parse', JSON.parse('{"__proto__": {"polluted": true}}')],
    ['own key __proto__ from defineProperty', definedKey('__proto__')],
    ['key constructor', { constructor: 1 }],
    ['key prototype', { prototype: {} }],
    ['key constructor, nested', { a: [{ constructor: 'x' }] }],
    ['a forbidden key whose value is undefined', { constructor: undefined }],
    ['undefined in an array', [1, undefined]],
    ['a hole in an array', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['an array with a named property', named],
    ['a symbol-keyed property', { [Symbol('k')]: 1 }],
    ['a non-enumerable property', hidden],
    ['undefined at the root', undefined],
  ];
  assert.deepEqual([...FORBIDDEN_KEYS].sort(), ['__proto__', 'constructor', 'prototype']);
  for (const [what, value] of rows) assert.equal(code(copyPayload(value)), 'INVALID_PAYLOAD', what);
});

test('accepted shapes: null prototype, dropped undefined, -0 as 0, keys that merely look special', () => {
  const bare = Object.create(null);
  bare.a = 1;
  assert.deepEqual(copyPayload(bare).value, { a: 1 });
  assert.equal(Object.getPrototypeOf(copyPayload(bare).value), Object.prototype, 'the copy is an ordinary object');
  const dropped = copyPayload({ a: 1, b: undefined });
  assert.deepEqual(dropped.value, { a: 1 });
  assert.equal(Object.hasOwn(dropped.value, 'b'), false);
  assert.equal(dropped.bytes, messageSize({ a: 1 }));
  const zero = copyPayload({ z: -0, list: [-0] });
  assert.ok(Object.is(zero.value.z, 0) && Object.is(zero.value.list[0], 0), '-0 crosses as 0');
  assert.equal(code(copyPayload({ toString: 'x', hasOwnProperty: 1, __proto: 2, Constructor: 3 })), 'ok');
});

test('getters are read exactly once and the copy keeps that reading', () => {
  let reads = 0;
  const payload = {
    get n() {
      reads++;
      return reads;
    },
  };
  const result = copyPayload(payload);
  assert.equal(reads, 1);
  assert.deepEqual(result.value, { n: 1 });
  payload.n; // a later read changes nothing in the copy
  assert.deepEqual(result.value, { n: 1 });
  const throwing = {
    get bad() {
      throw new Error('boom');
    },
  };
  assert.equal(code(copyPayload(throwing)), 'INVALID_PAYLOAD', 'a throwing getter');
  // A getter that returns a fresh object each time cannot grow the payload after the check.
  let depth = 0;
  const grower = {
    get next() {
      depth++;
      return depth < 50 ? grower : null;
    },
  };
  assert.equal(code(copyPayload(grower)), 'PAYLOAD_TOO_COMPLEX', 'a getter that returns its own object: a cycle');
});

test('hostile Proxies never throw: throwing traps and revoked proxies are INVALID_PAYLOAD', () => {
  const thrower = () => {
    throw new Error('trap');
  };
  const rows = [
    ['ownKeys throws', new Proxy({}, { ownKeys: thrower })],
    ['getPrototypeOf throws', new Proxy({}, { getPrototypeOf: thrower })],
    ['getOwnPropertyDescriptor throws', new Proxy({ a: 1 }, { getOwnPropertyDescriptor: thrower })],
    ['every trap throws', new Proxy({}, { ownKeys: thrower, getPrototypeOf: thrower, getOwnPropertyDescriptor: thrower, get: thrower, has: thrower })],
    ['an array proxy whose traps throw', new Proxy([1], { getOwnPropertyDescriptor: thrower })],
    ['a revoked proxy', (() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; })()],
    ['a revoked proxy, nested', (() => { const r = Proxy.revocable([], {}); r.revoke(); return { a: [r.proxy] }; })()],
    ['ownKeys returns a duplicate', new Proxy({}, { ownKeys: () => ['a', 'a'] })],
  ];
  for (const [what, value] of rows) assert.equal(code(copyPayload(value)), 'INVALID_PAYLOAD', what);
  // A well-behaved Proxy of a plain object is read through its traps, once, and copied.
  let gets = 0;
  const polite = new Proxy({ a: 1 }, { getOwnPropertyDescriptor: (t, k) => (gets++, Reflect.getOwnPropertyDescriptor(t, k)) });
  const result = copyPayload(polite);
  assert.deepEqual(result.value, { a: 1 });
  assert.equal(gets, 1);
});

test('a cycle is PAYLOAD_TOO_COMPLEX (D-23), wherever it closes', () => {
  const self = {};
  self.self = self;
  const list = [];
  list.push(list);
  const deep = { a: { b: { c: {} } } };
  deep.a.b.c.back = deep.a;
  for (const value of [self, list, deep, { ok: 1, loop: self }]) assert.equal(code(copyPayload(value)), 'PAYLOAD_TOO_COMPLEX');
});

test('inside the structure check the ranking is by code, whatever the key order', () => {
  const big = 'x'.repeat(MESSAGE_MAX_BYTES);
  const tooDeep = nestArrays(PAYLOAD_MAX_DEPTH + 2, 0);
  const rows = [
    ['too large before too deep', { big, tooDeep }, 'PAYLOAD_TOO_LARGE'],
    ['too deep before too large', { tooDeep, big }, 'PAYLOAD_TOO_LARGE'],
    ['a cycle and too large', (() => { const o = { big }; o.o = o; return o; })(), 'PAYLOAD_TOO_LARGE'],
    ['a function before too deep', { f() {}, tooDeep }, 'PAYLOAD_TOO_COMPLEX'],
    ['too deep before a function', { tooDeep, f() {} }, 'PAYLOAD_TOO_COMPLEX'],
    ['a forbidden key before 501 entries', { constructor: 1, list: range(PAYLOAD_MAX_COLLECTION_ENTRIES + 1) }, 'PAYLOAD_TOO_COMPLEX'],
    ['a Date before too many nodes', { d: new Date(), a: range(499), b: range(499), c: range(499), e: range(499) }, 'PAYLOAD_TOO_COMPLEX'],
    ['a function before too large', { f() {}, big }, 'PAYLOAD_TOO_LARGE'],
    ['a large string inside a too-deep chain', nestArrays(PAYLOAD_MAX_DEPTH + 5, big), 'PAYLOAD_TOO_LARGE'],
    ['a deep chain of 40,000 arrays (no stack overflow)', nestArrays(40_000, 0), 'PAYLOAD_TOO_LARGE'],
    ['a chain of 20,000 arrays: too deep, small enough', nestArrays(20_000, 0), 'PAYLOAD_TOO_COMPLEX'],
  ];
  for (const [what, value, expected] of rows) assert.equal(code(copyPayload(value)), expected, what);
});

test('fuzz: 10,000 random values (the cases of test/support/fuzz-bridge.mjs) never throw; accepted copies are exact', () => {
  const rng = prng(0xb41d6e);
  const tally = new Map();
  for (let i = 0; i < 10_000; i++) {
    const result = fuzzBridgeCase(rng); // throws on a broken invariant
    tally.set(result, (tally.get(result) ?? 0) + 1);
  }
  for (const expected of ['ok', 'INVALID_PAYLOAD', 'PAYLOAD_TOO_COMPLEX', 'INVALID_REQUEST', 'CAPABILITY_NOT_GRANTED']) {
    assert.ok((tally.get(expected) ?? 0) > 0, `${expected} was reached`);
  }
});
