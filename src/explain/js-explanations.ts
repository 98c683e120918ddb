// Long explanations of the js rules (src/validator/catalogue/js-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import { BLOCKED_NETWORK_APIS } from '../validator/internal.js';
import { listOf, type Explanation } from './explanation-kit.js';

export function jsExplanations(): Record<string, Explanation> {
  return {
    'js/invalid-utf8': {
      text: 'Browsers always decode module scripts as UTF-8. Bytes in another encoding change string literals and can change what the lexer sees, so the checks and the browser would read different code (D-19).',
      example: { file: 'runtime/main.js', before: "const label = 'Café';   (saved as Windows-1252)", after: "const label = 'Café';   (saved as UTF-8)" },
    },
    'js/syntax-error': {
      text: 'The module lexer met something a browser would reject: an unterminated string, template, comment or regular expression, unbalanced brackets, or a stray character. A module that does not parse never runs, and nothing it imports runs either. It is a warning because the lexer is not a full parser; node --check file.mjs shows the exact error.',
      example: { file: 'runtime/main.js', before: "const message = 'Book now;", after: "const message = 'Book now';" },
    },
    'js/bare-specifier': {
      text: 'A bare specifier (lodash-es, react) resolves only through an import map or a bundler. The frame has neither: import maps are refused (D-22) and there is no network (D-19). Bundle the dependency into runtime/ with a build step, or copy its ES module file and import it by a relative path.',
      example: { file: 'runtime/main.js', before: "import { debounce } from 'lodash-es';", after: "import { debounce } from './vendor/debounce.js';" },
    },
    'js/remote-import': {
      text: 'Imports of https:, //host, data: or blob: URLs are blocked: the runtime policy loads scripts only from the release (D-17), and a site never runs code fetched from elsewhere (contract rule 2).',
      example: { file: 'runtime/main.js', before: "import confetti from 'https://cdn.example.com/confetti.mjs';", after: "import confetti from './vendor/confetti.mjs';" },
    },
    'js/root-relative-import': {
      text: 'A specifier starting with a single "/" resolves against the storefront\'s origin, outside the release (D-19).',
      example: { file: 'runtime/main.js', before: "import { api } from '/js/api.js';", after: "import { api } from './api.js';" },
    },
    'js/import-outside-bundle': {
      text: 'A relative specifier that climbs above runtime/ names a file that is not packaged (D-19), typically shared source that lives next to runtime/ instead of inside it.',
      example: { file: 'runtime/main.js', before: "import { format } from '../common/format.js';", after: "import { format } from './lib/format.js';   (copied by the build)" },
    },
    'js/import-not-plain': {
      text: 'Import specifiers follow the plain-path rule of a module script src (D-22): no "%" escapes, "?" queries, "#" fragments, backslashes, spaces or control characters, so the browser and the checks resolve the same file.',
      example: { file: 'runtime/main.js', before: "import './widget.js?v=3';", after: "import './widget.js';" },
    },
    'js/missing-module': {
      text: 'The imported file is not in the bundle (D-19). Check the path relative to the importing module and the letter case: storage is case-sensitive even when your disk is not.',
      example: { file: 'runtime/main.js', before: "import { Cart } from './Cart.js';   (the file is runtime/cart.js)", after: "import { Cart } from './cart.js';" },
    },
    'js/not-javascript-module': {
      text: 'Only .js and .mjs files can be imported as modules (D-18): importing a stylesheet, an image or a font works only with a bundler, never in the frame.',
      example: { file: 'runtime/main.js', before: "import './styles.css';", after: '(in index.html) <link rel="stylesheet" href="styles.css">' },
    },
    'js/module-type-attribute': {
      text: 'An import with { type: \'json\' } or { type: \'css\' } loads a JSON or CSS module: JSON files cannot be in the bundle, and CSS module scripts do not load in every browser (D-19), so the runtime policy cannot make them safe and they are errors (D-37). Use a .js module for data and a link element for styles.',
      example: { file: 'runtime/main.js', before: "import config from './config.json' with { type: 'json' };", after: "import config from './config.js';   (export default { … })" },
    },
    'js/dynamic-import-unchecked': {
      text: 'import() with a computed specifier cannot be resolved ahead of time, so the checks cannot tell whether the target exists or stays inside the release (D-19). At run time the policy still refuses other origins. It is a warning; a string literal per target makes every import checkable.',
      example: {
        file: 'runtime/main.js',
        before: 'const view = await import(`./views/${name}.js`);',
        after: "const VIEWS = { list: () => import('./views/list.js'), grid: () => import('./views/grid.js') };\nconst view = await VIEWS[name]();",
      },
    },
    'js/network-api': {
      text: `The frame cannot reach the network (contract rule 5): the runtime policy has connect-src 'none' and worker-src 'none' (D-17), so ${listOf(BLOCKED_NETWORK_APIS)} fail in production even when they work in a plain page. Store data comes through the bridge. It is a warning because APIs are found by name and the call may never run.`,
      example: { file: 'runtime/main.js', before: "const products = await (await fetch('/api/products')).json();", after: "const { products } = await PLATFORM.catalog.products({ search: 'shoes' });" },
    },
    'js/webrtc': {
      text: 'RTCPeerConnection and its relatives can open network connections that a content-security policy does not govern, so WebRTC would let the frame reach the network despite rule 5 of "What the service does" (D-17). Unlike the other network APIs, this is an error: the runtime policy cannot close this path (D-37).',
      example: { file: 'runtime/main.js', before: 'const peer = new RTCPeerConnection();', after: '(removed)' },
    },
    'js/eval-blocked': {
      text: "The runtime policy has no 'unsafe-eval' (D-17): eval, new Function and string arguments to setTimeout or setInterval throw in the frame. Some template engines and older libraries compile with Function and fail the same way. It is a warning because APIs are found by name.",
      example: { file: 'runtime/main.js', before: "setTimeout('refresh()', 1000);", after: 'setTimeout(refresh, 1000);' },
    },
    'js/storage-unavailable': {
      text: 'The frame is sandboxed without allow-same-origin, so its origin is opaque: document.cookie, localStorage, sessionStorage and indexedDB throw a SecurityError (contract rule 5; D-17). Keep state in memory for the life of the page, or make it a property the merchant configures. It is a warning because APIs are found by name.',
      example: { file: 'runtime/main.js', before: "localStorage.setItem('lane', laneId);", after: 'state.lane = laneId;   (a module-level object)' },
    },
    'js/navigation': {
      text: 'The frame must not navigate itself or the storefront, nor open popups (contract rule 5; D-22): location.assign, window.open, top.location and friends are blocked by the sandbox. Flows such as booking and waivers are opened by the host through bridge actions. It is a warning because APIs are found by name.',
      example: { file: 'runtime/main.js', before: "window.open('/booking?lane=' + laneId);", after: 'await PLATFORM.booking.start({ laneId });' },
    },
    'js/remote-url': {
      text: 'The contract allows no remote resources and the runtime policy loads scripts, images and fonts only from the release (D-17). A literal remote URL in a loading position (fetch, new WebSocket, new EventSource, new Worker, navigator.sendBeacon, an element\'s src) can only fail, so it is an error (D-34); a URL computed at run time cannot be judged and stays a warning of the API rule.',
      example: { file: 'runtime/main.js', before: "const ws = new WebSocket('wss://chat.example/socket');", after: "await PLATFORM.analytics.track('chat_opened');" },
    },
    'js/root-relative-string': {
      text: 'A release is served from a folder of its own, so "/assets/x.png" points at the storefront\'s root, not at the file of the bundle with the same path. Build tools that assume the site root (Vite with its default base) write such strings into the code. Only strings that name a file of the bundle this way are reported; it is a warning because a string may be used for something other than loading.',
      example: { file: 'runtime/assets/index.js', before: 'img.src = "/assets/logo.png";', after: 'img.src = new URL("./logo.png", import.meta.url).href;' },
    },
    'js/bridge-call-refused': {
      text: 'A call to the bridge whose arguments are written literally (PLATFORM.catalog.products({ limit: 10 }), PLATFORM.cart.manage(\'delete\', …), PLATFORM.request(capability, action, payload)) is checked with the host\'s own request checks (D-23): the request the runtime would send is built from the literal parts, and what the host would answer (INVALID_REQUEST with the field\'s pointer and bound, PAYLOAD_TOO_LARGE, PAYLOAD_TOO_COMPLEX) is an error, since the call fails every time. A constant the module declares once, in capitals (const PAGE_SIZE = 10), counts as written; other values the code computes are not judged. An unknown action gets a suggestion by meaning (delete: remove) or spelling.',
      example: { file: 'runtime/main.js', before: 'await PLATFORM.catalog.products({ page: 0, limit: 10 });', after: 'await PLATFORM.catalog.products({ page: 1, limit: 12 });' },
    },
    'js/setting-unknown': {
      text: 'Settings are the values of the manifest\'s "properties" that the merchant chose; the frame gets exactly those names (PLATFORM.settings(), and the settings of await PLATFORM.ready). A name read by the code that no property defines never has a value, typically after a property was renamed or removed from the manifest. Reads by a literal name are checked (settings.name, settings["name"], destructuring); a computed name or the object passed on is not judged. The message names the nearest property.',
      example: { file: 'runtime/main.js', before: 'const { settings } = await PLATFORM.ready;\nheading.textContent = settings.headline;', after: 'const { settings } = await PLATFORM.ready;\nheading.textContent = settings.heading;' },
    },
    'js/markup-remote-resource': {
      text: 'Markup a module hands to the DOM (innerHTML, insertAdjacentHTML, document.write, a framework\'s compiled template or props object, setAttribute) is checked like the entrypoint\'s HTML. A literal remote URL where the element loads it (an image or media src, srcset, poster, a <link href>, a CSS url() in a style) can only fail: the runtime policy loads files only from the release (D-17), so it is an error (D-34). A URL the code computes is not judged.',
      example: { file: 'runtime/main.js', before: "card.insertAdjacentHTML('beforeend', '<img src=\"https://cdn.example/badge.png\">');", after: "import badge from './badge.png';\ncard.insertAdjacentHTML('beforeend', `<img src=\"${badge}\">`);" },
    },
    'js/markup-javascript-url': {
      text: 'A javascript: URL in markup or an attribute the code writes is inline script, which the runtime policy blocks (D-17): the link or frame does nothing. It is an error whatever the code around it does (D-34).',
      example: { file: 'runtime/main.js', before: "el.innerHTML = '<a href=\"javascript:openCart()\">Cart</a>';", after: "el.innerHTML = '<button type=\"button\">Cart</button>';\nel.querySelector('button').addEventListener('click', openCart);" },
    },
    'js/markup-event-handler': {
      text: 'An on… attribute written as text (in markup, or with setAttribute) is inline script: the runtime policy has no \'unsafe-inline\' (D-17), so the handler never runs. Handlers attached with addEventListener or a framework\'s event binding are not attributes and are not reported.',
      example: { file: 'runtime/main.js', before: "button.setAttribute('onclick', 'addToCart()');", after: "button.addEventListener('click', addToCart);" },
    },
    'js/markup-root-relative': {
      text: 'A reference starting with a single "/" in markup the code builds resolves against the storefront\'s root, not the release\'s folder (D-19). Starters put such paths in their templates (<use href="/icons.svg#…">, <img src="/vite.svg">); when the file is in the bundle the message names its relative path. It is a warning because the markup may never be inserted.',
      example: { file: 'runtime/assets/index.js', before: '<svg><use href="/icons.svg#logo"></use></svg>', after: '<svg><use href="./icons.svg#logo"></use></svg>   (or the symbol inlined)' },
    },
    'js/markup-navigation': {
      text: 'A link that leaves the document (<a href="https://…">, a relative page), a form that submits, or target="_blank" in markup the code builds: the sandbox lets the frame neither navigate nor open popups (D-22), so a click does nothing or is blocked. Links to "#fragment" are fine. It is a warning because a click handler may prevent the default.',
      example: { file: 'runtime/assets/App.js', before: 'jsx("a", { href: "https://vite.dev", target: "_blank", children: "Docs" })', after: 'jsx("button", { type: "button", onClick: showDocs, children: "Docs" })' },
    },
    'js/markup-frame': {
      text: 'An <iframe>, <frame>, <object>, <embed> or <applet> in markup the code builds shows nothing: frame-src and object-src are \'none\' in the runtime policy (D-17), as the entrypoint rules say for the page itself.',
      example: { file: 'runtime/main.js', before: "el.innerHTML = '<iframe src=\"map.html\"></iframe>';", after: "el.innerHTML = '<div class=\"map\"></div>';   (drawn by the extension itself)" },
    },
    'js/commonjs': {
      text: 'Every script of an extension is a module (D-18). A module has no module.exports, exports or require, and this at its top level has no value, so CommonJS files and UMD wrappers (function (root, factory) { … }(this, …)) throw or do nothing there. A use guarded by typeof module or a name the module declares itself is not reported; one finding per module.',
      example: { file: 'runtime/vendor/lib.js', before: 'module.exports = function format(n) { … };', after: 'export function format(n) { … }' },
    },
    'js/import-not-exported': {
      text: 'When a module imports a name that the imported module of the bundle does not export, the browser refuses to link the whole module graph and none of it runs. The check reads both modules\' import and export declarations (export * from included); where a module\'s exports cannot all be known, nothing is reported.',
      example: { file: 'runtime/main.js', before: "import { formatPrice } from './lib/format.js';   // format.js exports formatMoney", after: "import { formatMoney } from './lib/format.js';" },
    },
    'js/platform-unknown-member': {
      text: 'The bridge object and its namespaces are frozen and have exactly the members of protocol version 1: ready, capabilities(), settings(), request() and one named method per capability. A call to any other member (PLATFORM.cart.get()) throws a TypeError, and PLATFORM.request with a capability or action the table does not have fails with INVALID_REQUEST (D-34). Uses are found statically, also through a plain alias such as const p = window.PLATFORM.',
      example: { file: 'runtime/main.js', before: 'const cart = await PLATFORM.cart.get();', after: "await PLATFORM.cart.manage('add', { productId, quantity: 1 });" },
    },
    'js/capability-not-declared': {
      text: 'The store user grants only the capabilities the manifest declares, so a call to any other can only fail with CAPABILITY_NOT_GRANTED (D-34). Calls are found statically: PLATFORM.<area>.<method>(…) and PLATFORM.request(\'<capability>\', …) with a literal key, also through window.PLATFORM and a plain alias.',
      example: { file: 'manifest.json', before: '"capabilities": ["catalog.products.read"]   (main.js calls PLATFORM.forms.submit)', after: '"capabilities": ["catalog.products.read", "forms.submit"]' },
    },
    'js/capability-unused': {
      text: 'Every declared capability is shown to the store user for a permission review, and medium-risk ones weigh on the decision to install. A capability that no module uses statically, while no module calls PLATFORM.request with a computed capability or hands the bridge object on, is most likely a leftover (D-34), or a feature not written yet. Either call it from the code or remove it from the manifest. It is a warning: code the check cannot follow may still use it, and platform-ext.config.json can acknowledge it (D-33).',
      example: { file: 'manifest.json', before: '"capabilities": ["catalog.products.read", "cart.manage"]   (nothing calls the cart)', after: '"capabilities": ["catalog.products.read"]' },
    },
  };
}
