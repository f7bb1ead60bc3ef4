import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

describe("client secret rotation through the admin and partner APIs", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("adds a second secret, accepts both during the overlap, then revokes the old one", async () => {
    const app = await platform.createPartner();
    const base = `/admin/partners/${app.partnerId}/apps/${app.clientId}/secrets`;
    expect((await platform.partner(app, "GET", "/balance")).status).toBe(200);

    const [original] = (await platform.admin("GET", base)).json.secrets;
    expect(original).toMatchObject({ client_id: app.clientId, revoked_at: null });
    expect(original.secret_id).toMatch(/^sec_/);

    const added = await platform.admin("POST", base);
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ client_id: app.clientId, revoked_at: null });
    expect(added.json.client_secret).toMatch(/^cs_/);
    expect(added.json.client_secret).not.toBe(app.clientSecret);
    const next = { clientId: app.clientId, clientSecret: added.json.client_secret as string };

    expect((await platform.partner(app, "GET", "/balance")).status).toBe(200);
    expect((await platform.partner(next, "GET", "/balance")).status).toBe(200);

    const third = await platform.admin("POST", base);
    expect(third.status).toBe(409);
    expect(third.json.code).toBe("TOO_MANY_SECRETS");

    const listed = await platform.admin("GET", base);
    expect(listed.json.secrets.map((s: { secret_id: string }) => s.secret_id)).toEqual([
      added.json.secret_id,
      original.secret_id,
    ]);
    expect(listed.text).not.toContain("scrypt");
    expect(listed.text).not.toContain(next.clientSecret);

    // The old secret was verified (and cached) a moment ago; revoking it ends it at once here.
    const revoked = await platform.admin("DELETE", `${base}/${original.secret_id}`);
    expect(revoked.status).toBe(204);
    const refused = await platform.partner(app, "GET", "/balance");
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("AUTHENTICATION_REQUIRED");
    expect((await platform.partner(next, "GET", "/balance")).status).toBe(200);

    expect((await platform.admin("DELETE", `${base}/${original.secret_id}`)).status).toBe(204);
    const last = await platform.admin("DELETE", `${base}/${added.json.secret_id}`);
    expect(last.status).toBe(409);
    expect(last.json.code).toBe("LAST_SECRET");
    const after = (await platform.admin("GET", base)).json.secrets;
    expect(
      after.find((s: { secret_id: string }) => s.secret_id === original.secret_id).revoked_at,
    ).not.toBeNull();

    // A rotation can start again once the old secret is gone.
    expect((await platform.admin("POST", base)).status).toBe(201);
  });

  it("stores added secrets only as scrypt hashes", async () => {
    const app = await platform.createPartner();
    const added = await platform.admin(
      "POST",
      `/admin/partners/${app.partnerId}/apps/${app.clientId}/secrets`,
    );
    const rows = await platform.runtime.db.query<{ secret_hash: string }>(
      "SELECT secret_hash FROM gateway.app_secrets WHERE secret_id = $1",
      [added.json.secret_id],
    );
    expect(rows.rows[0]!.secret_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(rows.rows[0]!.secret_hash).not.toContain(added.json.client_secret);
  });

  it("refuses unknown, foreign and revoked apps and unknown secrets with stable codes", async () => {
    const app = await platform.createPartner();
    const other = await platform.createPartner();
    const foreign = await platform.admin(
      "POST",
      `/admin/partners/${other.partnerId}/apps/${app.clientId}/secrets`,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe("APP_NOT_FOUND");
    expect(
      (await platform.admin("GET", `/admin/partners/${app.partnerId}/apps/ci_nope/secrets`)).json.code,
    ).toBe("APP_NOT_FOUND");
    const unknown = await platform.admin(
      "DELETE",
      `/admin/partners/${app.partnerId}/apps/${app.clientId}/secrets/sec_nope`,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe("SECRET_NOT_FOUND");

    expect(
      (await platform.admin("DELETE", `/admin/partners/${app.partnerId}/apps/${app.clientId}`)).status,
    ).toBe(204);
    const onRevoked = await platform.admin(
      "POST",
      `/admin/partners/${app.partnerId}/apps/${app.clientId}/secrets`,
    );
    expect(onRevoked.status).toBe(409);
    expect(onRevoked.json.code).toBe("APP_REVOKED");
  });

  it("needs the admin token", async () => {
    const app = await platform.createPartner();
    const res = await fetch(
      `${platform.adminUrl}/admin/partners/${app.partnerId}/apps/${app.clientId}/secrets`,
      {
        method: "POST",
      },
    );
    expect(res.status).toBe(401);
  });
});
