import { JsonDecimal } from "@payouts/platform/money/json-decimal";

// A JSON string token, or a number token with a fraction. Strings come first in the alternation so that
// digits inside a string are consumed with it and never taken for a number.
const TOKEN = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)\.\d+(?![\d.eE])/g;
const MARKER = "$exact_decimal";

/**
 * JSON.parse that keeps the exact text of every number with a fraction as a JsonDecimal, so an example
 * copied from a real response (`"fee":0.30`) is served with its trailing zero (stringifyJson writes it
 * back verbatim), as the partner API promises for money.
 */
export function parseExactJson(text: string): unknown {
  const marked = text.replace(TOKEN, (token) =>
    token.startsWith('"') ? token : `{${JSON.stringify(MARKER)}:${JSON.stringify(token)}}`,
  );
  return JSON.parse(marked, (_key, value: unknown) => {
    if (typeof value !== "object" || value === null || !(MARKER in value)) return value;
    return new JsonDecimal((value as Record<string, string>)[MARKER] ?? "");
  });
}
