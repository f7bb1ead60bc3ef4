/**
 * A body holding a number JSON.parse turns into Infinity (`1e400`, nested where no money field reads it)
 * is still recorded by the admin audit trail, and the request is answered by its route: a 400 for the
 * malformed field, never a 500 from the trail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";

describe("admin audit trail and non-finite numbers", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it("answers 400 INVALID_FIELD for a reason holding 1e400", async () => {
    const res = await fetch(`${platform.adminUrl}/admin/transactions/tx_nope/fail`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: '{"reason":{"a":1e400}}',
    });
    const json = (await res.json()) as { code?: string; field?: string };
    expect([res.status, json.code, json.field]).toEqual([400, "INVALID_FIELD", "reason"]);
  });
});
