// The publisher: keys (Authentication 5), team (Publisher team rules), operator decisions (trust,
// revocation). A revoked publisher refuses every command: it cannot be restored.
import { decider, refuse, type CommandSpec } from './decide.js';
import { TEAM_ROLES, isoTime, readPublisher, type Actor, type PublisherRecord, type TeamMember, type TeamRole } from './model.js';
import { arr, hex64, id, oneOf, type Reader } from './shape.js';
import { activePublisher, memberRole, requireRole } from './team.js';

function next(p: PublisherRecord, now: number, change: Partial<PublisherRecord>): PublisherRecord {
  return { ...p, ...change, revision: p.revision + 1, updatedAt: isoTime(now) };
}

function owners(p: PublisherRecord): TeamMember[] {
  return p.members.filter((m) => m.role === 'owner');
}

/** Publisher team rules: an owner leaves (or stops being one) only while another owner exists. */
function requireSecondOwner(p: PublisherRecord, userId: string, what: string): void {
  if (memberRole(p, userId) === 'owner' && owners(p).length < 2) {
    refuse('service/last-owner', `${userId} is the only owner of publisher ${p.id}, so they cannot be ${what}`, '/userId');
  }
}

function requireMember(p: PublisherRecord, userId: string): TeamRole {
  const role = memberRole(p, userId);
  if (role === null) refuse('service/member-unknown', `${userId} is not a member of publisher ${p.id}`, '/userId');
  return role;
}

/** Every command but the creating ones starts here. */
function inService(p: PublisherRecord): void {
  activePublisher(p);
}

const keyList: Reader<string[]> = arr(hex64, 100);

const specs: Record<string, CommandSpec> = {
  /** A console user creates a publisher with its first key and becomes its owner. */
  create: {
    actors: ['publisher-member'],
    creates: true,
    fields: { keyId: hex64 },
    context: { newId: id },
    run(_r: null, cmd: { actor: Actor; keyId: string }, ctx: { now: number; newId: string }) {
      const at = isoTime(ctx.now);
      const record: PublisherRecord = {
        kind: 'publisher',
        id: ctx.newId,
        revision: 1,
        state: 'active',
        trust: 'untrusted',
        legacy: false,
        keys: [{ id: cmd.keyId, state: 'active', addedAt: at, revokedAt: null }],
        members: [{ userId: cmd.actor.id, role: 'owner' }],
        updatedAt: at,
      };
      return { records: [record], effects: [] };
    },
  },
  /** A publisher that predates the developer console: keys, no owner yet. */
  'create-legacy': {
    actors: ['operator', 'system'],
    creates: true,
    fields: { keyIds: keyList },
    context: { newId: id },
    run(_r: null, cmd: { keyIds: string[] }, ctx: { now: number; newId: string }) {
      if (cmd.keyIds.length === 0) refuse('service/malformed-command', 'A publisher starts with at least one active key', '/keyIds');
      if (new Set(cmd.keyIds).size !== cmd.keyIds.length) refuse('service/key-exists', 'The same key is listed twice', '/keyIds');
      const at = isoTime(ctx.now);
      const record: PublisherRecord = {
        kind: 'publisher',
        id: ctx.newId,
        revision: 1,
        state: 'active',
        trust: 'untrusted',
        legacy: true,
        keys: cmd.keyIds.map((k) => ({ id: k, state: 'active' as const, addedAt: at, revokedAt: null })),
        members: [],
        updatedAt: at,
      };
      return { records: [record], effects: [] };
    },
  },
  /** Rotation, step one: add the replacement public key (owner or administrator). */
  'add-key': {
    actors: ['publisher-member'],
    creates: false,
    fields: { keyId: hex64 },
    context: {},
    run(p: PublisherRecord, cmd: { actor: Actor; keyId: string }, ctx: { now: number }) {
      inService(p);
      requireRole(p, cmd.actor.id, ['owner', 'administrator'], 'add keys');
      const known = p.keys.find((k) => k.id === cmd.keyId);
      if (known !== undefined) refuse('service/key-exists', `Key ${cmd.keyId} is already ${known.state === 'active' ? 'active' : 'revoked'} for publisher ${p.id}`, '/keyId');
      return { records: [next(p, ctx.now, { keys: [...p.keys, { id: cmd.keyId, state: 'active', addedAt: isoTime(ctx.now), revokedAt: null }] })], effects: [] };
    },
  },
  /** Rotation, last step: revoke the old key; the last active key stays. */
  'revoke-key': {
    actors: ['publisher-member'],
    creates: false,
    fields: { keyId: hex64 },
    context: {},
    run(p: PublisherRecord, cmd: { actor: Actor; keyId: string }, ctx: { now: number }) {
      inService(p);
      requireRole(p, cmd.actor.id, ['owner', 'administrator'], 'revoke keys');
      const key = p.keys.find((k) => k.id === cmd.keyId && k.state === 'active');
      if (key === undefined) refuse('service/key-unknown', `Publisher ${p.id} has no active key ${cmd.keyId}`, '/keyId');
      if (p.keys.filter((k) => k.state === 'active').length === 1) refuse('service/last-active-key', `Key ${cmd.keyId} is the last active key of publisher ${p.id}`, '/keyId');
      const at = isoTime(ctx.now);
      return { records: [next(p, ctx.now, { keys: p.keys.map((k) => (k.id === cmd.keyId ? { ...k, state: 'revoked' as const, revokedAt: at } : k)) })], effects: [] };
    },
  },
  /** The operator's decision to trust the publisher (not an approval of any release). */
  trust: {
    actors: ['operator'],
    creates: false,
    fields: {},
    context: {},
    run(p: PublisherRecord, _cmd: unknown, ctx: { now: number }) {
      inService(p);
      if (p.trust === 'trusted') refuse('service/wrong-state', `Publisher ${p.id} is already trusted`, '/trust');
      return { records: [next(p, ctx.now, { trust: 'trusted' })], effects: [] };
    },
  },
  /** Revoking a publisher stops every release of it from launching, for good. */
  revoke: {
    actors: ['operator'],
    creates: false,
    fields: {},
    context: {},
    run(p: PublisherRecord, _cmd: unknown, ctx: { now: number }) {
      inService(p);
      return { records: [next(p, ctx.now, { state: 'revoked' })], effects: [{ type: 'stop-launching', publisherId: p.id }] };
    },
  },
  /** Always refused: a revoked publisher cannot be restored, and an active one needs no restoring. */
  restore: {
    actors: ['operator'],
    creates: false,
    fields: {},
    context: {},
    run(p: PublisherRecord) {
      inService(p);
      return refuse('service/wrong-state', `Publisher ${p.id} is not revoked`, '/state');
    },
  },
  /** Operators assign the first owner of a legacy publisher, never replace one. */
  'assign-first-owner': {
    actors: ['operator'],
    creates: false,
    fields: { userId: id },
    context: {},
    run(p: PublisherRecord, cmd: { userId: string }, ctx: { now: number }) {
      inService(p);
      if (owners(p).length > 0) refuse('service/owner-exists', `Publisher ${p.id} already has an owner`, '/members');
      if (!p.legacy) refuse('service/wrong-state', `Publisher ${p.id} is not a legacy publisher`, '/legacy');
      const members = [...p.members.filter((m) => m.userId !== cmd.userId), { userId: cmd.userId, role: 'owner' as const }];
      return { records: [next(p, ctx.now, { members })], effects: [] };
    },
  },
  /** An owner removes a member; an administrator removes a developer. */
  'remove-member': {
    actors: ['publisher-member'],
    creates: false,
    fields: { userId: id },
    context: {},
    run(p: PublisherRecord, cmd: { actor: Actor; userId: string }, ctx: { now: number }) {
      inService(p);
      const actorRole = requireRole(p, cmd.actor.id, ['owner', 'administrator'], 'remove members');
      const role = requireMember(p, cmd.userId);
      if (actorRole === 'administrator' && role !== 'developer') refuse('service/actor-not-allowed', `An administrator removes developers only; ${cmd.userId} is a${role === 'owner' ? 'n' : ''} ${role}`, '/userId');
      requireSecondOwner(p, cmd.userId, 'removed');
      return { records: [next(p, ctx.now, { members: p.members.filter((m) => m.userId !== cmd.userId) })], effects: [] };
    },
  },
  /** An owner changes a member's role; the last owner keeps theirs. */
  'change-role': {
    actors: ['publisher-member'],
    creates: false,
    fields: { userId: id, role: oneOf(TEAM_ROLES) },
    context: {},
    run(p: PublisherRecord, cmd: { actor: Actor; userId: string; role: TeamRole }, ctx: { now: number }) {
      inService(p);
      requireRole(p, cmd.actor.id, ['owner'], 'change roles');
      const role = requireMember(p, cmd.userId);
      if (role === cmd.role) refuse('service/wrong-state', `${cmd.userId} is already a${role === 'owner' ? 'n' : ''} ${role}`, '/role');
      if (cmd.role !== 'owner') requireSecondOwner(p, cmd.userId, 'made a' + (cmd.role === 'administrator' ? 'n ' : ' ') + cmd.role);
      return { records: [next(p, ctx.now, { members: p.members.map((m) => (m.userId === cmd.userId ? { ...m, role: cmd.role } : m)) })], effects: [] };
    },
  },
  /** The system reports that a member's user account is being deleted. */
  'delete-account': {
    actors: ['system'],
    creates: false,
    fields: { userId: id },
    context: {},
    run(p: PublisherRecord, cmd: { userId: string }, ctx: { now: number }) {
      inService(p);
      requireMember(p, cmd.userId);
      requireSecondOwner(p, cmd.userId, 'deleted');
      return { records: [next(p, ctx.now, { members: p.members.filter((m) => m.userId !== cmd.userId) })], effects: [] };
    },
  },
};

/** Publisher, keys and team: `create`, `create-legacy`, `add-key`, `revoke-key`, `trust`, `revoke`, `restore`, `assign-first-owner`, `remove-member`, `change-role`, `delete-account`. */
export const decidePublisher = decider('publisher', readPublisher, specs);
export const PUBLISHER_COMMANDS = Object.keys(specs);
