// Public entry of the service core (`platform-ext/service`): decisions over plain JSON records with no
// clock, randomness or I/O; the caller stores records (compare-and-set on `revision`). See docs/service.md.
export { decideSubmission, submissionReport, reportPasses, SUBMISSION_COMMANDS, type SubmissionReport, type NamespaceFacts, type NamespaceSubmission } from './submission.js';
export { decidePublisher, PUBLISHER_COMMANDS } from './publisher.js';
export { decideInstallation, INSTALLATION_COMMANDS } from './installation.js';
export { decideLink, linkExpired, LINK_COMMANDS } from './link.js';
export { decideInvitation, sameAddress, INVITATION_LIFETIME_MS, INVITATION_COMMANDS } from './invitation.js';
export { launchGate, type LaunchDecision, type ReadySnapshot } from './launch.js';
export { REFUSALS, refusalById, type RefusalDef, type Refusal } from './refusals.js';
export { effectiveSettings } from './settings.js';
export {
  ACTOR_KINDS,
  SUBMISSION_STATES,
  DISTRIBUTION_MODES,
  TEAM_ROLES,
  TIME_MAX_MS,
  isoTime,
  type Actor,
  type ActorKind,
  type ActorRef,
  type Decision,
  type Effect,
  type EffectType,
  type LinkTerms,
  type ServiceRecord,
  type RecordKind,
  type SubmissionRecord,
  type SubmissionState,
  type DistributionMode,
  type ReportSummary,
  type TrailEntry,
  type PublisherRecord,
  type PublisherKey,
  type TeamMember,
  type TeamRole,
  type InstallationRecord,
  type LinkRecord,
  type InvitationRecord,
} from './model.js';
export { ID_MAX_CHARS, NOTE_MAX_CHARS, EMAIL_MAX_CHARS, LIST_MAX_ENTRIES } from './shape.js';

import { decideInstallation } from './installation.js';
import { decideInvitation } from './invitation.js';
import { decideLink } from './link.js';
import { decidePublisher } from './publisher.js';
import { decideSubmission } from './submission.js';

/** The decision function of each record kind, by the `kind` its records carry. */
export const DECIDERS = {
  'release-submission': decideSubmission,
  publisher: decidePublisher,
  installation: decideInstallation,
  'private-link': decideLink,
  invitation: decideInvitation,
} as const;
// The record readers, for tools that read JSON exports of records (platform-review --history).
export { readPublisher, readSubmission } from './model.js';
export { Malformed } from './shape.js';
