import type { ServiceImpl } from "@connectrpc/connect";
import { newId } from "@payouts/platform/ids";
import type {
  BasicAuth as BasicAuthMessage,
  WebhookService,
} from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import { sealContext } from "../delivery/notification-sender.js";
import { validateReceiverUrl } from "../domain/address-policy.js";
import { validateBasicAuthInput, validateSecret } from "../domain/config-rules.js";
import { storedResponseBody } from "../domain/delivery-outcome.js";
import { validateEventFilter } from "../domain/event-kinds.js";
import { buildTestNotificationBody, TEST_EVENT_TYPE } from "../domain/test-notification.js";
import type { SecretBox } from "../secrets/secret-box.js";
import {
  type ConfigRow,
  type ConfigState,
  deleteConfig,
  findConfig,
  insertConfig,
  listConfigs,
  updateConfig,
} from "../store/config-store.js";
import type { WebhookHandlerDeps } from "./webhook-handler-deps.js";
import { toConfigMessage } from "./webhook-messages.js";
import { configNotFound, rejection, requirePartnerId, valueOrReject } from "./webhook-rejection.js";

type ConfigHandlers = Pick<
  ServiceImpl<typeof WebhookService>,
  "createConfig" | "listConfigs" | "updateConfig" | "deleteConfig" | "testConfig"
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
        ...sealBasicAuth(box, configId, request.basicAuth),
      };
      const row = await insertConfig(deps.db, state, deps.now());
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
        if (current === undefined) throw configNotFound(request.configId);
        const next: ConfigState = {
          ...stateOf(current),
          ...(request.url === undefined ? {} : { url: url(request.url) }),
          ...(request.setEvents ? { events: valueOrReject(validateEventFilter(request.events)) } : {}),
          // Reactivating clears the reason the dispatcher switched the receiver off.
          ...(request.active === undefined ? {} : { active: request.active, disabled_reason: null }),
          ...(request.secret === undefined
            ? {}
            : {
                secret_sealed:
                  request.secret === "" ? null : sealSecret(box, current.config_id, request.secret),
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

    async deleteConfig(request) {
      const partnerId = requirePartnerId(request.partnerId);
      if (!(await deleteConfig(deps.db, partnerId, request.configId))) throw configNotFound(request.configId);
      return {};
    },

    async testConfig(request) {
      const partnerId = requirePartnerId(request.partnerId);
      const config = await findConfig(deps.db, partnerId, request.configId);
      if (config === undefined) throw configNotFound(request.configId);
      const eventId = newId("evt_test", deps.now().getTime());
      const answer = await deps.send(config, {
        eventId,
        eventType: TEST_EVENT_TYPE,
        body: buildTestNotificationBody(eventId, deps.now()),
        attempt: 1,
      });
      if ("error" in answer) return { delivered: false, error: answer.error, latencyMs: answer.latencyMs };
      return {
        delivered: answer.status >= 200 && answer.status <= 299,
        statusCode: answer.status,
        latencyMs: answer.latencyMs,
        responseBody: storedResponseBody(answer.body),
      };
    },
  };
}

function stateOf(row: ConfigRow): ConfigState {
  const { created_at: _created, updated_at: _updated, ...state } = row;
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
