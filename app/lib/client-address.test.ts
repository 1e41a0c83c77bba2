import { describe, expect, it } from "vitest";
import { clientAddressOf, keyOfAddress, socketAddressOf } from "./client-address";

describe("clientAddressOf", () => {
  const forwardedFor = "6.6.6.6, 198.51.100.4, 10.0.0.2";

  it("uses the socket's address with no trusted proxy, whatever the client forwards", () => {
    expect(clientAddressOf({ forwardedFor, socketAddress: "203.0.113.9", trustedProxies: 0 })).toBe(
      "203.0.113.9",
    );
    expect(
      clientAddressOf({ forwardedFor: null, socketAddress: "203.0.113.9", trustedProxies: 0 }),
    ).toBe("203.0.113.9");
  });

  it("takes the Nth entry from the right through N trusted proxies", () => {
    const at = (trustedProxies: number) =>
      clientAddressOf({ forwardedFor, socketAddress: "10.0.0.3", trustedProxies });
    expect(at(1)).toBe("10.0.0.2");
    expect(at(2)).toBe("198.51.100.4");
    expect(at(3)).toBe("6.6.6.6");
  });

  it("takes the furthest entry when there are fewer than the trusted hops", () => {
    expect(
      clientAddressOf({
        forwardedFor: "198.51.100.4",
        socketAddress: "10.0.0.3",
        trustedProxies: 4,
      }),
    ).toBe("198.51.100.4");
    expect(
      clientAddressOf({ forwardedFor: " , ", socketAddress: "10.0.0.3", trustedProxies: 2 }),
    ).toBe("10.0.0.3");
  });

  it("names nobody when exact and the header is short of the trusted hops", () => {
    // The app proxy: Shopify's proxy is one hop more, and a proxy of ours that replaced its entry
    // left only Shopify's own address, which is no visitor's.
    const proxied = (forwardedFor: string | null) =>
      clientAddressOf({ forwardedFor, socketAddress: "10.0.0.3", trustedProxies: 2, exact: true });
    expect(proxied("6.6.6.6, 198.51.100.4, 10.0.0.2")).toBe("198.51.100.4");
    expect(proxied("198.51.100.4, 10.0.0.2")).toBe("198.51.100.4");
    expect(proxied("10.0.0.2")).toBe(undefined);
    expect(proxied(null)).toBe(undefined);
  });

  it("gives nothing when no address is known", () => {
    expect(
      clientAddressOf({ forwardedFor: null, socketAddress: undefined, trustedProxies: 0 }),
    ).toBe(undefined);
    // Only entries a client could have written, and no proxy trusted: still the socket (unknown).
    expect(clientAddressOf({ forwardedFor, socketAddress: undefined, trustedProxies: 0 })).toBe(
      undefined,
    );
  });

  it("counts an IPv6 client by its /64, and an IPv4-mapped one as IPv4", () => {
    const a = clientAddressOf({
      forwardedFor: null,
      socketAddress: "2001:db8:1:2:aaaa::1",
      trustedProxies: 0,
    });
    const b = clientAddressOf({
      forwardedFor: null,
      socketAddress: "2001:0db8:0001:0002:ffff:1:2:3",
      trustedProxies: 0,
    });
    expect(a).toBe("2001:db8:1:2::/64");
    expect(b).toBe(a);
    expect(
      clientAddressOf({ forwardedFor: null, socketAddress: "::ffff:192.0.2.7", trustedProxies: 0 }),
    ).toBe("192.0.2.7");
  });
});

describe("keyOfAddress", () => {
  it.each([
    ["192.0.2.1:8443", "192.0.2.1"],
    ["[2001:db8::1]:443", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::ffff:c000:0207", "192.0.2.7"],
    ["unknown", "unknown"],
  ])("%s is %s", (raw, key) => {
    expect(keyOfAddress(raw)).toBe(key);
  });

  it("cuts a long entry", () => {
    expect(keyOfAddress("x".repeat(500))).toHaveLength(64);
  });
});

describe("socketAddressOf", () => {
  it("reads the load context's socketAddress and nothing else", () => {
    expect(socketAddressOf({ socketAddress: "192.0.2.1" })).toBe("192.0.2.1");
    expect(socketAddressOf({ socketAddress: 7 })).toBe(undefined);
    expect(socketAddressOf({})).toBe(undefined);
    expect(socketAddressOf(undefined)).toBe(undefined);
  });
});
