import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import {
  type AddedOperator,
  addOperator,
  creditFingerprint,
  findApp,
  findOperatorByUsername,
  findPartner,
  type GatewayDeps,
  hashSecret,
  insertApp,
  insertPartner,
  operatorSecretBox,
} from "@payouts/gateway/edge";
import {
  SANDBOX_CORRIDORS,
  SANDBOX_FEES,
  SANDBOX_FX_RATES,
  SANDBOX_SUPPORTED_CURRENCIES,
} from "@payouts/pricing/sandbox-defaults";

/** What the embedded sandbox keeps between restarts (in `.data/sandbox.json`, mode 0600). */
export interface SandboxState {
  admin_token: string;
  rail_callback_secret: string;
  partner_id: string;
  client_id: string;
  client_secret: string;
}

export const SANDBOX_OPENING_BALANCE_USD = "10000";

export function loadOrCreateSandboxState(
  file: string,
  env: Record<string, string | undefined>,
): SandboxState {
  const saved: Partial<SandboxState> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const state: SandboxState = {
    admin_token: env.ADMIN_TOKEN || saved.admin_token || randomBytes(24).toString("base64url"),
    rail_callback_secret:
      env.RAIL_CALLBACK_SECRET || saved.rail_callback_secret || randomBytes(32).toString("base64url"),
    partner_id: saved.partner_id || "ptr_sandbox",
    client_id: env.SANDBOX_CLIENT_ID || saved.client_id || `ci_sandbox_${randomBytes(6).toString("hex")}`,
    client_secret:
      env.SANDBOX_CLIENT_SECRET || saved.client_secret || `cs_${randomBytes(32).toString("base64url")}`,
  };
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  return state;
}

/**
 * Idempotent sandbox data: the sandbox partner and its app, FX rates and corridors for every corridor
 * currency (only where none are set, so operator changes survive restarts), and an opening balance
 * on first creation (credited once, by idempotency key).
 */
export async function seedSandbox(deps: GatewayDeps, state: SandboxState): Promise<SandboxSeeded> {
  const { clients, db } = deps;
  if (!(await findPartner(db, state.partner_id))) {
    await clients.pricing.putPartnerPricing({
      partnerId: state.partner_id,
      supportedCurrencies: [...SANDBOX_SUPPORTED_CURRENCIES],
      setSupportedCurrencies: true,
      fees: { percent: SANDBOX_FEES.percent, fixedUsd: SANDBOX_FEES.fixed_usd },
    });
    // Credited before the partner row is written, under a key of its own: a start that crashed in
    // between finds no partner, credits again with the same key, and so credits once.
    const opening = { amountUsd: SANDBOX_OPENING_BALANCE_USD, reference: "sandbox opening balance" };
    await clients.ledger.creditBalance({
      partnerId: state.partner_id,
      ...opening,
      idempotencyKey: `sandbox-opening-balance:${state.partner_id}`,
      requestFingerprint: creditFingerprint(state.partner_id, opening),
      requestId: "sandbox-seed",
    });
    await insertPartner(db, state.partner_id, "Sandbox partner");
  }
  const app = await findApp(db, state.client_id);
  if (!app) {
    await insertApp(db, {
      clientId: state.client_id,
      partnerId: state.partner_id,
      secretHash: await hashSecret(state.client_secret),
      previewRateLimitPerMinute: deps.config.defaultPreviewRateLimitPerMinute,
    });
  }
  const rates = new Set((await clients.pricing.listFxRates({})).rates.map((r) => r.currency));
  for (const { currency, ratePerUsd } of SANDBOX_FX_RATES) {
    if (!rates.has(currency)) await clients.pricing.putFxRate({ currency, ratePerUsd });
  }
  const corridors = new Set((await clients.pricing.listCorridors({})).corridors.map((c) => c.countryCode));
  for (const c of SANDBOX_CORRIDORS) {
    if (corridors.has(c.countryCode)) continue;
    await clients.pricing.putCorridor({
      corridor: {
        countryCode: c.countryCode,
        currency: c.currency,
        minAmount: c.minAmount,
        maxAmount: c.maxAmount,
        enabled: true,
      },
    });
  }
  return { firstOperator: await seedFirstOperator(deps) };
}

export interface SandboxSeeded {
  /** The `admin` operator created on this start (its password and TOTP are shown once), if it was. */
  readonly firstOperator: AddedOperator | undefined;
}

/** On the first start, an operator `admin` with the admin role, so the console can be signed in to. */
async function seedFirstOperator(deps: GatewayDeps): Promise<AddedOperator | undefined> {
  if (await findOperatorByUsername(deps.db, SANDBOX_OPERATOR)) return undefined;
  const box = await operatorSecretBox(deps.db, deps.config.operatorSecretKey);
  return addOperator(deps.db, box, { username: SANDBOX_OPERATOR, role: "admin" });
}

export const SANDBOX_OPERATOR = "admin";
