import { describe, expect, it } from "vitest";
import type { CartUpdateRequest, LineItem, UpdateLineItemAction } from "./schemas";
import {
  cartUpdate,
  lineItem,
  PLAN_ITEMS,
  PRODUCTS,
  withTestEmulator,
  USER_SESSION_ID,
} from "./test-support";

const client = withTestEmulator();

interface CartUpdateAnswer {
  cart_id: string;
  user_session_id: string;
  actions: UpdateLineItemAction[];
}

async function reportCart(cart: CartUpdateRequest) {
  const answer = await client.call<CartUpdateAnswer>("cart_updates", { body: cart });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** What a merchant does with the actions: set each named line's quantity, dropping lines at 0. */
function applyActions(lineItems: LineItem[], actions: UpdateLineItemAction[]): LineItem[] {
  return lineItems
    .map((item) => {
      const action = actions.find((candidate) => candidate.payload.line_item_id === item.id);
      return action ? { ...item, quantity: action.payload.line_item_quantity } : item;
    })
    .filter((item) => item.quantity > 0);
}

const LAPTOP_LINE = "52011";
const PLAN_LINE = "52012";

describe("POST /cart_updates", () => {
  it("answers no actions for a consistent cart and echoes the cart and session ids", async () => {
    const cart = cartUpdate([
      lineItem(LAPTOP_LINE, PRODUCTS.laptop, 1),
      lineItem(PLAN_LINE, PLAN_ITEMS.electronicsTwoYearHighBand, 1, PRODUCTS.laptop.product_id),
    ]);
    const answer = await reportCart(cart);
    expect(answer).toEqual({
      cart_id: cart.cart_id,
      user_session_id: USER_SESSION_ID,
      actions: [],
    });
  });

  it("raises the plan quantity with its product, and the loop converges", async () => {
    let lineItems = [
      lineItem(LAPTOP_LINE, PRODUCTS.laptop, 3),
      lineItem(PLAN_LINE, PLAN_ITEMS.electronicsTwoYearHighBand, 1, PRODUCTS.laptop.product_id),
      lineItem("52013", PRODUCTS.cable, 2),
    ];
    const first = await reportCart(cartUpdate(lineItems));
    expect(first.actions).toEqual([
      { type: "update_line_item", payload: { line_item_id: PLAN_LINE, line_item_quantity: 3 } },
    ]);

    lineItems = applyActions(lineItems, first.actions);
    const second = await reportCart(cartUpdate(lineItems));
    expect(second.actions).toEqual([]);
    expect(lineItems.find((item) => item.id === PLAN_LINE)?.quantity).toBe(3);

    const carts = (await client.state("sandbox")).carts;
    expect(carts).toHaveLength(1);
    expect(carts[0]?.update_count).toBe(2);
  });

  it("sets the plan quantity to 0 when its product leaves the cart", async () => {
    const lineItems = [
      lineItem(PLAN_LINE, PLAN_ITEMS.electronicsTwoYearHighBand, 2, PRODUCTS.laptop.product_id),
      lineItem("52013", PRODUCTS.cable, 1),
    ];
    const first = await reportCart(cartUpdate(lineItems));
    expect(first.actions).toEqual([
      { type: "update_line_item", payload: { line_item_id: PLAN_LINE, line_item_quantity: 0 } },
    ]);
    const second = await reportCart(cartUpdate(applyActions(lineItems, first.actions)));
    expect(second.actions).toEqual([]);
  });

  it("counts a product over all its non-plan lines and handles several plans independently", async () => {
    const headphonesPlanLine = "52016";
    const lineItems = [
      lineItem(LAPTOP_LINE, PRODUCTS.laptop, 1),
      lineItem("52014", { ...PRODUCTS.laptop, price_amount: 119900 }, 1),
      lineItem(PLAN_LINE, PLAN_ITEMS.electronicsTwoYearHighBand, 1, PRODUCTS.laptop.product_id),
      lineItem("52015", PRODUCTS.headphones, 1),
      lineItem(
        headphonesPlanLine,
        PLAN_ITEMS.electronicsTwoYearMidBand,
        1,
        PRODUCTS.headphones.product_id,
      ),
    ];
    const answer = await reportCart(cartUpdate(lineItems));
    expect(answer.actions).toEqual([
      { type: "update_line_item", payload: { line_item_id: PLAN_LINE, line_item_quantity: 2 } },
    ]);
  });

  it("keeps each environment's carts to itself", async () => {
    await reportCart(cartUpdate([lineItem(LAPTOP_LINE, PRODUCTS.laptop, 1)]));
    expect((await client.state("sandbox")).carts.map((cart) => cart.cart_id)).toEqual([
      cartUpdate([]).cart_id,
    ]);
    expect((await client.state("production")).carts).toEqual([]);
  });

  it("accepts an emptied cart", async () => {
    const answer = await reportCart(cartUpdate([]));
    expect(answer.actions).toEqual([]);
  });
});
