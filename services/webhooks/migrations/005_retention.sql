-- The retention job finds delivered deliveries by delivery time and consumed events by consumption time.
CREATE INDEX deliveries_delivered_at_idx ON webhooks.deliveries (delivered_at) WHERE status = 'delivered';
CREATE INDEX processed_events_processed_at_idx ON webhooks.processed_events (processed_at);
