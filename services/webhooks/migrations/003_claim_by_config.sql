-- The claim takes, per configuration, its first due pending rows in (next_attempt_at, sequence) order:
-- this index serves that directly, whatever the size of the backlog.
CREATE INDEX deliveries_config_due_idx ON webhooks.deliveries (config_id, next_attempt_at, sequence)
  WHERE status = 'pending';
