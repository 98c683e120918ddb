// The preview host page (browser code, bundled by scripts/build-page.mjs): the storefront
// around the extension's sandboxed frame, and the tools beside it. It holds the mock store
// (src/preview/mock-store.ts) and the host end of the bridge (src/bridge/host.ts). It
// starts from the check the server embedded in the page (with the frame already in the
// markup when it passed: markup.ts, boot.ts) and follows later checks over Server-Sent
// Events: a check with errors replaces the frame with the findings; a passing check
// (re)starts the frame.
import { CART_UPDATED_EVENT } from '../../validator/internal.js';
import { SAMPLE_PRODUCTS, createMockStore, type MockStore } from '../mock-store.js';
import { clearCallLog, showActivity, startLogs } from './activity-log.js';
import { renderCapabilities } from './capabilities-panel.js';
import { onCartUpdated, renderCart } from './cart-panel.js';
import { byId } from './dom.js';
import { renderFindings, renderStatus } from './findings-panel.js';
import { mountFrame, unmountFrame } from './frame.js';
import { FRAME_LOADED_KEY, FRAME_SLOT_ID, LIVE_CSS_APPLIED, LIVE_CSS_MESSAGE, STATE_ELEMENT_ID, type ManifestSummary } from './markup.js';
import { onStoreChange, renderStorePanel, storeForCheck, wireStorePanel } from './store-panel.js';
import { page, type PreviewState } from './page-state.js';
import { checkDraft, initialSettings, renderSettingsForm } from './settings-panel.js';
import { applyThemeToPage, renderTheme } from './theme-panel.js';
import { setViewport, watchStageSize, type Viewport } from './viewport.js';

/** The longest the panels wait for the frame's first load when the page opens (afterFrameLoads). */
const FIRST_LOAD_WAIT_MS = 1000;

/** Applies a check. */
function apply(next: PreviewState, reload = false, panelsLater = false): void {
  const previous = page.state;
  page.state = next;
  page.strictHost = next.options.strictHost === true;
  const storeChanged = next.options.emptyCatalog !== page.emptyCatalog;
  if (storeChanged) {
    page.emptyCatalog = next.options.emptyCatalog;
    page.store = newStore(page.emptyCatalog);
    // The bridge holds the old store's adapters: the frame restarts with the new store.
    reload = true;
  }
  if (previous === null) {
    for (const key of next.options.fail) page.failing.add(key);
    for (const [key, code] of Object.entries(next.options.failCodes ?? {})) page.failCodes.set(key, code);
  }

  // The store's records (store-panel.ts): installed on first sight with every declared
  // capability approved but --deny's, installed again when the manifest changes; the
  // grants are then the service's launch gate's.
  const propertiesBefore = JSON.stringify(page.properties);
  const run = storeForCheck(next);
  const manifest: ManifestSummary | null = run?.manifest ?? (page.running === 'previous' ? (next.previous?.manifest ?? null) : next.manifest);
  page.declared = manifest === null ? [] : [...manifest.capabilities];

  const nextProperties = manifest?.properties ?? [];
  const propertiesChanged = previous === null || JSON.stringify(nextProperties) !== propertiesBefore;
  if (propertiesChanged) {
    page.properties = nextProperties;
    page.draft = initialSettings(page.properties, page.draft);
    page.settings = checkDraft().size === 0 ? { ...page.draft } : initialSettings(page.properties, {});
    try {
      page.lifecycle?.saveSettings(page.settings);
    } catch {
      // Nothing launches (revoked): the service keeps what was saved before.
    }
  }

  // The frame first: grants and settings are known, and the frame loads in its own
  // process while this task renders the panels (cold start, bench/bridge.mjs).
  if (page.running === 'previous') {
    // The previous release comes from its bundle.zip: saving the project leaves it running.
    if (run !== null && (reload || page.frame === null)) mountFrame(run.url, run.manifest);
  } else {
    const unchanged = previous !== null && previous.ok && page.frame !== null && previous.contentKey === next.contentKey && previous.frameUrl === next.frameUrl;
    // Only stylesheets changed: swap them into the running frame, keeping the extension's state.
    const stylesOnly = !reload && !unchanged && previous !== null && previous.ok && page.frame !== null && !page.noChannel && previous.frameKey === next.frameKey && previous.frameUrl === next.frameUrl;
    if (run !== null) {
      if (stylesOnly) swapStyles(previous, next, run);
      else if (reload || !unchanged) {
        mountFrame(run.url, run.manifest);
        if (previous !== null && !reload && previous.contentKey !== next.contentKey) frameNote('reloaded', 'Reloaded the extension: a file other than a stylesheet changed.');
      }
    } else if (!next.ok || next.frameUrl === null) {
      // The findings overlay says why; the slot keeps its size so the page does not jump.
      unmountFrame();
      byId(FRAME_SLOT_ID).replaceChildren();
    }
  }

  // A check applied in between has drawn its own panels; drawing the latest again is harmless.
  if (panelsLater) afterFrameLoads(() => renderPanels(page.state ?? next, storeChanged, propertiesChanged));
  else renderPanels(next, storeChanged, propertiesChanged);
}

/**
 * Runs `work` once the frame's first document has loaded, or after FIRST_LOAD_WAIT_MS,
 * or in the next task when there is no frame or it has loaded already.
 */
function afterFrameLoads(work: () => void): void {
  const waiting = page.frame;
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

/** Says on the stage bar how the last change reached the frame (`swapped` or `reloaded`). */
function frameNote(kind: 'swapped' | 'reloaded', text: string): void {
  const note = byId('frame-note');
  note.dataset['kind'] = kind;
  note.textContent = text;
}

/** How long the frame may take to answer a stylesheet swap before it is reloaded instead. */
const SWAP_ANSWER_MS = 3000;

/** The stylesheet swap the frame has not answered yet. */
let pendingSwap: { version: number; paths: string[]; run: { url: string; manifest: ManifestSummary } } | null = null;
let swapVersion = 0;

/** Asks the frame's live-CSS script (server.ts liveCssScript) to load the changed stylesheets again. */
function swapStyles(before: PreviewState, next: PreviewState, run: { url: string; manifest: ManifestSummary }): void {
  const paths = Object.keys(next.styles).filter((path) => before.styles[path] !== next.styles[path]);
  swapVersion++;
  pendingSwap = { version: swapVersion, paths, run };
  page.frame?.contentWindow?.postMessage({ type: LIVE_CSS_MESSAGE, paths, version: swapVersion }, '*');
  // A frame that does not answer (its document still loading, or busy) is reloaded instead.
  const version = swapVersion;
  setTimeout(() => {
    if (pendingSwap?.version !== version) return;
    pendingSwap = null;
    mountFrame(run.url, run.manifest);
    frameNote('reloaded', 'Reloaded the extension: the frame did not take the changed stylesheet in time.');
  }, SWAP_ANSWER_MS);
}

function onFrameMessage(event: MessageEvent): void {
  const swap = pendingSwap;
  if (swap === null || page.frame === null || event.source !== page.frame.contentWindow) return;
  const data = event.data as { type?: unknown; version?: unknown; swapped?: unknown } | null;
  if (data === null || typeof data !== 'object' || data.type !== LIVE_CSS_APPLIED || data.version !== swap.version) return;
  pendingSwap = null;
  if (typeof data.swapped === 'number' && data.swapped > 0) {
    frameNote('swapped', `Applied ${swap.paths.join(', ')} without reloading: the extension kept its state.`);
  } else {
    // The stylesheet is not linked from the document (an @import, a style the code adds): reload.
    mountFrame(swap.run.url, swap.run.manifest);
    frameNote('reloaded', `Reloaded the extension: ${swap.paths.join(', ')} is not linked from its document, so it could not be swapped in.`);
  }
}

function renderPanels(next: PreviewState, storeChanged: boolean, propertiesChanged: boolean): void {
  if (storeChanged) {
    applyThemeToPage();
    renderTheme();
    renderCart();
  }
  byId('catalog-note').textContent = page.emptyCatalog
    ? 'Empty catalog (--empty-catalog): catalog calls answer with no products.'
    : `Sample catalog: ${SAMPLE_PRODUCTS.length} products, some out of stock.`;
  if (propertiesChanged) renderSettingsForm();
  renderStatus(next);
  renderCapabilities(next);
  renderFindings(next);
  renderStorePanel();
}

/** True when `next` says nothing new: the event stream's first state repeats the one embedded in the page. */
function sameCheck(current: PreviewState | null, next: PreviewState): boolean {
  return (
    current !== null &&
    current.revision === next.revision &&
    current.contentKey === next.contentKey &&
    current.frameKey === next.frameKey &&
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
    if (!sameCheck(page.state, next)) apply(next);
  });
  // The server holds back a failing check while the folder is being rewritten (a bundler
  // in watch mode, src/preview/watch.ts BUILD_SETTLE_MS): the frame keeps running the
  // last good build, and only the status says a build is under way.
  events.addEventListener('building', () => {
    const status = byId('check-status');
    status.dataset['state'] = 'building';
    status.textContent = 'Waiting for the build…';
  });
  events.addEventListener('open', () => {
    // Back after the server stopped: the state event that follows sets the status again.
    if (byId('check-status').dataset['state'] === 'offline' && page.state !== null) renderStatus(page.state);
  });
  events.addEventListener('error', () => {
    const status = byId('check-status');
    status.dataset['state'] = 'offline';
    status.textContent = 'Preview server stopped';
  });
}

/**
 * The check the server embedded in the page (STATE_ELEMENT_ID, a JSON data block: the
 * page policy runs no inline script, and a data block is not run).
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
    page.consent = (event.target as HTMLInputElement).checked;
  });
  byId<HTMLInputElement>('sms-number').addEventListener('change', (event) => {
    page.smsAvailable = (event.target as HTMLInputElement).checked;
  });
  byId('theme-reset').addEventListener('click', () => {
    page.store.resetTheme();
    applyThemeToPage();
    renderTheme();
  });
  byId('cart-clear').addEventListener('click', () => {
    page.store.clearCart();
    renderCart();
  });
  byId('cart-button').addEventListener('animationend', () => byId('cart-button').classList.remove('is-bumped'));
  byId('cart-button').addEventListener('click', () => {
    const panel = byId<HTMLDetailsElement>('panel-cart');
    panel.open = true;
    panel.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  });
  byId('log-clear').addEventListener('click', clearCallLog);
  byId('reload-frame').addEventListener('click', () => {
    if (page.state !== null) apply(page.state, true);
  });
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-viewport]')) {
    button.addEventListener('click', () => setViewport(button.dataset['viewport'] as Viewport));
  }
  byId<HTMLFormElement>('settings-form').addEventListener('submit', (event) => event.preventDefault());
  window.addEventListener(CART_UPDATED_EVENT, onCartUpdated);
  window.addEventListener('message', onFrameMessage);
  wireStorePanel();
  onStoreChange(() => {
    if (page.state === null) return;
    page.declared = [...(page.runningManifest?.capabilities ?? [])];
    renderSettingsForm();
    renderCapabilities(page.state);
    renderStorePanel();
  });
}

/** A mock store that follows the Store and visitor switches and reports what it does to the activity list. */
function newStore(empty: boolean): MockStore {
  return createMockStore({
    emptyCatalog: empty,
    smsAvailable: () => page.smsAvailable,
    consent: () => page.consent,
    onActivity: showActivity,
  });
}

function main(): void {
  page.store = newStore(page.emptyCatalog);
  const initial = embeddedState();
  startLogs();
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
