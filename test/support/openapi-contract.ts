import {
  createOpenApiValidator,
  documentedSchema,
} from "@payouts/gateway/internal/openapi/openapi-validator";
import { expect } from "vitest";
import type { ApiResponse } from "./call-json.js";

// biome-ignore lint/suspicious/noExplicitAny: the contract walks a JSON document
type Json = Record<string, any>;

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/**
 * The contract between a listener and its OpenAPI document: every answer a test sees must be documented
 * for its route and status, with a body valid against the documented schema (closed: a field the route
 * sends but the document forgets fails), and the statuses seen are recorded so a test can require that
 * every documented status of every route was seen at least once.
 */
export class OpenApiContract {
  private readonly validator: ReturnType<typeof createOpenApiValidator>;
  private readonly seen = new Set<string>();

  constructor(readonly doc: Json) {
    this.validator = createOpenApiValidator(doc, { closed: true });
  }

  /** `METHOD /template` of every documented operation, sorted. */
  routes(): string[] {
    return Object.entries(this.doc.paths as Json)
      .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
  }

  /** `METHOD /template STATUS` of every documented response. */
  documentedStatuses(): string[] {
    return this.routes().flatMap((route) => {
      const [method = "", path = ""] = route.split(" ");
      return Object.keys(this.doc.paths[path][method.toLowerCase()].responses).map((s) => `${route} ${s}`);
    });
  }

  /** Fails unless `res` is documented for `method template` and its status; records the status as seen. */
  check(method: string, template: string, res: ApiResponse): ApiResponse {
    const where = `${method} ${template} → ${res.status} ${res.text.slice(0, 300)}`;
    const operation = this.doc.paths[template]?.[method.toLowerCase()];
    expect(operation, where).toBeDefined();
    const responses = operation.responses;
    expect(Object.keys(responses), where).toContain(String(res.status));
    expect(res.headers.get("x-request-id"), where).toBeTruthy();
    this.seen.add(`${method} ${template} ${res.status}`);
    const content = responses[String(res.status)].content;
    if (!content) {
      expect(res.text, where).toBe("");
      return res;
    }
    const [mediaType] = Object.keys(content);
    expect(res.headers.get("content-type") ?? "", where).toContain(mediaType);
    if (mediaType === "application/json") {
      const schema = documentedSchema(this.doc, "paths", template, method.toLowerCase(), String(res.status));
      expect(this.validator.validate(schema, res.json), where).toEqual([]);
    }
    return res;
  }

  /** Documented statuses no checked answer had, except those `exempt` matches. */
  unseen(exempt: (routeStatus: string) => boolean = () => false): string[] {
    return this.documentedStatuses().filter((s) => !this.seen.has(s) && !exempt(s));
  }
}
