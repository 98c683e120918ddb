// Browser entry of the host bundle (scripts/build-bridge.mjs): one ES module a host page can import.
export { createHostBridge, type CallLogEntry, type HostBridge, type HostBridgeOptions, type HostFrame, type HostManifest, type HostPort } from './host.js';
export { AdapterUnavailable, isAdapterUnavailable, THEME_FIELDS, type Adapters } from './adapters.js';
export { CART_UPDATED_EVENT } from '../validator/internal.js';
