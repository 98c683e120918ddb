// The host's adapters: one method per operation, each returning a promise of the
// contract's response shape (contract "Capabilities and operations"). The bridge host
// (host.ts) calls them with normalized payloads only (checkRequest has run). The
// preview's mock implementation lives in src/preview/mock-store.ts; a storefront would
// plug its own.
import type {
  AnalyticsProperties,
  AvailabilityQuery,
  BookingDetails,
  CartDetails,
  CatalogQuery,
  ContactFields,
  FormName,
  NewsletterFields,
  WaiverKind,
} from '../validator/internal.js';
import type { ThemeField } from '../validator/internal.js';
import type { JsonValue } from '../validator/internal.js';

export type {
  AnalyticsProperties,
  AvailabilityQuery,
  BookingDetails,
  CartDetails,
  CatalogQuery,
  ContactFields,
  FormName,
  NewsletterFields,
  WaiverKind,
} from '../validator/internal.js';
export { THEME_FIELDS, type ThemeField, type CartUpdatedDetail } from '../validator/internal.js';

/** Catalog product (contract "Catalog product"). */
export interface CatalogProduct {
  readonly id: number;
  readonly name: string;
  /** Storefront route of the product. */
  readonly url: string;
  readonly image: string;
  /** Formatted amount. */
  readonly price: string;
  readonly inStock: boolean;
}

export interface CatalogPage {
  readonly products: readonly CatalogProduct[];
  readonly total: number;
  readonly page: number;
  readonly lastPage: number;
}

export interface CartResult {
  readonly ok: boolean;
  readonly itemCount: number;
  /** Formatted amount. */
  readonly total: string;
}

/** Twelve strings, each a CSS value (contract "Theme"). */
export type Theme = { readonly [K in ThemeField]: string };

/** `booking.start` and `waivers.start`: the flow that was opened. */
export interface OpenedFlow {
  readonly opened: true;
  readonly url: string;
}

export interface SmsOpened {
  readonly opened: true;
}

export interface FormResult {
  readonly ok: boolean;
}

export interface TrackResult {
  readonly tracked: boolean;
}

/** The site's public range-availability response: its shape is not shown in the contract, any JSON value. */
export type AvailabilityResult = JsonValue;

export interface Adapters {
  readonly catalog: {
    list(query: CatalogQuery): Promise<CatalogPage>;
  };
  readonly cart: {
    add(details: CartDetails): Promise<CartResult>;
    remove(details: CartDetails): Promise<CartResult>;
    update(details: CartDetails): Promise<CartResult>;
  };
  readonly theme: {
    read(): Promise<Theme>;
  };
  readonly booking: {
    availability(query: AvailabilityQuery): Promise<AvailabilityResult>;
    start(details: BookingDetails): Promise<OpenedFlow>;
  };
  readonly forms: {
    submit(form: FormName, fields: ContactFields | NewsletterFields): Promise<FormResult>;
  };
  readonly sms: {
    /** Throws AdapterUnavailable when the site has no valid text-message link. */
    open(message: string | undefined): Promise<SmsOpened>;
  };
  readonly waivers: {
    start(waiver: WaiverKind): Promise<OpenedFlow>;
  };
  readonly analytics: {
    /** Called only when the visitor has consented; the host answers `{tracked: false}` itself otherwise. */
    track(event: string, properties: AnalyticsProperties): Promise<TrackResult>;
  };
}

/**
 * Thrown (or rejected with) by an adapter when the site cannot provide the operation; the
 * host answers ADAPTER_UNAVAILABLE. Recognized by its `code`, not by class identity, so an
 * adapter bundled separately from the host still works.
 */
export class AdapterUnavailable extends Error {
  readonly code = 'ADAPTER_UNAVAILABLE' as const;

  constructor(message = 'The site cannot provide this operation') {
    super(message);
    this.name = 'AdapterUnavailable';
  }
}

/** True for an AdapterUnavailable from any bundle: an object whose `code` is `ADAPTER_UNAVAILABLE`. */
export function isAdapterUnavailable(error: unknown): boolean {
  try {
    return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ADAPTER_UNAVAILABLE';
  } catch {
    return false;
  }
}
