/**
 * Operator sign-in with OpenID Connect: authorization code with PKCE, by `openid-client` (discovery, the
 * authorization URL, the code exchange and every ID token check: signature, issuer, audience, expiry,
 * nonce). The state, nonce and PKCE verifier of a sign-in under way are kept server-side in
 * `gateway.oidc_logins` and used once. The operator's role comes from one ID token claim through a
 * configured map; the highest mapped role wins.
 */
import { createHash } from "node:crypto";
import type { Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import * as oidc from "openid-client";
import { OPERATOR_ROLES, type OperatorRole } from "../admin/admin-actor.js";
import {
  findOperatorBySubject,
  insertOperator,
  type OperatorRow,
  setOperatorRole,
} from "./operator-store.js";

/** A fetch for the client's calls to the provider (the global one unless a test puts a man in the middle). */
export type OidcFetch = NonNullable<oidc.DiscoveryRequestOptions[typeof oidc.customFetch]>;

export interface OidcSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string | undefined;
  readonly redirectUri: string;
  readonly scopes: string;
  readonly roleClaim: string;
  readonly roleMap: Readonly<Record<string, OperatorRole>>;
  readonly postLogoutRedirectUri: string | undefined;
}

/** Why a callback was refused; each is a stable error code of the route. */
export type OidcRefusal =
  | "OIDC_STATE_INVALID"
  | "OIDC_CODE_REJECTED"
  | "OIDC_ID_TOKEN_INVALID"
  | "OIDC_ROLE_UNMAPPED";

export class OidcSignInRefused extends Error {
  constructor(
    readonly reason: OidcRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** The provider could not be reached (discovery or the token endpoint): a 503, nothing was done. */
export class OidcProviderUnavailable extends Error {}

const LOGIN_TTL_SECONDS = 600;

export interface OidcSignIn {
  /** Starts a sign-in: answers the provider's authorization URL to send the browser to. */
  start(db: Queryable): Promise<URL>;
  /** Completes a sign-in from the callback's URL: the operator (created or updated) and the ID token. */
  complete(db: Queryable, callbackQuery: string): Promise<{ operator: OperatorRow; idToken: string }>;
  /** The provider's end-session URL for an ID token, when the provider has one. */
  logoutUrl(idTokenHint: string): Promise<string | undefined>;
}

export function createOidcSignIn(settings: OidcSettings, fetchImpl?: OidcFetch): OidcSignIn {
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= discover(settings, fetchImpl).catch((error: unknown) => {
      throw new OidcProviderUnavailable(
        `the OpenID Connect provider is unreachable: ${(error as Error).message}`,
      );
    });
    discovered.catch(() => {
      discovered = undefined;
    });
    return discovered;
  };
  return {
    async start(db) {
      const config = await configuration();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const verifier = oidc.randomPKCECodeVerifier();
      await db.query(
        `INSERT INTO gateway.oidc_logins (state, nonce, code_verifier, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
        [state, nonce, verifier, LOGIN_TTL_SECONDS],
      );
      await db.query("DELETE FROM gateway.oidc_logins WHERE expires_at < now()");
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: settings.scopes.includes("openid") ? settings.scopes : `openid ${settings.scopes}`,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        nonce,
      });
    },

    async complete(db, callbackQuery) {
      const config = await configuration();
      const callback = new URL(settings.redirectUri);
      callback.search = callbackQuery;
      const state = callback.searchParams.get("state") ?? "";
      const login = await db.query<{ nonce: string; code_verifier: string }>(
        "DELETE FROM gateway.oidc_logins WHERE state = $1 AND expires_at > now() RETURNING nonce, code_verifier",
        [state],
      );
      const pending = login.rows[0];
      if (!pending) {
        throw new OidcSignInRefused("OIDC_STATE_INVALID", "this sign-in is unknown, expired or already used");
      }
      const tokens = await oidc
        .authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: pending.code_verifier,
          expectedState: state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        })
        .catch(refusalOf);
      const claims = tokens.claims();
      const idToken = tokens.id_token;
      if (!claims || idToken === undefined)
        throw new OidcSignInRefused("OIDC_ID_TOKEN_INVALID", "no ID token");
      const role = mappedRole(claims[settings.roleClaim], settings.roleMap);
      if (role === undefined) {
        throw new OidcSignInRefused(
          "OIDC_ROLE_UNMAPPED",
          `no role is mapped for this user's ${settings.roleClaim}`,
        );
      }
      const operator = await upsertOperator(db, claims, role);
      if (operator.disabled_at !== null) {
        throw new OidcSignInRefused("OIDC_ROLE_UNMAPPED", "this operator is disabled");
      }
      return { operator, idToken };
    },

    async logoutUrl(idTokenHint) {
      const config = await configuration();
      if (!config.serverMetadata().end_session_endpoint) return undefined;
      return oidc
        .buildEndSessionUrl(config, {
          id_token_hint: idTokenHint,
          ...(settings.postLogoutRedirectUri
            ? { post_logout_redirect_uri: settings.postLogoutRedirectUri }
            : {}),
        })
        .toString();
    },
  };
}

async function discover(
  settings: OidcSettings,
  fetchImpl: OidcFetch | undefined,
): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  // Plain http only towards this machine (a provider run beside the gateway, as in tests).
  const local = issuer.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(issuer.hostname);
  const config = await oidc.discovery(
    issuer,
    settings.clientId,
    settings.clientSecret,
    settings.clientSecret === undefined ? oidc.None() : undefined,
    {
      ...(fetchImpl ? { [oidc.customFetch]: fetchImpl } : {}),
      ...(local ? { execute: [oidc.allowInsecureRequests] } : {}),
    },
  );
  if (fetchImpl) config[oidc.customFetch] = fetchImpl;
  return config;
}

/** The refusal a failed code exchange stands for: the provider refused the code, or the ID token is wrong. */
function refusalOf(error: unknown): never {
  if (error instanceof TypeError) {
    throw new OidcProviderUnavailable(`the OpenID Connect provider is unreachable: ${error.message}`);
  }
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
    throw new OidcSignInRefused("OIDC_CODE_REJECTED", `the provider refused the code (${error.error})`);
  }
  if (
    error instanceof oidc.ClientError &&
    error.code !== undefined &&
    /JWT|JWS|ID_TOKEN|CLAIM|TIMESTAMP|NONCE/.test(error.code)
  ) {
    throw new OidcSignInRefused("OIDC_ID_TOKEN_INVALID", `the ID token was refused: ${error.message}`);
  }
  if (error instanceof oidc.ClientError && error.code === "OAUTH_INVALID_RESPONSE") {
    throw new OidcSignInRefused(
      "OIDC_ID_TOKEN_INVALID",
      `the provider's answer was refused: ${error.message}`,
    );
  }
  throw error;
}

/** The highest role mapped from the claim's value(s), or undefined. */
export function mappedRole(
  claim: unknown,
  map: Readonly<Record<string, OperatorRole>>,
): OperatorRole | undefined {
  const values = Array.isArray(claim) ? claim : [claim];
  const roles = values.flatMap((v) => (typeof v === "string" && map[v] !== undefined ? [map[v]] : []));
  return OPERATOR_ROLES.filter((r) => roles.includes(r)).at(-1);
}

/** The operator of the ID token's subject: created on first sign-in, its role following the provider's. */
async function upsertOperator(db: Queryable, claims: oidc.IDToken, role: OperatorRole): Promise<OperatorRow> {
  const subject = `${claims.iss}#${claims.sub}`;
  const existing = await findOperatorBySubject(db, subject);
  if (existing)
    return existing.role === role
      ? existing
      : ((await setOperatorRole(db, existing.username, role)) ?? existing);
  const wanted = String(claims.preferred_username ?? claims.email ?? claims.sub)
    .toLowerCase()
    .replace(/[^a-z0-9._@-]/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 80);
  const suffix = createHash("sha256").update(subject).digest("hex").slice(0, 8);
  const taken = await db.query("SELECT 1 FROM gateway.operators WHERE username = $1", [wanted]);
  const username = wanted !== "" && taken.rows.length === 0 ? wanted : `${wanted || "oidc"}-${suffix}`;
  return insertOperator(db, {
    operatorId: newId("op"),
    username,
    role,
    passwordHash: null,
    totpSecretSealed: null,
    oidcSubject: subject,
  });
}
