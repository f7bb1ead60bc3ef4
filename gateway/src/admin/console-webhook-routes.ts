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
 *
 * The query parameters are the dispatcher's request fields in snake_case; one left out is the field's zero
 * value, which the dispatcher reads as "no filter".
 */

import { camelCaseKeys } from "@payouts/platform/database/camel-case-keys";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { readBody } from "../http/read-body.js";
import { NO_QUERY, readQuery, readQueryRequest } from "../http/read-query.js";
import { answered } from "../http/service-answer.js";
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
    const res = await webhooksAdmin.searchDeliveries(readQueryRequest(searchDeliveries.query, request.query));
    return { deliveries: res.deliveries.map(renderDelivery), next_cursor: res.nextCursor || null };
  });

  addRoute(app, redeliverDelivery, async (request) => {
    readQuery(NO_QUERY, request.query);
    const res = await webhooksAdmin.redeliverDelivery({ deliveryId: request.params.delivery_id });
    return renderDelivery(answered(res.delivery, "dispatcher", "delivery"));
  });

  addRoute(app, searchConfigs, async (request) => {
    const { enabled, ...q } = readQuery(searchConfigs.query, request.query);
    const res = await webhooksAdmin.searchConfigs({
      ...camelCaseKeys(q),
      ...(enabled === undefined ? {} : { active: enabled }),
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
    return renderConfig(answered(res.config, "dispatcher", "config"));
  });

  addRoute(app, listReceiverHealth, async (request) => {
    const res = await webhooksAdmin.listReceiverHealth(
      readQueryRequest(listReceiverHealth.query, request.query),
    );
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
      return renderReceiverHealth(answered(res.receiver, "dispatcher", "receiver"));
    });
  }
}
