-- Observability: the trace context of the consumed event (each delivery attempt is a span of the
-- transaction's trace) and when the event happened (end-to-end latency up to the receiver's 2xx).
-- Both stay NULL on rows stored before this migration.
ALTER TABLE webhooks.deliveries ADD COLUMN traceparent text;
ALTER TABLE webhooks.deliveries ADD COLUMN event_occurred_at timestamptz;
