// The preview host page (browser code, bundled by scripts/build-page.mjs): the storefront
// around the extension's sandboxed frame, and the tools beside it. It holds the mock store
// (src/preview/adapters.ts) and the host end of the bridge (src/bridge/host.ts). It
// starts from the check the server embedded in the page (with the frame already in the
// markup when it passed: markup.ts, boot.ts) and follows later checks over Server-Sent
// Events: a check with errors replaces the frame with the findings; a passing check
// (re)starts the frame.
//
// Everything the page shows that came from the project or the frame (finding messages,
// payloads, results) is written with textContent, never parsed as markup. The page's own
// policy (hostPagePolicy in server.ts) forbids inline script (but the boot script, by its
// hash) and style attributes, so styles are set through the CSSOM only.
import { createHostBridge, type CallLogEntry, type HostBridge } from '../../bridge/host.js';
import { CART_UPDATED_EVENT, type CartUpdatedDetail, type SettingValue } from '../../validator/bridge/messages.js';
import { capabilityByKey } from '../../validator/capabilities.js';
import { FindingList, type Finding } from '../../validator/findings.js';
import { validateSettings, type PropertyDef } from '../../validator/properties.js';
import { FRAME_ATTRIBUTES, FRAME_LOADED_KEY, FRAME_SLOT_ID, STATE_ELEMENT_ID, frameTitle } from './markup.js';
import {
  createMockStore,
  SAMPLE_PRODUCTS,
  STORE_SMS_NUMBER,
  THEME_FIELDS,
  type MockStore,
  type StoreActivity,
  type ThemeField,
} from '../adapters.js';

// ---------------------------------------------------------------------------------------
// What the server sends (publicState in server.ts)

interface ManifestSummary {
  readonly namespace: string | null;
  readonly version: string | null;
  readonly name: string | null;
  readonly description: string | null;
  readonly entrypoint: string | null;
  readonly capabilities: readonly string[];
  readonly properties: readonly PropertyDef[];
}

interface PreviewState {
  readonly revision: number;
  readonly ok: boolean;
  readonly errors: number;
  readonly warnings: number;
  readonly findings: readonly Finding[];
  readonly problem: string | null;
  /** Changes exactly when the manifest or a bundle file changed. */
  readonly contentKey: string;
  readonly manifest: ManifestSummary | null;
  readonly frameUrl: string | null;
  readonly options: { readonly deny: readonly string[]; readonly fail: readonly string[]; readonly emptyCatalog: boolean; readonly strictHost: boolean };
}

// ---------------------------------------------------------------------------------------
// Small DOM helpers

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className !== undefined) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/** JSON for the log, cut to a readable size (a catalog page with images is long). */
function preview(value: unknown, max = 1200): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && v.startsWith('data:') && v.length > 60 ? `${v.slice(0, 40)}…` : v), 2) ?? 'undefined';
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}\n…` : text;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Most log entries kept: the log is for reading, not for an archive. */
const LOG_MAX_ENTRIES = 200;
/**
 * Least time between two renders of the call log (and the activity list): a burst of
 * calls shows up in steps a reader can follow, and rendering leaves the bridge its time.
 * A call after a quiet spell shows at the next animation frame.
 */
const LIST_RENDER_INTERVAL_MS = 100;
/**
 * The same while a burst outruns the list: when a render had more new items than the list
 * shows (every line replaced), the next one waits this long. A render a second still shows
 * a burst moving (no one reads lines replaced faster than that); each one rewrites up to
 * LOG_MAX_ENTRIES lines and lays out and paints the tools, work taken from the bridge at
 * thousands of calls a second: at four renders a second it was about 8 % of the page's
 * main-thread time in a burst of catalog calls, at one about 3 % (bench/bridge.mjs).
 */
const LIST_BURST_INTERVAL_MS = 1000;
/** The longest the panels wait for the frame's first load when the page opens (afterFrameLoads). */
const FIRST_LOAD_WAIT_MS = 1000;
/** How long a toast stays, and how many show at once. */
const TOAST_MS = 4500;
const TOASTS_MAX = 3;

/** Widths of the viewport presets, in CSS pixels (desktop: the content column). */
const VIEWPORTS = { mobile: 375, tablet: 768, desktop: 0 } as const;
type Viewport = keyof typeof VIEWPORTS;

/** Theme field -> the page's own custom property, so the storefront follows the theme panel. */
const THEME_TO_PAGE: Readonly<Record<ThemeField, string>> = {
  primary: '--store-primary',
  secondary: '--store-secondary',
  background: '--store-background',
  surface: '--store-surface',
  text: '--store-text',
  mutedText: '--store-muted',
  link: '--store-link',
  button: '--store-button',
  headingFont: '--store-heading-font',
  bodyFont: '--store-body-font',
  sectionGap: '--store-gap',
  buttonRadius: '--store-radius',
};

// ---------------------------------------------------------------------------------------
// Page state

/**
 * A set of capability keys that also hands out its members as a frozen array, built
 * again only after a change: the host bridge reads the grants and the failing list at
 * every call, and a copy per call is garbage at thousands of calls a second.
 */
class ListedSet extends Set<string> {
  #list: readonly string[] | null = null;

  override add(key: string): this {
    this.#list = null;
    return super.add(key);
  }

  override delete(key: string): boolean {
    this.#list = null;
    return super.delete(key);
  }

  override clear(): void {
    this.#list = null;
    super.clear();
  }

  list(): readonly string[] {
    this.#list ??= Object.freeze([...this]);
    return this.#list;
  }
}

let state: PreviewState | null = null;
/** Declared capabilities of the manifest the page last saw. */
let declared: string[] = [];
/** The store user's grants (preview: the Capabilities panel); only declared keys matter. */
const grants = new ListedSet();
/** Capabilities whose calls fail with REQUEST_FAILED (`--fail`, then the panel). */
const failing = new ListedSet();
/** The settings the frame receives: the last set that passed validateSettings. */
let settings: Record<string, SettingValue> = {};
/** What the settings form holds now, valid or not. */
let draft: Record<string, SettingValue> = {};
let properties: readonly PropertyDef[] = [];
let consent = true;
let smsAvailable = true;
let emptyCatalog = false;
/** `preview --strict-host` (D-26): read by the host bridge at each call. */
let strictHost = false;
let store: MockStore = newStore(false);
let bridge: HostBridge | null = null;
let frame: HTMLIFrameElement | null = null;

function newStore(empty: boolean): MockStore {
  return createMockStore({
    emptyCatalog: empty,
    smsAvailable: () => smsAvailable,
    consent: () => consent,
    onActivity: showActivity,
  });
}

// ---------------------------------------------------------------------------------------
// The frame and its bridge

/** Removes the load listener of the current bridge (a reload gives the frame a new bridge). */
let frameListeners: AbortController | null = null;
/** Whether the frame the server wrote into the page was taken over (it is, at most once). */
let servedFrameTaken = false;

function unmountFrame(): void {
  bridge?.stop();
  bridge = null;
  frameListeners?.abort();
  frameListeners = null;
  frame?.remove();
  frame = null;
}

/**
 * Starts the extension in the frame, or starts it again. A frame that is already there is
 * navigated again rather than replaced: Chromium keeps its renderer process, where a new
 * frame element could need a new one (reload after a save, bench/bridge.mjs).
 */
function mountFrame(url: string, manifest: ManifestSummary): void {
  bridge?.stop();
  frameListeners?.abort();
  let iframe = frame;
  /** The frame the server wrote into the page, already loading (or loaded) this URL. */
  let served = false;
  if (iframe === null || !iframe.isConnected) {
    const inPage = servedFrameTaken ? null : document.querySelector<HTMLIFrameElement>(`#${FRAME_SLOT_ID} > iframe`);
    servedFrameTaken = true;
    if (inPage !== null && inPage.getAttribute('src') === url) {
      iframe = inPage;
      served = true;
    } else {
      iframe = document.createElement('iframe');
      for (const [name, value] of Object.entries(FRAME_ATTRIBUTES)) iframe.setAttribute(name, value);
      byId(FRAME_SLOT_ID).replaceChildren(iframe);
    }
  }
  iframe.title = frameTitle(manifest.name);
  const hostBridge = createHostBridge({
    frame: iframe,
    frameOrigin: 'null',
    manifest: { capabilities: manifest.capabilities, properties: manifest.properties },
    grants: () => grants.list(),
    settings: () => settings,
    adapters: store.adapters,
    failing: () => failing.list(),
    consent: () => consent,
    strictHost: () => strictHost,
    onCall: logCall,
  });
  // Every load of the frame's document (first load, a reload) gets a fresh handshake.
  const listeners = new AbortController();
  iframe.addEventListener('load', () => hostBridge.start(), { signal: listeners.signal });
  bridge = hostBridge;
  frameListeners = listeners;
  frame = iframe;
  if (!served) {
    // Setting `src` navigates even when the URL is the same: that is the reload.
    iframe.src = url;
  } else if (iframe.dataset[FRAME_LOADED_KEY] === 'true') {
    // It loaded before this script ran (boot.ts saw it): its runtime is listening now.
    hostBridge.start();
  }
}

// ---------------------------------------------------------------------------------------
// Header, status and findings

function renderStatus(current: PreviewState): void {
  const manifest = current.manifest;
  byId('ext-name').textContent = manifest?.name ?? 'Extension';
  byId('ext-meta').textContent = [manifest?.namespace, manifest?.version].filter((v) => v !== null && v !== undefined).join(' · ');
  document.title = `${manifest?.name ?? 'Extension'}: preview`;
  const status = byId('check-status');
  if (current.problem !== null) {
    status.dataset['state'] = 'errors';
    status.textContent = 'Folder unreadable';
  } else if (current.errors > 0) {
    status.dataset['state'] = 'errors';
    status.textContent = `${plural(current.errors, 'error')}, ${plural(current.warnings, 'warning')}`;
  } else if (current.warnings > 0) {
    status.dataset['state'] = 'warnings';
    status.textContent = plural(current.warnings, 'warning');
  } else {
    status.dataset['state'] = 'ok';
    status.textContent = 'No problems';
  }
}

function findingItem(finding: Finding): HTMLLIElement {
  const item = el('li', 'finding');
  const severity = el('span', 'finding__severity', finding.severity);
  severity.dataset['severity'] = finding.severity;
  const message = el('span', 'finding__message', finding.message);
  const where = el('span', 'finding__where');
  const place = [finding.file, finding.line !== undefined ? `${finding.line}:${finding.column ?? 1}` : undefined, finding.pointer]
    .filter((p) => p !== undefined)
    .join(' ');
  where.append(el('span', 'finding__rule', finding.rule), document.createTextNode(place === '' ? '' : `  ${place}`));
  item.append(severity, message, where);
  return item;
}

function renderFindings(current: PreviewState): void {
  const overlay = byId('findings');
  const list = byId('findings-list');
  const note = byId('warnings-note');
  if (current.problem !== null) {
    byId('findings-title').textContent = 'The project folder cannot be read';
    byId('findings-lead').textContent = current.problem;
    list.replaceChildren();
    overlay.hidden = false;
  } else if (!current.ok) {
    byId('findings-title').textContent = `The extension has ${plural(current.errors, 'error')}`;
    byId('findings-lead').textContent = 'Fix them and save: the preview checks again and starts the extension by itself.';
    list.replaceChildren(...current.findings.map(findingItem));
    overlay.hidden = false;
  } else {
    overlay.hidden = true;
    list.replaceChildren();
  }
  const warnings = current.findings.filter((f) => f.severity === 'warning');
  if (current.ok && warnings.length > 0) {
    const details = el('details');
    details.append(el('summary', undefined, `${plural(warnings.length, 'warning')} (the extension runs; the store review may ask about them)`));
    const ol = el('ol', 'findings__list');
    ol.append(...warnings.map(findingItem));
    details.append(ol);
    note.replaceChildren(details);
    note.hidden = false;
  } else {
    note.hidden = true;
    note.replaceChildren();
  }
}

// ---------------------------------------------------------------------------------------
// Capabilities panel

function renderCapabilities(current: PreviewState): void {
  const box = byId('capabilities');
  box.replaceChildren();
  if (declared.length === 0) {
    box.append(el('p', 'empty-note', 'The manifest declares no capabilities: every bridge call rejects with CAPABILITY_NOT_GRANTED.'));
  }
  for (const key of declared) {
    const def = capabilityByKey(key);
    const row = el('div', 'capability');
    row.append(el('span', 'capability__key', key));
    row.append(el('span', 'capability__risk', def === undefined ? '' : `${def.risk} risk · ${def.method}()`));
    const toggles = el('div', 'capability__toggles');
    const grant = toggle('Granted', grants.has(key), (on) => {
      if (on) grants.add(key);
      else grants.delete(key);
      bridge?.pushGrants();
    });
    const fail = toggle('Fail calls', failing.has(key), (on) => {
      if (on) failing.add(key);
      else failing.delete(key);
    });
    toggles.append(grant, fail);
    row.append(toggles);
    box.append(row);
  }
  const undeclared = [...new Set([...current.options.deny, ...current.options.fail])].filter((k) => !declared.includes(k));
  if (undeclared.length > 0) {
    box.append(el('p', 'panel__help', `Not declared in the manifest, so never granted: ${undeclared.join(', ')}.`));
  }
}

function toggle(label: string, checked: boolean, onChange: (on: boolean) => void): HTMLLabelElement {
  const wrap = el('label', 'switch switch--small');
  const input = el('input');
  input.type = 'checkbox';
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked));
  wrap.append(input, el('span', undefined, label));
  return wrap;
}

// ---------------------------------------------------------------------------------------
// Settings panel: one control per manifest property, checked with validateSettings

/** The value a property starts with: its default, when it has a valid one. */
function initialSettings(defs: readonly PropertyDef[], previous: Record<string, SettingValue>): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const def of defs) {
    const kept = previous[def.name];
    // A value the developer typed survives a manifest edit while it still fits the property.
    if (kept !== undefined && isValidSetting(def, kept)) out[def.name] = kept;
    else if (def.default !== undefined) out[def.name] = def.default;
  }
  return out;
}

function isValidSetting(def: PropertyDef, value: SettingValue): boolean {
  const findings = new FindingList();
  validateSettings([def], { [def.name]: value }, findings);
  return findings.items.length === 0;
}

/** Checks the draft; returns the messages by property name (an empty map: valid). */
function checkDraft(): Map<string, string[]> {
  const problems = new Map<string, string[]>();
  const add = (name: string, message: string): void => {
    const list = problems.get(name) ?? [];
    list.push(message);
    problems.set(name, list);
  };
  const findings = new FindingList();
  validateSettings(properties, draft, findings);
  for (const finding of findings.items) {
    // Pointers are `/<name>` for one setting, `` for the whole object (its total size).
    const name = (finding.pointer ?? '').slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
    add(name, finding.message);
  }
  for (const def of properties) {
    const value = draft[def.name];
    // D-8 for saved settings: a required string setting needs a non-whitespace character.
    if (def.required && typeof value === 'string' && value.trim() === '') add(def.name, 'Required: enter a value');
  }
  return problems;
}

function renderSettingsForm(): void {
  const form = byId<HTMLFormElement>('settings-form');
  form.replaceChildren();
  if (properties.length === 0) {
    form.append(el('p', 'empty-note', 'The manifest defines no properties.'));
  }
  for (const def of properties) form.append(settingField(def));
  showSettingsProblems(checkDraft());
}

function settingField(def: PropertyDef): HTMLElement {
  const wrap = el('div', 'field');
  wrap.dataset['property'] = def.name;
  const id = `setting-${def.name}`;
  const label = el('label', 'field__label', def.label ?? def.name);
  label.htmlFor = id;
  const value = draft[def.name];
  let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  const update = (next: SettingValue | undefined): void => {
    if (next === undefined) delete draft[def.name];
    else draft[def.name] = next;
    settingsChanged();
  };
  switch (def.type) {
    case 'boolean': {
      const input = el('input');
      input.type = 'checkbox';
      input.checked = value === true;
      input.addEventListener('change', () => update(input.checked));
      control = input;
      const row = el('label', 'switch');
      row.append(input, el('span', undefined, def.label ?? def.name));
      row.htmlFor = id;
      control.id = id;
      wrap.append(row);
      if (def.help !== undefined) wrap.append(el('span', 'field__help', def.help));
      wrap.append(el('span', 'field__error'));
      return wrap;
    }
    case 'number': {
      const input = el('input');
      input.type = 'number';
      input.step = 'any';
      if (def.min !== undefined) input.min = String(def.min);
      if (def.max !== undefined) input.max = String(def.max);
      input.value = typeof value === 'number' ? String(value) : '';
      input.addEventListener('input', () => {
        const text = input.value.trim();
        // An empty box means "not set"; anything else must read as a finite number.
        update(text === '' ? undefined : Number(text));
      });
      control = input;
      break;
    }
    case 'select': {
      const select = el('select');
      if (def.default === undefined) select.append(new Option('(not set)', ''));
      for (const option of def.options ?? []) select.append(new Option(option.label, option.value));
      select.value = typeof value === 'string' ? value : '';
      select.addEventListener('change', () => update(select.value === '' && def.default === undefined ? undefined : select.value));
      control = select;
      break;
    }
    case 'textarea': {
      const area = el('textarea');
      area.value = typeof value === 'string' ? value : '';
      area.addEventListener('input', () => update(area.value));
      control = area;
      break;
    }
    default: {
      // text, color, url, image: free text, checked by the contract's value rules.
      const input = el('input');
      input.type = 'text';
      input.spellcheck = def.type === 'text';
      input.value = typeof value === 'string' ? value : '';
      if (def.type === 'color') {
        const row = el('div', 'field__row');
        const swatch = el('span', 'swatch');
        const paint = (): void => swatch.style.setProperty('background', input.value);
        paint();
        input.addEventListener('input', () => {
          paint();
          update(input.value);
        });
        control = input;
        control.id = id;
        row.append(swatch, input);
        wrap.append(label, row);
        if (def.help !== undefined) wrap.append(el('span', 'field__help', def.help));
        wrap.append(el('span', 'field__error'));
        return wrap;
      }
      if (def.type === 'url' || def.type === 'image') input.placeholder = '/page or https://…';
      input.addEventListener('input', () => update(input.value));
      control = input;
    }
  }
  control.id = id;
  wrap.append(label, control);
  if (def.help !== undefined) wrap.append(el('span', 'field__help', def.help));
  wrap.append(el('span', 'field__error'));
  return wrap;
}

function showSettingsProblems(problems: Map<string, string[]>): void {
  for (const field of byId('settings-form').querySelectorAll<HTMLElement>('.field')) {
    const messages = problems.get(field.dataset['property'] ?? '') ?? [];
    field.dataset['invalid'] = String(messages.length > 0);
    const error = field.querySelector('.field__error');
    if (error !== null) error.textContent = messages.join(' ');
  }
  const whole = problems.get('') ?? [];
  const box = byId('settings-errors');
  box.textContent = whole.join(' ');
  box.hidden = whole.length === 0;
}

function settingsChanged(): void {
  const problems = checkDraft();
  showSettingsProblems(problems);
  if (problems.size > 0) return; // the frame keeps the last valid settings
  settings = { ...draft };
  bridge?.pushSettings();
}

// ---------------------------------------------------------------------------------------
// Theme panel

function applyThemeToPage(): void {
  const theme = store.theme();
  for (const field of THEME_FIELDS) document.documentElement.style.setProperty(THEME_TO_PAGE[field], theme[field]);
}

function renderTheme(): void {
  const box = byId('theme-fields');
  box.replaceChildren();
  const theme = store.theme();
  for (const field of THEME_FIELDS) {
    const wrap = el('div', 'field');
    const id = `theme-${field}`;
    const label = el('label', 'field__label', field);
    label.htmlFor = id;
    const row = el('div', 'field__row');
    const input = el('input');
    input.type = 'text';
    input.id = id;
    input.spellcheck = false;
    input.value = theme[field];
    const error = el('span', 'field__error');
    const isColour = !/Font$|sectionGap|buttonRadius/.test(field);
    const swatch = el('span', 'swatch');
    const paint = (): void => swatch.style.setProperty('background', store.theme()[field]);
    if (isColour) {
      paint();
      row.append(swatch);
    }
    input.addEventListener('input', () => {
      const problem = store.setTheme(field, input.value);
      wrap.dataset['invalid'] = String(problem !== null);
      error.textContent = problem === null ? '' : `Not used: ${problem}`;
      if (problem === null) {
        if (isColour) paint();
        applyThemeToPage();
      }
    });
    row.append(input);
    wrap.append(label, row, error);
    box.append(wrap);
  }
}

// ---------------------------------------------------------------------------------------
// Cart panel and header

function renderCart(): void {
  const snapshot = store.cart();
  byId('cart-count').textContent = String(snapshot.itemCount);
  byId('cart-total').textContent = snapshot.total;
  const box = byId('cart-lines');
  box.replaceChildren();
  if (snapshot.lines.length === 0) {
    box.append(el('p', 'empty-note', 'The cart is empty.'));
    return;
  }
  for (const line of snapshot.lines) {
    const row = el('div', 'cart-line');
    const image = el('img');
    image.src = line.product.image;
    image.alt = '';
    const name = el('div');
    name.append(el('div', undefined, line.product.name), el('div', 'field__help', `${line.product.price} each · ${line.total}`));
    const qty = el('div', 'cart-line__qty');
    const minus = el('button', 'button button--small', '−');
    minus.type = 'button';
    minus.setAttribute('aria-label', `One fewer ${line.product.name}`);
    minus.addEventListener('click', () => void store.adapters.cart.remove({ productId: line.product.id, quantity: 1 }).then(renderCart));
    const plus = el('button', 'button button--small', '+');
    plus.type = 'button';
    plus.setAttribute('aria-label', `One more ${line.product.name}`);
    plus.addEventListener('click', () => void store.adapters.cart.add({ productId: line.product.id, quantity: 1 }).then(renderCart));
    qty.append(minus, el('span', undefined, String(line.quantity)), plus);
    row.append(image, name, qty);
    box.append(row);
  }
  const total = el('div', 'cart-total');
  total.append(el('span', undefined, plural(snapshot.itemCount, 'item')), el('span', undefined, snapshot.total));
  box.append(total);
}

/** The storefront's cart-updated event (CART_UPDATED_EVENT), as a theme's header would follow it. */
function onCartUpdated(event: Event): void {
  const detail = (event as CustomEvent<CartUpdatedDetail>).detail;
  renderCart();
  byId('cart-count').textContent = String(detail.itemCount);
  byId('cart-total').textContent = detail.total;
  // The count bumps; the class comes off when the animation ends (wireControls), so the
  // next update starts it again without forcing a layout to restart it.
  byId('cart-button').classList.add('is-bumped');
}

// ---------------------------------------------------------------------------------------
// Log, activity and toasts

/**
 * A list shown newest first that renders in an animation frame, at most once every
 * LIST_RENDER_INTERVAL_MS (LIST_BURST_INTERVAL_MS in a burst), only while its panel is open, and keeps at most `max`
 * elements. A bridge call costs the page one array push, not a DOM update: a frame making
 * thousands of calls a second would otherwise spend the page's time on style, layout and
 * paint of entries nobody can read at that speed (bench/bridge.mjs), and that time is
 * taken from the bridge. Only the newest `max` items of a burst are ever built. Nothing
 * here reads layout, so a render never forces a synchronous layout.
 */
interface BatchedList<T> {
  add(item: T): void;
  clear(): void;
  /** Items added since the last clear(). */
  readonly total: number;
}

function batchedList<T>(
  list: HTMLElement,
  panel: HTMLDetailsElement,
  max: number,
  render: (item: T) => HTMLElement,
  /** Rewrites an element `render` built to show another item; returns it, or a new element when it cannot. */
  rerender: (element: Element, item: T) => Element,
  afterRender: (total: number) => void,
): BatchedList<T> {
  /** Items not yet rendered, oldest first; trimmed to the newest `max` in amortised O(1). */
  let waiting: T[] = [];
  let total = 0;
  let scheduled = false;
  let lastRender = -Infinity;
  /** Wait before the next render: longer after a render that replaced the whole list. */
  let interval = LIST_RENDER_INTERVAL_MS;

  function flush(now: number): void {
    scheduled = false;
    list.removeAttribute('aria-busy');
    if (!panel.open) {
      // Nothing to see: the list is built when its panel opens (the `toggle` listener below).
      afterRender(total);
      return;
    }
    lastRender = now;
    interval = waiting.length >= max ? LIST_BURST_INTERVAL_MS : LIST_RENDER_INTERVAL_MS;
    const first = Math.max(0, waiting.length - max);
    const count = waiting.length - first;
    const shown = list.childElementCount;
    // The oldest elements that this render pushes past `max` are rewritten for the newest
    // items instead of removed while as many new ones are built: under a burst of calls
    // every render replaces the whole list, and rewriting a few text nodes in place costs
    // the page far less than building and discarding five elements per entry
    // (bench/bridge.mjs, calls per second in the preview page).
    const reused = Math.min(count, Math.max(0, shown + count - max));
    if (reused === shown && reused === count) {
      // The whole list is replaced: rewrite every element where it stands, newest first.
      for (let i = 0; i < count; i++) {
        const element = list.children[i]!;
        const shownNow = rerender(element, waiting[waiting.length - 1 - i]!);
        if (shownNow !== element) element.replaceWith(shownNow);
      }
    } else {
      const fragment = document.createDocumentFragment();
      // The oldest `reused` elements, in the order they will show (newest item first).
      const recycled: Element[] = [];
      for (let i = 0; i < reused; i++) recycled.push(list.children[shown - reused + i]!);
      let next = 0;
      for (let i = waiting.length - 1; i >= first; i--) {
        const element = next < reused ? recycled[next++]! : null;
        if (element === null) {
          fragment.append(render(waiting[i]!));
        } else {
          const shownNow = rerender(element, waiting[i]!);
          if (shownNow !== element) element.remove();
          fragment.append(shownNow);
        }
      }
      list.prepend(fragment);
    }
    waiting = [];
    const excess = list.childElementCount - max;
    if (excess > 0) {
      // One range removal instead of one removal per element.
      const range = document.createRange();
      range.setStartBefore(list.children[max]!);
      range.setEndAfter(list.lastChild!);
      range.deleteContents();
    }
    afterRender(total);
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    // Items are waiting (assistive technology and tests can tell a list that is settled).
    list.setAttribute('aria-busy', 'true');
    // A hidden tab runs no animation frames: the items wait (at most `max` of them) until it shows.
    const wait = lastRender + interval - performance.now();
    if (wait <= 0) requestAnimationFrame(flush);
    else setTimeout(() => requestAnimationFrame(flush), wait);
  }

  // The bound, for readers of the page (the browser tests read it rather than repeat it).
  list.dataset['max'] = String(max);
  panel.addEventListener('toggle', () => {
    if (panel.open && waiting.length > 0) schedule();
  });

  return {
    add(item: T): void {
      total++;
      waiting.push(item);
      if (waiting.length >= 2 * max) waiting = waiting.slice(-max);
      schedule();
    },
    clear(): void {
      waiting = [];
      total = 0;
      list.replaceChildren();
      schedule();
    },
    get total(): number {
      return total;
    },
  };
}

type CallEntry = Extract<CallLogEntry, { kind: 'call' }>;

/** The call each rendered log entry shows: its payload and answer are formatted only when opened. */
const logEntryCalls = new WeakMap<HTMLButtonElement, CallEntry>();

/**
 * One line per call: a button (capability and action, outcome, duration) that opens the
 * payload and the answer below it. Five elements and no shadow tree (a <details> would
 * bring one): under load the page builds up to LOG_MAX_ENTRIES of these per render.
 */
function logEntry(entry: CallEntry): HTMLElement {
  const item = el('li', 'log-entry');
  const head = el('button', 'log-entry__head');
  head.type = 'button';
  head.setAttribute('aria-expanded', 'false');
  const outcome = el('span', 'log-entry__outcome', entry.ok ? 'ok' : entry.code);
  outcome.dataset['outcome'] = entry.ok ? 'ok' : 'error';
  head.append(
    el('span', 'log-entry__call', `${entry.capability ?? '?'} · ${entry.action ?? '?'}`),
    outcome,
    el('span', 'log-entry__ms', `${entry.durationMs < 10 ? entry.durationMs.toFixed(1) : Math.round(entry.durationMs)} ms`),
  );
  logEntryCalls.set(head, entry);
  item.append(head);
  return item;
}

/** Sets one element's only text, keeping its text node (no node is created or dropped). */
function setText(element: Element, text: string): Element {
  const node = element.firstChild;
  if (node !== null && node.nodeType === Node.TEXT_NODE && node.nextSibling === null) (node as Text).data = text;
  else element.textContent = text;
  return element;
}

/** Rewrites an entry built by logEntry for another call: closed, with that call's line. */
function rewriteLogEntry(item: Element, entry: CallEntry): Element {
  const head = item.firstElementChild;
  if (!(head instanceof HTMLButtonElement) || head.childElementCount !== 3) return logEntry(entry);
  // An opened entry's details belong to the call it showed before.
  while (head.nextSibling !== null) head.nextSibling.remove();
  head.setAttribute('aria-expanded', 'false');
  const call = head.children[0]!;
  const outcome = head.children[1] as HTMLElement;
  const ms = head.children[2]!;
  setText(call, `${entry.capability ?? '?'} · ${entry.action ?? '?'}`);
  setText(outcome, entry.ok ? 'ok' : entry.code);
  outcome.dataset['outcome'] = entry.ok ? 'ok' : 'error';
  setText(ms, `${entry.durationMs < 10 ? entry.durationMs.toFixed(1) : Math.round(entry.durationMs)} ms`);
  logEntryCalls.set(head, entry);
  return item;
}

/** Opens or closes a log entry's payload and answer (formatted on first opening: a catalog page's JSON is long). */
function onLogClick(event: MouseEvent): void {
  const head = event.target instanceof Element ? event.target.closest('.log-entry__head') : null;
  if (!(head instanceof HTMLButtonElement)) return;
  const open = head.getAttribute('aria-expanded') !== 'true';
  head.setAttribute('aria-expanded', String(open));
  let details = head.nextElementSibling;
  if (details === null) {
    const entry = logEntryCalls.get(head);
    if (entry === undefined) return;
    details = el('div', 'log-entry__details');
    details.append(
      el('pre', undefined, `payload ${preview(entry.payload)}`),
      el('pre', undefined, entry.ok ? `result ${preview(entry.result)}` : `error ${entry.code}: ${entry.message}`),
    );
    head.after(details);
  }
  (details as HTMLElement).hidden = !open;
}

function showLogCount(total: number): void {
  byId('log-count').textContent = String(total);
  const more = byId('log-more');
  const older = total - Math.min(total, LOG_MAX_ENTRIES);
  more.textContent = older > 0 ? `and ${plural(older, 'earlier call')} not shown (the log keeps the last ${LOG_MAX_ENTRIES})` : '';
  more.hidden = older === 0;
}

let callLog: BatchedList<CallEntry> | null = null;
let activityLog: BatchedList<string> | null = null;

function logCall(entry: CallLogEntry): void {
  if (entry.kind === 'dropped') {
    byId('log-dropped').textContent = `${plural(entry.dropped, 'malformed message')} dropped (last: ${entry.reason})`;
    return;
  }
  callLog?.add(entry);
}

function toast(title: string, text: string): void {
  const box = el('div', 'toast');
  box.append(el('strong', undefined, title), document.createTextNode(text));
  const stack = byId('toasts');
  stack.append(box);
  while (stack.children.length > TOASTS_MAX) stack.firstElementChild?.remove();
  setTimeout(() => box.remove(), TOAST_MS);
}

function showActivity(activity: StoreActivity): void {
  let text: string;
  switch (activity.kind) {
    case 'cart':
      renderCart();
      return;
    case 'booking-opened':
      text = `Booking flow opened at ${activity.url}`;
      toast('The store would open its booking flow', activity.url);
      break;
    case 'waiver-opened':
      text = `Waiver flow opened at ${activity.url}`;
      toast('The store would open its waiver flow', activity.url);
      break;
    case 'sms-opened':
      text = `Messages app opened to ${activity.to}${activity.message === '' ? '' : `: “${activity.message}”`}`;
      toast(`The visitor's messages app would open to ${STORE_SMS_NUMBER}`, activity.message);
      break;
    case 'form-submitted':
      text = `${activity.form === 'contact' ? 'Contact' : 'Newsletter'} form ${activity.ok ? 'accepted' : 'refused (the store wants a valid email and, for contact, a message)'}`;
      break;
    case 'analytics':
      text = activity.tracked ? `Analytics event "${activity.event}" recorded` : `Analytics event "${activity.event}" not recorded: no consent`;
      break;
  }
  activityLog?.add(text);
}

// ---------------------------------------------------------------------------------------
// Viewport

function setViewport(viewport: Viewport): void {
  const stage = byId('stage');
  stage.dataset['viewport'] = viewport;
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-viewport]')) {
    if (button.tagName === 'BUTTON') button.setAttribute('aria-pressed', String(button.dataset['viewport'] === viewport));
  }
}

/**
 * Shows the frame slot's size. Only from a ResizeObserver, which reports the size after
 * each layout (the first time right after the first): reading the size here would force
 * a synchronous layout of the whole page in the middle of building it, while the frame
 * is loading (cold start, bench/bridge.mjs).
 */
function watchStageSize(): void {
  const slot = byId(FRAME_SLOT_ID);
  const label = byId('stage-size');
  if (typeof ResizeObserver !== 'function') return;
  new ResizeObserver((entries) => {
    const box = entries[entries.length - 1]?.contentRect;
    if (box !== undefined) label.textContent = `${Math.round(box.width)} × ${Math.round(box.height)} px`;
  }).observe(slot);
}

// ---------------------------------------------------------------------------------------
// Applying a check from the server

/**
 * Applies a check. `panelsLater`: the panels are drawn in a later task, after the frame
 * has been taken over (the first check, at cold start: the page's first layout, which
 * gives the frame its size, and the frame's own loading then do not wait for the panels).
 */
function apply(next: PreviewState, reload = false, panelsLater = false): void {
  const previous = state;
  state = next;
  strictHost = next.options.strictHost === true;
  const storeChanged = next.options.emptyCatalog !== emptyCatalog;
  if (storeChanged) {
    emptyCatalog = next.options.emptyCatalog;
    store = newStore(emptyCatalog);
    // The bridge holds the old store's adapters: the frame restarts with the new store.
    reload = true;
  }
  if (previous === null) {
    for (const key of next.options.fail) failing.add(key);
  }

  const manifest = next.manifest;
  const nextDeclared = manifest === null ? [] : [...manifest.capabilities];
  // A newly declared capability starts granted unless --deny names it; a dropped one loses its grant.
  for (const key of nextDeclared) if (!declared.includes(key) && !next.options.deny.includes(key)) grants.add(key);
  for (const key of [...grants]) if (!nextDeclared.includes(key)) grants.delete(key);
  declared = nextDeclared;

  const nextProperties = manifest?.properties ?? [];
  const propertiesChanged = previous === null || JSON.stringify(nextProperties) !== JSON.stringify(properties);
  if (propertiesChanged) {
    properties = nextProperties;
    draft = initialSettings(properties, draft);
    settings = checkDraft().size === 0 ? { ...draft } : initialSettings(properties, {});
  }

  // The frame first: grants and settings are known, and the frame loads in its own
  // process while this task renders the panels (cold start, bench/bridge.mjs).
  // A save of some other project file (a README) re-checks but leaves the running frame alone.
  const unchanged = previous !== null && previous.ok && frame !== null && previous.contentKey === next.contentKey && previous.frameUrl === next.frameUrl;
  if (next.ok && next.frameUrl !== null && manifest !== null) {
    if (reload || !unchanged) mountFrame(next.frameUrl, manifest);
  } else {
    // The findings overlay says why; the slot keeps its size so the page does not jump.
    unmountFrame();
    byId(FRAME_SLOT_ID).replaceChildren();
  }

  // A check applied in between has drawn its own panels; drawing the latest again is harmless.
  if (panelsLater) afterFrameLoads(() => renderPanels(state ?? next, storeChanged, propertiesChanged));
  else renderPanels(next, storeChanged, propertiesChanged);
}

/**
 * Runs `work` once the frame's first document has loaded, or after FIRST_LOAD_WAIT_MS,
 * or in the next task when there is no frame or it has loaded already. On opening the
 * page, the panels wait for the extension: on a machine with few cores the page's
 * layout and paint of its panels would otherwise compete with the frame's process
 * while the extension starts (cold start, bench/bridge.mjs). The bridge does not wait:
 * mountFrame starts it on the frame's load, so the extension's first calls are answered
 * as soon as it makes them.
 */
function afterFrameLoads(work: () => void): void {
  const waiting = frame;
  if (waiting === null || waiting.dataset[FRAME_LOADED_KEY] === 'true') {
    setTimeout(work, 0);
    return;
  }
  let done = false;
  const run = (): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    waiting.removeEventListener('load', run);
    // After the load's own task (the bridge's handshake) and the frame's first paint request.
    setTimeout(work, 0);
  };
  const timer = setTimeout(run, FIRST_LOAD_WAIT_MS);
  waiting.addEventListener('load', run);
}

function renderPanels(next: PreviewState, storeChanged: boolean, propertiesChanged: boolean): void {
  if (storeChanged) {
    applyThemeToPage();
    renderTheme();
    renderCart();
  }
  byId('catalog-note').textContent = emptyCatalog
    ? 'Empty catalog (--empty-catalog): catalog calls answer with no products.'
    : `Sample catalog: ${SAMPLE_PRODUCTS.length} products, some out of stock.`;
  if (propertiesChanged) renderSettingsForm();
  renderStatus(next);
  renderCapabilities(next);
  renderFindings(next);
}

/** True when `next` says nothing new: the event stream's first state repeats the one embedded in the page. */
function sameCheck(current: PreviewState | null, next: PreviewState): boolean {
  return (
    current !== null &&
    current.revision === next.revision &&
    current.contentKey === next.contentKey &&
    current.ok === next.ok &&
    current.problem === next.problem &&
    JSON.stringify(current.findings) === JSON.stringify(next.findings) &&
    JSON.stringify(current.manifest) === JSON.stringify(next.manifest)
  );
}

function connect(): void {
  const events = new EventSource('events');
  events.addEventListener('state', (event) => {
    let next: PreviewState;
    try {
      next = JSON.parse((event as MessageEvent<string>).data) as PreviewState;
    } catch {
      return;
    }
    if (!sameCheck(state, next)) apply(next);
  });
  // The server holds back a failing check while the folder is being rewritten (a bundler
  // in watch mode, src/preview/watch.ts BUILD_SETTLE_MS): the frame keeps running the
  // last good build, and only the status says a build is under way. The next state
  // event sets the status again.
  events.addEventListener('building', () => {
    const status = byId('check-status');
    status.dataset['state'] = 'building';
    status.textContent = 'Waiting for the build…';
  });
  events.addEventListener('open', () => {
    // Back after the server stopped: the state event that follows sets the status again.
    if (byId('check-status').dataset['state'] === 'offline' && state !== null) renderStatus(state);
  });
  events.addEventListener('error', () => {
    const status = byId('check-status');
    status.dataset['state'] = 'offline';
    status.textContent = 'Preview server stopped';
  });
}

/**
 * The check the server embedded in the page (STATE_ELEMENT_ID, a JSON data block: the
 * page policy runs no inline script, and a data block is not run). With it the frame
 * starts loading as soon as this script runs, without waiting for the event stream.
 */
function embeddedState(): PreviewState | null {
  const text = document.getElementById(STATE_ELEMENT_ID)?.textContent ?? '';
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as PreviewState;
  } catch {
    return null;
  }
}

function wireControls(): void {
  byId<HTMLInputElement>('consent').addEventListener('change', (event) => {
    consent = (event.target as HTMLInputElement).checked;
  });
  byId<HTMLInputElement>('sms-number').addEventListener('change', (event) => {
    smsAvailable = (event.target as HTMLInputElement).checked;
  });
  byId('theme-reset').addEventListener('click', () => {
    store.resetTheme();
    applyThemeToPage();
    renderTheme();
  });
  byId('cart-clear').addEventListener('click', () => {
    store.clearCart();
    renderCart();
  });
  byId('cart-button').addEventListener('animationend', () => byId('cart-button').classList.remove('is-bumped'));
  byId('cart-button').addEventListener('click', () => {
    const panel = byId<HTMLDetailsElement>('panel-cart');
    panel.open = true;
    panel.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  });
  byId('log-clear').addEventListener('click', () => {
    callLog?.clear();
    byId('log-dropped').textContent = '';
  });
  byId('reload-frame').addEventListener('click', () => {
    if (state !== null) apply(state, true);
  });
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-viewport]')) {
    button.addEventListener('click', () => setViewport(button.dataset['viewport'] as Viewport));
  }
  byId<HTMLFormElement>('settings-form').addEventListener('submit', (event) => event.preventDefault());
  window.addEventListener(CART_UPDATED_EVENT, onCartUpdated);
}

function main(): void {
  const initial = embeddedState();
  const log = byId('log');
  callLog = batchedList(log, byId<HTMLDetailsElement>('panel-log'), LOG_MAX_ENTRIES, logEntry, rewriteLogEntry, showLogCount);
  log.addEventListener('click', onLogClick);
  activityLog = batchedList(byId('activity'), byId<HTMLDetailsElement>('panel-activity'), LOG_MAX_ENTRIES, (text) => el('li', undefined, text), setText, () => undefined);
  // The frame first, the panels in the next task (apply's `panelsLater`).
  if (initial !== null) apply(initial, false, true);
  wireControls();
  connect();
  afterFrameLoads(() => {
    applyThemeToPage();
    renderTheme();
    renderCart();
    watchStageSize();
    // The panels are drawn (apply's afterFrameLoads ran first): the tools column shows.
    delete byId('tools').dataset['state'];
  });
}

main();
