// platform-ext/testing's mock host: the real runtime over a MessageChannel to the real host and the preview's
// mock store, so every check, limit and code is the production path; only the browser's window is a stand-in.
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
  setConsent(consent: boolean): void;
  setSmsAvailable(available: boolean): void;
  /** Resolves when neither the handshake nor any call is pending and the code awaiting the last has run on. */
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
const RELEASE_BASE = 'https://extensions.example/';

/** Codes a failing adapter gives through the host's own adapter path; the rest are answered by the host's failWith. */
const ADAPTER_PATH_CODES: readonly BridgeErrorCode[] = ['ADAPTER_UNAVAILABLE', 'REQUEST_TIMEOUT'];

type CallState = { -readonly [K in keyof MockCall]: MockCall[K] };

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

/** One mock platform: the plan, what the test set since, the store, the calls, and what keeps Node alive. */
interface MockState {
  readonly initial: Plan;
  grants: readonly string[];
  failures: Map<string, BridgeErrorCode>;
  settings: Record<string, SettingValue>;
  consent: boolean;
  smsAvailable: boolean;
  /** Replaced by reset(); the adapters look it up at each call. */
  store: MockStore;
  readonly calls: CallState[];
  readonly hostLog: CallLogEntry[];
  readonly activity: StoreActivity[];
  readonly cartEvents: CartUpdatedDetail[];
  disposed: boolean;
  /** Its port1 is ref'd exactly while `holds` > 0: the handshake, a call, a push or settled() is pending. */
  readonly keepAlive: MessageChannel;
  holds: number;
  /** The frame's window; `parent` is the host's, the source the runtime accepts the handshake from. */
  readonly frameWindow: RuntimeWindow;
  readonly windowListeners: Set<(event: RuntimeMessageEvent) => void>;
  bridge: HostBridge;
  hostPort: MessagePort | null;
  framePort: MessagePort | null;
  /** The call whose request the frame is sending now (when ready a call is sent synchronously, or not at all). */
  sending: CallState | null;
  readonly deliveries: { type: string; resolve: () => void }[];
  pendingCalls: number;
  /** Until PLATFORM.ready settles, code awaiting it has not run yet: settled() waits for it too. */
  readyPending: boolean;
  readonly idleWaiters: (() => void)[];
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

// Timers looked up at each call (later fake timers apply) and unref'd; the clock never reads before a fired timer's
// due time, so fake timers that leave Date alone still make the runtime see its deadline pass (REQUEST_TIMEOUT).
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

function newState(initial: Plan): MockState {
  const keepAlive = new MessageChannel();
  keepAlive.port1.on('message', () => undefined);
  keepAlive.port1.unref();
  const windowListeners = new Set<(event: RuntimeMessageEvent) => void>();
  const clock = frameClock();
  return {
    initial,
    grants: [...initial.grants],
    failures: new Map(initial.failures),
    settings: { ...initial.settings },
    consent: initial.consent,
    smsAvailable: initial.smsAvailable,
    store: undefined as unknown as MockStore,
    calls: [],
    hostLog: [],
    activity: [],
    cartEvents: [],
    disposed: false,
    keepAlive,
    holds: 0,
    frameWindow: {
      parent: Object.freeze({}),
      addEventListener(type, listener) {
        if (type === 'message') windowListeners.add(listener);
      },
      removeEventListener(type, listener) {
        if (type === 'message') windowListeners.delete(listener);
      },
      setTimeout: clock.setTimeout,
      clearTimeout: clock.clearTimeout,
      performance: { now: clock.now },
    },
    windowListeners,
    bridge: undefined as unknown as HostBridge,
    hostPort: null,
    framePort: null,
    sending: null,
    deliveries: [],
    pendingCalls: 0,
    readyPending: true,
    idleWaiters: [],
  };
}

/** Keeps Node alive until the returned release is called (once; later calls do nothing). */
function hold(mock: MockState): () => void {
  if (mock.disposed) return () => undefined;
  mock.holds++;
  if (mock.holds === 1) mock.keepAlive.port1.ref();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    mock.holds--;
    if (mock.holds === 0 && !mock.disposed) mock.keepAlive.port1.unref();
  };
}

/** A store as the plan says, its set-up checked as options; its own cart additions are not recorded as activity. */
async function buildStore(mock: MockState): Promise<MockStore> {
  const { initial } = mock;
  const store = createMockStore({
    emptyCatalog: initial.emptyCatalog,
    ...(initial.products !== null && { products: initial.products }),
    smsAvailable: () => mock.smsAvailable,
    consent: () => mock.consent,
    onActivity: (entry) => {
      mock.activity.push(entry);
    },
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
  mock.activity.length = 0;
  return store;
}

function guarded<T>(mock: MockState, capability: string, run: () => Promise<T>): Promise<T> {
  const code = mock.failures.get(capability);
  // The host turns this into ADAPTER_UNAVAILABLE.
  if (code === 'ADAPTER_UNAVAILABLE') return Promise.reject(new AdapterUnavailable());
  // The host never answers: the frame's own timer rejects with REQUEST_TIMEOUT.
  if (code === 'REQUEST_TIMEOUT') return new Promise<T>(() => undefined);
  return run();
}

function storeAdapters(mock: MockState): Adapters {
  const store = (): MockStore['adapters'] => mock.store.adapters;
  return {
    catalog: { list: (query) => guarded(mock, 'catalog.products.read', () => store().catalog.list(query)) },
    cart: {
      add: (details) => guarded(mock, 'cart.manage', () => store().cart.add(details)),
      remove: (details) => guarded(mock, 'cart.manage', () => store().cart.remove(details)),
      update: (details) => guarded(mock, 'cart.manage', () => store().cart.update(details)),
    },
    theme: { read: () => guarded(mock, 'site.theme.read', () => store().theme.read()) },
    booking: {
      availability: (query) => guarded(mock, 'booking.availability.read', () => store().booking.availability(query)),
      start: (details) => guarded(mock, 'booking.create', () => store().booking.start(details)),
    },
    forms: { submit: (form, fields) => guarded(mock, 'forms.submit', () => store().forms.submit(form, fields)) },
    sms: { open: (message) => guarded(mock, 'communications.sms.open', () => store().sms.open(message)) },
    waivers: { start: (waiver) => guarded(mock, 'waivers.start', () => store().waivers.start(waiver)) },
    analytics: { track: (event, properties) => guarded(mock, 'analytics.events.write', () => store().analytics.track(event, properties)) },
  };
}

/** A message arrived at the frame's port: the runtime reads it, then a push waiting for its type resolves. */
function delivered(mock: MockState, data: unknown): void {
  const type = (data as { type?: unknown } | null)?.type;
  const index = mock.deliveries.findIndex((delivery) => delivery.type === type);
  if (index >= 0) mock.deliveries.splice(index, 1)[0]!.resolve();
}

/** The frame's end of the channel; records the payload of the request being sent. */
function frameEnd(mock: MockState, port: MessagePort): RuntimePort {
  return {
    postMessage(message: unknown): void {
      const request = message as { type?: unknown; payload?: JsonValue };
      if (mock.sending !== null && request.type === MESSAGE_TYPES.request) {
        mock.sending.payload = deepFreeze(structuredClone(request.payload ?? null));
        mock.sending.sent = true;
      }
      port.postMessage(message);
    },
    addEventListener(_type, listener): void {
      // Node's own listener form: it starts the port (the runtime calls start() next anyway).
      port.on('message', (data: unknown) => {
        listener({ data });
        delivered(mock, data);
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

function hostBridge(mock: MockState): HostBridge {
  const { initial, frameWindow, windowListeners } = mock;
  return createHostBridge({
    frame: {
      contentWindow: {
        postMessage(message: unknown, _targetOrigin: string, transfer: object[]): void {
          // As a window's postMessage: a structured clone, delivered later, from the parent.
          const data = structuredClone(message);
          queueMicrotask(() => {
            for (const listener of [...windowListeners]) listener({ source: frameWindow.parent, origin: PARENT_ORIGIN, data, ports: transfer });
          });
        },
      },
    },
    frameOrigin: 'null',
    manifest: { capabilities: initial.declared, properties: initial.properties ?? [] },
    grants: () => mock.grants,
    settings: () => mock.settings,
    adapters: storeAdapters(mock),
    // `--fail` exactly as the preview: REQUEST_FAILED after every check.
    failing: () => [...mock.failures].filter(([, code]) => code === 'REQUEST_FAILED').map(([key]) => key),
    failWith: (capability) => {
      const code = mock.failures.get(capability);
      return code === undefined || ADAPTER_PATH_CODES.includes(code) ? null : code;
    },
    consent: () => mock.consent,
    strictHost: () => initial.strictHost,
    onCall: (entry) => {
      mock.hostLog.push(entry);
    },
    dispatchCartUpdated: (detail) => {
      // The storefront's event is the host page's; the frame never sees it, nor does the test's global.
      mock.cartEvents.push({ itemCount: detail.itemCount, total: detail.total });
    },
    createChannel: () => {
      const channel = new MessageChannel();
      mock.hostPort = channel.port1;
      mock.framePort = channel.port2;
      return { port1: channel.port1 as unknown as HostPort, port2: frameEnd(mock, channel.port2) };
    },
  });
}

function wakeIfIdle(mock: MockState): void {
  if (mock.pendingCalls === 0 && !mock.readyPending) for (const wake of mock.idleWaiters.splice(0)) wake();
}

function track(mock: MockState, method: MockMethod, capability: string | null, action: string | null, args: readonly unknown[], invoke: () => Promise<unknown>): Promise<unknown> {
  const call: CallState = { method, capability, action, args: Object.freeze([...args]), payload: null, sent: false, outcome: 'pending', result: undefined };
  mock.calls.push(call);
  mock.pendingCalls++;
  const release = hold(mock);
  const finish = (): void => {
    mock.pendingCalls--;
    release();
    wakeIfIdle(mock);
  };
  mock.sending = call;
  let promise: Promise<unknown>;
  try {
    promise = invoke();
  } finally {
    mock.sending = null;
  }
  // A new promise, not the runtime's: a rejection the extension never handles stays unhandled, as in the browser.
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

/** `PLATFORM` as the extension sees it: the runtime's object, each call going through track(). */
function recordingPlatform(mock: MockState, inner: PlatformApi): MockPlatformApi {
  type Method = (...args: unknown[]) => Promise<unknown>;
  const spaces: Record<string, Record<string, Method>> = {};
  for (const [space, name, capability, onlyAction] of METHODS) {
    const target = (inner as unknown as Record<string, Record<string, Method>>)[space]![name]!;
    (spaces[space] ??= {})[name] = (...args: unknown[]) =>
      track(mock, `${space}.${name}` as MockMethod, capability, onlyAction ?? (typeof args[0] === 'string' ? args[0] : null), args, () => target(...args));
  }
  return Object.freeze({
    ready: inner.ready,
    capabilities: () => inner.capabilities(),
    settings: () => inner.settings(),
    request: (...args: unknown[]) =>
      track(mock, 'request', typeof args[0] === 'string' ? args[0] : null, typeof args[1] === 'string' ? args[1] : null, args, () => inner.request(args[0] as string, args[1] as string, args[2])),
    ...Object.fromEntries(Object.entries(spaces).map(([space, methods]) => [space, Object.freeze(methods)])),
  }) as unknown as PlatformApi as MockPlatformApi;
}

/** Sends a grants or settings update and resolves when the frame has read it. */
async function push(mock: MockState, type: string, send: () => void): Promise<void> {
  if (mock.disposed || !mock.bridge.running) return;
  const release = hold(mock);
  try {
    await new Promise<void>((resolve) => {
      mock.deliveries.push({ type, resolve });
      send();
    });
  } finally {
    release();
  }
}

function pushGrants(mock: MockState): Promise<void> {
  return push(mock, MESSAGE_TYPES.grants, () => mock.bridge.pushGrants());
}

function pushSettings(mock: MockState): Promise<void> {
  return push(mock, MESSAGE_TYPES.settings, () => mock.bridge.pushSettings());
}

async function settled(mock: MockState): Promise<void> {
  for (;;) {
    while (mock.pendingCalls > 0 || mock.readyPending) await new Promise<void>((resolve) => mock.idleWaiters.push(resolve));
    const release = hold(mock);
    try {
      await nextTask();
    } finally {
      release();
    }
    if (mock.pendingCalls === 0 && !mock.readyPending) return;
  }
}

async function reset(mock: MockState): Promise<void> {
  const { initial } = mock;
  mock.grants = [...initial.grants];
  mock.failures = new Map(initial.failures);
  mock.settings = { ...initial.settings };
  mock.consent = initial.consent;
  mock.smsAvailable = initial.smsAvailable;
  mock.store = await buildStore(mock);
  mock.calls.length = 0;
  mock.hostLog.length = 0;
  mock.cartEvents.length = 0;
  await pushGrants(mock);
  await pushSettings(mock);
}

function dispose(mock: MockState): void {
  if (mock.disposed) return;
  mock.disposed = true;
  mock.bridge.stop();
  mock.framePort?.close();
  mock.windowListeners.clear();
  for (const delivery of mock.deliveries.splice(0)) delivery.resolve();
  mock.keepAlive.port1.close();
}

function hostView(mock: MockState): MockHost {
  const { declared } = mock.initial;
  return {
    declared: () => [...declared],
    grants: () => CAPABILITIES.map((c) => c.key).filter((key) => declared.includes(key) && mock.grants.includes(key)),
    settings: () => ({ ...mock.settings }),
    cart: () => mock.store.cart(),
    theme: () => mock.store.theme(),
    analytics: () => mock.store.analytics(),
    forms: () => mock.store.forms(),
    activity: () => mock.activity.slice(),
    cartEvents: () => mock.cartEvents.slice(),
    log: () => mock.hostLog.slice(),
  };
}

/** A mock host and a `PLATFORM` connected to it, after the handshake (unless `handshake: false`); installs nothing. */
export async function createMockPlatform(options?: MockPlatformOptions): Promise<MockPlatform> {
  const mock = newState(plan(options));
  mock.store = await buildStore(mock);
  const inner = installPlatform(mock.frameWindow, mock.initial.config as unknown as PlatformConfig);
  mock.bridge = hostBridge(mock);
  const readySettled = (): void => {
    mock.readyPending = false;
    wakeIfIdle(mock);
  };
  inner.ready.then(readySettled, readySettled);
  const platform = recordingPlatform(mock, inner);
  // Node stays alive while PLATFORM.ready is pending, as for a call: without the handshake, until INITIALIZATION_TIMEOUT.
  const releaseReady = hold(mock);
  inner.ready.then(releaseReady, releaseReady);
  if (mock.initial.handshake) {
    mock.bridge.start();
    (mock.hostPort as MessagePort | null)?.unref(); // set by createChannel during start()
    await inner.ready;
  }

  return {
    platform,
    get calls(): readonly MockCall[] {
      return mock.calls.map((call) => Object.freeze({ ...call }));
    },
    host: hostView(mock),
    async setGrants(next) {
      const list = capabilityList('setGrants(grants)', next);
      checkGrantsDeclared('setGrants(grants)', list, mock.initial.declared);
      mock.grants = list;
      await pushGrants(mock);
    },
    async setSettings(next) {
      mock.settings = checkSettings('setSettings(settings)', mock.initial.properties, next);
      await pushSettings(mock);
    },
    fail(target, code = 'REQUEST_FAILED') {
      const capability = failTarget('fail(capabilityOrMethod)', target);
      if (code === null) mock.failures.delete(capability);
      else mock.failures.set(capability, failCode('fail(code)', code));
    },
    setConsent(on) {
      mock.consent = checkBoolean('setConsent(consent)', on, true);
    },
    setSmsAvailable(on) {
      mock.smsAvailable = checkBoolean('setSmsAvailable(available)', on, true);
    },
    settled: () => settled(mock),
    clearCalls() {
      mock.calls.length = 0;
      mock.hostLog.length = 0;
    },
    reset: () => reset(mock),
    dispose: () => dispose(mock),
    get disposed(): boolean {
      return mock.disposed;
    },
  };
}

/** createMockPlatform, then defines `window.PLATFORM` as the store's page does (the global stands in for `window`). */
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
