-- The sandbox rail's own state: every accepted payout and the callback that reports its outcome. Kept in
-- PostgreSQL so a restart neither forgets an accepted payout nor drops a callback still to be delivered.
CREATE TABLE rail.submissions (
  tx_id                    text PRIMARY KEY,
  provider_reference       text NOT NULL UNIQUE,
  country_code             text NOT NULL,
  currency                 text NOT NULL,
  amount                   text NOT NULL,
  destination_type         text NOT NULL,
  payment_destination      text NOT NULL,
  payment_destination_code text NOT NULL,
  -- The outcome the sandbox will report (decided at submission; an operator may force another before
  -- it is delivered).
  outcome                  text NOT NULL CHECK (outcome IN ('SUCCESS', 'FAILED')),
  reason                   text NOT NULL DEFAULT '',
  -- When the callback is due; NULL while auto-settlement is off and nobody forced an outcome.
  next_callback_at         timestamptz,
  callback_attempts        integer NOT NULL DEFAULT 0,
  last_callback_error      text NOT NULL DEFAULT '',
  delivered_at             timestamptz,
  created_at               timestamptz NOT NULL
);

CREATE INDEX submissions_due ON rail.submissions (next_callback_at) WHERE delivered_at IS NULL;
