import { describe, expect, it } from "vitest";
import { matchName, nameWords, validatedItemStatus, verifiedNameOf } from "./name-match.js";

describe("matchName", () => {
  it.each([
    ["José da Silva", "JOSE DA SILVA"],
    ["José  da\tSilva", "jose da silva"],
    ["Silva, José da", "José da Silva"],
    ["ÑANDÚ Pérez-Gómez", "nandu perez gomez"],
    ["Ana Silva", "Silva Ana"],
  ])("matches %s and %s (case, accents, punctuation, spacing, word order)", (expected, verified) => {
    expect(matchName(expected, verified)).toBe("MATCH");
  });

  it.each([
    ["Ana Silva", "Ana Souza"],
    ["Ana Silva", "Ana Maria Silva"],
    ["Ana Ana", "Ana"],
  ])("does not match %s and %s", (expected, verified) => {
    expect(matchName(expected, verified)).toBe("MISMATCH");
  });

  it("is NOT_CHECKED without an expected or a verified name", () => {
    expect(matchName("", "Ana Silva")).toBe("NOT_CHECKED");
    expect(matchName("Ana Silva", "")).toBe("NOT_CHECKED");
    expect(matchName(" , ", "Ana")).toBe("NOT_CHECKED");
  });

  it("normalises to sorted, accent-free, lower-case words", () => {
    expect(nameWords("  Émile   ZOLA ")).toEqual(["emile", "zola"]);
  });
});

describe("validatedItemStatus", () => {
  it("excludes a mismatch under EXCLUDE, pays it under INCLUDE, and pays everything else", () => {
    expect(validatedItemStatus("MISMATCH", "EXCLUDE")).toBe("EXCLUDED");
    expect(validatedItemStatus("MISMATCH", "INCLUDE")).toBe("PENDING");
    expect(validatedItemStatus("MATCH", "EXCLUDE")).toBe("PENDING");
    expect(validatedItemStatus("NOT_CHECKED", "EXCLUDE")).toBe("PENDING");
  });
});

describe("verifiedNameOf", () => {
  it("reads name, else first and last names, else nothing", () => {
    expect(verifiedNameOf({ name: "Ana Silva", name_first: "X" })).toBe("Ana Silva");
    expect(verifiedNameOf({ name_first: "Ana", name_last: "Silva" })).toBe("Ana Silva");
    expect(verifiedNameOf({ account_no: "1" })).toBe("");
    expect(verifiedNameOf(undefined)).toBe("");
  });
});
