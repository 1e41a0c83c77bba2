import { describe, expect, it } from "vitest";
import type { CartAction } from "../protection/types";
import type { StorefrontCartLine } from "./cart";
import { reconcileServiceActions, requiredCartActions } from "./cart-rules";
import { cartSample, parsedCartUpdate, type CartJs } from "./storefront.test-support";

function linesOf(cart: CartJs): StorefrontCartLine[] {
  return parsedCartUpdate(cart).cart.lines;
}

/** An action of our answer: set the cart line `key` to `quantity`. */
function setQuantity(key: string, quantity: number) {
  return { type: "update_line_item", line_item_key: key, quantity };
}

function serviceAction(lineItemId: string, quantity: number): CartAction {
  return {
    type: "update_line_item",
    payload: { line_item_id: lineItemId, line_item_quantity: quantity },
  };
}

const RATIO = "123456:123456";
const RATIO_PLAN = "44590322893113:4e8c1b2a9f3d7e6c5b4a39281706f5e4";
const VEGE_BOX = "31712538263610:d37e019f4b8bb3936a85540e7153a36c";
const BEETROOT = "31792459776058:137d7a7d8f52f6542271f01123dcb58e";
const BEETROOT_PLAN = "44590322893113:0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e";
const ORPHAN_PLAN = "44590322893114:9f8e7d6c5b4a39281706f5e4d3c2b1a0";

/** The CAD sample with one plan line, with the product's and plan's quantities set. */
function ratioCart(productQuantity: number, planQuantity: number, extra: CartJs["items"] = []) {
  const cart = cartSample("cadWithPlan");
  const [product, plan] = cart.items;
  return linesOf({
    ...cart,
    items: [
      { ...product!, quantity: productQuantity },
      { ...plan!, quantity: planQuantity },
      ...extra,
    ],
  });
}

describe("requiredCartActions (spec obligations 4 and 5)", () => {
  it("asks nothing of carts without plans, or whose plans match their products", () => {
    expect(requiredCartActions(linesOf(cartSample("populated")))).toEqual([]);
    expect(requiredCartActions(linesOf(cartSample("nzdWithProperties")))).toEqual([]);
    expect(requiredCartActions(linesOf(cartSample("cadWithPlan")))).toEqual([]);
  });

  it("raises a plan to its product's quantity and takes a plan whose product left to 0", () => {
    expect(requiredCartActions(linesOf(cartSample("nzdPlansOutOfSync")))).toEqual([
      setQuantity(BEETROOT_PLAN, 2),
      setQuantity(ORPHAN_PLAN, 0),
    ]);
  });

  it("lowers a plan when its product's quantity drops, and removes it with the product", () => {
    expect(requiredCartActions(ratioCart(1, 3))).toEqual([setQuantity(RATIO_PLAN, 1)]);
    const cart = cartSample("cadWithPlan");
    expect(requiredCartActions(linesOf({ ...cart, items: [cart.items[1]!] }))).toEqual([
      setQuantity(RATIO_PLAN, 0),
    ]);
  });

  it("sums the product's quantity over all its lines (same variant, different properties)", () => {
    const cart = cartSample("cadWithPlan");
    const engraved = { ...cart.items[0]!, key: "38558517710:engraved", quantity: 2 };
    expect(requiredCartActions(ratioCart(1, 1, [engraved]))).toEqual([setQuantity(RATIO_PLAN, 3)]);
  });

  it("does not count plan lines as products, and sends a plan with an empty reference to 0", () => {
    const cart = cartSample("cadWithPlan");
    const broken = {
      ...cart.items[1]!,
      key: "broken-plan",
      quantity: 2,
      properties: { _svc_protected_product_ref: "" },
    };
    expect(requiredCartActions(ratioCart(1, 1, [broken]))).toEqual([setQuantity("broken-plan", 0)]);
  });
});

describe("reconcileServiceActions", () => {
  it("passes on the service's actions when they agree with the rules", () => {
    const lines = ratioCart(2, 1);
    expect(reconcileServiceActions(lines, [serviceAction(RATIO_PLAN, 2)])).toEqual({
      actions: [setQuantity(RATIO_PLAN, 2)],
      notes: [],
    });
  });

  it("drops actions naming a line that is not in the cart, and negative quantities", () => {
    const lines = ratioCart(1, 1);
    expect(
      reconcileServiceActions(lines, [
        serviceAction("999:not-in-cart", 1),
        serviceAction(RATIO, -1),
      ]),
    ).toEqual({
      actions: [],
      notes: [
        { kind: "unknown_line", lineItemKey: "999:not-in-cart", quantity: 1 },
        { kind: "negative_quantity", lineItemKey: RATIO, quantity: -1 },
      ],
    });
  });

  it("lets the rules win on a plan line the service sets to another quantity", () => {
    const lines = ratioCart(2, 2);
    expect(reconcileServiceActions(lines, [serviceAction(RATIO_PLAN, 5)])).toEqual({
      actions: [],
      notes: [{ kind: "plan_line_disagreement", lineItemKey: RATIO_PLAN, service: 5, local: 2 }],
    });
  });

  it("adds the plan action the service left out", () => {
    const lines = linesOf(cartSample("nzdPlansOutOfSync"));
    expect(reconcileServiceActions(lines, [serviceAction(BEETROOT_PLAN, 2)])).toEqual({
      actions: [setQuantity(BEETROOT_PLAN, 2), setQuantity(ORPHAN_PLAN, 0)],
      notes: [{ kind: "plan_line_action_missing", lineItemKey: ORPHAN_PLAN, current: 1, local: 0 }],
    });
  });

  it("keeps the service's product line actions and makes the plans follow them in the same answer", () => {
    const lines = ratioCart(2, 2);
    expect(reconcileServiceActions(lines, [serviceAction(RATIO, 3)])).toEqual({
      actions: [setQuantity(RATIO, 3), setQuantity(RATIO_PLAN, 3)],
      notes: [{ kind: "plan_line_action_missing", lineItemKey: RATIO_PLAN, current: 2, local: 3 }],
    });
  });

  it("answers nothing for actions that change nothing, so the storefront's loop ends", () => {
    const lines = linesOf(cartSample("nzdWithProperties"));
    expect(reconcileServiceActions(lines, [serviceAction(VEGE_BOX, 1)])).toEqual({
      actions: [],
      notes: [],
    });
  });

  it("keeps the last of two actions for one line", () => {
    const lines = linesOf(cartSample("nzdWithProperties"));
    expect(
      reconcileServiceActions(lines, [serviceAction(BEETROOT, 5), serviceAction(BEETROOT, 3)]),
    ).toEqual({
      actions: [setQuantity(BEETROOT, 3)],
      notes: [{ kind: "repeated_line", lineItemKey: BEETROOT, quantity: 3 }],
    });
  });

  it("answers the local rules when the service sends no actions at all", () => {
    const lines = linesOf(cartSample("nzdPlansOutOfSync"));
    expect(reconcileServiceActions(lines, []).actions).toEqual(requiredCartActions(lines));
  });
});
