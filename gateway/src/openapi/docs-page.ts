/**
 * `GET /docs`: the OpenAPI document rendered on the server as one self-contained HTML page — inline CSS,
 * no script, nothing fetched from elsewhere — so it works offline, behind strict proxies and under a
 * `default-src 'none'` content security policy.
 */
import { JsonDecimal } from "@payouts/platform/money/json-decimal";
import type {
  Example,
  Header,
  HttpMethod,
  JsonSchema,
  MediaType,
  OpenApiDocument,
  Operation,
  Parameter,
  Reference,
  Response,
} from "./openapi-types.js";
import { HTTP_METHODS } from "./openapi-types.js";

/** The content security policy the page is served with: it needs inline styles and nothing else. */
export const DOCS_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface Entry {
  readonly key: string;
  readonly method: HttpMethod;
  readonly operation: Operation;
  readonly webhook: boolean;
}

export function renderDocsPage(doc: OpenApiDocument): string {
  const entries = [...entriesOf(doc.paths, false), ...entriesOf(doc.webhooks, true)];
  const body = [
    `<header><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>`,
    `<p class="meta">OpenAPI ${esc(doc.openapi)} · <a href="openapi.json">openapi.json</a></p></header>`,
    `<nav>${renderNav(doc, entries)}</nav>`,
    "<main>",
    `<section id="overview"><h2>Overview</h2>${markdown(doc.info.description)}</section>`,
    ...doc.tags.map((tag) => renderTag(doc, tag.name, tag.description, entries)),
    renderSchemas(doc),
    "</main>",
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} ${esc(doc.info.version)}</title><style>${STYLE}</style></head>
<body>${body.join("\n")}</body></html>
`;
}

function entriesOf(items: OpenApiDocument["paths"], webhook: boolean): Entry[] {
  return Object.entries(items).flatMap(([key, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ key, method, operation, webhook }] : [];
    }),
  );
}

function renderNav(doc: OpenApiDocument, entries: readonly Entry[]): string {
  const groups = doc.tags.map((tag) => {
    const links = entries
      .filter((e) => e.operation.tags.includes(tag.name))
      .map((e) => `<li><a href="#${anchor(e)}">${methodBadge(e)} ${esc(e.key)}</a></li>`);
    return `<h3><a href="#tag-${slug(tag.name)}">${esc(tag.name)}</a></h3><ul>${links.join("")}</ul>`;
  });
  return `<a href="#overview">Overview</a>${groups.join("")}<h3><a href="#schemas">Schemas</a></h3>`;
}

function renderTag(
  doc: OpenApiDocument,
  name: string,
  description: string,
  entries: readonly Entry[],
): string {
  const operations = entries.filter((e) => e.operation.tags.includes(name));
  return `<section id="tag-${slug(name)}"><h2>${esc(name)}</h2><p>${inline(description)}</p>${operations
    .map((e) => renderOperation(doc, e))
    .join("\n")}</section>`;
}

function renderOperation(doc: OpenApiDocument, entry: Entry): string {
  const { operation } = entry;
  const title = entry.webhook
    ? `${methodBadge(entry)} <code>${esc(entry.key)}</code> <span class="note">(sent by the service)</span>`
    : `${methodBadge(entry)} <code>${esc(entry.key)}</code>`;
  return `<article id="${anchor(entry)}"><h3>${title}</h3>
<p class="summary">${esc(operation.summary)}</p>
${securityNote(doc, operation, entry.webhook)}
${markdown(operation.description ?? "")}
${renderParameters(doc, operation.parameters ?? [])}
${operation.requestBody ? `<h4>Request body</h4>${renderContent(doc, operation.requestBody.content)}` : ""}
<h4>Responses</h4>${Object.entries(operation.responses)
    .map(([status, response]) => renderResponse(doc, status, deref<Response>(doc, response)))
    .join("")}</article>`;
}

function securityNote(doc: OpenApiDocument, operation: Operation, webhook: boolean): string {
  const requirements = operation.security ?? doc.security;
  if (webhook) return `<p class="auth">Authorization: Basic when the config has <code>basic_auth</code>.</p>`;
  if (requirements.length === 0) return `<p class="auth">Public: no credentials.</p>`;
  return `<p class="auth">Authentication: HTTP Basic (<code>client_id:client_secret</code>).</p>`;
}

function renderParameters(doc: OpenApiDocument, list: readonly (Parameter | Reference)[]): string {
  if (list.length === 0) return "";
  const rows = list.map((raw) => {
    const p = deref<Parameter>(doc, raw);
    return row(
      `${esc(p.name)}${p.required ? ' <span class="req">required</span>' : ""}`,
      esc(p.in),
      typeLabel(p.schema),
      describe(p.schema, p.description),
    );
  });
  return `<h4>Parameters</h4>${table(["Name", "In", "Type", "Description"], rows)}`;
}

function renderResponse(doc: OpenApiDocument, status: string, response: Response): string {
  const headers = Object.entries(response.headers ?? {}).map(([name, raw]) => {
    const h = deref<Header>(doc, raw);
    return row(esc(name), typeLabel(h.schema), describe(h.schema, h.description));
  });
  return `<div class="response"><h5><span class="status s${esc(status.charAt(0))}">${esc(status)}</span></h5>
${markdown(response.description)}
${headers.length > 0 ? table(["Header", "Type", "Description"], headers) : ""}
${response.content ? renderContent(doc, response.content) : ""}</div>`;
}

function renderContent(doc: OpenApiDocument, content: Readonly<Record<string, MediaType>>): string {
  return Object.entries(content)
    .map(([type, media]) => {
      const examples = Object.entries(media.examples ?? {}).map(([name, ex]) => renderExample(name, ex));
      return `<p class="media"><code>${esc(type)}</code>: ${typeLabel(media.schema)}</p>${renderSchemaBody(doc, media.schema)}${examples.join("")}`;
    })
    .join("");
}

function renderExample(name: string, example: Example): string {
  return `<details><summary>Example: ${esc(example.summary ?? name)}</summary><pre>${esc(prettyJson(example.value))}</pre></details>`;
}

/** Inline schemas get their property table here; named ones link to the Schemas section. */
function renderSchemaBody(doc: OpenApiDocument, schema: JsonSchema): string {
  if (schema.$ref) return "";
  const rows = propertyRows(doc, schema, "");
  return rows.length > 0 ? table(["Field", "Type", "Description"], rows) : "";
}

function renderSchemas(doc: OpenApiDocument): string {
  const sections = Object.entries(doc.components.schemas).map(([name, schema]) => {
    const rows = propertyRows(doc, schema, "");
    return `<article id="schema-${esc(name)}"><h3>${esc(name)}</h3>${markdown(schema.description ?? "")}
<p class="media">${typeLabel(schema)}${constraints(schema)}</p>${rows.length > 0 ? table(["Field", "Type", "Description"], rows) : ""}</article>`;
  });
  return `<section id="schemas"><h2>Schemas</h2>${sections.join("\n")}</section>`;
}

/** One row per property; inline objects are expanded with dotted names (`recipient.name_first`). */
function propertyRows(doc: OpenApiDocument, schema: JsonSchema, prefix: string): string[] {
  const required = new Set(schema.required ?? []);
  const rows: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const label = `${esc(prefix + name)}${required.has(name) ? ' <span class="req">required</span>' : ""}`;
    rows.push(row(label, typeLabel(property), describe(property, property.description ?? "")));
    if (!property.$ref && property.properties) rows.push(...propertyRows(doc, property, `${prefix}${name}.`));
  }
  for (const part of schema.allOf ?? []) if (!part.$ref) rows.push(...propertyRows(doc, part, prefix));
  return rows;
}

function typeLabel(schema: JsonSchema): string {
  if (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    return `<a href="#schema-${esc(name)}">${esc(name)}</a>`;
  }
  if (schema.allOf)
    return schema.allOf
      .map(typeLabel)
      .filter((t) => t !== "")
      .join(" &amp; ");
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const label = types
    .map((t) => (t === "array" && schema.items ? `array of ${typeLabel(schema.items)}` : esc(t)))
    .join(" | ");
  return schema.format ? `${label} <span class="fmt">(${esc(schema.format)})</span>` : label;
}

function describe(schema: JsonSchema, description: string): string {
  return `${inline(description)}${constraints(schema)}`;
}

function constraints(schema: JsonSchema): string {
  const parts: string[] = [];
  const code = (v: unknown) => `<code>${esc(JSON.stringify(v))}</code>`;
  if (schema.enum) parts.push(`one of ${schema.enum.map(code).join(", ")}`);
  if (schema.const !== undefined) parts.push(`always ${code(schema.const)}`);
  if (schema.pattern) parts.push(`pattern <code>${esc(schema.pattern)}</code>`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined) {
    parts.push(`length ${schema.minLength ?? 0}–${schema.maxLength ?? "∞"}`);
  }
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) parts.push(`&gt; ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.default !== undefined) parts.push(`default ${code(schema.default)}`);
  for (const part of schema.allOf ?? []) {
    for (const [name, p] of Object.entries(part.properties ?? {}))
      if (p.enum) parts.push(`<code>${esc(name)}</code> one of ${p.enum.map(code).join(", ")}`);
  }
  return parts.length > 0 ? ` <span class="constraints">${parts.join("; ")}</span>` : "";
}

function deref<T>(doc: OpenApiDocument, node: T | Reference): T {
  const ref = (node as Reference).$ref;
  if (typeof ref !== "string") return node as T;
  const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
  const target = (doc.components as unknown as Record<string, Record<string, unknown>>)[kind ?? ""]?.[
    name ?? ""
  ];
  if (target === undefined) throw new Error(`unresolved reference ${ref}`);
  return target as T;
}

const DECIMAL_MARK = "__exact_decimal__";

/** Indented JSON in which JsonDecimal values keep their exact digits (`0.30`). */
export function prettyJson(value: unknown): string {
  const marked = JSON.stringify(
    value,
    function (this: Record<string, unknown>, key) {
      const raw = this[key];
      return raw instanceof JsonDecimal ? `${DECIMAL_MARK}${raw.text}` : (raw as unknown);
    },
    2,
  );
  return marked.replace(new RegExp(`"${DECIMAL_MARK}(-?[0-9.]+)"`, "g"), "$1");
}

/** The little Markdown the document's descriptions use: paragraphs, `- ` lists, **bold** and `code`. */
export function markdown(text: string): string {
  return text
    .split(/\n{2,}/)
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      if (lines.every((line) => line.startsWith("- "))) {
        return `<ul>${lines.map((line) => `<li>${inline(line.slice(2))}</li>`).join("")}</ul>`;
      }
      return `<p>${inline(block)}</p>`;
    })
    .join("");
}

function inline(text: string): string {
  return esc(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
}

function methodBadge(entry: Entry): string {
  return `<span class="method ${entry.method}">${entry.method.toUpperCase()}</span>`;
}

function anchor(entry: Entry): string {
  return `op-${slug(entry.operation.operationId)}`;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

function table(headings: readonly string[], rows: readonly string[]): string {
  return `<table><thead><tr>${headings.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function row(...cells: string[]): string {
  return `<tr>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`;
}

export function esc(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const STYLE = `
:root{--fg:#1d2330;--muted:#5b6475;--line:#dde1e8;--bg:#fff;--code:#f3f5f8;--accent:#0b5cad}
*{box-sizing:border-box}body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);display:grid;grid-template-columns:290px 1fr;grid-template-rows:auto 1fr}
header{grid-column:1/3;padding:16px 28px;border-bottom:1px solid var(--line)}header h1{margin:0;font-size:22px}header small{color:var(--muted);font-weight:400}
.meta{margin:4px 0 0;color:var(--muted)}nav{padding:16px 20px;border-right:1px solid var(--line);position:sticky;top:0;max-height:100vh;overflow:auto;font-size:13px}
nav h3{font-size:13px;margin:16px 0 4px;text-transform:uppercase;letter-spacing:.04em}nav ul{list-style:none;margin:0;padding:0}nav li{margin:2px 0}
main{padding:8px 32px 64px;max-width:1100px;min-width:0}a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
h2{margin-top:40px;border-bottom:2px solid var(--line);padding-bottom:4px}article{border:1px solid var(--line);border-radius:8px;padding:4px 20px 16px;margin:20px 0}
h3 code{font-size:16px}h4{margin:18px 0 6px}h5{margin:12px 0 4px}.summary{font-weight:600;margin:4px 0}.auth,.note{color:var(--muted);font-size:13px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}code{background:var(--code);padding:1px 4px;border-radius:4px}
pre{background:var(--code);padding:12px;border-radius:6px;overflow:auto;max-height:480px}table{border-collapse:collapse;width:100%;margin:6px 0 10px;font-size:13px}
th,td{border:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}th{background:var(--code)}td:first-child{white-space:nowrap}
.req{color:#b42318;font-size:11px;font-weight:600}.constraints,.fmt{color:var(--muted)}.media{margin:6px 0}
.method{display:inline-block;min-width:52px;text-align:center;border-radius:4px;color:#fff;font:600 11px/18px system-ui,sans-serif;padding:0 4px}
.get{background:#1f7a3d}.post{background:#0b5cad}.patch{background:#8a5a00}.delete{background:#b42318}.put{background:#6b3fa0}
.status{display:inline-block;border-radius:4px;padding:0 6px;color:#fff;background:#5b6475}.s2{background:#1f7a3d}.s4{background:#b54708}.s5{background:#b42318}
.response{border-top:1px dashed var(--line);margin-top:8px}details{margin:6px 0}summary{cursor:pointer;color:var(--accent)}
@media (max-width:800px){body{display:block}nav{position:static;max-height:none;border-right:0;border-bottom:1px solid var(--line)}main{padding:8px 16px}}
`;
