// The bridge's message names and shapes, apart from protocol.ts's guards so requests.ts can size a request without them.
import { jsonStringBytes, type JsonValue } from './payload.js';
import type { BridgeError } from './errors.js';

/** The bridge protocol version (contract "Versioning": protocol version 1, closed). */
export const PROTOCOL_VERSION = 1;

export const MESSAGE_TYPES = Object.freeze({
  /** host -> frame window, with exactly one MessagePort: the handshake. */
  init: 'platform.init',
  /** host -> frame (port): the ready state, first message on the port. */
  ready: 'platform.ready',
  /** host -> frame (port): the granted capabilities changed. */
  grants: 'platform.grants',
  /** host -> frame (port): the settings changed. */
  settings: 'platform.settings',
  /** frame -> host (port): one call. */
  request: 'platform.request',
  /** host -> frame (port): the answer to one call. */
  response: 'platform.response',
} as const);

/** `name` of the `<meta>` element the platform injects first in `<head>`; its `content` is the JSON config. */
export const CONFIG_META_NAME = 'platform-config';

/** Path of the injected runtime module, relative to the release base URL (a leading `.` segment can never be a bundle path: D-2). */
export const RUNTIME_MODULE_PATH = '.platform/runtime.js';

/** The preview host page's cart-updated event: the contract names no event, so this name and detail are the preview's own (D-26). */
export const CART_UPDATED_EVENT = 'platform:cart-updated';

/** The twelve string fields of the theme (contract "Theme"), in the contract's order. */
export const THEME_FIELDS = Object.freeze([
  'primary',
  'secondary',
  'background',
  'surface',
  'text',
  'mutedText',
  'link',
  'button',
  'headingFont',
  'bodyFont',
  'sectionGap',
  'buttonRadius',
] as const);
export type ThemeField = (typeof THEME_FIELDS)[number];

export type SettingValue = boolean | number | string;
export type SettingsSnapshot = Readonly<Record<string, SettingValue>>;

/** The injected config (JSON in the `platform-config` meta element). */
export interface PlatformConfig {
  readonly protocol: typeof PROTOCOL_VERSION;
  /** Origin of the host page (scheme://host[:port]); the handshake is accepted only from it. */
  readonly parentOrigin: string;
  /** The release base URL (ends with `/`). */
  readonly baseUrl: string;
  /** Shorter handshake timeout for tests; 1 to INITIALIZATION_TIMEOUT_MS, default INITIALIZATION_TIMEOUT_MS. */
  readonly initializationTimeoutMs?: number;
  /** Shorter call timeout for tests; 1 to REQUEST_TIMEOUT_MS, default REQUEST_TIMEOUT_MS. */
  readonly requestTimeoutMs?: number;
}

export interface InitMessage {
  readonly type: typeof MESSAGE_TYPES.init;
  readonly protocol: typeof PROTOCOL_VERSION;
}

export interface ReadyMessage {
  readonly type: typeof MESSAGE_TYPES.ready;
  readonly protocol: typeof PROTOCOL_VERSION;
  readonly capabilities: readonly string[];
  readonly settings: SettingsSnapshot;
}

export interface GrantsMessage {
  readonly type: typeof MESSAGE_TYPES.grants;
  readonly capabilities: readonly string[];
}

export interface SettingsMessage {
  readonly type: typeof MESSAGE_TYPES.settings;
  readonly settings: SettingsSnapshot;
}

export interface RequestMessage {
  readonly type: typeof MESSAGE_TYPES.request;
  readonly id: number;
  readonly capability: string;
  readonly action: string;
  readonly payload: JsonValue;
}

export type ResponseMessage =
  | { readonly type: typeof MESSAGE_TYPES.response; readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly type: typeof MESSAGE_TYPES.response; readonly id: number; readonly ok: false; readonly error: BridgeError };

export type HostToFrameMessage = ReadyMessage | GrantsMessage | SettingsMessage | ResponseMessage;

export interface CartUpdatedDetail {
  readonly itemCount: number;
  readonly total: string;
}

const ENVELOPE_TYPE_BYTES = '{"type":'.length;
const ENVELOPE_ID_KEY_BYTES = ',"id":'.length;
const ENVELOPE_CAPABILITY_KEY_BYTES = ',"capability":'.length;
const ENVELOPE_ACTION_KEY_BYTES = ',"action":'.length;
const ENVELOPE_PAYLOAD_KEY_BYTES = ',"payload":'.length;
const NULL_BYTES = 'null'.length;

/** Bytes of a request message besides its payload (with the payload's bytes: D-23's message size). A non-string
 *  member, or a non-finite `id`, counts as `null`; an absent `id` is left out. */
export function requestEnvelopeBytes(id: unknown, capability: unknown, action: unknown): number {
  // Counted, not stringified: this runs for every call on both sides; a test compares it with messageSize.
  let bytes = ENVELOPE_TYPE_BYTES + jsonStringBytes(MESSAGE_TYPES.request);
  if (id !== undefined) bytes += ENVELOPE_ID_KEY_BYTES + (typeof id === 'number' && Number.isFinite(id) ? String(id).length : NULL_BYTES);
  bytes += ENVELOPE_CAPABILITY_KEY_BYTES + (typeof capability === 'string' ? jsonStringBytes(capability) : NULL_BYTES);
  bytes += ENVELOPE_ACTION_KEY_BYTES + (typeof action === 'string' ? jsonStringBytes(action) : NULL_BYTES);
  return bytes + ENVELOPE_PAYLOAD_KEY_BYTES + 1; // the closing brace
}
