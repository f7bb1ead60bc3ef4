import type { ServiceImpl } from "@connectrpc/connect";
import type { WebhookService } from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import { createConfigHandlers } from "./config-handlers.js";
import { createDeliveryHandlers } from "./delivery-handlers.js";
import type { WebhookHandlerDeps } from "./webhook-handler-deps.js";

/** Every RPC of payouts.webhooks.v1.WebhookService. */
export function createWebhookHandlers(deps: WebhookHandlerDeps): ServiceImpl<typeof WebhookService> {
  return { ...createConfigHandlers(deps), ...createDeliveryHandlers(deps) };
}
