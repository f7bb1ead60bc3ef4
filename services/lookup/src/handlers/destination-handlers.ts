import type { ServiceImpl } from "@connectrpc/connect";
import { Dec, parseDecimal } from "@payouts/platform/money/decimal";
import { requirePartnerId } from "@payouts/platform/rpc/rejection";
import type { LookupService, ResolveDestinationRequest } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import { listBanks } from "../domain/banks.js";
import { CORRIDORS, findCorridor } from "../domain/corridors.js";
import { senderOf } from "../domain/customers/customer.js";
import { applyNameEnquiry } from "../domain/name-enquiry.js";
import { decodeQr } from "../domain/qr/decode-qr.js";
import type { ValidatedDestination } from "../domain/types.js";
import { type LookupRequestInput, validateLookupRequest } from "../domain/validate-lookup-request.js";
import { rejection, valueOrReject } from "../reasons.js";
import { requireCustomer } from "./customer-handlers.js";
import { destinationMessage } from "./destination-message.js";
import type { LookupHandlerDeps } from "./lookup-handler-deps.js";
import { requireText } from "./request-text.js";

type DestinationHandlers = Pick<
  ServiceImpl<typeof LookupService>,
  "resolveDestination" | "decodeQr" | "listBanks"
>;

const COUNTRIES = CORRIDORS.map((corridor) => corridor.country_code).join(", ");

export function createDestinationHandlers(deps: LookupHandlerDeps): DestinationHandlers {
  return {
    /** The request checks in the domain's order (validateLookupRequest), then the customer, then name enquiry. */
    async resolveDestination(request) {
      const partnerId = requirePartnerId(request.partnerId);
      const validated = valueOrReject(validateLookupRequest(lookupInputOf(request)));
      const customer = await requireCustomer(deps, partnerId, request.customerId);
      const holder = await deps.nameEnquiry.resolve(validated);
      if (!holder.found) throw unknownDestination(validated, destinationField(request));
      const named = applyNameEnquiry(validated, holder);
      return { destination: destinationMessage(named, { sender: senderOf(customer), source: "lookup" }) };
    },

    /**
     * customer_id and qr_string present, amount well-formed, the QR decoded (INVALID_QR), the partner's
     * amount consistent with one the QR fixes, then the customer. The QR names its merchant itself, so there
     * is no name enquiry.
     */
    async decodeQr(request) {
      const partnerId = requirePartnerId(request.partnerId);
      requireText(request.customerId, "customer_id");
      const payload = requireText(request.qrString, "qr_string");
      const amount = optionalAmount(request.amount);
      const decoded = valueOrReject(decodeQr(payload));
      checkQrAmount(decoded.destination, amount);
      const customer = await requireCustomer(deps, partnerId, request.customerId);
      const destination = destinationMessage(decoded.destination, {
        sender: senderOf(customer),
        source: "decode_qr",
        qrPayload: decoded.details.payload,
      });
      return { destination };
    },

    async listBanks(request) {
      const code = requireText(request.countryCode, "country_code");
      if (!/^[A-Za-z]{2}$/.test(code)) {
        throw rejection({
          code: "INVALID_FIELD",
          message: "country_code is an ISO 3166 alpha-2 code, e.g. NG",
          field: "country_code",
        });
      }
      const banks = listBanks(code);
      if (banks === undefined) {
        throw rejection({
          code: "UNSUPPORTED_COUNTRY",
          message: `No payouts to ${code.toUpperCase()}: supported are ${COUNTRIES}`,
          field: "country_code",
        });
      }
      return { banks };
    },
  };
}

function lookupInputOf(request: ResolveDestinationRequest): LookupRequestInput {
  const recipient =
    request.hasRecipient || request.recipient !== undefined
      ? {
          name_first: request.recipient?.nameFirst,
          name_last: request.recipient?.nameLast,
          ic_number: request.recipient?.icNumber,
        }
      : undefined;
  return {
    customer_id: request.customerId,
    country_code: request.countryCode,
    payment_method: request.paymentMethod,
    payment_destination: request.paymentDestination,
    payment_destination_code: request.paymentDestinationCode,
    account_type: request.accountType,
    recipient,
    merchant_id: request.merchantId,
    account_reference: request.accountReference,
    currency: request.currency,
  };
}

/** The request field that carried the destination: merchant_id on the merchant contract. */
function destinationField(request: ResolveDestinationRequest): "merchant_id" | "payment_destination" {
  const takesMerchant = findCorridor(request.countryCode.trim())?.contracts.includes("merchant") ?? false;
  return takesMerchant && request.merchantId.trim() !== "" ? "merchant_id" : "payment_destination";
}

function unknownDestination(d: ValidatedDestination, field: string) {
  return rejection({
    code: "UNKNOWN_DESTINATION",
    message: `No account holder found for ${d.payment_destination} (${d.destination_type}, ${d.country_code}): check the destination with the recipient`,
    field,
  });
}

/** The partner's amount: "" or "0" for none, else a decimal greater than 0. */
function optionalAmount(text: string): Dec | undefined {
  if (text.trim() === "") return undefined;
  const amount = parseDecimal(text.trim());
  if (amount === undefined || amount.isNegative()) {
    throw rejection({
      code: "INVALID_AMOUNT",
      message: "amount must be a number of at least 0",
      field: "amount",
    });
  }
  return amount.isZero() ? undefined : amount;
}

/** A QR that fixes its amount (tag 54) is paid that amount; the partner may repeat it but not change it. */
function checkQrAmount(destination: ValidatedDestination, amount: Dec | undefined): void {
  if (amount === undefined || destination.amount === "") return;
  if (new Dec(destination.amount).eq(amount)) return;
  throw rejection({
    code: "INVALID_AMOUNT",
    message: `This QR fixes the amount at ${destination.amount} ${destination.currency}; send that amount or none`,
    field: "amount",
  });
}
