-- Operator credit keys are kept for good: a retry of a credit, however late, must replay the first answer
-- rather than credit again. Their expires_at is NULL (never expires); executePayout keys keep expiring.
-- Credit keys still stored when this runs are kept from now on.
ALTER TABLE ledger.idempotency_keys ALTER COLUMN expires_at DROP NOT NULL;
UPDATE ledger.idempotency_keys SET expires_at = NULL WHERE movement_id IS NOT NULL;
ALTER TABLE ledger.idempotency_keys
  ADD CONSTRAINT idempotency_keys_credit_kept CHECK ((movement_id IS NOT NULL) = (expires_at IS NULL));
