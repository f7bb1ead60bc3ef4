import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "../database/database-unavailable.js";
import { createLogger, maskAccount } from "./logger.js";

function capture(): { lines: Array<Record<string, unknown>>; text: string[]; stream: Writable } {
  const lines: Array<Record<string, unknown>> = [];
  const text: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text.push(chunk.toString());
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, text, stream };
}

describe("maskAccount", () => {
  it.each([
    ["0000000018", "******0018"],
    ["52998224725", "*******4725"],
    ["ana@example.com", "***********.com"],
    ["12345678", "********"],
    ["", "*"],
  ])("%s → %s", (input, masked) => {
    expect(maskAccount(input)).toBe(masked);
  });

  it("redacts whatever is not a string", () => {
    expect(maskAccount({ account_no: "0000000018" })).toBe("[redacted]");
    expect(maskAccount(1234567890)).toBe("[redacted]");
  });
});

describe("createLogger", () => {
  it("redacts secrets and personal data and masks account numbers at any depth", () => {
    const { lines, text, stream } = capture();
    createLogger({ service: "test", destination: stream }).info(
      {
        authorization: "Basic c2VjcmV0",
        req: { headers: { authorization: "Bearer admin-token", "x-rail-signature": "c2ln" } },
        body: {
          client_secret: "s3cret",
          payment_destination: "0000000018",
          recipient: { account_no: "0000000018", name_first: "Ada" },
          sender: { phone: "+2348012345678" },
        },
        nested: { deeper: { password: "pw", account_no: "123456789012" } },
        tx_id: "tx_1",
      },
      "lookup",
    );
    const all = text.join("");
    for (const secret of ["c2VjcmV0", "admin-token", "c2ln", "s3cret", "0000000018", "Ada", "+234", 'pw"']) {
      expect(all).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({
      authorization: "[redacted]",
      body: { payment_destination: "******0018", recipient: "[redacted]", sender: "[redacted]" },
      nested: { deeper: { password: "[redacted]", account_no: "********9012" } },
      tx_id: "tx_1",
      service: "test",
      message: "lookup",
    });
  });

  it("adds no trace fields outside a span", () => {
    const { lines, stream } = capture();
    createLogger({ service: "test", destination: stream }).info("no span");
    expect(lines[0]).not.toHaveProperty("trace_id");
  });
});

describe("createLogger redaction beyond plain objects", () => {
  it("serialises an err with its type and redacts inside it, in arrays and in child bindings", () => {
    const { lines, text, stream } = capture();
    class RailError extends Error {
      metadata = { authorization: "Bearer rail-token", account_no: "123456789012" };
    }
    const logger = createLogger({ service: "test", destination: stream });
    logger.error({ err: new RailError("rail down") }, "submit failed");
    logger
      .child({ password: "child-pw" })
      .info({ items: [{ email: "a@example.com" }], at: new Date(0) }, "x");
    const all = text.join("");
    for (const secret of ["rail-token", "123456789012", "child-pw", "a@example.com"]) {
      expect(all).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({
      err: {
        type: "RailError",
        message: "rail down",
        metadata: { authorization: "[redacted]", account_no: "********9012" },
      },
    });
    expect(lines[0]?.err).toHaveProperty("stack");
    expect(lines[1]).toMatchObject({
      password: "[redacted]",
      items: [{ email: "[redacted]" }],
      at: "1970-01-01T00:00:00.000Z",
    });
  });

  it("logs a service error's details as what they say, not as protobuf descriptors", () => {
    const { lines, text, stream } = capture();
    const logger = createLogger({ service: "test", destination: stream });
    logger.warn(
      { err: new DatabaseUnavailableError("not-applied", new Error("connect ECONNREFUSED")) },
      "down",
    );
    expect(text.join("").length).toBeLessThan(4_000);
    expect(text.join("")).not.toContain("DescriptorProto");
    expect(lines[0]?.err).toMatchObject({
      details: [{ type: "payouts.common.v1.ErrorDetail", reason: "SERVICE_UNAVAILABLE" }],
    });
  });

  it("survives an object that refers to itself", () => {
    const { lines, stream } = capture();
    const loop: Record<string, unknown> = { name: "loop" };
    loop.self = loop;
    createLogger({ service: "test", destination: stream }).info({ loop }, "cycle");
    expect(lines[0]).toHaveProperty("loop.name", "loop");
  });
});
