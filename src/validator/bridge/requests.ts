// The closed request schemas of protocol version 1 (contract "Capabilities and operations", "Form fields") and
// D-23's check order; frame and host both run checkRequest and agree because they measure the same message with the
// same tables. First failure decides: structure (payload.ts), capability (CAPABILITY_NOT_GRANTED), action, fields
// (INVALID_REQUEST); the frame checks its pending-call limit first. Characters are UTF-16 code units (D-10).
import { capabilityByKey, isCapabilityKey } from '../capabilities.js';
import {
  ANALYTICS_EVENT_MAX_CHARS,
  ANALYTICS_LABEL_MAX_CHARS,
  BOOKING_DURATION_MAX,
  BOOKING_DURATION_MIN,
  BOOKING_TIME_MAX_CHARS,
  CART_QUANTITY_MAX,
  CART_QUANTITY_MIN,
  CATALOG_LIMITS,
  CATALOG_PAGE_MAX,
  CATALOG_PAGE_MIN,
  CATALOG_SEARCH_MAX_CHARS,
  FORM_EMAIL_MAX_CHARS,
  FORM_MESSAGE_MAX_CHARS,
  FORM_NAME_MAX_CHARS,
  FORM_PHONE_MAX_CHARS,
  FORM_QUESTION_TYPE_MAX,
  FORM_QUESTION_TYPE_MIN,
  FORM_SUBJECT_MAX_CHARS,
  SMS_MESSAGE_MAX_CHARS,
} from '../limits.js';
import { groupDigits } from '../text.js';
import type { BridgeErrorCode } from './errors.js';
import { requestEnvelopeBytes } from './messages.js';
import { copyPayload, type JsonObject, type JsonValue } from './payload.js';

// Normalized requests: what a successful check hands to the host's adapters.

export interface AnalyticsProperties {
  label?: string;
  value?: number;
}
/** `properties` is `{}` when the call gave none. */
export interface AnalyticsTrackPayload {
  event: string;
  properties: AnalyticsProperties;
}
export interface AvailabilityQuery {
  laneId: number;
  date: string;
  durationMinutes: number;
}
export interface BookingDetails {
  laneId?: number;
  startsAt?: string;
  endsAt?: string;
}
export interface CartDetails {
  productId: number;
  quantity: number;
}
export type CatalogLimit = (typeof CATALOG_LIMITS)[number];
export interface CatalogQuery {
  search?: string;
  page: number;
  limit: CatalogLimit;
  includeOutOfStock: boolean;
}
export interface SmsPayload {
  message?: string;
}
export interface ContactFields {
  questionType: number;
  name?: string;
  email?: string;
  phone?: string;
  subject?: string;
  message?: string;
}
export interface NewsletterFields {
  email: string;
}
export type FormName = 'contact' | 'newsletter';
export type FormsPayload = { form: 'contact'; fields: ContactFields } | { form: 'newsletter'; fields: NewsletterFields };
export type ThemePayload = Record<string, never>;
export type WaiverKind = 'range' | 'rental' | 'class';
export interface WaiverPayload {
  waiver: WaiverKind;
}
export type CartAction = 'add' | 'remove' | 'update';

export type NormalizedRequest =
  | { readonly capability: 'analytics.events.write'; readonly action: 'track'; readonly payload: AnalyticsTrackPayload }
  | { readonly capability: 'booking.availability.read'; readonly action: 'list'; readonly payload: AvailabilityQuery }
  | { readonly capability: 'booking.create'; readonly action: 'start'; readonly payload: BookingDetails }
  | { readonly capability: 'cart.manage'; readonly action: CartAction; readonly payload: CartDetails }
  | { readonly capability: 'catalog.products.read'; readonly action: 'list'; readonly payload: CatalogQuery }
  | { readonly capability: 'communications.sms.open'; readonly action: 'open'; readonly payload: SmsPayload }
  | { readonly capability: 'forms.submit'; readonly action: 'submit'; readonly payload: FormsPayload }
  | { readonly capability: 'site.theme.read'; readonly action: 'read'; readonly payload: ThemePayload }
  | { readonly capability: 'waivers.start'; readonly action: 'start'; readonly payload: WaiverPayload };


export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'date-time' | 'choice' | 'object';

export interface FieldSpec {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  /** string / date-time: length bounds in UTF-16 code units; integer: value bounds. */
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly (string | number | null)[];
  /** Applied when the field is absent (and, with `nullIsDefault`, when it is null). */
  readonly default?: JsonValue;
  readonly nullIsDefault?: boolean;
  readonly fields?: readonly FieldSpec[];
  /** object: the nested field list is chosen by the value of the sibling field `variantOf`. */
  readonly variantOf?: string;
  readonly variants?: Readonly<Record<string, readonly FieldSpec[]>>;
}

export interface ActionSpec {
  readonly capability: string;
  readonly action: string;
  readonly fields: readonly FieldSpec[];
}

/** "positive integer": 1 up to the largest integer a JSON number carries exactly. */
const POSITIVE_MAX = Number.MAX_SAFE_INTEGER;

function field(name: string, kind: FieldKind, required: boolean, extra: Omit<FieldSpec, 'name' | 'kind' | 'required'> = {}): FieldSpec {
  return Object.freeze({ name, kind, required, ...extra });
}

const CART_FIELDS: readonly FieldSpec[] = [
  field('productId', 'integer', true, { min: 1, max: POSITIVE_MAX }),
  field('quantity', 'integer', false, { min: CART_QUANTITY_MIN, max: CART_QUANTITY_MAX, default: CART_QUANTITY_MIN }),
];

/** Form fields (contract "Form fields"): the contract names no mandatory contact field, so all are optional (D-26). */
export const FORM_FIELDS: Readonly<Record<FormName, readonly FieldSpec[]>> = Object.freeze({
  contact: Object.freeze([
    field('questionType', 'integer', false, { min: FORM_QUESTION_TYPE_MIN, max: FORM_QUESTION_TYPE_MAX, default: FORM_QUESTION_TYPE_MAX }),
    field('name', 'string', false, { max: FORM_NAME_MAX_CHARS }),
    field('email', 'string', false, { max: FORM_EMAIL_MAX_CHARS }),
    field('phone', 'string', false, { max: FORM_PHONE_MAX_CHARS }),
    field('subject', 'string', false, { max: FORM_SUBJECT_MAX_CHARS }),
    field('message', 'string', false, { max: FORM_MESSAGE_MAX_CHARS }),
  ]),
  newsletter: Object.freeze([field('email', 'string', true, { max: FORM_EMAIL_MAX_CHARS })]),
});

/** The contact fields the preview's strict host (`preview --strict-host`) requires: every text field (D-26). */
export const CONTACT_STRICT_FIELDS: readonly string[] = Object.freeze(['name', 'email', 'phone', 'subject', 'message']);

/** Every capability and action of protocol version 1 with its closed request schema, in the contract's order. */
export const ACTION_SPECS: readonly ActionSpec[] = Object.freeze(
  [
    {
      capability: 'analytics.events.write',
      action: 'track',
      fields: [
        field('event', 'string', true, { min: 1, max: ANALYTICS_EVENT_MAX_CHARS }),
        field('properties', 'object', false, {
          default: {},
          fields: [field('label', 'string', false, { max: ANALYTICS_LABEL_MAX_CHARS }), field('value', 'number', false)],
        }),
      ],
    },
    {
      capability: 'booking.availability.read',
      action: 'list',
      fields: [
        field('laneId', 'integer', true, { min: 1, max: POSITIVE_MAX }),
        field('date', 'date', true),
        field('durationMinutes', 'integer', true, { min: BOOKING_DURATION_MIN, max: BOOKING_DURATION_MAX }),
      ],
    },
    {
      capability: 'booking.create',
      action: 'start',
      fields: [
        field('laneId', 'integer', false, { min: 1, max: POSITIVE_MAX }),
        field('startsAt', 'date-time', false, { max: BOOKING_TIME_MAX_CHARS }),
        field('endsAt', 'date-time', false, { max: BOOKING_TIME_MAX_CHARS }),
      ],
    },
    { capability: 'cart.manage', action: 'add', fields: CART_FIELDS },
    { capability: 'cart.manage', action: 'remove', fields: CART_FIELDS },
    { capability: 'cart.manage', action: 'update', fields: CART_FIELDS },
    {
      capability: 'catalog.products.read',
      action: 'list',
      fields: [
        field('search', 'string', false, { max: CATALOG_SEARCH_MAX_CHARS }),
        field('page', 'integer', false, { min: CATALOG_PAGE_MIN, max: CATALOG_PAGE_MAX, default: CATALOG_PAGE_MIN }),
        field('limit', 'choice', false, { choices: CATALOG_LIMITS, default: CATALOG_LIMITS[0] }),
        field('includeOutOfStock', 'boolean', false, { default: true }),
      ],
    },
    { capability: 'communications.sms.open', action: 'open', fields: [field('message', 'string', false, { max: SMS_MESSAGE_MAX_CHARS })] },
    {
      capability: 'forms.submit',
      action: 'submit',
      fields: [
        field('form', 'choice', true, { choices: ['contact', 'newsletter'] }),
        field('fields', 'object', true, { variantOf: 'form', variants: FORM_FIELDS }),
      ],
    },
    { capability: 'site.theme.read', action: 'read', fields: [] },
    {
      capability: 'waivers.start',
      action: 'start',
      fields: [field('waiver', 'choice', false, { choices: ['range', 'rental', 'class', null], default: 'range', nullIsDefault: true })],
    },
  ].map((spec) => Object.freeze({ ...spec, fields: Object.freeze(spec.fields) })),
);

/** ACTION_SPECS by capability, then action: one lookup per call on each side of the bridge. */
const SPECS_BY_CAPABILITY: ReadonlyMap<string, ReadonlyMap<string, ActionSpec>> = (() => {
  const out = new Map<string, Map<string, ActionSpec>>();
  for (const spec of ACTION_SPECS) {
    let actions = out.get(spec.capability);
    if (actions === undefined) out.set(spec.capability, (actions = new Map()));
    actions.set(spec.action, spec);
  }
  return out;
})();

export function actionSpec(capability: string, action: string): ActionSpec | undefined {
  return SPECS_BY_CAPABILITY.get(capability)?.get(action);
}


/** Longest untrusted text quoted back in a message (presentation only, not a contract number). */
const QUOTE_MAX_CHARS = 60;

function quote(text: string): string {
  return JSON.stringify(text.length > QUOTE_MAX_CHARS ? `${text.slice(0, QUOTE_MAX_CHARS)}…` : text);
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// Anchored, no nested quantifiers: linear on any text (and lengths are bounded first).
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// D-27: RFC 3339 (`T`/`t`, `Z`/`z`, any fraction digits, second 60) and ISO 8601 offsets `±HH:MM`, `±HHMM`, `±HH`;
// seconds may be left out as ISO 8601 allows.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|[+-](\d{2})(?::?(\d{2}))?)$/;

function isCalendarDate(year: string, month: string, day: string): boolean {
  const m = Number(month);
  const d = Number(day);
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(Number(year), m);
}

/** `YYYY-MM-DD`, a real day of the proleptic Gregorian calendar. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && isCalendarDate(m[1]!, m[2]!, m[3]!);
}

export function isDateTimeWithOffset(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (m === null || !isCalendarDate(m[1]!, m[2]!, m[3]!)) return false;
  const inRange = (part: string | undefined, max: number): boolean => part === undefined || Number(part) <= max;
  return inRange(m[4], 23) && inRange(m[5], 59) && inRange(m[6], 60) && inRange(m[7], 23) && inRange(m[8], 59);
}

function describeBounds(spec: FieldSpec): string {
  switch (spec.kind) {
    case 'string':
      return spec.min !== undefined && spec.min > 0 ? `a string of ${spec.min} to ${groupDigits(spec.max!)} characters` : `a string of at most ${groupDigits(spec.max!)} characters`;
    case 'integer':
      return spec.max === POSITIVE_MAX ? 'a positive integer' : `an integer from ${groupDigits(spec.min!)} to ${groupDigits(spec.max!)}`;
    case 'number':
      return 'a finite number';
    case 'boolean':
      return 'true or false';
    case 'date':
      return 'a calendar date written YYYY-MM-DD';
    case 'date-time':
      return `a date-time with an offset (YYYY-MM-DDTHH:MM[:SS[.fraction]] then Z, ±HH:MM, ±HHMM or ±HH), at most ${spec.max} characters`;
    case 'choice':
      return `one of ${spec.choices!.map((c) => JSON.stringify(c)).join(', ')}`;
    case 'object':
      return 'an object';
  }
}

/** A failed field check: a payload copy (plain JSON) never is one, so checks return value-or-Refusal without a wrapper. */
class Refusal {
  constructor(readonly message: string) {}
}

function wrong(spec: FieldSpec, path: string): Refusal {
  return new Refusal(`${quote(path)} must be ${describeBounds(spec)}`);
}

function checkValue(spec: FieldSpec, value: JsonValue, prefix: string, siblings: JsonObject): JsonValue | Refusal {
  // Every call runs this on both sides: nothing is built unless it fails.
  switch (spec.kind) {
    case 'string':
      if (typeof value !== 'string' || value.length > spec.max! || value.length < (spec.min ?? 0)) return wrong(spec, prefix + spec.name);
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min! || value > spec.max!) return wrong(spec, prefix + spec.name);
      return value;
    case 'number':
  // The structure check already refused non-finite numbers; kept for direct callers.
      if (typeof value !== 'number' || !Number.isFinite(value)) return wrong(spec, prefix + spec.name);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') return wrong(spec, prefix + spec.name);
      return value;
    case 'date':
      if (typeof value !== 'string' || !isDate(value)) return wrong(spec, prefix + spec.name);
      return value;
    case 'date-time':
      if (typeof value !== 'string' || value.length > spec.max! || !isDateTimeWithOffset(value)) return wrong(spec, prefix + spec.name);
      return value;
    case 'choice':
      if (!spec.choices!.includes(value as string | number | null)) return wrong(spec, prefix + spec.name);
      if (value === null && spec.nullIsDefault === true) return spec.default!;
      return value;
    case 'object': {
      if (!isObject(value)) return wrong(spec, prefix + spec.name);
      let fields = spec.fields;
      if (spec.variantOf !== undefined) {
        const selector = siblings[spec.variantOf];
        fields = typeof selector === 'string' && Object.prototype.hasOwnProperty.call(spec.variants!, selector) ? spec.variants![selector] : undefined;
      }
      if (fields === undefined) return wrong(spec, prefix + spec.name);
      return checkObject(fields, value, `${prefix}${spec.name}.`);
    }
  }
}

/** A closed object: each field in table order, then any key that is not a field. */
function checkObject(fields: readonly FieldSpec[], value: JsonObject, prefix: string): JsonObject | Refusal {
  const out: JsonObject = {};
  let present = 0;
  for (let i = 0; i < fields.length; i++) {
    const spec = fields[i]!;
    if (!Object.prototype.hasOwnProperty.call(value, spec.name)) {
      if (spec.required) return new Refusal(`${quote(prefix + spec.name)} is required: ${describeBounds(spec)}`);
      if (spec.default !== undefined) out[spec.name] = copyDefault(spec.default);
      continue;
    }
    present++;
    const checked = checkValue(spec, value[spec.name]!, prefix, value);
    if (checked instanceof Refusal) return checked;
    out[spec.name] = checked;
  }
  // A payload copy holds own enumerable data keys only: when every one is a field, the counts agree.
  const keys = Object.keys(value);
  if (keys.length !== present) {
    for (const key of keys) {
      if (!fields.some((f) => f.name === key)) return new Refusal(`${quote(prefix + key)} is not a field of this request`);
    }
  }
  return out;
}

/** Defaults are frozen table values: each request gets its own copy. */
function copyDefault(value: JsonValue): JsonValue {
  return isObject(value) ? { ...value } : value;
}


export interface RequestInput {
  readonly id?: unknown;
  readonly capability: unknown;
  readonly action: unknown;
  readonly payload?: unknown;
}

export interface CheckFailure {
  readonly ok: false;
  readonly code: BridgeErrorCode;
  readonly message: string;
  readonly copy?: JsonValue;
}

export type StructureCheck =
  | {
      readonly ok: true;
      readonly copy: JsonValue;
      readonly bytes: number;
      /** `capability` and `action` as read (once) from the request. */
      readonly capability: unknown;
      readonly action: unknown;
    }
  | CheckFailure;

export type CallCheck = ({ readonly ok: true; readonly copy: JsonValue } & NormalizedRequest) | CheckFailure;

export type RequestCheck = ({ readonly ok: true; readonly copy: JsonValue; readonly bytes: number } & NormalizedRequest) | CheckFailure;

/** D-23 stage 1: message size, then the payload's depth, nodes, entries and types while copying; an absent payload is `{}`. */
export function checkStructure(request: RequestInput, cloned = false): StructureCheck {
  let id: unknown;
  let capability: unknown;
  let action: unknown;
  let payload: unknown;
  try {
    ({ id, capability, action, payload } = request);
  } catch {
    return { ok: false, code: 'INVALID_PAYLOAD', message: 'The request cannot be read' };
  }
  const copied = copyPayload(payload === undefined ? {} : payload, requestEnvelopeBytes(id, capability, action), cloned);
  if (!copied.ok) return copied;
  return { ok: true, copy: copied.value, bytes: copied.bytes, capability, action };
}

/** D-23 stages 2-4 on a structure-checked payload; the frame, which knows only its grants, passes them as `declared` too. */
export function checkCall(capability: unknown, action: unknown, copy: JsonValue, declared: readonly string[], granted: readonly string[]): CallCheck {
  const checked = checkStages(capability, action, copy, declared, granted);
  if (checked instanceof Refusal) return checked.failure;
  return { ok: true, capability, action, payload: checked, copy } as CallCheck;
}

/** All four D-23 stages; never throws. `cloned` as for copyPayload (the host's port messages). */
export function checkRequest(request: RequestInput, declared: readonly string[], granted: readonly string[], cloned = false): RequestCheck {
  const structure = checkStructure(request, cloned);
  if (!structure.ok) return structure;
  const { capability, action, copy } = structure;
  const checked = checkStages(capability, action, copy, declared, granted);
  if (checked instanceof Refusal) return checked.failure;
  // checkCall's answer and the size, built at once: the host runs this for every call.
  return { ok: true, capability, action, payload: checked, copy, bytes: structure.bytes } as RequestCheck;
}

class StageRefusal extends Refusal {
  readonly failure: CheckFailure;

  constructor(code: BridgeErrorCode, message: string, copy: JsonValue) {
    super(message);
    this.failure = { ok: false, code, message, copy };
  }
}

function checkStages(capability: unknown, action: unknown, copy: JsonValue, declared: readonly string[], granted: readonly string[]): JsonObject | StageRefusal {
  if (typeof capability !== 'string' || !isCapabilityKey(capability)) {
    const shown = typeof capability === 'string' ? quote(capability) : 'a non-string value';
    return new StageRefusal('CAPABILITY_NOT_GRANTED', `${shown} is not a capability of protocol version 1`, copy);
  }
  if (!declared.includes(capability)) {
    return new StageRefusal('CAPABILITY_NOT_GRANTED', `${quote(capability)} is not declared in the manifest`, copy);
  }
  if (!granted.includes(capability)) {
    return new StageRefusal('CAPABILITY_NOT_GRANTED', `${quote(capability)} is not granted`, copy);
  }
  const spec = typeof action === 'string' ? actionSpec(capability, action) : undefined;
  if (spec === undefined) {
    const actions = capabilityByKey(capability)!.actions;
    const shown = typeof action === 'string' ? quote(action) : 'a non-string value';
    return new StageRefusal('INVALID_REQUEST', `${shown} is not an action of ${capability}: use ${actions.map((a) => quote(a)).join(', ')}`, copy);
  }
  if (!isObject(copy)) return new StageRefusal('INVALID_REQUEST', `The payload of ${capability} ${action as string} must be an object`, copy);
  const checked = checkObject(spec.fields, copy, '');
  if (checked instanceof Refusal) return new StageRefusal('INVALID_REQUEST', `${capability} ${action as string}: ${checked.message}`, copy);
  return checked;
}
