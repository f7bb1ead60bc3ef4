import { describe, expect, it } from "vitest";
import { validateNgDestination } from "./ng.js";

const request = (code: string | undefined, destination: string) =>
  ({ country_code: "NG", destination, field: "payment_destination", code }) as const;

describe("validateNgDestination", () => {
  it.each([
    ["011", "0000014579", "000016", "First Bank of Nigeria"],
    ["000016", "0000014579", "000016", "First Bank of Nigeria"],
    ["058", "0000000018", "000013", "Guaranty Trust Bank"],
    ["000013", "0123456785", "000013", "Guaranty Trust Bank"],
    ["044", "1234567895", "000014", "Access Bank"],
    ["057", "1012345671", "000015", "Zenith Bank"],
    ["033", "2087654323", "000004", "United Bank for Africa"],
    ["011", "3012345671", "000016", "First Bank of Nigeria"],
    ["50211", "1234567897", "090267", "Kuda Microfinance Bank"],
    ["090267", "2000000006", "090267", "Kuda Microfinance Bank"],
    ["044", "1234 567 895", "000014", "Access Bank"],
  ])("accepts NUBAN %s / %s", (code, account, nip, name) => {
    expect(validateNgDestination(request(code, account))).toEqual({
      ok: true,
      value: {
        destination_type: "NUBAN",
        payment_destination: account.replace(/ /g, ""),
        payment_destination_code: nip,
        institution_name: name,
      },
    });
  });

  it.each([
    ["100004", "8012345678", "8012345678", "OPay"],
    ["100033", "08012345678", "8012345678", "PalmPay"],
    ["100002", "+2348012345678", "8012345678", "Paga"],
    ["120001", "2348012345678", "8012345678", "9 Payment Service Bank (9PSB)"],
    ["090405", "1234567896", "1234567896", "Moniepoint Microfinance Bank"],
    ["50515", "1234567890", "1234567890", "Moniepoint Microfinance Bank"],
  ])("accepts wallet %s / %s without a NUBAN check", (code, input, wallet, name) => {
    const result = validateNgDestination(request(code, input));
    expect(result).toMatchObject({
      ok: true,
      value: { destination_type: "NG_WALLET", payment_destination: wallet, institution_name: name },
    });
  });

  it.each([
    ["058", "1234567895", "check digit (last digit) should be 6 for this bank"],
    ["058", "0000000019", "check digit (last digit) should be 8 for this bank"],
    ["044", "123456789", "10 digits"],
    ["044", "12345678901", "10 digits"],
    ["50211", "1234567896", "check digit (last digit) should be 7"],
    ["100004", "801234567", "Invalid wallet number"],
    ["100004", "+14155550123", "Invalid wallet number"],
    ["100004", "opay-8012345678", "Invalid wallet number"],
  ])("refuses %s / %s (%s)", (code, account, message) => {
    const result = validateNgDestination(request(code, account));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "INVALID_DESTINATION", field: "payment_destination" });
    expect(result.error.message).toContain(message);
  });

  it.each([["999"], ["000044"], ["999992"], ["GTB"], [undefined]])("refuses institution code %s", (code) => {
    expect(validateNgDestination(request(code, "0000000018"))).toMatchObject({
      ok: false,
      error: { code: "INVALID_DESTINATION_CODE", field: "payment_destination_code" },
    });
  });
});
