import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

const basic = (s: string) => `Basic ${Buffer.from(s).toString("base64")}`;

describe("partner authentication at the gateway", () => {
  let platform: TestPlatform;
  let app: { partnerId: string; clientId: string; clientSecret: string };

  beforeAll(async () => {
    platform = await startTestPlatform();
    app = await platform.createPartner();
  });
  afterAll(() => platform.close());

  const expect401 = (res: Awaited<ReturnType<TestPlatform["partner"]>>) => {
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("AUTHENTICATION_REQUIRED");
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(res.json.request_id).toBe(res.headers.get("x-request-id"));
    expect(res.text).not.toContain(app.clientSecret);
  };

  it("accepts an app created through the admin API", async () => {
    const res = await platform.partner(app, "GET", "/balance");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("echoes a caller's X-Request-Id", async () => {
    const res = await platform.partner(app, "GET", "/balance", undefined, { "x-request-id": "abc-123" });
    expect(res.headers.get("x-request-id")).toBe("abc-123");
  });

  it("refuses a missing Authorization header", async () => {
    expect401(await platform.partner(undefined, "GET", "/balance"));
  });

  it.each([
    ["a bearer token", "Bearer abc"],
    ["broken base64", "Basic %%%"],
    ["no colon", basic("justanid")],
    ["an empty secret", basic("ci_x:")],
  ])("refuses malformed credentials: %s", async (_name, header) => {
    expect401(await platform.partner(undefined, "GET", "/balance", undefined, { authorization: header }));
  });

  it("refuses a wrong secret and an unknown client id", async () => {
    expect401(
      await platform.partner(
        { clientId: app.clientId, clientSecret: `${app.clientSecret}x` },
        "GET",
        "/balance",
      ),
    );
    expect401(
      await platform.partner({ clientId: "ci_unknown", clientSecret: app.clientSecret }, "GET", "/balance"),
    );
  });

  it("refuses a revoked app at once, and revocation is idempotent", async () => {
    const other = await platform.admin("POST", `/admin/partners/${app.partnerId}/apps`, {});
    const creds = { clientId: other.json.client_id, clientSecret: other.json.client_secret };
    expect((await platform.partner(creds, "GET", "/balance")).status).toBe(200);
    const del = await platform.admin("DELETE", `/admin/partners/${app.partnerId}/apps/${creds.clientId}`);
    expect(del.status).toBe(204);
    expect401(await platform.partner(creds, "GET", "/balance"));
    expect(
      (await platform.admin("DELETE", `/admin/partners/${app.partnerId}/apps/${creds.clientId}`)).status,
    ).toBe(204);
    expect((await platform.partner(app, "GET", "/balance")).status).toBe(200);
  });

  it("stores client secrets only as scrypt hashes", async () => {
    const rows = await platform.runtime.db.query<{ secret_hash: string }>(
      "SELECT secret_hash FROM gateway.app_secrets WHERE client_id = $1",
      [app.clientId],
    );
    expect(rows.rows[0]!.secret_hash).toMatch(/^scrypt\$/);
    expect(rows.rows[0]!.secret_hash).not.toContain(app.clientSecret);
  });
});

describe("admin API", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("requires the bearer token", async () => {
    const none = await fetch(`${platform.adminUrl}/admin/partners`, { method: "POST", body: "{}" });
    expect(none.status).toBe(401);
    expect(((await none.json()) as { code: string }).code).toBe("AUTHENTICATION_REQUIRED");
    const wrong = await fetch(`${platform.adminUrl}/admin/partners/ptr_x`, {
      headers: { authorization: "Bearer nope" },
    });
    expect(wrong.status).toBe(401);
  });

  it("creates, reads and renames a partner with pricing fields", async () => {
    const created = await platform.admin("POST", "/admin/partners", {
      name: "Acme Wallet",
      supported_currencies: ["BRL", "ars"],
      fees: { percent: "1.5", fixed_usd: 0.3 },
    });
    expect(created.status).toBe(201);
    expect(created.json.partner_id).toMatch(/^ptr_/);
    expect(created.json.supported_currencies).toEqual(["BRL", "ARS"]);
    expect(created.json.fees).toEqual({ percent: "1.5", fixed_usd: "0.3" });
    const id = created.json.partner_id;
    const renamed = await platform.admin("PATCH", `/admin/partners/${id}`, { name: "Acme" });
    expect(renamed.status).toBe(200);
    expect(renamed.json.name).toBe("Acme");
    expect(renamed.json.supported_currencies).toEqual(["BRL", "ARS"]);
    const read = await platform.admin("GET", `/admin/partners/${id}`);
    expect(read.json).toMatchObject({ partner_id: id, name: "Acme" });
  });

  it("validates bodies with stable codes and fields", async () => {
    const noName = await platform.admin("POST", "/admin/partners", {});
    expect(noName.status).toBe(400);
    expect(noName.json).toMatchObject({ code: "MISSING_REQUIRED_FIELD", field: "name" });
    const badJson = await fetch(`${platform.adminUrl}/admin/partners`, {
      method: "POST",
      headers: { authorization: "Bearer test-admin-token-0123456789", "content-type": "application/json" },
      body: "{not json",
    });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { code: string }).code).toBe("INVALID_FIELD");
    const unknown = await platform.admin("POST", "/admin/partners/ptr_missing/apps", {});
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe("PARTNER_NOT_FOUND");
  });

  it("answers health and readiness without a token", async () => {
    expect((await fetch(`${platform.adminUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${platform.adminUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });
});
