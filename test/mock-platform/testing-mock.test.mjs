// platform-ext/testing (src/testing.ts, bundled as dist/testing.mjs): the mock host for
// publishers' unit tests. It must be the production bridge, not a look-alike: the same
// codes for the same calls as the browser tests (test/browser/browser-bridge.test.mjs) and the
// host's own check function, D-23's order with `fail` set, both sides of the message-size,
// depth and quantity limits, the pending-call limit and both timeouts. Also: the options
// (grants, deny, fail, data, manifest) and their errors (option paths, manifest pointers
// and rule ids), calls recorded, install/uninstall of window.PLATFORM, nothing left
// keeping Node alive, fake timers, a publisher-style test of the scaffold's
// runtime/main.js (the file `init` writes), and the declarations checked by tsc.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMockPlatform, installMockPlatform, MockPlatformError } from '../../dist/testing.mjs';
import { BRIDGE_ERROR_CODE_LIST } from '../../build/validator/bridge/errors.js';
import { MESSAGE_TYPES } from '../../build/validator/bridge/messages.js';
import { checkRequest } from '../../build/validator/bridge/requests.js';
import { CAPABILITY_KEYS } from '../../build/validator/capabilities.js';
import {
  CART_QUANTITY_MAX,
  INITIALIZATION_TIMEOUT_MS,
  MAX_PENDING_CALLS,
  MESSAGE_MAX_BYTES,
  PAYLOAD_MAX_DEPTH,
  REQUEST_TIMEOUT_MS,
} from '../../build/validator/limits.js';
import { DEFAULT_THEME, SAMPLE_PRODUCTS } from '../../build/preview/mock-store.js';
import { initScaffold } from '../support/scaffold.mjs';
import { outcome } from '../support/outcome.mjs';
import { scaffoldDocument } from '../fixtures/testing/tiny-dom.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsc = join(root, 'node_modules/.bin/tsc');

/** A valid manifest: five of the nine capabilities, two properties with defaults. */
const MANIFEST = Object.freeze({
  schema_version: 1,
  protocol_version: 1,
  namespace: 'acme/mock-test',
  version: '1.0.0',
  name: 'Mock test',
  entrypoint: 'index.html',
  capabilities: ['analytics.events.write', 'cart.manage', 'catalog.products.read', 'communications.sms.open', 'site.theme.read'],
  properties: {
    heading: { type: 'text', label: 'Heading', default: 'Hello', required: true },
    count: { type: 'number', label: 'Count', default: 4, min: 1, max: 12 },
  },
});

const FIRST_ID = SAMPLE_PRODUCTS[0].id;

/** A mock disposed after `t`. */
async function mockFor(t, options) {
  const mock = await createMockPlatform(options);
  t.after(() => mock.dispose());
  return mock;
}


/** The error a set-up throws (or rejects with). */
async function setupError(run) {
  try {
    await run();
  } catch (error) {
    return error;
  }
  assert.fail('expected the set-up to fail');
}

/** n levels: n - 1 arrays around a number (the root is depth 1: D-23), as in the browser tests. */
function nested(n) {
  let v = 0;
  for (let i = 1; i < n; i++) v = [v];
  return v;
}

/** The UTF-8 bytes of a request message as the runtime sends it. */
function messageBytes(id, capability, action, payload) {
  return Buffer.byteLength(JSON.stringify({ type: MESSAGE_TYPES.request, id, capability, action, payload }), 'utf8');
}

/** A payload `{pad}` whose whole message is exactly `target` bytes (the browser tests' sizedPayload). */
function sizedPayload(id, capability, action, target, unit) {
  const room = target - messageBytes(id, capability, action, { pad: '' });
  const unitBytes = Buffer.byteLength(unit, 'utf8');
  const payload = { pad: unit.repeat(Math.floor(room / unitBytes)) + 'x'.repeat(room % unitBytes) };
  assert.equal(messageBytes(id, capability, action, payload), target);
  return payload;
}

test('importable from dist/testing.mjs and through the package name (exports "./testing")', async () => {
  const byName = await import('platform-ext/testing');
  assert.equal(byName.createMockPlatform, createMockPlatform);
  assert.equal(byName.installMockPlatform, installMockPlatform);
  assert.equal(byName.MockPlatformError, MockPlatformError);
});

// ---------------------------------------------------------------------------------------
// Codes: the same as the browser's, decided by the same checks in the same order

/** Every code a row below (or a test after it) expects; the last test checks all ten appear. */
const CODES_SEEN = new Set();

// [what, options, call, code, sent to the host]. `sent: false` means the frame refused
// the call itself, as in the browser (its checks run before it sends).
const CODE_ROWS = [
  ['a capability the manifest does not declare', { manifest: MANIFEST }, (p) => p.forms.submit('newsletter', { email: 'a@b.example' }), 'CAPABILITY_NOT_GRANTED', false],
  ['declared but denied (preview --deny)', { manifest: MANIFEST, deny: ['cart.manage'] }, (p) => p.cart.manage('add', { productId: FIRST_ID }), 'CAPABILITY_NOT_GRANTED', false],
  ['not one of the nine keys', {}, (p) => p.request('cart.empty', 'add', {}), 'CAPABILITY_NOT_GRANTED', false],
  ['an action the capability does not have', {}, (p) => p.request('cart.manage', 'clear', { productId: FIRST_ID }), 'INVALID_REQUEST', false],
  ['an unknown field', {}, (p) => p.catalog.products({ limit: 12, sort: 'price' }), 'INVALID_REQUEST', false],
  [`quantity ${CART_QUANTITY_MAX}`, {}, (p) => p.cart.manage('add', { productId: FIRST_ID, quantity: CART_QUANTITY_MAX }), 'ok', true],
  [`quantity ${CART_QUANTITY_MAX + 1}`, {}, (p) => p.cart.manage('add', { productId: FIRST_ID, quantity: CART_QUANTITY_MAX + 1 }), 'INVALID_REQUEST', false],
  ['a function in the payload', {}, (p) => p.analytics.track('probe', { label: () => 1 }), 'INVALID_PAYLOAD', false],
  ['a Date in the payload', {}, (p) => p.analytics.track('probe', { label: new Date(0) }), 'INVALID_PAYLOAD', false],
  [`depth ${PAYLOAD_MAX_DEPTH}: passes the structure check, then the fields refuse it`, {}, (p) => p.request('analytics.events.write', 'track', nested(PAYLOAD_MAX_DEPTH)), 'INVALID_REQUEST', false],
  [`depth ${PAYLOAD_MAX_DEPTH + 1}`, {}, (p) => p.request('analytics.events.write', 'track', nested(PAYLOAD_MAX_DEPTH + 1)), 'PAYLOAD_TOO_COMPLEX', false],
  ['fail: true is REQUEST_FAILED, as preview --fail', { fail: { 'catalog.products.read': true } }, (p) => p.catalog.products(), 'REQUEST_FAILED', true],
  ['fail by method name, ADAPTER_UNAVAILABLE through the adapter', { fail: { 'PLATFORM.theme.read': 'ADAPTER_UNAVAILABLE' } }, (p) => p.theme.read(), 'ADAPTER_UNAVAILABLE', true],
  ['no text-message number (data.smsAvailable: false)', { data: { smsAvailable: false } }, (p) => p.communications.text('hi'), 'ADAPTER_UNAVAILABLE', true],
  ['fail REQUEST_TIMEOUT: the host never answers, the frame times out', { fail: { 'catalog.products': 'REQUEST_TIMEOUT' }, requestTimeoutMs: 1 }, (p) => p.catalog.products(), 'REQUEST_TIMEOUT', true],
  ['fail on a denied capability: the grant check comes first (D-23)', { deny: ['cart.manage'], fail: { 'cart.manage': true } }, (p) => p.cart.manage('add', { productId: FIRST_ID }), 'CAPABILITY_NOT_GRANTED', false],
  ['fail with a bad payload: the field check comes first (D-23)', { fail: { 'cart.manage': 'TOO_MANY_REQUESTS' } }, (p) => p.cart.manage('add', { productId: 0 }), 'INVALID_REQUEST', false],
  ...['CAPABILITY_NOT_GRANTED', 'INVALID_REQUEST', 'INVALID_PAYLOAD', 'TOO_MANY_REQUESTS', 'PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_COMPLEX'].map((code) => [
    `fail ${code}: the host answers it for a call that passed every check`,
    { fail: { 'catalog.products': code } },
    (p) => p.catalog.products(),
    code,
    true,
  ]),
];

test('each call gets the code the browser gets, from the frame or the host, in D-23 order', async (t) => {
  for (const [what, options, call, code, sent] of CODE_ROWS) {
    await t.test(what, async (t) => {
      const mock = await mockFor(t, options);
      assert.equal(await outcome(call(mock.platform)), code);
      CODES_SEEN.add(code);
      const [record] = mock.calls;
      assert.equal(record.outcome, code);
      assert.equal(record.sent, sent, 'sent to the host');
      const answered = mock.host.log().filter((entry) => entry.kind === 'call');
      if (!sent || code === 'REQUEST_TIMEOUT') {
        // Refused in the frame, or never answered: the host logged no answer.
        assert.deepEqual(answered, []);
      } else {
        assert.equal(answered.length, 1);
        assert.equal(answered[0].ok ? 'ok' : answered[0].code, code, 'the host answered with the same code');
      }
    });
  }
});

test(`message size: ${MESSAGE_MAX_BYTES} bytes pass and ${MESSAGE_MAX_BYTES + 1} do not, as in the browser, and the host's check agrees`, async (t) => {
  const mock = await mockFor(t, {});
  const capability = 'analytics.events.write';
  const action = 'track';
  for (const unit of ['x', 'é', '€']) {
    for (const [target, code] of [
      [MESSAGE_MAX_BYTES, 'INVALID_REQUEST'],
      [MESSAGE_MAX_BYTES + 1, 'PAYLOAD_TOO_LARGE'],
    ]) {
      // Every earlier call got an id (none hit the pending-call limit): this one is next.
      const id = mock.calls.length + 1;
      const payload = sizedPayload(id, capability, action, target, unit);
      assert.equal(await outcome(mock.platform.request(capability, action, payload)), code, `${target} bytes of "${unit}" in the frame`);
      const atHost = checkRequest({ type: MESSAGE_TYPES.request, id, capability, action, payload }, CAPABILITY_KEYS, CAPABILITY_KEYS);
      assert.equal(atHost.ok ? 'ok' : atHost.code, code, `${target} bytes of "${unit}" by the host's check`);
      CODES_SEEN.add(code);
    }
  }
});

test(`the pending-call limit: ${MAX_PENDING_CALLS} pending calls, then TOO_MANY_REQUESTS from the frame`, async (t) => {
  const mock = await mockFor(t, { fail: { 'catalog.products.read': 'REQUEST_TIMEOUT' }, requestTimeoutMs: 500 });
  const pending = Array.from({ length: MAX_PENDING_CALLS }, () => outcome(mock.platform.catalog.products()));
  assert.equal(await outcome(mock.platform.catalog.products()), 'TOO_MANY_REQUESTS');
  CODES_SEEN.add('TOO_MANY_REQUESTS');
  assert.deepEqual(new Set(await Promise.all(pending)), new Set(['REQUEST_TIMEOUT']));
  const sent = mock.calls.map((c) => c.sent);
  assert.deepEqual(sent, [...new Array(MAX_PENDING_CALLS).fill(true), false]);
});

test('handshake: false: PLATFORM.ready and every call reject with INITIALIZATION_TIMEOUT; nothing is sent', async (t) => {
  const mock = await mockFor(t, { handshake: false, initializationTimeoutMs: 1 });
  const call = outcome(mock.platform.theme.read());
  assert.equal(await outcome(mock.platform.ready), 'INITIALIZATION_TIMEOUT');
  assert.equal(await call, 'INITIALIZATION_TIMEOUT');
  assert.equal(await outcome(mock.platform.catalog.products()), 'INITIALIZATION_TIMEOUT');
  assert.deepEqual(mock.platform.capabilities(), []);
  assert.deepEqual(mock.calls.map((c) => [c.sent, c.outcome]), [
    [false, 'INITIALIZATION_TIMEOUT'],
    [false, 'INITIALIZATION_TIMEOUT'],
  ]);
  CODES_SEEN.add('INITIALIZATION_TIMEOUT');
});

test('the tests above expect every one of the ten codes', () => {
  assert.deepEqual([...CODES_SEEN].filter((c) => c !== 'ok').sort(), [...BRIDGE_ERROR_CODE_LIST].sort());
});

// ---------------------------------------------------------------------------------------
// Calls recorded

test('calls: method, capability, action, the arguments, the payload sent, outcome and result', async (t) => {
  const mock = await mockFor(t, { manifest: MANIFEST });
  let reads = 0;
  const properties = {};
  Object.defineProperty(properties, 'label', {
    enumerable: true,
    get() {
      reads++;
      return 'first';
    },
  });
  const details = { productId: FIRST_ID, quantity: 2 };
  const pending = mock.platform.cart.manage('add', details);
  assert.equal(mock.calls[0].outcome, 'pending');
  const cart = await pending;
  await mock.platform.analytics.track('viewed', properties);
  await outcome(mock.platform.request('catalog.products.read', 'list', { limit: 13 }));
  await outcome(mock.platform.forms.submit('newsletter', { email: 'a@b.example' }));

  const calls = mock.calls;
  assert.deepEqual(
    calls.map((c) => [c.method, c.capability, c.action, c.sent, c.outcome]),
    [
      ['cart.manage', 'cart.manage', 'add', true, 'ok'],
      ['analytics.track', 'analytics.events.write', 'track', true, 'ok'],
      ['request', 'catalog.products.read', 'list', false, 'INVALID_REQUEST'],
      ['forms.submit', 'forms.submit', 'submit', false, 'CAPABILITY_NOT_GRANTED'],
    ],
  );
  assert.equal(calls[0].args[1], details, 'the arguments are the objects passed');
  assert.deepEqual(calls[0].payload, { productId: FIRST_ID, quantity: 2 });
  assert.deepEqual(calls[0].result, cart);
  assert.ok(Object.isFrozen(calls[0].payload) && Object.isFrozen(calls[0]));
  // D-23: a getter is read exactly once, by the frame's copy; recording reads nothing.
  assert.equal(reads, 1);
  assert.deepEqual(calls[1].payload, { event: 'viewed', properties: { label: 'first' } });
  assert.equal(calls[2].payload, null);
  assert.equal(calls[3].result, undefined);
  // The host saw the two calls that were sent, with its own validated copies.
  assert.deepEqual(
    mock.host.log().map((e) => [e.capability, e.action, e.ok, e.payload]),
    [
      ['cart.manage', 'add', true, { productId: FIRST_ID, quantity: 2 }],
      ['analytics.events.write', 'track', true, { event: 'viewed', properties: { label: 'first' } }],
    ],
  );
  mock.clearCalls();
  assert.deepEqual(mock.calls, []);
  assert.deepEqual(mock.host.log(), []);
});

test('an unhandled rejection stays unhandled, as in the browser (the mock does not swallow it)', () => {
  // In a child process: node:test would (rightly) fail this test for it.
  const script = `
    import { createMockPlatform } from ${JSON.stringify(pathToFileURL(join(root, 'dist/testing.mjs')).href)};
    process.on('unhandledRejection', (reason) => { console.log('unhandled', reason.code); process.exit(0); });
    const mock = await createMockPlatform({ deny: ['site.theme.read'] });
    mock.platform.theme.read(); // never awaited, never caught
    await mock.settled();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    console.log('swallowed');
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.stdout.trim(), 'unhandled CAPABILITY_NOT_GRANTED', r.stderr);
});

// ---------------------------------------------------------------------------------------
// Grants, settings, failures at run time

test('grants: the default is the declared capabilities; setGrants revokes and grants, and the frame hears of it', async (t) => {
  const mock = await mockFor(t, { manifest: MANIFEST });
  const ready = await mock.platform.ready;
  assert.deepEqual([...ready.capabilities].sort(), [...MANIFEST.capabilities].sort());
  assert.deepEqual(mock.host.declared(), MANIFEST.capabilities.slice().sort((a, b) => CAPABILITY_KEYS.indexOf(a) - CAPABILITY_KEYS.indexOf(b)));
  await mock.setGrants(['catalog.products.read']);
  assert.deepEqual(mock.platform.capabilities(), ['catalog.products.read']);
  assert.deepEqual(mock.host.grants(), ['catalog.products.read']);
  assert.equal(await outcome(mock.platform.cart.manage('add', { productId: FIRST_ID })), 'CAPABILITY_NOT_GRANTED');
  await mock.setGrants(['catalog.products.read', 'cart.manage']);
  assert.equal(await outcome(mock.platform.cart.manage('add', { productId: FIRST_ID })), 'ok');
  const error = await setupError(() => mock.setGrants(['forms.submit']));
  assert.equal(error.code, 'ERR_INVALID_OPTION');
  assert.match(error.message, /setGrants\(grants\)\[0\]/);
});

test('settings: the manifest\'s defaults, data.settings over them, setSettings; the frame reads them', async (t) => {
  const mock = await mockFor(t, { manifest: MANIFEST, data: { settings: { count: 12 } } });
  assert.deepEqual({ ...(await mock.platform.ready).settings }, { heading: 'Hello', count: 12 });
  await mock.setSettings({ heading: 'Picked for you' });
  assert.deepEqual({ ...mock.platform.settings() }, { heading: 'Picked for you', count: 4 });
  assert.deepEqual(mock.host.settings(), { heading: 'Picked for you', count: 4 });
  const error = await setupError(() => mock.setSettings({ count: 13 }));
  assert.equal(error.code, 'ERR_INVALID_OPTION');
  assert.deepEqual(error.findings.map((f) => [f.rule, f.pointer]), [['property/value-out-of-range', '/count']]);
});

test('fail() at run time: set, change and clear a capability\'s failure', async (t) => {
  const mock = await mockFor(t, {});
  mock.fail('catalog.products');
  assert.equal(await outcome(mock.platform.catalog.products()), 'REQUEST_FAILED');
  mock.fail('catalog.products.read', 'ADAPTER_UNAVAILABLE');
  assert.equal(await outcome(mock.platform.catalog.products()), 'ADAPTER_UNAVAILABLE');
  mock.fail('PLATFORM.catalog.products', null);
  assert.equal(await outcome(mock.platform.catalog.products()), 'ok');
  assert.throws(() => mock.fail('catalog.list'), { code: 'ERR_INVALID_OPTION' });
  assert.throws(() => mock.fail('catalog.products', 'INITIALIZATION_TIMEOUT'), { code: 'ERR_INVALID_OPTION' });
});

// ---------------------------------------------------------------------------------------
// Store data

test('data: the preview\'s sample catalog and theme by default, emptyCatalog, consent, cart-updated events', async (t) => {
  const mock = await mockFor(t, {});
  const page = await mock.platform.catalog.products({ limit: 24 });
  assert.deepEqual(page.products.map((p) => p.id), SAMPLE_PRODUCTS.slice(0, 24).map((p) => p.id));
  assert.equal(page.total, SAMPLE_PRODUCTS.length);
  assert.deepEqual(await mock.platform.theme.read(), { ...DEFAULT_THEME });
  const added = await mock.platform.cart.manage('add', { productId: FIRST_ID, quantity: 3 });
  assert.deepEqual(mock.host.cartEvents(), [{ itemCount: added.itemCount, total: added.total }]);
  assert.equal(mock.host.cart().itemCount, 3);
  assert.deepEqual(await mock.platform.analytics.track('seen', { value: 2 }), { tracked: true });
  assert.deepEqual(mock.host.analytics().map((r) => [r.event, r.value]), [['seen', 2]]);
  mock.setConsent(false);
  assert.deepEqual(await mock.platform.analytics.track('seen'), { tracked: false });
  assert.equal(mock.host.analytics().length, 1, 'nothing recorded without consent');

  const empty = await mockFor(t, { data: { emptyCatalog: true } });
  assert.deepEqual(await empty.platform.catalog.products(), { products: [], total: 0, page: 1, lastPage: 1 });
});

test('data: products, a starting cart, theme fields, smsAvailable', async (t) => {
  const products = [
    { id: 7, name: 'Red Tee', url: '/p/red-tee', image: '', price: '$12.50', inStock: true },
    { id: 8, name: 'Blue Tee', url: '/p/blue-tee', image: '', price: '$1,000.00', inStock: true },
    { id: 9, name: 'Green Tee', url: '/p/green-tee', image: '', price: '$3.00', inStock: false },
  ];
  const mock = await mockFor(t, { data: { products, cart: [{ productId: 7, quantity: 2 }], theme: { primary: '#ff0000' }, smsAvailable: false } });
  assert.deepEqual(await mock.platform.catalog.products({ search: 'tee', includeOutOfStock: false }), { products: products.slice(0, 2), total: 2, page: 1, lastPage: 1 });
  assert.deepEqual((await mock.platform.catalog.products({ search: 'green' })).products, [products[2]]);
  assert.deepEqual(mock.host.cart().lines.map((l) => [l.product.id, l.quantity]), [[7, 2]]);
  assert.deepEqual(await mock.platform.cart.manage('add', { productId: 8 }), { ok: true, itemCount: 3, total: '$1,025.00' });
  assert.deepEqual(await mock.platform.cart.manage('add', { productId: 9 }), { ok: false, itemCount: 3, total: '$1,025.00' });
  assert.deepEqual(await mock.platform.cart.manage('remove', { productId: 7, quantity: 2 }), { ok: true, itemCount: 1, total: '$1,000.00' });
  assert.equal((await mock.platform.theme.read()).primary, '#ff0000');
  assert.equal(await outcome(mock.platform.communications.text()), 'ADAPTER_UNAVAILABLE');
  mock.setSmsAvailable(true);
  assert.deepEqual(await mock.platform.communications.text('hi'), { opened: true });
});

test('reset(): back to the options (grants, failures, settings, cart, records), calls forgotten', async (t) => {
  const mock = await mockFor(t, { manifest: MANIFEST, data: { cart: [{ productId: FIRST_ID }] } });
  await mock.setGrants(['cart.manage']);
  await mock.setSettings({ heading: 'Other' });
  mock.fail('cart.manage');
  await outcome(mock.platform.cart.manage('add', { productId: FIRST_ID }));
  await mock.reset();
  assert.deepEqual(mock.calls, []);
  assert.deepEqual(mock.host.cartEvents(), []);
  assert.equal(mock.host.cart().itemCount, 1);
  assert.deepEqual([...mock.platform.capabilities()].sort(), [...MANIFEST.capabilities].sort());
  assert.equal(mock.platform.settings().heading, 'Hello');
  assert.equal(await outcome(mock.platform.cart.manage('add', { productId: FIRST_ID })), 'ok');
});

// ---------------------------------------------------------------------------------------
// Set-up mistakes: a clear error naming the option or the manifest pointer

const OPTION_ERRORS = [
  ['an unknown option', { grant: [] }, 'ERR_INVALID_OPTION', 'options.grant'],
  ['an unknown data field', { data: { catalog: [] } }, 'ERR_INVALID_OPTION', 'options.data.catalog'],
  ['a misspelt capability in grants', { grants: ['cart.manag'] }, 'ERR_INVALID_OPTION', 'options.grants[0]'],
  ['a grant the manifest does not declare', { manifest: MANIFEST, grants: ['forms.submit'] }, 'ERR_INVALID_OPTION', 'options.grants[0]'],
  ['a deny that is no capability', { deny: ['theme'] }, 'ERR_INVALID_OPTION', 'options.deny[0]'],
  ['a fail key that is no capability or method', { fail: { 'catalog.list': true } }, 'ERR_INVALID_OPTION', 'options.fail["catalog.list"]'],
  ['a fail code that is no code', { fail: { 'cart.manage': 'BROKEN' } }, 'ERR_INVALID_OPTION', 'options.fail["cart.manage"]'],
  ['INITIALIZATION_TIMEOUT as a call failure', { fail: { 'cart.manage': 'INITIALIZATION_TIMEOUT' } }, 'ERR_INVALID_OPTION', 'options.fail["cart.manage"]'],
  ['requestTimeoutMs 0', { requestTimeoutMs: 0 }, 'ERR_INVALID_OPTION', 'options.requestTimeoutMs'],
  [`requestTimeoutMs ${REQUEST_TIMEOUT_MS + 1}`, { requestTimeoutMs: REQUEST_TIMEOUT_MS + 1 }, 'ERR_INVALID_OPTION', 'options.requestTimeoutMs'],
  [`initializationTimeoutMs ${INITIALIZATION_TIMEOUT_MS + 1}`, { initializationTimeoutMs: INITIALIZATION_TIMEOUT_MS + 1 }, 'ERR_INVALID_OPTION', 'options.initializationTimeoutMs'],
  ['a setting that is no property name (no manifest)', { data: { settings: { Heading: 'x' } } }, 'ERR_INVALID_OPTION', 'options.data.settings.Heading'],
  ['a setting of an unknown property (manifest)', { manifest: MANIFEST, data: { settings: { title: 'x' } } }, 'ERR_INVALID_OPTION', 'options.data.settings/title'],
  ['a blank required setting (D-8)', { manifest: MANIFEST, data: { settings: { heading: '  ' } } }, 'ERR_INVALID_OPTION', 'options.data.settings/heading'],
  ['two products with one id', { data: { products: [{ id: 1, name: 'a', url: '/a', image: '', price: '$1.00', inStock: true }, { id: 1, name: 'b', url: '/b', image: '', price: '$1.00', inStock: true }] } }, 'ERR_INVALID_OPTION', 'options.data.products[1].id'],
  ['a product with an extra field', { data: { products: [{ id: 1, name: 'a', url: '/a', image: '', price: '$1.00', inStock: true, sku: 'x' }] } }, 'ERR_INVALID_OPTION', 'options.data.products[0].sku'],
  ['a price without an amount', { data: { products: [{ id: 1, name: 'a', url: '/a', image: '', price: 'free', inStock: true }] } }, 'ERR_INVALID_OPTION', 'options.data.products[0].price'],
  ['products and emptyCatalog together', { data: { products: [], emptyCatalog: true } }, 'ERR_INVALID_OPTION', 'options.data'],
  ['a theme field that does not exist', { data: { theme: { accent: '#000000' } } }, 'ERR_INVALID_OPTION', 'options.data.theme.accent'],
  ['a theme value that is not a plain CSS value', { data: { theme: { primary: 'red; }' } } }, 'ERR_INVALID_OPTION', 'options.data.theme.primary'],
  ['a sold-out product in the starting cart', { data: { cart: [{ productId: SAMPLE_PRODUCTS.find((p) => !p.inStock).id }] } }, 'ERR_INVALID_OPTION', 'options.data.cart[0]'],
  [`a starting quantity of ${CART_QUANTITY_MAX + 1}`, { data: { cart: [{ productId: FIRST_ID, quantity: CART_QUANTITY_MAX + 1 }] } }, 'ERR_INVALID_OPTION', 'options.data.cart[0].quantity'],
  ['a manifest file that does not exist', { manifest: join(root, 'no-such-folder/manifest.json') }, 'ERR_INVALID_MANIFEST', 'no-such-folder'],
];

test('set-up mistakes throw MockPlatformError naming the option', async (t) => {
  for (const [what, options, code, where] of OPTION_ERRORS) {
    await t.test(what, async () => {
      const error = await setupError(() => createMockPlatform(options));
      assert.ok(error instanceof MockPlatformError, String(error));
      assert.equal(error.code, code);
      assert.ok(error.message.includes(where), `names ${where}: ${error.message}`);
      assert.doesNotMatch(error.message, /\n\s+at /, 'no stack trace in the message');
    });
  }
  await t.test(`the boundaries themselves are accepted: timeouts 1 and ${REQUEST_TIMEOUT_MS}, quantity ${CART_QUANTITY_MAX}`, async (t) => {
    await mockFor(t, { requestTimeoutMs: 1, initializationTimeoutMs: INITIALIZATION_TIMEOUT_MS });
    const mock = await mockFor(t, { requestTimeoutMs: REQUEST_TIMEOUT_MS, data: { cart: [{ productId: FIRST_ID, quantity: CART_QUANTITY_MAX }] } });
    assert.equal(mock.host.cart().itemCount, CART_QUANTITY_MAX);
  });
});

test('a bad manifest: ERR_INVALID_MANIFEST with every error finding (rule id and pointer), from an object or a file', async (t) => {
  const bad = { ...MANIFEST, $schema: 'x', capabilities: ['cart.manage', 'cart.manag'], properties: { count: { type: 'number', label: 'Count', default: 20, max: 12 } } };
  const fromObject = await setupError(() => createMockPlatform({ manifest: bad }));
  assert.equal(fromObject.code, 'ERR_INVALID_MANIFEST');
  const expected = [
    ['manifest/unknown-field', '/$schema'],
    ['manifest/capability-unknown', '/capabilities/1'],
    ['property/value-out-of-range', '/properties/count/default'],
  ];
  assert.deepEqual(fromObject.findings.map((f) => [f.rule, f.pointer]).sort(), expected.sort());
  for (const [, pointer] of expected) assert.ok(fromObject.message.includes(pointer), `names ${pointer}`);

  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-testing-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(bad, null, 2));
  for (const given of [dir, join(dir, 'manifest.json'), pathToFileURL(join(dir, 'manifest.json'))]) {
    const fromFile = await setupError(() => createMockPlatform({ manifest: given }));
    assert.equal(fromFile.code, 'ERR_INVALID_MANIFEST');
    assert.deepEqual(fromFile.findings.map((f) => [f.rule, f.pointer]).sort(), expected.sort());
    assert.match(fromFile.message, /\/capabilities\/1 \(line \d+, column \d+\)/);
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(MANIFEST));
  const good = await mockFor(t, { manifest: dir });
  assert.deepEqual(good.host.declared().sort(), [...MANIFEST.capabilities].sort());
});

// ---------------------------------------------------------------------------------------
// window.PLATFORM

test('installMockPlatform defines window.PLATFORM and PLATFORM; uninstall removes them (and the window it created)', async () => {
  assert.equal(globalThis.window, undefined);
  const mock = await installMockPlatform({ deny: ['cart.manage'] });
  try {
    assert.equal(globalThis.window, globalThis);
    assert.equal(window.PLATFORM, mock.platform);
    assert.equal(globalThis.PLATFORM, mock.platform);
    assert.equal(await outcome(PLATFORM.cart.manage('add', { productId: FIRST_ID })), 'CAPABILITY_NOT_GRANTED');
    assert.throws(() => {
      window.PLATFORM = {};
    }, TypeError);
    const second = await setupError(() => installMockPlatform());
    assert.equal(second.code, 'ERR_ALREADY_INSTALLED');
  } finally {
    mock.uninstall();
  }
  assert.equal(globalThis.window, undefined);
  assert.equal(globalThis.PLATFORM, undefined);
  assert.equal(mock.disposed, true);
  mock.uninstall(); // idempotent
});

test('installMockPlatform in a DOM-like environment: an existing window object gets PLATFORM and keeps existing', async () => {
  const domWindow = { document: {} };
  globalThis.window = domWindow;
  try {
    const mock = await installMockPlatform();
    assert.equal(domWindow.PLATFORM, mock.platform);
    assert.equal(globalThis.PLATFORM, mock.platform);
    mock.dispose(); // dispose() of an installed mock uninstalls too
    assert.equal('PLATFORM' in domWindow, false);
    assert.equal(globalThis.PLATFORM, undefined);
    assert.equal(globalThis.window, domWindow);
  } finally {
    delete globalThis.window;
  }
});

// ---------------------------------------------------------------------------------------
// Node: nothing kept alive

function activePorts() {
  return process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
}

test('Node is kept alive exactly while the handshake or a call is pending, and never after dispose()', async () => {
  const before = activePorts();
  const mock = await createMockPlatform({ fail: { 'catalog.products': 'REQUEST_TIMEOUT' }, requestTimeoutMs: 200 });
  assert.equal(activePorts(), before, 'idle: nothing keeps Node alive');
  await mock.platform.theme.read();
  assert.equal(activePorts(), before, 'idle after a call (its 10 s deadline timer is unref\'d)');
  const hanging = outcome(mock.platform.catalog.products());
  assert.equal(activePorts(), before + 1, 'a pending call keeps Node alive');
  assert.equal(await hanging, 'REQUEST_TIMEOUT');
  assert.equal(activePorts(), before);
  mock.dispose();
  assert.equal(activePorts(), before);
  // A call after dispose gets no answer: it times out, as in a frame whose host went away.
  // The mock no longer keeps Node alive for it, so this test holds a timer of its own meanwhile.
  const guard = setTimeout(() => undefined, 60_000);
  try {
    assert.equal(await outcome(mock.platform.theme.read()), 'REQUEST_TIMEOUT');
  } finally {
    clearTimeout(guard);
  }
});

test('a test process that never disposes its mocks still exits by itself', () => {
  const script = `
    import { createMockPlatform, installMockPlatform } from ${JSON.stringify(pathToFileURL(join(root, 'dist/testing.mjs')).href)};
    const mock = await createMockPlatform();
    await mock.platform.catalog.products();
    await mock.platform.cart.manage('add', { productId: ${FIRST_ID} });
    await installMockPlatform({ handshake: false, initializationTimeoutMs: 50 });
    PLATFORM.theme.read().catch(() => {});
    console.log('done');
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.signal, null, 'not killed: it exited by itself');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'done');
});

test(`fake timers (node:test mock.timers, setTimeout only): advancing by ${REQUEST_TIMEOUT_MS} ms times a call out`, async (t) => {
  const mock = await mockFor(t, { fail: { 'catalog.products': 'REQUEST_TIMEOUT' } });
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const call = outcome(mock.platform.catalog.products());
  // Date is real (only setTimeout is faked): the runtime arms its timer for the deadline
  // minus the real milliseconds already gone since the call, so "not yet" is asserted with
  // a margin for a slow machine (with 1 ms, a millisecond boundary crossed before arming
  // made the call time out at 9,999 ms of fake time, as it should).
  const margin = 50;
  t.mock.timers.tick(REQUEST_TIMEOUT_MS - margin);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(mock.calls[0].outcome, 'pending', `not yet at ${REQUEST_TIMEOUT_MS - margin} ms`);
  t.mock.timers.tick(margin);
  assert.equal(await call, 'REQUEST_TIMEOUT');
});

// ---------------------------------------------------------------------------------------
// A publisher's test of the scaffold's runtime/main.js (what `init` writes)

/** Runs the project's runtime/main.js once under the mock, with a tiny DOM; returns the elements it drives. */
async function runScaffold(t, dir, options = {}) {
  const mock = await installMockPlatform({ manifest: dir, ...options });
  const document = scaffoldDocument();
  globalThis.document = document;
  const warnings = t.mock.method(console, 'warn', () => undefined);
  t.after(() => {
    mock.uninstall();
    delete globalThis.document;
  });
  // A fresh module instance per run (main.js starts itself when imported). A copy named
  // .mjs: without import or export, and with no package.json saying "type": "module",
  // Node would load main.js as CommonJS, evaluated once and cached by path.
  const copy = join(dir, `runtime/main-run-${runScaffold.count++}.mjs`);
  copyFileSync(join(dir, 'runtime/main.js'), copy);
  await import(pathToFileURL(copy).href);
  await mock.settled();
  const el = (id) => document.getElementById(id);
  const cards = () => el('products').children;
  const warned = () => warnings.mock.calls.map((c) => /with ([A-Z_]+)$/.exec(c.arguments[0])?.[1]);
  return { mock, document, el, cards, warned };
}
runScaffold.count = 0;

test('the scaffold\'s main.js under the mock host, as a publisher would unit-test it', async (t) => {
  const { dir } = initScaffold(t);
  const MESSAGES = {
    CAPABILITY_NOT_GRANTED: 'This feature is not switched on for this store yet.',
    REQUEST_FAILED: 'The store could not do that just now. Please try again.',
    REQUEST_TIMEOUT: 'The store took too long to respond. Please try again.',
    INITIALIZATION_TIMEOUT: 'The store took too long to respond. Please reload the page.',
  };

  await t.test('renders the heading, the theme and the first four in-stock products', async (t) => {
    const { mock, document, el, cards } = await runScaffold(t, dir);
    assert.equal(el('heading').textContent, 'Picked for you');
    assert.equal(document.documentElement.style.getPropertyValue('--primary'), DEFAULT_THEME.primary);
    assert.deepEqual(cards().map((c) => c.children[1].textContent), SAMPLE_PRODUCTS.filter((p) => p.inStock).slice(0, 4).map((p) => p.name));
    assert.equal(el('notice').textContent, '');
    assert.deepEqual(mock.calls.map((c) => [c.method, c.payload, c.outcome]), [
      ['theme.read', {}, 'ok'],
      ['catalog.products', { limit: 12, includeOutOfStock: false }, 'ok'],
    ]);
  });

  await t.test('"Add to cart" adds through cart.manage and shows the cart', async (t) => {
    const { mock, el, cards } = await runScaffold(t, dir);
    const [card] = cards();
    card.children[3].click();
    await mock.settled();
    assert.match(el('notice').textContent, /^Added /);
    assert.equal(el('cart').hidden, false);
    assert.equal(el('cart').textContent, `Cart: 1 item · ${mock.host.cart().total}`);
    assert.equal(mock.host.cart().lines[0].product.name, card.children[1].textContent);
    assert.equal(mock.host.cartEvents().length, 1);
  });

  await t.test('cart.manage denied: a friendly message, and no call at all (the extension checks its grants)', async (t) => {
    const { mock, el, cards } = await runScaffold(t, dir, { deny: ['cart.manage'] });
    cards()[0].children[3].click();
    await mock.settled();
    assert.equal(el('notice').textContent, MESSAGES.CAPABILITY_NOT_GRANTED);
    assert.equal(mock.calls.some((c) => c.method === 'cart.manage'), false);
  });

  await t.test('the catalog fails (preview --fail): a retryable message; "Try again" works once the store recovers', async (t) => {
    const { mock, el, cards, warned } = await runScaffold(t, dir, { fail: { 'catalog.products.read': true } });
    assert.equal(el('notice').textContent, MESSAGES.REQUEST_FAILED);
    assert.equal(el('retry').hidden, false);
    assert.deepEqual(warned(), ['REQUEST_FAILED'], 'the code goes to the console, never the raw message');
    assert.equal(cards().length, 0);
    mock.fail('catalog.products.read', null);
    el('retry').click();
    await mock.settled();
    assert.equal(cards().length, 4);
    assert.equal(el('notice').textContent, '');
  });

  await t.test('site.theme.read denied: no theme call, the built-in colours stay', async (t) => {
    const { mock, document, cards } = await runScaffold(t, dir, { deny: ['site.theme.read'] });
    assert.equal(document.documentElement.style.getPropertyValue('--primary'), '');
    assert.deepEqual(mock.calls.map((c) => c.method), ['catalog.products']);
    assert.equal(cards().length, 4);
  });

  await t.test('settings: product_count and show_out_of_stock from data.settings', async (t) => {
    const { mock, cards } = await runScaffold(t, dir, { data: { settings: { product_count: 6, show_out_of_stock: true } } });
    assert.deepEqual(cards().map((c) => c.children[1].textContent), SAMPLE_PRODUCTS.slice(0, 6).map((p) => p.name));
    assert.deepEqual(mock.calls.at(-1).payload, { limit: 12, includeOutOfStock: true });
  });

  await t.test('an empty catalog (preview --empty-catalog)', async (t) => {
    const { el, cards } = await runScaffold(t, dir, { data: { emptyCatalog: true } });
    assert.equal(cards().length, 0);
    assert.equal(el('notice').textContent, 'No products to show yet.');
  });

  await t.test('the catalog call times out (fail REQUEST_TIMEOUT, shortened timeout)', async (t) => {
    const { el, warned } = await runScaffold(t, dir, { fail: { 'catalog.products': 'REQUEST_TIMEOUT' }, requestTimeoutMs: 5 });
    assert.equal(el('notice').textContent, MESSAGES.REQUEST_TIMEOUT);
    assert.equal(el('retry').hidden, false);
    assert.deepEqual(warned(), ['REQUEST_TIMEOUT']);
  });

  await t.test('no handshake: INITIALIZATION_TIMEOUT, and nothing else is called', async (t) => {
    const { mock, el } = await runScaffold(t, dir, { handshake: false, initializationTimeoutMs: 5 });
    assert.equal(el('notice').textContent, MESSAGES.INITIALIZATION_TIMEOUT);
    assert.deepEqual(mock.calls, []);
  });
});

test('the README\'s example (test/fixtures/testing/readme-example) passes under node --test', () => {
  // Without NODE_TEST_CONTEXT, which would make the child report to this runner instead of its stdout;
  // TAP named explicitly, since the default reporter for a pipe differs between Node majors (spec on 24).
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'test/fixtures/testing/readme-example/test/shelf.test.mjs'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^# pass 4$/m);
  assert.match(r.stdout, /^# fail 0$/m);
});

// ---------------------------------------------------------------------------------------
// Declarations

test('dist/testing.d.ts: a TypeScript usage through the package name type-checks without Node or DOM types', () => {
  const r = spawnSync(tsc, ['-p', join(root, 'test/fixtures/testing/types/tsconfig.json'), '--pretty', 'false'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('dist/testing.d.ts has teeth: each marked mistake is a type error on its line', () => {
  const dir = join(root, 'test/fixtures/testing/types');
  const flags = ['--ignoreConfig', '--noEmit', '--strict', '--target', 'es2022', '--lib', 'es2022', '--types', '', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--pretty', 'false'];
  const r = spawnSync(tsc, [...flags, 'usage-bad.ts'], { cwd: dir, encoding: 'utf8' });
  const lines = new Set([...r.stdout.matchAll(/^usage-bad\.ts\((\d+),\d+\): error TS\d+/gm)].map((m) => Number(m[1])));
  const source = readFileSync(join(dir, 'usage-bad.ts'), 'utf8');
  const marked = source.split('\n').flatMap((line, i) => (line.includes('// error:') ? [i + 1] : []));
  assert.ok(marked.length >= 7);
  assert.deepEqual([...lines].sort((a, b) => a - b), marked, r.stdout);
});

test('strictHost: the contract leaves contact fields optional (D-26); the strict host requires them all', async (t) => {
  const manifest = { ...MANIFEST, capabilities: ['forms.submit'] };
  const partial = { name: 'Ada', email: 'ada@example.com', message: 'Hello' };
  const full = { ...partial, phone: '+1 555 0101', subject: 'Lessons' };
  const rows = [
    // [strictHost option, fields, expected outcome]
    [undefined, partial, 'ok'],
    [false, partial, 'ok'],
    [false, {}, 'ok'],
    [true, partial, 'INVALID_REQUEST'],
    [true, { ...full, subject: undefined }, 'INVALID_REQUEST'],
    [true, full, 'ok'],
  ];
  for (const [strictHost, fields, expected] of rows) {
    const mock = await mockFor(t, strictHost === undefined ? { manifest } : { manifest, strictHost });
    assert.equal(await outcome(mock.platform.forms.submit('contact', fields)), expected, `strictHost ${strictHost}: ${JSON.stringify(Object.keys(fields))}`);
  }
  const strict = await mockFor(t, { manifest, strictHost: true });
  assert.equal(await outcome(strict.platform.forms.submit('newsletter', { email: 'a@b.example' })), 'ok', 'the newsletter form is unchanged');
  assert.equal((await setupError(() => createMockPlatform({ manifest, strictHost: 'yes' }))).code, 'ERR_INVALID_OPTION');
});
