import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { configureTextEncoding, getTextEncoding } from "@bufbuild/protobuf/wire";
import { DestinationSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import { checkUtf8, decodeUtf8, encodeUtf8, useFastProtobufTextEncoding } from "./protobuf-text-encoding.js";

const SAMPLES = [
  "",
  "BRL",
  "ana.souza@example.com",
  "São Paulo",
  "日本語のテキスト",
  "emoji 🎉 and more",
  "x".repeat(5000),
];
const LONE_SURROGATE = "a\ud800b";

describe("protobuf text encoding", () => {
  const original = getTextEncoding();

  it("encodes exactly as TextEncoder does, lone surrogates included", () => {
    const reference = new TextEncoder();
    for (const text of [...SAMPLES, LONE_SURROGATE]) {
      expect([...encodeUtf8(text)]).toEqual([...reference.encode(text)]);
    }
  });

  it("decodes what it encodes, and refuses invalid UTF-8 only when asked to validate", () => {
    for (const text of SAMPLES) expect(decodeUtf8(encodeUtf8(text), true)).toBe(text);
    const invalid = new Uint8Array([0x61, 0xff, 0x62]);
    expect(decodeUtf8(invalid, false)).toBe("a\ufffdb");
    expect(() => decodeUtf8(invalid, true)).toThrow();
  });

  it("checks well-formedness as the default does", () => {
    for (const text of SAMPLES) expect(checkUtf8(text)).toBe(original.checkUtf8(text));
    expect(checkUtf8(LONE_SURROGATE)).toBe(false);
    expect(original.checkUtf8(LONE_SURROGATE)).toBe(false);
  });

  it("gives protobuf-es the same wire bytes and messages", () => {
    const message = create(DestinationSchema, {
      countryCode: "BR",
      institutionName: "Banco São João",
      recipient: { name: "Pedro Santos 🎉", account_no: "52998224725", nested: { n: 1.5, ok: true } },
    });
    configureTextEncoding(original);
    const before = toBinary(DestinationSchema, message);
    useFastProtobufTextEncoding();
    expect(getTextEncoding().encodeUtf8).toBe(encodeUtf8);
    const after = toBinary(DestinationSchema, message);
    expect([...after]).toEqual([...before]);
    expect(fromBinary(DestinationSchema, after)).toEqual(message);
  });
});
