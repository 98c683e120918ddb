// Release submission and review (contract: that section, Versioning, Retention, service rules 2-4), one
// record per submission. The validator stays the authority on content: `submit` takes its report as a value.
import { artifactPath, compareSemver, type ReleaseResult } from '../validator/index.js';
import { decider, refuse, type CommandSpec } from './decide.js';
import {
  DISTRIBUTION_MODES,
  SUBMISSION_STATES,
  capabilityList,
  isoTime,
  propertyList,
  readPublisher,
  readSubmission,
  refOf,
  type Actor,
  type Effect,
  type PublisherRecord,
  type ReportSummary,
  type SubmissionRecord,
  type SubmissionState,
  type TrailEntry,
  namespace,
  version,
} from './model.js';
import { arr, bool, hex64, id, int, nullable, note, obj, oneOf, opt, str, type Reader } from './shape.js';
import { activePublisher, memberRole } from './team.js';

/** The part of validateRelease's result that `submit` takes, as plain JSON (see submissionReport). */
export interface SubmissionReport {
  readonly errors: number;
  readonly warnings: number;
  readonly rules: string[];
  readonly manifest: { readonly namespace: string | null; readonly version: string | null; readonly capabilities: string[]; readonly properties: SubmissionRecord['properties'] } | null;
  readonly manifestSha256: string | null;
  readonly artifactSha256: string | null;
  readonly publicKeyId: string | null;
  readonly signatureValid: boolean;
}

/** The plain JSON `submit` takes, from the validator's release result. */
export function submissionReport(result: ReleaseResult): SubmissionReport {
  const m = result.manifest;
  return {
    errors: result.errors,
    warnings: result.warnings,
    rules: result.findings.map((f) => f.rule),
    manifest: m === null ? null : { namespace: m.namespace ?? null, version: m.version ?? null, capabilities: [...m.capabilities], properties: m.properties.map((p) => ({ ...p })) },
    manifestSha256: result.manifestSha256 ?? null,
    artifactSha256: result.artifactSha256 ?? null,
    publicKeyId: result.publicKeyId ?? null,
    signatureValid: result.signatureValid,
  };
}

const readReport: Reader<SubmissionReport> = obj({
  errors: int(0, Number.MAX_SAFE_INTEGER),
  warnings: int(0, Number.MAX_SAFE_INTEGER),
  rules: arr(str(128), 100_000),
  manifest: nullable(obj({ namespace: nullable(str(200)), version: nullable(str(256)), capabilities: capabilityList, properties: propertyList })),
  manifestSha256: nullable(hex64),
  artifactSha256: nullable(hex64),
  publicKeyId: nullable(hex64),
  signatureValid: bool,
}) as Reader<SubmissionReport>;

/** A report passes when it has no error, the signature verifies and every hash was computed. */
export function reportPasses(r: SubmissionReport): boolean {
  return r.errors === 0 && r.signatureValid && r.manifest !== null && r.manifestSha256 !== null && r.artifactSha256 !== null && r.publicKeyId !== null;
}

/** One earlier submission of the namespace, as the context lists them. */
export interface NamespaceSubmission {
  readonly id: string;
  readonly version: string;
  readonly state: SubmissionState;
}
/** Facts about the namespace: who owns it and every earlier submission to it. */
export interface NamespaceFacts {
  readonly ownerPublisherId: string | null;
  readonly submissions: NamespaceSubmission[];
}
const readNamespaceFacts: Reader<NamespaceFacts> = obj({
  ownerPublisherId: nullable(id),
  submissions: arr(obj({ id, version, state: oneOf(SUBMISSION_STATES) })),
}) as Reader<NamespaceFacts>;

// A version once approved is never reused (revoked was approved).
const APPROVED_ONCE: readonly SubmissionState[] = ['approved', 'revoked'];
const IN_REVIEW: readonly SubmissionState[] = ['submitted', 'awaiting-review'];

// Versioning: no approved version reused, none in review twice, and higher than every approved one.
function checkVersion(facts: NamespaceFacts, version: string, self: string | null): void {
  for (const s of facts.submissions) {
    if (s.id === self) continue;
    if (APPROVED_ONCE.includes(s.state) && compareSemver(s.version, version) === 0) {
      refuse('service/version-approved', `Version ${s.version} of this namespace was approved (submission ${s.id}), so ${version} cannot be used again`, '/version');
    }
    if (IN_REVIEW.includes(s.state) && s.version === version) {
      refuse('service/version-in-review', `Version ${version} already awaits review (submission ${s.id})`, '/version');
    }
  }
  for (const s of facts.submissions) {
    if (s.id !== self && APPROVED_ONCE.includes(s.state) && compareSemver(version, s.version) < 0) {
      refuse('service/version-not-higher', `Version ${version} is lower than the approved ${s.version}`, '/version');
    }
  }
}

function trail(record: SubmissionRecord, at: number, actor: Actor, action: string, reason?: string): TrailEntry[] {
  const entry: TrailEntry = reason === undefined ? { at: isoTime(at), actor: refOf(actor), action } : { at: isoTime(at), actor: refOf(actor), action, note: reason };
  return [...record.trail, entry];
}

function requireState(record: SubmissionRecord, states: readonly SubmissionState[], what: string): void {
  if (!states.includes(record.state)) refuse('service/wrong-state', `A submission that is ${record.state} cannot be ${what} (only ${states.join(' or ')})`, '/state');
}

function requirePublisherOf(record: SubmissionRecord, publisher: PublisherRecord): void {
  if (publisher.id !== record.publisherId) refuse('service/related-record-mismatch', `The context's publisher ${publisher.id} is not the submission's publisher ${record.publisherId}`, '/publisher/id');
}

const pub = readPublisher as Reader<unknown>;

const specs: Record<string, CommandSpec> = {
  /** A member (any role) or an operator submits; the validator's report picks failed or awaiting review. */
  submit: {
    actors: ['publisher-member', 'operator'],
    creates: true,
    fields: { publisherId: id, namespace, version, distribution: oneOf(DISTRIBUTION_MODES), report: readReport },
    context: { newId: id, publisher: pub, namespace: readNamespaceFacts },
    run(_record: null, cmd: { actor: Actor; publisherId: string; namespace: string; version: string; distribution: SubmissionRecord['distribution']; report: SubmissionReport }, ctx: { now: number; newId: string; publisher: PublisherRecord; namespace: NamespaceFacts }) {
      const publisher = ctx.publisher;
      if (publisher.id !== cmd.publisherId) refuse('service/related-record-mismatch', `The context's publisher ${publisher.id} is not ${cmd.publisherId}`, '/publisherId');
      activePublisher(publisher);
      if (cmd.actor.kind === 'publisher-member' && memberRole(publisher, cmd.actor.id) === null) {
        refuse('service/actor-not-allowed', `${cmd.actor.id} is not a member of publisher ${publisher.id}`, '/actor/id');
      }
      const facts = ctx.namespace;
      // Versioning: the namespace never changes hands.
      if (facts.ownerPublisherId !== null && facts.ownerPublisherId !== publisher.id) {
        refuse('service/namespace-owned', `The namespace ${cmd.namespace} belongs to publisher ${facts.ownerPublisherId}`, '/namespace');
      }
      const r = cmd.report;
      const passes = reportPasses(r);
      if (passes && (r.manifest!.namespace !== cmd.namespace || r.manifest!.version !== cmd.version)) {
        refuse('service/report-mismatch', `The report is for ${r.manifest!.namespace}@${r.manifest!.version}, not ${cmd.namespace}@${cmd.version}`, '/report/manifest');
      }
      checkVersion(facts, cmd.version, null);
      if (passes && !publisher.keys.some((k) => k.state === 'active' && k.id === r.publicKeyId)) {
        refuse('service/key-not-active', `The release is signed with key ${r.publicKeyId}, which is not an active key of publisher ${publisher.id}`, '/report/publicKeyId');
      }
      const summary: ReportSummary = { errors: r.errors, warnings: r.warnings, rules: r.rules.slice(0, 1000) };
      const at = isoTime(ctx.now);
      const base: SubmissionRecord = {
        kind: 'release-submission',
        id: ctx.newId,
        revision: 1,
        publisherId: publisher.id,
        namespace: cmd.namespace,
        version: cmd.version,
        distribution: cmd.distribution,
        state: passes ? 'awaiting-review' : 'failed-validation',
        submittedBy: refOf(cmd.actor),
        submittedAt: at,
        manifestSha256: r.manifestSha256,
        artifactSha256: r.artifactSha256,
        publicKeyId: r.publicKeyId,
        signatureValid: r.signatureValid,
        report: summary,
        capabilities: r.manifest?.capabilities ?? [],
        properties: r.manifest?.properties ?? [],
        workingFiles: passes ? 'private' : 'deleted',
        storagePath: null,
        listing: 'unlisted',
        previousReleaseId: null,
        trail: [
          { at, actor: refOf(cmd.actor), action: 'submitted' },
          { at, actor: { kind: 'system', id: 'production-validator' }, action: passes ? 'awaiting-review' : 'failed-validation' },
        ],
      };
      const effects: Effect[] = passes
        ? [{ type: 'keep-validation-report', submissionId: base.id }, { type: 'keep-working-files-private', submissionId: base.id }, { type: 'queue-for-review', submissionId: base.id }]
        : [{ type: 'keep-validation-report', submissionId: base.id }, { type: 'delete-working-files', submissionId: base.id }];
      return { records: [base], effects };
    },
  },
  /** An operator other than the submitter approves; the publisher must be trusted already. */
  approve: {
    actors: ['operator'],
    creates: false,
    fields: { note: opt(note) },
    context: { publisher: pub, namespace: readNamespaceFacts, currentReleaseId: nullable(id) },
    run(record: SubmissionRecord, cmd: { actor: Actor; note?: string }, ctx: { now: number; publisher: PublisherRecord; namespace: NamespaceFacts; currentReleaseId: string | null }) {
      requireState(record, ['awaiting-review'], 'approved');
      if (cmd.actor.id === record.submittedBy.id) refuse('service/approve-own-submission', `${cmd.actor.id} submitted this release`, '/actor/id');
      requirePublisherOf(record, ctx.publisher);
      activePublisher(ctx.publisher);
      if (ctx.publisher.trust !== 'trusted') refuse('service/publisher-not-trusted', `Publisher ${ctx.publisher.id} is not trusted`, '/publisher/trust');
      if (!ctx.publisher.keys.some((k) => k.state === 'active' && k.id === record.publicKeyId)) {
        refuse('service/key-not-active', `The release is signed with key ${record.publicKeyId}, which is no longer an active key of publisher ${record.publisherId}`, '/publicKeyId');
      }
      checkVersion(ctx.namespace, record.version, record.id);
      const path = artifactPath(record.namespace, record.version);
      const next: SubmissionRecord = {
        ...record,
        revision: record.revision + 1,
        state: 'approved',
        workingFiles: 'deleted',
        storagePath: path,
        previousReleaseId: ctx.currentReleaseId,
        trail: trail(record, ctx.now, cmd.actor, 'approved', cmd.note),
      };
      // Retention: the bundle reaches immutable storage before the working files go.
      const effects: Effect[] = [
        { type: 'leave-review-queue', submissionId: record.id },
        { type: 'copy-bundle-to-immutable-storage', submissionId: record.id, path },
        { type: 'delete-working-files', submissionId: record.id },
      ];
      if (ctx.currentReleaseId !== null) effects.push({ type: 'keep-previous-release', namespace: record.namespace, releaseId: ctx.currentReleaseId });
      return { records: [next], effects };
    },
  },
  reject: operatorDecision('rejected'),
  'request-changes': operatorDecision('changes-requested'),
  /** The publisher withdraws a submission awaiting review. */
  withdraw: {
    actors: ['publisher-member'],
    creates: false,
    fields: { note: opt(note) },
    context: { publisher: pub },
    run(record: SubmissionRecord, cmd: { actor: Actor; note?: string }, ctx: { now: number; publisher: PublisherRecord }) {
      requireState(record, ['awaiting-review'], 'withdrawn');
      requirePublisherOf(record, ctx.publisher);
      if (memberRole(ctx.publisher, cmd.actor.id) === null) refuse('service/actor-not-allowed', `${cmd.actor.id} is not a member of publisher ${record.publisherId}`, '/actor/id');
      return closed(record, 'withdrawn', ctx.now, cmd.actor, cmd.note);
    },
  },
  /** An operator revokes an approved release: it stops launching. */
  revoke: {
    actors: ['operator'],
    creates: false,
    fields: { note: opt(note) },
    context: {},
    run(record: SubmissionRecord, cmd: { actor: Actor; note?: string }, ctx: { now: number }) {
      requireState(record, ['approved'], 'revoked');
      const next: SubmissionRecord = { ...record, revision: record.revision + 1, state: 'revoked', listing: 'unlisted', trail: trail(record, ctx.now, cmd.actor, 'revoked', cmd.note) };
      return { records: [next], effects: [{ type: 'stop-launching', releaseId: record.id }] };
    },
  },
  /** Reviewing the marketplace listing: a decision of its own, for listed modes only. */
  'publish-listing': {
    actors: ['operator'],
    creates: false,
    fields: { note: opt(note) },
    context: { publisher: pub },
    run(record: SubmissionRecord, cmd: { actor: Actor; note?: string }, ctx: { now: number; publisher: PublisherRecord }) {
      requireState(record, ['approved'], 'listed');
      requirePublisherOf(record, ctx.publisher);
      activePublisher(ctx.publisher);
      if (record.distribution === 'private') refuse('service/listing-not-offered', `Release ${record.id} is distributed privately`, '/distribution');
      if (record.listing === 'published') refuse('service/wrong-state', `The listing of release ${record.id} is already published`, '/listing');
      const next: SubmissionRecord = { ...record, revision: record.revision + 1, listing: 'published', trail: trail(record, ctx.now, cmd.actor, 'listing-published', cmd.note) };
      return { records: [next], effects: [{ type: 'publish-listing', releaseId: record.id }] };
    },
  },
};

function operatorDecision(state: 'rejected' | 'changes-requested'): CommandSpec {
  return {
    actors: ['operator'],
    creates: false,
    fields: { note: opt(note) },
    context: {},
    run(record: SubmissionRecord, cmd: { actor: Actor; note?: string }, ctx: { now: number }) {
      requireState(record, ['awaiting-review'], state);
      return closed(record, state, ctx.now, cmd.actor, cmd.note);
    },
  };
}

/** Rejected, changes requested or withdrawn: working files deleted, the version free for a correction. */
function closed(record: SubmissionRecord, state: SubmissionState, now: number, actor: Actor, reason?: string) {
  const next: SubmissionRecord = { ...record, revision: record.revision + 1, state, workingFiles: 'deleted', trail: trail(record, now, actor, state, reason) };
  const effects: Effect[] = [
    { type: 'leave-review-queue', submissionId: record.id },
    { type: 'delete-working-files', submissionId: record.id },
  ];
  return { records: [next], effects };
}

/** Release submission and review: `submit`, `approve`, `reject`, `request-changes`, `withdraw`, `revoke`, `publish-listing`. */
export const decideSubmission = decider('release-submission', readSubmission, specs);
export const SUBMISSION_COMMANDS = Object.keys(specs);
