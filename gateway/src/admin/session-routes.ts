import type { SecretBox } from "@payouts/platform/secrets/secret-box";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { addRoute } from "../api/operation.js";
import type { Static } from "../api/schema.js";
import { createFailureThrottle } from "../auth/failure-throttle.js";
import { tooManyFailedLogins } from "../auth/partner-auth.js";
import { throttleAddressKey } from "../auth/throttle-address.js";
import type { GatewayConfig } from "../gateway-config.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readBody } from "../http/read-body.js";
import {
  getSession,
  oidcCallback,
  oidcLogin,
  signIn,
  signInOptions,
  signOut,
  type WhoAmI,
} from "../operations/admin/session-api.js";
import {
  createOidcSignIn,
  type OidcFetch,
  OidcProviderUnavailable,
  type OidcSignIn,
  OidcSignInRefused,
} from "../operators/oidc-sign-in.js";
import { checkSignIn } from "../operators/operator-accounts.js";
import { operatorSecretBox } from "../operators/operator-secrets.js";
import { endSession, openSession, touchSession } from "../operators/operator-sessions.js";
import { type AdminActor, actorOf } from "./admin-actor.js";
import {
  clearSessionCookie,
  readSessionCookie,
  sessionPolicyOf,
  setSessionCookie,
} from "./session-cookie.js";

/**
 * Operator sign-in with user name, password and TOTP code, or with OpenID Connect; who-am-I; sign-out
 * (also at the provider when the session came from it and it has an end-session endpoint). Failed sign-ins are
 * throttled per (user name, client address): an attacker elsewhere cannot lock the real operator out, and
 * one address cannot keep guessing one operator's password.
 */
export function registerSessionRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { db, config } = deps;
  const policy = sessionPolicyOf(config);
  const throttle = createFailureThrottle({
    limit: config.adminLoginFailures,
    windowMs: config.adminLoginFailureWindowMs,
    maxEntries: 100_000,
    now: Date.now,
  });
  let box: Promise<SecretBox> | undefined;
  const secretBox = () => {
    box ??= operatorSecretBox(db, config.operatorSecretKey);
    box.catch(() => {
      box = undefined;
    });
    return box;
  };

  const oidc = oidcOf(deps.config, deps.oidcFetch);

  /** Opens a session for the operator, ending the one the request came with (a fresh id on every sign-in). */
  async function startSession(
    request: FastifyRequest,
    reply: FastifyReply,
    operatorId: string,
    idToken?: string,
  ) {
    const previous = readSessionCookie(request);
    if (previous !== undefined) {
      const session = await touchSession(db, previous, policy);
      if (session) await endSession(db, session.sessionHash);
    }
    setSessionCookie(reply, await openSession(db, operatorId, policy, idToken), config);
  }

  addRoute(app, signInOptions, async () => ({ password: true, oidc: oidc !== undefined }));

  addRoute(app, oidcLogin, async (_request, reply) => {
    if (!oidc) throw oidcNotConfigured();
    const url = await oidc.start(db).catch(unavailableAsApiError);
    return reply.redirect(url.toString(), 303);
  });

  addRoute(app, oidcCallback, async (request, reply) => {
    if (!oidc) throw oidcNotConfigured();
    const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
    try {
      const { operator, idToken } = await oidc.complete(db, query);
      await startSession(request, reply, operator.operator_id, idToken);
      request.adminActor = {
        id: operator.operator_id,
        name: operator.username,
        kind: "operator",
        role: operator.role,
      };
      return reply.redirect("/console/", 303);
    } catch (error) {
      if (!(error instanceof OidcSignInRefused)) return unavailableAsApiError(error);
      throw error.reason === "OIDC_ROLE_UNMAPPED"
        ? new ApiError(403, error.reason, error.message)
        : new ApiError(401, error.reason, error.message, undefined, CHALLENGE);
    }
  });

  addRoute(app, signIn, async (request, reply) => {
    const body = readBody(signIn.body, request.body);
    const key = `${body.username.toLowerCase()}|${throttleAddressKey(request.ip)}`;
    const wait = throttle.retryAfterSeconds(key);
    if (wait > 0) throw tooManyFailedLogins(wait);
    const operator = await checkSignIn(db, await secretBox(), body);
    if (!operator) {
      throttle.recordFailure(key);
      throw invalidSignIn();
    }
    // Sign-in always issues a fresh id: a session id planted before sign-in is never promoted.
    await startSession(request, reply, operator.operator_id);
    const actor: AdminActor = {
      id: operator.operator_id,
      name: operator.username,
      kind: "operator",
      role: operator.role,
    };
    request.adminActor = actor;
    return reply.code(201).send(renderIdentity(actor));
  });

  addRoute(app, getSession, async (request) => renderIdentity(actorOf(request)));

  addRoute(app, signOut, async (request, reply) => {
    const sessionHash = request.adminSessionHash;
    if (sessionHash === undefined) return {};
    const session = await db.query<{ id_token_hint: string | null }>(
      "SELECT id_token_hint FROM gateway.operator_sessions WHERE session_hash = $1",
      [sessionHash],
    );
    await endSession(db, sessionHash);
    clearSessionCookie(reply, config);
    const hint = session.rows[0]?.id_token_hint;
    const logoutUrl = oidc && hint ? await oidc.logoutUrl(hint) : undefined;
    return logoutUrl === undefined ? {} : { logout_url: logoutUrl };
  });
}

function renderIdentity(actor: AdminActor): Static<typeof WhoAmI> {
  return { id: actor.id, name: actor.name, kind: actor.kind, role: actor.role };
}

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="payouts-admin"' };

const invalidSignIn = () =>
  new ApiError(401, "INVALID_SIGN_IN", "the user name, password or code is not right", undefined, CHALLENGE);

function unavailableAsApiError(error: unknown): never {
  if (error instanceof OidcProviderUnavailable) {
    throw new ApiError(503, "SERVICE_UNAVAILABLE", error.message, undefined, { "Retry-After": "5" });
  }
  throw error;
}

const oidcNotConfigured = () =>
  new ApiError(404, "OIDC_NOT_CONFIGURED", "sign-in with OpenID Connect is not configured (OIDC_ISSUER)");

function oidcOf(config: GatewayConfig, fetchImpl: OidcFetch | undefined): OidcSignIn | undefined {
  if (
    config.oidcIssuer === undefined ||
    config.oidcClientId === undefined ||
    config.oidcRedirectUri === undefined
  ) {
    return undefined;
  }
  return createOidcSignIn(
    {
      issuer: config.oidcIssuer,
      clientId: config.oidcClientId,
      clientSecret: config.oidcClientSecret,
      redirectUri: config.oidcRedirectUri,
      scopes: config.oidcScopes,
      roleClaim: config.oidcRoleClaim,
      roleMap: config.oidcRoleMap,
      postLogoutRedirectUri: config.oidcPostLogoutRedirectUri,
    },
    fetchImpl,
  );
}
