-- The claims count each configuration's live claims (status 'delivering'). Without this index, a table
-- not yet analyzed (a fresh database filling up, as in the bench's first minute) got a plan that read
-- every row of the configuration through deliveries_order_idx (config_id, tx_id, sequence) and its
-- heap, delivered and dead versions included: claim statements of 1.6-3.3 s while the backlog grew, until
-- autovacuum's first ANALYZE. Only rows in flight are in this index, so the count costs the same with any
-- statistics and any table size.
CREATE INDEX deliveries_inflight_idx ON webhooks.deliveries (config_id, lease_expires_at)
  WHERE status = 'delivering';

-- Due pending rows are only ever looked for per configuration (deliveries_config_due_idx). With
-- statistics taken while almost nothing was pending, the planner read every configuration's candidates
-- through this index instead, filtering all due rows by config_id (20,000 rows and 90,000 buffer hits per
-- claim at a 20,000-row backlog, so the backlog fed itself); without it that plan does not exist.
DROP INDEX webhooks.deliveries_due_idx;

-- A work queue: every row is updated twice (claim, record) soon after it is inserted. Vacuum and
-- analyze it after 1,000 changed rows plus 2 % (defaults: 50 + 10 % / 50 + 20 %), so dead versions and
-- statistics do not lag a growing backlog.
ALTER TABLE webhooks.deliveries SET (
  autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_analyze_threshold = 1000, autovacuum_analyze_scale_factor = 0.02
);
