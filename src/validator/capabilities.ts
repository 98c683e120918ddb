// The nine capability keys of protocol version 1 (Capabilities and operations), with
// risk level, named bridge method and actions. Version 1 is closed (rule 6 of "What the
// service does"): no other key or action exists. One frozen table, read by the manifest
// check, the bridge (frame and host) and the preview's permission screen.

export type CapabilityRisk = 'low' | 'medium';

export interface CapabilityDef {
  /** The key a manifest lists in `capabilities`. */
  readonly key: string;
  readonly risk: CapabilityRisk;
  /** The named method on the bridge object, e.g. `PLATFORM.cart.manage`. */
  readonly method: string;
  /** The actions `PLATFORM.request(capability, action, payload)` accepts. */
  readonly actions: readonly string[];
}

function capability(key: string, risk: CapabilityRisk, method: string, actions: readonly string[]): CapabilityDef {
  return Object.freeze({ key, risk, method, actions: Object.freeze([...actions]) });
}

/** In the contract's table order. */
export const CAPABILITIES: readonly CapabilityDef[] = Object.freeze([
  capability('analytics.events.write', 'low', 'PLATFORM.analytics.track', ['track']),
  capability('booking.availability.read', 'low', 'PLATFORM.booking.availability', ['list']),
  capability('booking.create', 'medium', 'PLATFORM.booking.start', ['start']),
  capability('cart.manage', 'medium', 'PLATFORM.cart.manage', ['add', 'remove', 'update']),
  capability('catalog.products.read', 'low', 'PLATFORM.catalog.products', ['list']),
  capability('communications.sms.open', 'low', 'PLATFORM.communications.text', ['open']),
  capability('forms.submit', 'medium', 'PLATFORM.forms.submit', ['submit']),
  capability('site.theme.read', 'low', 'PLATFORM.theme.read', ['read']),
  capability('waivers.start', 'medium', 'PLATFORM.waivers.start', ['start']),
]);

const BY_KEY: ReadonlyMap<string, CapabilityDef> = new Map(CAPABILITIES.map((c) => [c.key, c]));

/** The nine keys, in table order. */
export const CAPABILITY_KEYS: readonly string[] = Object.freeze(CAPABILITIES.map((c) => c.key));

/** True for exactly the nine keys (exact, case-sensitive match). */
export function isCapabilityKey(s: string): boolean {
  return BY_KEY.has(s);
}

export function capabilityByKey(key: string): CapabilityDef | undefined {
  return BY_KEY.get(key);
}
