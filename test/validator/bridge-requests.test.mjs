// Request schemas and D-23's check order (src/validator/bridge/requests.ts): every field
// of every capability and action on both sides of its bound (characters are UTF-16 code
// units, D-10, probed with a surrogate pair at the boundary), defaults, closed objects,
// the capability stage (unknown, undeclared, not granted), and the order of the stages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRequest, checkStructure, checkCall, ACTION_SPECS, FORM_FIELDS, isDate, isDateTimeWithOffset } from '../../build/validator/bridge/requests.js';
import { messageSize } from '../../build/validator/bridge/payload.js';
import { requestEnvelopeBytes, MESSAGE_TYPES } from '../../build/validator/bridge/messages.js';
import { CAPABILITY_KEYS, CAPABILITIES } from '../../build/validator/capabilities.js';
import * as L from '../../build/validator/limits.js';

const ALL = CAPABILITY_KEYS;
const code = (r) => (r.ok ? 'ok' : r.code);
const call = (capability, action, payload) => checkRequest({ id: 1, capability, action, payload }, ALL, ALL);
const verdict = (capability, action, payload) => code(call(capability, action, payload));

/** A string of exactly `n` UTF-16 code units ending in a surrogate pair (n >= 2). */
const withPair = (n) => 'a'.repeat(n - 2) + '😀';
const text = (n) => 'a'.repeat(n);

/**
 * Both sides of a character bound: max units ok, max + 1 refused, each built two ways (ASCII,
 * and ending in a surrogate pair so that counting code points would get it wrong).
 */
function stringBound(capability, action, build, max, min = 0) {
  const rows = [
    [`${max} ASCII units`, text(max), 'ok'],
    [`${max + 1} ASCII units`, text(max + 1), 'INVALID_REQUEST'],
    [`${max} units ending in a pair`, withPair(max), 'ok'],
    [`${max + 1} units ending in a pair`, withPair(max + 1), 'INVALID_REQUEST'],
    ['a number instead of a string', 5, 'INVALID_REQUEST'],
    ['null instead of a string', null, 'INVALID_REQUEST'],
  ];
  if (min > 0) rows.push(['empty', '', 'INVALID_REQUEST'], [`${min} unit`, text(min), 'ok']);
  else rows.push(['empty', '', 'ok']);
  for (const [what, value, expected] of rows) assert.equal(verdict(capability, action, build(value)), expected, `${capability} ${action}: ${what}`);
}

function integerBound(capability, action, build, min, max) {
  const rows = [
    [`${min}`, min, 'ok'],
    [`${max}`, max, 'ok'],
    [`${min - 1}`, min - 1, 'INVALID_REQUEST'],
    [`${max + 1}`, max + 1, 'INVALID_REQUEST'],
    ['a fraction', min + 0.5, 'INVALID_REQUEST'],
    ['a numeric string', String(min), 'INVALID_REQUEST'],
    ['a boolean', true, 'INVALID_REQUEST'],
  ];
  for (const [what, value, expected] of rows) assert.equal(verdict(capability, action, build(value)), expected, `${capability} ${action}: ${what}`);
}

test('the tables cover the nine capabilities and exactly their actions', () => {
  const pairs = ACTION_SPECS.map((s) => `${s.capability} ${s.action}`).sort();
  const expected = CAPABILITIES.flatMap((c) => c.actions.map((a) => `${c.key} ${a}`)).sort();
  assert.deepEqual(pairs, expected);
  assert.equal(new Set(ACTION_SPECS.map((s) => s.capability)).size, 9);
});

test('analytics.events.write track: event 1 to 120, label up to 160, value finite', () => {
  stringBound('analytics.events.write', 'track', (event) => ({ event }), L.ANALYTICS_EVENT_MAX_CHARS, 1);
  stringBound('analytics.events.write', 'track', (label) => ({ event: 'e', properties: { label } }), L.ANALYTICS_LABEL_MAX_CHARS);
  const rows = [
    ['value 0', { event: 'e', properties: { value: 0 } }, 'ok'],
    ['value -1.5', { event: 'e', properties: { value: -1.5 } }, 'ok'],
    ['value as a string', { event: 'e', properties: { value: '1' } }, 'INVALID_REQUEST'],
    ['value NaN (a structure failure first)', { event: 'e', properties: { value: NaN } }, 'INVALID_PAYLOAD'],
    ['properties empty', { event: 'e', properties: {} }, 'ok'],
    ['properties null', { event: 'e', properties: null }, 'INVALID_REQUEST'],
    ['properties an array', { event: 'e', properties: [] }, 'INVALID_REQUEST'],
    ['unknown field in properties', { event: 'e', properties: { other: 1 } }, 'INVALID_REQUEST'],
    ['unknown top-level field', { event: 'e', extra: 1 }, 'INVALID_REQUEST'],
    ['event missing', { properties: {} }, 'INVALID_REQUEST'],
    ['properties undefined is absent', { event: 'e', properties: undefined }, 'ok'],
  ];
  for (const [what, payload, expected] of rows) assert.equal(verdict('analytics.events.write', 'track', payload), expected, what);
  assert.deepEqual(call('analytics.events.write', 'track', { event: 'e' }).payload, { event: 'e', properties: {} }, 'properties default to {}');
});

test('booking.availability.read list: laneId positive, date YYYY-MM-DD, duration 5 to 720', () => {
  const base = { laneId: 1, date: '2024-02-29', durationMinutes: 60 };
  integerBound('booking.availability.read', 'list', (durationMinutes) => ({ ...base, durationMinutes }), L.BOOKING_DURATION_MIN, L.BOOKING_DURATION_MAX);
  integerBound('booking.availability.read', 'list', (laneId) => ({ ...base, laneId }), 1, Number.MAX_SAFE_INTEGER);
  const rows = [
    ['leap day', '2024-02-29', 'ok'],
    ['not a leap year', '2023-02-29', 'INVALID_REQUEST'],
    ['month 13', '2024-13-01', 'INVALID_REQUEST'],
    ['day 0', '2024-01-00', 'INVALID_REQUEST'],
    ['April 31', '2024-04-31', 'INVALID_REQUEST'],
    ['2000 is a leap year', '2000-02-29', 'ok'],
    ['1900 is not', '1900-02-29', 'INVALID_REQUEST'],
    ['one-digit month', '2024-1-01', 'INVALID_REQUEST'],
    ['with a time', '2024-01-01T00:00Z', 'INVALID_REQUEST'],
    ['slashes', '2024/01/01', 'INVALID_REQUEST'],
  ];
  for (const [what, date, expected] of rows) assert.equal(verdict('booking.availability.read', 'list', { ...base, date }), expected, what);
  for (const missing of ['laneId', 'date', 'durationMinutes']) {
    const payload = { ...base };
    delete payload[missing];
    assert.equal(verdict('booking.availability.read', 'list', payload), 'INVALID_REQUEST', `${missing} is required`);
  }
});

test('booking.create start: all optional; times are RFC 3339 / ISO 8601 date-times with offset, at most 40 (D-27)', () => {
  assert.equal(verdict('booking.create', 'start', {}), 'ok');
  assert.equal(verdict('booking.create', 'start', undefined), 'ok', 'an absent payload is {}');
  integerBound('booking.create', 'start', (laneId) => ({ laneId }), 1, Number.MAX_SAFE_INTEGER);
  const rows = [
    ['Z offset', '2024-05-01T10:00:00Z', 'ok'],
    ['numeric offset', '2024-05-01T10:00+02:00', 'ok'],
    ['nanoseconds', '2024-05-01T10:00:00.123456789-11:30', 'ok'],
    ['lowercase t and z (RFC 3339)', '2024-05-01t10:00:00z', 'ok'],
    ['offset +HHMM (ISO 8601)', '2024-05-01T10:00:00+0100', 'ok'],
    ['offset +HH (ISO 8601)', '2024-05-01T10:00:00+01', 'ok'],
    ['leap second 60', '2016-12-31T23:59:60Z', 'ok'],
    ['second 61', '2016-12-31T23:59:61Z', 'INVALID_REQUEST'],
    ['ten fraction digits', '2024-05-01T10:00:00.1234567890Z', 'ok'],
    ['exactly 40 characters, valid', `2024-05-01T10:00:00.${'1'.repeat(L.BOOKING_TIME_MAX_CHARS - 26)}+01:00`, 'ok'],
    ['41 characters, valid form', `2024-05-01T10:00:00.${'1'.repeat(L.BOOKING_TIME_MAX_CHARS - 25)}+01:00`, 'INVALID_REQUEST'],
    ['offset +1 (one digit)', '2024-05-01T10:00:00+1', 'INVALID_REQUEST'],
    ['offset +01:0', '2024-05-01T10:00:00+01:0', 'INVALID_REQUEST'],
    ['fraction without digits', '2024-05-01T10:00:00.Z', 'INVALID_REQUEST'],
    ['no offset', '2024-05-01T10:00:00', 'INVALID_REQUEST'],
    ['hour 24', '2024-05-01T24:00:00Z', 'INVALID_REQUEST'],
    ['offset minutes 60', '2024-05-01T10:00:00+01:60', 'INVALID_REQUEST'],
    ['February 30', '2024-02-30T10:00:00Z', 'INVALID_REQUEST'],
    ['a space instead of T', '2024-05-01 10:00:00Z', 'INVALID_REQUEST'],
    ['40 characters of text', text(L.BOOKING_TIME_MAX_CHARS), 'INVALID_REQUEST'],
    ['41 characters', text(L.BOOKING_TIME_MAX_CHARS + 1), 'INVALID_REQUEST'],
    ['a number', 1714557600, 'INVALID_REQUEST'],
  ];
  for (const [what, value, expected] of rows) {
    assert.equal(verdict('booking.create', 'start', { startsAt: value }), expected, `startsAt: ${what}`);
    assert.equal(verdict('booking.create', 'start', { endsAt: value }), expected, `endsAt: ${what}`);
  }
  assert.ok(isDateTimeWithOffset('2024-05-01T10:00:00.123456789-11:30') && '2024-05-01T10:00:00.123456789-11:30'.length <= L.BOOKING_TIME_MAX_CHARS);
  assert.equal(isDate('2024-05-01'), true);
  assert.equal(verdict('booking.create', 'start', { laneId: 1, other: 1 }), 'INVALID_REQUEST', 'unknown field');
});

test('cart.manage add, remove, update: productId positive, quantity 1 to 999 default 1', () => {
  for (const action of ['add', 'remove', 'update']) {
    integerBound('cart.manage', action, (quantity) => ({ productId: 7, quantity }), L.CART_QUANTITY_MIN, L.CART_QUANTITY_MAX);
    integerBound('cart.manage', action, (productId) => ({ productId }), 1, Number.MAX_SAFE_INTEGER);
    assert.deepEqual(call('cart.manage', action, { productId: 7 }).payload, { productId: 7, quantity: 1 }, `${action}: quantity defaults to 1`);
    assert.equal(verdict('cart.manage', action, { quantity: 1 }), 'INVALID_REQUEST', `${action}: productId required`);
    assert.equal(verdict('cart.manage', action, { productId: 7, note: 'x' }), 'INVALID_REQUEST', `${action}: unknown field`);
  }
});

test('catalog.products.read list: search 200, page 1 to 1000, limit 12 or 24, includeOutOfStock boolean', () => {
  stringBound('catalog.products.read', 'list', (search) => ({ search }), L.CATALOG_SEARCH_MAX_CHARS);
  integerBound('catalog.products.read', 'list', (page) => ({ page }), L.CATALOG_PAGE_MIN, L.CATALOG_PAGE_MAX);
  const limits = [
    [12, 'ok'],
    [24, 'ok'],
    [11, 'INVALID_REQUEST'],
    [13, 'INVALID_REQUEST'],
    [23, 'INVALID_REQUEST'],
    [25, 'INVALID_REQUEST'],
    [0, 'INVALID_REQUEST'],
    ['12', 'INVALID_REQUEST'],
    [null, 'INVALID_REQUEST'],
  ];
  for (const [limit, expected] of limits) assert.equal(verdict('catalog.products.read', 'list', { limit }), expected, `limit ${JSON.stringify(limit)}`);
  assert.deepEqual(L.CATALOG_LIMITS, [12, 24]);
  for (const [value, expected] of [[true, 'ok'], [false, 'ok'], [1, 'INVALID_REQUEST'], ['true', 'INVALID_REQUEST']]) {
    assert.equal(verdict('catalog.products.read', 'list', { includeOutOfStock: value }), expected, `includeOutOfStock ${JSON.stringify(value)}`);
  }
  assert.deepEqual(call('catalog.products.read', 'list', {}).payload, { page: 1, limit: 12, includeOutOfStock: true }, 'defaults');
  assert.deepEqual(call('catalog.products.read', 'list', undefined).payload, { page: 1, limit: 12, includeOutOfStock: true }, 'absent payload');
  assert.deepEqual(call('catalog.products.read', 'list', { search: 's', page: 3, limit: 24, includeOutOfStock: false }).payload, { search: 's', page: 3, limit: 24, includeOutOfStock: false });
});

test('communications.sms.open open: message up to 500, optional', () => {
  stringBound('communications.sms.open', 'open', (message) => ({ message }), L.SMS_MESSAGE_MAX_CHARS);
  assert.deepEqual(call('communications.sms.open', 'open', {}).payload, {});
  assert.equal(verdict('communications.sms.open', 'open', { message: 'hi', to: '555' }), 'INVALID_REQUEST');
});

test('forms.submit submit: per-form fields, bounds, defaults and closed objects', () => {
  const contact = { name: 'N', email: 'e@x', phone: '1', subject: 'S', message: 'M' };
  const bounds = { name: L.FORM_NAME_MAX_CHARS, email: L.FORM_EMAIL_MAX_CHARS, phone: L.FORM_PHONE_MAX_CHARS, subject: L.FORM_SUBJECT_MAX_CHARS, message: L.FORM_MESSAGE_MAX_CHARS };
  for (const [name, max] of Object.entries(bounds)) {
    stringBound('forms.submit', 'submit', (value) => ({ form: 'contact', fields: { ...contact, [name]: value } }), max);
    const missing = { ...contact };
    delete missing[name];
    // D-26: the contract does not say which contact fields are mandatory, so none is.
    assert.equal(verdict('forms.submit', 'submit', { form: 'contact', fields: missing }), 'ok', `contact ${name} is optional`);
    assert.equal(verdict('forms.submit', 'submit', { form: 'contact', fields: { [name]: 'x' } }), 'ok', `contact with ${name} alone`);
    assert.equal(verdict('forms.submit', 'submit', { form: 'contact', fields: { [name]: 1 } }), 'INVALID_REQUEST', `contact ${name}: a number is still refused`);
  }
  assert.equal(verdict('forms.submit', 'submit', { form: 'contact', fields: {} }), 'ok', 'a contact form with no field');
  assert.equal(verdict('forms.submit', 'submit', { form: 'contact', fields: { name: 'N', email: 'e@x', message: 'M' } }), 'ok', 'the issue\'s example');
  integerBound('forms.submit', 'submit', (questionType) => ({ form: 'contact', fields: { ...contact, questionType } }), L.FORM_QUESTION_TYPE_MIN, L.FORM_QUESTION_TYPE_MAX);
  assert.deepEqual(call('forms.submit', 'submit', { form: 'contact', fields: contact }).payload, { form: 'contact', fields: { questionType: 9, ...contact } }, 'questionType defaults to 9');
  stringBound('forms.submit', 'submit', (email) => ({ form: 'newsletter', fields: { email } }), L.FORM_EMAIL_MAX_CHARS);
  const rows = [
    ['newsletter with a contact field', { form: 'newsletter', fields: { email: 'e', name: 'n' } }],
    ['newsletter without email', { form: 'newsletter', fields: {} }],
    ['contact with an unknown field', { form: 'contact', fields: { ...contact, company: 'c' } }],
    ['an unknown form', { form: 'survey', fields: { email: 'e' } }],
    ['form missing', { fields: { email: 'e' } }],
    ['fields missing', { form: 'newsletter' }],
    ['fields null', { form: 'newsletter', fields: null }],
    ['fields an array', { form: 'newsletter', fields: ['e'] }],
    ['an extra top-level field', { form: 'newsletter', fields: { email: 'e' }, token: 't' }],
    ['form with different case', { form: 'Newsletter', fields: { email: 'e' } }],
  ];
  for (const [what, payload] of rows) assert.equal(verdict('forms.submit', 'submit', payload), 'INVALID_REQUEST', what);
  assert.deepEqual(Object.keys(FORM_FIELDS).sort(), ['contact', 'newsletter']);
});

test('site.theme.read read: no fields', () => {
  assert.equal(verdict('site.theme.read', 'read', {}), 'ok');
  assert.equal(verdict('site.theme.read', 'read', undefined), 'ok');
  assert.equal(verdict('site.theme.read', 'read', { a: undefined }), 'ok', 'an undefined property is absent');
  assert.equal(verdict('site.theme.read', 'read', { field: 'primary' }), 'INVALID_REQUEST');
  assert.equal(verdict('site.theme.read', 'read', null), 'INVALID_REQUEST', 'a null payload is not an object');
  assert.equal(verdict('site.theme.read', 'read', []), 'INVALID_REQUEST', 'nor is an array');
  assert.equal(verdict('site.theme.read', 'read', 'x'), 'INVALID_REQUEST');
});

test('waivers.start start: range, rental, class, null or omitted (= range)', () => {
  for (const waiver of ['range', 'rental', 'class']) assert.deepEqual(call('waivers.start', 'start', { waiver }).payload, { waiver });
  assert.deepEqual(call('waivers.start', 'start', { waiver: null }).payload, { waiver: 'range' });
  assert.deepEqual(call('waivers.start', 'start', {}).payload, { waiver: 'range' });
  assert.deepEqual(call('waivers.start', 'start', { waiver: undefined }).payload, { waiver: 'range' });
  for (const waiver of ['Range', 'party', '', 0, false]) assert.equal(verdict('waivers.start', 'start', { waiver }), 'INVALID_REQUEST', JSON.stringify(waiver));
});

test('capability stage: unknown, undeclared and not granted are all CAPABILITY_NOT_GRANTED', () => {
  const request = { id: 1, capability: 'cart.manage', action: 'add', payload: { productId: 1 } };
  const rows = [
    ['declared and granted', ['cart.manage'], ['cart.manage'], 'ok'],
    ['declared, not granted', ['cart.manage'], [], 'CAPABILITY_NOT_GRANTED'],
    ['granted but not declared', [], ['cart.manage'], 'CAPABILITY_NOT_GRANTED'],
    ['neither', ['site.theme.read'], ['site.theme.read'], 'CAPABILITY_NOT_GRANTED'],
  ];
  for (const [what, declared, granted, expected] of rows) assert.equal(code(checkRequest(request, declared, granted)), expected, what);
  for (const capability of ['cart', 'Cart.Manage', 'cart.manage ', 'payments.charge', '', 5, null, undefined, ['cart.manage']]) {
    assert.equal(code(checkRequest({ ...request, capability }, ALL, ALL)), 'CAPABILITY_NOT_GRANTED', `capability ${String(capability)}`);
  }
});

test('action stage: an action of another capability or a wrong type is INVALID_REQUEST', () => {
  for (const action of ['list', 'Add', 'delete', '', 7, null, undefined]) assert.equal(verdict('cart.manage', action, { productId: 1 }), 'INVALID_REQUEST', `action ${String(action)}`);
  assert.equal(verdict('site.theme.read', 'write', {}), 'INVALID_REQUEST');
});

test('D-23 order: structure, then capability, then action, then fields', () => {
  const deep = (() => {
    let v = 0;
    for (let i = 0; i < L.PAYLOAD_MAX_DEPTH; i++) v = [v];
    return { v };
  })();
  const rows = [
    ['too deep and an unknown capability', 'nope.nope', 'x', deep, 'PAYLOAD_TOO_COMPLEX'],
    ['a function and an unknown capability', 'nope.nope', 'x', { f() {} }, 'INVALID_PAYLOAD'],
    ['a cycle and an ungranted capability', 'cart.manage', 'add', (() => { const o = {}; o.o = o; return o; })(), 'PAYLOAD_TOO_COMPLEX'],
    ['unknown capability and a wrong action', 'nope.nope', 'nope', {}, 'CAPABILITY_NOT_GRANTED'],
    ['unknown capability and bad fields', 'nope.nope', 'add', { productId: -1 }, 'CAPABILITY_NOT_GRANTED'],
    ['a wrong action and bad fields', 'cart.manage', 'nope', { productId: -1 }, 'INVALID_REQUEST'],
    ['a huge capability string: size comes first', 'x'.repeat(L.MESSAGE_MAX_BYTES), 'add', {}, 'PAYLOAD_TOO_LARGE'],
  ];
  for (const [what, capability, action, payload, expected] of rows) assert.equal(verdict(capability, action, payload), expected, what);
  // Not granted comes before action and fields.
  assert.equal(code(checkRequest({ id: 1, capability: 'cart.manage', action: 'nope', payload: { x: 1 } }, ALL, [])), 'CAPABILITY_NOT_GRANTED');
});

test('message size is measured on the whole request message: 65,536 accepted, 65,537 refused', () => {
  const envelope = { type: MESSAGE_TYPES.request, id: 12, capability: 'communications.sms.open', action: 'open' };
  const emptyMessage = messageSize({ ...envelope, payload: { message: '' } });
  const fill = L.MESSAGE_MAX_BYTES - emptyMessage;
  // '€' is 3 bytes and 1 character: a message of exactly 65,536 bytes, then one more byte.
  const message = '€'.repeat(Math.floor(fill / 3)) + 'a'.repeat(fill % 3);
  assert.equal(messageSize({ ...envelope, payload: { message } }), L.MESSAGE_MAX_BYTES, 'built at the boundary');
  const at = checkRequest({ ...envelope, payload: { message } }, ALL, ALL);
  assert.equal(at.ok, false, 'the message is far over 500 characters, so the fields fail…');
  assert.equal(at.code, 'INVALID_REQUEST', '…but the size passes');
  const structure = checkStructure({ ...envelope, payload: { message } });
  assert.equal(structure.ok, true);
  assert.equal(structure.bytes, L.MESSAGE_MAX_BYTES);
  assert.equal(code(checkRequest({ ...envelope, payload: { message: message + 'a' } }, ALL, ALL)), 'PAYLOAD_TOO_LARGE');
  // A larger id makes the same payload one byte larger.
  assert.equal(code(checkRequest({ ...envelope, id: 123, payload: { message } }, ALL, ALL)), 'PAYLOAD_TOO_LARGE');
  assert.equal(requestEnvelopeBytes(12, 'a', 'b') + 4, messageSize({ type: MESSAGE_TYPES.request, id: 12, capability: 'a', action: 'b', payload: null }));
  // The envelope is counted, not stringified: every kind of member against messageSize.
  const members = [
    [undefined, 'catalog.products.read', 'list'],
    [1, 'catalog.products.read', 'list'],
    [2 ** 53 - 1, 'x', 'y'],
    [1e21, '', ''],
    [-0, 'é', '€'],
    [Number.NaN, 'a"b\\c', '\u0001\n'],
    [Infinity, '😀', '\ud800'],
    ['7', 7, null],
    [null, undefined, {}],
  ];
  for (const [id, capability, action] of members) {
    const envelope = { type: MESSAGE_TYPES.request, id, capability, action, payload: null };
    if (id === undefined) delete envelope.id;
    for (const key of ['capability', 'action']) if (typeof envelope[key] !== 'string') envelope[key] = null;
    if (typeof envelope.id !== 'number' && 'id' in envelope) envelope.id = null;
    assert.equal(requestEnvelopeBytes(id, capability, action) + 4, messageSize(envelope), JSON.stringify([id, capability, action]));
  }
  // An accepted call reports the size it measured.
  const ok = checkRequest({ ...envelope, payload: { message: 'hi' } }, ALL, ALL);
  assert.equal(ok.bytes, messageSize({ ...envelope, payload: { message: 'hi' } }));
});

test('the copy is what was checked: getters read once, later changes ignored, -0 and undefined normalized', () => {
  let reads = 0;
  const details = {
    get productId() {
      reads++;
      return reads === 1 ? 5 : -1;
    },
    quantity: -0 + 2,
  };
  const result = checkRequest({ id: 1, capability: 'cart.manage', action: 'add', payload: details }, ALL, ALL);
  assert.equal(reads, 1);
  assert.deepEqual(result.payload, { productId: 5, quantity: 2 });
  assert.deepEqual(result.copy, { productId: 5, quantity: 2 });
  // checkCall on the copy gives the same answer as the whole check.
  assert.deepEqual(checkCall('cart.manage', 'add', result.copy, ALL, ALL).payload, result.payload);
  // The request object itself may be hostile: still no exception.
  const hostile = new Proxy({}, { get() { throw new Error('x'); } });
  assert.equal(code(checkRequest(hostile, ALL, ALL)), 'INVALID_PAYLOAD');
  let capabilityReads = 0;
  const sneaky = { id: 1, get capability() { capabilityReads++; return capabilityReads === 1 ? 'site.theme.read' : 'cart.manage'; }, action: 'read', payload: {} };
  const r = checkRequest(sneaky, ALL, ALL);
  assert.equal(r.capability, 'site.theme.read', 'the capability is read once');
  assert.equal(capabilityReads, 1);
});
