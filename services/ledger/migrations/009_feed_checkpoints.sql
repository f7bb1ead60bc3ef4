-- Checkpoints of the statement feed: the sum of a partner's balance entries strictly before a feed
-- position (xid, entry_id). A position below the snapshot watermark is final (no entry can still appear
-- before it), so a checkpoint there never changes. The feed starts each page's running balance from the
-- nearest checkpoint at or before the page instead of summing the partner's whole history, and records a
-- new one when that sum has grown past a fixed number of entries.
CREATE TABLE ledger.feed_checkpoints (
  partner_id text NOT NULL,
  xid xid8 NOT NULL,
  entry_id bigint NOT NULL,
  balance_before numeric NOT NULL,
  PRIMARY KEY (partner_id, xid, entry_id)
);
