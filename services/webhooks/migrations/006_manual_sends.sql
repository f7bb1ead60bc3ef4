-- Manual sends (test notifications and redeliveries).
-- Per-partner token buckets of test notifications and redeliveries, in the database so every dispatcher
-- replica enforces one limit per partner.
CREATE TABLE webhooks.rate_buckets (
  partner_id  text NOT NULL,
  action      text NOT NULL,
  tokens      double precision NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (partner_id, action)
);

-- A test notification is a delivery row too, so it goes through the same claim, caps and fair ranking as
-- every other; `test` rows make one attempt, never disable a config, are not in the delivery log, and are
-- deleted once the caller has read the answer (or after 10 minutes).
ALTER TABLE webhooks.deliveries ADD COLUMN kind text NOT NULL DEFAULT 'event' CHECK (kind IN ('event', 'test'));
CREATE INDEX deliveries_test_idx ON webhooks.deliveries (created_at) WHERE kind = 'test';
