// platform-ext/testing's store lifecycle (src/mock-platform/mock-lifecycle.ts): install with
// grants, upgrade to a manifest that adds a capability and retypes a property, approve,
// revoke, roll back, and a revoked release or publisher, each decided by the service core.
// The frame's calls are the production bridge's: a capability the upgrade added rejects
// with CAPABILITY_NOT_GRANTED until approved; a retyped setting starts from the service's
// effective settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installMockExtension, LifecycleRefusal } from '../../dist/testing.mjs';
import { outcome } from '../support/outcome.mjs';

const V1 = Object.freeze({
  schema_version: 1,
  protocol_version: 1,
  namespace: 'acme/lifecycle',
  version: '1.0.0',
  name: 'Lifecycle',
  entrypoint: 'index.html',
  capabilities: ['catalog.products.read', 'site.theme.read'],
  properties: {
    heading: { type: 'text', label: 'Heading', default: 'Hello' },
    columns: { type: 'text', label: 'Columns', default: 'three' },
    legacy: { type: 'boolean', label: 'Legacy', default: false },
  },
});

/** 1.1.0: adds cart.manage, drops site.theme.read, retypes `columns` to a number, drops `legacy`. */
const V2 = Object.freeze({
  ...V1,
  version: '1.1.0',
  capabilities: ['cart.manage', 'catalog.products.read'],
  properties: {
    heading: { type: 'text', label: 'Heading', default: 'Hello' },
    columns: { type: 'number', label: 'Columns', default: 4, min: 1, max: 6 },
  },
});


async function installed(t, options) {
  const ext = await installMockExtension(options);
  t.after(() => ext.dispose());
  return ext;
}

test('install: grants at install are what the frame gets; revoke and approve reach the running frame', async (t) => {
  const ext = await installed(t, { manifest: V1, grants: ['catalog.products.read'] });
  assert.equal(ext.refusal, null);
  assert.deepEqual(ext.installation.granted, ['catalog.products.read']);
  assert.deepEqual((await ext.platform.ready).capabilities, ['catalog.products.read']);
  assert.equal(await outcome(ext.platform.theme.read()), 'CAPABILITY_NOT_GRANTED');
  await ext.approve('site.theme.read');
  assert.equal(await outcome(ext.platform.theme.read()), 'ok');
  await ext.revoke('catalog.products.read');
  assert.equal(await outcome(ext.platform.catalog.products()), 'CAPABILITY_NOT_GRANTED');
  await ext.approve('catalog.products.read');
  assert.equal(await outcome(ext.platform.catalog.products()), 'ok');
});

test('install: every declared capability is approved by default; an undeclared grant is refused by the service', async (t) => {
  const ext = await installed(t, { manifest: V1 });
  assert.deepEqual(ext.installation.granted, ['catalog.products.read', 'site.theme.read']);
  await assert.rejects(installMockExtension({ manifest: V1, grants: ['cart.manage'] }), (error) => error instanceof LifecycleRefusal && error.code === 'service/grant-not-declared');
  // Approving what is already granted, or revoking what is not, is the service's wrong-state.
  await assert.rejects(ext.approve('site.theme.read'), { code: 'service/wrong-state' });
  await assert.rejects(ext.revoke('cart.manage'), { code: 'service/wrong-state' });
});

test('upgrade: the added capability is off until approved, the dropped one is gone, settings migrate as the service decides', async (t) => {
  const ext = await installed(t, { manifest: V1, settings: { heading: 'Deals', columns: 'two', legacy: true } });
  const before = ext.platform;
  assert.deepEqual((await before.ready).settings, { heading: 'Deals', columns: 'two', legacy: true });

  const report = await ext.upgrade(V2);
  assert.equal(report.from, '1.0.0');
  assert.equal(report.to, '1.1.0');
  assert.deepEqual(report.added, ['cart.manage']);
  assert.deepEqual(report.review, ['cart.manage']);
  assert.deepEqual(report.dropped, ['site.theme.read']);
  assert.deepEqual(
    report.settings.map((n) => [n.name, n.outcome, n.now]),
    [
      ['heading', 'kept', 'Deals'],
      ['columns', 'rejected', 4],
      ['legacy', 'dropped', undefined],
    ],
  );
  // The frame was relaunched with 1.1.0: a new PLATFORM, the service's ready snapshot.
  assert.notEqual(ext.platform, before);
  assert.equal(ext.version, '1.1.0');
  assert.deepEqual(ext.installation.reviewPending, ['cart.manage']);
  const ready = await ext.platform.ready;
  assert.deepEqual(ready.capabilities, ['catalog.products.read']);
  assert.deepEqual(ready.settings, { heading: 'Deals', columns: 4 });
  assert.equal(await outcome(ext.platform.cart.manage('add', { productId: 1, quantity: 1 })), 'CAPABILITY_NOT_GRANTED');
  assert.equal(await outcome(ext.platform.theme.read()), 'CAPABILITY_NOT_GRANTED');

  await ext.approve('cart.manage');
  assert.deepEqual(ext.installation.reviewPending, []);
  assert.equal(await outcome(ext.platform.cart.manage('add', { productId: 1, quantity: 1 })), 'ok');

  // One step back: 1.0.0 again, its saved values as they were (the service never rewrote them).
  const back = await ext.rollBack();
  assert.equal(back.to, '1.0.0');
  assert.equal(ext.version, '1.0.0');
  const again = await ext.platform.ready;
  assert.deepEqual(again.settings, { heading: 'Deals', columns: 'two', legacy: true });
  // site.theme.read lost its grant when 1.1.0 dropped it: declared again, not granted.
  assert.deepEqual(again.capabilities, ['catalog.products.read']);
  assert.equal(await outcome(ext.platform.theme.read()), 'CAPABILITY_NOT_GRANTED');
});

test('upgrade: a version that is not higher is refused by the service and the frame keeps running', async (t) => {
  const ext = await installed(t, { manifest: V1 });
  const running = ext.platform;
  await assert.rejects(ext.upgrade({ ...V2, version: '1.0.0' }), { code: 'service/version-approved' });
  await assert.rejects(ext.upgrade({ ...V2, version: '0.9.0' }), { code: 'service/version-not-higher' });
  assert.equal(ext.platform, running);
  assert.equal(ext.version, '1.0.0');
  // Nothing kept before the first release: no rollback.
  await assert.rejects(ext.rollBack(), { code: 'service/related-record-mismatch' });
});

test('a revoked release or publisher does not launch; the refusal is the service\'s', async (t) => {
  const ext = await installed(t, { manifest: V1 });
  await ext.revokeRelease();
  assert.equal(ext.platform, null);
  assert.equal(ext.refusal.code, 'service/release-revoked');

  const other = await installed(t, { manifest: V1 });
  await other.revokePublisher();
  assert.equal(other.platform, null);
  assert.equal(other.refusal.code, 'service/publisher-revoked');
});

test('saved settings are checked by the service: an unknown name or a bad value is refused', async (t) => {
  const ext = await installed(t, { manifest: V2 });
  await assert.rejects(ext.saveSettings({ nope: 1 }), { code: 'service/setting-unknown' });
  await assert.rejects(ext.saveSettings({ columns: 9 }), { code: 'service/setting-invalid' });
  await ext.saveSettings({ columns: 2 });
  assert.equal(ext.platform.settings().columns, 2);
});
