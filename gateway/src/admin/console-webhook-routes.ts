/**
 * Operators' webhook routes across partners: the delivery log with every attempt, manual
 * redelivery, and switching a receiver off and on. Secrets are never answered (console-render.ts).
 *
 * A disabled config gets no new deliveries (events while it is off are not queued for it) and its pending
 * deliveries wait, never attempted and never declared dead, until it is enabled again; then they are sent
 * in order. Redelivering to a disabled config is refused (409 WEBHOOK_CONFIG_INACTIVE).
 *
 * Receiver health: each receiver's circuit breaker, operator pause and backlog; pausing stops attempts
 * (rows wait, pending), resuming makes them due again at once.
 */

import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { readBody } from "../http/read-body.js";
import { NO_QUERY, readQuery } from "../http/read-query.js";
import {
  listReceiverHealth,
  pauseReceiver,
  redeliverDelivery,
  resumeReceiver,
  searchConfigs,
  searchDeliveries,
  switchConfig,
} from "../operations/admin/console-webhook-api.js";
import { renderConfig, renderDelivery, renderReceiverHealth } from "./console-render.js";

export function registerConsoleWebhookRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { webhooksAdmin } = deps.clients;

  addRoute(app, searchDeliveries, async (request) => {
    const q = readQuery(searchDeliveries.query, request.query);
    const res = await webhooksAdmin.searchDeliveries({
      status: q.status ?? "",
      eventType: q.event_type ?? "",
      partnerId: q.partner_id ?? "",
      txId: q.tx_id ?? "",
      configId: q.config_id ?? "",
      limit: q.limit ?? 0,
      cursor: q.cursor ?? "",
    });
    return { deliveries: res.deliveries.map(renderDelivery), next_cursor: res.nextCursor || null };
  });

  addRoute(app, redeliverDelivery, async (request) => {
    readQuery(NO_QUERY, request.query);
    const res = await webhooksAdmin.redeliverDelivery({ deliveryId: request.params.delivery_id });
    if (!res.delivery) throw new Error("dispatcher answered no delivery");
    return renderDelivery(res.delivery);
  });

  addRoute(app, searchConfigs, async (request) => {
    const q = readQuery(searchConfigs.query, request.query);
    const res = await webhooksAdmin.searchConfigs({
      partnerId: q.partner_id ?? "",
      ...(q.enabled === undefined ? {} : { active: q.enabled }),
      limit: q.limit ?? 0,
      cursor: q.cursor ?? "",
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

  addRoute(app, listReceiverHealth, async (request) => {
    const q = readQuery(listReceiverHealth.query, request.query);
    const res = await webhooksAdmin.listReceiverHealth({
      partnerId: q.partner_id ?? "",
      withBacklog: q.with_backlog ?? false,
      circuitOpen: q.circuit_open ?? false,
      limit: q.limit ?? 0,
      cursor: q.cursor ?? "",
    });
    return {
      as_of: timestampIso(res.asOf),
      receivers: res.receivers.map(renderReceiverHealth),
      next_cursor: res.nextCursor || null,
    };
  });

  for (const [operation, call] of [
    [pauseReceiver, webhooksAdmin.pauseReceiver],
    [resumeReceiver, webhooksAdmin.resumeReceiver],
  ] as const) {
    addRoute(app, operation, async (request) => {
      readQuery(NO_QUERY, request.query);
      const res = await call({ configId: request.params.config_id });
      if (!res.receiver) throw new Error("dispatcher answered no receiver");
      return renderReceiverHealth(res.receiver);
    });
  }
}
