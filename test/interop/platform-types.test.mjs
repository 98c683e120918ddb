// contract-snapshot/platform.d.ts has teeth: the type checker (node_modules/.bin/tsc with
// --noEmit --checkJs --allowJs --strict) passes plain JavaScript that uses every member of
// window.PLATFORM correctly, and fails each file that makes one mistake (an unknown method, a
// wrong payload type, a misspelt capability, action or form name...) at the marked line.
// A TypeScript check file also holds the declarations to the bridge's own types
// (src/bridge/adapters.ts, src/bridge/runtime.ts, src/validator/bridge/requests.ts), so the
// hand-written tables in src/contract/api-tables.ts cannot drift from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAPABILITY_KEYS } from '../../build/validator/capabilities.js';
import { BRIDGE_ERROR_CODE_LIST } from '../../build/validator/bridge/errors.js';
import { THEME_FIELDS } from '../../build/validator/bridge/messages.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsc = join(root, 'node_modules/.bin/tsc');
const FLAGS = ['--noEmit', '--checkJs', '--allowJs', '--strict', '--target', 'es2022', '--lib', 'es2022,dom', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--pretty', 'false'];

/** Runs tsc on `files` (names inside `dir`); returns the exit status and diagnostics by file. */
function typeCheck(dir, files) {
  const r = spawnSync(tsc, [...FLAGS, 'platform.d.ts', ...files], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.error, undefined, String(r.error));
  const diagnostics = [];
  for (const line of `${r.stdout}\n${r.stderr}`.split('\n')) {
    const m = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line.trim());
    if (m !== null) diagnostics.push({ file: m[1], line: Number(m[2]), code: m[4], text: m[5] });
  }
  return { status: r.status, diagnostics, output: r.stdout + r.stderr };
}

function withDir(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'platform-types-'));
  try {
    copyFileSync(join(root, 'contract-snapshot/platform.d.ts'), join(dir, 'platform.d.ts'));
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Correct use of every member: must type-check with no error. */
const GOOD = `// @ts-check
async function main() {
  const state = await PLATFORM.ready;
  /** @type {readonly Platform.CapabilityKey[]} */
  const granted = state.capabilities;
  const canCart = granted.includes('cart.manage') && PLATFORM.capabilities().includes('cart.manage');
  /** @type {Platform.SettingValue | undefined} */
  const headline = PLATFORM.settings().headline;
  console.log(canCart, headline, state.settings.headline);
  const page = await PLATFORM.catalog.products({ search: 'tee', page: 1, limit: 24, includeOutOfStock: false });
  const first = page.products[0];
  if (first !== undefined && first.inStock) console.log(first.id + 1, first.name, first.url, first.image, first.price.trim());
  console.log(page.total, page.page, page.lastPage);
  await PLATFORM.catalog.products();
  const cart = await PLATFORM.cart.manage('add', { productId: 7, quantity: 2 });
  await PLATFORM.cart.manage('remove', { productId: 7 });
  await PLATFORM.cart.manage('update', { productId: 7, quantity: 999 });
  console.log(cart.ok, cart.itemCount + 1, cart.total.trim());
  const theme = await PLATFORM.theme.read();
  document.body.style.setProperty('--primary', theme.primary);
  console.log(${THEME_FIELDS.map((f) => `theme.${f}`).join(', ')});
  const tracked = await PLATFORM.analytics.track('view', { label: 'hero', value: 1 });
  await PLATFORM.analytics.track('view');
  console.log(tracked.tracked);
  const availability = await PLATFORM.booking.availability({ laneId: 1, date: '2030-01-31', durationMinutes: 60 });
  console.log(availability);
  const flow = await PLATFORM.booking.start({ laneId: 2, startsAt: '2030-01-31T10:00:00+01:00', endsAt: '2030-01-31T11:00:00+01:00' });
  await PLATFORM.booking.start();
  console.log(flow.opened, flow.url);
  const sms = await PLATFORM.communications.text('Hello');
  await PLATFORM.communications.text();
  console.log(sms.opened);
  const sent = await PLATFORM.forms.submit('contact', { questionType: 3, name: 'A', email: 'a@example.com', phone: '', subject: 'S', message: 'M' });
  await PLATFORM.forms.submit('newsletter', { email: 'a@example.com' });
  console.log(sent.ok);
  await PLATFORM.waivers.start('rental');
  await PLATFORM.waivers.start(null);
  await PLATFORM.waivers.start();
  const viaRequest = await PLATFORM.request('cart.manage', 'add', { productId: 1 });
  console.log(viaRequest.itemCount);
  await PLATFORM.request('forms.submit', 'submit', { form: 'newsletter', fields: { email: 'a@example.com' } });
  await PLATFORM.request('site.theme.read', 'read');
  await PLATFORM.request('waivers.start', 'start', { waiver: 'class' });
  await window.PLATFORM.catalog.products({ limit: 12 });
  try {
    await PLATFORM.communications.text('x');
  } catch (error) {
    const code = /** @type {Platform.BridgeError} */ (error).code;
    if (code === 'ADAPTER_UNAVAILABLE' || code === 'CAPABILITY_NOT_GRANTED') console.log('hide the button');
  }
  /** @type {Platform.BridgeErrorCode[]} */
  const codes = [${BRIDGE_ERROR_CODE_LIST.map((c) => `'${c}'`).join(', ')}];
  /** @type {Platform.CapabilityKey[]} */
  const keys = [${CAPABILITY_KEYS.map((k) => `'${k}'`).join(', ')}];
  console.log(codes, keys);
}
main();
`;

/** One mistake per file, on the line marked ERROR: [what it proves, the TypeScript error code, statements]. */
const BAD = [
  ['unknown method on a namespace', 'TS2339', "await PLATFORM.cart.remove({ productId: 1 }); // ERROR"],
  ['unknown namespace', 'TS2339', 'await PLATFORM.orders.list(); // ERROR'],
  ['unknown top-level member', 'TS2339', 'PLATFORM.grants(); // ERROR'],
  ['wrong payload type', 'TS2322', "await PLATFORM.cart.manage('add', { productId: '7' }); // ERROR"],
  ['unknown payload field', 'TS2353', "await PLATFORM.cart.manage('add', { productId: 7, qty: 2 }); // ERROR"],
  ['missing required field', 'TS2741', "await PLATFORM.booking.availability({ laneId: 1, date: '2030-01-31' }); // ERROR"],
  ['value outside a choice', 'TS2322', 'await PLATFORM.catalog.products({ limit: 10 }); // ERROR'],
  ['misspelt capability in request', 'TS2345', "await PLATFORM.request('cart.manag', 'add', { productId: 1 }); // ERROR"],
  ['misspelt capability in a grant check', 'TS2345', "PLATFORM.capabilities().includes('catalog.product.read'); // ERROR"],
  ['action of another capability', 'TS2345', "await PLATFORM.request('cart.manage', 'list', { productId: 1 }); // ERROR"],
  ['unknown cart action', 'TS2345', "await PLATFORM.cart.manage('delete', { productId: 1 }); // ERROR"],
  ['request without a required payload', 'TS2554', "await PLATFORM.request('cart.manage', 'add'); // ERROR"],
  ['wrong form name', 'TS2345', "await PLATFORM.forms.submit('contakt', { email: 'a@example.com' }); // ERROR"],
  ['fields of another form', 'TS2353', "await PLATFORM.forms.submit('newsletter', { email: 'a@example.com', message: 'hi' }); // ERROR"],
  ['wrong form name in request', 'TS2322', "await PLATFORM.request('forms.submit', 'submit', { form: 'signup', fields: { email: 'a' } }); // ERROR"],
  ['unknown waiver kind', 'TS2345', "await PLATFORM.waivers.start('party'); // ERROR"],
  ['misspelt error code', 'TS2367', "const e = /** @type {Platform.BridgeError} */ (new Error('x'));\n  if (e.code === 'CAPABILITY_NOT_GRANTD') console.log(e); // ERROR"],
  ['response member that does not exist', 'TS2339', "const r = await PLATFORM.cart.manage('add', { productId: 1 });\n  console.log(r.count); // ERROR"],
  ['theme field that does not exist', 'TS2339', 'const t = await PLATFORM.theme.read();\n  console.log(t.primaryColor); // ERROR'],
  ['replacing the bridge', 'TS2540', 'window.PLATFORM = null; // ERROR'],
  ['a payload on a method without one', 'TS2554', 'await PLATFORM.theme.read({}); // ERROR'],
];

test('correct use of every member of window.PLATFORM type-checks', () => {
  withDir((dir) => {
    writeFileSync(join(dir, 'good.js'), GOOD);
    const r = typeCheck(dir, ['good.js']);
    assert.equal(r.status, 0, r.output);
    assert.deepEqual(r.diagnostics, []);
  });
});

test('each wrong call fails the type check at its line', () => {
  withDir((dir) => {
    const files = BAD.map(([, , body], i) => {
      const name = `bad-${String(i).padStart(2, '0')}.js`;
      writeFileSync(join(dir, name), `// @ts-check\nasync function main() {\n  ${body}\n}\nmain();\n`);
      return name;
    });
    const r = typeCheck(dir, files);
    assert.notEqual(r.status, 0);
    BAD.forEach(([what, code, body], i) => {
      const errorLine = 3 + body.split('\n').findIndex((l) => l.includes('// ERROR'));
      const mine = r.diagnostics.filter((d) => d.file === files[i]);
      assert.ok(mine.length > 0, `${what}: no type error\n${r.output}`);
      assert.deepEqual(mine.map((d) => `${d.line} ${d.code}`), [`${errorLine} ${code}`], what);
    });
    // Nothing in the declarations themselves.
    assert.deepEqual(r.diagnostics.filter((d) => d.file === 'platform.d.ts'), []);
  });
});

test('the declarations match the bridge: runtime members, adapter responses, request schemas', () => {
  withDir((dir) => {
    const src = (path) => JSON.stringify(relative(dir, join(root, path)).split('\\').join('/'));
    const check = `import type * as Adapters from ${src('src/bridge/adapters.js')};
import type * as Requests from ${src('src/validator/bridge/requests.js')};
import type { PlatformApi } from ${src('src/bridge/runtime.js')};
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type SameKeys<A, B> = Mutual<keyof A, keyof B>;
function holds<T extends true>(): T | void {}
// Every member of window.PLATFORM, and of each namespace, and nothing else.
holds<SameKeys<PlatformApi, Platform.Api>>();
${['analytics', 'booking', 'cart', 'catalog', 'communications', 'forms', 'theme', 'waivers'].map((ns) => `holds<SameKeys<PlatformApi['${ns}'], Platform.Api['${ns}']>>();`).join('\n')}
// Responses: the host's adapter types and the declared ones are the same types.
holds<Mutual<Adapters.CatalogProduct, Platform.CatalogProduct>>();
holds<Mutual<Adapters.CatalogPage, Platform.CatalogPage>>();
holds<Mutual<Adapters.CartResult, Platform.CartResult>>();
holds<Mutual<Adapters.Theme, Platform.Theme>>();
holds<Mutual<Adapters.OpenedFlow, Platform.OpenedFlow>>();
holds<Mutual<Adapters.SmsOpened, Platform.SmsOpened>>();
holds<Mutual<Adapters.FormResult, Platform.FormResult>>();
holds<Mutual<Adapters.TrackResult, Platform.TrackResult>>();
holds<Adapters.AvailabilityResult extends Platform.AvailabilityResult ? true : false>();
// Requests: every normalized request the host hands its adapters is a valid declared
// request, with exactly the same fields.
type Fits<N, D> = [N] extends [D] ? SameKeys<N, D> : false;
holds<Fits<Requests.AnalyticsTrackPayload, Platform.AnalyticsTrackRequest>>();
holds<Fits<Requests.AnalyticsProperties, Platform.AnalyticsProperties>>();
holds<Fits<Requests.AvailabilityQuery, Platform.AvailabilityQuery>>();
holds<Fits<Requests.BookingDetails, Platform.BookingDetails>>();
holds<Fits<Requests.CartDetails, Platform.CartDetails>>();
holds<Fits<Requests.CatalogQuery, Platform.CatalogQuery>>();
holds<Fits<Requests.SmsPayload, Platform.SmsRequest>>();
holds<Fits<Requests.FormsPayload, Platform.FormsSubmitRequest>>();
holds<Fits<Requests.ContactFields, Platform.ContactFields>>();
holds<Fits<Requests.NewsletterFields, Platform.NewsletterFields>>();
holds<Fits<Requests.WaiverPayload, Platform.WaiverRequest>>();
holds<Fits<Requests.ThemePayload, Platform.ThemeRequest>>();
holds<Mutual<Requests.FormName, Platform.FormName>>();
holds<Mutual<Requests.WaiverKind, Platform.WaiverKind>>();
holds<Mutual<Requests.CartAction, Platform.CartAction>>();
holds<Mutual<Requests.CatalogLimit, Platform.CatalogLimit>>();
`;
    writeFileSync(join(dir, 'check.mts'), check);
    const r = typeCheck(dir, ['check.mts']);
    assert.equal(r.status, 0, r.output);
    // The check has teeth: a wrong expectation fails.
    writeFileSync(join(dir, 'check.mts'), `${check}holds<Mutual<Adapters.CartResult, Platform.CatalogPage>>();\n`);
    assert.notEqual(typeCheck(dir, ['check.mts']).status, 0);
  });
});
