-- Two fewer indexes on webhooks.deliveries. Each insert and each status change writes a new entry in every
-- index of the table (a status change is never a HOT update: `status` is in the partial indexes'
-- predicates), so each index costs every delivery two or three index writes.
--
-- Pending rows per configuration: one index instead of two. The claim reads a configuration's first due rows
-- in (next_attempt_at, sequence) order from deliveries_config_due_idx; the (config_id, created_at) index of
-- 012 was an alternative the planner could pick for that read, and then every pending row of the receiver
-- was read and sorted by each claim (a prepared claim keeps the plan chosen while the table was small). The
-- receiver health's backlog and oldest pending row are now read from the claim's index, which carries
-- created_at for them: still one index range per configuration, never a scan of the table.
DROP INDEX IF EXISTS webhooks.deliveries_config_pending_age_idx;
DROP INDEX IF EXISTS webhooks.deliveries_config_due_idx;
CREATE INDEX deliveries_config_due_idx ON webhooks.deliveries (config_id, next_attempt_at, sequence)
  INCLUDE (created_at) WHERE status = 'pending';
-- Claims in flight: one index instead of two. It serves the count of a configuration's live claims (by
-- config_id, then lease), the per-partner count of the claim and the release of expired leases (a full read
-- of an index as small as the number of attempts in flight).
DROP INDEX IF EXISTS webhooks.deliveries_lease_idx;
DROP INDEX IF EXISTS webhooks.deliveries_config_delivering_idx;
CREATE INDEX deliveries_config_delivering_idx ON webhooks.deliveries (config_id, lease_expires_at)
  WHERE status = 'delivering';
