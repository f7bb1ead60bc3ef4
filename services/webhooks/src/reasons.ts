/**
 * Public entry point: every reason the webhook service answers with (its typed failure union), and the
 * rejections its handlers throw, made from the one reason table (domain/result.ts).
 */
import { rejectionsFor } from "@payouts/platform/reasons/reason-rejections";
import { WEBHOOKS } from "./domain/result.js";

export { WEBHOOKS_REASONS, type WebhooksReason } from "./domain/result.js";

export const { rejection, valueOrReject, reject } = rejectionsFor(WEBHOOKS);
