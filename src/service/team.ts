// Facts about a publisher that other records' rules need: in service, and a person's team role.
import { refuse } from './decide.js';
import type { PublisherRecord, TeamRole } from './model.js';

/** Refuses when the publisher is revoked (Authentication 5: it cannot be restored). */
export function activePublisher(publisher: PublisherRecord): void {
  if (publisher.state === 'revoked') refuse('service/publisher-revoked', `Publisher ${publisher.id} is revoked`, '/publisher/state');
}

export function memberRole(publisher: PublisherRecord, userId: string): TeamRole | null {
  for (const m of publisher.members) if (m.userId === userId) return m.role;
  return null;
}

/** Refuses unless the person holds one of `roles` in the publisher's team. */
export function requireRole(publisher: PublisherRecord, userId: string, roles: readonly TeamRole[], what: string): TeamRole {
  const role = memberRole(publisher, userId);
  if (role === null) refuse('service/actor-not-allowed', `${userId} is not a member of publisher ${publisher.id}`, '/actor/id');
  if (!roles.includes(role)) refuse('service/actor-not-allowed', `${userId} is a${role === 'owner' ? 'n' : ''} ${role}; only ${roles.join(' or ')}s may ${what}`, '/actor/id');
  return role;
}
