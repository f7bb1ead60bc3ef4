/** Public entry point: the reconciliation break types, which the admin API and the console list. */
export { BREAK_TYPES } from "./domain/break-types.js";
