/**
 * Whether the holder name a destination's institution reported is the name the partner expected. Names are
 * compared as sets of words after normalising case, accents (Unicode NFD, combining marks dropped),
 * punctuation and whitespace, so "José  da Silva" matches "SILVA, Jose Da" and "da silva jose". Pure.
 */
export type NameMatch = "NOT_CHECKED" | "MATCH" | "MISMATCH";

/** The words of a name, normalised and sorted: the form two names are compared in. */
export function nameWords(name: string): string[] {
  return name
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .filter((w) => w !== "")
    .sort();
}

/** NOT_CHECKED without an expected name or without a verified one; otherwise MATCH or MISMATCH. */
export function matchName(expected: string, verified: string): NameMatch {
  const want = nameWords(expected);
  const got = nameWords(verified);
  if (want.length === 0 || got.length === 0) return "NOT_CHECKED";
  return want.length === got.length && want.every((w, i) => w === got[i]) ? "MATCH" : "MISMATCH";
}

export type MismatchPolicy = "EXCLUDE" | "INCLUDE";

/** Whether a validated item is paid (PENDING) or left out (EXCLUDED) under the batch's policy. */
export function validatedItemStatus(match: NameMatch, policy: MismatchPolicy): "PENDING" | "EXCLUDED" {
  return match === "MISMATCH" && policy === "EXCLUDE" ? "EXCLUDED" : "PENDING";
}

/** The holder name in a resolved destination's recipient (proto JSON): `name`, or first and last names. */
export function verifiedNameOf(recipient: unknown): string {
  if (recipient === null || typeof recipient !== "object") return "";
  const r = recipient as Record<string, unknown>;
  const text = (key: string) => (typeof r[key] === "string" ? (r[key] as string).trim() : "");
  if (text("name") !== "") return text("name");
  return [text("name_first"), text("name_last")].filter((s) => s !== "").join(" ");
}
