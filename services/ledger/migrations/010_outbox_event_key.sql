-- Outbox events that announce something other than a payout transaction (a closed statement day): such a
-- row has no tx_id and carries its own ordering key, event_key, used as the bus key and, with sequence,
-- for uniqueness. Transaction rows keep tx_id (its foreign key and UNIQUE (tx_id, sequence) unchanged)
-- and have no event_key; every existing row is one of those.
ALTER TABLE ledger.outbox ALTER COLUMN tx_id DROP NOT NULL;
ALTER TABLE ledger.outbox ADD COLUMN event_key text;
ALTER TABLE ledger.outbox ADD CONSTRAINT outbox_one_key CHECK ((tx_id IS NULL) <> (event_key IS NULL));
ALTER TABLE ledger.outbox ADD CONSTRAINT outbox_event_key_sequence UNIQUE (event_key, sequence);
