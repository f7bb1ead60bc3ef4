import { buildAdminApp } from "@payouts/gateway/internal/admin-app";
import type { OidcFetch } from "@payouts/gateway/internal/operators/oidc-sign-in";
import type { FastifyInstance } from "fastify";
import { decodeJwt, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, callJson } from "../support/call-json.js";
import { OIDC_CLIENT, startOidcProvider, type TestOidcProvider } from "../support/oidc-provider.js";
import { CSRF, sessionCookieOf, withCookie } from "../support/operator-session.js";
import { freePort, startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/**
 * Operator sign-in with OpenID Connect against a real provider (`oidc-provider`, started here): the whole
 * authorization code flow with PKCE through the gateway's admin listener. The refusals are produced the
 * way they happen: a nonce changed in the browser's front channel, a code replayed, and — for the checks
 * only a misbehaving provider or a man in the middle can trip (audience, issuer, expiry) — an ID token
 * re-signed with the provider's own key and one claim changed on its way to the gateway.
 */
let platform: TestPlatform;
let idp: TestOidcProvider;
let issuer: string;
let gateway: FastifyInstance;
let adminUrl: string;
/** Claims the next token response's ID token gets changed by, or undefined to pass it through. */
let tamper: ((claims: JWTPayload) => JWTPayload) | undefined;
/** The user the provider signs in next, and their groups. */
let nextUser = "ana";
const GROUPS: Record<string, string[]> = {
  ana: ["ops-finance"],
  bo: ["ops-view", "ops-admins"],
  cy: ["sales"],
};

beforeAll(async () => {
  platform = await startTestPlatform();
  const adminPort = await freePort();
  adminUrl = `http://127.0.0.1:${adminPort}`;
  idp = await startOidcProvider({ adminUrl, groups: GROUPS, signInAs: () => nextUser });
  issuer = idp.issuer;

  const deps = platform.runtime.gateway.adminDeps;
  const oidcFetch: OidcFetch = async (url, options) => {
    const res = await fetch(url, options as RequestInit);
    if (!url.endsWith("/token") || tamper === undefined) return res;
    const body = (await res.json()) as { id_token: string };
    const claims = tamper(decodeJwt(body.id_token));
    tamper = undefined;
    body.id_token = await new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .sign(idp.signingKey);
    return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
  };
  gateway = await buildAdminApp(
    {
      ...deps,
      oidcFetch,
      config: {
        ...deps.config,
        oidcIssuer: issuer,
        oidcClientId: OIDC_CLIENT.id,
        oidcClientSecret: OIDC_CLIENT.secret,
        oidcRedirectUri: `${adminUrl}/admin/oidc/callback`,
        oidcScopes: "openid profile groups",
        oidcRoleMap: { "ops-view": "viewer", "ops-finance": "finance", "ops-admins": "admin" },
        oidcPostLogoutRedirectUri: `${adminUrl}/console/`,
      },
    },
    async () => true,
  );
  await gateway.listen({ port: adminPort, host: "127.0.0.1" });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await idp?.close();
  await platform?.close();
});

/** The browser: follows the provider's redirects with its cookies until the provider sends it back. */
async function authorize(authorizationUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(adminUrl)) return url;
    const res = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get("location");
    if (!location) throw new Error(`the provider stopped at ${url}: ${res.status} ${await res.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error("too many redirects");
}

/** `GET /admin/oidc/login` → the provider's authorization URL (which `edit` may change, as a browser can). */
async function startSignIn(edit: (url: URL) => void = () => {}): Promise<string> {
  const res = await fetch(`${adminUrl}/admin/oidc/login`, { redirect: "manual" });
  expect(res.status).toBe(303);
  const url = new URL(res.headers.get("location") ?? "");
  expect(url.origin).toBe(issuer);
  expect(url.searchParams.get("code_challenge_method")).toBe("S256");
  edit(url);
  return authorize(url.toString());
}

/** The browser arriving back at the gateway's callback (its redirect to the console not followed). */
async function callback(url: string): Promise<ApiResponse> {
  const res = await fetch(url, { redirect: "manual" });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: text.startsWith("{") ? JSON.parse(text) : undefined,
  };
}
const sessions = async () =>
  (await platform.runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM gateway.operator_sessions"))
    .rows[0]!.n;

describe("OpenID Connect sign-in with a real provider", () => {
  it("offers SSO on the sign-in options, signs in, maps the role claim and opens a session", async () => {
    expect((await callJson(`${adminUrl}/admin/sign-in-options`, "GET", {})).json).toEqual({
      password: true,
      oidc: true,
    });
    nextUser = "ana";
    const res = await callback(await startSignIn());
    expect(res.status, res.text).toBe(303);
    expect(res.headers.get("location")).toBe("/console/");
    const cookie = sessionCookieOf(res);
    const me = await callJson(`${adminUrl}/admin/session`, "GET", { cookie });
    expect(me.json).toMatchObject({ name: "ana", role: "finance", kind: "operator" });
    nextUser = "bo";
    const highest = await callback(await startSignIn());
    const bo = await callJson(`${adminUrl}/admin/session`, "GET", { cookie: sessionCookieOf(highest) });
    expect(bo.json.role).toBe("admin");
  });

  it.each([
    ["a wrong audience", (c: JWTPayload) => ({ ...c, aud: "another-client" })],
    ["a wrong issuer", (c: JWTPayload) => ({ ...c, iss: "https://impostor.example" })],
    [
      "an expired ID token",
      (c: JWTPayload) => ({ ...c, iat: (c.iat ?? 0) - 7200, exp: (c.iat ?? 0) - 3600 }),
    ],
  ])("refuses %s with OIDC_ID_TOKEN_INVALID and opens no session", async (_name, change) => {
    nextUser = "ana";
    const back = await startSignIn();
    const before = await sessions();
    tamper = change;
    const res = await callback(back);
    expect([res.status, res.json.code], res.text).toEqual([401, "OIDC_ID_TOKEN_INVALID"]);
    expect(res.headers.getSetCookie().join("")).not.toContain("payouts_admin_session=ses_");
    expect(await sessions()).toBe(before);
  });

  it("refuses a nonce changed in the front channel with OIDC_ID_TOKEN_INVALID", async () => {
    const back = await startSignIn((url) => url.searchParams.set("nonce", "nonce-of-another-sign-in"));
    const res = await callback(back);
    expect([res.status, res.json.code], res.text).toEqual([401, "OIDC_ID_TOKEN_INVALID"]);
  });

  it("refuses a replayed code: the same callback (OIDC_STATE_INVALID) and the code under a new sign-in (OIDC_CODE_REJECTED)", async () => {
    const back = await startSignIn();
    expect((await callback(back)).status).toBe(303);
    const replayed = await callback(back);
    expect([replayed.status, replayed.json.code]).toEqual([401, "OIDC_STATE_INVALID"]);
    const other = new URL(await startSignIn());
    const spliced = new URL(back);
    spliced.searchParams.set("state", other.searchParams.get("state") ?? "");
    const res = await callback(spliced.toString());
    expect([res.status, res.json.code], res.text).toEqual([401, "OIDC_CODE_REJECTED"]);
  });

  it("refuses a user whose groups map to no role with OIDC_ROLE_UNMAPPED", async () => {
    nextUser = "cy";
    const res = await callback(await startSignIn());
    expect([res.status, res.json.code]).toEqual([403, "OIDC_ROLE_UNMAPPED"]);
    nextUser = "ana";
  });

  it("signs out: the session ends server-side and the answer names the provider's end-session URL", async () => {
    const cookie = sessionCookieOf(await callback(await startSignIn()));
    const out = await callJson(`${adminUrl}/admin/session`, "DELETE", { cookie, ...CSRF });
    expect(out.status).toBe(200);
    const logout = new URL(out.json.logout_url);
    expect(logout.origin).toBe(issuer);
    expect(logout.searchParams.get("id_token_hint")).toMatch(/^ey/);
    expect(logout.searchParams.get("post_logout_redirect_uri")).toBe(`${adminUrl}/console/`);
    const after = await withCookie(platform, cookie, "GET", "/admin/session");
    expect(after.status).toBe(401);
    expect((await callJson(`${adminUrl}/admin/session`, "GET", { cookie })).status).toBe(401);
  });

  it("answers OIDC_NOT_CONFIGURED where no provider is configured", async () => {
    const res = await callJson(`${platform.adminUrl}/admin/oidc/login`, "GET", {});
    expect([res.status, res.json.code]).toEqual([404, "OIDC_NOT_CONFIGURED"]);
    expect((await callJson(`${platform.adminUrl}/admin/sign-in-options`, "GET", {})).json.oidc).toBe(false);
  });
});
