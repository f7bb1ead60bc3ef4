/**
 * The console's partner routes: the partner list, a partner's apps and their preview rate limit, the
 * balance history.
 */
import { defineOperations, ok } from "../../api/operation.js";
import {
  ClosedObject,
  component,
  DecimalString,
  Nullable,
  type Static,
  StringEnum,
  Timestamp,
  Type,
} from "../../api/schema.js";
import {
  CONSOLE_TAG,
  Count,
  IdParam,
  ListPage,
  NextCursor,
  PAGE_CASES,
  PARTNER_NOT_FOUND,
  Paging,
  QUERY_CASE,
  Query,
} from "./console-query-shapes.js";
import { PartnerIdParams } from "./partner-admin-api.js";

/** The partner list's page size when `limit` is left out (the gateway pages it itself). */
export const PARTNER_PAGE = 20;

export const PartnerListQuery = Query({
  name: Type.Optional(Type.String({ maxLength: 200, description: "Part of the name, any case." })),
  ...Paging(PARTNER_PAGE),
});

export const PartnerListItem = ClosedObject("PartnerListItem", {
  partner_id: Type.String(),
  name: Type.String(),
  active_apps: Count("Apps not revoked."),
  balance_usd: DecimalString("Spendable."),
  in_flight_usd: DecimalString("Debited, not yet settled."),
  created_at: Timestamp("Created."),
  updated_at: Timestamp("Last change."),
});
export type PartnerListItem = Static<typeof PartnerListItem>;

export const PartnerPage = ListPage("PartnerPage", "partners", PartnerListItem);

const AppFields = {
  client_id: Type.String(),
  partner_id: Type.String(),
  preview_rate_limit_per_minute: Type.Integer({ minimum: 1 }),
  created_at: Timestamp("Created."),
  revoked_at: Nullable.Timestamp("Revoked."),
};

export const AdminApp = ClosedObject("AdminApp", {
  ...AppFields,
  secrets: Type.Array(
    Type.Object(
      {
        secret_id: Type.String(),
        created_at: Timestamp("Created."),
        revoked_at: Nullable.Timestamp("Revoked."),
      },
      { additionalProperties: false },
    ),
    { description: "Newest first; never a secret or its hash." },
  ),
});
export type AdminApp = Static<typeof AdminApp>;

export const AppList = ClosedObject("AdminAppList", { apps: Type.Array(AdminApp) });

export const AppSettings = ClosedObject("AppSettings", AppFields);
export type AppSettings = Static<typeof AppSettings>;

export const RateLimitRequest = component(
  "RateLimitRequest",
  Type.Object({
    preview_rate_limit_per_minute: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: "previewQuotations calls per minute for this app (per gateway replica).",
    }),
  }),
);

export const AppParams = Type.Object({
  partner_id: PartnerIdParams.properties.partner_id,
  client_id: IdParam("app", "ci_01m7xx9726hzfmmn1fcz6t8605"),
});

export const BalanceEntriesQuery = Query({
  ...Paging(20),
});

export const BalanceEntry = ClosedObject("BalanceEntry", {
  entry_id: Type.String(),
  kind: StringEnum(["credit", "payout", "reversal", "refund"]),
  tx_id: Nullable.Text("The payout; null for a credit."),
  reference: Nullable.Text("A credit's reference; the transition for the others."),
  amount_usd: DecimalString("Signed: positive credits the balance."),
  balance_after_usd: DecimalString("The balance right after this entry."),
  created_at: Nullable.Timestamp("Booked."),
});

export const BalanceHistory = ClosedObject("BalanceHistory", {
  partner_id: Type.String(),
  balance_usd: DecimalString("The balance now."),
  entries: Type.Array(BalanceEntry, { description: "Newest first." }),
  next_cursor: NextCursor,
});
export type BalanceHistory = Static<typeof BalanceHistory>;

const operations = defineOperations(
  { tags: CONSOLE_TAG },
  {
    listPartners: {
      route: "GET /admin/partners",
      role: "viewer",
      summary: "Partners, with balances",
      description: "Newest first.",
      query: PartnerListQuery,
      responses: ok("A page.", PartnerPage),
      errors: PAGE_CASES,
    },
    listApps: {
      route: "GET /admin/partners/{partner_id}/apps",
      role: "viewer",
      summary: "A partner's apps and their secrets' ids",
      pathParams: PartnerIdParams,
      responses: ok("Newest first.", AppList),
      errors: [QUERY_CASE, PARTNER_NOT_FOUND],
    },
    setAppRateLimit: {
      route: "PATCH /admin/partners/{partner_id}/apps/{client_id}",
      role: "admin",
      summary: "Set an app's previewQuotations limit",
      description: "At once on the gateway that answers; within `AUTH_CACHE_TTL_MS` on other replicas.",
      pathParams: AppParams,
      body: RateLimitRequest,
      responses: ok("The app.", AppSettings),
      errors: [
        ["APP_NOT_FOUND", "the partner has no such app"],
        ["APP_REVOKED", "the app is revoked", 409],
      ],
    },
    listBalanceEntries: {
      route: "GET /admin/partners/{partner_id}/balance/entries",
      role: "viewer",
      summary: "A partner's balance history",
      description:
        "Every credit, payout debit, reversal and refund of the spendable balance, newest first, each with the balance right after it.",
      pathParams: PartnerIdParams,
      query: BalanceEntriesQuery,
      responses: ok("A page.", BalanceHistory),
      errors: [...PAGE_CASES, PARTNER_NOT_FOUND],
    },
  },
);
export const { listPartners, listApps, setAppRateLimit, listBalanceEntries } = operations;
export const CONSOLE_PARTNER_OPERATIONS = Object.values(operations);
