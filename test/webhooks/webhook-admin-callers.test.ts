/**
 * Who may see and switch receivers' health: the dispatcher behind the real gRPC listener with service
 * authentication, called as the distributed gateway calls it. Only the admin identity (gateway-admin) may list,
 * pause or resume a receiver; the partner-facing identity is refused PermissionDenied and changes nothing.
 */
import { Code } from "@connectrpc/connect";
import type { ServiceCaller } from "@payouts/platform/rpc/caller-allowlist";
import type { GrpcServerHandle } from "@payouts/platform/rpc/grpc-server";
import { generateServiceCredentials } from "@payouts/platform/rpc/service-credentials";
import { createServiceTransport } from "@payouts/platform/rpc/service-transport";
import { WebhookAdminService } from "@payouts/proto/payouts/webhooks/v1/webhooks_admin_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAs, codeOf, listenAuthenticated } from "../support/rpc-callers.js";
import { createConfig, type Json } from "./support/webhook-fixtures.js";
import { startWebhookHarness, type WebhookHarness } from "./support/webhook-harness.js";

const credentials = generateServiceCredentials();
let harness: WebhookHarness;
let server: GrpcServerHandle;
let base: ReturnType<typeof createServiceTransport>;
let config: Json;

const adminServiceAs = (caller?: ServiceCaller) =>
  clientAs(WebhookAdminService, base, credentials, "webhooks", caller);

const pausedInDb = async () =>
  (
    await harness.db.query<{ paused: boolean }>("SELECT paused FROM webhooks.configs WHERE config_id = $1", [
      config.config_id,
    ])
  ).rows[0]?.paused;

beforeAll(async () => {
  harness = await startWebhookHarness();
  const partner = await harness.createPartner();
  config = await createConfig(harness, partner, { url: "http://127.0.0.1:9/callers" });
  server = await listenAuthenticated({ name: "webhooks", module: harness.dispatcher, credentials });
  base = createServiceTransport(`http://127.0.0.1:${server.port}`);
});

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

describe("receiver health RPCs", () => {
  it("refuse the partner-facing identity with PermissionDenied, and the rail route's outright", async () => {
    // gateway-rail is named by no RPC of the dispatcher: its token is not even accepted here.
    for (const [caller, code] of [
      ["gateway", Code.PermissionDenied],
      ["gateway-rail", Code.Unauthenticated],
    ] as const) {
      const client = adminServiceAs(caller);
      const calls = [
        client.listReceiverHealth({}),
        client.pauseReceiver({ configId: config.config_id }),
        client.resumeReceiver({ configId: config.config_id }),
      ];
      expect(await Promise.all(calls.map(codeOf)), caller).toEqual(calls.map(() => code));
    }
    expect(await pausedInDb()).toBe(false);
  });

  it("refuse a call without a credential", async () => {
    expect(await codeOf(adminServiceAs().pauseReceiver({ configId: config.config_id }))).toBe(
      Code.Unauthenticated,
    );
    expect(await pausedInDb()).toBe(false);
  });

  it("answer the admin identity: pause, list, resume, and NotFound for an unknown receiver", async () => {
    const admin = adminServiceAs("gateway-admin");
    expect((await admin.pauseReceiver({ configId: config.config_id })).receiver?.paused).toBe(true);
    expect(await pausedInDb()).toBe(true);
    const listed = await admin.listReceiverHealth({});
    expect(listed.receivers.map((r) => [r.configId, r.paused])).toEqual([[config.config_id, true]]);
    expect((await admin.resumeReceiver({ configId: config.config_id })).receiver?.paused).toBe(false);
    expect(await pausedInDb()).toBe(false);
    expect(await codeOf(admin.pauseReceiver({ configId: "whc_unknown" }))).toBe(Code.NotFound);
    expect(await codeOf(admin.pauseReceiver({ configId: "" }))).toBe(Code.InvalidArgument);
  });
});
