/**
 * A structural check of an OpenAPI 3.1 document: the rules of the specification that a hand-written
 * document most easily breaks (dangling `$ref`s, path templates without their parameters, undeclared tags
 * or security schemes, duplicate operation ids, responses without descriptions, `required` names that are
 * not properties). Not a full validator: it checks what this gateway's document uses.
 */
type Json = Record<string, unknown>;

const PATH_ITEM_KEYS = new Set([
  "$ref",
  "summary",
  "description",
  "servers",
  "parameters",
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
]);
const OPERATION_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const PARAMETER_LOCATIONS = new Set(["query", "header", "path", "cookie"]);
const RESPONSE_KEY = /^(default|[1-5](\d\d|XX))$/;
const COMPONENT_KEY = /^[a-zA-Z0-9._-]+$/;
const MEDIA_TYPE = /^[a-z*]+\/[a-z0-9.+*-]+$/i;

/** Every problem found, as `location: what is wrong`; an empty list means the document passed. */
export function checkOpenApiStructure(document: unknown): string[] {
  const problems: string[] = [];
  const report = (where: string, what: string) => problems.push(`${where}: ${what}`);
  if (!isObject(document)) return ["document: not an object"];
  checkHeader(document, report);
  checkRefs(document, document, "#", report);
  checkComponentKeys(document, report);
  const seen = { operationIds: new Set<string>(), tags: declaredTags(document) };
  const schemes = keysOf(isObject(document.components) ? document.components.securitySchemes : undefined);
  checkSecurity(document.security, schemes, "security", report);
  for (const [section, requireSlash] of [
    ["paths", true],
    ["webhooks", false],
  ] as const) {
    const items = document[section];
    if (items === undefined) continue;
    if (!isObject(items)) {
      report(section, "not an object");
      continue;
    }
    for (const [key, item] of Object.entries(items)) {
      if (requireSlash && !key.startsWith("/")) report(`${section}.${key}`, "path does not start with /");
      checkPathItem(
        document,
        `${section}.${key}`,
        requireSlash ? key : "",
        item,
        { ...seen, schemes },
        report,
      );
    }
  }
  walkSchemas(document, "#", report);
  return problems;
}

type Report = (where: string, what: string) => void;

function checkHeader(doc: Json, report: Report): void {
  if (typeof doc.openapi !== "string" || !/^3\.1\.\d+$/.test(doc.openapi)) report("openapi", "not 3.1.x");
  const info = doc.info;
  if (!isObject(info)) {
    report("info", "missing");
    return;
  }
  if (typeof info.title !== "string" || info.title === "") report("info.title", "missing");
  if (typeof info.version !== "string" || info.version === "") report("info.version", "missing");
  if (doc.paths === undefined && doc.webhooks === undefined && doc.components === undefined) {
    report("document", "needs paths, webhooks or components");
  }
}

function checkComponentKeys(doc: Json, report: Report): void {
  if (!isObject(doc.components)) return;
  for (const [kind, entries] of Object.entries(doc.components)) {
    if (!isObject(entries)) continue;
    for (const key of Object.keys(entries)) {
      if (!COMPONENT_KEY.test(key)) report(`components.${kind}.${key}`, "invalid component name");
    }
  }
}

interface Seen {
  readonly operationIds: Set<string>;
  readonly tags: Set<string>;
  readonly schemes: Set<string>;
}

function checkPathItem(
  doc: Json,
  where: string,
  path: string,
  item: unknown,
  seen: Seen,
  report: Report,
): void {
  if (!isObject(item)) {
    report(where, "path item is not an object");
    return;
  }
  for (const key of Object.keys(item)) {
    if (!PATH_ITEM_KEYS.has(key)) report(where, `unexpected key ${key}`);
  }
  const shared = resolvedParameters(doc, item.parameters, `${where}.parameters`, report);
  for (const method of OPERATION_METHODS) {
    const operation = item[method];
    if (operation === undefined) continue;
    checkOperation(doc, `${where}.${method}`, path, operation, shared, seen, report);
  }
}

function checkOperation(
  doc: Json,
  where: string,
  path: string,
  operation: unknown,
  shared: readonly Json[],
  seen: Seen,
  report: Report,
): void {
  if (!isObject(operation)) {
    report(where, "operation is not an object");
    return;
  }
  const id = operation.operationId;
  if (typeof id === "string") {
    if (seen.operationIds.has(id)) report(where, `duplicate operationId ${id}`);
    seen.operationIds.add(id);
  }
  for (const tag of arrayOf(operation.tags)) {
    if (typeof tag !== "string" || !seen.tags.has(tag)) report(where, `tag ${String(tag)} is not declared`);
  }
  if (operation.security !== undefined)
    checkSecurity(operation.security, seen.schemes, `${where}.security`, report);
  const own = resolvedParameters(doc, operation.parameters, `${where}.parameters`, report);
  checkPathTemplate(where, path, [...shared, ...own], report);
  if (operation.requestBody !== undefined)
    checkContentHolder(doc, `${where}.requestBody`, operation.requestBody, report);
  checkResponses(doc, `${where}.responses`, operation.responses, report);
}

function resolvedParameters(doc: Json, list: unknown, where: string, report: Report): Json[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    report(where, "not an array");
    return [];
  }
  const parameters = list.map((p) => resolve(doc, p)).filter(isObject);
  const keys = new Set<string>();
  parameters.forEach((p, index) => {
    const at = `${where}[${index}]`;
    if (typeof p.name !== "string" || p.name === "") report(at, "parameter without a name");
    if (!PARAMETER_LOCATIONS.has(String(p.in))) report(at, `invalid location ${String(p.in)}`);
    if ((p.schema === undefined) === (p.content === undefined))
      report(at, "needs exactly one of schema, content");
    if (p.in === "path" && p.required !== true) report(at, "path parameters must be required");
    const key = `${String(p.in)}:${String(p.name).toLowerCase()}`;
    if (keys.has(key)) report(at, `duplicate parameter ${key}`);
    keys.add(key);
  });
  return parameters;
}

function checkPathTemplate(where: string, path: string, parameters: readonly Json[], report: Report): void {
  const inTemplate = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? ""));
  const declared = new Set(parameters.filter((p) => p.in === "path").map((p) => String(p.name)));
  for (const name of inTemplate)
    if (!declared.has(name)) report(where, `path parameter {${name}} is not declared`);
  for (const name of declared)
    if (!inTemplate.has(name)) report(where, `path parameter ${name} is not in the path`);
}

function checkResponses(doc: Json, where: string, responses: unknown, report: Report): void {
  if (!isObject(responses) || Object.keys(responses).length === 0) {
    report(where, "no responses");
    return;
  }
  for (const [status, raw] of Object.entries(responses)) {
    const at = `${where}.${status}`;
    if (!RESPONSE_KEY.test(status)) report(at, "invalid status key");
    const response = resolve(doc, raw);
    if (!isObject(response)) {
      report(at, "not an object");
      continue;
    }
    if (typeof response.description !== "string") report(at, "response without a description");
    if (response.content !== undefined) checkContentHolder(doc, at, response, report);
    if (isObject(response.headers)) {
      for (const [name, header] of Object.entries(response.headers)) {
        const h = resolve(doc, header);
        if (!isObject(h) || (h.schema === undefined && h.content === undefined))
          report(`${at}.headers.${name}`, "header without schema");
      }
    }
  }
}

function checkContentHolder(doc: Json, where: string, raw: unknown, report: Report): void {
  const holder = resolve(doc, raw);
  if (!isObject(holder) || !isObject(holder.content)) {
    report(where, "without content");
    return;
  }
  for (const [type, media] of Object.entries(holder.content)) {
    if (!MEDIA_TYPE.test(type)) report(`${where}.content`, `invalid media type ${type}`);
    if (!isObject(media)) report(`${where}.content.${type}`, "not an object");
    else if (media.example !== undefined && media.examples !== undefined) {
      report(`${where}.content.${type}`, "example and examples are mutually exclusive");
    }
  }
}

function checkSecurity(requirements: unknown, schemes: Set<string>, where: string, report: Report): void {
  if (requirements === undefined) return;
  if (!Array.isArray(requirements)) {
    report(where, "not an array");
    return;
  }
  for (const requirement of requirements) {
    if (!isObject(requirement)) {
      report(where, "requirement is not an object");
      continue;
    }
    for (const name of Object.keys(requirement)) {
      if (!schemes.has(name)) report(where, `security scheme ${name} is not declared`);
    }
  }
}

function checkRefs(doc: Json, node: unknown, where: string, report: Report): void {
  if (Array.isArray(node)) {
    for (const [index, child] of node.entries()) checkRefs(doc, child, `${where}/${index}`, report);
    return;
  }
  if (!isObject(node)) return;
  if (typeof node.$ref === "string" && pointerTarget(doc, node.$ref) === undefined) {
    report(where, `$ref ${node.$ref} does not resolve`);
  }
  for (const [key, child] of Object.entries(node)) {
    // Example values are data, not document structure: a "$ref" key inside one is just a key.
    if (key === "value" || key === "examples" || key === "example") continue;
    checkRefs(doc, child, `${where}/${key}`, report);
  }
}

/** `required` names must be properties, wherever a schema lists both. */
function walkSchemas(node: unknown, where: string, report: Report): void {
  if (Array.isArray(node)) {
    for (const [index, child] of node.entries()) walkSchemas(child, `${where}/${index}`, report);
    return;
  }
  if (!isObject(node)) return;
  if (Array.isArray(node.required) && isObject(node.properties)) {
    const properties = node.properties;
    for (const name of node.required) {
      if (typeof name === "string" && !(name in properties))
        report(where, `required ${name} is not a property`);
    }
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === "value" || key === "examples" || key === "example") continue;
    walkSchemas(child, `${where}/${key}`, report);
  }
}

function resolve(doc: Json, node: unknown): unknown {
  if (isObject(node) && typeof node.$ref === "string") return pointerTarget(doc, node.$ref);
  return node;
}

/** The target of a local JSON pointer (`#/components/schemas/X`), or undefined. */
function pointerTarget(doc: Json, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let current: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

function declaredTags(doc: Json): Set<string> {
  return new Set(
    arrayOf(doc.tags).flatMap((tag) => (isObject(tag) && typeof tag.name === "string" ? [tag.name] : [])),
  );
}

function keysOf(value: unknown): Set<string> {
  return new Set(isObject(value) ? Object.keys(value) : []);
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
