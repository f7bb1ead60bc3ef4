-- Idempotency keys of operator credits. A key records what it did: the execution of
-- one transaction (executePayout) or one credit movement (CreditBalance), never both, never neither.
ALTER TABLE ledger.idempotency_keys ALTER COLUMN tx_id DROP NOT NULL;
ALTER TABLE ledger.idempotency_keys
  ADD COLUMN movement_id text REFERENCES ledger.movements (movement_id);
ALTER TABLE ledger.idempotency_keys
  ADD CONSTRAINT idempotency_keys_one_subject CHECK ((tx_id IS NULL) <> (movement_id IS NULL));
