// The host page's first script, inline in <head> (the server puts it there and allows it
// by its hash) ahead of anything it could wait on: it runs before the frame element below
// it even exists, and costs no round trip to the server. The server writes the
// extension's frame into the page's markup, so the frame starts loading while page.js (a
// module: it runs once the document is parsed) is still being fetched and compiled, and
// its load event can come before page.js is there to see it. This notes every load of a
// frame on the element itself; page.js reads the note when it takes the frame over and
// starts the bridge at once. `load` does not bubble: a capturing listener on the document
// sees it.
import { FRAME_LOADED_KEY } from './markup.js';

document.addEventListener(
  'load',
  (event) => {
    const target = event.target;
    if (target instanceof HTMLIFrameElement) target.dataset[FRAME_LOADED_KEY] = 'true';
  },
  true,
);
