// The preview's mock store: deterministic sample data behind the Adapters the host bridge dispatches to. It runs in the
// browser and in Node tests: ECMAScript only, no clock, no randomness. Requests arrive checked (D-23 order, defaults
// applied); input an adapter cannot honour throws (REQUEST_FAILED), outcomes the contract can express are answered.
import { CART_QUANTITY_MAX, CART_QUANTITY_MIN, CATALOG_LIMITS, CATALOG_PAGE_MIN } from '../validator/internal.js';
import { FORM_FIELDS } from '../validator/internal.js';
import {
  AdapterUnavailable,
  THEME_FIELDS,
  type Adapters,
  type AnalyticsProperties,
  type AvailabilityQuery,
  type AvailabilityResult,
  type BookingDetails,
  type CartDetails,
  type CartResult,
  type CatalogPage,
  type CatalogProduct,
  type CatalogQuery,
  type ContactFields,
  type FormName,
  type FormResult,
  type NewsletterFields,
  type OpenedFlow,
  type SmsOpened,
  type Theme,
  type ThemeField,
  type TrackResult,
  type WaiverKind,
} from '../bridge/adapters.js';

export { THEME_FIELDS, type ThemeField };

/** Sixteen base products of a small archery range and outfitter; each comes in four finishes. */
const BASE_PRODUCTS: readonly { readonly name: string; readonly cents: number; readonly glyph: string }[] = [
  { name: 'Recurve Bow', cents: 18900, glyph: 'RB' },
  { name: 'Compound Bow', cents: 42900, glyph: 'CB' },
  { name: 'Youth Longbow', cents: 8900, glyph: 'YL' },
  { name: 'Carbon Arrows (6)', cents: 5400, glyph: 'CA' },
  { name: 'Wood Arrows (12)', cents: 3900, glyph: 'WA' },
  { name: 'Field Points (12)', cents: 1250, glyph: 'FP' },
  { name: 'Hip Quiver', cents: 3450, glyph: 'HQ' },
  { name: 'Back Quiver', cents: 4800, glyph: 'BQ' },
  { name: 'Finger Tab', cents: 1600, glyph: 'FT' },
  { name: 'Shooting Glove', cents: 2200, glyph: 'SG' },
  { name: 'Arm Guard', cents: 1800, glyph: 'AG' },
  { name: 'Bow Stringer', cents: 1450, glyph: 'BS' },
  { name: 'Foam Target Block', cents: 7900, glyph: 'TB' },
  { name: 'Target Faces (25)', cents: 1950, glyph: 'TF' },
  { name: 'Bow Case', cents: 6500, glyph: 'BC' },
  { name: 'Range Gift Card', cents: 2500, glyph: 'GC' },
];

const FINISHES: readonly { readonly name: string; readonly step: number; readonly colour: string }[] = [
  { name: 'Forest', step: 0, colour: '#2f6b4f' },
  { name: 'Slate', step: 500, colour: '#4a5a6a' },
  { name: 'Sand', step: 1000, colour: '#b08a4e' },
  { name: 'Ember', step: 1500, colour: '#b2472c' },
];

/** Product ids start here, so that no id is a small number an extension might hard-code by mistake. */
const FIRST_PRODUCT_ID = 1001;

/** Every fifth product (by position) is out of stock: both states always appear on a page. */
const OUT_OF_STOCK_EVERY = 5;

/** Amounts are formatted without any locale service (deterministic). */
const CURRENCY_SYMBOL = '$';

export function formatCents(cents: number): string {
  const whole = Math.floor(cents / 100);
  const fraction = String(cents % 100).padStart(2, '0');
  const digits = String(whole);
  let grouped = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) grouped += ',';
    grouped += digits[i];
  }
  return `${CURRENCY_SYMBOL}${grouped}.${fraction}`;
}

function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** What a `data:` URL of SVG must escape (`%`, `#`, quotes, `<>`, whitespace, non-ASCII); the rest stays, keeping
 *  answers short (encodeURIComponent would lengthen each picture by over a quarter). */
const DATA_URL_ESCAPES = /[^!$&()*+,\-./0-9:;=?@A-Z[\]^_`a-z{|}~]/g;

function dataUrlText(text: string): string {
  return text.replace(DATA_URL_ESCAPES, (c) => encodeURIComponent(c).replace(/[!'()*]/g, (d) => `%${d.charCodeAt(0).toString(16).toUpperCase()}`));
}

/** A product picture as a `data:` URL: the runtime policy (D-17) allows images only from the release base and `data:`.
 *  SVG in an <img> never runs script. Kept small: a larger answer costs more per bridge round trip. */
function productImage(glyph: string, colour: string): string {
  return `data:image/svg+xml,${IMAGE_PARTS[0]}${dataUrlText(colour)}${IMAGE_PARTS[1]}${dataUrlText(glyph)}${IMAGE_PARTS[2]}`;
}

/** productImage's fixed SVG text, escaped once: escaping is per character, so the parts give the same URL. */
const IMAGE_PARTS: readonly [string, string, string] = [
  // 240 by 240 unless the page sizes it; drawn on a 24-unit grid (commas in viewBox: a space costs three characters escaped).
  dataUrlText("<svg xmlns='http://www.w3.org/2000/svg' width='240' height='240' viewBox='0,0,24,24'><rect width='24' height='24' fill='"),
  dataUrlText("'/><text x='12' y='15' fill='#fff' style='font:bold 8px sans-serif' text-anchor='middle'>"),
  dataUrlText('</text></svg>'),
];

interface CatalogEntry {
  readonly product: CatalogProduct;
  readonly cents: number;
  readonly folded: string;
}

function buildCatalog(): readonly CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  const count = BASE_PRODUCTS.length * FINISHES.length;
  for (let index = 0; index < count; index++) {
    // Interleaved so that any page mixes products and finishes; each base/finish pair still occurs once.
    const round = Math.floor(index / BASE_PRODUCTS.length);
    const base = BASE_PRODUCTS[index % BASE_PRODUCTS.length]!;
    const finish = FINISHES[(index + round) % FINISHES.length]!;
    const id = FIRST_PRODUCT_ID + index;
    const name = `${base.name}, ${finish.name}`;
    const cents = base.cents + finish.step;
    const product: CatalogProduct = Object.freeze({
      id,
      name,
      url: `/products/${slugOf(name)}-${id}`,
      image: productImage(base.glyph, finish.colour),
      price: formatCents(cents),
      inStock: index % OUT_OF_STOCK_EVERY !== OUT_OF_STOCK_EVERY - 1,
    });
    entries.push({ product, cents, folded: name.toLowerCase() });
  }
  return Object.freeze(entries);
}

const CATALOG: readonly CatalogEntry[] = buildCatalog();

export const SAMPLE_PRODUCTS: readonly CatalogProduct[] = Object.freeze(CATALOG.map((e) => e.product));

/** Each value is a CSS value (Theme), never HTML. */
export const DEFAULT_THEME: Theme = Object.freeze({
  primary: '#1f5f4a',
  secondary: '#c8702a',
  background: '#ffffff',
  surface: '#f5f3ee',
  text: '#1d2321',
  mutedText: '#5d6964',
  link: '#1f5f4a',
  button: '#1f5f4a',
  headingFont: "Georgia, 'Times New Roman', serif",
  bodyFont: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  sectionGap: '48px',
  buttonRadius: '6px',
});

/** A bound for the theme editor only (not a contract number). */
export const THEME_VALUE_MAX_CHARS = 200;

/** Why `value` cannot be a theme CSS value, or null. The contract says CSS values, not HTML, and an extension may paste
 *  them into a custom property: declaration or rule ends, markup, backslashes and control characters are refused. */
export function themeValueProblem(value: string): string | null {
  if (value.trim() === '') return 'empty';
  if (value.length > THEME_VALUE_MAX_CHARS) return 'too long';
  if (/[;{}<>\\\u0000-\u001f\u007f]/.test(value)) return 'not a CSS value';
  return null;
}

export interface Lane {
  readonly id: number;
  readonly name: string;
}

export const LANES: readonly Lane[] = Object.freeze(
  [1, 2, 3, 4, 5, 6].map((id) => Object.freeze({ id, name: id <= 4 ? `Lane ${id}` : `Training bay ${id - 4}` })),
);

/** Opening hours in minutes after midnight, store time. */
const OPENS_AT_MINUTE = 10 * 60;
const CLOSES_AT_MINUTE = 20 * 60;
const SLOT_STEP_MINUTES = 30;
/** The store's UTC offset, written into every slot time (ISO 8601 with offset, as the contract asks). */
export const STORE_UTC_OFFSET = '-05:00';
/** 0 = Sunday: the range is closed on Mondays. */
const CLOSED_WEEKDAY = 1;

export interface Slot {
  readonly startsAt: string;
  readonly endsAt: string;
  readonly available: boolean;
}

/** Our shape for the site's range-availability response, which the contract does not show. */
export interface Availability {
  readonly lane: Lane;
  readonly date: string;
  readonly durationMinutes: number;
  readonly open: boolean;
  readonly slots: readonly Slot[];
}

/** FNV-1a over a string: a fixed, portable hash for "random-looking" but repeatable availability. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Day of the week of a calendar date, or -1 when the date does not exist (2025-02-30). */
function weekdayOf(date: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (match === null) return -1;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const time = Date.UTC(year, month - 1, day);
  const check = new Date(time);
  // Date.UTC rolls 02-30 over into March: a round trip that changes the date means it does not exist.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return -1;
  return check.getUTCDay();
}

function clockText(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
}

export function availabilityFor(laneId: number, date: string, durationMinutes: number): Availability {
  const lane = LANES.find((l) => l.id === laneId);
  if (lane === undefined) throw new Error(`no lane ${laneId}`);
  const weekday = weekdayOf(date);
  if (weekday < 0) throw new Error(`no date ${date}`);
  const open = weekday !== CLOSED_WEEKDAY;
  const slots: Slot[] = [];
  if (open) {
    for (let start = OPENS_AT_MINUTE; start + durationMinutes <= CLOSES_AT_MINUTE; start += SLOT_STEP_MINUTES) {
      const end = start + durationMinutes;
      // About two slots in three are free; which ones depends only on lane, date and time.
      const available = hash32(`${laneId}|${date}|${start}|${durationMinutes}`) % 3 !== 0;
      slots.push(
        Object.freeze({
          startsAt: `${date}T${clockText(start)}${STORE_UTC_OFFSET}`,
          endsAt: `${date}T${clockText(end)}${STORE_UTC_OFFSET}`,
          available,
        }),
      );
    }
  }
  return Object.freeze({ lane, date, durationMinutes, open, slots: Object.freeze(slots) });
}

/** Contact fields are optional (D-26; `--strict-host` requires them). The mock answers `{ok: false}` to a form it
 *  cannot act on (no plausible email, no message or way to reply): the preview's choice, not the contract's. */
function formAccepted(form: FormName, values: Readonly<Record<string, string | number | undefined>>): boolean {
  const filled = (name: string): boolean => String(values[name] ?? '').trim() !== '';
  const email = values['email'];
  const emailOk = typeof email === 'string' && PLAUSIBLE_EMAIL.test(email);
  if (form === 'newsletter') return emailOk;
  if (email !== undefined && !emailOk) return false;
  return filled('message') && (emailOk || filled('phone'));
}

const PLAUSIBLE_EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Why `fields` break FORM_FIELDS, or null: rechecked after the host so the store never acts on a forbidden request. */
export function formFieldProblem(form: unknown, fields: unknown): string | null {
  if (form !== 'contact' && form !== 'newsletter') return 'unknown form';
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return 'fields must be an object';
  const table = FORM_FIELDS[form];
  const values = fields as Record<string, unknown>;
  for (const key of Object.keys(values)) {
    if (!table.some((spec) => spec.name === key)) return `unknown field ${key}`;
  }
  for (const spec of table) {
    const value = values[spec.name];
    if (value === undefined) {
      if (spec.required) return `missing field ${spec.name}`;
      continue;
    }
    if (spec.kind === 'string') {
      // Characters are UTF-16 code units (D-10).
      if (typeof value !== 'string' || value.length > spec.max! || value.length < (spec.min ?? 0)) return `field ${spec.name} out of bounds`;
    } else if (spec.kind === 'integer') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min! || value > spec.max!) return `field ${spec.name} out of bounds`;
    } else {
      return `field ${spec.name} has an unexpected kind`;
    }
  }
  return null;
}

export type StoreActivity =
  | { readonly kind: 'cart'; readonly action: 'add' | 'remove' | 'update'; readonly ok: boolean }
  | { readonly kind: 'booking-opened'; readonly url: string }
  | { readonly kind: 'waiver-opened'; readonly url: string }
  | { readonly kind: 'sms-opened'; readonly to: string; readonly message: string }
  | { readonly kind: 'form-submitted'; readonly form: FormName; readonly ok: boolean }
  | { readonly kind: 'analytics'; readonly tracked: boolean; readonly event: string };

export interface CartLine {
  readonly product: CatalogProduct;
  readonly quantity: number;
  readonly total: string;
}

export interface CartSnapshot {
  readonly lines: readonly CartLine[];
  readonly itemCount: number;
  readonly total: string;
}

export interface AnalyticsRecord {
  readonly sequence: number;
  readonly event: string;
  readonly label?: string;
  readonly value?: number;
}

export interface FormRecord {
  readonly form: FormName;
  readonly fields: Readonly<Record<string, string | number>>;
}

export interface MockStoreOptions {
  readonly emptyCatalog?: boolean;
  /** The caller's own catalogue (platform-ext/testing's `data.products`, prices checked by priceCents). */
  readonly products?: readonly CatalogProduct[];
  readonly smsAvailable?: () => boolean;
  readonly consent?: () => boolean;
  readonly onActivity?: (activity: StoreActivity) => void;
}

export interface MockStore {
  readonly adapters: Adapters;
  cart(): CartSnapshot;
  clearCart(): void;
  theme(): Theme;
  setTheme(field: ThemeField, value: string): string | null;
  resetTheme(): void;
  /** The newest STORE_RECORDS_MAX events recorded, oldest first (`sequence` counts them all). */
  analytics(): readonly AnalyticsRecord[];
  forms(): readonly FormRecord[];
}

/** The store's text-message number (a reserved fictional number). */
export const STORE_SMS_NUMBER = '+1 555 0100';

/** The first number of a formatted price, in cents ("$1,234.50" -> 123450); null when there is none. */
export function priceCents(price: string): number | null {
  const match = /(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?/.exec(price);
  if (match === null) return null;
  const whole = Number(match[1]!.replace(/,/g, ''));
  const fraction = match[2] === undefined ? 0 : Number(match[2].padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  return Number.isSafeInteger(cents) ? cents : null;
}

function entryOf(product: CatalogProduct): CatalogEntry {
  return { product: Object.freeze({ ...product }), cents: priceCents(product.price)!, folded: product.name.toLowerCase() };
}

function positiveIntegerOrThrow(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new Error(`${what} must be a positive integer`);
  return value;
}

const MATCH_CACHE_MAX = 64;

/** Records kept (the newest): an extension tracking an event per frame would otherwise grow memory without end. */
export const STORE_RECORDS_MAX = 1000;

/** Appends `item`, keeping the newest STORE_RECORDS_MAX (trimmed in amortised O(1)). */
function keepNewest<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length >= 2 * STORE_RECORDS_MAX) list.splice(0, list.length - STORE_RECORDS_MAX);
}

function newest<T>(list: readonly T[]): T[] {
  return list.slice(Math.max(0, list.length - STORE_RECORDS_MAX));
}

interface StoreState {
  readonly catalog: readonly CatalogEntry[];
  readonly byId: ReadonlyMap<number, CatalogEntry>;
  readonly smsAvailable: () => boolean;
  readonly consent: () => boolean;
  readonly notify: (activity: StoreActivity) => void;
  /** In the order first added. */
  readonly lines: Map<number, number>;
  theme: Record<ThemeField, string>;
  readonly analyticsRecords: AnalyticsRecord[];
  analyticsCount: number;
  readonly formRecords: FormRecord[];
  /** Search results by text and stock filter, worked out once; bounded, so a frame cannot grow it without end. */
  readonly matchCache: Map<string, readonly CatalogEntry[]>;
  readonly pageCache: Map<string, CatalogPage>;
}

function newState(options: MockStoreOptions): StoreState {
  const catalog: readonly CatalogEntry[] = options.emptyCatalog === true ? [] : options.products !== undefined ? options.products.map(entryOf) : CATALOG;
  return {
    catalog,
    byId: new Map(catalog.map((e) => [e.product.id, e])),
    smsAvailable: options.smsAvailable ?? (() => true),
    consent: options.consent ?? (() => true),
    notify: options.onActivity ?? (() => {}),
    lines: new Map(),
    theme: { ...DEFAULT_THEME },
    analyticsRecords: [],
    analyticsCount: 0,
    formRecords: [],
    matchCache: new Map(),
    pageCache: new Map(),
  };
}

function cartSnapshot(state: StoreState): CartSnapshot {
  let itemCount = 0;
  let cents = 0;
  const out: CartLine[] = [];
  for (const [id, quantity] of state.lines) {
    const entry = state.byId.get(id)!;
    itemCount += quantity;
    // Integer cents: no floating-point drift in totals.
    cents += entry.cents * quantity;
    out.push({ product: entry.product, quantity, total: formatCents(entry.cents * quantity) });
  }
  return { lines: out, itemCount, total: formatCents(cents) };
}

function cartResponse(state: StoreState, action: 'add' | 'remove' | 'update', ok: boolean): CartResult {
  const snapshot = cartSnapshot(state);
  state.notify({ kind: 'cart', action, ok });
  return { ok, itemCount: snapshot.itemCount, total: snapshot.total };
}

function quantityOf(details: CartDetails): number {
  const quantity = details.quantity ?? CART_QUANTITY_MIN;
  if (!Number.isInteger(quantity) || quantity < CART_QUANTITY_MIN || quantity > CART_QUANTITY_MAX) throw new Error('quantity out of range');
  return quantity;
}

function matchesOf(state: StoreState, search: string, includeOutOfStock: boolean): readonly CatalogEntry[] {
  const key = `${includeOutOfStock ? '+' : '-'}${search}`;
  const known = state.matchCache.get(key);
  if (known !== undefined) return known;
  const words = search.toLowerCase().split(/\s+/).filter((w) => w !== '');
  const matches = state.catalog.filter((e) => (includeOutOfStock || e.product.inStock) && words.every((w) => e.folded.includes(w)));
  if (state.matchCache.size >= MATCH_CACHE_MAX) state.matchCache.clear();
  state.matchCache.set(key, matches);
  return matches;
}

function catalogPage(state: StoreState, query: CatalogQuery): CatalogPage {
  // The host hands over normalized queries; the defaults are repeated for direct callers.
  const limit = query.limit ?? CATALOG_LIMITS[0];
  const page = query.page ?? CATALOG_PAGE_MIN;
  const search = query.search ?? '';
  const includeOutOfStock = query.includeOutOfStock ?? true;
  // Pages are kept frozen; each call gets its own frozen page with a spread (not sliced) products array, since a
  // frozen array crosses a MessagePort as a sparse array. No caller can change what the next one gets.
  const key = `${includeOutOfStock ? '+' : '-'}${page}:${limit}:${search}`;
  let kept = state.pageCache.get(key);
  if (kept === undefined) {
    const matches = matchesOf(state, search, includeOutOfStock);
    const lastPage = Math.max(1, Math.ceil(matches.length / limit));
    const products = Object.freeze(matches.slice((page - 1) * limit, page * limit).map((e) => e.product));
    kept = Object.freeze({ products, total: matches.length, page, lastPage });
    if (state.pageCache.size >= MATCH_CACHE_MAX) state.pageCache.clear();
    state.pageCache.set(key, kept);
  }
  return Object.freeze({ products: [...kept.products], total: kept.total, page: kept.page, lastPage: kept.lastPage });
}

function cartAdd(state: StoreState, details: CartDetails): CartResult {
  const id = positiveIntegerOrThrow(details.productId, 'productId');
  const quantity = quantityOf(details);
  const entry = state.byId.get(id);
  const next = (state.lines.get(id) ?? 0) + quantity;
  // Unknown or sold-out products, and lines beyond the contract's quantity bound, are refused without a change.
  if (entry === undefined || !entry.product.inStock || next > CART_QUANTITY_MAX) return cartResponse(state, 'add', false);
  state.lines.set(id, next);
  return cartResponse(state, 'add', true);
}

function cartRemove(state: StoreState, details: CartDetails): CartResult {
  const id = positiveIntegerOrThrow(details.productId, 'productId');
  const quantity = quantityOf(details);
  const current = state.lines.get(id);
  if (current === undefined) return cartResponse(state, 'remove', false);
  if (current - quantity <= 0) state.lines.delete(id);
  else state.lines.set(id, current - quantity);
  return cartResponse(state, 'remove', true);
}

function cartUpdate(state: StoreState, details: CartDetails): CartResult {
  const id = positiveIntegerOrThrow(details.productId, 'productId');
  const quantity = quantityOf(details);
  if (!state.lines.has(id)) return cartResponse(state, 'update', false);
  state.lines.set(id, quantity);
  return cartResponse(state, 'update', true);
}

function startBooking(state: StoreState, details: BookingDetails): OpenedFlow {
  const params: string[] = [];
  if (details.laneId !== undefined) params.push(`lane=${details.laneId}`);
  if (details.startsAt !== undefined) params.push(`startsAt=${encodeURIComponent(details.startsAt)}`);
  if (details.endsAt !== undefined) params.push(`endsAt=${encodeURIComponent(details.endsAt)}`);
  const url = `/booking${params.length > 0 ? `?${params.join('&')}` : ''}`;
  state.notify({ kind: 'booking-opened', url });
  return { opened: true, url };
}

function submitForm(state: StoreState, form: FormName, fields: ContactFields | NewsletterFields): FormResult {
  const problem = formFieldProblem(form, fields);
  if (problem !== null) throw new Error(problem);
  const values = fields as unknown as Record<string, string | number>;
  const ok = formAccepted(form, values);
  if (ok) keepNewest(state.formRecords, { form, fields: { ...values } });
  state.notify({ kind: 'form-submitted', form, ok });
  return { ok };
}

function openSms(state: StoreState, message: string | undefined): SmsOpened {
  // Contract: ADAPTER_UNAVAILABLE when the site has no valid text-message link.
  if (!state.smsAvailable()) throw new AdapterUnavailable();
  state.notify({ kind: 'sms-opened', to: STORE_SMS_NUMBER, message: message ?? '' });
  return { opened: true };
}

function startWaiver(state: StoreState, waiver: WaiverKind): OpenedFlow {
  if (waiver !== 'range' && waiver !== 'rental' && waiver !== 'class') throw new Error('unknown waiver');
  const url = `/waivers/${waiver}`;
  state.notify({ kind: 'waiver-opened', url });
  return { opened: true, url };
}

/** Contract: analytics honours the consent state; without consent nothing is recorded. */
function track(state: StoreState, event: string, properties: AnalyticsProperties): TrackResult {
  if (!state.consent()) {
    state.notify({ kind: 'analytics', tracked: false, event });
    return { tracked: false };
  }
  const record: { -readonly [K in keyof AnalyticsRecord]: AnalyticsRecord[K] } = { sequence: ++state.analyticsCount, event };
  if (properties.label !== undefined) record.label = properties.label;
  if (properties.value !== undefined) record.value = properties.value;
  keepNewest(state.analyticsRecords, Object.freeze(record));
  state.notify({ kind: 'analytics', tracked: true, event });
  return { tracked: true };
}

function setTheme(state: StoreState, field: ThemeField, value: string): string | null {
  if (!(THEME_FIELDS as readonly string[]).includes(field)) return 'unknown field';
  const problem = themeValueProblem(value);
  if (problem === null) state.theme = { ...state.theme, [field]: value };
  return problem;
}

export function createMockStore(options: MockStoreOptions = {}): MockStore {
  const state = newState(options);
  const adapters: Adapters = {
    catalog: { list: async (query: CatalogQuery) => catalogPage(state, query) },
    cart: {
      add: async (details: CartDetails) => cartAdd(state, details),
      remove: async (details: CartDetails) => cartRemove(state, details),
      update: async (details: CartDetails) => cartUpdate(state, details),
    },
    theme: { read: async () => ({ ...state.theme }) },
    booking: {
      // A plain, unfrozen copy: the host posts it over the port as it is.
      availability: async (query: AvailabilityQuery) =>
        JSON.parse(JSON.stringify(availabilityFor(query.laneId, query.date, query.durationMinutes))) as AvailabilityResult,
      start: async (details: BookingDetails) => startBooking(state, details),
    },
    forms: { submit: async (form: FormName, fields: ContactFields | NewsletterFields) => submitForm(state, form, fields) },
    sms: { open: async (message: string | undefined) => openSms(state, message) },
    waivers: { start: async (waiver: WaiverKind) => startWaiver(state, waiver) },
    analytics: { track: async (event: string, properties: AnalyticsProperties) => track(state, event, properties) },
  };
  return {
    adapters,
    cart: () => cartSnapshot(state),
    clearCart: () => state.lines.clear(),
    theme: () => ({ ...state.theme }),
    setTheme: (field, value) => setTheme(state, field, value),
    resetTheme() {
      state.theme = { ...DEFAULT_THEME };
    },
    analytics: () => newest(state.analyticsRecords),
    forms: () => newest(state.formRecords),
  };
}
