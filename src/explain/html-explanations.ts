// Long explanations of the html rules (src/validator/catalogue/html-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import type { Explanation } from './explanation-kit.js';

export function htmlExplanations(): Record<string, Explanation> {
  return {
    'html/invalid-utf8': {
      text: 'The frame decodes the entrypoint as UTF-8 and every check reads it that way (D-22). Invalid byte sequences become U+FFFD in a browser but are read differently by other tools, which is enough to hide markup from a checker. A byte-order mark is allowed.',
      example: { file: 'runtime/index.html', before: '<h1>Café</h1>   (saved as Windows-1252)', after: '<h1>Café</h1>   (saved as UTF-8)' },
    },
    'html/nul-character': {
      text: 'U+0000 is replaced, dropped or kept depending on the HTML tokenizer state and on the tool, a classic way to make one element read as two (D-22). It never belongs in a page.',
      example: { file: 'runtime/index.html', before: '<div title="a\u2400b">   (\u2400 stands for a U+0000 byte)', after: '<div title="ab">' },
    },
    'html/meta-charset': {
      text: 'The entrypoint is always decoded as UTF-8 (D-22). A <meta charset> or http-equiv content-type naming another encoding would make tools that honour it read different text than the browser does. Only the label "utf-8" is accepted (any letter case); aliases such as "utf8" are not.',
      example: { file: 'runtime/index.html', before: '<meta charset="iso-8859-1">', after: '<meta charset="utf-8">' },
    },
    'html/inline-script': {
      text: 'The runtime policy loads scripts only from the release\'s files (D-17), so inline code never runs in production, and the contract refuses it (Bundle: no inline JavaScript; D-18). Move the code into a module file of the bundle.',
      example: {
        file: 'runtime/index.html',
        before: "<script type=\"module\">\n  document.title = 'Lanes';\n</script>",
        after: "<script type=\"module\" src=\"main.js\"></script>\n(runtime/main.js: document.title = 'Lanes';)",
      },
    },
    'html/classic-script': {
      text: 'Only module scripts are allowed (D-18): <script type="module" src="…">. A classic script (no type, text/javascript, defer or async) runs in the global scope without imports and is refused, so every script follows one loading model that the checks understand. Its src is checked in the same run as a module script\'s would be (remote, missing, not plain, not JavaScript), so adding type="module" brings no new finding.',
      example: { file: 'runtime/index.html', before: '<script src="main.js" defer></script>', after: '<script type="module" src="main.js"></script>' },
    },
    'html/script-data-block': {
      text: 'Script elements that carry data are refused (D-22): type="application/json" and other data blocks hide content the checks cannot interpret, "importmap" would redirect module loading past the reference checks, and "speculationrules" asks the browser to prefetch or navigate. Put data in a module and import it.',
      example: {
        file: 'runtime/index.html',
        before: '<script type="application/json" id="config">{"columns": 3}</script>',
        after: '(runtime/config.js: export const config = { columns: 3 };)',
      },
    },
    'html/script-body-with-src': {
      text: 'A script with src never runs its body, so text there is dead code at best and hidden content at worst (D-22). Leave the element empty.',
      example: { file: 'runtime/index.html', before: '<script type="module" src="main.js">init();</script>', after: '<script type="module" src="main.js"></script>' },
    },
    'html/foreign-script': {
      text: '<script> inside <svg> or <math> is parsed by the foreign-content rules and, in SVG, runs as a classic script, outside the module-only rule of D-18. Scripts belong in the HTML as module scripts.',
      example: { file: 'runtime/index.html', before: '<svg viewBox="0 0 10 10"><script>spin()</script>…</svg>', after: '<svg viewBox="0 0 10 10">…</svg>\n<script type="module" src="spin.js"></script>' },
    },
    'html/module-src-not-plain': {
      text: 'A module script src is a plain relative path (D-22): segments separated by "/", with "./" and "../" allowed while the result stays inside the bundle. "%" escapes, "?" queries, "#" fragments, backslashes, spaces and control characters are refused: each can make the browser and the checks resolve different files, and a query string is no cache-buster on an immutable release.',
      example: { file: 'runtime/index.html', before: '<script type="module" src="main.js?v=2"></script>', after: '<script type="module" src="main.js"></script>' },
    },
    'html/module-src-not-javascript': {
      text: 'A module script must load a .js or .mjs file of the bundle (D-18); TypeScript, JSON or other files are not JavaScript modules to a browser.',
      example: { file: 'runtime/index.html', before: '<script type="module" src="app.ts"></script>', after: '<script type="module" src="app.js"></script>' },
    },
    'html/event-handler-attribute': {
      text: 'on* attributes (onclick, onload, onerror …) are inline JavaScript: the runtime policy blocks them (D-17) and the contract refuses them (Bundle: no inline event handlers). Attach listeners from a module script.',
      example: {
        file: 'runtime/index.html',
        before: '<button onclick="book()">Book</button>',
        after: "<button id=\"book\">Book</button>\n(runtime/main.js: document.getElementById('book').addEventListener('click', book);)",
      },
    },
    'html/javascript-url': {
      text: 'javascript: and vbscript: URLs are inline code in an attribute (href, src, action, formaction, xlink:href …). They are found after character references are decoded (D-22), so "&#106;avascript:" is caught too.',
      example: { file: 'runtime/index.html', before: '<a href="javascript:openCart()">Cart</a>', after: '<button type="button" id="cart">Cart</button>   (listener in main.js)' },
    },
    'html/remote-reference': {
      text: 'The frame cannot reach the network (contract rule 5): the runtime policy loads resources only from the release (D-17), so a reference to another origin (https://…, //host/…) fails in production even when it works in a plain page (D-19). Copy stylesheets, scripts, images and fonts into runtime/.',
      example: { file: 'runtime/index.html', before: '<link rel="stylesheet" href="https://cdn.example.com/reset.css">', after: '<link rel="stylesheet" href="vendor/reset.css">' },
    },
    'html/missing-reference': {
      text: 'Local references (src, href, srcset, poster …) must resolve to a file of the bundle (D-19), relative to the entrypoint\'s folder and with the exact letter case. A missing file is a broken page in production.',
      example: { file: 'runtime/index.html', before: '<img src="img/Logo.PNG" alt="Logo">', after: '<img src="images/logo.png" alt="Logo">' },
    },
    'html/reference-outside-bundle': {
      text: 'A reference starting with "/" resolves against the storefront\'s origin, and "../" above runtime/ leaves the release: either way it names a file that is not part of the signed bundle (D-19).',
      example: { file: 'runtime/index.html', before: '<img src="/images/logo.png" alt="Logo">', after: '<img src="images/logo.png" alt="Logo">' },
    },
    'html/data-url-not-image': {
      text: 'The runtime policy allows data: URLs for images only (D-17): img, picture source, input type=image, video poster and SVG image. A data: URL for a stylesheet, script, font, media or link is blocked (D-19).',
      example: { file: 'runtime/index.html', before: '<link rel="stylesheet" href="data:text/css,body{margin:0}">', after: '<link rel="stylesheet" href="styles.css">' },
    },
    'html/navigation-link': {
      text: 'The frame must not navigate (contract "Behaviour notes"; D-22): a link whose href is not a #fragment would replace the extension or try to move the storefront, and version 1 has no product-navigation action. Use #fragments for in-page anchors, or a button whose listener calls a PLATFORM action that opens the flow.',
      example: { file: 'runtime/index.html', before: '<a href="/products/42">View</a>', after: '<a href="#details">View details</a>' },
    },
    'html/animated-href': {
      text: 'SVG <animate> and <set> can change href or xlink:href while the page runs, turning a harmless #fragment link into a navigation after the checks ran. Animated href values must be #fragments too (D-22).',
      example: { file: 'runtime/index.html', before: '<set attributeName="href" to="https://example.com/" begin="2s"/>', after: '<set attributeName="href" to="#step-2" begin="2s"/>' },
    },
    'html/authored-csp': {
      text: 'The platform serves one runtime policy for every extension (D-17). An authored <meta http-equiv="Content-Security-Policy"> could only narrow it, would make preview and production differ, and is refused by the contract (Bundle: no authored content-security-policy declarations).',
      example: { file: 'runtime/index.html', before: '<meta http-equiv="Content-Security-Policy" content="default-src \'self\'">', after: '(removed: the platform\'s policy applies)' },
    },
    'html/meta-refresh': {
      text: '<meta http-equiv="refresh"> reloads or navigates the frame after a delay, and the frame must not navigate (contract "Behaviour notes"; D-22). Update the page from a module script instead.',
      example: { file: 'runtime/index.html', before: '<meta http-equiv="refresh" content="60">', after: '(runtime/main.js: setInterval(refreshAvailability, 60_000);)' },
    },
    'html/base-element': {
      text: '<base> changes how every relative URL of the page resolves. The platform injects its own base URL at launch (D-18), and a second one would send references elsewhere or fight the injected one.',
      example: { file: 'runtime/index.html', before: '<base href="https://cdn.example.com/widget/">', after: '(removed: relative URLs resolve against the release)' },
    },
    'html/frame-element': {
      text: 'The extension frame cannot contain frames (iframe, frame, frameset, portal, fencedframe): the runtime policy has frame-src \'none\' (D-17) and the contract refuses them in the entrypoint.',
      example: { file: 'runtime/index.html', before: '<iframe src="https://maps.example.com/embed?q=lanes"></iframe>', after: '<img src="images/map.png" alt="Map to our lanes">' },
    },
    'html/plugin-element': {
      text: '<object>, <embed> and <applet> load plug-in or external content; the runtime policy has object-src \'none\' (D-17) and the contract refuses them.',
      example: { file: 'runtime/index.html', before: '<object data="logo.svg" type="image/svg+xml"></object>', after: '<svg viewBox="0 0 64 64">…</svg>   (inline SVG)' },
    },
    'html/noscript': {
      text: '<noscript> content is markup when scripting is off and raw text when it is on. A checker parsing with scripting off would see elements the browser never creates, and the frame always runs scripts, so the element is refused (D-22).',
      example: { file: 'runtime/index.html', before: '<noscript><img src="pixel.gif" alt=""></noscript>', after: '(removed: scripting is always on in the frame)' },
    },
    'html/legacy-raw-text-element': {
      text: 'xmp, noembed, noframes and plaintext are obsolete elements whose content browsers read as raw text but some tools read as markup, a known way to hide markup from a checker (D-22). Markup that browsers and checkers read differently is an error (D-36).',
      example: { file: 'runtime/index.html', before: '<xmp><b>bold</b></xmp>', after: '<pre>&lt;b&gt;bold&lt;/b&gt;</pre>' },
    },
    'html/ambiguous-markup': {
      text: 'Some markup is parsed two ways: "<" inside raw text after <svg>, <math>, <select> or <template>, and CDATA sections, where a browser\'s tree builder and simpler tokenizers disagree about where elements start (the pattern behind mutation XSS). It is refused so every parser reads the same elements (D-22, D-36).',
      example: { file: 'runtime/index.html', before: '<svg><style><img src="x.png"></style></svg>', after: '<svg><style>circle { fill: #ff0000; }</style></svg>' },
    },
    'html/duplicate-attribute': {
      text: 'When an element repeats an attribute, browsers keep the first and some tools keep the last, so the checks and the browser could see different values (D-22). Markup that browsers and checkers read differently is an error, so that what was checked is what runs (D-36).',
      example: { file: 'runtime/index.html', before: '<img src="logo.png" alt="Logo" src="logo-2x.png">', after: '<img src="logo.png" srcset="logo-2x.png 2x" alt="Logo">' },
    },
    'html/form-element': {
      text: 'Form submission is blocked in the frame (the runtime policy has form-action \'none\', D-17), and submitting would navigate. A form still works for layout and validation when a submit listener calls preventDefault() and sends the fields with PLATFORM.forms.submit (capability forms.submit). It is a warning because a form handled that way is fine.',
      example: {
        file: 'runtime/main.js',
        before: '<form action="/contact" method="post">   (in index.html, no listener)',
        after: "form.addEventListener('submit', async (event) => {\n  event.preventDefault();\n  await PLATFORM.forms.submit('contact', fields(form));\n});",
      },
    },
  };
}
