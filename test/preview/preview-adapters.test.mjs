// The preview's mock store (src/preview/mock-store.ts): deterministic sample data behind the
// bridge's Adapters interface. Rows say what they prove; both sides of each boundary.
// Requests are normalized with the validator's checkRequest first, the way the host
// bridge hands them over, so the adapters are tested on exactly what they will receive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createMockStore,
  formatCents,
  formFieldProblem,
  themeValueProblem,
  availabilityFor,
  DEFAULT_THEME,
  LANES,
  SAMPLE_PRODUCTS,
  STORE_RECORDS_MAX,
  STORE_SMS_NUMBER,
  STORE_UTC_OFFSET,
  THEME_FIELDS,
  THEME_VALUE_MAX_CHARS,
} from '../../build/preview/mock-store.js';
import { AdapterUnavailable, isAdapterUnavailable } from '../../build/bridge/adapters.js';
import { checkRequest } from '../../build/validator/bridge/requests.js';
import { CAPABILITY_KEYS } from '../../build/validator/capabilities.js';
import {
  CART_QUANTITY_MAX,
  CATALOG_LIMITS,
  FORM_EMAIL_MAX_CHARS,
  FORM_MESSAGE_MAX_CHARS,
  FORM_NAME_MAX_CHARS,
  FORM_PHONE_MAX_CHARS,
  FORM_QUESTION_TYPE_MAX,
  FORM_QUESTION_TYPE_MIN,
  FORM_SUBJECT_MAX_CHARS,
  MESSAGE_MAX_BYTES,
} from '../../build/validator/limits.js';

/** The payload the host bridge would pass on, after checkRequest normalized it. */
function normalized(capability, action, payload) {
  const checked = checkRequest({ capability, action, payload }, CAPABILITY_KEYS, CAPABILITY_KEYS);
  assert.equal(checked.ok, true, `${capability} ${action} ${JSON.stringify(payload)}: ${checked.message}`);
  return checked.payload;
}

/** UTF-8 bytes of the response message that carries `result` (D-23 counts the whole message). */
const responseBytes = (result) => Buffer.byteLength(JSON.stringify({ type: 'platform.response', id: 1, ok: true, result }));
const list = (store, query = {}) => store.adapters.catalog.list(normalized('catalog.products.read', 'list', query));
const cart = (store, action, details) => store.adapters.cart[action](normalized('cart.manage', action, details));

// ---------------------------------------------------------------------------------------
// Sample catalogue

test('sample products: at least 60, closed contract shape, unique ids, formatted prices, data: images', () => {
  assert.ok(SAMPLE_PRODUCTS.length >= 60, `only ${SAMPLE_PRODUCTS.length}`);
  const ids = new Set();
  const names = new Set();
  for (const p of SAMPLE_PRODUCTS) {
    // Catalog product: exactly id, name, url, image, price, inStock.
    assert.deepEqual(Object.keys(p).sort(), ['id', 'image', 'inStock', 'name', 'price', 'url']);
    assert.ok(Number.isInteger(p.id) && p.id > 0, `id ${p.id}`);
    assert.match(p.url, /^\/products\/[a-z0-9-]+$/);
    assert.match(p.price, /^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    // The runtime policy (D-17) allows images only from the base URL and data:.
    assert.match(p.image, /^data:image\/svg\+xml,/);
    assert.ok(!/[\s"'<>]/.test(p.image), 'the data URL is fully encoded');
    ids.add(p.id);
    names.add(p.name);
  }
  assert.equal(ids.size, SAMPLE_PRODUCTS.length, 'unique ids');
  assert.equal(names.size, SAMPLE_PRODUCTS.length, 'unique names');
  assert.ok(SAMPLE_PRODUCTS.some((p) => p.inStock) && SAMPLE_PRODUCTS.some((p) => !p.inStock), 'both stock states');
});

test('catalog: pages, limit 12 or 24, includeOutOfStock, search', async () => {
  const store = createMockStore();
  const total = SAMPLE_PRODUCTS.length;
  const inStock = SAMPLE_PRODUCTS.filter((p) => p.inStock).length;
  const rows = [
    // [query, expected {count, total, page, lastPage}, what it proves]
    [{}, { count: 12, total, page: 1, lastPage: Math.ceil(total / 12) }, 'defaults: page 1, limit 12, out of stock included'],
    [{ limit: 24 }, { count: 24, total, page: 1, lastPage: Math.ceil(total / 24) }, 'limit 24'],
    [{ page: Math.ceil(total / 12) }, { count: total - 12 * (Math.ceil(total / 12) - 1), total, page: Math.ceil(total / 12), lastPage: Math.ceil(total / 12) }, 'last page holds the rest'],
    [{ page: Math.ceil(total / 12) + 1 }, { count: 0, total, page: Math.ceil(total / 12) + 1, lastPage: Math.ceil(total / 12) }, 'past the last page: empty, page echoed'],
    [{ page: 1000 }, { count: 0, total, page: 1000, lastPage: Math.ceil(total / 12) }, 'page 1000 (the bound) is answered'],
    [{ includeOutOfStock: false }, { count: 12, total: inStock, page: 1, lastPage: Math.ceil(inStock / 12) }, 'in stock only'],
    [{ includeOutOfStock: true, limit: 24, page: 2 }, { count: 24, total, page: 2, lastPage: Math.ceil(total / 24) }, 'second page of 24'],
    [{ search: 'arrows' }, { count: 8, total: 8, page: 1, lastPage: 1 }, 'search: two base products in four finishes'],
    [{ search: 'ARROWS  forest' }, { count: 2, total: 2, page: 1, lastPage: 1 }, 'search: every word, any letter case'],
    [{ search: 'no such thing' }, { count: 0, total: 0, page: 1, lastPage: 1 }, 'search without a match: lastPage stays 1'],
    [{ search: '' }, { count: 12, total, page: 1, lastPage: Math.ceil(total / 12) }, 'empty search matches everything'],
  ];
  for (const [query, expected, what] of rows) {
    const result = await list(store, query);
    assert.deepEqual(Object.keys(result).sort(), ['lastPage', 'page', 'products', 'total'], what);
    assert.deepEqual(
      { count: result.products.length, total: result.total, page: result.page, lastPage: result.lastPage },
      expected,
      what,
    );
    if (query.includeOutOfStock === false) assert.ok(result.products.every((p) => p.inStock), what);
    if (query.search) {
      const words = query.search.toLowerCase().split(/\s+/).filter(Boolean);
      assert.ok(result.products.every((p) => words.every((w) => p.name.toLowerCase().includes(w))), what);
    }
  }
  // Pages do not overlap and together list every product once, in order.
  const seen = [];
  for (let page = 1; page <= Math.ceil(total / 24); page++) seen.push(...(await list(store, { limit: 24, page })).products.map((p) => p.id));
  assert.deepEqual(seen, SAMPLE_PRODUCTS.map((p) => p.id));
  // A page is frozen, products included, and its products array is its own (an ordinary
  // array, which crosses the bridge cheaper than a frozen one): a caller cannot change what
  // the next call gets.
  const first = await list(store);
  assert.throws(() => {
    first.products[0].name = 'changed';
  }, TypeError);
  assert.throws(() => {
    first.total = 0;
  }, TypeError);
  first.products.push(first.products[0]);
  first.products.reverse();
  const next = await list(store);
  assert.notEqual(next.products, first.products, 'each answer has an array of its own');
  assert.equal(next.products.length, 12);
  assert.equal(next.products[0].name, SAMPLE_PRODUCTS[0].name);
  // Both limits of the contract fit in one bridge message, images included.
  for (const limit of CATALOG_LIMITS) {
    const page = await list(store, { limit });
    assert.ok(responseBytes(page) < MESSAGE_MAX_BYTES, `limit ${limit}`);
  }
  // The default page stays light: a larger message costs more per call in the browser
  // (bench/bridge.mjs prints the size). 8.9 KB with the earlier pictures, 5.8 KB now.
  assert.ok(responseBytes(await list(store)) < 6000);
});

test('catalog: --empty-catalog gives zero products, and the cart has nothing to add', async () => {
  const store = createMockStore({ emptyCatalog: true });
  for (const query of [{}, { limit: 24 }, { search: 'bow' }, { page: 3, includeOutOfStock: false }]) {
    const result = await list(store, query);
    assert.deepEqual(result, { products: [], total: 0, page: query.page ?? 1, lastPage: 1 }, JSON.stringify(query));
  }
  assert.deepEqual(await cart(store, 'add', { productId: SAMPLE_PRODUCTS[0].id }), { ok: false, itemCount: 0, total: '$0.00' });
});

test('the store is deterministic: two stores answer the same calls identically', async () => {
  const a = createMockStore();
  const b = createMockStore();
  const calls = async (store) => [
    await list(store, { search: 'bow', limit: 24 }),
    await cart(store, 'add', { productId: SAMPLE_PRODUCTS[1].id, quantity: 3 }),
    await store.adapters.booking.availability(normalized('booking.availability.read', 'list', { laneId: 2, date: '2026-05-14', durationMinutes: 45 })),
  ];
  assert.deepEqual(await calls(a), await calls(b));
});

// ---------------------------------------------------------------------------------------
// Cart

test('formatted amounts: cents, thousands separators, no locale', () => {
  const rows = [
    [0, '$0.00'],
    [5, '$0.05'],
    [99, '$0.99'],
    [100, '$1.00'],
    [99999, '$999.99'],
    [100000, '$1,000.00'],
    [123456789, '$1,234,567.89'],
  ];
  for (const [cents, text] of rows) assert.equal(formatCents(cents), text, String(cents));
});

test('cart maths: add, update, remove, item count and formatted totals', async () => {
  const store = createMockStore();
  const [a, b] = SAMPLE_PRODUCTS.filter((p) => p.inStock);
  const soldOut = SAMPLE_PRODUCTS.find((p) => !p.inStock);
  const cents = (p) => Math.round(Number(p.price.replace(/[$,]/g, '')) * 100);
  const steps = [
    // [action, details, expected ok, expected item count, expected total in cents, what]
    ['add', { productId: a.id }, true, 1, cents(a), 'quantity defaults to 1'],
    ['add', { productId: a.id, quantity: 2 }, true, 3, 3 * cents(a), 'adding again adds to the line'],
    ['add', { productId: b.id, quantity: 4 }, true, 7, 3 * cents(a) + 4 * cents(b), 'a second line'],
    ['update', { productId: b.id, quantity: 1 }, true, 4, 3 * cents(a) + cents(b), 'update sets the quantity'],
    ['remove', { productId: a.id }, true, 3, 2 * cents(a) + cents(b), 'remove takes one by default'],
    ['remove', { productId: a.id, quantity: 2 }, true, 1, cents(b), 'removing exactly what the line holds removes the line'],
    ['update', { productId: a.id, quantity: 1 }, false, 1, cents(b), 'so the line is gone: update refused'],
    ['add', { productId: a.id }, true, 2, cents(a) + cents(b), 'back in the cart'],
    ['remove', { productId: a.id, quantity: 5 }, true, 1, cents(b), 'removing more than the line holds removes the line'],
    ['remove', { productId: a.id }, false, 1, cents(b), 'removing a product not in the cart: ok false, no change'],
    ['update', { productId: a.id, quantity: 2 }, false, 1, cents(b), 'updating a product not in the cart: ok false'],
    ['add', { productId: soldOut.id }, false, 1, cents(b), 'out of stock: ok false'],
    ['add', { productId: 1 }, false, 1, cents(b), 'unknown product id: ok false'],
    ['add', { productId: 9007199254740991 }, false, 1, cents(b), 'largest positive integer id: ok false, no error'],
    ['update', { productId: b.id, quantity: CART_QUANTITY_MAX }, true, CART_QUANTITY_MAX, CART_QUANTITY_MAX * cents(b), 'a line can hold the quantity bound'],
    ['add', { productId: b.id }, false, CART_QUANTITY_MAX, CART_QUANTITY_MAX * cents(b), 'one more than the bound on a line is refused'],
  ];
  for (const [action, details, ok, itemCount, totalCents, what] of steps) {
    const result = await cart(store, action, details);
    assert.deepEqual(result, { ok, itemCount, total: formatCents(totalCents) }, what);
  }
  assert.deepEqual(
    store.cart().lines.map((l) => [l.product.id, l.quantity, l.total]),
    [[b.id, CART_QUANTITY_MAX, formatCents(CART_QUANTITY_MAX * cents(b))]],
  );
  store.clearCart();
  assert.deepEqual(await cart(store, 'add', { productId: a.id }), { ok: true, itemCount: 1, total: a.price });
});

test('cart: every operation is reported to the page, and input the contract forbids is refused', async () => {
  const activities = [];
  const store = createMockStore({ onActivity: (a) => activities.push(a) });
  const id = SAMPLE_PRODUCTS[0].id;
  await cart(store, 'add', { productId: id });
  await cart(store, 'remove', { productId: id + 1 });
  assert.deepEqual(activities, [
    { kind: 'cart', action: 'add', ok: true },
    { kind: 'cart', action: 'remove', ok: false },
  ]);
  // Called directly with what checkRequest would refuse: the adapter throws (REQUEST_FAILED at the host).
  for (const details of [{ productId: 0 }, { productId: 1.5 }, { productId: id, quantity: 0 }, { productId: id, quantity: CART_QUANTITY_MAX + 1 }]) {
    await assert.rejects(store.adapters.cart.add(details), JSON.stringify(details));
  }
});

// ---------------------------------------------------------------------------------------
// Theme

test('theme: twelve fields in the contract order, editable with CSS values only', async () => {
  const store = createMockStore();
  const theme = await store.adapters.theme.read();
  assert.deepEqual(Object.keys(theme), [...THEME_FIELDS]);
  assert.equal(THEME_FIELDS.length, 12);
  for (const field of THEME_FIELDS) assert.equal(typeof theme[field], 'string', field);
  assert.deepEqual(theme, { ...DEFAULT_THEME });
  assert.equal(store.setTheme('primary', 'rebeccapurple'), null);
  assert.equal((await store.adapters.theme.read()).primary, 'rebeccapurple');
  theme.primary = 'changed';
  assert.equal((await store.adapters.theme.read()).primary, 'rebeccapurple', 'read returns a copy');
  const rows = [
    // [value, refused?, what]
    ['#ff0000', false, 'hex colour'],
    ["'Helvetica Neue', Arial, sans-serif", false, 'font stack with quotes'],
    ['calc(1rem + 2px)', false, 'function'],
    ['x'.repeat(THEME_VALUE_MAX_CHARS), false, 'at the length bound'],
    ['x'.repeat(THEME_VALUE_MAX_CHARS + 1), true, 'one over the length bound'],
    ['', true, 'empty'],
    ['   ', true, 'blank'],
    ['red; background: url(x)', true, 'ends the declaration'],
    ['red} body{color:red', true, 'ends the rule'],
    ['<b>red</b>', true, 'markup'],
    ['red\\;', true, 'backslash escape'],
    ['red\nblue', true, 'control character'],
  ];
  for (const [value, refused, what] of rows) {
    assert.equal(themeValueProblem(value) !== null, refused, what);
    const before = store.theme().secondary;
    const problem = store.setTheme('secondary', value);
    assert.equal(problem !== null, refused, what);
    assert.equal(store.theme().secondary, refused ? before : value, what);
  }
  assert.notEqual(store.setTheme('notAField', 'red'), null, 'unknown field');
  store.resetTheme();
  assert.deepEqual(store.theme(), { ...DEFAULT_THEME });
});

// ---------------------------------------------------------------------------------------
// Booking

test('booking availability: lanes and slots by date and duration', async () => {
  const store = createMockStore();
  const query = (laneId, date, durationMinutes) =>
    store.adapters.booking.availability(normalized('booking.availability.read', 'list', { laneId, date, durationMinutes }));
  assert.ok(LANES.length >= 2);
  // 2026-05-14 is a Thursday; 2026-05-11 a Monday (closed).
  const rows = [
    // [lane, date, duration, open, slot count, first start, last end, what]
    [1, '2026-05-14', 60, true, 19, '10:00:00', '20:00:00', 'an hour: starts every half hour, the last one ends at closing'],
    [1, '2026-05-14', 30, true, 20, '10:00:00', '20:00:00', 'half an hour'],
    [1, '2026-05-14', 5, true, 20, '10:00:00', '19:35:00', 'the shortest duration'],
    [2, '2026-05-14', 600, true, 1, '10:00:00', '20:00:00', 'exactly the opening hours'],
    [2, '2026-05-14', 601, true, 0, null, null, 'one minute longer than the day'],
    [3, '2026-05-14', 720, true, 0, null, null, 'the longest duration'],
    [1, '2026-05-11', 60, false, 0, null, null, 'Monday: closed'],
    [LANES.at(-1).id, '2028-02-29', 90, true, 18, '10:00:00', '20:00:00', 'leap day, last lane'],
  ];
  for (const [lane, date, duration, open, count, firstStart, lastEnd, what] of rows) {
    const result = await query(lane, date, duration);
    assert.equal(result.lane.id, lane, what);
    assert.equal(result.date, date, what);
    assert.equal(result.durationMinutes, duration, what);
    assert.equal(result.open, open, what);
    assert.equal(result.slots.length, count, what);
    if (count > 0) {
      assert.equal(result.slots[0].startsAt, `${date}T${firstStart}${STORE_UTC_OFFSET}`, what);
      assert.equal(result.slots.at(-1).endsAt, `${date}T${lastEnd}${STORE_UTC_OFFSET}`, what);
      for (const slot of result.slots) {
        const minutes = (Date.parse(slot.endsAt) - Date.parse(slot.startsAt)) / 60000;
        assert.equal(minutes, duration, `${what}: slot length`);
        assert.equal(typeof slot.available, 'boolean');
      }
    }
  }
  const day = await query(1, '2026-05-14', 30);
  assert.ok(day.slots.some((s) => s.available) && day.slots.some((s) => !s.available), 'free and taken slots both occur');
  assert.deepEqual(await query(1, '2026-05-14', 30), day, 'the same question, the same answer');
  assert.notDeepEqual((await query(2, '2026-05-14', 30)).slots, day.slots, 'lanes differ');
  // Unknown lanes and dates that do not exist: the adapter throws (REQUEST_FAILED at the host).
  await assert.rejects(store.adapters.booking.availability({ laneId: LANES.at(-1).id + 1, date: '2026-05-14', durationMinutes: 60 }));
  await assert.rejects(store.adapters.booking.availability({ laneId: 1, date: '2026-02-30', durationMinutes: 60 }));
  assert.throws(() => availabilityFor(1, '2026-13-01', 60));
});

test('booking start opens the flow with what was given', async () => {
  const activities = [];
  const store = createMockStore({ onActivity: (a) => activities.push(a) });
  const rows = [
    [{}, '/booking'],
    [{ laneId: 3 }, '/booking?lane=3'],
    [
      { laneId: 2, startsAt: '2026-05-14T10:00:00-05:00', endsAt: '2026-05-14T11:00:00-05:00' },
      '/booking?lane=2&startsAt=2026-05-14T10%3A00%3A00-05%3A00&endsAt=2026-05-14T11%3A00%3A00-05%3A00',
    ],
  ];
  for (const [details, url] of rows) {
    assert.deepEqual(await store.adapters.booking.start(normalized('booking.create', 'start', details)), { opened: true, url });
  }
  assert.deepEqual(activities.map((a) => a.kind), ['booking-opened', 'booking-opened', 'booking-opened']);
});

// ---------------------------------------------------------------------------------------
// Forms

const CONTACT = { name: 'Ada', email: 'ada@example.com', phone: '+1 555 0101', subject: 'Lessons', message: 'Do you teach beginners?' };

test('forms: the contract field table, both sides of every bound', () => {
  const rows = [
    // [form, fields, refused?, what]
    ['newsletter', { email: 'a@b.co' }, false, 'newsletter email'],
    ['newsletter', { email: 'x'.repeat(FORM_EMAIL_MAX_CHARS) }, false, `email at ${FORM_EMAIL_MAX_CHARS}`],
    ['newsletter', { email: 'x'.repeat(FORM_EMAIL_MAX_CHARS + 1) }, true, `email at ${FORM_EMAIL_MAX_CHARS + 1}`],
    ['newsletter', {}, true, 'newsletter without email'],
    ['newsletter', { email: 'a@b.co', name: 'x' }, true, 'a contact field on the newsletter'],
    ['contact', CONTACT, false, 'contact without questionType'],
    ['contact', { ...CONTACT, questionType: FORM_QUESTION_TYPE_MIN }, false, `questionType ${FORM_QUESTION_TYPE_MIN}`],
    ['contact', { ...CONTACT, questionType: FORM_QUESTION_TYPE_MAX }, false, `questionType ${FORM_QUESTION_TYPE_MAX}`],
    ['contact', { ...CONTACT, questionType: FORM_QUESTION_TYPE_MIN - 1 }, true, `questionType ${FORM_QUESTION_TYPE_MIN - 1}`],
    ['contact', { ...CONTACT, questionType: FORM_QUESTION_TYPE_MAX + 1 }, true, `questionType ${FORM_QUESTION_TYPE_MAX + 1}`],
    ['contact', { ...CONTACT, questionType: 2.5 }, true, 'questionType not an integer'],
    ['contact', { ...CONTACT, name: 'x'.repeat(FORM_NAME_MAX_CHARS) }, false, 'name at the bound'],
    ['contact', { ...CONTACT, name: 'x'.repeat(FORM_NAME_MAX_CHARS + 1) }, true, 'name over the bound'],
    ['contact', { ...CONTACT, phone: '1'.repeat(FORM_PHONE_MAX_CHARS) }, false, 'phone at the bound'],
    ['contact', { ...CONTACT, phone: '1'.repeat(FORM_PHONE_MAX_CHARS + 1) }, true, 'phone over the bound'],
    ['contact', { ...CONTACT, subject: 'x'.repeat(FORM_SUBJECT_MAX_CHARS) }, false, 'subject at the bound'],
    ['contact', { ...CONTACT, subject: 'x'.repeat(FORM_SUBJECT_MAX_CHARS + 1) }, true, 'subject over the bound'],
    ['contact', { ...CONTACT, message: 'x'.repeat(FORM_MESSAGE_MAX_CHARS) }, false, 'message at the bound'],
    ['contact', { ...CONTACT, message: 'x'.repeat(FORM_MESSAGE_MAX_CHARS + 1) }, true, 'message over the bound'],
    ['contact', { ...CONTACT, message: '😀'.repeat(FORM_MESSAGE_MAX_CHARS / 2) }, false, 'characters are UTF-16 code units (D-10): at the bound'],
    ['contact', { ...CONTACT, message: `x${'😀'.repeat(FORM_MESSAGE_MAX_CHARS / 2)}` }, true, 'UTF-16 code units: one over'],
    ['contact', { ...CONTACT, name: 42 }, true, 'name not a string'],
    ['contact', { ...CONTACT, extra: 'x' }, true, 'unknown field'],
    ['contact', {}, false, 'no contact field is mandatory (D-26)'],
    ['contact', { message: 'Hi' }, false, 'a message alone (D-26)'],
    ['order', { email: 'a@b.co' }, true, 'unknown form'],
  ];
  for (const [form, fields, refused, what] of rows) {
    assert.equal(formFieldProblem(form, fields) !== null, refused, what);
    // The host's request check agrees with the adapter's on every row.
    const checked = checkRequest({ capability: 'forms.submit', action: 'submit', payload: { form, fields } }, ['forms.submit'], ['forms.submit']);
    assert.equal(!checked.ok, refused, `${what}: checkRequest agrees`);
  }
});

test('forms: submissions the store accepts are recorded; the rest answer ok false', async () => {
  const store = createMockStore();
  const submit = (form, fields) => {
    const p = normalized('forms.submit', 'submit', { form, fields });
    return store.adapters.forms.submit(p.form, p.fields);
  };
  const rows = [
    ['newsletter', { email: 'ada@example.com' }, true, 'a plausible email'],
    ['newsletter', { email: 'not an email' }, false, 'not an email'],
    ['newsletter', { email: 'ada@localhost' }, false, 'no dot in the domain'],
    ['newsletter', { email: '' }, false, 'empty email'],
    ['contact', CONTACT, true, 'a full contact form'],
    ['contact', { ...CONTACT, message: '  \n ' }, false, 'blank message'],
    ['contact', { ...CONTACT, email: '' }, false, 'blank email'],
    ['contact', { ...CONTACT, phone: '', subject: '', name: '' }, true, 'optional-in-practice fields left empty'],
    ['contact', { phone: '+1 555 0101', message: 'Call me' }, true, 'no email, but a phone to reply to'],
    ['contact', { message: 'Hello' }, false, 'no way to reply'],
    ['contact', { email: 'ada@example.com' }, false, 'no message'],
    ['contact', {}, false, 'an empty contact form'],
  ];
  for (const [form, fields, ok, what] of rows) assert.deepEqual(await submit(form, fields), { ok }, what);
  assert.deepEqual(
    store.forms().map((r) => [r.form, r.fields.email, r.fields.questionType]),
    [
      ['newsletter', 'ada@example.com', undefined],
      ['contact', CONTACT.email, FORM_QUESTION_TYPE_MAX],
      ['contact', CONTACT.email, FORM_QUESTION_TYPE_MAX],
      ['contact', undefined, FORM_QUESTION_TYPE_MAX],
    ],
    'questionType defaults to 9 through the request check',
  );
  await assert.rejects(store.adapters.forms.submit('contact', { ...CONTACT, extra: 1 }), 'direct call outside the table throws');
});

// ---------------------------------------------------------------------------------------
// SMS, waivers, analytics

test('text message: opens while the store has a number, ADAPTER_UNAVAILABLE when the switch is off', async () => {
  let available = true;
  const activities = [];
  const store = createMockStore({ smsAvailable: () => available, onActivity: (a) => activities.push(a) });
  const open = (payload) => store.adapters.sms.open(normalized('communications.sms.open', 'open', payload).message);
  assert.deepEqual(await open({ message: 'Is lane 2 free?' }), { opened: true });
  assert.deepEqual(await open({}), { opened: true });
  available = false;
  await assert.rejects(open({ message: 'hello' }), (error) => {
    assert.ok(error instanceof AdapterUnavailable);
    assert.ok(isAdapterUnavailable(error));
    assert.equal(error.code, 'ADAPTER_UNAVAILABLE');
    return true;
  });
  available = true;
  assert.deepEqual(await open({}), { opened: true }, 'the switch is read at each call');
  assert.deepEqual(activities, [
    { kind: 'sms-opened', to: STORE_SMS_NUMBER, message: 'Is lane 2 free?' },
    { kind: 'sms-opened', to: STORE_SMS_NUMBER, message: '' },
    { kind: 'sms-opened', to: STORE_SMS_NUMBER, message: '' },
  ]);
});

test('waivers: range, rental and class; null or omitted means range', async () => {
  const store = createMockStore();
  const rows = [
    [{}, '/waivers/range'],
    [{ waiver: null }, '/waivers/range'],
    [{ waiver: 'range' }, '/waivers/range'],
    [{ waiver: 'rental' }, '/waivers/rental'],
    [{ waiver: 'class' }, '/waivers/class'],
  ];
  for (const [payload, url] of rows) {
    assert.deepEqual(await store.adapters.waivers.start(normalized('waivers.start', 'start', payload).waiver), { opened: true, url }, JSON.stringify(payload));
  }
  await assert.rejects(store.adapters.waivers.start('party'));
});

test('analytics: recorded with consent, nothing recorded without it', async () => {
  let consent = true;
  const store = createMockStore({ consent: () => consent });
  const track = (payload) => {
    const p = normalized('analytics.events.write', 'track', payload);
    return store.adapters.analytics.track(p.event, p.properties);
  };
  assert.deepEqual(await track({ event: 'view' }), { tracked: true });
  assert.deepEqual(await track({ event: 'add_to_cart', properties: { label: 'Recurve Bow', value: 189 } }), { tracked: true });
  consent = false;
  assert.deepEqual(await track({ event: 'ignored', properties: { label: 'x' } }), { tracked: false });
  consent = true;
  assert.deepEqual(await track({ event: 'checkout', properties: { value: 0 } }), { tracked: true });
  assert.deepEqual(store.analytics(), [
    { sequence: 1, event: 'view' },
    { sequence: 2, event: 'add_to_cart', label: 'Recurve Bow', value: 189 },
    { sequence: 3, event: 'checkout', value: 0 },
  ]);
  // The default store (no switch given) records: consent is the page's default.
  const plain = createMockStore();
  assert.deepEqual(await plain.adapters.analytics.track('x', {}), { tracked: true });
});

test(`the store keeps the newest ${STORE_RECORDS_MAX} analytics events and accepted forms; sequence numbers count them all`, async () => {
  const store = createMockStore();
  for (const count of [STORE_RECORDS_MAX, STORE_RECORDS_MAX + 1, 2 * STORE_RECORDS_MAX + 5]) {
    while ((store.analytics().at(-1)?.sequence ?? 0) < count) await store.adapters.analytics.track('tick', {});
    const kept = store.analytics();
    assert.equal(kept.length, STORE_RECORDS_MAX, `after ${count}`);
    assert.deepEqual([kept[0].sequence, kept.at(-1).sequence], [count - STORE_RECORDS_MAX + 1, count], `after ${count}`);
  }
  for (let i = 1; i <= STORE_RECORDS_MAX + 1; i++) await store.adapters.forms.submit('newsletter', { email: `v${i}@example.com` });
  const forms = store.forms();
  assert.equal(forms.length, STORE_RECORDS_MAX);
  assert.deepEqual([forms[0].fields.email, forms.at(-1).fields.email], ['v2@example.com', `v${STORE_RECORDS_MAX + 1}@example.com`]);
});
