/** Public entry point: every reason the sandbox rail answers with (its typed failure union). */
export { RAIL_REASONS, type RailReason } from "./domain/rail-reasons.js";
