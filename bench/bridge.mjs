#!/usr/bin/env node
// Bridge and preview speed in Chromium, one run (not part of npm test; run `npm run build` first):
//   1. Round trip of a catalog call and of an analytics call through the real preview
//      (sandboxed frame -> MessagePort -> host page -> mock adapters -> back), measured in
//      the frame: p50 and p99 of sequential calls, and calls per second with up to 64 in
//      flight (the pending-call limit).            Bounds: p50 <= 1 ms, >= 5,000 calls/s.
//      Measured twice: in the preview page as users get it (every call is also written
//      into the page's call log), and with the bridge alone: the same frame, runtime, host
//      bridge and mock store under a bare host page without the preview's panels.
//   2. `preview` cold start: spawn `node dist/platform-ext.mjs preview <example> --port 0`,
//      read the URL it prints, load it in the already-launched browser, and stop the clock
//      when the extension's frame has rendered (its document complete and painted); also
//      shown: when its products appear. Compared with `node -e 0` measured in the same run.
//                                                  Bound: at most 300 ms beyond node -e 0.
//   3. Reload after a save: write a change into the project's entrypoint and time until
//      the frame shows it (watcher debounce, check, event stream, frame reload).
//                                                  Bound: 300 ms.
// Usage: node bench/bridge.mjs [calls]   (default 3000 calls per measurement)
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_DIR, PROBE_DIR, ROOT, launchBrowser } from '../test/support/browser.mjs';
import { MAX_PENDING_CALLS } from '../build/validator/limits.js';

const CLI = join(ROOT, 'dist/platform-ext.mjs');
const CALLS = Number(process.argv[2] ?? 3000);
const WARM_UP_CALLS = 300;
const COLD_STARTS = 5;
const RELOADS = 8;
const BOUND_P50_MS = 1;
const BOUND_CALLS_PER_SECOND = 5000;
const BOUND_COLD_START_EXTRA_MS = 300;
const BOUND_RELOAD_MS = 300;
/** Quiet time between two saves: longer than the watcher's debounce, so that each save is its own reload. */
const BETWEEN_SAVES_MS = 400;

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

function verdict(ok) {
  return ok ? 'ok' : 'OVER';
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
      const match = / at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
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

/** The frame-side measurement: warm-up, CALLS sequential round trips, then CALLS with up to MAX_PENDING_CALLS in flight. */
function measureSource(call) {
  return `(async () => {
    const call = ${call};
    for (let i = 0; i < ${WARM_UP_CALLS}; i++) await call();
    const times = [];
    for (let i = 0; i < ${CALLS}; i++) {
      const t = performance.now();
      await call();
      times.push(performance.now() - t);
    }
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
    return { times, pipelinedMs: performance.now() - started };
  })()`;
}

const CALLS_MEASURED = {
  catalog: '() => window.PLATFORM.catalog.products({})',
  analytics: "() => window.PLATFORM.analytics.track('bench', { label: 'round trip', value: 1 })",
};

async function measureCalls(frame, where) {
  for (const [name, source] of Object.entries(CALLS_MEASURED)) {
    const result = await frame.evaluate(measureSource(source));
    const p50 = percentile(result.times, 50);
    const p99 = percentile(result.times, 99);
    const sequential = (1000 * result.times.length) / result.times.reduce((a, b) => a + b, 0);
    const pipelined = (1000 * CALLS) / result.pipelinedMs;
    console.log(
      `${`${name} round trip, ${where}`.padEnd(40)} p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  ` +
        `${String(Math.round(sequential)).padStart(5)} calls/s one at a time, ${String(Math.round(pipelined)).padStart(5)} with ${MAX_PENDING_CALLS} in flight  ` +
        `[p50 <= ${BOUND_P50_MS} ms: ${verdict(p50 <= BOUND_P50_MS)}; >= ${BOUND_CALLS_PER_SECOND} calls/s: ${verdict(pipelined >= BOUND_CALLS_PER_SECOND)}]`,
    );
  }
}

/** The host bridge and the mock store as one browser module: the host side of the preview without its page. */
async function bareHostModule() {
  const result = await build({
    stdin: {
      contents: "export { createHostBridge } from './src/bridge/host.ts';\nexport { createMockStore } from './src/preview/adapters.ts';\n",
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
<iframe id="f" sandbox="allow-scripts" src="/frame/index.html"></iframe>
<script type="module">
import { createHostBridge, createMockStore } from '/bench-host.js';
const store = createMockStore();
const frame = document.getElementById('f');
const declared = ['analytics.events.write', 'catalog.products.read', 'site.theme.read'];
const bridge = createHostBridge({
  frame, frameOrigin: 'null', manifest: { capabilities: declared }, grants: () => declared, settings: () => ({}),
  adapters: store.adapters, failing: () => [], consent: () => true,
});
frame.addEventListener('load', () => bridge.start());
</script>`;

async function roundTrips(browser) {
  const { child, url } = await startCli(PROBE_DIR);
  try {
    const page = await browser.newPage();
    await page.goto(url);
    const frame = await frameOf(page);
    await frame.waitForFunction(() => window.probe?.status().ready.ok === true, null, { polling: 10 });
    await measureCalls(frame, 'preview page');
    await page.close();

    const bare = await browser.newPage();
    const module = await bareHostModule();
    await bare.route(`${url}bench-host.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: module }));
    await bare.route(`${url}bench-host.html`, (route) => route.fulfill({ contentType: 'text/html', body: BARE_HOST_PAGE }));
    await bare.goto(`${url}bench-host.html`);
    const bareFrame = await (await bare.waitForSelector('iframe', { state: 'attached' })).contentFrame();
    await bareFrame.waitForFunction(() => window.probe?.status().ready.ok === true, null, { polling: 10 });
    await measureCalls(bareFrame, 'bridge alone');
    await bare.close();
  } finally {
    await stopCli(child);
  }
}

function nodeBaseline() {
  const samples = [];
  spawnSync(process.execPath, ['-e', '0']);
  for (let i = 0; i < 11; i++) {
    const t0 = now();
    spawnSync(process.execPath, ['-e', '0']);
    samples.push(now() - t0);
  }
  return median(samples);
}

async function coldStarts(browser, dir) {
  const samples = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const page = await browser.newPage();
    const t0 = now();
    const { child, url } = await startCli(dir);
    const listening = now() - t0;
    try {
      await page.goto(url, { waitUntil: 'commit' });
      const frame = await frameOf(page);
      // Rendered: the document is complete and an animation frame has passed (it was painted).
      await frame.waitForFunction(() => document.readyState === 'complete' && new Promise((resolve) => requestAnimationFrame(() => resolve(true))), null, { polling: 1 });
      const rendered = now() - t0;
      await frame.waitForFunction(() => document.querySelectorAll('#products .card').length > 0, null, { polling: 1 });
      samples.push({ rendered, products: now() - t0, listening });
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
    await page.goto(url);
    await (await frameOf(page)).waitForFunction(() => document.querySelectorAll('#products .card').length > 0);
    for (let i = 1; i <= RELOADS; i++) {
      await new Promise((resolve) => setTimeout(resolve, BETWEEN_SAVES_MS));
      const marker = `save-${i}`;
      const t0 = now();
      writeFileSync(index, original.replace('<body>', `<body><p id="bench-marker">${marker}</p>`));
      // Poll the page's frames until the new document shows the marker; every turn yields
      // to the event loop, where Playwright learns about the new frame.
      for (;;) {
        const frame = page.frames().find((f) => f.url().includes('/frame/'));
        const text = frame === undefined ? null : await frame.evaluate(() => document.getElementById('bench-marker')?.textContent ?? null).catch(() => null);
        if (text === marker) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      samples.push(now() - t0);
    }
    await page.close();
  } finally {
    writeFileSync(index, original);
    await stopCli(child);
  }
  return samples;
}

const browser = await launchBrowser(null);
const work = mkdtempSync(join(tmpdir(), 'platform-ext-bench-'));
try {
  console.log(`Chromium ${browser.version()}, Node ${process.version}, ${CALLS} calls per measurement`);
  await roundTrips(browser);

  const dir = join(work, 'hello-world');
  cpSync(EXAMPLE_DIR, dir, { recursive: true });
  const baseline = nodeBaseline();
  const starts = await coldStarts(browser, dir);
  const rendered = median(starts.map((s) => s.rendered));
  const products = median(starts.map((s) => s.products));
  const listening = median(starts.map((s) => s.listening));
  const extra = rendered - baseline;
  console.log(
    `${'preview cold start'.padEnd(40)} ${rendered.toFixed(0)} ms to the first rendered frame, ${products.toFixed(0)} ms to its products ` +
      `(medians of ${COLD_STARTS}; URL printed after ${listening.toFixed(0)} ms); node -e 0 ${baseline.toFixed(0)} ms: ` +
      `${extra.toFixed(0)} ms beyond it  [<= ${BOUND_COLD_START_EXTRA_MS} ms: ${verdict(extra <= BOUND_COLD_START_EXTRA_MS)}]`,
  );

  const saves = await reloads(browser, dir);
  const reload = median(saves);
  console.log(
    `${'reload after a save'.padEnd(40)} ${reload.toFixed(0)} ms median, ${Math.max(...saves).toFixed(0)} ms worst of ${RELOADS}  ` +
      `[<= ${BOUND_RELOAD_MS} ms: ${verdict(reload <= BOUND_RELOAD_MS)}]`,
  );
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
