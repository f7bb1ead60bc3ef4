-- Sandbox only: discrepancies an operator planted into one day's settlement records
-- (InjectSettlementDiscrepancy), applied in the order they were planted when the records are listed. The
-- submissions themselves are never changed, so a discrepancy alters what the rail reports, not what it did.
CREATE TABLE rail.settlement_discrepancies (
  discrepancy_id text PRIMARY KEY,
  day            date NOT NULL,
  kind           text NOT NULL
    CHECK (kind IN ('DROP_RECORD', 'CHANGE_AMOUNT', 'ADD_UNKNOWN_RECORD', 'DUPLICATE_RECORD', 'FLIP_STATUS')),
  tx_id          text NOT NULL,
  amount         text NOT NULL DEFAULT '',
  currency       text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL
);

CREATE INDEX settlement_discrepancies_day ON rail.settlement_discrepancies (day, created_at);
-- The records of a day are the submissions accepted that day.
CREATE INDEX submissions_created ON rail.submissions (created_at);
