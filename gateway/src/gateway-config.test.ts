import { ConfigError } from "@payouts/platform/config/env-config";
import { describe, expect, it } from "vitest";
import { loadGatewayConfig, localBaseUrl } from "./gateway-config.js";

const SECRETS = {
  ADMIN_TOKEN: "0123456789abcdef",
  RAIL_CALLBACK_SECRET: "rail-callback-secret-of-32-bytes-0123",
};

describe("HOST", () => {
  it("defaults to loopback, in the embedded sandbox as in the distributed gateway", () => {
    expect(loadGatewayConfig({}, { embedded: true }).host).toBe("127.0.0.1");
    expect(loadGatewayConfig(SECRETS).host).toBe("127.0.0.1");
  });

  it("is honoured when set, in both modes", () => {
    expect(loadGatewayConfig({ HOST: "0.0.0.0" }, { embedded: true }).host).toBe("0.0.0.0");
    expect(loadGatewayConfig({ ...SECRETS, HOST: "10.1.2.3" }).host).toBe("10.1.2.3");
  });
});

describe("localBaseUrl", () => {
  it.each([
    ["0.0.0.0", "http://127.0.0.1:8080"],
    ["::", "http://127.0.0.1:8080"],
    ["127.0.0.2", "http://127.0.0.2:8080"],
    ["::1", "http://[::1]:8080"],
    ["gateway.local", "http://gateway.local:8080"],
  ])("reaches a listener on %s at %s", (host, url) => {
    expect(localBaseUrl(host, 8080)).toBe(url);
  });
});

describe("RAIL_CALLBACK_SECRET", () => {
  it("is refused below 32 bytes with a config error naming the variable, never echoing the value", () => {
    const load = () => loadGatewayConfig({ ...SECRETS, RAIL_CALLBACK_SECRET: "short-rail-secret" });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/RAIL_CALLBACK_SECRET="<redacted>": must be at least 32 bytes/);
    expect(load).not.toThrow(/short-rail-secret/);
  });

  it("is refused below 32 bytes in the embedded sandbox too when given", () => {
    expect(() => loadGatewayConfig({ RAIL_CALLBACK_SECRET: "short" }, { embedded: true })).toThrow(
      /at least 32 bytes/,
    );
  });
});

describe("HTTP_MAX_CONNECTIONS_PER_ADDRESS", () => {
  it("is 128 by default, off behind a trusted proxy (the peer is the proxy), and as set when set", () => {
    expect(loadGatewayConfig(SECRETS).httpMaxConnectionsPerAddress).toBe(128);
    expect(loadGatewayConfig({ ...SECRETS, TRUST_PROXY_HOPS: "1" }).httpMaxConnectionsPerAddress).toBe(0);
    expect(
      loadGatewayConfig({ ...SECRETS, TRUST_PROXY_HOPS: "1", HTTP_MAX_CONNECTIONS_PER_ADDRESS: "16" })
        .httpMaxConnectionsPerAddress,
    ).toBe(16);
  });

  it("refuses a request timeout shorter than the headers timeout", () => {
    expect(() =>
      loadGatewayConfig({ ...SECRETS, HTTP_HEADERS_TIMEOUT_MS: "5000", HTTP_REQUEST_TIMEOUT_MS: "1000" }),
    ).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });
});

describe("FOUR_EYES_APPROVALS", () => {
  it("is on in the distributed gateway and in production mode, off in the one-process sandbox", () => {
    expect(loadGatewayConfig(SECRETS).fourEyesApprovals).toBe(true);
    expect(
      loadGatewayConfig({ ...SECRETS, NODE_ENV: "production" }, { embedded: true }).fourEyesApprovals,
    ).toBe(true);
    expect(loadGatewayConfig({}, { embedded: true }).fourEyesApprovals).toBe(false);
  });

  it("is honoured when set, with the threshold read as a decimal of at least 0", () => {
    const on = loadGatewayConfig(
      { FOUR_EYES_APPROVALS: "true", FOUR_EYES_CREDIT_THRESHOLD_USD: "0" },
      { embedded: true },
    );
    expect([on.fourEyesApprovals, on.fourEyesCreditThresholdUsd]).toEqual([true, "0"]);
    expect(loadGatewayConfig({ ...SECRETS, FOUR_EYES_APPROVALS: "false" }).fourEyesApprovals).toBe(false);
    expect(loadGatewayConfig(SECRETS).fourEyesCreditThresholdUsd).toBe("10000");
    expect(() => loadGatewayConfig({ ...SECRETS, FOUR_EYES_CREDIT_THRESHOLD_USD: "-1" })).toThrow(
      /FOUR_EYES_CREDIT_THRESHOLD_USD/,
    );
  });
});
