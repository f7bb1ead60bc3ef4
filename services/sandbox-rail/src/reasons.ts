/**
 * Public entry point: every reason the sandbox rail answers with (its typed failure union), and the
 * rejections its handlers throw, made from the one reason table (domain/rail-reasons.ts).
 */
import { rejectionsFor } from "@payouts/platform/reasons/reason-rejections";
import { RAIL } from "./domain/rail-reasons.js";

export { RAIL_REASONS, type RailReason } from "./domain/rail-reasons.js";

export const { rejection, reject } = rejectionsFor(RAIL);
