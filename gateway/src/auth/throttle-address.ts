import { isIPv6 } from "node:net";

/**
 * The key a client address is throttled under: an IPv4 address as is (also when it arrives IPv4-mapped,
 * `::ffff:192.0.2.1`), an IPv6 address by its /64 prefix, since one subscriber usually holds a whole /64
 * and could otherwise rotate through it to escape a per-address limit.
 */
export function throttleAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const bare = ip.split("%")[0]!;
  if (!isIPv6(bare)) return ip;
  return `${ipv6Groups(bare).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, lower-case hex without leading zeros. */
function ipv6Groups(ip: string): string[] {
  const width = (part: string) => (part.includes(".") ? 2 : 1);
  const split = (side: string) => (side === "" ? [] : side.split(":"));
  const [head = "", tail] = ip.split("::");
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  const used = [...left, ...right].reduce((n, part) => n + width(part), 0);
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : 8 - used).fill("0"), ...right];
  return groups.map((g) => (g.includes(".") ? g : Number.parseInt(g, 16).toString(16)));
}
