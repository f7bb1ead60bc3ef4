import { performance } from "node:perf_hooks";
import type { ServiceImpl } from "@connectrpc/connect";
import { newId } from "@payouts/platform/ids";
import { requirePartnerId } from "@payouts/platform/rpc/rejection";
import type {
  BasicAuth as BasicAuthMessage,
  WebhookService,
} from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import { sealContext } from "../delivery/notification-sender.js";
import { validateReceiverUrl } from "../domain/address-policy.js";
import { validateBasicAuthInput, validateGracePeriod, validateSecret } from "../domain/config-rules.js";
import { validateEventFilter } from "../domain/event-kinds.js";
import { buildTestNotificationBody, TEST_EVENT_TYPE } from "../domain/test-notification.js";
import { reject, rejection, valueOrReject } from "../reasons.js";
import { generateSecret } from "../secrets/generate-secret.js";
import type { SecretBox } from "../secrets/secret-box.js";
import {
  type ConfigRow,
  type ConfigState,
  countConfigs,
  deleteConfig,
  findConfig,
  insertConfig,
  listConfigs,
  lockPartnerConfigs,
  updateConfig,
} from "../store/config-store.js";
import { deleteTestDelivery, insertTestDelivery, readTestDelivery } from "../store/test-delivery-store.js";
import type { WebhookHandlerDeps } from "./webhook-handler-deps.js";
import { toConfigMessage } from "./webhook-messages.js";

/** How often a TestConfig call looks whether its notification was answered. */
const TEST_POLL_MS = 25;

type ConfigHandlers = Pick<
  ServiceImpl<typeof WebhookService>,
  "createConfig" | "listConfigs" | "updateConfig" | "deleteConfig" | "testConfig" | "rotateSecret"
>;

/** Receiver configurations, always scoped to the calling partner: another partner's id is not found. */
export function createConfigHandlers(deps: WebhookHandlerDeps): ConfigHandlers {
  const url = (raw: string) =>
    valueOrReject(
      validateReceiverUrl(raw, { allowPrivate: deps.allowPrivateUrls, allowedPorts: deps.allowedPorts }),
    );

  return {
    async createConfig(request) {
      const partnerId = requirePartnerId(request.partnerId);
      if (request.url === "") {
        throw rejection({ code: "MISSING_REQUIRED_FIELD", message: "url is required", field: "url" });
      }
      const configId = deps.newConfigId();
      const box = await deps.secretBox();
      const state: ConfigState = {
        config_id: configId,
        partner_id: partnerId,
        url: url(request.url),
        events: valueOrReject(validateEventFilter(request.events)),
        active: request.active ?? true,
        disabled_reason: null,
        secret_sealed: request.secret === "" ? null : sealSecret(box, configId, request.secret),
        previous_secret_sealed: null,
        previous_secret_expires_at: null,
        ...sealBasicAuth(box, configId, request.basicAuth),
      };
      const row = await deps.db.transaction(async (tx) => {
        await lockPartnerConfigs(tx, partnerId);
        if ((await countConfigs(tx, partnerId)) >= deps.maxConfigsPerPartner) {
          throw reject("WEBHOOK_CONFIG_LIMIT_REACHED", deps.maxConfigsPerPartner);
        }
        return insertConfig(tx, state, deps.now());
      });
      return { config: toConfigMessage(row) };
    },

    async listConfigs(request) {
      const rows = await listConfigs(deps.db, requirePartnerId(request.partnerId));
      return { configs: rows.map(toConfigMessage) };
    },

    async updateConfig(request) {
      const partnerId = requirePartnerId(request.partnerId);
      const box = await deps.secretBox();
      const row = await deps.db.transaction(async (tx) => {
        const current = await findConfig(tx, partnerId, request.configId, { lock: true });
        if (current === undefined) throw reject("WEBHOOK_CONFIG_NOT_FOUND", request.configId);
        // An operator's switch-off wins over the partner's: only an operator switches it back on.
        if (current.disabled_by_operator && request.active === true) {
          throw reject("WEBHOOK_CONFIG_DISABLED_BY_OPERATOR", current.config_id, current.disabled_reason);
        }
        const next: ConfigState = {
          ...stateOf(current),
          ...(request.url === undefined ? {} : { url: url(request.url) }),
          ...(request.setEvents ? { events: valueOrReject(validateEventFilter(request.events)) } : {}),
          // Reactivating clears the reason the dispatcher switched the receiver off; the operator's stays.
          ...(request.active === undefined || current.disabled_by_operator
            ? {}
            : { active: request.active, disabled_reason: null }),
          // Setting or clearing the secret directly replaces it at once: no grace period (see rotateSecret).
          ...(request.secret === undefined
            ? {}
            : {
                secret_sealed:
                  request.secret === "" ? null : sealSecret(box, current.config_id, request.secret),
                previous_secret_sealed: null,
                previous_secret_expires_at: null,
              }),
          ...(request.clearBasicAuth
            ? { basic_auth_username: null, basic_auth_sealed: null }
            : request.basicAuth === undefined
              ? {}
              : sealBasicAuth(box, current.config_id, request.basicAuth)),
        };
        return updateConfig(tx, next, deps.now());
      });
      return { config: toConfigMessage(row) };
    },

    /**
     * The new secret (given, or generated) becomes current; the current one moves to `previous` and keeps
     * signing beside it until the grace period ends. A previous secret still in its grace period is
     * dropped. The new secret is answered this once; like every secret it is stored sealed.
     */
    async rotateSecret(request) {
      const partnerId = requirePartnerId(request.partnerId);
      const graceSeconds = valueOrReject(validateGracePeriod(request.gracePeriodSeconds));
      const secret = request.secret === "" ? generateSecret() : request.secret;
      const box = await deps.secretBox();
      const row = await deps.db.transaction(async (tx) => {
        const current = await findConfig(tx, partnerId, request.configId, { lock: true });
        if (current === undefined) throw reject("WEBHOOK_CONFIG_NOT_FOUND", request.configId);
        const now = deps.now();
        const keepsSigning = current.secret_sealed !== null && graceSeconds > 0;
        const next: ConfigState = {
          ...stateOf(current),
          secret_sealed: sealSecret(box, current.config_id, secret),
          previous_secret_sealed: keepsSigning
            ? box.seal(
                box.open(current.secret_sealed!, sealContext(current.config_id, "secret")),
                sealContext(current.config_id, "previous_secret"),
              )
            : null,
          previous_secret_expires_at: keepsSigning ? new Date(now.getTime() + graceSeconds * 1000) : null,
        };
        return updateConfig(tx, next, now);
      });
      return { config: toConfigMessage(row), secret };
    },

    async deleteConfig(request) {
      const partnerId = requirePartnerId(request.partnerId);
      if (!(await deleteConfig(deps.db, partnerId, request.configId)))
        throw reject("WEBHOOK_CONFIG_NOT_FOUND", request.configId);
      return {};
    },

    async testConfig(request) {
      const partnerId = requirePartnerId(request.partnerId);
      await deps.limits.take(partnerId, "test");
      const config = await findConfig(deps.db, partnerId, request.configId);
      if (config === undefined) throw reject("WEBHOOK_CONFIG_NOT_FOUND", request.configId);
      if (!config.active)
        throw reject("WEBHOOK_CONFIG_INACTIVE", config.config_id, "sending a test notification");
      const now = deps.now();
      const eventId = newId("evt_test", now.getTime());
      const deliveryId = newId("whd", now.getTime());
      await insertTestDelivery(deps.db, {
        deliveryId,
        eventId,
        configId: config.config_id,
        partnerId,
        eventType: TEST_EVENT_TYPE,
        body: buildTestNotificationBody(eventId, now),
        now,
      });
      deps.wakeWorkers();
      return awaitTestAnswer(deps, deliveryId);
    },
  };
}

/**
 * Waits for the workers to send the queued test notification and record the answer. A test still unclaimed
 * after `claimWaitMs` (the receiver's slots stayed busy, or its circuit is open) is withdrawn and reported as
 * not sent.
 */
async function awaitTestAnswer(deps: WebhookHandlerDeps, deliveryId: string) {
  const started = performance.now();
  for (;;) {
    const state = await readTestDelivery(deps.db, deliveryId);
    const waited = performance.now() - started;
    if (state?.status === "delivered" || state?.status === "dead") {
      await deleteTestDelivery(deps.db, deliveryId);
      return {
        delivered: state.status === "delivered",
        ...(state.last_status_code === null ? {} : { statusCode: state.last_status_code }),
        error: state.last_status_code === null ? (state.last_error ?? "") : "",
        latencyMs: state.latency_ms ?? 0,
      };
    }
    const withdraw =
      state === undefined ||
      (state.status === "pending" && waited > deps.testWait.claimMs) ||
      waited > deps.testWait.claimMs + deps.testWait.answerMs;
    if (withdraw && (await deleteTestDelivery(deps.db, deliveryId, { onlyPending: true }))) {
      return {
        delivered: false,
        error:
          "not sent: this receiver's delivery slots stayed busy, or its circuit is open after recent failures; try again shortly",
        latencyMs: 0,
      };
    }
    if (waited > deps.testWait.claimMs + deps.testWait.answerMs) {
      return {
        delivered: false,
        error: "sent, but no answer was recorded in time",
        latencyMs: Math.round(waited),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, TEST_POLL_MS));
  }
}

function stateOf(row: ConfigRow): ConfigState {
  const { created_at: _created, updated_at: _updated, disabled_by_operator: _byOperator, ...state } = row;
  return state;
}

function sealSecret(box: SecretBox, configId: string, secret: string): string {
  return box.seal(valueOrReject(validateSecret(secret)), sealContext(configId, "secret"));
}

function sealBasicAuth(
  box: SecretBox,
  configId: string,
  message: BasicAuthMessage | undefined,
): Pick<ConfigState, "basic_auth_username" | "basic_auth_sealed"> {
  if (message === undefined) return { basic_auth_username: null, basic_auth_sealed: null };
  const auth = valueOrReject(
    validateBasicAuthInput({ username: message.username, password: message.password }),
  );
  return {
    basic_auth_username: auth.username,
    basic_auth_sealed: box.seal(auth.password, sealContext(configId, "basic_auth")),
  };
}
