import { describe, expect, it } from "vitest";
import {
  type AuditInput,
  auditRun,
  type ExecutedPayout,
  exitProblem,
  type FaultPhase,
  type ProcessExitEvent,
  phaseAt,
  type ReceivedNotification,
  requiredNotifications,
} from "./audit.js";
import { formatUsd, toAttoUsd } from "./usd.js";

const PHASES: FaultPhase[] = [
  { fault: "baseline", partnerId: "ptr_a", creditedUsd: "1000", startedAt: 1_000 },
  { fault: "kill -9 ledger", partnerId: "ptr_b", creditedUsd: "500.5", startedAt: 2_000 },
];

const payout = (txId: string, partnerId: string, status: string, debitedUsd = "10.45"): ExecutedPayout => ({
  txId,
  partnerId,
  status,
  debitedUsd,
  payoutMovements: 1,
  balanceDebits: 1,
});

let sequence = 0;
const note = (
  txId: string,
  partnerId: string,
  kind: "success" | "failed" | "refunded",
  extra: Partial<ReceivedNotification> = {},
): ReceivedNotification => ({
  sequence: ++sequence,
  partnerId,
  kind,
  txId,
  eventId: `evt_${txId}_${kind}`,
  eventType: `transaction.${kind}`,
  bodyStatus: kind.toUpperCase(),
  bodyDigest: `digest-${txId}-${kind}`,
  serviceSignatureValid: true,
  standardSignatureValid: true,
  answer: 200,
  receivedAt: 1_000 + sequence,
  ...extra,
});

/** A clean run: ptr_a paid 3 (one failed, one refunded), ptr_b paid 1; every webhook arrived in order. */
function cleanRun(): AuditInput {
  return {
    phases: PHASES,
    payouts: [
      payout("tx_1", "ptr_a", "SUCCESS"),
      payout("tx_2", "ptr_a", "FAILED"),
      payout("tx_3", "ptr_a", "REFUNDED", "20.9"),
      payout("tx_4", "ptr_b", "SUCCESS", "0.000000000000000001"),
    ],
    balances: [
      // 1000 − (10.45 + 10.45 + 20.9) + 10.45 + 20.9 = 989.55
      { partnerId: "ptr_a", balanceUsd: "989.55", ledgerCreditsUsd: "1000" },
      { partnerId: "ptr_b", balanceUsd: "500.499999999999999999", ledgerCreditsUsd: "500.5" },
    ],
    notifications: [
      note("tx_1", "ptr_a", "success"),
      note("tx_2", "ptr_a", "failed", { answer: 500 }),
      note("tx_2", "ptr_a", "failed"),
      note("tx_3", "ptr_a", "success"),
      note("tx_3", "ptr_a", "refunded"),
      note("tx_4", "ptr_b", "success"),
    ],
    exits: [
      { role: "ledger", replica: 0, pid: 10, at: 2_500, cause: "kill", code: null, signal: "SIGKILL" },
      { role: "gateway", replica: 1, pid: 11, at: 2_600, cause: "stop", code: 0, signal: null },
    ],
    resumptions: [],
  };
}

describe("auditRun", () => {
  it("passes a clean run and counts payouts, failures and refunds per phase", () => {
    const report = auditRun(cleanRun());
    expect(report.findings).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.rows.map((r) => [r.fault, r.payouts, r.failed, r.refunded])).toEqual([
      ["baseline", 3, 1, 1],
      ["kill -9 ledger", 1, 0, 0],
    ]);
    expect(report.total).toMatchObject({ fault: "total", payouts: 4, failed: 1, refunded: 1, stuck: 0 });
  });

  it("fails on a resumption limit missed and keeps the measures in the report", () => {
    const slow = {
      fault: "kill -9 webhooks",
      from: "kill -9",
      at: 2_000,
      limits: { newEventsMs: 10_000, storedMs: 5_000 },
      newEventsMs: 9_000,
      storedMs: 5_001,
    };
    const report = auditRun({ ...cleanRun(), resumptions: [slow] });
    expect(report.passed).toBe(false);
    expect(report.resumptions).toEqual([slow]);
    expect(report.findings).toEqual([
      {
        fault: "kill -9 webhooks",
        check: "resumption",
        detail: "delivery stored before the fault: first delivered 5.0 s after the kill -9, limit 5.0 s",
      },
    ]);
    expect(auditRun({ ...cleanRun(), resumptions: [{ ...slow, storedMs: 5_000 }] }).passed).toBe(true);
  });

  it("finds a double debit, by movements or by balance entries", () => {
    const run = cleanRun();
    const report = auditRun({
      ...run,
      payouts: run.payouts.map((p) =>
        p.txId === "tx_1" ? { ...p, balanceDebits: 2 } : p.txId === "tx_4" ? { ...p, payoutMovements: 2 } : p,
      ),
    });
    expect(report.passed).toBe(false);
    expect(report.rows.map((r) => r.doubleDebits)).toEqual([1, 1]);
    expect(report.total.doubleDebits).toBe(2);
  });

  it("finds a balance that differs from credits − debits + reversals + refunds by 10^-18 USD", () => {
    const run = cleanRun();
    const report = auditRun({
      ...run,
      balances: [
        { partnerId: "ptr_a", balanceUsd: "989.550000000000000001", ledgerCreditsUsd: "1000" },
        run.balances[1]!,
      ],
    });
    expect(report.rows[0]!.balanceMismatches).toBe(1);
    expect(report.findings[0]!.detail).toContain("expected 989.55");
  });

  it("finds a refund that was never credited back (REFUNDED but the balance kept the debit)", () => {
    const run = cleanRun();
    const report = auditRun({
      ...run,
      balances: [{ partnerId: "ptr_a", balanceUsd: "968.65", ledgerCreditsUsd: "1000" }, run.balances[1]!],
    });
    expect(report.rows[0]!.balanceMismatches).toBe(1);
  });

  it("finds a credit the ledger applied twice, and a partner without an account", () => {
    const run = cleanRun();
    const report = auditRun({
      ...run,
      balances: [{ partnerId: "ptr_a", balanceUsd: "989.55", ledgerCreditsUsd: "2000" }],
    });
    expect(report.rows.map((r) => r.balanceMismatches)).toEqual([1, 1]);
  });

  it("finds a payout stuck in PROCESSING", () => {
    const run = cleanRun();
    const report = auditRun({ ...run, payouts: [...run.payouts, payout("tx_5", "ptr_b", "PROCESSING")] });
    expect(report.rows[1]!.stuck).toBe(1);
    // Its debit is accounted for, so the balance check fails too unless the balance reflects it.
    expect(report.findings.find((f) => f.check === "stuck")!.detail).toBe("tx_5 is still PROCESSING");
  });

  it("finds missing notifications: a refund without its success, a failure only answered with 500", () => {
    const run = cleanRun();
    const report = auditRun({
      ...run,
      notifications: run.notifications.filter(
        (n) => !(n.txId === "tx_3" && n.kind === "success") && !(n.txId === "tx_2" && n.answer === 200),
      ),
    });
    const missing = report.findings.filter((f) => f.check === "missingWebhooks").map((f) => f.detail);
    expect(missing).toEqual([
      "tx_2 (FAILED): no failed notification accepted",
      "tx_3 (REFUNDED): no success notification accepted",
    ]);
    // The refund arrived without a success before it: an order violation as well.
    expect(report.rows[0]!.orderViolations).toBe(1);
  });

  it("finds a refunded notification that came before the success", () => {
    const run = cleanRun();
    const notifications = run.notifications.map((n) =>
      n.txId === "tx_3" ? { ...n, sequence: n.kind === "success" ? 100 : 99 } : n,
    );
    const report = auditRun({ ...run, notifications });
    expect(report.rows[0]!.orderViolations).toBe(1);
    expect(report.findings[0]!.detail).toBe("tx_3: refunded (#99) arrived before success");
  });

  it("ignores a duplicate success after the refund (at least once) when the first one came first", () => {
    const run = cleanRun();
    const duplicate = { ...run.notifications[3]!, sequence: 1_000 };
    expect(auditRun({ ...run, notifications: [...run.notifications, duplicate] }).passed).toBe(true);
  });

  it("finds a redelivery with other bytes, a notification that contradicts the final status, and a body that contradicts its path", () => {
    const run = cleanRun();
    const report = auditRun({
      ...run,
      notifications: [
        ...run.notifications,
        note("tx_1", "ptr_a", "success", { eventId: "evt_tx_1_success", bodyDigest: "other" }),
        note("tx_1", "ptr_a", "failed"),
        note("tx_4", "ptr_b", "success", { bodyStatus: "FAILED" }),
      ],
    });
    expect(report.rows.map((r) => r.orderViolations)).toEqual([3, 1]);
  });

  it("finds a notification for another partner's transaction", () => {
    const run = cleanRun();
    const report = auditRun({
      ...run,
      notifications: [...run.notifications, note("tx_1", "ptr_b", "success")],
    });
    expect(report.rows[1]!.orderViolations).toBe(1);
  });

  it("counts every bad signature and never takes a badly signed notification as delivered", () => {
    const run = cleanRun();
    const notifications = run.notifications.map((n) =>
      n.txId === "tx_4" ? { ...n, standardSignatureValid: false } : n,
    );
    const report = auditRun({
      ...run,
      notifications: [...notifications, { ...note("tx_9", "ptr_x", "success"), partnerId: undefined }],
    });
    expect(report.rows[1]!.badSignatures).toBe(1);
    expect(report.rows[1]!.missingWebhooks).toBe(1);
    expect(report.total.badSignatures).toBe(2);
  });

  it("counts an exit the suite did not cause, and an unclean stop, in the phase it happened", () => {
    const run = cleanRun();
    const report = auditRun({
      ...run,
      exits: [
        ...run.exits,
        {
          role: "webhooks",
          replica: 0,
          pid: 12,
          at: 1_500,
          cause: undefined,
          code: 1,
          signal: null,
        },
        { role: "ledger", replica: 1, pid: 13, at: 9_000, cause: "stop", code: null, signal: "SIGKILL" },
      ],
    });
    expect(report.rows.map((r) => r.unexpectedExits)).toEqual([1, 1]);
    expect(report.findings.map((f) => f.detail)).toEqual([
      "webhooks (pid 12) exited by itself with code 1",
      "ledger replica 1 (pid 13) did not stop cleanly on SIGTERM: signal SIGKILL",
    ]);
  });

  it("fails a run in which a phase paid nothing, nothing failed, nothing was refunded or the receiver never failed", () => {
    const run = cleanRun();
    const report = auditRun({
      ...run,
      payouts: [payout("tx_1", "ptr_a", "SUCCESS")],
      balances: [
        { partnerId: "ptr_a", balanceUsd: "989.55", ledgerCreditsUsd: "1000" },
        { partnerId: "ptr_b", balanceUsd: "500.5", ledgerCreditsUsd: "500.5" },
      ],
      notifications: [note("tx_1", "ptr_a", "success")],
    });
    expect(report.passed).toBe(false);
    expect(report.findings.map((f) => [f.fault, f.check])).toEqual([
      ["kill -9 ledger", "coverage"],
      ["total", "coverage"],
      ["total", "coverage"],
      ["total", "coverage"],
    ]);
    expect(report.findings.at(-1)!.detail).toContain("the retry path did not run");
  });
});

describe("helpers", () => {
  it("requiredNotifications follows the final status", () => {
    expect(requiredNotifications("SUCCESS")).toEqual(["success"]);
    expect(requiredNotifications("REFUNDED")).toEqual(["success", "refunded"]);
    expect(requiredNotifications("FAILED")).toEqual(["failed"]);
    expect(requiredNotifications("PROCESSING")).toEqual([]);
  });

  it("exitProblem accepts kill -9 and a clean stop only", () => {
    const exit: ProcessExitEvent = {
      role: "gateway",
      replica: 0,
      pid: 1,
      at: 0,
      cause: "kill",
      code: null,
      signal: "SIGKILL",
    };
    expect(exitProblem(exit)).toBeUndefined();
    expect(exitProblem({ ...exit, cause: "stop", code: 0, signal: null })).toBeUndefined();
    expect(exitProblem({ ...exit, cause: "stop", code: 1, signal: null })).toContain("did not stop cleanly");
    expect(exitProblem({ ...exit, cause: undefined })).toContain("exited by itself with signal SIGKILL");
  });

  it("phaseAt picks the phase running at that moment", () => {
    expect(phaseAt(PHASES, 0)).toBe("baseline");
    expect(phaseAt(PHASES, 1_999)).toBe("baseline");
    expect(phaseAt(PHASES, 2_000)).toBe("kill -9 ledger");
  });

  it("USD arithmetic is exact to 18 decimals", () => {
    expect(toAttoUsd("0.1") + toAttoUsd("0.2")).toBe(toAttoUsd("0.3"));
    expect(formatUsd(toAttoUsd("-12.500000000000000001"))).toBe("-12.500000000000000001");
    expect(formatUsd(toAttoUsd("7"))).toBe("7");
    expect(() => toAttoUsd("1e3")).toThrow(/not a decimal/);
    expect(() => toAttoUsd("0.0000000000000000001")).toThrow(/not a decimal/);
  });
});
