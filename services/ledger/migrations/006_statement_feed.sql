-- Statement lines are the entries of a partner's `balance` account. Each entry records the id of the
-- database transaction that inserted it: the feed serves only entries whose transaction id is below the
-- reader's snapshot xmin (every transaction below it has ended, so nothing can still appear there), in
-- (xid, entry_id) order. Entry ids and timestamps are drawn before commit and become visible out of
-- order; this position never does. Entries that exist when this runs all get this migration's id.
ALTER TABLE ledger.entries ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX entries_feed ON ledger.entries (partner_id, kind, xid, entry_id) INCLUDE (amount);
