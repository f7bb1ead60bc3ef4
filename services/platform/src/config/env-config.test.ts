import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parse } from "./env-config.js";

const spec = {
  port: { env: "PORT", doc: "listener port", parse: parse.port, default: 8080 },
  token: { env: "ADMIN_TOKEN", doc: "admin bearer token", parse: parse.string, required: true },
  brokers: { env: "KAFKA_BROKERS", doc: "brokers", parse: parse.list },
} as const;

describe("loadConfig", () => {
  it("applies defaults and parses values", () => {
    const cfg = loadConfig(spec, { ADMIN_TOKEN: "t", KAFKA_BROKERS: "a:1, b:2" });
    expect(cfg).toEqual({ port: 8080, token: "t", brokers: ["a:1", "b:2"] });
  });

  it("reports every problem at once and never echoes secrets", () => {
    let caught: unknown;
    try {
      loadConfig(
        { ...spec, secret: { env: "X_SECRET", doc: "s", parse: parse.port } },
        { PORT: "http", X_SECRET: "hunter2" },
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toContain('PORT="http"');
    expect(problems.join("\n")).toContain("ADMIN_TOKEN is required");
    expect(problems.join("\n")).not.toContain("hunter2");
  });

  it("parses booleans strictly", () => {
    expect(parse.boolean("TRUE")).toBe(true);
    expect(parse.boolean("off")).toBe(false);
    expect(() => parse.boolean("maybe")).toThrow();
  });
});
