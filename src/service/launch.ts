// The launch gate: may this installation's frame launch, and with exactly which snapshot PLATFORM.ready
// resolves to (granted-and-declared capabilities, migrated and checked settings).
import { FindingList, validateSettings } from '../validator/index.js';
import { Refused, readAs, refuse } from './decide.js';
import { readInstallation, readPublisher, readSubmission, type InstallationRecord, type PublisherRecord, type SubmissionRecord } from './model.js';
import { refusal, type Refusal } from './refusals.js';
import { effectiveSettings } from './settings.js';

export interface ReadySnapshot {
  /** Granted and declared, in the manifest's order. */
  readonly capabilities: string[];
  readonly settings: Record<string, boolean | number | string>;
}

export type LaunchDecision = { readonly ok: true; readonly ready: ReadySnapshot } | { readonly ok: false; readonly refusal: Refusal };

/** Whether the installation's frame may launch, and the ready snapshot it starts with. */
export function launchGate(installation: unknown, release: unknown, publisher: unknown): LaunchDecision {
  try {
    const inst = readAs('service/malformed-record', 'installation record', readInstallation, installation) as InstallationRecord;
    const rel = readAs('service/malformed-record', 'release record', readSubmission, release) as SubmissionRecord;
    const pub = readAs('service/malformed-record', 'publisher record', readPublisher, publisher) as PublisherRecord;
    if (inst.state !== 'installed') refuse('service/not-installed', `Installation ${inst.id} was uninstalled`, '/installation/state');
    if (rel.id !== inst.releaseId) refuse('service/related-record-mismatch', `Release ${rel.id} is not the installed release ${inst.releaseId}`, '/release/id');
    if (pub.id !== rel.publisherId || pub.id !== inst.publisherId) refuse('service/related-record-mismatch', `Publisher ${pub.id} did not publish release ${rel.id}`, '/publisher/id');
    // Revoking a release or a publisher stops the code from launching.
    if (pub.state === 'revoked') refuse('service/publisher-revoked', `Publisher ${pub.id} is revoked`, '/publisher/state');
    if (rel.state === 'revoked') refuse('service/release-revoked', `Release ${rel.id} is revoked`, '/release/state');
    if (rel.state !== 'approved') refuse('service/release-not-approved', `Release ${rel.id} is ${rel.state}`, '/release/state');
    const capabilities = rel.capabilities.filter((c) => inst.granted.includes(c));
    let settings = effectiveSettings(rel.properties, inst.settings);
    const findings = new FindingList();
    validateSettings(rel.properties, settings, findings);
    // Saved values and defaults mixed may pass the size cap together: then the frame starts from the defaults.
    if (findings.items.some((f) => f.severity === 'error')) settings = effectiveSettings(rel.properties, {});
    return { ok: true, ready: { capabilities, settings } };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    return { ok: false, refusal: refusal('service/malformed-record', 'The records could not be read') };
  }
}
