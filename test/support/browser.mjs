// Shared set-up for the browser tests (test/browser-*.test.mjs) and bench/bridge.mjs:
// Debian's Chromium driven by playwright-core, the preview server started exactly as the
// CLI starts it (with the browser bundles built from source), a counting server that
// stands for "the network", and the bridge probe fixture.
//
// Chromium missing: the tests fail with a message saying what to install, unless
// PLATFORM_EXT_SKIP_BROWSER=1 is set, in which case they skip with that reason.
// Everything opened here is closed by the test that opened it (t.after).
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const LAUNCH_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Recent Chromium loads its omnibox pop-up (chrome://omnibox-popup.top-chrome, a WebUI
  // page in a renderer of its own) for every new window, which is every newPage() here:
  // about 0.6 s of CPU each time on a 2-core machine, competing with the page under test
  // (bench/bridge.mjs measured it during preview's cold start). Headless tests never open
  // the omnibox. Names Chromium does not know are ignored.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup',
]);
export const SKIP_VARIABLE = 'PLATFORM_EXT_SKIP_BROWSER';
export const PROBE_DIR = join(ROOT, 'test/fixtures/bridge-probe');
export const EXAMPLE_DIR = join(ROOT, 'examples/hello-world');
export const ARTIFACTS_DIR = join(ROOT, 'test-artifacts');

/**
 * The `skip` option for the browser tests: a reason only when Chromium is missing and
 * PLATFORM_EXT_SKIP_BROWSER=1 says to skip; otherwise false (a missing Chromium then
 * fails in launchBrowser with a clear message).
 */
export function browserSkip() {
  if (existsSync(CHROMIUM_PATH)) return false;
  if (process.env[SKIP_VARIABLE] === '1') return `Chromium is not installed at ${CHROMIUM_PATH} and ${SKIP_VARIABLE}=1`;
  return false;
}

/** Launches Chromium (one per test file) and closes it after the test `t`. */
export async function launchBrowser(t) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM_PATH}, which is missing: install it (Debian: "apt-get install chromium"), ` +
        `or set ${SKIP_VARIABLE}=1 to skip the browser tests`,
    );
  }
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    throw new Error('The browser tests need the dev dependency playwright-core: run "npm install"');
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...LAUNCH_ARGS] });
  t?.after(() => browser.close());
  return browser;
}

let assetsPromise = null;

/** The preview's browser code built from source, the same strings the CLI build embeds (scripts/build.mjs). */
export function previewAssets() {
  assetsPromise ??= (async () => {
    const [{ buildBridge }, { buildPage }] = await Promise.all([import('../../scripts/build-bridge.mjs'), import('../../scripts/build-page.mjs')]);
    const [bridge, page] = await Promise.all([buildBridge(ROOT), buildPage(ROOT)]);
    return Object.freeze({ runtimeJs: bridge.runtime, pageJs: page.pageJs, bootJs: page.bootJs, pageHtml: page.pageHtml, pageCss: page.pageCss });
  })();
  return assetsPromise;
}

/** A preview server on 127.0.0.1:0 for `projectDir` (default: the probe), closed after `t`. Options as createPreviewServer's. */
export async function startPreview(t, options = {}) {
  const { createPreviewServer } = await import('../../build/preview/server.js');
  const server = await createPreviewServer({
    projectDir: PROBE_DIR,
    port: 0,
    host: '127.0.0.1',
    deny: [],
    fail: [],
    emptyCatalog: false,
    watch: false,
    assets: await previewAssets(),
    ...options,
  });
  t.after(() => server.close());
  return server;
}

/**
 * "The network" for the isolation tests: a TCP server on 127.0.0.1 that records every
 * connection, every byte and every HTTP request line it receives, and answers each
 * request with a small 200 page that any origin may read (so that a request that got through
 * would also succeed). Browsers may open a speculative connection to a URL they then
 * refuse to request; such a connection carries no byte, so the proof is bytes and
 * requests, not connections.
 */
/** The counting server's answer: a page that names its own icon, so that opening it costs no favicon request. */
const COUNTER_BODY = '<!doctype html><link rel="icon" href="data:,"><p>counted</p>';

export async function startCounter(t) {
  const record = { connections: 0, bytes: 0, requests: [] };
  const sockets = new Set();
  const server = createServer((socket) => {
    record.connections++;
    sockets.add(socket);
    let text = '';
    socket.on('data', (chunk) => {
      record.bytes += chunk.length;
      text += chunk.toString('latin1');
      let end;
      while ((end = text.indexOf('\r\n\r\n')) >= 0) {
        record.requests.push(text.slice(0, text.indexOf('\r\n')));
        text = text.slice(end + 4);
        socket.write(`HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\nContent-Type: text/html\r\nContent-Length: ${COUNTER_BODY.length}\r\n\r\n${COUNTER_BODY}`);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
  t.after(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const url = `http://127.0.0.1:${server.address().port}/`;
  return {
    url,
    /** A copy of what arrived so far. */
    snapshot: () => ({ connections: record.connections, bytes: record.bytes, requests: record.requests.slice() }),
    reset() {
      record.connections = 0;
      record.bytes = 0;
      record.requests = [];
    },
  };
}

/**
 * Collects what a page says: console errors and warnings (with the URL of the document or
 * script that logged them) and uncaught exceptions, from the page and all its frames.
 */
export function watchConsole(page) {
  const log = { errors: [], pageErrors: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') log.errors.push({ text: message.text(), url: message.location().url ?? '' });
  });
  page.on('pageerror', (error) => log.pageErrors.push(String(error?.stack ?? error)));
  return log;
}

/** The extension's frame of a preview page (the frame element's frame, once attached). */
export async function extensionFrame(page) {
  const element = await page.waitForSelector('#frame-slot iframe', { state: 'attached' });
  const frame = await element.contentFrame();
  if (frame === null) throw new Error('the preview page has a frame element without a frame');
  return frame;
}

/**
 * Opens the preview page of `server` in a new page of `context`, waits until the probe in
 * the frame has settled `PLATFORM.ready`, and returns the page, the frame and the console log.
 * `beforeLoad(page)` runs before the page loads (to attach request listeners).
 */
export async function openProbe(t, context, server, { beforeLoad } = {}) {
  const page = await context.newPage();
  t.after(() => page.close());
  const log = watchConsole(page);
  await beforeLoad?.(page);
  await page.goto(server.url);
  const frame = await extensionFrame(page);
  await frame.waitForFunction(() => window.probe?.status().ready.settled === true, null, { polling: 20 });
  return { page, frame, log };
}

/** Where screenshots go: test-artifacts/ at the repository root (ignored by git). */
export function artifactPath(name) {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return join(ARTIFACTS_DIR, name);
}
