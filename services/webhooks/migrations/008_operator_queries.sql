-- Operators' reads across partners (WebhookAdminService): dead deliveries, newest first. Dead rows are
-- few, so this partial index costs the delivery path nothing until a row dies.
CREATE INDEX deliveries_dead_idx ON webhooks.deliveries (delivery_id DESC) WHERE status = 'dead';
