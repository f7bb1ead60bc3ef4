-- Partners and their API apps (client credentials). Secrets are stored as scrypt hashes only.
CREATE TABLE gateway.partners (
  partner_id  text PRIMARY KEY,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE gateway.apps (
  client_id                      text PRIMARY KEY,
  partner_id                     text NOT NULL REFERENCES gateway.partners (partner_id),
  secret_hash                    text NOT NULL,
  preview_rate_limit_per_minute  integer NOT NULL CHECK (preview_rate_limit_per_minute > 0),
  created_at                     timestamptz NOT NULL DEFAULT now(),
  revoked_at                     timestamptz
);

CREATE INDEX apps_partner_idx ON gateway.apps (partner_id);
