// The preview as a browser sees it (D-25). test/preview/preview-server.test.mjs covers the server
// at the HTTP level with hand-written requests; this file adds what only a browser shows:
// the example extension running without an error, the headers on every response the
// browser actually fetched, MIME types enforced (nosniff), a DNS-rebinding name that
// Chromium itself resolves to loopback, loopback-only binding, what the URL parser does to
// traversal attempts before the server sees them, and the findings overlay on a broken save.
// A screenshot of the example is written to test-artifacts/preview.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostPagePolicy, scriptHash } from '../../build/preview/server.js';
import { runtimePolicy } from '../../build/validator/runtime-policy.js';
import {
  EXAMPLE_DIR,
  PROBE_DIR,
  artifactPath,
  browserSkip,
  extensionFrame,
  launchBrowser,
  openProbe,
  previewAssets,
  startPreview,
  watchConsole,
} from '../support/browser.mjs';
import { makeProject } from '../support/project.mjs';

const SKIP = browserSkip();
const NOTES_SECRET = 'PROJECT-NOTES-SECRET';
const OUTSIDE_SECRET = 'OUTSIDE-PROJECT-SECRET';

/** A copy of the probe project inside a parent folder, with a file beside the bundle and one outside the project. */
function probeCopy(t) {
  const parent = mkdtempSync(join(tmpdir(), 'platform-ext-browser-'));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const dir = join(parent, 'probe');
  cpSync(PROBE_DIR, dir, { recursive: true });
  writeFileSync(join(dir, 'notes.txt'), `${NOTES_SECRET}\n`);
  writeFileSync(join(parent, 'secret.txt'), `${OUTSIDE_SECRET}\n`);
  return dir;
}

/** Content-Type by extension, as D-25 and the Bundle table want them. */
const TYPES = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', mjs: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', png: 'image/png' };

test('the preview in Chromium: the example, D-25 as the browser sees it, traversal, Host, loopback, watch', { skip: SKIP }, async (t) => {
  const browser = await launchBrowser(t);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  t.after(() => context.close());

  await t.test('a fresh examples/hello-world previews with no errors, renders its products, and is captured in test-artifacts/preview.png', async (t) => {
    const server = await startPreview(t, { projectDir: EXAMPLE_DIR });
    const page = await context.newPage();
    t.after(() => page.close());
    const log = watchConsole(page);
    await page.goto(server.url);
    const frame = await extensionFrame(page);
    await frame.waitForFunction(() => document.querySelectorAll('#products .card').length > 0 && document.getElementById('status').textContent === '');
    const shown = await frame.evaluate(() => ({
      heading: document.getElementById('heading').textContent,
      cards: [...document.querySelectorAll('#products .card')].map((card) => ({
        name: card.querySelector('h3').textContent,
        price: card.querySelector('.card__price').textContent,
        image: card.querySelector('img').complete && card.querySelector('img').naturalWidth > 0,
      })),
      logo: document.querySelector('.strip__logo').naturalWidth > 0,
    }));
    const manifest = JSON.parse(readFileSync(join(EXAMPLE_DIR, 'manifest.json'), 'utf8'));
    assert.equal(shown.heading, manifest.properties.heading.default);
    assert.equal(shown.cards.length, manifest.properties.product_count.default);
    for (const card of shown.cards) {
      assert.ok(card.name.length > 0);
      assert.match(card.price, /^\$\d/);
      assert.equal(card.image, true, `${card.name}: its image is shown`);
    }
    assert.equal(shown.logo, true, "the bundle's own image is shown");
    assert.equal(await page.locator('#check-status').getAttribute('data-state'), 'ok');
    assert.equal(await page.locator('#findings').isHidden(), true);
    // Adding to the cart goes through the bridge and the host page's cart follows.
    await frame.locator('#products .card button:not([disabled])').first().click();
    await page.waitForFunction(() => document.getElementById('cart-count').textContent === '1');
    await frame.waitForFunction(() => document.getElementById('status').textContent.startsWith('Added.'));
    assert.deepEqual(log.pageErrors, [], 'no uncaught exception in the page or the frame');
    assert.deepEqual(log.errors, [], 'no console error in the page or the frame');
    const file = artifactPath('preview.png');
    await page.screenshot({ path: file, fullPage: true });
    assert.deepEqual([...readFileSync(file).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG was written');
  });

  const dir = probeCopy(t);
  const server = await startPreview(t, { projectDir: dir, watch: true });
  const frameBase = `${server.url}frame/`;
  // Every path sits below the run's token (D-32): `base` is `/<token>`.
  const base = new URL(server.url).pathname.slice(0, -1);
  const unbased = (pathname) => (pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : pathname);

  await t.test('every response the browser fetched carries the headers of D-25, and the browser enforces the MIME types', async (t) => {
    const responses = [];
    const { frame, log } = await openProbe(t, context, server, {
      beforeLoad: (page) => page.on('response', (response) => responses.push(response)),
    });
    const paths = responses.map((r) => unbased(new URL(r.url()).pathname)).sort();
    for (const expected of ['/', '/page.js', '/page.css', '/events', '/frame/index.html', '/frame/.platform/runtime.js', '/frame/probe.js', '/frame/lib/util.mjs', '/frame/probe.css', '/frame/pixel.png']) {
      assert.ok(paths.includes(expected), `the browser fetched ${expected}`);
    }
    for (const response of responses) {
      const url = new URL(response.url());
      const headers = await response.allHeaders();
      const where = unbased(url.pathname);
      assert.equal(response.status(), 200, where);
      assert.equal(headers['x-content-type-options'], 'nosniff', where);
      assert.equal(headers['cache-control'], 'no-store', where);
      if (where.startsWith('/frame/')) {
        assert.equal(headers['content-security-policy'], runtimePolicy(frameBase), where);
        assert.equal(headers['access-control-allow-origin'], '*', where);
        assert.equal(headers['content-type'], TYPES[where.split('.').pop()], where);
      } else {
        assert.equal(headers['content-security-policy'], hostPagePolicy(scriptHash((await previewAssets()).bootJs)), where);
        assert.equal(headers['x-frame-options'], 'DENY', where);
      }
    }
    // The types take effect: the stylesheet applies, both module files run, the image decodes.
    const status = await frame.evaluate(() => window.probe.status());
    assert.deepEqual([status.statusColor, status.util, status.pixel], ['rgb(1, 2, 3)', 'util.mjs', 1]);
    // nosniff: a bundle file of another type is never run as script.
    const asScript = await frame.evaluate(
      () =>
        new Promise((resolve) => {
          const script = document.createElement('script');
          script.src = 'probe.css';
          script.onload = () => resolve('load');
          script.onerror = () => resolve('error');
          document.body.append(script);
        }),
    );
    assert.equal(asScript, 'error');
    assert.ok(log.errors.some((e) => /MIME type \('text\/css'\)/.test(e.text)), 'refused for its MIME type');
  });

  await t.test('a foreign name that Chromium resolves to loopback (DNS rebinding) gets 421 and nothing of the preview', async (t) => {
    const page = await context.newPage();
    t.after(() => page.close());
    for (const path of ['/', '/frame/index.html', '/frame/.platform/runtime.js', '/state.json']) {
      const response = await page.goto(`http://rebind.localhost:${server.port}${base}${path}`);
      assert.equal(response.status(), 421, path);
      const body = await response.text();
      assert.ok(!/Bridge probe|PLATFORM|Northfield|revision/.test(body), `${path}: nothing of the preview in "${body}"`);
    }
  });

  await t.test('loopback only: IPv6 loopback and other interfaces refuse the connection; localhost reaches 127.0.0.1 and the extension runs', async (t) => {
    const page = await context.newPage();
    t.after(() => page.close());
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && !a.internal && a.family === 'IPv4')
      .map((a) => a.address);
    for (const host of ['[::1]', ...others]) {
      await assert.rejects(page.goto(`http://${host}:${server.port}/`), /ERR_CONNECTION_REFUSED|ERR_ADDRESS_UNREACHABLE/, host);
    }
    const viaLocalhost = await context.newPage();
    t.after(() => viaLocalhost.close());
    await viaLocalhost.goto(`http://localhost:${server.port}${base}/`);
    const frame = await extensionFrame(viaLocalhost);
    await frame.waitForFunction(() => window.probe?.status().ready.settled === true, null, { polling: 20 });
    const status = await frame.evaluate(() => ({ ready: window.probe.status().ready.ok, config: document.querySelector('meta[name="platform-config"]').content }));
    assert.equal(status.ready, true);
    assert.equal(JSON.parse(status.config).parentOrigin, `http://localhost:${server.port}`, 'the parent origin follows the name the browser used');
  });

  await t.test('traversal as a browser sends it: the URL parser resolves dot segments first, the server refuses the rest', async (t) => {
    const page = await context.newPage();
    t.after(() => page.close());
    // [typed path, path the browser sends, status]
    const rows = [
      ['/frame/../notes.txt', '/notes.txt', 404],
      ['/frame/%2e%2e/notes.txt', '/notes.txt', 404],
      ['/frame/.%2E/notes.txt', '/notes.txt', 404],
      ['/frame/..\\notes.txt', '/notes.txt', 404],
      ['/frame/../../secret.txt', '/secret.txt', 404],
      ['/frame/..%2fnotes.txt', '/frame/..%2fnotes.txt', 404],
      ['/frame/..%5cnotes.txt', '/frame/..%5cnotes.txt', 404],
      ['/frame/%252e%252e/notes.txt', '/frame/%252e%252e/notes.txt', 404],
      ['/frame/probe.js%00.png', '/frame/probe.js%00.png', 404],
      ['/frame/lib/../probe.js', '/frame/probe.js', 200],
      ['/frame/lib/%2e%2e/probe.js', '/frame/probe.js', 200],
    ];
    for (const [typed, sent, status] of rows) {
      const response = await page.goto(`http://127.0.0.1:${server.port}${base}${typed}`);
      // Two dot-dot segments climb above the token too.
      assert.equal(new URL(response.request().url()).pathname, sent === '/secret.txt' ? sent : base + sent, typed);
      assert.equal(response.status(), status, typed);
      const body = await response.text();
      assert.ok(!body.includes(NOTES_SECRET) && !body.includes(OUTSIDE_SECRET), `${typed} leaked a file outside the bundle`);
    }
  });

  await t.test("the frame is in the served page and starts loading before the page's script; a load that comes first is not missed", async (t) => {
    const page = await context.newPage();
    t.after(() => page.close());
    const log = watchConsole(page);
    // Hold the page's script until the frame has loaded: the order a slow page.js gives.
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await page.route('**/page.js', async (route) => {
      await held;
      await route.continue();
    });
    const navigated = page.waitForEvent('framenavigated', { predicate: (f) => f.url().includes('/frame/') });
    await page.goto(server.url, { waitUntil: 'commit' });
    const frame = await navigated;
    await frame.waitForLoadState('load');
    assert.equal(await page.locator('#frame-slot iframe').getAttribute('data-loaded'), 'true', 'the boot script saw the load');
    assert.equal(await frame.evaluate(() => window.probe.status().ready.settled), false, 'no handshake yet: the host bridge is in page.js');
    release();
    await frame.waitForFunction(() => window.probe?.status().ready.settled === true, null, { polling: 20 });
    assert.equal(await frame.evaluate(() => window.probe.status().ready.ok), true, 'page.js took the loaded frame over and started the bridge');
    assert.equal(await page.locator('#frame-slot iframe').count(), 1, 'the same frame, not a second one');
    const answer = await frame.evaluate(() => window.probe.method('catalog.products', { search: 'bow' }));
    assert.equal(answer.ok, true);
    assert.deepEqual(log.pageErrors, []);
  });

  await t.test('the call log counts every call, shows the newest ones up to its bound, and opens an entry to its payload and answer', async (t) => {
    const { page, frame } = await openProbe(t, context, server);
    await page.waitForSelector('#log:not([aria-busy])', { state: 'attached' });
    const max = Number(await page.locator('#log').getAttribute('data-max'));
    const before = Number(await page.locator('#log-count').textContent());
    const calls = max + 50;
    // One burst, as a busy extension makes them: the page renders it in batches.
    await frame.evaluate(async (n) => {
      const all = [];
      for (let i = 0; i < n; i++) {
        all.push(window.PLATFORM.analytics.track(`burst_${i}`, { value: i }));
        if (all.length === 60) await Promise.all(all.splice(0));
      }
      await Promise.all(all);
    }, calls);
    await page.waitForFunction((total) => document.getElementById('log-count').textContent === String(total) && !document.getElementById('log').hasAttribute('aria-busy'), before + calls);
    assert.equal(await page.locator('#log .log-entry').count(), max, 'the DOM holds the bound, not every call');
    assert.equal(await page.locator('#log-more').isHidden(), false);
    assert.match(await page.locator('#log-more').textContent(), new RegExp(`\\b${before + calls - max}\\b`), 'the calls not shown are counted');
    const newest = page.locator('#log .log-entry').first();
    assert.equal(await newest.locator('pre').count(), 0, 'payloads are not formatted until asked for');
    await newest.locator('.log-entry__head').click();
    assert.equal(await newest.locator('.log-entry__head').getAttribute('aria-expanded'), 'true');
    assert.match(await newest.locator('pre').first().textContent(), new RegExp(`burst_${calls - 1}`), 'the newest call is first');
    assert.match(await newest.locator('pre').nth(1).textContent(), /"tracked": true/);
    await newest.locator('.log-entry__head').click();
    assert.equal(await newest.locator('pre').first().isHidden(), true, 'a second click closes it');
  });

  await t.test('log entries reused for newer calls show those calls, closed, in order (a partial and a whole-list render)', async (t) => {
    const { page, frame } = await openProbe(t, context, server);
    await page.waitForSelector('#log:not([aria-busy])', { state: 'attached' });
    const max = Number(await page.locator('#log').getAttribute('data-max'));
    async function burst(prefix, n) {
      const before = Number(await page.locator('#log-count').textContent());
      await frame.evaluate(
        async ({ prefix, n }) => {
          const all = [];
          for (let i = 0; i < n; i++) {
            all.push(window.PLATFORM.analytics.track(`${prefix}_${i}`, { value: i }));
            if (all.length === 60) await Promise.all(all.splice(0));
          }
          await Promise.all(all);
        },
        { prefix, n },
      );
      await page.waitForFunction((total) => document.getElementById('log-count').textContent === String(total) && !document.getElementById('log').hasAttribute('aria-busy'), before + n);
    }
    async function payloadAt(index) {
      const entry = page.locator('#log .log-entry').nth(index);
      await entry.locator('.log-entry__head').click();
      const text = await entry.locator('pre').first().textContent();
      await entry.locator('.log-entry__head').click();
      return text;
    }
    const entries = page.locator('#log .log-entry');
    await burst('first', max);
    // The oldest entry, opened: the next render reuses it for the newest call.
    await entries.nth(max - 1).locator('.log-entry__head').click();
    assert.equal(await entries.nth(max - 1).locator('.log-entry__head').getAttribute('aria-expanded'), 'true');
    await burst('second', 10);
    assert.equal(await entries.count(), max);
    assert.equal(await page.locator('#log .log-entry__details').count(), 0, 'the reused entry lost the details of the call it showed before');
    assert.equal(await page.locator('#log [aria-expanded="true"]').count(), 0);
    assert.match(await payloadAt(0), /"second_9"/, 'newest first');
    assert.match(await payloadAt(9), /"second_0"/);
    assert.match(await payloadAt(10), new RegExp(`"first_${max - 1}"`), 'the older calls follow');
    assert.match(await payloadAt(max - 1), /"first_10"/);
    // A burst that replaces the whole list: each element is rewritten where it stands.
    await entries.nth(3).locator('.log-entry__head').click();
    await burst('third', max + 5);
    assert.equal(await entries.count(), max);
    assert.equal(await page.locator('#log .log-entry__details').count(), 0);
    assert.equal(await page.locator('#log [aria-expanded="true"]').count(), 0);
    for (const index of [0, 3, max - 1]) assert.match(await payloadAt(index), new RegExp(`"third_${max + 4 - index}"`));
    assert.equal(await page.locator('#log .log-entry__outcome[data-outcome="ok"]').count(), max);
  });

  await t.test('a broken save shows the findings over the frame; the fix brings the extension back with the change', async (t) => {
    const { page, frame } = await openProbe(t, context, server);
    const index = join(dir, 'runtime/index.html');
    const original = readFileSync(index, 'utf8');
    const marker = (text) => original.replace('<p id="status">', `<p id="marker">${text}</p><p id="status">`);
    writeFileSync(index, marker('broken').replace('</body>', '<script>alert(1)</script></body>'));
    // Waits for this save's finding (not just any error state: a check could catch the file half written).
    await page.waitForFunction(
      () => !document.getElementById('findings').hidden && [...document.querySelectorAll('#findings-list .finding__rule')].some((e) => e.textContent === 'html/inline-script'),
    );
    assert.equal(await page.locator('#check-status').getAttribute('data-state'), 'errors');
    assert.equal(await page.locator('#frame-slot iframe').count(), 0, 'a broken extension is not shown');
    assert.ok(frame.isDetached(), 'the old frame is gone');
    const direct = await page.context().request.get(`${frameBase}index.html`);
    assert.equal(direct.status(), 503, 'nor served');

    writeFileSync(index, marker('fixed'));
    await page.waitForFunction(() => document.getElementById('findings').hidden);
    const fresh = await extensionFrame(page);
    // The marker is parsed before the probe's module runs: both are waited for.
    await fresh.waitForFunction(() => document.getElementById('marker')?.textContent === 'fixed' && window.probe?.status().ready.ok === true, null, { polling: 20 });
    assert.equal(await page.locator('#check-status').getAttribute('data-state'), 'warnings', 'the probe has warnings only');
  });
});

test('the check status counts warnings that platform-ext.config.json acknowledges (D-33), as check does', { skip: SKIP }, async (t) => {
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>t</title><script type="module" src="main.js"></script></head><body></body></html>\n';
  const entry = { rule: 'bundle/unreferenced-module', file: 'runtime/extra.js', reason: 'loaded by a later release' };
  const dir = makeProject(t, {
    files: {
      'runtime/index.html': html,
      'runtime/main.js': 'export {};\n',
      'runtime/extra.js': 'export const unused = 1;\n', // loaded by nothing: one warning
      'platform-ext.config.json': JSON.stringify({ acknowledged: [entry] }),
    },
  });
  const browser = await launchBrowser(t);
  const server = await startPreview(t, { projectDir: dir });
  const page = await browser.newPage();
  t.after(() => page.close());
  await page.goto(server.url);
  const status = page.locator('#check-status');
  await page.waitForFunction(() => document.getElementById('check-status').dataset.state !== undefined);
  assert.equal(await status.getAttribute('data-state'), 'ok');
  assert.equal(await status.textContent(), 'No problems, 1 acknowledged');
  assert.equal(await page.locator('#warnings-note').isVisible(), false, 'no warnings note for an acknowledged warning');
});
