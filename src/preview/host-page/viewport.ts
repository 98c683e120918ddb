// The stage's viewport presets (mobile, tablet, desktop) and the label with the frame
// slot's size.
import { byId } from './dom.js';
import { FRAME_SLOT_ID } from './markup.js';

/**
 * The viewport presets. Their widths are set in page.css (`.stage[data-viewport=…]`;
 * desktop: the whole content column) and shown on the buttons in page.html.
 */
export type Viewport = 'mobile' | 'tablet' | 'desktop';

export function setViewport(viewport: Viewport): void {
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
export function watchStageSize(): void {
  const slot = byId(FRAME_SLOT_ID);
  const label = byId('stage-size');
  if (typeof ResizeObserver !== 'function') return;
  new ResizeObserver((entries) => {
    const box = entries[entries.length - 1]?.contentRect;
    if (box !== undefined) label.textContent = `${Math.round(box.width)} × ${Math.round(box.height)} px`;
  }).observe(slot);
}
