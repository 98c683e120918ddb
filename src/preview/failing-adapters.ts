// Store failures on demand: a call that passed the host's checks may never answer (the frame's runtime then times it
// out) or fail as ADAPTER_UNAVAILABLE. Codes a host answers by itself are the host's failWith option.
import { AdapterUnavailable, type Adapters } from '../bridge/adapters.js';

/** What one capability's calls do now: run, never answer, or be unavailable. */
export type AdapterFault = 'run' | 'hold' | 'unavailable';

export function faultyAdapters(adapters: Adapters, fault: (capability: string) => AdapterFault): Adapters {
  function guarded<T>(capability: string, run: () => Promise<T>): Promise<T> {
    const what = fault(capability);
    if (what === 'unavailable') return Promise.reject(new AdapterUnavailable());
    if (what === 'hold') return new Promise<T>(() => undefined);
    return run();
  }
  return {
    catalog: { list: (query) => guarded('catalog.products.read', () => adapters.catalog.list(query)) },
    cart: {
      add: (details) => guarded('cart.manage', () => adapters.cart.add(details)),
      remove: (details) => guarded('cart.manage', () => adapters.cart.remove(details)),
      update: (details) => guarded('cart.manage', () => adapters.cart.update(details)),
    },
    theme: { read: () => guarded('site.theme.read', () => adapters.theme.read()) },
    booking: {
      availability: (query) => guarded('booking.availability.read', () => adapters.booking.availability(query)),
      start: (details) => guarded('booking.create', () => adapters.booking.start(details)),
    },
    forms: { submit: (form, fields) => guarded('forms.submit', () => adapters.forms.submit(form, fields)) },
    sms: { open: (message) => guarded('communications.sms.open', () => adapters.sms.open(message)) },
    waivers: { start: (waiver) => guarded('waivers.start', () => adapters.waivers.start(waiver)) },
    analytics: { track: (event, properties) => guarded('analytics.events.write', () => adapters.analytics.track(event, properties)) },
  };
}
