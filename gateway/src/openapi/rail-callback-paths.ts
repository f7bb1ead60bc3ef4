/** The payout rail's signed callback (`routes/rail-callback-routes.ts`): called by the rail, not by partners. */
import { COMMON_PARAMETERS, jsonBody, jsonResponse } from "./openapi-components.js";
import { errorResponses, INTERNAL_CASE, UNAVAILABLE_CASE } from "./openapi-errors.js";
import { ERROR_EXAMPLES, RAIL_CALLBACK_EXAMPLE } from "./openapi-examples.js";
import type { PathItem } from "./openapi-types.js";

export const RAIL_CALLBACK_PATHS: Readonly<Record<string, PathItem>> = {
  "/callbacks/rail": {
    post: {
      operationId: "railCallback",
      tags: ["Payout rail"],
      summary: "Report a payout's outcome (payout rail only)",
      description:
        "The payout rail reports the verdict on a PROCESSING payout: SUCCESS, or FAILED (the debit is reversed). No partner credentials: the rail signs `<X-Rail-Timestamp>.<exact body bytes>` with the shared `RAIL_CALLBACK_SECRET`, and the gateway checks the signature on the raw bytes in constant time. An authentic callback whose timestamp is more than `RAIL_CALLBACK_TOLERANCE_MS` (default 5 minutes) from the gateway's clock, either way, is refused with `STALE_CALLBACK`, so a captured callback cannot be replayed later; the rail signs each attempt anew. A verdict already recorded is answered 200 with `changed: false`, so the rail may retry until it gets a 2xx. Bodies up to 64 KiB, any content type.",
      security: [],
      parameters: [
        ...COMMON_PARAMETERS,
        {
          name: "X-Rail-Timestamp",
          in: "header",
          required: true,
          description: "When this attempt was signed: Unix time in whole seconds. Part of the signed bytes.",
          schema: { type: "string", pattern: "^[0-9]{1,12}$" },
        },
        {
          name: "X-Rail-Signature",
          in: "header",
          required: true,
          description:
            "base64(HMAC-SHA256(RAIL_CALLBACK_SECRET, `<X-Rail-Timestamp>` + `.` + exact request body bytes)).",
          schema: { type: "string", pattern: "^[A-Za-z0-9+/]+={0,2}$" },
        },
      ],
      requestBody: jsonBody("RailCallbackRequest"),
      responses: {
        "200": jsonResponse("The verdict is recorded (or was already).", "RailCallbackResult", {
          repeated: RAIL_CALLBACK_EXAMPLE,
        }),
        ...errorResponses(
          [
            [
              "INVALID_FIELD",
              "the body is not valid JSON, a field is malformed (`outcome` not SUCCESS or FAILED), a string has a NUL character or an unpaired surrogate, or the body nests deeper than 64 levels",
            ],
            ["MISSING_REQUIRED_FIELD", "`tx_id` or `outcome` is absent"],
            ["INVALID_FIELD", "the body is larger than 64 KiB", 413],
            [
              "INVALID_SIGNATURE",
              "`X-Rail-Timestamp` or `X-Rail-Signature` is missing or malformed, or the signature does not match the timestamp and body",
            ],
            [
              "STALE_CALLBACK",
              "the signature is right but `X-Rail-Timestamp` is more than `RAIL_CALLBACK_TOLERANCE_MS` away from now",
            ],
            ["TRANSACTION_NOT_FOUND", "no such transaction"],
            ["TRANSACTION_NOT_PROCESSING", "the transaction was never executed (still PENDING, or EXPIRED)"],
            INTERNAL_CASE,
            UNAVAILABLE_CASE,
          ],
          {
            examples: {
              401: { badSignature: ERROR_EXAMPLES.invalidSignature, stale: ERROR_EXAMPLES.staleCallback },
            },
          },
        ),
      },
    },
  },
};
