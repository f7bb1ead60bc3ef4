/**
 * Reconciliation against the rail on the whole platform with real PostgreSQL: real payouts through the
 * partner API on the sandbox rail, settled by its signed callback; then discrepancies planted into the
 * rail's records of the day (3 dropped, 2 wrong amounts, 1 unknown, 1 duplicate, 1 flipped status). Two runs
 * started at once find exactly those 8 breaks, typed, and open each once; a later run opens nothing new;
 * resolving a break records the operator's note, once.
 */
import { utcDayOf } from "@payouts/platform/time/utc-day";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrometheus } from "../observability/support/prometheus-text.js";
import { clearOfMidnight, localDay } from "../support/partner-days.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import {
  executePayout,
  fundedPartner,
  type Partner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "./support/payout-fixtures.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read in assertions
type Json = any;

describe("reconciliation against the sandbox rail", () => {
  let platform: TestPlatform;
  let partner: Partner;
  const txIds: string[] = [];
  /** The UTC day of the payouts: the rail accepts all ten on it. */
  let day: string;

  const startRun = async () => {
    const res = await platform.admin("POST", "/admin/reconciliation/runs", { date: day, started_by: "test" });
    expect(res.status, res.text).toBe(200);
    return res.json;
  };
  const plant = async (body: Record<string, string>) => {
    const res = await platform.admin("POST", `/admin/sandbox/settlements/${day}/discrepancies`, body);
    expect(res.status, res.text).toBe(201);
  };
  const breaksOf = async (query: string): Promise<Json[]> => {
    const res = await platform.admin("GET", `/admin/reconciliation/breaks?${query}`);
    expect(res.status, res.text).toBe(200);
    return res.json.breaks;
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ env: { QUOTE_TTL_MS: "600000", RECONCILIATION_INTERVAL_MS: "0" } });
    await setUpCorridor(platform);
    partner = await fundedPartner(platform, "1000");
    // The ten payouts are one day's: write them clear of a midnight, then reconcile that day.
    await clearOfMidnight("UTC", 90_000);
    day = localDay(Date.now());
    for (let i = 0; i < 10; i++) {
      const txId = await pendingTransaction(platform, partner.partnerId);
      await quoted(platform, partner, txId);
      const executed = await executePayout(platform, partner, txId, `key-${txId}`);
      expect(executed.status, executed.text).toBe(200);
      txIds.push(txId);
    }
    // Nine settled by the rail's callback (one of them failed); the last one still pending at the rail.
    for (const [i, txId] of txIds.slice(0, 9).entries()) {
      const settled = await platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, {
        outcome: i === 8 ? "FAILED" : "SUCCESS",
      });
      expect(settled.status, settled.text).toBe(200);
      expect(settled.json.delivered).toBe(true);
    }
  }, 240_000);
  afterAll(async () => {
    await platform?.close();
  });

  it("finds nothing while the rail's records agree with the ledger", async () => {
    const run = await startRun();
    expect(run).toMatchObject({
      status: "COMPLETED",
      rail: "sandbox",
      date: day,
      rail_records: 10,
      ledger_payouts: 10,
    });
    expect(run.breaks_found).toBe(0);
  });

  it("finds exactly the planted discrepancies, typed, and opens each once across concurrent runs", async () => {
    const [a, b, c, d, e, f, g] = txIds as [string, string, string, string, string, string, string];
    for (const txId of [a, b, c]) await plant({ kind: "DROP_RECORD", tx_id: txId });
    await plant({ kind: "CHANGE_AMOUNT", tx_id: d, amount: "15000.01" });
    await plant({ kind: "CHANGE_AMOUNT", tx_id: e, amount: "14999" });
    await plant({ kind: "ADD_UNKNOWN_RECORD", amount: "2500", currency: "NGN" });
    await plant({ kind: "DUPLICATE_RECORD", tx_id: f });
    await plant({ kind: "FLIP_STATUS", tx_id: g });

    // Two replicas (or two operators) running the day at the same moment.
    const runs = await Promise.all([startRun(), startRun()]);
    for (const run of runs)
      expect(run).toMatchObject({ status: "COMPLETED", breaks_found: 8, rail_records: 9 });
    expect(runs[0].breaks_opened + runs[1].breaks_opened).toBe(8);

    const breaks = await breaksOf(`date=${day}`);
    const table = breaks
      .map((x) => ({
        type: x.type,
        key: x.key,
        ledger: `${x.ledger_amount ?? "-"} ${x.ledger_status || "-"}`,
        rail: `${x.rail_amount ?? "-"} ${x.rail_status || "-"}`,
        detail: x.detail,
      }))
      .sort((x, y) => x.type.localeCompare(y.type) || x.key.localeCompare(y.key));
    console.table(table);
    const unknownRef = breaks.find((x) => x.type === "missing_in_ledger")?.key;
    expect(table.map((x) => [x.type, x.key])).toEqual(
      [
        ["amount_mismatch", d],
        ["amount_mismatch", e],
        ["duplicate_at_rail", f],
        ["missing_at_rail", a],
        ["missing_at_rail", b],
        ["missing_at_rail", c],
        ["missing_in_ledger", unknownRef],
        ["status_mismatch", g],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0])) || String(x[1]).localeCompare(String(y[1]))),
    );
    expect(unknownRef).toMatch(/^sbx_unknown_/);
    expect(breaks.find((x) => x.key === d)).toMatchObject({
      ledger_amount: "15000",
      rail_amount: "15000.01",
      currency: "NGN",
    });
    expect(breaks.find((x) => x.type === "status_mismatch")).toMatchObject({
      ledger_status: "SUCCESS",
      rail_status: "RETURNED",
    });
    expect(breaks.every((x) => x.resolution === null && x.rail === "sandbox" && x.date === day)).toBe(true);
    expect(await breaksOf(`type=missing_at_rail&date=${day}`)).toHaveLength(3);

    // The open-breaks gauge behind the alert rule counts them by type.
    const metrics = await fetch(`${platform.adminUrl}/metrics`);
    expect(metrics.status).toBe(200);
    const openBreaks = Object.fromEntries(
      parsePrometheus(await metrics.text())
        .filter((s) => s.name === "payouts_reconciliation_open_breaks" && s.labels.rail === "sandbox")
        .map((s) => [s.labels.type, s.value]),
    );
    expect(openBreaks).toEqual({
      missing_at_rail: 3,
      missing_in_ledger: 1,
      amount_mismatch: 2,
      status_mismatch: 1,
      duplicate_at_rail: 1,
    });
  });

  it("a later run of the day opens nothing new", async () => {
    const again = await startRun();
    expect(again).toMatchObject({ breaks_found: 8, breaks_opened: 0 });
    expect(await breaksOf(`run_id=${again.run_id}`)).toEqual([]);
    expect(await breaksOf(`date=${day}`)).toHaveLength(8);
    const runs = await platform.admin("GET", `/admin/reconciliation/runs?date=${day}`);
    expect(runs.status, runs.text).toBe(200);
    expect(runs.json.runs.map((r: Json) => r.breaks_opened)).toEqual([
      0,
      expect.any(Number),
      expect.any(Number),
      0,
    ]);
  });

  it("resolves a break with the operator's note, once; unknown ids are 404", async () => {
    const [target] = await breaksOf(`type=status_mismatch&date=${day}`);
    const note = "rail confirmed the payout was paid; its file was wrong";
    const resolved = await platform.admin("POST", `/admin/reconciliation/breaks/${target.break_id}/resolve`, {
      note,
      resolved_by: "ops-alice",
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.json.resolution).toMatchObject({ note, resolved_by: "ops-alice" });
    expect(Date.parse(resolved.json.resolution.resolved_at)).toBeGreaterThan(Date.now() - 60_000);

    const twice = await platform.admin("POST", `/admin/reconciliation/breaks/${target.break_id}/resolve`, {
      note: "again",
      resolved_by: "ops-bob",
    });
    expect(twice.status).toBe(409);
    expect(twice.json.code).toBe("BREAK_ALREADY_RESOLVED");

    const unknown = await platform.admin(
      "POST",
      "/admin/reconciliation/breaks/brk_01m7xx9726hzfmmn1fcz6t8605/resolve",
      {
        note: "x",
        resolved_by: "ops",
      },
    );
    expect([unknown.status, unknown.json.code]).toEqual([404, "RECONCILIATION_BREAK_NOT_FOUND"]);
    const noRun = await platform.admin(
      "GET",
      "/admin/reconciliation/breaks?run_id=rcn_01m7xx9726hzfmmn1fcz6t8605",
    );
    expect([noRun.status, noRun.json.code]).toEqual([404, "RECONCILIATION_RUN_NOT_FOUND"]);

    expect(await breaksOf(`state=open&date=${day}`)).toHaveLength(7);
    expect((await breaksOf(`state=resolved&date=${day}`)).map((x) => x.break_id)).toEqual([target.break_id]);
    // The resolution stands when the break is found again.
    expect((await startRun()).breaks_opened).toBe(0);
    expect((await breaksOf(`state=resolved&date=${day}`))[0].resolution.note).toBe(note);
  });

  it("refuses a bad day, a future day and an unknown rail with stable codes", async () => {
    const post = (body: unknown) => platform.admin("POST", "/admin/reconciliation/runs", body);
    const future = utcDayOf(new Date(Date.now() + 3 * 86_400_000)).day;
    expect((await post({ date: "2026-02-30" })).json).toMatchObject({ code: "INVALID_FIELD", field: "date" });
    expect((await post({ date: future })).json).toMatchObject({ code: "INVALID_FIELD", field: "date" });
    const rail = await post({ date: day, rail: "other-rail" });
    expect([rail.status, rail.json.code]).toEqual([404, "UNKNOWN_RAIL"]);
  });
});

describe("scheduled reconciliation", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ env: { RECONCILIATION_INTERVAL_MS: "100" } });
  });
  afterAll(async () => {
    await platform?.close();
  });

  it("reconciles the previous UTC day once, then leaves it alone", async () => {
    const yesterday = utcDayOf(new Date(Date.now() - 86_400_000)).day;
    const runsOfYesterday = async (): Promise<Json[]> => {
      const res = await platform.admin("GET", `/admin/reconciliation/runs?date=${yesterday}`);
      expect(res.status, res.text).toBe(200);
      return res.json.runs;
    };
    const deadline = Date.now() + 20_000;
    while ((await runsOfYesterday()).length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    // Many intervals later, still the one run: a day with a completed run is not run again.
    await new Promise((r) => setTimeout(r, 1_000));
    const runs = await runsOfYesterday();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      started_by: "scheduler",
      status: "COMPLETED",
      rail: "sandbox",
      breaks_found: 0,
    });
  });
});
