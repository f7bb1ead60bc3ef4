-- Webhook dispatcher: partner receivers, one delivery per (event, receiver), and every attempt made.

CREATE TABLE webhooks.configs (
  config_id           text PRIMARY KEY,
  -- The gateway owns partners; the dispatcher keys its rows by the same id.
  partner_id          text NOT NULL,
  -- Base URL, normalised without a trailing slash; /webhooks/transactions/<kind> is appended.
  url                 text NOT NULL,
  -- transaction.success | transaction.refunded | transaction.failed, or '*' alone.
  events              text[] NOT NULL CHECK (cardinality(events) > 0),
  active              boolean NOT NULL DEFAULT true,
  -- Why the dispatcher switched the receiver off (410 Gone); cleared when the partner reactivates it.
  disabled_reason     text,
  -- Secret and basic-auth password are sealed (AES-256-GCM, see secret-box.ts), never stored in clear.
  secret_sealed       text,
  basic_auth_username text,
  basic_auth_sealed   text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK ((basic_auth_username IS NULL) = (basic_auth_sealed IS NULL))
);

CREATE INDEX configs_partner_idx ON webhooks.configs (partner_id, created_at);

-- Inbox: an event id seen once is never turned into deliveries again, even for receivers created later.
CREATE TABLE webhooks.processed_events (
  event_id      text PRIMARY KEY,
  event_type    text NOT NULL,
  tx_id         text NOT NULL,
  processed_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhooks.deliveries (
  delivery_id       text PRIMARY KEY,
  event_id          text NOT NULL,
  config_id         text NOT NULL REFERENCES webhooks.configs (config_id) ON DELETE CASCADE,
  partner_id        text NOT NULL,
  tx_id             text NOT NULL,
  -- Per-transaction event sequence from the ledger; orders deliveries of one (tx, config).
  sequence          bigint NOT NULL,
  event_type        text NOT NULL,
  -- The exact bytes signed and sent, built once when the row is stored.
  body              bytea NOT NULL,
  status            text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'delivering', 'delivered', 'dead')),
  -- Attempts started, manual redeliveries included; also the X-<BRAND>-Attempt of the last one.
  attempts          integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at   timestamptz NOT NULL,
  -- While 'delivering': when a worker that died mid-attempt is presumed gone and the row is retried.
  lease_expires_at  timestamptz,
  last_status_code  integer,
  last_error        text,
  delivered_at      timestamptz,
  -- The receiver's answer to the last attempt, at most 20 KB (refunds: {received, message}).
  response_body     text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, config_id)
);

-- Due work, and the ordering predicate's lookup of earlier events of the same (config, tx).
CREATE INDEX deliveries_due_idx ON webhooks.deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_order_idx ON webhooks.deliveries (config_id, tx_id, sequence);
CREATE INDEX deliveries_partner_idx ON webhooks.deliveries (partner_id, created_at DESC);
CREATE INDEX deliveries_lease_idx ON webhooks.deliveries (lease_expires_at) WHERE status = 'delivering';

CREATE TABLE webhooks.delivery_attempts (
  delivery_id   text NOT NULL REFERENCES webhooks.deliveries (delivery_id) ON DELETE CASCADE,
  attempt       integer NOT NULL CHECK (attempt > 0),
  -- 0 when no HTTP status arrived (refused address, DNS, connect error, timeout).
  status_code   integer NOT NULL DEFAULT 0,
  error         text,
  latency_ms    integer NOT NULL CHECK (latency_ms >= 0),
  at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (delivery_id, attempt)
);

-- Only used when WEBHOOK_SECRET_KEY is unset: a generated sealing key kept beside the data it seals.
-- That protects nothing against a reader of the database; it keeps one storage format in every mode.
CREATE TABLE webhooks.sealing_keys (
  key_id      text PRIMARY KEY,
  key_base64  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
