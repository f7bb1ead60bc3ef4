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
const nullableStr = (description: string, extra: Partial<JsonSchema> = {}): JsonSchema => ({
  type: ["string", "null"],
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
const RATE: JsonSchema = {
  type: "number",
  description: "Units of the local currency per 1 USD, always written with 10 decimals (`5.4000000000`).",
};

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

const TRANSACTION_STATUSES = ["PENDING", "PROCESSING", "SUCCESS", "FAILED", "REFUNDED", "EXPIRED"] as const;
const EVENT_TYPES = ["transaction.success", "transaction.refunded", "transaction.failed"] as const;

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

const pricingSchemas = {
  PreviewQuotationsRequest: {
    type: "object",
    description:
      "Checked in this order: `amount` (INVALID_AMOUNT), `currency` (MISSING_REQUIRED_FIELD), the amount's decimals against the currency's minor units (INVALID_AMOUNT), then credentials, rate limit and the rate of `currency` (INVALID_CURRENCY).",
    required: ["amount", "currency"],
    properties: {
      amount: DECIMAL_INPUT("Amount in `currency`; must be greater than 0.", { exclusiveMinimum: 0 }),
      currency: str("ISO 4217 code, any case.", { examples: ["USD", "kes"] }),
    },
  },
  QuotationItem: {
    type: "object",
    required: [
      "amount",
      "currency",
      "exchange_rate",
      "amount_usd",
      "fee",
      "percentage_fee",
      "fixed_fee",
      "expires_at",
    ],
    properties: {
      amount: LOCAL("The previewed amount converted to `currency`,"),
      currency: str("Target currency, one of the account's supported currencies."),
      exchange_rate: RATE,
      amount_usd: USD("The amount"),
      fee: USD("`percentage_fee + fixed_fee`"),
      percentage_fee: USD("Percentage part of the fee"),
      fixed_fee: USD("Fixed part of the fee"),
      expires_at: {
        type: "string",
        format: "date-time",
        description: "Always 30 minutes after the response time. Indicative only: nothing is reserved.",
      },
    },
    additionalProperties: false,
  },
  PreviewQuotationsResponse: {
    type: "object",
    description:
      "One quotation per supported currency of the account (only USD when none is configured), in the account's order. A currency without an FX rate, or whose converted amount is outside its corridor's limits, is left out; the list may be empty.",
    required: ["quotations"],
    properties: { quotations: { type: "array", items: schemaRef("QuotationItem") } },
    additionalProperties: false,
  },
  GetQuotationRequest: {
    type: "object",
    required: ["tx_id", "amount"],
    properties: {
      tx_id: str("A PENDING transaction from `lookupPaymentCode` or `decodeQr`.", { maxLength: 100 }),
      amount: DECIMAL_INPUT("Local-currency amount; must be greater than 0.", { exclusiveMinimum: 0 }),
      currency: str("ISO 4217 code; when sent it must be the transaction's currency (any case).", {
        pattern: "^[A-Za-z]{3}$",
      }),
    },
  },
  BindingQuote: {
    type: "object",
    description:
      "A binding price, attached to the transaction (a newer quote replaces the older). `executePayout` debits `total_usd` at full precision.",
    required: [
      "tx_id",
      "amount",
      "currency",
      "exchange_rate",
      "amount_usd",
      "fee",
      "percentage_fee",
      "fixed_fee",
      "total_usd",
      "expires_at",
    ],
    properties: {
      tx_id: str("The transaction quoted."),
      amount: LOCAL("The payout amount"),
      currency: str("The transaction's currency."),
      exchange_rate: RATE,
      amount_usd: USD("The amount"),
      fee: USD("`percentage_fee + fixed_fee`"),
      percentage_fee: USD("Percentage part of the fee"),
      fixed_fee: USD("Fixed part of the fee"),
      total_usd: USD("`amount_usd + fee`, what executePayout debits"),
      expires_at: timestamp("After this the quote cannot be executed (`QUOTE_EXPIRED`): quote again."),
    },
    additionalProperties: false,
  },
  Balance: {
    type: "object",
    required: ["balance_usd", "currency"],
    properties: {
      balance_usd: USD("What the partner may spend"),
      currency: { type: "string", const: "USD", description: "Always `USD`." },
    },
    additionalProperties: false,
  },
} satisfies Record<string, JsonSchema>;

const transactionSchemas = {
  TransactionStatus: {
    type: "string",
    enum: [...TRANSACTION_STATUSES],
    description:
      "PENDING (created by lookup or decodeQr; quotes attach here) → PROCESSING (executePayout debited the balance and submitted the payout) → SUCCESS (the rail paid) → REFUNDED (operations refunded it; balance credited). PROCESSING → FAILED (the rail failed it; debit reversed). PENDING → EXPIRED (not executed in time).",
  },
  ExecutePayoutRequest: {
    type: "object",
    required: ["tx_id"],
    properties: {
      tx_id: str("A PENDING transaction with an unexpired quote.", { maxLength: 100 }),
    },
  },
  StatusChange: {
    type: "object",
    required: ["from", "to", "reason", "at"],
    properties: {
      from: {
        type: ["string", "null"],
        enum: [...TRANSACTION_STATUSES, null],
        description: "Previous status; null for the creation.",
      },
      to: schemaRef("TransactionStatus"),
      reason: str(
        "Why, e.g. `created`, `executePayout`, `rail reported success`, the rail's failure reason.",
      ),
      at: timestamp("When."),
    },
    additionalProperties: false,
  },
  QrData: {
    type: "object",
    description:
      "Who pays whom, as lookup or decodeQr established it; empty parts are left out. The seed's sender and recipient details live here.",
    properties: {
      sender: SENDER_MAP,
      recipient: RECIPIENT_MAP,
      payment_method: str("`payment_key`, `ewallet` or `bank_transfer`."),
      destination_type: str(
        "Canonical kind of destination, e.g. `PIX_CPF`, `CBU`, `NUBAN`, `TILL`, `VN_ACCOUNT`.",
      ),
      payment_destination: str("The destination in canonical form."),
      payment_destination_code: str("Canonical rail or institution code."),
      institution_name: str("Name of the institution or rail."),
      merchant: str("Merchant name."),
      merchant_id: str("Till, paybill or account number of the merchant contract."),
      merchant_name: str("Verified merchant name."),
      payment_type: str("`till` or `paybill`."),
    },
    additionalProperties: false,
  },
  Transaction: {
    type: "object",
    description:
      "A transaction. Pricing fields appear once a quote is attached. `status_history` appears on `GET /transactions/{tx_id}` and on executePayout answers, not in lists.",
    required: [
      "tx_id",
      "status",
      "country",
      "currency",
      "amount",
      "partner_transaction_id",
      "qr_data",
      "created_at",
      "updated_at",
    ],
    properties: {
      tx_id: str("Identifier."),
      status: schemaRef("TransactionStatus"),
      country: str("ISO alpha-2 of the destination."),
      currency: str("ISO 4217 of the corridor."),
      amount: LOCAL("The payout amount; 0 while none was given"),
      exchange_rate: { ...RATE, description: `Only when quoted. ${RATE.description}` },
      amount_usd: USD("Only when quoted: the amount"),
      fee: USD("Only when quoted: `percentage_fee + fixed_fee`"),
      percentage_fee: USD("Only when quoted: the percentage part of the fee"),
      fixed_fee: USD("Only when quoted: the fixed part of the fee"),
      partner_transaction_id: str("Your reference; empty string when none."),
      qr_data: schemaRef("QrData"),
      failure_reason: str("Only on FAILED: why the rail failed it."),
      refund_reason: str("Only on REFUNDED, when operations gave a reason."),
      created_at: timestamp("Creation time."),
      updated_at: timestamp("Last status change."),
      status_history: {
        type: "array",
        items: schemaRef("StatusChange"),
        description: "Every status change, oldest first.",
      },
    },
    additionalProperties: false,
  },
  TransactionList: {
    type: "object",
    required: ["transactions", "next_cursor"],
    properties: {
      transactions: {
        type: "array",
        items: schemaRef("Transaction"),
        description: "Newest first (by creation time, then tx_id).",
      },
      next_cursor: nullableStr("Pass as `cursor` for the next page; null on the last page."),
    },
    additionalProperties: false,
  },
} satisfies Record<string, JsonSchema>;

const BASIC_AUTH_INPUT: JsonSchema = {
  type: "object",
  description:
    "Credentials sent to the receiver as `Authorization: Basic …`. The password is write-only. User name non-empty without `:`, password non-empty, both ≤ 256 characters.",
  required: ["username", "password"],
  properties: {
    username: str("User name.", { minLength: 1, maxLength: 256 }),
    password: str("Password.", { minLength: 1, maxLength: 256, writeOnly: true }),
  },
};
const EVENTS_FILTER: JsonSchema = {
  type: "array",
  minItems: 1,
  items: { type: "string", enum: [...EVENT_TYPES, "*"] },
  description: "Event kinds to receive; `*` is every kind, including kinds added later. Case-sensitive.",
};
const URL_FIELD = str(
  "The receiver's base URL: notifications go to `{url}/webhooks/transactions/success`, `/refunded` and `/failed`. https (http only where private URLs are allowed); no credentials, query or fragment; not already ending in `/webhooks/transactions/<kind>`.",
  { format: "uri" },
);
const SECRET_FIELD = str(
  "Signing secret, 16–256 characters without control characters. Write-only: answers say `has_secret`.",
  { minLength: 16, maxLength: 256, writeOnly: true },
);

const WEBHOOK_CONFIG = {
  type: "object",
  required: [
    "config_id",
    "url",
    "events",
    "active",
    "has_secret",
    "basic_auth",
    "disabled_reason",
    "previous_secret_expires_at",
    "created_at",
    "updated_at",
  ],
  properties: {
    config_id: str("Identifier.", { examples: ["whc_01m7xx9g5rjdhf24yzyd2vjq4m"] }),
    url: str("The receiver's base URL."),
    events: { type: "array", items: { type: "string", enum: [...EVENT_TYPES, "*"] } },
    active: bool("Whether notifications are sent."),
    has_secret: bool("Whether notifications are signed."),
    basic_auth: {
      type: ["object", "null"],
      description: "The basic-auth user name, or null; the password is never returned.",
      required: ["username"],
      properties: { username: str("User name.") },
      additionalProperties: false,
    },
    disabled_reason: nullableStr("Why the service deactivated the config (the receiver answered 410 Gone)."),
    previous_secret_expires_at: timestamp(
      "Set after a secret rotation while the replaced secret still signs beside the new one (a second `webhook-signature` entry); null otherwise.",
    ),
    created_at: timestamp("Creation time."),
    updated_at: timestamp("Last change."),
  },
  additionalProperties: false,
} satisfies JsonSchema;

const webhookSchemas = {
  WebhookConfigCreateRequest: {
    type: "object",
    required: ["url"],
    properties: {
      url: URL_FIELD,
      events: { ...EVENTS_FILTER, default: ["*"] },
      active: { type: "boolean", default: true, description: "Inactive configs receive nothing." },
      secret: SECRET_FIELD,
      basic_auth: BASIC_AUTH_INPUT,
    },
  },
  WebhookConfigUpdateRequest: {
    type: "object",
    description:
      'Partial update: absent fields are left as they are. `secret: null` (or `""`) and `basic_auth: null` remove them; `active: true` also clears `disabled_reason`.',
    properties: {
      url: URL_FIELD,
      events: EVENTS_FILTER,
      active: bool("Activate or deactivate."),
      secret: { ...SECRET_FIELD, type: ["string", "null"] },
      basic_auth: { ...BASIC_AUTH_INPUT, type: ["object", "null"] },
    },
  },
  WebhookConfig: WEBHOOK_CONFIG,
  WebhookSecretRotationRequest: {
    type: "object",
    properties: {
      secret: str(
        "The new signing secret, 16–256 characters without control characters; absent: the service generates one (256 random bits, base64url).",
        {
          minLength: 16,
          maxLength: 256,
        },
      ),
      grace_period_seconds: {
        type: "integer",
        minimum: 0,
        maximum: 604800,
        default: 86400,
        description: "How long the current secret keeps signing beside the new one; 0 drops it at once.",
      },
    },
    additionalProperties: false,
  },
  WebhookSecretRotation: {
    ...WEBHOOK_CONFIG,
    required: [...WEBHOOK_CONFIG.required, "secret"],
    properties: {
      ...WEBHOOK_CONFIG.properties,
      secret: str("The new signing secret. Answered this once, never again: store it now."),
    },
  },
  WebhookConfigList: {
    type: "object",
    required: ["webhook_configs"],
    properties: {
      webhook_configs: { type: "array", items: schemaRef("WebhookConfig"), description: "Oldest first." },
    },
    additionalProperties: false,
  },
  WebhookTestResult: {
    type: "object",
    required: ["delivered", "status_code", "latency_ms", "error", "response_body"],
    properties: {
      delivered: bool("True when the receiver answered 2xx."),
      status_code: { type: ["integer", "null"], description: "The receiver's HTTP status; null when none." },
      latency_ms: { type: "integer", minimum: 0, description: "Time to the answer." },
      error: nullableStr("Transport error, refused address or timeout; null when the receiver answered."),
      response_body: nullableStr("The receiver's answer (at most 20 KB)."),
    },
    additionalProperties: false,
  },
  DeliveryAttempt: {
    type: "object",
    required: ["attempt", "status_code", "error", "latency_ms", "at"],
    properties: {
      attempt: { type: "integer", minimum: 1, description: "1 for the first attempt." },
      status_code: { type: ["integer", "null"], description: "The receiver's status; null when none." },
      error: nullableStr("Why the attempt failed without an answer."),
      latency_ms: { type: "integer", minimum: 0, description: "Time to the answer." },
      at: timestamp("When."),
    },
    additionalProperties: false,
  },
  WebhookDelivery: {
    type: "object",
    description:
      "One notification of one event to one config. `pending` waits for its next attempt, `delivering` has an attempt in flight, `delivered` got a 2xx, `dead` exhausted the retry schedule (or got 410 Gone).",
    required: [
      "delivery_id",
      "config_id",
      "event_id",
      "event_type",
      "tx_id",
      "status",
      "attempts",
      "next_attempt_at",
      "delivered_at",
      "last_status_code",
      "last_error",
      "response_body",
      "created_at",
      "history",
    ],
    properties: {
      delivery_id: str("Identifier.", { examples: ["whd_01m7xx9n4e0tw3dnmj5m0vcwx5"] }),
      config_id: str("The receiving config."),
      event_id: str("The event's id, also sent as `webhook-id` and in the body: deduplicate by it."),
      event_type: str("Event kind.", { enum: [...EVENT_TYPES] }),
      tx_id: str("The transaction."),
      status: str("Delivery state.", { enum: ["pending", "delivering", "delivered", "dead"] }),
      attempts: { type: "integer", minimum: 0, description: "Attempts made so far." },
      next_attempt_at: timestamp("Only while pending: when the next attempt is due."),
      delivered_at: timestamp("When a 2xx was received."),
      last_status_code: { type: ["integer", "null"], description: "Status of the last attempt." },
      last_error: nullableStr("Error of the last attempt."),
      response_body: nullableStr("The receiver's last answer (at most 20 KB)."),
      created_at: timestamp("When the event was taken in."),
      history: { type: "array", items: schemaRef("DeliveryAttempt"), description: "Every attempt." },
    },
    additionalProperties: false,
  },
  WebhookDeliveryList: {
    type: "object",
    required: ["deliveries"],
    properties: {
      deliveries: { type: "array", items: schemaRef("WebhookDelivery"), description: "Newest first." },
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

const edgeSchemas = {
  ErrorBody: {
    type: "object",
    description:
      "The one error body of every route. `code` is stable and meant for programs; `message` for people.",
    required: ["code", "message", "request_id"],
    properties: {
      code: str("Stable machine-readable code.", { examples: ["INVALID_AMOUNT"] }),
      message: str("Human-readable explanation; wording may change."),
      field: str(
        "Only when one field (or header or query parameter) is at fault: its name, e.g. `amount`, `recipient.name_first`, `X-Idempotency-Key`, `dp`.",
      ),
      request_id: str("Same as the `X-Request-Id` response header; quote it to support."),
    },
    additionalProperties: false,
  },
  RailCallbackRequest: {
    type: "object",
    required: ["tx_id", "outcome"],
    properties: {
      tx_id: str("The PROCESSING transaction.", { maxLength: 100 }),
      outcome: str("The rail's verdict.", { enum: ["SUCCESS", "FAILED"] }),
      reason: str("Why it failed.", { maxLength: 500 }),
      provider_reference: str("The rail's own reference.", { maxLength: 200 }),
    },
  },
  RailCallbackResult: {
    type: "object",
    required: ["tx_id", "status", "changed"],
    properties: {
      tx_id: str("The transaction."),
      status: schemaRef("TransactionStatus"),
      changed: bool("False when this verdict was already recorded (a retried callback), or contradicts it."),
    },
    additionalProperties: false,
  },
} satisfies Record<string, JsonSchema>;

export const OPENAPI_SCHEMAS = {
  ...edgeSchemas,
  ...lookupSchemas,
  ...pricingSchemas,
  ...transactionSchemas,
  ...webhookSchemas,
  ...notificationSchemas,
} satisfies Record<string, JsonSchema>;

export type SchemaName = keyof typeof OPENAPI_SCHEMAS;
