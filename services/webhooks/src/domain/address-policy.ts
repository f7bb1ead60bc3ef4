/**
 * Which receivers the dispatcher may talk to (SSRF protection).
 *
 * `isForbiddenAddress` is meant for every address a receiver's host name resolves to, at delivery time,
 * so DNS rebinding cannot swap in an internal address after registration. It fails closed: anything it
 * cannot parse unambiguously is forbidden. Only global unicast space is allowed; addresses that merely
 * wrap an IPv4 address (IPv4-mapped and -compatible, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the
 * IPv4 address inside, so a public host reached through NAT64 still works while ::ffff:127.0.0.1 does not.
 *
 * `validateReceiverUrl` runs when a configuration is saved: scheme, no credentials, query or fragment in
 * the URL (it is logged and shown in delivery logs; secrets belong in `secret` or `basic_auth`), and an
 * immediate check of IP-literal hosts.
 */
import ipaddr from "ipaddr.js";
import { NOTIFIED_EVENT_TYPES, receiverPath } from "./event-kinds.js";
import { fail, ok, type Result } from "./result.js";

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;
type Cidr<T> = [T, number];

// Spelled out (rather than trusting the library's range names alone) so a reader sees the policy and a
// library update cannot quietly shrink it. Both this list and "not global unicast" must pass.
const FORBIDDEN_IPV4 = cidrs<IPv4>([
  "0.0.0.0/8", // "this network", incl. the unspecified address
  "10.0.0.0/8", // RFC 1918
  "100.64.0.0/10", // carrier-grade NAT (RFC 6598); also Alibaba Cloud's metadata 100.100.100.200
  "127.0.0.0/8", // loopback
  "169.254.0.0/16", // link-local; cloud metadata 169.254.169.254
  "172.16.0.0/12", // RFC 1918
  "192.0.0.0/24", // IETF protocol assignments; Oracle Cloud's metadata 192.0.0.192
  "192.0.2.0/24", // TEST-NET-1 (documentation)
  "192.88.99.0/24", // 6to4 relay anycast (deprecated)
  "192.168.0.0/16", // RFC 1918
  "198.18.0.0/15", // benchmarking (RFC 2544)
  "198.51.100.0/24", // TEST-NET-2 (documentation)
  "203.0.113.0/24", // TEST-NET-3 (documentation)
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, incl. broadcast 255.255.255.255
]);

const FORBIDDEN_IPV6 = cidrs<IPv6>([
  "::/128", // unspecified
  "::1/128", // loopback
  "::ffff:0:0:0/96", // IPv4-translated (RFC 6145)
  "64:ff9b:1::/48", // local-use NAT64 (RFC 8215): operator-defined, may reach anything
  "100::/64", // discard-only
  "2001::/23", // IETF protocol assignments: Teredo, benchmarking, ORCHID, ...
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation (RFC 9637)
  "5f00::/16", // segment routing SIDs
  "fc00::/7", // unique local addresses
  "fe80::/10", // link-local
  "fec0::/10", // site-local (deprecated)
  "ff00::/8", // multicast
]);

// IPv4-mapped, IPv4-compatible (deprecated) and well-known NAT64 prefix: the IPv4 address is the low 32 bits.
const CARRIES_IPV4_IN_LOW_BITS = cidrs<IPv6>(["::ffff:0:0/96", "::/96", "64:ff9b::/96"]);
// 6to4: the IPv4 address is bits 16 to 47.
const SIX_TO_FOUR = cidrs<IPv6>(["2002::/16"]);

// Strict dotted quad: the legacy forms ipaddr.js also accepts ("127.1", "0x7f.0.0.1", "010.0.0.1") are read
// differently by different resolvers, so they are refused rather than interpreted.
const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** True when the dispatcher must not connect to `ip` (a literal address, as DNS returns it). */
export function isForbiddenAddress(ip: string): boolean {
  if (DOTTED_QUAD.test(ip)) return isForbiddenIpv4(ipaddr.IPv4.parse(ip));
  const v6 = parseIpv6(ip);
  return v6 === undefined || isForbiddenIpv6(v6);
}

function isForbiddenIpv4(address: IPv4): boolean {
  return address.range() !== "unicast" || FORBIDDEN_IPV4.some((range) => address.match(range));
}

function isForbiddenIpv6(address: IPv6): boolean {
  // A zone id only exists on scoped (link-local) addresses, which are never a public receiver.
  if (address.zoneId !== undefined) return true;
  const embedded = embeddedIpv4(address);
  if (embedded !== undefined) return isForbiddenIpv4(embedded);
  return address.range() !== "unicast" || FORBIDDEN_IPV6.some((range) => address.match(range));
}

/** The IPv4 address an IPv6 address merely carries, for the forms that deliver to that IPv4 host. */
function embeddedIpv4(address: IPv6): IPv4 | undefined {
  const parts = address.parts;
  const isUnspecifiedOrLoopback = parts.slice(0, 7).every((part) => part === 0) && (parts[7] ?? 0) <= 1;
  if (isUnspecifiedOrLoopback) return undefined;
  const inRange = (ranges: readonly Cidr<IPv6>[]) => ranges.some((range) => address.match(range));
  if (inRange(CARRIES_IPV4_IN_LOW_BITS)) return ipv4From(parts[6], parts[7]);
  if (inRange(SIX_TO_FOUR)) return ipv4From(parts[1], parts[2]);
  return undefined;
}

function ipv4From(high: number | undefined, low: number | undefined): IPv4 {
  const h = high ?? 0;
  const l = low ?? 0;
  return new ipaddr.IPv4([h >> 8, h & 0xff, l >> 8, l & 0xff]);
}

function parseIpv6(ip: string): IPv6 | undefined {
  if (!ipaddr.IPv6.isValid(ip)) return undefined;
  // An embedded dotted quad must be strict too ("::ffff:010.0.0.1" is ambiguous).
  const dotted = ip.split("%")[0]?.split(":").at(-1) ?? "";
  if (dotted.includes(".") && !DOTTED_QUAD.test(dotted)) return undefined;
  return ipaddr.IPv6.parse(ip);
}

function cidrs<T extends IPv4 | IPv6>(ranges: readonly string[]): readonly Cidr<T>[] {
  return ranges.map((range) => ipaddr.parseCIDR(range) as Cidr<T>);
}

export interface ReceiverUrlOptions {
  /** `WEBHOOK_ALLOW_PRIVATE_URLS`: allow http and internal addresses (embedded sandbox, tests). */
  readonly allowPrivate: boolean;
  /** `WEBHOOK_ALLOWED_PORTS`: the ports the dispatcher's egress allows; undefined = any port. */
  readonly allowedPorts?: readonly number[] | undefined;
}

/** The TCP port a receiver URL connects to: the explicit one, else the scheme's default. */
export function receiverPort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "http:" ? 80 : 443;
}

/** Why the dispatcher may not connect to this URL's port, or undefined when it may. */
export function portProblem(url: URL, allowedPorts: readonly number[] | undefined): string | undefined {
  if (allowedPorts === undefined || allowedPorts.includes(receiverPort(url))) return undefined;
  return `url port must be one of ${allowedPorts.join(", ")} (the ports the dispatcher may reach)`;
}

export const MAX_RECEIVER_URL_LENGTH = 2048;

/**
 * Checks a configuration's base URL and returns it normalised (no trailing slash), ready for
 * `{url}/webhooks/transactions/<kind>`.
 */
export function validateReceiverUrl(url: string, options: ReceiverUrlOptions): Result<string> {
  if (url.length > MAX_RECEIVER_URL_LENGTH)
    return invalidUrl(`url must be at most ${MAX_RECEIVER_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return invalidUrl("url must be an absolute http(s) URL");
  }
  const problem = urlProblem(url, parsed, options);
  if (problem !== undefined) return invalidUrl(problem);
  const path = parsed.pathname.replace(/\/+$/, "");
  return ok(`${parsed.protocol}//${parsed.host}${path}`);
}

function urlProblem(raw: string, url: URL, options: ReceiverUrlOptions): string | undefined {
  if (url.protocol !== "https:" && url.protocol !== "http:") return "url must use https";
  if (url.protocol === "http:" && !options.allowPrivate) return "url must use https";
  if (url.username !== "" || url.password !== "") {
    return "url must not contain credentials; use basic_auth instead";
  }
  // The parser drops an empty "?" or "#", so the raw text is checked as well.
  if (url.search !== "" || raw.includes("?")) return "url must not contain a query string";
  if (url.hash !== "" || raw.includes("#")) return "url must not contain a fragment";
  if (hasReceiverPathSuffix(url.pathname)) {
    return "url is the receiver's base URL: /webhooks/transactions/<kind> is appended to it";
  }
  if (!options.allowPrivate && isForbiddenHost(url.hostname)) {
    return "url points to a loopback, private, link-local or otherwise non-public address";
  }
  return portProblem(url, options.allowedPorts);
}

// The URL parser has already canonicalised IPv4 forms ("0x7f.1" → "127.0.0.1") and bracketed IPv6.
function isForbiddenHost(hostname: string): boolean {
  if (hostname.startsWith("[")) return isForbiddenAddress(hostname.slice(1, -1));
  if (DOTTED_QUAD.test(hostname)) return isForbiddenAddress(hostname);
  const name = hostname.replace(/\.$/, "");
  // RFC 6761: these names resolve to loopback without asking DNS.
  return name === "localhost" || name.endsWith(".localhost");
}

function hasReceiverPathSuffix(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, "");
  return NOTIFIED_EVENT_TYPES.some((type) => path.endsWith(receiverPath(type)));
}

function invalidUrl(message: string): Result<never> {
  return fail("INVALID_FIELD", message, "url");
}
