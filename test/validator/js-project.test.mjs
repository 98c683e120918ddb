// Module rules decided across files (src/validator/validate.ts, from each module's facts in
// src/validator/js/js-policy.ts): capability use against the manifest (D-34), imports of
// names a local module does not export, and root-relative references whose relative twin
// is in the bundle. Table rows assert rule ids with files and line:column or pointers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateProject } from '../../build/validator/validate.js';

const encoder = new TextEncoder();
const PAGE = '<!doctype html><html><head><meta charset="utf-8"><title>t</title><script type="module" src="main.js"></script></head><body></body></html>';

/** The findings of a project: the manifest's capabilities and bundle files (path -> text); `index.html` loads main.js unless given. */
function check(capabilities, files, properties = {}) {
  const manifest = {
    schema_version: 1,
    protocol_version: 1,
    namespace: 'acme/js-project',
    version: '1.0.0',
    name: 'JS project test',
    entrypoint: 'index.html',
    capabilities,
    properties,
  };
  const entries = Object.entries({ 'index.html': PAGE, ...files })
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, text]) => {
      const content = encoder.encode(text);
      return { path, kind: 'file', size: content.length, content };
    });
  const result = validateProject({ manifest: encoder.encode(JSON.stringify(manifest)), files: entries });
  return result.findings.map((f) => `${f.rule} ${f.file}${f.pointer !== undefined ? ` ${f.pointer}` : ''}${f.line !== undefined ? ` ${f.line}:${f.column}` : ''}`);
}

function table(rows) {
  for (const [proves, capabilities, files, want] of rows) {
    assert.deepEqual(check(capabilities, files), want, proves);
  }
}

test('capability use: undeclared is an error at the call, unused is a warning at the manifest (D-34)', () => {
  table([
    ['a call to an undeclared capability', ['catalog.products.read'], { 'main.js': 'await PLATFORM.catalog.products({});\nawait PLATFORM.forms.submit("contact", {});' }, [
      'js/capability-not-declared main.js 2:7',
    ]],
    ['request with a literal undeclared capability', ['catalog.products.read'], { 'main.js': 'PLATFORM.catalog.products({}); PLATFORM.request("cart.manage", "add", { productId: 1 });' }, [
      'js/capability-not-declared main.js 1:32',
    ]],
    ['through an alias in another module', ['catalog.products.read'], { 'main.js': "import './lib.js'; PLATFORM.catalog.products({});", 'lib.js': 'const p = window.PLATFORM;\nexport const add = () => p.cart.manage("add", { productId: 1 });' }, [
      'js/capability-not-declared lib.js 2:26',
    ]],
    ['many uses: each capability counts up to 100 times, and a later one still counts', ['catalog.products.read'], { 'main.js': 'PLATFORM.catalog.products({});\n'.repeat(150) + 'PLATFORM.theme.read();' }, [
      'js/capability-not-declared main.js 151:1',
    ]],
    ['a declared capability nothing uses', ['catalog.products.read', 'cart.manage'], { 'main.js': 'PLATFORM.catalog.products({});' }, [
      'js/capability-unused manifest.json /capabilities/1 1:181',
    ]],
    ['with no module at all, every declared capability is unused', ['site.theme.read'], { 'main.js': 'export {};' }, [
      'js/capability-unused manifest.json /capabilities/0 1:157',
    ]],
    ['other side: every declared capability used, in any module, any form', ['catalog.products.read', 'cart.manage', 'site.theme.read'], {
      'main.js': "import './lib.js'; PLATFORM.catalog.products({}); window.PLATFORM.theme.read();",
      'lib.js': 'PLATFORM.request("cart.manage", "add", { productId: 1 });',
    }, []],
    ['other side: a computed request may use any capability', ['catalog.products.read', 'cart.manage'], { 'main.js': 'PLATFORM.catalog.products({}); PLATFORM.request(cap, "add", {});' }, []],
    ['other side: the bridge handed on may use any capability', ['cart.manage'], { 'main.js': 'start(window.PLATFORM);' }, []],
    ['other side: a module of the project\'s own PLATFORM', ['cart.manage'], { 'main.js': 'const PLATFORM = fake(); PLATFORM.forms.submit("a", {}); window.PLATFORM.cart.manage("add", { productId: 1 });' }, []],
  ]);
});

test('settings read by a literal name the manifest does not define: warning at the read (issue 24.3)', () => {
  const properties = { heading: { type: 'text', label: 'Heading' }, show_prices: { type: 'boolean', label: 'Prices' } };
  // Each wanted finding is named by the text it points at (its first occurrence).
  const at = (code, needle) => {
    const i = code.indexOf(needle);
    const before = code.slice(0, i);
    return `js/setting-unknown main.js ${before.split('\n').length}:${i - before.lastIndexOf('\n')}`;
  };
  const rows = [
    ['a member of the settings of PLATFORM.ready', 'const { capabilities, settings } = await PLATFORM.ready;\nh.textContent = settings.headline;', ['headline']],
    ['PLATFORM.settings() read at once, by name and by string', 'x = PLATFORM.settings().headng; y = PLATFORM.settings()["show-prices"];', ['headng', '"show-prices"']],
    ['destructuring PLATFORM.settings() and the settings of ready', "const { heading, colour } = PLATFORM.settings();\nconst { settings: { show_prices, size: s } } = await PLATFORM.ready;", ['colour', 'size']],
    ['(await PLATFORM.ready).settings, and a renamed binding', 'a = (await PLATFORM.ready).settings.title;\nconst { settings: cfg } = await PLATFORM.ready; cfg.heading; cfg.Heading;', ['title', 'Heading']],
    ['other side: defined names, Object members, computed reads, the object passed on', 'const { settings } = await PLATFORM.ready; settings.heading; settings.show_prices; settings.toString(); settings[k]; render(settings); const { heading } = PLATFORM.settings(); const all = PLATFORM.settings();', []],
    ['other side: a name bound twice may be another object', 'const { settings } = await PLATFORM.ready; settings.heading;\nfunction f(settings) { return settings.other; }', []],
  ];
  for (const [proves, code, want] of rows) assert.deepEqual(check([], { 'main.js': code }, properties), want.map((needle) => at(code, needle)), proves);
  const [message] = validateProject({
    manifest: encoder.encode(JSON.stringify({ schema_version: 1, protocol_version: 1, namespace: 'acme/js-project', version: '1.0.0', name: 'JS project test', entrypoint: 'index.html', capabilities: [], properties })),
    files: [['index.html', PAGE], ['main.js', 'x = PLATFORM.settings().headng;']].map(([path, text]) => ({ path, kind: 'file', size: text.length, content: encoder.encode(text) })),
  }).findings.map((f) => f.message);
  assert.match(message, /did you mean "heading"/);
});

test('a property no module reads is a hint at its key, never a finding; none when any read is unclear (issue 24.3)', () => {
  const properties = { heading: { type: 'text', label: 'Heading' }, show_prices: { type: 'boolean', label: 'Prices' } };
  const text = JSON.stringify({ schema_version: 1, protocol_version: 1, namespace: 'acme/js-project', version: '1.0.0', name: 'JS project test', entrypoint: 'index.html', capabilities: [], properties }, null, 2);
  /** The hints as `pointer line:column`, and the findings' rule ids (a hint is never one). */
  const hintsOf = (files) => {
    const entries = Object.entries({ 'index.html': PAGE, ...files })
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([path, code]) => ({ path, kind: 'file', size: code.length, content: encoder.encode(code) }));
    const result = validateProject({ manifest: encoder.encode(text), files: entries });
    assert.deepEqual(result.findings.filter((f) => f.rule !== 'bundle/unreferenced-module').map((f) => f.rule), [], 'hints are no findings');
    return (result.hints ?? []).map((h) => `${h.file} ${h.pointer} ${h.line}:${h.column}`);
  };
  // Where the keys are in the pretty-printed manifest: line 10 column 5 and line 14 column 5.
  const heading = 'manifest.json /properties/heading 10:5';
  const showPrices = 'manifest.json /properties/show_prices 14:5';
  const rows = [
    ['no module reads settings: every property is a hint', { 'main.js': 'document.title = "x";' }, [heading, showPrices]],
    ['one read by name through ready: the other is a hint', { 'main.js': 'const { settings } = await PLATFORM.ready; h.textContent = settings.heading;' }, [showPrices]],
    ['read in another module counts too', { 'main.js': "import './lib.js'; PLATFORM.settings().heading;", 'lib.js': 'x = PLATFORM.settings()["show_prices"];' }, []],
    ['other side: both read by destructuring', { 'main.js': 'const { heading, show_prices } = PLATFORM.settings();' }, []],
    ['other side: a nested destructuring of ready reads one', { 'main.js': 'const { settings: { heading } } = await PLATFORM.ready;' }, [showPrices]],
    ['other side: a computed read may read any property', { 'main.js': 'x = PLATFORM.settings().heading; y = PLATFORM.settings()[name];' }, []],
    ['other side: the settings passed to a helper may be read there', { 'main.js': 'const { settings } = await PLATFORM.ready; render(settings);' }, []],
    ['other side: the settings object kept whole', { 'main.js': 'const all = PLATFORM.settings();' }, []],
    ['other side: a rest pattern reads the others', { 'main.js': 'const { heading, ...rest } = PLATFORM.settings();' }, []],
    ['other side: the bridge handed on may read any setting', { 'main.js': 'start(window.PLATFORM);' }, []],
    ['other side: one unclear module of two silences them all', { 'main.js': "import './lib.js'; PLATFORM.settings().heading;", 'lib.js': 'use(PLATFORM.settings());' }, []],
  ];
  for (const [proves, files, want] of rows) assert.deepEqual(hintsOf(files), want, proves);
  // A module the scan could not read may read any property: no hints.
  const unread = validateProject({
    manifest: encoder.encode(text),
    files: [{ path: 'index.html', kind: 'file', size: PAGE.length, content: encoder.encode(PAGE) }, { path: 'main.js', kind: 'file', size: 0 }],
  });
  assert.deepEqual(unread.hints ?? [], [], 'a module not read');
});

test('imports of a name the local module does not export: warning at the name', () => {
  table([
    ['a named import the module lacks', [], { 'main.js': "import { formatPrice } from './lib.js';\nformatPrice(1);", 'lib.js': 'export function formatMoney(n) { return n }' }, [
      'js/import-not-exported main.js 1:10',
    ]],
    ['a default import of a module without one', [], { 'main.js': "import lib from './lib.js';", 'lib.js': 'export const a = 1;' }, ['js/import-not-exported main.js 1:8']],
    ['a re-export of a missing name', [], { 'main.js': "export { b } from './lib.js';", 'lib.js': 'export const a = 1;' }, ['js/import-not-exported main.js 1:10']],
    ['a default import beside named ones', [], { 'main.js': "import d, { a } from './lib.js';", 'lib.js': 'export const a = 1;' }, ['js/import-not-exported main.js 1:8']],
    ['other side: past 2,000 exported declarations a module\'s exports are left unknown', [], {
      'main.js': "import { missing } from './lib.js';",
      'lib.js': Array.from({ length: 2001 }, (_, i) => `export const v${i} = ${i};`).join('\n'),
    }, []],
    ['at 2,000 exported declarations they are still read', [], {
      'main.js': "import { missing } from './lib.js';",
      'lib.js': Array.from({ length: 2000 }, (_, i) => `export const v${i} = ${i};`).join('\n'),
    }, ['js/import-not-exported main.js 1:10']],
    ['other side: phase keywords are no default binding', [], { 'main.js': "import defer * as ns from './lib.js'; import source { a } from './lib.js';", 'lib.js': 'export const a = 1;' }, []],
    ['other side: every way a module exports', [], {
      'main.js': "import d, { a, b, c, e, g, h, i, j, k, m } from './lib.js'; import { deep } from './star.js';",
      'lib.js': [
        'export default 1;',
        'export const a = 1, b = () => { const inner = 2; return inner }, c = function (x, y) { var z; return z };',
        'export let { e, f: g } = obj, [h] = list;',
        'export function i() {} export async function* j() {} export class k {}',
        'const local = 1; export { local as m };',
      ].join('\n'),
      'star.js': "export * from './deep.js';",
      'deep.js': 'export const deep = 1;',
    }, []],
    ['other side: a namespace import, and a module whose exports cannot all be known', [], {
      'main.js': "import * as ns from './lib.js'; import { anything } from './star.js';",
      'lib.js': 'export const a = 1;',
      'star.js': "export * from './broken.js';",
      'broken.js': 'export const x = "unterminated\n',
    }, ['js/syntax-error broken.js 1:18']],
  ]);
});

test('root-relative references whose relative twin is in the bundle: the twin counts as loaded', () => {
  // Vite's default base writes `/assets/…`; the finding says so and the module it names is no "unreferenced module" too.
  const files = {
    'index.html': '<!doctype html><html><head><meta charset="utf-8"><title>t</title><script type="module" src="/assets/index.js"></script></head><body></body></html>',
    'assets/index.js': "const img = '/assets/logo.png';\nimport('/assets/lazy.js');",
    'assets/lazy.js': 'export {};',
    'assets/logo.png': 'png',
  };
  assert.deepEqual(check([], files), [
    'js/root-relative-string assets/index.js 1:13',
    'js/root-relative-import assets/index.js 2:8',
    'html/reference-outside-bundle index.html 1:93',
  ]);
});

test('hints that recognise the tool name its setting (messages, rule ids unchanged)', () => {
  const vitePolyfill = '(function(){const r=document.createElement("link").relList;if(r&&r.supports&&r.supports("modulepreload"))return;for(const e of document.querySelectorAll(\'link[rel="modulepreload"]\'))i(e);function i(e){if(e.ep)return;e.ep=!0;fetch(e.href,{})}})();';
  const messages = (files) => {
    const entries = Object.entries({ 'index.html': PAGE, ...files }).map(([path, text]) => {
      const content = encoder.encode(text);
      return { path, kind: 'file', size: content.length, content };
    });
    const manifest = { schema_version: 1, protocol_version: 1, namespace: 'acme/hints', version: '1.0.0', name: 'Hints', entrypoint: 'index.html', capabilities: [], properties: {} };
    return validateProject({ manifest: encoder.encode(JSON.stringify(manifest)), files: entries }).findings.map((f) => [f.rule, f.message]);
  };
  const polyfill = messages({ 'main.js': vitePolyfill });
  assert.deepEqual(polyfill.map(([rule]) => rule), ['js/network-api']);
  assert.match(polyfill[0][1], /build\.modulePreload: \{ polyfill: false \}/);
  const plain = messages({ 'main.js': 'fetch(u);' });
  assert.deepEqual(plain.map(([rule]) => rule), ['js/network-api']);
  assert.doesNotMatch(plain[0][1], /modulePreload/, 'other side: a fetch of the code itself');

  const root = messages({ 'main.js': "import '/lib/a.js'; import '/lib/missing.js';", 'lib/a.js': 'export {};' });
  assert.deepEqual(root.map(([rule]) => rule), ['js/root-relative-import', 'js/root-relative-import']);
  assert.match(root[0][1], /"lib\/a\.js" is in the bundle: drop the leading "\/" \(Vite: set base: '\.\/'/);
  assert.doesNotMatch(root[1][1], /base:/, 'other side: no twin in the bundle');

  const css = messages({ 'main.js': 'export {};', 'a.css': '@font-face{src:url(data:font/woff2;base64,AAAA)} b{background:url(/img/x.png)} c{background:url(/img/none.png)}', 'img/x.png': 'x' });
  assert.deepEqual(css.map(([rule]) => rule), ['css/data-font', 'css/root-relative-url', 'css/root-relative-url']);
  assert.match(css[0][1], /build\.assetsInlineLimit: 0/);
  assert.match(css[1][1], /"img\/x\.png" is in the bundle/);
  assert.doesNotMatch(css[2][1], /is in the bundle/, 'other side: no twin in the bundle');
});

test('js/capability-unused offers both ways out: use the capability, or remove the key (and D-33 for what the check cannot follow)', async () => {
  const { ruleById } = await import('../../build/validator/rules.js');
  const hint = ruleById('js/capability-unused').hint;
  assert.match(hint, /^Use it\b/);
  assert.match(hint, /remove the key from "capabilities"/);
  assert.match(hint, /platform-ext\.config\.json/);
});
