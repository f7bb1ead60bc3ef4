/**
 * Attack: a partner edits the `after` cursor of a day's statement lines — it carries the running balance
 * the next page starts from — to make the ledger print a balance of its choosing on the following lines
 * (and in the documents rendered from them), with the MAC kept, recomputed under a guessed key, or dropped.
 *
 * Against the ledger's StatementService on real PostgreSQL (a day written through the ledger's tables):
 * every forged cursor gives the same lines with the same balances as the honest one, since a balance whose
 * MAC does not verify is summed again from the day's entries.
 */
import { createHmac } from "node:crypto";
import { type Client, createClient, createRouterTransport } from "@connectrpc/connect";
import { StatementService } from "@payouts/proto/payouts/ledger/v1/statements_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedStatementDay, waitForWatermark } from "../bench/statement-day-seed.js";
import { type LedgerHarness, startLedgerHarness } from "../ledger/support/ledger-harness.js";

const PARTNER = "partner_forge_cursor";
let h: LedgerHarness;
let statements: Client<typeof StatementService>;
let date: string;

beforeAll(async () => {
  h = await startLedgerHarness();
  statements = createClient(
    StatementService,
    createRouterTransport((r) => h.module.routes(r)),
  );
  const seeded = await seedStatementDay(h.url, PARTNER, 40);
  await waitForWatermark(h.url, seeded.xid, 30_000);
  date = seeded.date;
}, 60_000);
afterAll(async () => {
  await h.close();
});

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8").toString("base64url");

async function page(after: string) {
  const res = await statements.listDailyStatementLines({ partnerId: PARTNER, date, after, limit: 10 });
  return res.lines.map((l) => [l.id, l.amountUsd, l.balanceAfterUsd]);
}

describe("a forged statement line cursor", () => {
  it("never changes the balances of the lines after it", async () => {
    const first = await statements.listDailyStatementLines({
      partnerId: PARTNER,
      date,
      after: "",
      limit: 10,
    });
    const honest = await page(first.nextCursor);
    expect(honest).toHaveLength(10);
    const [xid, entryId, part, balance, mac] = JSON.parse(
      Buffer.from(first.nextCursor, "base64url").toString("utf8"),
    ) as [string, string, 0 | 1, string, string];
    expect(balance).toMatch(/^[0-9.]+$/);
    const forgedBalance = "1000000";
    const guessedMac = createHmac("sha256", Buffer.alloc(32))
      .update(JSON.stringify([xid, entryId, part, forgedBalance]))
      .digest("base64url");
    for (const forged of [
      b64([xid, entryId, part, forgedBalance, mac]),
      b64([xid, entryId, part, forgedBalance, guessedMac]),
      b64([xid, entryId, part]),
    ]) {
      expect(await page(forged), forged).toEqual(honest);
    }
  });
});
