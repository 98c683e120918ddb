// The commands of platform-ext/service over PostgreSQL: for each command, which records
// to read and which facts the core's context needs; src/store.mjs does the rest. Time and
// ids come from here (the core has neither clock nor randomness).
//
// Which records each command touches (and so what its one transaction checks):
//   publisher create, add-key, revoke-key, trust, ...   the publisher
//   submission submit        the new submission; reads the publisher and the namespace
//   submission approve       the submission; reads the publisher and the namespace
//   submission withdraw, publish-listing   the submission; reads the publisher
//   submission reject, request-changes, revoke   the submission
//   link issue               the new link; reads the release and its publisher
//   link open, accept        the link found by the token's hash
//   link revoke              the link; reads its publisher
import { DECIDERS } from './core.mjs';
import { TABLES, newId, runCommand } from './store.mjs';

/**
 * `options` go to runCommand (attempts, now, hooks; compareAndSet and outbox for tests).
 * Every method returns runCommand's result: the core's decision with `attempts` and `queued`.
 */
export function service(pool, options = {}) {
  function run(kind, command, load, extra = {}) {
    const decide = DECIDERS[kind];
    return runCommand(pool, { load, decide: (record, context) => decide(record, command, context) }, { ...options, ...extra });
  }

  /** The publisher of `record` (null when there is no record; the core then refuses). */
  async function publisherOf(reads, record) {
    return record === null ? null : reads.get('publisher', record.publisherId);
  }

  return {
    pool,

    /** A console user creates a publisher with its first key and becomes its owner. */
    createPublisher(actor, keyId, id = newId('publisher'), extra) {
      return run('publisher', { type: 'create', actor, keyId }, async () => ({ record: null, context: { newId: id } }), extra);
    },

    /** Any other publisher command (`add-key`, `revoke-key`, `trust`, `revoke`, ...). */
    publisher(publisherId, command, extra) {
      return run('publisher', command, async (reads) => ({ record: await reads.get('publisher', publisherId), context: {} }), extra);
    },

    /** Submits a release; `id` names the folder where the console stored the five files. */
    submit(id, command, extra) {
      return run(
        'release-submission',
        { type: 'submit', ...command },
        async (reads) => {
          const publisher = await reads.get('publisher', command.publisherId);
          const { facts } = await reads.namespace(command.namespace);
          return { record: null, context: { newId: id, publisher, namespace: facts } };
        },
        extra,
      );
    },

    /** approve, reject, request-changes, withdraw, revoke, publish-listing of a submission. */
    submission(submissionId, command, extra) {
      return run(
        'release-submission',
        command,
        async (reads) => {
          const use = [];
          if (['approve', 'withdraw', 'publish-listing'].includes(command.type)) use.push('publisher');
          if (command.type === 'approve') use.push('namespace');
          // One read: the submission, its publisher and its namespace's facts.
          const { record, publisher, namespace } = await reads.submission(submissionId, use);
          const context = {};
          if (use.includes('publisher')) context.publisher = publisher;
          if (namespace !== null) {
            context.namespace = namespace.facts;
            context.currentReleaseId = namespace.currentReleaseId;
          }
          return { record, context };
        },
        extra,
      );
    },

    /** Issues a private link for an approved release; only the token's hash reaches the core. */
    issueLink(releaseId, command, id = newId('link'), extra) {
      return run(
        'private-link',
        { type: 'issue', ...command },
        async (reads) => {
          const release = await reads.get('release-submission', releaseId);
          return { record: null, context: { newId: id, release, publisher: await publisherOf(reads, release) } };
        },
        extra,
      );
    },

    /** open or accept: the link is found by the SHA-256 of the token the store presents. */
    link(command, extra) {
      return run('private-link', command, async (reads) => ({ record: await reads.byTokenHash('private-link', command.tokenHash), context: {} }), extra);
    },

    /** A record as stored, or null. */
    async get(kind, id) {
      const { rows } = await pool.query(`SELECT record FROM ${TABLES[kind]} WHERE id = $1`, [id]);
      return rows[0]?.record ?? null;
    },
  };
}
