import { describe, expect, it } from "vitest";
import { applyNameEnquiry, createSandboxNameEnquiry, SANDBOX_NOT_FOUND } from "./name-enquiry.js";
import { MERCHANT_NAMES, PERSON_NAMES } from "./sandbox-names.js";
import type { ValidatedDestination } from "./types.js";
import { type LookupRequestInput, validateLookupRequest } from "./validate-lookup-request.js";

/** A request template per corridor; the destination is filled in by each test. */
const TEMPLATES: Record<string, LookupRequestInput> = {
  AR: { payment_method: "payment_key" },
  BR: { payment_method: "payment_key", payment_destination_code: "PIX" },
  PE: { payment_method: "ewallet", payment_destination_code: "YAPE" },
  BO: {
    payment_method: "bank_transfer",
    payment_destination_code: "1",
    account_type: "CHECKING",
    recipient: { name_first: "Rosa", name_last: "Choque", ic_number: "7654321" },
  },
  CO: { payment_method: "payment_key", payment_destination_code: "BREB" },
  NG: { payment_method: "bank_transfer", payment_destination_code: "058" },
  GH: { payment_method: "bank_transfer", payment_destination_code: "MTN" },
  ZM: { payment_method: "bank_transfer", payment_destination_code: "ZNCOZMLU" },
  KE: { payment_method: "payment_key" },
  TZ: { payment_method: "payment_key" },
  UG: { payment_method: "payment_key" },
  VN: { account_reference: "970436" },
};

function destination(country: string, value: string, extra: LookupRequestInput = {}): ValidatedDestination {
  const field = country === "VN" ? "merchant_id" : "payment_destination";
  const result = validateLookupRequest({
    customer_id: "cus_1",
    country_code: country,
    ...TEMPLATES[country],
    [field]: value,
    ...extra,
  });
  if (!result.ok) throw new Error(`${country} ${value}: ${result.error.message}`);
  return result.value;
}

const sandbox = createSandboxNameEnquiry();

describe("sandbox name enquiry: not-found destinations", () => {
  const codes: Record<string, LookupRequestInput> = {
    "NG|9000000000": { payment_destination_code: "100004" },
    "GH|0000000000000": { payment_destination_code: "28" },
  };

  it.each(SANDBOX_NOT_FOUND.map((entry) => [entry.country_code, entry.payment_destination, entry.kind]))(
    "%s %s (%s) passes validation and is not found",
    async (country, value) => {
      const validated = destination(country, value, codes[`${country}|${value}`]);
      expect(validated.payment_destination).toBe(value);
      await expect(sandbox.resolve(validated)).resolves.toEqual({ found: false });
    },
  );

  it("matches the canonical form, whatever the partner typed", async () => {
    await expect(sandbox.resolve(destination("AR", "SANDBOX.NOTFOUND"))).resolves.toEqual({ found: false });
    await expect(sandbox.resolve(destination("PE", "900 000 000"))).resolves.toEqual({ found: false });
  });
});

describe("sandbox name enquiry: synthetic names", () => {
  it.each([
    ["AR", "0110012920000091344977"],
    ["BR", "52998224725"],
    ["PE", "+51987654321"],
    ["CO", "@tienda123"],
    ["NG", "0123456785"],
    ["GH", "0241234567"],
    ["ZM", "0020756300173"],
  ])("%s %s gets a stable name from the country's lists", async (country, value) => {
    const first = await sandbox.resolve(destination(country, value));
    const again = await createSandboxNameEnquiry().resolve(destination(country, value));
    expect(again).toEqual(first);
    if (!first.found) throw new Error("expected a name");
    expect(PERSON_NAMES[country]?.first).toContain(first.name_first);
    expect(PERSON_NAMES[country]?.last).toContain(first.name_last);
    expect(first.name).toBe(`${first.name_first} ${first.name_last}`);
  });

  it("gives different destinations different names (for these two)", async () => {
    const a = await sandbox.resolve(destination("BR", "52998224725"));
    const b = await sandbox.resolve(destination("BR", "12345678909"));
    expect(a).not.toEqual(b);
  });

  it("writes Vietnamese names family name first", async () => {
    const result = await sandbox.resolve(destination("VN", "0011001234567"));
    if (!result.found) throw new Error("expected a name");
    expect(result.name).toBe(`${result.name_last} ${result.name_first}`);
    expect(PERSON_NAMES.VN?.last).toContain(result.name_last);
  });

  it("names a CNPJ holder as a company", async () => {
    const result = await sandbox.resolve(destination("BR", "11222333000181"));
    expect(result).toMatchObject({ found: true, name_first: "", name_last: "" });
    expect(result.found && result.name).toMatch(/ (Ltda|S\.A\.)$/);
  });

  it.each([
    ["KE", "123456"],
    ["TZ", "12345678"],
    ["UG", "654321"],
  ])("names %s merchant %s with a display name", async (country, value) => {
    const result = await sandbox.resolve(destination(country, value));
    if (!result.found) throw new Error("expected a name");
    expect(result).toMatchObject({ name_first: "", name_last: "" });
    const [word] = result.name.split(" ");
    expect(MERCHANT_NAMES.first).toContain(word);
  });

  it("keeps the BO recipient name the partner sent", async () => {
    await expect(sandbox.resolve(destination("BO", "4012345678"))).resolves.toEqual({
      found: true,
      name_first: "Rosa",
      name_last: "Choque",
      name: "Rosa Choque",
    });
  });
});

describe("applyNameEnquiry", () => {
  const found = { found: true, name_first: "Ana", name_last: "Silva", name: "Ana Silva" } as const;

  it("fills the recipient name keys and leaves merchant fields empty for a person", () => {
    const named = applyNameEnquiry(destination("BR", "52998224725"), found);
    expect(named.recipient).toEqual({
      account_no: "52998224725",
      country: "BR",
      name: "Ana Silva",
      name_first: "Ana",
      name_last: "Silva",
    });
    expect(named).toMatchObject({ merchant: "", merchant_name: "" });
  });

  it("fills merchant, merchant_name and merchant_info.display_name for a till", () => {
    const shop = { found: true, name_first: "", name_last: "", name: "Baraka Hardware" } as const;
    const named = applyNameEnquiry(destination("KE", "123456"), shop);
    expect(named).toMatchObject({
      merchant: "Baraka Hardware",
      merchant_name: "Baraka Hardware",
      merchant_info: { display_name: "Baraka Hardware", merchant_id: "123456", payment_type: "till" },
      recipient: { name: "Baraka Hardware" },
    });
  });

  it("does not change the destination it was given", () => {
    const original = destination("KE", "123456");
    applyNameEnquiry(original, found);
    expect(original.merchant_name).toBe("");
    expect(original.recipient.name).toBeUndefined();
  });
});
