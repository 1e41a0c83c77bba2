import { describe, expect, it } from "vitest";
import { parseWebhookJson } from "../../app/lib/json";
import { mapOrderWebhook } from "../../app/orders/map-webhook";
import type { Order } from "../model";
import { orderWebhookBody, refundWebhookBody } from "./index";
import { moneySet } from "./money-set";
import { financialStatus, orderFulfillmentStatus } from "./order";
import {
  idSequence,
  sampleLifecycle,
  sampleOrder,
  sampleShop,
  withCancellation,
  withFulfillment,
  withRefund,
} from "./sample-order.test-support";

type Json = Record<string, unknown>;

function orderJson(order: Order, shop = sampleLifecycle().shop): Json {
  return parseWebhookJson(orderWebhookBody(shop, order).json) as Json;
}

const lines = (json: Json) => json.line_items as Json[];

describe("orders in currencies with 0 and 3 decimals", () => {
  it.each([
    ["JPY", "1500", "3000", 1500, "0"],
    ["KWD", "1.500", "3.000", 1.5, "0.000"],
  ])(
    "an order in %s: prices, sets and totals in its digits, and the app reads the same minor units",
    (currency, price, total, refundSubtotal, zero) => {
      const nextId = idSequence();
      const shop = sampleShop(nextId, { currency, currencyDecimals: currency === "JPY" ? 0 : 3 });
      const order = sampleOrder(shop, nextId, [{ title: "Tea bowl", price: 1500, quantity: 2 }]);
      const json = orderJson(order, shop);
      expect(json.currency).toBe(currency);
      expect(lines(json)[0]?.price).toBe(price);
      expect(lines(json)[0]?.price_set).toEqual(moneySet(1500, currency));
      expect(json.total_price).toBe(total);
      expect(json.current_total_price).toBe(total);
      expect(json.total_tax).toBe(zero);

      const { order: refunded, refund } = withRefund(
        order,
        nextId,
        [{ lineItemId: order.lineItems[0]?.id ?? "", quantity: 1, restockType: "no_restock" }],
        "2026-11-25T10:00:00Z",
      );
      const refundJson = parseWebhookJson(refundWebhookBody(shop, refunded, refund).json) as {
        refund_line_items: { subtotal: unknown }[];
        transactions: { amount: unknown }[];
      };
      expect(refundJson.refund_line_items[0]?.subtotal).toBe(refundSubtotal);
      expect(refundJson.transactions[0]?.amount).toBe(price);

      const placed = mapOrderWebhook("orders/create", json, { reportOrdersWithoutPlan: true });
      if (placed.kind !== "events") throw new Error(JSON.stringify(placed));
      const event = placed.events[0]?.event;
      if (event?.type !== "order_placed") throw new Error(JSON.stringify(event));
      expect(event.payload.order_currency).toBe(currency.toLowerCase());
      expect(event.payload.line_items[0]?.price_amount).toBe(1500);
    },
  );
});

describe("order totals and statuses over the order's life", () => {
  const life = sampleLifecycle();

  it("a new paid order: paid, unfulfilled, everything still current", () => {
    const json = orderJson(life.created);
    expect(json).toMatchObject({
      financial_status: "paid",
      fulfillment_status: null,
      total_price: "279.97",
      subtotal_price: "279.97",
      current_total_price: "279.97",
      total_outstanding: "0.00",
      cancelled_at: null,
      cancel_reason: null,
      cart_token: life.created.cartToken,
      name: "#1001",
      number: 1,
      order_number: 1001,
      created_at: "2026-11-24T10:00:00-05:00",
      refunds: [],
      fulfillments: [],
    });
    expect(
      lines(json).map((line) => [line.quantity, line.current_quantity, line.fulfillable_quantity]),
    ).toEqual([
      [2, 2, 2],
      [1, 1, 1],
    ]);
  });

  it("one shoe shipped: partial, with the fulfillment embedded", () => {
    const json = orderJson(life.partlyFulfilled);
    expect(json.fulfillment_status).toBe("partial");
    expect(lines(json).map((line) => [line.fulfillable_quantity, line.fulfillment_status])).toEqual(
      [
        [1, "partial"],
        [1, null],
      ],
    );
    expect((json.fulfillments as Json[])[0]).toMatchObject({ name: "#1001.1", status: "success" });
  });

  it("the plan refunded, the unshipped shoe removed: partially refunded, current totals lowered", () => {
    const refunded = orderJson(life.refunded);
    expect(refunded.financial_status).toBe("partially_refunded");
    expect((refunded.refunds as Json[]).map((refund) => refund.note)).toEqual(["Plan not wanted"]);

    const edited = orderJson(life.edited);
    expect(edited).toMatchObject({
      financial_status: "partially_refunded",
      fulfillment_status: "fulfilled",
      total_price: "279.97",
      current_subtotal_price: "149.98",
      current_total_price: "149.98",
      updated_at: "2026-11-27T04:15:00-05:00",
    });
    expect(lines(edited).map((line) => [line.current_quantity, line.fulfillable_quantity])).toEqual(
      [
        [1, 0],
        [1, 0],
      ],
    );
  });

  it("cancelled with everything refunded: refunded, nothing current, nothing to fulfil", () => {
    const json = orderJson(life.cancelled);
    expect(json).toMatchObject({
      financial_status: "refunded",
      fulfillment_status: null,
      cancel_reason: "customer",
      cancelled_at: "2026-11-24T14:30:00-05:00",
      closed_at: "2026-11-24T14:30:00-05:00",
      current_total_price: "0.00",
      total_price: "149.98",
    });
    expect(lines(json).map((line) => [line.current_quantity, line.fulfillable_quantity])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it("derives the financial status from the transactions", () => {
    const order = structuredClone(life.created);
    expect(financialStatus(order)).toBe("paid");
    const [sale] = order.transactions;
    if (!sale) throw new Error("no sale");
    sale.status = "PENDING";
    expect(financialStatus(order)).toBe("pending");
    sale.kind = "AUTHORIZATION";
    sale.status = "SUCCESS";
    expect(financialStatus(order)).toBe("authorized");
    order.transactions.push({ ...sale, id: "9007199254749999", kind: "VOID", parentId: sale.id });
    expect(financialStatus(order)).toBe("voided");
  });

  it("a cancelled order without refund keeps its money but has nothing left to fulfil", () => {
    const nextId = idSequence(9007199254750000n);
    const order = structuredClone(life.created);
    order.cancelledAt = "2026-11-24T16:00:00.000Z";
    order.cancelReason = "inventory";
    expect(financialStatus(order)).toBe("paid");
    expect(orderFulfillmentStatus(order)).toBeNull();
    expect(lines(orderJson(order)).every((line) => line.fulfillable_quantity === 0)).toBe(true);
    const { order: shipped } = withFulfillment(
      life.created,
      nextId,
      life.created.lineItems.map((line) => ({ lineItemId: line.id, quantity: line.quantity })),
      "2026-11-25T10:00:00Z",
    );
    expect(orderFulfillmentStatus(shipped)).toBe("fulfilled");
    const { order: cancelledAfter } = withCancellation(
      life.created,
      nextId,
      "2026-11-25T11:00:00Z",
    );
    expect(financialStatus(cancelledAfter)).toBe("refunded");
  });
});
