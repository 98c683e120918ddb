// Markup in JavaScript (js-markup.ts) read from what the frameworks really emit: small
// starters written here (the shape of Vite's Svelte, Vue, React and lit starters: a
// remote link with target="_blank", a root-relative icon or image) are compiled by each
// framework's own compiler, then built with Vite under docs/bundlers.md's settings. The
// compiled output and the built bundle are never committed: both are made here.
//
// Each starter must give exactly its documented findings of the new rules (markup and
// bridge calls), at the place of the literal in the emitted file; the frameworks' own
// runtime code, bundled alongside, must give none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { build } from 'vite';
import { compile as compileSvelte } from 'svelte/compiler';
import { compileScript, parse as parseVue } from 'vue/compiler-sfc';
import { scanJsModule } from '../../build/validator/js/js-policy.js';
import { FindingList } from '../../build/validator/findings.js';
import { FileScan, bundleViewOf } from '../../build/validator/scan.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Rules of issue 24: what this test is about. */
const NEW_RULE = /^js\/(markup-|bridge-call-refused)/;

function scan(text, files = []) {
  const list = new FindingList();
  scanJsModule(new FileScan('m.js', text, bundleViewOf(files), list), '');
  return list.items.filter((f) => NEW_RULE.test(f.rule));
}

/** "rule line:column" of `point` inside the first occurrence of `context` in `text` (the whole context by default). */
function at(text, rule, context, point = context) {
  const c = text.indexOf(context);
  assert.ok(c >= 0 && context.includes(point), `test bug: ${context} not in the output`);
  const i = c + context.indexOf(point);
  const before = text.slice(0, i);
  return `${rule} ${before.split('\n').length}:${i - before.lastIndexOf('\n')}`;
}

const shown = (items) => items.map((f) => `${f.rule} ${f.line}:${f.column}`);

const SVELTE_APP = `<script>
  let count = $state(0);
</script>

<main>
  <a href="https://svelte.dev" target="_blank" rel="noreferrer">Svelte</a>
  <svg class="icon" aria-hidden="true"><use href="/icons.svg#docs-icon"></use></svg>
  <button onclick={() => count++}>count is {count}</button>
</main>
`;

const VUE_APP = `<script setup>
import { ref } from 'vue'
const count = ref(0)
</script>

<template>
  <div>
    <a href="https://vuejs.org/" target="_blank"><img src="/vite.svg" class="logo" alt="Vite logo" /></a>
    <button type="button" @click="count++">count is {{ count }}</button>
  </div>
</template>
`;

const REACT_APP = `import { useState } from 'react';

export default function App() {
  const [count, setCount] = useState(0);
  return (
    <>
      <a href="https://react.dev" target="_blank">
        <img src="/vite.svg" className="logo" alt="Vite logo" />
      </a>
      <button onClick={() => setCount((c) => c + 1)}>count is {count}</button>
    </>
  );
}
`;

const LIT_APP = `import { LitElement, css, html } from 'lit';

export class MyElement extends LitElement {
  static properties = { count: { type: Number } };
  static styles = css\`:host { display: block; }\`;

  constructor() {
    super();
    this.count = 0;
  }

  render() {
    return html\`
      <a href="https://lit.dev" target="_blank"><img src=\${this.logo} class="logo" alt="Lit logo" /></a>
      <button @click=\${() => this.count++} part="button">count is \${this.count}</button>
    \`;
  }
}

window.customElements.define('my-element', MyElement);
`;

test('Svelte 5 compiled output: the remote link and the root-relative icon, at the template string', () => {
  const code = compileSvelte(SVELTE_APP, { generate: 'client', filename: 'App.svelte' }).js.code;
  assert.deepEqual(shown(scan(code, ['icons.svg'])), [
    at(code, 'js/markup-navigation', 'https://svelte.dev'),
    at(code, 'js/markup-root-relative', '/icons.svg'),
  ]);
  assert.match(scan(code, ['icons.svg'])[1].message, /"icons\.svg" is in the bundle: drop the leading "\/"/);
});

test('Vue 3 compiled output: props objects of createElementVNode', () => {
  const { descriptor } = parseVue(VUE_APP, { filename: 'App.vue' });
  const code = compileScript(descriptor, { id: 'app', inlineTemplate: true, isProd: true }).content;
  assert.deepEqual(shown(scan(code)), [
    at(code, 'js/markup-navigation', 'https://vuejs.org/'),
    at(code, 'js/markup-navigation', 'target'),
    at(code, 'js/markup-root-relative', '/vite.svg'),
  ]);
});

test('React compiled output (JSX, automatic runtime): props objects of jsx and jsxs', () => {
  const code = transformSync(REACT_APP, { loader: 'jsx', jsx: 'automatic', format: 'esm' }).code;
  assert.deepEqual(shown(scan(code)), [
    at(code, 'js/markup-navigation', 'https://react.dev'),
    at(code, 'js/markup-navigation', 'target'),
    at(code, 'js/markup-root-relative', '/vite.svg'),
  ]);
});

test('lit: html tagged templates, computed parts silent', () => {
  assert.deepEqual(shown(scan(LIT_APP)), [at(LIT_APP, 'js/markup-navigation', 'https://lit.dev')]);
});

/** Builds a starter with Vite under docs/bundlers.md's settings; returns the emitted JavaScript files' texts. */
async function viteBuild(files, plugins = [], extra = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-starter-'));
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      base: './',
      publicDir: false,
      plugins,
      ...extra,
      build: {
        outDir: 'runtime',
        emptyOutDir: true,
        sourcemap: false,
        manifest: false,
        ssrManifest: false,
        modulePreload: { polyfill: false },
        assetsInlineLimit: 0,
        copyPublicDir: false,
      },
    });
    const assets = join(dir, 'runtime', 'assets');
    return readdirSync(assets).filter((n) => n.endsWith('.js')).map((n) => readFileSync(join(assets, n), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const INDEX = (entry) => `<!doctype html><html><head><meta charset="utf-8"><title>x</title><script type="module" src="${entry}"></script></head><body><div id="app"></div></body></html>`;

/** The new rules' findings over every emitted file, with the needle each must point at. */
function builtFindings(texts) {
  const out = [];
  for (const text of texts) for (const f of scan(text)) out.push({ f, text });
  return out;
}

function assertBuilt(texts, expected) {
  const found = builtFindings(texts);
  assert.deepEqual(found.map(({ f }) => f.rule), expected.map(([rule]) => rule), 'the starter\'s findings of the new rules, and no others in the bundled runtime');
  found.forEach(({ f, text }, i) => {
    const [rule, context, point] = expected[i];
    assert.equal(`${f.rule} ${f.line}:${f.column}`, at(text, rule, context, point), `${rule} at ${point ?? context}`);
  });
}

test('the Svelte starter built with Vite: the link and the icon, nothing from Svelte\'s runtime', async () => {
  const svelte = {
    name: 'compile-svelte',
    transform(code, id) {
      if (!id.endsWith('.svelte')) return null;
      return { code: compileSvelte(code, { generate: 'client', filename: id, css: 'injected' }).js.code, map: null };
    },
  };
  const texts = await viteBuild({
    'index.html': INDEX('./src/main.js'),
    'src/main.js': "import { mount } from 'svelte';\nimport App from './App.svelte';\nmount(App, { target: document.getElementById('app') });\n",
    'src/App.svelte': SVELTE_APP,
  }, [svelte], { resolve: { conditions: ['browser', 'production'] } });
  assertBuilt(texts, [['js/markup-navigation', 'href="https://svelte.dev"', 'https'], ['js/markup-root-relative', '/icons.svg']]);
});

test('the Vue starter built with Vite: the link, its target and the image, nothing from Vue\'s runtime', async () => {
  const vue = {
    name: 'compile-vue',
    transform(code, id) {
      if (!id.endsWith('.vue')) return null;
      const { descriptor } = parseVue(code, { filename: id });
      return { code: compileScript(descriptor, { id: 'app', inlineTemplate: true, isProd: true }).content, map: null };
    },
  };
  const texts = await viteBuild({
    'index.html': INDEX('./src/main.js'),
    'src/main.js': "import { createApp } from 'vue';\nimport App from './App.vue';\ncreateApp(App).mount('#app');\n",
    'src/App.vue': VUE_APP,
  }, [vue], { define: { __VUE_OPTIONS_API__: 'true', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' } });
  assertBuilt(texts, [
    ['js/markup-navigation', 'href:"https://vuejs.org/"', 'https'],
    ['js/markup-navigation', 'href:"https://vuejs.org/",target', 'target'],
    ['js/markup-root-relative', '/vite.svg'],
  ]);
});

test('the React starter built with Vite: the link, its target and the image, nothing from React DOM', async () => {
  const texts = await viteBuild({
    'index.html': INDEX('./src/main.jsx'),
    'src/main.jsx': "import { createRoot } from 'react-dom/client';\nimport App from './App.jsx';\ncreateRoot(document.getElementById('app')).render(<App />);\n",
    'src/App.jsx': REACT_APP,
  }, [], { esbuild: { jsx: 'automatic' } });
  // React DOM's own setAttribute("oninput", "return;") is an event-support test, not a handler (js-markup.ts).
  assertBuilt(texts, [
    ['js/markup-navigation', 'href:"https://react.dev"', 'https'],
    ['js/markup-navigation', 'href:"https://react.dev",target', 'target'],
    ['js/markup-root-relative', '/vite.svg'],
  ]);
});

test('the lit starter built with Vite: the link, nothing from lit\'s runtime', async () => {
  const texts = await viteBuild({
    'index.html': INDEX('./src/my-element.js'),
    'src/my-element.js': LIT_APP,
  });
  assertBuilt(texts, [['js/markup-navigation', 'href="https://lit.dev"', 'https']]);
});
