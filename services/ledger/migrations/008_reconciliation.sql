-- Reconciliation against the rail: each run compares one rail's settlement records of a UTC day with the
-- ledger's payouts of that day and opens a break per disagreement. A break is unique per
-- (rail, day, type, key): running a day again — or two replicas running it at once — opens nothing new,
-- and a resolved break stays resolved. Resolutions are the operator's word on a break, written once.
CREATE TABLE ledger.reconciliation_runs (
  run_id         text PRIMARY KEY,
  rail           text NOT NULL,
  day            date NOT NULL,
  status         text NOT NULL CHECK (status IN ('RUNNING', 'COMPLETED', 'FAILED')),
  -- Who started it: "scheduler" or the operator's name.
  started_by     text NOT NULL,
  rail_records   integer NOT NULL DEFAULT 0,
  ledger_payouts integer NOT NULL DEFAULT 0,
  -- Breaks the run found, and those of them that were new (not already open or resolved).
  breaks_found   integer NOT NULL DEFAULT 0,
  breaks_opened  integer NOT NULL DEFAULT 0,
  error          text NOT NULL DEFAULT '',
  started_at     timestamptz NOT NULL,
  finished_at    timestamptz,
  CHECK ((status = 'RUNNING') = (finished_at IS NULL))
);

CREATE INDEX reconciliation_runs_day ON ledger.reconciliation_runs (rail, day, started_at DESC);

CREATE TABLE ledger.reconciliation_breaks (
  break_id       text PRIMARY KEY,
  rail           text NOT NULL,
  day            date NOT NULL,
  type           text NOT NULL CHECK (type IN (
    'missing_at_rail', 'missing_in_ledger', 'amount_mismatch', 'status_mismatch', 'duplicate_at_rail'
  )),
  -- The tx_id, or the rail's reference for a record the ledger does not know.
  key            text NOT NULL,
  tx_id          text NOT NULL DEFAULT '',
  rail_reference text NOT NULL DEFAULT '',
  -- Local amounts; the rail's as it wrote it (it may not even be a number).
  ledger_amount  numeric(38, 18),
  rail_amount    text,
  currency       text NOT NULL DEFAULT '',
  ledger_status  text NOT NULL DEFAULT '',
  rail_status    text NOT NULL DEFAULT '',
  detail         text NOT NULL DEFAULT '',
  -- The run that opened it.
  run_id         text NOT NULL REFERENCES ledger.reconciliation_runs (run_id),
  opened_at      timestamptz NOT NULL,
  CONSTRAINT reconciliation_break_once UNIQUE (rail, day, type, key)
);

CREATE INDEX reconciliation_breaks_day ON ledger.reconciliation_breaks (rail, day, break_id);

CREATE TABLE ledger.reconciliation_resolutions (
  break_id    text PRIMARY KEY REFERENCES ledger.reconciliation_breaks (break_id),
  note        text NOT NULL CHECK (length(note) > 0),
  resolved_by text NOT NULL,
  resolved_at timestamptz NOT NULL
);

-- The ledger's payouts of a day are those whose rail acceptance it noted that day.
CREATE INDEX transactions_rail_submitted ON ledger.transactions (rail_submitted_at)
  WHERE rail_submitted_at IS NOT NULL;
