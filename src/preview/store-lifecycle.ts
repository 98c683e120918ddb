// One store's side of an extension's life (preview page, platform-ext/testing), kept as the service core's records
// and changed only through its decision functions: nothing here decides a rule. Pure (no node:, no DOM) for the page
// bundle, which is also why it imports the core's modules one by one (no private links, no invitations).
import { decideInstallation } from '../service/installation.js';
import { decidePublisher } from '../service/publisher.js';
import { decideSubmission } from '../service/submission.js';
import { effectiveSettings } from '../service/settings.js';
import { launchGate, type LaunchDecision } from '../service/launch.js';
import type { Refusal } from '../service/refusals.js';
import type { Actor, Decision, InstallationRecord, PublisherRecord, SubmissionRecord } from '../service/model.js';
import type { PropertyDef, SettingValue } from '../validator/internal.js';

export interface ReleaseFacts {
  readonly namespace: string;
  readonly version: string;
  readonly capabilities: readonly string[];
  readonly properties: readonly PropertyDef[];
}

/** A command the service refused: `code` is the service's refusal code (`service/...`). */
export class LifecycleRefusal extends Error {
  readonly code: string;
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(refusal.message);
    this.name = 'LifecycleRefusal';
    this.code = refusal.code;
    this.refusal = refusal;
  }
}

export interface SettingNotice {
  readonly name: string;
  /** `rejected`: the property remains but refuses the value (the frame gets its default, or nothing). */
  readonly outcome: 'kept' | 'dropped' | 'rejected';
  readonly saved: SettingValue;
  readonly now: SettingValue | undefined;
}

export interface MoveReport {
  readonly from: string;
  readonly to: string;
  /** Newly declared: off until the store user approves them. */
  readonly added: readonly string[];
  /** No longer declared: gone from the installation (a grant of one is removed). */
  readonly dropped: readonly string[];
  /** The service's `open-permission-review` effect. */
  readonly review: readonly string[];
  readonly settings: readonly SettingNotice[];
}

/** The preview's stand-in for the publisher's signing key (a fingerprint, never used to sign). */
const KEY_ID = 'a'.repeat(64);
const DIGEST = 'b'.repeat(64);

const SYSTEM: Actor = { kind: 'system', id: 'preview' };
const SUBMITTER: Actor = { kind: 'operator', id: 'preview-submitter' };
const REVIEWER: Actor = { kind: 'operator', id: 'preview-reviewer' };

export interface StoreLifecycleOptions {
  readonly storeId?: string;
  readonly now?: () => number;
}

export class StoreLifecycle {
  readonly storeId: string;
  readonly #now: () => number;
  readonly #user: Actor;
  #publisher: PublisherRecord;
  readonly #releases = new Map<string, SubmissionRecord>();
  #installation: InstallationRecord | null = null;
  #nextId = 1;

  constructor(options: StoreLifecycleOptions = {}) {
    this.storeId = options.storeId ?? 'preview-store';
    this.#now = options.now ?? Date.now;
    this.#user = { kind: 'store-user', id: 'preview-user', storeId: this.storeId };
    let publisher = this.#one<PublisherRecord>(decidePublisher(null, { type: 'create-legacy', actor: SYSTEM, keyIds: [KEY_ID] }, { now: this.#now(), newId: this.#id('publisher') }));
    publisher = this.#one<PublisherRecord>(decidePublisher(publisher, { type: 'trust', actor: REVIEWER }, { now: this.#now() }));
    this.#publisher = publisher;
  }

  #id(prefix: string): string {
    return `${prefix}-${this.#nextId++}`;
  }

  #one<T>(decision: Decision): T {
    if (!decision.ok) throw new LifecycleRefusal(decision.refusal);
    return decision.records[0] as unknown as T;
  }

  /** The installation's record (null before install). */
  get installation(): InstallationRecord | null {
    return this.#installation;
  }

  get publisher(): PublisherRecord {
    return this.#publisher;
  }

  /** The release the installation runs (null before install). */
  get release(): SubmissionRecord | null {
    return this.#installation === null ? null : (this.#releases.get(this.#installation.releaseId) ?? null);
  }

  /** The release a one-step rollback returns to, or null. */
  get previousRelease(): SubmissionRecord | null {
    const id = this.release?.previousReleaseId ?? null;
    return id === null ? null : (this.#releases.get(id) ?? null);
  }

  /** The namespace's latest approved release: the one a new approval keeps as its previous. */
  #current(namespace: string): SubmissionRecord | null {
    let latest: SubmissionRecord | null = null;
    for (const r of this.#releases.values()) if (r.namespace === namespace && r.state === 'approved') latest = r;
    return latest;
  }

  /**
   * Submits a release, has a second operator approve it and publishes its listing, as the
   * service decides each step. Returns the approved release record.
   */
  publish(facts: ReleaseFacts): SubmissionRecord {
    const namespace = { ownerPublisherId: this.#publisher.id, submissions: [...this.#releases.values()].filter((r) => r.namespace === facts.namespace).map((r) => ({ id: r.id, version: r.version, state: r.state })) };
    const report = {
      errors: 0,
      warnings: 0,
      rules: [],
      manifest: { namespace: facts.namespace, version: facts.version, capabilities: [...facts.capabilities], properties: facts.properties.map((p) => ({ ...p })) },
      manifestSha256: DIGEST,
      artifactSha256: DIGEST,
      publicKeyId: KEY_ID,
      signatureValid: true,
    };
    const submitted = this.#one<SubmissionRecord>(
      decideSubmission(null, { type: 'submit', actor: SUBMITTER, publisherId: this.#publisher.id, namespace: facts.namespace, version: facts.version, distribution: 'public-free', report }, { now: this.#now(), newId: this.#id('release'), publisher: this.#publisher, namespace }),
    );
    const current = this.#current(facts.namespace);
    let approved = this.#one<SubmissionRecord>(decideSubmission(submitted, { type: 'approve', actor: REVIEWER }, { now: this.#now(), publisher: this.#publisher, namespace, currentReleaseId: current?.id ?? null }));
    approved = this.#one<SubmissionRecord>(decideSubmission(approved, { type: 'publish-listing', actor: REVIEWER }, { now: this.#now(), publisher: this.#publisher }));
    this.#releases.set(approved.id, approved);
    return approved;
  }

  /**
   * The store user installs `release` (published first when it is facts), approving
   * `grants` (default: everything it declares). The store saves the settings form as it
   * opens: the release's defaults.
   */
  install(release: ReleaseFacts | SubmissionRecord, grants?: readonly string[]): InstallationRecord {
    const record = 'kind' in release ? release : this.publish(release);
    const inst = this.#one<InstallationRecord>(
      decideInstallation(null, { type: 'install', actor: this.#user, grants: [...(grants ?? record.capabilities)] }, { now: this.#now(), newId: this.#id('installation'), release: record, publisher: this.#publisher, link: null }),
    );
    this.#installation = inst;
    this.saveSettings(effectiveSettings(record.properties, {}));
    return this.#installation;
  }

  #installed(): InstallationRecord {
    if (this.#installation === null) throw new LifecycleRefusal({ code: 'service/record-missing', message: 'Nothing is installed yet: install first' });
    return this.#installation;
  }

  #apply(decision: Decision): Decision & { ok: true } {
    if (!decision.ok) throw new LifecycleRefusal(decision.refusal);
    this.#installation = decision.records[0] as unknown as InstallationRecord;
    return decision;
  }

  /** The store user approves a declared capability. */
  grant(capability: string): InstallationRecord {
    this.#apply(decideInstallation(this.#installed(), { type: 'grant', actor: this.#user, capability }, { now: this.#now() }));
    return this.#installation!;
  }

  /** The store user revokes a grant. */
  revokeGrant(capability: string): InstallationRecord {
    this.#apply(decideInstallation(this.#installed(), { type: 'revoke-grant', actor: this.#user, capability }, { now: this.#now() }));
    return this.#installation!;
  }

  /** The store user saves the settings form. */
  saveSettings(settings: Readonly<Record<string, SettingValue>>): InstallationRecord {
    this.#apply(decideInstallation(this.#installed(), { type: 'save-settings', actor: this.#user, settings: { ...settings } }, { now: this.#now(), release: this.release }));
    return this.#installation!;
  }

  /** What each saved setting becomes under `target`'s properties (the launch gate's effectiveSettings). */
  #settingNotices(target: SubmissionRecord): SettingNotice[] {
    const saved = this.#installed().settings;
    const now = effectiveSettings(target.properties, saved);
    return Object.keys(saved).map((name) => {
      const value = saved[name]!;
      const has = target.properties.some((p) => p.name === name);
      const outcome = !has ? 'dropped' : Object.hasOwn(now, name) && now[name] === value ? 'kept' : 'rejected';
      return { name, outcome, saved: value, now: now[name] };
    });
  }

  #move(type: 'upgrade' | 'roll-back', target: SubmissionRecord): MoveReport {
    const before = this.#installed();
    const from = this.release!;
    const settings = this.#settingNotices(target);
    const decision = this.#apply(decideInstallation(before, { type, actor: this.#user }, { now: this.#now(), release: from, next: target, publisher: this.#publisher }));
    const after = this.#installation!;
    const review = decision.effects.flatMap((e) => (e.type === 'open-permission-review' ? ((e as { capabilities?: string[] }).capabilities ?? []) : []));
    return {
      from: from.version,
      to: target.version,
      added: after.declared.filter((c) => !before.declared.includes(c)),
      dropped: before.declared.filter((c) => !after.declared.includes(c)),
      review,
      settings,
    };
  }

  /** Publishes `next` and moves the installation to it (the service's upgrade). */
  upgrade(next: ReleaseFacts | SubmissionRecord): MoveReport {
    this.#installed();
    const target = 'kind' in next ? next : this.publish(next);
    return this.#move('upgrade', target);
  }

  /** One-step rollback to the release that was current when the installed one was approved. */
  rollBack(): MoveReport {
    this.#installed();
    // Without a kept previous release the service is asked anyway: it refuses, and says why.
    return this.#move('roll-back', this.previousRelease ?? this.release!);
  }

  /** An operator revokes the installed release: it stops launching. */
  revokeRelease(note?: string): SubmissionRecord {
    this.#installed();
    const current = this.release!;
    const revoked = this.#one<SubmissionRecord>(decideSubmission(current, { type: 'revoke', actor: REVIEWER, ...(note !== undefined && { note }) }, { now: this.#now() }));
    this.#releases.set(revoked.id, revoked);
    return revoked;
  }

  /** An operator revokes the publisher: none of its releases launches again. */
  revokePublisher(): PublisherRecord {
    this.#publisher = this.#one<PublisherRecord>(decidePublisher(this.#publisher, { type: 'revoke', actor: REVIEWER }, { now: this.#now() }));
    return this.#publisher;
  }

  /** Whether the frame may launch, and what PLATFORM.ready resolves to (the service's launchGate). */
  gate(): LaunchDecision {
    return launchGate(this.#installed(), this.release, this.#publisher);
  }
}
