/** Public entry point: every reason the ledger answers with (its typed failure union). */
export { LEDGER_REASONS, type LedgerReason } from "./domain/ledger-failure.js";
