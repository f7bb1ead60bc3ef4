import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/** A raw request: fetch refuses TRACE and may rewrite unusual methods, node:http sends them as given. */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: Record<string, unknown>;
}> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a method or path no route declares", () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  const listeners = () => [
    ["partner", platform.baseUrl, "/balance", "/customers/cus_x"],
    ["admin", platform.adminUrl, "/healthz", "/admin/partners/ptr_x"],
  ];

  it.each(["QUERY", "TRACE", "PROPFIND", "OPTIONS"])(
    "%s on a declared path is 405 with Allow and the error body, without credentials, on both listeners",
    async (method) => {
      for (const [, base, health, resource] of listeners()) {
        for (const path of [health, resource] as string[]) {
          const res = await send(base as string, method, path);
          expect(res.status, `${method} ${base}${path}`).toBe(405);
          expect(res.json.code).toBe("METHOD_NOT_ALLOWED");
          expect(res.json.request_id).toBe(res.headers["x-request-id"]);
          expect(res.headers.allow).toMatch(/\bGET\b/);
        }
      }
    },
  );

  it("names every method the path has in Allow", async () => {
    const res = await send(platform.adminUrl, "QUERY", "/admin/partners/ptr_x");
    expect(String(res.headers.allow).split(", ")).toEqual(expect.arrayContaining(["GET", "PATCH"]));
  });

  it("answers a path parameter over the router's length cap with the documented 400, not 414", async () => {
    const res = await platform.admin("GET", `/admin/partners/${"p".repeat(150)}`);
    expect([res.status, res.json.code], res.text).toEqual([400, "INVALID_FIELD"]);
    expect(res.json.request_id).toBe(res.headers.get("x-request-id"));
  });

  it("answers QUERY with a body on an unknown path 404 NOT_FOUND, not 500", async () => {
    for (const [, base] of listeners()) {
      const res = await send(base as string, "QUERY", "/health?x=1", { "content-type": "text/plain" });
      expect(res.status).toBe(404);
      expect(res.json.code).toBe("NOT_FOUND");
      expect(res.json.message).toBe("no route QUERY /health");
    }
  });
});
