import { describe, expect, it } from "vitest";
import { RECONCILE_ORDER_QUERY } from "../graphql/ReconcileOrder";
import { parseWebhookJson } from "../lib/json";
import { mapOrderWebhook, type OrderTopic } from "../orders";
import { webhooksOfApiOrder, type ApiOrder } from "../orders/api-order";
import { createAdminGraphql } from "../../store/graphql";
import { StoreState } from "../../store/state";

/*
 * The promise reconciliation rests on (decision 028): an order read from the Admin API gives the
 * same events, under the same keys, as the webhooks Shopify sent for it. Checked on the local
 * store, whose webhooks are Shopify's shapes and whose Admin API is Shopify's schema: every order
 * webhook the store fires is mapped, and so is the order it then answers to RECONCILE_ORDER_QUERY.
 */

const SHOP = "equivalence.myshopify.com";
const MERCHANT = { kind: "merchant" } as const;
const OPTIONS = { reportOrdersWithoutPlan: true };

function storeWithWebhooks() {
  let clock = Date.parse("2026-11-20T10:00:00.000Z");
  const webhooks: { topic: string; json: string }[] = [];
  const state = new StoreState({
    now: () => new Date((clock += 1_000)),
    onWebhook: (_shop, topic, body) => webhooks.push({ topic, json: body.json }),
  });
  const shop = state.createShop({
    domain: SHOP,
    appUrl: "https://app.example.com",
    apiKey: "key",
    apiSecret: "secret",
  });
  state.install(SHOP, ["read_orders", "write_orders"]);
  const engine = createAdminGraphql(state, { now: () => clock });
  async function readOrder(orderId: string): Promise<ApiOrder> {
    const outcome = await engine.execute({
      shop: state.shop(SHOP) ?? shop,
      apiVersion: "2026-10",
      body: JSON.stringify({
        query: RECONCILE_ORDER_QUERY,
        variables: { id: `gid://shopify/Order/${orderId}` },
      }),
    });
    const body = outcome.body as { data?: { order: ApiOrder }; errors?: unknown };
    if (!body.data?.order) throw new Error(`No order: ${JSON.stringify(body.errors)}`);
    return body.data.order;
  }
  return { state, webhooks, readOrder, now: () => new Date(clock) };
}

/** Each event by its key, from mapped webhooks: what the outbox would hold. */
function eventsByKey(webhooks: { topic: string; payload: unknown }[]) {
  const events = new Map<string, unknown>();
  for (const { topic, payload } of webhooks) {
    const mapping = mapOrderWebhook(topic as OrderTopic, payload, OPTIONS);
    if (mapping.kind === "unprocessable") throw new Error(`${topic}: ${mapping.reason}`);
    if (mapping.kind === "events")
      for (const derived of mapping.events) events.set(derived.dedupeKey, derived.event);
  }
  return events;
}

const ORDER_TOPICS = new Set([
  "orders/create",
  "fulfillments/create",
  "refunds/create",
  "orders/cancelled",
  "orders/edited",
]);

describe("an order read from the Admin API stands for its webhooks", () => {
  it("gives the webhooks' events under their keys: placement, fulfilment, refund, cancellation", async () => {
    const store = storeWithWebhooks();
    const product = store.state.setProduct(
      SHOP,
      { title: "Lamp", variants: [{ title: "Red", sku: "LAMP-R", price: 1999 }] },
      MERCHANT,
    );
    const variantId = product.variants[0]?.id ?? "";
    const order = store.state.createOrder(SHOP, {
      // No customer: the app does not read customers (read_customers), and the store keeps no
      // addresses, from which a recovered order takes the buyer's name instead (decision 029).
      email: "ada@example.com",
      cartToken: "cart-123",
      lineItems: [
        { variantId, quantity: 3 },
        {
          title: "Protection plan",
          price: 499,
          quantity: 3,
          requiresShipping: false,
          properties: [{ name: "_svc_protected_product_ref", value: variantId }],
        },
      ],
    });
    const [lamp, plan] = order.lineItems;
    store.state.fulfil(SHOP, order.id, [{ lineItemId: lamp!.id, quantity: 1 }], MERCHANT);
    store.state.refund(
      SHOP,
      order.id,
      { lines: [{ lineItemId: lamp!.id, quantity: 1, restockType: "return" }] },
      MERCHANT,
    );
    store.state.refund(
      SHOP,
      order.id,
      { lines: [{ lineItemId: plan!.id, quantity: 1, restockType: "no_restock" }] },
      MERCHANT,
    );
    store.state.cancel(
      SHOP,
      order.id,
      { reason: "customer", refund: true, restock: true },
      MERCHANT,
    );

    const fromWebhooks = eventsByKey(
      store.webhooks
        .filter((webhook) => ORDER_TOPICS.has(webhook.topic))
        .map((webhook) => ({ topic: webhook.topic, payload: parseWebhookJson(webhook.json) })),
    );
    const reading = webhooksOfApiOrder(await store.readOrder(order.id), {
      now: store.now(),
      editSettleMs: 0,
    });
    const fromApi = eventsByKey(reading.webhooks);

    expect([...fromApi.keys()].sort()).toEqual([...fromWebhooks.keys()].sort());
    expect(Object.fromEntries(fromApi)).toEqual(Object.fromEntries(fromWebhooks));
    expect(reading.webhooks[0]?.topic).toBe("orders/create");
    expect(reading.readAgainAt).toBeNull();
  });
});
