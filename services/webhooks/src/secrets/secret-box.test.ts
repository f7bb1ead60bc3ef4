import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox, generateSealingKey, parseSealingKey } from "./secret-box.js";

const KEY = Buffer.alloc(32, 7);

describe("createSecretBox", () => {
  const box = createSecretBox(KEY);

  it("opens what it sealed, for the same context", () => {
    const sealed = box.seal("partner-webhook-secret", "webhooks.configs/whc_1/secret");
    expect(sealed).toMatch(/^v1\.[0-9a-f]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain("partner-webhook-secret");
    expect(box.open(sealed, "webhooks.configs/whc_1/secret")).toBe("partner-webhook-secret");
  });

  it("uses a fresh nonce each time", () => {
    expect(box.seal("same", "ctx")).not.toBe(box.seal("same", "ctx"));
  });

  it("refuses another context, a tampered value and another key", () => {
    const sealed = box.seal("pässwörd", "webhooks.configs/whc_1/basic_auth");
    expect(() => box.open(sealed, "webhooks.configs/whc_2/basic_auth")).toThrow();
    const payload = Buffer.from(sealed.split(".")[2]!, "base64url");
    payload[payload.length - 1]! ^= 1;
    const tampered = `${sealed.split(".").slice(0, 2).join(".")}.${payload.toString("base64url")}`;
    expect(() => box.open(tampered, "webhooks.configs/whc_1/basic_auth")).toThrow();
    const other = createSecretBox(generateSealingKey());
    expect(() => other.open(sealed, "webhooks.configs/whc_1/basic_auth")).toThrow(/sealed with key/);
    expect(() => box.open("plain-text", "ctx")).toThrow(/unknown format/);
  });

  it("refuses keys that are not 32 bytes", () => {
    expect(() => createSecretBox(Buffer.alloc(16))).toThrow(RangeError);
  });
});

describe("parseSealingKey", () => {
  it.each([
    ["07".repeat(32), KEY],
    [KEY.toString("base64"), KEY],
    [` ${KEY.toString("base64url")} `, KEY],
  ])("reads %j", (text, expected) => {
    expect(parseSealingKey(text).equals(expected)).toBe(true);
  });

  it.each(["", "07".repeat(31), Buffer.alloc(31).toString("base64"), "not a key!"])("refuses %j", (text) => {
    expect(() => parseSealingKey(text)).toThrow(/32 bytes/);
  });

  it("fingerprints a key stably without revealing it", () => {
    const keyId = createSecretBox(KEY).keyId;
    expect(createSecretBox(Buffer.from(KEY)).keyId).toBe(keyId);
    expect(createSecretBox(generateSealingKey()).keyId).not.toBe(keyId);
    expect(keyId).toMatch(/^[0-9a-f]{16}$/);
  });

  it("keeps the key id the service's stored secrets name (its own label over the key)", () => {
    const expected = createHash("sha256").update("payouts-webhook-sealing-key").update(KEY).digest("hex");
    expect(createSecretBox(KEY).keyId).toBe(expected.slice(0, 16));
  });
});
