// The host's adapters, one per operation (contract "Capabilities and operations"), called with payloads
// checkRequest has normalized. The preview's mock is src/preview/mock-store.ts; a storefront plugs its own.
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

/** The contract does not show its shape: any JSON value. */
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

/** Recognized by its `code`, not class identity, so an adapter bundled apart from the host still works. */
export class AdapterUnavailable extends Error {
  readonly code = 'ADAPTER_UNAVAILABLE' as const;

  constructor(message = 'The site cannot provide this operation') {
    super(message);
    this.name = 'AdapterUnavailable';
  }
}

/** True for an AdapterUnavailable from any bundle. */
export function isAdapterUnavailable(error: unknown): boolean {
  try {
    return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ADAPTER_UNAVAILABLE';
  } catch {
    return false;
  }
}
