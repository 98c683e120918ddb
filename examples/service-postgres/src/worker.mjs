// The outbox worker: performs the effects that decisions committed, in order, and marks each
// one done. It may be killed at any instant and started again: an effect performed but not
// yet marked is performed again, so every effect is idempotent (the bundle copy checks the
// bytes already in storage; deleting working files that are gone does nothing; effects
// aimed at this database are journalled by outbox sequence number in the transaction that
// marks them done). One worker runs at a time, holding a session advisory lock that
// PostgreSQL releases when the worker's connection ends, killed or not.
//
// Order: the effects of one stream (one submission, one link, ...) run strictly in outbox
// order, so a bundle is always in storage before its working files are deleted; an effect
// that fails holds back the rest of its stream and nothing else.

/** The advisory lock key that makes the worker single (any constant of the deployment). */
const WORKER_LOCK = 0x706c6578; // 'plex'

const NEXT_IN_ORDER = `
  SELECT o.seq, o.stream, o.effect FROM outbox o
  WHERE o.done_at IS NULL AND NOT (o.stream = ANY($1::text[]))
    AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.stream = o.stream AND p.seq < o.seq AND p.done_at IS NULL)
  ORDER BY o.seq LIMIT 1`;
// Test-only: the newest pending effect first, which breaks the order inside a stream.
const NEXT_UNORDERED = `
  SELECT o.seq, o.stream, o.effect FROM outbox o
  WHERE o.done_at IS NULL AND NOT (o.stream = ANY($1::text[]))
  ORDER BY o.seq DESC LIMIT 1`;

/**
 * Performs pending effects until none is left (`untilIdle`) or `signal` aborts. `files` is
 * the object of files.mjs. `at(point, effect)` is a test hook, called at 'effect-started',
 * the copy's own points and 'effect-performed' (after the effect, before it is marked
 * done). `ordered: false` exists only for tests, to show what the order protects.
 * Returns { performed, failed: [{ seq, error }] }.
 */
export async function runWorker(pool, files, options = {}) {
  const { untilIdle = true, ordered = true, at = () => {}, pollMs = 200, signal } = options;
  const client = await pool.connect();
  const performed = [];
  const failed = [];
  try {
    for (;;) {
      const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [WORKER_LOCK]);
      if (rows[0].locked) break;
      if (signal?.aborted) return { performed, failed };
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    // Only this worker writes to staging; what is there is from a worker that was killed.
    files.clearStaging();
    const held = [];
    for (;;) {
      if (signal?.aborted) break;
      const { rows } = await client.query(ordered ? NEXT_IN_ORDER : NEXT_UNORDERED, [held]);
      if (rows.length === 0) {
        if (untilIdle) break;
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        held.length = 0;
        continue;
      }
      const seq = Number(rows[0].seq);
      const effect = rows[0].effect;
      try {
        at('effect-started', effect);
        await perform(client, files, effect, (point) => at(point, effect));
        at('effect-performed', effect);
        await client.query('BEGIN');
        await client.query('INSERT INTO effect_journal (seq, effect) VALUES ($1, $2) ON CONFLICT DO NOTHING', [seq, JSON.stringify(effect)]);
        await client.query('UPDATE outbox SET done_at = now(), attempts = attempts + 1, last_error = NULL WHERE seq = $1', [seq]);
        await client.query('COMMIT');
        performed.push(seq);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        await client.query('UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE seq = $1', [seq, String(error.message).slice(0, 1000)]);
        failed.push({ seq, error: error.message });
        // The rest of this stream waits for the failed effect; other streams go on.
        held.push(rows[0].stream);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [WORKER_LOCK]).catch(() => {});
    client.release();
  }
  return { performed, failed };
}

/** Performs one effect. Effects without a file side need nothing beyond the journal entry. */
export async function perform(client, files, effect, at = () => {}) {
  switch (effect.type) {
    case 'copy-bundle-to-immutable-storage': {
      const { rows } = await client.query("SELECT record->>'artifactSha256' AS sha FROM release_submissions WHERE id = $1", [effect.submissionId]);
      if (rows.length === 0 || rows[0].sha === null) throw new Error(`submission ${effect.submissionId} has no artifact hash`);
      files.copyBundle(effect.submissionId, effect.path, rows[0].sha, at);
      return;
    }
    case 'delete-working-files':
      files.deleteWorkingFiles(effect.submissionId);
      at('working-files-deleted');
      return;
    default:
      // Notifications and queue moves: a real deployment sends them here, keyed by the
      // outbox sequence number so that the receiver drops a repeat.
      return;
  }
}
