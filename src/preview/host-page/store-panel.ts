// The store's side of the extension, on the service core (src/preview/store-lifecycle.ts):
// installing (with the store user's install prompt), approving and revoking grants,
// `--upgrade-from`'s upgrade with its permission review and settings notices, the
// one-step rollback, and a revoked release or publisher. What the frame launches with is
// the service's launchGate answer; when it refuses, the frame does not launch and the
// page says what the store shows. The panel also holds the failure modes (held answers,
// no channel, the short clock).
import { capabilityByKey, groupDigits, REQUEST_TIMEOUT_MS, INITIALIZATION_TIMEOUT_MS, type SettingValue } from '../../validator/internal.js';
import { LifecycleRefusal, StoreLifecycle, type MoveReport, type ReleaseFacts } from '../store-lifecycle.js';
import { byId, el } from './dom.js';
import { mountFrame, unmountFrame } from './frame.js';
import { FRAME_SLOT_ID, SHORT_CLOCK_MS, type ManifestSummary, type PreviewState } from './markup.js';
import { page } from './page-state.js';

/** Told after the store changed what runs (the page redraws its panels). */
let onChange: () => void = () => undefined;
export function onStoreChange(listener: () => void): void {
  onChange = listener;
}

/** The manifest facts a release record keeps, or null when the manifest lacks them. */
function factsOf(m: ManifestSummary | null): ReleaseFacts | null {
  if (m === null || m.namespace === null || m.version === null) return null;
  return { namespace: m.namespace, version: m.version, capabilities: m.capabilities, properties: m.properties };
}

/** Identity of a manifest's facts: a change of any of them is a different release. */
function factsKey(m: ManifestSummary | null): string {
  return JSON.stringify(factsOf(m));
}

/** The release the frame runs now, as the page's state names it. */
function target(state: PreviewState): { url: string; manifest: ManifestSummary } | null {
  if (page.running === 'previous' && state.previous !== null) return { url: state.previous.frameUrl, manifest: state.previous.manifest };
  if (state.ok && state.frameUrl !== null && state.manifest !== null) return { url: state.frameUrl, manifest: state.manifest };
  return null;
}

/** The facts key of the installed project release (a new install when the manifest changes). */
let installedKey = '';

function say(text: string): void {
  byId('store-note').textContent = text;
}

function refusalText(error: unknown): string {
  if (error instanceof LifecycleRefusal) return `The service refused: ${error.message} [${error.code}]`;
  return `The service refused: ${String((error as Error)?.message ?? error)}`;
}

/** Grants and settings from the service's launch gate; false when it refuses. */
function syncFromGate(): boolean {
  const lifecycle = page.lifecycle;
  if (lifecycle === null || lifecycle.installation === null) return false;
  const gate = lifecycle.gate();
  if (!gate.ok) return false;
  page.grants.clear();
  for (const key of gate.ready.capabilities) page.grants.add(key);
  return true;
}

/** Installs the running release on a fresh store, approving `grants`. */
function install(manifest: ManifestSummary, grants: readonly string[]): void {
  const facts = factsOf(manifest);
  if (facts === null) return;
  const lifecycle = new StoreLifecycle();
  try {
    lifecycle.install(facts, grants.filter((k) => facts.capabilities.includes(k)));
  } catch (error) {
    say(refusalText(error));
    return;
  }
  page.lifecycle = lifecycle;
  if (page.running === 'project') installedKey = factsKey(manifest);
}

/** Settings the frame starts with: the gate's (the service migrated them), into the form. */
function settingsFromGate(manifest: ManifestSummary): void {
  const gate = page.lifecycle?.gate();
  page.properties = manifest.properties;
  if (gate?.ok === true) {
    page.settings = { ...gate.ready.settings } as Record<string, SettingValue>;
    page.draft = { ...page.settings };
  }
}

/**
 * Called by the page for every check, before it mounts the frame: installs on first sight
 * (approving every declared capability but `--deny`'s, so a reload asks nothing), and
 * installs again when the project's manifest changes while the project runs (keeping the
 * store user's choices). Returns the release to run, or null (nothing passes, or the
 * service's launch gate refuses: the slot then says what the store shows).
 */
export function storeForCheck(state: PreviewState): { url: string; manifest: ManifestSummary } | null {
  if (page.lifecycle === null && state.previous !== null) page.running = 'previous';
  const run = target(state);
  if (run === null) return null;
  const deny = state.options.deny;
  if (page.lifecycle === null) {
    install(run.manifest, run.manifest.capabilities.filter((k) => !deny.includes(k)));
    settingsFromGate(run.manifest);
  } else if (page.running === 'project' && state.previous !== null && factsKey(run.manifest) !== installedKey) {
    // After an upgrade the store's records hold the release as upgraded to; a store never
    // sees the same version change, so the page says how to apply the edit.
    say('The manifest changed since the upgrade: "Roll back" and "Upgrade" again (with a higher version) to apply it as a store would.');
  } else if (page.running === 'project' && state.previous === null && factsKey(run.manifest) !== installedKey) {
    const before = page.lifecycle.installation;
    const grants = run.manifest.capabilities.filter((k) => (before?.declared.includes(k) ? before.granted.includes(k) : !deny.includes(k)));
    install(run.manifest, grants);
  }
  return launchable(run);
}

/** The gate's answer: the release to run, or null with the store's message in the slot. */
function launchable(run: { url: string; manifest: ManifestSummary }): { url: string; manifest: ManifestSummary } | null {
  const gate = page.lifecycle?.gate();
  if (gate === undefined) return run;
  if (gate.ok) {
    syncFromGate();
    return run;
  }
  showNotLaunched(gate.refusal.code, gate.refusal.message);
  return null;
}

/** What a store shows for an installation that may not launch. */
function showNotLaunched(code: string, message: string): void {
  unmountFrame();
  const box = el('div', 'store-refusal');
  box.id = 'store-refusal';
  box.dataset['code'] = code;
  box.append(el('h2', 'store-refusal__title', 'The extension does not launch'));
  box.append(el('p', undefined, 'The storefront shows nothing in its place: visitors see the page without it. The store\'s admin lists it as stopped, with the service\'s reason:'));
  box.append(el('p', 'store-refusal__reason', `${message} [${code}]`));
  byId(FRAME_SLOT_ID).replaceChildren(box);
}

/** Starts what the store runs now (after an install, upgrade, rollback or revocation). */
function relaunch(): void {
  const state = page.state;
  if (state === null) return;
  const run = target(state);
  if (run === null) return;
  const ok = launchable(run);
  if (ok !== null) {
    settingsFromGate(ok.manifest);
    mountFrame(ok.url, ok.manifest);
  }
  onChange();
}

// The install prompt

/** Shows the store user's install prompt for the running release: every capability with its risk and what it allows. */
function showPrompt(): void {
  const state = page.state;
  const run = state === null ? null : target(state);
  if (run === null) return;
  const prompt = byId('install-prompt');
  const list = byId('install-list');
  list.replaceChildren();
  byId('install-title').textContent = `Install ${run.manifest.name ?? 'the extension'} ${run.manifest.version ?? ''}`.trim();
  if (run.manifest.capabilities.length === 0) list.append(el('li', 'empty-note', 'It asks for no capability.'));
  for (const key of run.manifest.capabilities) {
    const def = capabilityByKey(key);
    const item = el('li', 'install-item');
    const label = el('label', 'switch');
    const box = el('input');
    box.type = 'checkbox';
    box.checked = true;
    box.dataset['capability'] = key;
    label.append(box, el('span', 'capability__key', key));
    item.append(label);
    item.append(el('span', 'capability__risk', def === undefined ? '' : `${def.risk} risk`));
    item.append(el('p', 'panel__help', page.state?.grantTexts[key] ?? ''));
    list.append(item);
  }
  prompt.hidden = false;
}

function approvePrompt(): void {
  const state = page.state;
  const run = state === null ? null : target(state);
  byId('install-prompt').hidden = true;
  if (run === null) return;
  const grants = [...byId('install-list').querySelectorAll<HTMLInputElement>('input[data-capability]')].filter((b) => b.checked).map((b) => b.dataset['capability']!);
  install(run.manifest, grants);
  say(`Installed ${run.manifest.version ?? ''} with ${grants.length === 0 ? 'no capability' : grants.join(', ')} approved.`);
  renderReport(null);
  relaunch();
}

// Upgrade, rollback, revocation

function renderReport(report: MoveReport | null): void {
  const list = byId('store-report');
  const review = byId('store-review');
  list.replaceChildren();
  review.replaceChildren();
  if (report === null) return;
  for (const key of report.added) {
    const item = el('li', undefined, `${key}: added, off until the store user approves it in the permission review`);
    item.dataset['capability'] = key;
    item.dataset['outcome'] = 'added';
    list.append(item);
  }
  for (const key of report.dropped) {
    const item = el('li', undefined, `${key}: no longer declared, its grant removed`);
    item.dataset['capability'] = key;
    item.dataset['outcome'] = 'dropped';
    list.append(item);
  }
  for (const n of report.settings) {
    const now = n.now === undefined ? 'nothing' : JSON.stringify(n.now);
    const text =
      n.outcome === 'kept'
        ? `Setting ${n.name}: kept (${JSON.stringify(n.saved)})`
        : n.outcome === 'dropped'
          ? `Setting ${n.name}: dropped (the property is gone; ${JSON.stringify(n.saved)} is not passed)`
          : `Setting ${n.name}: rejected (${JSON.stringify(n.saved)} no longer fits the property; the frame gets ${now})`;
    const item = el('li', undefined, text);
    item.dataset['setting'] = n.name;
    item.dataset['outcome'] = n.outcome;
    list.append(item);
  }
  renderReview();
}

/** The permission review: each capability an upgrade added, with an Approve button. */
function renderReview(): void {
  const review = byId('store-review');
  review.replaceChildren();
  const pending = page.lifecycle?.installation?.reviewPending ?? [];
  for (const key of pending) {
    const def = capabilityByKey(key);
    const item = el('li', 'install-item');
    item.append(el('span', 'capability__key', key), el('span', 'capability__risk', def === undefined ? '' : ` ${def.risk} risk`));
    item.append(el('p', 'panel__help', page.state?.grantTexts[key] ?? ''));
    const approve = el('button', 'button', 'Approve');
    approve.type = 'button';
    approve.dataset['approve'] = key;
    approve.addEventListener('click', () => setGrant(key, true));
    item.append(approve);
    review.append(item);
  }
  byId('store-review-title').hidden = pending.length === 0;
}

/** The store user approves or revokes a grant: the service decides, the frame's next call sees it. */
export function setGrant(key: string, on: boolean): void {
  const lifecycle = page.lifecycle;
  if (lifecycle === null) return;
  try {
    if (on) lifecycle.grant(key);
    else lifecycle.revokeGrant(key);
    say(`${on ? 'Approved' : 'Revoked'} ${key}.`);
  } catch (error) {
    say(refusalText(error));
  }
  syncFromGate();
  page.bridge?.pushGrants();
  renderReview();
  onChange();
}

function upgrade(): void {
  const state = page.state;
  const lifecycle = page.lifecycle;
  if (state === null || lifecycle === null) return;
  const facts = factsOf(state.manifest);
  if (!state.ok || facts === null) {
    say('The project has errors: fix them, then upgrade.');
    return;
  }
  let report: MoveReport;
  try {
    report = lifecycle.upgrade(facts);
  } catch (error) {
    say(refusalText(error));
    return;
  }
  page.running = 'project';
  installedKey = factsKey(state.manifest);
  say(`Upgraded ${report.from} → ${report.to}.`);
  renderReport(report);
  relaunch();
}

function rollBack(): void {
  const lifecycle = page.lifecycle;
  if (lifecycle === null) return;
  let report: MoveReport;
  try {
    report = lifecycle.rollBack();
  } catch (error) {
    say(refusalText(error));
    return;
  }
  page.running = 'previous';
  say(`Rolled back ${report.from} → ${report.to}.`);
  renderReport(report);
  relaunch();
}

function revoke(what: 'release' | 'publisher'): void {
  const lifecycle = page.lifecycle;
  if (lifecycle === null) return;
  try {
    if (what === 'release') lifecycle.revokeRelease();
    else lifecycle.revokePublisher();
    say(what === 'release' ? `An operator revoked release ${lifecycle.release?.version ?? ''}.` : 'An operator revoked the publisher.');
  } catch (error) {
    say(refusalText(error));
  }
  relaunch();
}

// Failure modes

/** The clock in force, as the page states it. */
function clockText(): string {
  return page.shortClock
    ? `Short clock: the handshake and each call time out after ${groupDigits(SHORT_CLOCK_MS)} ms (the contract: ${groupDigits(INITIALIZATION_TIMEOUT_MS)} and ${groupDigits(REQUEST_TIMEOUT_MS)} ms).`
    : `The contract's clock: the handshake times out after ${groupDigits(INITIALIZATION_TIMEOUT_MS)} ms, each call after ${groupDigits(REQUEST_TIMEOUT_MS)} ms.`;
}

function reloadFrame(): void {
  const state = page.state;
  if (state === null) return;
  relaunch();
}

export function renderStorePanel(): void {
  const state = page.state;
  const previous = state?.previous ?? null;
  byId('store-upgrade').hidden = previous === null;
  byId('store-rollback').hidden = previous === null;
  const inst = page.lifecycle?.installation ?? null;
  const release = page.lifecycle?.release ?? null;
  byId('store-installed').textContent =
    inst === null ? 'Not installed.' : `Installed: ${inst.namespace} ${inst.version}${release?.state === 'revoked' ? ' (revoked)' : ''}${page.lifecycle?.publisher.state === 'revoked' ? ', publisher revoked' : ''}; granted: ${inst.granted.length === 0 ? 'none' : inst.granted.join(', ')}.`;
  byId('clock-note').textContent = clockText();
  renderReview();
}

export function wireStorePanel(): void {
  byId('store-reinstall').addEventListener('click', showPrompt);
  byId('install-approve').addEventListener('click', approvePrompt);
  byId('install-cancel').addEventListener('click', () => {
    byId('install-prompt').hidden = true;
  });
  byId('store-upgrade').addEventListener('click', upgrade);
  byId('store-rollback').addEventListener('click', rollBack);
  byId('store-revoke-release').addEventListener('click', () => revoke('release'));
  byId('store-revoke-publisher').addEventListener('click', () => revoke('publisher'));
  byId<HTMLInputElement>('mode-hold').addEventListener('change', (event) => {
    // Applies to the next calls; the pending ones stay as they are.
    page.hold = (event.target as HTMLInputElement).checked;
  });
  byId<HTMLInputElement>('mode-no-channel').addEventListener('change', (event) => {
    page.noChannel = (event.target as HTMLInputElement).checked;
    reloadFrame();
  });
  byId<HTMLInputElement>('mode-short-clock').addEventListener('change', (event) => {
    page.shortClock = (event.target as HTMLInputElement).checked;
    byId('clock-note').textContent = clockText();
    reloadFrame();
  });
}
