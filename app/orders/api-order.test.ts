import { describe, expect, it } from "vitest";
import { mapOrderWebhook } from "./map-webhook";
import {
  headerLooksComplete,
  webhooksOfApiOrder,
  type ApiAgreement,
  type ApiOrder,
  type ApiOrderHeader,
} from "./api-order";

const gid = (type: string, id: number | string) => `gid://shopify/${type}/${id}`;
const NOW = new Date("2026-11-25T12:00:00.000Z");
const HOUR = 3_600_000;
const OPTIONS = { now: NOW, editSettleMs: 4 * HOUR };

function line(id: number, quantity: number, variant: number, protects?: number) {
  return {
    id: gid("LineItem", id),
    quantity,
    title: protects ? "Protection plan" : "Lamp",
    vendor: "Acme",
    customAttributes: protects
      ? [{ key: "_svc_protected_product_ref", value: String(protects) }]
      : [],
    originalUnitPriceSet: {
      shopMoney: { amount: protects ? "4.99" : "19.99", currencyCode: "EUR" },
    },
    variant: { id: gid("ProductVariant", variant) },
  };
}

function order(overrides: Partial<ApiOrder> = {}): ApiOrder {
  return {
    id: gid("Order", 1001),
    name: "#1001",
    email: "ada@example.com",
    createdAt: "2026-11-25T08:00:00Z",
    processedAt: "2026-11-25T08:00:00Z",
    updatedAt: "2026-11-25T09:00:00Z",
    cancelledAt: null,
    currencyCode: "EUR",
    cartToken: "cart-1",
    billingAddress: {
      firstName: "Ada",
      lastName: "Lovelace",
      address1: "1 Main St",
      city: "Berlin",
      zip: "10115",
      countryCodeV2: "DE",
    },
    shippingAddress: null,
    lineItems: { nodes: [line(11, 2, 501), line(12, 2, 900, 501)] },
    fulfillments: [],
    refunds: [],
    agreements: { nodes: [] },
    ...overrides,
  };
}

function edit(id: number, happenedAt: string, sales: [string, number, number][]): ApiAgreement {
  return {
    id: gid("OrderEditAgreement", id),
    happenedAt,
    reason: "ORDER_EDIT",
    sales: {
      nodes: sales.map(([actionType, lineId, quantity]) => ({
        actionType,
        quantity,
        lineItem: { id: gid("LineItem", lineId) },
      })),
    },
  };
}

describe("an order read from the Admin API, as the webhooks Shopify sent for it", () => {
  it("reads its placement as orders/create, mapped as the webhook is", () => {
    const reading = webhooksOfApiOrder(order(), OPTIONS);
    expect(reading.webhooks.map((webhook) => webhook.topic)).toEqual(["orders/create"]);
    const mapping = mapOrderWebhook("orders/create", reading.webhooks[0]!.payload, {
      reportOrdersWithoutPlan: true,
    });
    expect(mapping).toMatchObject({
      kind: "events",
      orderId: "1001",
      events: [
        {
          dedupeKey: "order:1001:placed",
          event: {
            type: "order_placed",
            payload: {
              order_id: "1001",
              placed_at: "2026-11-25T08:00:00.000Z",
              order_currency: "eur",
              cart_id: "cart-1",
              customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
              customer_billing_address: {
                address_line_1: "1 Main St",
                city: "Berlin",
                zip: "10115",
                country: "de",
              },
              line_items: [
                { id: "11", quantity: 2, price_amount: 1999, product_id: "501" },
                {
                  id: "12",
                  quantity: 2,
                  price_amount: 499,
                  product_id: "900",
                  custom_properties: { product_reference: "501" },
                },
              ],
            },
          },
        },
      ],
    });
    expect(reading.readAgainAt).toBeNull();
  });

  it("puts the placement first and the rest in the order it happened", () => {
    const reading = webhooksOfApiOrder(
      order({
        cancelledAt: "2026-11-25T11:00:00Z",
        fulfillments: [
          {
            id: gid("Fulfillment", 7),
            status: "SUCCESS",
            createdAt: "2026-11-25T10:00:00Z",
            fulfillmentLineItems: {
              nodes: [{ quantity: 1, lineItem: { id: gid("LineItem", 11) } }],
            },
          },
        ],
        refunds: [
          {
            id: gid("Refund", 8),
            note: null,
            createdAt: "2026-11-25T09:30:00Z",
            processedAt: "2026-11-25T09:30:00Z",
            refundLineItems: {
              nodes: [
                { quantity: 1, restockType: "CANCEL", lineItem: { id: gid("LineItem", 11) } },
              ],
            },
          },
        ],
      }),
      OPTIONS,
    );
    expect(reading.webhooks.map((webhook) => [webhook.topic, webhook.objectId])).toEqual([
      ["orders/create", "1001"],
      ["refunds/create", "8"],
      ["fulfillments/create", "7"],
      ["orders/cancelled", "1001"],
    ]);
    const [, refund, fulfillment, cancel] = reading.webhooks;
    expect(refund!.payload).toMatchObject({
      refund_line_items: [
        {
          line_item_id: "11",
          quantity: 1,
          restock_type: "cancel",
          line_item: { variant_id: "501" },
        },
      ],
    });
    expect(fulfillment!.payload).toMatchObject({
      status: "success",
      line_items: [{ id: "11", quantity: 1 }],
    });
    expect(cancel!.payload).toMatchObject({ refunds: [{ id: "8" }] });
  });

  it("reads a settled edit's removals as orders/edited, and leaves the lines it added out of the placement", () => {
    const reading = webhooksOfApiOrder(
      order({
        lineItems: { nodes: [line(11, 2, 501), line(12, 2, 900, 501), line(13, 1, 777)] },
        agreements: {
          nodes: [
            edit(55, "2026-11-25T07:00:00Z", [
              ["RETURN", 11, -1],
              ["ORDER", 13, 1],
            ]),
          ],
        },
      }),
      OPTIONS,
    );
    const [placed, edited] = reading.webhooks;
    expect((placed!.payload.line_items as { id: string }[]).map((entry) => entry.id)).toEqual([
      "11",
      "12",
    ]);
    expect(edited).toMatchObject({
      topic: "orders/edited",
      objectId: "55",
      payload: {
        order_edit: {
          id: "55",
          order_id: "1001",
          line_items: { removals: [{ id: "11", delta: 1 }], additions: [{ id: "13", delta: 1 }] },
        },
      },
    });
    expect(
      mapOrderWebhook("orders/edited", edited!.payload, { reportOrdersWithoutPlan: true }),
    ).toMatchObject({
      events: [{ dedupeKey: "order-edit:55", event: { type: "order_line_items_cancelled" } }],
    });
  });

  it("leaves an edit for later while its webhook may still come", () => {
    const reading = webhooksOfApiOrder(
      order({ agreements: { nodes: [edit(56, "2026-11-25T11:00:00Z", [["RETURN", 11, 1]])] } }),
      OPTIONS,
    );
    expect(reading.webhooks.map((webhook) => webhook.topic)).toEqual(["orders/create"]);
    expect(reading.readAgainAt).toBe("2026-11-25T15:00:00.000Z");
  });

  it("reads nothing of an edited order whose agreements it has not (a bulk result), and asks for it whole", () => {
    const { agreements: _none, ...bulk } = order({ edited: true });
    const reading = webhooksOfApiOrder(bulk, OPTIONS);
    expect(reading).toEqual({ orderId: "1001", webhooks: [], readAgainAt: NOW.toISOString() });
  });
});

describe("whether an order's header shows it complete", () => {
  const header = (overrides: Partial<ApiOrderHeader> = {}): ApiOrderHeader => ({
    id: gid("Order", 1001),
    updatedAt: "2026-11-25T09:00:00Z",
    cancelledAt: null,
    edited: false,
    fulfillments: [{ id: gid("Fulfillment", 7), status: "SUCCESS" }],
    refunds: [{ id: gid("Refund", 8) }],
    ...overrides,
  });
  const keys =
    (...list: string[]) =>
    (key: string) =>
      list.includes(key);
  const all = keys("order:1001:placed", "fulfillment:7", "refund:8:refunded");

  it("is complete when every event it shows is recorded", () => {
    expect(headerLooksComplete(header(), all, false)).toBe(true);
    expect(
      headerLooksComplete(
        header(),
        keys("order:1001:placed", "fulfillment:7", "refund:8:cancelled"),
        false,
      ),
    ).toBe(true);
  });

  it("is incomplete when the placement, a fulfilment, a refund or the cancellation is missing", () => {
    expect(headerLooksComplete(header(), keys("fulfillment:7", "refund:8:refunded"), false)).toBe(
      false,
    );
    expect(
      headerLooksComplete(header(), keys("order:1001:placed", "refund:8:refunded"), false),
    ).toBe(false);
    expect(headerLooksComplete(header(), keys("order:1001:placed", "fulfillment:7"), false)).toBe(
      false,
    );
    expect(headerLooksComplete(header({ cancelledAt: "2026-11-25T10:00:00Z" }), all, false)).toBe(
      false,
    );
  });

  it("counts a cancelled order's cancel refund as said by order_cancelled", () => {
    const cancelled = header({ cancelledAt: "2026-11-25T10:00:00Z" });
    expect(
      headerLooksComplete(
        cancelled,
        keys("order:1001:placed", "fulfillment:7", "order:1001:cancelled"),
        false,
      ),
    ).toBe(true);
  });

  it("ignores fulfilments that have not succeeded", () => {
    const pending = header({ fulfillments: [{ id: gid("Fulfillment", 9), status: "OPEN" }] });
    expect(headerLooksComplete(pending, all, false)).toBe(true);
  });

  it("reads an edited order, or one at the lists' cap, whole", () => {
    expect(headerLooksComplete(header({ edited: true }), all, false)).toBe(false);
    const many = Array.from({ length: 5 }, (_, index) => ({ id: gid("Refund", 100 + index) }));
    expect(headerLooksComplete(header({ refunds: many }), () => true, false)).toBe(false);
  });

  it("leaves an order unreported on purpose alone", () => {
    expect(headerLooksComplete(header(), keys(), true)).toBe(true);
    expect(headerLooksComplete(header(), keys(), false)).toBe(false);
  });
});

describe("the checkout confirmation of an order read from the Admin API (decision 033)", () => {
  const SESSION = "3f2b8c1e-9a4d-4e7b-b6c5-2d1e0f9a8b7c";
  const placedOf = (read: ApiOrder) => {
    const [placed] = webhooksOfApiOrder(read, OPTIONS).webhooks;
    if (placed?.topic !== "orders/create") throw new Error("expected orders/create first");
    return mapOrderWebhook("orders/create", placed.payload, { reportOrdersWithoutPlan: true });
  };

  it("gives the synthesized orders/create the cart's attributes, so a lost one is confirmed", () => {
    const mapped = placedOf(
      order({
        customAttributes: [
          { key: "gift_note", value: "Hi" },
          { key: "_svc_user_session_id", value: SESSION },
        ],
      }),
    );
    if (mapped.kind !== "events") throw new Error(JSON.stringify(mapped));
    expect(mapped.events.map((derived) => derived.event)).toContainEqual({
      type: "cart_checkout",
      payload: { cart_id: "cart-1", user_session_id: SESSION, order_id: "1001" },
    });
  });

  it("gives none for an order without the attribute", () => {
    const mapped = placedOf(order({ customAttributes: [] }));
    if (mapped.kind !== "events") throw new Error(JSON.stringify(mapped));
    expect(mapped.events.map((derived) => derived.event.type)).toEqual(["order_placed"]);
  });
});
