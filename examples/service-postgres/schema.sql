-- Tables for the records of platform-ext/service, one per record kind. Each row holds the
-- record exactly as a decision returned it (`record`, jsonb) with its id and revision in
-- columns of their own: writes compare-and-set on `revision`. The columns a constraint
-- needs are generated from the record, so they can never disagree with it.
--
-- The unique keys the contract implies:
--   release_submissions: one live submission per (namespace, version): a version awaiting
--     review or approved once is never submitted again ("Versioning: release immutability");
--   namespaces: a namespace belongs to one publisher and never changes hands; its row's
--     revision also guards every decision that reads the namespace's submissions;
--   private_links, invitations: the SHA-256 of the token (only the hash is stored);
--   installations: one installation of a namespace per store.
-- The outbox holds the effects of each decision, written in the same transaction.

CREATE TABLE IF NOT EXISTS publishers (
  id text PRIMARY KEY,
  revision bigint NOT NULL CHECK (revision >= 1),
  record jsonb NOT NULL,
  CHECK (record->>'kind' = 'publisher' AND record->>'id' = id AND (record->>'revision')::bigint = revision)
);

CREATE TABLE IF NOT EXISTS release_submissions (
  id text PRIMARY KEY,
  revision bigint NOT NULL CHECK (revision >= 1),
  record jsonb NOT NULL,
  publisher_id text GENERATED ALWAYS AS (record->>'publisherId') STORED,
  namespace text GENERATED ALWAYS AS (record->>'namespace') STORED,
  version text GENERATED ALWAYS AS (record->>'version') STORED,
  state text GENERATED ALWAYS AS (record->>'state') STORED,
  CHECK (record->>'kind' = 'release-submission' AND record->>'id' = id AND (record->>'revision')::bigint = revision)
);
-- Rejected, withdrawn, changes-requested and failed submissions free their version for a
-- correction; every other state holds it.
CREATE UNIQUE INDEX IF NOT EXISTS release_submissions_live_version
  ON release_submissions (namespace, version)
  WHERE state IN ('submitted', 'awaiting-review', 'approved', 'revoked');
CREATE INDEX IF NOT EXISTS release_submissions_namespace ON release_submissions (namespace);

-- Not a record of the core: the namespace's owner, and a revision that every decision
-- reading the namespace's submissions (submit, approve) bumps, so two such decisions on
-- one namespace cannot both commit what they decided from the same facts.
CREATE TABLE IF NOT EXISTS namespaces (
  namespace text PRIMARY KEY,
  publisher_id text NOT NULL,
  revision bigint NOT NULL CHECK (revision >= 1)
);

CREATE TABLE IF NOT EXISTS installations (
  id text PRIMARY KEY,
  revision bigint NOT NULL CHECK (revision >= 1),
  record jsonb NOT NULL,
  store_id text GENERATED ALWAYS AS (record->>'storeId') STORED,
  namespace text GENERATED ALWAYS AS (record->>'namespace') STORED,
  UNIQUE (store_id, namespace),
  CHECK (record->>'kind' = 'installation' AND record->>'id' = id AND (record->>'revision')::bigint = revision)
);

CREATE TABLE IF NOT EXISTS private_links (
  id text PRIMARY KEY,
  revision bigint NOT NULL CHECK (revision >= 1),
  record jsonb NOT NULL,
  token_hash text GENERATED ALWAYS AS (record->>'tokenHash') STORED UNIQUE,
  CHECK (record->>'kind' = 'private-link' AND record->>'id' = id AND (record->>'revision')::bigint = revision)
);

CREATE TABLE IF NOT EXISTS invitations (
  id text PRIMARY KEY,
  revision bigint NOT NULL CHECK (revision >= 1),
  record jsonb NOT NULL,
  token_hash text GENERATED ALWAYS AS (record->>'tokenHash') STORED UNIQUE,
  CHECK (record->>'kind' = 'invitation' AND record->>'id' = id AND (record->>'revision')::bigint = revision)
);

-- Effects in the order decisions made them. `stream` names what the effect is about (a
-- submission, a link, ...): the worker performs a stream's effects strictly in order, and
-- an effect that fails holds back the later ones of its stream only.
CREATE TABLE IF NOT EXISTS outbox (
  seq bigserial PRIMARY KEY,
  stream text NOT NULL,
  effect jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
-- Pending effects are few (the worker keeps up), so one partial index serves both the
-- worker's scan in order and its check for an earlier pending effect of the same stream.
CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (seq) WHERE done_at IS NULL;

-- Effects whose target is this database (notifications, queue moves) are recorded here in
-- the transaction that marks them done: once per outbox entry, whatever the worker's crashes.
CREATE TABLE IF NOT EXISTS effect_journal (
  seq bigint PRIMARY KEY REFERENCES outbox (seq),
  effect jsonb NOT NULL,
  performed_at timestamptz NOT NULL DEFAULT now()
);

-- Raised by a write whose compare-and-set found another revision: serialization_failure,
-- so that the writer tries the whole command again on fresh records.
CREATE OR REPLACE FUNCTION service_lost_race() RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION 'a record changed since it was read' USING ERRCODE = '40001';
END
$$;
