import { describe, expect, it } from "vitest";
import { throttleAddressKey } from "./throttle-address.js";

describe("throttleAddressKey", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["::FFFF:192.0.2.1", "192.0.2.1"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["64:ff9b::192.0.2.1", "64:ff9b:0:0::/64"],
  ])("%s → %s", (ip, key) => {
    expect(throttleAddressKey(ip)).toBe(key);
  });

  it("puts every address of one /64 under one key and other /64s under others", () => {
    expect(throttleAddressKey("2001:db8:a:b::1")).toBe(throttleAddressKey("2001:db8:a:b:ffff:1:2:3"));
    expect(throttleAddressKey("2001:db8:a:b::1")).not.toBe(throttleAddressKey("2001:db8:a:c::1"));
  });
});
