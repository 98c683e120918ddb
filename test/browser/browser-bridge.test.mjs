// The bridge in the real browser: the preview's host page and the injected runtime in the
// sandboxed frame, talking over the MessageChannel of BRIDGE_PROTOCOL_DOC. The bridge
// probe (test/fixtures/bridge-probe) declares all nine capabilities and is driven with
// Playwright's frame.evaluate. "Both sides" means: the frame's checks (window.PLATFORM
// refuses before sending: the host never answers) and the host's checks on what arrives
// (the probe holds the same port as the runtime, from the same init event, and posts raw
// requests that bypass the runtime, as a hostile extension could).
//
// Covered: each capability's happy path, deny (not granted) and fail (--fail); every
// payload limit of D-23 on both sides of its boundary and on both sides of the bridge;
// each INVALID_PAYLOAD case; D-23's order; 64/65 pending calls; REQUEST_TIMEOUT and
// INITIALIZATION_TIMEOUT (short timeouts through the preview's runtimeConfig, and the
// 10 s defaults under Playwright's fake clock); the handshake's checks; and a hostile
// frame posting 10,000 random and malformed messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserSkip, extensionFrame, launchBrowser, openProbe, startPreview } from '../support/browser.mjs';
import { prng } from '../support/fuzz.mjs';
import { CAPABILITY_KEYS } from '../../build/validator/capabilities.js';
import { BRIDGE_ERROR_CODE_LIST } from '../../build/validator/bridge/errors.js';
import { THEME_FIELDS } from '../../build/validator/bridge/messages.js';
import {
  INITIALIZATION_TIMEOUT_MS,
  MAX_PENDING_CALLS,
  MESSAGE_MAX_BYTES,
  PAYLOAD_MAX_COLLECTION_ENTRIES,
  PAYLOAD_MAX_DEPTH,
  PAYLOAD_MAX_NODES,
  PAYLOAD_MAX_OBJECT_ENTRIES,
  REQUEST_TIMEOUT_MS,
} from '../../build/validator/limits.js';

const SKIP = browserSkip();
const REQUEST_TYPE = 'platform.request';
/** Short timeouts for the tests that wait for one in real time (the defaults are proved under a fake clock). */
const SHORT_TIMEOUT_MS = 300;
/** The probe manifest's property defaults. */
const PROBE_SETTINGS = { heading: 'Bridge probe', count: 3, enabled: true, accent: '#0f766e' };
/** A product of the sample catalog that is in stock (ids start at 1001; every fifth is sold out). */
const IN_STOCK_PRODUCT = 1001;

// ---------------------------------------------------------------------------------------
// Helpers: outcomes as one word

/** The frame's outcome: 'ok' or the rejection's code. */
function frameWord(outcome) {
  return outcome.ok ? 'ok' : outcome.code;
}

/** The host's answer to a raw request: 'ok', the error code, or why nothing could be sent. */
function hostWord(response) {
  if (response.postFailed !== undefined) return response.postFailed.name;
  if (response.noResponse) return 'no response';
  return response.ok ? 'ok' : response.error.code;
}

/** `fn` (a function of one argument, run in the frame) applied to `arg`, as an expression. */
function applied(fn, arg) {
  return `(${fn})(${JSON.stringify(arg ?? null)})`;
}

/** PLATFORM.request in the frame with a payload built there by `fn(arg)`. */
function frameCall(frame, capability, action, fn, arg) {
  return frame.evaluate(`window.probe.call(${JSON.stringify(capability)}, ${JSON.stringify(action)}, ${applied(fn, arg)})`);
}

/** A raw request on the channel with a payload built in the frame by `fn(arg)`. */
function hostCall(frame, capability, action, fn, arg) {
  return frame.evaluate(`window.probe.raw(${JSON.stringify(capability)}, ${JSON.stringify(action)}, ${applied(fn, arg)})`);
}

function utf8Bytes(value) {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** A payload `{pad}` that makes the request message with `id` exactly `target` bytes; `unit` is the padding character. */
function sizedPayload(id, capability, action, target, unit) {
  const base = utf8Bytes({ type: REQUEST_TYPE, id, capability, action, payload: { pad: '' } });
  const room = target - base;
  const unitBytes = Buffer.byteLength(unit, 'utf8');
  const pad = unit.repeat(Math.floor(room / unitBytes)) + 'x'.repeat(room % unitBytes);
  const payload = { pad };
  assert.equal(utf8Bytes({ type: REQUEST_TYPE, id, capability, action, payload }), target);
  return payload;
}

/** A host-page switch inside a collapsed panel: open the panel, then set the switch. */
async function setSwitch(page, panel, input, on) {
  await page.evaluate((id) => {
    document.getElementById(id).open = true;
  }, panel);
  await page.locator(`#${input}`).setChecked(on);
}

/** The host's count of dropped messages, from its log panel ("N malformed messages dropped"). */
async function droppedCount(page) {
  const text = (await page.locator('#log-dropped').textContent()) ?? '';
  const match = /^(\d+) malformed message/.exec(text);
  return match === null ? 0 : Number(match[1]);
}

// ---------------------------------------------------------------------------------------
// The nine capabilities: the named method, the request it sends, and what a success looks like

const CAPABILITY_ROWS = [
  {
    key: 'analytics.events.write',
    method: ['analytics.track', 'probe_event', { label: 'Probe', value: 2 }],
    request: ['track', { event: 'probe_event', properties: { label: 'Probe', value: 2 } }],
    check: (v) => assert.deepEqual(v, { tracked: true }),
  },
  {
    key: 'booking.availability.read',
    method: ['booking.availability', { laneId: 1, date: '2025-06-07', durationMinutes: 60 }],
    request: ['list', { laneId: 1, date: '2025-06-07', durationMinutes: 60 }],
    check: (v) => {
      assert.equal(v.lane.id, 1);
      assert.equal(v.date, '2025-06-07');
      assert.ok(v.slots.length > 0 && v.slots.every((s) => typeof s.startsAt === 'string' && typeof s.available === 'boolean'));
    },
  },
  {
    key: 'booking.create',
    method: ['booking.start', { laneId: 2, startsAt: '2025-06-07T10:00:00-05:00', endsAt: '2025-06-07T11:00:00-05:00' }],
    request: ['start', { laneId: 2 }],
    check: (v) => {
      assert.equal(v.opened, true);
      assert.equal(typeof v.url, 'string');
      assert.deepEqual(Object.keys(v).sort(), ['opened', 'url']);
    },
  },
  {
    key: 'cart.manage',
    method: ['cart.manage', 'add', { productId: IN_STOCK_PRODUCT, quantity: 2 }],
    request: ['add', { productId: IN_STOCK_PRODUCT }],
    check: (v) => {
      assert.equal(v.ok, true);
      assert.equal(typeof v.itemCount, 'number');
      assert.match(v.total, /^\$\d/);
    },
  },
  {
    key: 'catalog.products.read',
    method: ['catalog.products', {}],
    request: ['list', {}],
    check: (v) => {
      assert.equal(v.products.length, 12, 'the default limit is 12');
      assert.ok(v.total >= 60, 'at least 60 sample products');
      assert.equal(v.page, 1);
      assert.equal(v.lastPage, Math.ceil(v.total / 12));
      for (const p of v.products) assert.deepEqual(Object.keys(p).sort(), ['id', 'image', 'inStock', 'name', 'price', 'url']);
    },
  },
  {
    key: 'communications.sms.open',
    method: ['communications.text', 'Hello from the probe'],
    request: ['open', { message: 'Hello' }],
    check: (v) => assert.deepEqual(v, { opened: true }),
  },
  {
    key: 'forms.submit',
    method: ['forms.submit', 'newsletter', { email: 'visitor@example.com' }],
    request: ['submit', { form: 'newsletter', fields: { email: 'visitor@example.com' } }],
    check: (v) => assert.deepEqual(v, { ok: true }),
  },
  {
    key: 'site.theme.read',
    method: ['theme.read'],
    request: ['read', {}],
    check: (v) => {
      assert.deepEqual(Object.keys(v).sort(), [...THEME_FIELDS].sort());
      assert.ok(Object.values(v).every((s) => typeof s === 'string' && s !== ''));
    },
  },
  {
    key: 'waivers.start',
    method: ['waivers.start', 'rental'],
    request: ['start', { waiver: 'rental' }],
    check: (v) => assert.deepEqual(v, { opened: true, url: '/waivers/rental' }),
  },
];

// ---------------------------------------------------------------------------------------
// Payload builders (run in the frame: self-contained functions of one argument)

/** n levels: n - 1 arrays around a number (the root is depth 1, leaves count: D-23). */
const nested = (n) => {
  let v = 0;
  for (let i = 1; i < n; i++) v = [v];
  return v;
};
/** Exactly n nodes: the root object, one array, four arrays and n - 6 numbers (no array over 500). */
const nodes = (n) => {
  const leaves = n - 6;
  return { a: [0, 1, 2, 3].map((i) => new Array(Math.floor(leaves / 4) + (i < leaves % 4 ? 1 : 0)).fill(0)) };
};
const arrayOf = (n) => ({ list: new Array(n).fill(0) });
const objectOf = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 0]));

// Each row: [what, builder, argument, code in the frame, answer of the host]. The
// capability is analytics.events.write / track, whose fields no row satisfies: a payload
// that passes the structure check is then refused by the field check (INVALID_REQUEST),
// the next check in D-23's order, which shows that the structure check let it through.
const LIMIT_ROWS = [
  [`depth ${PAYLOAD_MAX_DEPTH}`, nested, PAYLOAD_MAX_DEPTH, 'INVALID_REQUEST', 'INVALID_REQUEST'],
  [`depth ${PAYLOAD_MAX_DEPTH + 1}`, nested, PAYLOAD_MAX_DEPTH + 1, 'PAYLOAD_TOO_COMPLEX', 'PAYLOAD_TOO_COMPLEX'],
  [`${PAYLOAD_MAX_NODES} nodes`, nodes, PAYLOAD_MAX_NODES, 'INVALID_REQUEST', 'INVALID_REQUEST'],
  [`${PAYLOAD_MAX_NODES + 1} nodes`, nodes, PAYLOAD_MAX_NODES + 1, 'PAYLOAD_TOO_COMPLEX', 'PAYLOAD_TOO_COMPLEX'],
  [`${PAYLOAD_MAX_COLLECTION_ENTRIES} array entries`, arrayOf, PAYLOAD_MAX_COLLECTION_ENTRIES, 'INVALID_REQUEST', 'INVALID_REQUEST'],
  [`${PAYLOAD_MAX_COLLECTION_ENTRIES + 1} array entries`, arrayOf, PAYLOAD_MAX_COLLECTION_ENTRIES + 1, 'PAYLOAD_TOO_COMPLEX', 'PAYLOAD_TOO_COMPLEX'],
  [`${PAYLOAD_MAX_OBJECT_ENTRIES} object entries`, objectOf, PAYLOAD_MAX_OBJECT_ENTRIES, 'INVALID_REQUEST', 'INVALID_REQUEST'],
  [`${PAYLOAD_MAX_OBJECT_ENTRIES + 1} object entries`, objectOf, PAYLOAD_MAX_OBJECT_ENTRIES + 1, 'PAYLOAD_TOO_COMPLEX', 'PAYLOAD_TOO_COMPLEX'],
  [
    // 2 + 5 * 500 nodes from 7 distinct values: a shared reference counts each time it is reached (D-23).
    `one 4-number array reached ${PAYLOAD_MAX_COLLECTION_ENTRIES} times counts each time (${2 + 5 * PAYLOAD_MAX_COLLECTION_ENTRIES} nodes)`,
    (n) => {
      const shared = [1, 2, 3, 4];
      return { list: new Array(n).fill(shared) };
    },
    PAYLOAD_MAX_COLLECTION_ENTRIES,
    'PAYLOAD_TOO_COMPLEX',
    'PAYLOAD_TOO_COMPLEX',
  ],
  [
    'a cycle',
    () => {
      const o = { event: 'x' };
      o.properties = o;
      return o;
    },
    null,
    'PAYLOAD_TOO_COMPLEX',
    'PAYLOAD_TOO_COMPLEX',
  ],
];

// D-23's INVALID_PAYLOAD cases, as `properties` of an otherwise valid analytics call. The
// host column is what arrives after structured clone: values the browser refuses to clone
// never reach the host (DataCloneError in the frame); class instances, symbol keys and
// non-enumerable properties lose what made them invalid, which is why the frame must check
// before it sends (ARCHITECTURE "Pitfalls").
const TYPE_ROWS = [
  ['a function', () => ({ label: () => 1 }), 'INVALID_PAYLOAD', 'DataCloneError'],
  ['a symbol value', () => ({ label: Symbol('s') }), 'INVALID_PAYLOAD', 'DataCloneError'],
  ['a DOM node', () => ({ label: document.body }), 'INVALID_PAYLOAD', 'DataCloneError'],
  ['the window', () => ({ label: window }), 'INVALID_PAYLOAD', 'DataCloneError'],
  ['a promise', () => ({ label: Promise.resolve(1) }), 'INVALID_PAYLOAD', 'DataCloneError'],
  ['a bigint', () => ({ value: 10n }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['NaN', () => ({ value: NaN }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['Infinity', () => ({ value: Infinity }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['-Infinity', () => ({ value: -Infinity }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['a Date', () => ({ label: new Date(0) }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['a Map', () => ({ label: new Map() }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['a Set', () => ({ label: new Set() }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['a RegExp', () => ({ label: /x/ }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['a typed array', () => ({ label: new Uint8Array(2) }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['an ArrayBuffer', () => ({ label: new ArrayBuffer(2) }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['an Error', () => ({ label: new Error('x') }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['a boxed string', () => ({ label: new String('x') }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['a Blob', () => ({ label: new Blob(['x']) }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['an own __proto__ key', () => JSON.parse('{"label":"x","__proto__":{"polluted":true}}'), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['a constructor key', () => ({ label: 'x', constructor: 1 }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['a prototype key', () => ({ label: 'x', prototype: {} }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['undefined in an array', () => ({ label: [1, undefined] }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'],
  ['an array with a hole', () => ({ label: [1, , 2] }), 'INVALID_PAYLOAD', 'INVALID_PAYLOAD'], // eslint-disable-line no-sparse-arrays
  ['a class instance', () => new (class Properties { constructor() { this.label = 'x'; } })(), 'INVALID_PAYLOAD', 'ok'],
  ['an array subclass', () => ({ label: new (class List extends Array {})() }), 'INVALID_PAYLOAD', 'INVALID_REQUEST'],
  ['a symbol-keyed property', () => ({ label: 'x', [Symbol('s')]: 1 }), 'INVALID_PAYLOAD', 'ok'],
  ['a non-enumerable property', () => Object.defineProperty({ label: 'x' }, 'value', { value: 1, enumerable: false }), 'INVALID_PAYLOAD', 'ok'],
  [
    'a getter that throws',
    () =>
      Object.defineProperty({}, 'label', {
        enumerable: true,
        get() {
          throw new Error('getter');
        },
      }),
    'INVALID_PAYLOAD',
    'Error',
  ],
  [
    'a Proxy whose traps throw',
    () =>
      new Proxy(
        {},
        {
          ownKeys() {
            throw new Error('trap');
          },
        },
      ),
    'INVALID_PAYLOAD',
    'DataCloneError',
  ],
  [
    'a revoked Proxy',
    () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
    'INVALID_PAYLOAD',
    'DataCloneError',
  ],
];

// D-23's order: the first failing check decides (both sides; [what, capability, action, builder, code]).
// Builders get {bytes, depth}: one byte over the message limit, one level over the depth limit.
const OVER = { bytes: MESSAGE_MAX_BYTES + 1, depth: PAYLOAD_MAX_DEPTH + 1 };
const ORDER_ROWS = [
  [
    'too large and too deep: size first',
    'analytics.events.write',
    'track',
    ({ bytes, depth }) => {
      let deep = 0;
      for (let i = 1; i < depth; i++) deep = [deep];
      return { pad: 'x'.repeat(bytes), deep };
    },
    'PAYLOAD_TOO_LARGE',
  ],
  [
    'too deep and holding a Date: complexity before types',
    'analytics.events.write',
    'track',
    ({ depth }) => {
      let deep = 0;
      for (let i = 1; i < depth; i++) deep = [deep];
      return { d: new Date(0), deep };
    },
    'PAYLOAD_TOO_COMPLEX',
  ],
  ['an unknown capability with a Date: structure before capability', 'camera.open', 'track', () => ({ d: new Date(0) }), 'INVALID_PAYLOAD'],
  ['an unknown capability', 'camera.open', 'track', () => ({}), 'CAPABILITY_NOT_GRANTED'],
  ['an unknown action of a granted capability', 'cart.manage', 'delete', () => ({ productId: 1001 }), 'INVALID_REQUEST'],
  ['an unknown field', 'catalog.products.read', 'list', () => ({ sort: 'price' }), 'INVALID_REQUEST'],
  ['a field out of bounds', 'catalog.products.read', 'list', () => ({ limit: 13 }), 'INVALID_REQUEST'],
  ['a payload that is not an object', 'site.theme.read', 'read', () => [1], 'INVALID_REQUEST'],
];

// ---------------------------------------------------------------------------------------

test('the bridge in Chromium: capabilities, payload limits, pending calls, timeouts, handshake, hostile frame', { skip: SKIP }, async (t) => {
  const browser = await launchBrowser(t);
  const context = await browser.newContext();
  t.after(() => context.close());
  const main = await startPreview(t);

  const { page, frame, log } = await openProbe(t, context, main);

  await t.test('ready resolves to the deeply frozen grants and settings; PLATFORM is frozen', async () => {
    const status = await frame.evaluate(() => window.probe.status());
    assert.deepEqual(status.ready, { settled: true, ok: true, value: { capabilities: [...CAPABILITY_KEYS], settings: PROBE_SETTINGS }, deepFrozen: true });
    assert.deepEqual(status.capabilities, [...CAPABILITY_KEYS]);
    assert.deepEqual(status.settings, PROBE_SETTINGS);
    assert.equal(status.frozen, true);
    const replaced = await frame.evaluate(() => {
      try {
        window.PLATFORM = null;
      } catch {
        // strict-mode assignment to a read-only property
      }
      return window.PLATFORM !== null && typeof window.PLATFORM.request === 'function';
    });
    assert.equal(replaced, true, 'window.PLATFORM cannot be replaced');
  });

  await t.test('happy path: each of the nine capabilities answers with the contract response', async (t) => {
    for (const row of CAPABILITY_ROWS) {
      await t.test(row.key, async () => {
        const outcome = await frame.evaluate(([path, args]) => window.probe.method(path, ...args), [row.method[0], row.method.slice(1)]);
        assert.equal(outcome.ok, true, JSON.stringify(outcome));
        assert.equal(outcome.answeredByHost, true);
        row.check(outcome.value);
      });
    }
    assert.equal(CAPABILITY_ROWS.length, CAPABILITY_KEYS.length);
  });

  await t.test('named methods apply the contract defaults', async () => {
    const all = await frame.evaluate(() => window.probe.method('catalog.products', { limit: 24, includeOutOfStock: false }));
    assert.equal(all.value.products.length, 24);
    assert.ok(all.value.products.every((p) => p.inStock));
    const waiver = await frame.evaluate(() => Promise.all([window.probe.method('waivers.start'), window.probe.method('waivers.start', null)]));
    assert.deepEqual(waiver.map((o) => o.value.url), ['/waivers/range', '/waivers/range'], 'null or omitted means range');
    const contact = await frame.evaluate(() =>
      window.probe.method('forms.submit', 'contact', { name: 'A', email: 'a@example.com', phone: '', subject: 'Hi', message: 'Hello' }),
    );
    assert.deepEqual(contact.value, { ok: true });
  });

  await t.test('the host page follows the calls: cart-updated event, consent, text-message number, log', async () => {
    const before = Number(await page.locator('#cart-count').textContent());
    const added = await frame.evaluate((id) => window.probe.method('cart.manage', 'add', { productId: id, quantity: 3 }), IN_STOCK_PRODUCT);
    assert.equal(added.value.itemCount, before + 3);
    await page.waitForFunction((n) => document.getElementById('cart-count').textContent === String(n), added.value.itemCount);
    assert.equal(await page.locator('#cart-total').textContent(), added.value.total);

    await setSwitch(page, 'panel-store', 'consent', false);
    const untracked = await frame.evaluate(() => window.probe.method('analytics.track', 'no_consent'));
    assert.deepEqual(untracked.value, { tracked: false }, 'without consent nothing is tracked');
    await setSwitch(page, 'panel-store', 'consent', true);

    await setSwitch(page, 'panel-store', 'sms-number', false);
    const sms = await frame.evaluate(() => window.probe.method('communications.text', 'hi'));
    assert.equal(sms.code, 'ADAPTER_UNAVAILABLE');
    assert.equal(sms.answeredByHost, true);
    await setSwitch(page, 'panel-store', 'sms-number', true);

    assert.ok(Number(await page.locator('#log-count').textContent()) > 0, 'the call log counts the calls');
  });

  await t.test('an adapter failure is REQUEST_FAILED and its message stays in the host', async () => {
    const outcome = await frame.evaluate(() => window.probe.method('booking.availability', { laneId: 99, date: '2025-06-07', durationMinutes: 60 }));
    assert.equal(outcome.code, 'REQUEST_FAILED');
    assert.equal(outcome.isError, true);
    assert.deepEqual(outcome.ownKeys, ['code']);
    assert.ok(!/lane|99|at |\n/.test(outcome.message), `the message shows host internals: ${outcome.message}`);
  });

  await t.test('settings from the host page reach the frame; an invalid value is not sent', async () => {
    await page.locator('#setting-heading').fill('Fresh heading');
    await frame.waitForFunction(() => window.PLATFORM.settings().heading === 'Fresh heading', null, { polling: 20 });
    await page.locator('#setting-heading').fill('   ');
    assert.equal(await page.locator('#panel-settings [data-property="heading"]').getAttribute('data-invalid'), 'true');
    // A valid edit of another property after the invalid one shows the invalid one was never pushed.
    await page.locator('#setting-count').fill('7');
    await page.locator('#setting-heading').fill('Fresh heading');
    await frame.waitForFunction(() => window.PLATFORM.settings().count === 7, null, { polling: 20 });
    assert.equal(await frame.evaluate(() => window.PLATFORM.settings().heading), 'Fresh heading');
    assert.equal(await frame.evaluate(() => Object.isFrozen(window.PLATFORM.settings())), true);
  });

  await t.test('a grant revoked in the host page applies to the next call, on both sides', async () => {
    const grant = page.locator('.capability', { hasText: 'cart.manage' }).getByLabel('Granted');
    await grant.uncheck();
    await frame.waitForFunction(() => !window.PLATFORM.capabilities().includes('cart.manage'), null, { polling: 20 });
    const inFrame = await frame.evaluate((id) => window.probe.method('cart.manage', 'add', { productId: id }), IN_STOCK_PRODUCT);
    assert.deepEqual([inFrame.code, inFrame.answeredByHost], ['CAPABILITY_NOT_GRANTED', false]);
    const atHost = await frame.evaluate((id) => window.probe.raw('cart.manage', 'add', { productId: id }), IN_STOCK_PRODUCT);
    assert.equal(hostWord(atHost), 'CAPABILITY_NOT_GRANTED', 'the host reads the grants when the call arrives');
    await grant.check();
    await frame.waitForFunction(() => window.PLATFORM.capabilities().includes('cart.manage'), null, { polling: 20 });
    const again = await frame.evaluate((id) => window.probe.method('cart.manage', 'add', { productId: id }), IN_STOCK_PRODUCT);
    assert.equal(again.ok, true);
  });

  await t.test('payload limits on both sides of each boundary, in the frame and at the host', async (t) => {
    for (const [what, build, arg, frameCode, hostCode] of LIMIT_ROWS) {
      await t.test(what, async () => {
        const inFrame = await frameCall(frame, 'analytics.events.write', 'track', build, arg);
        assert.equal(frameWord(inFrame), frameCode, `frame: ${JSON.stringify(inFrame)}`);
        // The frame checks the fields too, so neither side of the boundary is sent; the code says which check refused it.
        assert.equal(inFrame.answeredByHost, false);
        const atHost = await hostCall(frame, 'analytics.events.write', 'track', build, arg);
        assert.equal(hostWord(atHost), hostCode, `host: ${JSON.stringify(atHost)}`);
      });
    }
  });

  await t.test(`message size: ${MESSAGE_MAX_BYTES} bytes pass and ${MESSAGE_MAX_BYTES + 1} do not, counted in UTF-8 bytes of the whole message`, async (t) => {
    const capability = 'analytics.events.write';
    const action = 'track';
    for (const unit of ['x', 'é', '€']) {
      for (const [target, code] of [
        [MESSAGE_MAX_BYTES, 'INVALID_REQUEST'],
        [MESSAGE_MAX_BYTES + 1, 'PAYLOAD_TOO_LARGE'],
      ]) {
        await t.test(`${target} bytes of "${unit}" padding`, async () => {
          const id = await frame.evaluate(() => window.probe.syncRuntimeId());
          const payload = sizedPayload(id, capability, action, target, unit);
          const inFrame = await frame.evaluate(([c, a, p]) => window.probe.call(c, a, p), [capability, action, payload]);
          assert.equal(frameWord(inFrame), code, 'frame');
          assert.equal(inFrame.answeredByHost, false, 'the frame refuses both before sending (size, or the unknown field)');
          const rawId = await frame.evaluate(() => window.probe.peekRawId());
          const rawPayload = sizedPayload(rawId, capability, action, target, unit);
          const atHost = await frame.evaluate(([c, a, p]) => window.probe.raw(c, a, p), [capability, action, rawPayload]);
          assert.equal(hostWord(atHost), code, 'host');
        });
      }
    }
  });

  await t.test('each INVALID_PAYLOAD case of D-23, in the frame and after structured clone at the host', async (t) => {
    for (const [what, build, frameCode, hostCode] of TYPE_ROWS) {
      await t.test(what, async () => {
        const properties = build;
        const make = `() => ({ event: 'probe', properties: (${properties})() })`;
        const inFrame = await frameCall(frame, 'analytics.events.write', 'track', make);
        assert.equal(frameWord(inFrame), frameCode, `frame: ${JSON.stringify(inFrame)}`);
        assert.equal(inFrame.answeredByHost, false, 'refused before sending');
        const atHost = await hostCall(frame, 'analytics.events.write', 'track', make);
        assert.equal(hostWord(atHost), hostCode, `host: ${JSON.stringify(atHost)}`);
      });
    }
  });

  await t.test('values D-23 lets cross: an undefined property is dropped, -0 crosses, a getter is read once and the copy is sent', async () => {
    const dropped = await frame.evaluate(() => window.probe.call('catalog.products.read', 'list', { search: undefined, limit: 24 }));
    assert.equal(dropped.ok, true, JSON.stringify(dropped));
    const negativeZero = await frame.evaluate(() => window.probe.method('analytics.track', 'zero', { value: -0 }));
    assert.deepEqual(negativeZero.value, { tracked: true });
    const reads = await frame.evaluate(async () => {
      let count = 0;
      const properties = {};
      Object.defineProperty(properties, 'label', {
        enumerable: true,
        get() {
          count++;
          return count === 1 ? 'first-read' : 'later-read';
        },
      });
      const payload = { event: 'getter_probe', properties };
      const pending = window.probe.call('analytics.events.write', 'track', payload);
      payload.event = 'changed_after_the_call';
      const outcome = await pending;
      return { ok: outcome.ok, count };
    });
    assert.deepEqual(reads, { ok: true, count: 1 });
    // The host logged what it received: the first read, and the event as it was at call time.
    // (The log renders in batches, aria-busy while some wait; an entry shows its payload once opened.)
    await page.waitForSelector('#log:not([aria-busy])', { state: 'attached' });
    const entry = await page.locator('#log .log-entry', { hasText: 'analytics.events.write' }).first().elementHandle();
    await (await entry.$('.log-entry__head')).click();
    const logged = await (await entry.waitForSelector('pre')).textContent();
    assert.match(logged, /getter_probe/);
    assert.match(logged, /first-read/);
    assert.doesNotMatch(logged, /later-read|changed_after_the_call/);
  });

  await t.test("D-23's order: the first failing check decides, on both sides", async (t) => {
    for (const [what, capability, action, build, code] of ORDER_ROWS) {
      await t.test(what, async () => {
        const inFrame = await frameCall(frame, capability, action, build, OVER);
        assert.equal(frameWord(inFrame), code, 'frame');
        const atHost = await hostCall(frame, capability, action, build, OVER);
        assert.equal(hostWord(atHost), code, 'host');
      });
    }
    const notString = await frame.evaluate(() => window.probe.raw(42, 'read', {}));
    assert.equal(hostWord(notString), 'CAPABILITY_NOT_GRANTED', 'a capability that is not a string');
  });

  await t.test(`${MAX_PENDING_CALLS} pending calls are accepted; call ${MAX_PENDING_CALLS + 1} is TOO_MANY_REQUESTS`, async () => {
    const atLimit = await frame.evaluate((n) => window.probe.burst(n, 'site.theme.read', 'read', {}), MAX_PENDING_CALLS);
    assert.deepEqual(atLimit, new Array(MAX_PENDING_CALLS).fill('ok'));
    const over = await frame.evaluate((n) => window.probe.burst(n, 'site.theme.read', 'read', {}), MAX_PENDING_CALLS + 1);
    assert.deepEqual(over, [...new Array(MAX_PENDING_CALLS).fill('ok'), 'TOO_MANY_REQUESTS']);
    // The limit comes first (D-23): even an invalid call is TOO_MANY_REQUESTS while 64 are pending.
    const first = await frame.evaluate(async (n) => {
      const pending = [];
      for (let i = 0; i < n; i++) pending.push(window.PLATFORM.theme.read());
      const extra = await window.probe.call('camera.open', 'x', { d: new Date(0) });
      await Promise.all(pending);
      return extra.code;
    }, MAX_PENDING_CALLS);
    assert.equal(first, 'TOO_MANY_REQUESTS');
    const after = await frame.evaluate(() => window.probe.method('theme.read'));
    assert.equal(after.ok, true, 'settled calls free their places');
  });

  await t.test('deny: with every capability not granted, each call is CAPABILITY_NOT_GRANTED in the frame and at the host', async (t) => {
    const server = await startPreview(t, { deny: [...CAPABILITY_KEYS] });
    const denied = await openProbe(t, context, server);
    const status = await denied.frame.evaluate(() => window.probe.status());
    assert.deepEqual(status.ready.value.capabilities, []);
    for (const row of CAPABILITY_ROWS) {
      const inFrame = await denied.frame.evaluate(([path, args]) => window.probe.method(path, ...args), [row.method[0], row.method.slice(1)]);
      assert.deepEqual([row.key, frameWord(inFrame), inFrame.answeredByHost], [row.key, 'CAPABILITY_NOT_GRANTED', false]);
      const atHost = await denied.frame.evaluate(([c, a, p]) => window.probe.raw(c, a, p), [row.key, ...row.request]);
      assert.deepEqual([row.key, hostWord(atHost)], [row.key, 'CAPABILITY_NOT_GRANTED']);
    }
  });

  await t.test('fail: with every capability failing (--fail), each call is REQUEST_FAILED from the host', async (t) => {
    const server = await startPreview(t, { fail: [...CAPABILITY_KEYS] });
    const failing = await openProbe(t, context, server);
    for (const row of CAPABILITY_ROWS) {
      const inFrame = await failing.frame.evaluate(([path, args]) => window.probe.method(path, ...args), [row.method[0], row.method.slice(1)]);
      assert.deepEqual([row.key, frameWord(inFrame), inFrame.answeredByHost, inFrame.isError], [row.key, 'REQUEST_FAILED', true, true]);
      assert.ok(!/\n|at /.test(inFrame.message), `no host internals: ${inFrame.message}`);
    }
  });

  await t.test('REQUEST_TIMEOUT: a call the host never answers rejects after the (shortened) call timeout', async (t) => {
    const server = await startPreview(t, { runtimeConfig: { requestTimeoutMs: SHORT_TIMEOUT_MS } });
    const short = await openProbe(t, context, server);
    // A raw request shows the channel works until it is cut (a raw request waits for the host, not for the short timeout).
    const before = await short.frame.evaluate(() => window.probe.raw('site.theme.read', 'read', {}));
    assert.equal(hostWord(before), 'ok', 'the channel works until it is cut');
    await short.frame.evaluate(() => window.probe.sever());
    const outcomes = await short.frame.evaluate(() => Promise.all([window.probe.method('theme.read'), window.probe.method('catalog.products', {})]));
    for (const outcome of outcomes) {
      assert.deepEqual([outcome.code, outcome.isError, outcome.answeredByHost], ['REQUEST_TIMEOUT', true, false]);
    }
  });

  await t.test('INITIALIZATION_TIMEOUT: without a channel, ready and every call reject after the (shortened) handshake timeout', async (t) => {
    const server = await startPreview(t, { runtimeConfig: { initializationTimeoutMs: SHORT_TIMEOUT_MS } });
    const direct = await context.newPage();
    t.after(() => direct.close());
    await direct.goto(`${server.url}frame/index.html`);
    await direct.waitForFunction(() => window.probe?.status().ready.settled === true, null, { polling: 20 });
    const status = await direct.evaluate(() => window.probe.status());
    assert.deepEqual([status.ready.ok, status.ready.code, status.ready.isError], [false, 'INITIALIZATION_TIMEOUT', true]);
    assert.equal(status.origin, 'null', 'opened on its own, the frame document is still sandboxed (the policy header)');
    const later = await direct.evaluate(() => window.probe.method('theme.read'));
    assert.equal(later.code, 'INITIALIZATION_TIMEOUT', 'the failed state is final');
  });

  await t.test("the handshake: a parent of another origin is never accepted, even with a perfect init message", async (t) => {
    const server = await startPreview(t, { runtimeConfig: { initializationTimeoutMs: SHORT_TIMEOUT_MS } });
    const frameUrl = `${server.url}frame/index.html`;
    const foreign = createServer((request, response) => {
      response.setHeader('Content-Type', 'text/html; charset=utf-8');
      response.end(
        `<!doctype html><iframe id="f" sandbox="allow-scripts" src="${frameUrl}"></iframe><script>
        const f = document.getElementById('f');
        f.addEventListener('load', () => {
          const channel = new MessageChannel();
          f.contentWindow.postMessage({ type: 'platform.init', protocol: 1 }, '*', [channel.port2]);
          channel.port1.postMessage({ type: 'platform.ready', protocol: 1, capabilities: ['site.theme.read'], settings: {} });
          window.offered = true;
        });
        </script>`,
      );
    });
    await new Promise((resolve) => foreign.listen({ port: 0, host: '127.0.0.1' }, resolve));
    t.after(() => new Promise((resolve) => foreign.close(resolve)));
    const evil = await context.newPage();
    t.after(() => evil.close());
    await evil.goto(`http://127.0.0.1:${foreign.address().port}/`);
    await evil.waitForFunction(() => window.offered === true);
    const inner = evil.frames().find((f) => f.url() === frameUrl);
    await inner.waitForFunction(() => window.probe?.status().ready.settled === true, null, { polling: 20 });
    const status = await inner.evaluate(() => window.probe.status());
    // Accepted, its port would have delivered the ready state waiting on it.
    assert.equal(status.ready.code, 'INITIALIZATION_TIMEOUT');
  });

  await t.test('the handshake: from the right parent, only the exact init message with exactly one port is accepted', async (t) => {
    // A stand-in parent page at the preview's own origin (served by the browser's router,
    // so it can run inline script), embedding the real frame. It offers malformed inits,
    // each with a port that would deliver a ready state naming it, then the good one.
    const parentUrl = `${main.url}handshake-parent.html`;
    const fake = await context.newPage();
    t.after(() => fake.close());
    await fake.route(parentUrl, (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><iframe id="f" sandbox="allow-scripts" src="frame/index.html"></iframe><script>
        const f = document.getElementById('f');
        f.addEventListener('load', () => {
          const w = f.contentWindow;
          const offer = (which, data, ports) => {
            const list = [];
            for (let i = 0; i < ports; i++) {
              const channel = new MessageChannel();
              channel.port1.postMessage({ type: 'platform.ready', protocol: 1, capabilities: ['site.theme.read'], settings: { which } });
              list.push(channel.port2);
            }
            w.postMessage(data, '*', list);
          };
          offer('no-port', { type: 'platform.init', protocol: 1 }, 0);
          offer('two-ports', { type: 'platform.init', protocol: 1 }, 2);
          offer('extra-key', { type: 'platform.init', protocol: 1, extra: true }, 1);
          offer('protocol-two', { type: 'platform.init', protocol: 2 }, 1);
          offer('protocol-string', { type: 'platform.init', protocol: '1' }, 1);
          offer('wrong-type', { type: 'platform.ready', protocol: 1 }, 1);
          offer('a-string', 'platform.init', 1);
          offer('an-array', ['platform.init', 1], 1);
          offer('good', { type: 'platform.init', protocol: 1 }, 1);
        });
        </script>`,
      }),
    );
    const attached = fake.waitForEvent('frameattached');
    await fake.goto(parentUrl);
    const inner = await attached;
    await inner.waitForFunction(() => window.probe?.status().ready.settled === true, null, { polling: 20 });
    const status = await inner.evaluate(() => window.probe.status());
    // Had any earlier offer been accepted, ready would name it (the runtime takes the first it accepts).
    assert.deepEqual(status.ready.value, { capabilities: ['site.theme.read'], settings: { which: 'good' } });
  });

  await t.test(`the ${REQUEST_TIMEOUT_MS} ms call timeout and the ${INITIALIZATION_TIMEOUT_MS} ms handshake timeout are the defaults (fake clock)`, async (t) => {
    const clocked = await browser.newContext();
    t.after(() => clocked.close());
    await clocked.clock.install({ time: 0 });
    await clocked.clock.pauseAt(1000);

    // A call on a cut channel: pending at 9,999 ms, REQUEST_TIMEOUT at 10,000 ms.
    const { frame: f } = await openProbe(t, clocked, main);
    await f.evaluate(() => window.probe.sever());
    const call = await f.evaluate(() => window.probe.launch('site.theme.read', 'read', {}));
    await clocked.clock.runFor(REQUEST_TIMEOUT_MS - 1);
    assert.equal(await f.evaluate((h) => window.probe.outcome(h), call), null, `still pending after ${REQUEST_TIMEOUT_MS - 1} ms`);
    await clocked.clock.runFor(1);
    await f.waitForFunction((h) => window.probe.outcome(h) !== null, call, { polling: 20 });
    assert.equal((await f.evaluate((h) => window.probe.outcome(h), call)).code, 'REQUEST_TIMEOUT');

    // The frame on its own: no channel. Its own code forges an init (ignored: the source is
    // not the parent's origin), and a call waits in the queue.
    const direct = await clocked.newPage();
    t.after(() => direct.close());
    await direct.goto(`${main.url}frame/index.html`);
    await direct.waitForFunction(() => window.probe !== undefined, null, { polling: 20 });
    const queued = await direct.evaluate(() => {
      const channel = new MessageChannel();
      channel.port1.postMessage({ type: 'platform.ready', protocol: 1, capabilities: ['site.theme.read'], settings: {} });
      window.postMessage({ type: 'platform.init', protocol: 1 }, '*', [channel.port2]);
      return window.probe.launch('site.theme.read', 'read', {});
    });
    await clocked.clock.runFor(INITIALIZATION_TIMEOUT_MS - 1);
    assert.equal((await direct.evaluate(() => window.probe.status())).ready.settled, false, `not settled after ${INITIALIZATION_TIMEOUT_MS - 1} ms`);
    assert.equal(await direct.evaluate((h) => window.probe.outcome(h), queued), null);
    await clocked.clock.runFor(1);
    await direct.waitForFunction((h) => window.probe.outcome(h) !== null, queued, { polling: 20 });
    assert.equal((await direct.evaluate(() => window.probe.status())).ready.code, 'INITIALIZATION_TIMEOUT');
    assert.equal((await direct.evaluate((h) => window.probe.outcome(h), queued)).code, 'INITIALIZATION_TIMEOUT', 'a queued call fails with the handshake');
  });

  await t.test('a hostile frame posts 10,000 random and malformed messages: the host stays up, nothing escapes, a correct call still succeeds', async (t) => {
    const hostile = await openProbe(t, context, main);
    await hostile.frame.evaluate(() => window.probe.recordStray(true));
    const sent = await hostile.frame.evaluate(hostileBurst, {
      seed: 0x5eed,
      count: 10_000,
      idBase: 2 ** 41,
      limits: { bytes: MESSAGE_MAX_BYTES, depth: PAYLOAD_MAX_DEPTH, entries: PAYLOAD_MAX_COLLECTION_ENTRIES },
    });
    t.diagnostic(`sent: ${JSON.stringify(sent)}`);
    assert.equal(sent.envelopes + sent.malformed + sent.toParent + sent.refused, 10_000);
    assert.ok(sent.envelopes > 1000 && sent.malformed > 1000 && sent.toParent > 100, 'every kind was sent');

    // Every well-formed envelope gets exactly one answer; every malformed message is dropped and counted.
    await hostile.frame.evaluate((n) => new Promise((resolve) => {
      const check = () => (window.probe.status().seen.strayResponses >= n ? resolve() : requestAnimationFrame(check));
      check();
    }), sent.envelopes);
    await hostile.page.waitForFunction((n) => (document.getElementById('log-dropped').textContent ?? '').startsWith(`${n} malformed message`), sent.malformed);
    assert.equal(await droppedCount(hostile.page), sent.malformed);

    const responses = await hostile.frame.evaluate(() => window.probe.recordStray(false));
    assert.equal(responses.length, sent.envelopes);
    const codes = new Set();
    for (const r of responses) {
      assert.ok(r.id >= 2 ** 41 && r.type === 'platform.response', 'only responses, to the ids asked');
      if (r.ok) {
        assert.deepEqual(Object.keys(r).sort(), ['id', 'ok', 'result', 'type']);
      } else {
        assert.deepEqual(Object.keys(r).sort(), ['error', 'id', 'ok', 'type']);
        assert.deepEqual(Object.keys(r.error).sort(), ['code', 'message']);
        assert.ok(BRIDGE_ERROR_CODE_LIST.includes(r.error.code), r.error.code);
        assert.ok(!/\n\s+at |TypeError|RangeError|undefined is not/.test(r.error.message), `host internals in: ${r.error.message}`);
        codes.add(r.error.code);
      }
    }
    t.diagnostic(`error codes seen: ${[...codes].sort().join(', ')}`);

    const status = await hostile.frame.evaluate(() => window.probe.status());
    assert.equal(status.seen.windowMessages, 0, 'nothing came back to the frame window');
    assert.deepEqual(hostile.log.pageErrors, [], 'no exception in the host page');
    assert.deepEqual(hostile.log.errors, [], 'no console error at all');
    assert.equal(hostile.page.url(), main.url);

    const named = await hostile.frame.evaluate(() => window.probe.method('catalog.products', { search: 'bow' }));
    assert.equal(named.ok, true, 'a correct call through PLATFORM succeeds');
    assert.ok(named.value.products.length > 0);
    const raw = await hostile.frame.evaluate(() => window.probe.raw('site.theme.read', 'read', {}));
    assert.equal(hostWord(raw), 'ok', 'a correct raw request succeeds');
  });

  // The contract offers extension code `window.PLATFORM` (Bridge basics) and the check
  // accepts `<script type="module" async>` (D-18), which runs as soon as it has loaded. The
  // runtime is therefore injected as a classic parser-blocking script: the parser cannot
  // reach the extension's scripts before it has run (BRIDGE_PROTOCOL_DOC "Launch").
  await t.test('an extension module marked async runs only after the runtime, and finds window.PLATFORM defined', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-ext-async-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'runtime'));
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({ schema_version: 1, protocol_version: 1, namespace: 'acme/async-module', version: '1.0.0', name: 'Async', entrypoint: 'index.html', capabilities: [], properties: {} }),
    );
    writeFileSync(join(dir, 'runtime/index.html'), '<!doctype html><html><head><meta charset="utf-8"><title>a</title><script type="module" async src="main.js"></script></head><body></body></html>\n');
    writeFileSync(join(dir, 'runtime/main.js'), 'document.documentElement.dataset.platform = typeof window.PLATFORM;\n');
    const server = await startPreview(t, { projectDir: dir });
    assert.equal(server.status().ok, true, 'the check accepts the project');
    const asyncPage = await context.newPage();
    t.after(() => asyncPage.close());
    // Hold the runtime back: a network where the runtime arrives last, deterministically.
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    let runtimeRequested = false;
    await asyncPage.route('**/frame/.platform/runtime.js', async (route) => {
      runtimeRequested = true;
      await held;
      await route.continue();
    });
    // Not waiting for `load`: the page's load waits for the frame's, which waits for the held runtime.
    await asyncPage.goto(server.url, { waitUntil: 'commit' });
    const inner = await extensionFrame(asyncPage);
    // main.js has loaded long before this wait ends (nothing holds it); a module-script
    // runtime would let it run now and see no PLATFORM.
    const ranEarly = await inner
      .waitForFunction(() => document.documentElement?.dataset.platform !== undefined, null, { timeout: 500 })
      .then(() => true, () => false);
    assert.equal(runtimeRequested, true, 'the runtime was requested and is being held');
    assert.equal(ranEarly, false, 'no extension script runs while the runtime is still loading');
    release();
    await inner.waitForFunction(() => document.documentElement.dataset.platform !== undefined);
    assert.equal(await inner.evaluate(() => document.documentElement.dataset.platform), 'object');
  });

  await t.test('no uncaught exception in the main host page through all of the above', () => {
    assert.deepEqual(log.pageErrors, []);
  });
});

/**
 * Runs in the frame: `count` messages from a seeded generator. About 10% go to the parent
 * window (which has no listener: the protocol is on the port), about 30% are well-formed
 * request envelopes with random members (the host must answer each), the rest break the
 * envelope in one way (the host must drop each). Values the browser cannot clone are
 * refused by postMessage itself and counted apart.
 */
function hostileBurst({ seed, count, idBase, limits }) {
  let a = seed >>> 0;
  const rng = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (items) => items[Math.floor(rng() * items.length)];
  const int = (n) => Math.floor(rng() * n);
  const capabilities = [
    'analytics.events.write',
    'booking.availability.read',
    'booking.create',
    'cart.manage',
    'catalog.products.read',
    'communications.sms.open',
    'forms.submit',
    'site.theme.read',
    'waivers.start',
    'camera.open',
    '',
    'cart.manage ',
    '__proto__',
  ];
  const actions = ['track', 'list', 'start', 'add', 'remove', 'update', 'open', 'submit', 'read', 'delete', '', 'constructor'];
  const keys = ['event', 'properties', 'label', 'value', 'productId', 'quantity', 'search', 'page', 'limit', 'form', 'fields', 'email', 'waiver', 'x', '__proto__', 'constructor'];
  const text = () => {
    const length = pick([0, 1, 5, 40, 130, 600]);
    let s = '';
    for (let i = 0; i < length; i++) s += String.fromCharCode(pick([0x20 + int(95), int(0x20), 0xd800 + int(0x800), 0x4e00 + int(200)]));
    return s;
  };
  const value = (depth) => {
    const kind = int(depth > 4 ? 8 : 16);
    switch (kind) {
      case 0:
        return int(3000) - 1000;
      case 1:
        return pick([NaN, Infinity, -0, 1e308, 2 ** 53, 0.5]);
      case 2:
        return text();
      case 3:
        return pick([true, false, null, undefined]);
      case 4:
        return BigInt(int(100));
      case 5:
        return pick([() => new Date(int(1e12)), () => new Map([[1, 2]]), () => new Set([1]), () => /x/g, () => new Uint8Array(3), () => new Error('e')])();
      case 6:
        return 'x'.repeat(pick([10, limits.bytes]));
      case 7:
        return Object.create(null);
      case 8:
      case 9:
      case 10: {
        const list = [];
        const n = pick([0, 1, 3, limits.entries + 1]);
        for (let i = 0; i < n; i++) list.push(i < 5 ? value(depth + 1) : i);
        return list;
      }
      case 11: {
        let v = 0;
        for (let i = 0, n = pick([5, limits.depth, 40]); i < n; i++) v = [v];
        return v;
      }
      default: {
        const o = {};
        for (let i = int(5); i > 0; i--) o[pick(keys)] = value(depth + 1);
        if (rng() < 0.05) o.self = o;
        return o;
      }
    }
  };
  let next = idBase;
  const envelope = () => ({ type: 'platform.request', id: next++, capability: rng() < 0.8 ? pick(capabilities) : value(3), action: rng() < 0.8 ? pick(actions) : value(3), payload: value(0) });
  // Each breaks exactly one rule of the envelope (exact keys, type, id, plain object) or is not an object.
  const breakers = [
    (m) => ({ ...m, extra: 1 }),
    (m) => {
      const copy = { ...m };
      delete copy[pick(['type', 'id', 'capability', 'action', 'payload'])];
      return copy;
    },
    (m) => ({ ...m, type: pick(['platform.response', 'platform.init', 'platform.ready', 'platform.request ', 'PLATFORM.REQUEST', 1, null]) }),
    (m) => ({ ...m, id: pick([0, -1, 1.5, NaN, Infinity, '7', null, 2 ** 53, undefined, 10n]) }),
    (m) => [m.type, m.id, m.capability, m.action, m.payload],
    (m) => Object.assign(new Date(0), m),
    (m) => Object.assign(new Map(), m),
    () => value(0),
    () => pick([null, undefined, 0, '', 'platform.request', true, 7n]),
    () => ({ type: 'platform.response', id: 1, ok: true, result: {} }),
    () => ({ type: 'platform.ready', protocol: 1, capabilities: [], settings: {} }),
    () => new Blob(['platform.request']),
  ];
  const isEnvelopeBreaking = (message) => message === null || typeof message !== 'object' || Array.isArray(message) || Object.getPrototypeOf(message) !== Object.prototype
    || message.type !== 'platform.request' || !Number.isSafeInteger(message.id) || message.id < 1
    || Object.keys(message).sort().join() !== 'action,capability,id,payload,type';
  const counts = { envelopes: 0, malformed: 0, toParent: 0, refused: 0 };
  const send = window.probe.post;
  for (let i = 0; i < count; i++) {
    const roll = rng();
    if (roll < 0.1) {
      try {
        window.parent.postMessage(rng() < 0.5 ? envelope() : value(0), '*');
        counts.toParent++;
      } catch {
        counts.refused++;
      }
      continue;
    }
    const message = roll < 0.4 ? envelope() : pick(breakers)(envelope());
    // A random member can make a "well-formed" draw malformed and vice versa: judge the message itself.
    const wellFormed = !isEnvelopeBreaking(message);
    const outcome = send(message);
    if (outcome !== 'posted') counts.refused++;
    else if (wellFormed) counts.envelopes++;
    else counts.malformed++;
  }
  return counts;
}
