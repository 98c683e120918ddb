#!/usr/bin/env node
// Fuzzing of the bridge's checks (D-23): random values built from every kind of piece
// (plain data, values that cannot cross, hostile Proxies, getters, cycles, shared
// references, deep chains) go through copyPayload and checkRequest. Each case must
// finish without an exception, and an accepted copy must be plain JSON whose size is
// exactly the size reported.
// Usage: node bench/fuzz-bridge.mjs [count=1000000] [seed=1]
// Prints cases per second and the slowest case. test/validator/bridge-payload.test.mjs runs the
// same cases (fuzzBridgeCase) at a smaller count.
import { pick, prng } from './fuzz.mjs';
import { copyPayload, messageSize } from '../../build/validator/bridge/payload.js';
import { checkRequest } from '../../build/validator/bridge/requests.js';
import { CAPABILITY_KEYS } from '../../build/validator/capabilities.js';

class Point {
  constructor() {
    this.x = 1;
  }
}

const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const KEYS = ['a', 'b', 'c', '__proto__', 'constructor', 'prototype', 'x y', '😀', '0', '1', 'productId', 'quantity', 'event', 'search'];

/** A random value: mostly plain data, with every kind of value D-23 refuses mixed in. */
export function randomPayload(rng, depth = 1) {
  const leaves = [
    () => Math.floor(rng() * 1000) - 500,
    () => rng() * 1e6,
    () => -0,
    () => NaN,
    () => 'é😀"\\\n'.slice(0, Math.floor(rng() * 6)),
    () => '\ud800',
    () => 'x'.repeat(Math.floor(rng() * 3000)),
    () => true,
    () => null,
    () => undefined,
    () => () => 1,
    () => Symbol('s'),
    () => 10n,
    () => new Date(0),
    () => new Map(),
    () => new Point(),
    () => new Proxy({}, { ownKeys: () => { throw new Error('x'); } }),
    () => { const r = Proxy.revocable([], {}); r.revoke(); return r.proxy; },
  ];
  if (depth > 14 || rng() < 0.45) return pick(rng, leaves)();
  const roll = rng();
  if (roll < 0.4) return range(Math.floor(rng() * 6), () => randomPayload(rng, depth + 1));
  if (roll < 0.43) {
    const shared = randomPayload(rng, depth + 1);
    return range(1 + Math.floor(rng() * 4), () => shared);
  }
  if (roll < 0.45) return range(490 + Math.floor(rng() * 20), () => 0);
  const out = rng() < 0.1 ? Object.create(null) : {};
  const n = Math.floor(rng() * 5);
  for (let i = 0; i < n; i++) {
    const key = pick(rng, KEYS);
    if (rng() < 0.05) {
      let reads = 0;
      Object.defineProperty(out, key, { get: () => (++reads > 1 ? new Date() : randomPayload(rng, depth + 1)), enumerable: true, configurable: true });
    } else {
      Object.defineProperty(out, key, { value: randomPayload(rng, depth + 1), enumerable: rng() < 0.97, configurable: true, writable: true });
    }
  }
  if (rng() < 0.03) out.self = out;
  return out;
}

const CODES = new Set(['ok', 'INVALID_PAYLOAD', 'PAYLOAD_TOO_COMPLEX', 'PAYLOAD_TOO_LARGE', 'CAPABILITY_NOT_GRANTED', 'INVALID_REQUEST']);
const ACTIONS = ['track', 'list', 'start', 'add', 'remove', 'update', 'open', 'submit', 'read', 'x'];

/** One case: returns 'ok' or the refusing code; throws on a broken invariant. */
export function fuzzBridgeCase(rng) {
  const payload = randomPayload(rng);
  const copied = copyPayload(payload);
  if (copied.ok) {
    if (copied.bytes !== messageSize(copied.value)) throw new Error(`size ${copied.bytes} != ${messageSize(copied.value)}`);
    if (JSON.stringify(JSON.parse(JSON.stringify(copied.value))) !== JSON.stringify(copied.value)) throw new Error('the copy is not plain JSON');
  }
  const request = { id: 1 + Math.floor(rng() * 1e6), capability: pick(rng, [...CAPABILITY_KEYS, 'x.y']), action: pick(rng, ACTIONS), payload };
  const checked = checkRequest(request, CAPABILITY_KEYS, CAPABILITY_KEYS);
  const code = checked.ok ? 'ok' : checked.code;
  if (!CODES.has(code)) throw new Error(`unexpected code ${code}`);
  return code;
}

export async function main() {
  const count = Number(process.argv[2] ?? 1_000_000);
  const seed = Number(process.argv[3] ?? 1);
  const rng = prng(seed);
  const tally = new Map();
  let slowest = { ms: 0, index: -1 };
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const code = fuzzBridgeCase(rng);
    const ms = performance.now() - t0;
    if (ms > slowest.ms) slowest = { ms, index: i };
    tally.set(code, (tally.get(code) ?? 0) + 1);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`${count} cases in ${seconds.toFixed(1)} s: ${Math.round(count / seconds)} cases/s`);
  console.log(`slowest: case ${slowest.index} (seed ${seed}), ${slowest.ms.toFixed(2)} ms`);
  console.log(Object.fromEntries([...tally].sort()));
}
