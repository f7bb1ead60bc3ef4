/**
 * `components.schemas` of the partner API, written from the gateway's renderers and body readers
 * (`http/render-*.ts`, `routes/*.ts`) and the services' rules. Response schemas list in `required` what the
 * gateway always sends; fields sent only in some cases are optional and say when.
 */
import type { JsonSchema } from "./openapi-types.js";

/** A reference to a schema below; the document's structure test checks that every reference resolves. */
export const schemaRef = (name: string): JsonSchema => ({
  $ref: `#/components/schemas/${name}`,
});

const str = (description: string, extra: Partial<JsonSchema> = {}): JsonSchema => ({
  type: "string",
  description,
  ...extra,
});
const bool = (description: string): JsonSchema => ({ type: "boolean", description });
const timestamp = (description: string): JsonSchema => ({
  type: ["string", "null"],
  format: "date-time",
  description: `${description} ISO 8601 in UTC with milliseconds.`,
});

const USD = (what: string): JsonSchema => ({
  type: "number",
  description: `${what} in USD, rounded half up to \`dp\` decimals (default 2) and written with exactly that many decimals (\`0.30\`). Stored values keep full precision.`,
});
const LOCAL = (what: string): JsonSchema => ({
  type: "number",
  description: `${what} in the local currency, written with the currency's ISO 4217 minor units (\`540.00\` BRL, \`2630000\` VND).`,
});

/** A decimal accepted as a JSON number or a plain decimal string, so no client has to round a double. */
const DECIMAL_INPUT = (description: string, extra: Partial<JsonSchema> = {}): JsonSchema => ({
  type: ["number", "string"],
  pattern: "^-?\\d+(\\.\\d+)?$",
  description: `${description} A JSON number or a decimal string (\`"1500.50"\`).`,
  ...extra,
});

const PARTNER_APP_ID: JsonSchema = {
  type: "string",
  pattern: "^[a-zA-Z0-9_-]{1,64}$",
  minLength: 1,
  maxLength: 64,
  description:
    "Your own application tag, stored with the transaction: 1 to 64 characters of `[a-zA-Z0-9_-]`.",
};

const FREE_MAP = (description: string): JsonSchema => ({
  type: "object",
  additionalProperties: true,
  description,
});

const SENDER_MAP = FREE_MAP(
  "The sender, always derived from the registered customer (`customer_id`). Keys with a value among `name_first`, `name_last`, `country`, `ic_number`, `ic_type`, `phone`, `email`.",
);
const RECIPIENT_MAP = FREE_MAP(
  "The recipient as the destination and name enquiry establish it; keys with an empty value are left out. Keys seen: `account_no`, `bank_code`, `bank_no`, `bank_name`, `name`, `name_first`, `name_last`, `country` (businesses have `name` only).",
);

const lookupSchemas = {
  LookupPaymentCodeRequest: {
    type: "object",
    description:
      "Two contracts. **Manual destinations** (AR, BR, PE, BO, CO, NG, GH, ZM; also KE, TZ, UG with a typed till or paybill): `customer_id`, `country_code`, `payment_method`, `payment_destination` (or its legacy alias `qr_string`), and `payment_destination_code` where the country needs one (BR `PIX`, PE `YAPE`/`PLIN`, CO `BREB`, BO/NG/GH/ZM an institution code from `GET /listBanks`; KE/TZ/UG optional `TILL`/`PAYBILL`). BO bank transfers also need `account_type` and `recipient`. **Merchant or account lookup** (KE, TZ, VN): `customer_id`, `country_code`, `merchant_id`; VN also `account_reference` (the bank's 6-digit NAPAS BIN). A `sender` is never accepted. Strings are trimmed; blank strings count as absent; fields a corridor does not use are ignored.",
    required: ["customer_id", "country_code"],
    properties: {
      customer_id: str("A customer registered with `POST /customers`; the sender of the payout.", {
        maxLength: 128,
      }),
      country_code: str("ISO 3166-1 alpha-2 country of the destination, any case.", {
        pattern: "^[A-Za-z]{2}$",
        examples: ["BR"],
      }),
      payment_method: str(
        "Must match the corridor: AR, BR, CO, KE, TZ, UG `payment_key`; PE `ewallet`; BO, NG, GH, ZM `bank_transfer` (VN `bank_transfer`, optional). Any case.",
        { enum: ["payment_key", "ewallet", "bank_transfer"] },
      ),
      payment_destination: str(
        "The typed destination: CBU, CVU or alias (AR); Pix key (BR); phone (PE); account number (BO, ZM); Bre-B key (CO); account or wallet number (NG, GH); till or paybill number (KE, TZ, UG). Wins over `qr_string` when both are sent.",
        { maxLength: 1024 },
      ),
      qr_string: str(
        "Legacy alias of `payment_destination`, used only when `payment_destination` is absent or blank; errors then name `qr_string`. Scanned EMV QR payloads go to `POST /decodeQr` (`USE_DECODE_QR`).",
        { maxLength: 1024 },
      ),
      payment_destination_code: str(
        "Rail or institution code, any case: BR `PIX`; PE `YAPE` or `PLIN`; CO `BREB`; BO, NG, GH, ZM a code from `GET /listBanks`; KE, TZ, UG optional `TILL` or `PAYBILL`.",
        { maxLength: 128 },
      ),
      account_type: str("BO bank transfers: the account type.", { enum: ["SAVINGS", "CHECKING"] }),
      recipient: {
        type: "object",
        description: "BO bank transfers: the account holder, as the bank knows them.",
        properties: {
          name_first: str("Holder's first name(s).", { maxLength: 128 }),
          name_last: str("Holder's last name(s).", { maxLength: 128 }),
          ic_number: str("Holder's CI (cédula de identidad), e.g. `4567890 LP`.", { maxLength: 128 }),
        },
        additionalProperties: false,
      },
      merchant_id: str(
        "Merchant contract: KE/TZ till or paybill number, or VN bank account number (6–19 digits).",
        { maxLength: 1024 },
      ),
      account_reference: str(
        "KE/TZ/UG paybill bill reference (1–12 letters or digits), or VN bank BIN (6 digits, from `GET /listBanks?country_code=VN`).",
        { maxLength: 128 },
      ),
      amount: DECIMAL_INPUT(
        "Local-currency amount, at least 0. When greater than 0 it is priced at once (`amount_usd` and fees in the response); 0 or absent means no amount yet (`missing_fields` lists it).",
        { minimum: 0 },
      ),
      currency: str("ISO 4217 code; when sent it must be the corridor's currency (any case).", {
        maxLength: 128,
      }),
      partner_transaction_id: str("Your reference for the payout, echoed back and filterable.", {
        maxLength: 128,
      }),
      partner_app_id: PARTNER_APP_ID,
      wallet_identifier: str("Your wallet or account identifier, stored with the transaction.", {
        maxLength: 128,
      }),
    },
  },
  DecodeQrRequest: {
    type: "object",
    description: "A scanned EMV (or local) QR payload. A sender is never accepted.",
    required: ["customer_id", "qr_string"],
    properties: {
      customer_id: str("A customer registered with `POST /customers`; the sender of the payout.", {
        maxLength: 128,
      }),
      qr_string: str("The payload exactly as scanned, CRC included.", { maxLength: 1024 }),
      amount: DECIMAL_INPUT(
        "Local-currency amount, at least 0. A QR that fixes an amount (tag 54) is paid that amount: a different one is `INVALID_AMOUNT`. Without it the QR's amount, if any, is used.",
        { minimum: 0 },
      ),
      partner_transaction_id: str("Your reference for the payout.", { maxLength: 128 }),
      partner_app_id: PARTNER_APP_ID,
      wallet_identifier: str("Your wallet or account identifier, stored with the transaction.", {
        maxLength: 128,
      }),
    },
  },
  MissingField: {
    type: "object",
    required: ["field", "type", "label"],
    properties: {
      field: str("Request field still to provide.", { examples: ["amount", "account_reference"] }),
      type: str("Its kind.", { examples: ["numeric", "string"] }),
      label: str("A label to show.", { examples: ["Amount"] }),
    },
    additionalProperties: false,
  },
  MerchantInfo: {
    type: "object",
    description: "KE/TZ/UG till and paybill metadata; empty fields are left out.",
    properties: {
      merchant_id: str("Till or paybill number."),
      display_name: str("Verified display name."),
      country_code: str("ISO alpha-2."),
      payment_type: str("Kind of short code.", { enum: ["till", "paybill"] }),
      lipa_number: str("The number to pay (Lipa na M-Pesa)."),
      account_reference: str("Paybill bill reference."),
    },
    additionalProperties: false,
  },
  LookupResult: {
    type: "object",
    description:
      "The result of `lookupPaymentCode` and `decodeQr` (one shape), with the PENDING transaction created for it. The seed lists every field as optional; this implementation always sends those marked required.",
    required: [
      "is_dynamic",
      "is_business",
      "amount",
      "merchant",
      "country",
      "tx_id",
      "currency",
      "partner_transaction_id",
      "missing_fields",
      "suggested_values",
      "sender",
      "recipient",
    ],
    properties: {
      is_dynamic: bool("True for dynamic QR codes and for tills and paybills."),
      is_business: bool("True when the recipient is a business (CNPJ key, till, paybill, merchant QR)."),
      amount: LOCAL("The transaction's amount; 0 while none was given."),
      merchant: str("Merchant name, or an empty string."),
      merchant_id: str("Till or paybill number (VN: the account number), only when the destination has one."),
      merchant_name: str("Verified merchant display name, only when the destination has one."),
      payment_type: str("Kind of merchant short code, only for tills and paybills.", {
        enum: ["till", "paybill"],
      }),
      merchant_info: schemaRef("MerchantInfo"),
      country: str("ISO alpha-2 country of the destination."),
      tx_id: str("Identifier of the PENDING transaction created; pass it to `POST /getQuotation`.", {
        examples: ["tx_01m7xx9726hzfmmn1fcz6t8605"],
      }),
      currency: str("ISO 4217 currency of the corridor."),
      partner_transaction_id: str("Echo of your reference; empty string when none."),
      amount_usd: USD("Only when the amount is greater than 0: the amount"),
      fee: USD("Only when the amount is greater than 0: `percentage_fee + fixed_fee`"),
      percentage_fee: USD("Only when the amount is greater than 0: the percentage part of the fee"),
      fixed_fee: USD("Only when the amount is greater than 0: the fixed part of the fee"),
      missing_fields: {
        type: "array",
        items: schemaRef("MissingField"),
        description:
          "What must still be given before the payout can run: `amount` without an amount; `account_reference` for a paybill QR whose reference the payer supplies. Empty when nothing is missing.",
      },
      suggested_values: FREE_MAP(
        "Non-blocking hints, e.g. a corrected mobile network (GH) or the current code of a legacy bank (ZM); `{}` when none.",
      ),
      sender: SENDER_MAP,
      recipient: RECIPIENT_MAP,
    },
    additionalProperties: false,
  },
  Bank: {
    type: "object",
    required: ["code", "name", "type"],
    properties: {
      code: str("The value for `payment_destination_code` (or `account_reference` for VN BINs)."),
      name: str("Institution name."),
      type: str("Bank or mobile-money (wallet, network, rail).", { enum: ["bank", "mobile_money"] }),
    },
    additionalProperties: false,
  },
  BankList: {
    type: "object",
    required: ["banks"],
    properties: { banks: { type: "array", items: schemaRef("Bank") } },
    additionalProperties: false,
  },
  CustomerRequest: {
    type: "object",
    description:
      "A sender. The first failing check wins, in property order; each error names its field. Customers cannot be changed or deleted.",
    required: ["name_first", "name_last", "country"],
    properties: {
      name_first: str("1–100 characters with at least one letter; accents and non-Latin scripts are kept.", {
        maxLength: 100,
      }),
      name_last: str("1–100 characters with at least one letter.", { maxLength: 100 }),
      country: str("ISO 3166-1 alpha-2 (or `XK`), any case; stored upper case.", {
        pattern: "^[A-Za-z]{2}$",
      }),
      ic_type: str("Identity document type, any case; required together with `ic_number`.", {
        enum: [
          "NATIONAL_ID",
          "PASSPORT",
          "DRIVERS_LICENSE",
          "RESIDENCE_PERMIT",
          "TAX_ID",
          "DNI",
          "CUIL",
          "CUIT",
          "CPF",
          "CNPJ",
          "CI",
          "CC",
          "CE",
          "NIT",
          "RUC",
          "BVN",
          "NIN",
          "GHANA_CARD",
          "NRC",
        ],
      }),
      ic_number: str(
        "1–40 letters, digits, spaces, `.`, `-`, `/`; required together with `ic_type`. CPF and CNPJ must pass their check digits and are stored bare.",
        { maxLength: 40 },
      ),
      phone: str(
        "International form: `+` and 8–15 digits (E.164); spaces, dots, hyphens and parentheses are removed. A number without `+` is refused.",
        { maxLength: 50 },
      ),
      email: str("At most 254 characters; stored lower case.", { maxLength: 254, format: "email" }),
      external_reference: str("Your id for this person, 1–100 characters; not unique.", { maxLength: 100 }),
    },
  },
  Customer: {
    type: "object",
    required: ["customer_id", "name_first", "name_last", "country", "created_at"],
    properties: {
      customer_id: str("Identifier to pass as `customer_id`.", {
        examples: ["cus_01m7xx94hd26qz72tpjzafqaav"],
      }),
      name_first: str("First name(s)."),
      name_last: str("Last name(s)."),
      country: str("ISO alpha-2, upper case."),
      ic_type: str("Only when given."),
      ic_number: str("Only when given; CPF/CNPJ without punctuation."),
      phone: str("Only when given; E.164."),
      email: str("Only when given; lower case."),
      external_reference: str("Only when given."),
      created_at: timestamp("Registration time."),
    },
    additionalProperties: false,
  },
} satisfies Record<string, JsonSchema>;

/** The body's members in the order they are written (services/webhooks/src/domain/payload.ts). */
const notification = (status: string, eventType: string, reason: Record<string, JsonSchema>): JsonSchema => ({
  type: "object",
  description: `Body of \`${eventType}\`: UTF-8 JSON whose bytes are fixed when the event is taken in and signed as sent. Money is written with fixed decimals.`,
  required: ["tx_id", "status", "event_id", "event_type", "occurred_at"],
  properties: {
    tx_id: str("The transaction."),
    status: { type: "string", const: status, description: `Always \`${status}\`.` },
    amount: { type: "number", description: "Local amount, at the currency's ISO 4217 minor units." },
    fee: { type: "number", description: "USD, 2 decimals: `percentage_fee + fixed_fee`." },
    percentage_fee: { type: "number", description: "USD, 2 decimals." },
    fixed_fee: { type: "number", description: "USD, 2 decimals." },
    sender: { ...SENDER_MAP, description: `Only when known. ${SENDER_MAP.description}` },
    recipient: { ...RECIPIENT_MAP, description: `Only when known. ${RECIPIENT_MAP.description}` },
    ...reason,
    event_id: str("Unique per event and stable across retries and redeliveries: deduplicate by it."),
    event_type: { type: "string", const: eventType, description: "Event kind." },
    occurred_at: { type: "string", format: "date-time", description: "When the transaction changed status." },
    test: {
      type: "boolean",
      const: true,
      description: "Only on notifications sent by `POST /webhookConfigs/{id}/test`: never book them.",
    },
  },
  additionalProperties: false,
});

const notificationSchemas = {
  TransactionSuccessNotification: notification("SUCCESS", "transaction.success", {}),
  TransactionRefundedNotification: notification("REFUNDED", "transaction.refunded", {
    refund_reason: str("Only when operations gave a reason with the refund."),
  }),
  TransactionFailedNotification: notification("FAILED", "transaction.failed", {
    failure_reason: str("Only when the rail gave a reason."),
  }),
  SuccessReceiverAnswer: {
    type: "object",
    description: "The seed's answer to a success notification: an empty JSON object.",
    additionalProperties: false,
  },
  RefundedReceiverAnswer: {
    type: "object",
    description: "The seed's answer to a refund notification (stored in the delivery log).",
    properties: { received: bool("Whether the refund was taken in."), message: str("Free text.") },
  },
} satisfies Record<string, JsonSchema>;

export const OPENAPI_SCHEMAS = {
  ...lookupSchemas,
  ...notificationSchemas,
} satisfies Record<string, JsonSchema>;

export type SchemaName = keyof typeof OPENAPI_SCHEMAS;
