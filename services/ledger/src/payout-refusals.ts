/** Public entry point: executePayout's refusals in precedence order, which the API documents. */
export { PAYOUT_REFUSAL_ORDER, STORED_PAYOUT_REFUSALS } from "./domain/payout-execution.js";
