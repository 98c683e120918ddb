// The service core's refusal catalogue: permanent ids (`service/kebab-name`), never renamed or reused;
// contract-snapshot/service-refusals.json and docs/service.md list them.

export interface RefusalDef {
  readonly id: string;
  readonly title: string;
  /** The contract section (or decision) the refusal enforces. */
  readonly ref: string;
  readonly hint: string;
}

/** A decision's "no": a catalogue code, what is wrong and what to do, and where. */
export interface Refusal {
  readonly code: string;
  readonly message: string;
  /** A JSON pointer into the command, record or context, for refusals about a value. */
  readonly pointer?: string;
}

export const REFUSALS: readonly RefusalDef[] = [
  // Input: what the core cannot read is refused, never thrown.
  { id: 'service/malformed-record', title: 'The stored record is not a record of this kind', ref: 'D-43', hint: 'Pass the record exactly as a decision returned it (plain JSON: kind, id, revision and the fields of its kind), or null to create one.' },
  { id: 'service/malformed-command', title: 'The command is not plain JSON of a known shape', ref: 'D-43', hint: 'Send one of the commands docs/service.md lists, with exactly its fields; tokens are never sent, only their SHA-256.' },
  { id: 'service/malformed-context', title: 'The context lacks a fact or holds a wrong one', ref: 'D-43', hint: 'Pass the current UTC time and the records the command needs (docs/service.md names them per command).' },
  { id: 'service/actor-not-allowed', title: 'The actor may not give this command', ref: 'What the service does; Publisher team rules', hint: 'Have an actor of the right kind and role give the command (docs/service.md lists who may give which).' },
  { id: 'service/record-exists', title: 'A command that creates a record was given an existing one', ref: 'D-43', hint: 'Pass null as the record for a command that creates one; give a new id in the context.' },
  { id: 'service/record-missing', title: 'The command needs an existing record', ref: 'D-43', hint: 'Load the record the command is about and pass it.' },
  { id: 'service/wrong-state', title: 'The record is not in a state that allows the command', ref: 'States and transitions', hint: 'Check the record\'s state: the state tables in docs/service.md list which command moves which state.' },
  { id: 'service/related-record-mismatch', title: 'A record in the context belongs to something else', ref: 'D-43', hint: 'Pass the records that belong together (the release of this installation, the publisher of this release).' },
  // Release submission and review.
  { id: 'service/approve-own-submission', title: 'No one approves their own submission', ref: 'What the service does, rule 4', hint: 'Have a different operator approve the release.' },
  { id: 'service/version-approved', title: 'An approved version is never reused', ref: 'Versioning: release immutability', hint: 'Raise the version in the manifest, package and sign again, and submit that.' },
  { id: 'service/version-in-review', title: 'The version already awaits review', ref: 'Versioning: release immutability', hint: 'Wait for the decision or withdraw the submission awaiting review before submitting the same version again.' },
  { id: 'service/version-not-higher', title: 'A change after approval needs a higher version', ref: 'Versioning: behaviour or source change after approval', hint: 'Give the release a version higher than every approved version of the namespace.' },
  { id: 'service/namespace-owned', title: 'The namespace belongs to another publisher', ref: 'Versioning: namespace', hint: 'Submit under the publisher that owns the namespace, or choose a namespace of your own.' },
  { id: 'service/report-mismatch', title: 'The validation report does not describe this submission', ref: 'Release submission and review', hint: 'Pass the report of validateRelease for exactly the files submitted.' },
  { id: 'service/key-not-active', title: 'The release is signed with a key that is not an active key of the publisher', ref: 'Authentication 5: key custody', hint: 'Sign with an active key, or add the new public key to the publisher first (a changed fingerprint is never accepted silently).' },
  { id: 'service/publisher-not-trusted', title: 'The publisher is not trusted yet', ref: 'Authentication 6: trust separation', hint: 'An operator trusts the publisher as its own decision before releases are approved.' },
  { id: 'service/release-not-approved', title: 'The release is not approved', ref: 'Release submission and review', hint: 'Only an approved release is listed, linked, installed or upgraded to.' },
  { id: 'service/listing-not-offered', title: 'A private or unlisted release has no marketplace listing', ref: 'Distribution modes', hint: 'Reach stores with a private link instead.' },
  // Publisher, keys and team.
  { id: 'service/publisher-revoked', title: 'The publisher is revoked', ref: 'Authentication 5: a revoked publisher cannot be restored', hint: 'A revoked publisher stays revoked: nothing it released launches and it can do nothing more.' },
  { id: 'service/last-active-key', title: 'The last active key cannot be revoked', ref: 'Authentication 5: key custody', hint: 'Add the replacement key, sign with it, then revoke the old one.' },
  { id: 'service/key-exists', title: 'The key was already added to this publisher', ref: 'Authentication 5: key custody', hint: 'Generate a new key pair; a revoked key is never active again.' },
  { id: 'service/key-unknown', title: 'The publisher has no such active key', ref: 'Authentication 5: key custody', hint: 'Name an active key of this publisher by its fingerprint.' },
  { id: 'service/last-owner', title: 'An owner is removed only while a second owner exists', ref: 'Publisher team rules', hint: 'Invite a second owner and have them accept before removing or deleting this owner.' },
  { id: 'service/owner-exists', title: 'Operators assign only the first owner of a legacy publisher', ref: 'Publisher team rules', hint: 'The publisher already has an owner: its owners invite members themselves.' },
  { id: 'service/member-unknown', title: 'The person is not a member of the publisher', ref: 'Publisher team rules', hint: 'Name a current member by user id.' },
  { id: 'service/member-exists', title: 'The person is already a member of the publisher', ref: 'Publisher team rules', hint: 'Change the member\'s role instead of adding them again.' },
  // Installation and settings.
  { id: 'service/no-access', title: 'The store has no access to this release', ref: 'Distribution modes', hint: 'Install a listed public release, or accept a private link for this store first.' },
  { id: 'service/grant-not-declared', title: 'Only a declared capability can be granted', ref: 'Capability grant on an installed extension', hint: 'Grant only capabilities the release\'s manifest declares.' },
  { id: 'service/setting-unknown', title: 'Unknown settings are rejected', ref: 'Property definition', hint: 'Save only settings named by the release\'s properties.' },
  { id: 'service/setting-invalid', title: 'A setting breaks its property\'s value rules', ref: 'Property definition', hint: 'Give each setting a value of its property\'s type within its limits.' },
  { id: 'service/settings-too-large', title: 'Saved settings are capped at 16,384 bytes', ref: 'Limits: total defaults and saved settings', hint: 'Shorten the settings to at most 16,384 bytes of JSON.' },
  { id: 'service/not-installed', title: 'The extension is not installed', ref: 'What the service does, rule 1', hint: 'Nothing runs until a store user installs the extension and approves its capabilities.' },
  { id: 'service/release-revoked', title: 'The release is revoked', ref: 'Private link rules: revoking a release stops launching', hint: 'A revoked release never launches; install or upgrade to an approved release.' },
  // Private links.
  { id: 'service/link-revoked', title: 'The link is revoked', ref: 'Private link rules', hint: 'Ask the publisher for a new link.' },
  { id: 'service/link-expired', title: 'The link has expired', ref: 'Private link rules', hint: 'Ask the publisher for a new link.' },
  { id: 'service/link-store-locked', title: 'The link is locked to another store', ref: 'Private link rules', hint: 'Open the link signed in as the store it was issued for.' },
  { id: 'service/link-use-limit', title: 'The link has no use left', ref: 'Private link rules', hint: 'Ask the publisher for a new link.' },
  { id: 'service/token-mismatch', title: 'The token does not match the link or invitation', ref: 'Authentication 7', hint: 'Look the record up by the SHA-256 of the presented token and pass that hash.' },
  // Invitations.
  { id: 'service/invitation-expired', title: 'The invitation has expired', ref: 'Publisher team rules: valid for seven days', hint: 'Ask an owner for a new invitation.' },
  { id: 'service/invitation-address-mismatch', title: 'The signed-in address is not the invited one', ref: 'Authentication 7', hint: 'Sign in with the invited e-mail address to accept.' },
];

const BY_ID = new Map(REFUSALS.map((r) => [r.id, r]));

export function refusalById(id: string): RefusalDef | undefined {
  return BY_ID.get(id);
}

export function refusal(code: string, problem: string, pointer?: string): Refusal {
  const def = BY_ID.get(code);
  // An unknown code is a defect of this module; the catalogue test names every code used.
  const message = def === undefined ? problem : `${problem}. ${def.hint}`;
  return pointer === undefined ? { code, message } : { code, message, pointer };
}
