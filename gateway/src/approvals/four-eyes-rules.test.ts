import { describe, expect, it } from "vitest";
import type { AdminActor } from "../admin/admin-actor.js";
import {
  approvalNeeded,
  decisionRefusal,
  effectiveStatus,
  type FourEyesPolicy,
  needsRedrive,
  type PendingApproval,
} from "./four-eyes-rules.js";

const policy: FourEyesPolicy = { enabled: true, creditThresholdUsd: "10000", ttlMs: 86_400_000 };
const now = new Date("2026-11-28T12:00:00.000Z");
const later = new Date("2026-11-29T12:00:00.000Z");

const alice: AdminActor = { id: "op_alice", name: "alice", kind: "operator", role: "finance" };
const bob: AdminActor = { id: "op_bob", name: "bob", kind: "operator", role: "finance" };
const viewer: AdminActor = { id: "op_vera", name: "vera", kind: "operator", role: "viewer" };
const script: AdminActor = { id: "mc_script", name: "script", kind: "machine", role: "admin" };

const pending = (over: Partial<PendingApproval> = {}): PendingApproval => ({
  action: "BALANCE_CREDIT",
  status: "PENDING",
  requestedBy: { id: alice.id, kind: alice.kind },
  expiresAt: later,
  ...over,
});

describe("approvalNeeded", () => {
  it("gates a credit strictly above the threshold, compared as decimals", () => {
    expect(approvalNeeded(policy, { kind: "credit", amountUsd: "10000.01" })).toBe("BALANCE_CREDIT");
    expect(approvalNeeded(policy, { kind: "credit", amountUsd: "10000.00" })).toBeUndefined();
    expect(approvalNeeded(policy, { kind: "credit", amountUsd: "9999.99" })).toBeUndefined();
    expect(approvalNeeded(policy, { kind: "credit", amountUsd: "100000" })).toBe("BALANCE_CREDIT");
  });

  it("gates every credit when the threshold is 0", () => {
    const everyCredit = { ...policy, creditThresholdUsd: "0" };
    expect(approvalNeeded(everyCredit, { kind: "credit", amountUsd: "0.01" })).toBe("BALANCE_CREDIT");
  });

  it("gates every refund and a forced failure, not a failure the rail confirms", () => {
    expect(approvalNeeded(policy, { kind: "refund" })).toBe("REFUND");
    expect(approvalNeeded(policy, { kind: "fail", force: true })).toBe("FORCE_FAIL");
    expect(approvalNeeded(policy, { kind: "fail", force: false })).toBeUndefined();
  });

  it("gates nothing when four-eyes is off", () => {
    const off = { ...policy, enabled: false };
    expect(approvalNeeded(off, { kind: "credit", amountUsd: "1000000" })).toBeUndefined();
    expect(approvalNeeded(off, { kind: "refund" })).toBeUndefined();
    expect(approvalNeeded(off, { kind: "fail", force: true })).toBeUndefined();
  });
});

describe("decisionRefusal", () => {
  it("lets another operator with the role approve", () => {
    expect(decisionRefusal(pending(), bob, "approve", now)).toBeUndefined();
  });

  it("refuses the requester's own approval, whatever their role", () => {
    expect(decisionRefusal(pending(), { ...alice, role: "admin" }, "approve", now)).toBe(
      "APPROVAL_BY_REQUESTER",
    );
  });

  it("refuses a machine credential's approval, of its own request or another's", () => {
    expect(decisionRefusal(pending(), script, "approve", now)).toBe("APPROVAL_BY_MACHINE");
    const byScript = pending({ requestedBy: { id: script.id, kind: "machine" } });
    expect(decisionRefusal(byScript, script, "approve", now)).toBe("APPROVAL_BY_REQUESTER");
  });

  it("refuses a decider below the action's role", () => {
    expect(decisionRefusal(pending(), viewer, "approve", now)).toBe("APPROVAL_ROLE_REQUIRED");
    expect(decisionRefusal(pending(), viewer, "reject", now)).toBe("APPROVAL_ROLE_REQUIRED");
    expect(decisionRefusal(pending(), { ...bob, role: "operator" }, "approve", now)).toBe(
      "APPROVAL_ROLE_REQUIRED",
    );
  });

  it("refuses any decision once the deadline passed, stored EXPIRED or not", () => {
    expect(decisionRefusal(pending({ expiresAt: now }), bob, "approve", now)).toBe("APPROVAL_EXPIRED");
    expect(decisionRefusal(pending({ status: "EXPIRED" }), bob, "reject", now)).toBe("APPROVAL_EXPIRED");
  });

  it("refuses a second decision", () => {
    for (const status of ["EXECUTING", "APPROVED", "REJECTED"] as const) {
      expect(decisionRefusal(pending({ status }), bob, "approve", now)).toBe("APPROVAL_ALREADY_DECIDED");
      expect(decisionRefusal(pending({ status }), alice, "reject", now)).toBe("APPROVAL_ALREADY_DECIDED");
    }
  });

  it("lets the requester withdraw (reject) their own request, and a machine with the role reject", () => {
    expect(decisionRefusal(pending(), alice, "reject", now)).toBeUndefined();
    expect(decisionRefusal(pending(), script, "reject", now)).toBeUndefined();
  });
});

describe("status over time", () => {
  it("shows a PENDING request past its deadline as EXPIRED", () => {
    expect(effectiveStatus(pending(), now)).toBe("PENDING");
    expect(effectiveStatus(pending(), later)).toBe("EXPIRED");
    expect(effectiveStatus(pending({ status: "APPROVED" }), later)).toBe("APPROVED");
  });

  it("re-drives an execution only once it is stale", () => {
    const decidedAt = new Date(now.getTime() - 10_000);
    expect(needsRedrive({ status: "EXECUTING", decidedAt }, now, 30_000)).toBe(false);
    expect(needsRedrive({ status: "EXECUTING", decidedAt }, now, 5_000)).toBe(true);
    expect(needsRedrive({ status: "APPROVED", decidedAt }, now, 5_000)).toBe(false);
  });
});
