-- Four-eyes approvals: a money action on the admin API that needs a second operator is stored here as a
-- request and carried out only once another operator approves it. The request keeps the validated body it
-- will be carried out with, and, for a balance credit, the idempotency key and fingerprint the ledger gets
-- then, so that the ledger's exactly-once holds whoever approves and however often the execution is retried.
CREATE TABLE gateway.approval_requests (
  approval_id          text PRIMARY KEY,
  action               text NOT NULL CHECK (action IN ('BALANCE_CREDIT', 'REFUND', 'FORCE_FAIL')),
  partner_id           text,
  tx_id                text,
  amount_usd           text,
  request_body         jsonb NOT NULL,
  idempotency_key      text,
  request_fingerprint  text,
  requested_by_id      text NOT NULL,
  requested_by_name    text NOT NULL,
  requested_by_kind    text NOT NULL CHECK (requested_by_kind IN ('operator', 'machine')),
  created_at           timestamptz NOT NULL DEFAULT now(),
  expires_at           timestamptz NOT NULL,
  status               text NOT NULL DEFAULT 'PENDING'
                       CHECK (status IN ('PENDING', 'EXECUTING', 'APPROVED', 'REJECTED', 'EXPIRED')),
  decided_by_id        text,
  decided_by_name      text,
  decided_by_kind      text CHECK (decided_by_kind IN ('operator', 'machine')),
  decided_at           timestamptz,
  decision_reason      text,
  outcome              jsonb,
  executed_at          timestamptz,
  CHECK (expires_at > created_at),
  CHECK ((status = 'PENDING' OR status = 'EXPIRED') = (decided_at IS NULL)),
  CHECK ((status = 'APPROVED') = (outcome IS NOT NULL))
);

-- One request per credit idempotency key: the same key and body replay the request, another body is refused.
CREATE UNIQUE INDEX approval_requests_key_idx
  ON gateway.approval_requests (action, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- The inbox: requests of one status, newest first.
CREATE INDEX approval_requests_status_idx ON gateway.approval_requests (status, created_at DESC, approval_id);
