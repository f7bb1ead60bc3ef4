-- Whether the config was switched off by an operator (WebhookAdminService.SetConfigActive). A partner may
-- reactivate a receiver the dispatcher switched off, but not one an operator did.
ALTER TABLE webhooks.configs ADD COLUMN disabled_by_operator boolean NOT NULL DEFAULT false;
