-- Named operators of the admin API and their credentials.
-- operators: people, signed in with a password (argon2id hash) and a TOTP code (secret sealed with
-- AES-256-GCM), or through the OpenID Connect provider (oidc_subject); a role each.
CREATE TABLE gateway.operators (
  operator_id         text PRIMARY KEY,
  username            text NOT NULL UNIQUE CHECK (username ~ '^[a-z0-9][a-z0-9._@-]{0,99}$'),
  role                text NOT NULL CHECK (role IN ('viewer', 'operator', 'finance', 'admin')),
  password_hash       text,
  totp_secret_sealed  text,
  -- The TOTP time step of the last accepted code: a code is accepted once.
  totp_last_step      bigint,
  oidc_subject        text UNIQUE,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  disabled_at         timestamptz
);

-- Server-side sessions: the cookie carries a random id, the table only its SHA-256. A session is rotated
-- (a new id issued, the old one ended) on sign-in and periodically; sign-out ends it.
CREATE TABLE gateway.operator_sessions (
  session_hash  text PRIMARY KEY,
  operator_id   text NOT NULL REFERENCES gateway.operators (operator_id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  rotated_at    timestamptz,
  ended_at      timestamptz,
  id_token_hint text
);

CREATE INDEX operator_sessions_operator_idx ON gateway.operator_sessions (operator_id);

-- Named bearer tokens for scripts: the token is random, shown once, stored as its SHA-256.
CREATE TABLE gateway.machine_credentials (
  credential_id  text PRIMARY KEY,
  name           text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9._-]{0,99}$'),
  role           text NOT NULL CHECK (role IN ('viewer', 'operator', 'finance', 'admin')),
  token_hash     text NOT NULL UNIQUE,
  created_at     timestamptz NOT NULL DEFAULT now(),
  revoked_at     timestamptz
);

-- OpenID Connect sign-ins under way: the state, nonce and PKCE verifier of each, used once.
CREATE TABLE gateway.oidc_logins (
  state          text PRIMARY KEY,
  nonce          text NOT NULL,
  code_verifier  text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL
);

-- The key TOTP secrets are sealed with when OPERATOR_SECRET_KEY is not set (generated on first use).
CREATE TABLE gateway.sealing_keys (
  key_id      text PRIMARY KEY,
  key_base64  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
