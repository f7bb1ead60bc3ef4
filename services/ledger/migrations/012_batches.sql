-- Bulk payouts (src/batches): batches, their items, approvals and the durable work queue of validation
-- and fan-out; the partner's `reservation` account and the movements that fund and drain it.

-- The reservation: a sixth account per partner, never below zero like every partner-side account. Each
-- batch is a sub-ledger of it: the reservation entries of the movements that name the batch.
ALTER TABLE ledger.accounts DROP CONSTRAINT accounts_kind_check;
ALTER TABLE ledger.accounts ADD CONSTRAINT accounts_kind_check
  CHECK (kind IN ('balance', 'in_flight', 'settled', 'fees', 'funding', 'reservation'));
INSERT INTO ledger.accounts (partner_id, kind)
  SELECT partner_id, 'reservation' FROM ledger.accounts WHERE kind = 'balance'
  ON CONFLICT (partner_id, kind) DO NOTHING;

-- reserve (balance → reservation at approval), batch_payout (reservation → in_flight, one item's debit)
-- and release (reservation → balance at completion) name their batch.
ALTER TABLE ledger.movements ADD COLUMN batch_id text;
ALTER TABLE ledger.movements DROP CONSTRAINT movements_kind_check;
ALTER TABLE ledger.movements ADD CONSTRAINT movements_kind_check
  CHECK (kind IN ('credit', 'payout', 'settlement', 'reversal', 'refund', 'adjustment', 'reserve',
                  'batch_payout', 'release'));
ALTER TABLE ledger.movements DROP CONSTRAINT movements_check;
ALTER TABLE ledger.movements ADD CONSTRAINT movements_check
  CHECK ((kind IN ('credit', 'adjustment', 'reserve', 'release')) = (tx_id IS NULL));
ALTER TABLE ledger.movements ADD CONSTRAINT movements_batch
  CHECK ((kind IN ('reserve', 'batch_payout', 'release')) = (batch_id IS NOT NULL));
-- A transaction is debited once, from the balance or from a reservation, never both.
CREATE UNIQUE INDEX movements_one_debit_per_tx ON ledger.movements (tx_id)
  WHERE kind IN ('payout', 'batch_payout');
-- A batch is funded once and released once.
CREATE UNIQUE INDEX movements_reserve_once ON ledger.movements (batch_id) WHERE kind = 'reserve';
CREATE UNIQUE INDEX movements_release_once ON ledger.movements (batch_id) WHERE kind = 'release';
CREATE INDEX movements_batch ON ledger.movements (batch_id) WHERE batch_id IS NOT NULL;

-- A batch's transactions name their batch and item (their events carry both).
ALTER TABLE ledger.transactions ADD COLUMN batch_id text;
ALTER TABLE ledger.transactions ADD COLUMN item_ref text;
ALTER TABLE ledger.transactions ADD CONSTRAINT transactions_batch_item
  CHECK ((batch_id IS NULL) = (item_ref IS NULL));

CREATE TABLE ledger.batches (
  batch_id             text PRIMARY KEY,
  partner_id           text NOT NULL,
  status               text NOT NULL CHECK (status IN ('DRAFT', 'VALIDATING', 'VALIDATED', 'AWAITING_APPROVAL',
                         'PROCESSING', 'COMPLETED', 'CANCELLED', 'EXPIRED')),
  required_approvals   integer NOT NULL CHECK (required_approvals IN (1, 2)),
  name_mismatch_policy text NOT NULL CHECK (name_mismatch_policy IN ('EXCLUDE', 'INCLUDE')),
  content_sha256       text NOT NULL DEFAULT '' CHECK (content_sha256 = '' OR content_sha256 ~ '^[0-9a-f]{64}$'),
  source               text NOT NULL DEFAULT '',
  parent_batch_id      text REFERENCES ledger.batches (batch_id),
  cancel_reason        text NOT NULL DEFAULT '',
  -- Approvals count for the items as they are: changing items before funding starts a new round.
  approval_round       integer NOT NULL DEFAULT 1 CHECK (approval_round > 0),
  -- What approval moved into the reservation, and what completion returned to the balance.
  reserved_usd         numeric(38, 18) CHECK (reserved_usd > 0),
  -- The batch's share of the partner's reservation: Σ of the reservation entries of the movements naming the
  -- batch, kept by the entry trigger below like an account's balance. An item is paid only from what its own
  -- batch reserved: the CHECK refuses any movement that would take it below zero, at O(1) per item.
  held_usd             numeric(38, 18) NOT NULL DEFAULT 0 CHECK (held_usd >= 0),
  released_usd         numeric(38, 18) CHECK (released_usd >= 0),
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  validated_at         timestamptz,
  funded_at            timestamptz,
  completed_at         timestamptz,
  expires_at           timestamptz,
  CHECK ((status IN ('PROCESSING', 'COMPLETED')) = (funded_at IS NOT NULL)),
  CHECK ((funded_at IS NULL) = (reserved_usd IS NULL)),
  CHECK ((status = 'COMPLETED') = (completed_at IS NOT NULL)),
  CHECK ((completed_at IS NULL) = (released_usd IS NULL))
);

-- BATCH_DUPLICATE: one batch per partner and uploaded content.
CREATE UNIQUE INDEX batches_partner_content ON ledger.batches (partner_id, content_sha256)
  WHERE content_sha256 <> '';
CREATE INDEX batches_partner_created ON ledger.batches (partner_id, created_at DESC, batch_id DESC);
CREATE INDEX batches_expiring ON ledger.batches (expires_at) WHERE status IN ('VALIDATED', 'AWAITING_APPROVAL');

CREATE FUNCTION ledger.apply_batch_reservation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger.batches b SET held_usd = b.held_usd + NEW.amount
    FROM ledger.movements m
   WHERE m.movement_id = NEW.movement_id AND b.batch_id = m.batch_id;
  RETURN NEW;
END $$;

CREATE TRIGGER entries_batch_reservation AFTER INSERT ON ledger.entries
  FOR EACH ROW WHEN (NEW.kind = 'reservation') EXECUTE FUNCTION ledger.apply_batch_reservation();

CREATE TABLE ledger.batch_items (
  batch_id      text NOT NULL REFERENCES ledger.batches (batch_id),
  item_ref      text NOT NULL CHECK (length(item_ref) BETWEEN 1 AND 64),
  row_number    integer NOT NULL CHECK (row_number > 0),
  status        text NOT NULL CHECK (status IN ('VALIDATING', 'INVALID', 'EXCLUDED', 'PENDING', 'PROCESSING',
                  'SUCCESS', 'FAILED', 'REFUNDED', 'CANCELLED')),
  -- Bumped when the item is replaced: a validation of an older input no longer applies.
  version       integer NOT NULL DEFAULT 1,
  -- payouts.ledger.v1.BatchItemInput in proto JSON form.
  input         jsonb NOT NULL,
  error_code    text NOT NULL DEFAULT '',
  error_field   text NOT NULL DEFAULT '',
  error_message text NOT NULL DEFAULT '',
  verified_name text NOT NULL DEFAULT '',
  name_match    text NOT NULL DEFAULT 'UNSPECIFIED'
    CHECK (name_match IN ('UNSPECIFIED', 'NOT_CHECKED', 'MATCH', 'MISMATCH')),
  tx_id         text UNIQUE REFERENCES ledger.transactions (tx_id),
  -- amount_usd + fees of its quote: what funding reserves for it.
  total_usd     numeric(38, 18) CHECK (total_usd > 0),
  failure_reason text NOT NULL DEFAULT '',
  updated_at    timestamptz NOT NULL,
  PRIMARY KEY (batch_id, item_ref),
  UNIQUE (batch_id, row_number),
  CHECK ((status = 'INVALID') = (error_code <> '')),
  CHECK (status NOT IN ('PENDING', 'PROCESSING', 'SUCCESS', 'REFUNDED') OR (tx_id IS NOT NULL AND total_usd IS NOT NULL))
);

CREATE INDEX batch_items_status ON ledger.batch_items (batch_id, status);

-- One row per approval; a credential approves a round of a batch once. Append-only.
CREATE TABLE ledger.batch_approvals (
  batch_id    text NOT NULL REFERENCES ledger.batches (batch_id),
  round       integer NOT NULL,
  approver_id text NOT NULL CHECK (length(approver_id) BETWEEN 1 AND 255),
  approved_at timestamptz NOT NULL,
  PRIMARY KEY (batch_id, round, approver_id)
);

CREATE TRIGGER batch_approvals_append_only BEFORE UPDATE OR DELETE ON ledger.batch_approvals
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();

-- The durable work queue: one row per item still to validate or to pay. A worker claims due rows with
-- FOR UPDATE SKIP LOCKED and a lease; a row is deleted in the transaction that does its work, so a worker
-- that crashes leaves its rows to be claimed again once the lease expires.
CREATE TABLE ledger.batch_work (
  batch_id     text NOT NULL REFERENCES ledger.batches (batch_id),
  item_ref     text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('validate', 'execute')),
  -- The item version a validation is for.
  version      integer NOT NULL DEFAULT 1,
  attempts     integer NOT NULL DEFAULT 0,
  available_at timestamptz NOT NULL,
  lease_until  timestamptz,
  last_error   text NOT NULL DEFAULT '',
  PRIMARY KEY (batch_id, item_ref, kind)
);

CREATE INDEX batch_work_due ON ledger.batch_work (kind, available_at);

-- CreateBatch and RetryFailedItems keys record the batch they created.
ALTER TABLE ledger.idempotency_keys ADD COLUMN batch_id text REFERENCES ledger.batches (batch_id);
ALTER TABLE ledger.idempotency_keys DROP CONSTRAINT idempotency_keys_one_subject;
ALTER TABLE ledger.idempotency_keys
  ADD CONSTRAINT idempotency_keys_one_subject CHECK (num_nonnulls(tx_id, movement_id, batch_id) = 1);
