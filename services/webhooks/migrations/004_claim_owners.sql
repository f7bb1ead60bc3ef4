-- Abandoned claims are recovered within seconds. Every dispatcher process registers
-- itself and renews `alive_until` about every second; each claim names its process. A claim whose process
-- stopped renewing (killed, frozen, cut off from the database) is released long before its lease, which
-- stays the hard bound (attempt timeout + 2 s). Both times are the database's clock, so the clocks of
-- the dispatcher hosts never matter. Rows claimed before this migration have no owner: lease only.
ALTER TABLE webhooks.deliveries ADD COLUMN claimed_by text;

CREATE TABLE webhooks.workers (
  worker_id    text PRIMARY KEY,
  started_at   timestamptz NOT NULL DEFAULT statement_timestamp(),
  alive_until  timestamptz NOT NULL
);
