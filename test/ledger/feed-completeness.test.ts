/**
 * The statement feed under concurrent writers on real PostgreSQL: four workers make payouts for one
 * partner (a fifth of them failed by the rail, so reversals and refunded fees interleave) while a reader
 * pages ListStatementLines every 50 ms with the cursor it was given. Once the writers stop, the union of
 * the reader's pages must equal the full export read afresh from the start: same lines, same order, no gap,
 * no duplicate, and the running balance chained to the account balance.
 */
import { randomUUID } from "node:crypto";
import { Dec } from "@payouts/platform/money/decimal";
import type { StatementLine } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  destination,
  freshKey,
  type LedgerHarness,
  quote,
  startLedgerHarness,
} from "./support/ledger-harness.js";
import { assertLedgerInvariants } from "./support/ledger-invariants.js";

/** How long the writers run. */
const WRITE_SECONDS = 60;
const WRITERS = 4;
const READ_EVERY_MS = 50;
const PAGE_LIMIT = 100;
/** Every n-th payout of a worker is failed by the rail (a reversal and its fee line follow). */
const FAIL_EVERY = 5;
/** How long the reader and the export may wait, after the writers stop, for the watermark to pass every line
 * (another test's open transaction on the shared server holds it back meanwhile). */
const CATCH_UP_MS = 60_000;

let h: LedgerHarness;

beforeAll(async () => {
  h = await startLedgerHarness();
});
afterAll(async () => {
  await assertLedgerInvariants(h.db);
  await h.close();
});

async function payout(partnerId: string, reference: string, fail: boolean): Promise<void> {
  const created = await h.client.createTransaction({
    partnerId,
    customerId: "cus_1",
    destination: destination(),
    partnerTransactionId: reference,
  });
  const txId = created.transaction?.txId ?? "";
  await h.quoteWith({ partnerId, txId, quote: quote("10", "0.15", "0.3") });
  await h.client.executePayout({
    partnerId,
    txId,
    idempotencyKey: `k-${txId}`,
    requestFingerprint: "1".repeat(64),
    requestId: "req",
  });
  if (fail) await h.client.recordRailResult({ txId, outcome: "FAILED", reason: "account closed" });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it(
  `gives a reader paging every ${READ_EVERY_MS} ms during ${WRITE_SECONDS} s of concurrent payouts exactly the full export`,
  async () => {
    const partnerId = `ptr_complete_${randomUUID().slice(0, 8)}`;
    await h.client.creditBalance({ partnerId, amountUsd: "100000000", reference: "wire", ...freshKey() });

    let writing = true;
    let payouts = 0;
    let failed = 0;
    const writers = Array.from({ length: WRITERS }, async (_, worker) => {
      for (let n = 1; writing; n++) {
        const fail = n % FAIL_EVERY === 0;
        await payout(partnerId, `w${worker}-${n}`, fail);
        payouts += 1;
        if (fail) failed += 1;
      }
    });

    const pages: StatementLine[][] = [];
    let cursor = "";
    let pagesWhileWriting = 0;
    const readPage = async () => {
      const page = await h.client.listStatementLines({ partnerId, after: cursor, limit: PAGE_LIMIT });
      if (page.lines.length > 0) pages.push(page.lines);
      cursor = page.nextCursor;
      return page.lines.length;
    };
    const reader = (async () => {
      while (writing) {
        if ((await readPage()) > 0) pagesWhileWriting += 1;
        await sleep(READ_EVERY_MS);
      }
    })();

    await sleep(WRITE_SECONDS * 1000);
    writing = false;
    await Promise.all([...writers, reader]);

    // A credit, then per payout its amount and fee, and per failed payout the reversal and the fee back.
    const expected = 1 + 2 * payouts + 2 * failed;
    const readSoFar = () => pages.reduce((n, page) => n + page.length, 0);
    const deadline = Date.now() + CATCH_UP_MS;
    while (readSoFar() < expected && Date.now() < deadline) {
      if ((await readPage()) === 0) await sleep(READ_EVERY_MS);
    }
    expect(await readPage()).toBe(0);

    const exported: StatementLine[] = [];
    for (let after = ""; ; ) {
      const page = await h.client.listStatementLines({ partnerId, after, limit: 1000 });
      if (page.lines.length === 0) break;
      exported.push(...page.lines);
      after = page.nextCursor;
    }

    const read = pages.flat();
    expect(payouts).toBeGreaterThan(WRITERS);
    // Feed order is the order of the writers' database transaction ids; an entry id smaller than
    // the one before it shows two of them overlapping (one began first, the other drew its entry id first),
    // the overlap the feed's watermark exists for. The run must have produced it for its verdict to count.
    const entryIds = exported.map((line) => Number(line.id.split("_")[1]));
    expect(entryIds.filter((id, i) => i > 0 && id < (entryIds[i - 1] ?? 0)).length).toBeGreaterThan(0);
    expect(pagesWhileWriting).toBeGreaterThan(1);
    expect(exported).toHaveLength(expected);
    expect(new Set(read.map((line) => line.id)).size).toBe(read.length);
    expect(read.map((line) => line.id)).toEqual(exported.map((line) => line.id));
    expect(read).toEqual(exported);

    let running = new Dec(0);
    for (const line of exported) {
      running = running.plus(line.amountUsd);
      expect(line.balanceAfterUsd, line.id).toBe(running.toFixed());
    }
    const { balanceUsd } = await h.client.getBalance({ partnerId });
    expect(running.toFixed()).toBe(new Dec(balanceUsd).toFixed());
  },
  (WRITE_SECONDS + 120) * 1000,
);
