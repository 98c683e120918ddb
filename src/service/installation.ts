// An extension installed on one store (contract: "Capability grant on an installed extension", service
// rule 1). Declared is not granted: the store user's approval is the only way a capability is granted.
import { compareSemver } from '../validator/index.js';
import { decider, refuse, type CommandSpec } from './decide.js';
import {
  capabilityList,
  isoTime,
  readInstallation,
  readLink,
  readPublisher,
  readSubmission,
  savedSettings,
  type Actor,
  type Effect,
  type InstallationRecord,
  type LinkRecord,
  type PublisherRecord,
  type SubmissionRecord,
} from './model.js';
import { id, nullable, type Reader } from './shape.js';
import { checkSavedSettings } from './settings.js';
import { activePublisher } from './team.js';

const release = readSubmission as Reader<unknown>;
const publisherR = readPublisher as Reader<unknown>;

/** A release that may be installed or moved to: approved (a revoked one never launches). */
export function requireLaunchable(r: SubmissionRecord, pointer: string): void {
  if (r.state === 'revoked') refuse('service/release-revoked', `Release ${r.id} (${r.namespace}@${r.version}) is revoked`, pointer);
  if (r.state !== 'approved') refuse('service/release-not-approved', `Release ${r.id} is ${r.state}, not approved`, pointer);
}

function requireStore(inst: InstallationRecord, actor: Actor): void {
  if (actor.kind === 'store-user' && actor.storeId !== inst.storeId) {
    refuse('service/actor-not-allowed', `The installation belongs to store ${inst.storeId}, not ${actor.storeId}`, '/actor/storeId');
  }
}

function requireInstalled(inst: InstallationRecord): void {
  if (inst.state !== 'installed') refuse('service/not-installed', `Installation ${inst.id} was uninstalled`, '/state');
}

function requireCurrent(inst: InstallationRecord, current: SubmissionRecord): void {
  if (current.id !== inst.releaseId) refuse('service/related-record-mismatch', `The context's release ${current.id} is not the installed release ${inst.releaseId}`, '/release/id');
}

function next(inst: InstallationRecord, now: number, change: Partial<InstallationRecord>): InstallationRecord {
  return { ...inst, ...change, revision: inst.revision + 1, updatedAt: isoTime(now) };
}

/**
 * Moving to another release of the namespace: an added capability is declared and not
 * granted until the store user approves it (a new permission review); a dropped one loses
 * its grant automatically; saved settings stay as they are.
 */
function moveTo(inst: InstallationRecord, target: SubmissionRecord, now: number): { records: InstallationRecord[]; effects: Effect[] } {
  const declared = [...target.capabilities];
  const added = declared.filter((c) => !inst.declared.includes(c));
  const droppedGrants = inst.granted.filter((c) => !declared.includes(c));
  const granted = inst.granted.filter((c) => declared.includes(c));
  const reviewPending = [...inst.reviewPending.filter((c) => declared.includes(c)), ...added.filter((c) => !inst.reviewPending.includes(c))];
  const effects: Effect[] = droppedGrants.map((capability) => ({ type: 'remove-grant' as const, installationId: inst.id, capability }));
  if (added.length > 0) effects.push({ type: 'open-permission-review', installationId: inst.id, capabilities: added });
  const record = next(inst, now, { releaseId: target.id, version: target.version, declared, granted, reviewPending });
  return { records: [record], effects };
}

function sameLine(inst: InstallationRecord, target: SubmissionRecord, publisher: PublisherRecord): void {
  if (target.namespace !== inst.namespace) refuse('service/related-record-mismatch', `Release ${target.id} is of ${target.namespace}, not ${inst.namespace} (the namespace never changes)`, '/next/namespace');
  if (target.publisherId !== inst.publisherId || publisher.id !== inst.publisherId) refuse('service/related-record-mismatch', `Release ${target.id} or the context's publisher is not of publisher ${inst.publisherId}`, '/publisher/id');
  activePublisher(publisher);
  requireLaunchable(target, '/next/state');
}

const specs: Record<string, CommandSpec> = {
  /**
   * A store user installs an approved release and approves the capabilities in `grants`
   * (each declared). A public free release needs its listing published; any release may be
   * installed by a store that accepted a private link for it.
   */
  install: {
    actors: ['store-user'],
    creates: true,
    fields: { grants: capabilityList },
    context: { newId: id, release, publisher: publisherR, link: nullable(readLink as Reader<unknown>) },
    run(_r: null, cmd: { actor: Actor; grants: string[] }, ctx: { now: number; newId: string; release: SubmissionRecord; publisher: PublisherRecord; link: LinkRecord | null }) {
      const r = ctx.release;
      const storeId = cmd.actor.storeId!;
      if (ctx.publisher.id !== r.publisherId) refuse('service/related-record-mismatch', `The context's publisher ${ctx.publisher.id} is not the release's ${r.publisherId}`, '/publisher/id');
      activePublisher(ctx.publisher);
      requireLaunchable(r, '/release/state');
      const listed = r.distribution === 'public-free' && r.listing === 'published';
      const link = ctx.link;
      if (link !== null && link.releaseId !== r.id) refuse('service/related-record-mismatch', `Link ${link.id} is for release ${link.releaseId}, not ${r.id}`, '/link/releaseId');
      if (!listed) {
        if (link === null) refuse('service/no-access', `Release ${r.id} is ${r.distribution === 'public-free' ? 'not listed yet' : `distributed as ${r.distribution}`} and store ${storeId} has no private link for it`, '/link');
        if (link.state === 'revoked') refuse('service/link-revoked', `Link ${link.id} is revoked`, '/link/state');
        if (!link.acceptedStores.includes(storeId)) refuse('service/no-access', `Store ${storeId} has not accepted link ${link.id}`, '/link/acceptedStores');
      }
      cmd.grants.forEach((c, i) => {
        if (!r.capabilities.includes(c)) refuse('service/grant-not-declared', `Release ${r.id} does not declare ${c}`, `/grants/${i}`);
      });
      const record: InstallationRecord = {
        kind: 'installation',
        id: ctx.newId,
        revision: 1,
        storeId,
        namespace: r.namespace,
        publisherId: r.publisherId,
        releaseId: r.id,
        version: r.version,
        state: 'installed',
        declared: [...r.capabilities],
        granted: r.capabilities.filter((c) => cmd.grants.includes(c)),
        reviewPending: [],
        settings: {},
        updatedAt: isoTime(ctx.now),
      };
      return { records: [record], effects: [] };
    },
  },
  /** The store user approves a declared capability (after an upgrade's permission review, or later). */
  grant: {
    actors: ['store-user'],
    creates: false,
    fields: { capability: id },
    context: {},
    run(inst: InstallationRecord, cmd: { actor: Actor; capability: string }, ctx: { now: number }) {
      requireStore(inst, cmd.actor);
      requireInstalled(inst);
      if (!inst.declared.includes(cmd.capability)) refuse('service/grant-not-declared', `The installed release does not declare ${cmd.capability}`, '/capability');
      if (inst.granted.includes(cmd.capability)) refuse('service/wrong-state', `${cmd.capability} is already granted`, '/capability');
      const granted = inst.declared.filter((c) => c === cmd.capability || inst.granted.includes(c));
      return { records: [next(inst, ctx.now, { granted, reviewPending: inst.reviewPending.filter((c) => c !== cmd.capability) })], effects: [] };
    },
  },
  /** The store user revokes a grant, at any time. */
  'revoke-grant': {
    actors: ['store-user'],
    creates: false,
    fields: { capability: id },
    context: {},
    run(inst: InstallationRecord, cmd: { actor: Actor; capability: string }, ctx: { now: number }) {
      requireStore(inst, cmd.actor);
      requireInstalled(inst);
      if (!inst.granted.includes(cmd.capability)) refuse('service/wrong-state', `${cmd.capability} is not granted`, '/capability');
      return {
        records: [next(inst, ctx.now, { granted: inst.granted.filter((c) => c !== cmd.capability) })],
        effects: [{ type: 'remove-grant', installationId: inst.id, capability: cmd.capability }],
      };
    },
  },
  /** Moves to a higher approved release of the same namespace. */
  upgrade: {
    actors: ['store-user', 'system'],
    creates: false,
    fields: {},
    context: { release, next: release, publisher: publisherR },
    run(inst: InstallationRecord, cmd: { actor: Actor }, ctx: { now: number; release: SubmissionRecord; next: SubmissionRecord; publisher: PublisherRecord }) {
      requireStore(inst, cmd.actor);
      requireInstalled(inst);
      requireCurrent(inst, ctx.release);
      sameLine(inst, ctx.next, ctx.publisher);
      if (compareSemver(ctx.next.version, inst.version) <= 0) refuse('service/version-not-higher', `Release ${ctx.next.id} (${ctx.next.version}) is not higher than the installed ${inst.version}`, '/next/version');
      return moveTo(inst, ctx.next, ctx.now);
    },
  },
  /** One-step rollback: back to the release that was current when the installed one was approved. */
  'roll-back': {
    actors: ['store-user', 'system'],
    creates: false,
    fields: {},
    context: { release, next: release, publisher: publisherR },
    run(inst: InstallationRecord, cmd: { actor: Actor }, ctx: { now: number; release: SubmissionRecord; next: SubmissionRecord; publisher: PublisherRecord }) {
      requireStore(inst, cmd.actor);
      requireInstalled(inst);
      requireCurrent(inst, ctx.release);
      if (ctx.release.previousReleaseId !== ctx.next.id) {
        refuse('service/related-record-mismatch', `Release ${ctx.next.id} is not the previous release of ${ctx.release.id} (${ctx.release.previousReleaseId ?? 'none kept'})`, '/next/id');
      }
      sameLine(inst, ctx.next, ctx.publisher);
      return moveTo(inst, ctx.next, ctx.now);
    },
  },
  /** The store user saves settings: known properties only, valid values, 16,384 bytes at most. */
  'save-settings': {
    actors: ['store-user'],
    creates: false,
    fields: { settings: savedSettings },
    context: { release },
    run(inst: InstallationRecord, cmd: { actor: Actor; settings: Record<string, boolean | number | string> }, ctx: { now: number; release: SubmissionRecord }) {
      requireStore(inst, cmd.actor);
      requireInstalled(inst);
      requireCurrent(inst, ctx.release);
      checkSavedSettings(ctx.release.properties, cmd.settings);
      return { records: [next(inst, ctx.now, { settings: cmd.settings })], effects: [] };
    },
  },
  uninstall: {
    actors: ['store-user'],
    creates: false,
    fields: {},
    context: {},
    run(inst: InstallationRecord, cmd: { actor: Actor }, ctx: { now: number }) {
      requireStore(inst, cmd.actor);
      requireInstalled(inst);
      return { records: [next(inst, ctx.now, { state: 'uninstalled', granted: [], reviewPending: [] })], effects: [{ type: 'stop-launching', installationId: inst.id }] };
    },
  },
};

/** Installation: `install`, `grant`, `revoke-grant`, `upgrade`, `roll-back`, `save-settings`, `uninstall`. */
export const decideInstallation = decider('installation', readInstallation, specs);
export const INSTALLATION_COMMANDS = Object.keys(specs);
