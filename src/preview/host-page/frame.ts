// The extension's frame and the host end of its bridge: mounting the frame (taking over
// the one the server wrote into the page, or making one), starting the bridge on each load
// of its document, and unmounting both. The bridge reads the grants, settings and store
// from the page's state at each call, and logs each call to the call log.
import { createHostBridge } from '../../bridge/host.js';
import type { BridgeErrorCode } from '../../validator/internal.js';
import { faultyAdapters } from '../failing-adapters.js';
import { logCall } from './activity-log.js';
import { byId } from './dom.js';
import { FRAME_ATTRIBUTES, FRAME_LOADED_KEY, FRAME_SLOT_ID, SHORT_CLOCK_QUERY, frameTitle } from './markup.js';
import { page, type ManifestSummary } from './page-state.js';

/** Removes the load listener of the current bridge (a reload gives the frame a new bridge). */
let frameListeners: AbortController | null = null;
/** Whether the frame the server wrote into the page was taken over (it is, at most once). */
let servedFrameTaken = false;

export function unmountFrame(): void {
  page.runningManifest = null;
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
export function mountFrame(frameUrl: string, manifest: ManifestSummary): void {
  // The short clock is the server's to inject (the frame's configuration): it is asked in the URL.
  const url = page.shortClock ? `${frameUrl}?${SHORT_CLOCK_QUERY}` : frameUrl;
  page.runningManifest = manifest;
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
    // Held answers and ADAPTER_UNAVAILABLE / REQUEST_TIMEOUT go through the adapters, as a store's would.
    adapters: faultyAdapters(page.store.adapters, (capability) => {
      const code = page.failCodes.get(capability);
      if (page.hold || code === 'REQUEST_TIMEOUT') return 'hold';
      return code === 'ADAPTER_UNAVAILABLE' ? 'unavailable' : 'run';
    }),
    failing: () => page.failing.list(),
    failWith: (capability) => {
      const code = page.failCodes.get(capability);
      return code === undefined || code === 'ADAPTER_UNAVAILABLE' || code === 'REQUEST_TIMEOUT' ? null : (code as BridgeErrorCode);
    },
    consent: () => page.consent,
    strictHost: () => page.strictHost,
    onCall: logCall,
  });
  // Every load of the frame's document (first load, a reload) gets a fresh handshake.
  const listeners = new AbortController();
  // "Never open the channel": the host stays silent, so the runtime's handshake times out.
  iframe.addEventListener('load', () => {
    if (!page.noChannel) hostBridge.start();
  }, { signal: listeners.signal });
  page.bridge = hostBridge;
  frameListeners = listeners;
  page.frame = iframe;
  if (!served) {
    // Setting `src` navigates even when the URL is the same: that is the reload.
    iframe.src = url;
  } else if (iframe.dataset[FRAME_LOADED_KEY] === 'true' && !page.noChannel) {
    // It loaded before this script ran (boot.ts saw it): its runtime is listening now.
    hostBridge.start();
  }
}
