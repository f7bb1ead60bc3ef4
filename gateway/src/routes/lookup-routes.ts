import { ConnectError } from "@connectrpc/connect";
import { type Dec, parseDecimal, toDecimalString } from "@payouts/platform/money/decimal";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { Destination } from "@payouts/proto/payouts/common/v1/common_pb";
import type { Customer } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import { partnerOf } from "../auth/partner-auth.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError, invalidField } from "../http/api-error.js";
import { readDp } from "../http/dp-param.js";
import { httpStatusFor, isReason } from "../http/error-map.js";
import { lookupInputOf, type ReadDestination } from "../http/lookup-input.js";
import { readBody } from "../http/read-body.js";
import { readQuery } from "../http/read-query.js";
import { renderLookupResult } from "../http/render-lookup-result.js";
import { replyJson } from "../http/reply-json.js";
import {
  type Customer as CustomerShape,
  createCustomer,
  getCustomer,
} from "../operations/partner/customer-api.js";
import { type BankList, decodeQr, listBanks, lookupPaymentCode } from "../operations/partner/lookup-api.js";

/**
 * `POST /lookupPaymentCode`, `POST /decodeQr`, `GET /listBanks`, `POST /customers`, `GET /customers/{id}`.
 *
 * The gateway checks `dp`, then the JSON shape in the order of the shapes (`lookup-api.ts`): `sender`
 * (SENDER_NOT_ACCEPTED: the sender comes from the customer), field types and lengths (INVALID_FIELD),
 * `partner_app_id`, `amount` (INVALID_FIELD when not a number, INVALID_AMOUNT when negative). The lookup
 * service then applies the destination rules and the customer check; the ledger creates the PENDING
 * transaction last, having had pricing price a positive amount first, so a refused request leaves nothing
 * behind.
 */
export function registerLookupRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  addRoute(app, lookupPaymentCode, async (request, reply) => {
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

  addRoute(app, decodeQr, async (request, reply) => {
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

  addRoute(app, listBanks, async (request, reply) => {
    const query = readQuery(listBanks.query, request.query);
    const res = await deps.clients.lookup.listBanks({ countryCode: query.country_code ?? "" });
    const list: BankList = {
      banks: res.banks.map(({ code, name, type }) => ({ code, name, type: type as "bank" | "mobile_money" })),
    };
    return replyJson(reply, 200, list);
  });

  addRoute(app, createCustomer, async (request, reply) => {
    const body = readBody(createCustomer.body, request.body);
    const res = await deps.clients.lookup.createCustomer({
      partnerId: partnerOf(request).partnerId,
      customer: {
        nameFirst: body.name_first ?? "",
        nameLast: body.name_last ?? "",
        country: body.country ?? "",
        icNumber: body.ic_number ?? "",
        icType: body.ic_type ?? "",
        phone: body.phone ?? "",
        email: body.email ?? "",
        externalReference: body.external_reference ?? "",
      },
    });
    return replyJson(reply, 201, renderCustomer(res.customer));
  });

  addRoute(app, getCustomer, async (request, reply) => {
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

interface LookupBody extends ReadDestination {
  readonly amount: Dec | undefined;
  readonly refs: PartnerRefs;
}

function readLookupBody(raw: unknown): LookupBody {
  const body = readBody(lookupPaymentCode.body, raw);
  const destination = lookupInputOf(body);
  return {
    ...destination,
    refs: refsOf(body, destination.lookup.customerId),
    amount: amountOf(body.amount),
  };
}

function readDecodeQrBody(raw: unknown): { qrString: string; amount: Dec | undefined; refs: PartnerRefs } {
  const body = readBody(decodeQr.body, raw);
  return {
    qrString: body.qr_string ?? "",
    refs: refsOf(body, body.customer_id ?? ""),
    amount: amountOf(body.amount),
  };
}

function refsOf(
  body: { partner_transaction_id?: string; partner_app_id?: string; wallet_identifier?: string },
  customerId: string,
): PartnerRefs {
  return {
    customerId: customerId.trim(),
    partnerTransactionId: body.partner_transaction_id ?? "",
    partnerAppId: body.partner_app_id ?? "",
    walletIdentifier: body.wallet_identifier ?? "",
  };
}

/** The local amount (read and checked as at least 0 by its shape): absent or 0 means none yet. */
function amountOf(text: string | undefined): Dec | undefined {
  if (text === undefined) return undefined;
  const amount = parseDecimal(text);
  if (amount === undefined) throw invalidField("amount", "must be a number");
  return amount.isZero() ? undefined : amount;
}

/**
 * The transaction comes last and is the one write of the request. The ledger prices a given amount itself
 * (pricing refuses an amount out of range before anything is written) and answers the quote it stored.
 */
async function createPending(
  deps: GatewayDeps,
  partnerId: string,
  refs: PartnerRefs,
  destination: Destination | undefined,
  amount: Dec | undefined,
) {
  if (destination === undefined) throw new Error("lookup answered without a destination");
  const res = await deps.clients.ledger.createTransaction({
    partnerId,
    customerId: refs.customerId,
    destination,
    amount: amount === undefined ? "" : toDecimalString(amount),
    partnerTransactionId: refs.partnerTransactionId,
    partnerAppId: refs.partnerAppId,
    walletIdentifier: refs.walletIdentifier,
  });
  const tx = res.transaction;
  if (!tx?.txId) throw new Error("ledger answered without a transaction");
  if (amount !== undefined && tx.quote === undefined) throw new Error("ledger answered without a quote");
  return {
    txId: tx.txId,
    destination,
    amount,
    quote: tx.quote,
    partnerTransactionId: refs.partnerTransactionId,
  };
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

function renderCustomer(customer: Customer | undefined): CustomerShape {
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
