// The storefront's end of the bridge (BRIDGE_PROTOCOL_DOC). Every call is checked again (the frame's
// checks are a courtesy, the host's the authority), grants read as it arrives (a revocation applies to
// the next call). Hostile input never throws: a non-request is dropped and counted; adapter failures
// become a generic REQUEST_FAILED, so no stack or adapter text reaches the frame.
import { isCapabilityKey, CAPABILITY_KEYS } from '../validator/internal.js';
import { MAX_PROPERTIES } from '../validator/internal.js';
import { isPropertyName } from '../validator/internal.js';
import { defaultErrorMessage, type BridgeErrorCode } from '../validator/internal.js';
import type { JsonValue } from '../validator/internal.js';
import {
  CART_UPDATED_EVENT,
  MESSAGE_TYPES,
  PROTOCOL_VERSION,
  isRequestMessage,
  type CartUpdatedDetail,
  type SettingsSnapshot,
  type SettingValue,
} from '../validator/internal.js';
import { checkRequest, CONTACT_STRICT_FIELDS, type NormalizedRequest } from '../validator/internal.js';
import { isAdapterUnavailable, type Adapters } from './adapters.js';

/** A DOM MessagePort fits. */
export interface HostPort {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'messageerror', listener: (event: { readonly data?: unknown }) => void): void;
  start(): void;
  close(): void;
}

/** An HTMLIFrameElement fits. */
export interface HostFrame {
  readonly contentWindow: { postMessage(message: unknown, targetOrigin: string, transfer: object[]): void } | null;
}

export interface HostManifest {
  readonly capabilities: readonly string[];
  readonly properties?: unknown;
}

export type CallLogEntry =
  | {
      readonly kind: 'call';
      readonly id: number;
      readonly capability: string | null;
      readonly action: string | null;
      /** The validated copy; null when the structure check refused it. */
      readonly payload: JsonValue | null;
      readonly ok: true;
      readonly result: unknown;
      readonly durationMs: number;
    }
  | {
      readonly kind: 'call';
      readonly id: number;
      readonly capability: string | null;
      readonly action: string | null;
      readonly payload: JsonValue | null;
      readonly ok: false;
      readonly code: BridgeErrorCode;
      readonly message: string;
      readonly durationMs: number;
    }
  | {
      readonly kind: 'dropped';
      /** Not the message itself: it may be huge or hostile. */
      readonly reason: string;
      readonly dropped: number;
    };

export interface HostBridgeOptions {
  readonly frame: HostFrame;
  /** "null" for the sandboxed frame (then "*" is used). */
  readonly frameOrigin: string;
  readonly manifest: HostManifest;
  /** Read at every call; only declared keys count. */
  readonly grants: () => readonly string[];
  readonly settings: () => Readonly<Record<string, SettingValue>>;
  readonly adapters: Adapters;
  /** Capabilities that fail with REQUEST_FAILED (preview --fail). */
  readonly failing: () => readonly string[];
  /** A code to answer with after every check instead of running the adapter (platform-ext/testing). */
  readonly failWith?: (capability: string, action: string) => BridgeErrorCode | null;
  /** Without consent, track answers {tracked: false} and records nothing. */
  readonly consent: () => boolean;
  /** D-26 `preview --strict-host`: a contact form needs every CONTACT_STRICT_FIELDS field. */
  readonly strictHost?: () => boolean;
  readonly onCall?: (entry: CallLogEntry) => void;
  readonly dispatchCartUpdated?: (detail: CartUpdatedDetail) => void;
  /** Its ports must deliver structured clones, as MessagePorts do. */
  readonly createChannel?: () => { readonly port1: HostPort; readonly port2: object };
  readonly now?: () => number;
}

export interface HostBridge {
  /** Call on every `load` of the frame. False when the frame has no window. */
  start(): boolean;
  pushGrants(): void;
  pushSettings(): void;
  /** Answers still in flight are dropped. */
  stop(): void;
  readonly dropped: number;
  readonly running: boolean;
}

const GENERIC_FAILURE = 'The host could not complete the operation';

// Looked up once: it is read twice per call.
const CLOCK: { now(): number } = typeof performance !== 'undefined' && typeof performance.now === 'function' ? performance : Date;

function defaultNow(): number {
  return CLOCK.now();
}

function defaultChannel(): { port1: HostPort; port2: object } {
  const channel = new MessageChannel();
  // The cast keeps this file type-checkable under Node's library too, whose MessagePort is typed apart.
  return { port1: channel.port1 as unknown as HostPort, port2: channel.port2 };
}

function defaultDispatchCartUpdated(detail: CartUpdatedDetail): void {
  const target = globalThis as { dispatchEvent?: (event: Event) => boolean };
  if (typeof target.dispatchEvent !== 'function' || typeof CustomEvent !== 'function') return;
  target.dispatchEvent(new CustomEvent(CART_UPDATED_EVENT, { detail }));
}

function effectiveGrants(declared: readonly string[], grants: readonly string[]): string[] {
  return CAPABILITY_KEYS.filter((key) => declared.includes(key) && grants.includes(key) && isCapabilityKey(key));
}

function publicSettings(settings: Readonly<Record<string, SettingValue>>): SettingsSnapshot {
  const out: Record<string, SettingValue> = {};
  let count = 0;
  for (const key of Object.keys(settings)) {
    const value: unknown = settings[key];
    if (!isPropertyName(key) || count >= MAX_PROPERTIES) continue;
    if (typeof value === 'boolean' || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) {
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      count++;
    }
  }
  return out;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function describeDropped(data: unknown): string {
  if (typeof data !== 'object' || data === null) return `not an object (${data === null ? 'null' : typeof data})`;
  const type = (data as { type?: unknown }).type;
  if (type !== MESSAGE_TYPES.request) return 'not a request message';
  return 'a request message of the wrong shape';
}

interface BridgeState {
  readonly options: HostBridgeOptions;
  readonly now: () => number;
  readonly createChannel: NonNullable<HostBridgeOptions['createChannel']>;
  readonly dispatchCartUpdated: (detail: CartUpdatedDetail) => void;
  readonly declared: readonly string[];
  /** Null when stopped. */
  port: HostPort | null;
  dropped: number;
}

function log(host: BridgeState, entry: CallLogEntry): void {
  if (host.options.onCall === undefined) return;
  try {
    host.options.onCall(entry);
  } catch { /* The page's log must never take the bridge down. */ }
}

function post(target: HostPort, message: unknown): boolean {
  try {
    target.postMessage(message);
    return true;
  } catch {
    return false; // DataCloneError (an adapter returned something that cannot be cloned) or a closed port
  }
}

function grantedNow(host: BridgeState): string[] {
  try {
    return effectiveGrants(host.declared, host.options.grants());
  } catch {
    return [];
  }
}

// Unfiltered: checkCall tests a key against `declared` and this list, as effectiveGrants would.
function grantsForCall(host: BridgeState): readonly string[] {
  try {
    const grants = host.options.grants();
    return Array.isArray(grants) ? grants : [];
  } catch {
    return [];
  }
}

function settingsNow(host: BridgeState): SettingsSnapshot {
  try {
    return publicSettings(host.options.settings());
  } catch {
    return {};
  }
}

function perform(host: BridgeState, call: NormalizedRequest): unknown {
  const a = host.options.adapters;
  switch (call.capability) {
    case 'analytics.events.write':
      if (!host.options.consent()) return { tracked: false };
      return a.analytics.track(call.payload.event, call.payload.properties);
    case 'booking.availability.read':
      return a.booking.availability(call.payload);
    case 'booking.create':
      return a.booking.start(call.payload);
    case 'cart.manage': {
      const result: unknown = a.cart[call.action](call.payload);
      if (!isThenable(result)) {
        cartUpdated(host, result);
        return result;
      }
      return Promise.resolve(result).then((settled: unknown) => {
        cartUpdated(host, settled);
        return settled;
      });
    }
    case 'catalog.products.read':
      return a.catalog.list(call.payload);
    case 'communications.sms.open':
      return a.sms.open(call.payload.message);
    case 'forms.submit':
      return a.forms.submit(call.payload.form, call.payload.fields);
    case 'site.theme.read':
      return a.theme.read();
    case 'waivers.start':
      return a.waivers.start(call.payload.waiver);
  }
}

/** Contract "Behaviour notes": after a cart operation the host dispatches the cart-updated event. */
function cartUpdated(host: BridgeState, result: unknown): void {
  if (typeof result !== 'object' || result === null) return;
  const { ok, itemCount, total } = result as { ok?: unknown; itemCount?: unknown; total?: unknown };
  if (ok !== true || typeof itemCount !== 'number' || typeof total !== 'string') return;
  try {
    host.dispatchCartUpdated({ itemCount, total });
  } catch { /* A listener's failure is the page's, not the call's. */ }
}

function strictHostProblem(host: BridgeState, call: NormalizedRequest): string | null {
  if (call.capability !== 'forms.submit' || call.payload.form !== 'contact') return null;
  let strict = false;
  try {
    strict = host.options.strictHost?.() === true;
  } catch {
    strict = false;
  }
  if (!strict) return null;
  const fields = call.payload.fields as unknown as Readonly<Record<string, unknown>>;
  const missing = CONTACT_STRICT_FIELDS.find((name) => fields[name] === undefined);
  return missing === undefined ? null : `"fields.${missing}" is required by this host (preview --strict-host; the contract leaves it optional)`;
}

// `started` is NaN when nothing logs (the clock is read only for the log). No outcome object per call.
function respond(host: BridgeState, 
  target: HostPort,
  id: number,
  capability: string | null,
  action: string | null,
  payload: JsonValue | null,
  started: number,
  ok: boolean,
  result: unknown,
  code: BridgeErrorCode,
  message: string,
): void {
  if (host.port !== target) return; // stopped or restarted meanwhile: the frame that asked is gone
  const logging = host.options.onCall !== undefined;
  const durationMs = logging ? host.now() - started : 0;
  if (ok) {
    if (post(target, { type: MESSAGE_TYPES.response, id, ok: true, result })) {
      if (logging) log(host, { kind: 'call', id, capability, action, payload, ok: true, result, durationMs });
      return;
    }
    code = 'REQUEST_FAILED';
    message = GENERIC_FAILURE;
  }
  post(target, { type: MESSAGE_TYPES.response, id, ok: false, error: { code, message } });
  if (logging) log(host, { kind: 'call', id, capability, action, payload, ok: false, code, message, durationMs });
}

function adapterFailed(host: BridgeState, target: HostPort, id: number, capability: string | null, action: string | null, payload: JsonValue, started: number, error: unknown): void {
  if (isAdapterUnavailable(error)) respond(host, target, id, capability, action, payload, started, false, undefined, 'ADAPTER_UNAVAILABLE', 'The site cannot provide this operation');
  else respond(host, target, id, capability, action, payload, started, false, undefined, 'REQUEST_FAILED', GENERIC_FAILURE);
}

function onRequest(host: BridgeState, target: HostPort, data: unknown): void {
  // A structured clone (HostBridgeOptions.createChannel).
  if (!isRequestMessage(data, true)) {
    host.dropped++;
    log(host, { kind: 'dropped', reason: describeDropped(data), dropped: host.dropped });
    return;
  }
  const started = host.options.onCall === undefined ? NaN : host.now();
  const id = data.id;
  const capability = typeof data.capability === 'string' ? data.capability : null;
  const action = typeof data.action === 'string' ? data.action : null;

  const checked = checkRequest(data, host.declared, grantsForCall(host), true);
  if (!checked.ok) {
    respond(host, target, id, capability, action, checked.copy ?? null, started, false, undefined, checked.code, checked.message);
    return;
  }
  const copy = checked.copy;
  const strictProblem = strictHostProblem(host, checked);
  if (strictProblem !== null) {
    respond(host, target, id, capability, action, copy, started, false, undefined, 'INVALID_REQUEST', strictProblem);
    return;
  }
  let failing: readonly string[];
  try {
    failing = host.options.failing();
  } catch {
    failing = [];
  }
  if (failing.includes(checked.capability)) {
    respond(host, target, id, capability, action, copy, started, false, undefined, 'REQUEST_FAILED', GENERIC_FAILURE);
    return;
  }
  let forced: BridgeErrorCode | null = null;
  try {
    forced = host.options.failWith?.(checked.capability, checked.action) ?? null;
  } catch {
    forced = null;
  }
  if (forced !== null) {
    respond(host, target, id, capability, action, copy, started, false, undefined, forced, defaultErrorMessage(forced));
    return;
  }
  let result: unknown;
  try {
    result = perform(host, checked);
  } catch (error) {
    adapterFailed(host, target, id, capability, action, copy, started, error);
    return;
  }
  // At most the adapter's own promise: an answer already there goes out in the same task.
  if (!isThenable(result)) respond(host, target, id, capability, action, copy, started, true, result, 'REQUEST_FAILED', '');
  else {
    Promise.resolve(result).then(
      (settled) => respond(host, target, id, capability, action, copy, started, true, settled, 'REQUEST_FAILED', ''),
      (error: unknown) => adapterFailed(host, target, id, capability, action, copy, started, error),
    );
  }
}

function stop(host: BridgeState): void {
  if (host.port === null) return;
  const old = host.port;
  host.port = null;
  try {
    old.close();
  } catch {}
}

function start(host: BridgeState): boolean {
  stop(host);
  const target = host.options.frame.contentWindow;
  if (target === null) return false;
  const channel = host.createChannel();
  const own = channel.port1;
  host.port = own;
  host.dropped = 0;
  own.addEventListener('message', (event) => {
    let data: unknown;
    try {
      data = event.data;
    } catch {
      data = undefined;
    }
    try {
      onRequest(host, own, data);
    } catch { /* Nothing throws by design; a bug must still not take the channel down. */ }
  });
  own.addEventListener('messageerror', () => {
    host.dropped++;
    log(host, { kind: 'dropped', reason: 'a message that could not be deserialized', dropped: host.dropped });
  });
  own.start();
  // The sandboxed frame's origin is opaque ("null"), which postMessage cannot target: "*".
  const targetOrigin = host.options.frameOrigin === 'null' ? '*' : host.options.frameOrigin;
  try {
    target.postMessage({ type: MESSAGE_TYPES.init, protocol: PROTOCOL_VERSION }, targetOrigin, [channel.port2]);
  } catch {
    stop(host);
    return false;
  }
  // Queued until the runtime starts the port: always the first message it reads.
  post(own, { type: MESSAGE_TYPES.ready, protocol: PROTOCOL_VERSION, capabilities: grantedNow(host), settings: settingsNow(host) });
  return true;
}

export function createHostBridge(options: HostBridgeOptions): HostBridge {
  const host: BridgeState = {
    options,
    now: options.now ?? defaultNow,
    createChannel: options.createChannel ?? defaultChannel,
    dispatchCartUpdated: options.dispatchCartUpdated ?? defaultDispatchCartUpdated,
    declared: [...options.manifest.capabilities],
    port: null,
    dropped: 0,
  };
  return {
    start: () => start(host),
    stop: () => stop(host),
    pushGrants(): void {
      if (host.port !== null) post(host.port, { type: MESSAGE_TYPES.grants, capabilities: grantedNow(host) });
    },
    pushSettings(): void {
      if (host.port !== null) post(host.port, { type: MESSAGE_TYPES.settings, settings: settingsNow(host) });
    },
    get dropped(): number {
      return host.dropped;
    },
    get running(): boolean {
      return host.port !== null;
    },
  };
}
