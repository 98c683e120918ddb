// A list that renders in batches (batchedList): the call log and the store activity list
// are each one (activity-log.ts). It knows nothing of calls or activity, only of elements
// and when to draw them, so the render timing lives here with its constants.

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
 * `max` lines (activity-log.ts LOG_MAX_ENTRIES) and lays out and paints the tools, work
 * taken from the bridge at thousands of calls a second (bench/bridge.mjs).
 */
const LIST_BURST_INTERVAL_MS = 1000;

/**
 * A list shown newest first that renders in an animation frame, at most once every
 * LIST_RENDER_INTERVAL_MS (LIST_BURST_INTERVAL_MS in a burst), only while its panel is open, and keeps at most `max`
 * elements. A bridge call costs the page one array push, not a DOM update: a frame making
 * thousands of calls a second would otherwise spend the page's time on style, layout and
 * paint of entries nobody can read at that speed (bench/bridge.mjs), and that time is
 * taken from the bridge. Only the newest `max` items of a burst are ever built. Nothing
 * here reads layout, so a render never forces a synchronous layout.
 */
export interface BatchedList<T> {
  add(item: T): void;
  clear(): void;
  /** Items added since the last clear(). */
  readonly total: number;
}

export function batchedList<T>(
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
