// The plan edit rules (decision 026) on Shopify's sample orders/edited and on hand-made orders:
// which edits queue a plan edit, and what quantity each plan line is brought down to.
import { describe, expect, it } from "vitest";
import { readShopifyFixture } from "../../test/support/webhooks";
import { parseWebhookJson } from "../lib/json";
import {
  type EditableOrderLine,
  planEditNote,
  planEditPhrase,
  planEditRefundAmount,
  planEditToQueue,
  planLineEdits,
  readEditTrigger,
} from "./plan-edits";
import type { OrderLineRef } from "./plan-refunds";

/** Shopify's 2026-04 sample: one unit of line 487817672276298560 removed, one unit added. */
function sampleEdit() {
  return parseWebhookJson(readShopifyFixture("orders_edited", "shopify-docs-2026-04_gadget.json"));
}

const REMOVED_LINE = "487817672276298560";
const ADDED_LINE = "78643924236718240";

function product(id: string, variant: string): OrderLineRef {
  return { id, variantRef: variant, protectedRef: null };
}

function plan(id: string, protects: string): OrderLineRef {
  return { id, variantRef: `plan-of-${protects}`, protectedRef: protects };
}

/** A line as the Admin API answers it: all units on the order and unfulfilled by default. */
function line(
  ref: OrderLineRef,
  currentQuantity: number,
  options: { unfulfilled?: number; unitPrice?: number; refundable?: number } = {},
): EditableOrderLine {
  return {
    ...ref,
    currentQuantity,
    refundableQuantity: options.refundable ?? currentQuantity,
    unfulfilledQuantity: options.unfulfilled ?? currentQuantity,
    unitPrice: options.unitPrice ?? 2900,
  };
}

describe("readEditTrigger", () => {
  it("reads the removals of Shopify's sample edit, IDs exact, additions left out", () => {
    expect(readEditTrigger(sampleEdit())).toEqual({
      kind: "trigger",
      orderId: "820982911946154500",
      editId: "78912328793123780",
      removals: [{ lineItemId: REMOVED_LINE, quantity: 1 }],
    });
  });

  it("triggers nothing for an edit that only adds units (the real 2026-04 sample)", () => {
    const payload = parseWebhookJson(
      readShopifyFixture("orders_edited", "real-anonymized_gadget-exemplar.json"),
    );
    expect(readEditTrigger(payload)).toEqual({
      kind: "none",
      detail: "order edit 123 removes no units",
    });
  });

  it("triggers nothing for a body without IDs", () => {
    expect(readEditTrigger({ order_edit: { line_items: {} } })).toMatchObject({ kind: "none" });
    expect(readEditTrigger(null)).toMatchObject({ kind: "none" });
  });
});

describe("planEditToQueue", () => {
  const placed = [product(REMOVED_LINE, "111"), plan("900", "111")];

  it("queues the sample's removal of a protected product", () => {
    const trigger = readEditTrigger(sampleEdit());
    if (trigger.kind !== "trigger") throw new Error("expected a trigger");
    expect(planEditToQueue(trigger.removals, placed)).toEqual({
      kind: "queue",
      lines: [{ lineItemId: REMOVED_LINE, quantity: 1 }],
    });
  });

  it("queues every removal when the placed order is not known yet", () => {
    const removals = [{ lineItemId: "1", quantity: 2 }];
    expect(planEditToQueue(removals, null)).toEqual({ kind: "queue", lines: removals });
  });

  it("queues nothing for an edit of plan lines only, as the app's own", () => {
    expect(planEditToQueue([{ lineItemId: "900", quantity: 1 }], placed)).toMatchObject({
      kind: "nothing",
    });
  });

  it("queues nothing for a product no plan protects, or a line added by an edit", () => {
    const unprotected = [...placed, product("5", "222")];
    expect(planEditToQueue([{ lineItemId: "5", quantity: 1 }], unprotected)).toMatchObject({
      kind: "nothing",
    });
    expect(planEditToQueue([{ lineItemId: ADDED_LINE, quantity: 1 }], placed)).toMatchObject({
      kind: "nothing",
    });
  });
});

describe("planLineEdits", () => {
  const laptop = product("1", "111");
  const laptopPlan = plan("2", "111");

  it("removes the plan of a wholly removed product", () => {
    const edits = planLineEdits(
      [{ lineItemId: "1", quantity: 1 }],
      [line(laptop, 0), line(laptopPlan, 1)],
    );
    expect(edits).toEqual([
      { planLineId: "2", protectedRef: "111", from: 1, to: 0, fulfilled: 0, value: 2900 },
    ]);
  });

  it("compares the units the customer still holds, whatever the restock of earlier refunds", () => {
    // Found by the plan chaos run: 3 laptops, one refunded without restock (still in the
    // current quantity), its plan unit refunded by the app with CANCEL (out of it); then an edit
    // removes a laptop. The customer holds 1 laptop and 2 plan units: one plan unit goes.
    const edits = planLineEdits(
      [{ lineItemId: "1", quantity: 1 }],
      [line(laptop, 2, { refundable: 1, unfulfilled: 1 }), line(laptopPlan, 2, { refundable: 2 })],
    );
    expect(edits).toEqual([
      { planLineId: "2", protectedRef: "111", from: 2, to: 1, fulfilled: 0, value: 2900 },
    ]);
  });

  it("reduces a plan of 3 to the 1 unit left of its product", () => {
    const edits = planLineEdits(
      [{ lineItemId: "1", quantity: 2 }],
      [line(laptop, 1), line(laptopPlan, 3)],
    );
    expect(edits).toMatchObject([{ planLineId: "2", from: 3, to: 1, value: 5800 }]);
    expect(planEditPhrase(edits)).toBe("3 → 1 unit(s)");
  });

  it("shares the product units left across several plan lines in line order", () => {
    const threeYears = plan("3", "111");
    const edits = planLineEdits(
      [{ lineItemId: "1", quantity: 2 }],
      [line(laptop, 1), line(laptopPlan, 1), line(threeYears, 2, { unitPrice: 4900 })],
    );
    // The first plan line keeps its unit; the second had two and keeps none.
    expect(edits).toEqual([
      { planLineId: "3", protectedRef: "111", from: 2, to: 0, fulfilled: 0, value: 9800 },
    ]);
  });

  it("counts every product line of the variant, and leaves other products' plans alone", () => {
    const secondLaptopLine = product("4", "111");
    const camera = product("5", "222");
    const cameraPlan = plan("6", "222");
    const edits = planLineEdits(
      [{ lineItemId: "1", quantity: 1 }],
      [
        line(laptop, 0),
        line(secondLaptopLine, 1),
        line(laptopPlan, 2),
        line(camera, 0),
        line(cameraPlan, 1),
      ],
    );
    expect(edits).toMatchObject([{ planLineId: "2", from: 2, to: 1 }]);
  });

  it("edits only the plans of the trigger's products, each brought to its own product", () => {
    const camera = product("5", "222");
    const cameraPlan = plan("6", "222");
    const edits = planLineEdits(
      [
        { lineItemId: "1", quantity: 1 },
        { lineItemId: "5", quantity: 2 },
      ],
      [line(laptop, 0), line(laptopPlan, 1), line(camera, 1), line(cameraPlan, 3)],
    );
    expect(edits.map((edit) => [edit.planLineId, edit.from, edit.to])).toEqual([
      ["2", 1, 0],
      ["6", 3, 1],
    ]);
  });

  it("does nothing when the merchant already reduced the plan, and never raises one", () => {
    expect(
      planLineEdits([{ lineItemId: "1", quantity: 1 }], [line(laptop, 2), line(laptopPlan, 1)]),
    ).toEqual([]);
    expect(
      planLineEdits([{ lineItemId: "1", quantity: 1 }], [line(laptop, 1), line(laptopPlan, 0)]),
    ).toEqual([]);
  });

  it("finds nothing to do on the order its own edit lowered: a second run changes nothing", () => {
    const trigger = [{ lineItemId: "1", quantity: 2 }];
    const before = [line(laptop, 1), line(laptopPlan, 3)];
    const [edit] = planLineEdits(trigger, before);
    const after = [line(laptop, 1), line(laptopPlan, edit!.to)];
    expect(planLineEdits(trigger, after)).toEqual([]);
  });

  it("reports fulfilled plan units that an edit cannot remove", () => {
    const edits = planLineEdits(
      [{ lineItemId: "1", quantity: 2 }],
      [line(laptop, 0), line(laptopPlan, 2, { unfulfilled: 1 })],
    );
    expect(edits).toEqual([
      { planLineId: "2", protectedRef: "111", from: 2, to: 1, fulfilled: 1, value: 2900 },
    ]);
    const allShipped = planLineEdits(
      [{ lineItemId: "1", quantity: 1 }],
      [line(laptop, 0), line(laptopPlan, 1, { unfulfilled: 0 })],
    );
    expect(allShipped).toMatchObject([{ from: 1, to: 1, fulfilled: 1, value: 0 }]);
  });

  it("leaves alone a plan whose product an edit added, and a trigger line that is a plan", () => {
    // The edit added a second laptop: the plan stays at 1, never raised to 2.
    expect(
      planLineEdits([{ lineItemId: "2", quantity: 1 }], [line(laptop, 2), line(laptopPlan, 1)]),
    ).toEqual([]);
    expect(planLineEdits([{ lineItemId: "99", quantity: 1 }], [line(laptopPlan, 1)])).toEqual([]);
  });
});

describe("planEditRefundAmount", () => {
  it("refunds the plan's removed value of a paid order, never more than it owes", () => {
    expect(planEditRefundAmount({ removedValue: 2900, outstanding: -102800, paid: true })).toBe(
      2900,
    );
    expect(planEditRefundAmount({ removedValue: 2900, outstanding: -1000, paid: true })).toBe(1000);
  });

  it("refunds nothing when the order owes nothing or was not paid", () => {
    expect(planEditRefundAmount({ removedValue: 2900, outstanding: 0, paid: true })).toBe(0);
    expect(planEditRefundAmount({ removedValue: 2900, outstanding: 500, paid: true })).toBe(0);
    expect(planEditRefundAmount({ removedValue: 2900, outstanding: -2900, paid: false })).toBe(0);
  });
});

describe("planEditNote", () => {
  it("names the trigger edit", () => {
    expect(planEditNote("78912328793123780")).toBe(
      "svc-protection: plan reduced with its product (edit 78912328793123780)",
    );
  });
});
