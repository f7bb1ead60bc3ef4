-- Registered senders of each partner. The gateway owns partners; lookup keeps only their id. Every read
-- is scoped by partner_id, so another partner's customer_id answers "not found".

CREATE TABLE lookup.customers (
  customer_id text PRIMARY KEY,
  partner_id text NOT NULL,
  name_first text NOT NULL CHECK (char_length(name_first) BETWEEN 1 AND 100),
  name_last text NOT NULL CHECK (char_length(name_last) BETWEEN 1 AND 100),
  -- ISO 3166-1 alpha-2, upper case.
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  -- Optional fields hold '' when absent; ic_type and ic_number are set together.
  ic_type text NOT NULL DEFAULT '',
  ic_number text NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '' CHECK (phone = '' OR phone ~ '^\+[1-9][0-9]{7,14}$'),
  email text NOT NULL DEFAULT '',
  external_reference text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((ic_type = '') = (ic_number = ''))
);
