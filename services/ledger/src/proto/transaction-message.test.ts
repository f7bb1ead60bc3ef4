import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { type Destination, DestinationSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { destinationFromJson, destinationToJson } from "./transaction-message.js";

/** What protobuf-es's reflective reader makes of the same stored JSON: the reference. */
const reference = (json: Record<string, unknown>): Destination =>
  fromJson(DestinationSchema, json as JsonValue, { ignoreUnknownFields: true });

const FULL = create(DestinationSchema, {
  countryCode: "KE",
  currency: "KES",
  paymentMethod: "ewallet",
  destinationType: "PAYBILL",
  paymentDestination: "+254712345678",
  paymentDestinationCode: "MPESA",
  institutionName: "M-Pesa",
  isDynamic: true,
  isBusiness: true,
  merchant: "Duka",
  merchantId: "m-1",
  merchantName: "Duka Ltd",
  paymentType: "paybill",
  merchantInfo: {
    merchantId: "m-1",
    displayName: "Duka",
    countryCode: "KE",
    paymentType: "paybill",
    lipaNumber: "123456",
    accountReference: "INV-9",
  },
  recipient: { name: "Wanjiku", account_no: "0712345678", nested: { list: [1, "two", null, true] } },
  sender: { name_first: "Ana", name_last: "Souza", email: "ana@example.com" },
  amount: "1500.50",
  suggestedValues: { amount: "1500.50" },
  accountType: "SAVINGS",
  accountReference: "INV-9",
  source: "decode_qr",
  qrPayload: "000201010212",
});

describe("destinationFromJson", () => {
  it("reads every field of the Destination message (a new field must be added to it)", () => {
    const json = destinationToJson(FULL);
    // Every field is set in FULL, so each one is in the stored JSON and must come back.
    expect(Object.keys(json).sort()).toEqual(DestinationSchema.fields.map((f) => f.name).sort());
    expect(destinationFromJson(json)).toEqual(FULL);
    expect(destinationFromJson(json)).toEqual(reference(json));
  });

  it("reads an empty destination and a partial one as protobuf-es's fromJson does", () => {
    for (const json of [{}, { country_code: "BR", sender: { name: "x" } }, { merchant_info: {} }]) {
      expect(destinationFromJson(json)).toEqual(reference(json));
    }
  });

  it("agrees with fromJson on whatever destinationToJson stores", () => {
    const text = fc.string({ unit: "grapheme", maxLength: 12 });
    const struct = fc.option(fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(text, fc.boolean())), {
      nil: undefined,
    });
    fc.assert(
      fc.property(text, text, text, fc.boolean(), struct, struct, (country, method, name, dynamic, a, b) => {
        const destination = create(DestinationSchema, {
          countryCode: country,
          paymentMethod: method,
          institutionName: name,
          isDynamic: dynamic,
          ...(a ? { recipient: a } : {}),
          ...(b ? { sender: b } : {}),
        });
        const json = destinationToJson(destination);
        expect(destinationFromJson(json)).toEqual(reference(json));
        expect(destinationFromJson(json)).toEqual(destination);
      }),
    );
  });
});
