// The implementation of platform-ext/testing (src/testing.ts, bundled as dist/testing.mjs): a mock host for publishers' unit
// tests. It installs a `window.PLATFORM` that is the real bridge runtime
// (src/bridge/runtime.ts) talking over a real MessageChannel to the real host
// (src/bridge/host.ts) in front of the preview's mock store (src/preview/mock-store.ts):
// the frame's checks, the host's checks, D-23's order, every limit and every error code
// are the production code paths, not a re-implementation that could drift from them.
// Only the browser around them is replaced: the frame's window is a small object (the
// runtime takes its window as an argument), and the host's frame element posts the
// handshake to it.
//
// Node keeps running while a call is pending (so a test that awaits a call never sees the
// event loop run dry) and never because of the mock otherwise: the channel's ports and the
// runtime's timers are unref'd, and one keep-alive port is ref'd exactly while the
// handshake or a call is pending. dispose() closes everything.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { AdapterUnavailable, type Adapters, type CatalogProduct, type Theme } from '../bridge/adapters.js';
import { createHostBridge, type CallLogEntry, type HostBridge, type HostPort } from '../bridge/host.js';
import { installPlatform, type PlatformApi, type RuntimeMessageEvent, type RuntimePort, type RuntimeWindow } from '../bridge/runtime.js';
import { createMockStore, type AnalyticsRecord, type CartSnapshot, type FormRecord, type MockStore, type StoreActivity } from '../preview/mock-store.js';
import {
  CAPABILITIES,
  isBridgeErrorCode,
  isPlatformConfig,
  MESSAGE_TYPES,
  PROTOCOL_VERSION,
  CART_QUANTITY_MAX,
  CART_QUANTITY_MIN,
  type BridgeErrorCode,
  type CartUpdatedDetail,
  type PlatformConfig,
  type SettingValue,
  type SettingsSnapshot,
  type JsonValue,
  type PropertyDef,
} from '../validator/internal.js';
import {
  MockPlatformError,
  TIMEOUT_MAXIMA,
  capabilityList,
  checkBoolean,
  checkCartLines,
  checkGrantsDeclared,
  checkOptions,
  checkProducts,
  checkSettings,
  checkTheme,
  failCode,
  failMap,
  failTarget,
  invalidOption,
  readManifest,
  timeout,
  type MockData,
  type MockFailCode,
  type MockPlatformOptions,
} from './mock-options.js';
import type { MockCapabilityKey, MockPlatformApi } from './platform-api.js';

export type * from './platform-api.js';
export { MockPlatformError, type MockPlatformErrorCode, type MockData, type MockFailCode, type MockPlatformOptions } from './mock-options.js';
export type { AnalyticsRecord, BridgeErrorCode, CallLogEntry, CartSnapshot, CartUpdatedDetail, CatalogProduct, FormRecord, JsonValue, SettingValue, StoreActivity, Theme };

/** The named methods, as `calls[].method` names them (`request` for PLATFORM.request). */
export type MockMethod =
  | 'request'
  | 'analytics.track'
  | 'booking.availability'
  | 'booking.start'
  | 'cart.manage'
  | 'catalog.products'
  | 'communications.text'
  | 'forms.submit'
  | 'theme.read'
  | 'waivers.start';

/** One call the extension made through `platform`, in call order. */
export interface MockCall {
  readonly method: MockMethod;
  /** The capability and action the call is for (for `request`: its arguments, when strings). */
  readonly capability: string | null;
  readonly action: string | null;
  /** The arguments as the extension passed them (the same objects, not copies). */
  readonly args: readonly unknown[];
  /** The payload the frame sent: its validated copy (D-23), deeply frozen; null when nothing was sent. */
  readonly payload: JsonValue | null;
  /** False when the frame refused the call itself (its checks run first) or the handshake never happened. */
  readonly sent: boolean;
  /** `pending`, `ok`, or the error code the call rejected with. */
  readonly outcome: 'pending' | 'ok' | BridgeErrorCode;
  /** What the call resolved to (undefined unless `outcome` is `ok`). */
  readonly result: unknown;
}

/** What the mock store and the host hold, for assertions. */
export interface MockHost {
  /** The capabilities the manifest declares (all nine without a manifest). */
  declared(): MockCapabilityKey[];
  /** What the host enforces now: declared and granted, in the contract's order. */
  grants(): MockCapabilityKey[];
  /** The settings the frame receives. */
  settings(): SettingsSnapshot;
  cart(): CartSnapshot;
  theme(): Theme;
  /** Events recorded by analytics.track (with consent). */
  analytics(): readonly AnalyticsRecord[];
  /** Forms the store accepted. */
  forms(): readonly FormRecord[];
  /** Everything the store did: cart changes, flows opened, forms, analytics. */
  activity(): readonly StoreActivity[];
  /** The storefront's cart-updated events the host dispatched (after each cart call with `ok: true`). */
  cartEvents(): readonly CartUpdatedDetail[];
  /** The host's own log: every call that reached it, with its checks' outcome, and every dropped message. */
  log(): readonly CallLogEntry[];
}

export interface MockPlatform {
  /** The `window.PLATFORM` object (also installed by installMockPlatform). */
  readonly platform: MockPlatformApi;
  /** Every call made through `platform` since the start (or the last reset/clearCalls), in call order. */
  readonly calls: readonly MockCall[];
  readonly host: MockHost;
  /** Sets the store user's grants; resolves once the frame has them (the host applies them at once). */
  setGrants(grants: readonly MockCapabilityKey[]): Promise<void>;
  /** Sets the settings (over the manifest's defaults, checked as `data.settings`); resolves once the frame has them. */
  setSettings(settings: Readonly<Record<string, SettingValue>>): Promise<void>;
  /** Makes a capability's calls (by key or method name) fail with `code` (default REQUEST_FAILED) after every check; null stops it. */
  fail(capabilityOrMethod: string, code?: MockFailCode | null): void;
  /** The visitor's analytics consent. */
  setConsent(consent: boolean): void;
  /** Whether the store has a text-message number. */
  setSmsAvailable(available: boolean): void;
  /**
   * Resolves when neither the handshake nor any call is pending and the code that awaited
   * the last of them has run on to its next call or its end.
   */
  settled(): Promise<void>;
  /** Forgets the recorded calls (and the host's log). */
  clearCalls(): void;
  /** Back to the options: grants, failures, settings, consent, store data (cart, theme, records); calls forgotten. */
  reset(): Promise<void>;
  /** Closes the channel and releases Node. Idempotent. */
  dispose(): void;
  readonly disposed: boolean;
}

export interface InstalledMockPlatform extends MockPlatform {
  /** Removes `window.PLATFORM` (and `window`, when the install created it) and disposes the mock. Idempotent. */
  uninstall(): void;
}

/** The host page's origin as the frame's config names it (a reserved example domain: nothing is ever fetched). */
const PARENT_ORIGIN = 'https://store.example';
/** Base of the release URL in the config (never fetched either). */
const RELEASE_BASE = 'https://extensions.example/';

/** Codes a failing adapter gives through the host's own adapter path; the rest are answered by the host's failWith. */
const ADAPTER_PATH_CODES: readonly BridgeErrorCode[] = ['ADAPTER_UNAVAILABLE', 'REQUEST_TIMEOUT'];

interface CallState {
  method: MockMethod;
  capability: string | null;
  action: string | null;
  args: readonly unknown[];
  payload: JsonValue | null;
  sent: boolean;
  outcome: 'pending' | 'ok' | BridgeErrorCode;
  result: unknown;
}

interface StoreState {
  readonly store: MockStore;
}

/** What the options say, checked once; reset() returns to it. */
interface Plan {
  readonly declared: readonly string[];
  readonly properties: readonly PropertyDef[] | null;
  readonly grants: readonly string[];
  readonly failures: ReadonlyMap<string, BridgeErrorCode>;
  readonly settings: Record<string, SettingValue>;
  readonly consent: boolean;
  readonly smsAvailable: boolean;
  readonly emptyCatalog: boolean;
  readonly products: readonly CatalogProduct[] | null;
  readonly theme: readonly [keyof Theme, string][];
  readonly cart: readonly { productId: number; quantity?: number }[];
  readonly handshake: boolean;
  readonly strictHost: boolean;
  readonly config: Record<string, unknown>;
}

function plan(input: unknown): Plan {
  const options: MockPlatformOptions = checkOptions(input);
  const manifest = readManifest(options.manifest);
  const declared = manifest.declared;
  let grants = options.grants === undefined ? [...declared] : capabilityList('options.grants', options.grants);
  checkGrantsDeclared('options.grants', grants, declared);
  const deny = options.deny === undefined ? [] : capabilityList('options.deny', options.deny);
  grants = grants.filter((key) => !deny.includes(key));
  const data: MockData = options.data ?? {};
  const properties = options.manifest === undefined ? null : manifest.properties;
  const emptyCatalog = checkBoolean('options.data.emptyCatalog', data.emptyCatalog, false);
  const products = data.products === undefined ? null : checkProducts(data.products);
  if (emptyCatalog && products !== null) throw invalidOption('options.data', 'give products or emptyCatalog: true, not both');
  const requestTimeoutMs = timeout('options.requestTimeoutMs', options.requestTimeoutMs, TIMEOUT_MAXIMA.requestTimeoutMs);
  const initializationTimeoutMs = timeout('options.initializationTimeoutMs', options.initializationTimeoutMs, TIMEOUT_MAXIMA.initializationTimeoutMs);
  const config: Record<string, unknown> = {
    protocol: PROTOCOL_VERSION,
    parentOrigin: PARENT_ORIGIN,
    baseUrl: `${RELEASE_BASE}${manifest.namespace}/${manifest.version}/`,
  };
  if (requestTimeoutMs !== undefined) config['requestTimeoutMs'] = requestTimeoutMs;
  if (initializationTimeoutMs !== undefined) config['initializationTimeoutMs'] = initializationTimeoutMs;
  // The runtime reads exactly this shape from the meta element; a config it would refuse is our bug.
  if (!isPlatformConfig(config)) throw new Error(`internal: the mock's frame config is not valid: ${JSON.stringify(config)}`);
  return {
    declared,
    properties,
    grants,
    failures: failMap(options.fail),
    settings: checkSettings('options.data.settings', properties, data.settings),
    consent: checkBoolean('options.data.consent', data.consent, true),
    smsAvailable: checkBoolean('options.data.smsAvailable', data.smsAvailable, true),
    emptyCatalog,
    products,
    theme: checkTheme(data.theme),
    cart: checkCartLines(data.cart),
    handshake: options.handshake ?? true,
    strictHost: checkBoolean('options.strictHost', options.strictHost, false),
    config,
  };
}

/** The contract's code of a rejection from the runtime (always a BridgeCallError). */
function codeOf(error: unknown): BridgeErrorCode {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return isBridgeErrorCode(code) ? code : 'REQUEST_FAILED';
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

function unrefTimer(handle: unknown): void {
  // Node's timers have unref(); fake timers (node:test, @sinonjs/fake-timers) may not.
  const timer = handle as { unref?: () => unknown } | null;
  if (typeof timer === 'object' && timer !== null && typeof timer.unref === 'function') timer.unref();
}

/**
 * The frame's clock and timers. Timers are looked up on globalThis at each call (so fake
 * timers installed after the mock still apply) and unref'd (the runtime leaves its call
 * deadline timer armed after the calls settle: it must not keep Node alive). The clock
 * never reads earlier than the due time of a timer that has fired: with fake timers that
 * leave Date alone, advancing them by the call timeout still makes the runtime see the
 * deadline as passed and reject with REQUEST_TIMEOUT.
 */
function frameClock(): Pick<RuntimeWindow, 'setTimeout' | 'clearTimeout'> & { now(): number } {
  let floor = 0;
  const now = (): number => Math.max(Date.now(), floor);
  return {
    now,
    setTimeout(handler: () => void, ms: number): unknown {
      const due = now() + ms;
      const handle = globalThis.setTimeout(() => {
        if (due > floor) floor = due;
        handler();
      }, ms);
      unrefTimer(handle);
      return handle;
    },
    clearTimeout(handle: never): void {
      globalThis.clearTimeout(handle);
    },
  };
}

/** One macrotask later (a message round trip: fake timers leave ports alone). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.once('message', () => {
      port1.close();
      resolve();
    });
    port2.postMessage(null);
  });
}

/** The methods of CAPABILITIES as [namespace, name, capability, its only action or null]. */
const METHODS: readonly (readonly [string, string, string, string | null])[] = CAPABILITIES.map((def) => {
  const [space, name] = def.method.slice('PLATFORM.'.length).split('.') as [string, string];
  return [space, name, def.key, def.actions.length === 1 ? def.actions[0]! : null] as const;
});

/**
 * Creates a mock host and a `PLATFORM` object connected to it, and resolves once the
 * handshake is done (unless `handshake: false`). Nothing is installed globally: pass
 * `platform` to the code under test, or use installMockPlatform.
 */
export async function createMockPlatform(options?: MockPlatformOptions): Promise<MockPlatform> {
  const initial = plan(options);
  let grants = [...initial.grants];
  let failures = new Map(initial.failures);
  let settings = { ...initial.settings };
  let consent = initial.consent;
  let smsAvailable = initial.smsAvailable;
  const calls: CallState[] = [];
  const hostLog: CallLogEntry[] = [];
  const activity: StoreActivity[] = [];
  const cartEvents: CartUpdatedDetail[] = [];
  let disposed = false;

  // -- keeping Node alive exactly while something is pending --------------------------
  const keepAlive = new MessageChannel();
  keepAlive.port1.on('message', () => undefined);
  keepAlive.port1.unref();
  let holds = 0;
  function hold(): () => void {
    if (disposed) return () => undefined;
    holds++;
    if (holds === 1) keepAlive.port1.ref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holds--;
      if (holds === 0 && !disposed) keepAlive.port1.unref();
    };
  }

  // -- the store ------------------------------------------------------------------------
  async function buildStore(): Promise<StoreState> {
    const notify = (entry: StoreActivity): void => {
      activity.push(entry);
    };
    const store = createMockStore({
      emptyCatalog: initial.emptyCatalog,
      ...(initial.products !== null && { products: initial.products }),
      smsAvailable: () => smsAvailable,
      consent: () => consent,
      onActivity: notify,
    });
    for (const [field, css] of initial.theme) {
      const problem = store.setTheme(field, css);
      if (problem !== null) throw invalidOption(`options.data.theme.${field}`, `${JSON.stringify(css)} is refused (${problem}): a theme value is one plain CSS value`);
    }
    for (const [index, line] of initial.cart.entries()) {
      const where = `options.data.cart[${index}]`;
      const { productId, quantity = CART_QUANTITY_MIN } = line;
      if (typeof productId !== 'number' || !Number.isSafeInteger(productId) || productId < 1) throw invalidOption(`${where}.productId`, `must be a positive integer, not ${JSON.stringify(productId)}`);
      if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < CART_QUANTITY_MIN || quantity > CART_QUANTITY_MAX) {
        throw invalidOption(`${where}.quantity`, `must be an integer from ${CART_QUANTITY_MIN} to ${CART_QUANTITY_MAX}, not ${JSON.stringify(quantity)}`);
      }
      const added = await store.adapters.cart.add({ productId, quantity });
      if (!added.ok) throw invalidOption(where, `product ${productId} cannot be added: it is not in the catalogue, it is sold out, or the line would pass ${CART_QUANTITY_MAX}`);
    }
    // The set-up's own cart additions are not the extension's doing.
    activity.length = 0;
    return { store };
  }
  let state = await buildStore();

  /** Runs an adapter, unless the capability is set to fail through the adapter path. */
  function guarded<T>(capability: string, run: () => Promise<T>): Promise<T> {
    const code = failures.get(capability);
    // The site cannot provide it: the host turns this into ADAPTER_UNAVAILABLE.
    if (code === 'ADAPTER_UNAVAILABLE') return Promise.reject(new AdapterUnavailable());
    // The host never answers: the frame's own timer rejects with REQUEST_TIMEOUT.
    if (code === 'REQUEST_TIMEOUT') return new Promise<T>(() => undefined);
    return run();
  }

  // A stable object over the current store, so that reset() can replace the store.
  const cart = (): MockStore['adapters']['cart'] => state.store.adapters.cart;
  const adapters: Adapters = {
    catalog: { list: (query) => guarded('catalog.products.read', () => state.store.adapters.catalog.list(query)) },
    cart: {
      add: (details) => guarded('cart.manage', () => cart().add(details)),
      remove: (details) => guarded('cart.manage', () => cart().remove(details)),
      update: (details) => guarded('cart.manage', () => cart().update(details)),
    },
    theme: { read: () => guarded('site.theme.read', () => state.store.adapters.theme.read()) },
    booking: {
      availability: (query) => guarded('booking.availability.read', () => state.store.adapters.booking.availability(query)),
      start: (details) => guarded('booking.create', () => state.store.adapters.booking.start(details)),
    },
    forms: { submit: (form, fields) => guarded('forms.submit', () => state.store.adapters.forms.submit(form, fields)) },
    sms: { open: (message) => guarded('communications.sms.open', () => state.store.adapters.sms.open(message)) },
    waivers: { start: (waiver) => guarded('waivers.start', () => state.store.adapters.waivers.start(waiver)) },
    analytics: { track: (event, properties) => guarded('analytics.events.write', () => state.store.adapters.analytics.track(event, properties)) },
  };

  // -- the frame ------------------------------------------------------------------------
  const hostWindow = Object.freeze({});
  const windowListeners = new Set<(event: RuntimeMessageEvent) => void>();
  const clock = frameClock();
  const frameWindow: RuntimeWindow = {
    parent: hostWindow,
    addEventListener(type, listener) {
      if (type === 'message') windowListeners.add(listener);
    },
    removeEventListener(type, listener) {
      if (type === 'message') windowListeners.delete(listener);
    },
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    performance: { now: clock.now },
  };

  /** The call whose request the frame is sending now (in the ready state a call is sent synchronously, or not at all). */
  let sending: CallState | null = null;
  /** Resolvers waiting for the frame to receive a grants or settings message. */
  const deliveries: { type: string; resolve: () => void }[] = [];
  let hostPort: MessagePort | null = null;
  let framePort: MessagePort | null = null;

  function frameEnd(port: MessagePort): RuntimePort {
    return {
      postMessage(message: unknown): void {
        const request = message as { type?: unknown; payload?: JsonValue };
        if (sending !== null && request.type === MESSAGE_TYPES.request) {
          sending.payload = deepFreeze(structuredClone(request.payload ?? null));
          sending.sent = true;
        }
        port.postMessage(message);
      },
      addEventListener(_type, listener): void {
        // Node's own listener form: it starts the port (the runtime calls start() next anyway).
        port.on('message', (data: unknown) => {
          listener({ data });
          const type_ = (data as { type?: unknown } | null)?.type;
          for (let i = 0; i < deliveries.length; i++) {
            if (deliveries[i]!.type === type_) {
              deliveries.splice(i, 1)[0]!.resolve();
              break;
            }
          }
        });
        port.unref();
      },
      start(): void {
        port.start();
        port.unref();
      },
      close(): void {
        port.close();
      },
    };
  }

  const inner = installPlatform(frameWindow, initial.config as unknown as PlatformConfig);

  const bridge: HostBridge = createHostBridge({
    frame: {
      contentWindow: {
        postMessage(message: unknown, _targetOrigin: string, transfer: object[]): void {
          // As a window's postMessage: a structured clone, delivered later, from the parent.
          const data = structuredClone(message);
          queueMicrotask(() => {
            for (const listener of [...windowListeners]) listener({ source: hostWindow, origin: PARENT_ORIGIN, data, ports: transfer });
          });
        },
      },
    },
    frameOrigin: 'null',
    manifest: { capabilities: initial.declared, properties: initial.properties ?? [] },
    grants: () => grants,
    settings: () => settings,
    adapters,
    // `--fail` exactly as the preview: REQUEST_FAILED after every check.
    failing: () => [...failures].filter(([, code]) => code === 'REQUEST_FAILED').map(([key]) => key),
    failWith: (capability) => {
      const code = failures.get(capability);
      return code === undefined || ADAPTER_PATH_CODES.includes(code) ? null : code;
    },
    consent: () => consent,
    strictHost: () => initial.strictHost,
    onCall: (entry) => {
      hostLog.push(entry);
    },
    dispatchCartUpdated: (detail) => {
      // The storefront's event is the host page's; the frame never sees it. Recorded, not dispatched on the test's global.
      cartEvents.push({ itemCount: detail.itemCount, total: detail.total });
    },
    createChannel: () => {
      const channel = new MessageChannel();
      hostPort = channel.port1;
      framePort = channel.port2;
      return { port1: channel.port1 as unknown as HostPort, port2: frameEnd(channel.port2) };
    },
  });

  // -- the calls ------------------------------------------------------------------------
  let pendingCalls = 0;
  /** Until PLATFORM.ready settles, code awaiting it has not run yet: settled() waits for it too. */
  let readyPending = true;
  const idleWaiters: (() => void)[] = [];
  function wakeIfIdle(): void {
    if (pendingCalls === 0 && !readyPending) for (const wake of idleWaiters.splice(0)) wake();
  }
  const readySettled = (): void => {
    readyPending = false;
    wakeIfIdle();
  };
  inner.ready.then(readySettled, readySettled);

  function track(method: MockMethod, capability: string | null, action: string | null, args: readonly unknown[], invoke: () => Promise<unknown>): Promise<unknown> {
    const call: CallState = { method, capability, action, args: Object.freeze([...args]), payload: null, sent: false, outcome: 'pending', result: undefined };
    calls.push(call);
    pendingCalls++;
    const release = hold();
    const finish = (): void => {
      pendingCalls--;
      release();
      wakeIfIdle();
    };
    sending = call;
    let promise: Promise<unknown>;
    try {
      promise = invoke();
    } finally {
      sending = null;
    }
    // A new promise, not the runtime's: a rejection the extension never handles stays
    // unhandled, as in the browser (node:test reports it).
    return promise.then(
      (value) => {
        call.outcome = 'ok';
        call.result = value;
        finish();
        return value;
      },
      (error: unknown) => {
        call.outcome = codeOf(error);
        finish();
        throw error;
      },
    );
  }

  const spaces: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const [space, name, capability, onlyAction] of METHODS) {
    const target = (inner as unknown as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>)[space]![name]!;
    (spaces[space] ??= {})[name] = (...args: unknown[]) =>
      track(`${space}.${name}` as MockMethod, capability, onlyAction ?? (typeof args[0] === 'string' ? args[0] : null), args, () => target(...args));
  }
  const platform = Object.freeze({
    ready: inner.ready,
    capabilities: () => inner.capabilities(),
    settings: () => inner.settings(),
    request: (...args: unknown[]) =>
      track('request', typeof args[0] === 'string' ? args[0] : null, typeof args[1] === 'string' ? args[1] : null, args, () => inner.request(args[0] as string, args[1] as string, args[2])),
    ...Object.fromEntries(Object.entries(spaces).map(([space, methods]) => [space, Object.freeze(methods)])),
  }) as unknown as PlatformApi as MockPlatformApi;

  /** Sends a grants or settings update and resolves when the frame has read it. */
  async function push(type: string, send: () => void): Promise<void> {
    if (disposed || !bridge.running) return;
    const release = hold();
    try {
      await new Promise<void>((resolve) => {
        deliveries.push({ type, resolve });
        send();
      });
    } finally {
      release();
    }
  }

  function dispose(): void {
    if (disposed) return;
    disposed = true;
    bridge.stop();
    framePort?.close();
    windowListeners.clear();
    for (const delivery of deliveries.splice(0)) delivery.resolve();
    keepAlive.port1.close();
  }

  // Node stays alive while PLATFORM.ready is pending, as for a call: without the
  // handshake, until INITIALIZATION_TIMEOUT.
  const releaseReady = hold();
  inner.ready.then(releaseReady, releaseReady);
  if (initial.handshake) {
    bridge.start();
    (hostPort as MessagePort | null)?.unref(); // set by createChannel during start()
    await inner.ready;
  }

  const host: MockHost = {
    declared: () => [...initial.declared],
    grants: () => CAPABILITIES.map((c) => c.key).filter((key) => initial.declared.includes(key) && grants.includes(key)),
    settings: () => ({ ...settings }),
    cart: () => state.store.cart(),
    theme: () => state.store.theme(),
    analytics: () => state.store.analytics(),
    forms: () => state.store.forms(),
    activity: () => activity.slice(),
    cartEvents: () => cartEvents.slice(),
    log: () => hostLog.slice(),
  };

  return {
    platform,
    get calls(): readonly MockCall[] {
      return calls.map((call) => Object.freeze({ ...call }));
    },
    host,
    async setGrants(next) {
      const list = capabilityList('setGrants(grants)', next);
      checkGrantsDeclared('setGrants(grants)', list, initial.declared);
      grants = list;
      await push(MESSAGE_TYPES.grants, () => bridge.pushGrants());
    },
    async setSettings(next) {
      settings = checkSettings('setSettings(settings)', initial.properties, next);
      await push(MESSAGE_TYPES.settings, () => bridge.pushSettings());
    },
    fail(target, code = 'REQUEST_FAILED') {
      const capability = failTarget('fail(capabilityOrMethod)', target);
      if (code === null) failures.delete(capability);
      else failures.set(capability, failCode('fail(code)', code));
    },
    setConsent(on) {
      consent = checkBoolean('setConsent(consent)', on, true);
    },
    setSmsAvailable(on) {
      smsAvailable = checkBoolean('setSmsAvailable(available)', on, true);
    },
    async settled() {
      for (;;) {
        while (pendingCalls > 0 || readyPending) await new Promise<void>((resolve) => idleWaiters.push(resolve));
        const release = hold();
        try {
          await nextTask();
        } finally {
          release();
        }
        if (pendingCalls === 0 && !readyPending) return;
      }
    },
    clearCalls() {
      calls.length = 0;
      hostLog.length = 0;
    },
    async reset() {
      grants = [...initial.grants];
      failures = new Map(initial.failures);
      settings = { ...initial.settings };
      consent = initial.consent;
      smsAvailable = initial.smsAvailable;
      state = await buildStore();
      calls.length = 0;
      hostLog.length = 0;
      cartEvents.length = 0;
      await push(MESSAGE_TYPES.grants, () => bridge.pushGrants());
      await push(MESSAGE_TYPES.settings, () => bridge.pushSettings());
    },
    dispose,
    get disposed(): boolean {
      return disposed;
    },
  };
}

/**
 * createMockPlatform, then defines `window.PLATFORM` (and the global `PLATFORM`) as the
 * store's page does before any extension script runs. Without a `window` (plain Node) the
 * global object stands for it, as in a browser's main thread. Import the code under test
 * after this resolves. One install at a time: uninstall() first.
 */
export async function installMockPlatform(options?: MockPlatformOptions): Promise<InstalledMockPlatform> {
  const global = globalThis as Record<string, unknown>;
  assertNotInstalled(global);
  const mock = await createMockPlatform(options);
  try {
    assertNotInstalled(global);
  } catch (error) {
    mock.dispose();
    throw error;
  }
  const createdWindow = global['window'] === undefined;
  if (createdWindow) Object.defineProperty(global, 'window', { value: global, configurable: true, writable: true, enumerable: false });
  const targets = [...new Set([global['window'] as Record<string, unknown>, global])];
  for (const target of targets) Object.defineProperty(target, 'PLATFORM', { value: mock.platform, configurable: true, enumerable: true, writable: false });
  let installed = true;
  const disposeMock = mock.dispose;
  function uninstall(): void {
    if (installed) {
      installed = false;
      for (const target of targets) {
        if (Object.getOwnPropertyDescriptor(target, 'PLATFORM')?.value === mock.platform) delete target['PLATFORM'];
      }
      if (createdWindow && global['window'] === global) delete global['window'];
    }
    disposeMock();
  }
  // The handle is the mock's own object (its getters stay live), with uninstall added.
  return Object.assign(mock, { uninstall, dispose: uninstall });
}

function assertNotInstalled(global: Record<string, unknown>): void {
  const win = global['window'] as Record<string, unknown> | undefined;
  if (global['PLATFORM'] !== undefined || (typeof win === 'object' && win !== null && win['PLATFORM'] !== undefined)) {
    throw new MockPlatformError('ERR_ALREADY_INSTALLED', 'window.PLATFORM is already defined: call uninstall() on the mock installed earlier (for example in afterEach) before installing another');
  }
}
