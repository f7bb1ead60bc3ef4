/**
 * The fault-injection suite's verdict, as pure functions of what the run left behind: the ledger's rows,
 * the webhook receiver's records and the processes' exits. Each fault phase pays out through a partner of
 * its own, so money and webhooks are attributed to a phase by partner; exits by time.
 */
import { type Resumption, resumptionProblems } from "./resumption.js";
import { formatUsd, sumUsd, toAttoUsd } from "./usd.js";

export type NotificationKind = "success" | "failed" | "refunded";

/** One fault of the run (or the baseline), in the order they ran. */
export interface FaultPhase {
  readonly fault: string;
  /** The partner whose payouts ran during this phase. */
  readonly partnerId: string;
  /** What the suite credited to that partner (acknowledged by the admin API), in USD. */
  readonly creditedUsd: string;
  /** `Date.now()` when the phase began; it lasts until the next one begins. */
  readonly startedAt: number;
}

/** A transaction that executePayout debited (ledger.transactions with debited_usd set). */
export interface ExecutedPayout {
  readonly txId: string;
  readonly partnerId: string;
  readonly status: string;
  readonly debitedUsd: string;
  /** `payout` movements of the transaction (ledger.movements). */
  readonly payoutMovements: number;
  /** Negative entries on the partner's `balance` account made by those movements. */
  readonly balanceDebits: number;
}

/** A partner's spendable balance as the ledger keeps it, and the credits its book holds. */
export interface PartnerBalance {
  readonly partnerId: string;
  /** ledger.accounts, kind `balance`. */
  readonly balanceUsd: string;
  /** Sum of the `credit` movements' entries on `balance`. */
  readonly ledgerCreditsUsd: string;
}

/** One POST the receiver got, in arrival order. */
export interface ReceivedNotification {
  /** Arrival order across the whole run. */
  readonly sequence: number;
  /** The partner whose receiver path it came to; undefined for a path the suite never configured. */
  readonly partnerId: string | undefined;
  /** From the path `/webhooks/transactions/<kind>`; undefined for any other path. */
  readonly kind: NotificationKind | undefined;
  readonly txId: string | undefined;
  readonly eventId: string | undefined;
  readonly eventType: string | undefined;
  readonly bodyStatus: string | undefined;
  /** SHA-256 of the raw body: a redelivery must resend the same bytes. */
  readonly bodyDigest: string;
  readonly serviceSignatureValid: boolean;
  readonly standardSignatureValid: boolean;
  /** What the receiver answered: 200 when both signatures verify, 401 otherwise, 500 while it is failing. */
  readonly answer: number;
  /** `Date.now()` when it arrived. */
  readonly receivedAt: number;
}

export interface ProcessExitEvent {
  readonly role: string;
  readonly replica: number;
  readonly pid: number | undefined;
  readonly at: number;
  /** What the suite did to it: `kill` (kill -9), `stop` (SIGTERM, must exit 0), nothing (it died). */
  readonly cause: "kill" | "stop" | undefined;
  readonly code: number | null;
  readonly signal: string | null;
}

export interface AuditInput {
  readonly phases: readonly FaultPhase[];
  readonly payouts: readonly ExecutedPayout[];
  readonly balances: readonly PartnerBalance[];
  readonly notifications: readonly ReceivedNotification[];
  readonly exits: readonly ProcessExitEvent[];
  /** How soon webhooks flowed again after the faults that are held to a limit (resumption.ts). */
  readonly resumptions: readonly Resumption[];
}

/** The columns of the audit table that must all be 0. */
export const PROBLEM_COLUMNS = [
  "doubleDebits",
  "balanceMismatches",
  "stuck",
  "missingWebhooks",
  "badSignatures",
  "orderViolations",
  "unexpectedExits",
] as const;
export type ProblemColumn = (typeof PROBLEM_COLUMNS)[number];

export interface AuditRow extends Record<ProblemColumn, number> {
  readonly fault: string;
  /** Executed payouts (debited), and how many of them ended FAILED and REFUNDED. */
  readonly payouts: number;
  readonly failed: number;
  readonly refunded: number;
}

/** One problem, explained. `check` is a problem column, or `coverage` for a run that proved too little. */
export interface Finding {
  readonly fault: string;
  readonly check: ProblemColumn | "coverage" | "resumption" | "batch";
  readonly detail: string;
}

export interface AuditReport {
  readonly rows: readonly AuditRow[];
  readonly total: AuditRow;
  readonly findings: readonly Finding[];
  readonly resumptions: readonly Resumption[];
  readonly passed: boolean;
}

const TOTAL = "total";
const UNATTRIBUTED = "(no phase)";

/** Audits a run: one row per phase, a total row, and every finding. */
export function auditRun(input: AuditInput): AuditReport {
  const findings: Finding[] = [];
  const phaseOfPartner = new Map(input.phases.map((p) => [p.partnerId, p.fault]));
  const payoutsByTx = new Map(input.payouts.map((p) => [p.txId, p]));
  const faultOfPartner = (partnerId: string | undefined) =>
    (partnerId !== undefined ? phaseOfPartner.get(partnerId) : undefined) ?? UNATTRIBUTED;

  const add = (fault: string, check: ProblemColumn, detail: string) =>
    findings.push({ fault, check, detail });

  for (const payout of input.payouts) {
    const fault = faultOfPartner(payout.partnerId);
    if (payout.payoutMovements > 1 || payout.balanceDebits > 1) {
      add(
        fault,
        "doubleDebits",
        `${payout.txId}: ${payout.payoutMovements} payout movements, ${payout.balanceDebits} balance debits`,
      );
    }
    if (payout.status === "PROCESSING") add(fault, "stuck", `${payout.txId} is still PROCESSING`);
  }

  for (const phase of input.phases) checkBalance(phase, input, add);
  checkNotifications(input, payoutsByTx, faultOfPartner, add);
  for (const exit of input.exits) {
    const problem = exitProblem(exit);
    if (problem) add(phaseAt(input.phases, exit.at), "unexpectedExits", problem);
  }

  const rows = input.phases.map((phase) =>
    row(
      phase.fault,
      input.payouts.filter((p) => p.partnerId === phase.partnerId),
      findings.filter((f) => f.fault === phase.fault),
    ),
  );
  const total = row(TOTAL, input.payouts, findings);
  checkCoverage(rows, total, input.notifications, findings);
  for (const r of input.resumptions) {
    for (const p of resumptionProblems(r)) findings.push({ ...p, check: "resumption" });
  }
  return { rows, total, findings, resumptions: input.resumptions, passed: findings.length === 0 };
}

function row(fault: string, payouts: readonly ExecutedPayout[], findings: readonly Finding[]): AuditRow {
  const count = (check: ProblemColumn) => findings.filter((f) => f.check === check).length;
  return {
    fault,
    payouts: payouts.length,
    failed: payouts.filter((p) => p.status === "FAILED").length,
    refunded: payouts.filter((p) => p.status === "REFUNDED").length,
    doubleDebits: count("doubleDebits"),
    balanceMismatches: count("balanceMismatches"),
    stuck: count("stuck"),
    missingWebhooks: count("missingWebhooks"),
    badSignatures: count("badSignatures"),
    orderViolations: count("orderViolations"),
    unexpectedExits: count("unexpectedExits"),
  };
}

/**
 * credits − debits + reversals + refunds must be the balance: every executed payout took its total,
 * a FAILED one got it back by reversal and a REFUNDED one by refund. The ledger's own credit entries must
 * match what the suite credited (a credit applied twice or lost would show there).
 */
function checkBalance(
  phase: FaultPhase,
  input: AuditInput,
  add: (fault: string, check: ProblemColumn, detail: string) => void,
): void {
  const payouts = input.payouts.filter((p) => p.partnerId === phase.partnerId);
  const debits = sumUsd(payouts.map((p) => p.debitedUsd));
  const returned = sumUsd(
    payouts.filter((p) => p.status === "FAILED" || p.status === "REFUNDED").map((p) => p.debitedUsd),
  );
  const expected = toAttoUsd(phase.creditedUsd) - debits + returned;
  const balance = input.balances.find((b) => b.partnerId === phase.partnerId);
  if (!balance) {
    add(phase.fault, "balanceMismatches", `${phase.partnerId}: no balance account in the ledger`);
    return;
  }
  if (toAttoUsd(balance.balanceUsd) !== expected) {
    add(
      phase.fault,
      "balanceMismatches",
      `${phase.partnerId}: balance ${balance.balanceUsd} USD, expected ${formatUsd(expected)} ` +
        `(credits ${phase.creditedUsd} − debits ${formatUsd(debits)} + reversals and refunds ${formatUsd(returned)})`,
    );
  }
  if (toAttoUsd(balance.ledgerCreditsUsd) !== toAttoUsd(phase.creditedUsd)) {
    add(
      phase.fault,
      "balanceMismatches",
      `${phase.partnerId}: the ledger holds ${balance.ledgerCreditsUsd} USD of credits, the suite made ${phase.creditedUsd}`,
    );
  }
}

/** Which notifications a payout in this final status must have produced. */
export function requiredNotifications(status: string): NotificationKind[] {
  switch (status) {
    case "SUCCESS":
      return ["success"];
    case "FAILED":
      return ["failed"];
    case "REFUNDED":
      return ["success", "refunded"];
    default:
      return [];
  }
}

/** The final statuses a notification of this kind is consistent with. */
const CONSISTENT_STATUSES: Readonly<Record<NotificationKind, readonly string[]>> = {
  success: ["SUCCESS", "REFUNDED"],
  failed: ["FAILED"],
  refunded: ["REFUNDED"],
};

function checkNotifications(
  input: AuditInput,
  payoutsByTx: ReadonlyMap<string, ExecutedPayout>,
  faultOfPartner: (partnerId: string | undefined) => string,
  add: (fault: string, check: ProblemColumn, detail: string) => void,
): void {
  const arrivals = [...input.notifications].sort((a, b) => a.sequence - b.sequence);
  const accepted = new Map<string, ReceivedNotification[]>();
  const bodyOfEvent = new Map<string, string>();

  for (const n of arrivals) {
    const fault = faultOfPartner(n.partnerId);
    const where = `notification #${n.sequence} (${n.kind ?? "unknown path"}${n.txId ? ` of ${n.txId}` : ""})`;
    if (n.partnerId === undefined || n.kind === undefined) {
      add(fault, "badSignatures", `${where}: sent to a path the suite never configured`);
      continue;
    }
    if (!n.serviceSignatureValid || !n.standardSignatureValid) {
      const bad = [
        n.serviceSignatureValid ? undefined : "X-SERVICE-Signature",
        n.standardSignatureValid ? undefined : "webhook-signature",
      ].filter(Boolean);
      add(fault, "badSignatures", `${where}: ${bad.join(" and ")} did not verify`);
      continue;
    }
    if (n.eventId !== undefined) {
      const seen = bodyOfEvent.get(n.eventId);
      if (seen !== undefined && seen !== n.bodyDigest) {
        add(fault, "orderViolations", `${where}: event ${n.eventId} was sent again with other bytes`);
      }
      bodyOfEvent.set(n.eventId, seen ?? n.bodyDigest);
    }
    if (
      n.txId === undefined ||
      n.bodyStatus !== n.kind.toUpperCase() ||
      n.eventType !== `transaction.${n.kind}`
    ) {
      add(
        fault,
        "orderViolations",
        `${where}: body says status ${n.bodyStatus}, event type ${n.eventType}, tx ${n.txId}`,
      );
      continue;
    }
    const payout = payoutsByTx.get(n.txId);
    if (!payout || payout.partnerId !== n.partnerId) {
      add(fault, "orderViolations", `${where}: no payout of partner ${n.partnerId} has this tx_id`);
      continue;
    }
    if (!CONSISTENT_STATUSES[n.kind].includes(payout.status)) {
      add(fault, "orderViolations", `${where}: the payout ended ${payout.status}`);
    }
    if (isAccepted(n)) accepted.set(n.txId, [...(accepted.get(n.txId) ?? []), n]);
  }

  for (const payout of input.payouts) {
    const fault = faultOfPartner(payout.partnerId);
    const got = accepted.get(payout.txId) ?? [];
    const first = (kind: NotificationKind) => got.find((n) => n.kind === kind)?.sequence;
    for (const kind of requiredNotifications(payout.status)) {
      if (first(kind) === undefined) {
        add(fault, "missingWebhooks", `${payout.txId} (${payout.status}): no ${kind} notification accepted`);
      }
    }
    const success = first("success");
    const refunded = first("refunded");
    if (refunded !== undefined && (success === undefined || refunded < success)) {
      add(fault, "orderViolations", `${payout.txId}: refunded (#${refunded}) arrived before success`);
    }
    if (success !== undefined && first("failed") !== undefined) {
      add(fault, "orderViolations", `${payout.txId}: both success and failed were notified`);
    }
  }
}

/** Why an exit counts against the run, or undefined when the suite caused it. */
export function exitProblem(exit: ProcessExitEvent): string | undefined {
  const name = `${exit.role}${exit.replica > 0 ? ` replica ${exit.replica}` : ""} (pid ${exit.pid ?? "?"})`;
  const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
  if (exit.cause === undefined) return `${name} exited by itself with ${how}`;
  if (exit.cause === "stop" && exit.code !== 0) return `${name} did not stop cleanly on SIGTERM: ${how}`;
  return undefined;
}

/** The phase that was running at `at` (the first one for anything earlier). */
export function phaseAt(phases: readonly FaultPhase[], at: number): string {
  let current = phases[0]?.fault ?? UNATTRIBUTED;
  for (const phase of phases) if (phase.startedAt <= at) current = phase.fault;
  return current;
}

/** Answered 2xx: the dispatcher may count it delivered. */
export function isAccepted(n: ReceivedNotification): boolean {
  return n.answer >= 200 && n.answer < 300;
}

/**
 * A phase without payouts proves nothing; the failure and refund paths must have run, and the failing
 * receiver must have refused at least one notification (or the retry path did not run).
 */
function checkCoverage(
  rows: readonly AuditRow[],
  total: AuditRow,
  notifications: readonly ReceivedNotification[],
  findings: Finding[],
): void {
  for (const r of rows) {
    if (r.payouts === 0)
      findings.push({ fault: r.fault, check: "coverage", detail: "no payout ran in this phase" });
  }
  if (total.failed === 0)
    findings.push({
      fault: TOTAL,
      check: "coverage",
      detail: "no payout failed: the failure path did not run",
    });
  if (total.refunded === 0)
    findings.push({
      fault: TOTAL,
      check: "coverage",
      detail: "no payout was refunded: the refund path did not run",
    });
  if (!notifications.some((n) => n.answer >= 500))
    findings.push({
      fault: TOTAL,
      check: "coverage",
      detail: "the receiver refused no notification with 5xx: the retry path did not run",
    });
}
