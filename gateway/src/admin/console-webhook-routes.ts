/**
 * Operators' webhook routes across partners (issue 15): the delivery log with every attempt, manual
 * redelivery, and switching a receiver off and on. Secrets are never answered (console-render.ts).
 *
 * A disabled config gets no new deliveries (events while it is off are not queued for it) and its pending
 * deliveries wait, never attempted and never declared dead, until it is enabled again; then they are sent
 * in order. Redelivering to a disabled config is refused (409 WEBHOOK_CONFIG_INACTIVE).
 */
import type { FastifyInstance } from "fastify";
import type { GatewayDeps } from "../gateway-deps.js";
import { missingField } from "../http/api-error.js";
import { BodyReader } from "../http/body-reader.js";
import { ID_PATTERN, QueryReader } from "./console-query.js";
import { renderConfig, renderDelivery } from "./console-render.js";

const DELIVERY_STATUSES = ["pending", "delivering", "delivered", "dead"] as const;
const EVENT_TYPES = ["transaction.success", "transaction.refunded", "transaction.failed"] as const;

export function registerConsoleWebhookRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { webhooksAdmin } = deps.clients;

  app.get("/admin/webhook-deliveries", async (request) => {
    const q = new QueryReader(request.query, [
      "status",
      "event_type",
      "partner_id",
      "tx_id",
      "config_id",
      "limit",
      "cursor",
    ]);
    const res = await webhooksAdmin.searchDeliveries({
      status: q.oneOf("status", DELIVERY_STATUSES) ?? "",
      eventType: q.oneOf("event_type", EVENT_TYPES) ?? "",
      partnerId: q.string("partner_id", { pattern: ID_PATTERN }) ?? "",
      txId: q.string("tx_id", { pattern: ID_PATTERN }) ?? "",
      configId: q.string("config_id", { pattern: ID_PATTERN }) ?? "",
      limit: q.limit(),
      cursor: q.cursor(),
    });
    return { deliveries: res.deliveries.map(renderDelivery), next_cursor: res.nextCursor || null };
  });

  app.post<{ Params: { delivery_id: string } }>(
    "/admin/webhook-deliveries/:delivery_id/redeliver",
    async (request) => {
      const res = await webhooksAdmin.redeliverDelivery({ deliveryId: request.params.delivery_id });
      if (!res.delivery) throw new Error("dispatcher answered no delivery");
      return renderDelivery(res.delivery);
    },
  );

  app.get("/admin/webhook-configs", async (request) => {
    const q = new QueryReader(request.query, ["partner_id", "enabled", "limit", "cursor"]);
    const enabled = q.boolean("enabled");
    const res = await webhooksAdmin.searchConfigs({
      partnerId: q.string("partner_id", { pattern: ID_PATTERN }) ?? "",
      ...(enabled === undefined ? {} : { active: enabled }),
      limit: q.limit(),
      cursor: q.cursor(),
    });
    return { webhook_configs: res.configs.map(renderConfig), next_cursor: res.nextCursor || null };
  });

  app.patch<{ Params: { config_id: string } }>("/admin/webhook-configs/:config_id", async (request) => {
    const body = new BodyReader(request.body);
    const enabled = body.boolean("enabled");
    if (enabled === undefined) throw missingField("enabled");
    const reason = body.string("reason", { max: 500 }) ?? "";
    const res = await webhooksAdmin.setConfigActive({
      configId: request.params.config_id,
      active: enabled,
      reason,
    });
    if (!res.config) throw new Error("dispatcher answered no config");
    return renderConfig(res.config);
  });
}
