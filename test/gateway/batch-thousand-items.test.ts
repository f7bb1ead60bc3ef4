/**
 * A bulk payout of 1,000 items across every corridor, through the partner API on the real platform (real
 * PostgreSQL, every service, the sandbox rail settling by itself). Items are built deterministically: valid
 * destinations with correct check digits, and invalid ones of four known kinds (a wrong check digit, a
 * destination the sandbox does not know, an amount outside the corridor's limits, a missing field). The test
 * computes each invalid item's code and field from how it built it, then checks validation, exact funding
 * (one cent short is refused with `shortfall_usd` "0.01"), completion and the money audit.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf } from "../client/support/client-fixtures.js";
import { SENDER } from "../lookup/lookup-fixtures.js";
import { type Credentials, startTestPlatform, type TestPlatform } from "../support/test-platform.js";

// biome-ignore lint/suspicious/noExplicitAny: the test reads JSON answers field by field
type Json = Record<string, any>;

interface Corridor {
  readonly country: string;
  readonly currency: string;
  /** Local units per USD; corridor limits are 1 and 1,000 USD worth. */
  readonly rate: number;
  /** A destination the sandbox names (check digits correct). */
  readonly valid: Record<string, unknown>;
  /** The same shape with a destination the sandbox reports as not found. */
  readonly notFound: Record<string, unknown>;
  /** The same shape with one check digit wrong, where the corridor's destination has one. */
  readonly badCheckDigit?: Record<string, unknown>;
  /** The field that carries the destination. */
  readonly destinationField: string;
}

const BO_RECIPIENT = { name_first: "Juan", name_last: "Mamani", ic_number: "1234567 LP" };

const CORRIDORS: readonly Corridor[] = [
  {
    country: "AR",
    currency: "ARS",
    rate: 1000,
    valid: { payment_method: "payment_key", payment_destination: "0110012920000091344977" },
    badCheckDigit: { payment_method: "payment_key", payment_destination: "0110012920000091344978" },
    notFound: { payment_method: "payment_key", payment_destination: "2850590900000000000000" },
    destinationField: "payment_destination",
  },
  {
    country: "BR",
    currency: "BRL",
    rate: 5,
    valid: {
      payment_method: "payment_key",
      payment_destination: "52998224725",
      payment_destination_code: "PIX",
    },
    badCheckDigit: {
      payment_method: "payment_key",
      payment_destination: "52998224726",
      payment_destination_code: "PIX",
    },
    notFound: {
      payment_method: "payment_key",
      payment_destination: "00000000191",
      payment_destination_code: "PIX",
    },
    destinationField: "payment_destination",
  },
  {
    country: "PE",
    currency: "PEN",
    rate: 4,
    valid: { payment_method: "ewallet", payment_destination: "912345678", payment_destination_code: "YAPE" },
    notFound: {
      payment_method: "ewallet",
      payment_destination: "900000000",
      payment_destination_code: "YAPE",
    },
    destinationField: "payment_destination",
  },
  {
    country: "BO",
    currency: "BOB",
    rate: 7,
    valid: {
      payment_method: "bank_transfer",
      payment_destination: "4012345678",
      payment_destination_code: "1",
      account_type: "SAVINGS",
      recipient: BO_RECIPIENT,
    },
    notFound: {
      payment_method: "bank_transfer",
      payment_destination: "0000000000",
      payment_destination_code: "1",
      account_type: "SAVINGS",
      recipient: BO_RECIPIENT,
    },
    destinationField: "payment_destination",
  },
  {
    country: "CO",
    currency: "COP",
    rate: 4000,
    valid: {
      payment_method: "payment_key",
      payment_destination: "3001234567",
      payment_destination_code: "BREB",
    },
    notFound: {
      payment_method: "payment_key",
      payment_destination: "3000000000",
      payment_destination_code: "BREB",
    },
    destinationField: "payment_destination",
  },
  {
    country: "NG",
    currency: "NGN",
    rate: 1500,
    valid: {
      payment_method: "bank_transfer",
      payment_destination: "0123456785",
      payment_destination_code: "058",
    },
    badCheckDigit: {
      payment_method: "bank_transfer",
      payment_destination: "0123456784",
      payment_destination_code: "058",
    },
    notFound: {
      payment_method: "bank_transfer",
      payment_destination: "9999999990",
      payment_destination_code: "058",
    },
    destinationField: "payment_destination",
  },
  {
    country: "GH",
    currency: "GHS",
    rate: 15,
    valid: {
      payment_method: "bank_transfer",
      payment_destination: "0241234567",
      payment_destination_code: "MTN",
    },
    notFound: {
      payment_method: "bank_transfer",
      payment_destination: "0240000000",
      payment_destination_code: "MTN",
    },
    destinationField: "payment_destination",
  },
  {
    country: "ZM",
    currency: "ZMW",
    rate: 27,
    valid: {
      payment_method: "bank_transfer",
      payment_destination: "0020756300173",
      payment_destination_code: "ZNCOZMLU",
    },
    notFound: {
      payment_method: "bank_transfer",
      payment_destination: "0000000000000",
      payment_destination_code: "ZNCOZMLU",
    },
    destinationField: "payment_destination",
  },
  ...(
    [
      ["KE", "KES", 130],
      ["TZ", "TZS", 2600],
      ["UG", "UGX", 3700],
    ] as const
  ).map(([country, currency, rate]) => ({
    country,
    currency,
    rate,
    valid: { payment_method: "payment_key", payment_destination: "123456" },
    notFound: { payment_method: "payment_key", payment_destination: "000000" },
    destinationField: "payment_destination",
  })),
  {
    country: "VN",
    currency: "VND",
    rate: 26000,
    valid: { payment_method: "bank_transfer", merchant_id: "0011001234567", account_reference: "970436" },
    notFound: { payment_method: "bank_transfer", merchant_id: "0000000000", account_reference: "970436" },
    destinationField: "merchant_id",
  },
];

/** A Pix e-mail key the sandbox rail refuses by design (it contains "fail"): a valid item that ends FAILED. */
const BR_FAILING = {
  payment_method: "payment_key",
  payment_destination: "fail@example.com",
  payment_destination_code: "PIX",
};

const ITEMS = 1000;

interface Built {
  readonly items: Json[];
  /** `item_ref|code|field` of every item validation must refuse. */
  readonly invalid: Set<string>;
  readonly validRefs: Set<string>;
  /** Valid items the sandbox rail fails by design. */
  readonly failingRefs: Set<string>;
}

/** Item n: corridor n mod 12; every 10th item is invalid, its kind cycling through the four. */
function buildItems(customerId: string): Built {
  const items: Json[] = [];
  const invalid = new Set<string>();
  const validRefs = new Set<string>();
  const failingRefs = new Set<string>();
  let invalidSeen = 0;
  for (let n = 0; n < ITEMS; n++) {
    const corridor = CORRIDORS[n % CORRIDORS.length]!;
    const itemRef = `k-${String(n).padStart(4, "0")}`;
    // 1 to 20 USD worth, in whole local units.
    const base = {
      item_ref: itemRef,
      partner_transaction_id: `ptx-${itemRef}`,
      customer_id: customerId,
      country_code: corridor.country,
      amount: String(corridor.rate * (1 + (n % 20))),
    };
    if (n % 10 === 9) {
      const kind = invalidSeen++ % 4;
      if (kind === 0 && corridor.badCheckDigit) {
        items.push({ ...base, ...corridor.badCheckDigit });
        invalid.add(`${itemRef}|INVALID_DESTINATION|payment_destination`);
      } else if (kind === 0 || kind === 1) {
        items.push({ ...base, ...corridor.notFound });
        invalid.add(`${itemRef}|UNKNOWN_DESTINATION|${corridor.destinationField}`);
      } else if (kind === 2) {
        items.push({ ...base, ...corridor.valid, amount: String(corridor.rate * 2000) });
        invalid.add(`${itemRef}|AMOUNT_OUT_OF_RANGE|amount`);
      } else {
        const { [corridor.destinationField]: _dropped, ...rest } = corridor.valid;
        items.push({ ...base, ...rest });
        invalid.add(`${itemRef}|MISSING_REQUIRED_FIELD|${corridor.destinationField}`);
      }
    } else if (corridor.country === "BR" && n % 7 === 0) {
      items.push({ ...base, ...BR_FAILING });
      validRefs.add(itemRef);
      failingRefs.add(itemRef);
    } else {
      items.push({ ...base, ...corridor.valid });
      validRefs.add(itemRef);
    }
  }
  return { items, invalid, validRefs, failingRefs };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

describe("a bulk payout of 1,000 items across every corridor", () => {
  let platform: TestPlatform;
  let partner: Credentials & { partnerId: string };
  let customerId: string;

  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    platform.partner(partner, method, path, body, headers);
  const credit = async (amountUsd: string, key: string) => {
    const res = await platform.admin(
      "POST",
      `/admin/partners/${partner.partnerId}/balance/credits`,
      { amount_usd: amountUsd, reference: "thousand-item batch funding" },
      { "X-Idempotency-Key": `${key}-${partner.partnerId}` },
    );
    expect(res.status, res.text).toBe(201);
  };
  const allItems = async (batchId: string): Promise<Json[]> => {
    const out: Json[] = [];
    let cursor: string | null = null;
    do {
      const page = await call(
        "GET",
        `/batches/${batchId}/items?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(page.status, page.text).toBe(200);
      out.push(...page.json.items);
      cursor = page.json.next_cursor;
    } while (cursor);
    return out;
  };

  beforeAll(async () => {
    platform = await startTestPlatform({
      env: {
        QUOTE_TTL_MS: "600000",
        SANDBOX_AUTO_SETTLE_MS: "100",
        BATCH_WORK_INTERVAL_MS: "100",
        RAIL_RETRY_INTERVAL_MS: "200",
      },
    });
    for (const c of CORRIDORS) {
      const rate = await platform.admin("PUT", `/admin/fx-rates/${c.currency}`, {
        rate_per_usd: String(c.rate),
      });
      expect(rate.status, rate.text).toBe(200);
      const corridor = await platform.admin("PUT", `/admin/corridors/${c.country}`, {
        currency: c.currency,
        min_amount: String(c.rate),
        max_amount: String(c.rate * 1000),
        enabled: true,
      });
      expect(corridor.status, corridor.text).toBe(200);
    }
    partner = await platform.createPartner({
      supported_currencies: CORRIDORS.map((c) => c.currency),
      fees: { percent: "1.5", fixed_usd: "0.30" },
    });
    const customer = await platform.partner(partner, "POST", "/customers", SENDER);
    expect(customer.status, customer.text).toBe(201);
    customerId = customer.json.customer_id;
  }, 60_000);
  afterAll(async () => {
    await platform?.close();
  });

  it("validates, funds to the cent, pays and balances exactly", async () => {
    const started = Date.now();
    const built = buildItems(customerId);
    const created = await call(
      "POST",
      "/batches",
      { items: built.items.slice(0, 500) },
      { "X-Idempotency-Key": `k-${randomBytes(6).toString("hex")}` },
    );
    expect(created.status, created.text).toBe(202);
    const batchId: string = created.json.batch_id;
    const added = await call("PUT", `/batches/${batchId}/items`, { items: built.items.slice(500) });
    expect(added.status, added.text).toBeLessThan(300);

    const validated = await eventually(
      "validation",
      async () => {
        const batch = await call("GET", `/batches/${batchId}`);
        return batch.json.status === "VALIDATING" ? undefined : batch.json;
      },
      150_000,
    );
    const validatedMs = Date.now() - started;
    expect(validated.status).toBe("VALIDATED");

    const items = await allItems(batchId);
    expect(items).toHaveLength(ITEMS);
    const invalidItems = items.filter((i) => i.status === "INVALID");
    expect(new Set(invalidItems.map((i) => `${i.item_ref}|${i.error_code}|${i.error_field}`))).toEqual(
      built.invalid,
    );
    const validItems = items.filter((i) => i.status !== "INVALID");
    expect(new Set(validItems.map((i) => i.item_ref))).toEqual(built.validRefs);
    for (const item of validItems) {
      expect(item.status, item.item_ref).toBe("PENDING");
      // Every valid sandbox destination built here has a holder name.
      expect(String(item.verified_name ?? "").trim(), item.item_ref).not.toBe("");
    }
    expect(validated.counts).toMatchObject({ total: ITEMS, invalid: built.invalid.size, excluded: 0 });
    expect(validItems.length + invalidItems.length).toBe(ITEMS);
    const itemTotal = validItems.reduce<Dec>((sum, i) => sum.plus(i.total_usd), new Dec(0));
    expect(itemTotal.eq(validated.total_usd)).toBe(true);

    // One cent short: refused with the exact shortfall, and nothing moves.
    const total = new Dec(validated.total_usd);
    await credit(toDecimalString(total.minus("0.01")), "short");
    const before = await balanceOf(platform, partner.partnerId);
    const refused = await call("POST", `/batches/${batchId}/approve`);
    expect([refused.status, refused.json.code], refused.text).toEqual([409, "INSUFFICIENT_FUNDS"]);
    expect(new Dec(refused.json.shortfall_usd).eq("0.01"), refused.text).toBe(true);
    expect(await balanceOf(platform, partner.partnerId)).toBe(before);

    await credit("0.01", "cent");
    const start = new Dec(await balanceOf(platform, partner.partnerId));
    expect(start.eq(total)).toBe(true);
    const approved = await call("POST", `/batches/${batchId}/approve`);
    expect([approved.status, approved.json.status], approved.text).toEqual([200, "PROCESSING"]);

    const completed = await eventually(
      "completion",
      async () => {
        const batch = await call("GET", `/batches/${batchId}`);
        if (process.env.BATCH_1K_PROGRESS)
          appendFileSync(
            process.env.BATCH_1K_PROGRESS,
            `${Date.now() - started} ${batch.json.status} ${JSON.stringify(batch.json.counts)}\n`,
          );
        return batch.json.status === "COMPLETED" ? batch.json : undefined;
      },
      200_000,
    );
    const completedMs = Date.now() - started;

    const final = await allItems(batchId);
    const succeeded = final.filter((i) => i.status === "SUCCESS");
    const failed = final.filter((i) => i.status === "FAILED");
    expect(new Set(failed.map((i) => i.item_ref))).toEqual(built.failingRefs);
    expect(succeeded.length + failed.length).toBe(built.validRefs.size);
    expect(completed.counts).toMatchObject({
      total: ITEMS,
      succeeded: succeeded.length,
      failed: failed.length,
      invalid: built.invalid.size,
      excluded: 0,
    });
    expect(completed.reserved_usd).toBe("0");

    const paid = succeeded.reduce<Dec>((sum, i) => sum.plus(i.total_usd), new Dec(0));
    const balance = await balanceOf(platform, partner.partnerId);
    expect(new Dec(balance).eq(start.minus(paid)), `${balance} vs ${start.minus(paid)}`).toBe(true);

    // No transaction is debited twice.
    const txIds = final.map((i) => i.tx_id).filter((t): t is string => typeof t === "string");
    const debits = await platform.runtime.db.query<{ tx_id: string; n: number }>(
      `SELECT tx_id, count(*)::int AS n FROM ledger.movements
        WHERE tx_id = ANY($1::text[]) AND kind IN ('payout', 'batch_payout') GROUP BY tx_id`,
      [txIds],
    );
    expect(debits.rows.filter((r) => r.n > 1)).toEqual([]);
    expect(debits.rows.length).toBeGreaterThanOrEqual(succeeded.length);
    // The reservation paid out every debited item; a debited item that failed was reversed to the balance
    // like any failed payout, and completion released the rest.
    const debited = new Set(debits.rows.map((r) => r.tx_id));
    const reversed = failed
      .filter((i) => debited.has(i.tx_id))
      .reduce<Dec>((sum, i) => sum.plus(i.total_usd), new Dec(0));
    expect(new Dec(completed.released_usd).eq(total.minus(paid).minus(reversed))).toBe(true);

    // Settlements and the fan-out meet on the batch row before any account row, so PostgreSQL never had to
    // break a deadlock between them (its counter is per database; this one is the platform's own).
    const deadlocks = await platform.runtime.db.query<{ deadlocks: string }>(
      "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()",
    );
    expect(Number(deadlocks.rows[0]?.deadlocks)).toBe(0);

    const invalidByCode: Record<string, number> = {};
    for (const i of invalidItems) invalidByCode[i.error_code] = (invalidByCode[i.error_code] ?? 0) + 1;
    console.log(
      `batch-thousand-items: items=${ITEMS} valid=${validItems.length} invalid=${JSON.stringify(invalidByCode)} ` +
        `excluded=${completed.counts.excluded} succeeded=${succeeded.length} failed=${failed.length} ` +
        `paid_usd=${toDecimalString(paid)} reversed_usd=${toDecimalString(reversed)} ` +
        `total_usd=${completed.total_usd} released_usd=${completed.released_usd} final_balance=${balance} ` +
        `validated_in_ms=${validatedMs} completed_in_ms=${completedMs}`,
    );
  }, 420_000);
});
