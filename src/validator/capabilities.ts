// The nine capability keys of protocol version 1 (Capabilities and operations), closed by "What the service does" rule
// 6: one frozen table for the manifest check, the bridge (frame and host) and the preview's permission screen.

import { suggest } from './suggest.js';

export type CapabilityRisk = 'low' | 'medium';

export interface CapabilityDef {
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

// Likely meant keys for an unknown one, best first: by spelling (a couple of edits), else a shared noun (`cart.write`
// → `cart.manage`) narrowed by the verb or an action (`booking.start` → `booking.create`), else the verb alone
// (`submit` → `forms.submit`). Empty when nothing fits.
export function suggestCapabilities(input: string): readonly string[] {
  const near = suggest(input, CAPABILITY_KEYS);
  if (near !== undefined) return [near];
  const words = input.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '').map(singular);
  if (words.length === 0) return [];
  const verb = words[words.length - 1]!;
  const byNoun = CAPABILITIES.filter((c) => nounsOf(c).some((n) => words.includes(n)));
  const byVerb = (list: readonly CapabilityDef[]) => list.filter((c) => verbsOf(c).includes(verb));
  if (byNoun.length > 0) {
    const narrowed = byNoun.length > 1 ? byVerb(byNoun) : [];
    return (narrowed.length > 0 ? narrowed : byNoun).map((c) => c.key);
  }
  return byVerb(CAPABILITIES).map((c) => c.key);
}

/** The message tail for an unknown key: the suggestions, or else every key. */
export function capabilityKeyHint(input: string): string {
  const keys = suggestCapabilities(input).map((k) => `"${k}"`);
  if (keys.length === 1) return `did you mean ${keys[0]}?`;
  if (keys.length > 1) return `did you mean one of ${keys.join(', ')}?`;
  return `the keys are ${CAPABILITY_KEYS.join(', ')}`;
}

function singular(word: string): string {
  return word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word;
}

function nounsOf(c: CapabilityDef): string[] {
  return c.key.split('.').slice(0, -1).map(singular);
}

function verbsOf(c: CapabilityDef): string[] {
  return [singular(c.key.slice(c.key.lastIndexOf('.') + 1)), ...c.actions.map(singular)];
}
