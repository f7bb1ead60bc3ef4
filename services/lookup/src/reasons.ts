/**
 * Public entry point: every reason the lookup service answers with (its typed failure union), and the
 * rejections its handlers throw, made from the one reason table (domain/types.ts).
 */
import { rejectionsFor } from "@payouts/platform/reasons/reason-rejections";
import { LOOKUP } from "./domain/types.js";

export { LOOKUP_REASONS, type LookupReason } from "./domain/types.js";

export const { rejection, valueOrReject, reject } = rejectionsFor(LOOKUP);
