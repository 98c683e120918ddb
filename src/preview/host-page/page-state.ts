// The page's state: `page`, one object holding what the page knows between events. Panel files
// read it and several write it (an imported binding cannot be assigned, a property can); state
// one file alone uses stays in that file. The store starts silent: page.ts gives it the
// activity list (newStore), so this file imports no panel file.
import type { HostBridge } from '../../bridge/host.js';
import type { PropertyDef, SettingValue } from '../../validator/internal.js';
import type { ManifestSummary, PreviewState } from './markup.js';
import { createMockStore, type MockStore } from '../mock-store.js';
import type { StoreLifecycle } from '../store-lifecycle.js';

export type { ManifestSummary, PreviewState } from './markup.js';

/**
 * A set of capability keys that hands out its members as a frozen array, rebuilt only after
 * a change: the host bridge reads the grants and the failing list at every call.
 */
export class ListedSet extends Set<string> {
  #list: readonly string[] | null = null;

  override add(key: string): this {
    this.#list = null;
    return super.add(key);
  }

  override delete(key: string): boolean {
    this.#list = null;
    return super.delete(key);
  }

  override clear(): void {
    this.#list = null;
    super.clear();
  }

  list(): readonly string[] {
    this.#list ??= Object.freeze([...this]);
    return this.#list;
  }
}

/** What the page knows between events: read by every panel, written where the page changes it. */
export interface PageState {
  /** The check the page shows (page.ts apply). */
  state: PreviewState | null;
  /** Declared capabilities of the manifest the page last saw. */
  declared: string[];
  /** The store user's grants (preview: the Capabilities panel); only declared keys matter. */
  readonly grants: ListedSet;
  /** Capabilities whose calls fail with REQUEST_FAILED (`--fail`, then the panel). */
  readonly failing: ListedSet;
  /** Capabilities whose calls fail with another code (`--fail key=CODE`, then the panel). */
  readonly failCodes: Map<string, string>;
  /** The store's records of the installation, in the service core (store-panel.ts). */
  lifecycle: StoreLifecycle | null;
  /** Which release the frame runs: the project, or the one `--upgrade-from` named. */
  running: 'project' | 'previous';
  /** The manifest of the release the frame runs (null: none runs). */
  runningManifest: ManifestSummary | null;
  /** The Store panel's failure modes: hold every answer; never open the channel; the short clock. */
  hold: boolean;
  noChannel: boolean;
  shortClock: boolean;
  /** The settings the frame receives: the last set that passed validateSettings. */
  settings: Record<string, SettingValue>;
  /** What the settings form holds now, valid or not. */
  draft: Record<string, SettingValue>;
  /** The manifest's properties: the fields of the settings form. */
  properties: readonly PropertyDef[];
  /** The visitor's consent to analytics (the Store and visitor panel). */
  consent: boolean;
  /** Whether the store has a text-message number (the Store and visitor panel). */
  smsAvailable: boolean;
  /** `preview --empty-catalog`: the store has no products. */
  emptyCatalog: boolean;
  /** `preview --strict-host` (D-26): read by the host bridge at each call. */
  strictHost: boolean;
  /** The mock store the bridge's calls reach: a new one when emptyCatalog changes. */
  store: MockStore;
  /** The host end of the bridge to the frame (frame.ts). */
  bridge: HostBridge | null;
  /** The extension's frame element (frame.ts). */
  frame: HTMLIFrameElement | null;
}

export const page: PageState = {
  state: null,
  declared: [],
  grants: new ListedSet(),
  failing: new ListedSet(),
  failCodes: new Map(),
  lifecycle: null,
  running: 'project',
  runningManifest: null,
  hold: false,
  noChannel: false,
  shortClock: false,
  settings: {},
  draft: {},
  properties: [],
  consent: true,
  smsAvailable: true,
  emptyCatalog: false,
  strictHost: false,
  store: createMockStore({ emptyCatalog: false }),
  bridge: null,
  frame: null,
};
