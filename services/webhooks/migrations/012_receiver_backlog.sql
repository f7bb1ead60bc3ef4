-- Receiver health (WebhookAdminService.ListReceiverHealth and the backlog gauges): per configuration, the
-- size of its backlog and the age of its oldest pending row. Both are read from this index alone (count and
-- min of the leading entries of one config_id), so a receiver with 200,000 pending rows costs one index
-- range, never a scan of the table. The claim's (config_id, next_attempt_at, sequence) index cannot answer
-- the age: created_at is not in it.
CREATE INDEX deliveries_config_pending_age_idx ON webhooks.deliveries (config_id, created_at)
  WHERE status = 'pending';
-- Attempts in flight per configuration. Rows are 'delivering' only for the length of one attempt, so this
-- index stays as small as the number of attempts in flight.
CREATE INDEX deliveries_config_delivering_idx ON webhooks.deliveries (config_id) WHERE status = 'delivering';
