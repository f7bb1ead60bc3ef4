import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { QuoteSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import { ReconciliationRunSchema } from "@payouts/proto/payouts/ledger/v1/reconciliation_pb";
import { describe, expect, it } from "vitest";
import { wireFields } from "./wire-fields.js";

describe("wireFields", () => {
  it("names a message's fields as the .proto does, in its field order, without the message's own properties", () => {
    const quote = create(QuoteSchema, { quoteId: "q_1", amount: "100", currency: "BRL", totalUsd: "20.5" });
    const fields = wireFields(quote);
    expect(Object.keys(fields)).toEqual([
      "quote_id",
      "amount",
      "currency",
      "exchange_rate",
      "amount_usd",
      "percentage_fee",
      "fixed_fee",
      "fee",
      "total_usd",
      ...(Object.hasOwn(quote, "expiresAt") ? ["expires_at"] : []),
    ]);
    expect(fields).toMatchObject({
      quote_id: "q_1",
      amount: "100",
      currency: "BRL",
      fee: "",
      total_usd: "20.5",
    });
  });

  it("keeps a decoded message's field order, so a renderer restating its timestamps answers them in place", () => {
    const sent = create(ReconciliationRunSchema, {
      runId: "rcn_1",
      rail: "sandbox",
      railRecords: 3,
      startedAt: timestampFromDate(new Date("2026-01-02T00:00:00Z")),
    });
    const run = fromBinary(ReconciliationRunSchema, toBinary(ReconciliationRunSchema, sent));
    const rendered = { ...wireFields(run), started_at: "then", finished_at: null };
    expect(Object.keys(rendered)).toEqual([
      "run_id",
      "rail",
      "date",
      "status",
      "started_by",
      "rail_records",
      "ledger_payouts",
      "breaks_found",
      "breaks_opened",
      "error",
      "started_at",
      "finished_at",
    ]);
    expect(rendered).toMatchObject({
      run_id: "rcn_1",
      rail_records: 3,
      started_at: "then",
      finished_at: null,
    });
  });
});
