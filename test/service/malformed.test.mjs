// Hostile input to the service core: malformed records, commands and contexts are refused
// with a catalogue code, never thrown (wrong types, unknown fields, oversized strings,
// prototype keys, accessors, class instances, proxies). A table of named shapes on both
// sides of the size caps, then a seeded mutation fuzz over valid triples from a World.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prng, pick } from '../support/fuzz.mjs';
import { World, service, ok, refused, storeUser, hex, OWNER, OP1, OP2, T0 } from './world.mjs';

const { decideSubmission, decidePublisher, decideInstallation, decideLink, decideInvitation, launchGate, ID_MAX_CHARS, REFUSALS, DECIDERS } = service;
const CODES = new Set(REFUSALS.map((r) => r.id));

/** A publisher record and a valid `add-key` command and context, to bend one part at a time. */
function base() {
  const w = new World();
  const pub = w.setupPublisher();
  return { w, record: w.get(pub), command: { type: 'add-key', actor: OWNER, keyId: hex(2) }, context: { now: T0 + 10_000 } };
}

const CASES = [
  { id: 'bad-command-not-object', title: 'a command that is not an object', bend: (b) => ({ ...b, command: 'add-key' }), code: 'service/malformed-command', pointer: '' },
  { id: 'bad-command-array', title: 'a command that is an array', bend: (b) => ({ ...b, command: [b.command] }), code: 'service/malformed-command' },
  { id: 'bad-command-unknown-type', title: 'an unknown command type', bend: (b) => ({ ...b, command: { ...b.command, type: 'restore-everything' } }), code: 'service/malformed-command', pointer: '/type' },
  { id: 'bad-command-unknown-field', title: 'an unknown command field', bend: (b) => ({ ...b, command: { ...b.command, force: true } }), code: 'service/malformed-command', pointer: '/force' },
  { id: 'bad-command-missing-field', title: 'a missing command field', bend: (b) => ({ ...b, command: { type: 'add-key', actor: OWNER } }), code: 'service/malformed-command', pointer: '' },
  { id: 'bad-command-wrong-type', title: 'a field of the wrong type', bend: (b) => ({ ...b, command: { ...b.command, keyId: 42 } }), code: 'service/malformed-command', pointer: '/keyId' },
  { id: 'bad-command-proto-key', title: 'a __proto__ key (as JSON.parse makes it)', bend: (b) => ({ ...b, command: JSON.parse(`{"type":"add-key","actor":{"kind":"publisher-member","id":"olivia"},"keyId":"${hex(2)}","__proto__":{"admin":true}}`) }), code: 'service/malformed-command', pointer: '/__proto__' },
  { id: 'bad-command-constructor-key', title: 'a constructor key inside the actor', bend: (b) => ({ ...b, command: { ...b.command, actor: { ...OWNER, constructor: 'x' } } }), code: 'service/malformed-command', pointer: '/actor/constructor' },
  { id: 'bad-command-class-instance', title: 'a class instance (a Date) as the command', bend: (b) => ({ ...b, command: new Date(0) }), code: 'service/malformed-command' },
  { id: 'bad-command-map', title: 'a Map as the actor', bend: (b) => ({ ...b, command: { ...b.command, actor: new Map([['kind', 'operator']]) } }), code: 'service/malformed-command', pointer: '/actor' },
  { id: 'bad-command-accessor', title: 'an accessor property', bend: (b) => ({ ...b, command: Object.defineProperty({ type: 'add-key', actor: OWNER }, 'keyId', { get: () => hex(2), enumerable: true }) }), code: 'service/malformed-command', pointer: '/keyId' },
  { id: 'bad-command-symbol', title: 'a symbol key', bend: (b) => ({ ...b, command: { ...b.command, [Symbol('x')]: 1 } }), code: 'service/malformed-command' },
  { id: 'bad-command-proxy', title: 'a proxy whose traps throw', bend: (b) => ({ ...b, command: new Proxy({}, { getOwnPropertyDescriptor() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); }, getPrototypeOf() { throw new Error('trap'); } }) }), code: 'service/malformed-command' },
  { id: 'bad-actor-kind', title: 'an actor kind the contract does not name', bend: (b) => ({ ...b, command: { ...b.command, actor: { kind: 'admin', id: 'root' } } }), code: 'service/malformed-command', pointer: '/actor/kind' },
  { id: 'bad-actor-role', title: 'an actor without the role', bend: (b) => ({ ...b, command: { ...b.command, actor: { kind: 'store-user', id: 'u', storeId: 's' } } }), code: 'service/actor-not-allowed', pointer: '/actor/kind' },
  { id: 'bad-id-at-cap', title: 'an id of exactly the cap (ID_MAX_CHARS) is read', bend: (b) => ({ ...b, command: { ...b.command, actor: { kind: 'publisher-member', id: 'x'.repeat(ID_MAX_CHARS) } } }), code: 'service/actor-not-allowed', pointer: '/actor/id' },
  { id: 'bad-id-over-cap', title: 'an id one character over the cap is refused', bend: (b) => ({ ...b, command: { ...b.command, actor: { kind: 'publisher-member', id: 'x'.repeat(ID_MAX_CHARS + 1) } } }), code: 'service/malformed-command', pointer: '/actor/id' },
  { id: 'bad-string-huge', title: 'a megabyte string', bend: (b) => ({ ...b, command: { ...b.command, keyId: 'a'.repeat(1 << 20) } }), code: 'service/malformed-command', pointer: '/keyId' },
  { id: 'bad-record-kind', title: 'a record of another kind', bend: (b) => ({ ...b, record: { ...b.record, kind: 'installation' } }), code: 'service/malformed-record', pointer: '/kind' },
  { id: 'bad-record-revision', title: 'a record without a positive integer revision', bend: (b) => ({ ...b, record: { ...b.record, revision: 1.5 } }), code: 'service/malformed-record', pointer: '/revision' },
  { id: 'bad-record-extra', title: 'a record with a field of no kind (a token)', bend: (b) => ({ ...b, record: { ...b.record, token: 'secret' } }), code: 'service/malformed-record', pointer: '/token' },
  { id: 'bad-record-null-for-update', title: 'null for a command that needs a record', bend: (b) => ({ ...b, record: null }), code: 'service/record-missing' },
  { id: 'bad-record-for-create', title: 'a record for a command that creates one', bend: (b) => ({ ...b, command: { type: 'create', actor: OWNER, keyId: hex(3) }, context: { now: T0, newId: 'p-9' } }), code: 'service/record-exists' },
  { id: 'bad-context-no-time', title: 'a context without the time', bend: (b) => ({ ...b, context: {} }), code: 'service/malformed-context', pointer: '' },
  { id: 'bad-context-time-offset', title: 'a time with an offset instead of Z', bend: (b) => ({ ...b, context: { now: '2026-03-01T01:00:00+01:00' } }), code: 'service/malformed-context', pointer: '/now' },
  { id: 'bad-context-time-impossible', title: 'a date that does not exist', bend: (b) => ({ ...b, context: { now: '2026-02-30T00:00:00Z' } }), code: 'service/malformed-context', pointer: '/now' },
  { id: 'bad-context-time-fraction', title: 'a fractional millisecond', bend: (b) => ({ ...b, context: { now: 1.5 } }), code: 'service/malformed-context', pointer: '/now' },
  { id: 'bad-context-extra', title: 'an unknown context fact', bend: (b) => ({ ...b, context: { ...b.context, isAdmin: true } }), code: 'service/malformed-context', pointer: '/isAdmin' },
];

for (const c of CASES) {
  test(`${c.id}: ${c.title}`, () => {
    const b = c.bend(base());
    const d = decidePublisher(b.record, b.command, b.context);
    refused(d, c.code, c.pointer);
  });
}

test('bad-time-iso-and-ms: the time is read from milliseconds and from an ISO UTC string alike', () => {
  const b = base();
  const a = ok(decidePublisher(b.record, b.command, { now: T0 + 10_000 }));
  const s = ok(decidePublisher(b.record, b.command, { now: new Date(T0 + 10_000).toISOString() }));
  assert.deepEqual(a, s);
});

test('bad-no-aliasing: a decision never returns (or keeps) an object the caller passed', () => {
  const b = base();
  const d = ok(decidePublisher(b.record, b.command, b.context));
  assert.notEqual(d.records[0].keys[0], b.record.keys[0]);
  d.records[0].keys[0].state = 'revoked';
  assert.equal(b.record.keys[0].state, 'active');
});

test('bad-launch-gate: the launch gate refuses what it cannot read, never throws', () => {
  for (const v of [undefined, null, 1, 'x', [], new Date(0), new Proxy({}, { ownKeys() { throw new Error('trap'); } })]) {
    const d = launchGate(v, v, v);
    assert.equal(d.ok, false);
    assert.equal(d.refusal.code, 'service/malformed-record');
  }
});

// ---------------------------------------------------------------------------------------
// Seeded mutation fuzz: bend one spot of a valid triple, over and over.

const HOSTILE = [undefined, null, true, 0, -1, 1.5, NaN, Infinity, '', 'x', 'x'.repeat(300), [], {}, [1], { a: 1 }, new Date(0), Object.create(null), Object.create({ inherited: 1 }), () => 1, Symbol('s'), 10n];

function mutate(rng, value, depth = 0) {
  if (value === null || typeof value !== 'object' || depth > 4 || rng() < 0.25) return pick(rng, HOSTILE);
  const copy = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  const roll = rng();
  if (keys.length === 0 || roll < 0.1) {
    copy[pick(rng, ['__proto__', 'constructor', 'extra', 'token', 'revision'])] = pick(rng, HOSTILE);
  } else if (roll < 0.2) {
    delete copy[pick(rng, keys)];
  } else {
    const k = pick(rng, keys);
    copy[k] = mutate(rng, copy[k], depth + 1);
  }
  return copy;
}

/** Valid (decide, record, command, context) quadruples from a short story. */
function triples() {
  const w = new World();
  const pub = w.setupPublisher();
  const sub = w.apply(w.submit(pub, { actor: OP1 })).records[0].id;
  const rel = w.release(pub, { version: '1.1.0' });
  const inst = w.apply(w.install(rel)).records[0].id;
  const link = w.apply(w.issueLink(rel)).records[0].id;
  const inv = w.apply(decideInvitation(null, { type: 'create', actor: OWNER, email: 'n@example.test', role: 'developer', tokenHash: hex(5) }, { now: w.tick(), newId: 'inv-x', publisher: w.get(pub) })).records[0].id;
  const now = w.tick();
  return [
    [decideSubmission, w.get(sub), { type: 'approve', actor: OP2 }, { now, publisher: w.get(pub), namespace: w.namespaceFacts('acme/shelf'), currentReleaseId: rel }],
    [decideSubmission, null, { type: 'submit', actor: OWNER, publisherId: pub, namespace: 'acme/shelf', version: '2.0.0', distribution: 'paid', report: { errors: 0, warnings: 0, rules: [], manifest: { namespace: 'acme/shelf', version: '2.0.0', capabilities: ['cart.manage'], properties: [{ name: 'title', type: 'text', required: false, default: 'x' }] }, manifestSha256: hex(1), artifactSha256: hex(2), publicKeyId: hex(1), signatureValid: true } }, { now, newId: 'sub-x', publisher: w.get(pub), namespace: w.namespaceFacts('acme/shelf') }],
    [decidePublisher, w.get(pub), { type: 'revoke-key', actor: OWNER, keyId: hex(1) }, { now }],
    [decideInstallation, w.get(inst), { type: 'save-settings', actor: storeUser('store-1'), settings: { title: 'x' } }, { now, release: w.get(rel) }],
    [decideLink, w.get(link), { type: 'accept', actor: storeUser('store-2'), tokenHash: w.get(link).tokenHash }, { now }],
    [decideInvitation, w.get(inv), { type: 'accept', actor: { kind: 'publisher-member', id: 'nia', email: 'n@example.test' }, tokenHash: hex(5) }, { now, publisher: w.get(pub) }],
  ];
}

test('bad-fuzz: mutated records, commands and contexts are refused with a catalogue code or decided, never thrown', () => {
  const rng = prng(0x5e41ce);
  const quads = triples();
  const runs = process.env.CI === 'true' ? 20_000 : 4_000;
  const seen = new Set();
  for (let i = 0; i < runs; i++) {
    const [decide, record, command, context] = pick(rng, quads);
    const part = Math.floor(rng() * 3);
    const args = [record, command, context];
    args[part] = mutate(rng, args[part]);
    let d;
    assert.doesNotThrow(() => (d = decide(...args)));
    if (d.ok) {
      // What a decision returns is plain JSON that reads back as the same records.
      assert.deepEqual(JSON.parse(JSON.stringify(d.records)), d.records);
    } else {
      assert.ok(CODES.has(d.refusal.code), d.refusal.code);
      assert.equal(typeof d.refusal.message, 'string');
      seen.add(d.refusal.code);
    }
  }
  for (const code of ['service/malformed-record', 'service/malformed-command', 'service/malformed-context']) assert.ok(seen.has(code), code);
});

test('bad-deciders: every record kind has its decision function', () => {
  assert.deepEqual(Object.keys(DECIDERS).sort(), ['installation', 'invitation', 'private-link', 'publisher', 'release-submission']);
});
