import { describe, expect, it } from "vitest";
import {
  BodyLedger,
  claimsShopifyDelivery,
  maxBodyBytesFor,
  sourceKeyOf,
  type BodyReceipt,
  type EdgeLimits,
} from "./body-limits.server";

const limits: EdgeLimits = {
  maxBodyBytes: 1_000_000,
  orderWebhookMaxBodyBytes: 8_000_000,
  budgetBytes: 10_000,
  webhookReserveBytes: 4_000,
  webhookReservePerSourceBytes: 3_000,
  bodiesPerSource: 2,
  minBodyBytesPerSecond: 1_000,
  bodyRateWindowMs: 2_000,
  trustedProxies: 0,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
};

function ask(bytes: number, address = "192.0.2.1", shopifyDelivery = false) {
  return {
    headers: { "content-length": String(bytes) },
    maxBytes: 5_000,
    address,
    shopifyDelivery,
  };
}

function admitted(ledger: BodyLedger, request: ReturnType<typeof ask>, now = 0): BodyReceipt {
  const admission = ledger.admit(request, now);
  if (admission.kind !== "admit" || !admission.receipt) {
    throw new Error(`Expected a receipt, got ${JSON.stringify(admission)}`);
  }
  return admission.receipt;
}

describe("maxBodyBytesFor", () => {
  it("gives order webhooks their own cap, small routes smaller ones, the rest the general one", () => {
    expect(maxBodyBytesFor("/webhooks/orders/create", true, limits)).toBe(8_000_000);
    expect(maxBodyBytesFor("/proxy/cart_updates", false, limits)).toBe(256 * 1024);
    expect(maxBodyBytesFor("/auth/login", false, limits)).toBe(16 * 1024);
    expect(maxBodyBytesFor("/webhooks/customers/redact", false, limits)).toBe(1_000_000);
  });
});

describe("BodyLedger.admit", () => {
  it("refuses a body over its cap (413) and a chunked one (411) before reading it", () => {
    const ledger = new BodyLedger(limits);
    expect(ledger.admit(ask(5_001), 0)).toMatchObject({ status: 413 });
    expect(
      ledger.admit({ ...ask(0), headers: { "transfer-encoding": "chunked" } }, 0),
    ).toMatchObject({ status: 411 });
    expect(ledger.admit({ ...ask(0), headers: { "content-length": "-1" } }, 0)).toMatchObject({
      status: 411,
    });
    // A request without a body costs nothing and needs no receipt.
    expect(ledger.admit({ ...ask(0), headers: {} }, 0)).toEqual({ kind: "admit", receipt: null });
    expect(ledger.admit(ask(0), 0)).toEqual({ kind: "admit", receipt: null });
    expect(ledger.used).toBe(0);
  });

  it("holds nothing for a declared length: any number of idle senders leave the budget free", () => {
    const ledger = new BodyLedger({ ...limits, bodiesPerSource: 100 });
    for (let index = 0; index < 50; index += 1) admitted(ledger, ask(5_000));
    expect(ledger.used).toBe(0);
    expect(ledger.receiving).toBe(50);
    expect(ledger.admit(ask(5_000, "192.0.2.9"), 0)).toMatchObject({ kind: "admit" });
  });

  it("answers 503 when what is free now cannot hold the declared body", () => {
    const ledger = new BodyLedger(limits);
    // The general part is 6,000 bytes; 5,000 of them arrive.
    const first = admitted(ledger, ask(5_000));
    expect(ledger.receive(first, 5_000)).toBe("ok");
    expect(ledger.admit(ask(1_001, "192.0.2.2"), 0)).toMatchObject({ kind: "busy", status: 503 });
    expect(ledger.admit(ask(1_000, "192.0.2.2"), 0)).toMatchObject({ kind: "admit" });
    ledger.release(first);
    expect(ledger.used).toBe(0);
    expect(ledger.admit(ask(5_000, "192.0.2.2"), 0)).toMatchObject({ kind: "admit" });
  });

  it("lets one address send bodiesPerSource unauthenticated bodies at once, 429 beyond", () => {
    const ledger = new BodyLedger(limits);
    const first = admitted(ledger, ask(10));
    admitted(ledger, ask(10));
    expect(ledger.admit(ask(10), 0)).toMatchObject({ kind: "source_busy", status: 429 });
    // Other addresses, and deliveries with Shopify's headers, are not held back by it.
    expect(ledger.admit(ask(10, "192.0.2.2"), 0)).toMatchObject({ kind: "admit" });
    expect(ledger.admit(ask(10, "192.0.2.1", true), 0)).toMatchObject({ kind: "admit" });
    // A body that has arrived whole no longer counts as being sent.
    expect(ledger.receive(first, 10)).toBe("ok");
    ledger.complete(first);
    expect(ledger.admit(ask(10), 0)).toMatchObject({ kind: "admit" });
  });

  it("counts IPv6 senders by their /64 and IPv4-mapped addresses as IPv4", () => {
    const ledger = new BodyLedger(limits);
    admitted(ledger, ask(10, "2001:db8:1:2::1"));
    admitted(ledger, ask(10, "2001:db8:1:2:ffff::9"));
    expect(ledger.admit(ask(10, "2001:0db8:0001:0002::7"), 0)).toMatchObject({ status: 429 });
    expect(sourceKeyOf("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(sourceKeyOf("::1")).toBe("0:0:0:0::/64");
    expect(sourceKeyOf(undefined)).toBe("unknown");
  });
});

describe("BodyLedger.receive", () => {
  it("counts each chunk as it arrives and refuses bytes past the declared length", () => {
    const ledger = new BodyLedger(limits);
    const receipt = admitted(ledger, ask(100));
    expect(ledger.receive(receipt, 60)).toBe("ok");
    expect(ledger.used).toBe(60);
    expect(ledger.receive(receipt, 41)).toBe("too_large");
    expect(ledger.used).toBe(60);
    ledger.release(receipt);
    ledger.release(receipt);
    expect(ledger.used).toBe(0);
  });

  it("refuses a chunk the general part cannot hold: the budget is a bound on bytes held", () => {
    const ledger = new BodyLedger({ ...limits, bodiesPerSource: 10 });
    const a = admitted(ledger, ask(4_000));
    const b = admitted(ledger, ask(4_000));
    expect(ledger.receive(a, 4_000)).toBe("ok");
    expect(ledger.receive(b, 2_000)).toBe("ok");
    expect(ledger.receive(b, 1)).toBe("busy");
    expect(ledger.used).toBe(6_000);
  });

  it("keeps the reserve for Shopify's deliveries, and gives one address only its share", () => {
    const ledger = new BodyLedger({ ...limits, bodiesPerSource: 10 });
    // Unauthenticated senders fill the general part (6,000 bytes).
    const filler = admitted(ledger, ask(5_000, "198.51.100.1"));
    const filler2 = admitted(ledger, ask(1_000, "198.51.100.2"));
    expect(ledger.receive(filler, 5_000)).toBe("ok");
    expect(ledger.receive(filler2, 1_000)).toBe("ok");
    expect(ledger.admit(ask(1, "198.51.100.3"), 0)).toMatchObject({ status: 503 });

    // A delivery takes the reserve: up to 3,000 bytes from one address, 4,000 in all.
    const delivery = admitted(ledger, ask(3_000, "203.0.113.1", true));
    expect(ledger.admit(ask(1, "203.0.113.1", true), 0)).toMatchObject({ kind: "admit" });
    expect(ledger.receive(delivery, 3_000)).toBe("ok");
    expect(ledger.reserveUsed).toBe(3_000);
    expect(ledger.admit(ask(1, "203.0.113.1", true), 0)).toMatchObject({ status: 503 });
    expect(ledger.admit(ask(1_001, "203.0.113.2", true), 0)).toMatchObject({ status: 503 });
    const other = admitted(ledger, ask(1_000, "203.0.113.2", true));
    expect(ledger.receive(other, 1_000)).toBe("ok");
    expect(ledger.used).toBe(10_000);

    ledger.release(delivery);
    expect(ledger.reserveUsed).toBe(1_000);
    expect(ledger.admit(ask(3_000, "203.0.113.1", true), 0)).toMatchObject({ kind: "admit" });
    ledger.release(filler);
    ledger.release(filler2);
    ledger.release(other);
    expect(ledger.used).toBe(0);
    expect(ledger.reserveUsed).toBe(0);
  });

  it("takes a delivery's bytes from the general part first, then from the reserve", () => {
    const ledger = new BodyLedger(limits);
    const filler = admitted(ledger, ask(5_000, "198.51.100.1"));
    expect(ledger.receive(filler, 5_000)).toBe("ok");
    const delivery = admitted(ledger, ask(2_500, "203.0.113.1", true));
    expect(ledger.receive(delivery, 2_500)).toBe("ok");
    expect(ledger.reserveUsed).toBe(1_500);
    ledger.release(filler);
    ledger.release(delivery);
    expect(ledger.used).toBe(0);
  });
});

describe("BodyLedger.tooSlow", () => {
  it("finds bodies that brought less than the minimum rate in a window, and only those", () => {
    const ledger = new BodyLedger({ ...limits, bodiesPerSource: 10 });
    const idle = admitted(ledger, ask(5_000), 0);
    const steady = admitted(ledger, ask(5_000), 0);
    const small = admitted(ledger, ask(500), 0);
    const trickle = admitted(ledger, ask(5_000), 0);
    expect(ledger.receive(steady, 2_000)).toBe("ok");
    expect(ledger.receive(small, 500)).toBe("ok");
    ledger.complete(small);
    expect(ledger.receive(trickle, 1_999)).toBe("ok");
    // The window (2 s at 1,000 bytes a second: 2,000 bytes) has not ended yet.
    expect(ledger.tooSlow(1_999)).toEqual([]);
    expect(ledger.tooSlow(2_000)).toEqual([idle, trickle]);
  });

  it("asks each window for its own bytes: a fast start does not pay for a stall", () => {
    const ledger = new BodyLedger(limits);
    const receipt = admitted(ledger, ask(5_000), 0);
    expect(ledger.receive(receipt, 4_000)).toBe("ok");
    expect(ledger.tooSlow(2_000)).toEqual([]);
    expect(ledger.tooSlow(4_000)).toEqual([receipt]);
  });

  it("asks a body nearly done only for what it still has to send", () => {
    const ledger = new BodyLedger(limits);
    const receipt = admitted(ledger, ask(2_500), 0);
    expect(ledger.receive(receipt, 2_000)).toBe("ok");
    expect(ledger.tooSlow(2_000)).toEqual([]);
    expect(ledger.receive(receipt, 499)).toBe("ok");
    expect(ledger.tooSlow(4_000)).toEqual([receipt]);
    const done = admitted(ledger, ask(2_500), 4_000);
    expect(ledger.receive(done, 2_000)).toBe("ok");
    expect(ledger.tooSlow(6_000)).not.toContain(done);
    expect(ledger.receive(done, 500)).toBe("ok");
    expect(ledger.tooSlow(8_000)).not.toContain(done);
  });

  it("forgets released bodies", () => {
    const ledger = new BodyLedger(limits);
    const receipt = admitted(ledger, ask(5_000), 0);
    ledger.release(receipt);
    expect(ledger.tooSlow(10_000)).toEqual([]);
    expect(ledger.receiving).toBe(0);
  });
});

describe("claimsShopifyDelivery", () => {
  const headers = {
    "x-shopify-hmac-sha256": "q0MkBPsUOSHVgAd5Mq1Vs2gZtF6z1OplW4dJZTf2Y7g=",
    "x-shopify-topic": "orders/create",
    "x-shopify-shop-domain": "a-shop.myshopify.com",
    "x-shopify-webhook-id": "b1",
  };

  it("is true for a POST to the topic's own path with Shopify's headers well formed", () => {
    expect(claimsShopifyDelivery("POST", "/webhooks/orders/create", headers)).toBe(true);
  });

  it.each([
    ["a GET", "GET", "/webhooks/orders/create", headers],
    ["another path", "POST", "/webhooks/customers/redact", headers],
    ["the app proxy", "POST", "/proxy/cart_updates", headers],
    [
      "no HMAC",
      "POST",
      "/webhooks/orders/create",
      { ...headers, "x-shopify-hmac-sha256": undefined },
    ],
    [
      "a malformed HMAC",
      "POST",
      "/webhooks/orders/create",
      { ...headers, "x-shopify-hmac-sha256": "x" },
    ],
    [
      "a shop elsewhere",
      "POST",
      "/webhooks/orders/create",
      { ...headers, "x-shopify-shop-domain": "evil.example" },
    ],
    [
      "no webhook ID",
      "POST",
      "/webhooks/orders/create",
      { ...headers, "x-shopify-webhook-id": undefined },
    ],
  ])("is false for %s", (_name, method, path, given) => {
    expect(claimsShopifyDelivery(method, path, given)).toBe(false);
  });
});
