/** The payout rail's signed callback (`rail-callback-routes.ts`): called by the rail, not by partners. */
import { defineOperations } from "../../api/operation.js";
import { ClosedObject, component, type Static, StringEnum, Type } from "../../api/schema.js";
import {
  type ErrorCase,
  INTERNAL_CASE,
  UNAVAILABLE_CASE,
  URL_TEXT_CASE,
} from "../../openapi/openapi-errors.js";
import { ERROR_EXAMPLES, RAIL_CALLBACK_EXAMPLE } from "../../openapi/openapi-examples.js";
import { TransactionStatus } from "./transaction-api.js";

export const RailCallbackRequest = component(
  "RailCallbackRequest",
  Type.Object({
    tx_id: Type.String({ maxLength: 100, description: "The PROCESSING transaction." }),
    outcome: StringEnum(["SUCCESS", "FAILED"], { description: "The rail's verdict." }),
    reason: Type.Optional(Type.String({ maxLength: 500, description: "Why it failed." })),
    provider_reference: Type.Optional(
      Type.String({ maxLength: 200, description: "The rail's own reference." }),
    ),
  }),
);

export const RailCallbackResult = ClosedObject("RailCallbackResult", {
  tx_id: Type.String({ description: "The transaction." }),
  status: TransactionStatus,
  changed: Type.Boolean({
    description: "False when this verdict was already recorded (a retried callback), or contradicts it.",
  }),
});
export type RailCallbackResult = Static<typeof RailCallbackResult>;

const ERRORS: readonly ErrorCase[] = [
  URL_TEXT_CASE,
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
];

export const { railCallback } = defineOperations(
  {},
  {
    railCallback: {
      route: "POST /callbacks/rail",
      tags: ["Payout rail"],
      summary: "Report a payout's outcome (payout rail only)",
      description:
        "The payout rail reports the verdict on a PROCESSING payout: SUCCESS, or FAILED (the debit is reversed). No partner credentials: the rail signs `<X-Rail-Timestamp>.<exact body bytes>` with the shared `RAIL_CALLBACK_SECRET`, and the gateway checks the signature on the raw bytes in constant time. An authentic callback whose timestamp is more than `RAIL_CALLBACK_TOLERANCE_MS` (default 5 minutes) from the gateway's clock, either way, is refused with `STALE_CALLBACK`, so a captured callback cannot be replayed later; the rail signs each attempt anew. A verdict already recorded is answered 200 with `changed: false`, so the rail may retry until it gets a 2xx. Bodies up to 64 KiB, any content type.",
      public: true,
      parameters: [
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
      body: RailCallbackRequest,
      responses: {
        200: {
          description: "The verdict is recorded (or was already).",
          schema: RailCallbackResult,
          examples: { repeated: RAIL_CALLBACK_EXAMPLE },
        },
      },
      ownErrorsOnly: true,
      errors: ERRORS,
      errorOptions: {
        examples: {
          401: { badSignature: ERROR_EXAMPLES.invalidSignature, stale: ERROR_EXAMPLES.staleCallback },
        },
      },
    },
  },
);
