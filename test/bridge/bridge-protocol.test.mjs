// The bridge protocol end to end in Node (src/bridge/runtime.ts and host.ts, as
// transpiled to build/bridge/, and the browser bundles from scripts/build-bridge.mjs):
// a fake frame window, a real MessageChannel and structured clone stand in for the
// browser. Covers the handshake's acceptance rules, round trips, the pending-call limit,
// both timeouts (shortened through the injected config; the defaults checked with manual
// timers, never by waiting), grants and revocation, --fail, adapter failures, the
// cart-updated event, analytics consent, and 10,000 hostile messages at the host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPlatform, readInjectedConfig } from '../../build/bridge/runtime.js';
import { createHostBridge } from '../../build/bridge/host.js';
import { AdapterUnavailable, THEME_FIELDS } from '../../build/bridge/adapters.js';
import { parsePlatformConfig, isRequestMessage, isResponseMessage, CART_UPDATED_EVENT, MESSAGE_TYPES } from '../../build/validator/bridge/protocol.js';
import { BRIDGE_PROTOCOL_DOC } from '../../build/contract/protocol-doc.js';
import { BRIDGE_ERROR_CODE_LIST } from '../../build/validator/bridge/errors.js';
import { CAPABILITY_KEYS } from '../../build/validator/capabilities.js';
import { INITIALIZATION_TIMEOUT_MS, REQUEST_TIMEOUT_MS, MAX_PENDING_CALLS, PAYLOAD_MAX_DEPTH } from '../../build/validator/limits.js';
import { buildBridge } from '../../scripts/build-bridge.mjs';
import { prng, pick } from '../support/fuzz.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HOST_ORIGIN = 'http://127.0.0.1:4321';
const CONFIG = Object.freeze({ protocol: 1, parentOrigin: HOST_ORIGIN, baseUrl: `${HOST_ORIGIN}/frame/` });
const THEME = Object.fromEntries(THEME_FIELDS.map((f) => [f, `value-${f}`]));

/** A frame window: message listeners called synchronously by `deliver`, real or given timers. */
function fakeFrameWindow(parent, timers = { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (h) => clearTimeout(h) }) {
  const listeners = new Set();
  return {
    parent,
    addEventListener(type, listener) {
      if (type === 'message') listeners.add(listener);
    },
    removeEventListener(type, listener) {
      if (type === 'message') listeners.delete(listener);
    },
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    deliver(event) {
      for (const listener of [...listeners]) listener(event);
    },
    listenerCount: () => listeners.size,
  };
}

/** Timers that never fire on their own: the test reads the delays and fires them by hand. */
function manualTimers() {
  const entries = new Map();
  const delays = [];
  let next = 1;
  return {
    delays,
    setTimeout(fn, ms) {
      delays.push(ms);
      entries.set(next, fn);
      return next++;
    },
    clearTimeout(id) {
      entries.delete(id);
    },
    fire(index) {
      const id = index + 1;
      const fn = entries.get(id);
      entries.delete(id);
      fn?.();
    },
  };
}

function makeAdapters(overrides = {}) {
  const calls = [];
  let itemCount = 0;
  const cartResult = (ok) => ({ ok, itemCount, total: `$${itemCount}.00` });
  const adapters = {
    calls,
    catalog: { list: async (query) => (calls.push(['catalog.list', query]), { products: [], total: 0, page: query.page, lastPage: 1 }) },
    cart: {
      add: async (d) => (calls.push(['cart.add', d]), (itemCount += d.quantity), cartResult(true)),
      remove: async (d) => (calls.push(['cart.remove', d]), (itemCount = Math.max(0, itemCount - d.quantity)), cartResult(true)),
      update: async (d) => (calls.push(['cart.update', d]), cartResult(false)),
    },
    theme: { read: async () => (calls.push(['theme.read']), THEME) },
    booking: {
      availability: async (q) => (calls.push(['booking.availability', q]), { lanes: [{ id: q.laneId, slots: [] }] }),
      start: async (d) => (calls.push(['booking.start', d]), { opened: true, url: '/book' }),
    },
    forms: { submit: async (form, fields) => (calls.push(['forms.submit', form, fields]), { ok: true }) },
    sms: { open: async (message) => (calls.push(['sms.open', message]), { opened: true }) },
    waivers: { start: async (waiver) => (calls.push(['waivers.start', waiver]), { opened: true, url: `/waivers/${waiver}` }) },
    analytics: { track: async (event, properties) => (calls.push(['analytics.track', event, properties]), { tracked: true }) },
  };
  for (const [area, methods] of Object.entries(overrides)) adapters[area] = { ...adapters[area], ...methods };
  return adapters;
}

/**
 * Host and runtime wired as in the browser: the host posts the init message to the
 * frame's window (delivered asynchronously, structured-cloned, from window.parent and the
 * host origin), then everything goes over a real MessageChannel.
 */
function setup(t, options = {}) {
  const hostWindow = { name: 'host page' };
  const frameWin = fakeFrameWindow(hostWindow, options.timers);
  const state = {
    grants: options.grants ?? [...CAPABILITY_KEYS],
    failing: options.failing ?? [],
    consent: options.consent ?? true,
    settings: options.settings ?? { title: 'Hello', count: 3, on: true },
  };
  const log = [];
  const cartEvents = [];
  const targetOrigins = [];
  let hostPort = null;
  const adapters = options.adapters ?? makeAdapters();
  const frame = {
    contentWindow: {
      postMessage(data, targetOrigin, transfer) {
        targetOrigins.push(targetOrigin);
        const clone = structuredClone(data);
        setImmediate(() => frameWin.deliver({ source: hostWindow, origin: HOST_ORIGIN, data: clone, ports: transfer }));
      },
    },
  };
  const host = createHostBridge({
    frame,
    frameOrigin: 'null',
    manifest: { capabilities: options.declared ?? [...CAPABILITY_KEYS], properties: {} },
    grants: () => state.grants,
    settings: () => state.settings,
    adapters,
    failing: () => state.failing,
    consent: () => state.consent,
    onCall: (entry) => log.push(entry),
    dispatchCartUpdated: options.defaultCartEvent ? undefined : (detail) => cartEvents.push(detail),
    createChannel: () => {
      const channel = new MessageChannel();
      hostPort = channel.port1;
      return channel;
    },
  });
  const api = options.runtime === false ? null : installPlatform(frameWin, { ...CONFIG, ...options.config });
  if (options.start !== false) host.start();
  t.after(() => host.stop());
  return { api, host, frameWin, state, log, cartEvents, adapters, targetOrigins, hostPort: () => hostPort };
}

const calls = (log) => log.filter((e) => e.kind === 'call');
const rejectsWith = (promise, code) => assert.rejects(promise, (error) => error instanceof Error && error.code === code);

test('handshake: ready resolves to a deeply frozen {capabilities, settings}; PLATFORM is frozen and fixed', async (t) => {
  const declared = CAPABILITY_KEYS.filter((k) => k !== 'waivers.start');
  const ctx = setup(t, { declared, grants: ['waivers.start', 'site.theme.read', 'cart.manage', 'cart.manage'], settings: { title: 'Hi', count: 3, on: true, constructor: 'c' } });
  const ready = await ctx.api.ready;
  assert.deepEqual(ready.capabilities, ['cart.manage', 'site.theme.read'], 'granted and declared, once each, in table order');
  assert.deepEqual({ ...ready.settings }, { title: 'Hi', count: 3, on: true, constructor: 'c' });
  assert.ok(Object.isFrozen(ready) && Object.isFrozen(ready.capabilities) && Object.isFrozen(ready.settings));
  assert.deepEqual(ctx.api.capabilities(), ['cart.manage', 'site.theme.read']);
  assert.equal(ctx.api.settings().title, 'Hi');
  assert.equal(ctx.frameWin.PLATFORM, ctx.api);
  assert.throws(() => {
    ctx.frameWin.PLATFORM = {};
  }, TypeError);
  assert.ok(Object.isFrozen(ctx.api) && Object.isFrozen(ctx.api.cart) && Object.isFrozen(ctx.api.analytics));
  assert.throws(() => {
    ctx.api.cart.manage = () => 0;
  }, TypeError);
  assert.deepEqual(ctx.targetOrigins, ['*'], 'the sandboxed frame is targeted with "*"');
  assert.equal(ctx.frameWin.listenerCount(), 0, 'the window listener is gone once the port is accepted');
});

test('handshake: accepted only from window.parent, the injected origin, the exact init message and one port', async (t) => {
  const parent = { name: 'parent' };
  const frameWin = fakeFrameWindow(parent);
  const api = installPlatform(frameWin, CONFIG);
  const opened = [];
  /** A port whose other end has already queued a ready state naming `capabilities`. */
  const portWithReady = (capabilities) => {
    const channel = new MessageChannel();
    opened.push(channel.port1, channel.port2);
    channel.port1.postMessage({ type: MESSAGE_TYPES.ready, protocol: 1, capabilities, settings: {} });
    return channel.port2;
  };
  t.after(() => opened.forEach((p) => p.close()));
  const init = { type: MESSAGE_TYPES.init, protocol: 1 };
  const bad = ['waivers.start'];
  const rows = [
    ['another window as source', { source: { name: 'other' }, origin: HOST_ORIGIN, data: init, ports: [portWithReady(bad)] }],
    ['the frame itself as source', { source: frameWin, origin: HOST_ORIGIN, data: init, ports: [portWithReady(bad)] }],
    ['another origin', { source: parent, origin: 'http://evil.example', data: init, ports: [portWithReady(bad)] }],
    ['the opaque origin', { source: parent, origin: 'null', data: init, ports: [portWithReady(bad)] }],
    ['the origin with a trailing slash', { source: parent, origin: `${HOST_ORIGIN}/`, data: init, ports: [portWithReady(bad)] }],
    ['an extra key', { source: parent, origin: HOST_ORIGIN, data: { ...init, extra: 1 }, ports: [portWithReady(bad)] }],
    ['protocol 2', { source: parent, origin: HOST_ORIGIN, data: { ...init, protocol: 2 }, ports: [portWithReady(bad)] }],
    ['another type', { source: parent, origin: HOST_ORIGIN, data: { ...init, type: 'platform.ready' }, ports: [portWithReady(bad)] }],
    ['the message as JSON text', { source: parent, origin: HOST_ORIGIN, data: JSON.stringify(init), ports: [portWithReady(bad)] }],
    ['no port', { source: parent, origin: HOST_ORIGIN, data: init, ports: [] }],
    ['two ports', { source: parent, origin: HOST_ORIGIN, data: init, ports: [portWithReady(bad), portWithReady(bad)] }],
    ['ports missing', { source: parent, origin: HOST_ORIGIN, data: init }],
    ['a null event', null],
  ];
  for (const [, event] of rows) frameWin.deliver(event);
  assert.equal(frameWin.listenerCount(), 1, 'still listening after every refused message');
  frameWin.deliver({ source: parent, origin: HOST_ORIGIN, data: init, ports: [portWithReady(['site.theme.read'])] });
  frameWin.deliver({ source: parent, origin: HOST_ORIGIN, data: init, ports: [portWithReady(['cart.manage'])] });
  const ready = await api.ready;
  assert.deepEqual(ready.capabilities, ['site.theme.read'], 'only the valid handshake was accepted, and only the first');
});

test('a full round trip: the named methods reach the adapters with normalized payloads', async (t) => {
  const ctx = setup(t);
  await ctx.api.ready;
  const a = ctx.api;
  assert.deepEqual(await a.theme.read(), THEME);
  assert.deepEqual(await a.catalog.products(), { products: [], total: 0, page: 1, lastPage: 1 });
  assert.deepEqual(await a.cart.manage('add', { productId: 3 }), { ok: true, itemCount: 1, total: '$1.00' });
  assert.deepEqual(await a.forms.submit('newsletter', { email: 'a@b.example' }), { ok: true });
  assert.deepEqual(await a.waivers.start(), { opened: true, url: '/waivers/range' });
  assert.deepEqual(await a.waivers.start('class'), { opened: true, url: '/waivers/class' });
  assert.deepEqual(await a.booking.availability({ laneId: 2, date: '2024-05-01', durationMinutes: 60 }), { lanes: [{ id: 2, slots: [] }] });
  assert.deepEqual(await a.booking.start({ laneId: 2 }), { opened: true, url: '/book' });
  assert.deepEqual(await a.communications.text('hi'), { opened: true });
  assert.deepEqual(await a.communications.text(), { opened: true });
  assert.deepEqual(await a.analytics.track('view', { label: 'home' }), { tracked: true });
  assert.deepEqual(await a.request('catalog.products.read', 'list', { limit: 24 }), { products: [], total: 0, page: 1, lastPage: 1 });
  assert.deepEqual(ctx.adapters.calls, [
    ['theme.read'],
    ['catalog.list', { page: 1, limit: 12, includeOutOfStock: true }],
    ['cart.add', { productId: 3, quantity: 1 }],
    ['forms.submit', 'newsletter', { email: 'a@b.example' }],
    ['waivers.start', 'range'],
    ['waivers.start', 'class'],
    ['booking.availability', { laneId: 2, date: '2024-05-01', durationMinutes: 60 }],
    ['booking.start', { laneId: 2 }],
    ['sms.open', 'hi'],
    ['sms.open', undefined],
    ['analytics.track', 'view', { label: 'home' }],
    ['catalog.list', { page: 1, limit: 24, includeOutOfStock: true }],
  ]);
  const entries = calls(ctx.log);
  assert.equal(entries.length, 12);
  assert.ok(entries.every((e) => e.ok === true && typeof e.durationMs === 'number' && e.durationMs >= 0));
  assert.deepEqual(entries[2], { ...entries[2], capability: 'cart.manage', action: 'add', payload: { productId: 3 }, result: { ok: true, itemCount: 1, total: '$1.00' } }, 'the log shows the copy as sent');
});

test('the frame sends the copy made at call time: later changes and getters cannot reach the host', async (t) => {
  const ctx = setup(t);
  await ctx.api.ready;
  const details = { productId: 5 };
  const pending = ctx.api.cart.manage('add', details);
  details.productId = 6;
  await pending;
  let reads = 0;
  await ctx.api.cart.manage('add', {
    get productId() {
      return ++reads === 1 ? 7 : -1;
    },
  });
  assert.deepEqual(ctx.adapters.calls.map((c) => c[1].productId), [5, 7]);
  assert.equal(reads, 1);
});

test('frame-side checks reject before sending, with the D-23 codes', async (t) => {
  const ctx = setup(t, { grants: ['site.theme.read', 'cart.manage'] });
  await ctx.api.ready;
  let deep = 0;
  for (let i = 0; i < PAYLOAD_MAX_DEPTH; i++) deep = [deep];
  await rejectsWith(ctx.api.request('nope.nope', 'x', { deep }), 'PAYLOAD_TOO_COMPLEX');
  await rejectsWith(ctx.api.request('site.theme.read', 'read', { f() {} }), 'INVALID_PAYLOAD');
  await rejectsWith(ctx.api.request('site.theme.read', 'read', { big: 'x'.repeat(70_000) }), 'PAYLOAD_TOO_LARGE');
  await rejectsWith(ctx.api.request('nope.nope', 'read', {}), 'CAPABILITY_NOT_GRANTED');
  await rejectsWith(ctx.api.waivers.start(), 'CAPABILITY_NOT_GRANTED');
  await rejectsWith(ctx.api.request('site.theme.read', 'write', {}), 'INVALID_REQUEST');
  await rejectsWith(ctx.api.cart.manage('add', { productId: 1, quantity: 1000 }), 'INVALID_REQUEST');
  assert.equal(calls(ctx.log).length, 0, 'nothing reached the host');
});

test('the host checks again: raw messages on its port get the same codes (unknown capability and action included)', async (t) => {
  const ctx = setup(t, { grants: ['site.theme.read'], start: false, runtime: false });
  const probe = createProbe(ctx);
  t.after(() => probe.host.stop());
  const rows = [
    [101, 'nope.nope', 'read', {}, 'CAPABILITY_NOT_GRANTED'],
    [102, 'cart.manage', 'add', { productId: 1 }, 'CAPABILITY_NOT_GRANTED'],
    [103, 'site.theme.read', 'write', {}, 'INVALID_REQUEST'],
    [104, 'site.theme.read', 'read', { extra: 1 }, 'INVALID_REQUEST'],
    [105, 'site.theme.read', 'read', { d: new Date(0) }, 'INVALID_PAYLOAD'],
    [106, 7, 'read', {}, 'CAPABILITY_NOT_GRANTED'],
    [107, 'site.theme.read', 'read', JSON.parse('{"__proto__": 1}'), 'INVALID_PAYLOAD'],
    [108, 'site.theme.read', 'read', {}, 'ok'],
  ];
  for (const [id, capability, action, payload] of rows) probe.post({ type: MESSAGE_TYPES.request, id, capability, action, payload });
  const got = await probe.answers(rows.length);
  assert.deepEqual(got.map((r) => [r.id, r.ok ? 'ok' : r.error.code]).sort((x, y) => x[0] - y[0]), rows.map((r) => [r[0], r[4]]));
});

/** A second host on a fresh channel whose frame side the test holds: raw messages to a host. */
function createProbe(ctx) {
  let framePort = null;
  const host = createHostBridge({
    frame: { contentWindow: { postMessage: (_data, _origin, transfer) => (framePort = transfer[0]) } },
    frameOrigin: 'null',
    manifest: { capabilities: [...CAPABILITY_KEYS] },
    grants: () => ctx.state.grants,
    settings: () => ({}),
    adapters: ctx.adapters,
    failing: () => ctx.state.failing,
    consent: () => ctx.state.consent,
    onCall: (entry) => ctx.log.push(entry),
    dispatchCartUpdated: (d) => ctx.cartEvents.push(d),
  });
  host.start();
  const received = [];
  let wake = null;
  framePort.addEventListener('message', (event) => {
    if (isResponseMessage(event.data)) received.push(event.data);
    wake?.();
  });
  framePort.start();
  return {
    host,
    post: (message) => framePort.postMessage(message),
    answers(count) {
      return new Promise((resolve) => {
        const check = () => {
          if (received.length >= count) {
            host.stop();
            resolve(received);
          }
        };
        wake = check;
        check();
      });
    },
  };
}

test('calls made before the handshake wait for it', async (t) => {
  const ctx = setup(t, { start: false });
  const early = ctx.api.theme.read();
  const refused = ctx.api.waivers.start('party'); // structure passes now; fields are checked once ready
  const refusedChecked = rejectsWith(refused, 'INVALID_REQUEST');
  ctx.host.start();
  assert.deepEqual(await early, THEME);
  await refusedChecked;
});

test(`TOO_MANY_REQUESTS at the ${MAX_PENDING_CALLS + 1}th pending call; the ${MAX_PENDING_CALLS}th is accepted`, async (t) => {
  const adapters = makeAdapters({ catalog: { list: () => new Promise(() => {}) } });
  const ctx = setup(t, { adapters, config: { requestTimeoutMs: 200 } });
  await ctx.api.ready;
  const pending = [];
  for (let i = 0; i < MAX_PENDING_CALLS; i++) pending.push(ctx.api.catalog.products({ page: 1 + i }));
  await rejectsWith(ctx.api.catalog.products(), 'TOO_MANY_REQUESTS');
  await rejectsWith(ctx.api.theme.read(), 'TOO_MANY_REQUESTS');
  const outcomes = await Promise.allSettled(pending);
  assert.ok(outcomes.every((o) => o.status === 'rejected' && o.reason.code === 'REQUEST_TIMEOUT'), `all ${MAX_PENDING_CALLS} were sent and timed out`);
  assert.deepEqual(await ctx.api.theme.read(), THEME, 'settled calls free their places');
});

test('REQUEST_TIMEOUT with a shortened timeout; a late answer is ignored', async (t) => {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  const adapters = makeAdapters({ booking: { availability: () => held } });
  const ctx = setup(t, { adapters, config: { requestTimeoutMs: 30 } });
  await ctx.api.ready;
  await rejectsWith(ctx.api.booking.availability({ laneId: 1, date: '2024-05-01', durationMinutes: 30 }), 'REQUEST_TIMEOUT');
  release({ late: true });
  await held;
  assert.deepEqual(await ctx.api.theme.read(), THEME, 'the late answer changed nothing');
  assert.equal(calls(ctx.log)[0].ok, true, 'the host did answer, late');
});

test('INITIALIZATION_TIMEOUT: ready, queued and later calls reject; a late handshake is ignored', async (t) => {
  const ctx = setup(t, { start: false, config: { initializationTimeoutMs: 20 } });
  const queued = ctx.api.theme.read();
  await rejectsWith(ctx.api.ready, 'INITIALIZATION_TIMEOUT');
  await rejectsWith(queued, 'INITIALIZATION_TIMEOUT');
  await rejectsWith(ctx.api.theme.read(), 'INITIALIZATION_TIMEOUT');
  assert.equal(ctx.frameWin.listenerCount(), 0);
  ctx.host.start();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(ctx.api.capabilities(), [], 'still nothing granted');
});

test(`the default timeouts are ${INITIALIZATION_TIMEOUT_MS} and ${REQUEST_TIMEOUT_MS} ms (limits.ts); config may only shorten them`, async (t) => {
  const timers = manualTimers();
  const parent = {};
  const frameWin = fakeFrameWindow(parent, timers);
  const api = installPlatform(frameWin, CONFIG);
  assert.deepEqual(timers.delays, [INITIALIZATION_TIMEOUT_MS]);
  const channel = new MessageChannel();
  t.after(() => channel.port1.close());
  channel.port1.addEventListener('message', (event) => {
    const { id } = event.data;
    channel.port1.postMessage({ type: MESSAGE_TYPES.response, id, ok: true, result: 'done' });
  });
  channel.port1.start();
  channel.port1.postMessage({ type: MESSAGE_TYPES.ready, protocol: 1, capabilities: ['site.theme.read'], settings: {} });
  frameWin.deliver({ source: parent, origin: HOST_ORIGIN, data: { type: MESSAGE_TYPES.init, protocol: 1 }, ports: [channel.port2] });
  await api.ready;
  assert.equal(await api.theme.read(), 'done');
  assert.deepEqual(timers.delays, [INITIALIZATION_TIMEOUT_MS, REQUEST_TIMEOUT_MS]);
  const rows = [
    [{ ...CONFIG, initializationTimeoutMs: INITIALIZATION_TIMEOUT_MS }, true],
    [{ ...CONFIG, initializationTimeoutMs: INITIALIZATION_TIMEOUT_MS + 1 }, false],
    [{ ...CONFIG, requestTimeoutMs: REQUEST_TIMEOUT_MS }, true],
    [{ ...CONFIG, requestTimeoutMs: REQUEST_TIMEOUT_MS + 1 }, false],
    [{ ...CONFIG, requestTimeoutMs: 1 }, true],
    [{ ...CONFIG, requestTimeoutMs: 0 }, false],
    [{ ...CONFIG, requestTimeoutMs: 1.5 }, false],
    [{ ...CONFIG, extra: 1 }, false],
    [{ ...CONFIG, protocol: 2 }, false],
    [{ ...CONFIG, parentOrigin: `${HOST_ORIGIN}/path` }, false],
    [{ ...CONFIG, baseUrl: `${HOST_ORIGIN}/frame` }, false],
    [{ parentOrigin: HOST_ORIGIN, baseUrl: CONFIG.baseUrl }, false],
  ];
  for (const [config, ok] of rows) assert.equal(parsePlatformConfig(JSON.stringify(config)) !== null, ok, JSON.stringify(config));
  assert.equal(parsePlatformConfig('{'), null);
  assert.equal(parsePlatformConfig(null), null);
});

test('REQUEST_TIMEOUT: one timer for all calls, each call times out at its own deadline (call time + timeout)', async () => {
  const timers = manualTimers();
  let clock = 1000;
  const frameWin = { ...fakeFrameWindow({}, timers), performance: { now: () => clock } };
  const api = installPlatform(frameWin, { ...CONFIG, requestTimeoutMs: 100 });
  assert.deepEqual(timers.delays, [INITIALIZATION_TIMEOUT_MS]);
  // No handshake: both calls wait for it, and their time runs from the call.
  const first = api.theme.read();
  const firstSettled = first.then(() => 'resolved', (error) => error.code);
  assert.deepEqual(timers.delays, [INITIALIZATION_TIMEOUT_MS, 100], 'the first call arms the timer for its deadline');
  clock = 1030;
  const second = api.theme.read();
  const secondSettled = second.then(() => 'resolved', (error) => error.code);
  assert.deepEqual(timers.delays, [INITIALIZATION_TIMEOUT_MS, 100], 'a later call sets no timer of its own');
  clock = 1100;
  timers.fire(1);
  assert.equal(await firstSettled, 'REQUEST_TIMEOUT');
  assert.deepEqual(timers.delays, [INITIALIZATION_TIMEOUT_MS, 100, 30], 're-armed for the second call: 1030 + 100 - 1100');
  let secondDone = false;
  void secondSettled.then(() => (secondDone = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(secondDone, false, 'the second call has 30 ms left');
  clock = 1130;
  timers.fire(2);
  assert.equal(await secondSettled, 'REQUEST_TIMEOUT');
  assert.equal(timers.delays.length, 3, 'nothing pending: no timer armed');
  // A timer that fires early (clocks differ) times nothing out and waits for the rest.
  clock = 2000;
  const third = api.theme.read().then(() => 'resolved', (error) => error.code);
  assert.deepEqual(timers.delays.slice(3), [100]);
  clock = 2099;
  timers.fire(3);
  assert.deepEqual(timers.delays.slice(3), [100, 1], 'still pending, re-armed for the last millisecond');
  clock = 2100;
  timers.fire(4);
  assert.equal(await third, 'REQUEST_TIMEOUT');
});

test('the injected config: read from the first platform-config meta; without it the handshake can only time out', async () => {
  const asked = [];
  const doc = (content) => ({ querySelector: (selector) => (asked.push(selector), content === null ? null : { getAttribute: (name) => (name === 'content' ? content : null) }) });
  assert.deepEqual(readInjectedConfig(doc(JSON.stringify(CONFIG))), CONFIG);
  assert.equal(asked[0], 'meta[name="platform-config"]');
  assert.equal(readInjectedConfig(doc(null)), null);
  assert.equal(readInjectedConfig(doc('not json')), null);
  assert.equal(readInjectedConfig({ querySelector: () => { throw new Error('x'); } }), null);
  const timers = manualTimers();
  const parent = {};
  const frameWin = fakeFrameWindow(parent, timers);
  const api = installPlatform(frameWin, null);
  assert.deepEqual(timers.delays, [INITIALIZATION_TIMEOUT_MS], 'a missing config keeps the default');
  const channel = new MessageChannel();
  frameWin.deliver({ source: parent, origin: HOST_ORIGIN, data: { type: MESSAGE_TYPES.init, protocol: 1 }, ports: [channel.port2] });
  assert.equal(frameWin.listenerCount(), 1, 'no origin can match a missing config');
  timers.fire(0);
  await rejectsWith(api.ready, 'INITIALIZATION_TIMEOUT');
  channel.port1.close();
});

test('revocation applies to the next call (host side at once, frame side after pushGrants); settings updates too', async (t) => {
  const ctx = setup(t, { grants: ['cart.manage', 'site.theme.read'] });
  await ctx.api.ready;
  assert.equal((await ctx.api.cart.manage('add', { productId: 1 })).ok, true);
  ctx.state.grants = ['site.theme.read'];
  await rejectsWith(ctx.api.cart.manage('add', { productId: 1 }), 'CAPABILITY_NOT_GRANTED');
  assert.equal(calls(ctx.log).at(-1).code, 'CAPABILITY_NOT_GRANTED', 'refused by the host, which read the grants at arrival');
  ctx.host.pushGrants();
  await ctx.api.theme.read(); // the grants message is ahead of this answer on the port
  assert.deepEqual(ctx.api.capabilities(), ['site.theme.read']);
  const before = calls(ctx.log).length;
  await rejectsWith(ctx.api.cart.manage('add', { productId: 1 }), 'CAPABILITY_NOT_GRANTED');
  assert.equal(calls(ctx.log).length, before, 'now refused in the frame, before sending');
  ctx.state.grants = ['site.theme.read', 'cart.manage'];
  ctx.host.pushGrants();
  await ctx.api.theme.read();
  assert.equal((await ctx.api.cart.manage('add', { productId: 1 })).ok, true, 'granted again');
  const ready = await ctx.api.ready;
  ctx.state.settings = { title: 'Changed' };
  ctx.host.pushSettings();
  await ctx.api.theme.read();
  assert.deepEqual({ ...ctx.api.settings() }, { title: 'Changed' });
  assert.ok(Object.isFrozen(ctx.api.settings()));
  assert.equal(ready.settings.title, 'Hello', 'the ready snapshot does not change');
});

test('--fail: a failing capability rejects with REQUEST_FAILED without calling the adapter; validation comes first', async (t) => {
  const ctx = setup(t, { failing: ['site.theme.read'] });
  await ctx.api.ready;
  await rejectsWith(ctx.api.theme.read(), 'REQUEST_FAILED');
  await rejectsWith(ctx.api.request('site.theme.read', 'read', { x: 1 }), 'INVALID_REQUEST');
  assert.deepEqual(ctx.adapters.calls, []);
  assert.deepEqual(await ctx.api.waivers.start(), { opened: true, url: '/waivers/range' }, 'other capabilities work');
});

test('ADAPTER_UNAVAILABLE passes through; every other adapter failure is REQUEST_FAILED without internals', async (t) => {
  const secret = 'password=hunter2 at /srv/store/secret.js:12';
  const adapters = makeAdapters({
    sms: { open: async () => { throw new AdapterUnavailable(); } },
    waivers: { start: async () => { throw { code: 'ADAPTER_UNAVAILABLE' }; } },
    booking: {
      start: async () => { throw new Error(secret); },
      availability: () => { throw new TypeError(secret); },
    },
    forms: { submit: async () => { const e = new Error(secret); e.code = 'REQUEST_TIMEOUT'; throw e; } },
    catalog: { list: async () => ({ fn() {} }) },
    theme: { read: () => Promise.reject(secret) },
  });
  const ctx = setup(t, { adapters });
  await ctx.api.ready;
  await rejectsWith(ctx.api.communications.text('hi'), 'ADAPTER_UNAVAILABLE');
  await rejectsWith(ctx.api.waivers.start(), 'ADAPTER_UNAVAILABLE', 'recognized by code, from any bundle');
  const failures = [
    ctx.api.booking.start({}),
    ctx.api.booking.availability({ laneId: 1, date: '2024-05-01', durationMinutes: 30 }),
    ctx.api.forms.submit('newsletter', { email: 'e' }),
    ctx.api.catalog.products(),
    ctx.api.theme.read(),
  ];
  for (const outcome of await Promise.allSettled(failures)) {
    assert.equal(outcome.status, 'rejected');
    assert.equal(outcome.reason.code, 'REQUEST_FAILED');
    assert.doesNotMatch(outcome.reason.message, /hunter2|srv|secret|TypeError/);
  }
  assert.ok(calls(ctx.log).every((e) => !JSON.stringify(e).includes('hunter2')), 'the log carries no adapter text either');
});

test('message guards: the structured-clone path (port data) gives the same answers as the general one on every clone', () => {
  const request = { type: MESSAGE_TYPES.request, id: 1, capability: 'site.theme.read', action: 'read', payload: {} };
  const result = { type: MESSAGE_TYPES.response, id: 1, ok: true, result: { a: 1 } };
  const failure = { type: MESSAGE_TYPES.response, id: 1, ok: false, error: { code: 'REQUEST_FAILED', message: 'm' } };
  const without = (object, key) => Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));
  const rows = [
    // [guard, message, accepted]
    [isRequestMessage, request, true],
    [isRequestMessage, { ...request, payload: undefined }, true],
    [isRequestMessage, without(request, 'payload'), false],
    [isRequestMessage, { ...request, extra: 1 }, false],
    [isRequestMessage, { ...without(request, 'payload'), extra: 1 }, false],
    [isRequestMessage, { ...request, id: 0 }, false],
    [isRequestMessage, { ...request, type: MESSAGE_TYPES.response }, false],
    [isRequestMessage, [request], false],
    [isRequestMessage, null, false],
    [isResponseMessage, result, true],
    [isResponseMessage, { ...result, error: failure.error }, false],
    [isResponseMessage, without(result, 'result'), false],
    [isResponseMessage, failure, true],
    [isResponseMessage, { ...failure, error: { ...failure.error, stack: 's' } }, false],
    [isResponseMessage, { ...failure, error: without(failure.error, 'message') }, false],
    [isResponseMessage, { ...failure, error: { code: 'NOT_A_CODE', message: 'm' } }, false],
    [isResponseMessage, { ...failure, ok: 'false' }, false],
  ];
  for (const [guard, message, accepted] of rows) {
    const what = `${guard.name} ${JSON.stringify(message)}`;
    assert.equal(guard(message), accepted, what);
    assert.equal(guard(structuredClone(message), true), accepted, `cloned: ${what}`);
  }
  // What only a direct caller can hand over (never a clone): the general path refuses an accessor.
  const withGetter = { ...request };
  Object.defineProperty(withGetter, 'payload', { get: () => ({}), enumerable: true });
  assert.equal(isRequestMessage(withGetter), false);
  assert.equal(isRequestMessage(structuredClone(withGetter), true), true, 'a clone holds the value the getter gave');
});

test('adapters may answer at once, with a promise, or with any thenable; cart events follow each kind', async (t) => {
  const thenable = (value) => ({ then: (resolve) => setImmediate(() => resolve(value)) });
  const adapters = makeAdapters({
    theme: { read: () => THEME },
    catalog: { list: (query) => thenable({ products: [], total: 0, page: query.page, lastPage: 1 }) },
    cart: {
      add: () => ({ ok: true, itemCount: 3, total: '$3.00' }),
      remove: () => thenable({ ok: true, itemCount: 2, total: '$2.00' }),
      update: async () => ({ ok: true, itemCount: 7, total: '$7.00' }),
    },
  });
  const ctx = setup(t, { adapters });
  await ctx.api.ready;
  assert.deepEqual(await ctx.api.theme.read(), THEME);
  assert.deepEqual(await ctx.api.catalog.products({ page: 2 }), { products: [], total: 0, page: 2, lastPage: 1 });
  assert.deepEqual(await ctx.api.cart.manage('add', { productId: 1 }), { ok: true, itemCount: 3, total: '$3.00' });
  assert.deepEqual(await ctx.api.cart.manage('remove', { productId: 1 }), { ok: true, itemCount: 2, total: '$2.00' });
  assert.deepEqual(await ctx.api.cart.manage('update', { productId: 1, quantity: 7 }), { ok: true, itemCount: 7, total: '$7.00' });
  assert.deepEqual(ctx.cartEvents, [
    { itemCount: 3, total: '$3.00' },
    { itemCount: 2, total: '$2.00' },
    { itemCount: 7, total: '$7.00' },
  ]);
  assert.deepEqual(
    calls(ctx.log).map((e) => [e.capability, e.action, e.ok]),
    [
      ['site.theme.read', 'read', true],
      ['catalog.products.read', 'list', true],
      ['cart.manage', 'add', true],
      ['cart.manage', 'remove', true],
      ['cart.manage', 'update', true],
    ],
  );
});

test(`cart operations dispatch "${CART_UPDATED_EVENT}" with {itemCount, total}`, async (t) => {
  const ctx = setup(t);
  await ctx.api.ready;
  await ctx.api.cart.manage('add', { productId: 1, quantity: 2 });
  await ctx.api.cart.manage('update', { productId: 1, quantity: 5 }); // the mock answers ok: false
  await ctx.api.cart.manage('remove', { productId: 1 });
  assert.deepEqual(ctx.cartEvents, [
    { itemCount: 2, total: '$2.00' },
    { itemCount: 1, total: '$1.00' },
  ]);
  await ctx.api.theme.read();
  assert.equal(ctx.cartEvents.length, 2, 'other capabilities dispatch nothing');
});

test('the default cart-updated dispatch is a CustomEvent on the page window', async (t) => {
  const seen = [];
  globalThis.dispatchEvent = (event) => (seen.push(event), true);
  t.after(() => delete globalThis.dispatchEvent);
  const ctx = setup(t, { defaultCartEvent: true });
  await ctx.api.ready;
  await ctx.api.cart.manage('add', { productId: 9 });
  assert.equal(seen.length, 1);
  assert.ok(seen[0] instanceof CustomEvent);
  assert.equal(seen[0].type, CART_UPDATED_EVENT);
  assert.deepEqual(seen[0].detail, { itemCount: 1, total: '$1.00' });
});

test('analytics: without consent the answer is {tracked: false} and nothing is recorded', async (t) => {
  const ctx = setup(t, { consent: false });
  await ctx.api.ready;
  assert.deepEqual(await ctx.api.analytics.track('view', { label: 'home', value: 2 }), { tracked: false });
  assert.deepEqual(ctx.adapters.calls, []);
  ctx.state.consent = true;
  assert.deepEqual(await ctx.api.analytics.track('view', { label: 'home', value: 2 }), { tracked: true });
  assert.deepEqual(ctx.adapters.calls, [['analytics.track', 'view', { label: 'home', value: 2 }]]);
});

test('the frame ignores malformed messages on its port and keeps working', async (t) => {
  const ctx = setup(t, { grants: ['site.theme.read'] });
  await ctx.api.ready;
  const port = ctx.hostPort();
  const junk = [
    null,
    'text',
    { type: MESSAGE_TYPES.response, id: 1, ok: true }, // no result
    { type: MESSAGE_TYPES.response, id: 999, ok: true, result: 1 }, // unknown id
    { type: MESSAGE_TYPES.response, id: 1, ok: false, error: { code: 'NOPE', message: 'x' } },
    { type: MESSAGE_TYPES.ready, protocol: 1, capabilities: ['cart.manage'], settings: {} }, // a second ready
    { type: MESSAGE_TYPES.grants, capabilities: ['made.up'] },
    { type: MESSAGE_TYPES.grants, capabilities: ['site.theme.read', 'site.theme.read'] },
    { type: MESSAGE_TYPES.settings, settings: { 'Bad Key': 1 } },
    { type: MESSAGE_TYPES.settings, settings: { ok: {} } },
  ];
  for (const message of junk) port.postMessage(message);
  assert.deepEqual(await ctx.api.theme.read(), THEME);
  assert.deepEqual(ctx.api.capabilities(), ['site.theme.read']);
  assert.equal(ctx.api.settings().title, 'Hello');
});

// ---------------------------------------------------------------------------------
// Hostile input at the host.
// ---------------------------------------------------------------------------------

function randomJunk(rng, depth = 0) {
  const pieces = [
    () => null,
    () => Math.floor(rng() * 1e6) - 5e5,
    () => rng() < 0.5 ? NaN : -Infinity,
    () => 'platform.request',
    () => '\ud800' + 'x'.repeat(Math.floor(rng() * 20)),
    () => true,
    () => undefined,
    () => 10n,
    () => new Date(0),
    () => new Map([[1, 2]]),
    () => new Set([1]),
    () => /re/g,
    () => new Uint8Array(4),
    () => new Error('e'),
    () => Array.from({ length: Math.floor(rng() * 600) }, () => 0),
    () => (depth < 20 ? [randomJunk(rng, depth + 1)] : 0),
    () => (depth < 20 ? { a: randomJunk(rng, depth + 1), __proto__x: 1 } : {}),
    () => {
      const o = { type: 'platform.request' };
      o.self = o;
      return o;
    },
    () => JSON.parse('{"__proto__": {"x": 1}}'),
  ];
  return pick(rng, pieces)();
}

/** A message that is not a valid request envelope, or (wellFormed) an envelope with junk inside. */
function hostileMessage(rng, id) {
  const kind = Math.floor(rng() * 6);
  const valid = { type: MESSAGE_TYPES.request, id, capability: pick(rng, [...CAPABILITY_KEYS, 'x.y']), action: pick(rng, ['read', 'add', 'list', 'x']), payload: {} };
  switch (kind) {
    case 0:
      return { wellFormed: false, data: randomJunk(rng) };
    case 1: {
      const data = { ...valid };
      delete data[pick(rng, Object.keys(valid))];
      return { wellFormed: false, data };
    }
    case 2:
      return { wellFormed: false, data: { ...valid, extra: randomJunk(rng) } };
    case 3:
      return { wellFormed: false, data: { ...valid, id: pick(rng, [0, -1, 1.5, '7', NaN, 2 ** 53, null]) } };
    case 4:
      return { wellFormed: false, data: { ...valid, type: pick(rng, ['platform.response', 'PLATFORM.REQUEST', '', 5]) } };
    default:
      return { wellFormed: true, data: { ...valid, capability: rng() < 0.3 ? randomJunk(rng) : valid.capability, action: rng() < 0.3 ? randomJunk(rng) : valid.action, payload: randomJunk(rng) } };
  }
}

test('10,000 random malformed messages at the host: dropped or refused, never fatal; a correct call succeeds after', async (t) => {
  const ctx = setup(t, { start: false, runtime: false });
  const probe = createProbe(ctx);
  t.after(() => probe.host.stop());
  const rng = prng(0x5eed);
  let wellFormed = 0;
  let malformed = 0;
  for (let i = 0; i < 10_000; i++) {
    const { wellFormed: shaped, data } = hostileMessage(rng, 1000 + i);
    if (shaped) wellFormed++;
    else malformed++;
    probe.post(data);
  }
  probe.post({ type: MESSAGE_TYPES.request, id: 1, capability: 'site.theme.read', action: 'read', payload: {} });
  const answers = await probe.answers(wellFormed + 1);
  const last = answers.find((a) => a.id === 1);
  assert.deepEqual(last, { type: MESSAGE_TYPES.response, id: 1, ok: true, result: THEME }, 'the correct call succeeds afterwards');
  assert.equal(probe.host.dropped, malformed, 'every malformed envelope was dropped and counted');
  assert.equal(ctx.log.filter((e) => e.kind === 'dropped').length, malformed);
  assert.ok(answers.every((a) => a.ok === true || BRIDGE_ERROR_CODE_LIST.includes(a.error.code)), 'every answer is a response with a contract code');
  assert.ok(malformed > 5000 && wellFormed > 1000, `both kinds were sent (${malformed}/${wellFormed})`);
});

// ---------------------------------------------------------------------------------
// The browser bundles.
// ---------------------------------------------------------------------------------

test('the built bundles: runtime.js boots from the injected meta in a browser-like global; host.js is an ES module', async (t) => {
  const { runtime, host } = await buildBridge(root);
  assert.doesNotMatch(runtime, /^\s*(import|export)\s/m, 'the runtime is a plain script');
  assert.ok(!runtime.includes('Bridge protocol, version'), 'the protocol document is not shipped to the frame');
  const hostModule = await import(`data:text/javascript;base64,${Buffer.from(host).toString('base64')}`);
  assert.equal(typeof hostModule.createHostBridge, 'function');
  assert.equal(hostModule.CART_UPDATED_EVENT, CART_UPDATED_EVENT);

  const hostWindow = {};
  const frameWin = fakeFrameWindow(hostWindow);
  const document = {
    querySelector: (selector) => (selector === 'meta[name="platform-config"]' ? { getAttribute: () => JSON.stringify(CONFIG) } : null),
  };
  // The bundle reads the globals `window` and `document`: give it ours.
  new Function('window', 'document', runtime)(frameWin, document);
  const api = frameWin.PLATFORM;
  assert.equal(typeof api?.request, 'function');
  const bridge = hostModule.createHostBridge({
    frame: { contentWindow: { postMessage: (data, _o, transfer) => setImmediate(() => frameWin.deliver({ source: hostWindow, origin: HOST_ORIGIN, data: structuredClone(data), ports: transfer })) } },
    frameOrigin: 'null',
    manifest: { capabilities: ['site.theme.read', 'communications.sms.open'] },
    grants: () => ['site.theme.read', 'communications.sms.open'],
    settings: () => ({ title: 'T' }),
    adapters: makeAdapters({ sms: { open: async () => { throw new hostModule.AdapterUnavailable(); } } }),
    failing: () => [],
    consent: () => true,
  });
  t.after(() => bridge.stop());
  bridge.start();
  assert.deepEqual((await api.ready).capabilities, ['communications.sms.open', 'site.theme.read']);
  assert.deepEqual(await api.theme.read(), THEME);
  await rejectsWith(api.communications.text(), 'ADAPTER_UNAVAILABLE');
});

test('BRIDGE_PROTOCOL_DOC names every message type, error code, and the event', () => {
  for (const type of Object.values(MESSAGE_TYPES)) assert.ok(BRIDGE_PROTOCOL_DOC.includes(type), type);
  for (const code of BRIDGE_ERROR_CODE_LIST) assert.ok(BRIDGE_PROTOCOL_DOC.includes(`\`${code}\``), code);
  for (const key of CAPABILITY_KEYS) assert.ok(BRIDGE_PROTOCOL_DOC.includes(`### \`${key}\``), key);
  assert.ok(BRIDGE_PROTOCOL_DOC.includes(CART_UPDATED_EVENT));
  assert.ok(BRIDGE_PROTOCOL_DOC.includes('meta name="platform-config"'));
});
