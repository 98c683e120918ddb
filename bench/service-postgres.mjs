#!/usr/bin/env node
// The service core wired to PostgreSQL (examples/service-postgres) against the least any
// compare-and-set storage pays: decisions per second with 16 concurrent clients, beside a
// bare `UPDATE … SET revision = $n + 1 WHERE id = $1 AND revision = $n` loop run by 16
// clients on the same server in the same run (each client on a row of its own).
//
// - link redemptions: store users accept private links (a new store each time; 16 clients,
//   each on links of its own, a use limit of 20 per link). Each is a read of the link by
//   its token hash, the core's decision, and one write statement: the link's
//   compare-and-set and two outbox entries.
// - review decisions: operators approve submissions awaiting review (each client on
//   namespaces of its own). Each reads the submission, its publisher and the namespace's
//   submissions, then writes the submission, the namespace's guard row, the publisher's
//   revision check and three or four outbox entries.
// - the floor (reported): a read of a link-sized record by its key and its compare-and-set,
//   without the core, checks or outbox: the least that any read-decide-write storage pays.
// Rounds alternate the loops, so machine noise hits each alike; the ratios of the
// medians are reported, with the bound: each at least 0.5x the bare loop (D-35 style: a
// ratio against a peer, absolute figures reported, never bounded).
//
// Usage: (cd examples/service-postgres && npm ci), root `npm run build`, then
//   node bench/service-postgres.mjs [seconds per loop, default 2] [rounds, default 3]
// It starts a throwaway PostgreSQL server (examples/service-postgres/scripts/with-postgres.mjs)
// unless PGHOST is set.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const example = new URL('../examples/service-postgres/', import.meta.url);
const seconds = Number(process.argv[2] ?? 2);
const rounds = Number(process.argv[3] ?? 3);
const CLIENTS = 16;
const BOUND = 0.5;

if (!process.env.PGHOST) {
  const wrapper = fileURLToPath(new URL('scripts/with-postgres.mjs', example));
  const r = spawnSync(process.execPath, [wrapper, process.execPath, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

let pg;
try {
  pg = createRequire(new URL('package.json', example))('pg');
} catch {
  process.stderr.write('bench: the example has no node_modules: run `npm ci` in examples/service-postgres first\n');
  process.exit(2);
}
const { service } = await import(new URL('src/service.mjs', example).href);

const sha256 = (s) => createHash('sha256').update(s).digest('hex');
const OWNER = { kind: 'publisher-member', id: 'user-owner' };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function must(result, what) {
  if (!result.ok) throw new Error(`${what}: ${result.refusal.code} ${result.refusal.message}`);
  return result;
}

/** Runs `step(client, i)` on 16 clients until `seconds` pass or a client has no work; operations per second. */
const cpu = { bare: [], floor: [], redeem: [], review: [] };
async function loop(step, name) {
  const deadline = performance.now() + seconds * 1000;
  const start = performance.now();
  const used = process.cpuUsage();
  const counts = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      let n = 0;
      while (performance.now() < deadline) {
        if (!(await step(client, n))) break;
        n += 1;
      }
      return n;
    }),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  const elapsed = (performance.now() - start) / 1000;
  const u = process.cpuUsage(used);
  cpu[name].push((u.user + u.system) / 1e6 / elapsed);
  return total / elapsed;
}

const admin = new pg.Client({ database: 'postgres' });
await admin.connect();
const database = `bench_${randomBytes(4).toString('hex')}`;
await admin.query(`CREATE DATABASE ${database}`);
const pool = new pg.Pool({ database, max: CLIENTS });
// Idle connections end when the database is dropped; that is no error of the bench.
pool.on('error', () => {});
try {
  await pool.query(readFileSync(new URL('schema.sql', example), 'utf8'));
  await pool.query('CREATE TABLE bare (id integer PRIMARY KEY, revision bigint NOT NULL)');
  await pool.query('INSERT INTO bare SELECT g, 1 FROM generate_series(0, $1) g', [CLIENTS - 1]);
  const svc = service(pool);

  // One trusted publisher; its key signs every release.
  const keyId = sha256('bench key');
  const publisherId = must(await svc.createPublisher(OWNER, keyId), 'create publisher').records[0].id;
  must(await svc.publisher(publisherId, { type: 'trust', actor: { kind: 'operator', id: 'op-trust' } }), 'trust');
  let submissionCount = 0;
  async function submit(namespace, version) {
    const id = `sub-${++submissionCount}`;
    const report = { errors: 0, warnings: 0, rules: [], manifest: { namespace, version, capabilities: [], properties: [] }, manifestSha256: sha256(`m${id}`), artifactSha256: sha256(`a${id}`), publicKeyId: keyId, signatureValid: true };
    must(await svc.submit(id, { actor: OWNER, publisherId, namespace, version, distribution: 'private', report }), 'submit');
    return id;
  }
  const approve = (id) => svc.submission(id, { type: 'approve', actor: { kind: 'operator', id: 'op-reviewer' } });

  // Work for the loops, made before they start: links (20 uses each) and submissions.
  const release = await submit('bench/linked', '1.0.0');
  must(await approve(release), 'approve');
  const LINK_USES = 20;
  const linksPerClient = Math.ceil((seconds * rounds * 2000) / CLIENTS / LINK_USES) + 2;
  const links = Array.from({ length: CLIENTS }, () => []);
  await Promise.all(
    links.map(async (mine, client) => {
      for (let i = 0; i < linksPerClient; i++) {
        const tokenHash = sha256(`link ${client} ${i}`);
        must(await svc.issueLink(release, { actor: OWNER, tokenHash, useLimit: LINK_USES }), 'issue link');
        mine.push(tokenHash);
      }
    }),
  );
  const submissionsPerClient = Math.ceil((seconds * rounds * 600) / CLIENTS) + 2;
  const queues = Array.from({ length: CLIENTS }, () => []);
  await Promise.all(
    queues.map(async (mine, client) => {
      // Ten versions per namespace, so that reading a namespace stays the size it is in use.
      for (let i = 0; i < submissionsPerClient; i++) mine.push(await submit(`bench/c${client}-n${Math.floor(i / 10)}`, `1.0.${i % 10}`));
    }),
  );

  const revision = new Array(CLIENTS).fill(1);
  const redeemed = new Array(CLIENTS).fill(0);
  const approved = new Array(CLIENTS).fill(0);
  const results = { bare: [], floor: [], redeem: [], review: [] };
  // The floor under any read-decide-write storage: read a link-sized record by its key, then
  // compare-and-set it, with no core, no checks and no outbox (each client on a row of its own).
  const sample = (await pool.query('SELECT record FROM private_links WHERE token_hash = $1', [links[0][0]])).rows[0].record;
  await pool.query('CREATE TABLE floor (id integer PRIMARY KEY, revision bigint NOT NULL, record jsonb NOT NULL)');
  await pool.query('INSERT INTO floor SELECT g, 1, $2::jsonb FROM generate_series(0, $1) g', [CLIENTS - 1, JSON.stringify({ ...sample, acceptedStores: Array.from({ length: LINK_USES / 2 }, (_, i) => `s0-${i}`) })]);
  let retries = 0;
  for (let round = 0; round < rounds; round++) {
    results.bare.push(
      await loop(async (client) => {
        const r = await pool.query('UPDATE bare SET revision = $2 + 1 WHERE id = $1 AND revision = $2', [client, revision[client]]);
        if (r.rowCount !== 1) throw new Error('the bare loop lost its own row');
        revision[client] += 1;
        return true;
      }, 'bare'),
    );
    results.floor.push(
      await loop(async (client) => {
        const { rows } = await pool.query({ name: 'floor_read', text: 'SELECT revision, record FROM floor WHERE id = $1', values: [client] });
        const rev = Number(rows[0].revision);
        const r = await pool.query({ name: 'floor_write', text: 'UPDATE floor SET record = $3::jsonb, revision = $2 + 1 WHERE id = $1 AND revision = $2', values: [client, rev, JSON.stringify(rows[0].record)] });
        if (r.rowCount !== 1) throw new Error('the floor loop lost its own row');
        return true;
      }, 'floor'),
    );
    results.redeem.push(
      await loop(async (client) => {
        const k = redeemed[client]++;
        const tokenHash = links[client][Math.floor(k / LINK_USES)];
        if (tokenHash === undefined) return false;
        const r = must(await svc.link({ type: 'accept', actor: { kind: 'store-user', id: `u${client}-${k}`, storeId: `s${client}-${k}` }, tokenHash }), 'accept');
        retries += r.attempts - 1;
        return true;
      }, 'redeem'),
    );
    results.review.push(
      await loop(async (client) => {
        const id = queues[client][approved[client]++];
        if (id === undefined) return false;
        const r = must(await approve(id), 'approve');
        retries += r.attempts - 1;
        return true;
      }, 'review'),
    );
  }

  const bare = median(results.bare);
  const line = (name, values) => `${name.padEnd(44)} ${median(values).toFixed(0).padStart(7)} /s   (rounds: ${values.map((v) => v.toFixed(0)).join(', ')})`;
  console.log(`PostgreSQL ${(await pool.query('SHOW server_version')).rows[0].server_version}, ${CLIENTS} clients, ${rounds} rounds of ${seconds} s per loop`);
  console.log(line('bare UPDATE … WHERE revision = $n', results.bare));
  console.log(`floor / bare: ${(median(results.floor) / bare).toFixed(2)}x`);
  console.log(line('floor: read + UPDATE of a link-sized record', results.floor));
  console.log(line('link redemptions (accept)', results.redeem));
  console.log(line('review decisions (approve)', results.review));
  console.log(`this process's CPU (share of one core): bare ${median(cpu.bare).toFixed(2)}, floor ${median(cpu.floor).toFixed(2)}, redemptions ${median(cpu.redeem).toFixed(2)}, reviews ${median(cpu.review).toFixed(2)}`);
  console.log(`commands that ran again after losing a race: ${retries}`);
  let pass = true;
  for (const [name, values] of [['link redemptions', results.redeem], ['review decisions', results.review]]) {
    const ratio = median(values) / bare;
    const ok = ratio >= BOUND;
    pass &&= ok;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${ratio.toFixed(2)}x the bare loop (bound: at least ${BOUND}x); ${(median(values) / median(results.floor)).toFixed(2)}x the floor (reported)`);
  }
  process.exitCode = pass ? 0 : 1;
} finally {
  await pool.end();
  await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
  await admin.end();
}
