/**
 * `payouts_gateway_auth_outcomes_total{outcome}`: partner authentications by outcome — `ok`, `refused`
 * (missing, malformed, wrong or revoked credentials), `throttled` (429 after repeated failures) and `busy`
 * (503, too many checks in progress). A rise in `throttled` or `busy` is a login flood.
 */
import { type Counter, payoutsMeter } from "@payouts/platform/telemetry/payouts-meter";

export type AuthOutcome = "ok" | "refused" | "throttled" | "busy";

// Created on first use: instruments made before the process registered its meter provider are no-ops.
let outcomes: Counter | undefined;

export function countAuthOutcome(outcome: AuthOutcome): void {
  outcomes ??= payoutsMeter().createCounter("payouts.gateway.auth.outcomes", {
    description: "Partner authentications by outcome (ok, refused, throttled, busy)",
  });
  outcomes.add(1, { outcome });
}
