import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderRecord } from "../../emulator/state";
import { startAppAgainstStore, waitFor, type AppAgainstStore } from "../support/app-against-store";
import { testDatabaseProvider } from "../support/databases";
import { readOfflineSessionRow } from "../support/session-tokens";
import { connectShop } from "../support/shops";
import { TEST_API_KEY, TEST_API_SECRET } from "../support/test-env";

// The whole conversation with Shopify, offline: the built app (`npm start`) installed into the
// local store over token exchange, its protection product created through the admin's action
// (productSet, publication and the database, against the real Admin schema), and an order with a
// plan that the merchant fulfils, refunds and cancels in the store. Every step is a real signed
// webhook from the store to the app, and each reaches the protection-service emulator.

const provider = testDatabaseProvider();
const SHOP = `e2e-${provider}.myshopify.com`;

interface StoreOrder {
  id: string;
  line_items: { id: string; variant_id: string | null; title: string }[];
}

describe(`the app against the local Shopify store (${provider})`, () => {
  let app: AppAgainstStore;
  const control = (path: string, body?: unknown) => app.control(path, body);

  const adminPost = (path: string, route: string, form: Record<string, string>) =>
    app.adminPost(SHOP, path, route, form);

  async function serviceOrder(orderId: string): Promise<OrderRecord | undefined> {
    const state = await app.service.state("sandbox");
    return state.orders.find((order) => order.order_id === orderId);
  }

  async function eventTypes(orderId: string, count: number) {
    return waitFor(
      `${count} service events for order ${orderId}`,
      async () => {
        const types = (await serviceOrder(orderId))?.events.map((event) => event.type) ?? [];
        return types.length >= count ? types : undefined;
      },
      app.explain,
    );
  }

  beforeAll(async () => {
    app = await startAppAgainstStore();
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
  });

  it(
    "installs, creates protection items, and reports a whole order lifecycle",
    { timeout: 90_000 },
    async () => {
      const created = await control("shops", {
        shop: SHOP,
        app_url: app.server.url,
        api_key: TEST_API_KEY,
        api_secret: TEST_API_SECRET,
      });
      expect(created.status).toBe(201);

      // Install: the store records the grant and loads the app, which exchanges the session token.
      const installed = await control(`shops/${SHOP}/install`, {});
      expect(installed).toMatchObject({ status: 200, body: { installed: true } });
      const { default: prisma } = await import("../../app/db.server");
      const session = await readOfflineSessionRow(prisma, SHOP);
      expect(session.accessToken).toMatch(/^shpat_/);
      await connectShop(prisma, SHOP);

      // The merchant's own product, and the protection product made by the app's admin action.
      const laptop = await control(`shops/${SHOP}/products`, {
        title: "Laptop",
        variants: [{ title: "Default Title", price: "999.00" }],
      });
      expect(laptop.status).toBe(201);
      const laptopVariant = (laptop.body.variants as { id: string }[])[0]!.id;

      const createdItems = await adminPost("/app/items/new", "routes/app.items_.new", {
        title: "Accident protection",
        prices: "49.00, 99.00",
        category: "",
      });
      expect(createdItems.status, app.explain()).toBeLessThan(400);
      const products = (await control(`shops/${SHOP}/products`)).body.products as {
        title: string;
        status: string;
        publications: { name: string }[];
        variants: { id: string; price: string }[];
      }[];
      const plan = products.find((product) => product.title === "Accident protection");
      expect(plan?.status).toBe("UNLISTED");
      expect(plan?.publications.map((publication) => publication.name)).toContain("Online Store");
      const planVariant = plan!.variants.find((variant) => variant.price === "99.00")!.id;
      expect(await prisma.protectionItem.count({ where: { shop: SHOP } })).toBe(2);

      // A buyer orders two laptops with a plan each; the merchant ships one, refunds one plan,
      // then cancels what is left (refunding it).
      const order = (
        await control(`shops/${SHOP}/orders`, {
          line_items: [
            { variant_id: laptopVariant, quantity: 2 },
            {
              variant_id: planVariant,
              quantity: 2,
              requires_shipping: false,
              properties: [{ name: "_svc_protected_product_ref", value: laptopVariant }],
            },
          ],
          customer: { email: "buyer@example.com", first_name: "Ada", last_name: "Lovelace" },
        })
      ).body as unknown as StoreOrder;
      const orderId = String(order.id);
      expect(BigInt(orderId)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
      expect(await eventTypes(orderId, 1)).toEqual(["order_placed"]);
      const placed = (await serviceOrder(orderId))!.placed;
      expect(placed.line_items.map((line) => line.product_id)).toContain(laptopVariant);

      const [laptopLine, planLine] = order.line_items;
      const fulfilled = await control(`shops/${SHOP}/orders/${orderId}/fulfillments`, {
        line_items: [{ id: String(laptopLine!.id), quantity: 1 }],
      });
      expect(fulfilled.status).toBe(201);
      expect(await eventTypes(orderId, 2)).toEqual(["order_placed", "order_fulfillment_added"]);

      const refunded = await control(`shops/${SHOP}/orders/${orderId}/refunds`, {
        refund_line_items: [
          { line_item_id: String(planLine!.id), quantity: 1, restock_type: "no_restock" },
        ],
      });
      expect(refunded.status).toBe(201);
      expect((await eventTypes(orderId, 3))[2]).toBe("order_refund_added");

      const cancelled = await control(`shops/${SHOP}/orders/${orderId}/cancel`, {
        reason: "customer",
        refund: true,
      });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      // Cancelling with a refund fires refunds/create and orders/cancelled; Shopify (and the
      // store) deliver them in any order, and the outbox only keeps order_placed first.
      const types = await eventTypes(orderId, 5);
      expect(types[0]).toBe("order_placed");
      expect([...types].sort()).toEqual([
        "order_cancelled",
        "order_fulfillment_added",
        "order_placed",
        "order_refund_added",
        "order_refund_added",
      ]);

      // Every Admin API request the app sent validated against the schema.
      const graphql = (await control("graphql")).body.requests as {
        operation_name: string | null;
        validation_errors: string[];
      }[];
      expect(graphql.map((request) => request.operation_name)).toEqual(
        expect.arrayContaining(["CreateProtectionProduct", "PublishProtectionProduct"]),
      );
      expect(graphql.flatMap((request) => request.validation_errors)).toEqual([]);

      // Every webhook the store sent was answered 200 by the app on the first attempt.
      const deliveries = (await control("webhooks")).body.deliveries as {
        topic: string;
        status: number | null;
      }[];
      expect(deliveries.length).toBeGreaterThanOrEqual(4);
      expect(deliveries.filter((delivery) => delivery.status !== 200)).toEqual([]);
    },
  );
});
