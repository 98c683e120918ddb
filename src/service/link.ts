// Private installation links (contract: Private link rules, Authentication 7). The record holds the
// token's SHA-256, never the token: callers look a link up by that hash and pass it in the command.
import { decider, refuse, type CommandSpec } from './decide.js';
import { isoTime, readLink, readPublisher, readSubmission, time, type Actor, type LinkRecord, type LinkTerms, type PublisherRecord, type SubmissionRecord } from './model.js';
import { hex64, id, int, nullable, opt, type Reader } from './shape.js';
import { requireLaunchable } from './installation.js';
import { activePublisher, requireRole } from './team.js';

/** Expired from `expiresAt` on: the expiry is the first millisecond at which the link no longer redeems (D-43). */
export function linkExpired(link: LinkRecord, now: number): boolean {
  return link.expiresAt !== null && now >= Date.parse(link.expiresAt);
}

function terms(link: LinkRecord): LinkTerms {
  return { namespace: link.namespace, version: link.version, storeLock: link.storeLock, usesLeft: link.useLimit === null ? null : link.useLimit - link.uses, expiresAt: link.expiresAt };
}

function requireToken(link: LinkRecord, tokenHash: string): void {
  if (tokenHash !== link.tokenHash) refuse('service/token-mismatch', `The token's hash does not match link ${link.id}`, '/tokenHash');
}

function requireOpen(link: LinkRecord, now: number): void {
  if (link.state === 'revoked') refuse('service/link-revoked', `Link ${link.id} is revoked`, '/state');
  if (linkExpired(link, now)) refuse('service/link-expired', `Link ${link.id} expired at ${link.expiresAt}`, '/expiresAt');
}

const specs: Record<string, CommandSpec> = {
  /** An owner or administrator issues a link for an approved release of the publisher. */
  issue: {
    actors: ['publisher-member'],
    creates: true,
    fields: { tokenHash: hex64, storeLock: opt(nullable(id)), useLimit: opt(nullable(int(1, 1_000_000))), expiresAt: opt(nullable(time)) },
    context: { newId: id, release: readSubmission as Reader<unknown>, publisher: readPublisher as Reader<unknown> },
    run(_r: null, cmd: { actor: Actor; tokenHash: string; storeLock?: string | null; useLimit?: number | null; expiresAt?: number | null }, ctx: { now: number; newId: string; release: SubmissionRecord; publisher: PublisherRecord }) {
      const r = ctx.release;
      if (ctx.publisher.id !== r.publisherId) refuse('service/related-record-mismatch', `The context's publisher ${ctx.publisher.id} is not the release's ${r.publisherId}`, '/publisher/id');
      activePublisher(ctx.publisher);
      requireRole(ctx.publisher, cmd.actor.id, ['owner', 'administrator'], 'issue private links');
      requireLaunchable(r, '/release/state');
      const expiresAt = cmd.expiresAt ?? null;
      if (expiresAt !== null && expiresAt <= ctx.now) refuse('service/link-expired', 'The expiry is not in the future', '/expiresAt');
      const record: LinkRecord = {
        kind: 'private-link',
        id: ctx.newId,
        revision: 1,
        publisherId: r.publisherId,
        releaseId: r.id,
        namespace: r.namespace,
        version: r.version,
        tokenHash: cmd.tokenHash,
        storeLock: cmd.storeLock ?? null,
        useLimit: cmd.useLimit ?? null,
        uses: 0,
        expiresAt: expiresAt === null ? null : isoTime(expiresAt),
        state: 'issued',
        acceptedStores: [],
        updatedAt: isoTime(ctx.now),
      };
      return { records: [record], effects: [] };
    },
  },
  /** Opening shows the terms, read-only: no record changes, nothing is consumed. */
  open: {
    actors: ['store-user', 'system'],
    creates: false,
    fields: { tokenHash: hex64 },
    context: {},
    run(link: LinkRecord, cmd: { tokenHash: string }, ctx: { now: number }) {
      requireToken(link, cmd.tokenHash);
      requireOpen(link, ctx.now);
      return { records: [], effects: [{ type: 'show-link-terms', linkId: link.id, terms: terms(link) }] };
    },
  },
  /**
   * The signed-in store accepts explicitly: one use consumed. The same store accepting
   * again consumes none and changes nothing.
   */
  accept: {
    actors: ['store-user'],
    creates: false,
    fields: { tokenHash: hex64 },
    context: {},
    run(link: LinkRecord, cmd: { actor: Actor; tokenHash: string }, ctx: { now: number }) {
      const storeId = cmd.actor.storeId!;
      requireToken(link, cmd.tokenHash);
      if (link.state === 'revoked') refuse('service/link-revoked', `Link ${link.id} is revoked`, '/state');
      const access = { type: 'grant-link-access' as const, linkId: link.id, storeId, releaseId: link.releaseId };
      if (link.acceptedStores.includes(storeId)) return { records: [], effects: [access] };
      if (linkExpired(link, ctx.now)) refuse('service/link-expired', `Link ${link.id} expired at ${link.expiresAt}`, '/expiresAt');
      if (link.storeLock !== null && link.storeLock !== storeId) refuse('service/link-store-locked', `Link ${link.id} is for another store`, '/storeLock');
      if (link.useLimit !== null && link.uses >= link.useLimit) refuse('service/link-use-limit', `Link ${link.id} has used all ${link.useLimit} of its uses`, '/uses');
      const next: LinkRecord = { ...link, revision: link.revision + 1, state: 'accepted', uses: link.uses + 1, acceptedStores: [...link.acceptedStores, storeId], updatedAt: isoTime(ctx.now) };
      return { records: [next], effects: [{ type: 'consume-link-use', linkId: link.id, storeId }, access] };
    },
  },
  /** An owner or administrator of the publisher, or an operator, revokes the link. */
  revoke: {
    actors: ['publisher-member', 'operator'],
    creates: false,
    fields: {},
    context: { publisher: readPublisher as Reader<unknown> },
    run(link: LinkRecord, cmd: { actor: Actor }, ctx: { now: number; publisher: PublisherRecord }) {
      if (ctx.publisher.id !== link.publisherId) refuse('service/related-record-mismatch', `The context's publisher ${ctx.publisher.id} is not the link's ${link.publisherId}`, '/publisher/id');
      if (cmd.actor.kind === 'publisher-member') requireRole(ctx.publisher, cmd.actor.id, ['owner', 'administrator'], 'revoke private links');
      if (link.state === 'revoked') refuse('service/link-revoked', `Link ${link.id} is already revoked`, '/state');
      const next: LinkRecord = { ...link, revision: link.revision + 1, state: 'revoked', updatedAt: isoTime(ctx.now) };
      return { records: [next], effects: [{ type: 'stop-link-redemption', linkId: link.id }] };
    },
  },
};

/** Private link: `issue`, `open`, `accept`, `revoke`. */
export const decideLink = decider('private-link', readLink, specs);
export const LINK_COMMANDS = Object.keys(specs);
