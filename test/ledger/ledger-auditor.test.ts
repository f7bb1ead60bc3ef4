/**
 * A seeded, randomized auditor in the spirit of TigerBeetle's: many partners, rounds of concurrent
 * executes (with repeated and fresh keys), rail verdicts (with duplicates and contradictions), refunds,
 * credits and bogus requests. Every reply is checked against what is possible; afterwards the books are
 * rebuilt from the replies and compared with the ledger to the last of 18 decimals.
 *
 * Re-run a failure with AUDIT_SEED=<seed printed in the error>.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { Dec } from "@payouts/platform/money/decimal";
import { TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  destination,
  freshKey,
  type LedgerHarness,
  quote,
  reasonOf,
  startLedgerHarness,
  waitFor,
} from "./support/ledger-harness.js";
import { assertLedgerInvariants, balanceOf } from "./support/ledger-invariants.js";

const SEED = Number(process.env.AUDIT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const PARTNERS = 6;
const TXS_PER_PARTNER = 10;
const ROUNDS = 12;
const OPS_PER_ROUND = 40;

/** mulberry32: small, fast, good enough to pick test actions reproducibly. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
    digits: (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join(""),
  };
}

interface ModelTx {
  readonly partnerId: string;
  readonly txId: string;
  readonly amountUsd: Dec;
  readonly fee: Dec;
  readonly total: Dec;
  keys: string[];
  executedBy: string[];
  railChanges: string[];
  refunds: number;
}

let h: LedgerHarness;
beforeAll(async () => {
  h = await startLedgerHarness();
});
afterAll(async () => {
  await h.close();
});

describe(`ledger auditor (seed ${SEED})`, () => {
  it("keeps every partner's books equal to the model under concurrent, repeated and contradictory requests", async () => {
    try {
      await audit(prng(SEED));
    } catch (error) {
      throw new Error(`auditor failed with AUDIT_SEED=${SEED}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }, 120_000);
});

async function audit(rand: ReturnType<typeof prng>): Promise<void> {
  const credits = new Map<string, Dec>();
  const txs: ModelTx[] = [];
  const unexpected: string[] = [];

  for (let p = 0; p < PARTNERS; p++) {
    const partnerId = `ptr_audit_${SEED}_${p}`;
    credits.set(partnerId, new Dec(0));
    for (let t = 0; t < TXS_PER_PARTNER; t++) {
      const amountUsd = `${rand.int(1, 40)}.${rand.digits(18)}`;
      const pct = `0.${rand.digits(18)}`;
      const fixed = rand.pick(["0", "0.3", "0.25", "1"]);
      const q = quote(amountUsd, pct, fixed);
      const created = await h.client.createTransaction({ partnerId, destination: destination() });
      const txId = created.transaction!.txId;
      await h.quoteWith({ partnerId, txId, quote: q });
      const fee = new Dec(pct).plus(fixed);
      txs.push({
        partnerId,
        txId,
        amountUsd: new Dec(amountUsd),
        fee,
        total: fee.plus(amountUsd),
        keys: [],
        executedBy: [],
        railChanges: [],
        refunds: 0,
      });
    }
  }

  // A credit counts once per key: a retry with the same key is a replay or IDEMPOTENCY_KEY_IN_USE.
  const credit = async (partnerId: string, amount: string, key = freshKey()) => {
    let replayed = false;
    const reason = await reasonOf(
      h.client.creditBalance({ partnerId, amountUsd: amount, reference: "audit", ...key }).then((res) => {
        replayed = res.replayed;
      }),
    );
    if (reason !== "OK")
      return expectReason(`credit ${key.idempotencyKey}`, reason, ["IDEMPOTENCY_KEY_IN_USE"]);
    if (!replayed) credits.set(partnerId, credits.get(partnerId)!.plus(amount));
  };
  // Roughly half of each partner's payouts are covered at first; later credits top up.
  for (const [partnerId] of credits) await credit(partnerId, `${rand.int(60, 200)}.${rand.digits(6)}`);

  const expectReason = (what: string, reason: string, allowed: readonly string[]) => {
    if (!allowed.includes(reason)) unexpected.push(`${what}: ${reason}`);
  };

  const execute = async (tx: ModelTx, key: string) => {
    try {
      const res = await h.client.executePayout({
        partnerId: tx.partnerId,
        txId: tx.txId,
        idempotencyKey: key,
        requestFingerprint: fingerprintOf(tx.txId),
      });
      if (res.transaction?.status !== TransactionStatus.PROCESSING || res.transaction.txId !== tx.txId) {
        unexpected.push(`execute ${tx.txId} answered ${res.transaction?.status}`);
      }
      if (!res.replayed) tx.executedBy.push(key);
    } catch (error) {
      expectReason(`execute ${tx.txId}/${key}`, await reasonOf(Promise.reject(error)), [
        "IDEMPOTENCY_KEY_IN_USE",
        "TRANSACTION_NOT_PENDING",
        "INSUFFICIENT_FUNDS",
      ]);
    }
  };

  const railResult = async (tx: ModelTx, outcome: "SUCCESS" | "FAILED") => {
    try {
      const res = await h.client.recordRailResult({ txId: tx.txId, outcome, reason: "audit" });
      if (res.changed) tx.railChanges.push(outcome);
    } catch (error) {
      expectReason(`rail ${outcome} ${tx.txId}`, await reasonOf(Promise.reject(error)), [
        "TRANSACTION_NOT_PROCESSING",
      ]);
    }
  };

  const refund = async (tx: ModelTx) => {
    const reason = await reasonOf(h.client.refundTransaction({ txId: tx.txId, reason: "audit" }));
    if (reason === "OK") tx.refunds++;
    else expectReason(`refund ${tx.txId}`, reason, ["TRANSACTION_NOT_REFUNDABLE"]);
  };

  for (let round = 0; round < ROUNDS; round++) {
    const ops: Array<() => Promise<void>> = [];
    for (let i = 0; i < OPS_PER_ROUND; i++) {
      const tx = rand.pick(txs);
      const roll = rand.next();
      if (roll < 0.4) {
        // A new key, or one this tx already used (a client retry), sometimes twice at once.
        const reuse = tx.keys.length > 0 && rand.next() < 0.5;
        const key = reuse ? rand.pick(tx.keys) : `key_${round}_${i}`;
        if (!reuse) tx.keys.push(key);
        ops.push(() => execute(tx, key));
        if (rand.next() < 0.2) ops.push(() => execute(tx, key));
      } else if (roll < 0.7) {
        const outcome = rand.next() < 0.75 ? "SUCCESS" : "FAILED";
        ops.push(() => railResult(tx, outcome));
        if (rand.next() < 0.3) ops.push(() => railResult(tx, outcome)); // duplicate callback
      } else if (roll < 0.85) {
        ops.push(() => refund(tx));
      } else if (roll < 0.93) {
        const amount = `${rand.int(1, 30)}.${rand.digits(12)}`;
        const key = freshKey();
        ops.push(() => credit(tx.partnerId, amount, key));
        if (rand.next() < 0.3) ops.push(() => credit(tx.partnerId, amount, key)); // an operator's retry
      } else {
        ops.push(async () => {
          expectReason(
            "foreign execute",
            await reasonOf(
              h.client.executePayout({
                partnerId: "ptr_intruder",
                txId: tx.txId,
                idempotencyKey: "k",
                requestFingerprint: fingerprintOf(tx.txId),
              }),
            ),
            ["TRANSACTION_NOT_FOUND"],
          );
        });
      }
    }
    await Promise.all(ops.map((op) => op()));
  }

  expect(unexpected).toEqual([]);
  await checkAgainstModel(txs, credits);
}

async function checkAgainstModel(txs: readonly ModelTx[], credits: ReadonlyMap<string, Dec>): Promise<void> {
  const zero = () => new Dec(0);
  const expected = new Map<string, { balance: Dec; inFlight: Dec; settled: Dec; fees: Dec }>();
  for (const [partnerId, credited] of credits) {
    expected.set(partnerId, { balance: credited, inFlight: zero(), settled: zero(), fees: zero() });
  }
  for (const tx of txs) {
    const { transaction } = await h.client.getTransaction({ partnerId: tx.partnerId, txId: tx.txId });
    const status = transaction?.status;
    const e = expected.get(tx.partnerId)!;
    const where = `${tx.txId} (${TransactionStatus[status ?? 0]}, executed by ${tx.executedBy.join("|")}, rail ${tx.railChanges.join("|")}, refunds ${tx.refunds})`;
    // Exactly one accepted execution per executed transaction, whatever the keys and races.
    expect(tx.executedBy.length, where).toBe(status === TransactionStatus.PENDING ? 0 : 1);
    const settledOnce = status === TransactionStatus.SUCCESS || status === TransactionStatus.REFUNDED;
    expect(tx.railChanges, where).toEqual(
      settledOnce ? ["SUCCESS"] : status === TransactionStatus.FAILED ? ["FAILED"] : [],
    );
    expect(tx.refunds, where).toBe(status === TransactionStatus.REFUNDED ? 1 : 0);
    if (status === TransactionStatus.PROCESSING) {
      e.balance = e.balance.minus(tx.total);
      e.inFlight = e.inFlight.plus(tx.total);
    } else if (status === TransactionStatus.SUCCESS) {
      e.balance = e.balance.minus(tx.total);
      e.settled = e.settled.plus(tx.amountUsd);
      e.fees = e.fees.plus(tx.fee);
    }
  }
  for (const [partnerId, e] of expected) {
    expect(await balanceOf(h.db, partnerId), partnerId).toBe(e.balance.toFixed());
    expect(await balanceOf(h.db, partnerId, "in_flight"), partnerId).toBe(e.inFlight.toFixed());
    expect(await balanceOf(h.db, partnerId, "settled"), partnerId).toBe(e.settled.toFixed());
    expect(await balanceOf(h.db, partnerId, "fees"), partnerId).toBe(e.fees.toFixed());
    expect((await h.client.getBalance({ partnerId })).balanceUsd).toBe(e.balance.toFixed());
  }
  await assertLedgerInvariants(h.db);
  await waitFor("every event published", async () => {
    const res = await h.db.query("SELECT 1 FROM ledger.outbox WHERE published_at IS NULL LIMIT 1");
    return res.rowCount === 0;
  });
  assertPublishedInOrder();
}

function assertPublishedInOrder(): void {
  const lastByTx = new Map<string, number>();
  const seen = new Set<string>();
  for (const m of h.published) {
    const id = m.headers["event-id"]!;
    if (seen.has(id)) continue; // at-least-once: duplicates allowed, never reordering
    seen.add(id);
    const { sequence } = decodeSequence(m.value);
    const last = lastByTx.get(m.key) ?? 0;
    if (sequence !== last + 1) throw new Error(`event ${sequence} of ${m.key} published after ${last}`);
    lastByTx.set(m.key, sequence);
  }
}

function decodeSequence(value: Uint8Array): { sequence: number } {
  return { sequence: Number(fromBinary(TransactionEventSchema, value).sequence) };
}

function fingerprintOf(txId: string): string {
  return Buffer.from(txId.padEnd(32, "0").slice(0, 32)).toString("hex");
}
