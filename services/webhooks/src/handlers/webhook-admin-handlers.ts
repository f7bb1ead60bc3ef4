/**
 * payouts.webhooks.v1.WebhookAdminService: operators' view of webhooks across partners (caller
 * gateway-admin only). Redelivery goes through the same workers, caps and ordering as the partner's;
 * only the partner's per-minute allowance is not charged for an operator's action.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { keysetPage } from "@payouts/platform/database/keyset-page";
import {
  type ConfigRecord,
  ConfigRecordSchema,
  type DeliveryRecord,
  DeliveryRecordSchema,
  type ReceiverHealth,
  ReceiverHealthSchema,
  type WebhookAdminService,
} from "@payouts/proto/payouts/webhooks/v1/webhooks_admin_pb";
import { NOTIFIED_EVENT_TYPES } from "../domain/event-kinds.js";
import { reject, rejection } from "../reasons.js";
import { attemptsOf, DELIVERY_STATUSES, type DeliveryRow } from "../store/delivery-store.js";
import {
  type ConfigWithCounts,
  deliveryStats,
  findAnyDelivery,
  searchConfigs,
  searchDeliveries,
  setConfigActive,
} from "../store/operator-store.js";
import {
  listReceiverHealth,
  type ReceiverHealthRow,
  setReceiverPaused,
} from "../store/receiver-health-store.js";
import { DEFAULT_DELIVERY_PAGE, MAX_DELIVERY_PAGE } from "./delivery-handlers.js";
import { redeliverLocked } from "./redelivery.js";
import type { WebhookHandlerDeps } from "./webhook-handler-deps.js";
import { toConfigMessage, toDeliveryMessage } from "./webhook-messages.js";

const invalid = (field: string, message: string) =>
  rejection({ code: "INVALID_FIELD", message: `${field} ${message}`, field });

/** Ids as the platform makes them (prefix, underscore, base32): anything else cannot be a cursor. */
const ID = /^[a-z]{2,8}_[0-9a-z]{1,64}$/;

export function createWebhookAdminHandlers(
  deps: Pick<WebhookHandlerDeps, "db" | "now" | "wakeWorkers">,
): ServiceImpl<typeof WebhookAdminService> {
  const records = async (rows: readonly DeliveryRow[]): Promise<DeliveryRecord[]> => {
    const attempts = await attemptsOf(
      deps.db,
      rows.map((row) => row.delivery_id),
    );
    return rows.map((row) =>
      create(DeliveryRecordSchema, {
        partnerId: row.partner_id,
        delivery: toDeliveryMessage(
          row,
          attempts.filter((a) => a.delivery_id === row.delivery_id),
        ),
      }),
    );
  };

  return {
    async searchDeliveries(req) {
      const limit = pageSize(req.limit);
      if (req.status && !(DELIVERY_STATUSES as readonly string[]).includes(req.status)) {
        throw invalid("status", `must be one of ${DELIVERY_STATUSES.join(", ")}`);
      }
      if (req.eventType && !(NOTIFIED_EVENT_TYPES as readonly string[]).includes(req.eventType)) {
        throw invalid("event_type", `must be one of ${NOTIFIED_EVENT_TYPES.join(", ")}`);
      }
      const before = req.cursor ? decodeIdCursor(req.cursor) : undefined;
      const rows = await searchDeliveries(deps.db, {
        partnerId: req.partnerId || undefined,
        txId: req.txId || undefined,
        configId: req.configId || undefined,
        status: (req.status || undefined) as DeliveryRow["status"] | undefined,
        eventType: req.eventType || undefined,
        before,
        limit: limit + 1,
      });
      const { page, nextCursor } = keysetPage(rows, limit, (last) => encodeIdCursor(last.delivery_id));
      return { deliveries: await records(page), nextCursor };
    },

    async getDeliveryStats() {
      const now = deps.now();
      const s = await deliveryStats(deps.db, now);
      return {
        asOf: timestampFromDate(now),
        pending: BigInt(s.pending),
        retrying: BigInt(s.retrying),
        delivering: BigInt(s.delivering),
        dead: BigInt(s.dead),
        deliveredLastHour: BigInt(s.delivered_last_hour),
        deliveredLastDay: BigInt(s.delivered_last_day),
        pendingDisabled: BigInt(s.pending_disabled),
        oldestDueAgeMs: BigInt(
          s.oldest_due === null ? 0 : Math.max(0, now.getTime() - s.oldest_due.getTime()),
        ),
      };
    },

    async redeliverDelivery(req) {
      if (!req.deliveryId) throw invalid("delivery_id", "is required");
      const row = await deps.db.transaction(async (tx) => {
        const current = await findAnyDelivery(tx, req.deliveryId, { lock: true });
        return redeliverLocked(tx, req.deliveryId, current, deps.now());
      });
      deps.wakeWorkers();
      const [delivery] = await records([row]);
      return { delivery };
    },

    async searchConfigs(req) {
      const limit = pageSize(req.limit);
      const after = req.cursor ? decodeIdCursor(req.cursor) : undefined;
      const rows = await searchConfigs(deps.db, {
        partnerId: req.partnerId || undefined,
        active: req.active,
        after,
        limit: limit + 1,
      });
      const { page, nextCursor } = keysetPage(rows, limit, (last) => encodeIdCursor(last.config_id));
      return { configs: page.map(configRecord), nextCursor };
    },

    async setConfigActive(req) {
      if (!req.configId) throw invalid("config_id", "is required");
      const reason = req.reason.trim();
      if (reason.length > 500) throw invalid("reason", "must be at most 500 characters");
      const row = await setConfigActive(
        deps.db,
        req.configId,
        req.active,
        reason || "disabled by an operator",
        deps.now(),
      );
      if (row === undefined) throw reject("WEBHOOK_CONFIG_NOT_FOUND", req.configId);
      // Its waiting deliveries are due again at once.
      if (req.active) deps.wakeWorkers();
      return { config: configRecord(row) };
    },

    async listReceiverHealth(req) {
      const limit = pageSize(req.limit);
      const after = req.cursor ? decodeIdCursor(req.cursor) : undefined;
      const now = deps.now();
      const rows = await listReceiverHealth(deps.db, {
        partnerId: req.partnerId || undefined,
        withBacklog: req.withBacklog,
        circuitOpen: req.circuitOpen,
        after,
        limit: limit + 1,
      });
      const { page, nextCursor } = keysetPage(rows, limit, (last) => encodeIdCursor(last.config_id));
      return {
        receivers: page.map((row) => receiverHealth(row, now)),
        nextCursor,
        asOf: timestampFromDate(now),
      };
    },

    async pauseReceiver(req) {
      if (!req.configId) throw invalid("config_id", "is required");
      const now = deps.now();
      const row = await setReceiverPaused(deps.db, req.configId, true, now);
      if (row === undefined) throw reject("WEBHOOK_CONFIG_NOT_FOUND", req.configId);
      return { receiver: receiverHealth(row, now) };
    },

    async resumeReceiver(req) {
      if (!req.configId) throw invalid("config_id", "is required");
      const now = deps.now();
      const row = await setReceiverPaused(deps.db, req.configId, false, now);
      if (row === undefined) throw reject("WEBHOOK_CONFIG_NOT_FOUND", req.configId);
      // Its waiting rows may be due already: the workers look at once rather than at their next poll.
      deps.wakeWorkers();
      return { receiver: receiverHealth(row, now) };
    },
  };
}

function receiverHealth(row: ReceiverHealthRow, now: Date): ReceiverHealth {
  return create(ReceiverHealthSchema, {
    configId: row.config_id,
    partnerId: row.partner_id,
    url: row.url,
    active: row.active,
    paused: row.paused,
    circuitState: row.circuit_state,
    circuitFailures: row.circuit_failures,
    ...(row.circuit_opened_at ? { circuitOpenedAt: timestampFromDate(row.circuit_opened_at) } : {}),
    ...(row.circuit_retry_at ? { circuitRetryAt: timestampFromDate(row.circuit_retry_at) } : {}),
    pending: BigInt(row.pending),
    oldestPendingAgeSeconds: BigInt(
      row.oldest_pending_at === null
        ? 0
        : Math.max(0, Math.floor((now.getTime() - row.oldest_pending_at.getTime()) / 1000)),
    ),
    delivering: BigInt(row.delivering),
  });
}

function configRecord(row: ConfigWithCounts): ConfigRecord {
  return create(ConfigRecordSchema, {
    config: toConfigMessage(row),
    pendingDeliveries: BigInt(row.pending),
    deadDeliveries: BigInt(row.dead),
  });
}

function pageSize(limit: number): number {
  if (limit === 0) return DEFAULT_DELIVERY_PAGE;
  if (limit < 1 || limit > MAX_DELIVERY_PAGE) throw invalid("limit", `must be 1 to ${MAX_DELIVERY_PAGE}`);
  return limit;
}

/** The opaque cursor of these lists: the id of the last item of the page (base64url JSON). */
function encodeIdCursor(id: string): string {
  return Buffer.from(JSON.stringify({ after: id }), "utf8").toString("base64url");
}

function decodeIdCursor(cursor: string): string {
  let parsed: unknown;
  try {
    parsed = cursor.length <= 200 ? JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) : undefined;
  } catch {
    parsed = undefined;
  }
  const id = (parsed as { after?: unknown } | undefined)?.after;
  if (typeof id !== "string" || !ID.test(id))
    throw invalid("cursor", "is not a cursor returned by this list");
  return id;
}
