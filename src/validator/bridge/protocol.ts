// Closed type guards for the bridge protocol between window.PLATFORM and the host page (src/contract/protocol-doc.ts
// renders the tables). A guard accepts exactly the documented shape, plain object with exactly the listed keys and
// types; anything else is dropped by the receiver. Guards never throw.
import { isCapabilityKey } from '../capabilities.js';
import { isPropertyName } from '../grammar.js';
import { INITIALIZATION_TIMEOUT_MS, MAX_CAPABILITIES, MAX_PROPERTIES, REQUEST_TIMEOUT_MS } from '../limits.js';
import { isBridgeErrorCode } from './errors.js';
import {
  MESSAGE_TYPES,
  PROTOCOL_VERSION,
  type GrantsMessage,
  type HostToFrameMessage,
  type InitMessage,
  type PlatformConfig,
  type ReadyMessage,
  type ResponseMessage,
  type SettingsMessage,
  type SettingsSnapshot,
} from './messages.js';

export {
  CART_UPDATED_EVENT,
  CONFIG_META_NAME,
  MESSAGE_TYPES,
  PROTOCOL_VERSION,
  RUNTIME_MODULE_PATH,
  THEME_FIELDS,
  requestEnvelopeBytes,
  type CartUpdatedDetail,
  type GrantsMessage,
  type HostToFrameMessage,
  type InitMessage,
  type PlatformConfig,
  type ReadyMessage,
  type RequestMessage,
  type ResponseMessage,
  type SettingsMessage,
  type SettingsSnapshot,
  type SettingValue,
  type ThemeField,
} from './messages.js';

/** A request message as the host may receive it: the envelope is exact, the members are checked by checkRequest. */
export interface RawRequestMessage {
  readonly type: typeof MESSAGE_TYPES.request;
  readonly id: number;
  readonly capability: unknown;
  readonly action: unknown;
  readonly payload: unknown;
}

type Record_ = Readonly<Record<string, unknown>>;

function isPlainRecord(value: unknown): value is Record_ {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function hasExactKeys(value: Record_, required: readonly string[], optional: readonly string[] = []): boolean {
  const keys = Reflect.ownKeys(value);
  if (keys.length < required.length || keys.length > required.length + optional.length) return false;
  let found = 0;
  for (const key of keys) {
    if (typeof key !== 'string') return false;
    const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor)) return false;
    if (required.includes(key)) found++;
    else if (!optional.includes(key)) return false;
  }
  return found === required.length;
}

/** hasExactKeys for a structured clone (MessageEvent data): own enumerable string-keyed data only, so no descriptors. */
function hasExactClonedKeys(value: Record_, required: readonly string[]): boolean {
  if (Object.keys(value).length !== required.length) return false;
  for (let i = 0; i < required.length; i++) if (!Object.prototype.hasOwnProperty.call(value, required[i]!)) return false;
  return true;
}

/** Guards read untrusted data: any exception (a hostile Proxy in a direct call) means "not this message". */
function safely(test: () => boolean): boolean {
  try {
    return test();
  } catch {
    return false;
  }
}

/** Message ids: integers from 1 up to the largest integer a JSON number carries exactly. */
export function isMessageId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

export function isCapabilityList(value: unknown): value is readonly string[] {
  return safely(() => {
    if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype || value.length > MAX_CAPABILITIES) return false;
    const seen = new Set<string>();
    for (let i = 0; i < value.length; i++) {
      const key: unknown = value[i];
      if (typeof key !== 'string' || !isCapabilityKey(key) || seen.has(key)) return false;
      seen.add(key);
    }
    return true;
  });
}

export function isSettingsSnapshot(value: unknown): value is SettingsSnapshot {
  return safely(() => {
    if (!isPlainRecord(value)) return false;
    const keys = Reflect.ownKeys(value);
    if (keys.length > MAX_PROPERTIES) return false;
    for (const key of keys) {
      if (typeof key !== 'string' || !isPropertyName(key)) return false;
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
      if (descriptor === undefined || !('value' in descriptor)) return false;
      const v: unknown = descriptor.value;
      if (!(typeof v === 'boolean' || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) return false;
    }
    return true;
  });
}

export function isInitMessage(data: unknown): data is InitMessage {
  return safely(() => isPlainRecord(data) && hasExactKeys(data, ['type', 'protocol']) && data.type === MESSAGE_TYPES.init && data.protocol === PROTOCOL_VERSION);
}

export function isReadyMessage(data: unknown): data is ReadyMessage {
  return safely(
    () =>
      isPlainRecord(data) &&
      hasExactKeys(data, ['type', 'protocol', 'capabilities', 'settings']) &&
      data.type === MESSAGE_TYPES.ready &&
      data.protocol === PROTOCOL_VERSION &&
      isCapabilityList(data.capabilities) &&
      isSettingsSnapshot(data.settings),
  );
}

export function isGrantsMessage(data: unknown): data is GrantsMessage {
  return safely(() => isPlainRecord(data) && hasExactKeys(data, ['type', 'capabilities']) && data.type === MESSAGE_TYPES.grants && isCapabilityList(data.capabilities));
}

export function isSettingsMessage(data: unknown): data is SettingsMessage {
  return safely(() => isPlainRecord(data) && hasExactKeys(data, ['type', 'settings']) && data.type === MESSAGE_TYPES.settings && isSettingsSnapshot(data.settings));
}

const REQUEST_KEYS: readonly string[] = ['type', 'id', 'capability', 'action', 'payload'];
const RESULT_KEYS: readonly string[] = ['type', 'id', 'ok', 'result'];
const ERROR_KEYS: readonly string[] = ['type', 'id', 'ok', 'error'];
const ERROR_DETAIL_KEYS: readonly string[] = ['code', 'message'];

/** The request envelope: exact keys and a valid id; checkRequest judges the rest so it gets a code. `cloned`: `data` is a
 *  structured clone, trusted to hold data properties only (the host's port handler: same answer, less work per call). */
export function isRequestMessage(data: unknown, cloned = false): data is RawRequestMessage {
  // As `safely` does, without a closure per message: the host runs this for every call.
  try {
    return (
      isPlainRecord(data) &&
      (cloned ? hasExactClonedKeys(data, REQUEST_KEYS) : hasExactKeys(data, REQUEST_KEYS)) &&
      data.type === MESSAGE_TYPES.request &&
      isMessageId(data.id)
    );
  } catch {
    return false;
  }
}

/** `cloned` as for isRequestMessage (the runtime's port handler). */
export function isResponseMessage(data: unknown, cloned = false): data is ResponseMessage {
  // As `safely`, without a closure per message: the runtime runs this for every answer.
  try {
    if (!isPlainRecord(data) || data.type !== MESSAGE_TYPES.response || !isMessageId(data.id)) return false;
    const exact = cloned ? hasExactClonedKeys : hasExactKeys;
    if (data.ok === true) return exact(data, RESULT_KEYS);
    if (data.ok !== false || !exact(data, ERROR_KEYS)) return false;
    const error = data.error;
    return isPlainRecord(error) && exact(error, ERROR_DETAIL_KEYS) && isBridgeErrorCode(error.code) && typeof error.message === 'string';
  } catch {
    return false;
  }
}

export function isHostToFrameMessage(data: unknown): data is HostToFrameMessage {
  return isReadyMessage(data) || isGrantsMessage(data) || isSettingsMessage(data) || isResponseMessage(data);
}

// An origin as browsers serialize it: scheme, host, optional port; no path, no credentials.
const ORIGIN = /^https?:\/\/[^/\s?#@]+$/;
const BASE_URL = /^https?:\/\/[^/\s?#@]+\/[^\s?#]*$/;

function isTimeoutOverride(value: unknown, max: number): boolean {
  return value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max);
}

export function isPlatformConfig(value: unknown): value is PlatformConfig {
  return safely(
    () =>
      isPlainRecord(value) &&
      hasExactKeys(value, ['protocol', 'parentOrigin', 'baseUrl'], ['initializationTimeoutMs', 'requestTimeoutMs']) &&
      value.protocol === PROTOCOL_VERSION &&
      typeof value.parentOrigin === 'string' &&
      ORIGIN.test(value.parentOrigin) &&
      typeof value.baseUrl === 'string' &&
      BASE_URL.test(value.baseUrl) &&
      value.baseUrl.endsWith('/') &&
      isTimeoutOverride(value.initializationTimeoutMs, INITIALIZATION_TIMEOUT_MS) &&
      isTimeoutOverride(value.requestTimeoutMs, REQUEST_TIMEOUT_MS),
  );
}

/** The injected config from the meta element's `content`, or null when it is missing or not exactly the documented shape. */
export function parsePlatformConfig(text: string | null | undefined): PlatformConfig | null {
  if (typeof text !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return isPlatformConfig(value) ? value : null;
}
