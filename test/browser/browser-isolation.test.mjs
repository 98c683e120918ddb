// Contract rule 5 in the real frame: "The frame cannot reach the network, the application
// session, storage, the parent page DOM, forms, nested frames, workers, plug-ins, popups,
// top-level navigation or application cookies."
//
// The frame's isolation comes from the sandbox attribute (FRAME_SANDBOX), the runtime
// policy the preview serves with every frame response (D-17, D-25) and the host page's
// own policy. So the extension runs through the preview server exactly as users get it,
// in Chromium, and the bridge probe (test/fixtures/bridge-probe) tries each rule from
// inside the frame. Each row checks what the browser told the extension's code (the JS
// error or event); the proof that nothing got out is outside the browser: a counting
// server on 127.0.0.1 that must receive no request and not one byte, plus what Playwright
// sees of the page (popups, dialogs, navigations, responses, workers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSkip, launchBrowser, openProbe, startCounter, startPreview } from '../support/browser.mjs';

const SKIP = browserSkip();

const SESSION_COOKIE = 'SESSION-COOKIE-SECRET';
const SESSION_TOKEN = 'SESSION-TOKEN-SECRET';

// ---------------------------------------------------------------------------------------
// What the extension's code must see. Each row: [attempt (ATTEMPTS in probe.js), what the
// browser must do, predicate over the probe's report {threw, value}].

const threw = (name) => (r) => r.threw === name;
const value = (expected) => (r) => r.threw === null && r.value === expected;
const anyOutcome = () => true;
/** A nested frame whose document this one cannot reach (its error page loaded, or nothing yet on a slow machine). */
const unreachableFrame = (r) => r.threw === null && /^(load|none), unreachable/.test(r.value);

const GROUPS = [
  {
    rule: 'the network',
    rows: [
      ['fetch', 'fetch rejects with TypeError (connect-src none)', threw('TypeError')],
      ['fetch-no-cors', 'a no-cors fetch rejects too', threw('TypeError')],
      ['fetch-own-server', "fetch of the preview's own origin rejects too", threw('TypeError')],
      ['xhr', 'XMLHttpRequest fires error', value('error')],
      ['websocket', 'WebSocket fires error', value('error')],
      ['event-source', 'EventSource fires error', value('error')],
      ['beacon', 'sendBeacon may queue, but nothing is sent (the counter is the proof)', anyOutcome],
      ['image', 'a remote image fires error (img-src is the base URL and data:)', value('error')],
      ['image-own-server', 'an image outside the base URL path fires error', value('error')],
      ['script', 'a remote classic script fires error', value('error')],
      ['module-script', 'a remote module script fires error', value('error')],
      ['dynamic-import', 'a remote dynamic import rejects', threw('TypeError')],
      ['stylesheet', 'a remote stylesheet fires error', value('error')],
      ['css-url', 'a remote url() in an inline style renders without loading', value('rendered')],
      ['font', 'a remote font fails to load', threw('NetworkError')],
      ['media', 'remote media fires error (media-src none)', value('error')],
      ['prefetch', 'a prefetch link fires error', value('error')],
      ['preload', 'a preload link fires error', value('error')],
      ['paint-worklet', 'a remote worklet module is refused', (r) => r.threw !== null],
    ],
  },
  {
    rule: 'the application session and cookies',
    rows: [
      ['cookie-read', 'reading document.cookie throws SecurityError (opaque origin)', threw('SecurityError')],
      ['cookie-write', 'writing document.cookie throws SecurityError', threw('SecurityError')],
      ['cookie-store', 'the Cookie Store API throws SecurityError', threw('SecurityError')],
      ['parent-cookie', "the parent page's cookies are out of reach", threw('SecurityError')],
    ],
  },
  {
    rule: 'storage',
    rows: [
      ['local-storage', 'localStorage throws SecurityError', threw('SecurityError')],
      ['session-storage', 'sessionStorage throws SecurityError', threw('SecurityError')],
      ['indexed-db', 'indexedDB throws SecurityError', threw('SecurityError')],
      ['cache-storage', 'CacheStorage throws SecurityError', threw('SecurityError')],
      ['storage-directory', 'the origin private file system throws SecurityError', threw('SecurityError')],
      ['parent-storage', "the parent page's localStorage is out of reach", threw('SecurityError')],
    ],
  },
  {
    rule: 'the parent page DOM',
    rows: [
      ['parent-document', 'parent.document throws SecurityError', threw('SecurityError')],
      ['top-document', 'top.document throws SecurityError', threw('SecurityError')],
      ['parent-location-read', "reading the parent's location throws SecurityError", threw('SecurityError')],
      ['parent-global', "the parent's globals throw SecurityError", threw('SecurityError')],
      ['frame-element', 'window.frameElement is null', value('null')],
      ['opener', 'window.opener is null', value('null')],
    ],
  },
  {
    rule: 'forms',
    rows: [
      ['form-submit', 'form.submit() is blocked (no allow-forms; form-action none)', value('returned')],
      ['form-request-submit', 'form.requestSubmit() is blocked', value('returned')],
      ['form-button', 'clicking a submit button is blocked', value('returned')],
      ['form-blank', 'a form targeting a new window is blocked', value('returned')],
      ['form-top', 'a form targeting the top window is blocked', value('returned')],
      ['form-bundle', "a form posting to the extension's own files is blocked", value('returned')],
    ],
  },
  {
    rule: 'nested frames',
    rows: [
      ['iframe-remote', 'a remote nested frame gets an unreachable error page (frame-src none)', unreachableFrame],
      ['iframe-bundle', "a nested frame of the extension's own file is refused too", unreachableFrame],
      ['iframe-data', 'a data: nested frame is refused', unreachableFrame],
      ['iframe-srcdoc', "a srcdoc nested frame's script never runs", value('none')],
      ['iframe-blank-script', 'an about:blank nested frame is another opaque origin: out of reach', threw('SecurityError')],
    ],
  },
  {
    rule: 'workers',
    rows: [
      ['worker-bundle', "a worker from the extension's own module throws SecurityError", threw('SecurityError')],
      ['worker-blob', 'a blob: worker fires error (worker-src none)', value('error')],
      ['worker-data', 'a data: worker fires error', value('error')],
      ['shared-worker', 'a shared worker throws SecurityError', threw('SecurityError')],
      ['service-worker', 'registering a service worker throws SecurityError', threw('SecurityError')],
      // worker-src does not cover worklets; script-src does (the remote one is refused under
      // "the network"). A worklet of the bundle's own code loads, and reaches nothing: its
      // global scope has no fetch, XHR, WebSocket, storage, postMessage or DOM.
      ['paint-worklet-bundle', "a paint worklet of the extension's own file loads (script-src allows the base URL)", value('undefined')],
    ],
  },
  {
    rule: 'plug-ins',
    rows: [
      ['object-remote', 'a remote <object> fires error (object-src none)', value('error')],
      ['embed-remote', 'a remote <embed> never loads', (r) => r.threw === null && r.value !== 'load'],
      ['object-bundle', "an <object> of the extension's own file fires error", value('error')],
      ['embed-bundle', "an <embed> of the extension's own file fires error", value('error')],
    ],
  },
  {
    rule: 'popups',
    rows: [
      ['window-open', 'window.open returns null (no allow-popups)', value('null')],
      ['window-open-blank', 'window.open of about:blank returns null', value('null')],
      ['link-blank', 'a target=_blank link opens nothing', value('returned')],
      ['alert', 'alert() is ignored (no allow-modals)', value('undefined')],
      ['confirm', 'confirm() answers false without a dialog', value('false')],
      ['prompt', 'prompt() answers null without a dialog', value('null')],
      ['print', 'print() is ignored', value('undefined')],
    ],
  },
  {
    rule: 'top-level navigation',
    rows: [
      ['top-location', 'assigning top.location throws SecurityError (no allow-top-navigation)', threw('SecurityError')],
      ['top-location-replace', 'top.location.replace throws SecurityError', threw('SecurityError')],
      ['parent-location', 'assigning parent.location throws SecurityError', threw('SecurityError')],
      ['link-top', 'a target=_top link navigates nothing', value('returned')],
      ['open-top', "window.open(url, '_top') returns null", value('null')],
    ],
  },
];

/** Lets anything the browser queued go out before the counter is read (a wait, not a timing assertion). */
function quiet(frame, ms = 100) {
  return frame.evaluate((wait) => new Promise((resolve) => setTimeout(resolve, wait)), ms);
}

function assertNothingReached(counter, where) {
  const seen = counter.snapshot();
  assert.deepEqual({ requests: seen.requests, bytes: seen.bytes }, { requests: [], bytes: 0 }, `${where}: the counting server received something`);
}

test('isolation: each rule of contract rule 5, tried from inside the real frame', { skip: SKIP }, async (t) => {
  const browser = await launchBrowser(t);
  const counter = await startCounter(t);
  const server = await startPreview(t);
  const context = await browser.newContext();
  t.after(() => context.close());
  // The application session: a cookie of the preview's host and a token in its storage.
  await context.addCookies([{ name: 'session', value: SESSION_COOKIE, url: server.url }]);

  await t.test('control: the counting server counts what an unsandboxed page sends', async () => {
    const page = await context.newPage();
    try {
      const response = await page.goto(`${counter.url}control`);
      assert.match(await response.text(), /counted/);
      assert.deepEqual(counter.snapshot().requests, ['GET /control HTTP/1.1']);
    } finally {
      await page.close();
      counter.reset();
    }
  });

  const requests = [];
  const { page, frame, log } = await openProbe(t, context, server, {
    beforeLoad: (p) => {
      p.on('request', (request) => requests.push(request));
    },
  });
  await page.evaluate((token) => localStorage.setItem('token', token), SESSION_TOKEN);
  const loadRequests = requests.slice();
  const hostUrl = page.url();
  const frameUrl = frame.url();
  const hostTitle = await page.title();
  const popups = [];
  context.on('page', (p) => popups.push(p.url()));
  const dialogs = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.type());
    void dialog.dismiss();
  });
  const responses = [];
  page.on('response', (response) => responses.push(response.url()));
  const targets = { remote: counter.url, bundle: `${server.url}frame/`, host: server.url };

  await t.test('control: the extension itself runs and loads its own files (so a refusal below means something)', async () => {
    const status = await frame.evaluate(() => window.probe.status());
    assert.equal(status.origin, 'null', 'the sandboxed frame has an opaque origin');
    assert.equal(status.ready.ok, true);
    assert.equal(status.util, 'util.mjs', 'its own module loaded');
    assert.equal(status.statusColor, 'rgb(1, 2, 3)', 'its own stylesheet applied');
    assert.equal(status.pixel, 1, 'its own image decoded');
    assert.equal(await frame.evaluate(() => window.probe.attempts().length), GROUPS.reduce((n, g) => n + g.rows.length, 0), 'every attempt of the probe has a row here');
  });

  for (const group of GROUPS) {
    await t.test(`the frame cannot reach ${group.rule}`, async (t) => {
      for (const [name, means, expected] of group.rows) {
        await t.test(`${name}: ${means}`, async () => {
          const result = await frame.evaluate(([attempt, where]) => window.probe.isolation(attempt, where), [name, targets]);
          assert.ok(expected(result), `${name} reported ${JSON.stringify(result)}`);
        });
      }
      await quiet(frame);
      assertNothingReached(counter, group.rule);
      assert.deepEqual(popups, [], 'no popup opened');
      assert.deepEqual(dialogs, [], 'no dialog opened');
      assert.equal(page.url(), hostUrl, 'the host page did not navigate');
      assert.equal(frame.url(), frameUrl, 'the frame did not navigate');
      assert.equal(await page.title(), hostTitle, 'the host page is untouched');
      assert.deepEqual(
        responses.filter((url) => url.includes('via=')),
        [],
        "no request for the extension's own files went out from a form, nested frame, worker or plug-in",
      );
      assert.deepEqual(page.workers(), [], 'no worker started');
    });
  }

  await t.test('the session never reaches the frame: no cookie on its document request or any request its document makes, nothing in its markup', async () => {
    // The document request too: the host page makes the frame credentialless (frame.ts
    // mountFrame), as a storefront's frame on another site would load without the store's cookies.
    const fromFrame = loadRequests.filter((r) => r.frame() === frame);
    assert.equal(fromFrame.filter((r) => r.isNavigationRequest()).length, 1, "the frame's document request was seen");
    const toHost = loadRequests.filter((r) => r.frame() === page.mainFrame() && r.isNavigationRequest());
    assert.equal((await toHost[0].allHeaders()).cookie, `session=${SESSION_COOKIE}`, 'control: the host page itself gets the cookie');
    assert.ok(fromFrame.length >= 6, `the frame's own requests were seen (${fromFrame.length})`);
    for (const request of fromFrame) {
      const headers = await request.allHeaders();
      assert.equal(headers.cookie, undefined, `${request.url()} carried a cookie`);
    }
    const markup = await frame.evaluate(() => document.documentElement.outerHTML);
    assert.ok(!markup.includes(SESSION_COOKIE) && !markup.includes(SESSION_TOKEN));
    // The frame's attempts to write wrote nothing into the host origin's storage or cookies.
    const host = await page.evaluate(async () => ({
      keys: Object.keys(localStorage),
      session: Object.keys(sessionStorage),
      cookie: document.cookie,
      databases: (await indexedDB.databases()).map((d) => d.name),
    }));
    assert.deepEqual(host, { keys: ['token'], session: [], cookie: `session=${SESSION_COOKIE}`, databases: [] });
  });

  await t.test('nothing the frame did raised an exception in the host page', () => {
    assert.deepEqual(log.pageErrors, []);
    // The console errors are the browser reporting its refusals (some attributed to the
    // top document); anything else would be the host page's code failing.
    const refusal = /Content Security Policy|sandboxed|Unsafe attempt to initiate navigation|worklet module/;
    assert.deepEqual(log.errors.filter((e) => !refusal.test(e.text)), []);
  });

  await t.test('after every attempt the counting server still has received nothing', async () => {
    await quiet(frame, 250);
    assertNothingReached(counter, 'all rules');
    t.diagnostic(`speculative connections without a byte: ${counter.snapshot().connections}`);
  });

  await t.test('the frame navigating itself to another server is refused by the host page (frame-src)', async () => {
    // Last: the probe's document is gone afterwards. A fresh page keeps the one above intact.
    const own = await openProbe(t, context, server);
    const navigated = own.page.waitForEvent('framenavigated', { predicate: (f) => f === own.frame });
    assert.equal(await own.frame.evaluate((url) => window.probe.navigateSelf(url), `${counter.url}self`), 'assigned');
    await navigated;
    assert.ok(!own.frame.url().startsWith(counter.url), `the frame shows ${own.frame.url()}, not the other server`);
    await own.page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 250)));
    assertNothingReached(counter, 'self-navigation');
    assert.equal(own.page.url(), server.url, 'the host page stayed');
    assert.ok(own.log.errors.some((e) => e.text.includes("frame-src 'self'")), "the host page's policy refused it");
  });
});
