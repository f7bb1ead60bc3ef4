/** Shapes and operations of a partner's statement settings (`statement-admin-routes.ts`). */
import { defineOperations, ok } from "../../api/operation.js";
import { AmountInput, ClosedObject, component, type Static, Type } from "../../api/schema.js";
import { headerRef, parameterRef } from "../../openapi/openapi-components.js";
import { PartnerIdParams } from "./partner-admin-api.js";

export const StatementSettings = ClosedObject("StatementSettings", {
  partner_id: Type.String(),
  time_zone: Type.String({
    description: "IANA time zone the partner's daily statements are cut in (UTC unless set).",
    examples: ["America/Sao_Paulo"],
  }),
});
export type StatementSettings = Static<typeof StatementSettings>;

export const StatementSettingsRequest = component(
  "StatementSettingsRequest",
  Type.Object({
    time_zone: Type.String({
      maxLength: 64,
      description:
        "IANA time zone name, e.g. `Africa/Lagos`. Applies to the days not closed yet; closed days keep theirs.",
    }),
  }),
);

const PARTNER_NOT_FOUND = ["PARTNER_NOT_FOUND", "no such partner"] as const;

export const CorrectionParams = Type.Object({
  partner_id: PartnerIdParams.properties.partner_id,
  date: Type.String({
    pattern: "^\\d{4}-\\d{2}-\\d{2}$",
    maxLength: 10,
    description: "The closed day (YYYY-MM-DD) in the partner's statement time zone.",
  }),
});

export const StatementCorrectionRequest = component(
  "StatementCorrectionRequest",
  Type.Object({
    amount_usd: AmountInput("Signed USD the day should have moved, not 0: negative takes from the balance.", {
      examples: ["-12.50"],
    }),
    note: Type.String({
      maxLength: 500,
      description: "Why the day is corrected (the adjustment's reference).",
    }),
  }),
);

export const Restatement = ClosedObject("Restatement", {
  partner_id: Type.String(),
  date: Type.String({ description: "The corrected day." }),
  statement_id: Type.String({ description: "The restatement's statement id." }),
  revision: Type.Integer({
    minimum: 2,
    description: "Read it at `GET /statements/daily/{date}?revision=`.",
  }),
  restates: Type.String({
    description: "The original statement's id (revision 1), which stays unchanged.",
  }),
});
export type Restatement = Static<typeof Restatement>;

const operations = defineOperations(
  { tags: ["Balance"] },
  {
    getStatementSettings: {
      route: "GET /admin/partners/{partner_id}/statement-settings",
      role: "viewer",
      summary: "A partner's daily statement settings",
      pathParams: PartnerIdParams,
      responses: ok("The settings.", StatementSettings),
      errors: [PARTNER_NOT_FOUND],
    },
    putStatementSettings: {
      route: "PUT /admin/partners/{partner_id}/statement-settings",
      role: "admin",
      summary: "Set a partner's statement time zone",
      description:
        "Days already closed keep the zone they were cut in; the next day to close uses the new one.",
      pathParams: PartnerIdParams,
      body: StatementSettingsRequest,
      responses: ok("The settings now.", StatementSettings),
      errors: [["INVALID_FIELD", "`time_zone` is not an IANA time zone name"], PARTNER_NOT_FOUND],
    },
    correctStatementDay: {
      route: "POST /admin/partners/{partner_id}/statements/{date}/corrections",
      role: "finance",
      summary: "Correct a closed statement day (idempotent)",
      description:
        "Posts an `adjustment` of `amount_usd` on the balance (a line of today's open day) and stores a new revision of the closed day: its lines followed by the adjustment, `restates` naming the original, which the partner still gets unchanged. The same `X-Idempotency-Key` and body replay the first answer with `Idempotent-Replayed: true`; another body is `IDEMPOTENCY_KEY_REUSED`.",
      pathParams: CorrectionParams,
      parameters: [parameterRef("idempotencyKey")],
      body: StatementCorrectionRequest,
      responses: {
        201: {
          description: "The restatement (or the replay of it).",
          schema: Restatement,
          headers: { "Idempotent-Replayed": headerRef("idempotentReplayed") },
        },
      },
      errors: [
        ["MISSING_IDEMPOTENCY_KEY", "no `X-Idempotency-Key`"],
        [
          "INVALID_FIELD",
          "`X-Idempotency-Key` is not 1–255 printable ASCII characters, or `date` is not a date",
        ],
        ["INVALID_AMOUNT", "`amount_usd` is not a decimal or is 0"],
        PARTNER_NOT_FOUND,
        ["STATEMENT_DAY_NOT_CLOSED", "the day is not closed yet"],
        ["INSUFFICIENT_FUNDS", "a negative `amount_usd` larger than the balance"],
        ["IDEMPOTENCY_KEY_IN_USE", "a request with this key is still running; retry after `Retry-After`"],
        ["IDEMPOTENCY_KEY_REUSED", "the key was used with another body"],
      ],
      errorOptions: {
        headers: {
          409: {
            "Retry-After": {
              description: "Seconds to wait before retrying: with `IDEMPOTENCY_KEY_IN_USE` only.",
              required: false,
              schema: { type: "integer", minimum: 0 },
            },
          },
        },
      },
    },
  },
);
export const { getStatementSettings, putStatementSettings, correctStatementDay } = operations;
export const STATEMENT_ADMIN_OPERATIONS = Object.values(operations);
