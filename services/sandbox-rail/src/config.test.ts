import { ConfigError } from "@payouts/platform/config/env-config";
import { describe, expect, it } from "vitest";
import { loadSandboxRailConfig } from "./config.js";

describe("loadSandboxRailConfig", () => {
  it("refuses a RAIL_CALLBACK_SECRET shorter than 32 bytes", () => {
    const load = () => loadSandboxRailConfig({ RAIL_CALLBACK_SECRET: "x".repeat(31) });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/RAIL_CALLBACK_SECRET="<redacted>": must be at least 32 bytes \(got 31\)/);
  });

  it("accepts a 32-byte RAIL_CALLBACK_SECRET", () => {
    expect(loadSandboxRailConfig({ RAIL_CALLBACK_SECRET: "x".repeat(32) }).callbackSecret).toBe(
      "x".repeat(32),
    );
  });
});
