import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type {
  Delivery,
  TestConfigResponse,
  WebhookConfig,
} from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import { partnerOf } from "../auth/partner-auth.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { readBody } from "../http/read-body.js";
import { readQuery } from "../http/read-query.js";
import {
  createWebhookConfig,
  deleteWebhookConfig,
  listWebhookConfigs,
  rotateWebhookSecret,
  testWebhookConfig,
  updateWebhookConfig,
  type WebhookConfig as WebhookConfigShape,
  type WebhookSecretRotation,
  type WebhookTestResult,
} from "../operations/partner/webhook-api.js";
import {
  listWebhookDeliveries,
  redeliverWebhook,
  type WebhookDelivery as WebhookDeliveryShape,
} from "../operations/partner/webhook-delivery-api.js";

/**
 * Partner-managed webhook receivers and their delivery log. Rules live in the
 * webhooks service; this reads the JSON, forwards it with the caller's partner id, and renders the answer.
 * Secrets are write-only: answers say `has_secret`, and show only the basic-auth user name; the one
 * exception is the new secret in the answer of its own rotation.
 */
export function registerWebhookRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const webhooks = deps.clients.webhooks;

  addRoute(app, createWebhookConfig, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const {
      url,
      events = ["*"],
      active,
      secret,
      basic_auth: basicAuth,
    } = readBody(createWebhookConfig.body, request.body);
    const res = await webhooks.createConfig({
      partnerId,
      url,
      events,
      secret: secret ?? "",
      ...(active === undefined ? {} : { active }),
      ...(basicAuth ? { basicAuth } : {}),
    });
    return reply.code(201).send(renderConfig(res.config));
  });

  addRoute(app, listWebhookConfigs, async (request) => {
    const res = await webhooks.listConfigs({ partnerId: partnerOf(request).partnerId });
    return { webhook_configs: res.configs.map(renderConfig) };
  });

  addRoute(app, updateWebhookConfig, async (request) => {
    const { partnerId } = partnerOf(request);
    const body = readBody(updateWebhookConfig.body, request.body);
    const { url, events, active, basic_auth: basicAuth } = body;
    // A write-only secret: a string sets it, null or "" clears it (answered as "" to the service).
    const secret = body.secret === null ? "" : body.secret;
    const res = await webhooks.updateConfig({
      partnerId,
      configId: request.params.id,
      ...(url === undefined ? {} : { url }),
      ...(events === undefined ? {} : { events, setEvents: true }),
      ...(active === undefined ? {} : { active }),
      ...(secret === undefined ? {} : { secret }),
      ...(basicAuth === null ? { clearBasicAuth: true } : basicAuth ? { basicAuth } : {}),
    });
    return renderConfig(res.config);
  });

  // Rotation: the new secret (given, or generated when absent) is answered this once; the old one keeps
  // signing beside it for `grace_period_seconds` (default 24 h, 0 = drop it now).
  addRoute(app, rotateWebhookSecret, async (request): Promise<WebhookSecretRotation> => {
    const { secret, grace_period_seconds: gracePeriodSeconds } = readBody(
      rotateWebhookSecret.body,
      request.body,
    );
    const res = await webhooks.rotateSecret({
      partnerId: partnerOf(request).partnerId,
      configId: request.params.id,
      secret: secret ?? "",
      ...(gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds }),
    });
    return { ...renderConfig(res.config), secret: res.secret };
  });

  addRoute(app, deleteWebhookConfig, async (request, reply) => {
    await webhooks.deleteConfig({ partnerId: partnerOf(request).partnerId, configId: request.params.id });
    return reply.code(204).send();
  });

  addRoute(app, testWebhookConfig, async (request) => {
    const res = await webhooks.testConfig({
      partnerId: partnerOf(request).partnerId,
      configId: request.params.id,
    });
    return renderTestResult(res);
  });

  addRoute(app, listWebhookDeliveries, async (request) => {
    const query = readQuery(listWebhookDeliveries.query, request.query);
    const res = await webhooks.listDeliveries({
      partnerId: partnerOf(request).partnerId,
      txId: query.tx_id ?? "",
      configId: query.config_id ?? "",
      status: query.status ?? "",
      limit: query.limit ?? 0,
    });
    return { deliveries: res.deliveries.map(renderDelivery) };
  });

  addRoute(app, redeliverWebhook, async (request) => {
    const res = await webhooks.redeliver({
      partnerId: partnerOf(request).partnerId,
      deliveryId: request.params.id,
    });
    return renderDelivery(res.delivery);
  });
}

function renderConfig(config: WebhookConfig | undefined): WebhookConfigShape {
  if (config === undefined) throw new Error("webhook service answered without a config");
  return {
    config_id: config.configId,
    url: config.url,
    events: config.events as WebhookConfigShape["events"],
    active: config.active,
    has_secret: config.hasSecret,
    basic_auth: config.hasBasicAuth ? { username: config.basicAuthUsername } : null,
    disabled_reason: config.disabledReason || null,
    previous_secret_expires_at: timestampIso(config.previousSecretExpiresAt),
    created_at: timestampIso(config.createdAt),
    updated_at: timestampIso(config.updatedAt),
  };
}

function renderDelivery(delivery: Delivery | undefined): WebhookDeliveryShape {
  if (delivery === undefined) throw new Error("webhook service answered without a delivery");
  return {
    delivery_id: delivery.deliveryId,
    config_id: delivery.configId,
    event_id: delivery.eventId,
    event_type: delivery.eventType as WebhookDeliveryShape["event_type"],
    tx_id: delivery.txId,
    status: delivery.status as WebhookDeliveryShape["status"],
    attempts: delivery.attempts,
    next_attempt_at: timestampIso(delivery.nextAttemptAt),
    delivered_at: timestampIso(delivery.deliveredAt),
    last_status_code: delivery.lastStatusCode || null,
    last_error: delivery.lastError || null,
    response_body: delivery.responseBody || null,
    created_at: timestampIso(delivery.createdAt),
    history: delivery.history.map((attempt) => ({
      attempt: attempt.attempt,
      status_code: attempt.statusCode || null,
      error: attempt.error || null,
      latency_ms: attempt.latencyMs,
      at: timestampIso(attempt.at),
    })),
  };
}

function renderTestResult(res: TestConfigResponse): WebhookTestResult {
  return {
    delivered: res.delivered,
    status_code: res.statusCode || null,
    latency_ms: res.latencyMs,
    error: res.error || null,
  };
}
