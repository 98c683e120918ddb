// What the server writes into the host page and the page's scripts read back (server.ts,
// boot.ts, page.ts, frame.ts), kept in one place so that the two sides cannot drift apart. Plain
// constants: the Node server imports this file too.
import { FRAME_SANDBOX, type Finding, type PropertyDef } from '../../validator/internal.js';

/** The JSON data block holding the check the page was served with. */
export const STATE_ELEMENT_ID = 'preview-state';

/** The element the extension's frame lives in. */
export const FRAME_SLOT_ID = 'frame-slot';

/** `data-loaded="true"`: boot.js marks the frame element when a document in it has loaded. */
export const FRAME_LOADED_KEY = 'loaded';

/**
 * The frame element's fixed attributes, as the server writes them and frame.ts sets them:
 * the production sandbox (scripts only: no same-origin, forms, popups or navigation), no
 * referrer, and credentialless. The frame's files come from the page's own host, where a
 * storefront's frame loads from another site (its release base URL); a credentialless
 * frame loads without the cookies of 127.0.0.1, which are any local app's (cookies ignore
 * ports). Other browsers ignore the attribute, and the frame cannot read a cookie anyway:
 * its origin is opaque.
 */
export const FRAME_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({
  sandbox: FRAME_SANDBOX,
  credentialless: '',
  referrerpolicy: 'no-referrer',
});

/** The frame's accessible name. */
export function frameTitle(extensionName: string | null): string {
  return `Extension: ${extensionName ?? 'preview'}`;
}

/** The manifest, as much of it as the page shows and the bridge needs. */
export interface ManifestSummary {
  readonly namespace: string | null;
  readonly version: string | null;
  readonly name: string | null;
  readonly description: string | null;
  readonly entrypoint: string | null;
  readonly capabilities: readonly string[];
  readonly properties: readonly PropertyDef[];
}

/**
 * The preview's shortened clock (the page's "Short clock" switch; not a contract number):
 * the frame's handshake and call timeouts, instead of the contract's.
 */
export const SHORT_CLOCK_MS = 2000;
/** The frame URL's query that asks the server for the shortened clock. */
export const SHORT_CLOCK_QUERY = 'clock=short';

/** The preview-only script the server adds to the served entrypoint, below the frame prefix (a hidden segment, as the runtime's). */
export const LIVE_CSS_SCRIPT = '.platform/live-css.js';
/** The page's message to that script: swap these stylesheets in; and its answer. */
export const LIVE_CSS_MESSAGE = 'platform-ext-preview/stylesheets';
export const LIVE_CSS_APPLIED = 'platform-ext-preview/stylesheets-applied';

/** The release `preview --upgrade-from` runs first, served from its bundle.zip. */
export interface PreviousRelease {
  readonly manifest: ManifestSummary;
  readonly frameUrl: string;
  /** The release folder as given. */
  readonly dir: string;
}

/** A finding as the page shows it: with its rule's fix hint from the catalogue, which the page bundle does not carry. */
export type PreviewFinding = Finding & { readonly hint?: string };

/** A check of the project as the server sends it (publicState in server.ts) and the page reads it. */
export interface PreviewState {
  readonly revision: number;
  readonly ok: boolean;
  readonly errors: number;
  readonly warnings: number;
  /** Warnings platform-ext.config.json acknowledges (D-33): not among `findings`. */
  readonly acknowledged: number;
  readonly findings: readonly PreviewFinding[];
  readonly problem: string | null;
  /** Changes exactly when the manifest or a bundle file changed. */
  readonly contentKey: string;
  /** Like contentKey but blind to the bytes of .css files: equal keys mean only stylesheets changed. */
  readonly frameKey: string;
  /** Each .css file of the bundle: path -> a digest of its bytes. */
  readonly styles: Readonly<Record<string, string>>;
  readonly manifest: ManifestSummary | null;
  readonly frameUrl: string | null;
  /** `--upgrade-from`: the previous release, or null. */
  readonly previous: PreviousRelease | null;
  /** What granting each capability lets the extension do (the install prompt's text), by key. */
  readonly grantTexts: Readonly<Record<string, string>>;
  readonly options: {
    readonly deny: readonly string[];
    /** Capabilities whose calls reject with REQUEST_FAILED. */
    readonly fail: readonly string[];
    /** Capabilities whose calls reject with another code (`--fail key=CODE`). */
    readonly failCodes: Readonly<Record<string, string>>;
    readonly emptyCatalog: boolean;
    readonly strictHost: boolean;
  };
}
