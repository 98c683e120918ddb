// The extension's frame and the host end of its bridge: mounting the frame (taking over
// the one the server wrote into the page, or making one), starting the bridge on each load
// of its document, and unmounting both. The bridge reads the grants, settings and store
// from the page's state at each call, and logs each call to the call log.
import { createHostBridge } from '../../bridge/host.js';
import { logCall } from './activity-log.js';
import { byId } from './dom.js';
import { FRAME_ATTRIBUTES, FRAME_LOADED_KEY, FRAME_SLOT_ID, frameTitle } from './markup.js';
import { page, type ManifestSummary } from './page-state.js';

/** Removes the load listener of the current bridge (a reload gives the frame a new bridge). */
let frameListeners: AbortController | null = null;
/** Whether the frame the server wrote into the page was taken over (it is, at most once). */
let servedFrameTaken = false;

export function unmountFrame(): void {
  page.bridge?.stop();
  page.bridge = null;
  frameListeners?.abort();
  frameListeners = null;
  page.frame?.remove();
  page.frame = null;
}

/**
 * Starts the extension in the frame, or starts it again. A frame that is already there is
 * navigated again rather than replaced: Chromium keeps its renderer process, where a new
 * frame element could need a new one (reload after a save, bench/bridge.mjs).
 */
export function mountFrame(url: string, manifest: ManifestSummary): void {
  page.bridge?.stop();
  frameListeners?.abort();
  let iframe = page.frame;
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
    grants: () => page.grants.list(),
    settings: () => page.settings,
    adapters: page.store.adapters,
    failing: () => page.failing.list(),
    consent: () => page.consent,
    strictHost: () => page.strictHost,
    onCall: logCall,
  });
  // Every load of the frame's document (first load, a reload) gets a fresh handshake.
  const listeners = new AbortController();
  iframe.addEventListener('load', () => hostBridge.start(), { signal: listeners.signal });
  page.bridge = hostBridge;
  frameListeners = listeners;
  page.frame = iframe;
  if (!served) {
    // Setting `src` navigates even when the URL is the same: that is the reload.
    iframe.src = url;
  } else if (iframe.dataset[FRAME_LOADED_KEY] === 'true') {
    // It loaded before this script ran (boot.ts saw it): its runtime is listening now.
    hostBridge.start();
  }
}
