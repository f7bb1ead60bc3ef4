/**
 * Shapes and operations of destinations, QR codes and institutions (`lookup-routes.ts`; the senders are in
 * `customer-api.ts`). The gateway checks the JSON shape in the shapes' property order — `sender`, types
 * and lengths, `partner_app_id`, `amount` — and the lookup service applies the destination and customer
 * rules (`serviceRule`: the document states them, the service answers them).
 */
import { defineOperations } from "../../api/operation.js";
import {
  AmountInput,
  ClosedObject,
  component,
  FreeMap,
  LocalAmount,
  Refused,
  type Static,
  StringEnum,
  serviceRule,
  strictText,
  Type,
  UsdAmount,
} from "../../api/schema.js";
import { parameterRef } from "../../openapi/openapi-components.js";
import type { ErrorCase } from "../../openapi/openapi-errors.js";
import {
  BANKS_EXAMPLE,
  ERROR_EXAMPLES,
  LOOKUP_EXAMPLES,
  LOOKUP_REQUEST_EXAMPLES,
} from "../../openapi/openapi-examples.js";
import { RecipientMap, SenderMap } from "./transaction-api.js";

// Generous caps: formats are the lookup service's business; these only keep junk out of the services.
const DESTINATION_MAX = 1024;
const FIELD_MAX = 128;

const text = (description: string, maxLength: number, extra: Record<string, unknown> = {}) =>
  Type.Optional(Type.String({ maxLength, description, ...extra }));
/** A string whose value rules are the lookup service's; the gateway caps its length. */
export const serviceText = (description: string, maxLength: number, extra: Record<string, unknown> = {}) =>
  Type.Optional(serviceRule(Type.String({ description, ...extra }), { maxLength }));

const SENDER = Refused(
  "SENDER_NOT_ACCEPTED",
  "sender is not accepted: the sender is the registered customer named by customer_id",
  "Never accepted: the sender is always the registered customer (`customer_id`). → `SENDER_NOT_ACCEPTED`.",
);
const CUSTOMER_ID = serviceRule(
  Type.String({
    maxLength: FIELD_MAX,
    description: "A customer registered with `POST /customers`; the sender of the payout.",
  }),
  { maxLength: FIELD_MAX },
);
const PARTNER_REFS = {
  partner_transaction_id: text("Your reference for the payout, echoed back and filterable.", FIELD_MAX),
  partner_app_id: Type.Optional(
    strictText(
      "has 1 to 64 characters from a-z, A-Z, 0-9, _ and -",
      Type.String({
        pattern: "^[a-zA-Z0-9_-]{1,64}$",
        minLength: 1,
        maxLength: 64,
        description:
          "Your own application tag, stored with the transaction: 1 to 64 characters of `[a-zA-Z0-9_-]`.",
      }),
    ),
  ),
  wallet_identifier: text("Your wallet or account identifier, stored with the transaction.", FIELD_MAX),
};
const AMOUNT = (description: string) => Type.Optional(AmountInput(description, { minimum: 0 }));

export const LookupPaymentCodeRequest = component(
  "LookupPaymentCodeRequest",
  Type.Object(
    {
      sender: Type.Optional(SENDER),
      payment_destination: text(
        "The typed destination: CBU, CVU or alias (AR); Pix key (BR); phone (PE); account number (BO, ZM); Bre-B key (CO); account or wallet number (NG, GH); till or paybill number (KE, TZ, UG). Wins over `qr_string` when both are sent.",
        DESTINATION_MAX,
      ),
      qr_string: text(
        "Legacy alias of `payment_destination`, used only when `payment_destination` is absent or blank; errors then name `qr_string`. Scanned EMV QR payloads go to `POST /decodeQr` (`USE_DECODE_QR`).",
        DESTINATION_MAX,
      ),
      recipient: Type.Optional(
        Type.Object(
          {
            name_first: text("Holder's first name(s).", FIELD_MAX),
            name_last: text("Holder's last name(s).", FIELD_MAX),
            ic_number: text("Holder's CI (cédula de identidad), e.g. `4567890 LP`.", FIELD_MAX),
          },
          {
            additionalProperties: false,
            description: "BO bank transfers: the account holder, as the bank knows them.",
          },
        ),
      ),
      customer_id: CUSTOMER_ID,
      country_code: serviceRule(
        Type.String({
          pattern: "^[A-Za-z]{2}$",
          description: "ISO 3166-1 alpha-2 country of the destination, any case.",
          examples: ["BR"],
        }),
        { maxLength: FIELD_MAX },
      ),
      payment_method: serviceText(
        "Must match the corridor: AR, BR, CO, KE, TZ, UG `payment_key`; PE `ewallet`; BO, NG, GH, ZM `bank_transfer` (VN `bank_transfer`, optional). Any case.",
        FIELD_MAX,
        { enum: ["payment_key", "ewallet", "bank_transfer"] },
      ),
      payment_destination_code: text(
        "Rail or institution code, any case: BR `PIX`; PE `YAPE` or `PLIN`; CO `BREB`; BO, NG, GH, ZM a code from `GET /listBanks`; KE, TZ, UG optional `TILL` or `PAYBILL`.",
        FIELD_MAX,
      ),
      account_type: serviceText("BO bank transfers: the account type.", FIELD_MAX, {
        enum: ["SAVINGS", "CHECKING"],
      }),
      merchant_id: text(
        "Merchant contract: KE/TZ till or paybill number, or VN bank account number (6–19 digits).",
        DESTINATION_MAX,
      ),
      account_reference: text(
        "KE/TZ/UG paybill bill reference (1–12 letters or digits), or VN bank BIN (6 digits, from `GET /listBanks?country_code=VN`).",
        FIELD_MAX,
      ),
      currency: text("ISO 4217 code; when sent it must be the corridor's currency (any case).", FIELD_MAX),
      ...PARTNER_REFS,
      amount: AMOUNT(
        "Local-currency amount, at least 0. When greater than 0 it is priced at once (`amount_usd` and fees in the response); 0 or absent means no amount yet (`missing_fields` lists it).",
      ),
    },
    {
      description:
        "Two contracts. **Manual destinations** (AR, BR, PE, BO, CO, NG, GH, ZM; also KE, TZ, UG with a typed till or paybill): `customer_id`, `country_code`, `payment_method`, `payment_destination` (or its legacy alias `qr_string`), and `payment_destination_code` where the country needs one (BR `PIX`, PE `YAPE`/`PLIN`, CO `BREB`, BO/NG/GH/ZM an institution code from `GET /listBanks`; KE/TZ/UG optional `TILL`/`PAYBILL`). BO bank transfers also need `account_type` and `recipient`. **Merchant or account lookup** (KE, TZ, VN): `customer_id`, `country_code`, `merchant_id`; VN also `account_reference` (the bank's 6-digit NAPAS BIN). A `sender` is never accepted. Strings are trimmed; blank strings count as absent; fields a corridor does not use are ignored.",
    },
  ),
);
export type LookupPaymentCodeRequest = Static<typeof LookupPaymentCodeRequest>;

export const DecodeQrRequest = component(
  "DecodeQrRequest",
  Type.Object(
    {
      sender: Type.Optional(SENDER),
      qr_string: serviceRule(
        Type.String({
          maxLength: DESTINATION_MAX,
          description: "The payload exactly as scanned, CRC included.",
        }),
        { maxLength: DESTINATION_MAX },
      ),
      customer_id: CUSTOMER_ID,
      ...PARTNER_REFS,
      amount: AMOUNT(
        "Local-currency amount, at least 0. A QR that fixes an amount (tag 54) is paid that amount: a different one is `INVALID_AMOUNT`. Without it the QR's amount, if any, is used.",
      ),
    },
    { description: "A scanned EMV (or local) QR payload. A sender is never accepted." },
  ),
);
export type DecodeQrRequest = Static<typeof DecodeQrRequest>;

const MissingField = ClosedObject("MissingField", {
  field: Type.String({
    description: "Request field still to provide.",
    examples: ["amount", "account_reference"],
  }),
  type: Type.String({ description: "Its kind.", examples: ["numeric", "string"] }),
  label: Type.String({ description: "A label to show.", examples: ["Amount"] }),
});

export const optionalText = (description: string, extra: Record<string, unknown> = {}) =>
  Type.Optional(Type.String({ description, ...extra }));
const PAYMENT_TYPE = ["till", "paybill"] as const;

const MerchantInfo = ClosedObject(
  "MerchantInfo",
  {
    merchant_id: optionalText("Till or paybill number."),
    display_name: optionalText("Verified display name."),
    country_code: optionalText("ISO alpha-2."),
    payment_type: Type.Optional(StringEnum(PAYMENT_TYPE, { description: "Kind of short code." })),
    lipa_number: optionalText("The number to pay (Lipa na M-Pesa)."),
    account_reference: optionalText("Paybill bill reference."),
  },
  {
    description: "KE/TZ/UG till and paybill metadata; empty fields are left out.",
  },
);

export const LookupResult = ClosedObject(
  "LookupResult",
  {
    is_dynamic: Type.Boolean({ description: "True for dynamic QR codes and for tills and paybills." }),
    is_business: Type.Boolean({
      description: "True when the recipient is a business (CNPJ key, till, paybill, merchant QR).",
    }),
    amount: LocalAmount("The transaction's amount; 0 while none was given."),
    merchant: Type.String({ description: "Merchant name, or an empty string." }),
    merchant_id: optionalText(
      "Till or paybill number (VN: the account number), only when the destination has one.",
    ),
    merchant_name: optionalText("Verified merchant display name, only when the destination has one."),
    payment_type: Type.Optional(
      StringEnum(PAYMENT_TYPE, {
        description: "Kind of merchant short code, only for tills and paybills.",
      }),
    ),
    merchant_info: Type.Optional(MerchantInfo),
    country: Type.String({ description: "ISO alpha-2 country of the destination." }),
    tx_id: Type.String({
      description: "Identifier of the PENDING transaction created; pass it to `POST /getQuotation`.",
      examples: ["tx_01m7xx9726hzfmmn1fcz6t8605"],
    }),
    currency: Type.String({ description: "ISO 4217 currency of the corridor." }),
    partner_transaction_id: Type.String({ description: "Echo of your reference; empty string when none." }),
    amount_usd: Type.Optional(UsdAmount("Only when the amount is greater than 0: the amount")),
    fee: Type.Optional(UsdAmount("Only when the amount is greater than 0: `percentage_fee + fixed_fee`")),
    percentage_fee: Type.Optional(
      UsdAmount("Only when the amount is greater than 0: the percentage part of the fee"),
    ),
    fixed_fee: Type.Optional(UsdAmount("Only when the amount is greater than 0: the fixed part of the fee")),
    missing_fields: Type.Array(MissingField, {
      description:
        "What must still be given before the payout can run: `amount` without an amount; `account_reference` for a paybill QR whose reference the payer supplies. Empty when nothing is missing.",
    }),
    suggested_values: FreeMap(
      "Non-blocking hints, e.g. a corrected mobile network (GH) or the current code of a legacy bank (ZM); `{}` when none.",
    ),
    sender: SenderMap,
    recipient: RecipientMap,
  },
  {
    description:
      "The result of `lookupPaymentCode` and `decodeQr` (one shape), with the PENDING transaction created for it. Fields marked required are always sent; the others only when they have a value.",
  },
);
export type LookupResult = Static<typeof LookupResult>;

const Bank = ClosedObject("Bank", {
  code: Type.String({
    description: "The value for `payment_destination_code` (or `account_reference` for VN BINs).",
  }),
  name: Type.String({ description: "Institution name." }),
  type: StringEnum(["bank", "mobile_money"], {
    description: "Bank or mobile-money (wallet, network, rail).",
  }),
});

export const BankList = ClosedObject("BankList", { banks: Type.Array(Bank) });
export type BankList = Static<typeof BankList>;

/** The checks both lookup routes share, in the gateway's order, before the services' own. */
const SHAPE_CASES: readonly ErrorCase[] = [
  ["INVALID_FIELD", "`dp` is not an integer from 0 to 10"],
  ["SENDER_NOT_ACCEPTED", "the body has a `sender`: the sender is always the registered customer"],
  ["INVALID_FIELD", "a field has the wrong type or is too long; `partner_app_id` breaks its pattern"],
  ["INVALID_FIELD", "`amount` is not a number or decimal string"],
  [
    "INVALID_AMOUNT",
    "`amount` is negative, or has more decimals than the currency's minor units (100.123 BRL)",
  ],
];

/** What pricing may refuse when an amount greater than 0 is priced at once. */
const PRICING_CASES: readonly ErrorCase[] = [
  ["AMOUNT_OUT_OF_RANGE", "the amount is outside the corridor's minimum or maximum"],
  ["UNSUPPORTED_COUNTRY", "the corridor is not enabled for pricing"],
  ["INVALID_CURRENCY", "no exchange rate is available for the corridor's currency"],
];

const LOOKUP_DESCRIPTION = `Validates a typed destination (account number, instant-payment key, phone, till or paybill) or a merchant/account identifier, names its holder, and creates a **PENDING** transaction whose \`tx_id\` is returned. Next: \`POST /getQuotation\` with that \`tx_id\` and the amount, then \`POST /executePayout\`.

The destination is checked here, before any quotation or payout: an invalid or unknown destination fails now. The first failing check wins; a refused request leaves no transaction behind. Check order: the gateway's shape checks (\`dp\`, \`sender\`, types, \`partner_app_id\`, \`amount\`), then \`USE_DECODE_QR\`, \`customer_id\`, \`country_code\`, \`currency\`, the contract, \`payment_method\`, \`payment_destination_code\`, the country's extra fields, the destination's format, then the customer's existence, name enquiry, and pricing when \`amount\` > 0.

Sender identity always comes from the registered customer; a \`sender\` in the body is refused.`;

const TAGS = ["Payouts"];
const DP = parameterRef("dp");

const operations = defineOperations(
  { tags: TAGS },
  {
    lookupPaymentCode: {
      route: "POST /lookupPaymentCode",
      summary: "Validate a destination and create a PENDING transaction",
      description: LOOKUP_DESCRIPTION,
      parameters: [DP],
      body: LookupPaymentCodeRequest,
      bodyExamples: LOOKUP_REQUEST_EXAMPLES,
      responses: {
        200: {
          description: "The destination, its holder and the PENDING transaction.",
          schema: LookupResult,
          examples: LOOKUP_EXAMPLES,
        },
      },
      errors: [
        ...SHAPE_CASES,
        [
          "USE_DECODE_QR",
          "`payment_destination` or `merchant_id` holds an EMV QR payload: send it to `/decodeQr`",
        ],
        ["MISSING_REQUIRED_FIELD", "a field the contract or corridor needs is absent, named in `field`"],
        [
          "INVALID_FIELD",
          "`country_code` is not two letters; `currency` is not the corridor's; KE/TZ `merchant_id` and `payment_destination` disagree; a BO `account_type` or `recipient` field, a paybill reference or a VN BIN is malformed",
        ],
        ["UNSUPPORTED_COUNTRY", "`country_code` is not a payout corridor"],
        ["INVALID_PAYMENT_METHOD", "`payment_method` is unknown or not the corridor's"],
        [
          "INVALID_DESTINATION_CODE",
          "`payment_destination_code` is not the corridor's fixed code or not a known institution",
        ],
        ["INVALID_DESTINATION", "the destination's format or check digits are wrong (the message says what)"],
        ["UNKNOWN_DESTINATION", "the destination is well formed but name enquiry finds no holder"],
        ["CUSTOMER_NOT_FOUND", "`customer_id` is not one of your customers"],
        ...PRICING_CASES,
      ],
      errorOptions: {
        examples: {
          400: {
            invalidDestination: ERROR_EXAMPLES.invalidDestination,
            unknownDestination: ERROR_EXAMPLES.unknownDestination,
            senderNotAccepted: ERROR_EXAMPLES.senderNotAccepted,
          },
          401: { authenticationRequired: ERROR_EXAMPLES.authenticationRequired },
        },
      },
    },
    decodeQr: {
      route: "POST /decodeQr",
      summary: "Decode a scanned QR code and create a PENDING transaction",
      description:
        "Decodes an EMV QR payload (Pix, VietQR, Argentina's interoperable QR and the other supported schemes) or a local QR, and answers like `lookupPaymentCode`, creating a PENDING transaction. The amount is yours when given, else the QR's; a QR that fixes an amount is paid exactly that amount.",
      parameters: [DP],
      body: DecodeQrRequest,
      responses: {
        200: {
          description: "The decoded destination and the PENDING transaction.",
          schema: LookupResult,
          examples: { decodedPix: LOOKUP_EXAMPLES.decodedPix },
        },
      },
      errors: [
        ...SHAPE_CASES,
        ["MISSING_REQUIRED_FIELD", "`customer_id` or `qr_string` is absent"],
        ["INVALID_QR", "the payload's CRC, TLV structure or scheme is invalid"],
        ["INVALID_AMOUNT", "the QR fixes an amount (tag 54) and `amount` differs from it"],
        ["CUSTOMER_NOT_FOUND", "`customer_id` is not one of your customers"],
        ...PRICING_CASES,
      ],
    },
    listBanks: {
      route: "GET /listBanks",
      summary: "List the institution codes of a country",
      description:
        "The codes to send as `payment_destination_code` (BO, NG, GH, ZM, and the fixed codes of BR, PE, CO, KE, TZ, UG) or as `account_reference` (VN BINs). AR has none: CBUs and CVUs carry their own routing.",
      // The lookup service answers an absent, malformed or unsupported country (in that order).
      query: Type.Object({
        country_code: serviceRule(
          Type.String({
            pattern: "^[A-Za-z]{2}$",
            description: "ISO 3166-1 alpha-2 code of a payout corridor, any case.",
            examples: ["NG"],
          }),
        ),
      }),
      responses: {
        200: {
          description: "The country's institutions.",
          schema: BankList,
          examples: { peru: BANKS_EXAMPLE },
        },
      },
      errors: [
        ["MISSING_REQUIRED_FIELD", "`country_code` is absent"],
        ["INVALID_FIELD", "`country_code` is not two letters, or is given twice"],
        ["UNSUPPORTED_COUNTRY", "`country_code` is not a payout corridor"],
      ],
    },
  },
);
export const { lookupPaymentCode, decodeQr, listBanks } = operations;
export const LOOKUP_OPERATIONS = Object.values(operations);
