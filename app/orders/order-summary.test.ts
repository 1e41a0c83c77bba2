import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../test/support/test-env";
import type { OrderPlacedPayload } from "../protection/types";
import { mapOrderWebhook } from "./map-webhook";
import { parseWebhookJson } from "../lib/json";
import { orderCustomerIdOf, summarizeOrderPlaced } from "./order-summary";

function placedPayloadOf(file: string): OrderPlacedPayload {
  const raw = readFileSync(path.join(repoRoot, file), "utf8");
  const mapping = mapOrderWebhook("orders/create", parseWebhookJson(raw), {
    reportOrdersWithoutPlan: true,
  });
  if (mapping.kind !== "events") throw new Error(`${file} did not map to events`);
  const placed = mapping.events[0]!.event;
  if (placed.type !== "order_placed") throw new Error(`${file}: first event is ${placed.type}`);
  return placed.payload;
}

describe("summarizeOrderPlaced", () => {
  it("counts the plan lines of the sample lifecycle order and their revenue", () => {
    const payload = placedPayloadOf("test/fixtures/lifecycle/orders-create.json");
    const summary = summarizeOrderPlaced(payload);
    const plans = payload.line_items.filter((line) => line.custom_properties?.product_reference);
    expect(plans.length).toBeGreaterThan(0);
    expect(summary).toMatchObject({
      orderId: payload.order_id,
      currency: payload.order_currency,
      lineCount: payload.line_items.length,
      planLineCount: plans.length,
    });
    expect(summary.planRevenue).toBe(
      plans.reduce((sum, line) => sum + line.price_amount * line.quantity, 0),
    );
    expect(summary.planRevenue).toBeGreaterThan(0);
    expect(summary.placedAt.toISOString()).toBe(payload.placed_at);
    // The protected products are among the variants; the plans are not.
    for (const plan of plans) {
      expect(summary.variantIds).toContain(plan.custom_properties!.product_reference);
      expect(summary.variantIds).not.toContain(plan.product_id);
    }
  });

  it("gives zero plan lines and revenue for an order without a plan", () => {
    const summary = summarizeOrderPlaced({
      order_id: "1",
      placed_at: "2026-11-22T10:00:00.000Z",
      order_currency: "jpy",
      customer: { first_name: "", last_name: "", email: "" },
      customer_billing_address: { address_line_1: "", address_line_2: "", city: "", zip: "" },
      line_items: [
        {
          id: "a",
          quantity: 2,
          price_amount: 1500,
          product_id: "7",
          product_title: "",
          product_brand: "",
        },
        {
          id: "b",
          quantity: 1,
          price_amount: 900,
          product_id: "7",
          product_title: "",
          product_brand: "",
        },
      ],
    });
    expect(summary).toMatchObject({
      lineCount: 2,
      planLineCount: 0,
      planRevenue: 0,
      variantIds: ["7"],
    });
  });
});

describe("orderCustomerIdOf", () => {
  it("reads the sample order's customer ID with every digit (past 2^53)", () => {
    const raw = readFileSync(
      path.join(repoRoot, "test/fixtures/lifecycle/orders-create.json"),
      "utf8",
    );
    expect(orderCustomerIdOf(parseWebhookJson(raw))).toBe("115310627314723950");
  });

  it("gives null for a guest checkout and for anything that is not a customer ID", () => {
    expect(orderCustomerIdOf({ id: 1, customer: null })).toBeNull();
    expect(orderCustomerIdOf({ id: 1 })).toBeNull();
    expect(orderCustomerIdOf({ customer: { id: "" } })).toBeNull();
    expect(orderCustomerIdOf({ customer: { id: "gid://shopify/Customer/7" } })).toBeNull();
    expect(orderCustomerIdOf({ customer: { id: 0 } })).toBeNull();
    expect(orderCustomerIdOf({ customer: { id: 7.5 } })).toBeNull();
    expect(orderCustomerIdOf("not an order")).toBeNull();
    expect(orderCustomerIdOf({ customer: { id: 207119551 } })).toBe("207119551");
  });
});
