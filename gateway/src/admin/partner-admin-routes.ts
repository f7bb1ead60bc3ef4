import { randomBytes } from "node:crypto";
import { newId } from "@payouts/platform/ids";
import type { PartnerPricing } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { Static } from "../api/schema.js";
import { hashSecret } from "../auth/secret-hash.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readBody } from "../http/read-body.js";
import {
  type AppSecret,
  addAppSecret as addAppSecretOp,
  type CreatedApp,
  createApp,
  createPartner,
  getPartner,
  listAppSecrets as listAppSecretsOp,
  type Partner,
  type PartnerCreateRequest,
  revokeApp as revokeAppOp,
  revokeAppSecret as revokeAppSecretOp,
  updatePartner,
} from "../operations/admin/partner-admin-api.js";
import {
  type AppSecretRow,
  addAppSecret,
  findPartner,
  insertApp,
  insertPartner,
  listAppSecrets,
  MAX_ACTIVE_SECRETS_PER_APP,
  type PartnerRow,
  revokeApp,
  revokeAppSecret,
  touchPartner,
} from "../store/partner-store.js";

/**
 * Partners and their apps. A partner's identity lives in the gateway; its pricing (supported
 * currencies, fee schedule) lives in the pricing service, which the gateway forwards those fields to.
 */
export function registerPartnerAdminRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  addRoute(app, createPartner, async (request, reply) => {
    const body = readBody(createPartner.body, request.body);
    const partnerId = newId("ptr");
    const pricing = await putPricing(deps, partnerId, body);
    const row = await insertPartner(deps.db, partnerId, body.name);
    return reply.code(201).send(renderPartner(row, pricing));
  });

  addRoute(app, getPartner, async (request) => {
    const row = await requirePartner(deps, request.params.partner_id);
    const res = await deps.clients.pricing.getPartnerPricing({ partnerId: row.partner_id });
    return renderPartner(row, res.pricing);
  });

  addRoute(app, updatePartner, async (request) => {
    const body = readBody(updatePartner.body, request.body);
    let row = await requirePartner(deps, request.params.partner_id);
    const pricing = await putPricing(deps, row.partner_id, body);
    const changed =
      body.name !== undefined || body.fees !== undefined || body.supported_currencies !== undefined;
    if (changed) row = (await touchPartner(deps.db, row.partner_id, body.name)) ?? row;
    return renderPartner(row, pricing);
  });

  addRoute(app, createApp, async (request, reply) => {
    const body = readBody(createApp.body, request.body);
    const partner = await requirePartner(deps, request.params.partner_id);
    const limit = body.preview_rate_limit_per_minute ?? deps.config.defaultPreviewRateLimitPerMinute;
    const clientId = newId("ci");
    const clientSecret = newClientSecret();
    const row = await insertApp(deps.db, {
      clientId,
      partnerId: partner.partner_id,
      secretHash: await hashSecret(clientSecret),
      previewRateLimitPerMinute: limit,
    });
    const created: CreatedApp = {
      client_id: row.client_id,
      client_secret: clientSecret,
      secret_id: row.secret_id,
      partner_id: row.partner_id,
      preview_rate_limit_per_minute: row.preview_rate_limit_per_minute,
      created_at: row.created_at.toISOString(),
    };
    return reply.code(201).send(created);
  });

  addRoute(app, revokeAppOp, async (request, reply) => {
    const { partner_id, client_id } = request.params;
    if (!(await revokeApp(deps.db, partner_id, client_id))) {
      throw new ApiError(404, "APP_NOT_FOUND", `app ${client_id} not found for partner ${partner_id}`);
    }
    deps.verifier.forget(client_id);
    return reply.code(204).send();
  });

  registerAppSecretRoutes(app, deps);
}

type AppParams = { partner_id: string; client_id: string };
const appNotFound = ({ partner_id, client_id }: AppParams) =>
  new ApiError(404, "APP_NOT_FOUND", `app ${client_id} not found for partner ${partner_id}`);

/**
 * Client secret rotation: add a second secret (shown once, stored as a scrypt hash), let the partner
 * move to it while both work, then revoke the old one. At most MAX_ACTIVE_SECRETS_PER_APP are active.
 */
function registerAppSecretRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  addRoute(app, addAppSecretOp, async (request, reply) => {
    const { partner_id, client_id } = request.params;
    const clientSecret = newClientSecret();
    const outcome = await addAppSecret(deps.db, partner_id, client_id, await hashSecret(clientSecret));
    if (outcome.kind === "app_not_found") throw appNotFound(request.params);
    if (outcome.kind === "app_revoked") {
      throw new ApiError(409, "APP_REVOKED", `app ${client_id} is revoked; create a new app instead`);
    }
    if (outcome.kind === "too_many_secrets") {
      throw new ApiError(
        409,
        "TOO_MANY_SECRETS",
        `app ${client_id} already has ${MAX_ACTIVE_SECRETS_PER_APP} active secrets; revoke one first`,
      );
    }
    deps.verifier.forget(client_id);
    return reply.code(201).send({ ...renderSecret(outcome.secret), client_secret: clientSecret });
  });

  addRoute(app, listAppSecretsOp, async (request) => {
    const { partner_id, client_id } = request.params;
    const secrets = await listAppSecrets(deps.db, partner_id, client_id);
    if (!secrets) throw appNotFound(request.params);
    return { secrets: secrets.map(renderSecret) };
  });

  addRoute(app, revokeAppSecretOp, async (request, reply) => {
    const { partner_id, client_id, secret_id } = request.params;
    const outcome = await revokeAppSecret(deps.db, partner_id, client_id, secret_id);
    if (outcome.kind === "secret_not_found") {
      throw new ApiError(404, "SECRET_NOT_FOUND", `secret ${secret_id} not found for app ${client_id}`);
    }
    if (outcome.kind === "last_secret") {
      throw new ApiError(
        409,
        "LAST_SECRET",
        `secret ${secret_id} is the app's only active secret; add a new one first, or revoke the app`,
      );
    }
    deps.verifier.forget(client_id);
    return reply.code(204).send();
  });
}

const newClientSecret = () => `cs_${randomBytes(32).toString("base64url")}`;

function renderSecret(row: AppSecretRow): AppSecret {
  return {
    secret_id: row.secret_id,
    client_id: row.client_id,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

async function requirePartner(deps: GatewayDeps, partnerId: string): Promise<PartnerRow> {
  const row = await findPartner(deps.db, partnerId);
  if (!row) throw new ApiError(404, "PARTNER_NOT_FOUND", `partner ${partnerId} not found`);
  return row;
}

/** Forwards supported_currencies and fees to pricing; answers the partner's pricing either way. */
async function putPricing(
  deps: GatewayDeps,
  partnerId: string,
  body: Pick<Static<typeof PartnerCreateRequest>, "supported_currencies" | "fees">,
): Promise<PartnerPricing | undefined> {
  const currencies = body.supported_currencies;
  const fees = body.fees;
  const percent = fees?.percent;
  const fixedUsd = fees?.fixed_usd;
  const res = await deps.clients.pricing.putPartnerPricing({
    partnerId,
    supportedCurrencies: currencies ?? [],
    setSupportedCurrencies: currencies !== undefined,
    ...(fees ? { fees: { percent: percent ?? "", fixedUsd: fixedUsd ?? "" } } : {}),
  });
  return res.pricing;
}

function renderPartner(row: PartnerRow, pricing: PartnerPricing | undefined): Partner {
  return {
    partner_id: row.partner_id,
    name: row.name,
    supported_currencies: pricing?.supportedCurrencies ?? [],
    fees: { percent: pricing?.fees?.percent || "0", fixed_usd: pricing?.fees?.fixedUsd || "0" },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
