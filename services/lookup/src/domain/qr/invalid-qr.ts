import { fail, type Result } from "../types.js";

/** decodeQr reports every CRC, TLV and scheme problem as one partner-facing code. */
export const INVALID_QR = "INVALID_QR";

export const invalidQr = (message: string): Result<never> => fail(INVALID_QR, message, "qr_string");
