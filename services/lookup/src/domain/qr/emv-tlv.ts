import { ok, type Result } from "../types.js";
import { crc16Hex } from "./crc16.js";

/**
 * Strict reader for EMVCo Merchant-Presented Mode payloads: a sequence of
 * ID (2 digits) + length (2 digits, 01–99) + value, with `00` = `01` first and the `6304` CRC last.
 * Lengths and offsets count characters (Unicode code points), offsets start at 0.
 */

export interface EmvField {
  readonly id: string;
  readonly value: string;
  /** Offset of the field's ID in the whole payload. */
  readonly offset: number;
  /** Tag path used in messages, e.g. "59" or "26.01". */
  readonly path: string;
  /** Nested fields when the top-level ID is a template (26–51, 62, 64, 80–99). */
  readonly children?: readonly EmvField[];
}

export interface EmvPayload {
  /** Top-level fields in payload order, `00` first and `63` last. */
  readonly fields: readonly EmvField[];
  /** Tag 63 as written (it may be lower-case; compared case-insensitively). */
  readonly crc: string;
}

export interface EmvSyntaxError {
  /** Offset of the offending character or field in the whole payload. */
  readonly offset: number;
  /** Tag path at fault, "" when the fault is not inside a field. */
  readonly tag: string;
  readonly message: string;
}

/** EMV MPM caps a payload at 512 characters; also bounds the work done on hostile input. */
export const MAX_EMV_PAYLOAD_CHARS = 512;

const CRC_SUFFIX = /6304[0-9A-Fa-f]{4}$/;
const TWO_DIGITS = /^[0-9]{2}$/;

type Walk<T> = Result<T, EmvSyntaxError>;

const syntaxError = (offset: number, tag: string, message: string): Walk<never> => ({
  ok: false,
  error: { offset, tag, message },
});

export function isEmvTemplateId(id: string): boolean {
  const n = Number(id);
  return (n >= 26 && n <= 51) || n === 62 || n === 64 || (n >= 80 && n <= 99);
}

export function parseEmvPayload(payload: string): Walk<EmvPayload> {
  const chars = Array.from(payload);
  const charset = checkCharacters(chars);
  if (!charset.ok) return charset;
  // A CRC mismatch is the best diagnosis for a damaged string, so it is checked before the walk
  // whenever the payload ends like a CRC field; the envelope check below covers the other cases.
  if (CRC_SUFFIX.test(payload)) {
    const crc = checkCrc(chars, chars.length - 8);
    if (!crc.ok) return crc;
  }
  const fields = walkFields(chars, 0, chars.length, "");
  if (!fields.ok) return fields;
  return checkEnvelope(chars, fields.value);
}

/** Reads a template value one level deeper (e.g. VietQR 38-01), keeping offsets absolute. */
export function parseEmvTemplate(field: EmvField): Walk<readonly EmvField[]> {
  const chars = Array.from(field.value);
  return walkFields(chars, 0, chars.length, field.path, field.offset + 4);
}

export function findEmvField(fields: readonly EmvField[] | undefined, id: string): EmvField | undefined {
  return fields?.find((field) => field.id === id);
}

/** Merchant Account Information templates 26–51 (02–25 are primitive card-network values). */
export function isMerchantAccountTemplate(field: EmvField): boolean {
  const id = Number(field.id);
  return id >= 26 && id <= 51 && field.children !== undefined;
}

/** Sub-tag 00 of a template (its globally unique identifier), lower-cased for comparison; "" when absent. */
export function templateGui(field: EmvField): string {
  return (findEmvField(field.children, "00")?.value ?? "").toLowerCase();
}

function checkCharacters(chars: readonly string[]): Walk<true> {
  if (chars.length === 0) return syntaxError(0, "", "QR payload is empty");
  if (chars.length > MAX_EMV_PAYLOAD_CHARS) {
    return syntaxError(
      MAX_EMV_PAYLOAD_CHARS,
      "",
      `QR payload has ${chars.length} characters; EMV allows at most ${MAX_EMV_PAYLOAD_CHARS}`,
    );
  }
  const index = chars.findIndex((char) => isControlCharacter(char));
  if (index >= 0) {
    const code = (chars[index] ?? "").codePointAt(0) ?? 0;
    const hex = code.toString(16).toUpperCase().padStart(4, "0");
    return syntaxError(index, "", `QR payload contains control character U+${hex} at offset ${index}`);
  }
  return ok(true);
}

function isControlCharacter(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

function walkFields(
  chars: readonly string[],
  start: number,
  end: number,
  parentPath: string,
  base = 0,
): Walk<readonly EmvField[]> {
  const fields: EmvField[] = [];
  let pos = start;
  while (pos < end) {
    const field = readField(chars, pos, end, parentPath, base, fields.at(-1));
    if (!field.ok) return field;
    const duplicate = fields.find((seen) => seen.id === field.value.id);
    if (duplicate) {
      return syntaxError(
        base + pos,
        field.value.path,
        `tag ${field.value.path} appears twice (offsets ${duplicate.offset} and ${base + pos})`,
      );
    }
    fields.push(field.value);
    pos += 4 + Array.from(field.value.value).length;
  }
  return ok(fields);
}

function readField(
  chars: readonly string[],
  pos: number,
  end: number,
  parentPath: string,
  base: number,
  previous: EmvField | undefined,
): Walk<EmvField> {
  const at = base + pos;
  const where = describePosition(parentPath, previous);
  if (end - pos < 4) {
    return syntaxError(
      at,
      parentPath,
      `TLV truncated at offset ${at}${where}: ${end - pos} character(s) left`,
    );
  }
  const id = chars.slice(pos, pos + 2).join("");
  if (!TWO_DIGITS.test(id)) {
    return syntaxError(
      at,
      parentPath,
      `TLV broken at offset ${at}${where}: expected a 2-digit tag ID, found "${id}"`,
    );
  }
  const path = parentPath === "" ? id : `${parentPath}.${id}`;
  const lengthText = chars.slice(pos + 2, pos + 4).join("");
  if (!TWO_DIGITS.test(lengthText) || lengthText === "00") {
    return syntaxError(
      at + 2,
      path,
      `tag ${path} at offset ${at} has an invalid length "${lengthText}" (01–99)`,
    );
  }
  const length = Number(lengthText);
  if (pos + 4 + length > end) {
    const room = end - pos - 4;
    const scope = parentPath === "" ? "in the payload" : `in template ${parentPath}`;
    return syntaxError(
      at,
      path,
      `tag ${path} at offset ${at} declares length ${length} but only ${room} character(s) remain ${scope}`,
    );
  }
  const value = chars.slice(pos + 4, pos + 4 + length).join("");
  if (parentPath !== "" || !isEmvTemplateId(id)) return ok({ id, value, offset: at, path });
  const children = walkFields(chars, pos + 4, pos + 4 + length, path, base);
  if (!children.ok) return children;
  return ok({ id, value, offset: at, path, children: children.value });
}

function describePosition(parentPath: string, previous: EmvField | undefined): string {
  if (previous) return ` (after tag ${previous.path})`;
  return parentPath === "" ? "" : ` (start of template ${parentPath})`;
}

function checkEnvelope(chars: readonly string[], fields: readonly EmvField[]): Walk<EmvPayload> {
  const first = fields[0];
  if (first?.id !== "00") {
    return syntaxError(
      0,
      first?.path ?? "",
      `tag 00 (payload format indicator) must come first, found ${first?.id}`,
    );
  }
  if (first.value !== "01") {
    return syntaxError(0, "00", `tag 00 (payload format indicator) must be "01", found "${first.value}"`);
  }
  const last = fields.at(-1);
  const crcField = findEmvField(fields, "63");
  if (crcField === undefined) return syntaxError(chars.length, "63", "CRC field (tag 63) is missing");
  if (crcField !== last) {
    return syntaxError(
      crcField.offset,
      "63",
      `CRC field (tag 63) at offset ${crcField.offset} is not the last field`,
    );
  }
  if (crcField.value.length !== 4) {
    return syntaxError(
      crcField.offset,
      "63",
      `CRC field (tag 63) must have length 04, found ${crcField.value.length}`,
    );
  }
  if (!/^[0-9A-Fa-f]{4}$/.test(crcField.value)) {
    return syntaxError(
      crcField.offset,
      "63",
      `CRC field (tag 63) must be 4 hex digits, found "${crcField.value}"`,
    );
  }
  const crc = checkCrc(chars, crcField.offset);
  if (!crc.ok) return crc;
  return ok({ fields, crc: crcField.value });
}

function checkCrc(chars: readonly string[], crcOffset: number): Walk<true> {
  const written = chars.slice(crcOffset + 4).join("");
  const expected = crc16Hex(chars.slice(0, crcOffset + 4).join(""));
  if (written.toUpperCase() === expected) return ok(true);
  return syntaxError(crcOffset, "63", `CRC mismatch: payload says ${written}, expected ${expected}`);
}
