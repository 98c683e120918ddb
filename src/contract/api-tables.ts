// What platform.d.ts needs beyond the validator's bridge tables. Request schemas come from
// ACTION_SPECS (requests.ts) and capability keys, methods and actions from CAPABILITIES;
// those tables do not say (1) how each named method's arguments become the payload (that is
// code in src/bridge/runtime.ts), (2) the response shapes (TypeScript types in
// src/bridge/adapters.ts, which a generator running on built JavaScript cannot read), or
// (3) the type names. They are written down once here. test/contract/snapshot-content.test.mjs
// drives the real runtime with every method of METHOD_PARAMS and checks the payload it
// sends, and test/interop/platform-types.test.mjs checks RESPONSE_TYPES and the request types
// against adapters.ts and requests.ts with the type checker, so neither can drift.
import { THEME_FIELDS } from '../validator/internal.js';

/** Where one argument of a named method goes: the action, the whole payload, or one payload field. */
export type ParamSource = { readonly kind: 'action' } | { readonly kind: 'payload' } | { readonly kind: 'field'; readonly field: string };

export interface MethodParam {
  readonly name: string;
  readonly source: ParamSource;
}

const action: ParamSource = { kind: 'action' };
const payload: ParamSource = { kind: 'payload' };
function field(name: string): ParamSource {
  return { kind: 'field', field: name };
}

/**
 * Arguments of each named method (contract "Capabilities and operations"), keyed by
 * capability; the method's name is CAPABILITIES[].method. Optionality is not written here:
 * a field argument is optional when the field is, a payload argument when every field is.
 */
export const METHOD_PARAMS: Readonly<Record<string, readonly MethodParam[]>> = {
  'analytics.events.write': [
    { name: 'event', source: field('event') },
    { name: 'properties', source: field('properties') },
  ],
  'booking.availability.read': [{ name: 'query', source: payload }],
  'booking.create': [{ name: 'details', source: payload }],
  'cart.manage': [
    { name: 'action', source: action },
    { name: 'details', source: payload },
  ],
  'catalog.products.read': [{ name: 'query', source: payload }],
  'communications.sms.open': [{ name: 'message', source: field('message') }],
  'forms.submit': [
    { name: 'form', source: field('form') },
    { name: 'fields', source: field('fields') },
  ],
  'site.theme.read': [],
  'waivers.start': [{ name: 'waiver', source: field('waiver') }],
};

/** Type name of each capability's request payload (the same for all its actions). */
export const REQUEST_TYPE_NAMES: Readonly<Record<string, string>> = {
  'analytics.events.write': 'AnalyticsTrackRequest',
  'booking.availability.read': 'AvailabilityQuery',
  'booking.create': 'BookingDetails',
  'cart.manage': 'CartDetails',
  'catalog.products.read': 'CatalogQuery',
  'communications.sms.open': 'SmsRequest',
  'forms.submit': 'FormsSubmitRequest',
  'site.theme.read': 'ThemeRequest',
  'waivers.start': 'WaiverRequest',
};

/** Type names of nested objects, keyed `<capability> <field>`, and of form variants, keyed `<capability> <field>=<choice>`. */
export const NESTED_TYPE_NAMES: Readonly<Record<string, string>> = {
  'analytics.events.write properties': 'AnalyticsProperties',
  'forms.submit fields=contact': 'ContactFields',
  'forms.submit fields=newsletter': 'NewsletterFields',
};

/** Names of a variant field's map from discriminator value to field type, keyed `<capability> <field>`. */
export const VARIANT_MAP_NAMES: Readonly<Record<string, string>> = {
  'forms.submit fields': 'FormFields',
};

/** Names of the action unions of capabilities with more than one action. */
export const ACTION_TYPE_NAMES: Readonly<Record<string, string>> = {
  'cart.manage': 'CartAction',
};

/** Names for the value sets of choice fields that extension code is likely to spell out. */
export const CHOICE_TYPE_NAMES: Readonly<Record<string, string>> = {
  'forms.submit form': 'FormName',
  'waivers.start waiver': 'WaiverKind',
  'catalog.products.read limit': 'CatalogLimit',
};

/** A TypeScript member of a response type: `type` is a TypeScript type expression over the names below. */
export interface ResponseMember {
  readonly name: string;
  readonly type: string;
  readonly doc: string;
}

export interface ResponseType {
  readonly name: string;
  readonly doc: string;
  /** Members of an interface; or `alias` for a type alias. */
  readonly members?: readonly ResponseMember[];
  readonly alias?: string;
}

/**
 * Response shapes (contract "Capabilities and operations", "Catalog product", "Theme").
 * `Theme` is generated from THEME_FIELDS in platform-dts.ts. Mirrors src/bridge/adapters.ts.
 */
export const RESPONSE_TYPES: readonly ResponseType[] = [
  {
    name: 'TrackResult',
    doc: 'analytics.track: whether the event was recorded (false when the visitor has not consented or the site does not track).',
    members: [{ name: 'tracked', type: 'boolean', doc: 'True when the event was recorded.' }],
  },
  {
    name: 'AvailabilityResult',
    doc: "booking.availability: the site's public range-availability response. Its shape is not part of the contract: read it defensively.",
    alias: 'JsonValue',
  },
  {
    name: 'OpenedFlow',
    doc: 'booking.start and waivers.start: the flow the host opened for the visitor.',
    members: [
      { name: 'opened', type: 'true', doc: 'Always true.' },
      { name: 'url', type: 'string', doc: 'The address of the flow that was opened.' },
    ],
  },
  {
    name: 'CartResult',
    doc: 'cart.manage: the cart after the operation.',
    members: [
      { name: 'ok', type: 'boolean', doc: 'False when the store refused the change (for example, out of stock).' },
      { name: 'itemCount', type: 'number', doc: 'Items in the cart now.' },
      { name: 'total', type: 'string', doc: 'Cart total, formatted for display.' },
    ],
  },
  {
    name: 'CatalogProduct',
    doc: 'One product of the catalog (contract "Catalog product").',
    members: [
      { name: 'id', type: 'number', doc: 'Product id (an integer); pass it to cart.manage as productId.' },
      { name: 'name', type: 'string', doc: 'Display name.' },
      { name: 'url', type: 'string', doc: 'Storefront route of the product. The frame cannot navigate: show it as text or not at all.' },
      { name: 'image', type: 'string', doc: 'Image URL.' },
      { name: 'price', type: 'string', doc: 'Price, formatted for display.' },
      { name: 'inStock', type: 'boolean', doc: 'Whether the product can be bought now.' },
    ],
  },
  {
    name: 'CatalogPage',
    doc: 'catalog.products: one page of results.',
    members: [
      { name: 'products', type: 'readonly CatalogProduct[]', doc: 'The products of this page.' },
      { name: 'total', type: 'number', doc: 'Matching products in all pages.' },
      { name: 'page', type: 'number', doc: 'This page, from 1.' },
      { name: 'lastPage', type: 'number', doc: 'The last page number.' },
    ],
  },
  {
    name: 'SmsOpened',
    doc: "communications.text: the visitor's messaging app was opened.",
    members: [{ name: 'opened', type: 'true', doc: 'Always true.' }],
  },
  {
    name: 'FormResult',
    doc: 'forms.submit: whether the site accepted the submission.',
    members: [{ name: 'ok', type: 'boolean', doc: 'False when the site refused it (for example, a field it needs is empty).' }],
  },
];

/** Response type name of each capability (the same for all its actions). */
export const RESPONSE_TYPE_NAMES: Readonly<Record<string, string>> = {
  'analytics.events.write': 'TrackResult',
  'booking.availability.read': 'AvailabilityResult',
  'booking.create': 'OpenedFlow',
  'cart.manage': 'CartResult',
  'catalog.products.read': 'CatalogPage',
  'communications.sms.open': 'SmsOpened',
  'forms.submit': 'FormResult',
  'site.theme.read': 'Theme',
  'waivers.start': 'OpenedFlow',
};

/** Short text for what each call's promise resolves to (capabilities.json, contract.md). */
export const RESPONSE_SUMMARIES: Readonly<Record<string, string>> = {
  'analytics.events.write': '{tracked: boolean}',
  'booking.availability.read': "the site's availability data (shape not specified by the contract)",
  'booking.create': '{opened: true, url: string}',
  'cart.manage': '{ok: boolean, itemCount: number, total: string}',
  'catalog.products.read': '{products: [{id, name, url, image, price, inStock}], total, page, lastPage}',
  'communications.sms.open': '{opened: true}',
  'forms.submit': '{ok: boolean}',
  'site.theme.read': `the theme: ${THEME_FIELDS.length} CSS value strings`,
  'waivers.start': '{opened: true, url: string}',
};
