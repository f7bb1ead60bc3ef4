import { readFileSync } from "node:fs";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { documentedStatus, isReason } from "@payouts/gateway/internal/http/error-map";
import {
  HTTP_METHODS,
  type JsonSchema,
  type Operation,
} from "@payouts/gateway/internal/openapi/openapi-types";
import { buildOpenApiDocument, openApiDocument } from "@payouts/gateway/openapi";
import { stringifyJson } from "@payouts/platform/money/json-decimal";
import { BatchEventSchema, TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { buildBatchCompletedBody } from "@payouts/webhooks/internal/domain/batch-payload";
import { buildNotificationBody } from "@payouts/webhooks/internal/domain/payload";
import { describe, expect, it } from "vitest";
import { checkOpenApiStructure } from "../support/openapi/openapi-structure.js";
import { createOpenApiValidator } from "../support/openapi/openapi-validator.js";

// biome-ignore lint/suspicious/noExplicitAny: the test walks the served JSON document
type Json = Record<string, any>;

// The served form: JsonDecimal examples become plain JSON numbers.
const doc: Json = JSON.parse(stringifyJson(buildOpenApiDocument("9.9.9")));
const validator = createOpenApiValidator(doc, { closed: true });

interface Found {
  readonly where: string;
  readonly operation: Json;
}

function operations(section: "paths" | "webhooks"): Found[] {
  return Object.entries(doc[section] as Json).flatMap(([key, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((m) => ({
      where: `${section} ${m.toUpperCase()} ${key}`,
      operation: item[m],
    })),
  );
}
const all = [...operations("paths"), ...operations("webhooks")];

/** Every (example, schema) pair of the document: request bodies and responses. */
function examplePairs(): [string, JsonSchema, unknown][] {
  const pairs: [string, JsonSchema, unknown][] = [];
  const collect = (where: string, content: Json | undefined) => {
    for (const [type, media] of Object.entries(content ?? {}) as [string, Json][]) {
      for (const [name, example] of Object.entries((media.examples ?? {}) as Json)) {
        pairs.push([`${where} ${type} ${name}`, media.schema, example.value]);
      }
    }
  };
  for (const { where, operation } of all) {
    collect(`${where} request`, operation.requestBody?.content);
    for (const [status, response] of Object.entries(operation.responses as Json)) {
      collect(`${where} ${status}`, response.content);
    }
  }
  return pairs;
}

describe("the OpenAPI document", () => {
  it("is structurally valid OpenAPI 3.1", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(checkOpenApiStructure(doc)).toEqual([]);
  });

  it("carries the root package.json version", () => {
    const root = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(openApiDocument().info.version).toBe(root.version);
    expect(doc.info.version).toBe("9.9.9");
  });

  it("explains Basic auth, dp, money formatting, idempotency and the error body", () => {
    const text: string = doc.info.description;
    for (const needle of ["Basic", "`dp`", "0.30", "X-Idempotency-Key", '"request_id"', "X-Request-Id"]) {
      expect(text).toContain(needle);
    }
  });

  it("compiles every component schema in Ajv's strict 2020-12 mode", () => {
    for (const name of Object.keys(doc.components.schemas)) {
      expect(validator.validate({ $ref: `#/components/schemas/${name}` }, undefined)).not.toEqual([]);
    }
  });

  it.each(examplePairs())("example %s matches its schema", (_where, schema, value) => {
    expect(validator.validate(schema, value)).toEqual([]);
  });

  it("has examples for at least the main success responses", () => {
    const withExamples = new Set(examplePairs().map(([where]) => where.split(" application/json")[0]));
    for (const where of [
      "paths POST /lookupPaymentCode 200",
      "paths POST /previewQuotations 200",
      "paths POST /getQuotation 200",
      "paths POST /executePayout 200",
      "webhooks POST transaction.success request",
      "webhooks POST transaction.refunded request",
      "webhooks POST transaction.failed request",
      "webhooks POST statement.closed request",
      "webhooks POST batch.completed request",
    ]) {
      expect(withExamples, where).toContain(where);
    }
  });

  it("gives every operation a unique id, a tag and a summary", () => {
    for (const { where, operation } of all) {
      expect(operation.operationId, where).toMatch(/^[a-zA-Z]+$/);
      expect((operation as Operation).tags.length, where).toBeGreaterThan(0);
      expect(operation.summary, where).not.toBe("");
    }
  });

  it("documents 401 AUTHENTICATION_REQUIRED, the failed-login 429, 500 and the busy 503 on every authenticated route", () => {
    for (const { where, operation } of operations("paths")) {
      if (operation.security?.length === 0) continue;
      expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(["401", "500"]));
      expect(operation.responses["401"].headers, where).toHaveProperty("WWW-Authenticate");
      expect(operation.responses["401"].description, where).toContain("AUTHENTICATION_REQUIRED");
      expect(operation.responses["429"]?.description, where).toContain("failed authentications");
      expect(operation.responses["429"].headers, where).toHaveProperty("Retry-After");
      expect(operation.responses["503"]?.description, where).toContain("checking as many credentials");
      expect(operation.responses["503"].headers, where).toHaveProperty("Retry-After");
    }
  });

  it("declares X-Request-Id on every response of the API", () => {
    for (const { where, operation } of operations("paths")) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        expect(response.headers, `${where} ${status}`).toHaveProperty("X-Request-Id");
      }
    }
  });

  // Statuses overridden on purpose: the JSON edge's 413 and 415, and CUSTOMER_NOT_FOUND on the customer
  // route, where the customer is the resource asked for (404; a customer named in a body is a 400).
  const overridesStatus = (where: string, status: string, code: string) =>
    status === "413" ||
    status === "415" ||
    (code === "CUSTOMER_NOT_FOUND" && status === "404" && where === "paths GET /customers/{customer_id}");

  it("pins each error response's codes to the ones its description lists, at the right status", () => {
    for (const { where, operation } of operations("paths")) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (Number(status) < 400) continue;
        const codes: string[] = response.content["application/json"].schema.allOf[1].properties.code.enum;
        expect(codes.length, `${where} ${status}`).toBeGreaterThan(0);
        for (const code of codes) {
          expect(response.description, `${where} ${status}`).toContain(`\`${code}\``);
          if (!overridesStatus(where, status, code))
            expect(documentedStatus(code), `${where} ${code}`).toBe(Number(status));
        }
      }
    }
  });

  it("documents only declared reasons, each with the status of the one table", () => {
    for (const { where, operation } of all) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (Number(status) < 400) continue;
        const codes: string[] =
          response.content?.["application/json"]?.schema.allOf?.[1]?.properties.code.enum ?? [];
        for (const code of codes) {
          expect(isReason(code), `${where} ${code}`).toBe(true);
        }
      }
    }
  });

  it("types dp as an integer 0–10 defaulting to 2", () => {
    expect(doc.components.parameters.dp.schema).toEqual({
      type: "integer",
      minimum: 0,
      maximum: 10,
      default: 2,
    });
  });

  it("restricts partner_app_id to 1–64 of [a-zA-Z0-9_-]", () => {
    const pattern = new RegExp(
      doc.components.schemas.LookupPaymentCodeRequest.properties.partner_app_id.pattern,
    );
    expect(["a", "app_1-X", "x".repeat(64)].every((v) => pattern.test(v))).toBe(true);
    expect(["", "x".repeat(65), "a b", "é"].some((v) => pattern.test(v))).toBe(false);
  });

  it("serves money examples with their exact decimals", () => {
    const served = stringifyJson(buildOpenApiDocument("1"));
    expect(served).toContain('"fixed_fee":0.30');
    expect(served).toContain('"exchange_rate":5.4000000000');
    expect(served).toContain('"amount":2630000');
  });

  describe("webhooks", () => {
    const hooks = doc.webhooks as Json;

    it("documents the five notifications with their paths", () => {
      expect(Object.keys(hooks)).toEqual([
        "transaction.success",
        "transaction.refunded",
        "transaction.failed",
        "statement.closed",
        "batch.completed",
      ]);
      expect(hooks["statement.closed"].post.description).toContain("POST {url}/webhooks/statements/closed");
      expect(hooks["batch.completed"].post.description).toContain("POST {url}/webhooks/batches/completed");
      for (const kind of ["success", "refunded", "failed"]) {
        expect(hooks[`transaction.${kind}`].post.description).toContain(
          `POST {url}/webhooks/transactions/${kind}`,
        );
      }
    });

    it.each([
      "transaction.success",
      "transaction.refunded",
      "transaction.failed",
      "statement.closed",
      "batch.completed",
    ])("%s documents both signatures and the event headers", (name) => {
      const headers = (hooks[name].post.parameters as Json[]).map((p) => p.name);
      expect(headers).toEqual(
        expect.arrayContaining([
          "User-Agent",
          "X-SERVICE-Signature",
          "X-SERVICE-Event-Id",
          "X-SERVICE-Event-Type",
          "webhook-id",
          "webhook-timestamp",
          "webhook-signature",
        ]),
      );
      const signature = (hooks[name].post.parameters as Json[]).find((p) => p.name === "X-SERVICE-Signature");
      expect(signature?.description).toMatch(/base64\(HMAC-SHA256/);
      expect(signature?.description).toContain("4AbbxHPz7+vXZISqBbGriE6Hzq68N7u+32S+UgGqcww=");
    });

    it("documents the receiver answers: {} for success, {received, message} for refunds", () => {
      const answer = (name: string) => hooks[name].post.responses["200"].content["application/json"];
      expect(validator.validate(answer("transaction.success").schema, {})).toEqual([]);
      expect(validator.validate(answer("transaction.success").schema, { ok: true })).not.toEqual([]);
      expect(answer("transaction.refunded").examples.received.value).toEqual({
        received: true,
        message: "ok",
      });
    });

    it("accepts the bodies the dispatcher builds: a batch item's outcome and batch.completed", () => {
      const schemaOf = (name: string) => hooks[name].post.requestBody.content["application/json"].schema;
      const occurredAt = timestampFromDate(new Date("2026-11-28T12:00:00.000Z"));
      const item = create(TransactionEventSchema, {
        eventId: "evt_item",
        eventType: "transaction.failed",
        occurredAt,
        txId: "tx_item",
        batchId: "bat_1",
        itemRef: "payroll-7",
        amount: "54",
        fee: "0.45",
        percentageFee: "0.15",
        fixedFee: "0.3",
        failureReason: "sandbox: destination account is closed",
      });
      const itemBody = JSON.parse(buildNotificationBody(item, { dp: 2, amountDp: 2 }).toString("utf8"));
      expect(itemBody).toMatchObject({ batch_id: "bat_1", item_ref: "payroll-7" });
      expect(validator.validate(schemaOf("transaction.failed"), itemBody)).toEqual([]);

      const batch = create(BatchEventSchema, {
        eventId: "evt_batch",
        eventType: "batch.completed",
        occurredAt,
        batchId: "bat_1",
        partnerId: "ptr_1",
        status: "COMPLETED",
        total: 3,
        succeeded: 1,
        failed: 1,
        invalid: 1,
        paidUsd: "10.45",
        releasedUsd: "10.45",
      });
      const batchBody = JSON.parse(buildBatchCompletedBody(batch).toString("utf8"));
      expect(batchBody.parent_batch_id).toBeNull();
      expect(validator.validate(schemaOf("batch.completed"), batchBody)).toEqual([]);
      expect(
        validator.validate(schemaOf("batch.completed"), { ...batchBody, counts: { total: 3 } }),
      ).not.toEqual([]);
    });

    it("refuses a body whose status does not match the event", () => {
      const schema = hooks["transaction.refunded"].post.requestBody.content["application/json"].schema;
      const body = {
        tx_id: "tx_1",
        status: "SUCCESS",
        event_id: "evt_1",
        event_type: "transaction.refunded",
        occurred_at: "2026-01-01T00:00:00.000Z",
      };
      expect(validator.validate(schema, body)).not.toEqual([]);
      expect(validator.validate(schema, { ...body, status: "REFUNDED" })).toEqual([]);
    });
  });
});
