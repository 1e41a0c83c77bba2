import { describe, expect, it } from "vitest";
import { parseOrderProtection } from "./order-state";

// The contract's admin body (decision 034, "The answers": the admin route).
const BODY = {
  order: { id: "123", name: "#1001", environment: "sandbox" },
  protected_lines: [
    {
      line_item_id: "11",
      title: "Laptop",
      quantity: 1,
      plan_line_item_id: "12",
      plan_title: "2-year protection",
      product_reference: "laptop-2y",
    },
  ],
  events: [
    {
      type: "order_placed",
      status: "delivered",
      recorded_at: "2026-11-28T10:00:00.000Z",
      delivered_at: "2026-11-28T10:00:01.000Z",
    },
  ],
  guided_checkout: { status: "ready", link: "https://svc.example/assist/1", available_plans: [] },
};

describe("parseOrderProtection", () => {
  it("reads the contract's body", () => {
    expect(parseOrderProtection(200, BODY)).toEqual({
      status: "ok",
      protection: {
        order: { id: "123", name: "#1001", environment: "sandbox" },
        protectedLines: [
          {
            lineItemId: "11",
            title: "Laptop",
            quantity: 1,
            planLineItemId: "12",
            planTitle: "2-year protection",
            productReference: "laptop-2y",
          },
        ],
        events: [
          {
            type: "order_placed",
            status: "delivered",
            recordedAt: "2026-11-28T10:00:00.000Z",
            deliveredAt: "2026-11-28T10:00:01.000Z",
          },
        ],
        guidedCheckout: {
          status: "ready",
          link: "https://svc.example/assist/1",
          availablePlans: [],
        },
      },
    });
  });

  it("reads an order the app has recorded nothing for", () => {
    const answer = parseOrderProtection(200, {
      order: { id: "123", name: null, environment: null },
      protected_lines: [],
      events: [],
      guided_checkout: { status: "not_yet", retry_after_ms: 1500 },
    });
    expect(answer).toMatchObject({
      status: "ok",
      protection: {
        order: { name: null, environment: null },
        protectedLines: [],
        events: [],
        guidedCheckout: { status: "not_yet", retryAfterMs: 1500 },
      },
    });
  });

  it("reads an event not delivered yet", () => {
    const event = { ...BODY.events[0], status: "pending", delivered_at: null };
    const answer = parseOrderProtection(200, { ...BODY, events: [event] });
    expect(answer).toMatchObject({ protection: { events: [{ deliveredAt: null }] } });
  });

  it("keeps the block when only guided_checkout is malformed", () => {
    const answer = parseOrderProtection(200, { ...BODY, guided_checkout: { status: "ready" } });
    expect(answer).toMatchObject({
      status: "ok",
      protection: { guidedCheckout: { status: "error" } },
    });
  });

  it.each([
    ["a 404", 404, { error: { code: "order_not_found", message: "…" } }, "order_not_found"],
    ["a 401", 401, "Unauthorized", "HTTP 401"],
    ["no order", 200, { ...BODY, order: undefined }, "no order"],
    ["an order without an id", 200, { ...BODY, order: { name: "#1" } }, "order is malformed"],
    ["lines that are not a list", 200, { ...BODY, protected_lines: null }, "protected_lines"],
    [
      "a line without a quantity",
      200,
      { ...BODY, protected_lines: [{ ...BODY.protected_lines[0], quantity: "1" }] },
      "protected_lines",
    ],
    ["events missing", 200, { ...BODY, events: undefined }, "events"],
    [
      "an event without a type",
      200,
      { ...BODY, events: [{ ...BODY.events[0], type: 1 }] },
      "events",
    ],
  ])("reads %s as an error", (_name, httpStatus, body, reason) => {
    expect(parseOrderProtection(httpStatus, body)).toEqual({
      status: "error",
      reason: expect.stringContaining(reason),
    });
  });
});
