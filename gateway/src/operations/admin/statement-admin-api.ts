/** Shapes and operations of a partner's statement settings (`statement-admin-routes.ts`). */
import { defineOperation } from "../../api/operation.js";
import { component, type Static, Type } from "../../api/schema.js";
import { PartnerIdParams } from "./partner-admin-api.js";

export const StatementSettings = component(
  "StatementSettings",
  Type.Object(
    {
      partner_id: Type.String(),
      time_zone: Type.String({
        description: "IANA time zone the partner's daily statements are cut in (UTC unless set).",
        examples: ["America/Sao_Paulo"],
      }),
    },
    { additionalProperties: false },
  ),
);
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

export const getStatementSettings = defineOperation({
  method: "GET",
  path: "/admin/partners/{partner_id}/statement-settings",
  operationId: "getStatementSettings",
  summary: "A partner's daily statement settings",
  tags: ["Balance"],
  pathParams: PartnerIdParams,
  responses: { 200: { description: "The settings.", schema: StatementSettings } },
  errors: [PARTNER_NOT_FOUND],
});

export const putStatementSettings = defineOperation({
  method: "PUT",
  path: "/admin/partners/{partner_id}/statement-settings",
  operationId: "putStatementSettings",
  summary: "Set a partner's statement time zone",
  description: "Days already closed keep the zone they were cut in; the next day to close uses the new one.",
  tags: ["Balance"],
  pathParams: PartnerIdParams,
  body: StatementSettingsRequest,
  responses: { 200: { description: "The settings now.", schema: StatementSettings } },
  errors: [["INVALID_FIELD", "`time_zone` is not an IANA time zone name"], PARTNER_NOT_FOUND],
});

export const STATEMENT_ADMIN_OPERATIONS = [getStatementSettings, putStatementSettings] as const;
