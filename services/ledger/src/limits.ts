/** Public entry point: the ledger's bounds that callers document (the admin API's `maximum`). */
export { MAX_BALANCE_USD } from "./domain/balance-limit.js";
