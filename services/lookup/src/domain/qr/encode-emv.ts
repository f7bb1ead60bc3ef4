import { crc16Hex } from "./crc16.js";

/**
 * Builds EMV MPM payloads for tests and sandbox examples. Unlike the parser it throws: a bad node
 * here is a programming error in a fixture, not user input.
 */

/** A field: ID and either a primitive value or nested fields (a template). */
export type EmvNode = readonly [id: string, value: string | readonly EmvNode[]];

export function encodeEmvFields(nodes: readonly EmvNode[]): string {
  return nodes
    .map(([id, value]) => encodeEmvField(id, typeof value === "string" ? value : encodeEmvFields(value)))
    .join("");
}

/** Appends `6304` and the CRC computed over everything before it, including `6304`. */
export function appendEmvCrc(body: string): string {
  const withTag = `${body}6304`;
  return withTag + crc16Hex(withTag);
}

/** A complete payload: the nodes as given (put `00` first yourself), then the CRC field. */
export function encodeEmvPayload(nodes: readonly EmvNode[]): string {
  return appendEmvCrc(encodeEmvFields(nodes));
}

/** Top-level fields keyed by ID; undefined values are left out (handy for fixture overrides). */
export type EmvRecord = Readonly<Record<string, string | readonly EmvNode[] | undefined>>;

/**
 * A complete payload from a record, written in ascending ID order (so `00` comes first). The order is
 * explicit because JavaScript lists integer-like keys ("26") before others ("00").
 */
export function encodeEmvRecord(record: EmvRecord): string {
  const nodes: EmvNode[] = [];
  for (const [id, value] of Object.entries(record)) if (value !== undefined) nodes.push([id, value]);
  return encodeEmvPayload(nodes.sort(([a], [b]) => a.localeCompare(b)));
}

function encodeEmvField(id: string, value: string): string {
  if (!/^[0-9]{2}$/.test(id)) throw new RangeError(`EMV ID must be two digits, got "${id}"`);
  const length = Array.from(value).length;
  if (length < 1 || length > 99)
    throw new RangeError(`EMV tag ${id} value must be 1–99 characters, got ${length}`);
  return `${id}${String(length).padStart(2, "0")}${value}`;
}
