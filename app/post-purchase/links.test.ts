import { describe, expect, it } from "vitest";
import {
  decideLinkStep,
  httpStatusOf,
  isOrderCustomer,
  linkAnswerOf,
  NONE_TTL_MS,
  parseOrderId,
  READY_TTL_MS,
  RETRY_AFTER_MS,
  THANK_YOU_WINDOW_MS,
  type LinkInput,
  type Placement,
} from "./links";
import { protectedLinesOf } from "./order-protection";

const NOW = new Date("2026-11-28T12:00:00Z");
const recent = new Date(NOW.getTime() - 5 * 60_000);
const old = new Date(NOW.getTime() - THANK_YOU_WINDOW_MS - 1);

const CUSTOMER = "gid://shopify/Customer/7";

const delivered: Extract<Placement, { kind: "recorded" }> = {
  kind: "recorded",
  status: "delivered",
  environment: "production",
  placedAt: recent,
  customerId: "7",
};

const input = (placement: Placement, overrides: Partial<LinkInput> = {}): LinkInput => ({
  placement,
  surface: "thank_you",
  selfServiceLink: true,
  now: NOW,
  ...overrides,
});

describe("parseOrderId", () => {
  it.each([
    ["gid://shopify/Order/123", "123"],
    ["gid://shopify/OrderIdentity/123", "123"],
    ["123", "123"],
    ["98765432109876543210", "98765432109876543210"],
  ])("reads %s as order %s", (value, orderId) => {
    expect(parseOrderId(value)).toEqual({ ok: true, orderId });
  });

  it.each([
    [null, "order_id is required"],
    ["", "order_id is required"],
    ["gid://shopify/Customer/123", "order_id must be"],
    ["gid://shopify/Order/abc", "order_id must be"],
    ["0", "order_id must be"],
    ["-1", "order_id must be"],
    ["12 3", "order_id must be"],
    ["123456789012345678901", "order_id must be"],
    ["gid://shopify/Order/123?x=1", "order_id must be"],
  ])("refuses %s", (value, message) => {
    const parsed = parseOrderId(value);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });
});

describe("decideLinkStep", () => {
  it("asks the service in the placement's environment once order_placed is delivered", () => {
    expect(decideLinkStep(input(delivered))).toEqual({
      kind: "ask_service",
      environment: "production",
      checkoutType: "redirect",
    });
    expect(decideLinkStep(input(delivered, { surface: "admin" }))).toMatchObject({
      kind: "ask_service",
      checkoutType: "assist",
    });
  });

  it.each(["pending", "delivering", "failed"] as const)(
    "answers not_yet while the placement is %s",
    (status) => {
      const step = decideLinkStep(input({ ...delivered, status }));
      expect(step).toMatchObject({
        kind: "answer",
        answer: { status: "not_yet", retry_after_ms: RETRY_AFTER_MS },
      });
    },
  );

  it.each(["dead", "unprocessable"] as const)("answers none for a %s placement", (status) => {
    expect(decideLinkStep(input({ ...delivered, status }))).toMatchObject({
      answer: { status: "none" },
    });
  });

  it("answers none when the placement is not reported, or nothing can be checked", () => {
    expect(decideLinkStep(input({ kind: "not_reported" }))).toMatchObject({
      answer: { status: "none" },
    });
    expect(decideLinkStep(input({ kind: "unchecked" }))).toMatchObject({
      answer: { status: "none" },
    });
  });

  it("waits for an order Shopify knows as the shop's, and refuses one it does not", () => {
    const known: Placement = { kind: "unrecorded", shopify: { exists: true, placedAt: recent } };
    expect(decideLinkStep(input(known))).toMatchObject({ answer: { status: "not_yet" } });
    const unknown: Placement = { kind: "unrecorded", shopify: { exists: false } };
    expect(decideLinkStep(input(unknown))).toMatchObject({ answer: { status: "none" } });
    expect(decideLinkStep(input(unknown, { surface: "admin" }))).toMatchObject({
      answer: { status: "none" },
    });
  });

  it("keeps the Thank-you token to recent orders; the Order status page and the admin have no window", () => {
    const oldDelivered: Placement = { ...delivered, placedAt: old };
    expect(decideLinkStep(input(oldDelivered))).toMatchObject({ answer: { status: "none" } });
    expect(
      decideLinkStep(input(oldDelivered, { surface: "order_status", customer: CUSTOMER })),
    ).toMatchObject({ kind: "ask_service" });
    expect(decideLinkStep(input(oldDelivered, { surface: "admin" }))).toMatchObject({
      kind: "ask_service",
    });
    const oldUnrecorded: Placement = {
      kind: "unrecorded",
      shopify: { exists: true, placedAt: old },
    };
    expect(decideLinkStep(input(oldUnrecorded))).toMatchObject({ answer: { status: "none" } });
  });

  it("answers none on the buyer's pages when the merchant switched the link off, never in the admin", () => {
    expect(decideLinkStep(input(delivered, { selfServiceLink: false }))).toMatchObject({
      answer: { status: "none" },
    });
    expect(
      decideLinkStep(input(delivered, { selfServiceLink: false, surface: "order_status" })),
    ).toMatchObject({ answer: { status: "none" } });
    expect(
      decideLinkStep(input(delivered, { selfServiceLink: false, surface: "admin" })),
    ).toMatchObject({ kind: "ask_service" });
  });
});

describe("the Order status page's customer match", () => {
  const orderStatus = (placement: Placement, customer?: string) =>
    decideLinkStep(input(placement, { surface: "order_status", customer }));

  it("asks the service only for the order's own customer", () => {
    expect(orderStatus(delivered, CUSTOMER)).toMatchObject({
      kind: "ask_service",
      checkoutType: "redirect",
    });
    for (const other of ["gid://shopify/Customer/8", "gid://shopify/Customer/70", undefined]) {
      expect(orderStatus(delivered, other), String(other)).toMatchObject({
        kind: "answer",
        answer: { status: "none" },
      });
    }
  });

  it("fails closed when the order has no recorded customer (a guest, a recovered order, redacted)", () => {
    expect(orderStatus({ ...delivered, customerId: null }, CUSTOMER)).toMatchObject({
      answer: { status: "none" },
      reason: expect.stringContaining("not the signed-in customer's"),
    });
  });

  it("tells another customer nothing of a placement still on its way", () => {
    expect(orderStatus({ ...delivered, status: "pending" }, CUSTOMER)).toMatchObject({
      answer: { status: "not_yet" },
    });
    expect(
      orderStatus({ ...delivered, status: "pending" }, "gid://shopify/Customer/8"),
    ).toMatchObject({ answer: { status: "none" } });
  });

  it("answers none for an order nothing records, known to Shopify or not: no existence oracle (decision 043)", () => {
    const known: Placement = {
      kind: "unrecorded",
      shopify: { exists: true, placedAt: new Date(NOW.getTime() - 60_000) },
    };
    const unknown: Placement = { kind: "unrecorded", shopify: { exists: false } };
    for (const placement of [known, unknown, { kind: "unasked" } as const]) {
      expect(orderStatus(placement, CUSTOMER), placement.kind).toMatchObject({
        kind: "answer",
        answer: { status: "none" },
      });
    }
    // The Thank-you page still waits for an order Shopify knows.
    expect(decideLinkStep(input(known))).toMatchObject({ answer: { status: "not_yet" } });
  });

  it("leaves the Thank-you page and the admin as they were: their tokens name no order's customer", () => {
    expect(decideLinkStep(input({ ...delivered, customerId: null }))).toMatchObject({
      kind: "ask_service",
    });
    expect(
      decideLinkStep(input({ ...delivered, customerId: null }, { surface: "admin" })),
    ).toMatchObject({ kind: "ask_service" });
  });
});

describe("isOrderCustomer", () => {
  it("matches a customer GID to the order's decimal customer ID exactly", () => {
    expect(isOrderCustomer("gid://shopify/Customer/115310627314723950", "115310627314723950")).toBe(
      true,
    );
    expect(isOrderCustomer("gid://shopify/Customer/7", "7")).toBe(true);
  });

  it.each([
    [undefined, "7"],
    ["gid://shopify/Customer/7", null],
    ["7", "7"],
    ["gid://shopify/Customer/07", "7"],
    ["gid://shopify/Customer/7?x=1", "7"],
    ["gid://shopify/CompanyContact/7", "7"],
    ["gid://shopify/Customer/", ""],
    ["gid://shopify/Customer/71", "7"],
  ])("does not match sub %s to customer %s", (sub, customerId) => {
    expect(isOrderCustomer(sub, customerId)).toBe(false);
  });
});

describe("linkAnswerOf", () => {
  const plans = [
    {
      line_item_id: "1",
      product_reference: "ref",
      plan_price_amount: 1999,
      plan_price_currency: "eur",
    },
  ];

  it("gives the link of the checkout type asked for, cached for a while", () => {
    const result = {
      kind: "success" as const,
      status: 200,
      data: { order_id: "1", redirect_link: "https://svc.test/r/1", available_plans: plans },
    };
    expect(linkAnswerOf(result, "redirect")).toEqual({
      answer: { status: "ready", link: "https://svc.test/r/1", available_plans: plans },
      ttlMs: READY_TTL_MS,
    });
    // An answer without the asked type's link is the service misbehaving: not cached.
    expect(linkAnswerOf(result, "assist")).toMatchObject({
      answer: { status: "error", error: { code: "service_unavailable" } },
      ttlMs: 0,
    });
  });

  it("answers none for the service's 404, cached briefly", () => {
    expect(linkAnswerOf({ kind: "not_found", status: 404 }, "redirect")).toEqual({
      answer: { status: "none" },
      ttlMs: NONE_TTL_MS,
    });
  });

  it("answers an uncached error for a time-out, a 5xx and a refused key", () => {
    expect(
      linkAnswerOf({ kind: "retryable", reason: "timeout", message: "slow" }, "redirect"),
    ).toMatchObject({ answer: { error: { code: "service_timeout" } }, ttlMs: 0 });
    expect(
      linkAnswerOf(
        { kind: "retryable", reason: "server_error", status: 503, message: "down" },
        "redirect",
      ),
    ).toMatchObject({ answer: { error: { code: "service_unavailable" } }, ttlMs: 0 });
    expect(linkAnswerOf({ kind: "unauthorized", status: 401 }, "assist")).toMatchObject({
      answer: { status: "error" },
      ttlMs: 0,
    });
  });
});

describe("httpStatusOf", () => {
  it("follows the contract", () => {
    expect(httpStatusOf({ status: "none" })).toBe(200);
    expect(httpStatusOf({ status: "not_yet", retry_after_ms: 1 })).toBe(202);
    expect(httpStatusOf({ status: "error", error: { code: "service_timeout", message: "" } })).toBe(
      504,
    );
    expect(
      httpStatusOf({ status: "error", error: { code: "service_unavailable", message: "" } }),
    ).toBe(502);
  });
});

describe("protectedLinesOf", () => {
  it("pairs each plan line with the product line it protects", () => {
    const body = JSON.stringify({
      type: "order_placed",
      payload: {
        line_items: [
          { id: "11", product_id: "v1", product_title: "Laptop", quantity: 2 },
          {
            id: "12",
            product_id: "p1",
            product_title: "2-year protection",
            quantity: 2,
            custom_properties: { product_reference: "v1" },
          },
          { id: "13", product_id: "v2", product_title: "Shoes", quantity: 1 },
        ],
      },
    });
    expect(protectedLinesOf(body)).toEqual([
      {
        line_item_id: "11",
        title: "Laptop",
        quantity: 2,
        plan_line_item_id: "12",
        plan_title: "2-year protection",
        product_reference: "v1",
      },
    ]);
    expect(protectedLinesOf("not json")).toEqual([]);
  });
});
