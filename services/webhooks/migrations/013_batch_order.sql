-- batch.completed after its items' events (ordering.ts `batchCompletedHold`).
--
-- The batch an item event belongs to (TransactionEvent.batch_id), on that event's deliveries only; NULL on
-- every other row, batch.completed's own included (its tx_id is the batch id).
ALTER TABLE webhooks.deliveries ADD COLUMN batch_id text;

-- The claim's check for a batch.completed row: does any delivery of an item event of that batch still wait
-- or is it in flight? One probe of this index, which holds only those rows (a handful per batch in flight,
-- none once its items are delivered or dead).
CREATE INDEX deliveries_batch_open_idx ON webhooks.deliveries (batch_id)
  WHERE batch_id IS NOT NULL AND status IN ('pending', 'delivering');

-- Per batch, what the intake has seen: how many of its items' final transaction events (transaction.success
-- or transaction.failed carrying the batch id, counted once per event id) and, from batch.completed, how
-- many there are to see (BatchEvent.executed_items). Item events are keyed by tx id and the batch event by
-- batch id, so they travel on different partitions and either may be consumed first: batch.completed is
-- held while items_final < items_expected. Counted whether or not any configuration receives item events.
CREATE TABLE webhooks.batch_tallies (
  batch_id        text PRIMARY KEY,
  items_expected  integer CHECK (items_expected >= 0),
  items_final     integer NOT NULL DEFAULT 0 CHECK (items_final >= 0),
  updated_at      timestamptz NOT NULL
);
