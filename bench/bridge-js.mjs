#!/usr/bin/env node
// The bridge's own JavaScript per call, in Chromium (not part of npm test; needs the dev
// dependencies, not a build): what the frame's runtime (src/bridge/runtime.ts) and the
// host bridge (src/bridge/host.ts, with the mock store of src/preview/mock-store.ts) cost per
// call beyond the few lines of bench/bridge.mjs's port echo, with the MessagePorts replaced
// by in-page queues. bench/bridge.mjs measures whole round trips, where the browser's
// message passing between two processes is most of the time and load from elsewhere on a
// shared machine moves every figure; this isolates the part the project's code adds, in
// one thread of one page, so that a change to it shows up above the noise.
//   frame: runtime   PLATFORM.catalog.products({}) / PLATFORM.analytics.track(…), 64 in flight,
//                    each answered in a later task with a fresh response object
//   frame: echo      the peer's frame code doing the same (bench/bridge.mjs FLOOR_FRAME_PAGE)
//   host: bridge     createHostBridge answering fresh request objects (as clones arrive), 64 per task
//   host: + log      the same with a call log attached (onCall keeping entries, as the preview's page does)
//   host: echo       the peer's host code answering the same requests
// Each line: the median of ROUNDS rounds in microseconds per call, and (runtime and bridge
// lines) the excess over the echo's median.   Reported, no bound (a diagnostic, D-35).
// Usage: node bench/bridge-js.mjs [--against <checkout>]
//   --against: also bundles another checkout's src/ (say, the commit before a change) and
//   measures both in the same page, their rounds taken in turn, so that the two are
//   compared under the same load: lines marked "this" and "other".
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { ROOT, launchBrowser } from '../test/support/browser.mjs';

const AGAINST_AT = process.argv.indexOf('--against');
const SOURCES = AGAINST_AT < 0 ? [['this', ROOT]] : [['this', ROOT], ['other', resolve(process.argv[AGAINST_AT + 1])]];
const CALLS = 30_000;
const WARM_UP_CALLS = 5_000;
const ROUNDS = 9;

/** The runtime, the host bridge and the mock store of `root` as one browser script defining `name` (the targets of scripts/build-bridge.mjs). */
async function bridgeBundle(root, name) {
  const result = await build({
    stdin: {
      contents: `export { installPlatform } from './src/bridge/runtime.ts';\nexport { createHostBridge } from './src/bridge/host.ts';\nexport { createMockStore } from './src/preview/mock-store.ts';\n`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    globalName: name,
    platform: 'browser',
    target: ['es2020', 'chrome100'],
    minify: true,
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/** Runs in the page: every measurement of one kind of call, for each source; returns the lines' figures. */
async function measureInPage({ kind, calls, warmUp, rounds, sources }) {
  const declared = ['analytics.events.write', 'cart.manage', 'catalog.products.read', 'site.theme.read'];
  // A task queue of its own (a MessageChannel posting to itself): each delivery is a task, as a port message is.
  const tasks = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => tasks.shift()();
  const inTask = (run) => {
    tasks.push(run);
    channel.port2.postMessage(null);
  };
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

  /** The five setups of one source's bundle. */
  async function setupsOf(source) {
    const { installPlatform, createHostBridge, createMockStore } = window[`BRIDGE_${source}`];
    const store = createMockStore();
    const result = kind === 'catalog' ? await store.adapters.catalog.list({ page: 1, limit: 12, includeOutOfStock: true }) : { tracked: true };

    /** `calls` calls with up to 64 in flight; resolves with the time taken. */
    const pipeline = (call, n) =>
      new Promise((done, fail) => {
        const started = performance.now();
        let launched = 0;
        let settled = 0;
        let inFlight = 0;
        const pump = () => {
          while (inFlight < 64 && launched < n) {
            launched++;
            inFlight++;
            call().then(() => {
              inFlight--;
              if (++settled === n) done(performance.now() - started);
              else pump();
            }, fail);
          }
        };
        pump();
      });

    /** A port whose messages the other side answers in a later task, all those of one task together. */
    function answeringPort(answer) {
      let listener = null;
      let queued = [];
      const flush = () => {
        const batch = queued;
        queued = [];
        for (const request of batch) listener({ data: answer(request) });
      };
      return {
        postMessage(message) {
          if (queued.length === 0) inTask(flush);
          queued.push(message);
        },
        addEventListener(type, handler) {
          if (type === 'message') listener = handler;
        },
        start() {},
        close() {},
        set onmessage(handler) {
          listener = handler;
        },
        /** A message from the other side that answers nothing (the ready message). */
        deliver(data) {
          inTask(() => listener({ data }));
        },
      };
    }
    const response = (request) => ({ type: 'platform.response', id: request.id, ok: true, result });

    async function runtimeFrame() {
      const port = answeringPort(response);
      const listeners = [];
      const parent = {};
      const win = {
        parent,
        addEventListener: (type, handler) => listeners.push(handler),
        removeEventListener() {},
        setTimeout: (handler, ms) => setTimeout(handler, ms),
        clearTimeout: (handle) => clearTimeout(handle),
        performance,
      };
      const origin = 'http://127.0.0.1';
      const api = installPlatform(win, { protocol: 1, parentOrigin: origin, baseUrl: `${origin}/` });
      listeners[0]({ source: parent, origin, data: { type: 'platform.init', protocol: 1 }, ports: [port] });
      port.deliver({ type: 'platform.ready', protocol: 1, capabilities: declared, settings: {} });
      await api.ready;
      return kind === 'catalog' ? () => api.catalog.products({}) : () => api.analytics.track('bench', { label: 'round trip', value: 1 });
    }

    function echoFrame() {
      const waiting = new Map();
      let nextId = 1;
      const port = answeringPort(response);
      port.onmessage = (message) => {
        const id = message.data.id;
        const settle = waiting.get(id);
        waiting.delete(id);
        settle(message.data.result);
      };
      const echo = (payload) =>
        new Promise((settle) => {
          const id = nextId++;
          waiting.set(id, settle);
          port.postMessage({ type: 'platform.request', id, capability: 'x', action: 'y', payload });
        });
      return kind === 'catalog' ? () => echo({ kind: 'catalog' }) : () => echo({ kind: 'analytics', event: 'bench', properties: { label: 'round trip', value: 1 } });
    }

    /** Feeds `n` fresh requests to `deliver`, 64 per task; resolves with the time until `n` answers were posted. */
    function hostRun(deliver, answered, n) {
      const request =
        kind === 'catalog'
          ? (id) => ({ type: 'platform.request', id, capability: 'catalog.products.read', action: 'list', payload: {} })
          : (id) => ({ type: 'platform.request', id, capability: 'analytics.events.write', action: 'track', payload: { event: 'bench', properties: { label: 'round trip', value: 1 } } });
      return new Promise((done) => {
        const started = performance.now();
        answered.until(n, () => done(performance.now() - started));
        let id = 1;
        const batch = () => {
          for (let i = 0; i < 64 && id <= n; i++) deliver({ data: request(id++) });
          if (id <= n) inTask(batch);
        };
        batch();
      });
    }

    function counter() {
      let count = 0;
      let target = Infinity;
      let then = null;
      return {
        tick() {
          if (++count === target) then();
        },
        until(n, f) {
          count = 0;
          target = n;
          then = f;
        },
      };
    }

    function bridgeHost(withLog) {
      const answered = counter();
      let deliver = null;
      const port1 = {
        postMessage: (message) => {
          if (message.type === 'platform.response') answered.tick();
        },
        addEventListener: (type, handler) => {
          if (type === 'message') deliver = handler;
        },
        start() {},
        close() {},
      };
      const entries = [];
      const bridge = createHostBridge({
        frame: { contentWindow: { postMessage() {} } },
        frameOrigin: 'null',
        manifest: { capabilities: declared },
        grants: () => declared,
        settings: () => ({}),
        adapters: store.adapters,
        failing: () => [],
        consent: () => true,
        onCall: withLog
          ? (entry) => {
              entries.push(entry);
              if (entries.length >= 400) entries.splice(0, 200);
            }
          : undefined,
        createChannel: () => ({ port1, port2: {} }),
      });
      bridge.start();
      return (n) => hostRun((event) => deliver(event), answered, n);
    }

    function echoHost() {
      const answered = counter();
      const port1 = { postMessage: () => answered.tick() };
      const onmessage = (event) => {
        const request = event.data;
        port1.postMessage({ type: 'platform.response', id: request.id, ok: true, result });
      };
      return (n) => hostRun(onmessage, answered, n);
    }

    return [
      ['frame: runtime', await runtimeFrame(), 'frame'],
      ['frame: echo', echoFrame(), 'frame'],
      ['host: bridge', bridgeHost(false), 'host'],
      ['host: bridge + log', bridgeHost(true), 'host'],
      ['host: echo', echoHost(), 'host'],
    ].map(([name, run, side]) => ({ name: `${source}, ${name}`, side, source, run: side === 'frame' ? (n) => pipeline(run, n) : run, perCall: [] }));
  }

  const setups = [];
  for (const source of sources) setups.push(...(await setupsOf(source)));
  for (const setup of setups) await setup.run(warmUp);
  // Rounds taken in turn, as in bench/bridge.mjs.
  for (let round = 0; round < rounds; round++) {
    for (const setup of setups) setup.perCall.push((1000 * (await setup.run(calls))) / calls);
  }
  return setups.map(({ name, side, source, perCall }) => ({ name, side, source, median: median(perCall) }));
}

const browser = await launchBrowser(null);
try {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><title>bridge JS</title>');
  for (const [source, root] of SOURCES) await page.addScriptTag({ content: await bridgeBundle(root, `BRIDGE_${source}`) });
  console.log(`Chromium ${browser.version()}, ${SOURCES.map(([source, root]) => `${source}: ${root}`).join(', ')}; ${CALLS} calls per round, median of ${ROUNDS} rounds`);
  for (const kind of ['catalog', 'analytics']) {
    const lines = await page.evaluate(measureInPage, { kind, calls: CALLS, warmUp: WARM_UP_CALLS, rounds: ROUNDS, sources: SOURCES.map(([source]) => source) });
    for (const { name, side, source, median } of lines) {
      const echo = lines.find((l) => l.source === source && l.name.endsWith(`${side}: echo`)).median;
      const excess = name.endsWith('echo') ? '' : `  (${(median - echo).toFixed(2)} µs beyond the echo)`;
      console.log(`${`${kind}, ${name}`.padEnd(40)} ${median.toFixed(2).padStart(6)} µs per call${excess}  [reported, no bound]`);
    }
  }
} finally {
  await browser.close();
}
