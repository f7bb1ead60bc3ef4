/**
 * Bulk payouts (`batch-routes.ts`): a batch of up to 10,000 payouts, sent as JSON (1,000 items a request)
 * or uploaded as a CSV or NDJSON file, validated item by item by the ledger's BatchService with the rules
 * of lookupPaymentCode and getQuotation, approved (by one or two credentials), funded all at once and paid.
 */
import { ITEM_STATUSES as BATCH_ITEM_STATUSES, BATCH_STATUSES } from "@payouts/ledger/batch-statuses";
import { defineOperations, ok } from "../../api/operation.js";
import {
  AmountInput,
  ClosedObject,
  component,
  DecimalString,
  Nullable,
  type Static,
  StringEnum,
  strictText,
  Timestamp,
  Type,
  withInvalidCode,
} from "../../api/schema.js";
import { headerRef, parameterRef } from "../../openapi/openapi-components.js";
import {
  AUTH_BUSY_CASE,
  AUTH_CASE,
  AUTH_THROTTLE_CASE,
  type ErrorCase,
  INTERNAL_CASE,
  UNAVAILABLE_CASE,
  URL_TEXT_CASE,
} from "../../openapi/openapi-errors.js";
import type { Header } from "../../openapi/openapi-types.js";
import { LookupPaymentCodeRequest } from "./lookup-api.js";

/** Items of one JSON request (POST /batches, PUT /batches/{batch_id}/items). */
export const MAX_ITEMS_PER_REQUEST = 1000;
/** Rows of one uploaded file, and items of one batch. */
export const MAX_BATCH_ITEMS = 10_000;
/** Bytes of one uploaded file. */
export const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;
/** Bytes of one JSON request with items. */
export const MAX_ITEMS_BODY_BYTES = 2 * 1024 * 1024;

/** The ledger's batch and item statuses, in lifecycle order. */
export { BATCH_ITEM_STATUSES, BATCH_STATUSES };
export type BatchStatusName = (typeof BATCH_STATUSES)[number];
export type BatchItemStatusName = (typeof BATCH_ITEM_STATUSES)[number];

export const NAME_MISMATCH_POLICIES = ["exclude", "include"] as const;
export const NAME_MATCHES = ["NOT_CHECKED", "MATCH", "MISMATCH"] as const;
export const BATCH_SOURCES = ["json", "csv", "ndjson"] as const;

const ITEM_REF = strictText(
  "has 1 to 64 characters from a-z, A-Z, 0-9, _, ., : and -",
  Type.String({
    pattern: "^[A-Za-z0-9_.:-]{1,64}$",
    minLength: 1,
    maxLength: 64,
    description: "Your reference of the item, unique in the batch: 1 to 64 characters of `[A-Za-z0-9_.:-]`.",
  }),
);

const lookupFields = LookupPaymentCodeRequest.properties;

/**
 * One payee: `item_ref`, the amount and your transaction reference, then the fields of lookupPaymentCode's
 * body (the same shapes, checked in the same order; `sender` is refused as there).
 */
export const BatchItemRequest = component(
  "BatchItemRequest",
  Type.Object(
    {
      item_ref: ITEM_REF,
      amount: AmountInput("Local-currency amount to pay, greater than 0.", { exclusiveMinimum: 0 }),
      partner_transaction_id: Type.String({
        maxLength: 128,
        description: "Your reference of the payout, unique among your transactions.",
      }),
      expected_name: Type.Optional(
        Type.String({
          maxLength: 256,
          description:
            "The holder name you expect. Compared with the name the destination's institution reports; the batch's `name_mismatch_policy` decides what a mismatch does.",
        }),
      ),
      sender: lookupFields.sender,
      payment_destination: lookupFields.payment_destination,
      qr_string: lookupFields.qr_string,
      recipient: lookupFields.recipient,
      customer_id: lookupFields.customer_id,
      country_code: lookupFields.country_code,
      payment_method: lookupFields.payment_method,
      payment_destination_code: lookupFields.payment_destination_code,
      account_type: lookupFields.account_type,
      merchant_id: lookupFields.merchant_id,
      account_reference: lookupFields.account_reference,
      currency: lookupFields.currency,
      partner_app_id: lookupFields.partner_app_id,
      wallet_identifier: lookupFields.wallet_identifier,
    },
    {
      description:
        "One payout of a batch: `item_ref`, `amount` and `partner_transaction_id`, the destination as in `lookupPaymentCode`, and optionally `expected_name`.",
    },
  ),
);
export type BatchItemRequest = Static<typeof BatchItemRequest>;

const ITEMS = withInvalidCode(
  "BATCH_TOO_LARGE",
  Type.Array(BatchItemRequest, {
    minItems: 1,
    maxItems: MAX_ITEMS_PER_REQUEST,
    description: `1 to ${MAX_ITEMS_PER_REQUEST} items; more → 413 \`BATCH_TOO_LARGE\` (upload a file, or add the rest with \`PUT /batches/{batch_id}/items\`).`,
  }),
);

const REQUIRED_APPROVALS = Type.Integer({
  minimum: 1,
  maximum: 2,
  default: 1,
  description:
    "Approvals that fund the batch: 1, or 2 (the second by a different credential, i.e. another app of yours).",
});
const POLICY = StringEnum(NAME_MISMATCH_POLICIES, {
  default: "exclude",
  description:
    "What an item whose verified holder name differs from `expected_name` becomes: `exclude` (left out, status EXCLUDED) or `include` (paid; the report still shows the mismatch).",
});

export const CreateBatchRequest = ClosedObject("CreateBatchRequest", {
  items: ITEMS,
  required_approvals: Type.Optional(REQUIRED_APPROVALS),
  name_mismatch_policy: Type.Optional(POLICY),
});
export type CreateBatchRequest = Static<typeof CreateBatchRequest>;

export const PutBatchItemsRequest = ClosedObject("PutBatchItemsRequest", { items: ITEMS });

/** Longest reason a partner may give when cancelling a batch. */
export const MAX_CANCEL_REASON = 200;

export const CancelBatchRequest = ClosedObject("CancelBatchRequest", {
  reason: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_CANCEL_REASON,
      pattern: "^[^\\u0000-\\u001f\\u007f]+$",
      description: `Why you cancel it, 1–${MAX_CANCEL_REASON} characters without control characters; kept on the batch as \`cancel_reason\` ("cancelled by the partner: …").`,
      examples: ["payroll file had the wrong month"],
    }),
  ),
});

const BatchCounts = ClosedObject(
  "BatchCounts",
  {
    total: Type.Integer({ description: "Items in the batch." }),
    validating: Type.Integer(),
    invalid: Type.Integer(),
    excluded: Type.Integer(),
    pending: Type.Integer(),
    processing: Type.Integer(),
    succeeded: Type.Integer(),
    failed: Type.Integer(),
    refunded: Type.Integer(),
    cancelled: Type.Integer(),
  },
  { description: "Items by status." },
);

const nullableTime = (description: string) => Nullable(Timestamp(description), description);
const nullableDecimal = (description: string) => Nullable(DecimalString(description), description);

export const Batch = ClosedObject("Batch", {
  batch_id: Type.String({ examples: ["bat_01m7xx9726hzfmmn1fcz6t8605"] }),
  partner_id: Type.String({ description: "The partner the batch belongs to." }),
  status: StringEnum(BATCH_STATUSES, {
    description:
      "DRAFT → VALIDATING → VALIDATED → (AWAITING_APPROVAL) → PROCESSING → COMPLETED; or CANCELLED, EXPIRED.",
  }),
  required_approvals: Type.Integer({ minimum: 1, maximum: 2 }),
  approvals: Type.Array(
    Type.Object(
      {
        approver_id: Type.String({ description: "The approving credential's `client_id`." }),
        at: Timestamp("When."),
      },
      { additionalProperties: false },
    ),
  ),
  name_mismatch_policy: StringEnum(NAME_MISMATCH_POLICIES),
  counts: BatchCounts,
  total_usd: DecimalString("Σ `total_usd` of the items that will be paid, at full precision."),
  reserved_usd: DecimalString(
    "What the batch's reservation holds now; 0 before funding and after completion.",
  ),
  released_usd: DecimalString("What completion returned to the balance."),
  content_sha256: Nullable.Text("Hex SHA-256 of the uploaded file; null for a JSON batch."),
  source: StringEnum(BATCH_SOURCES),
  parent_batch_id: Nullable.Text("The batch this one retries; null otherwise."),
  cancel_reason: Nullable.Text("Why it was cancelled; null otherwise."),
  created_at: Timestamp("Created."),
  validated_at: nullableTime("Every item had a result."),
  funded_at: nullableTime("Approved and funded."),
  completed_at: nullableTime("Every funded item final."),
  expires_at: nullableTime("A VALIDATED batch not approved by then expires (its earliest quote's expiry)."),
});
export type Batch = Static<typeof Batch>;

/** What creating answers: only facts that never change, so a replay answers the same bytes. */
export const BatchCreated = ClosedObject(
  "BatchCreated",
  {
    batch_id: Type.String(),
    items_received: Type.Integer({ description: "Items (rows) this request carried." }),
    source: StringEnum(BATCH_SOURCES),
    content_sha256: Nullable.Text("Hex SHA-256 of the uploaded file; null for JSON."),
    required_approvals: Type.Integer({ minimum: 1, maximum: 2 }),
    name_mismatch_policy: StringEnum(NAME_MISMATCH_POLICIES),
    created_at: Timestamp("Created."),
  },
  {
    description:
      "The batch was created and is being validated: poll `GET /batches/{batch_id}` until it is no longer VALIDATING.",
  },
);
export type BatchCreated = Static<typeof BatchCreated>;

export const BatchItem = ClosedObject(
  "BatchItem",
  {
    item_ref: Type.String(),
    row_number: Type.Integer({
      description: "1-based position in the batch as sent (a replaced item keeps its row).",
    }),
    status: StringEnum(BATCH_ITEM_STATUSES),
    error_code: Nullable.Text(
      "When INVALID: the code lookupPaymentCode or getQuotation would have answered.",
    ),
    error_field: Nullable.Text("When INVALID: the field at fault, if one is."),
    error_message: Nullable.Text("When INVALID: what is wrong."),
    verified_name: Nullable.Text("The holder name the institution reported; null when it reports none."),
    name_match: StringEnum(NAME_MATCHES, {
      description: "NOT_CHECKED without `expected_name` or without a verified name.",
    }),
    tx_id: Nullable.Text("The item's transaction, once validated."),
    partner_transaction_id: Type.String(),
    amount: DecimalString("The local amount sent."),
    currency: Nullable.Text("ISO 4217 of `amount`, once quoted."),
    amount_usd: nullableDecimal("Once quoted."),
    fee: nullableDecimal("Once quoted."),
    total_usd: nullableDecimal("`amount_usd + fee`: what funding reserves for the item."),
    failure_reason: Nullable.Text("Why the payout failed; null otherwise."),
    updated_at: nullableTime("Last change."),
  },
  { description: "One row of the batch report." },
);
export type BatchItem = Static<typeof BatchItem>;

export const BatchList = ClosedObject("BatchList", {
  batches: Type.Array(Batch, { description: "Newest first." }),
  next_cursor: Nullable.Text("Pass as `cursor` for the next page; null on the last."),
});
export type BatchList = Static<typeof BatchList>;

export const BatchItemList = ClosedObject("BatchItemList", {
  items: Type.Array(BatchItem, { description: "In row order." }),
  next_cursor: Nullable.Text("Pass as `cursor` for the next page; null on the last."),
});
export type BatchItemList = Static<typeof BatchItemList>;

const PAGE = {
  cursor: Type.Optional(
    Type.String({ maxLength: 255, description: "The `next_cursor` of the previous page, unchanged." }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 50, description: "Entries per page." }),
  ),
};

export const BatchListQuery = Type.Object({
  status: Type.Optional(StringEnum(BATCH_STATUSES, { description: "Only batches in this status." })),
  ...PAGE,
});

export const BatchItemsQuery = Type.Object({
  status: Type.Optional(StringEnum(BATCH_ITEM_STATUSES, { description: "Only items in this status." })),
  ...PAGE,
});

export const UploadQuery = Type.Object({
  required_approvals: Type.Optional(REQUIRED_APPROVALS),
  name_mismatch_policy: Type.Optional(POLICY),
});

export const BATCH_ID = Type.Object({
  batch_id: Type.String({
    maxLength: 64,
    description: "The batch.",
    examples: ["bat_01m7xx9726hzfmmn1fcz6t8605"],
  }),
});
const ITEM_ID = Type.Object({
  batch_id: BATCH_ID.properties.batch_id,
  item_ref: Type.String({ maxLength: 64, description: "The item's `item_ref`." }),
});

const TAGS = ["Batches"];
const REPLAYED = { "Idempotent-Replayed": headerRef("idempotentReplayed") };
const RETRY_AFTER_IN_USE: Header = {
  description: "With `IDEMPOTENCY_KEY_IN_USE`: `1`.",
  schema: { type: "integer" },
};
const IDEMPOTENCY_HEADERS = { 409: { ...REPLAYED, "Retry-After": RETRY_AFTER_IN_USE } };
const DUPLICATE_LINK: Header = {
  description: 'With `BATCH_DUPLICATE`: `</batches/{batch_id}>; rel="duplicate"`.',
  schema: { type: "string" },
};
const NOT_FOUND: ErrorCase = ["BATCH_NOT_FOUND", "no batch of yours has this id"];
const LIST_CASES: readonly ErrorCase[] = [
  [
    "INVALID_FIELD",
    "`status` is not a status, `limit` is outside 1–100 or `cursor` is not one this route gave",
  ],
];
const IDEMPOTENCY_CASES: readonly ErrorCase[] = [
  ["MISSING_IDEMPOTENCY_KEY", "neither `X-Idempotency-Key` nor `Idempotency-Key` is sent"],
  ["INVALID_FIELD", "the key is not 1–255 printable ASCII characters or is sent twice"],
];
const IDEMPOTENCY_OUTCOMES: readonly ErrorCase[] = [
  ["IDEMPOTENCY_KEY_IN_USE", "a request with this key is still running; retry after `Retry-After` (1 s)"],
  ["IDEMPOTENCY_KEY_REUSED", "the key was used with another body"],
];
const ITEM_SHAPE_CASES: readonly ErrorCase[] = [
  [
    "MISSING_REQUIRED_FIELD",
    "`items`, or an item's `item_ref`, `amount` or `partner_transaction_id`, is absent (`field` = `items[3].amount`)",
  ],
  [
    "INVALID_FIELD",
    "an item field has the wrong type or length; `item_ref` breaks its pattern; `items` is empty",
  ],
  ["INVALID_AMOUNT", "an item's `amount` is 0 or negative"],
  ["SENDER_NOT_ACCEPTED", "an item has a `sender`"],
  ["DUPLICATE_ITEM_REF", "two items share an `item_ref`"],
  [
    "BATCH_TOO_LARGE",
    `more than ${MAX_ITEMS_PER_REQUEST} items in the request, or more than ${MAX_BATCH_ITEMS} in the batch`,
  ],
];

const CREATE_DESCRIPTION = `Creates a batch from up to ${MAX_ITEMS_PER_REQUEST} items (add more with \`PUT /batches/{batch_id}/items\`, up to ${MAX_BATCH_ITEMS}, or upload a file with \`POST /batches/upload\`). Answers 202 at once; every item is then checked with the rules of \`lookupPaymentCode\` and \`getQuotation\` (destination, name enquiry, corridor limits, a binding quote). Poll \`GET /batches/{batch_id}\` until it is no longer VALIDATING, read the per-item report, then approve.

Idempotent with \`X-Idempotency-Key\` as \`executePayout\`: the same key and body answer the first answer's bytes with \`Idempotent-Replayed: true\`; another body is 422 \`IDEMPOTENCY_KEY_REUSED\`.`;

/** The columns of an uploaded CSV file, in the order written in the document; any order is read. */
export const CSV_UPLOAD_COLUMNS = [
  "item_ref",
  "amount",
  "partner_transaction_id",
  "expected_name",
  "customer_id",
  "country_code",
  "payment_method",
  "payment_destination",
  "payment_destination_code",
  "account_type",
  "merchant_id",
  "account_reference",
  "currency",
  "recipient_name_first",
  "recipient_name_last",
  "recipient_ic_number",
  "partner_app_id",
  "wallet_identifier",
] as const;

export const UPLOAD_MEDIA_TYPES = ["text/csv", "application/x-ndjson"] as const;

/** The columns of the results file, in order. */
export const RESULT_COLUMNS = [
  "row_number",
  "item_ref",
  "status",
  "partner_transaction_id",
  "tx_id",
  "amount",
  "currency",
  "amount_usd",
  "fee",
  "total_usd",
  "verified_name",
  "name_match",
  "error_code",
  "error_field",
  "error_message",
  "failure_reason",
] as const;

const operations = defineOperations(
  { tags: TAGS },
  {
    createBatch: {
      route: "POST /batches",
      summary: "Create a batch of payouts (idempotent)",
      description: CREATE_DESCRIPTION,
      parameters: [parameterRef("idempotencyKey")],
      body: CreateBatchRequest,
      responses: {
        202: { description: "Created; being validated.", schema: BatchCreated, headers: REPLAYED },
      },
      errors: [
        ...IDEMPOTENCY_CASES,
        [
          "INVALID_FIELD",
          "`required_approvals` is not 1 or 2; `name_mismatch_policy` is not `exclude` or `include`",
        ],
        ...ITEM_SHAPE_CASES,
        ...IDEMPOTENCY_OUTCOMES,
      ],
      errorOptions: { headers: IDEMPOTENCY_HEADERS },
    },
    uploadBatch: {
      route: "POST /batches/upload",
      summary: "Create a batch from a CSV or NDJSON file (idempotent)",
      description: `Creates a batch from a file of up to ${MAX_BATCH_ITEMS} rows (${MAX_UPLOAD_BYTES / 1024 / 1024} MiB), read as it arrives. \`Content-Type: text/csv\`: UTF-8 (a BOM is ignored), RFC 4180 (quoted fields, CRLF or LF), a header row naming the columns — ${CSV_UPLOAD_COLUMNS.map((c) => `\`${c}\``).join(", ")} — in any order; an empty cell is absent; \`recipient_*\` fill \`recipient\`. \`Content-Type: application/x-ndjson\`: one \`BatchItemRequest\` JSON object a line. A row that breaks the item's shape refuses the file, naming it (\`field\` = \`rows[12].amount\`, 1-based data rows). The same file (by SHA-256) again is 409 \`BATCH_DUPLICATE\` naming the first batch (\`batch_id\`, \`Link\`). Idempotent with \`X-Idempotency-Key\` like \`createBatch\`.`,
      query: UploadQuery,
      parameters: [parameterRef("idempotencyKey")],
      rawBody: {
        mediaTypes: UPLOAD_MEDIA_TYPES,
        description: "The file: CSV with a header row, or NDJSON.",
      },
      responses: {
        202: { description: "Created; being validated.", schema: BatchCreated, headers: REPLAYED },
      },
      ownErrorsOnly: true,
      errors: [
        URL_TEXT_CASE,
        ...IDEMPOTENCY_CASES,
        ["INVALID_FIELD", "`required_approvals` or `name_mismatch_policy` is not one of its values"],
        [
          "INVALID_FIELD",
          "`Content-Type` is neither `text/csv` nor `application/x-ndjson` (JSON included)",
          415,
        ],
        [
          "INVALID_FIELD",
          "the CSV is malformed or lacks `item_ref`/`amount`/`partner_transaction_id` columns; a line is not a JSON object; a cell holds a NUL",
        ],
        ["MISSING_REQUIRED_FIELD", "a row lacks a required value (`field` = `rows[12].item_ref`)"],
        [
          "INVALID_FIELD",
          "a row's value has the wrong type or length (`field` names row and column); the file has no rows",
        ],
        ["INVALID_AMOUNT", "a row's `amount` is 0 or negative"],
        ["SENDER_NOT_ACCEPTED", "an NDJSON row has a `sender`"],
        ["DUPLICATE_ITEM_REF", "two rows share an `item_ref`"],
        [
          "BATCH_TOO_LARGE",
          `the file has more than ${MAX_BATCH_ITEMS} rows or ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB; refused at the first row or byte too many`,
        ],
        AUTH_CASE,
        AUTH_THROTTLE_CASE,
        ["BATCH_DUPLICATE", "a batch of yours was made from the same file: `batch_id` and `Link` name it"],
        ...IDEMPOTENCY_OUTCOMES,
        INTERNAL_CASE,
        UNAVAILABLE_CASE,
        AUTH_BUSY_CASE,
      ],
      errorOptions: {
        headers: {
          409: {
            ...IDEMPOTENCY_HEADERS[409],
            Link: DUPLICATE_LINK,
          },
        },
      },
    },
    listBatches: {
      route: "GET /batches",
      summary: "Your batches, newest first",
      query: BatchListQuery,
      responses: ok("A page of batches.", BatchList),
      errors: LIST_CASES,
    },
    getBatch: {
      route: "GET /batches/{batch_id}",
      summary: "A batch: its status, counts and amounts",
      pathParams: BATCH_ID,
      responses: ok("The batch.", Batch),
      errors: [NOT_FOUND],
    },
    listBatchItems: {
      route: "GET /batches/{batch_id}/items",
      summary: "The per-item report of a batch",
      description:
        "One entry per item, in row order: its status, the refusal (code, field, message) of an INVALID item, the verified holder name and the name match, the transaction and the quoted amounts.",
      pathParams: BATCH_ID,
      query: BatchItemsQuery,
      responses: ok("A page of items.", BatchItemList),
      errors: [...LIST_CASES, NOT_FOUND],
    },
    putBatchItems: {
      route: "PUT /batches/{batch_id}/items",
      summary: "Add items, or replace those with the same item_ref",
      description: `Before funding only. The changed items are validated again (the batch goes back to VALIDATING). Up to ${MAX_ITEMS_PER_REQUEST} items a request.`,
      pathParams: BATCH_ID,
      body: PutBatchItemsRequest,
      responses: ok("The batch after the change.", Batch),
      errors: [
        ...ITEM_SHAPE_CASES,
        NOT_FOUND,
        ["BATCH_NOT_EDITABLE", "the batch is funded, cancelled or expired"],
      ],
    },
    removeBatchItem: {
      route: "DELETE /batches/{batch_id}/items/{item_ref}",
      summary: "Remove an item",
      description: "Before funding only; its PENDING transaction expires.",
      pathParams: ITEM_ID,
      responses: ok("The batch after the change.", Batch),
      errors: [NOT_FOUND, ["BATCH_NOT_EDITABLE", "the batch is funded, cancelled or expired"]],
    },
    approveBatch: {
      route: "POST /batches/{batch_id}/approve",
      summary: "Approve a validated batch (funds it at the last approval)",
      description:
        "The approver is the calling credential (`client_id`). With `required_approvals` 1 this funds the batch: the sum of its valid items' `total_usd` moves from your balance to the batch's reservation in one step, or nothing moves (409 `INSUFFICIENT_FUNDS` with `shortfall_usd`). With 2, the first approval moves it to AWAITING_APPROVAL and a different credential's approval funds it.",
      pathParams: BATCH_ID,
      responses: ok("The batch after the approval.", Batch),
      errors: [
        NOT_FOUND,
        [
          "BATCH_NOT_VALIDATED",
          "the batch is not VALIDATED (or AWAITING_APPROVAL): still validating, or already funded",
        ],
        ["BATCH_EXPIRED", "a quote of the batch expired before approval"],
        ["BATCH_ALREADY_APPROVED_BY", "this credential already approved; the second approval needs another"],
        ["INSUFFICIENT_FUNDS", "the balance lacks `shortfall_usd` of the batch's `total_usd`; nothing moved"],
      ],
    },
    cancelBatch: {
      route: "POST /batches/{batch_id}/cancel",
      summary: "Cancel a batch before funding",
      description:
        "Its items' PENDING transactions expire. The body is optional; a `reason` is kept on the batch's `cancel_reason` after `cancelled by the partner: `.",
      pathParams: BATCH_ID,
      body: CancelBatchRequest,
      responses: ok("The cancelled batch.", Batch),
      errors: [
        ["INVALID_FIELD", `\`reason\` is not 1–${MAX_CANCEL_REASON} characters or holds a control character`],
        NOT_FOUND,
        ["BATCH_NOT_EDITABLE", "the batch is funded, already cancelled or expired"],
      ],
    },
    retryFailedBatchItems: {
      route: "POST /batches/{batch_id}/retry-failed",
      summary: "A new batch of the FAILED and EXCLUDED items (idempotent)",
      description:
        "For a COMPLETED batch: creates a child batch (`parent_batch_id`) holding exactly its FAILED and EXCLUDED items, validated afresh; a paid item never is. Idempotent with `X-Idempotency-Key` like `createBatch`.",
      pathParams: BATCH_ID,
      parameters: [parameterRef("idempotencyKey")],
      responses: {
        202: { description: "The child batch, being validated.", schema: BatchCreated, headers: REPLAYED },
      },
      errors: [
        ...IDEMPOTENCY_CASES,
        NOT_FOUND,
        ["BATCH_NOT_RETRYABLE", "the batch is not COMPLETED, or has no FAILED or EXCLUDED item"],
        ...IDEMPOTENCY_OUTCOMES,
      ],
      errorOptions: { headers: IDEMPOTENCY_HEADERS },
    },
    getBatchResults: {
      route: "GET /batches/{batch_id}/results.csv",
      summary: "The batch report as CSV",
      description: `RFC 4180 (CRLF, a header row), one row per item in row order, streamed. Columns: ${RESULT_COLUMNS.map((c) => `\`${c}\``).join(", ")}. An empty cell is null.`,
      pathParams: BATCH_ID,
      responses: {
        200: {
          description: "The report.",
          mediaType: "text/csv",
          schema: Type.String({ description: "CSV with a header row." }),
        },
      },
      errors: [NOT_FOUND],
    },
  },
);
export const {
  createBatch,
  uploadBatch,
  listBatches,
  getBatch,
  listBatchItems,
  putBatchItems,
  removeBatchItem,
  approveBatch,
  cancelBatch,
  retryFailedBatchItems,
  getBatchResults,
} = operations;
export const BATCH_OPERATIONS = Object.values(operations);
