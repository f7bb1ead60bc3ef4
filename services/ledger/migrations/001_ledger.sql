-- The ledger: payout transactions, their status history, a double-entry book per partner, idempotency
-- records and the transactional outbox. Money is NUMERIC(38,18): 20 integer digits, 18 decimals, exact.

CREATE TABLE ledger.transactions (
  tx_id                  text PRIMARY KEY,
  partner_id             text NOT NULL,
  customer_id            text NOT NULL DEFAULT '',
  status                 text NOT NULL
    CHECK (status IN ('PENDING', 'PROCESSING', 'SUCCESS', 'FAILED', 'REFUNDED', 'EXPIRED')),
  country_code           text NOT NULL,
  currency               text NOT NULL,
  -- payouts.common.v1.Destination in its proto JSON form, as lookup validated it.
  destination            jsonb NOT NULL,
  -- Local amount in `currency`; NULL until known (lookup without amount, before getQuotation).
  amount                 numeric(38, 18) CHECK (amount > 0),
  partner_transaction_id text NOT NULL DEFAULT '',
  partner_app_id         text NOT NULL DEFAULT '',
  wallet_identifier      text NOT NULL DEFAULT '',
  -- The binding quote: all of these are set together, and replaced together by a newer quote.
  quote_id               text,
  exchange_rate          numeric(38, 18) CHECK (exchange_rate > 0),
  amount_usd             numeric(38, 18) CHECK (amount_usd > 0),
  percentage_fee         numeric(38, 18) CHECK (percentage_fee >= 0),
  fixed_fee              numeric(38, 18) CHECK (fixed_fee >= 0),
  quote_expires_at       timestamptz,
  -- What executePayout debited: amount_usd + percentage_fee + fixed_fee, frozen at execution.
  debited_usd            numeric(38, 18) CHECK (debited_usd > 0),
  execution_key          text,
  provider_reference     text NOT NULL DEFAULT '',
  rail_submitted_at      timestamptz,
  rail_attempts          integer NOT NULL DEFAULT 0,
  next_rail_attempt_at   timestamptz,
  refund_reason          text NOT NULL DEFAULT '',
  failure_reason         text NOT NULL DEFAULT '',
  -- Sequence of the last status change / outbox event of this transaction.
  event_sequence         integer NOT NULL DEFAULT 0,
  pending_expires_at     timestamptz NOT NULL,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL,
  CONSTRAINT quote_complete CHECK (
    (quote_id IS NULL) = (amount_usd IS NULL)
    AND (quote_id IS NULL) = (exchange_rate IS NULL)
    AND (quote_id IS NULL) = (percentage_fee IS NULL)
    AND (quote_id IS NULL) = (fixed_fee IS NULL)
    AND (quote_id IS NULL) = (quote_expires_at IS NULL)
    AND (quote_id IS NULL OR amount IS NOT NULL)
  ),
  -- Once executed, the debit is the quoted total, exactly.
  CONSTRAINT executed_debit CHECK (
    (status IN ('PENDING', 'EXPIRED')) = (debited_usd IS NULL)
    AND (debited_usd IS NULL) = (execution_key IS NULL)
    AND (debited_usd IS NULL OR debited_usd = amount_usd + percentage_fee + fixed_fee)
  )
);

CREATE INDEX transactions_partner_created ON ledger.transactions (partner_id, created_at DESC, tx_id DESC);
CREATE INDEX transactions_partner_reference ON ledger.transactions (partner_id, partner_transaction_id)
  WHERE partner_transaction_id <> '';
CREATE INDEX transactions_pending_expiry ON ledger.transactions (pending_expires_at) WHERE status = 'PENDING';
CREATE INDEX transactions_rail_unsubmitted ON ledger.transactions (next_rail_attempt_at)
  WHERE status = 'PROCESSING' AND rail_submitted_at IS NULL;
-- Which request executed a payout, for support. Not unique: a key pruned after its retention may be
-- used again for another transaction, exactly like a new key (the idempotency record, written in the
-- same database transaction as the debit, is what makes one request execute once).
CREATE INDEX transactions_execution_key ON ledger.transactions (partner_id, execution_key)
  WHERE execution_key IS NOT NULL;

CREATE TABLE ledger.status_history (
  tx_id       text NOT NULL REFERENCES ledger.transactions (tx_id),
  sequence    integer NOT NULL CHECK (sequence > 0),
  from_status text,
  to_status   text NOT NULL,
  reason      text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (tx_id, sequence)
);

-- Five USD accounts per partner (services/ledger/src/domain/posting-rules.ts). `balance` is maintained by
-- the trigger on entries, so it is the sum of the account's entries by construction.
CREATE TABLE ledger.accounts (
  partner_id text NOT NULL,
  kind       text NOT NULL CHECK (kind IN ('balance', 'in_flight', 'settled', 'fees', 'funding')),
  balance    numeric(38, 18) NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (partner_id, kind),
  CONSTRAINT balance_sign CHECK ((kind = 'funding' AND balance <= 0) OR (kind <> 'funding' AND balance >= 0))
);

CREATE TABLE ledger.movements (
  movement_id text PRIMARY KEY,
  partner_id  text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('credit', 'payout', 'settlement', 'reversal', 'refund')),
  tx_id       text REFERENCES ledger.transactions (tx_id),
  reference   text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'credit') = (tx_id IS NULL))
);

-- At most one movement of each money-moving kind per transaction: a payout is debited, settled,
-- reversed or refunded once, whatever the retries.
CREATE UNIQUE INDEX movements_once_per_tx ON ledger.movements (tx_id, kind) WHERE tx_id IS NOT NULL;

CREATE TABLE ledger.entries (
  entry_id    bigserial PRIMARY KEY,
  movement_id text NOT NULL REFERENCES ledger.movements (movement_id),
  partner_id  text NOT NULL,
  kind        text NOT NULL,
  amount      numeric(38, 18) NOT NULL CHECK (amount <> 0),
  created_at  timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (partner_id, kind) REFERENCES ledger.accounts (partner_id, kind)
);

CREATE INDEX entries_movement ON ledger.entries (movement_id);
CREATE INDEX entries_account ON ledger.entries (partner_id, kind);

CREATE FUNCTION ledger.apply_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger.accounts SET balance = balance + NEW.amount, updated_at = now()
   WHERE partner_id = NEW.partner_id AND kind = NEW.kind;
  RETURN NEW;
END $$;

CREATE TRIGGER entries_apply AFTER INSERT ON ledger.entries
  FOR EACH ROW EXECUTE FUNCTION ledger.apply_entry();

-- Checked at commit, when every entry of the movement is in: the entries of a movement sum to zero.
CREATE FUNCTION ledger.assert_movement_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total numeric;
BEGIN
  SELECT COALESCE(SUM(amount), 0) INTO total FROM ledger.entries WHERE movement_id = NEW.movement_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'movement % does not sum to zero (%)', NEW.movement_id, total USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER entries_balanced AFTER INSERT ON ledger.entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger.assert_movement_balanced();

-- Entries and movements are immutable: corrections are new movements.
CREATE FUNCTION ledger.reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = '42501';
END $$;

CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON ledger.entries
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();
CREATE TRIGGER movements_append_only BEFORE UPDATE OR DELETE ON ledger.movements
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();

-- Idempotency records of executePayout, scoped by partner and route. The in-flight state is not a row:
-- it is a transaction-scoped advisory lock on the key, so a crash can never leave a key stuck.
CREATE TABLE ledger.idempotency_keys (
  partner_id      text NOT NULL,
  route           text NOT NULL,
  idempotency_key text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
  fingerprint     text NOT NULL,
  state           text NOT NULL CHECK (state IN ('succeeded', 'failed')),
  tx_id           text NOT NULL,
  -- succeeded: payouts.ledger.v1.Transaction (binary) as it was accepted.
  response        bytea,
  -- failed: the stored business refusal.
  error_reason    text,
  error_message   text,
  error_field     text,
  request_id      text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  PRIMARY KEY (partner_id, route, idempotency_key),
  CHECK ((state = 'succeeded') = (response IS NOT NULL)),
  CHECK ((state = 'failed') = (error_reason IS NOT NULL)),
  CHECK (expires_at >= created_at + interval '24 hours')
);

CREATE INDEX idempotency_keys_expiry ON ledger.idempotency_keys (expires_at);

CREATE TABLE ledger.outbox (
  id           bigserial PRIMARY KEY,
  event_id     text NOT NULL UNIQUE,
  tx_id        text NOT NULL REFERENCES ledger.transactions (tx_id),
  sequence     integer NOT NULL CHECK (sequence > 0),
  event_type   text NOT NULL,
  -- payouts.events.v1.TransactionEvent, binary.
  payload      bytea NOT NULL,
  headers      jsonb NOT NULL DEFAULT '{}',
  created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  published_at timestamptz,
  UNIQUE (tx_id, sequence)
);

CREATE INDEX outbox_unpublished ON ledger.outbox (created_at, id) WHERE published_at IS NULL;

-- The single active outbox relay holds this lease (renewed while it runs; taken over once it expires).
CREATE TABLE ledger.relay_lease (
  name       text PRIMARY KEY,
  holder     text NOT NULL,
  expires_at timestamptz NOT NULL
);
