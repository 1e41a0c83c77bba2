import { describe, expect, it } from "vitest";
import { StoreUserError, type Order } from "./model";
import { PROTECTED_PRODUCT_REF } from "./seed-orders";
import { StoreState, lineItemQuantities } from "./state";

/*
 * Seeding a benchmark's shop (StoreState.seedOrders): realistic orders through the store's own
 * rules, spread over a window of the past, repeatable, and silent.
 */

const DOMAIN = "bench.myshopify.com";
const MERCHANT = { kind: "merchant" } as const;
const NOW = "2026-11-24T10:00:00.000Z";

function benchStore() {
  const topics: string[] = [];
  const state = new StoreState({
    now: () => new Date(NOW),
    onWebhook: (_shop, topic) => topics.push(topic),
  });
  state.createShop({
    domain: DOMAIN,
    appUrl: "https://app.example.com",
    apiKey: "key",
    apiSecret: "secret",
  });
  state.install(DOMAIN, ["read_orders"]);
  const variants = (
    [
      ["Laptop", 99900],
      ["Camera", 45000],
      ["Lamp", 1999],
    ] as const
  ).map(
    ([title, price]) =>
      state.setProduct(DOMAIN, { title, variants: [{ title: "Default Title", price }] }, MERCHANT)
        .variants[0]!,
  );
  return { state, topics, variants };
}

const WINDOW = { createdFrom: "2026-10-01T00:00:00Z", createdTo: "2026-11-01T00:00:00Z" };

function planLines(order: Order) {
  return order.lineItems.filter((line) =>
    line.properties.some((property) => property.name === PROTECTED_PRODUCT_REF),
  );
}

describe("seedOrders", () => {
  it("creates realistic orders over the window, silently, as its counts say", () => {
    const { state, topics, variants } = benchStore();
    const seeded = state.seedOrders(DOMAIN, { count: 500, ...WINDOW });
    const orders = state.orders(DOMAIN);
    expect(orders).toHaveLength(500);
    expect(topics).toEqual([]);
    expect(seeded).toMatchObject({
      count: 500,
      firstOrderId: orders[0]!.id,
      lastOrderId: orders.at(-1)!.id,
      createdFrom: "2026-10-01T00:00:00.000Z",
      createdTo: "2026-11-01T00:00:00.000Z",
    });

    const variantIds = new Set(variants.map((variant) => variant.id));
    for (const order of orders) {
      const products = order.lineItems.filter((line) => planLines(order).indexOf(line) < 0);
      expect(products.length).toBeGreaterThanOrEqual(1);
      expect(products.length).toBeLessThanOrEqual(3);
      for (const plan of planLines(order)) {
        // A plan protects a variant of the order, unit for unit, and ships nothing.
        const ref = plan.properties.find((property) => property.name === PROTECTED_PRODUCT_REF);
        const protectedLine = products.find((line) => line.variantId === ref?.value);
        expect(variantIds.has(ref?.value ?? "")).toBe(true);
        expect(plan).toMatchObject({
          quantity: protectedLine?.quantity,
          requiresShipping: false,
          price: Math.round((protectedLine?.price ?? 0) / 10),
        });
      }
      const times = [order.createdAt, order.updatedAt];
      for (const time of times) {
        expect(time >= "2026-10-01T00:00:00.000Z" && time <= "2026-11-01T00:00:00.000Z").toBe(true);
      }
    }
    const count = (test: (order: Order) => boolean) => orders.filter(test).length;
    expect(count((order) => planLines(order).length > 0)).toBe(seeded.protected);
    expect(count((order) => order.edits.some((edit) => edit.committedAt !== null))).toBe(
      seeded.edited,
    );
    expect(count((order) => order.fulfillments.length > 0)).toBe(seeded.fulfilled);
    expect(count((order) => order.refunds.length > 0)).toBe(seeded.refunded);
    // Each treatment is there in about its default share.
    expect(seeded.protected).toBeGreaterThan(100);
    expect(seeded.fulfilled).toBeGreaterThan(100);
    expect(seeded.refunded).toBeGreaterThan(20);
    expect(seeded.edited).toBeGreaterThan(5);

    // Fulfilled orders shipped everything that ships; refunds follow the same rules as ever.
    const fulfilled = orders.find((order) => order.fulfillments.length > 0)!;
    for (const line of fulfilled.lineItems.filter((item) => item.requiresShipping)) {
      expect(lineItemQuantities(fulfilled, line.id)?.fulfillable).toBe(0);
    }
    // The store's clock goes on after the seeded past.
    const later = state.createOrder(DOMAIN, {
      lineItems: [{ title: "Stool", price: 1, quantity: 1 }],
    });
    expect(Date.parse(later.createdAt)).toBeGreaterThanOrEqual(Date.parse(NOW));
    expect(topics).toEqual(["orders/create", "orders/paid"]);
  });

  it("seeds the same orders for the same seed, and honours requested lines, plan and shares", () => {
    const shape = (state: StoreState) =>
      state
        .orders(DOMAIN)
        .map((order) => [
          order.createdAt,
          order.lineItems.map((line) => [line.title, line.quantity, line.price]),
          order.refunds.length,
        ]);
    const first = benchStore();
    const second = benchStore();
    first.state.seedOrders(DOMAIN, { count: 50, seed: 7, ...WINDOW });
    second.state.seedOrders(DOMAIN, { count: 50, seed: 7, ...WINDOW });
    expect(shape(first.state)).toEqual(shape(second.state));

    const { state, variants } = benchStore();
    const planVariant = state.setProduct(
      DOMAIN,
      {
        title: "Protection",
        variants: [{ title: "2 years", price: 2500, requiresShipping: false }],
      },
      MERCHANT,
    ).variants[0]!;
    const seeded = state.seedOrders(DOMAIN, {
      count: 40,
      ...WINDOW,
      lineItems: [{ variantId: variants[0]!.id }],
      plan: { variantId: planVariant.id },
      shares: { protected: 1, fulfilled: 0, refunded: 0, edited: 0 },
    });
    expect(seeded).toMatchObject({ protected: 40, fulfilled: 0, refunded: 0, edited: 0 });
    for (const order of state.orders(DOMAIN)) {
      expect(order.lineItems.map((line) => [line.variantId, line.price])).toEqual([
        [variants[0]!.id, 99900],
        [planVariant.id, 2500],
      ]);
    }
  });

  it("refuses what it cannot seed, and seeds nothing then", () => {
    const { state } = benchStore();
    const refusals = [
      { count: 0 },
      { count: 10, createdTo: "2026-12-01T00:00:00Z" },
      { count: 1000, createdFrom: "2026-11-24T09:59:59Z", createdTo: NOW },
      { count: 1, lineItems: [{ variantId: "1" }] },
      { count: 1, lineItems: [{ title: "No price" }] },
      { count: 1, shares: { refunded: 2 } },
    ];
    for (const input of refusals) {
      expect(() => state.seedOrders(DOMAIN, input), JSON.stringify(input)).toThrow(StoreUserError);
    }
    expect(state.orders(DOMAIN)).toEqual([]);
  });
});
