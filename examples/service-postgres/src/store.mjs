// Applies the service core's decisions to PostgreSQL, optimistically.
//
// A command reads the records it needs (plain reads, nothing locked), calls the core's
// decision function, and writes what the decision returned in ONE statement, which is one
// transaction: every record with compare-and-set on its revision, a check that every record
// it only read is unchanged, and the decision's effects into the outbox. When any check
// fails, the statement raises serialization_failure and changes nothing; the command then
// runs again from the reads, on fresh records, a bounded number of times.
//
// What the write checks, for each thing the command read:
// - a record the decision changed: `UPDATE … WHERE id = $1 AND revision = $2` (the revision
//   read) changes one row;
// - a new record (revision 1): `INSERT … ON CONFLICT DO NOTHING` inserts one row; a conflict
//   on the id or on a unique key (a live version, a token hash) means another command got
//   there first;
// - a record only read (the publisher while approving): `SELECT … FOR SHARE` finds the
//   revision read, and the lock keeps it until COMMIT;
// - the submissions of a namespace, read as a set: the namespace's own row in `namespaces`
//   is bumped with the same compare-and-set (or inserted, claiming the namespace).
// The reads need no common snapshot: whatever they saw is checked again at COMMIT.
import { createHash, randomUUID } from 'node:crypto';

/**
 * A query as a named prepared statement: PostgreSQL parses and plans each distinct text once
 * per connection (the write statement has one text per shape of decision).
 */
export function prepared(text, values) {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `svc_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    // The texts come from a few shapes of decision; the bound is a guard, not a cache policy.
    if (statementNames.size < 1000) statementNames.set(text, name);
  }
  return { name, text, values };
}
const statementNames = new Map();

/** The table of each record kind of platform-ext/service. */
export const TABLES = {
  publisher: 'publishers',
  'release-submission': 'release_submissions',
  installation: 'installations',
  'private-link': 'private_links',
  invitation: 'invitations',
};

/** Effects that answer the caller at once (what opening a link shows) instead of being queued. */
export const IMMEDIATE_EFFECTS = new Set(['show-link-terms']);

/** PostgreSQL errors after which the command runs again: serialization failure (the lost race), deadlock, unique violation. */
const RETRYABLE = new Set(['40001', '40P01', '23505']);

/** Thrown when a command lost every one of its attempts to concurrent writers. */
export class RetriesExhausted extends Error {
  constructor(attempts) {
    super(`the records changed under the command ${attempts} times in a row; try again later`);
    this.attempts = attempts;
  }
}

/** What an effect is about: the worker keeps each stream's effects in order. */
export function streamOf(effect) {
  return effect.submissionId ?? effect.linkId ?? effect.installationId ?? effect.invitationId ?? effect.publisherId ?? effect.releaseId ?? effect.namespace ?? 'service';
}

function tableOf(kind) {
  const table = TABLES[kind];
  if (table === undefined) throw new Error(`no table for record kind ${JSON.stringify(kind)}`);
  return table;
}

/**
 * A command's reads: every record loaded (with the revision seen, or null when absent) and
 * every namespace whose submissions were listed, so that the write can check them.
 */
export class Reads {
  constructor(pool) {
    this.pool = pool;
    /** `${kind}\u0000${id}` -> { kind, id, revision } (revision null: absent when read). */
    this.records = new Map();
    /** namespace -> revision of its row, or null when it had none. */
    this.namespaces = new Map();
  }

  remember(kind, record) {
    if (record !== null) this.records.set(`${kind}\u0000${record.id}`, { kind, id: record.id, revision: record.revision });
    return record;
  }

  /** The record of `kind` with this id, or null. */
  async get(kind, id) {
    const { rows } = await this.pool.query(prepared(`SELECT record FROM ${tableOf(kind)} WHERE id = $1`, [id]));
    return this.remember(kind, rows.length === 0 ? null : rows[0].record);
  }

  /** The record of `kind` whose token hash is `hash` (links, invitations), or null. */
  async byTokenHash(kind, hash) {
    const { rows } = await this.pool.query(prepared(`SELECT record FROM ${tableOf(kind)} WHERE token_hash = $1`, [hash]));
    return this.remember(kind, rows.length === 0 ? null : rows[0].record);
  }

  /**
   * The core's namespace facts: the owner and every submission of the namespace (id,
   * version, state), and the release that launches today (the newest approval, for the
   * one-step rollback). Guarded by the namespace's row, which the write bumps.
   */
  async namespace(namespace) {
    const { rows } = await this.pool.query(prepared(`SELECT ${NAMESPACE_COLUMNS} FROM (SELECT $1::text AS namespace) AS s LEFT JOIN namespaces n ON n.namespace = s.namespace`, [namespace]));
    return this.rememberNamespace(namespace, rows[0]);
  }

  rememberNamespace(namespace, row) {
    this.namespaces.set(namespace, row.ns_revision === null ? null : Number(row.ns_revision));
    return { facts: { ownerPublisherId: row.ns_owner, submissions: row.ns_submissions }, currentReleaseId: row.ns_current };
  }

  /**
   * A submission with, in the same read, its publisher and its namespace's facts; only
   * what `use` names ('publisher', 'namespace') is checked again at the write.
   */
  async submission(id, use = []) {
    const { rows } = await this.pool.query(
      prepared(
        `SELECT s.record, p.record AS publisher, ${NAMESPACE_COLUMNS}
           FROM release_submissions s
           LEFT JOIN publishers p ON p.id = s.publisher_id
           LEFT JOIN namespaces n ON n.namespace = s.namespace
          WHERE s.id = $1`,
        [id],
      ),
    );
    if (rows.length === 0) return { record: null, publisher: null, namespace: null };
    const row = rows[0];
    this.remember('release-submission', row.record);
    const out = { record: row.record, publisher: null, namespace: null };
    if (use.includes('publisher')) out.publisher = this.remember('publisher', row.publisher);
    if (use.includes('namespace')) out.namespace = this.rememberNamespace(row.record.namespace, row);
    return out;
  }
}

/**
 * The namespace's owner, revision, submissions and current release (the approved one
 * approved last), for a row `s` with a namespace and its `namespaces` row `n`.
 */
const NAMESPACE_COLUMNS = `n.publisher_id AS ns_owner, n.revision AS ns_revision,
  (SELECT coalesce(json_agg(json_build_object('id', x.id, 'version', x.version, 'state', x.state) ORDER BY x.id), '[]')
     FROM release_submissions x WHERE x.namespace = s.namespace) AS ns_submissions,
  (SELECT x.id FROM release_submissions x WHERE x.namespace = s.namespace AND x.state = 'approved'
     ORDER BY (SELECT max(e->>'at') FROM jsonb_array_elements(x.record->'trail') e WHERE e->>'action' = 'approved') DESC, x.id
     LIMIT 1) AS ns_current`;

/**
 * The one statement that writes a decision: data-modifying WITH queries for the records,
 * the namespace rows and the outbox, and a final SELECT that raises serialization_failure
 * (service_lost_race) unless every compare-and-set matched. With `compareAndSet` false (tests
 * only), writes are blind: no revision is compared and nothing raises.
 */
export function writeStatement(reads, decision, { compareAndSet = true, outbox = true } = {}) {
  const params = [];
  const p = (value) => {
    params.push(value);
    return `$${params.length}`;
  };
  const ctes = [];
  const checks = [];
  const written = new Set();
  for (const record of decision.records) {
    const table = tableOf(record.kind);
    const key = `${record.kind}\u0000${record.id}`;
    const seen = reads.records.get(key);
    written.add(key);
    const name = `w${ctes.length}`;
    if (seen !== undefined && seen.revision !== null) {
      // The core returns each changed record at the revision it was given plus one.
      if (record.revision !== seen.revision + 1) throw new Error(`the decision returned ${record.kind} ${record.id} at revision ${record.revision}, after ${seen.revision}`);
      const where = compareAndSet ? `id = ${p(record.id)} AND revision = ${p(seen.revision)}` : `id = ${p(record.id)}`;
      ctes.push(`${name} AS (UPDATE ${table} SET record = ${p(JSON.stringify(record))}::jsonb, revision = ${p(record.revision)} WHERE ${where} RETURNING 1)`);
    } else {
      if (record.revision !== 1) throw new Error(`the decision returned a new ${record.kind} ${record.id} at revision ${record.revision}, not 1`);
      ctes.push(`${name} AS (INSERT INTO ${table} (id, revision, record) VALUES (${p(record.id)}, 1, ${p(JSON.stringify(record))}::jsonb) ON CONFLICT DO NOTHING RETURNING 1)`);
    }
    checks.push(`(SELECT count(*) FROM ${name}) = 1`);
  }
  if (compareAndSet) {
    // What was read and not written must still be what the decision saw, until COMMIT.
    for (const [key, seen] of reads.records) {
      if (written.has(key) || seen.revision === null) continue;
      const name = `r${ctes.length}`;
      ctes.push(`${name} AS (SELECT 1 FROM ${tableOf(seen.kind)} WHERE id = ${p(seen.id)} AND revision = ${p(seen.revision)} FOR SHARE)`);
      checks.push(`(SELECT count(*) FROM ${name}) = 1`);
    }
    for (const [namespace, revision] of reads.namespaces) {
      const name = `n${ctes.length}`;
      if (revision !== null) {
        ctes.push(`${name} AS (UPDATE namespaces SET revision = revision + 1 WHERE namespace = ${p(namespace)} AND revision = ${p(revision)} RETURNING 1)`);
      } else {
        // The first submission of a namespace claims it for its publisher; a decision that
        // writes none leaves the namespace unclaimed.
        const claim = decision.records.find((r) => r.kind === 'release-submission' && r.namespace === namespace);
        if (claim === undefined) continue;
        ctes.push(`${name} AS (INSERT INTO namespaces (namespace, publisher_id, revision) VALUES (${p(namespace)}, ${p(claim.publisherId)}, 1) ON CONFLICT DO NOTHING RETURNING 1)`);
      }
      checks.push(`(SELECT count(*) FROM ${name}) = 1`);
    }
  }
  const queued = outbox ? decision.effects.filter((e) => !IMMEDIATE_EFFECTS.has(e.type)) : [];
  if (queued.length > 0) {
    // WITH ORDINALITY keeps the core's order of effects in the sequence numbers.
    ctes.push(
      `o AS (INSERT INTO outbox (stream, effect) SELECT s, e FROM unnest(${p(queued.map(streamOf))}::text[], ${p(queued.map((e) => JSON.stringify(e)))}::jsonb[]) WITH ORDINALITY AS t(s, e, n) ORDER BY n RETURNING seq)`,
    );
  }
  const ok = compareAndSet && checks.length > 0 ? `CASE WHEN ${checks.join(' AND ')} THEN true ELSE service_lost_race() = 0 END` : 'true';
  const seqs = queued.length > 0 ? '(SELECT array_agg(seq ORDER BY seq) FROM o)' : 'ARRAY[]::bigint[]';
  const text = `${ctes.length > 0 ? `WITH ${ctes.join(',\n')}\n` : ''}SELECT ${ok} AS ok, ${seqs} AS queued`;
  return { text, params, empty: ctes.length === 0 };
}

/**
 * Runs one command: `operation.load(reads)` returns `{ record, context }` (the subject
 * record or null, and the context's facts besides `now`), `operation.decide(record,
 * context)` calls the core. Returns the core's decision, plus `attempts` and the outbox
 * sequence numbers of its effects (`queued`). A refusal writes nothing.
 *
 * Options:
 * - `attempts` (8): how many times a command that lost a race runs on fresh records;
 * - `now`: the clock (milliseconds), Date.now by default;
 * - `compareAndSet` (true) and `outbox` (true): false only in tests, which show that each
 *   guarantee fails without them; with `outbox: false`, `perform(effect)` runs each effect
 *   right after the write, the way a service without an outbox would;
 * - `hooks.afterLoad(attempt)` (awaited, between the reads and the write) and
 *   `hooks.afterCommit(decision)`: test hooks, to line up races and to kill the process.
 */
export async function runCommand(pool, operation, options = {}) {
  const { attempts = 8, now = Date.now, compareAndSet = true, outbox = true, perform, hooks = {} } = options;
  for (let attempt = 1; ; attempt++) {
    const reads = new Reads(pool);
    const { record, context } = await operation.load(reads);
    const decision = operation.decide(record, { ...context, now: now() });
    if (hooks.afterLoad) await hooks.afterLoad(attempt);
    if (!decision.ok) return { ...decision, attempts: attempt };
    const { text, params, empty } = writeStatement(reads, decision, { compareAndSet, outbox });
    if (empty) return { ...decision, attempts: attempt, queued: [] };
    try {
      const { rows } = await pool.query(prepared(text, params));
      hooks.afterCommit?.(decision);
      if (!outbox && perform) for (const effect of decision.effects) if (!IMMEDIATE_EFFECTS.has(effect.type)) await perform(effect);
      return { ...decision, attempts: attempt, queued: (rows[0].queued ?? []).map(Number) };
    } catch (error) {
      if (!RETRYABLE.has(error.code)) throw error;
    }
    if (attempt >= attempts) throw new RetriesExhausted(attempt);
    // A short random pause spreads out the writers that collided.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
  }
}

/** A fresh record id. */
export function newId(prefix) {
  return `${prefix}-${randomUUID()}`;
}
