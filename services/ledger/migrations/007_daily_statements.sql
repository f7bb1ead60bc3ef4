-- Daily statements (docs/decisions/0031-daily-statements.md). The operator sets each partner's time zone;
-- a partner without a row uses UTC.
CREATE TABLE ledger.statement_settings (
  partner_id text PRIMARY KEY,
  time_zone  text NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per closed day of a partner, consecutive from its first closed day on (empty days included).
-- A closed day is never changed: the summary and hash are frozen when it closes.
CREATE TABLE ledger.statement_days (
  statement_id    text PRIMARY KEY,
  partner_id      text NOT NULL,
  day             date NOT NULL,
  revision        integer NOT NULL CHECK (revision > 0),
  time_zone       text NOT NULL,
  period_start    timestamptz NOT NULL,
  period_end      timestamptz NOT NULL CHECK (period_end > period_start),
  opening_balance numeric(38, 18) NOT NULL,
  closing_balance numeric(38, 18) NOT NULL,
  line_count      integer NOT NULL CHECK (line_count >= 0),
  total_debits    numeric(38, 18) NOT NULL CHECK (total_debits >= 0),
  total_credits   numeric(38, 18) NOT NULL CHECK (total_credits >= 0),
  sha256          text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  -- The feed watermark the membership was taken below: with period_end it bounds where entries no closed
  -- day holds can be (xid >= watermark or created_at >= period_end).
  watermark       xid8 NOT NULL,
  closed_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (partner_id, day, revision),
  CHECK (closing_balance = opening_balance + total_credits - total_debits)
);

-- Which entries a closed day holds. An entry belongs to at most one closed day (the primary key), so a
-- late entry can only post on a day still open.
CREATE TABLE ledger.statement_day_entries (
  entry_id     bigint PRIMARY KEY REFERENCES ledger.entries (entry_id),
  statement_id text NOT NULL REFERENCES ledger.statement_days (statement_id) DEFERRABLE INITIALLY DEFERRED
);

CREATE INDEX statement_day_entries_statement ON ledger.statement_day_entries (statement_id);

-- Membership is written only while its day closes, before the day's row (the closer inserts both in one
-- transaction): an entry cannot be added to a day already closed, whose lines and hash are frozen.
CREATE FUNCTION ledger.reject_entry_of_closed_day() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM ledger.statement_days d WHERE d.statement_id = NEW.statement_id) THEN
    RAISE EXCEPTION 'statement % is closed', NEW.statement_id USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER statement_day_entries_open_day_only BEFORE INSERT ON ledger.statement_day_entries
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_entry_of_closed_day();

CREATE TRIGGER statement_days_append_only BEFORE UPDATE OR DELETE ON ledger.statement_days
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();
CREATE TRIGGER statement_day_entries_append_only BEFORE UPDATE OR DELETE ON ledger.statement_day_entries
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();

-- The closer's search for a partner's entries by time.
CREATE INDEX entries_balance_created ON ledger.entries (partner_id, created_at) WHERE kind = 'balance';
