/** Public entry point: every reason the lookup service answers with (its typed failure union). */
export { LOOKUP_REASONS, type LookupReason } from "./domain/types.js";
