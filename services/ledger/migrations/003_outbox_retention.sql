-- The retention job deletes published outbox rows in publication order, a batch at a time.
CREATE INDEX outbox_published_at ON ledger.outbox (published_at) WHERE published_at IS NOT NULL;
