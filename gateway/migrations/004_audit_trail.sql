-- The admin API's audit trail: one row per step of every state-changing admin request (and every export
-- of the trail), chained by SHA-256 (gateway/src/audit/audit-chain.ts computes and checks the hashes).
--
-- A request the handler runs for has two rows: `started` before the handler (when it cannot be written the
-- request is refused with 503 and nothing runs) and `finished` after the answer, naming its `started`
-- row; a request refused before its handler (authentication, a malformed body) has one `finished` row.
-- Append-only: triggers refuse UPDATE, DELETE and TRUNCATE, and the gateway's role is granted SELECT and
-- INSERT only. Appends lock the one chain-head row, so the chain cannot fork; the head holds the last
-- sequence and hash, so a removed tail shows.
CREATE TABLE gateway.audit_records (
  sequence          bigint PRIMARY KEY CHECK (sequence > 0),
  phase             text NOT NULL CHECK (phase IN ('started', 'finished')),
  started_sequence  bigint,
  at                timestamptz NOT NULL,
  actor_id          text,
  actor_name        text,
  actor_kind        text,
  actor_role        text,
  attempted_user    text,
  source_address    text NOT NULL,
  user_agent        text,
  request_id        text NOT NULL,
  method            text NOT NULL,
  route             text NOT NULL,
  target_ids        jsonb NOT NULL,
  body              text,
  status            integer,
  error_code        text,
  prev_hash         text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
  hash              text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$'),
  CHECK ((phase = 'started') = (status IS NULL)),
  CHECK (phase = 'finished' OR started_sequence IS NULL)
);

CREATE INDEX audit_records_started_idx ON gateway.audit_records (started_sequence)
  WHERE started_sequence IS NOT NULL;
CREATE INDEX audit_records_actor_idx ON gateway.audit_records (actor_id, sequence);
CREATE INDEX audit_records_route_idx ON gateway.audit_records (route, sequence);
CREATE INDEX audit_records_at_idx ON gateway.audit_records (at);

-- The chain's head: the last appended sequence and its hash (0 and 64 zeros before the first record).
CREATE TABLE gateway.audit_chain_head (
  one       boolean PRIMARY KEY DEFAULT true CHECK (one),
  sequence  bigint NOT NULL CHECK (sequence >= 0),
  hash      text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$')
);
INSERT INTO gateway.audit_chain_head (sequence, hash) VALUES (0, repeat('0', 64));

CREATE FUNCTION gateway.audit_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER audit_records_append_only BEFORE UPDATE OR DELETE ON gateway.audit_records
  FOR EACH ROW EXECUTE FUNCTION gateway.audit_reject_change();
CREATE TRIGGER audit_records_no_truncate BEFORE TRUNCATE ON gateway.audit_records
  FOR EACH STATEMENT EXECUTE FUNCTION gateway.audit_reject_change();
CREATE TRIGGER audit_chain_head_no_delete BEFORE DELETE ON gateway.audit_chain_head
  FOR EACH ROW EXECUTE FUNCTION gateway.audit_reject_change();
CREATE TRIGGER audit_chain_head_no_truncate BEFORE TRUNCATE ON gateway.audit_chain_head
  FOR EACH STATEMENT EXECUTE FUNCTION gateway.audit_reject_change();

-- A record extends the head: the next sequence, linked to the head's hash.
CREATE FUNCTION gateway.audit_extends_head() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head gateway.audit_chain_head;
BEGIN
  SELECT * INTO head FROM gateway.audit_chain_head;
  IF NEW.sequence <> head.sequence + 1 OR NEW.prev_hash <> head.hash THEN
    RAISE EXCEPTION 'audit record % does not extend the chain head %', NEW.sequence, head.sequence
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER audit_records_extend_head BEFORE INSERT ON gateway.audit_records
  FOR EACH ROW EXECUTE FUNCTION gateway.audit_extends_head();

-- The head moves one record at a time, onto a record that exists with that hash.
CREATE FUNCTION gateway.audit_head_advances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.sequence <> OLD.sequence + 1
     OR NOT EXISTS (SELECT 1 FROM gateway.audit_records WHERE sequence = NEW.sequence AND hash = NEW.hash) THEN
    RAISE EXCEPTION 'the audit chain head moves only onto the next record'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER audit_chain_head_advances BEFORE UPDATE ON gateway.audit_chain_head
  FOR EACH ROW EXECUTE FUNCTION gateway.audit_head_advances();
