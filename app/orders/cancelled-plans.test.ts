// The cancel check (decision 027) on Shopify's sample orders/cancelled payload, with a plan line
// added as the storefront writes it, and on orders as the Admin API answers them.
import { describe, expect, it } from "vitest";
import { readShopifyFixture } from "../../test/support/webhooks";
import { parseWebhookJson } from "../lib/json";
import {
  cancelledOrderHasPlans,
  cancelledPlansRefundNote,
  checkCancelledPlans,
} from "./cancelled-plans";
import type { JsonObject } from "./payload-reader";
import { planRefundTriggerOf, type CurrentOrderLine } from "./plan-refunds";

function cancelledSample(): JsonObject {
  return parseWebhookJson(
    readShopifyFixture("orders_cancelled", "shopify-docs-2026-04_gadget.json"),
  ) as JsonObject;
}

function line(
  id: string,
  protectedRef: string | null,
  refundableQuantity: number,
  unfulfilledQuantity = 0,
): CurrentOrderLine {
  return { id, variantRef: `v${id}`, protectedRef, refundableQuantity, unfulfilledQuantity };
}

describe("cancelledOrderHasPlans", () => {
  it("is false for Shopify's sample, which has no plan line", () => {
    expect(cancelledOrderHasPlans(cancelledSample())).toBe(false);
  });

  it("is true once one of its lines carries the plan property", () => {
    const order = cancelledSample();
    const lines = order.line_items as JsonObject[];
    lines[1]!.properties = [
      { name: "_svc_protected_product_ref", value: String(lines[0]!.product_id) },
    ];
    expect(cancelledOrderHasPlans(order)).toBe(true);
    // The REST wrapper ({"order": {...}}) is read the same way.
    expect(cancelledOrderHasPlans({ order })).toBe(true);
  });

  it("is false for a body that is not an order", () => {
    expect(cancelledOrderHasPlans(null)).toBe(false);
    expect(cancelledOrderHasPlans({ line_items: "none" })).toBe(false);
  });
});

describe("checkCancelledPlans", () => {
  it("is done when the cancellation refunded every plan unit", () => {
    const check = checkCancelledPlans({
      cancelled: true,
      lines: [line("1", null, 0), line("2", "v1", 0), line("3", "v1", 0)],
    });
    expect(check).toEqual({ kind: "refunded", planLines: 2 });
  });

  it("lists the plan units not refunded, and never a product line", () => {
    const check = checkCancelledPlans({
      cancelled: true,
      lines: [line("1", null, 2), line("2", "v1", 2), line("3", "v1", 0), line("4", "", 1)],
    });
    expect(check).toEqual({
      kind: "not_refunded",
      units: 3,
      lines: [
        { lineItemId: "2", quantity: 2, restockType: "NO_RESTOCK" },
        { lineItemId: "4", quantity: 1, restockType: "NO_RESTOCK" },
      ],
    });
  });

  it("cancels the restock only while the units are still unfulfilled", () => {
    const check = checkCancelledPlans({
      cancelled: true,
      lines: [line("2", "v1", 2, 2), line("3", "v1", 2, 1)],
    });
    expect(check).toMatchObject({
      lines: [
        { lineItemId: "2", restockType: "CANCEL" },
        { lineItemId: "3", restockType: "NO_RESTOCK" },
      ],
    });
  });

  it("has nothing to check on an order without plans, or one that is not cancelled", () => {
    expect(checkCancelledPlans({ cancelled: true, lines: [line("1", null, 1)] })).toEqual({
      kind: "no_plans",
    });
    expect(checkCancelledPlans({ cancelled: false, lines: [line("2", "v1", 1)] })).toEqual({
      kind: "not_cancelled",
    });
  });
});

describe("cancelledPlansRefundNote", () => {
  it("names the order, and is not taken for a plan refund's note", () => {
    const note = cancelledPlansRefundNote("820982911946154508");
    expect(note).toBe(
      "svc-protection: plans refunded with their cancelled order (order 820982911946154508)",
    );
    expect(planRefundTriggerOf(note)).toBeNull();
  });
});
