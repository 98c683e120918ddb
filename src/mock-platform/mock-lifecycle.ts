// platform-ext/testing's store lifecycle on the service core (as the preview page), launching a mock platform
// as the launch gate allows. Upgrade and rollback relaunch the frame; grants reach the running frame at once.
import type { Refusal } from '../service/index.js';
import { LifecycleRefusal, StoreLifecycle, type MoveReport, type SettingNotice } from '../preview/store-lifecycle.js';
import type { InstallationRecord } from '../service/index.js';
import type { SettingValue } from '../validator/internal.js';
import { createMockPlatform, type MockPlatform } from './mock-platform.js';
import { MockPlatformError, checkOptions, readManifest, type MockPlatformOptions } from './mock-options.js';
import type { MockCapabilityKey, MockPlatformApi } from './platform-api.js';

export { LifecycleRefusal, type MoveReport, type SettingNotice };
export type { InstallationRecord, Refusal };

/** The mock platform's options, but grants and settings, which the installation decides. */
export type MockInstallOptions = Omit<MockPlatformOptions, 'grants' | 'deny' | 'manifest'> & {
  /** The manifest of the release to install (object, manifest.json path or project folder). */
  readonly manifest: string | object;
  /** What the store user approves at install (default: every declared capability). */
  readonly grants?: readonly MockCapabilityKey[];
  /** Settings the store user saves after installing (checked by the service's save-settings). */
  readonly settings?: Readonly<Record<string, SettingValue>>;
};

export interface MockInstallation {
  /** The running frame's `PLATFORM` (a new object after each upgrade and rollback); null when the gate refuses. */
  readonly platform: MockPlatformApi | null;
  /** The running mock platform (calls, host state); null when the gate refuses. */
  readonly mock: MockPlatform | null;
  /** The launch gate's answer for the current release: null when it launched, else the service's refusal. */
  readonly refusal: Refusal | null;
  readonly installation: InstallationRecord;
  readonly version: string;
  /** The store user approves a declared capability (after an upgrade's permission review, or a revocation). */
  approve(capability: MockCapabilityKey): Promise<void>;
  /** The store user revokes a grant; the running frame's next call to it rejects with CAPABILITY_NOT_GRANTED. */
  revoke(capability: MockCapabilityKey): Promise<void>;
  saveSettings(settings: Readonly<Record<string, SettingValue>>): Promise<void>;
  /** Publishes `manifest` as the next release and upgrades to it; relaunches the frame. */
  upgrade(manifest: string | object): Promise<MoveReport>;
  /** One-step rollback; relaunches the frame. */
  rollBack(): Promise<MoveReport>;
  /** An operator revokes the installed release: the frame stops and does not launch again. */
  revokeRelease(): Promise<void>;
  /** An operator revokes the publisher: the frame stops and does not launch again. */
  revokePublisher(): Promise<void>;
  /** Stops the frame. Idempotent. */
  dispose(): void;
}

/** Installs and launches the release; a refused command rejects with a LifecycleRefusal (the service's code). */
export async function installMockExtension(options: MockInstallOptions): Promise<MockInstallation> {
  if (typeof options !== 'object' || options === null) throw new MockPlatformError('ERR_INVALID_OPTION', 'installMockExtension needs an options object with the manifest');
  const { manifest, grants, settings, ...rest } = options;
  if (manifest === undefined) throw new MockPlatformError('ERR_INVALID_OPTION', 'options.manifest is required: the release to install');
  // The rest are the mock platform's own options, checked as createMockPlatform checks them.
  checkOptions(rest);
  const store = new StoreLifecycle();

  function facts(input: string | object) {
    const m = readManifest(input);
    return { namespace: m.namespace, version: m.version, capabilities: m.declared, properties: m.properties };
  }
  // The manifest of each published release, by release id: a relaunch needs the release's own.
  const manifests = new Map<string, string | object>();

  let mock: MockPlatform | null = null;
  let refusal: Refusal | null = null;
  let disposed = false;

  async function launch(): Promise<void> {
    mock?.dispose();
    mock = null;
    if (disposed) return;
    const gate = store.gate();
    if (!gate.ok) {
      refusal = gate.refusal;
      return;
    }
    refusal = null;
    const data = { ...rest.data, settings: gate.ready.settings };
    mock = await createMockPlatform({ ...rest, manifest: manifests.get(store.release!.id)!, grants: gate.ready.capabilities as MockCapabilityKey[], data });
  }

  async function pushGrants(): Promise<void> {
    const gate = store.gate();
    if (mock !== null && gate.ok) await mock.setGrants(gate.ready.capabilities as MockCapabilityKey[]);
  }

  const first = store.install(facts(manifest), grants);
  manifests.set(first.releaseId, manifest);
  if (settings !== undefined) store.saveSettings(settings);
  await launch();

  return {
    get platform() {
      return mock?.platform ?? null;
    },
    get mock() {
      return mock;
    },
    get refusal() {
      return refusal;
    },
    get installation() {
      return store.installation!;
    },
    get version() {
      return store.installation!.version;
    },
    async approve(capability) {
      store.grant(capability);
      await pushGrants();
    },
    async revoke(capability) {
      store.revokeGrant(capability);
      await pushGrants();
    },
    async saveSettings(next) {
      store.saveSettings(next);
      const gate = store.gate();
      if (mock !== null && gate.ok) await mock.setSettings(gate.ready.settings);
    },
    async upgrade(next) {
      const release = store.publish(facts(next));
      manifests.set(release.id, next);
      const report = store.upgrade(release);
      await launch();
      return report;
    },
    async rollBack() {
      const report = store.rollBack();
      await launch();
      return report;
    },
    async revokeRelease() {
      store.revokeRelease();
      await launch();
    },
    async revokePublisher() {
      store.revokePublisher();
      await launch();
    },
    dispose() {
      disposed = true;
      mock?.dispose();
      mock = null;
    },
  };
}
