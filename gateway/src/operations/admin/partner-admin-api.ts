/** Shapes and operations of partners, apps and client secrets (`partner-admin-routes.ts`). */
import { defineOperations, ok } from "../../api/operation.js";
import {
  ClosedObject,
  component,
  DecimalInput,
  Nullable,
  type Static,
  Timestamp,
  Type,
} from "../../api/schema.js";
import { IdParam } from "./console-query-shapes.js";

export const PartnerIdParams = Type.Object({
  partner_id: IdParam("partner", "ptr_01m7xx94hd26qz72tpjzafqaav"),
});
export const AppParams = Type.Object({
  partner_id: PartnerIdParams.properties.partner_id,
  client_id: IdParam("app", "ci_01m7xx94hd26qz72tpjzafqaav"),
});
export const SecretParams = Type.Object({
  ...AppParams.properties,
  secret_id: Type.String({ description: "The secret (`sec_…`)." }),
});

const Fees = component(
  "PartnerFees",
  Type.Object(
    {
      percent: Type.Optional(
        DecimalInput("Percentage of the USD amount charged per payout (1.5 = 1.5 %); at least 0.", {
          minimum: 0,
          examples: ["1.5"],
        }),
      ),
      fixed_usd: Type.Optional(
        DecimalInput("Fixed USD fee per payout; at least 0.", { minimum: 0, examples: ["0.30"] }),
      ),
    },
    { description: "The partner's fee schedule; a field left out keeps its value." },
  ),
);

const SUPPORTED_CURRENCIES = Type.Array(Type.String({ description: "ISO 4217 code." }), {
  description: "Currencies the partner may pay out in (replaces the list).",
  examples: [["USD", "BRL"]],
});

export const PartnerCreateRequest = component(
  "PartnerCreateRequest",
  Type.Object({
    name: Type.String({ maxLength: 200, description: "Display name, 1–200 characters." }),
    supported_currencies: Type.Optional(SUPPORTED_CURRENCIES),
    fees: Type.Optional(Fees),
  }),
);

export const PartnerUpdateRequest = component(
  "PartnerUpdateRequest",
  Type.Object(
    {
      name: Type.Optional(Type.String({ maxLength: 200, description: "Display name, 1–200 characters." })),
      supported_currencies: Type.Optional(SUPPORTED_CURRENCIES),
      fees: Type.Optional(Fees),
    },
    { description: "Only the fields given change." },
  ),
);

export const Partner = ClosedObject("Partner", {
  partner_id: Type.String({ examples: ["ptr_01m7xx94hd26qz72tpjzafqaav"] }),
  name: Type.String(),
  supported_currencies: Type.Array(Type.String()),
  fees: Type.Object(
    {
      percent: Type.String({ description: "Decimal string; `0` when none." }),
      fixed_usd: Type.String({ description: "Decimal string; `0` when none." }),
    },
    { additionalProperties: false },
  ),
  created_at: Timestamp("Creation."),
  updated_at: Timestamp("Last change."),
});
export type Partner = Static<typeof Partner>;

export const AppCreateRequest = component(
  "AppCreateRequest",
  Type.Object({
    preview_rate_limit_per_minute: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: "previewQuotations calls per minute for this app; the gateway's default when left out.",
      }),
    ),
  }),
);

export const CreatedApp = ClosedObject("CreatedApp", {
  client_id: Type.String(),
  client_secret: Type.String({ description: "Shown once: only its scrypt hash is stored." }),
  secret_id: Type.String(),
  partner_id: Type.String(),
  preview_rate_limit_per_minute: Type.Integer(),
  created_at: Timestamp("Creation."),
});
export type CreatedApp = Static<typeof CreatedApp>;

const SECRET_FIELDS = {
  secret_id: Type.String(),
  client_id: Type.String(),
  created_at: Timestamp("Creation."),
  revoked_at: Nullable(Timestamp("Revocation."), "When it was revoked; null while active."),
};

export const AppSecret = ClosedObject("AppSecret", SECRET_FIELDS, {
  description: "A secret; never its hash.",
});
export type AppSecret = Static<typeof AppSecret>;

export const CreatedAppSecret = ClosedObject("CreatedAppSecret", {
  ...SECRET_FIELDS,
  client_secret: Type.String({ description: "Shown once." }),
});

export const AppSecretList = ClosedObject("AppSecretList", {
  secrets: Type.Array(AppSecret, { description: "Newest first." }),
});

const PARTNER_NOT_FOUND = ["PARTNER_NOT_FOUND", "no such partner"] as const;
const APP_NOT_FOUND = ["APP_NOT_FOUND", "no such app for this partner"] as const;
const PRICING_CASE = [
  "INVALID_FIELD",
  "the pricing service refused `supported_currencies` or `fees` (`field` names it)",
] as const;
const TAG_PARTNERS = ["Partners"];
const TAG_APPS = ["Apps"];

const operations = defineOperations(
  {},
  {
    createPartner: {
      route: "POST /admin/partners",
      role: "admin",
      summary: "Create a partner",
      description:
        "Creates the partner and forwards `supported_currencies` and `fees` to the pricing service.",
      tags: TAG_PARTNERS,
      body: PartnerCreateRequest,
      responses: { 201: { description: "The partner.", schema: Partner } },
      errors: [PRICING_CASE],
    },
    getPartner: {
      route: "GET /admin/partners/{partner_id}",
      role: "viewer",
      summary: "A partner and its pricing",
      tags: TAG_PARTNERS,
      pathParams: PartnerIdParams,
      responses: ok("The partner.", Partner),
      errors: [PARTNER_NOT_FOUND],
    },
    updatePartner: {
      route: "PATCH /admin/partners/{partner_id}",
      role: "admin",
      summary: "Rename a partner or change its currencies and fees",
      tags: TAG_PARTNERS,
      pathParams: PartnerIdParams,
      body: PartnerUpdateRequest,
      responses: ok("The partner as changed.", Partner),
      errors: [PARTNER_NOT_FOUND, PRICING_CASE],
    },
    createApp: {
      route: "POST /admin/partners/{partner_id}/apps",
      role: "admin",
      summary: "Create an app (partner credentials)",
      description: "A new `client_id` with its first secret, shown once.",
      tags: TAG_APPS,
      pathParams: PartnerIdParams,
      body: AppCreateRequest,
      responses: { 201: { description: "The app and its secret.", schema: CreatedApp } },
      errors: [PARTNER_NOT_FOUND],
    },
    revokeApp: {
      route: "DELETE /admin/partners/{partner_id}/apps/{client_id}",
      role: "admin",
      summary: "Revoke an app",
      description: "None of its secrets works any more. Idempotent.",
      tags: TAG_APPS,
      pathParams: AppParams,
      responses: { 204: { description: "Revoked (or already was)." } },
      errors: [APP_NOT_FOUND],
    },
    addAppSecret: {
      route: "POST /admin/partners/{partner_id}/apps/{client_id}/secrets",
      role: "admin",
      summary: "Add a client secret (rotation)",
      description: "At most two secrets are active at once; both work until one is revoked.",
      tags: TAG_APPS,
      pathParams: AppParams,
      responses: { 201: { description: "The new secret, shown once.", schema: CreatedAppSecret } },
      errors: [
        APP_NOT_FOUND,
        ["APP_REVOKED", "the app is revoked: create a new app instead", 409],
        ["TOO_MANY_SECRETS", "the app already has two active secrets: revoke one first", 409],
      ],
    },
    listAppSecrets: {
      route: "GET /admin/partners/{partner_id}/apps/{client_id}/secrets",
      role: "viewer",
      summary: "An app's secrets",
      tags: TAG_APPS,
      pathParams: AppParams,
      responses: ok("Newest first, never a hash.", AppSecretList),
      errors: [APP_NOT_FOUND],
    },
    revokeAppSecret: {
      route: "DELETE /admin/partners/{partner_id}/apps/{client_id}/secrets/{secret_id}",
      role: "admin",
      summary: "Revoke one client secret",
      description: "Idempotent. The last active secret of an active app cannot be revoked: revoke the app.",
      tags: TAG_APPS,
      pathParams: SecretParams,
      responses: { 204: { description: "Revoked (or already was)." } },
      errors: [
        ["SECRET_NOT_FOUND", "no such secret for this app", 404],
        ["LAST_SECRET", "it is the app's only active secret: add a new one first, or revoke the app", 409],
      ],
    },
  },
);
export const {
  createPartner,
  getPartner,
  updatePartner,
  createApp,
  revokeApp,
  addAppSecret,
  listAppSecrets,
  revokeAppSecret,
} = operations;
export const PARTNER_ADMIN_OPERATIONS = Object.values(operations);
