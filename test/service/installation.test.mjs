// Installations, capability grants, settings and the launch gate
// (src/service/installation.ts, src/service/launch.ts): the capability grant state table,
// Distribution modes, Property definition (16,384 and 16,385 bytes), Versioning
// (upgrades, rollback) and Authentication 1 and 6. One row per rule, named by id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { World, service, ok, refused, storeUser, OP1, SYSTEM } from './world.mjs';

const { decideInstallation, launchGate } = service;
const CART = 'cart.manage';
const CATALOG = 'catalog.products.read';
const THEME = 'site.theme.read';

/** A world with an approved, listed release declaring catalog + theme, installed on store-1 with `grants`. */
function installed(grants = [CATALOG, THEME], { capabilities = [CATALOG, THEME], properties } = {}) {
  const w = new World();
  const pub = w.setupPublisher();
  const rel = w.release(pub, { capabilities, ...(properties ? { properties } : {}) });
  const inst = w.apply(w.install(rel, 'store-1', grants)).records[0].id;
  return { w, pub, rel, inst };
}

function command(w, inst, cmd, ctx = {}) {
  return decideInstallation(w.get(inst), { actor: storeUser('store-1'), ...cmd }, { now: w.tick(), ...ctx });
}

function upgradeTo(w, inst, next, actor = storeUser('store-1')) {
  const i = w.get(inst);
  return decideInstallation(i, { type: 'upgrade', actor }, { now: w.tick(), release: w.get(i.releaseId), next: w.get(next), publisher: w.get(i.publisherId) });
}

/** Properties whose saved values reach exactly `bytes` bytes of JSON with five textareas. */
const TEXTAREAS = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ name: `t${n}`, type: 'textarea', required: false }));
function settingsOfBytes(bytes) {
  const keys = TEXTAREAS.map((p) => p.name);
  // {"ta":"…","tb":"…",…}: 2 braces, 4 commas, per key 2+2 quotes, 2 chars, 1 colon.
  const overhead = 2 + (keys.length - 1) + keys.length * 7;
  const total = bytes - overhead;
  const each = Math.floor(total / keys.length);
  const out = {};
  keys.forEach((k, i) => (out[k] = 'x'.repeat(i === 0 ? total - each * (keys.length - 1) : each)));
  assert.equal(Buffer.byteLength(JSON.stringify(out)), bytes);
  return out;
}

const CASES = [
  {
    id: 'inst-nothing-runs-before',
    title: 'nothing runs until a store user installs: no installation, no launch',
    run() {
      const { w, rel, inst } = installed();
      ok(w.launch(inst));
      const removed = w.apply(command(w, inst, { type: 'uninstall' }));
      assert.deepEqual(removed.effects, [{ type: 'stop-launching', installationId: inst }]);
      refused(w.launch(inst), 'service/not-installed');
      refused(launchGate(null, w.get(rel), w.get(w.get(rel).publisherId)), 'service/malformed-record');
    },
  },
  {
    id: 'grant-declared-approved',
    title: 'declared, not granted -> approved during installation -> granted (and only declared ones)',
    run() {
      const { w, rel, inst } = installed([CATALOG]);
      assert.deepEqual(w.get(inst).granted, [CATALOG]);
      assert.deepEqual(w.launch(inst).ready.capabilities, [CATALOG]);
      refused(w.install(rel, 'store-2', [CART]), 'service/grant-not-declared', '/grants/0');
      const later = w.apply(command(w, inst, { type: 'grant', capability: THEME })).records[0];
      assert.deepEqual(later.granted, [CATALOG, THEME]);
      refused(command(w, inst, { type: 'grant', capability: CART }), 'service/grant-not-declared');
    },
  },
  {
    id: 'grant-declared-not-granted',
    title: 'declaring is not granting: a verified, approved release grants nothing the store user did not approve',
    run() {
      const { w, inst } = installed([]);
      assert.deepEqual(w.get(inst).declared, [CATALOG, THEME]);
      assert.deepEqual(w.launch(inst).ready.capabilities, []);
    },
  },
  {
    id: 'grant-revoke-any-time',
    title: 'granted -> the store user revokes -> not granted, grant removed',
    run() {
      const { w, inst } = installed();
      const d = w.apply(command(w, inst, { type: 'revoke-grant', capability: CATALOG }));
      assert.deepEqual(d.records[0].granted, [THEME]);
      assert.deepEqual(d.effects, [{ type: 'remove-grant', installationId: inst, capability: CATALOG }]);
      assert.deepEqual(w.launch(inst).ready.capabilities, [THEME]);
      refused(command(w, inst, { type: 'revoke-grant', capability: CATALOG }), 'service/wrong-state');
    },
  },
  {
    id: 'grant-other-store',
    title: 'a store user acts only on their own store\'s installation',
    run() {
      const { w, inst } = installed();
      refused(decideInstallation(w.get(inst), { type: 'revoke-grant', actor: storeUser('store-2'), capability: CATALOG }, { now: w.tick() }), 'service/actor-not-allowed', '/actor/storeId');
      refused(decideInstallation(w.get(inst), { type: 'revoke-grant', actor: OP1, capability: CATALOG }, { now: w.tick() }), 'service/actor-not-allowed', '/actor/kind');
    },
  },
  {
    id: 'upgrade-adds-capability',
    title: 'a later release adds a capability -> not granted until approved; a new permission review opens',
    run() {
      const { w, pub, inst } = installed([CATALOG, THEME]);
      const next = w.release(pub, { version: '1.1.0', capabilities: [CATALOG, THEME, CART] });
      const d = w.apply(upgradeTo(w, inst, next));
      assert.deepEqual(d.records[0].granted, [CATALOG, THEME]);
      assert.deepEqual(d.records[0].reviewPending, [CART]);
      assert.deepEqual(d.effects, [{ type: 'open-permission-review', installationId: inst, capabilities: [CART] }]);
      assert.deepEqual(w.launch(inst).ready.capabilities, [CATALOG, THEME]);
      const granted = w.apply(command(w, inst, { type: 'grant', capability: CART })).records[0];
      assert.deepEqual(granted.reviewPending, []);
      assert.deepEqual(w.launch(inst).ready.capabilities, [CATALOG, THEME, CART]);
    },
  },
  {
    id: 'upgrade-drops-capability',
    title: 'a later release drops a capability -> its grant is removed automatically',
    run() {
      const { w, pub, inst } = installed([CATALOG, THEME]);
      const next = w.release(pub, { version: '2.0.0', capabilities: [CATALOG] });
      const d = w.apply(upgradeTo(w, inst, next, SYSTEM));
      assert.deepEqual(d.records[0].granted, [CATALOG]);
      assert.deepEqual(d.records[0].declared, [CATALOG]);
      assert.deepEqual(d.effects, [{ type: 'remove-grant', installationId: inst, capability: THEME }]);
    },
  },
  {
    id: 'upgrade-drop-then-readd',
    title: 'a capability dropped and added back by later releases is not granted again without approval',
    run() {
      const { w, pub, inst } = installed([CATALOG, THEME]);
      w.apply(upgradeTo(w, inst, w.release(pub, { version: '2.0.0', capabilities: [CATALOG] })));
      const d = w.apply(upgradeTo(w, inst, w.release(pub, { version: '3.0.0', capabilities: [CATALOG, THEME] })));
      assert.deepEqual(d.records[0].granted, [CATALOG]);
      assert.deepEqual(d.records[0].reviewPending, [THEME]);
    },
  },
  {
    id: 'upgrade-higher-same-namespace',
    title: 'an upgrade moves to a higher approved release of the same namespace only',
    run() {
      const { w, pub, rel, inst } = installed();
      const other = w.release(pub, { namespace: 'acme/other' });
      refused(upgradeTo(w, inst, other), 'service/related-record-mismatch', '/next/namespace');
      refused(upgradeTo(w, inst, rel), 'service/version-not-higher');
      const pending = w.apply(w.submit(pub, { version: '1.5.0' })).records[0].id;
      refused(upgradeTo(w, inst, pending), 'service/release-not-approved');
    },
  },
  {
    id: 'settings-persist-upgrade',
    title: 'saved settings persist through upgrades',
    run() {
      const { w, pub, inst } = installed();
      w.apply(command(w, inst, { type: 'save-settings', settings: { title: 'Sale' } }, { release: w.get(w.get(inst).releaseId) }));
      const next = w.release(pub, { version: '1.1.0' });
      const d = w.apply(upgradeTo(w, inst, next));
      assert.deepEqual(d.records[0].settings, { title: 'Sale' });
      assert.deepEqual(w.launch(inst).ready.settings, { title: 'Sale', show_prices: true });
    },
  },
  {
    id: 'settings-unknown-rejected',
    title: 'unknown settings are rejected; known ones with valid values are saved',
    run() {
      const { w, inst } = installed();
      const release = w.get(w.get(inst).releaseId);
      refused(command(w, inst, { type: 'save-settings', settings: { colour: 'red' } }, { release }), 'service/setting-unknown', '/settings/colour');
      refused(command(w, inst, { type: 'save-settings', settings: { show_prices: 'yes' } }, { release }), 'service/setting-invalid', '/settings/show_prices');
      ok(command(w, inst, { type: 'save-settings', settings: { show_prices: false } }, { release }));
    },
  },
  {
    id: 'settings-16384',
    title: 'saved settings of exactly 16,384 bytes are saved',
    run() {
      const { w, inst } = installed(undefined, { properties: TEXTAREAS });
      const release = w.get(w.get(inst).releaseId);
      const d = w.apply(command(w, inst, { type: 'save-settings', settings: settingsOfBytes(16_384) }, { release }));
      assert.equal(Buffer.byteLength(JSON.stringify(d.records[0].settings)), 16_384);
      assert.equal(Buffer.byteLength(JSON.stringify(w.launch(inst).ready.settings)), 16_384);
    },
  },
  {
    id: 'settings-16385',
    title: 'saved settings of 16,385 bytes are refused',
    run() {
      const { w, inst } = installed(undefined, { properties: TEXTAREAS });
      const release = w.get(w.get(inst).releaseId);
      refused(command(w, inst, { type: 'save-settings', settings: settingsOfBytes(16_385) }, { release }), 'service/settings-too-large', '/settings');
    },
  },
  {
    id: 'launch-ready-snapshot',
    title: 'the launch gate gives exactly PLATFORM.ready\'s {capabilities, settings}: granted and declared, defaults under saved values',
    run() {
      const { w, inst } = installed([THEME, CATALOG]);
      w.apply(command(w, inst, { type: 'save-settings', settings: { show_prices: false } }, { release: w.get(w.get(inst).releaseId) }));
      const gate = w.launch(inst);
      assert.deepEqual(gate, { ok: true, ready: { capabilities: [CATALOG, THEME], settings: { title: 'Hello', show_prices: false } } });
      assert.deepEqual(Object.keys(gate.ready), ['capabilities', 'settings']);
    },
  },
  {
    id: 'launch-settings-migrated',
    title: 'a saved value the later release no longer accepts gives way to its default; a removed property\'s value is left out',
    run() {
      const { w, pub, inst } = installed();
      w.apply(command(w, inst, { type: 'save-settings', settings: { title: 'Sale', show_prices: false } }, { release: w.get(w.get(inst).releaseId) }));
      const next = w.release(pub, { version: '2.0.0', properties: [{ name: 'title', type: 'color', required: false, default: '#ffffff' }] });
      w.apply(upgradeTo(w, inst, next));
      assert.deepEqual(w.launch(inst).ready.settings, { title: '#ffffff' });
    },
  },
  {
    id: 'launch-revoked-release',
    title: 'a revoked release never launches',
    run() {
      const { w, rel, inst } = installed();
      w.apply(w.submissionCommand(rel, { type: 'revoke', actor: OP1 }));
      refused(w.launch(inst), 'service/release-revoked', '/release/state');
    },
  },
  {
    id: 'launch-revoked-publisher',
    title: 'a revoked publisher\'s releases never launch',
    run() {
      const { w, pub, inst } = installed();
      w.apply(w.publisherCommand(pub, { type: 'revoke', actor: OP1 }));
      refused(w.launch(inst), 'service/publisher-revoked', '/publisher/state');
    },
  },
  {
    id: 'launch-mismatch',
    title: 'the gate refuses records that do not belong together',
    run() {
      const { w, pub, inst } = installed();
      const other = w.release(pub, { version: '1.1.0' });
      refused(launchGate(w.get(inst), w.get(other), w.get(pub)), 'service/related-record-mismatch');
    },
  },
  {
    id: 'dist-public-listed',
    title: 'public free: installable once listed, after the store user reviews the capabilities',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const rel = w.release(pub, { list: false });
      refused(w.install(rel), 'service/no-access', '/link');
      w.apply(w.submissionCommand(rel, { type: 'publish-listing', actor: OP1 }, { publisher: w.get(pub) }));
      ok(w.install(rel));
    },
  },
  {
    id: 'dist-private-link-only',
    title: 'private: only a store that accepted a link for the release installs it',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const rel = w.release(pub, { distribution: 'private' });
      refused(w.install(rel), 'service/no-access');
      const link = w.apply(w.issueLink(rel)).records[0];
      refused(w.install(rel, 'store-1', undefined, link), 'service/no-access', '/link/acceptedStores');
      const accepted = w.apply(service.decideLink(link, { type: 'accept', actor: storeUser('store-1'), tokenHash: link.tokenHash }, { now: w.tick() })).records[0];
      ok(w.install(rel, 'store-1', undefined, accepted));
      refused(w.install(rel, 'store-2', undefined, accepted), 'service/no-access');
    },
  },
  {
    id: 'dist-paid-listed-link',
    title: 'paid: listed in the marketplace, installed through the private link the publisher sends',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const rel = w.release(pub, { distribution: 'paid' });
      assert.equal(w.get(rel).listing, 'published');
      refused(w.install(rel), 'service/no-access');
      const link = w.apply(w.issueLink(rel, { storeLock: 'store-1', useLimit: 1 })).records[0];
      const accepted = w.apply(service.decideLink(link, { type: 'accept', actor: storeUser('store-1'), tokenHash: link.tokenHash }, { now: w.tick() })).records[0];
      ok(w.install(rel, 'store-1', undefined, accepted));
    },
  },
  {
    id: 'inst-release-approved',
    title: 'only an approved release of an active publisher is installed',
    run() {
      const w = new World();
      const pub = w.setupPublisher();
      const sub = w.apply(w.submit(pub)).records[0].id;
      refused(w.install(sub), 'service/release-not-approved');
      const rel = w.release(pub, { version: '1.1.0' });
      w.apply(w.publisherCommand(pub, { type: 'revoke', actor: OP1 }));
      refused(w.install(rel), 'service/publisher-revoked');
    },
  },
  {
    id: 'rollback-one-step',
    title: 'one-step rollback: back to the previous verified release kept at approval, and no further',
    run() {
      const { w, pub, rel, inst } = installed([CATALOG, THEME]);
      const next = w.release(pub, { version: '1.1.0', capabilities: [CATALOG] });
      w.apply(upgradeTo(w, inst, next));
      const i = w.get(inst);
      const back = w.apply(decideInstallation(i, { type: 'roll-back', actor: storeUser('store-1') }, { now: w.tick(), release: w.get(next), next: w.get(rel), publisher: w.get(pub) }));
      assert.equal(back.records[0].releaseId, rel);
      assert.deepEqual(back.records[0].granted, [CATALOG], 'a grant removed by the upgrade is not granted back');
      assert.deepEqual(back.records[0].reviewPending, [THEME]);
      const third = w.release(pub, { version: '1.2.0' });
      w.apply(upgradeTo(w, inst, third));
      refused(decideInstallation(w.get(inst), { type: 'roll-back', actor: storeUser('store-1') }, { now: w.tick(), release: w.get(third), next: w.get(rel), publisher: w.get(pub) }), 'service/related-record-mismatch', '/next/id');
    },
  },
];

for (const c of CASES) test(`${c.id}: ${c.title}`, c.run);

test('every case id is unique', () => {
  assert.equal(new Set(CASES.map((c) => c.id)).size, CASES.length);
});
