/**
 * Operators' webhook routes across partners (issue 15): the delivery log with every attempt, manual
 * redelivery, and switching a receiver off and on. Secrets are never answered (console-render.ts).
 *
 * A disabled config gets no new deliveries (events while it is off are not queued for it) and its pending
 * deliveries wait, never attempted and never declared dead, until it is enabled again; then they are sent
 * in order. Redelivering to a disabled config is refused (409 WEBHOOK_CONFIG_INACTIVE).
 */
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { readBody } from "../http/read-body.js";
import { redeliverDelivery, searchConfigs, searchDeliveries, switchConfig } from "./console-api.js";
import { QueryReader } from "./console-query.js";
import { renderConfig, renderDelivery } from "./console-render.js";

export function registerConsoleWebhookRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { webhooksAdmin } = deps.clients;

  addRoute(app, searchDeliveries, async (request) => {
    const q = new QueryReader(request.query, searchDeliveries.query);
    const res = await webhooksAdmin.searchDeliveries({
      status: q.string("status") ?? "",
      eventType: q.string("event_type") ?? "",
      partnerId: q.string("partner_id") ?? "",
      txId: q.string("tx_id") ?? "",
      configId: q.string("config_id") ?? "",
      limit: q.limit(),
      cursor: q.cursor(),
    });
    return { deliveries: res.deliveries.map(renderDelivery), next_cursor: res.nextCursor || null };
  });

  addRoute(app, redeliverDelivery, async (request) => {
    new QueryReader(request.query, undefined);
    const res = await webhooksAdmin.redeliverDelivery({ deliveryId: request.params.delivery_id });
    if (!res.delivery) throw new Error("dispatcher answered no delivery");
    return renderDelivery(res.delivery);
  });

  addRoute(app, searchConfigs, async (request) => {
    const q = new QueryReader(request.query, searchConfigs.query);
    const enabled = q.boolean("enabled");
    const res = await webhooksAdmin.searchConfigs({
      partnerId: q.string("partner_id") ?? "",
      ...(enabled === undefined ? {} : { active: enabled }),
      limit: q.limit(),
      cursor: q.cursor(),
    });
    return { webhook_configs: res.configs.map(renderConfig), next_cursor: res.nextCursor || null };
  });

  addRoute(app, switchConfig, async (request) => {
    const body = readBody(switchConfig.body, request.body);
    const res = await webhooksAdmin.setConfigActive({
      configId: request.params.config_id,
      active: body.enabled,
      reason: body.reason ?? "",
    });
    if (!res.config) throw new Error("dispatcher answered no config");
    return renderConfig(res.config);
  });
}
