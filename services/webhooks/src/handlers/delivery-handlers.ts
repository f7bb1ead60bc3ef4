import type { ServiceImpl } from "@connectrpc/connect";
import { requirePartnerId } from "@payouts/platform/rpc/rejection";
import type { WebhookService } from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import { rejection } from "../reasons.js";
import {
  attemptsOf,
  DELIVERY_STATUSES,
  type DeliveryRow,
  type DeliveryStatus,
  findDelivery,
  listDeliveries,
} from "../store/delivery-store.js";
import { redeliverLocked } from "./redelivery.js";
import type { WebhookHandlerDeps } from "./webhook-handler-deps.js";
import { toDeliveryMessage } from "./webhook-messages.js";

type DeliveryHandlers = Pick<ServiceImpl<typeof WebhookService>, "listDeliveries" | "redeliver">;

export const DEFAULT_DELIVERY_PAGE = 50;
export const MAX_DELIVERY_PAGE = 100;

/** The partner's delivery log (newest first, with every attempt) and manual redelivery. */
export function createDeliveryHandlers(deps: WebhookHandlerDeps): DeliveryHandlers {
  const withHistory = async (rows: readonly DeliveryRow[]) => {
    const attempts = await attemptsOf(
      deps.db,
      rows.map((row) => row.delivery_id),
    );
    return rows.map((row) =>
      toDeliveryMessage(
        row,
        attempts.filter((a) => a.delivery_id === row.delivery_id),
      ),
    );
  };

  return {
    async listDeliveries(request) {
      const rows = await listDeliveries(deps.db, {
        partnerId: requirePartnerId(request.partnerId),
        txId: request.txId || undefined,
        configId: request.configId || undefined,
        status: statusFilter(request.status),
        limit: pageSize(request.limit),
      });
      return { deliveries: await withHistory(rows) };
    },

    async redeliver(request) {
      const partnerId = requirePartnerId(request.partnerId);
      await deps.limits.take(partnerId, "redeliver");
      const row = await deps.db.transaction(async (tx) => {
        const current = await findDelivery(tx, partnerId, request.deliveryId, { lock: true });
        return redeliverLocked(tx, request.deliveryId, current, deps.now());
      });
      deps.wakeWorkers();
      const [delivery] = await withHistory([row]);
      return { delivery };
    },
  };
}

function statusFilter(status: string): DeliveryStatus | undefined {
  if (status === "") return undefined;
  if ((DELIVERY_STATUSES as readonly string[]).includes(status)) return status as DeliveryStatus;
  throw rejection({
    code: "INVALID_FIELD",
    message: `status must be one of ${DELIVERY_STATUSES.join(", ")}`,
    field: "status",
  });
}

function pageSize(limit: number): number {
  if (limit === 0) return DEFAULT_DELIVERY_PAGE;
  if (limit < 1 || limit > MAX_DELIVERY_PAGE) {
    throw rejection({
      code: "INVALID_FIELD",
      message: `limit must be 1 to ${MAX_DELIVERY_PAGE}`,
      field: "limit",
    });
  }
  return limit;
}
