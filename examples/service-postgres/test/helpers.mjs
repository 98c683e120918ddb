// Shared by the tests: a fresh database per test on the server the PG* variables name
// (`npm test` starts a throwaway one), the records a scenario starts from, and a barrier
// that lines up concurrent commands between their reads and their writes, so that a race
// happens every run instead of by chance.
//
// SERVICE_PG_MODE switches a guarantee off, to show that the tests catch its absence:
//   no-cas      writes without compare-and-set (blind updates and inserts)
//   no-outbox   effects performed right after the write by the deciding process, no outbox
//   unordered   the worker performs the newest pending effect first
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { files } from '../src/files.mjs';
import { service } from '../src/service.mjs';

export const MODE = process.env.SERVICE_PG_MODE ?? '';
if (!['', 'no-cas', 'no-outbox', 'unordered'].includes(MODE)) throw new Error(`SERVICE_PG_MODE=${MODE} is not a mode`);
export const COMMAND_OPTIONS = { compareAndSet: MODE !== 'no-cas', outbox: MODE !== 'no-outbox' };
export const WORKER_OPTIONS = { ordered: MODE !== 'unordered' };

export const SCHEMA = readFileSync(new URL('../schema.sql', import.meta.url), 'utf8');

export function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}

/** A key fingerprint for tests: 64 hex characters. */
export function keyId(name) {
  return sha256(`key:${name}`);
}

export const OWNER = { kind: 'publisher-member', id: 'user-owner' };
export function operator(id) {
  return { kind: 'operator', id };
}
export function storeUser(storeId) {
  return { kind: 'store-user', id: `user-${storeId}`, storeId };
}

/** A database of its own with the schema, dropped after the test; `max` connections in the pool. */
export async function freshDatabase(t, { max = 20 } = {}) {
  if (!process.env.PGHOST) throw new Error('PGHOST is not set: run `npm test`, which starts a throwaway PostgreSQL server (scripts/with-postgres.mjs)');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const pool = new pg.Pool({ database: name, max });
  await pool.query(SCHEMA);
  t.after(async () => {
    await pool.end();
    const drop = new pg.Client({ database: 'postgres' });
    await drop.connect();
    await drop.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await drop.end();
  });
  return { pool, name };
}

/** Working, storage and staging folders in a temporary folder removed after the test. */
export function freshFolders(t) {
  const root = mkdtempSync(join(tmpdir(), 'service-pg-files-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const dirs = { working: join(root, 'working'), storage: join(root, 'storage'), staging: join(root, 'staging') };
  return { root, dirs, files: files(dirs) };
}

/** Resolves once `n` callers have reached it on their first attempt; later attempts pass. */
export function barrier(n) {
  let count = 0;
  let release;
  const all = new Promise((resolve) => (release = resolve));
  // A participant that failed before reaching the barrier must not hang the test.
  const timer = setTimeout(() => release(), 30_000);
  timer.unref();
  return async (attempt) => {
    if (attempt !== 1) return;
    count += 1;
    if (count >= n) release();
    await all;
  };
}

function ok(result, what) {
  if (!result.ok) throw new Error(`${what} was refused: ${result.refusal.code}: ${result.refusal.message}`);
  return result;
}

/** A publisher owned by OWNER with `keys` active keys, trusted by an operator. */
export async function givenPublisher(svc, { keys = 1, trusted = true } = {}) {
  const created = ok(await svc.createPublisher(OWNER, keyId('k0')), 'create publisher');
  const id = created.records[0].id;
  for (let i = 1; i < keys; i++) ok(await svc.publisher(id, { type: 'add-key', actor: OWNER, keyId: keyId(`k${i}`) }), 'add key');
  if (trusted) ok(await svc.publisher(id, { type: 'trust', actor: operator('op-trust') }), 'trust');
  return id;
}

/** The report the production validator gives a passing release of these bytes. */
export function passingReport(namespace, version, bundle) {
  return {
    errors: 0,
    warnings: 0,
    rules: [],
    manifest: { namespace, version, capabilities: [], properties: [] },
    manifestSha256: sha256(`manifest ${namespace} ${version}`),
    artifactSha256: sha256(bundle),
    publicKeyId: keyId('k0'),
    signatureValid: true,
  };
}

/**
 * A submission awaiting review: its five files stored in the working folder, then
 * submitted by `actor`. Returns { id, bundle }.
 */
export async function givenSubmission(svc, fileStore, publisherId, { namespace = 'acme/shelf', version = '1.0.0', actor = OWNER, distribution = 'private' } = {}) {
  const id = `sub-${randomBytes(8).toString('hex')}`;
  const bundle = randomBytes(4096);
  fileStore?.receive(id, { 'bundle.zip': bundle, 'manifest.json': Buffer.from('{}'), 'signature.txt': Buffer.from('sig'), 'publisher-public-key.txt': Buffer.from('key'), 'submission.json': Buffer.from('{}') });
  ok(await svc.submit(id, { actor, publisherId, namespace, version, distribution, report: passingReport(namespace, version, bundle) }), 'submit');
  return { id, bundle };
}

/** An approved release of a trusted publisher (operator op-approver approves). */
export async function givenRelease(svc, fileStore, options = {}) {
  const publisherId = await givenPublisher(svc);
  const { id, bundle } = await givenSubmission(svc, fileStore, publisherId, options);
  ok(await svc.submission(id, { type: 'approve', actor: operator('op-approver') }), 'approve');
  return { publisherId, releaseId: id, bundle };
}

/** The service with the mode's options, plus `extra` for every command. */
export function serviceFor(pool, extra = {}) {
  return service(pool, { ...COMMAND_OPTIONS, ...extra });
}

/** Every outbox entry, oldest first: { seq, stream, effect, done }. */
export async function outbox(pool) {
  const { rows } = await pool.query('SELECT seq, stream, effect, done_at IS NOT NULL AS done FROM outbox ORDER BY seq');
  return rows.map((r) => ({ seq: Number(r.seq), stream: r.stream, effect: r.effect, done: r.done }));
}

/** Counts of each value of `key(x)`. */
export function tally(items, key) {
  const out = {};
  for (const item of items) {
    const k = key(item);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
