// The plan fulfilment rules (decision 025) on Shopify's real fulfillments/create payloads and on
// hand-made orders: which fulfilments trigger one, and which plan units each fulfils, converging
// and never overshooting.
import { describe, expect, it } from "vitest";
import { readShopifyFixture } from "../../test/support/webhooks";
import { parseWebhookJson } from "../lib/json";
import type { JsonObject } from "./payload-reader";
import {
  fulfilmentMayFulfilPlans,
  planLineFulfilments,
  readFulfilmentTrigger,
  type OrderFulfilment,
  type PlanFulfilmentOrder,
} from "./plan-fulfilments";
import type { OrderLineRef } from "./plan-refunds";

const PLAN_PROPERTY = "_svc_protected_product_ref";

function fixture(file: string): JsonObject {
  return parseWebhookJson(readShopifyFixture("fulfillments_create", file)) as JsonObject;
}

/** The real CAD fulfilment of one product line (variant 4425632841739), a success. */
function cadFulfilment() {
  return fixture("real-cad-store_bold-shopify-toolkit.json");
}

const product = (id: string, variant: string): OrderLineRef => ({
  id,
  variantRef: variant,
  protectedRef: null,
});
const planFor = (id: string, variant: string): OrderLineRef => ({
  id,
  variantRef: `plan-variant-${id}`,
  protectedRef: variant,
});

describe("readFulfilmentTrigger and fulfilmentMayFulfilPlans", () => {
  it("reads Shopify's successful fulfilment of a product line", () => {
    const trigger = readFulfilmentTrigger(cadFulfilment());
    expect(trigger).toMatchObject({
      kind: "trigger",
      orderId: "521087516777",
      lines: [{ lineItemId: "1308796420201", quantity: 1 }],
      payloadLines: [{ id: "1308796420201", variantRef: "4425632841739", protectedRef: null }],
    });
  });

  it("ignores Shopify's pending sample fulfilment: nothing has shipped", () => {
    expect(readFulfilmentTrigger(fixture("shopify-docs-2026-04_gadget.json"))).toMatchObject({
      kind: "none",
      detail: expect.stringContaining("not a success"),
    });
  });

  it("queues when a plan line protects the fulfilled product, or when the order's lines are unknown", () => {
    const trigger = readFulfilmentTrigger(cadFulfilment());
    if (trigger.kind !== "trigger") throw new Error("expected a trigger");
    const lines = [product("1308796420201", "4425632841739"), planFor("2", "4425632841739")];
    expect(fulfilmentMayFulfilPlans(trigger, lines)).toBe(true);
    expect(fulfilmentMayFulfilPlans(trigger, null)).toBe(true);
    expect(fulfilmentMayFulfilPlans(trigger, [product("1308796420201", "4425632841739")])).toBe(
      false,
    );
    expect(fulfilmentMayFulfilPlans(trigger, [planFor("2", "999")])).toBe(false);
  });

  it("does not queue when the fulfilment takes the plans with their products", () => {
    const order = [product("1", "L"), planFor("2", "L"), product("3", "C"), planFor("4", "C")];
    const trigger = (lines: [string, number][]) => ({
      lines: lines.map(([lineItemId, quantity]) => ({ lineItemId, quantity })),
      payloadLines: order.filter((line) => lines.some(([id]) => id === line.id)),
    });
    expect(
      fulfilmentMayFulfilPlans(
        trigger([
          ["1", 2],
          ["2", 2],
        ]),
        order,
      ),
    ).toBe(false);
    expect(
      fulfilmentMayFulfilPlans(
        trigger([
          ["1", 2],
          ["2", 1],
        ]),
        order,
      ),
    ).toBe(true);
    // Each product is weighed against its own plans.
    expect(
      fulfilmentMayFulfilPlans(
        trigger([
          ["1", 1],
          ["4", 1],
          ["3", 1],
        ]),
        order,
      ),
    ).toBe(true);
  });

  it("never queues for a fulfilment of plan lines only, the app's own included", () => {
    const payload = cadFulfilment();
    const [line] = payload.line_items as JsonObject[];
    line!.properties = [{ name: PLAN_PROPERTY, value: "4425632841739" }];
    const trigger = readFulfilmentTrigger(payload);
    if (trigger.kind !== "trigger") throw new Error("expected a trigger");
    expect(fulfilmentMayFulfilPlans(trigger, null)).toBe(false);
    expect(fulfilmentMayFulfilPlans(trigger, [planFor("1308796420201", "4425632841739")])).toBe(
      false,
    );
  });
});

const OPEN_MERCHANT = ["CREATE_FULFILLMENT", "HOLD", "MOVE"];

function fo(
  id: string,
  lines: [string, number][],
  options: { status?: string; actions?: string[]; location?: string } = {},
): PlanFulfilmentOrder {
  return {
    id,
    status: options.status ?? "OPEN",
    supportedActions: options.actions ?? OPEN_MERCHANT,
    locationName: options.location ?? "Shop location",
    lines: lines.map(([lineItemId, remainingQuantity]) => ({
      id: `${id}-${lineItemId}`,
      lineItemId,
      remainingQuantity,
    })),
  };
}

function fulfilment(id: string, lines: [string, number][], status = "SUCCESS"): OrderFulfilment {
  return { id, status, lines: lines.map(([lineItemId, quantity]) => ({ lineItemId, quantity })) };
}

/** What the rule fulfils: [fulfilment order, plan line, units] for every line it would send. */
function due(plan: ReturnType<typeof planLineFulfilments>) {
  return plan.fulfilments.flatMap((group) =>
    group.lines.map((line) => [group.fulfillmentOrderId, line.planLineId, line.quantity]),
  );
}

describe("planLineFulfilments", () => {
  const laptop = product("10", "L");
  const laptopPlan = planFor("11", "L");

  it("fulfils the plan units of a partly fulfilled product, on the plan's own fulfilment order, then the rest", () => {
    const partly = planLineFulfilments({
      triggerLines: [{ lineItemId: "10", quantity: 1 }],
      orderLines: [laptop, laptopPlan],
      fulfillments: [fulfilment("f1", [["10", 1]])],
      fulfillmentOrders: [fo("fo-ship", [["10", 2]]), fo("fo-digital", [["11", 3]])],
    });
    expect(due(partly)).toEqual([["fo-digital", "11", 1]]);

    // The app's fulfilment recorded, then the rest of the product: one more unit, not three.
    const rest = planLineFulfilments({
      triggerLines: [{ lineItemId: "10", quantity: 2 }],
      orderLines: [laptop, laptopPlan],
      fulfillments: [
        fulfilment("f1", [["10", 1]]),
        fulfilment("ours", [["11", 1]]),
        fulfilment("f2", [["10", 2]]),
      ],
      fulfillmentOrders: [fo("fo-ship", [["10", 0]]), fo("fo-digital", [["11", 2]])],
    });
    expect(due(rest)).toEqual([["fo-digital", "11", 2]]);
  });

  it("finds nothing when read again after its own fulfilment, as after a crash", () => {
    const plan = planLineFulfilments({
      triggerLines: [{ lineItemId: "10", quantity: 2 }],
      orderLines: [laptop, laptopPlan],
      fulfillments: [fulfilment("f1", [["10", 2]]), fulfilment("ours", [["11", 2]])],
      fulfillmentOrders: [fo("fo-digital", [["11", 0]], { status: "CLOSED", actions: [] })],
    });
    expect(plan.fulfilments).toEqual([]);
    expect(plan.blocked).toEqual([]);
    expect(plan.detail).toContain(
      "2 plan unit(s) of product L are fulfilled for 2 product unit(s)",
    );
  });

  it("does not fulfil a plan the merchant fulfilled already, nor one that is pending elsewhere", () => {
    const plan = planLineFulfilments({
      triggerLines: [{ lineItemId: "10", quantity: 2 }],
      orderLines: [laptop, laptopPlan],
      fulfillments: [
        fulfilment("f1", [["10", 2]]),
        fulfilment("merchant", [["11", 1]]),
        fulfilment("service", [["11", 1]], "OPEN"),
        fulfilment("cancelled", [["11", 1]], "CANCELLED"),
      ],
      fulfillmentOrders: [fo("fo-digital", [["11", 1]])],
    });
    expect(plan.fulfilments).toEqual([]);
  });

  it("shares a product's units over its plan lines in line order, and keeps products apart", () => {
    const camera = product("20", "C");
    const plan = planLineFulfilments({
      triggerLines: [{ lineItemId: "10", quantity: 3 }],
      orderLines: [laptop, planFor("11", "L"), planFor("12", "L"), camera, planFor("21", "C")],
      fulfillments: [fulfilment("f1", [["10", 3]])],
      fulfillmentOrders: [
        fo("fo-digital", [
          ["11", 2],
          ["12", 2],
          ["21", 1],
        ]),
      ],
    });
    expect(due(plan)).toEqual([
      ["fo-digital", "11", 2],
      ["fo-digital", "12", 1],
    ]);
  });

  it("counts every product line of the variant a plan line protects", () => {
    const plan = planLineFulfilments({
      triggerLines: [{ lineItemId: "13", quantity: 1 }],
      orderLines: [laptop, product("13", "L"), laptopPlan],
      fulfillments: [fulfilment("f0", [["10", 1]]), fulfilment("f1", [["13", 1]])],
      fulfillmentOrders: [fo("fo-digital", [["11", 2]])],
    });
    expect(due(plan)).toEqual([["fo-digital", "11", 2]]);
  });

  it("fulfils what is left of a partly refunded plan line, and nothing of a refunded or removed one", () => {
    const partly = planLineFulfilments({
      triggerLines: [{ lineItemId: "10", quantity: 3 }],
      orderLines: [laptop, laptopPlan],
      fulfillments: [fulfilment("f1", [["10", 3]])],
      // Two of the plan's three units were refunded: its fulfilment order holds one.
      fulfillmentOrders: [fo("fo-digital", [["11", 1]])],
    });
    expect(due(partly)).toEqual([["fo-digital", "11", 1]]);

    const gone = planLineFulfilments({
      triggerLines: [{ lineItemId: "10", quantity: 1 }],
      orderLines: [laptop, laptopPlan],
      fulfillments: [fulfilment("f1", [["10", 1]])],
      fulfillmentOrders: [fo("fo-digital", [["11", 0]], { status: "CLOSED", actions: [] })],
    });
    expect(gone.fulfilments).toEqual([]);
    expect(gone.detail).toContain("nothing left to fulfil");
  });

  it("leaves units on a fulfilment order without CREATE_FULFILLMENT, and says where", () => {
    const plan = planLineFulfilments({
      triggerLines: [{ lineItemId: "10", quantity: 1 }],
      orderLines: [laptop, laptopPlan],
      fulfillments: [fulfilment("f1", [["10", 1]])],
      fulfillmentOrders: [
        fo("fo-service", [["11", 1]], { actions: ["REQUEST_FULFILLMENT"], location: "Acme 3PL" }),
      ],
    });
    expect(plan.fulfilments).toEqual([]);
    expect(plan.blocked).toEqual([
      { planLineId: "11", fulfillmentOrderId: "fo-service", locationName: "Acme 3PL", quantity: 1 },
    ]);
  });

  it("acts only for the products the fulfilment took", () => {
    const camera = product("20", "C");
    const plan = planLineFulfilments({
      triggerLines: [{ lineItemId: "20", quantity: 1 }],
      orderLines: [laptop, laptopPlan, camera, planFor("21", "C")],
      // The laptop was fulfilled before, while the setting was off: the merchant decides that one.
      fulfillments: [fulfilment("f0", [["10", 1]]), fulfilment("f1", [["20", 1]])],
      fulfillmentOrders: [
        fo("fo-digital", [
          ["11", 1],
          ["21", 1],
        ]),
      ],
    });
    expect(due(plan)).toEqual([["fo-digital", "21", 1]]);
  });

  it("does nothing for a fulfilment of plan lines or of products no plan protects", () => {
    const plan = planLineFulfilments({
      triggerLines: [{ lineItemId: "11", quantity: 1 }],
      orderLines: [laptop, laptopPlan],
      fulfillments: [fulfilment("f1", [["11", 1]])],
      fulfillmentOrders: [fo("fo-digital", [["11", 0]])],
    });
    expect(plan.fulfilments).toEqual([]);
    expect(plan.detail).toBe("the fulfilment took no unit of a product line");
  });
});
