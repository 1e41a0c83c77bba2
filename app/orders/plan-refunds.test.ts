// The plan refund rules (decision 022) on Shopify's real payloads, copied with plan lines added:
// which refunds trigger one, which plan lines they name, and how many units each refunds.
import { describe, expect, it } from "vitest";
import { readShopifyFixture } from "../../test/support/webhooks";
import { parseWebhookJson } from "../lib/json";
import { mapOrderWebhook } from "./map-webhook";
import { placedPayload, REPORT_ALL } from "./map-webhook.test-support";
import type { JsonObject } from "./payload-reader";
import {
  type CurrentOrderLine,
  type OrderRefund,
  placedLineRefs,
  planLineRefund,
  planLinesForRefund,
  planRefundNote,
  planRefundTriggerOf,
  readRefundTrigger,
} from "./plan-refunds";

const PLAN_PROPERTY = "_svc_protected_product_ref";

function fixture(folder: string, file: string): JsonObject {
  return parseWebhookJson(readShopifyFixture(folder, file)) as JsonObject;
}

function linesOf(payload: JsonObject, key: string): JsonObject[] {
  return payload[key] as JsonObject[];
}

/** Shopify's sample refund: sunglasses and the "Lens Protection Plan" line, refunded together. */
function sunglassesRefund() {
  const refund = fixture("refunds_create", "shopify-docs-2026-04_gadget.json");
  const [sunglasses, lensPlan] = linesOf(refund, "refund_line_items");
  // The sample's plan line, as our storefront writes it: it protects the sunglasses, whose line
  // has no variant, so its reference is the product ID, as order_placed reports that line.
  (lensPlan!.line_item as JsonObject).properties = [
    { name: PLAN_PROPERTY, value: String((sunglasses!.line_item as JsonObject).product_id) },
  ];
  return refund;
}

/** The real VND refund that cancels one unshipped unit, on an order that also had its plan. */
function vndRefund() {
  return fixture("refunds_create", "real-vnd-restock_pipedream.json");
}

/** The real EUR order of two tees, with a plan line for them added after the tee line. */
function teeOrderWithPlan() {
  const order = fixture("orders_create", "real-eur-qty2_qrshirt_app.json");
  const [tee] = linesOf(order, "line_items");
  const plan = {
    ...tee,
    id: 16735263850900,
    variant_id: 51734523249999,
    product_id: 10102729149999,
    title: "Accident protection",
    properties: [{ name: PLAN_PROPERTY, value: String(tee!.variant_id) }],
  };
  order.line_items = [tee, plan];
  return order;
}

describe("the app's note on its plan refunds", () => {
  it("names the trigger refund, and no other note reads as ours", () => {
    const note = planRefundNote("890088186047892319");
    expect(note).toBe("svc-protection: plan refunded with its product (refund 890088186047892319)");
    expect(planRefundTriggerOf(note)).toBe("890088186047892319");
    expect(planRefundTriggerOf("Things were damaged")).toBeNull();
    expect(planRefundTriggerOf(null)).toBeNull();
  });
});

describe("readRefundTrigger", () => {
  it("reads the refunded lines of Shopify's sample, with what each line item says of itself", () => {
    // Five lines, one unit each; the sample's IDs were rounded by a float parser before it was
    // saved, so three lines share one product ID.
    const sample: [id: string, variantRef: string | null, protectedRef: string | null][] = [
      ["487817672276298560", "788032119674292900", null],
      ["789012345678901200", null, "788032119674292900"],
      ["890123456789012400", null, null],
      ["976318377106520300", "788032119674292900", null],
      ["315789986012684400", "788032119674292900", null],
    ];
    expect(readRefundTrigger(sunglassesRefund())).toEqual({
      kind: "trigger",
      orderId: "820982911946154500",
      refundId: "890088186047892400",
      lines: sample.map(([lineItemId]) => ({ lineItemId, quantity: 1 })),
      payloadLines: sample.map(([id, variantRef, protectedRef]) => ({
        id,
        variantRef,
        protectedRef,
      })),
    });
  });

  it("reads a refund wrapped as the REST API returns it", () => {
    const trigger = readRefundTrigger({ refund: vndRefund() });
    expect(trigger).toMatchObject({
      kind: "trigger",
      lines: [{ lineItemId: "16014782595357", quantity: 1 }],
    });
  });

  it("is not triggered by the app's own refund, nor by a refund of no line item", () => {
    const ours = { ...vndRefund(), note: planRefundNote("1002961240300") };
    expect(readRefundTrigger(ours)).toEqual({
      kind: "none",
      detail:
        "refund 1002961240349 is the app's plan refund for refund 1002961240300; it triggers nothing",
    });
    const shippingOnly = { ...vndRefund(), refund_line_items: [] };
    expect(readRefundTrigger(shippingOnly)).toEqual({
      kind: "none",
      detail: "refund 1002961240349 refunds no line item",
    });
  });
});

describe("planLinesForRefund", () => {
  const placed = placedPayload(mapOrderWebhook("orders/create", teeOrderWithPlan(), REPORT_ALL));
  const orderLines = placedLineRefs(placed.line_items);

  /** A refund of the tee order's lines, in the shape of Shopify's sample refund. */
  function teeRefund(lineItemIds: number[]) {
    const refund = fixture("refunds_create", "shopify-docs-2026-04_gadget.json");
    const [template] = linesOf(refund, "refund_line_items");
    const lines = linesOf(teeOrderWithPlan(), "line_items");
    refund.order_id = 6709529444685;
    refund.refund_line_items = lineItemIds.map((id) => ({
      ...template,
      line_item_id: id,
      line_item: lines.find((line) => line.id === id),
    }));
    return readRefundTrigger(refund);
  }

  it("names the plan lines of the refunded product, from the order as order_placed recorded it", () => {
    expect(orderLines).toEqual([
      { id: "16735263850829", variantRef: "51734523248973", protectedRef: null },
      { id: "16735263850900", variantRef: "51734523249999", protectedRef: "51734523248973" },
    ]);
    const trigger = teeRefund([16735263850829]);
    if (trigger.kind !== "trigger") throw new Error(trigger.detail);
    expect(planLinesForRefund(trigger, orderLines)).toEqual({
      kind: "plan_lines",
      planLineIds: ["16735263850900"],
    });
  });

  it("names none for a refund of the plan line alone", () => {
    const trigger = teeRefund([16735263850900]);
    if (trigger.kind !== "trigger") throw new Error(trigger.detail);
    expect(planLinesForRefund(trigger, orderLines)).toEqual({
      kind: "plan_lines",
      planLineIds: [],
    });
  });

  it("leaves the plan lines to be found later when the order's lines are not known", () => {
    const trigger = readRefundTrigger(sunglassesRefund());
    if (trigger.kind !== "trigger") throw new Error(trigger.detail);
    expect(planLinesForRefund(trigger, null)).toEqual({
      kind: "unknown",
      detail: "the order's lines are not known yet",
    });
    const bare = { lines: [{ lineItemId: "16735263850829", quantity: 1 }] };
    expect(planLinesForRefund(bare, null)).toEqual({
      kind: "unknown",
      detail: "line item(s) 16735263850829 not known yet",
    });
    // Once the order is read, the sample's own lines say which line is the plan.
    const read = trigger.payloadLines;
    expect(planLinesForRefund(trigger, read)).toEqual({
      kind: "plan_lines",
      planLineIds: ["789012345678901200"],
    });
  });
});

/** A product line as the Admin API answers it when the action runs: its units left. */
function product(
  id: string,
  variant: string,
  refundable: number,
  unfulfilled = refundable,
): CurrentOrderLine {
  return {
    id,
    variantRef: variant,
    protectedRef: null,
    refundableQuantity: refundable,
    unfulfilledQuantity: unfulfilled,
  };
}

/** A plan line of `variant`: its refundable units, and those not fulfilled. */
function planOf(id: string, variant: string, refundable: number, unfulfilled = refundable) {
  return {
    id,
    variantRef: "51734523249999",
    protectedRef: variant,
    refundableQuantity: refundable,
    unfulfilledQuantity: unfulfilled,
  };
}

function ourRefund(id: string, trigger: string, planLineId: string, quantity: number): OrderRefund {
  return { id, note: planRefundNote(trigger), lines: [{ lineItemId: planLineId, quantity }] };
}

const LAPTOP = "44392954495261";
const CAMERA = "44392954495262";

/** What refund `trigger` (line ID and units refunded) asks of plan line `planLineId`. */
function decide(
  planLineId: string,
  refunded: [lineItemId: string, quantity: number][],
  orderLines: CurrentOrderLine[],
  refunds: OrderRefund[] = [],
  trigger = "1",
) {
  const triggerLines = refunded.map(([lineItemId, quantity]) => ({ lineItemId, quantity }));
  return planLineRefund({
    triggerRefundId: trigger,
    triggerLines,
    planLineId,
    orderLines,
    refunds,
  });
}

const refundOf = (quantity: number, restockType: string) => ({
  kind: "refund",
  quantity,
  restockType,
});

describe("planLineRefund", () => {
  it("cancels the units of a plan never shipped, and refunds a fulfilled one without restock", () => {
    const unshipped = [product("16014782595357", LAPTOP, 1), planOf("20", LAPTOP, 2)];
    expect(decide("20", [["16014782595357", 1]], unshipped)).toEqual(refundOf(1, "CANCEL"));
    const fulfilled = [product("10", CAMERA, 0), planOf("20", CAMERA, 1, 0)];
    expect(decide("20", [["10", 1]], fulfilled)).toEqual(refundOf(1, "NO_RESTOCK"));
  });

  it("takes the plan's shipped units when the product refund took a shipped unit", () => {
    // Three laptops, two shipped with their plans; the merchant refunds a shipped laptop. The
    // plan refund takes a shipped plan unit, so the unshipped plan unit stays with the unshipped
    // laptop, and an edit that later removes that laptop can remove its plan (decision 026).
    const shippedRefunded = [product("10", LAPTOP, 2, 1), planOf("20", LAPTOP, 3, 1)];
    expect(decide("20", [["10", 1]], shippedRefunded)).toEqual(refundOf(1, "NO_RESTOCK"));
    // The unshipped laptop refunded instead: the plan's unshipped unit goes.
    const unshippedRefunded = [product("10", LAPTOP, 2, 0), planOf("20", LAPTOP, 3, 1)];
    expect(decide("20", [["10", 1]], unshippedRefunded)).toEqual(refundOf(1, "CANCEL"));
  });

  it("splits a product's units over its plan lines in line order, the same on every run", () => {
    const taken = {
      kind: "nothing",
      detail: `the refund's plan units of product ${LAPTOP} are taken by earlier plan lines`,
    };
    const order = [product("10", LAPTOP, 1), planOf("20", LAPTOP, 1), planOf("21", LAPTOP, 1)];
    expect(decide("20", [["10", 1]], order)).toEqual(refundOf(1, "CANCEL"));
    expect(decide("21", [["10", 1]], order)).toEqual(taken);

    // After the first plan line's refund for this trigger, the second is still left alone...
    const first = ourRefund("900", "1", "20", 1);
    const after = [product("10", LAPTOP, 1), planOf("20", LAPTOP, 0), planOf("21", LAPTOP, 1)];
    expect(decide("21", [["10", 1]], after, [first])).toEqual(taken);
    // ...until the next refund of the product: the second plan line's turn.
    after[0] = product("10", LAPTOP, 0);
    expect(decide("21", [["10", 1]], after, [first], "2")).toEqual(refundOf(1, "CANCEL"));
    expect(decide("20", [["10", 1]], after, [first], "2")).toEqual({
      kind: "nothing",
      detail: "plan line 20 has nothing left to refund",
    });
  });

  it("refunds no plan unit the merchant refunded already, and no more than the plan holds", () => {
    const refundedTogether = [product("10", LAPTOP, 1), planOf("20", LAPTOP, 1)];
    expect(
      decide(
        "20",
        [
          ["10", 1],
          ["20", 1],
        ],
        refundedTogether,
      ),
    ).toEqual({
      kind: "nothing",
      detail: `1 plan unit(s) of product ${LAPTOP} are left for 1 product unit(s): none to refund`,
    });
    const capped = [product("10", LAPTOP, 0), planOf("20", LAPTOP, 1, 0)];
    expect(decide("20", [["10", 3]], capped)).toEqual(refundOf(1, "NO_RESTOCK"));
  });

  it("keeps products apart when one plan item protects several, and names what is no plan", () => {
    const order = [
      product("10", LAPTOP, 1),
      product("11", CAMERA, 0),
      planOf("20", LAPTOP, 1),
      planOf("21", CAMERA, 1),
    ];
    expect(decide("21", [["11", 1]], order)).toEqual(refundOf(1, "CANCEL"));
    expect(decide("20", [["11", 1]], order)).toEqual({
      kind: "nothing",
      detail: `the refund took no unit of product ${LAPTOP}`,
    });
    expect(decide("10", [["10", 1]], order)).toEqual({
      kind: "nothing",
      detail: "line item 10 is not a plan line of the order",
    });
  });

  it("finds its own refund for the trigger after a crash, and refunds nothing again", () => {
    const ours = ourRefund("900", "1", "20", 1);
    const merchants = { id: "899", note: "Things were damaged", lines: [] };
    const order = [product("10", LAPTOP, 1), planOf("20", LAPTOP, 1)];
    expect(decide("20", [["10", 1]], order, [merchants, ours])).toEqual({
      kind: "refunded",
      refund: ours,
      quantity: 1,
    });
  });
});
