-- Restatements (docs/decisions/0031-daily-statements.md): an operator correction of a closed day posts an
-- `adjustment` movement (like a credit, signed, no transaction) and stores a new revision of the day that
-- names the revision it restates. The original stays as it was closed.
ALTER TABLE ledger.movements DROP CONSTRAINT movements_kind_check;
ALTER TABLE ledger.movements ADD CONSTRAINT movements_kind_check
  CHECK (kind IN ('credit', 'payout', 'settlement', 'reversal', 'refund', 'adjustment'));
ALTER TABLE ledger.movements DROP CONSTRAINT movements_check;
ALTER TABLE ledger.movements ADD CONSTRAINT movements_check
  CHECK ((kind IN ('credit', 'adjustment')) = (tx_id IS NULL));

-- The statement id of the original day a later revision restates (null on revision 1).
ALTER TABLE ledger.statement_days ADD COLUMN restates text REFERENCES ledger.statement_days (statement_id);
ALTER TABLE ledger.statement_days ADD CONSTRAINT statement_days_restates
  CHECK ((revision = 1) = (restates IS NULL));

-- The lines of a revision after the first: the entries of the revision it follows and its adjustment's
-- entry. An entry may be in several revisions of one day, so the key is the pair.
CREATE TABLE ledger.statement_revision_entries (
  statement_id text NOT NULL REFERENCES ledger.statement_days (statement_id) DEFERRABLE INITIALLY DEFERRED,
  entry_id     bigint NOT NULL REFERENCES ledger.entries (entry_id),
  PRIMARY KEY (statement_id, entry_id)
);

CREATE TRIGGER statement_revision_entries_open_day_only BEFORE INSERT ON ledger.statement_revision_entries
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_entry_of_closed_day();
CREATE TRIGGER statement_revision_entries_append_only BEFORE UPDATE OR DELETE
  ON ledger.statement_revision_entries FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();
