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
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { BodyReader } from "../http/body-reader.js";
import { transactionStatusName } from "../http/render-transaction.js";
import { checkJsonBody } from "../http/text-safety.js";

const MAX_CALLBACK_BYTES = 64 * 1024;

export async function registerRailCallbackRoutes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  // An encapsulated scope, so the raw-body parser applies to this route only.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: MAX_CALLBACK_BYTES },
      (_req, body, done) => done(null, body),
    );
    scope.post("/callbacks/rail", { config: { auth: "none" } }, async (request) => {
      const raw = rawBody(request);
      verifySignature(deps.config.railCallbackSecret, deps.config.railCallbackToleranceMs, raw, request);
      const body = new BodyReader(parseJson(raw));
      const res = await deps.railCallbackLedger.recordRailResult({
        txId: body.string("tx_id", { required: true, max: 100 }),
        outcome: body.string("outcome", { required: true, pattern: /^(SUCCESS|FAILED)$/ }),
        reason: body.string("reason", { max: 500 }) ?? "",
        providerReference: body.string("provider_reference", { max: 200 }) ?? "",
      });
      return {
        tx_id: res.transaction?.txId ?? "",
        status: res.transaction ? transactionStatusName(res.transaction.status) : "",
        changed: res.changed,
      };
    });
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
    );
  }
  if (check === "stale") {
    throw new ApiError(
      401,
      "STALE_CALLBACK",
      `X-Rail-Timestamp is more than ${Math.round(toleranceMs / 1000)} s from now; sign each attempt anew`,
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
