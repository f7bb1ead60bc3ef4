/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0), the checksum of EMV MPM tag 63.
 * Computed over the UTF-8 bytes of the text, so non-ASCII characters (seen in the wild despite the
 * specs asking for ASCII) hash the way other decoders hash them.
 */
const POLYNOMIAL = 0x1021;
const utf8 = new TextEncoder();

export function crc16CcittFalse(text: string): number {
  let crc = 0xffff;
  for (const byte of utf8.encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ POLYNOMIAL) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** The CRC as EMV writes it: four upper-case hex digits. */
export function crc16Hex(text: string): string {
  return crc16CcittFalse(text).toString(16).toUpperCase().padStart(4, "0");
}
