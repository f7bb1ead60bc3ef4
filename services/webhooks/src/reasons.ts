/** Public entry point: every reason the webhook dispatcher answers with (its typed failure union). */
export { WEBHOOKS_REASONS, type WebhooksReason } from "./domain/result.js";
