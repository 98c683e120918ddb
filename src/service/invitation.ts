// Publisher team invitations (contract: Publisher team rules, Authentication 7). Creating one takes no fact
// about whether the address has an account, so its result cannot reveal that.
import { limits } from '../validator/index.js';
import { decider, refuse, type CommandSpec } from './decide.js';
import { TEAM_ROLES, isoTime, readInvitation, readPublisher, type Actor, type InvitationRecord, type PublisherRecord, type TeamRole } from './model.js';
import { email, hex64, id, oneOf, type Reader } from './shape.js';
import { activePublisher, memberRole, requireRole } from './team.js';

/** Seven days in milliseconds: an invitation accepts from createdAt up to (not at) createdAt + this. */
export const INVITATION_LIFETIME_MS = limits.INVITATION_LIFETIME_DAYS * 24 * 60 * 60 * 1000;

/** Addresses compare without regard to ASCII letter case (D-43). */
export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function requirePublisher(inv: InvitationRecord, publisher: PublisherRecord): void {
  if (publisher.id !== inv.publisherId) refuse('service/related-record-mismatch', `The context's publisher ${publisher.id} is not the invitation's ${inv.publisherId}`, '/publisher/id');
}

const pub = readPublisher as Reader<unknown>;

const specs: Record<string, CommandSpec> = {
  /** An owner invites an address to a role; the effect sends the link (the caller holds the token). */
  create: {
    actors: ['publisher-member'],
    creates: true,
    fields: { email, role: oneOf(TEAM_ROLES), tokenHash: hex64 },
    context: { newId: id, publisher: pub },
    run(_r: null, cmd: { actor: Actor; email: string; role: TeamRole; tokenHash: string }, ctx: { now: number; newId: string; publisher: PublisherRecord }) {
      activePublisher(ctx.publisher);
      requireRole(ctx.publisher, cmd.actor.id, ['owner'], 'invite members');
      const at = isoTime(ctx.now);
      const expiresAt = isoTime(ctx.now + INVITATION_LIFETIME_MS);
      const record: InvitationRecord = {
        kind: 'invitation',
        id: ctx.newId,
        revision: 1,
        publisherId: ctx.publisher.id,
        email: cmd.email,
        role: cmd.role,
        tokenHash: cmd.tokenHash,
        invitedBy: cmd.actor.id,
        createdAt: at,
        expiresAt,
        state: 'pending',
        acceptedBy: null,
        updatedAt: at,
      };
      return { records: [record], effects: [{ type: 'send-invitation', invitationId: record.id, email: cmd.email, expiresAt }] };
    },
  },
  /**
   * The signed-in recipient accepts explicitly: their address matches the invited one and
   * the invitation is less than seven days old. Touches two records: the invitation and
   * the publisher (store both in one transaction).
   */
  accept: {
    actors: ['publisher-member'],
    creates: false,
    fields: { tokenHash: hex64 },
    context: { publisher: pub },
    run(inv: InvitationRecord, cmd: { actor: Actor; tokenHash: string }, ctx: { now: number; publisher: PublisherRecord }) {
      requirePublisher(inv, ctx.publisher);
      activePublisher(ctx.publisher);
      if (cmd.tokenHash !== inv.tokenHash) refuse('service/token-mismatch', `The token's hash does not match invitation ${inv.id}`, '/tokenHash');
      if (inv.state !== 'pending') refuse('service/wrong-state', `Invitation ${inv.id} is ${inv.state}`, '/state');
      if (ctx.now >= Date.parse(inv.expiresAt)) refuse('service/invitation-expired', `Invitation ${inv.id} expired at ${inv.expiresAt}`, '/expiresAt');
      if (cmd.actor.email === undefined || !sameAddress(cmd.actor.email, inv.email)) {
        refuse('service/invitation-address-mismatch', 'The signed-in address is not the one invited', '/actor/email');
      }
      if (memberRole(ctx.publisher, cmd.actor.id) !== null) refuse('service/member-exists', `${cmd.actor.id} is already a member of publisher ${inv.publisherId}`, '/actor/id');
      const at = isoTime(ctx.now);
      const invitation: InvitationRecord = { ...inv, revision: inv.revision + 1, state: 'accepted', acceptedBy: cmd.actor.id, updatedAt: at };
      const publisher: PublisherRecord = {
        ...ctx.publisher,
        revision: ctx.publisher.revision + 1,
        members: [...ctx.publisher.members, { userId: cmd.actor.id, role: inv.role }],
        updatedAt: at,
      };
      return { records: [invitation, publisher], effects: [{ type: 'add-team-member', publisherId: publisher.id, userId: cmd.actor.id, role: inv.role }] };
    },
  },
  /** An owner withdraws a pending invitation. */
  revoke: {
    actors: ['publisher-member'],
    creates: false,
    fields: {},
    context: { publisher: pub },
    run(inv: InvitationRecord, cmd: { actor: Actor }, ctx: { now: number; publisher: PublisherRecord }) {
      requirePublisher(inv, ctx.publisher);
      requireRole(ctx.publisher, cmd.actor.id, ['owner'], 'revoke invitations');
      if (inv.state !== 'pending') refuse('service/wrong-state', `Invitation ${inv.id} is ${inv.state}`, '/state');
      return { records: [{ ...inv, revision: inv.revision + 1, state: 'revoked', updatedAt: isoTime(ctx.now) }], effects: [] };
    },
  },
};

/** Invitation: `create`, `accept`, `revoke`. */
export const decideInvitation = decider('invitation', readInvitation, specs);
export const INVITATION_COMMANDS = Object.keys(specs);
