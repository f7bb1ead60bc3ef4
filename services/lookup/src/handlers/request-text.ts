import { reject } from "../reasons.js";

/** A required string of the request, trimmed; MISSING_REQUIRED_FIELD when blank. */
export function requireText(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === "") throw reject("MISSING_REQUIRED_FIELD", field);
  return trimmed;
}
