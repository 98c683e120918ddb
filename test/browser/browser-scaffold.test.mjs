// A fresh scaffold (`platform-ext init`) in the preview, in Chromium, with no errors: it
// reads its settings and the theme, lists products, adds one to the cart, and on every failure the preview can produce (a
// capability not granted, REQUEST_FAILED, an empty catalogue) shows the visitor friendly
// text, never a raw error, with no console error and no uncaught exception.
// A screenshot is written to test-artifacts/scaffold.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifactPath, browserSkip, extensionFrame, launchBrowser, startPreview, watchConsole } from '../support/browser.mjs';
import { initScaffold } from '../support/scaffold.mjs';

const SKIP = browserSkip();

/** Opens the preview of `server`; returns the page, the extension frame and the console log. */
async function open(t, context, server) {
  const page = await context.newPage();
  t.after(() => page.close());
  const log = watchConsole(page);
  await page.goto(server.url);
  const frame = await extensionFrame(page);
  // Settled: the list is no longer busy (products shown, or a message instead).
  await frame.waitForFunction(() => document.getElementById('products')?.getAttribute('aria-busy') === 'false');
  return { page, frame, log };
}

async function shown(frame) {
  return frame.evaluate(() => ({
    heading: document.getElementById('heading').textContent,
    notice: document.getElementById('notice').textContent,
    retry: !document.getElementById('retry').hidden,
    cards: document.querySelectorAll('#products .card').length,
    images: [...document.querySelectorAll('#products .card img')].every((img) => img.complete && img.naturalWidth > 0),
    primary: document.documentElement.style.getPropertyValue('--primary'),
    text: document.body.innerText,
  }));
}

/** Words of the bridge's own error messages and codes: none may reach the visitor. */
const RAW = /CAPABILITY_NOT_GRANTED|REQUEST_FAILED|ADAPTER_UNAVAILABLE|INVALID_|TIMEOUT|Error|undefined|\[object/;

test('a fresh scaffold in the preview: settings, theme, products, cart, and every failure as friendly text', { skip: SKIP }, async (t) => {
  const { dir } = initScaffold(t, { name: 'Shelf & <Co>' });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const browser = await launchBrowser(t);
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  t.after(() => context.close());

  await t.test('it renders its settings and the theme, lists products and adds one to the cart, with no errors', async (t) => {
    const server = await startPreview(t, { projectDir: dir });
    const { page, frame, log } = await open(t, context, server);
    const view = await shown(frame);
    assert.equal(view.heading, manifest.properties.heading.default, 'the heading setting');
    assert.equal(view.cards, manifest.properties.product_count.default, 'product_count products');
    assert.equal(view.images, true, 'every product image is shown');
    assert.equal(view.notice, '');
    assert.notEqual(view.primary, '', "the store's theme is applied");
    assert.equal(await frame.title(), 'Shelf & <Co>', 'the name, escaped in the HTML, reads as given');
    assert.equal(await page.locator('#check-status').getAttribute('data-state'), 'ok', 'the preview check passes');
    await frame.locator('#products .card__add:not([disabled])').first().click();
    await page.waitForFunction(() => document.getElementById('cart-count').textContent === '1');
    await frame.waitForFunction(() => !document.getElementById('cart').hidden);
    assert.match((await shown(frame)).notice, /^Added /);
    await page.screenshot({ path: artifactPath('scaffold.png'), fullPage: true });
    assert.deepEqual(log.pageErrors, [], 'no uncaught exception');
    assert.deepEqual(log.errors, [], 'no console error');
  });

  const failures = [
    ['the catalog not granted', { deny: ['catalog.products.read'] }, { cards: 0, retry: false }],
    ['the catalog failing (REQUEST_FAILED): a retry button', { fail: ['catalog.products.read'] }, { cards: 0, retry: true }],
    ['an empty catalogue', { emptyCatalog: true }, { cards: 0, retry: false }],
    ['the theme not granted: the built-in colours stay, products still show', { deny: ['site.theme.read'] }, { cards: 4, retry: false, primary: '' }],
  ];
  for (const [what, options, expected] of failures) {
    await t.test(what, async (t) => {
      const server = await startPreview(t, { projectDir: dir, ...options });
      const { frame, log } = await open(t, context, server);
      const view = await shown(frame);
      assert.equal(view.cards, expected.cards);
      assert.equal(view.retry, expected.retry);
      if ('primary' in expected) assert.equal(view.primary, expected.primary);
      if (expected.cards === 0) assert.ok(view.notice.length > 10, `a message for the visitor: "${view.notice}"`);
      assert.doesNotMatch(view.text, RAW, 'no raw error reaches the visitor');
      assert.deepEqual(log.pageErrors, []);
      assert.deepEqual(log.errors, []);
    });
  }

  await t.test('adding to the cart when cart.manage is not granted says so, without a raw error', async (t) => {
    const server = await startPreview(t, { projectDir: dir, deny: ['cart.manage'] });
    const { page, frame, log } = await open(t, context, server);
    await frame.locator('#products .card__add:not([disabled])').first().click();
    await frame.waitForFunction(() => document.getElementById('notice').textContent !== '');
    const view = await shown(frame);
    assert.ok(view.notice.length > 10, view.notice);
    assert.doesNotMatch(view.text, RAW);
    assert.equal(await page.locator('#cart-count').textContent(), '0', 'nothing was added');
    // A failing call (--fail) gives the visitor text, never the code.
    const failing = await startPreview(t, { projectDir: dir, fail: ['cart.manage'] });
    const second = await open(t, context, failing);
    await second.frame.locator('#products .card__add:not([disabled])').first().click();
    await second.frame.waitForFunction(() => document.getElementById('notice').textContent !== '');
    assert.doesNotMatch((await shown(second.frame)).text, RAW);
    assert.deepEqual([...log.pageErrors, ...second.log.pageErrors], []);
    assert.deepEqual([...log.errors, ...second.log.errors], []);
  });
});
