import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { StatementEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { describe, expect, it } from "vitest";
import { buildStatementClosedBody } from "./statement-payload.js";

const event = (overrides: Partial<Parameters<typeof create<typeof StatementEventSchema>>[1]> = {}) =>
  create(StatementEventSchema, {
    eventId: "evt_1",
    eventType: "statement.closed",
    occurredAt: timestampFromDate(new Date("2026-07-02T01:00:00Z")),
    statementId: "stmt_20260701_abc",
    partnerId: "ptr_1",
    date: "2026-07-01",
    timeZone: "Etc/UTC",
    periodStart: timestampFromDate(new Date("2026-07-01T00:00:00Z")),
    periodEnd: timestampFromDate(new Date("2026-07-02T00:00:00Z")),
    revision: 1,
    openingBalanceUsd: "0",
    closingBalanceUsd: "6.5",
    lineCount: 3,
    totalDebitsUsd: "0.5",
    totalCreditsUsd: "7",
    sha256: "a".repeat(64),
    ...overrides,
  });

describe("buildStatementClosedBody", () => {
  it("writes the day's summary with the amounts as the statement API writes them", () => {
    expect(JSON.parse(buildStatementClosedBody(event()).toString())).toEqual({
      statement_id: "stmt_20260701_abc",
      partner_id: "ptr_1",
      date: "2026-07-01",
      time_zone: "Etc/UTC",
      period_start: "2026-07-01T00:00:00.000Z",
      period_end: "2026-07-02T00:00:00.000Z",
      revision: 1,
      currency: "USD",
      opening_balance_usd: "0",
      closing_balance_usd: "6.5",
      line_count: 3,
      total_debits_usd: "0.5",
      total_credits_usd: "7",
      sha256: "a".repeat(64),
      event_id: "evt_1",
      event_type: "statement.closed",
      occurred_at: "2026-07-02T01:00:00.000Z",
    });
  });

  it.each([
    ["another event type", { eventType: "transaction.success" }, /is not statement.closed/],
    ["no statement id", { statementId: "" }, /statement_id is missing/],
    ["an amount that is not a decimal", { closingBalanceUsd: "1e3" }, /closing_balance_usd/],
    ["no hash", { sha256: "" }, /sha256/],
    ["no time", { occurredAt: undefined }, /occurred_at is missing/],
  ])("refuses an event with %s", (_, overrides, problem) => {
    expect(() => buildStatementClosedBody(event(overrides))).toThrow(problem);
  });
});
