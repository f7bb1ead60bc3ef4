-- A payout the ledger gave up submitting is cancelled (CancelPayout): when the rail never had it, a row
-- is stored for it anyway, cancelled, so that a submission still on its way is refused rather than paid
-- after the ledger reversed the debit. The primary key on tx_id makes "cancel" and "submit" of one payout
-- exclusive: whichever row is inserted first decides. A cancelled row never reports a callback.
ALTER TABLE rail.submissions ADD COLUMN cancelled_at timestamptz;
ALTER TABLE rail.submissions
  ADD CONSTRAINT submissions_cancelled_silent
  CHECK (cancelled_at IS NULL OR (next_callback_at IS NULL AND delivered_at IS NULL));
