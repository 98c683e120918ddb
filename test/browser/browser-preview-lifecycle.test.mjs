// The store's lifecycle in the preview, as a browser shows it (issue 26): `--upgrade-from`
// a packaged 1.0.0 to a project that adds a capability and retypes a property, through the
// service core (added capability off until the permission review approves it, the retyped
// setting as the service decides, one-step rollback, a revoked release not launching); the
// install prompt and live grants; a stylesheet swapped in without reloading the frame; and
// each of the ten error codes reaching the extension's code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BRIDGE_ERROR_CODE_LIST } from '../../build/validator/bridge/errors.js';
import { MAX_PENDING_CALLS } from '../../build/validator/limits.js';
import { SAMPLE_PRODUCTS } from '../../build/preview/mock-store.js';
import { browserSkip, extensionFrame, launchBrowser, startPreview, watchConsole } from '../support/browser.mjs';
import { makeProject, runCli } from '../support/project.mjs';

const SKIP = browserSkip();
const PRODUCT = SAMPLE_PRODUCTS.find((p) => p.inStock);

/** The extension's code: it records what PLATFORM.ready resolved (or rejected) with. */
const MAIN_JS = `window.__ready = PLATFORM.ready.then((r) => { window.__snapshot = r; return 'ok'; }, (e) => { window.__snapshot = null; return e.code; });\n`;

function html(version) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>t</title><link rel="stylesheet" href="style.css"><script type="module" src="main.js"></script></head><body><p id="version">${version}</p></body></html>\n`;
}

/** A call from inside the frame: 'ok' or the code it rejected with. */
function callIn(frame, body) {
  return frame.evaluate(`(async () => { try { await (${body}); return 'ok'; } catch (e) { return e.code; } })()`);
}

/** The frame, once its document at a URL matching `url` has PLATFORM.ready settled. */
async function settledFrame(page, url) {
  const frame = await extensionFrame(page);
  await frame.waitForURL(url);
  await frame.waitForFunction(() => window.__snapshot !== undefined, null, { polling: 20 });
  return frame;
}

/** Runs `action`, which reloads the frame, and returns the frame once the new document has settled PLATFORM.ready. */
async function reloaded(page, url, action) {
  const old = await extensionFrame(page);
  await old.evaluate(() => {
    window.__old = true;
  });
  await action();
  const frame = await extensionFrame(page);
  await frame.waitForFunction(() => window.__old === undefined && window.__snapshot !== undefined, null, { polling: 20 });
  await frame.waitForURL(url);
  return frame;
}

test('the store lifecycle in the preview', { skip: SKIP }, async (t) => {
  const browser = await launchBrowser(t);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  t.after(() => context.close());

  await t.test('--upgrade-from a packaged 1.0.0: added capability off until approved, retyped setting, roll back, revoke', async (t) => {
    const v1 = makeProject(t, {
      manifest: {
        version: '1.0.0',
        capabilities: ['catalog.products.read'],
        properties: { heading: { type: 'text', label: 'Heading', default: 'Deals' }, columns: { type: 'text', label: 'Columns', default: 'three' } },
      },
      files: { 'runtime/index.html': html('1.0.0'), 'runtime/main.js': MAIN_JS, 'runtime/style.css': 'p { color: rgb(1, 1, 1); }\n' },
    });
    const keys = mkdtempSync(join(tmpdir(), 'platform-ext-keys-'));
    t.after(() => rmSync(keys, { recursive: true, force: true }));
    assert.equal(runCli(['keygen', '--private-key', join(keys, 'k.pem'), '--public-key', join(keys, 'k.pub')]).status, 0);
    const release = join(keys, 'release');
    const packaged = runCli(['package', v1, '--out', release, '--private-key', join(keys, 'k.pem')]);
    assert.equal(packaged.status, 0, packaged.stderr);

    // 1.1.0 adds cart.manage and retypes `columns` from text to a number.
    const v2 = makeProject(t, {
      manifest: {
        version: '1.1.0',
        capabilities: ['cart.manage', 'catalog.products.read'],
        properties: { heading: { type: 'text', label: 'Heading', default: 'Deals' }, columns: { type: 'number', label: 'Columns', default: 4, min: 1, max: 6 } },
      },
      files: { 'runtime/index.html': html('1.1.0'), 'runtime/main.js': MAIN_JS, 'runtime/style.css': 'p { color: rgb(2, 2, 2); }\n' },
    });
    const server = await startPreview(t, { projectDir: v2, upgradeFrom: release });
    const page = await context.newPage();
    t.after(() => page.close());
    const log = watchConsole(page);
    await page.goto(server.url);

    // First the previous release, from its bundle.zip, with its settings as the store saved them.
    let frame = await settledFrame(page, /\/previous\/index\.html$/);
    assert.equal(await frame.evaluate(() => document.getElementById('version').textContent), '1.0.0');
    assert.deepEqual(await frame.evaluate(() => window.__snapshot), { capabilities: ['catalog.products.read'], settings: { heading: 'Deals', columns: 'three' } });
    assert.equal(await callIn(frame, "PLATFORM.cart.manage('add', { productId: 1, quantity: 1 })"), 'CAPABILITY_NOT_GRANTED');

    frame = await reloaded(page, /\/frame\/index\.html$/, () => page.click('#store-upgrade'));
    assert.equal(await frame.evaluate(() => document.getElementById('version').textContent), '1.1.0');
    // The service's decision: the text value no longer fits the number property, so the frame gets its default.
    assert.deepEqual(await frame.evaluate(() => window.__snapshot), { capabilities: ['catalog.products.read'], settings: { heading: 'Deals', columns: 4 } });
    const report = await page.$$eval('#store-report li', (items) => items.map((li) => [li.dataset.capability ?? li.dataset.setting, li.dataset.outcome]));
    assert.deepEqual(report, [['cart.manage', 'added'], ['heading', 'kept'], ['columns', 'rejected']]);
    const add = `PLATFORM.cart.manage('add', { productId: ${PRODUCT.id}, quantity: 1 })`;
    assert.equal(await callIn(frame, add), 'CAPABILITY_NOT_GRANTED');
    assert.equal(await callIn(frame, 'PLATFORM.catalog.products()'), 'ok');

    // The permission review approves it: the running frame's next call succeeds.
    await page.click('[data-approve="cart.manage"]');
    await frame.waitForFunction(() => PLATFORM.capabilities().includes('cart.manage'));
    assert.equal(await callIn(frame, add), 'ok');
    // Revoked and approved again while the frame runs (the Capabilities panel).
    await page.uncheck('input[data-grant="cart.manage"]');
    await frame.waitForFunction(() => !PLATFORM.capabilities().includes('cart.manage'));
    assert.equal(await callIn(frame, add), 'CAPABILITY_NOT_GRANTED');
    await page.check('input[data-grant="cart.manage"]');
    await frame.waitForFunction(() => PLATFORM.capabilities().includes('cart.manage'));
    assert.equal(await callIn(frame, add), 'ok');

    // One step back: 1.0.0 runs again, with the value saved for it.
    frame = await reloaded(page, /\/previous\/index\.html$/, () => page.click('#store-rollback'));
    assert.equal(await frame.evaluate(() => document.getElementById('version').textContent), '1.0.0');
    assert.deepEqual(await frame.evaluate(() => window.__snapshot.settings), { heading: 'Deals', columns: 'three' });

    // A revoked release does not launch; the page says what the store shows.
    await page.click('#store-revoke-release');
    await page.waitForSelector('#store-refusal');
    assert.equal(await page.getAttribute('#store-refusal', 'data-code'), 'service/release-revoked');
    assert.equal(await page.locator('#frame-slot iframe').count(), 0);
    // Installed afresh it runs again, until the publisher is revoked.
    await page.click('#store-reinstall');
    await page.click('#install-approve');
    frame = await settledFrame(page, /\/previous\/index\.html$/);
    assert.equal(await frame.evaluate(() => document.getElementById('version').textContent), '1.0.0');
    await page.click('#store-revoke-publisher');
    await page.waitForSelector('#store-refusal[data-code="service/publisher-revoked"]');
    assert.equal(await page.locator('#frame-slot iframe').count(), 0);
    assert.deepEqual(log.pageErrors, []);
  });

  await t.test('the install prompt on Reinstall; a stylesheet change applied without reloading the frame', async (t) => {
    const dir = makeProject(t, {
      manifest: { capabilities: ['catalog.products.read', 'site.theme.read'] },
      files: { 'runtime/index.html': html('1.0.0'), 'runtime/main.js': MAIN_JS, 'runtime/style.css': 'p { color: rgb(1, 2, 3); }\n' },
    });
    const server = await startPreview(t, { projectDir: dir });
    const page = await context.newPage();
    t.after(() => page.close());
    await page.goto(server.url);
    let frame = await settledFrame(page, /\/frame\/index\.html$/);
    // Approving everything is the default: no prompt on opening.
    assert.equal(await page.locator('#install-prompt').isHidden(), true);
    assert.deepEqual(await frame.evaluate(() => window.__snapshot.capabilities), ['catalog.products.read', 'site.theme.read']);

    await page.click('#store-reinstall');
    assert.equal(await page.locator('#install-prompt').isVisible(), true);
    const items = await page.$$eval('#install-list .install-item', (list) => list.map((li) => [li.querySelector('input').dataset.capability, li.querySelector('.capability__risk').textContent, li.querySelector('.panel__help').textContent.length > 20]));
    assert.deepEqual(items, [['catalog.products.read', 'low risk', true], ['site.theme.read', 'low risk', true]]);
    await page.uncheck('#install-list input[data-capability="site.theme.read"]');
    frame = await reloaded(page, /\/frame\/index\.html$/, () => page.click('#install-approve'));
    assert.deepEqual(await frame.evaluate(() => window.__snapshot.capabilities), ['catalog.products.read']);
    assert.equal(await callIn(frame, 'PLATFORM.theme.read()'), 'CAPABILITY_NOT_GRANTED');

    // Live CSS: the extension's state survives a stylesheet change.
    await frame.evaluate(() => {
      window.__state = 'kept';
    });
    assert.equal(await frame.evaluate(() => getComputedStyle(document.getElementById('version')).color), 'rgb(1, 2, 3)');
    writeFileSync(join(dir, 'runtime/style.css'), 'p { color: rgb(9, 8, 7); }\n');
    server.refresh();
    await frame.waitForFunction(() => getComputedStyle(document.getElementById('version')).color === 'rgb(9, 8, 7)', null, { polling: 20 });
    assert.equal(await frame.evaluate(() => window.__state), 'kept', 'the frame was not reloaded');
    await page.waitForSelector('#frame-note[data-kind="swapped"]');
    // Any other change reloads the frame, and the page says so.
    frame = await reloaded(page, /\/frame\/index\.html$/, async () => {
      writeFileSync(join(dir, 'runtime/main.js'), `${MAIN_JS}// changed\n`);
      server.refresh();
    });
    await page.waitForSelector('#frame-note[data-kind="reloaded"]');
    assert.equal(await frame.evaluate(() => window.__state), undefined);
  });

  await t.test('each of the ten error codes, on demand, reaches the extension', async (t) => {
    const dir = makeProject(t, {
      manifest: { capabilities: ['booking.availability.read', 'booking.create', 'cart.manage', 'catalog.products.read', 'communications.sms.open', 'forms.submit', 'site.theme.read', 'waivers.start'] },
      files: { 'runtime/index.html': html('1.0.0'), 'runtime/main.js': MAIN_JS, 'runtime/style.css': 'p {}\n' },
    });
    const server = await startPreview(t, {
      projectDir: dir,
      deny: ['site.theme.read'],
      fail: ['forms.submit'],
      failCodes: {
        'cart.manage': 'ADAPTER_UNAVAILABLE',
        'catalog.products.read': 'REQUEST_TIMEOUT',
        'booking.availability.read': 'INVALID_REQUEST',
        'booking.create': 'PAYLOAD_TOO_LARGE',
        'waivers.start': 'PAYLOAD_TOO_COMPLEX',
      },
    });
    const page = await context.newPage();
    t.after(() => page.close());
    await page.goto(server.url);
    await settledFrame(page, /\/frame\/index\.html$/);
    // The page's short clock, so that the timeouts come in 2 s, as the page states.
    let frame = await reloaded(page, /clock=short$/, () => page.check('#mode-short-clock'));
    assert.match(await page.textContent('#clock-note'), /2,000 ms/);

    const seen = {};
    seen.CAPABILITY_NOT_GRANTED = await callIn(frame, 'PLATFORM.theme.read()');
    seen.ADAPTER_UNAVAILABLE = await callIn(frame, "PLATFORM.cart.manage('add', { productId: 1, quantity: 1 })");
    seen.REQUEST_TIMEOUT = await callIn(frame, 'PLATFORM.catalog.products()');
    seen.INVALID_REQUEST = await callIn(frame, "PLATFORM.booking.availability({ laneId: 1, date: '2030-01-01', durationMinutes: 60 })");
    seen.PAYLOAD_TOO_LARGE = await callIn(frame, 'PLATFORM.booking.start({})');
    seen.PAYLOAD_TOO_COMPLEX = await callIn(frame, "PLATFORM.waivers.start('range')");
    seen.REQUEST_FAILED = await callIn(frame, "PLATFORM.forms.submit('newsletter', { email: 'a@example.com' })");
    // A value that cannot cross the bridge: the frame's own check.
    seen.INVALID_PAYLOAD = await callIn(frame, "PLATFORM.request('communications.sms.open', 'open', { message: () => 1 })");
    // Held answers: 64 calls stay pending, the 65th is refused by the frame.
    await page.check('#mode-hold');
    seen.TOO_MANY_REQUESTS = await frame.evaluate(async (max) => {
      const held = [];
      for (let i = 0; i < max; i++) held.push(PLATFORM.communications.text('hi').catch((e) => e.code));
      try {
        await PLATFORM.communications.text('hi');
        return 'ok';
      } catch (e) {
        return e.code;
      }
    }, MAX_PENDING_CALLS);
    await page.uncheck('#mode-hold');
    // No channel: the handshake times out.
    frame = await reloaded(page, /clock=short$/, () => page.check('#mode-no-channel'));
    seen.INITIALIZATION_TIMEOUT = await frame.evaluate(() => window.__ready);
    for (const code of BRIDGE_ERROR_CODE_LIST) assert.equal(seen[code], code, code);
    assert.equal(Object.keys(seen).length, 10);
  });
});
