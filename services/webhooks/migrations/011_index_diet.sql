-- Every index of webhooks.deliveries is written by each insert and each status change (a status change is
-- never a HOT update: `status` is in the partial indexes' predicates). deliveries_due_idx (pending rows by
-- due time, across configurations) is read by no statement any more: the claim reads pending rows per
-- configuration through deliveries_config_due_idx, and the operators' pending counts scan the pending rows,
-- which that index holds as well.
DROP INDEX IF EXISTS webhooks.deliveries_due_idx;
