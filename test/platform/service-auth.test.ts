/**
 * The gRPC services authenticate their callers. The real ledger (real PostgreSQL) behind
 * the real `startGrpcServer`, called over gRPC (HTTP/2) as the distributed processes call it: without a
 * credential, with a wrong one, as a caller the allowlist does not name, and without a partner scope.
 */
import { Code } from "@connectrpc/connect";
import type { ServiceCaller } from "@payouts/platform/rpc/caller-allowlist";
import type { GrpcServerHandle } from "@payouts/platform/rpc/grpc-server";
import { generateServiceCredentials, signerOf } from "@payouts/platform/rpc/service-credentials";
import { createServiceTransport } from "@payouts/platform/rpc/service-transport";
import { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  destination,
  freshKey,
  type LedgerHarness,
  startLedgerHarness,
} from "../ledger/support/ledger-harness.js";
import { balanceOf } from "../ledger/support/ledger-invariants.js";
import { clientAs, codeOf, listenAuthenticated } from "../support/rpc-callers.js";

const credentials = generateServiceCredentials();
let harness: LedgerHarness;
let server: GrpcServerHandle;
let base: ReturnType<typeof createServiceTransport>;

/** The ledger as `caller` calls it (its own tokens, addressed to the ledger); anonymous without one. */
const ledgerAs = (caller?: ServiceCaller) => clientAs(LedgerService, base, credentials, "ledger", caller);

beforeAll(async () => {
  harness = await startLedgerHarness();
  server = await listenAuthenticated({ name: "ledger", module: harness.module, credentials });
  base = createServiceTransport(`http://127.0.0.1:${server.port}`);
});

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

describe("a gRPC listener", () => {
  it("binds to loopback when no host is given", () => {
    expect(server.host).toBe("127.0.0.1");
  });
});

describe("calls without a valid service credential", () => {
  const partnerId = "ptr_auth_victim";

  it("CreditBalance is refused and nothing is credited", async () => {
    const forPricing = await signerOf(credentials, "gateway-admin").tokenFor("pricing");
    for (const token of [undefined, `gateway-admin.${"A".repeat(43)}`, "not a token", forPricing]) {
      const call = ledgerAs().creditBalance(
        { partnerId, amountUsd: "1000000", reference: "free money" },
        { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } },
      );
      expect(await codeOf(call)).toBe(Code.Unauthenticated);
    }
    expect(await balanceOf(harness.db, partnerId)).toMatch(/^0(\.0*)?$/);
  });

  it("RecordRailResult, QuoteTransaction and a partner read are refused", async () => {
    const anonymous = ledgerAs();
    const calls = [
      anonymous.recordRailResult({ txId: "tx_any", outcome: "SUCCESS" }),
      anonymous.quoteTransaction({ partnerId, txId: "tx_any", amount: "1" }),
      anonymous.getTransaction({ partnerId: "", txId: "tx_any" }),
      anonymous.listTransactions({ partnerId }),
      anonymous.getBalance({ partnerId }),
    ];
    expect(await Promise.all(calls.map(codeOf))).toEqual(calls.map(() => Code.Unauthenticated));
  });
});

describe("a caller the allowlist does not name for the method", () => {
  it("is refused with PermissionDenied", async () => {
    const partnerSide = ledgerAs("gateway");
    const admin = ledgerAs("gateway-admin");
    const railRoute = ledgerAs("gateway-rail");
    const refused = [
      partnerSide.creditBalance({ partnerId: "ptr_x", amountUsd: "10", reference: "r" }),
      partnerSide.recordRailResult({ txId: "tx_any", outcome: "SUCCESS" }),
      admin.recordRailResult({ txId: "tx_any", outcome: "SUCCESS" }),
      admin.quoteTransaction({ partnerId: "ptr_x", txId: "tx_any", amount: "1" }),
      railRoute.creditBalance({ partnerId: "ptr_x", amountUsd: "10", reference: "r" }),
      railRoute.getTransaction({ partnerId: "ptr_x", txId: "tx_any" }),
    ];
    expect(await Promise.all(refused.map(codeOf))).toEqual(refused.map(() => Code.PermissionDenied));
  });

  it("is not even authenticated when no RPC of the service names it (the ledger calling the ledger)", async () => {
    const call = ledgerAs("ledger").creditBalance({ partnerId: "ptr_x", amountUsd: "10", reference: "r" });
    expect(await codeOf(call)).toBe(Code.Unauthenticated);
  });

  it("while the allowed caller gets through", async () => {
    const admin = ledgerAs("gateway-admin");
    const credited = await admin.creditBalance({
      partnerId: "ptr_funded",
      amountUsd: "25",
      reference: "top-up",
      ...freshKey(),
    });
    expect(credited.balanceUsd).toMatch(/^25(\.0*)?$/);
    const read = await ledgerAs("gateway").getBalance({ partnerId: "ptr_funded" });
    expect(read.balanceUsd).toBe(credited.balanceUsd);
  });
});

describe("partner scope", () => {
  it("an empty partner_id on a partner-facing RPC is InvalidArgument, even for the gateway", async () => {
    const partnerSide = ledgerAs("gateway");
    const created = await partnerSide.createTransaction({
      partnerId: "ptr_owner",
      customerId: "cus_1",
      destination: destination(),
    });
    const txId = created.transaction!.txId;
    const calls = [
      partnerSide.getTransaction({ partnerId: "", txId }),
      partnerSide.quoteTransaction({ partnerId: "", txId, amount: "5" }),
      partnerSide.listTransactions({ partnerId: "" }),
      partnerSide.getBalance({ partnerId: "" }),
      partnerSide.createTransaction({ partnerId: "", customerId: "cus_1", destination: destination() }),
      partnerSide.executePayout({ partnerId: "", txId, idempotencyKey: "k1", requestFingerprint: "f" }),
    ];
    expect(await Promise.all(calls.map(codeOf))).toEqual(calls.map(() => Code.InvalidArgument));
    // Nothing was attached to the owner's transaction.
    const owner = await partnerSide.getTransaction({ partnerId: "ptr_owner", txId });
    expect(owner.transaction?.quote).toBeUndefined();
    // The operator (admin API) reads across partners.
    const operator = await ledgerAs("gateway-admin").getTransaction({
      partnerId: "",
      txId,
    });
    expect(operator.transaction?.partnerId).toBe("ptr_owner");
  });
});
