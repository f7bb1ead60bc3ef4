/** Paths of destinations, QR codes, institutions and senders (`routes/lookup-routes.ts`). */
import { COMMON_PARAMETERS, jsonBody, jsonResponse, parameterRef } from "./openapi-components.js";
import { type ErrorCase, partnerErrors } from "./openapi-errors.js";
import {
  BANKS_EXAMPLE,
  CUSTOMER_EXAMPLE,
  CUSTOMER_REQUEST_EXAMPLE,
  ERROR_EXAMPLES,
  LOOKUP_EXAMPLES,
  LOOKUP_REQUEST_EXAMPLES,
} from "./openapi-examples.js";
import type { PathItem } from "./openapi-types.js";

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

const LOOKUP_CASES: readonly ErrorCase[] = [
  ...SHAPE_CASES,
  ["USE_DECODE_QR", "`payment_destination` or `merchant_id` holds an EMV QR payload: send it to `/decodeQr`"],
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
];

const DECODE_QR_CASES: readonly ErrorCase[] = [
  ...SHAPE_CASES,
  ["MISSING_REQUIRED_FIELD", "`customer_id` or `qr_string` is absent"],
  ["INVALID_QR", "the payload's CRC, TLV structure or scheme is invalid"],
  ["INVALID_AMOUNT", "the QR fixes an amount (tag 54) and `amount` differs from it"],
  ["CUSTOMER_NOT_FOUND", "`customer_id` is not one of your customers"],
  ...PRICING_CASES,
];

const LOOKUP_DESCRIPTION = `Validates a typed destination (account number, instant-payment key, phone, till or paybill) or a merchant/account identifier, names its holder, and creates a **PENDING** transaction whose \`tx_id\` is returned. Next: \`POST /getQuotation\` with that \`tx_id\` and the amount, then \`POST /executePayout\`.

The destination is checked here, before any quotation or payout: an invalid or unknown destination fails now. The first failing check wins; a refused request leaves no transaction behind. Check order: the gateway's shape checks (\`dp\`, \`sender\`, types, \`partner_app_id\`, \`amount\`), then \`USE_DECODE_QR\`, \`customer_id\`, \`country_code\`, \`currency\`, the contract, \`payment_method\`, \`payment_destination_code\`, the country's extra fields, the destination's format, then the customer's existence, name enquiry, and pricing when \`amount\` > 0.

Sender identity always comes from the registered customer; a \`sender\` in the body is refused.`;

export const LOOKUP_PATHS: Readonly<Record<string, PathItem>> = {
  "/lookupPaymentCode": {
    post: {
      operationId: "lookupPaymentCode",
      tags: ["Payouts"],
      summary: "Validate a destination and create a PENDING transaction",
      description: LOOKUP_DESCRIPTION,
      parameters: [...COMMON_PARAMETERS, parameterRef("dp")],
      requestBody: jsonBody("LookupPaymentCodeRequest", LOOKUP_REQUEST_EXAMPLES),
      responses: {
        "200": jsonResponse(
          "The destination, its holder and the PENDING transaction.",
          "LookupResult",
          LOOKUP_EXAMPLES,
        ),
        ...partnerErrors(LOOKUP_CASES, {
          body: true,
          examples: {
            400: {
              invalidDestination: ERROR_EXAMPLES.invalidDestination,
              unknownDestination: ERROR_EXAMPLES.unknownDestination,
              senderNotAccepted: ERROR_EXAMPLES.senderNotAccepted,
            },
            401: { authenticationRequired: ERROR_EXAMPLES.authenticationRequired },
          },
        }),
      },
    },
  },
  "/decodeQr": {
    post: {
      operationId: "decodeQr",
      tags: ["Payouts"],
      summary: "Decode a scanned QR code and create a PENDING transaction",
      description:
        "Decodes an EMV QR payload (Pix, VietQR, Argentina's interoperable QR and the other supported schemes) or a local QR, and answers like `lookupPaymentCode`, creating a PENDING transaction. The amount is yours when given, else the QR's; a QR that fixes an amount is paid exactly that amount.",
      parameters: [...COMMON_PARAMETERS, parameterRef("dp")],
      requestBody: jsonBody("DecodeQrRequest"),
      responses: {
        "200": jsonResponse("The decoded destination and the PENDING transaction.", "LookupResult", {
          decodedPix: LOOKUP_EXAMPLES.decodedPix,
        }),
        ...partnerErrors(DECODE_QR_CASES, { body: true }),
      },
    },
  },
  "/listBanks": {
    get: {
      operationId: "listBanks",
      tags: ["Payouts"],
      summary: "List the institution codes of a country",
      description:
        "The codes to send as `payment_destination_code` (BO, NG, GH, ZM, and the fixed codes of BR, PE, CO, KE, TZ, UG) or as `account_reference` (VN BINs). AR has none: CBUs and CVUs carry their own routing.",
      parameters: [
        ...COMMON_PARAMETERS,
        {
          name: "country_code",
          in: "query",
          required: true,
          description: "ISO 3166-1 alpha-2 code of a payout corridor, any case.",
          schema: { type: "string", pattern: "^[A-Za-z]{2}$" },
          example: "NG",
        },
      ],
      responses: {
        "200": jsonResponse("The country's institutions.", "BankList", { peru: BANKS_EXAMPLE }),
        ...partnerErrors([
          ["MISSING_REQUIRED_FIELD", "`country_code` is absent"],
          ["INVALID_FIELD", "`country_code` is not two letters, or is given twice"],
          ["UNSUPPORTED_COUNTRY", "`country_code` is not a payout corridor"],
        ]),
      },
    },
  },
  "/customers": {
    post: {
      operationId: "createCustomer",
      tags: ["Customers"],
      summary: "Register a sender",
      description:
        "Registers the person (or business) on whose behalf you pay out. Every lookup names one by `customer_id`, and the transaction's sender is built from it. Registering the same person twice gives two customers.",
      parameters: [...COMMON_PARAMETERS],
      requestBody: jsonBody("CustomerRequest", { brazilian: CUSTOMER_REQUEST_EXAMPLE }),
      responses: {
        "201": jsonResponse("The customer.", "Customer", { registered: CUSTOMER_EXAMPLE }),
        ...partnerErrors(
          [
            [
              "MISSING_REQUIRED_FIELD",
              "`name_first`, `name_last` or `country` is absent, or one of `ic_type`/`ic_number` without the other",
            ],
            [
              "INVALID_FIELD",
              "a field breaks its rule (named in `field`): not a letter in a name, unknown country or `ic_type`, bad CPF/CNPJ check digits, a phone without `+`, a malformed e-mail",
            ],
          ],
          { body: true },
        ),
      },
    },
  },
  "/customers/{customer_id}": {
    get: {
      operationId: "getCustomer",
      tags: ["Customers"],
      summary: "Read a sender",
      parameters: [
        ...COMMON_PARAMETERS,
        {
          name: "customer_id",
          in: "path",
          required: true,
          description: "The customer's id.",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": jsonResponse("The customer.", "Customer", { registered: CUSTOMER_EXAMPLE }),
        ...partnerErrors([
          ["CUSTOMER_NOT_FOUND", "no such customer among yours (another partner's id included)", 404],
        ]),
      },
    },
  },
};
