-- Receiver health. Each configuration is one receiver with its own circuit breaker and an operator's pause.
--
-- circuit_state: 'closed' (deliver normally), 'open' (the receiver refused, timed out or failed
-- `circuit_failures` attempts in a row: nothing is attempted until `circuit_retry_at`), 'half_open' (one probe
-- attempt is in flight; its answer closes or re-opens the circuit). While open or paused, a receiver's rows
-- stay pending without consuming attempts, claims or database work.
ALTER TABLE webhooks.configs ADD COLUMN paused boolean NOT NULL DEFAULT false;
ALTER TABLE webhooks.configs ADD COLUMN circuit_state text NOT NULL DEFAULT 'closed'
  CHECK (circuit_state IN ('closed', 'open', 'half_open'));
-- Consecutive failed attempts (no answer, timeout, 5xx) since the last answer that counted as success.
ALTER TABLE webhooks.configs ADD COLUMN circuit_failures integer NOT NULL DEFAULT 0 CHECK (circuit_failures >= 0);
-- When the circuit last opened (NULL while closed) and when it may next be probed (while open or half-open).
ALTER TABLE webhooks.configs ADD COLUMN circuit_opened_at timestamptz;
ALTER TABLE webhooks.configs ADD COLUMN circuit_retry_at timestamptz;
ALTER TABLE webhooks.configs ADD CONSTRAINT configs_circuit_check
  CHECK ((circuit_state = 'closed') = (circuit_retry_at IS NULL));
