import { JsonDecimal } from "@payouts/platform/money/json-decimal";
import { describe, expect, it } from "vitest";
import { esc, markdown, prettyJson, renderDocsPage } from "./docs-page.js";
import { buildOpenApiDocument } from "./openapi-document.js";
import { HTTP_METHODS, type OpenApiDocument } from "./openapi-types.js";

const doc = buildOpenApiDocument("1.2.3");
const page = renderDocsPage(doc);

describe("renderDocsPage", () => {
  it("is a complete HTML page with the title and version", () => {
    expect(page.startsWith("<!doctype html>")).toBe(true);
    expect(page).toContain("<title>Payouts partner API 1.2.3</title>");
  });

  it("has a section for every operation, webhook and schema", () => {
    const operationIds = [...Object.values(doc.paths), ...Object.values(doc.webhooks)].flatMap((item) =>
      HTTP_METHODS.flatMap((method) => item[method]?.operationId ?? []),
    );
    const ids = [
      ...operationIds.map((id) => `op-${id.toLowerCase()}`),
      ...Object.keys(doc.components.schemas).map((name) => `schema-${name}`),
    ];
    expect(ids.length).toBeGreaterThan(40);
    for (const id of ids) expect(page, id).toContain(`id="${id}"`);
  });

  it("links only to anchors of the page and to openapi.json", () => {
    const ids = new Set([...page.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    const hrefs = [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(hrefs.length).toBeGreaterThan(50);
    for (const href of hrefs) {
      if (href === "openapi.json") continue;
      expect(href.startsWith("#") && ids.has(href.slice(1)), href).toBe(true);
    }
  });

  it("loads nothing from elsewhere and runs no script", () => {
    expect(page).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//i);
  });

  it("shows money examples with their exact decimals", () => {
    expect(page).toContain("&quot;fixed_fee&quot;: 0.30");
    expect(page).toContain("&quot;exchange_rate&quot;: 5.4000000000");
  });

  it("escapes text taken from the document", () => {
    const hostile: OpenApiDocument = {
      ...doc,
      info: { ...doc.info, title: "<script>alert(1)</script>", description: "a & b `<b>`" },
    };
    const html = renderDocsPage(hostile);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("a &amp; b <code>&lt;b&gt;</code>");
  });
});

describe("prettyJson", () => {
  it("indents and keeps JsonDecimal digits", () => {
    expect(prettyJson({ fee: new JsonDecimal("0.30"), n: [1, new JsonDecimal("-2.50")], s: "0.30" })).toBe(
      '{\n  "fee": 0.30,\n  "n": [\n    1,\n    -2.50\n  ],\n  "s": "0.30"\n}',
    );
  });
});

describe("markdown", () => {
  it.each([
    ["one paragraph", "<p>one paragraph</p>"],
    ["a\n\nb", "<p>a</p><p>b</p>"],
    ["- `x`: one\n- **two**", "<ul><li><code>x</code>: one</li><li><strong>two</strong></li></ul>"],
    ["<i>", "<p>&lt;i&gt;</p>"],
    ["", ""],
  ])("renders %j", (text, html) => {
    expect(markdown(text)).toBe(html);
  });

  it("escapes quotes for attributes", () => {
    expect(esc(`"'`)).toBe("&quot;&#39;");
  });
});
