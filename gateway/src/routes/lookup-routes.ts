import { ConnectError } from "@connectrpc/connect";
import { type Dec, parseDecimal, toDecimalString } from "@payouts/platform/money/decimal";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { Destination, Quote } from "@payouts/proto/payouts/common/v1/common_pb";
import type { Customer, Recipient } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { partnerOf } from "../auth/partner-auth.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError, invalidField } from "../http/api-error.js";
import { BodyReader } from "../http/body-reader.js";
import { readDp } from "../http/dp-param.js";
import { httpStatusFor, isReason } from "../http/error-map.js";
import { renderLookupResult } from "../http/render-lookup-result.js";
import { replyJson } from "../http/reply-json.js";

/**
 * `POST /lookupPaymentCode`, `POST /decodeQr`, `GET /listBanks`, `POST /customers`, `GET /customers/{id}`.
 *
 * The gateway checks the JSON shape, in this order: `dp`, `sender` (SENDER_NOT_ACCEPTED: the sender comes
 * from the customer), field types (INVALID_FIELD), `partner_app_id`, `amount` (INVALID_FIELD when not a
 * number, INVALID_AMOUNT when negative). The lookup service then applies the destination rules and the
 * customer check; pricing prices a positive amount; the ledger creates the PENDING transaction last, so a
 * refused request leaves nothing behind.
 */
export function registerLookupRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.post("/lookupPaymentCode", async (request, reply) => {
    const dp = readDp(request.query);
    const body = readLookupBody(request.body);
    const partnerId = partnerOf(request).partnerId;
    const resolved = await renamingField(
      deps.clients.lookup.resolveDestination({ partnerId, ...body.lookup }),
      body.destinationField,
    );
    const outcome = await createPending(deps, partnerId, body.refs, resolved.destination, body.amount);
    return replyJson(reply, 200, renderLookupResult({ ...outcome, dp }));
  });

  app.post("/decodeQr", async (request, reply) => {
    const dp = readDp(request.query);
    const body = readDecodeQrBody(request.body);
    const partnerId = partnerOf(request).partnerId;
    const decoded = await deps.clients.lookup.decodeQr({
      partnerId,
      customerId: body.refs.customerId,
      qrString: body.qrString,
      amount: body.amount === undefined ? "" : toDecimalString(body.amount),
    });
    const qrAmount = decoded.destination?.amount ? parseDecimal(decoded.destination.amount) : undefined;
    const amount = body.amount ?? qrAmount;
    const outcome = await createPending(deps, partnerId, body.refs, decoded.destination, amount);
    return replyJson(reply, 200, renderLookupResult({ ...outcome, dp }));
  });

  app.get("/listBanks", async (request, reply) => {
    const countryCode = singleQueryValue(request, "country_code");
    const res = await deps.clients.lookup.listBanks({ countryCode });
    const banks = res.banks.map(({ code, name, type }) => ({ code, name, type }));
    return replyJson(reply, 200, { banks });
  });

  app.post("/customers", async (request, reply) => {
    const body = new BodyReader(request.body);
    const res = await deps.clients.lookup.createCustomer({
      partnerId: partnerOf(request).partnerId,
      customer: {
        nameFirst: text(body, "name_first", 200),
        nameLast: text(body, "name_last", 200),
        country: text(body, "country", 8),
        icNumber: text(body, "ic_number", 100),
        icType: text(body, "ic_type", 50),
        phone: text(body, "phone", 50),
        email: text(body, "email", 320),
        externalReference: text(body, "external_reference", 200),
      },
    });
    return replyJson(reply, 201, renderCustomer(res.customer));
  });

  app.get<{ Params: { customer_id: string } }>("/customers/:customer_id", async (request, reply) => {
    const res = await deps.clients.lookup.getCustomer({
      partnerId: partnerOf(request).partnerId,
      customerId: request.params.customer_id,
    });
    return replyJson(reply, 200, renderCustomer(res.customer));
  });
}

/** Partner references stored with the transaction. */
interface PartnerRefs {
  readonly customerId: string;
  readonly partnerTransactionId: string;
  readonly partnerAppId: string;
  readonly walletIdentifier: string;
}

interface LookupBody {
  readonly lookup: {
    customerId: string;
    countryCode: string;
    paymentMethod: string;
    paymentDestination: string;
    paymentDestinationCode: string;
    accountType: string;
    merchantId: string;
    accountReference: string;
    currency: string;
    hasRecipient: boolean;
    recipient?: Partial<Pick<Recipient, "nameFirst" | "nameLast" | "icNumber">>;
  };
  /** The body field that carried the typed destination: the legacy alias when only it was sent. */
  readonly destinationField: "payment_destination" | "qr_string";
  readonly amount: Dec | undefined;
  readonly refs: PartnerRefs;
}

// Generous caps: formats are the lookup service's business; these only keep junk out of the services.
const DESTINATION_MAX = 1024;
const FIELD_MAX = 128;

function readLookupBody(raw: unknown): LookupBody {
  const body = new BodyReader(raw);
  refuseSender(body);
  const typed = text(body, "payment_destination", DESTINATION_MAX);
  const legacy = text(body, "qr_string", DESTINATION_MAX);
  // Seed: qr_string is the legacy alias of payment_destination; when both are sent, payment_destination wins.
  const destinationField = typed.trim() === "" && legacy.trim() !== "" ? "qr_string" : "payment_destination";
  const recipient = body.object("recipient");
  const lookup = {
    customerId: text(body, "customer_id", FIELD_MAX),
    countryCode: text(body, "country_code", FIELD_MAX),
    paymentMethod: text(body, "payment_method", FIELD_MAX),
    paymentDestination: destinationField === "qr_string" ? legacy : typed,
    paymentDestinationCode: text(body, "payment_destination_code", FIELD_MAX),
    accountType: text(body, "account_type", FIELD_MAX),
    merchantId: text(body, "merchant_id", DESTINATION_MAX),
    accountReference: text(body, "account_reference", FIELD_MAX),
    currency: text(body, "currency", FIELD_MAX),
    hasRecipient: recipient !== undefined,
    ...(recipient === undefined ? {} : { recipient: readRecipient(recipient) }),
  };
  const refs = readRefs(body, lookup.customerId);
  return { lookup, destinationField, refs, amount: readAmount(body) };
}

function readDecodeQrBody(raw: unknown): { qrString: string; amount: Dec | undefined; refs: PartnerRefs } {
  const body = new BodyReader(raw);
  refuseSender(body);
  const qrString = text(body, "qr_string", DESTINATION_MAX);
  const refs = readRefs(body, text(body, "customer_id", FIELD_MAX));
  return { qrString, refs, amount: readAmount(body) };
}

function readRecipient(recipient: BodyReader) {
  const field = (name: string) => {
    try {
      return text(recipient, name, FIELD_MAX);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new ApiError(error.status, error.code, `recipient.${error.message}`, `recipient.${name}`);
    }
  };
  return { nameFirst: field("name_first"), nameLast: field("name_last"), icNumber: field("ic_number") };
}

function readRefs(body: BodyReader, customerId: string): PartnerRefs {
  return {
    customerId: customerId.trim(),
    partnerTransactionId: text(body, "partner_transaction_id", FIELD_MAX),
    partnerAppId: readPartnerAppId(body),
    walletIdentifier: text(body, "wallet_identifier", FIELD_MAX),
  };
}

/** Seed rule 7: the sender always comes from the registered customer. */
function refuseSender(body: BodyReader): void {
  if (!body.has("sender")) return;
  throw new ApiError(
    400,
    "SENDER_NOT_ACCEPTED",
    "sender is not accepted: the sender is the registered customer named by customer_id",
    "sender",
  );
}

/** An optional string field ("" when absent), INVALID_FIELD when it is not a string or too long. */
function text(body: BodyReader, field: string, max: number): string {
  return body.string(field, { max }) ?? "";
}

const PARTNER_APP_ID = /^[A-Za-z0-9_-]{1,64}$/;

function readPartnerAppId(body: BodyReader): string {
  const value = body.raw("partner_app_id");
  if (value === undefined || value === null) return "";
  if (typeof value !== "string" || !PARTNER_APP_ID.test(value)) {
    throw invalidField("partner_app_id", "has 1 to 64 characters from a-z, A-Z, 0-9, _ and -");
  }
  return value;
}

/** The local amount: absent or 0 means none yet; a negative amount is INVALID_AMOUNT. */
function readAmount(body: BodyReader): Dec | undefined {
  const textValue = body.decimalText("amount");
  if (textValue === undefined) return undefined;
  const amount = parseDecimal(textValue);
  if (amount === undefined) throw invalidField("amount", "must be a number");
  if (amount.isNegative()) {
    throw new ApiError(400, "INVALID_AMOUNT", "amount must be at least 0", "amount");
  }
  return amount.isZero() ? undefined : amount;
}

/**
 * The transaction comes last: pricing refuses an amount out of range before anything is written, and the
 * ledger's CreateTransaction is the one write of the request.
 */
async function createPending(
  deps: GatewayDeps,
  partnerId: string,
  refs: PartnerRefs,
  destination: Destination | undefined,
  amount: Dec | undefined,
) {
  if (destination === undefined) throw new Error("lookup answered without a destination");
  const quote = amount === undefined ? undefined : await priceAmount(deps, partnerId, destination, amount);
  const res = await deps.clients.ledger.createTransaction({
    partnerId,
    customerId: refs.customerId,
    destination,
    amount: amount === undefined ? "" : toDecimalString(amount),
    partnerTransactionId: refs.partnerTransactionId,
    partnerAppId: refs.partnerAppId,
    walletIdentifier: refs.walletIdentifier,
    ...(quote === undefined ? {} : { quote }),
  });
  const txId = res.transaction?.txId;
  if (!txId) throw new Error("ledger answered without a transaction");
  return { txId, destination, amount, quote, partnerTransactionId: refs.partnerTransactionId };
}

async function priceAmount(
  deps: GatewayDeps,
  partnerId: string,
  d: Destination,
  amount: Dec,
): Promise<Quote> {
  const res = await deps.clients.pricing.createQuote({
    partnerId,
    countryCode: d.countryCode,
    currency: d.currency,
    amount: toDecimalString(amount),
  });
  if (res.quote === undefined) throw new Error("pricing answered without a quote");
  return res.quote;
}

/**
 * The lookup service names payment_destination; when the partner used the legacy qr_string alias, the error
 * names the field the partner actually sent.
 */
async function renamingField<T>(call: Promise<T>, field: "payment_destination" | "qr_string"): Promise<T> {
  if (field === "payment_destination") return call;
  try {
    return await call;
  } catch (error) {
    const detail = errorDetailOf(error);
    if (
      !(error instanceof ConnectError) ||
      detail?.field !== "payment_destination" ||
      !isReason(detail.reason)
    ) {
      throw error;
    }
    throw new ApiError(
      httpStatusFor(detail.reason, error.code),
      detail.reason,
      error.rawMessage,
      "qr_string",
    );
  }
}

function singleQueryValue(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  if (value === undefined) return "";
  if (typeof value !== "string") throw invalidField(name, "must be given once");
  return value;
}

function renderCustomer(customer: Customer | undefined): Record<string, unknown> {
  if (customer === undefined) throw new Error("lookup answered without a customer");
  const optional = (key: string, value: string) => (value === "" ? {} : { [key]: value });
  return {
    customer_id: customer.customerId,
    name_first: customer.nameFirst,
    name_last: customer.nameLast,
    country: customer.country,
    ...optional("ic_type", customer.icType),
    ...optional("ic_number", customer.icNumber),
    ...optional("phone", customer.phone),
    ...optional("email", customer.email),
    ...optional("external_reference", customer.externalReference),
    created_at: timestampIso(customer.createdAt),
  };
}
