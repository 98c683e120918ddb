#!/usr/bin/env node
// Bridge and preview speed in Chromium, one run (not part of npm test; run `npm run build` first):
//   1. Round trip of a catalog call and of an analytics call through the real preview
//      (sandboxed frame -> MessagePort -> host page -> mock adapters -> back), measured in
//      the frame: p50 and p99 of sequential calls, and calls per second with up to 64 in
//      flight (the pending-call limit).   Bounds, on catalog calls as the performance issue
//      sets them (D-35): p50 <= 1 ms; calls/s >= 0.85x the peer's. Analytics calls: reported.
//      The frame runs the bundled example (examples/hello-world), as `npm start` shows it:
//      an extension whose only listener on the channel is the runtime's. (The browser
//      tests' probe extension keeps a second listener on the port to watch the protocol,
//      which is work no real extension does.)
//      Measured three ways: in the preview page as users get it (every call is also written
//      into the page's call log), with the bridge alone (the same frame, runtime, host
//      bridge and mock store under a bare host page without the preview's panels), and, as
//      the peer that says what the machine allows, a bare MessagePort echo between a page
//      and a sandboxed frame with no bridge at all (one message each way per call, as the
//      protocol has, answered with the same result). Calls per second with 64 in flight:
//      the median of PIPELINE_ROUNDS
//      rounds of [calls] calls (the best round in brackets), the rounds of the three taken
//      in turn so that load from elsewhere on a shared machine falls on all alike, each of
//      the six orders of the three in four of the turns, so that no setup always comes first
//      or always follows the same one. The share of the peer's rate, which is what the bound is
//      on (D-35), is the median over the turns of each turn's own share: a setup's round
//      against the peer's round of the same turn, a second or so apart, so that a change of
//      load between turns, which moves both alike, does not move the share (on this
//      project's shared 2-core machine the rates of one setup spread by a factor of two
//      between turns). The size of each answer is printed first: a
//      message costs more the larger it is, in every setup alike (the mock catalog's
//      default page is 5.8 KB, src/preview/mock-store.ts).
//   2. `preview` cold start: spawn `node dist/platform-ext.mjs preview <example> --port 0`,
//      read the URL it prints, load it in the already-launched browser, and stop the clock
//      when the extension's frame has rendered (its document complete and painted); also
//      shown: when its products appear. Each start is compared with a `node -e 0` run
//      just before it, and the line gives the median excess (and every start's).
//      The frame notes these times itself (RECORD_MARKS), so the harness does not poll
//      the page while it loads.                    Reported, not bounded (D-35).
//   3. Reload after a save: write a change into the project's entrypoint and time until
//      the frame shows it (watcher debounce, check, event stream, frame reload, the new
//      document painted with the change), noted by the frame in the same way.
//                                                  Reported, not bounded (D-35).
// Usage: node bench/bridge.mjs [calls] [--only calls|start|reload]
//   (default 3000 calls per measurement; --only runs one part, for working on it)
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_DIR, ROOT, launchBrowser } from '../test/support/browser.mjs';
import { MAX_PENDING_CALLS } from '../build/validator/limits.js';

const CLI = join(ROOT, 'dist/platform-ext.mjs');
const ONLY_AT = process.argv.indexOf('--only');
const ONLY = ONLY_AT < 0 ? null : process.argv[ONLY_AT + 1];
const POSITIONAL = process.argv.slice(2).filter((arg, i, all) => arg !== '--only' && all[i - 1] !== '--only');
const CALLS = Number(POSITIONAL[0] ?? 3000);
const WARM_UP_CALLS = 300;
/**
 * Turns of the pipelined measurement: each of the six orders of the three setups four times.
 * The bound is on the median of the turns' shares; the more turns, the less a burst of load
 * from elsewhere during a few of them moves it.
 */
const PIPELINE_ROUNDS = 24;
const COLD_STARTS = 7;
const RELOADS = 8;
const BOUND_P50_MS = 1;
/** D-35: the call rate with 64 in flight as a share of the bare port echo's in the same run. */
const BOUND_SHARE_OF_PEER = 0.85;
/** The calls the bounds are on (the performance issue bounds catalog calls, D-35); the other kinds are reported. */
const BOUNDED_CALLS = new Set(['catalog']);
/** Quiet time between two saves: longer than the watcher's debounce, so that each save is its own reload. */
const BETWEEN_SAVES_MS = 400;

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The median of an even count too: the mean of the two middle values (the turns' figures, PIPELINE_ROUNDS). */
function middle(values) {
  const s = [...values].sort((a, b) => a - b);
  const half = s.length / 2;
  return Number.isInteger(half) ? (s[half - 1] + s[half]) / 2 : s[Math.floor(half)];
}

function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

function verdict(ok) {
  return ok ? 'PASS' : 'FAIL';
}

function now() {
  return performance.now();
}

/** Starts `platform-ext preview <dir> --port 0`; resolves with the child and the URL once it prints one. */
function startCli(dir) {
  const child = spawn(process.execPath, [CLI, 'preview', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = / at (http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]+\/)/.exec(out); // the URL ends in its D-32 token
      if (match !== null) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`preview exited with ${code} before printing its URL: ${err}`)));
  });
}

function stopCli(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The extension's frame once the host page has mounted it. */
async function frameOf(page) {
  const element = await page.waitForSelector('#frame-slot iframe', { state: 'attached', timeout: 10_000 });
  return element.contentFrame();
}

// ---------------------------------------------------------------------------------------

/** Frame side: a warm-up, then CALLS sequential round trips; returns each one's time. */
function latencySource(call) {
  return `(async () => {
    const call = ${call};
    for (let i = 0; i < ${WARM_UP_CALLS}; i++) await call();
    const times = [];
    for (let i = 0; i < ${CALLS}; i++) {
      const t = performance.now();
      await call();
      times.push(performance.now() - t);
    }
    return times;
  })()`;
}

/** Frame side: one round of CALLS calls with up to MAX_PENDING_CALLS in flight; returns its duration. */
function roundSource(call) {
  return `(async () => {
    const call = ${call};
    const started = performance.now();
    await new Promise((resolve, reject) => {
      let launched = 0;
      let done = 0;
      let inFlight = 0;
      const pump = () => {
        while (inFlight < ${MAX_PENDING_CALLS} && launched < ${CALLS}) {
          launched++;
          inFlight++;
          call().then(() => {
            inFlight--;
            done++;
            if (done === ${CALLS}) resolve();
            else pump();
          }, reject);
        }
      };
      pump();
    });
    return performance.now() - started;
  })()`;
}

const CALLS_MEASURED = {
  catalog: '() => window.PLATFORM.catalog.products({})',
  analytics: "() => window.PLATFORM.analytics.track('bench', { label: 'round trip', value: 1 })",
};

/** The floor's calls: requests like the measured ones, answered like them, with no checks at all. */
const ECHO_CALLS = {
  catalog: "() => window.echo('catalog', {})",
  analytics: "() => window.echo('analytics', { event: 'bench', properties: { label: 'round trip', value: 1 } })",
};

/** Every order of a few items: the orders the setups take their rounds in, turn by turn. */
function orders(items) {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/**
 * Measures one kind of call in every setup: sequential latency in each, then
 * PIPELINE_ROUNDS turns, each taking one round of every setup, so that a burst of load from
 * elsewhere on the machine falls on all of them alike; each turn takes the setups in
 * another order. Prints one line per setup.
 */
async function measureCalls(name, setups) {
  const results = [];
  for (const setup of setups) results.push({ setup, times: await setup.frame.evaluate(latencySource(setup.call(name))), rounds: [] });
  const turnOrders = orders(results);
  for (let turn = 0; turn < PIPELINE_ROUNDS; turn++) {
    for (const result of turnOrders[turn % turnOrders.length]) result.rounds.push(await result.setup.frame.evaluate(roundSource(result.setup.call(name))));
  }
  const pipelinedOf = (rounds) => middle(rounds.map((ms) => (1000 * CALLS) / ms));
  // The peer's rounds, for saying how much of what the machine allows a setup reaches:
  // round i of every setup is from turn i.
  const peer = results.find((r) => !r.setup.bounded);
  const shareOf = (rounds) => (peer === undefined ? null : middle(rounds.map((ms, turn) => peer.rounds[turn] / ms)));
  for (const { setup, times, rounds } of results) {
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    const sequential = (1000 * times.length) / times.reduce((a, b) => a + b, 0);
    const perRound = rounds.map((ms) => (1000 * CALLS) / ms);
    const pipelined = pipelinedOf(rounds);
    const share = shareOf(rounds);
    const ofPeer = setup.bounded && share !== null ? `, ${share.toFixed(2)} of the peer's` : '';
    const verdicts = !setup.bounded
      ? '  [peer: no bound]'
      : BOUNDED_CALLS.has(name)
        ? `  [p50 <= ${BOUND_P50_MS} ms: ${verdict(p50 <= BOUND_P50_MS)}; >= ${BOUND_SHARE_OF_PEER}x the peer's calls/s: ${share === null ? 'no peer' : verdict(share >= BOUND_SHARE_OF_PEER)}]`
        : '  [reported, no bound: the bounds are on catalog calls]';
    console.log(
      `${`${name} round trip, ${setup.name}`.padEnd(50)} p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  ` +
        `${String(Math.round(sequential)).padStart(5)} calls/s one at a time, ${String(Math.round(pipelined)).padStart(5)} ` +
        `(best ${Math.round(Math.max(...perRound))}${ofPeer}) with ${MAX_PENDING_CALLS} in flight${verdicts}`,
    );
  }
}

/**
 * The floor: a page and a sandboxed frame that pass one message each way per call over a
 * MessagePort, with no checks, answering with the same result the mock store gives (a
 * catalog page, or `{tracked: true}`), so that the messages weigh what the bridge's do.
 */
function floorHostPage(results) {
  return `<!doctype html><meta charset="utf-8"><title>port echo</title>
<iframe id="f" sandbox="allow-scripts" src="bench-floor-frame.html"></iframe>
<script type="module">
const results = ${JSON.stringify(results).replace(/</g, '\\u003c')};
const frame = document.getElementById('f');
frame.addEventListener('load', () => {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => {
    const request = event.data;
    channel.port1.postMessage({ type: 'platform.response', id: request.id, ok: true, result: results[request.payload.kind] });
  };
  frame.contentWindow.postMessage({ type: 'platform.init', protocol: 1 }, '*', [channel.port2]);
});
</script>`;
}

const FLOOR_FRAME_PAGE = `<!doctype html><meta charset="utf-8"><script>
const waiting = new Map();
let nextId = 1;
window.addEventListener('message', (event) => {
  const port = event.ports[0];
  port.onmessage = (message) => {
    const id = message.data.id;
    const resolve = waiting.get(id);
    waiting.delete(id);
    resolve(message.data.result);
  };
  window.echo = (kind, payload) => new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    port.postMessage({ type: 'platform.request', id, capability: 'x', action: 'y', payload: { kind, ...payload } });
  });
});
</script>`;

/** The host bridge and the mock store as one browser module: the host side of the preview without its page. */
async function bareHostModule() {
  const result = await build({
    stdin: {
      contents: "export { createHostBridge } from './src/bridge/host.ts';\nexport { createMockStore } from './src/preview/mock-store.ts';\n",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/** A host page with nothing but the frame, the host bridge and the mock store (served by the browser's router). */
const BARE_HOST_PAGE = `<!doctype html><meta charset="utf-8"><title>bare host</title>
<iframe id="f" sandbox="allow-scripts" src="frame/index.html"></iframe>
<script type="module">
import { createHostBridge, createMockStore } from './bench-host.js';
const store = createMockStore();
const frame = document.getElementById('f');
const declared = ['analytics.events.write', 'cart.manage', 'catalog.products.read', 'site.theme.read'];
const bridge = createHostBridge({
  frame, frameOrigin: 'null', manifest: { capabilities: declared }, grants: () => declared, settings: () => ({}),
  adapters: store.adapters, failing: () => [], consent: () => true,
});
frame.addEventListener('load', () => bridge.start());
</script>`;

async function roundTrips(browser, dir) {
  const { child, url } = await startCli(dir);
  const pages = [];
  try {
    const page = await browser.newPage();
    pages.push(page);
    await page.goto(url);
    const frame = await frameOf(page);
    await frame.evaluate(() => window.PLATFORM.ready.then(() => true));

    const bare = await browser.newPage();
    pages.push(bare);
    const module = await bareHostModule();
    await bare.route(`${url}bench-host.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: module }));
    await bare.route(`${url}bench-host.html`, (route) => route.fulfill({ contentType: 'text/html', body: BARE_HOST_PAGE }));
    await bare.goto(`${url}bench-host.html`);
    const bareFrame = await (await bare.waitForSelector('iframe', { state: 'attached' })).contentFrame();
    await bareFrame.evaluate(() => window.PLATFORM.ready.then(() => true));

    const floor = await browser.newPage();
    pages.push(floor);
    const { createMockStore } = await import('../build/preview/mock-store.js');
    const store = createMockStore();
    const results = { catalog: await store.adapters.catalog.list({ page: 1, limit: 12, includeOutOfStock: true }), analytics: { tracked: true } };
    // What each answer weighs: a message's cost grows with its size, in every setup alike.
    const weight = (result) => Buffer.byteLength(JSON.stringify({ type: 'platform.response', id: 1, ok: true, result }));
    console.log(`response messages: catalog ${weight(results.catalog)} bytes (a page of ${results.catalog.products.length} products), analytics ${weight(results.analytics)} bytes`);
    await floor.route(`${url}bench-floor.html`, (route) => route.fulfill({ contentType: 'text/html', body: floorHostPage(results) }));
    await floor.route(`${url}bench-floor-frame.html`, (route) => route.fulfill({ contentType: 'text/html', body: FLOOR_FRAME_PAGE }));
    await floor.goto(`${url}bench-floor.html`);
    const floorFrame = await (await floor.waitForSelector('iframe', { state: 'attached' })).contentFrame();
    await floorFrame.waitForFunction(() => typeof window.echo === 'function', null, { polling: 10 });

    const setups = [
      { name: 'preview page', frame, call: (name) => CALLS_MEASURED[name], bounded: true },
      { name: 'bridge alone', frame: bareFrame, call: (name) => CALLS_MEASURED[name], bounded: true },
      { name: 'port echo, no bridge (peer)', frame: floorFrame, call: (name) => ECHO_CALLS[name], bounded: false },
    ];
    for (const name of Object.keys(CALLS_MEASURED)) await measureCalls(name, setups);
  } finally {
    for (const page of pages) await page.close();
    await stopCli(child);
  }
}

/** `node -e 0`: the median of `runs` runs. */
function nodeBaseline(runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = now();
    spawnSync(process.execPath, ['-e', '0']);
    samples.push(now() - t0);
  }
  return median(samples);
}

/**
 * Marks taken inside the extension's frame by the browser itself: an init script, which
 * Playwright adds to every document before the document's own scripts, notes the wall-clock
 * time of the first animation frame after `load` (the document complete and painted),
 * after the first product card appears, and after the reload marker appears. They are read
 * once the frame has loaded, so the harness stays out of the window it measures (waiting
 * with frame.waitForFunction would inject Playwright's script into the page and the frame
 * and poll them while they load, on the same two cores).
 */
const RECORD_MARKS = `(() => {
  if (!location.pathname.includes('/frame/')) return;
  const marks = (window.__benchMarks = {});
  const at = (key) => requestAnimationFrame(() => {
    if (marks[key] === undefined) marks[key] = performance.timeOrigin + performance.now();
  });
  addEventListener('load', () => at('rendered'));
  new MutationObserver(() => {
    if (marks.seenProducts === undefined && document.querySelector('#products .card') !== null) {
      marks.seenProducts = true;
      at('products');
    }
    const marker = document.getElementById('bench-marker');
    if (marks.markerText === undefined && marker !== null) {
      marks.markerText = marker.textContent;
      at('marker');
    }
  }).observe(document, { childList: true, subtree: true });
})();`;

/** Node's clock in the browser's terms: milliseconds since the epoch. */
function wallNow() {
  return performance.timeOrigin + performance.now();
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The next navigation of the extension's frame in `page` (start waiting before causing it). */
function nextFrameNavigation(page) {
  return page.waitForEvent('framenavigated', { predicate: (frame) => frame.url().includes('/frame/'), timeout: 10_000 });
}

/** Waits for the frame's load (a protocol event: nothing is injected), then reads the marks once `keys` are all there. */
async function marksOf(frame, keys) {
  await frame.waitForLoadState('load', { timeout: 10_000 });
  for (let attempt = 0; ; attempt++) {
    await sleep(attempt === 0 ? 300 : 50);
    const marks = await frame.evaluate(() => window.__benchMarks ?? null).catch(() => null);
    if (marks !== null && keys.every((key) => marks[key] !== undefined)) return marks;
    if (attempt > 200) throw new Error(`the frame never recorded ${keys.join(', ')}: ${JSON.stringify(marks)}`);
  }
}

/**
 * Each cold start comes right after its own `node -e 0` baseline (the median of three
 * runs), and its excess is taken against that: a shared machine's speed can change within
 * a minute, and a baseline taken once at the start would compare two different machines.
 */
async function coldStarts(browser, dir) {
  const samples = [];
  nodeBaseline(1);
  for (let i = 0; i < COLD_STARTS; i++) {
    const baseline = nodeBaseline(3);
    const page = await browser.newPage();
    await page.addInitScript(RECORD_MARKS);
    const navigated = nextFrameNavigation(page);
    const t0 = wallNow();
    const { child, url } = await startCli(dir);
    const listening = wallNow() - t0;
    try {
      await page.goto(url, { waitUntil: 'commit' });
      const marks = await marksOf(await navigated, ['rendered', 'products']);
      samples.push({ rendered: marks.rendered - t0, products: marks.products - t0, listening, baseline, extra: marks.rendered - t0 - baseline });
    } finally {
      await page.close();
      await stopCli(child);
    }
  }
  return samples;
}

async function reloads(browser, dir) {
  const { child, url } = await startCli(dir);
  const index = join(dir, 'runtime/index.html');
  const original = readFileSync(index, 'utf8');
  const samples = [];
  try {
    const page = await browser.newPage();
    await page.addInitScript(RECORD_MARKS);
    const first = nextFrameNavigation(page);
    await page.goto(url);
    await marksOf(await first, ['products']);
    for (let i = 1; i <= RELOADS; i++) {
      await sleep(BETWEEN_SAVES_MS);
      const marker = `save-${i}`;
      const navigated = nextFrameNavigation(page);
      const t0 = wallNow();
      writeFileSync(index, original.replace('<body>', `<body><p id="bench-marker">${marker}</p>`));
      const marks = await marksOf(await navigated, ['marker']);
      if (marks.markerText !== marker) throw new Error(`the reloaded frame shows ${marks.markerText}, not ${marker}`);
      samples.push(marks.marker - t0);
    }
    await page.close();
  } finally {
    writeFileSync(index, original);
    await stopCli(child);
  }
  return samples;
}

async function coldStartLine(browser, dir) {
  const starts = await coldStarts(browser, dir);
  const rendered = median(starts.map((s) => s.rendered));
  const products = median(starts.map((s) => s.products));
  const listening = median(starts.map((s) => s.listening));
  const baseline = median(starts.map((s) => s.baseline));
  const extra = median(starts.map((s) => s.extra));
  console.log(
    `${'preview cold start'.padEnd(50)} ${rendered.toFixed(0)} ms to the first rendered frame, ${products.toFixed(0)} ms to its products ` +
      `(medians of ${COLD_STARTS}; URL printed after ${listening.toFixed(0)} ms); node -e 0 ${baseline.toFixed(0)} ms: ` +
      `${extra.toFixed(0)} ms beyond it (median of each start against the node -e 0 run just before it; ` +
      `all: ${starts.map((s) => s.extra.toFixed(0)).join(', ')})  [reported, no bound]`,
  );
}

async function reloadLine(browser, dir) {
  const saves = await reloads(browser, dir);
  const reload = median(saves);
  console.log(
    `${'reload after a save'.padEnd(50)} ${reload.toFixed(0)} ms median, ${Math.max(...saves).toFixed(0)} ms worst of ${RELOADS}  [reported, no bound]`,
  );
}

const browser = await launchBrowser(null);
const work = mkdtempSync(join(tmpdir(), 'platform-ext-bench-'));
try {
  console.log(`Chromium ${browser.version()}, Node ${process.version}, ${CALLS} calls per measurement`);
  const dir = join(work, 'hello-world');
  cpSync(EXAMPLE_DIR, dir, { recursive: true });
  if (ONLY === null || ONLY === 'calls') await roundTrips(browser, dir);
  if (ONLY === null || ONLY === 'start') await coldStartLine(browser, dir);
  if (ONLY === null || ONLY === 'reload') await reloadLine(browser, dir);
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
