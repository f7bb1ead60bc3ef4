import type { SecretBox } from "@payouts/platform/secrets/secret-box";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { Static } from "../api/schema.js";
import { createFailureThrottle } from "../auth/failure-throttle.js";
import { tooManyFailedLogins } from "../auth/partner-auth.js";
import { throttleAddressKey } from "../auth/throttle-address.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readBody } from "../http/read-body.js";
import { getSession, signIn, signOut, type WhoAmI } from "../operations/admin/session-api.js";
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
 * Operator sign-in with user name, password and TOTP code; who-am-I; sign-out. Failed sign-ins are
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
    const previous = readSessionCookie(request);
    if (previous !== undefined) {
      const session = await touchSession(db, previous, policy);
      if (session) await endSession(db, session.sessionHash);
    }
    const sessionId = await openSession(db, operator.operator_id, policy);
    setSessionCookie(reply, sessionId, config);
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
    await endSession(db, sessionHash);
    clearSessionCookie(reply, config);
    return {};
  });
}

function renderIdentity(actor: AdminActor): Static<typeof WhoAmI> {
  return { id: actor.id, name: actor.name, kind: actor.kind, role: actor.role };
}

const invalidSignIn = () =>
  new ApiError(401, "INVALID_SIGN_IN", "the user name, password or code is not right", undefined, {
    "WWW-Authenticate": 'Bearer realm="payouts-admin"',
  });
