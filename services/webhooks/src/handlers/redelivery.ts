import type { Queryable } from "@payouts/platform/database/database";
import { reject } from "../reasons.js";
import { findConfig } from "../store/config-store.js";
import { type DeliveryRow, scheduleNow } from "../store/delivery-store.js";

/**
 * A manual redelivery, the partner's or an operator's, of `current` (read under lock in the caller's
 * transaction, undefined when there is no such delivery): due now again, with the same event id and body.
 * Refused while an attempt is in flight, and to a configuration that is switched off.
 */
export async function redeliverLocked(
  tx: Queryable,
  deliveryId: string,
  current: DeliveryRow | undefined,
  now: Date,
): Promise<DeliveryRow> {
  if (current === undefined) throw reject("DELIVERY_NOT_FOUND", deliveryId);
  if (current.status === "delivering") throw reject("DELIVERY_IN_PROGRESS");
  const config = await findConfig(tx, current.partner_id, current.config_id);
  if (config?.active !== true) throw reject("WEBHOOK_CONFIG_INACTIVE", current.config_id, "redelivering");
  return scheduleNow(tx, current.delivery_id, now);
}
