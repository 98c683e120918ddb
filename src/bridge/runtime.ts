// The frame's runtime: the frozen `window.PLATFORM` (contract "Bridge basics") speaking the bridge
// protocol over one MessagePort. It reads no globals, so Node tests drive it with a fake window.
import { INITIALIZATION_TIMEOUT_MS, MAX_PENDING_CALLS, REQUEST_TIMEOUT_MS } from '../validator/internal.js';
import { defaultErrorMessage, type BridgeErrorCode } from '../validator/internal.js';
import type { JsonValue } from '../validator/internal.js';
import {
  CONFIG_META_NAME,
  MESSAGE_TYPES,
  isGrantsMessage,
  isInitMessage,
  isReadyMessage,
  isResponseMessage,
  isSettingsMessage,
  parsePlatformConfig,
  type PlatformConfig,
  type SettingsSnapshot,
  type SettingValue,
} from '../validator/internal.js';
import { checkCall, checkStructure } from '../validator/internal.js';

/** A DOM MessagePort fits. */
export interface RuntimePort {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  start(): void;
  close(): void;
}

export interface RuntimeMessageEvent {
  readonly source: unknown;
  readonly origin: string;
  readonly data: unknown;
  readonly ports: readonly unknown[];
}

/** A DOM Window fits. */
export interface RuntimeWindow {
  readonly parent: unknown;
  addEventListener(type: 'message', listener: (event: RuntimeMessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: RuntimeMessageEvent) => void): void;
  setTimeout(handler: () => void, timeout: number): unknown;
  clearTimeout(handle: never): void;
  /** The call-timeout clock; Date.now() without it. */
  readonly performance?: { now(): number };
}

/** Deeply frozen. */
export interface ReadyState {
  readonly capabilities: readonly string[];
  readonly settings: SettingsSnapshot;
}

/** `window.PLATFORM` (contract "Bridge basics"); frozen, namespaces included. */
export interface PlatformApi {
  readonly ready: Promise<ReadyState>;
  capabilities(): readonly string[];
  settings(): SettingsSnapshot;
  request(capability: string, action: string, payload?: unknown): Promise<unknown>;
  readonly analytics: { track(event: string, properties?: unknown): Promise<unknown> };
  readonly booking: { availability(query: unknown): Promise<unknown>; start(details?: unknown): Promise<unknown> };
  readonly cart: { manage(action: string, details: unknown): Promise<unknown> };
  readonly catalog: { products(query?: unknown): Promise<unknown> };
  readonly communications: { text(message?: unknown): Promise<unknown> };
  readonly forms: { submit(form: unknown, fields: unknown): Promise<unknown> };
  readonly theme: { read(): Promise<unknown> };
  readonly waivers: { start(waiver?: unknown): Promise<unknown> };
}

/** A rejection: an `Error` whose `code` is a contract code (contract "Errors"). */
export interface BridgeCallError extends Error {
  readonly code: BridgeErrorCode;
}

export function bridgeError(code: BridgeErrorCode, message?: string): BridgeCallError {
  const error = new Error(message ?? defaultErrorMessage(code));
  Object.defineProperty(error, 'code', { value: code, enumerable: true });
  return error as BridgeCallError;
}

const EMPTY_LIST: readonly string[] = Object.freeze([]);
const EMPTY_SETTINGS: SettingsSnapshot = Object.freeze({});

/** A frozen copy of a settings snapshot. Own data properties, so a property named `constructor` is just a value. */
function frozenSettings(settings: SettingsSnapshot): SettingsSnapshot {
  const out: Record<string, SettingValue> = {};
  for (const key of Object.keys(settings)) {
    Object.defineProperty(out, key, { value: settings[key], enumerable: true, writable: false, configurable: false });
  }
  return Object.freeze(out);
}

interface PendingCall {
  readonly id: number;
  readonly capability: unknown;
  readonly action: unknown;
  readonly copy: JsonValue;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: BridgeCallError) => void;
  readonly deadline: number;
  sent: boolean;
}

export function readInjectedConfig(doc: { querySelector(selector: string): { getAttribute(name: string): string | null } | null }): PlatformConfig | null {
  try {
    return parsePlatformConfig(doc.querySelector(`meta[name="${CONFIG_META_NAME}"]`)?.getAttribute('content'));
  } catch {
    return null;
  }
}

/** A null config (missing or malformed) matches no parent origin: the handshake then times out. */
export function installPlatform(win: RuntimeWindow, config: PlatformConfig | null): PlatformApi {
  const parentOrigin = config?.parentOrigin ?? null;
  const initTimeout = config?.initializationTimeoutMs ?? INITIALIZATION_TIMEOUT_MS;
  const requestTimeout = config?.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const clock = win.performance;
  const now = clock !== undefined && typeof clock.now === 'function' ? () => clock.now() : () => Date.now();

  let state: 'initializing' | 'ready' | 'failed' = 'initializing';
  let port: RuntimePort | null = null;
  let granted: readonly string[] = EMPTY_LIST;
  let settings: SettingsSnapshot = EMPTY_SETTINGS;
  let nextId = 1;
  // Calls waiting for the handshake count toward the pending-call limit too. Map order is call order.
  const pending = new Map<number, PendingCall>();
  // One timer, armed for the oldest call's deadline: one timeout for all, so call order is deadline order.
  let deadlineTimer: unknown = null;

  function armDeadline(): void {
    if (deadlineTimer !== null) return;
    const oldest = pending.values().next();
    if (oldest.done === true) return;
    deadlineTimer = win.setTimeout(onDeadline, Math.max(0, oldest.value.deadline - now()));
  }

  function onDeadline(): void {
    deadlineTimer = null;
    const at = now();
    for (const call of pending.values()) {
      if (call.deadline > at) break;
      settle(call, false, bridgeError('REQUEST_TIMEOUT'));
    }
    armDeadline();
  }

  let resolveReady!: (state: ReadyState) => void;
  let rejectReady!: (error: BridgeCallError) => void;
  const ready = new Promise<ReadyState>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // Code that never awaits `ready` gets no unhandled rejection; code that does still sees it.
  ready.catch(() => undefined);

  function settle(call: PendingCall, ok: boolean, answer: unknown): void {
    if (pending.get(call.id) !== call) return;
    pending.delete(call.id);
    if (ok) call.resolve(answer);
    else call.reject(answer as BridgeCallError);
  }

  // Stages 2-4 with the current grants.
  function send(call: PendingCall): void {
    const checked = checkCall(call.capability, call.action, call.copy, granted, granted);
    if (!checked.ok) {
      settle(call, false, bridgeError(checked.code, checked.message));
      return;
    }
    call.sent = true;
    try {
      port!.postMessage({ type: MESSAGE_TYPES.request, id: call.id, capability: checked.capability, action: checked.action, payload: call.copy });
    } catch {
      settle(call, false, bridgeError('REQUEST_FAILED'));
    }
  }

  function request(capability: unknown, action: unknown, payload?: unknown): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      // D-23 order: the pending-call limit first (frame only).
      if (pending.size >= MAX_PENDING_CALLS) {
        reject(bridgeError('TOO_MANY_REQUESTS'));
        return;
      }
      if (state === 'failed') {
        reject(bridgeError('INITIALIZATION_TIMEOUT'));
        return;
      }
      const id = nextId++;
      // Stage 1 now: later changes to the caller's object (or a getter's answer) cannot reach the message.
      const structure = checkStructure({ id, capability, action, payload });
      if (!structure.ok) {
        reject(bridgeError(structure.code, structure.message));
        return;
      }
      const call: PendingCall = {
        id,
        capability: structure.capability,
        action: structure.action,
        copy: structure.copy,
        resolve,
        reject,
        deadline: now() + requestTimeout,
        sent: false,
      };
      pending.set(id, call);
      armDeadline();
      if (state === 'ready') send(call);
    });
  }

  function fail(): void {
    if (state !== 'initializing') return;
    state = 'failed';
    win.removeEventListener('message', onWindowMessage);
    if (port !== null) port.close();
    rejectReady(bridgeError('INITIALIZATION_TIMEOUT'));
    for (const call of [...pending.values()]) settle(call, false, bridgeError('INITIALIZATION_TIMEOUT'));
  }

  const initTimer = win.setTimeout(fail, initTimeout);

  function onPortMessage(event: { readonly data: unknown }): void {
    let data: unknown;
    try {
      data = event.data;
    } catch {
      return;
    }
    if (state === 'failed') return;
    // A MessagePort delivers structured clones: the key check can skip descriptors.
    if (isResponseMessage(data, true)) {
      const call = pending.get(data.id);
      if (call === undefined || !call.sent) return;
      if (data.ok) settle(call, true, data.result);
      else settle(call, false, bridgeError(data.error.code, data.error.message));
      return;
    }
    if (state === 'initializing') {
      if (!isReadyMessage(data)) return;
      state = 'ready';
      win.clearTimeout(initTimer as never);
      granted = Object.freeze([...data.capabilities]);
      settings = frozenSettings(data.settings);
      resolveReady(Object.freeze({ capabilities: granted, settings }));
      for (const call of [...pending.values()]) if (!call.sent) send(call);
      return;
    }
    // Ready: grants and settings updates apply to the next call.
    if (isGrantsMessage(data)) granted = Object.freeze([...data.capabilities]);
    else if (isSettingsMessage(data)) settings = frozenSettings(data.settings);
  }

  function onWindowMessage(event: RuntimeMessageEvent): void {
    if (state !== 'initializing' || port !== null) return;
    let accepted: RuntimePort | null = null;
    try {
      // Extension code can post to its own window, but then source is this window and origin "null".
      if (event.source === win.parent && parentOrigin !== null && event.origin === parentOrigin && isInitMessage(event.data)) {
        const ports = event.ports;
        if (ports !== null && ports !== undefined && ports.length === 1) accepted = ports[0] as RuntimePort;
      }
    } catch {
      accepted = null;
    }
    if (accepted === null) return;
    port = accepted;
    win.removeEventListener('message', onWindowMessage);
    port.addEventListener('message', onPortMessage);
    port.start();
  }

  win.addEventListener('message', onWindowMessage);

  const api: PlatformApi = Object.freeze({
    ready,
    capabilities: () => granted,
    settings: () => settings,
    request: (capability: string, action: string, payload?: unknown) => request(capability, action, payload),
    analytics: Object.freeze({ track: (event: string, properties?: unknown) => request('analytics.events.write', 'track', { event, properties }) }),
    booking: Object.freeze({
      availability: (query: unknown) => request('booking.availability.read', 'list', query),
      start: (details?: unknown) => request('booking.create', 'start', details),
    }),
    cart: Object.freeze({ manage: (action: string, details: unknown) => request('cart.manage', action, details) }),
    catalog: Object.freeze({ products: (query?: unknown) => request('catalog.products.read', 'list', query) }),
    communications: Object.freeze({ text: (message?: unknown) => request('communications.sms.open', 'open', { message }) }),
    forms: Object.freeze({ submit: (form: unknown, fields: unknown) => request('forms.submit', 'submit', { form, fields }) }),
    theme: Object.freeze({ read: () => request('site.theme.read', 'read', {}) }),
    waivers: Object.freeze({ start: (waiver?: unknown) => request('waivers.start', 'start', { waiver }) }),
  });
  try {
    Object.defineProperty(win, 'PLATFORM', { value: api, enumerable: true, writable: false, configurable: false });
  } catch { /* Already defined (a second install): the first one stays. */ }
  return api;
}
