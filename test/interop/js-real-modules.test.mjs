// The module scanner against real code nobody here wrote: the ES module builds of popular
// packages, installed as dev dependencies and read from node_modules (never committed).
// Each file must lex without an error, hold no CommonJS/UMD finding (they run as modules
// in browsers), get no finding on a name it declares itself, and no markup finding
// but the true positives listed in MARKUP_FINDINGS.
//
// "A name it declares" is told apart without a parser of our own: esbuild renames every
// binding of a module (minifyIdentifiers) and leaves global names alone, so a finding
// on a watched name that the renamed copy no longer has was about one of the module's
// own bindings. Top-level `this` (esbuild rewrites it) and position-bound rules are left
// out of the comparison.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { tokenizeJs } from '../../build/validator/js/lexer.js';
import { scanJsModule } from '../../build/validator/js/js-policy.js';
import { FindingList } from '../../build/validator/findings.js';
import { FileScan, bundleViewOf } from '../../build/validator/scan.js';

const MODULES = new URL('../../node_modules/', import.meta.url).pathname;

/** Per package: files and folders (walked for .js and .mjs) of its ES module builds. */
const SOURCES = {
  preact: ['preact/dist/preact.mjs', 'preact/hooks/dist', 'preact/compat/dist', 'preact/debug/dist', 'preact/jsx-runtime/dist'],
  lit: ['lit', 'lit-html', 'lit-element', '@lit/reactive-element'],
  three: ['three/build/three.core.js', 'three/build/three.module.js', 'three/examples/jsm/controls', 'three/examples/jsm/loaders/GLTFLoader.js'],
  echarts: ['echarts/dist/echarts.esm.min.mjs', 'echarts/lib/chart/bar', 'echarts/lib/util'],
  'fuse.js': ['fuse.js/dist/fuse.mjs', 'fuse.js/dist/fuse.min.mjs'],
  marked: ['marked/lib/marked.esm.js'],
  dompurify: ['dompurify/dist/purify.es.mjs'],
  luxon: ['luxon/src', 'luxon/build/es6/luxon.js'],
  svelte: ['svelte/src/internal/client', 'svelte/src/internal/shared', 'svelte/src/store', 'svelte/src/motion'],
  vue: ['vue/dist/vue.runtime.esm-browser.prod.js', '@vue/runtime-dom/dist/runtime-dom.esm-bundler.js', '@vue/runtime-core/dist/runtime-core.esm-bundler.js', '@vue/reactivity/dist/reactivity.esm-bundler.js', '@vue/shared/dist/shared.esm-bundler.js'],
  d3: ['d3/dist/d3.mjs', 'd3/dist/d3.min.mjs'],
  'lodash-es': ['lodash-es'],
  'chart.js': ['chart.js/dist/chart.js', 'chart.js/dist/chunks', 'chart.js/dist/helpers.js'],
  alpinejs: ['alpinejs/dist/module.esm.js'],
  'htmx.org': ['htmx.org/dist/htmx.esm.js'],
  'solid-js': ['solid-js/dist/solid.js', 'solid-js/web/dist/web.js', 'solid-js/store/dist/store.js'],
  '@floating-ui/dom': ['@floating-ui/dom/dist/floating-ui.dom.mjs', '@floating-ui/core/dist/floating-ui.core.mjs', '@floating-ui/utils/dist/floating-ui.utils.mjs', '@floating-ui/utils/dist/floating-ui.utils.dom.mjs'],
  swiper: ['swiper/swiper-bundle.mjs', 'swiper/shared', 'swiper/modules'],
  axios: ['axios/dist/esm/axios.js', 'axios/lib/helpers', 'axios/lib/core'],
  'date-fns': ['date-fns/format.js', 'date-fns/parse.js', 'date-fns/formatDistance.js', 'date-fns/locale/en-US', 'date-fns/_lib'],
  rxjs: ['rxjs/dist/esm/internal/observable', 'rxjs/dist/esm/internal/operators', 'rxjs/dist/esm/internal/scheduler'],
  immer: ['immer/dist/immer.mjs'],
  bootstrap: ['bootstrap/dist/js/bootstrap.esm.js', 'bootstrap/js/src'],
};

/**
 * Findings of the markup rules (js-markup.ts) on these modules, each a true positive:
 * anything else such a rule reports here is a false one.
 */
const MARKUP_FINDINGS = {
  // The "save as image" tool clicks a download link with target="_blank": the sandbox allows no popups.
  'echarts/dist/echarts.esm.min.mjs': ['js/markup-navigation'],
};

/** Rules about names, compared between the module and its renamed copy. */
const NAME_RULES = new Set(['js/network-api', 'js/navigation', 'js/storage-unavailable', 'js/eval-blocked', 'js/webrtc', 'js/remote-url', 'js/platform-unknown-member']);

function moduleFiles(entry) {
  const path = join(MODULES, entry);
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  const out = [];
  for (const name of readdirSync(path).sort()) {
    const child = join(path, name);
    if (name === 'node_modules' || name === 'node') continue;
    if (statSync(child).isDirectory()) out.push(...moduleFiles(join(entry, name)));
    else if (/\.(m?js)$/.test(name) && !/\.(cjs|umd|min\.cjs)\.js$/.test(name)) out.push(child);
  }
  return out;
}

function scan(text) {
  const list = new FindingList();
  scanJsModule(new FileScan('m.js', text, bundleViewOf([]), list), '');
  return list.items;
}

function nameFindings(items) {
  const counts = new Map();
  for (const f of items) if (NAME_RULES.has(f.rule)) counts.set(`${f.rule} ${f.message}`, (counts.get(`${f.rule} ${f.message}`) ?? 0) + 1);
  return counts;
}

for (const [pkg, entries] of Object.entries(SOURCES)) {
  test(`real modules of ${pkg}: no lexical error, no CommonJS finding, no finding on a name the module declares`, () => {
    const files = entries.flatMap(moduleFiles);
    assert.ok(files.length > 0, `${pkg} is installed (npm ci) and its ES module files are where this test looks`);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const shown = file.slice(MODULES.length);
      assert.deepEqual(tokenizeJs(text).errors, [], `${shown}: lexical errors`);
      const items = scan(text);
      assert.deepEqual(items.filter((f) => f.rule === 'js/syntax-error' || f.rule === 'js/commonjs').map((f) => `${f.rule} ${f.line}:${f.column}`), [], shown);
      assert.deepEqual(items.filter((f) => f.rule.startsWith('js/markup-')).map((f) => f.rule), MARKUP_FINDINGS[shown] ?? [], `${shown}: markup findings`);
      const renamed = transformSync(text, { minifyIdentifiers: true, format: 'esm', loader: 'js', target: 'esnext', logLevel: 'silent' }).code;
      assert.deepEqual(tokenizeJs(renamed).errors, [], `${shown} renamed by esbuild: lexical errors`);
      const kept = nameFindings(scan(renamed));
      const onOwnNames = [];
      for (const [finding, count] of nameFindings(items)) if ((kept.get(finding) ?? 0) < count) onOwnNames.push(finding);
      assert.deepEqual(onOwnNames, [], `${shown}: findings on names the module declares`);
    }
  });
}
