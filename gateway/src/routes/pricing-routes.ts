import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import { local } from "@payouts/platform/money/json-decimal";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import { validatePreviewBody } from "@payouts/pricing/preview-body";
import type { Quote } from "@payouts/proto/payouts/common/v1/common_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import { authenticate } from "../auth/partner-auth.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readDp } from "../http/dp-param.js";
import { withExactNumbers } from "../http/json-number-text.js";
import { createPreviewRateLimiter } from "../http/preview-rate-limiter.js";
import { renderQuoteFigures } from "../http/render-transaction.js";
import { replyJson } from "../http/reply-json.js";
import { previewQuotations, type QuotationItem } from "../operations/partner/quote-api.js";

/**
 * `POST /previewQuotations`. Its checks run in the partner API's order, which puts the body before the
 * credentials: INVALID_AMOUNT, MISSING_REQUIRED_FIELD, then AUTHENTICATION_REQUIRED (hence `auth:
 * "handler"`), RATE_LIMIT_EXCEEDED, and INVALID_CURRENCY from the pricing service. `dp` is read with the
 * body, before the credentials: both are about the request's shape.
 */
export function registerPricingRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const limiter = createPreviewRateLimiter();

  // The body is the pricing service's rule (validatePreviewBody), checked before the credentials.
  addRoute(
    app,
    previewQuotations,
    async (request, reply) => {
      const body = validatePreviewBody(withExactNumbers(request.body));
      if (!body.ok) {
        throw new ApiError(400, body.error.code, body.error.message, body.error.field);
      }
      const dp = readDp(request.query);
      const partnerApp = await authenticate(request, deps.verifier);
      const { allowed, retryAfterSeconds } = limiter.take(
        partnerApp.clientId,
        partnerApp.previewRateLimitPerMinute,
      );
      if (!allowed) {
        throw new ApiError(
          429,
          "RATE_LIMIT_EXCEEDED",
          `previewQuotations is limited to ${partnerApp.previewRateLimitPerMinute} requests per minute for this app`,
          undefined,
          { "Retry-After": String(retryAfterSeconds) },
        );
      }
      const res = await deps.clients.pricing.previewQuotations({
        partnerId: partnerApp.partnerId,
        amount: toDecimalString(body.value.amount),
        currency: body.value.currency,
      });
      return replyJson(reply, 200, { quotations: res.quotations.map((quote) => renderQuotation(quote, dp)) });
    },
    { auth: "handler" },
  );
}

/** A quotation item of the partner API: local amount at minor units, rate at 10 dp, USD figures at `dp`. */
function renderQuotation(quote: Quote, dp: number): QuotationItem {
  return {
    amount: local(new Dec(quote.amount), quote.currency),
    currency: quote.currency,
    ...renderQuoteFigures(quote, dp),
    expires_at: timestampIso(quote.expiresAt),
  };
}
