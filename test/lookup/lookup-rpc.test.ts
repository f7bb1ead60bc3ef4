import { type Client, Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { createSandboxNameEnquiry, type NameEnquiry } from "@payouts/lookup/internal/domain/name-enquiry";
import { createLookupService, LOOKUP_MIGRATIONS } from "@payouts/lookup/lookup-service";
import { SANDBOX_QR_PAYLOADS } from "@payouts/lookup/testdata/sandbox-qr-samples";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { createLogger } from "@payouts/platform/logging/logger";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";

/** The lookup service alone, over a Connect router transport, on a fresh real PostgreSQL database. */
const NOW = new Date("2025-11-20T12:00:00.000Z");
const PARTNER = "ptn_lookup_rpc_a";
const OTHER_PARTNER = "ptn_lookup_rpc_b";

let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let db: ReturnType<typeof createPgDatabase>;
let lookup: Client<typeof LookupService>;
let customerId: string;

function serviceFor(nameEnquiry?: NameEnquiry): Client<typeof LookupService> {
  const module = createLookupService(
    {
      db,
      bus: createInProcessEventBus(),
      logger: createLogger({ service: "lookup-test", level: "silent" }),
      transports: {},
      env: {},
      mode: "distributed",
      now: () => NOW,
    },
    nameEnquiry === undefined ? {} : { nameEnquiry },
  );
  return createClient(
    LookupService,
    createRouterTransport((router) => module.routes(router)),
  );
}

async function rejectionOf(
  call: Promise<unknown>,
): Promise<{ reason: string | undefined; field: string | undefined; code: Code }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectError);
  const detail = errorDetailOf(error);
  return { reason: detail?.reason, field: detail?.field, code: (error as ConnectError).code };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createPgDatabase({ connectionString: testDb.url, maxConnections: 4 });
  await migrate(db, LOOKUP_MIGRATIONS);
  lookup = serviceFor();
  const created = await lookup.createCustomer({
    partnerId: PARTNER,
    customer: { nameFirst: "Ana", nameLast: "Souza", country: "br", email: "Ana@Example.com" },
  });
  customerId = created.customer?.customerId ?? "";
});

afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

describe("CreateCustomer / GetCustomer", () => {
  it("stores a customer in canonical form with a cus_ id and the creation time", async () => {
    const res = await lookup.createCustomer({
      partnerId: PARTNER,
      customer: {
        nameFirst: " Chidi ",
        nameLast: "Okeke",
        country: "ng",
        icType: "nin",
        icNumber: "12345678901",
        phone: "+234 803 123 4567",
        externalReference: "crm-7",
      },
    });
    const customer = res.customer;
    expect(customer?.customerId).toMatch(/^cus_[0-9a-z]{26}$/);
    expect(customer).toMatchObject({
      partnerId: PARTNER,
      nameFirst: "Chidi",
      nameLast: "Okeke",
      country: "NG",
      icType: "NIN",
      icNumber: "12345678901",
      phone: "+2348031234567",
      email: "",
      externalReference: "crm-7",
    });
    expect(customer?.createdAt?.seconds).toBe(BigInt(NOW.getTime() / 1000));
    const read = await lookup.getCustomer({ partnerId: PARTNER, customerId: customer?.customerId ?? "" });
    expect(read.customer).toEqual(customer);
  });

  it.each([
    ["no customer at all", undefined, "MISSING_REQUIRED_FIELD", "name_first"],
    ["a bad country", { nameFirst: "A", nameLast: "B", country: "XX" }, "INVALID_FIELD", "country"],
    ["a bad e-mail", { nameFirst: "A", nameLast: "B", country: "AR", email: "a@" }, "INVALID_FIELD", "email"],
    ["a bad phone", { nameFirst: "A", nameLast: "B", country: "AR", phone: "12" }, "INVALID_FIELD", "phone"],
  ] as const)("refuses %s with InvalidArgument", async (_name, customer, reason, field) => {
    const rejected = await rejectionOf(lookup.createCustomer({ partnerId: PARTNER, customer }));
    expect(rejected).toEqual({ reason, field, code: Code.InvalidArgument });
  });

  it("answers another partner's customer as not found", async () => {
    const rejected = await rejectionOf(lookup.getCustomer({ partnerId: OTHER_PARTNER, customerId }));
    expect(rejected).toEqual({ reason: "CUSTOMER_NOT_FOUND", field: "customer_id", code: Code.NotFound });
  });

  it("refuses a blank customer_id and a missing partner", async () => {
    expect(await rejectionOf(lookup.getCustomer({ partnerId: PARTNER, customerId: " " }))).toMatchObject({
      reason: "MISSING_REQUIRED_FIELD",
      field: "customer_id",
    });
    expect(await rejectionOf(lookup.getCustomer({ partnerId: "", customerId }))).toMatchObject({
      reason: "INVALID_FIELD",
      field: "partner_id",
    });
  });
});

describe("ResolveDestination", () => {
  it("validates, names the holder and copies the sender from the customer", async () => {
    const res = await lookup.resolveDestination({
      partnerId: PARTNER,
      customerId,
      countryCode: "br",
      paymentMethod: "payment_key",
      paymentDestination: "529.982.247-25",
      paymentDestinationCode: "pix",
    });
    const d = res.destination;
    expect(d).toMatchObject({
      countryCode: "BR",
      currency: "BRL",
      paymentMethod: "payment_key",
      destinationType: "PIX_CPF",
      paymentDestination: "52998224725",
      paymentDestinationCode: "PIX",
      isBusiness: false,
      source: "lookup",
      amount: "",
      qrPayload: "",
    });
    expect(d?.sender).toEqual({
      name_first: "Ana",
      name_last: "Souza",
      country: "BR",
      email: "ana@example.com",
    });
    expect(d?.recipient?.account_no).toBe("52998224725");
    expect(typeof d?.recipient?.name_first).toBe("string");
    expect(d?.recipient?.name).toBe(`${d?.recipient?.name_first} ${d?.recipient?.name_last}`);
  });

  it("fills merchant fields for a KE till and drops empty recipient names", async () => {
    const res = await lookup.resolveDestination({
      partnerId: PARTNER,
      customerId,
      countryCode: "KE",
      merchantId: "123456",
    });
    const d = res.destination;
    expect(d).toMatchObject({
      destinationType: "TILL",
      paymentType: "till",
      isDynamic: true,
      isBusiness: true,
    });
    expect(d?.merchantName).not.toBe("");
    expect(d?.merchant).toBe(d?.merchantName);
    expect(d?.merchantInfo).toMatchObject({
      merchantId: "123456",
      displayName: d?.merchantName,
      countryCode: "KE",
      paymentType: "till",
      lipaNumber: "123456",
    });
    expect(d?.recipient).not.toHaveProperty("name_first");
  });

  it("reports a validation error before looking at the customer", async () => {
    const rejected = await rejectionOf(
      lookup.resolveDestination({
        partnerId: PARTNER,
        customerId: "cus_does_not_exist",
        countryCode: "AR",
        paymentMethod: "payment_key",
        paymentDestination: "+5491123456789",
      }),
    );
    expect(rejected).toEqual({
      reason: "INVALID_DESTINATION",
      field: "payment_destination",
      code: Code.InvalidArgument,
    });
  });

  it("refuses an unknown customer and another partner's customer with NotFound", async () => {
    const request = {
      countryCode: "PE",
      paymentMethod: "ewallet",
      paymentDestination: "912345678",
      paymentDestinationCode: "YAPE",
    };
    for (const [partnerId, id] of [
      [PARTNER, "cus_does_not_exist"],
      [OTHER_PARTNER, customerId],
    ] as const) {
      const rejected = await rejectionOf(
        lookup.resolveDestination({ ...request, partnerId, customerId: id }),
      );
      expect(rejected).toEqual({
        reason: "CUSTOMER_NOT_FOUND",
        field: "customer_id",
        code: Code.InvalidArgument,
      });
    }
  });

  it("answers UNKNOWN_DESTINATION for a sandbox not-found destination, naming the field that carried it", async () => {
    const typed = await rejectionOf(
      lookup.resolveDestination({
        partnerId: PARTNER,
        customerId,
        countryCode: "AR",
        paymentMethod: "payment_key",
        paymentDestination: "sandbox.notfound",
      }),
    );
    expect(typed).toEqual({
      reason: "UNKNOWN_DESTINATION",
      field: "payment_destination",
      code: Code.InvalidArgument,
    });
    const merchant = await rejectionOf(
      lookup.resolveDestination({ partnerId: PARTNER, customerId, countryCode: "TZ", merchantId: "000000" }),
    );
    expect(merchant).toMatchObject({ reason: "UNKNOWN_DESTINATION", field: "merchant_id" });
  });

  it("uses the NameEnquiry given to the factory instead of the sandbox", async () => {
    const calls: string[] = [];
    const provider: NameEnquiry = {
      resolve: async (destination) => {
        calls.push(destination.payment_destination);
        return { found: true, name_first: "Maria", name_last: "Quispe", name: "Maria Quispe" };
      },
    };
    const res = await serviceFor(provider).resolveDestination({
      partnerId: PARTNER,
      customerId,
      countryCode: "PE",
      paymentMethod: "ewallet",
      paymentDestination: "900000000",
      paymentDestinationCode: "PLIN",
    });
    expect(calls).toEqual(["+51900000000"]);
    expect(res.destination?.recipient).toMatchObject({ name: "Maria Quispe", name_first: "Maria" });
    // The same destination is a sandbox not-found value: the provider, not the sandbox, answered.
    expect(
      await createSandboxNameEnquiry().resolve({
        country_code: "PE",
        payment_destination: "+51900000000",
      } as never),
    ).toEqual({
      found: false,
    });
  });
});

describe("DecodeQr", () => {
  it.each([
    ["PIX", "BR", "PIX_EVP", "150.00", false],
    ["VIETQR", "VN", "VN_ACCOUNT", "150000", true],
    ["AR_INTEROPERABLE", "AR", "EMV_QR", "", false],
    ["KE_QR", "KE", "TILL", "", false],
    ["TANQR", "TZ", "TILL", "", false],
  ] as const)("decodes the sandbox %s sample", async (scheme, country, type, amount, dynamic) => {
    const payload = SANDBOX_QR_PAYLOADS[scheme];
    const res = await lookup.decodeQr({ partnerId: PARTNER, customerId, qrString: `${payload}\n` });
    expect(res.destination).toMatchObject({
      countryCode: country,
      destinationType: type,
      amount,
      isDynamic: dynamic,
      source: "decode_qr",
      qrPayload: payload,
    });
    expect(res.destination?.sender).toMatchObject({ name_first: "Ana", name_last: "Souza" });
  });

  it("accepts the QR's own amount from the partner and refuses a different one", async () => {
    const qrString = SANDBOX_QR_PAYLOADS.PIX;
    const same = await lookup.decodeQr({ partnerId: PARTNER, customerId, qrString, amount: "150" });
    expect(same.destination?.amount).toBe("150.00");
    const rejected = await rejectionOf(
      lookup.decodeQr({ partnerId: PARTNER, customerId, qrString, amount: "99.5" }),
    );
    expect(rejected).toEqual({ reason: "INVALID_AMOUNT", field: "amount", code: Code.InvalidArgument });
  });

  it.each([
    ["a bad CRC", { qrString: `${SANDBOX_QR_PAYLOADS.PIX.slice(0, -4)}0000` }, "INVALID_QR", "qr_string"],
    ["a typed destination", { qrString: "52998224725" }, "INVALID_QR", "qr_string"],
    ["no qr_string", { qrString: "" }, "MISSING_REQUIRED_FIELD", "qr_string"],
    ["no customer_id", { customerId: "" }, "MISSING_REQUIRED_FIELD", "customer_id"],
    ["a negative amount", { amount: "-1" }, "INVALID_AMOUNT", "amount"],
    ["an unknown customer", { customerId: "cus_nobody" }, "CUSTOMER_NOT_FOUND", "customer_id"],
  ] as const)("refuses %s", async (_name, change, reason, field) => {
    const request = { partnerId: PARTNER, customerId, qrString: SANDBOX_QR_PAYLOADS.KE_QR, ...change };
    expect(await rejectionOf(lookup.decodeQr(request))).toMatchObject({ reason, field });
  });
});

describe("ListBanks", () => {
  it("lists institutions with their type", async () => {
    const res = await lookup.listBanks({ countryCode: "gh" });
    const types = new Set(res.banks.map((bank) => bank.type));
    expect(types).toEqual(new Set(["bank", "mobile_money"]));
    expect(res.banks.find((bank) => bank.code === "MTN")).toMatchObject({ type: "mobile_money" });
    expect((await lookup.listBanks({ countryCode: "AR" })).banks).toEqual([]);
  });

  it.each([
    ["", "MISSING_REQUIRED_FIELD"],
    ["N1", "INVALID_FIELD"],
    ["US", "UNSUPPORTED_COUNTRY"],
  ])("refuses country_code %j with %s", async (countryCode, reason) => {
    expect(await rejectionOf(lookup.listBanks({ countryCode }))).toEqual({
      reason,
      field: "country_code",
      code: Code.InvalidArgument,
    });
  });
});
