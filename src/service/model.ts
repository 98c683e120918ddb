// The service core's data and its readers, all plain JSON so a record is stored, compared and exported
// as it is. Field and state names beyond the contract's are the project's own (D-43).
import { CAPABILITY_KEYS, PROPERTY_TYPES, limits, isNamespace, isPropertyName, isSemver, type PropertyDef } from '../validator/index.js';
import type { Refusal } from './refusals.js';
import {
  arr,
  bool,
  email,
  fail,
  hex64,
  id,
  int,
  literal,
  note,
  nullable,
  obj,
  oneOf,
  opt,
  settingValues,
  str,
  uniqueArr,
  type Reader,
} from './shape.js';

// Time: the caller passes the current UTC time; records hold ISO 8601 UTC strings.

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
/** The last millisecond a record's time may name (year 9999), so every time has one ISO form. */
export const TIME_MAX_MS = 253_402_300_799_999;

export const time: Reader<number> = (value, pointer) => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0 || value > TIME_MAX_MS) fail(pointer, `must be whole milliseconds from 0 to ${TIME_MAX_MS}`);
    return value;
  }
  if (typeof value !== 'string' || !ISO_UTC.test(value)) fail(pointer, 'must be milliseconds or an ISO 8601 UTC time such as 2026-01-31T12:00:00.000Z');
  const ms = Date.parse(value);
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > TIME_MAX_MS) fail(pointer, 'is not a real UTC time');
  // 2026-02-30 parses to March: the round trip must give the same calendar fields back.
  if (new Date(ms).toISOString().slice(0, 19) !== value.slice(0, 19)) fail(pointer, 'is not a real UTC time');
  return ms;
};

/** A record's stored time: the canonical ISO form (`toISOString`). */
export function isoTime(ms: number): string {
  // A decision formats the same instant several times: the last answer is kept.
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
let lastMs = Number.NaN;
let lastIso = '';

const STORED_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A stored time field, checked without building a Date: a real calendar day, canonical form. */
const storedTime: Reader<string> = (value, pointer) => {
  const m = typeof value === 'string' ? STORED_TIME.exec(value) : null;
  if (m === null) fail(pointer, 'must be an ISO 8601 UTC time as toISOString writes it (2026-01-31T12:00:00.000Z)');
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1]!)) fail(pointer, 'is not a real UTC time');
  return value as string;
};

// Actors

export const ACTOR_KINDS = ['operator', 'publisher-member', 'store-user', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** Who gives a command, as the caller authenticated them (sign-in is not shown in the contract). */
export interface Actor {
  readonly kind: ActorKind;
  readonly id: string;
  readonly storeId?: string;
  readonly email?: string;
}

const actorShape = obj({ kind: oneOf(ACTOR_KINDS), id, storeId: opt(id), email: opt(email) });
export const readActor: Reader<Actor> = (value, pointer) => {
  const a = actorShape(value, pointer);
  if (a.kind === 'store-user' && a.storeId === undefined) fail(pointer, 'a store user names the store they act for (storeId)');
  if (a.kind !== 'store-user' && a.storeId !== undefined) fail(`${pointer}/storeId`, 'only a store user acts for a store');
  if (a.kind !== 'publisher-member' && a.email !== undefined) fail(`${pointer}/email`, 'only a console user (publisher-member) carries a signed-in address');
  return a as Actor;
};

export interface ActorRef {
  readonly kind: ActorKind;
  readonly id: string;
}
const actorRef: Reader<ActorRef> = obj({ kind: oneOf(ACTOR_KINDS), id });

export function refOf(actor: Actor): ActorRef {
  return { kind: actor.kind, id: actor.id };
}

// Shared fields

// Memoized: records repeat the same namespaces and versions. Forgets all at MEMO_MAX strings.
function remembered(check: (s: string) => boolean): (s: string) => boolean {
  const MEMO_MAX = 1024;
  const memo = new Map<string, boolean>();
  return (s) => {
    let answer = memo.get(s);
    if (answer === undefined) {
      answer = check(s);
      if (memo.size >= MEMO_MAX) memo.clear();
      memo.set(s, answer);
    }
    return answer;
  };
}
const isNamespaceRemembered = remembered(isNamespace);
const isSemverRemembered = remembered(isSemver);

const NAMESPACE_MAX_CHARS = 200;
const namespaceText = str(NAMESPACE_MAX_CHARS, undefined, 'a namespace');
export const namespace: Reader<string> = (value, pointer) => {
  const s = namespaceText(value, pointer);
  if (!isNamespaceRemembered(s)) fail(pointer, 'is not a namespace (publisher-slug/package-slug)');
  return s;
};
const versionText = str(256, undefined, 'a version');
export const version: Reader<string> = (value, pointer) => {
  const s = versionText(value, pointer);
  if (!isSemverRemembered(s)) fail(pointer, 'is not a semantic version');
  return s;
};
const capability: Reader<string> = oneOf(CAPABILITY_KEYS as readonly string[]);
export const capabilityList: Reader<string[]> = uniqueArr(capability, (c) => c, 32);
const revision: Reader<number> = int(1, Number.MAX_SAFE_INTEGER);

const propertyShape = obj({
  name: str(64),
  type: oneOf(PROPERTY_TYPES),
  label: opt(str(1000)),
  help: opt(str(1000)),
  required: bool,
  options: opt(arr(obj({ label: str(1000), value: str(1000) }), 100)),
  min: opt(finite),
  max: opt(finite),
  default: opt(settingValue),
});
const propertyDef: Reader<PropertyDef> = (value, pointer) => {
  const p = propertyShape(value, pointer);
  if (!isPropertyName(p.name)) fail(`${pointer}/name`, 'is not a property name');
  return p as PropertyDef;
};
function finite(value: unknown, pointer: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(pointer, 'must be a finite number');
  return value;
}
function settingValue(value: unknown, pointer: string): boolean | number | string {
  if (typeof value === 'string') return str(limits.SETTINGS_MAX_BYTES)(value, pointer);
  if (typeof value === 'boolean') return value;
  return finite(value, pointer);
}
export const propertyList: Reader<PropertyDef[]> = uniqueArr(propertyDef, (p) => p.name, 64);
/** Saved settings as read from a command or record (sizes are checked by the validator). */
export const savedSettings = settingValues(64, limits.SETTINGS_MAX_BYTES + 1);

// Release submission

export const SUBMISSION_STATES = ['submitted', 'failed-validation', 'awaiting-review', 'approved', 'rejected', 'changes-requested', 'withdrawn', 'revoked'] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];
/** The contract's three distribution modes, named by the project (D-43). */
export const DISTRIBUTION_MODES = ['public-free', 'private', 'paid'] as const;
export type DistributionMode = (typeof DISTRIBUTION_MODES)[number];

export interface TrailEntry {
  readonly at: string;
  readonly actor: ActorRef;
  /** The command's name, or the state the system moved the record to. */
  readonly action: string;
  readonly note?: string;
}
const trailEntry: Reader<TrailEntry> = obj({ at: storedTime, actor: actorRef, action: str(64), note: opt(note) });

/** What the record keeps of the validation report: its totals and the rule ids it found. */
export interface ReportSummary {
  readonly errors: number;
  readonly warnings: number;
  readonly rules: string[];
}
const reportSummary: Reader<ReportSummary> = obj({ errors: int(0, Number.MAX_SAFE_INTEGER), warnings: int(0, Number.MAX_SAFE_INTEGER), rules: arr(str(128), 1000) });

export interface SubmissionRecord {
  readonly kind: 'release-submission';
  readonly id: string;
  readonly revision: number;
  readonly publisherId: string;
  readonly namespace: string;
  readonly version: string;
  readonly distribution: DistributionMode;
  readonly state: SubmissionState;
  readonly submittedBy: ActorRef;
  readonly submittedAt: string;
  readonly manifestSha256: string | null;
  readonly artifactSha256: string | null;
  readonly publicKeyId: string | null;
  readonly signatureValid: boolean;
  readonly report: ReportSummary;
  /** Declared capabilities, in manifest order (empty when the manifest could not be read). */
  readonly capabilities: string[];
  readonly properties: PropertyDef[];
  /** `private` while the working files exist (awaiting review), `deleted` after every decision. */
  readonly workingFiles: 'private' | 'deleted';
  /** The immutable copy (`extensions/{namespace}/{version}/bundle.zip`), once approved. */
  readonly storagePath: string | null;
  readonly listing: 'unlisted' | 'published';
  /** The release that was current when this one was approved: kept for one-step rollback. */
  readonly previousReleaseId: string | null;
  readonly trail: TrailEntry[];
}

export const readSubmission: Reader<SubmissionRecord> = obj({
  kind: literal('release-submission'),
  id,
  revision,
  publisherId: id,
  namespace,
  version,
  distribution: oneOf(DISTRIBUTION_MODES),
  state: oneOf(SUBMISSION_STATES),
  submittedBy: actorRef,
  submittedAt: storedTime,
  manifestSha256: nullable(hex64),
  artifactSha256: nullable(hex64),
  publicKeyId: nullable(hex64),
  signatureValid: bool,
  report: reportSummary,
  capabilities: capabilityList,
  properties: propertyList,
  workingFiles: oneOf(['private', 'deleted'] as const),
  storagePath: nullable(str(512)),
  listing: oneOf(['unlisted', 'published'] as const),
  previousReleaseId: nullable(id),
  trail: arr(trailEntry),
}) as Reader<SubmissionRecord>;

// Publisher

export const TEAM_ROLES = ['owner', 'administrator', 'developer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export interface PublisherKey {
  /** The fingerprint (`publisher_public_key_id`: 64 lowercase hex). */
  readonly id: string;
  readonly state: 'active' | 'revoked';
  readonly addedAt: string;
  readonly revokedAt: string | null;
}
export interface TeamMember {
  readonly userId: string;
  readonly role: TeamRole;
}
export interface PublisherRecord {
  readonly kind: 'publisher';
  readonly id: string;
  readonly revision: number;
  readonly state: 'active' | 'revoked';
  /** The operator's trust decision, separate from approving releases and listings. */
  readonly trust: 'untrusted' | 'trusted';
  /** Predates the developer console: an operator may assign its first owner. */
  readonly legacy: boolean;
  readonly keys: PublisherKey[];
  readonly members: TeamMember[];
  readonly updatedAt: string;
}
const publisherKey: Reader<PublisherKey> = obj({ id: hex64, state: oneOf(['active', 'revoked'] as const), addedAt: storedTime, revokedAt: nullable(storedTime) });
const teamMember: Reader<TeamMember> = obj({ userId: id, role: oneOf(TEAM_ROLES) });
const publisherShape = obj({
  kind: literal('publisher'),
  id,
  revision,
  state: oneOf(['active', 'revoked'] as const),
  trust: oneOf(['untrusted', 'trusted'] as const),
  legacy: bool,
  keys: uniqueArr(publisherKey, (k) => k.id),
  members: uniqueArr(teamMember, (m) => m.userId),
  updatedAt: storedTime,
});
export const readPublisher: Reader<PublisherRecord> = (value, pointer) => {
  const p = publisherShape(value, pointer) as PublisherRecord;
  // Authentication 5: a publisher in service keeps at least one active key.
  if (p.state === 'active' && !p.keys.some((k) => k.state === 'active')) fail(`${pointer}/keys`, 'an active publisher has at least one active key');
  return p;
};

// Installation

export interface InstallationRecord {
  readonly kind: 'installation';
  readonly id: string;
  readonly revision: number;
  readonly storeId: string;
  readonly namespace: string;
  readonly publisherId: string;
  readonly releaseId: string;
  readonly version: string;
  readonly state: 'installed' | 'uninstalled';
  readonly declared: string[];
  /** What the store user approved (always a subset of `declared`). */
  readonly granted: string[];
  /** Declared, not granted, awaiting the store user's permission review (added by an upgrade). */
  readonly reviewPending: string[];
  readonly settings: Record<string, boolean | number | string>;
  readonly updatedAt: string;
}
const installationShape = obj({
  kind: literal('installation'),
  id,
  revision,
  storeId: id,
  namespace,
  publisherId: id,
  releaseId: id,
  version,
  state: oneOf(['installed', 'uninstalled'] as const),
  declared: capabilityList,
  granted: capabilityList,
  reviewPending: capabilityList,
  settings: savedSettings,
  updatedAt: storedTime,
});
export const readInstallation: Reader<InstallationRecord> = (value, pointer) => {
  const r = installationShape(value, pointer) as InstallationRecord;
  for (const c of r.granted) if (!r.declared.includes(c)) fail(`${pointer}/granted`, `grants ${c}, which is not declared`);
  for (const c of r.reviewPending) if (!r.declared.includes(c) || r.granted.includes(c)) fail(`${pointer}/reviewPending`, `${c} awaits review but is not declared, or is granted`);
  return r;
};

// Private link

export interface LinkRecord {
  readonly kind: 'private-link';
  readonly id: string;
  readonly revision: number;
  readonly publisherId: string;
  readonly releaseId: string;
  readonly namespace: string;
  readonly version: string;
  /** SHA-256 of the token, hex: the token itself is never stored. */
  readonly tokenHash: string;
  /** The one store that may accept, or null for any. */
  readonly storeLock: string | null;
  /** How many stores may accept, or null for no limit. */
  readonly useLimit: number | null;
  readonly uses: number;
  /** First millisecond at which the link no longer redeems, or null for none. */
  readonly expiresAt: string | null;
  readonly state: 'issued' | 'accepted' | 'revoked';
  readonly acceptedStores: string[];
  readonly updatedAt: string;
}
const linkShape = obj({
  kind: literal('private-link'),
  id,
  revision,
  publisherId: id,
  releaseId: id,
  namespace,
  version,
  tokenHash: hex64,
  storeLock: nullable(id),
  useLimit: nullable(int(1, 1_000_000)),
  uses: int(0, 1_000_000),
  expiresAt: nullable(storedTime),
  state: oneOf(['issued', 'accepted', 'revoked'] as const),
  acceptedStores: uniqueArr(id, (s) => s),
  updatedAt: storedTime,
});
export const readLink: Reader<LinkRecord> = (value, pointer) => {
  const r = linkShape(value, pointer) as LinkRecord;
  if (r.uses !== r.acceptedStores.length) fail(`${pointer}/uses`, 'counts one use per accepting store');
  if (r.useLimit !== null && r.uses > r.useLimit) fail(`${pointer}/uses`, 'exceeds the use limit');
  return r;
};

// Invitation

export interface InvitationRecord {
  readonly kind: 'invitation';
  readonly id: string;
  readonly revision: number;
  readonly publisherId: string;
  /** The invited address, compared case-insensitively with the signed-in one. */
  readonly email: string;
  readonly role: TeamRole;
  readonly tokenHash: string;
  readonly invitedBy: string;
  readonly createdAt: string;
  /** createdAt + seven days: the first millisecond at which it no longer accepts. */
  readonly expiresAt: string;
  readonly state: 'pending' | 'accepted' | 'revoked';
  readonly acceptedBy: string | null;
  readonly updatedAt: string;
}
export const readInvitation: Reader<InvitationRecord> = obj({
  kind: literal('invitation'),
  id,
  revision,
  publisherId: id,
  email,
  role: oneOf(TEAM_ROLES),
  tokenHash: hex64,
  invitedBy: id,
  createdAt: storedTime,
  expiresAt: storedTime,
  state: oneOf(['pending', 'accepted', 'revoked'] as const),
  acceptedBy: nullable(id),
  updatedAt: storedTime,
}) as Reader<InvitationRecord>;

export type ServiceRecord = SubmissionRecord | PublisherRecord | InstallationRecord | LinkRecord | InvitationRecord;
export type RecordKind = ServiceRecord['kind'];

// Effects and results

/** What the caller must do after storing a decision's records, in the order given. */
export type Effect =
  | { readonly type: 'keep-validation-report'; readonly submissionId: string }
  | { readonly type: 'keep-working-files-private'; readonly submissionId: string }
  | { readonly type: 'queue-for-review'; readonly submissionId: string }
  | { readonly type: 'leave-review-queue'; readonly submissionId: string }
  | { readonly type: 'copy-bundle-to-immutable-storage'; readonly submissionId: string; readonly path: string }
  | { readonly type: 'delete-working-files'; readonly submissionId: string }
  | { readonly type: 'keep-previous-release'; readonly namespace: string; readonly releaseId: string }
  | { readonly type: 'publish-listing'; readonly releaseId: string }
  | { readonly type: 'stop-launching'; readonly releaseId?: string; readonly publisherId?: string; readonly installationId?: string }
  | { readonly type: 'open-permission-review'; readonly installationId: string; readonly capabilities: string[] }
  | { readonly type: 'remove-grant'; readonly installationId: string; readonly capability: string }
  | { readonly type: 'show-link-terms'; readonly linkId: string; readonly terms: LinkTerms }
  | { readonly type: 'consume-link-use'; readonly linkId: string; readonly storeId: string }
  | { readonly type: 'grant-link-access'; readonly linkId: string; readonly storeId: string; readonly releaseId: string }
  | { readonly type: 'stop-link-redemption'; readonly linkId: string }
  | { readonly type: 'send-invitation'; readonly invitationId: string; readonly email: string; readonly expiresAt: string }
  | { readonly type: 'add-team-member'; readonly publisherId: string; readonly userId: string; readonly role: TeamRole };

/** What opening a link shows: its terms, read-only (nothing is consumed). */
export interface LinkTerms {
  readonly namespace: string;
  readonly version: string;
  readonly storeLock: string | null;
  readonly usesLeft: number | null;
  readonly expiresAt: string | null;
}

export type EffectType = Effect['type'];

/** A decision: the records to store (each at its revision + 1, or 1 when new) and the effects, or a refusal. */
export type Decision =
  | { readonly ok: true; readonly records: ServiceRecord[]; readonly effects: Effect[] }
  | { readonly ok: false; readonly refusal: Refusal };
