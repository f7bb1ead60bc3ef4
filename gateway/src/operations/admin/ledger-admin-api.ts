/** Shapes and operations of balances, refunds, failures and sandbox settlement (`ledger-admin-routes.ts`). */
import { MAX_BALANCE_USD } from "@payouts/ledger/limits";
import { TRANSACTION_STATUSES } from "@payouts/platform/transaction-status";
import { defineOperations, ok } from "../../api/operation.js";
import {
  AmountInput,
  ClosedObject,
  component,
  DecimalString,
  inMinorUnitsOf,
  Nullable,
  type Static,
  StringEnum,
  Type,
} from "../../api/schema.js";
import { headerRef, parameterRef } from "../../openapi/openapi-components.js";
import { ApprovalRequest } from "./approval-admin-api.js";
import { IdParam } from "./console-query-shapes.js";
import { PartnerIdParams } from "./partner-admin-api.js";

/** Re-exported for the console API shapes, which read the statuses from here. */
export { TRANSACTION_STATUSES };

export const TxParams = Type.Object({
  tx_id: IdParam("transaction", "tx_01m7xx9726hzfmmn1fcz6t8605"),
});

export const CreditRequest = component(
  "CreditRequest",
  Type.Object({
    amount_usd: inMinorUnitsOf(
      "USD",
      AmountInput(
        `USD to add to the balance, a whole number of cents, at most ${MAX_BALANCE_USD}: no balance may exceed ${MAX_BALANCE_USD} USD.`,
        { examples: ["1000.00"], maximum: Number(MAX_BALANCE_USD) },
      ),
    ),
    reference: Type.String({ maxLength: 500, description: "Your reference (a wire id), 1–500 characters." }),
  }),
);

export const PartnerBalance = ClosedObject("PartnerBalance", {
  partner_id: Type.String(),
  balance_usd: DecimalString("USD at full precision.", ["1000"]),
});
export type PartnerBalance = Static<typeof PartnerBalance>;

export const RefundRequest = component(
  "RefundRequest",
  Type.Object({
    reason: Type.Optional(Type.String({ maxLength: 500, description: "Why; kept on the record." })),
  }),
);

export const FailRequest = component(
  "FailRequest",
  Type.Object({
    reason: Type.String({ maxLength: 500, description: "Why; kept on the record and sent in the webhook." }),
    force: Type.Optional(
      Type.Boolean({
        description:
          "Skip asking the rail whether it accepted the payout: only when the provider confirmed out of band that it will not pay.",
        default: false,
      }),
    ),
  }),
);

export const SettleRequest = component(
  "SettleRequest",
  Type.Object({
    outcome: StringEnum(["SUCCESS", "FAILED"], { description: "The verdict the sandbox rail reports." }),
    reason: Type.Optional(Type.String({ maxLength: 500, description: "Failure reason, for FAILED." })),
  }),
);

export const AdminTransaction = ClosedObject("AdminTransaction", {
  tx_id: Type.String(),
  partner_id: Type.String(),
  status: StringEnum([...TRANSACTION_STATUSES, "UNSPECIFIED"]),
  amount: DecimalString("Local currency, full precision."),
  currency: Type.String(),
  amount_usd: Nullable.Text("USD, full precision; null before a quote."),
  fee: Nullable.Text("USD, full precision; null before a quote."),
  total_usd: Nullable.Text("What the balance is debited; null before a quote."),
  refund_reason: Type.String(),
  failure_reason: Type.String(),
  provider_reference: Type.String(),
  updated_at: Nullable.Timestamp("Last change."),
});
export type AdminTransaction = Static<typeof AdminTransaction>;

export const SettleResult = ClosedObject("SettleResult", {
  tx_id: Type.String(),
  outcome: StringEnum(["SUCCESS", "FAILED"]),
  delivered: Type.Boolean({ description: "Whether the rail's callback reached the gateway." }),
  status: Nullable(StringEnum([...TRANSACTION_STATUSES, "UNSPECIFIED"]), "The status after it."),
});
export type SettleResult = Static<typeof SettleResult>;

const PARTNER_NOT_FOUND = ["PARTNER_NOT_FOUND", "no such partner"] as const;

/** The answer of a gated action: it waits for a second operator (`POST /admin/approvals/{id}/approve`). */
const sentForApproval = (what: string) => ({
  description: `Sent for approval: ${what} No money moved yet; a second operator approves or rejects it in \`/admin/approvals\`.`,
  schema: ApprovalRequest,
});
const TX_NOT_FOUND = ["TRANSACTION_NOT_FOUND", "no such transaction"] as const;

const operations = defineOperations(
  {},
  {
    creditBalance: {
      route: "POST /admin/partners/{partner_id}/balance/credits",
      role: "finance",
      summary: "Credit a partner's balance (idempotent)",
      description:
        "The same `X-Idempotency-Key` and body replay the first answer with `Idempotent-Replayed: true`; another body is `IDEMPOTENCY_KEY_REUSED`; a key still in flight is `IDEMPOTENCY_KEY_IN_USE`. A credit above the four-eyes threshold (`FOUR_EYES_CREDIT_THRESHOLD_USD`) answers 202 with an approval request instead; the same key and body from the same caller replay that request, and the key is the ledger's when the request is approved.",
      tags: ["Balance"],
      pathParams: PartnerIdParams,
      parameters: [parameterRef("idempotencyKey")],
      body: CreditRequest,
      responses: {
        201: {
          description: "Credited (or the replay of it).",
          schema: PartnerBalance,
          headers: { "Idempotent-Replayed": headerRef("idempotentReplayed") },
        },
        202: {
          ...sentForApproval("the credit is above the four-eyes threshold."),
          headers: { "Idempotent-Replayed": headerRef("idempotentReplayed") },
        },
      },
      errors: [
        ["MISSING_IDEMPOTENCY_KEY", "no `X-Idempotency-Key`"],
        ["INVALID_FIELD", "`X-Idempotency-Key` is not 1–255 printable ASCII characters"],
        [
          "INVALID_AMOUNT",
          `\`amount_usd\` is not a decimal, has fractions of a cent, is not above 0 or is above ${MAX_BALANCE_USD}`,
        ],
        PARTNER_NOT_FOUND,
        ["IDEMPOTENCY_KEY_IN_USE", "a request with this key is still running; retry after `Retry-After`"],
        [
          "IDEMPOTENCY_KEY_REUSED",
          "the key was used with another body, or by another caller's approval request",
        ],
        ["BALANCE_LIMIT_EXCEEDED", `the balance would exceed ${MAX_BALANCE_USD} USD after this credit`],
      ],
      errorOptions: { headers: { 409: { "Retry-After": headerRef("retryAfter") } } },
    },
    getPartnerBalance: {
      route: "GET /admin/partners/{partner_id}/balance",
      role: "viewer",
      summary: "A partner's balance",
      tags: ["Balance"],
      pathParams: PartnerIdParams,
      responses: ok("The balance.", PartnerBalance),
      errors: [PARTNER_NOT_FOUND],
    },
    refundTransaction: {
      route: "POST /admin/transactions/{tx_id}/refund",
      role: "finance",
      summary: "Refund a successful payout",
      description:
        "SUCCESS → REFUNDED: the amount and fees go back to the partner's balance, once. With four-eyes approvals on, every refund answers 202 with an approval request and is carried out when a second operator approves it.",
      tags: ["Transactions"],
      pathParams: TxParams,
      body: RefundRequest,
      responses: {
        200: { description: "The refunded transaction.", schema: AdminTransaction },
        202: sentForApproval("every refund waits for a second operator."),
      },
      errors: [TX_NOT_FOUND, ["TRANSACTION_NOT_REFUNDABLE", "the transaction is not SUCCESS"]],
    },
    failTransaction: {
      route: "POST /admin/transactions/{tx_id}/fail",
      role: "finance",
      summary: "Fail a payout stuck before the rail",
      description:
        "PROCESSING → FAILED with the debit reversed, once the rail confirms it will not pay it (503 when the rail does not answer). With four-eyes approvals on, `force: true` answers 202 with an approval request, carried out when a second operator approves it.",
      tags: ["Transactions"],
      pathParams: TxParams,
      body: FailRequest,
      responses: {
        200: { description: "The failed transaction.", schema: AdminTransaction },
        202: sentForApproval("a forced failure waits for a second operator."),
      },
      errors: [
        TX_NOT_FOUND,
        ["TRANSACTION_NOT_PROCESSING", "the transaction is not PROCESSING"],
        ["PAYOUT_ACCEPTED_BY_RAIL", "the rail has the payout: wait for its verdict"],
      ],
    },
    settleSandboxPayout: {
      route: "POST /admin/sandbox/transactions/{tx_id}/settle",
      role: "finance",
      summary: "Sandbox rail: settle a payout now",
      description:
        "The sandbox rail reports `outcome` for the payout through the signed callback, as a real rail would.",
      tags: ["Sandbox"],
      pathParams: TxParams,
      body: SettleRequest,
      responses: ok("What the rail did.", SettleResult),
      errors: [
        ["TRANSACTION_NOT_FOUND", "no payout with this id was submitted to the rail"],
        ["PAYOUT_CANCELLED", "the payout was cancelled before the rail accepted it"],
        ["PAYOUT_ALREADY_SETTLED", "the rail already reported the other outcome"],
      ],
    },
  },
);
export const {
  creditBalance,
  getPartnerBalance: getBalance,
  refundTransaction,
  failTransaction,
  settleSandboxPayout,
} = operations;
export const LEDGER_ADMIN_OPERATIONS = Object.values(operations);
