/**
 * The SDK lists the transaction statuses without depending on the platform: its list is generated from the
 * partner OpenAPI document, which the gateway builds from the platform's one list. They must agree.
 */
import { TRANSACTION_STATUSES as SDK_STATUSES } from "@payouts/client";
import { TRANSACTION_STATUSES as ADMIN_SDK_STATUSES } from "@payouts/client/admin";
import { TRANSACTION_STATUSES } from "@payouts/platform/transaction-status";
import { describe, expect, it } from "vitest";
import partnerDocument from "../../gateway/client/openapi/partner.json" with { type: "json" };

describe("the SDK's transaction statuses", () => {
  it("are the platform's, in the same order, from both entry points", () => {
    expect(SDK_STATUSES).toEqual(TRANSACTION_STATUSES);
    expect(ADMIN_SDK_STATUSES).toBe(SDK_STATUSES);
  });

  it("are the committed partner document's TransactionStatus enum", () => {
    expect(partnerDocument.components.schemas.TransactionStatus.enum).toEqual([...SDK_STATUSES]);
  });
});
