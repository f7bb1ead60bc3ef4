/**
 * The hostile half of the fuzz suite's inputs: values, keys, bodies, path ids, query strings, headers and
 * URL spellings that a careless edge turns into a 500, a stack overflow, a half-written row or an auth
 * bypass.
 */
import fc from "fast-check";
import { type JsonNode, JsonObject, RawJson } from "./json-text.js";

const deepArrays = (levels: number) => new RawJson(`${"[".repeat(levels)}${"]".repeat(levels)}`);
const deepObjects = (levels: number) => new RawJson(`${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`);

/** Strings PostgreSQL, Node or a validator may choke on. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "tx_\u0000",
    "a\u0000b",
    "\ud800",
    "\udfff",
    "x\udc00y",
    "\ud83d",
    "😀",
    "",
    " ",
    "\t\r\n",
    "\u202e\u200b\ufeff",
    "null",
    "undefined",
    "NaN",
    "Infinity",
    "-0",
    "1e400",
    "0x10",
    " 100 ",
    "1,5",
    "١٢٣",
    "12345678901234567890.123456789012345678",
    "%00",
    "%",
    "../../../etc/passwd",
    "' OR '1'='1' --",
    "<script>alert(1)</script>",
    "$" + "{jndi:ldap://x}",
    "{{7*7}}",
    "__proto__",
    "constructor",
    "http://127.0.0.1:9/\u0000",
    "https://169.254.169.254/latest/meta-data",
  ),
  fc.constantFrom(100, 129, 257, 1_000, 10_000, 100_000).map((n) => "x".repeat(n)),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
);

/** Number spellings JSON allows but a double cannot hold, or holds only approximately. */
export const hostileNumber: fc.Arbitrary<JsonNode> = fc.constantFrom(
  ...[
    "1e400",
    "-1e400",
    "1e-400",
    "-0",
    "0",
    "-0.0",
    "12345678901234567890",
    "-12345678901234567890",
    "9007199254740993",
    "1.7976931348623157e308",
    "5e-324",
    "0.1234567890123456789",
    "1234567.123456789012",
    "100.123",
    "1E+2",
    "1e2",
    "-1",
    "0.000000000001",
  ].map((text) => new RawJson(text)),
);

/** Objects whose keys are JavaScript's own (`__proto__`, `constructor`, ...). */
export const prototypeObject: fc.Arbitrary<JsonNode> = fc.constantFrom(
  new JsonObject([["__proto__", new JsonObject([["polluted", true]])]]),
  new JsonObject([["constructor", new JsonObject([["prototype", new JsonObject([["polluted", true]])]])]]),
  new JsonObject([["prototype", new JsonObject([])]]),
  new JsonObject([
    ["toString", "x"],
    ["valueOf", 1],
    ["hasOwnProperty", "x"],
  ]),
);

/** Nesting deeper than the edge allows, and just inside it. */
export const deepValue: fc.Arbitrary<JsonNode> = fc.oneof(
  fc.constantFrom(63, 64, 65, 1_000, 20_000, 100_000).map(deepArrays),
  fc.constantFrom(63, 65, 5_000, 40_000).map(deepObjects),
);

export const wrongType: fc.Arbitrary<JsonNode> = fc.constantFrom<JsonNode>(
  true,
  false,
  null,
  0,
  -1,
  1.5,
  [],
  [1, "a"],
  new JsonObject([]),
  new JsonObject([["a", 1]]),
);

export const hostileValue: fc.Arbitrary<JsonNode> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 2, arbitrary: wrongType },
  { weight: 1, arbitrary: prototypeObject },
  { weight: 1, arbitrary: deepValue },
);

export const hostileKey: fc.Arbitrary<string> = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "",
  "\u0000",
  "a\u0000",
  "\ud800",
  "sender",
  "k".repeat(1_000),
);

/** Whole bodies that are not the object a route expects, or not JSON at all. */
export const hostileBodyText: fc.Arbitrary<string> = fc.constantFrom(
  "",
  " ",
  "{",
  "[",
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  "nul",
  "NaN",
  "\u0000",
  '{"a":"\u0000"}',
  "\ufeff{}",
  '{"a":1}{"b":2}',
  '{"a":1} garbage',
  '"just a string"',
  "12345678901234567890",
  "[]",
  "null",
  "true",
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  `{"a":"${"x".repeat(300_000)}"}`,
  `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
);

export type Mutation =
  | { readonly kind: "replace"; readonly at: number; readonly value: JsonNode }
  | { readonly kind: "remove"; readonly at: number }
  | { readonly kind: "add"; readonly key: string; readonly value: JsonNode }
  | { readonly kind: "duplicate"; readonly at: number; readonly value: JsonNode }
  | { readonly kind: "nested"; readonly at: number; readonly inner: Mutation };

const innerMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: hostileValue }),
  fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("add" as const), key: hostileKey, value: hostileValue }),
);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: hostileValue }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("add" as const), key: hostileKey, value: hostileValue }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("duplicate" as const), at: fc.nat(), value: hostileValue }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("nested" as const), at: fc.nat(), inner: innerMutation }),
  },
);

/** `body` with `m` applied (a body that is not an object is left as it is). */
export function applyMutation(body: JsonNode, m: Mutation): JsonNode {
  if (!(body instanceof JsonObject)) return body;
  const members = body.members;
  if (m.kind === "add") return new JsonObject([...members, [m.key, m.value]]);
  if (members.length === 0) return body;
  const index = m.at % members.length;
  const [key, current] = members[index]!;
  switch (m.kind) {
    case "replace":
      return new JsonObject(members.map((member, i) => (i === index ? [key, m.value] : member)));
    case "remove":
      return new JsonObject(members.filter((_, i) => i !== index));
    case "duplicate":
      return new JsonObject([...members, [key, m.value]]);
    case "nested":
      return new JsonObject(
        members.map((member, i) => (i === index ? [key, applyMutation(current, m.inner)] : member)),
      );
  }
}

/** Path ids that are not ids: encoded NUL and slashes, dot segments, overlong, non-ASCII. */
export const hostileIdSegment: fc.Arbitrary<string> = fc.constantFrom(
  "%00",
  "tx_%00",
  "cus_01%00",
  "%2F",
  "a%2Fb",
  "%2e%2e",
  "..",
  ".",
  "%25",
  "%25%30%30",
  "%ED%A0%80",
  "%FF",
  "%C0%80",
  "%F0%9F%98%80",
  "%20",
  "'%20OR%201=1",
  "x".repeat(101),
  "x".repeat(5_000),
  "__proto__",
  "constructor",
  "%E2%80%AE",
  "null",
  "-1",
  "0",
  "1e400",
);

/** Query parameter values as they appear in the URL (already encoded, or deliberately badly encoded). */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  hostileString.map(percentEncode),
  fc.constantFrom("%", "%zz", "%00", "%ED%A0%80", "%FF", "+", "a+b", "%2B", "=", "&", "", "x".repeat(10_000)),
);

export const hostileQueryName: fc.Arbitrary<string> = fc.constantFrom(
  "__proto__",
  "constructor",
  "constructor[prototype][x]",
  "dp[]",
  "dp[a]",
  "limit[]",
  "%00",
  "x",
  "",
);

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD, as any client would send). */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Ways of writing a path that a router may match while a prefix check does not (or the reverse). */
export type Spelling = (path: string, rng: number) => string;

const segmentsOf = (path: string) => path.split("/").slice(1);
const pick = <T>(items: readonly T[], rng: number): T => items[rng % items.length]!;
const letterAt = (path: string, rng: number): number => {
  const letters = [...path].map((c, i) => (/[A-Za-z]/.test(c) ? i : -1)).filter((i) => i >= 0);
  return letters.length === 0 ? -1 : pick(letters, rng);
};

export const SPELLINGS: Readonly<Record<string, Spelling>> = {
  canonical: (p) => p,
  trailingSlash: (p) => `${p}/`,
  leadingDoubleSlash: (p) => `/${p}`,
  innerDoubleSlash: (p, r) => {
    const s = segmentsOf(p);
    const i = r % s.length;
    return `/${s.map((seg, j) => (j === i ? `${seg}/` : seg)).join("/")}`;
  },
  dotSegment: (p, r) => {
    const s = segmentsOf(p);
    const i = r % s.length;
    return `/${s.map((seg, j) => (j === i ? `./${seg}` : seg)).join("/")}`;
  },
  dotDotSegment: (p) => `/x/..${p}`,
  encodedDotDot: (p) => `/x/%2e%2e${p}`,
  encodedDot: (p) => `/%2e${p}`,
  encodedLetter: (p, r) => {
    const i = letterAt(p, r);
    return i < 0 ? p : `${p.slice(0, i)}%${p.charCodeAt(i).toString(16)}${p.slice(i + 1)}`;
  },
  encodedLetterUpperHex: (p, r) => {
    const i = letterAt(p, r);
    return i < 0 ? p : `${p.slice(0, i)}%${p.charCodeAt(i).toString(16).toUpperCase()}${p.slice(i + 1)}`;
  },
  doubleEncodedLetter: (p, r) => {
    const i = letterAt(p, r);
    return i < 0 ? p : `${p.slice(0, i)}%25${p.charCodeAt(i).toString(16)}${p.slice(i + 1)}`;
  },
  encodedSlash: (p, r) => {
    const s = segmentsOf(p);
    if (s.length < 2) return p;
    const i = 1 + (r % (s.length - 1));
    return `/${s.slice(0, i).join("/")}${pick(["%2F", "%2f"], r)}${s.slice(i).join("/")}`;
  },
  upperCase: (p) => p.toUpperCase(),
  mixedCase: (p, r) => {
    const i = letterAt(p, r);
    if (i < 0) return p;
    const c = p.charAt(i);
    return `${p.slice(0, i)}${c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()}${p.slice(i + 1)}`;
  },
  absoluteForm: (p, r) => `${pick(["http://x", "http://127.0.0.1", "HTTP://X", "https://x:1"], r)}${p}`,
  matrixParameter: (p, r) => {
    const s = segmentsOf(p);
    const i = r % s.length;
    return `/${s.map((seg, j) => (j === i ? `${seg};x=1` : seg)).join("/")}`;
  },
  backslash: (p) => p.replace(/\//g, "\\").replace(/^\\/, "/"),
  encodedNul: (p) => `${p}%00`,
  trailingDot: (p) => `${p}.`,
  emptyQuery: (p) => `${p}?`,
};

export const spelling: fc.Arbitrary<{ name: string; rng: number }> = fc.record({
  name: fc.constantFrom(...Object.keys(SPELLINGS)),
  rng: fc.nat(1_000),
});

export function spell(path: string, choice: { name: string; rng: number }): string {
  return (SPELLINGS[choice.name] ?? SPELLINGS.canonical!)(path, choice.rng);
}

/** Content-Type headers other than plain `application/json` (undefined: the header is left out). */
export const contentTypeVariant: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined,
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/json; charset=latin1",
  "application/json;charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json-patch+json",
  "application/jsonx",
  "*/*",
  "",
);

/** X-Idempotency-Key values outside the documented 1–255 printable ASCII characters, or odd inside it. */
export const hostileIdempotencyKey: fc.Arbitrary<string> = fc.constantFrom(
  "",
  " ",
  "k".repeat(255),
  "k".repeat(256),
  "k".repeat(5_000),
  '"quoted"',
  '"unterminated',
  '""',
  "a\tb",
  "é",
  "__proto__",
  "%00",
);

/** Authorization headers that must never be taken as valid credentials. */
export function badAuthorization(validToken: string): fc.Arbitrary<string | undefined> {
  return fc.constantFrom(
    undefined,
    "",
    "Bearer",
    "Bearer ",
    "Bearer wrong-token",
    `Bearer ${validToken}x`,
    `Bearer ${validToken.slice(0, -1)}`,
    `${validToken}`,
    `Basic ${Buffer.from(`admin:${validToken}`).toString("base64")}`,
    `Basic ${Buffer.from("ci_\u0000:cs_\u0000").toString("base64")}`,
    "Basic %%%",
    `Bearer ${"t".repeat(10_000)}`,
    "Bearer é",
  );
}

/** One more header: a second spelling of one the gateway reads, or bytes HTTP forbids in a header. */
export const hostileHeader: fc.Arbitrary<readonly [string, string]> = fc.tuple(
  fc.constantFrom(
    "X-Idempotency-Key",
    "Idempotency-Key",
    "X-Request-Id",
    "Content-Type",
    "X-Forwarded-For",
    "Transfer-Encoding",
    "Content-Encoding",
    "X-HTTP-Method-Override",
    "X-Fuzz",
  ),
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "a\rb",
    "é",
    "",
    " ",
    "\t",
    "chunked",
    "gzip",
    "DELETE",
    "1.2.3.4, 127.0.0.1",
    "text/plain",
    "x".repeat(20_000),
  ),
);

/** Basic credentials that are near the valid ones but wrong, or malformed. */
export function badBasicAuthorization(clientId: string, secret: string): fc.Arbitrary<string | undefined> {
  const basic = (text: string) => `Basic ${Buffer.from(text, "utf8").toString("base64")}`;
  return fc.constantFrom(
    undefined,
    "",
    "Basic",
    "Basic !!!",
    basic(`${clientId}:${secret}x`),
    basic(`${clientId}:${secret.slice(0, -1)}`),
    basic(`${clientId}:`),
    basic(`${clientId}\u0000:${secret}`),
    basic(`${clientId}:${secret}\u0000`),
    basic(`${clientId.toUpperCase()}:${secret}`),
    basic(`ci_unknown:${secret}`),
    basic(`${secret}:${clientId}`),
    basic(`:${secret}`),
    `Bearer ${secret}`,
    `Basic ${Buffer.from(`${clientId}:${secret}`).toString("hex")}`,
  );
}
