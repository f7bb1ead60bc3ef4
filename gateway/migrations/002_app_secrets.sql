-- Client secret rotation: an app holds up to two active secrets (the gateway enforces the limit), so a
-- partner can move to a new secret before the old one is revoked. Every secret is a scrypt hash only.
-- The existing secret of each app moves here, keeping its creation time; apps.secret_hash goes away.
CREATE TABLE gateway.app_secrets (
  secret_id    text PRIMARY KEY,
  client_id    text NOT NULL REFERENCES gateway.apps (client_id),
  secret_hash  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);

CREATE INDEX app_secrets_client_idx ON gateway.app_secrets (client_id, created_at DESC);

INSERT INTO gateway.app_secrets (secret_id, client_id, secret_hash, created_at)
SELECT 'sec_' || replace(gen_random_uuid()::text, '-', ''), client_id, secret_hash, created_at
FROM gateway.apps;

ALTER TABLE gateway.apps DROP COLUMN secret_hash;
