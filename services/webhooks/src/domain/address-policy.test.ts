import { describe, expect, it } from "vitest";
import { isForbiddenAddress, validateReceiverUrl } from "./address-policy.js";

describe("isForbiddenAddress: IPv4", () => {
  it.each([
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this network 0/8"],
    ["10.0.0.1", "RFC 1918"],
    ["10.255.255.255", "RFC 1918"],
    ["172.16.0.1", "RFC 1918"],
    ["172.31.255.255", "RFC 1918"],
    ["192.168.1.1", "RFC 1918"],
    ["100.64.0.1", "CGNAT"],
    ["100.127.255.255", "CGNAT"],
    ["100.100.100.200", "Alibaba metadata (CGNAT)"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.0.1", "link-local"],
    ["192.0.0.192", "Oracle metadata (192.0.0/24)"],
    ["192.0.2.1", "TEST-NET-1"],
    ["198.51.100.7", "TEST-NET-2"],
    ["203.0.113.9", "TEST-NET-3"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
  ])("%s (%s) is forbidden", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "11.0.0.1",
    "100.63.255.255",
    "100.128.0.0",
    "169.253.255.255",
    "172.15.255.255",
    "172.32.0.0",
    "192.169.0.1",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
  ])("%s is allowed", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe("isForbiddenAddress: IPv6", () => {
  it.each([
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with zone"],
    ["febf:ffff::1", "link-local"],
    ["fc00::1", "ULA"],
    ["fd00:ec2::254", "AWS metadata (ULA)"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["::7f00:1", "IPv4-compatible loopback, hex"],
    ["::a9fe:a9fe", "IPv4-compatible metadata"],
    ["::ffff:0:7f00:1", "IPv4-translated"],
    ["64:ff9b::127.0.0.1", "NAT64 of loopback"],
    ["64:ff9b::a00:1", "NAT64 of 10.0.0.1"],
    ["64:ff9b::a9fe:a9fe", "NAT64 of metadata"],
    ["64:ff9b:1::808:808", "local-use NAT64"],
    ["2002:7f00:1::", "6to4 of loopback"],
    ["2002:a9fe:a9fe::1", "6to4 of metadata"],
    ["2002:c0a8:101::1", "6to4 of 192.168.1.1"],
    ["2001::1", "Teredo"],
    ["2001:2::1", "benchmarking"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation (RFC 9637)"],
    ["100::1", "discard-only"],
    ["5f00::1", "segment routing"],
  ])("%s (%s) is forbidden", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2a00:1450:4001:81a::200e",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "::808:808",
    "64:ff9b::8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("%s is allowed (public, or wraps a public IPv4 address)", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe("isForbiddenAddress: fails closed", () => {
  it.each([
    "",
    "localhost",
    "example.com",
    "127.1",
    "0x7f.0.0.1",
    "010.0.0.1",
    "8.8.8.08",
    "2130706433",
    "256.1.1.1",
    "1.2.3.4.5",
    " 8.8.8.8",
    "8.8.8.8 ",
    "[::1]",
    "[2606:4700:4700::1111]",
    "::ffff:010.0.0.1",
    "::ffff:8.8.8.08",
    "2606:4700:4700::1111/64",
    "gggg::1",
  ])("%j is forbidden", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });
});

describe("validateReceiverUrl", () => {
  const publicOnly = { allowPrivate: false };
  const sandbox = { allowPrivate: true };

  it.each([
    ["https://partner.example", "https://partner.example"],
    ["https://partner.example/", "https://partner.example"],
    ["https://partner.example/hooks/", "https://partner.example/hooks"],
    ["https://partner.example/hooks//", "https://partner.example/hooks"],
    ["https://Partner.Example:8443/a/b", "https://partner.example:8443/a/b"],
    ["https://partner.example:443/x", "https://partner.example/x"],
    ["https://partner.example/my hooks", "https://partner.example/my%20hooks"],
    ["https://bücher.example/", "https://xn--bcher-kva.example"],
    ["https://8.8.8.8/x", "https://8.8.8.8/x"],
    ["https://[2606:4700:4700::1111]/", "https://[2606:4700:4700::1111]"],
    ["https://partner.example/webhooks", "https://partner.example/webhooks"],
  ])("accepts %s as %s", (url, expected) => {
    expect(validateReceiverUrl(url, publicOnly)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ["not a url", /absolute http\(s\) URL/],
    ["/relative/path", /absolute http\(s\) URL/],
    ["partner.example/hooks", /absolute http\(s\) URL/],
    ["ftp://partner.example/", /https/],
    ["file:///etc/passwd", /https/],
    ["javascript:alert(1)", /https/],
    ["http://partner.example/", /https/],
    ["https://user:pw@partner.example/", /credentials/],
    ["https://user@partner.example/", /credentials/],
    ["https://partner.example/?token=1", /query/],
    ["https://partner.example/?", /query/],
    ["https://partner.example/#frag", /fragment/],
    ["https://partner.example#", /fragment/],
    ["https://partner.example/webhooks/transactions/success", /base URL/],
    ["https://partner.example/base/webhooks/transactions/refunded/", /base URL/],
    ["https://127.0.0.1/", /non-public/],
    ["https://0x7f.1/", /non-public/],
    ["https://2130706433/", /non-public/],
    ["https://017700000001/", /non-public/],
    ["https://169.254.169.254/latest/meta-data", /non-public/],
    ["https://10.0.0.5/", /non-public/],
    ["https://[::1]/", /non-public/],
    ["https://[::ffff:127.0.0.1]/", /non-public/],
    ["https://[fd00:ec2::254]/", /non-public/],
    ["https://localhost/", /non-public/],
    ["https://LOCALHOST./", /non-public/],
    ["https://api.localhost/", /non-public/],
    ["https://[fe80::1%25eth0]/", /absolute http\(s\) URL/],
    [`https://partner.example/${"a".repeat(2048)}`, /at most 2048/],
  ])("refuses %s", (url, message) => {
    const result = validateReceiverUrl(url, publicOnly);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "INVALID_FIELD", field: "url" });
    expect(result.error.message).toMatch(message);
  });

  it.each([
    ["http://127.0.0.1:9000/", "http://127.0.0.1:9000"],
    ["http://localhost:3000/hooks/", "http://localhost:3000/hooks"],
    ["https://10.0.0.5", "https://10.0.0.5"],
    ["http://[::1]:8080/r", "http://[::1]:8080/r"],
  ])("with allowPrivate accepts %s as %s", (url, expected) => {
    expect(validateReceiverUrl(url, sandbox)).toEqual({ ok: true, value: expected });
  });

  it.each(["ftp://127.0.0.1/", "http://u:p@127.0.0.1/", "http://127.0.0.1/?a=1", "http://127.0.0.1/#x"])(
    "with allowPrivate still refuses %s",
    (url) => {
      expect(validateReceiverUrl(url, sandbox).ok).toBe(false);
    },
  );
});

describe("validateReceiverUrl: ports", () => {
  const only443 = { allowPrivate: false, allowedPorts: [443] };

  it("accepts the scheme's default port or a listed one", () => {
    expect(validateReceiverUrl("https://receiver.example.com/hooks", only443).ok).toBe(true);
    expect(validateReceiverUrl("https://receiver.example.com:443/hooks", only443).ok).toBe(true);
    expect(
      validateReceiverUrl("https://receiver.example.com:8443", {
        allowPrivate: false,
        allowedPorts: [443, 8443],
      }).ok,
    ).toBe(true);
  });

  it("refuses a port the dispatcher's egress does not allow", () => {
    for (const url of ["https://receiver.example.com:8443/hooks", "https://receiver.example.com:22"]) {
      const result = validateReceiverUrl(url, only443);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatchObject({ code: "INVALID_FIELD", field: "url" });
    }
    const http = validateReceiverUrl("http://127.0.0.1/hooks", { allowPrivate: true, allowedPorts: [443] });
    expect(http.ok).toBe(false);
  });

  it("allows any port when no list is configured", () => {
    expect(validateReceiverUrl("https://receiver.example.com:8443", { allowPrivate: false }).ok).toBe(true);
  });
});
