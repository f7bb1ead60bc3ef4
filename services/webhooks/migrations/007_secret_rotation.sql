-- Signing-secret rotation: the secret a rotation replaced keeps signing beside the new
-- one until `previous_secret_expires_at`, then is dropped. Sealed like the current one (its own column in
-- the associated data), never returned.
ALTER TABLE webhooks.configs ADD COLUMN previous_secret_sealed text;
ALTER TABLE webhooks.configs ADD COLUMN previous_secret_expires_at timestamptz;
ALTER TABLE webhooks.configs ADD CONSTRAINT configs_previous_secret_check
  CHECK ((previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL));
