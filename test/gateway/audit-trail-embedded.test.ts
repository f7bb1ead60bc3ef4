/**
 * The audit trail in the one-process mode (`npm start`): PGlite runs the same migration (triggers, the chain
 * head) and the admin listener records and verifies as on PostgreSQL.
 */
import { createLogger } from "@payouts/platform/logging/logger";
import { startEmbedded } from "@payouts/runtime/embedded-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson } from "../support/call-json.js";
import { freePort } from "../support/test-platform.js";

const ADMIN_TOKEN = "embedded-audit-token-0123456789";
let runtime: Awaited<ReturnType<typeof startEmbedded>>;
const admin = (method: string, path: string, body?: unknown) =>
  callJson(
    `http://127.0.0.1:${runtime.gateway.adminPort}${path}`,
    method,
    { authorization: `Bearer ${ADMIN_TOKEN}` },
    body,
  );

beforeAll(async () => {
  runtime = await startEmbedded({
    env: {
      PORT: String(await freePort()),
      ADMIN_PORT: String(await freePort()),
      HOST: "127.0.0.1",
      ADMIN_TOKEN,
      RAIL_CALLBACK_SECRET: "embedded-callback-secret-of-32-bytes",
      LOG_LEVEL: "silent",
    },
    logger: createLogger({ service: "embedded-audit-test", level: "silent" }),
  });
}, 120_000);
afterAll(async () => {
  await runtime?.close();
});

describe("the audit trail on PGlite", () => {
  it("records writes and refusals in one verified chain, and refuses to change a record", async () => {
    const created = await admin("POST", "/admin/partners", { name: "Embedded audit", secret: "s3cret" });
    const partnerId = created.json.partner_id ?? "ptr_none";
    await admin("PATCH", `/admin/partners/${partnerId}`, { name: "Embedded audit 2" });
    const refused = await callJson(
      `http://127.0.0.1:${runtime.gateway.adminPort}/admin/partners`,
      "POST",
      {},
      {},
    );
    expect(refused.status).toBe(401);

    const listed = await admin("GET", "/admin/audit");
    expect(listed.json.records.map((r: { method: string; status: number }) => [r.method, r.status])).toEqual([
      ["POST", 401],
      ["PATCH", 200],
      ["POST", created.status],
    ]);
    expect(listed.text).not.toContain("s3cret");
    const verdict = await admin("GET", "/admin/audit/verification");
    expect(verdict.json).toMatchObject({ ok: true, verified_through: 5, head_sequence: 5 });
    await expect(runtime.db.query("UPDATE gateway.audit_records SET status = 200")).rejects.toThrow(
      /append-only/,
    );
    await expect(runtime.db.query("DELETE FROM gateway.audit_records")).rejects.toThrow(/append-only/);
  });
});
