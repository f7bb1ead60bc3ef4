import { loadConfig, parse } from "@payouts/platform/config/env-config";
import { parseRailCallbackSecret } from "@payouts/platform/signing/rail-callback-signature";

const spec = {
  autoSettleMs: {
    env: "SANDBOX_AUTO_SETTLE_MS",
    doc: "delay before the sandbox rail reports a payout's outcome; 0 = never (settle by the admin route)",
    parse: parse.nonNegativeInt,
    default: 3_000,
  },
  callbackUrl: {
    env: "RAIL_CALLBACK_URL",
    doc: "the gateway's rail callback route",
    parse: httpUrl,
    default: "http://127.0.0.1:8080/callbacks/rail",
  },
  callbackSecret: {
    env: "RAIL_CALLBACK_SECRET",
    doc: "HMAC-SHA256 key of the X-Rail-Signature header (shared with the gateway; at least 32 bytes)",
    parse: parseRailCallbackSecret,
    required: true,
  },
  callbackTimeoutMs: {
    env: "RAIL_CALLBACK_TIMEOUT_MS",
    doc: "timeout of one callback POST",
    parse: parse.nonNegativeInt,
    default: 10_000,
  },
  callbackPollMs: {
    env: "RAIL_CALLBACK_POLL_MS",
    doc: "how often due callbacks are looked for",
    parse: parse.positiveInt,
    default: 250,
  },
} as const;

export type SandboxRailConfig = ReturnType<typeof loadSandboxRailConfig>;

export function loadSandboxRailConfig(env: Readonly<Record<string, string | undefined>>) {
  return loadConfig(spec, env);
}

function httpUrl(raw: string): string {
  const url = new URL(raw);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("expected an http(s) URL");
  return url.toString();
}
