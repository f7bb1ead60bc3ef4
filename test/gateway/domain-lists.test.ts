/**
 * Each domain list has one definition; the places that must still spell it out (the proto comment, the
 * ledger README, the SQL constraint) or that derive it (the OpenAPI documents) are compared with it here,
 * so a copy that drifts fails a test.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { APPROVAL_ACTIONS, APPROVAL_STATUSES } from "@payouts/gateway/internal/approvals/four-eyes-rules";
import {
  BATCH_ITEM_STATUSES,
  BATCH_STATUSES,
  NAME_MATCHES,
} from "@payouts/gateway/internal/operations/partner/batch-api";
import { adminOpenApiDocument, openApiDocument } from "@payouts/gateway/openapi";
import { PAYOUT_REFUSAL_ORDER, STORED_PAYOUT_REFUSALS } from "@payouts/ledger/payout-refusals";
import { IC_TYPE_CODES } from "@payouts/lookup/ic-types";
import { IC_TYPES } from "@payouts/lookup/internal/domain/customers/customer";
import { TRANSACTION_STATUSES } from "@payouts/platform/transaction-status";
import { BatchItemStatus, BatchStatus, NameMatch } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const REFUSALS = PAYOUT_REFUSAL_ORDER.map((r) => r.reason);

interface Schema {
  readonly enum?: readonly unknown[];
  readonly properties?: Record<string, Schema>;
  readonly description?: string;
}
type Document = {
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, Schema>>;
};
const partner = openApiDocument() as unknown as Document;
const admin = adminOpenApiDocument() as unknown as Document;

describe("the identity document types", () => {
  it("are the lookup service's IC_TYPES, in its order, in the API's CustomerRequest enum", () => {
    expect(IC_TYPE_CODES).toEqual(Object.keys(IC_TYPES));
    expect(partner.components.schemas.CustomerRequest?.properties?.ic_type?.enum).toEqual(IC_TYPE_CODES);
  });
});

describe("executePayout's refusal order", () => {
  it("is the numbered list of the proto's LedgerService comment", () => {
    const comment = read("proto/payouts/ledger/v1/ledger.proto");
    const listed = [...comment.matchAll(/^\/\/ {3}\d\. ([A-Z_]+) /gm)].map((m) => m[1]);
    expect(listed).toEqual(REFUSALS);
  });

  it("is the order the ledger README states, with the same stored refusals", () => {
    const readme = read("services/ledger/README.md").replace(/\s+/g, " ");
    const sentence =
      /`ExecutePayout` answers the first of these that applies(.*?)or success\./.exec(readme)?.[1] ?? "";
    const [before, stored = ""] = sentence.split("stored under the key");
    const codes = (text = "") => [...text.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]);
    expect([...codes(before), ...codes(stored)]).toEqual(REFUSALS);
    expect(codes(stored)).toEqual(STORED_PAYOUT_REFUSALS);
  });

  it("is the order executePayout's OpenAPI description states", () => {
    const description = partner.paths["/executePayout"]?.post?.description ?? "";
    expect(description).toContain(
      `Refusals are answered in this precedence: ${REFUSALS.map((r) => `\`${r}\``).join(", ")}; the last four are stored`,
    );
    expect(STORED_PAYOUT_REFUSALS).toEqual(REFUSALS.slice(-4));
  });
});

describe("the transaction statuses", () => {
  it("are the partner and admin documents' status enums", () => {
    expect(partner.components.schemas.TransactionStatus?.enum).toEqual(TRANSACTION_STATUSES);
    const adminEnums = (JSON.stringify(admin).match(/"enum":\["PENDING"[^\]]*\]/g) ?? []).filter(
      // The other status list of the admin document that starts with PENDING: approval requests'.
      (listed) => JSON.stringify(JSON.parse(`{${listed}}`).enum) !== JSON.stringify(APPROVAL_STATUSES),
    );
    expect(adminEnums.length).toBeGreaterThan(0);
    for (const listed of adminEnums) {
      expect(JSON.parse(`{${listed}}`).enum.filter((s: string) => s !== "UNSPECIFIED")).toEqual(
        TRANSACTION_STATUSES,
      );
    }
  });

  it("are the values the ledger's SQL constraint allows", () => {
    const dir = "services/ledger/migrations";
    const sql = readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith(".sql"))
      .map((name) => read(join(dir, name)))
      .join("\n");
    const check = /status +text NOT NULL\s+CHECK \(status IN \(([^)]*)\)\)/.exec(sql);
    expect(check?.[1]?.split(",").map((s) => s.trim().replaceAll("'", ""))).toEqual(TRANSACTION_STATUSES);
  });
});

describe("bulk payout lists at the edge", () => {
  it("batch and item statuses and name matches are the proto enums' values", () => {
    const names = (e: Record<string, string | number>) =>
      Object.keys(e).filter((k) => Number.isNaN(Number(k)) && k !== "UNSPECIFIED");
    expect(BATCH_STATUSES).toEqual(names(BatchStatus));
    expect(BATCH_ITEM_STATUSES).toEqual(names(BatchItemStatus));
    expect(NAME_MATCHES).toEqual(names(NameMatch));
  });
});

describe("the approval request statuses and actions", () => {
  it("are the values the gateway's SQL constraints allow", () => {
    const sql = read("gateway/migrations/005_approval_requests.sql");
    const listed = (column: string) =>
      new RegExp(`${column} +text NOT NULL(?: DEFAULT '\\w+')?\\s+CHECK \\(${column} IN \\(([^)]*)\\)\\)`)
        .exec(sql)?.[1]
        ?.split(",")
        .map((s) => s.trim().replaceAll("'", ""));
    expect(listed("status")).toEqual(APPROVAL_STATUSES);
    expect(listed("action")).toEqual(APPROVAL_ACTIONS);
  });
});
