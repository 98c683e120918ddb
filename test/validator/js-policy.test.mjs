// The JavaScript module policy (src/validator/js/js-policy.ts): both sides of every rule,
// asserted by rule id, line and column. Rows name the code that must (or must not) be
// reported; `at` finds the reported spot as the first occurrence of a snippet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJsModule, scanJsModule } from '../../build/validator/js/js-policy.js';
import { FindingList } from '../../build/validator/findings.js';
import { FileScan, bundleViewOf } from '../../build/validator/scan.js';
import { JS_RULES } from '../../build/validator/catalogue/js-rules.js';

const FILES = ['index.html', 'main.js', 'lib/a.js', 'lib/b.mjs', 'lib/C.js', 'lib/deep/d.js', 'styles.css', 'img/logo.png'];

function findings(src, file = 'main.js', files = FILES) {
  const list = new FindingList();
  const bytes = typeof src === 'string' ? new TextEncoder().encode(src) : src;
  checkJsModule(file, bytes, bundleViewOf(files), list);
  return list.items;
}

function run(src, file) {
  return findings(src, file).map((f) => `${f.rule} ${f.line}:${f.column}`);
}

/** "line:column" of the first occurrence of `needle` in `src` (lines split at LF). */
function at(src, needle) {
  const i = src.indexOf(needle);
  assert.ok(i >= 0, `test bug: ${needle} not in ${src}`);
  const before = src.slice(0, i);
  const line = before.split('\n').length;
  return `${line}:${i - before.lastIndexOf('\n')}`;
}

/** Runs rows of [proves, src, [[rule, needle], ...], file?]. Returns the rule ids seen. */
function table(rows) {
  const seen = new Set();
  for (const [proves, src, want, file] of rows) {
    const expected = want.map(([rule, needle]) => `${rule} ${at(src, needle)}`);
    assert.deepEqual(run(src, file), expected, proves);
    for (const [rule] of want) seen.add(rule);
  }
  return seen;
}

const covered = new Set();

test('static and dynamic imports that resolve to modules of the bundle: no finding', () => {
  table([
    ['named import', "import { a } from './lib/a.js';", []],
    ['default and renamed named imports', 'import x, {a as b} from "./lib/a.js";', []],
    ['namespace import', "import * as ns from './lib/a.js';", []],
    ['side-effect import', "import './lib/a.js';", []],
    ['.mjs module', "import './lib/b.mjs';", []],
    ['export * from', "export * from './lib/a.js';", []],
    ['export * as ns from', "export * as ns from './lib/a.js';", []],
    ['export { ... } from with string names', "export { a as default, \"x y\" as z } from './lib/a.js';", []],
    ['import with string names', "import { \"a-b\" as c } from './lib/a.js';", []],
    ['an empty attributes block', "import './lib/a.js' with {};", []],
    ['"../" that stays inside the bundle (from lib/deep/)', "import '../a.js'; import '../../main.js';", [], 'lib/deep/d.js'],
    ['"." and ".." segments normalise', "import './lib/../lib/./a.js';", []],
    ['a default binding named "from"', "import from from './lib/a.js';", []],
    ['a multi-line clause with a trailing comma', "import {\n  a,\n  b as c,\n} from './lib/a.js'", []],
    ['escapes in the specifier are decoded', "import './lib/\\x61.js';", []],
    ['dynamic import of a string literal', "import('./lib/a.js');", []],
    ['dynamic import of a no-substitution template', 'await import(`./lib/a.js`);', []],
    ['dynamic import with a trailing comma', "import('./lib/a.js',);", []],
    ['a BOM before the first import', '\ufeffimport "./lib/a.js";', []],
  ]);
});

test('tokens that only look like imports: no finding', () => {
  table([
    ['import.meta', 'const u = new URL("x", import.meta.url);', []],
    ['a method called import', "obj.import('lodash'); obj?.import('lodash');", []],
    ['x.from and an identifier named from', "x.from('lodash'); const from = 'lodash';", []],
    ['comments', "// import 'lodash'\n/* import 'lodash' */", []],
    ['string contents', 'const s = "import \'lodash\'";', []],
    ['template text', "const t = `import 'lodash'`;", []],
    ['regular expression', "const r = /import 'lodash'/;", []],
    ['a class method named import', "class A { import(x) { return x } }", []],
    ['an object method named import', '({ import(x) { return x } });', []],
    ['an escaped "import" is an identifier (and a syntax error), not an import', "\\u0069mport('lodash');", []],
    ['local exports', 'export { a }; export const b = 1; export default function () {}', []],
  ]);
});

test('specifiers: bare, remote, root-relative, outside, not plain (D-19, D-22)', () => {
  const seen = table([
    ['bare package name', "import 'lodash';", [['js/bare-specifier', "'lodash'"]]],
    ['bare scoped name', 'import x from "@scope/pkg";', [['js/bare-specifier', '"@scope/pkg"']]],
    ['".\\" is not "./": bare', "import '.\\\\lib\\\\a.js';", [['js/bare-specifier', "'.\\\\lib"]]],
    ['empty specifier', "import '';", [['js/bare-specifier', "''"]]],
    ['leading space: not "./", so bare', "import(' ./lib/a.js');", [['js/bare-specifier', "' ./lib"]]],
    ['https URL', "import 'https://cdn.example/x.js';", [['js/remote-import', "'https:"]]],
    ['protocol-relative URL', "import '//cdn.example/x.js';", [['js/remote-import', "'//"]]],
    ['"/\\" is protocol-relative too', "import '/\\\\cdn.example/x.js';", [['js/remote-import', "'/\\\\"]]],
    ['data: URL', "import 'data:text/javascript,export default 1';", [['js/remote-import', "'data:"]]],
    ['blob: URL', "import('blob:https://a.example/b');", [['js/remote-import', "'blob:"]]],
    ['node: scheme', "import fs from 'node:fs';", [['js/remote-import', "'node:"]]],
    ['root-relative path', "import '/lib/a.js';", [['js/root-relative-import', "'/lib"]]],
    ['"../" escaping the bundle root from the root', "import '../x.js';", [['js/import-outside-bundle', "'../"]]],
    ['"../" escaping the bundle root from lib/deep/', "import '../../../x.js';", [['js/import-outside-bundle', "'../"]], 'lib/deep/d.js'],
    ['query string', "import './lib/a.js?v=1';", [['js/import-not-plain', "'./lib"]]],
    ['fragment', "import './lib/a.js#x';", [['js/import-not-plain', "'./lib"]]],
    ['percent escape', "import './lib/%61.js';", [['js/import-not-plain', "'./lib"]]],
    ['backslash inside', "import './lib\\\\a.js';", [['js/import-not-plain', "'./lib"]]],
    ['trailing space', "import './lib/a.js ';", [['js/import-not-plain', "'./lib"]]],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('specifiers: missing files and files that are not modules', () => {
  const seen = table([
    ['missing file', "import './lib/nope.js';", [['js/missing-module', "'./lib"]]],
    ['letter case differs from the bundle file', "import './lib/c.js';", [['js/missing-module', "'./lib"]]],
    ['JSON file (never in a bundle)', "import data from './data.json';", [['js/missing-module', "'./data"]]],
    ['missing file by dynamic import', "import('./lazy.js');", [['js/missing-module', "'./lazy"]]],
    ['missing file by export from', "export * from './gone.js';", [['js/missing-module', "'./gone"]]],
    ['stylesheet', "import './styles.css';", [['js/not-javascript-module', "'./styles"]]],
    ['image', "import logo from './img/logo.png';", [['js/not-javascript-module', "'./img"]]],
    ['the HTML entrypoint', "import('./index.html');", [['js/not-javascript-module', "'./index"]]],
    ['relative to the module folder: lib/deep/ -> lib/deep/a.js is missing', "import './a.js';", [['js/missing-module', "'./a"]], 'lib/deep/d.js'],
  ]);
  for (const rule of seen) covered.add(rule);
  const [missing] = findings("import './lib/c.js';");
  assert.match(missing.message, /lib\/C\.js/, 'the did-you-mean names the bundle file');
  assert.equal(missing.file, 'main.js');
});

test('import attributes: JSON and CSS modules are errors', () => {
  const seen = table([
    ['JSON module', "import d from './d.json' with { type: 'json' };", [['js/module-type-attribute', 'type']]],
    ['CSS module (the file exists; still an error)', 'import s from "./styles.css" with { type: "css" };', [['js/module-type-attribute', 'type']]],
    ['quoted attribute key', "import d from './d.json' with { \"type\": 'json' };", [['js/module-type-attribute', '"type"']]],
    ['retired assert form', "import d from './d.json' assert { type: 'json' };", [['js/module-type-attribute', 'type']]],
    ['export from with attributes', "export * from './d.json' with { type: 'json' };", [['js/module-type-attribute', 'type']]],
    ['dynamic import with options', "import('./d.json', { with: { type: 'json' } });", [['js/module-type-attribute', 'type:']]],
    ['other side: attributes without type', "import './lib/a.js' with { other: 'x' };", []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('dynamic import with a computed specifier: warning at "import"', () => {
  const seen = table([
    ['identifier argument', 'const m = await import(name);', [['js/dynamic-import-unchecked', 'import']]],
    ['template with a substitution', 'import(`./lib/${n}.js`);', [['js/dynamic-import-unchecked', 'import']]],
    ['concatenation', "import('./lib/' + 'a.js');", [['js/dynamic-import-unchecked', 'import']]],
    ['other side: a literal is checked instead', "import('./lib/a.js');", []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('network APIs blocked by the runtime policy: warning per use', () => {
  const seen = table([
    ['fetch call', "fetch('/x');", [['js/network-api', 'fetch']]],
    ['awaited fetch on line 2', "const a = 1;\nconst r = await fetch(u);", [['js/network-api', 'fetch']]],
    ['window.fetch reported at window', 'window.fetch(u);', [['js/network-api', 'window']]],
    ['globalThis.fetch and self.fetch', 'globalThis.fetch(u); self.fetch(u);', [['js/network-api', 'globalThis'], ['js/network-api', 'self']]],
    ['XMLHttpRequest, WebSocket, EventSource, Worker', 'new XMLHttpRequest(); new WebSocket(u); new EventSource(u); new Worker(w);', [
      ['js/network-api', 'XMLHttpRequest'], ['js/network-api', 'WebSocket'], ['js/network-api', 'EventSource'], ['js/network-api', 'Worker'],
    ]],
    ['navigator.sendBeacon reported at navigator', 'navigator.sendBeacon(u, d);', [['js/network-api', 'navigator']]],
    ['window.navigator.sendBeacon', 'window.navigator.sendBeacon(u);', [['js/network-api', 'navigator']]],
    ['unicode-escaped fetch is fetch', '\\u0066etch(u);', [['js/network-api', '\\u0066']]],
    ['shorthand property uses the value', '({ fetch });', [['js/network-api', 'fetch']]],
    ['other side: a property of another object', 'obj.fetch(u); a.window.fetch(u); x.navigator.sendBeacon(u); navigator.userAgent;', []],
    ['other side: property keys and method names', '({ fetch: 1 }); ({ fetch() {} }); class A { fetch() {} }', []],
    ['other side: the declared name', 'function fetch() {} const Worker = 1;', []],
    ['other side: strings, comments, templates, regexes, private names', "'fetch()'; // fetch()\n`fetch()`; /fetch/; this.#fetch;", []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('names the module binds itself are not the browser\'s; typeof is a feature test', () => {
  const seen = table([
    ['"of" as a name inside a for head (esbuild names variables "of")', 'let of = 4; for (let i = 0; i < of / 2; i++) {}', []],
    ['a declarator after a comma', 'export const a = 1, location = 2;', []],
    ['a function parameter', 'function b(location) { return location.replace(/a/g, "b") }', []],
    ['a constant called like the API', 'const fetch = fetchers[k]; fetch(k)', []],
    ['typeof is a feature test', 'typeof fetch === "function"', []],
    ['typeof through the global object and of a member', 'typeof window.fetch; typeof navigator.sendBeacon; typeof window.navigator.sendBeacon;', []],
    ['the use comes before the binding (hoisting)', 'fetch(u); function fetch(x) { return x }', []],
    ['arrow function parameters', 'const f = (a, location) => location.assign(a); const g = location => location.replace(u); const h = async (...fetch) => fetch(1);', []],
    ['method parameters', 'class A { go(a, location) { location.replace(u) } }; ({ m(fetch) { fetch(u) } });', []],
    ['a catch binding', 'try { x() } catch (fetch) { fetch(u) }', []],
    ['destructuring in a declaration and in parameters', 'const { fetch, a: [localStorage] } = deps; fetch(u); localStorage.x; function f({ location }) { location.assign(u) }', []],
    ['an import binding', "import { fetch } from './lib/a.js'; import * as location from './lib/a.js'; fetch(u); location.assign(u);", []],
    ['a for-of binding', 'for (const fetch of list) fetch(u);', []],
    ['other side: "of" as the keyword still divides after its operand', 'for (const x of /re/g.exec(s)) fetch(x);', [['js/network-api', 'fetch']]],
    ['other side: a key renamed in a pattern binds the new name only', 'const { fetch: f } = deps; fetch(u);', [['js/network-api', 'fetch(u)']]],
    ['other side: a parenthesised condition is no parameter list', 'if (location) location.replace(u);', [['js/navigation', 'location.replace']]],
    ['other side: call arguments are no parameters', 'f(a, location); location.assign(u);', [['js/navigation', 'location.assign']]],
    ['other side: the global object qualifies the name', 'const fetch = 1; window.fetch(u);', [['js/network-api', 'window']]],
    ['other side: typeof tests only its operand', 'if (typeof fetch === "function") fetch(u);', [['js/network-api', 'fetch(u)']]],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('names a module declares in other positions, constants and the global-object idiom: no finding (issue 22.26)', () => {
  const seen = table([
    ['a top-level object named self, then its method', 'const self = { open() {} }; self.open();', []],
    ['a module binding named document or window', 'let document = make(); document.cookie = 1; var window = {}; window.open(u);', []],
    ["parameters of a method named by a string (esbuild's CommonJS wrapper)", 'var m = { "lib.js"(exports, module) { exports.x = 1; module.exports = 2; } };', []],
    ['parameters of a method named by a number or a private name', 'const o = { 1(fetch) { fetch(u) } }; class A { #m(location) { location.assign(u) } }', []],
    ['this in a default parameter value of a function', 'function f(a = this) { return a } const g = function (b = this.x) { return b };', []],
    ['the global-object idiom after ||', 'var freeSelf = typeof self == "object" && self; var root = freeGlobal || freeSelf || Function("return this")();', []],
    ['the global-object idiom after ?: and ??, with new', 'var g = typeof globalThis !== "undefined" ? globalThis : new Function("return this")(); var h = self ?? Function(\'return this\')();', []],
    ['constants of an interface', 'if (ws.readyState === WebSocket.OPEN) x(); y = XMLHttpRequest.DONE; z = window.WebSocket.CLOSING;', []],
    ['other side: self is the global object when the module does not bind it', 'self.open(u);', [['js/navigation', 'self']]],
    ['other side: a string-named property that is no method', 'var m = { "lib.js": (0, fetch)(u) };', [['js/network-api', 'fetch']]],
    ['other side: this in an arrow default value, and after the parameters', '(a = this.x) => a; function f(b) { return b } this.y = 1;', [['js/commonjs', 'this.x']]],
    ['other side: Function with another body, or not behind a fallback', 'a || Function("return x")(); Function("return this")();', [['js/eval-blocked', 'Function'], ['js/eval-blocked', 'Function("return this']]],
    ['other side: a method of the interface, and the constructor', 'WebSocket.foo(); new WebSocket.Thing(); ws = new WebSocket(u);', [['js/network-api', 'WebSocket'], ['js/network-api', 'WebSocket.Thing'], ['js/network-api', 'WebSocket(u']]],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('literal remote URLs where the frame loads them: error; computed ones stay warnings (D-34)', () => {
  const seen = table([
    ['fetch of a literal https URL', 'fetch("https://api.example/x");', [['js/remote-url', 'fetch']]],
    ['WebSocket, EventSource and Worker', 'new WebSocket("wss://chat.example/"); new EventSource(`https://x.example/s`); new Worker("https://x.example/w.js");', [
      ['js/remote-url', 'WebSocket'], ['js/remote-url', 'EventSource'], ['js/remote-url', 'Worker'],
    ]],
    ['navigator.sendBeacon and window.fetch', 'navigator.sendBeacon("https://x.example/b", d); window.fetch("//x.example/a");', [['js/remote-url', 'navigator'], ['js/remote-url', 'window']]],
    ['an element src', 'const img = new Image(); img.src = "https://x.example/a.png"; s.src = \'http://x.example/a.js\';', [['js/remote-url', 'src ='], ['js/remote-url', "src = 'http"]]],
    ['the src of a new image', 'new Image().src = "https://x.example/pixel.gif";', [['js/remote-url', 'src']]],
    ['other side: computed URLs and local literals stay warnings', 'fetch(url); fetch("./lib/a.js"); new WebSocket(u);', [['js/network-api', 'fetch'], ['js/network-api', 'fetch("'], ['js/network-api', 'WebSocket']]],
    ['other side: src from a local or computed value, a comparison, a remote text', 'img.src = "img/logo.png"; img.src = u; img.src == "https://x.example/"; const s = "https://x.example/";', []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('root-relative strings naming files of the bundle: warning with the relative twin', () => {
  const seen = table([
    ['an image path from the site root', 'img.src = "/img/logo.png";', [['js/root-relative-string', '"/img']]],
    ['a module path in a list (bundler preload lists)', "const deps = ['/lib/a.js', `/lib/b.mjs`];", [['js/root-relative-string', "'/lib"], ['js/root-relative-string', '`/lib']]],
    ['query and fragment are ignored', 'u = "/img/logo.png?v=2";', [['js/root-relative-string', '"/img']]],
    ['other side: not in the bundle, the root alone, protocol-relative, relative, comments, regexes', 'a = "/img/missing.png"; b = "/"; c = "//cdn.example/img/logo.png"; d = "img/logo.png"; // "/img/logo.png"\ne = /\/img\/logo.png/;', []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('CommonJS and UMD code in a module: one warning per module', () => {
  const seen = table([
    ['module.exports', 'module.exports = x;', [['js/commonjs', 'module']]],
    ['exports, once per module', 'exports.a = 1; exports.b = 2;', [['js/commonjs', 'exports']]],
    ['require of a literal', 'const x = require("./lib/a.js");', [['js/commonjs', 'require']]],
    ['a UMD wrapper passes the top-level this', '(function (root, factory) { root.X = factory(); }(this, function () { return {}; }));', [['js/commonjs', 'this,']]],
    ['this.x at the top level', 'this.X = 1;', [['js/commonjs', 'this']]],
    ['other side: guarded by typeof, TypeScript helpers, this in functions and classes', 'if (typeof module !== "undefined") module.exports = X; var __awaiter = (this && this.__awaiter) || function () {}; class A { m() { return this.x } } function f() { this.x = 1 }', []],
    ['other side: names of its own and properties', 'const require = make(); require("x"); obj.module.exports; x.require("y"); o.exports = 1; ({ module: 1 });', []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('the bridge: unknown members, capabilities and actions are errors (D-34)', () => {
  const seen = table([
    ['a method the area does not have', 'await PLATFORM.cart.get();', [['js/platform-unknown-member', 'PLATFORM']]],
    ['a member the bridge does not have', 'PLATFORM.user.id;', [['js/platform-unknown-member', 'PLATFORM']]],
    ['through window', 'window.PLATFORM.catalog.search(q);', [['js/platform-unknown-member', 'window']]],
    ['request with an unknown capability, and with an unknown action', 'PLATFORM.request("cart.read", "list"); PLATFORM.request(\'cart.manage\', \'clear\', {});', [['js/platform-unknown-member', 'PLATFORM'], ['js/platform-unknown-member', 'PLATFORM.request(\'']]],
    ['through a plain alias a bundler makes', 'const p = window.PLATFORM;\nexport function f() { return p.cart.get(); }', [['js/platform-unknown-member', 'p.cart']]],
    ['other side: the bridge\'s own members and named methods', 'await PLATFORM.ready; PLATFORM.capabilities(); PLATFORM.settings(); PLATFORM.request("cart.manage", "add", { productId: 1 }); PLATFORM.cart.manage("add", { productId: 2 }); PLATFORM.theme.read(); PLATFORM.toString();', []],
    ['other side: a PLATFORM of the module\'s own, and computed access', 'const PLATFORM = mock(); PLATFORM.cart.get(); window.PLATFORM[name](); PLATFORM.request(cap, act);', []],
    ['other side: an alias name used for another object in another scope', 'const p = PLATFORM;\nfunction g(q) { const p = q; return p.other.thing(); }', []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('markup handed to the DOM: the entrypoint policy at the literal\'s place (issue 24, D-34)', () => {
  const seen = table([
    ['insertAdjacentHTML with a root-relative image', "el.insertAdjacentHTML('beforeend', '<img src=\"/img/logo.png\">');", [['js/markup-root-relative', '/img']]],
    ['innerHTML with a remote image, a handler and a javascript: link', 'el.innerHTML = \'<img src="https://cdn.example/a.png" onerror="x()"><a href="javascript:go()">go</a>\';', [
      ['js/markup-remote-resource', 'https'], ['js/markup-event-handler', 'onerror'], ['js/markup-javascript-url', 'javascript'],
    ]],
    ['outerHTML += and document.write', 'el.outerHTML += "<video poster=\'//cdn.example/p.jpg\'></video>"; document.write("<iframe src=\'a.html\'></iframe>");', [['js/markup-remote-resource', '//cdn'], ['js/markup-frame', '<iframe']]],
    ['DOMParser and createContextualFragment', "new DOMParser().parseFromString('<link rel=stylesheet href=https://x.example/a.css>', 'text/html'); range.createContextualFragment('<form></form>');", [['js/markup-remote-resource', 'https'], ['js/markup-navigation', '<form']]],
    ['a template with substitutions: static parts only', 'el.innerHTML = `<a href="${u}" target="_blank">${t}</a><img src="https://cdn.example/${n}.png">`;', [['js/markup-navigation', 'target'], ['js/markup-remote-resource', 'https']]],
    ['a link that navigates, with target _blank: one finding', 'el.innerHTML = \'<a href="https://vite.dev" target="_blank">Vite</a>\';', [['js/markup-navigation', 'https']]],
    ['a style attribute with a remote url()', 'el.innerHTML = \'<div style="background: url(https://x.example/b.png)"></div>\';', [['js/markup-remote-resource', 'url(']]],
    ['a markup string passed to any call (Svelte\'s from_html)', 'var root = $.from_html(`<svg><use href="/img/logo.png#i"></use></svg><a href="https://svelte.dev">x</a>`);', [['js/markup-root-relative', '/img'], ['js/markup-navigation', 'https']]],
    ['a tagged template (lit) starting with white space', 'const t = html`\n  <img src="https://x.example/a.png">`;', [['js/markup-remote-resource', 'https']]],
    ['other side: fragments, relative and computed references, no-markup strings', 'el.innerHTML = \'<a href="#top">t</a><img src="img/logo.png"><img src=\' + u + \'>\'; el.innerHTML = html; x = "<a href=\'https://x.example/\'>"; if (s === "<img src=https://x.example/>") f();', []],
    ['other side: a script body and text are not markup; handlers set in code are not attributes', 'el.innerHTML = "<script>var a = \'<img src=https://x.example/a.png>\'</script><p>https://x.example/</p>"; el.onclick = f; el.addEventListener("click", f);', []],
    ['other side: a computed template value, lit bindings', 'const t = html`<a href=${u}>x</a><img src=${u} @click=${f} .x=${y}>`;', []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('attribute writes with literal names and values (issue 24, D-34)', () => {
  const seen = table([
    ['setAttribute src to a remote URL', "img.setAttribute('src', 'https://x.example/a.png');", [['js/markup-remote-resource', 'https']]],
    ['setAttribute of a handler, srcset, href, target', "b.setAttribute('onclick', 'go()'); i.setAttribute('srcset', 'a.png 1x, https://x.example/b.png 2x'); a.setAttribute('href', 'javascript:void 0'); a.setAttribute('target', '_blank');", [
      ['js/markup-event-handler', "'onclick"], ['js/markup-remote-resource', 'https'], ['js/markup-javascript-url', 'javascript'], ['js/markup-navigation', "'target"],
    ]],
    ['href and target properties, and a background image', 'a.href = "https://x.example/"; a.target = "_blank"; el.style.backgroundImage = "url(https://x.example/b.png)";', [
      ['js/markup-navigation', 'https'], ['js/markup-navigation', 'target'], ['js/markup-remote-resource', 'url('],
    ]],
    ['props objects of compiled JSX and Vue templates', 'jsx("a", { href: "https://vite.dev", target: "_blank", children: "x" }); _createElementVNode("img", { src: "/img/logo.png", alt: "" });', [
      ['js/markup-navigation', 'https'], ['js/markup-navigation', 'target'], ['js/markup-root-relative', '/img'],
    ]],
    ['other side: computed values, fragments, relative paths, other attributes', "a.setAttribute('href', u); a.setAttribute('href', '#x'); i.setAttribute('src', 'img/logo.png'); e.setAttribute('class', 'https://x'); e.setAttribute('onclick', f); a.href = u + '/x'; a.target = '_self';", []],
    ['other side: the event-support test React DOM makes on a detached element', 'var d = document.createElement("div"); d.setAttribute("oninput", "return;"); d.setAttribute("onclick", "");', []],
    ['other side: objects that are no props of an element, location.href', 'const links = { href: "https://x.example/" }; f(x, { href: "https://x.example/" }); C("Link", { href: "https://x.example/" }); jsx(Link, { href: "https://x.example/" });', []],
    ['other side: a handler prop that is a function', 'jsx("button", { onClick: go, children: "x" }); h("a", { href: "#top" });', []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('bridge calls with literal arguments: what the host would refuse (issue 24, D-23)', () => {
  const big = 'x'.repeat(70000);
  const deep = '['.repeat(13) + ']'.repeat(13);
  const seen = table([
    ['a limit the catalog does not offer', 'await PLATFORM.catalog.products({ limit: 10 });', [['js/bridge-call-refused', '10']]],
    ['page 0, other fields computed', 'PLATFORM.catalog.products({ search: q, page: 0 });', [['js/bridge-call-refused', '0 }']]],
    ['an unknown cart action, with a suggestion', "PLATFORM.cart.manage('delete', { productId: id });", [['js/bridge-call-refused', "'delete'"]]],
    ['a nested field of a form, through request', "PLATFORM.request('forms.submit', 'submit', { form: 'newsletter', fields: { email: e, extra: 1 } });", [['js/bridge-call-refused', '1 }']]],
    ['a missing required field, an empty event, a waiver not offered', "PLATFORM.cart.manage('add', { quantity: 2 }); PLATFORM.analytics.track(''); PLATFORM.waivers.start('golf');", [
      ['js/bridge-call-refused', '{ quantity'], ['js/bridge-call-refused', "''"], ['js/bridge-call-refused', "'golf'"],
    ]],
    ['a payload too large, and too deep', `PLATFORM.communications.text('${big}'); PLATFORM.request('site.theme.read', 'read', { a: ${deep} });`, [['js/bridge-call-refused', "('xxx"], ['js/bridge-call-refused', '{ a:']]],
    ['other side: valid literals, computed values and spreads', "PLATFORM.catalog.products({ page: 1, limit: 24, search: 'lane' }); PLATFORM.catalog.products(q); PLATFORM.catalog.products({ ...q, page: p }); PLATFORM.cart.manage(action, { productId: 1 }); PLATFORM.cart.manage('remove', { productId: id, quantity: n }); PLATFORM.forms.submit('newsletter', { ...f }); PLATFORM.waivers.start(); PLATFORM.theme.read();", []],
    ['constants the module declares, in capitals, once', "const PAGE_SIZE = 10;\nconst QUERY = { page: 0 }\nconst ACTION = 'delete';\nPLATFORM.catalog.products({ limit: PAGE_SIZE }); PLATFORM.catalog.products(QUERY); PLATFORM.cart.manage(ACTION, {});", [
      ['js/bridge-call-refused', '0 }'], ['js/bridge-call-refused', 'PAGE_SIZE }'], ['js/bridge-call-refused', 'ACTION, {'],
    ]],
    ['other side: names that are no such constant (let, declared twice, lower case, computed)', 'let LIMIT = 10; const SIZE = 10; function f() { const SIZE = 12; } const size = 10; const N = M * 2;\nPLATFORM.catalog.products({ limit: LIMIT }); PLATFORM.catalog.products({ limit: SIZE }); PLATFORM.catalog.products({ limit: size }); PLATFORM.catalog.products({ limit: N });', []],
    ['other side: a PLATFORM of the module\'s own', "const PLATFORM = mock(); PLATFORM.catalog.products({ limit: 10 });", []],
  ]);
  for (const rule of seen) covered.add(rule);
  // The host's code, the field's pointer and the suggestion are what the finding is for.
  const said = (src) => findings(src).map((f) => f.message);
  assert.match(said('PLATFORM.catalog.products({ limit: 10 });')[0], /INVALID_REQUEST.*"limit".*12, 24.*pointer \/limit\)/);
  assert.match(said('PLATFORM.catalog.products({ page: 0 });')[0], /INVALID_REQUEST.*1 to 1,000.*pointer \/page\)/);
  assert.match(said("PLATFORM.cart.manage('delete', {});")[0], /INVALID_REQUEST.*did you mean "remove"/);
  assert.match(said("PLATFORM.request('cart.manage', 'delete', {});")[0], /INVALID_REQUEST.*did you mean "remove"/);
  assert.doesNotMatch(said("PLATFORM.cart.manage('zap', {});")[0], /did you mean/);
  assert.match(said("PLATFORM.request('forms.submit', 'submit', { form: 'newsletter', fields: { email: 1 } });")[0], /pointer \/fields\/email\)/);
  assert.match(said(`PLATFORM.communications.text('${big}');`)[0], /PAYLOAD_TOO_LARGE/);
  assert.match(said(`PLATFORM.request('site.theme.read', 'read', { a: ${deep} });`)[0], /PAYLOAD_TOO_COMPLEX/);
});

test('WebRTC: error', () => {
  const seen = table([
    ['RTCPeerConnection', 'const pc = new RTCPeerConnection();', [['js/webrtc', 'RTCPeerConnection']]],
    ['prefixed constructor and data channel', 'new webkitRTCPeerConnection(); RTCDataChannel;', [['js/webrtc', 'webkitRTCPeerConnection'], ['js/webrtc', 'RTCDataChannel']]],
    ['through window', 'new window.RTCPeerConnection();', [['js/webrtc', 'window']]],
    ['other side: a property of another object, and a string', "lib.RTCPeerConnection; 'RTCPeerConnection';", []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('code from strings (no unsafe-eval): warning', () => {
  const seen = table([
    ['eval call', "eval('1');", [['js/eval-blocked', 'eval']]],
    ['window.eval call', "window.eval('1');", [['js/eval-blocked', 'window']]],
    ['new Function', "new Function('a', 'return a');", [['js/eval-blocked', 'Function']]],
    ['Function call', "Function('x')();", [['js/eval-blocked', 'Function']]],
    ['setTimeout with a string', "setTimeout('tick()', 10);", [['js/eval-blocked', 'setTimeout']]],
    ['setInterval with a template', 'setInterval(`tick()`, 10);', [['js/eval-blocked', 'setInterval']]],
    ['other side: functions and non-calls', 'setTimeout(tick, 10); setTimeout(() => 1); const e = eval; Function.prototype.call; obj.eval("1"); x.setTimeout("a");', []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('cookies and storage in the opaque-origin frame: warning', () => {
  const seen = table([
    ['localStorage', "localStorage.getItem('k');", [['js/storage-unavailable', 'localStorage']]],
    ['sessionStorage and indexedDB', "sessionStorage.clear(); indexedDB.open('db');", [['js/storage-unavailable', 'sessionStorage'], ['js/storage-unavailable', 'indexedDB']]],
    ['document.cookie reported at document', "document.cookie = 'a=1';", [['js/storage-unavailable', 'document']]],
    ['window.localStorage', 'window.localStorage;', [['js/storage-unavailable', 'window']]],
    ['other side: other objects and names', "obj.localStorage; doc.cookie; document.cookies; 'localStorage';", []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('navigation, popups and the parent page: warning', () => {
  const seen = table([
    ['window.open', 'window.open(u);', [['js/navigation', 'window']]],
    ['top.location', 'top.location.href = u;', [['js/navigation', 'top']]],
    ['parent.location', 'parent.location.reload();', [['js/navigation', 'parent']]],
    ['assigning location', 'location = u;', [['js/navigation', 'location']]],
    ['location.href assignment', "location.href = 'https://x.example/';", [['js/navigation', 'location']]],
    ['location.assign and replace', 'location.assign(u); location.replace(u);', [['js/navigation', 'location'], ['js/navigation', 'location.replace']]],
    ['document.location assignment', 'document.location = u;', [['js/navigation', 'document']]],
    ['window.location assignment', 'window.location = u;', [['js/navigation', 'window']]],
    ['window.location.href assignment', 'window.location.href = u;', [['js/navigation', 'location']]],
    ['other side: fragments, reads, comparisons, bare open, other objects', "location.href = '#top'; location = '#a'; location.hash = 'x'; const h = location.href; location == x; open(u); x.top.location; win.open(u); location.reload();", []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('syntax: the first lexical error is one warning; clean code has none', () => {
  const seen = table([
    ['unterminated string', "const s = 'abc\nconst t = 1;", [['js/syntax-error', "'abc"]]],
    ['only the first of several errors', "const s = 'abc\nconst t = 'def\n", [['js/syntax-error', "'abc"]]],
    ['unclosed brace', 'function f() {\n  return 1;\n', [['js/syntax-error', '{']]],
    ['invalid escape in a specifier (legacy octal)', "import './\\01.js';", [['js/syntax-error', "'./"]]],
    ['other side: tricky but valid code', 'if (a) /re/.test(b); x = {} / 2; `${ {a: `b`} }`;', []],
  ]);
  for (const rule of seen) covered.add(rule);
});

test('invalid UTF-8: error with the line and column of the first bad byte', () => {
  const bad = findings(Uint8Array.from([0x61, 0x0a, 0x62, 0xc3, 0xa9, 0xff, 0x63]));
  assert.deepEqual(bad.map((f) => `${f.rule} ${f.line}:${f.column}`), ['js/invalid-utf8 2:3'], 'b, é, then 0xFF');
  assert.deepEqual(run(Uint8Array.from([0xc0, 0xaf])), ['js/invalid-utf8 1:1'], 'overlong encoding');
  assert.deepEqual(run(Uint8Array.from([0xed, 0xa0, 0x80])), ['js/invalid-utf8 1:1'], 'encoded surrogate');
  assert.deepEqual(run(Uint8Array.from([0x61, 0xe2, 0x82])), ['js/invalid-utf8 1:2'], 'truncated sequence at the end');
  assert.deepEqual(run(new TextEncoder().encode("'é€𝄞'; import './lib/a.js';")), [], 'other side: valid multi-byte text');
  covered.add('js/invalid-utf8');
});

test('line and column: literal values across LF, CRLF and tabs', () => {
  const src = "// header\r\n\timport 'lodash';\n\n  fetch(u);\r\n" + 'x = 1; import(name);';
  assert.deepEqual(run(src), ['js/bare-specifier 2:9', 'js/network-api 4:3', 'js/dynamic-import-unchecked 5:8']);
});

test('findings per rule are capped per module at 100', () => {
  assert.equal(run('fetch(u);\n'.repeat(150)).length, 100);
  assert.equal(run('fetch(u);\n'.repeat(100)).length, 100);
  assert.equal(run('fetch(u);\n'.repeat(99)).length, 99);
});

test('scanJsModule resolves against the given folder', () => {
  const list = new FindingList();
  scanJsModule(new FileScan('lib/x.js', "import './a.js'; import './nope.js';", bundleViewOf(FILES), list), 'lib');
  assert.deepEqual(list.items.map((f) => `${f.rule} ${f.file} ${f.line}:${f.column}`), ['js/missing-module lib/x.js 1:25']);
});

test('a large module reports what the same lines report in a small one', () => {
  // What a module reports depends on its text only, not on its size or on what was scanned before.
  const small = "import 'lodash';\nfetch(u); x = a / b; `${ {k: 1} }` / 2;\nimport('./lib/a.js'); y = {} / /re/.exec(s);\n";
  const want = ['js/bare-specifier 1:8', 'js/network-api 2:1'];
  assert.deepEqual(run(small), want, 'a small module');
  const large = small + '// filler line\n'.repeat(2500);
  assert.ok(large.length > 32 * 1024, 'a large module');
  assert.deepEqual(run(large), want, 'the same lines at the head of a large module');
  assert.deepEqual(run(small), want, 'the small module again, after the large one');
});

test('every catalogued js rule is exercised above, and ids are js/*', () => {
  // Rules decided across files (validate.ts) are exercised in test/validator/js-project.test.mjs.
  for (const id of ['js/import-not-exported', 'js/capability-not-declared', 'js/capability-unused', 'js/setting-unknown']) covered.add(id);
  const ids = JS_RULES.map((r) => r.id);
  for (const id of ids) assert.match(id, /^js\/[a-z0-9]+(?:-[a-z0-9]+)*$/);
  assert.deepEqual([...covered].sort(), [...ids].sort());
});
