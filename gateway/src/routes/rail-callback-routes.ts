/**
 * `POST /callbacks/rail`: the payout rail reports an outcome. No partner credentials: the caller proves
 * itself with X-Rail-Timestamp and X-Rail-Signature = base64(HMAC-SHA256(RAIL_CALLBACK_SECRET,
 * "<timestamp>.<exact body bytes>")), checked on the raw bytes (never on re-serialised JSON) in constant
 * time (@payouts/platform/signing/rail-callback-signature). An authentic callback whose timestamp is further
 * than RAIL_CALLBACK_TOLERANCE_MS from now is refused as STALE_CALLBACK, so a captured callback cannot be
 * replayed later. A verdict already recorded is answered 200 with changed=false, so the rail's retries
 * (each signed anew) and a replay within the tolerance are harmless.
 */

import {
  checkRailCallbackSignature,
  RAIL_SIGNATURE_HEADER,
  RAIL_TIMESTAMP_HEADER,
} from "@payouts/platform/signing/rail-callback-signature";
import { statusWireName } from "@payouts/platform/transaction-status";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readBody } from "../http/read-body.js";
import { checkJsonBody } from "../http/text-safety.js";
import { type RailCallbackResult, railCallback } from "../operations/partner/rail-callback-api.js";

const MAX_CALLBACK_BYTES = 64 * 1024;
/** The challenge of a refused callback: a 401 names how to authenticate, here the rail's signature headers. */
const RAIL_CHALLENGE = { "WWW-Authenticate": 'RailSignature realm="payout-rail"' };

export async function registerRailCallbackRoutes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  // An encapsulated scope, so the raw-body parser applies to this route only.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: MAX_CALLBACK_BYTES },
      (_req, body, done) => done(null, body),
    );
    addRoute(
      scope,
      railCallback,
      async (request): Promise<RailCallbackResult> => {
        const raw = rawBody(request);
        verifySignature(deps.config.railCallbackSecret, deps.config.railCallbackToleranceMs, raw, request);
        const body = readBody(railCallback.body, parseJson(raw));
        const res = await deps.railCallbackLedger.recordRailResult({
          txId: body.tx_id,
          outcome: body.outcome,
          reason: body.reason ?? "",
          providerReference: body.provider_reference ?? "",
        });
        return {
          tx_id: res.transaction?.txId ?? "",
          status: (res.transaction
            ? statusWireName(res.transaction.status)
            : "") as RailCallbackResult["status"],
          changed: res.changed,
        };
      },
      { auth: "none" },
    );
  });
}

function rawBody(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

export function verifySignature(
  secret: string,
  toleranceMs: number,
  raw: Buffer,
  request: Pick<FastifyRequest, "headers">,
): void {
  const check = checkRailCallbackSignature(
    secret,
    {
      timestamp: request.headers[RAIL_TIMESTAMP_HEADER],
      signature: request.headers[RAIL_SIGNATURE_HEADER],
    },
    raw,
    new Date(),
    toleranceMs,
  );
  if (check === "invalid") {
    throw new ApiError(
      401,
      "INVALID_SIGNATURE",
      "X-Rail-Signature does not match X-Rail-Timestamp and the request body",
      undefined,
      RAIL_CHALLENGE,
    );
  }
  if (check === "stale") {
    throw new ApiError(
      401,
      "STALE_CALLBACK",
      `X-Rail-Timestamp is more than ${Math.round(toleranceMs / 1000)} s from now; sign each attempt anew`,
      undefined,
      RAIL_CHALLENGE,
    );
  }
}

function parseJson(raw: Buffer): unknown {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new ApiError(400, "INVALID_FIELD", "request body is not valid JSON");
  }
  checkJsonBody(body);
  return body;
}
