import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { LIVE_KEY, SANDBOX_KEY } from "../../emulator/test-support";
import type * as WorkerModule from "../../app/outbox/worker.server";
import { ORDER_TOPICS, type OrderTopic } from "../../app/orders";
import { testDatabaseProvider } from "../support/databases";
import {
  createStoreProduct,
  installInStore,
  resetLocalStore,
  storeControl,
  storeWebhooksIdle,
} from "../support/local-store";
import { LIFECYCLE, lifecycleBody, orderLifecycle } from "../support/order-lifecycle";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import { repoRoot } from "../support/test-env";

// Signed order webhooks through the real routes, the outbox and the worker, to the emulator.

const provider = testDatabaseProvider();
const SHOP = "lifecycle-store.myshopify.com";

const app = withOutboxApp();

beforeEach(async () => {
  await app.control.reset();
  await app.prisma.shopifyAction.deleteMany({});
  await app.prisma.outboxEvent.deleteMany({});
  await app.prisma.webhookReceipt.deleteMany({});
  await app.prisma.shopConnection.deleteMany({});
  await connectWithKey(SANDBOX_KEY);
});

function connectWithKey(sandboxSecretKey: string) {
  return connectShop(app.prisma, SHOP, { environment: "sandbox", sandboxSecretKey });
}

/** A lifecycle webhook, signed, through the real route: the sample's body for `topic` unless given. */
async function send(
  topic: OrderTopic,
  options: { body?: string; webhookId?: string; eventId?: string } = {},
) {
  const { body = lifecycleBody(topic), ...headers } = options;
  const answer = await app.webhooks.sendOrderWebhook({ topic, shop: SHOP, body, ...headers });
  expect(answer.status).toBe(200);
  return answer;
}

function worker(options: Partial<WorkerModule.OutboxWorkerOptions> = {}) {
  return app.worker.createOutboxWorker({
    db: app.prisma,
    batchSize: 50,
    concurrency: 8,
    ...options,
  });
}

async function sentEvents() {
  const requests = await app.control.requests();
  return requests
    .filter((request) => request.path.endsWith("/events") && request.status === 200)
    .map((request) => (request.body as { type: string }).type);
}

async function statuses() {
  const rows = await app.prisma.outboxEvent.findMany({
    where: { shop: SHOP },
    orderBy: { id: "asc" },
  });
  return rows.map((row) => `${row.eventType}:${row.status}`);
}

describe(`order webhooks to service events (${provider})`, () => {
  it("delivers a whole lifecycle in order, each event once", async () => {
    for (const { topic, body } of orderLifecycle()) await send(topic, { body });
    expect(await app.prisma.outboxEvent.count({ where: { status: "pending" } })).toBe(4);

    await worker().drain();

    expect(await sentEvents()).toEqual([
      "order_placed",
      "order_fulfillment_added",
      "order_refund_added",
      "order_cancelled",
    ]);
    const state = await app.control.state("sandbox");
    const order = state.orders.find((candidate) => candidate.order_id === LIFECYCLE.orderId);
    expect(order?.placed.line_items).toHaveLength(3);
    const plan = order?.placed.line_items.find((line) => line.custom_properties?.product_reference);
    const laptop = order?.placed.line_items.find((line) => line.id === "13610349347129");
    expect(plan?.custom_properties?.product_reference).toBe(laptop?.product_id);
    expect(laptop).toMatchObject({
      price_amount: 129900,
      quantity: 1,
      product_id: "44105305964857",
    });
    const rows = await app.prisma.outboxEvent.findMany({ orderBy: { id: "asc" } });
    expect(
      rows.every((row) => row.status === "delivered" && row.serviceEventId && row.deliveredAt),
    ).toBe(true);
    expect(rows.every((row) => row.environment === "sandbox" && row.attempts === 1)).toBe(true);
  });

  it("records a duplicate delivery, or the same event redelivered, once", async () => {
    const webhookId = randomUUID();
    const eventId = randomUUID();
    await send("orders/create", { webhookId, eventId });
    await send("orders/create", { webhookId, eventId });
    await send("orders/create", { eventId });
    // A new event for the same Shopify action (same fulfillment) is still one service event.
    await send("fulfillments/create");
    await send("fulfillments/update", { body: lifecycleBody("fulfillments/create") });

    expect(await app.prisma.webhookReceipt.count()).toBe(3);
    await worker().drain();
    expect(await sentEvents()).toEqual(["order_placed", "order_fulfillment_added"]);
  });

  it("keeps reporting an order whose orders/create came again under new IDs", async () => {
    // Found by the plan chaos run: the repeat records nothing new and its receipt is "ignored",
    // which must not read as "this order is not reported" for the webhooks that follow.
    await send("orders/create");
    await send("orders/create");
    await send("fulfillments/create");
    await send("refunds/create");

    await worker().drain();
    expect(await sentEvents()).toEqual([
      "order_placed",
      "order_fulfillment_added",
      "order_refund_added",
    ]);
  });

  it("stores the order's name from orders/create, and a later refund inherits it", async () => {
    const { name } = JSON.parse(lifecycleBody("orders/create")) as { name: string };
    expect(name).toMatch(/^#/);
    await send("orders/create");
    await send("refunds/create");

    const receipts = await app.prisma.webhookReceipt.findMany({
      select: { topic: true, orderName: true },
      orderBy: { receivedAt: "asc" },
    });
    expect(receipts).toEqual([
      { topic: "orders/create", orderName: name },
      { topic: "refunds/create", orderName: name },
    ]);
    const events = await app.prisma.outboxEvent.findMany({
      select: { eventType: true, orderName: true },
      orderBy: { id: "asc" },
    });
    expect(events.map((event) => event.eventType)).toContain("order_refund_added");
    expect(events.every((event) => event.orderName === name)).toBe(true);
  });

  it("leaves the name empty for a refund of an order no webhook named yet", async () => {
    await send("refunds/create");
    const receipt = await app.prisma.webhookReceipt.findFirstOrThrow({
      select: { orderName: true },
    });
    const event = await app.prisma.outboxEvent.findFirstOrThrow({ select: { orderName: true } });
    expect([receipt.orderName, event.orderName]).toEqual([null, null]);
  });

  it("sends order_placed first when the refund arrives before the order", async () => {
    await send("refunds/create");
    await worker().drain();
    expect(await sentEvents()).toEqual([]);
    expect(await statuses()).toEqual(["order_refund_added:pending"]);

    await send("orders/create");
    await worker().drain();
    expect(await sentEvents()).toEqual(["order_placed", "order_refund_added"]);
  });

  it("loses nothing while the service is down, and sends it all once it is back", async () => {
    await app.restartEmulator(async () => {
      for (const { topic, body } of orderLifecycle()) await send(topic, { body });
      await worker().drain();
      expect(await statuses()).toEqual([
        "order_placed:failed",
        "order_fulfillment_added:pending",
        "order_refund_added:pending",
        "order_cancelled:pending",
      ]);
      const failed = await app.prisma.outboxEvent.findFirstOrThrow({ where: { status: "failed" } });
      expect(failed.lastError).toMatch(/network|timeout/);
      expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    });

    const later = new Date(Date.now() + 60 * 60 * 1000);
    await worker({ now: () => later }).drain();
    expect(await sentEvents()).toEqual([
      "order_placed",
      "order_fulfillment_added",
      "order_refund_added",
      "order_cancelled",
    ]);
    expect(await statuses()).toEqual([
      "order_placed:delivered",
      "order_fulfillment_added:delivered",
      "order_refund_added:delivered",
      "order_cancelled:delivered",
    ]);
  });

  it("marks a 400 dead at once and keeps the service's validation errors", async () => {
    await send("orders/create");
    // As if a mapping bug had produced a negative price: the service's schema refuses it.
    const row = await app.prisma.outboxEvent.findFirstOrThrow({ where: { shop: SHOP } });
    const event = JSON.parse(row.payload) as {
      payload: { line_items: { price_amount: number }[] };
    };
    event.payload.line_items[0]!.price_amount = -1;
    await app.prisma.outboxEvent.update({
      where: { id: row.id },
      data: { payload: JSON.stringify(event) },
    });
    await worker().drain();

    const dead = await app.prisma.outboxEvent.findFirstOrThrow({ where: { shop: SHOP } });
    expect(dead.status).toBe("dead");
    expect(dead.attempts).toBe(1);
    expect(dead.lastError).toMatch(
      /^validation error \(400 validation_failed\).*line_items\/0\/price_amount|line_items\[0\]\.price_amount/,
    );
    const answer = JSON.parse(dead.lastResponse ?? "{}") as {
      status: number;
      error: { error_code: string; validation_errors: unknown[] };
    };
    expect(answer.status).toBe(400);
    expect(answer.error.error_code).toBe("validation_failed");
    expect(answer.error.validation_errors.length).toBeGreaterThan(0);

    // Fixed and replayed: the same row is sent again and delivered.
    event.payload.line_items[0]!.price_amount = 129900;
    await app.prisma.outboxEvent.update({
      where: { id: row.id },
      data: { payload: JSON.stringify(event) },
    });
    expect(await app.outbox.retryDeadEvents(app.prisma, SHOP)).toBe(1);
    await worker().drain();
    expect((await app.prisma.outboxEvent.findFirstOrThrow({ where: { shop: SHOP } })).status).toBe(
      "delivered",
    );
  });

  it("pauses a shop whose key is rejected, and resumes when the key changes", async () => {
    await connectWithKey("sk_test_revoked_0000");
    for (const { topic, body } of orderLifecycle().slice(0, 2)) await send(topic, { body });
    await worker().drain();

    const paused = await app.prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(paused.status).toBe("key_rejected");
    expect(paused.statusDetail).toMatch(/sandbox secret key/);
    expect(await statuses()).toEqual(["order_placed:pending", "order_fulfillment_added:pending"]);
    await worker().drain();
    const unauthorized = (await app.control.requests()).filter((request) => request.status === 401);
    expect(unauthorized).toHaveLength(1); // paused: no second try with the rejected key

    await connectWithKey(SANDBOX_KEY);
    await worker().drain();
    expect(await sentEvents()).toEqual(["order_placed", "order_fulfillment_added"]);
  });

  it("keeps a signed payload it cannot map, answers 200, and sends nothing", async () => {
    const answer = await app.webhooks.sendOrderWebhook({
      topic: "orders/create",
      shop: SHOP,
      body: "{not json",
    });
    expect(answer.status).toBe(200);
    const receipt = await app.prisma.webhookReceipt.findFirstOrThrow({ where: { shop: SHOP } });
    expect(receipt.status).toBe("unprocessable");
    expect(receipt.payload).toBe("{not json");
    expect(receipt.detail).toMatch(/not valid JSON/);

    await app.webhooks.sendOrderWebhook({
      topic: "orders/create",
      shop: SHOP,
      body: JSON.stringify({ id: 1 }),
    });
    const second = await app.prisma.webhookReceipt.findFirstOrThrow({
      where: { shop: SHOP, orderId: "1" },
    });
    expect(second.status).toBe("unprocessable");
    expect(await app.prisma.outboxEvent.count()).toBe(0);
  });

  it("sends production events with the live key, as the connection said when recorded", async () => {
    await connectShop(app.prisma, SHOP, {
      environment: "production",
      liveSecretKey: LIVE_KEY,
    });
    await send("orders/create");
    await connectShop(app.prisma, SHOP, {
      environment: "sandbox",
    });
    await worker().drain();
    expect((await app.control.state("production")).orders.map((order) => order.order_id)).toEqual([
      LIFECYCLE.orderId,
    ]);
    expect((await app.control.state("sandbox")).orders).toEqual([]);
  });

  it("does not report a plan-less order, or its follow-ups, when the shop turned that off", async () => {
    await app.prisma.shopConnection.update({
      where: { shop: SHOP },
      data: { reportOrdersWithoutPlan: false },
    });
    const order = JSON.parse(lifecycleBody("orders/create")) as {
      line_items: { properties: unknown[] }[];
    };
    for (const line of order.line_items) line.properties = [];
    await send("fulfillments/create");
    await app.webhooks.sendOrderWebhook({
      topic: "orders/create",
      shop: SHOP,
      body: JSON.stringify(order),
    });
    await send("refunds/create");
    await worker().drain();

    expect(await sentEvents()).toEqual([]);
    expect(await app.prisma.outboxEvent.count()).toBe(0);
    const receipts = await app.prisma.webhookReceipt.findMany({ orderBy: { receivedAt: "asc" } });
    expect(receipts.map((receipt) => receipt.status)).toEqual(["processed", "ignored", "ignored"]);
  });

  it("drops the line cancellations that Shopify's cancel refund repeats", async () => {
    await send("orders/create");
    const refund = JSON.parse(lifecycleBody("refunds/create")) as {
      id: number;
      refund_line_items: { restock_type: string }[];
    };
    for (const line of refund.refund_line_items) line.restock_type = "cancel";
    const cancelled = JSON.parse(lifecycleBody("orders/cancelled")) as {
      refunds: unknown[];
    };
    cancelled.refunds = [refund];
    await app.webhooks.sendOrderWebhook({
      topic: "refunds/create",
      shop: SHOP,
      body: JSON.stringify(refund),
    });
    await app.webhooks.sendOrderWebhook({
      topic: "orders/cancelled",
      shop: SHOP,
      body: JSON.stringify(cancelled),
    });
    await worker().drain();
    expect(await sentEvents()).toEqual(["order_placed", "order_cancelled"]);
  });

  it.runIf(provider === "postgresql")(
    "lets two workers drain 1,000 events with each delivered exactly once",
    async () => {
      const { createPrismaClient } = await import("../../app/db/client.server");
      const orders = Array.from({ length: 500 }, (_, index) => String(7_000_000_000_000 + index));
      const at = "2026-11-21T10:00:00.000Z";
      await app.prisma.outboxEvent.createMany({
        data: orders.flatMap((orderId) => [
          {
            shop: SHOP,
            environment: "sandbox",
            orderId,
            eventType: "order_placed",
            dedupeKey: `order:${orderId}:placed`,
            payload: JSON.stringify({
              type: "order_placed",
              payload: {
                order_id: orderId,
                placed_at: at,
                order_currency: "eur",
                customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
                customer_billing_address: {
                  address_line_1: "Unter den Linden 1",
                  city: "Berlin",
                  country: "de",
                  zip: "10117",
                },
                line_items: [
                  {
                    id: `${orderId}1`,
                    quantity: 1,
                    price_amount: 129900,
                    product_id: "44105305964857",
                    product_title: "Laptop",
                    product_brand: "Apple",
                  },
                ],
              },
            }),
          },
          {
            shop: SHOP,
            environment: "sandbox",
            orderId,
            eventType: "order_fulfillment_added",
            dedupeKey: `fulfillment:${orderId}`,
            payload: JSON.stringify({
              type: "order_fulfillment_added",
              payload: {
                order_id: orderId,
                fulfillment_items: [{ line_item_id: `${orderId}1`, quantity: 1, fulfilled_at: at }],
              },
            }),
          },
        ]),
      });
      const clients = [
        createPrismaClient(process.env.DATABASE_URL!),
        createPrismaClient(process.env.DATABASE_URL!),
      ];
      const handled = [0, 0];
      try {
        await Promise.all(
          clients.map(async (db, index) => {
            const each = app.worker.createOutboxWorker({
              db,
              batchSize: 25,
              concurrency: 8,
              workerId: `w${index}`,
            });
            handled[index] = await each.drain();
          }),
        );
      } finally {
        await Promise.all(clients.map((db) => db.$disconnect()));
      }
      expect(handled[0]! + handled[1]!).toBe(1000);
      expect(Math.min(...handled)).toBeGreaterThan(0);
      expect(await app.prisma.outboxEvent.count({ where: { status: "delivered" } })).toBe(1000);
      const state = await app.control.state("sandbox");
      expect(state.orders).toHaveLength(500);
      for (const order of state.orders) {
        expect(order.placement_count).toBe(1);
        expect(order.events.map((event) => event.type)).toEqual([
          "order_placed",
          "order_fulfillment_added",
        ]);
      }
    },
    60_000,
  );

  it("keeps every digit of IDs above 2^53 from the raw body to the service", async () => {
    const body = readFileSync(
      path.join(repoRoot, "test/fixtures/orders/orders-create-19-digit-ids.json"),
      "utf8",
    );
    await app.webhooks.sendOrderWebhook({ topic: "orders/create", shop: SHOP, body });
    await worker().drain();
    const [order] = (await app.control.state("sandbox")).orders;
    expect(order?.order_id).toBe("6709529444685123457");
    expect(order?.placed.line_items.map((line) => line.id)).toContain("1673526385082912345");
    const row = await app.prisma.outboxEvent.findFirstOrThrow({ where: { shop: SHOP } });
    expect(row.orderId).toBe("6709529444685123457");
  });

  it("subscribes to every order topic in shopify.app.toml, each with its route", () => {
    const toml = readFileSync(path.join(repoRoot, "shopify.app.toml"), "utf8");
    for (const topic of ORDER_TOPICS) {
      const route = `app/routes/webhooks.${topic.replace("/", ".")}.tsx`;
      expect(toml).toContain(`# Handled by: ${route}`);
      expect(toml).toContain(`topics = ["${topic}"]\n  uri = "/webhooks/${topic}"`);
      expect(existsSync(path.join(repoRoot, route))).toBe(true);
    }
  });

  it("refuses a wrong signature with 401 and stores nothing", async () => {
    const answer = await app.webhooks.sendOrderWebhook({
      topic: "orders/create",
      shop: SHOP,
      body: lifecycleBody("orders/create"),
      secret: "not-the-app-secret",
    });
    expect(answer.status).toBe(401);
    expect(await app.prisma.webhookReceipt.count()).toBe(0);
    expect(await app.prisma.outboxEvent.count()).toBe(0);
  });
});

describe(`an order lifecycle played in the local Shopify store (${provider})`, () => {
  interface StoreOrder {
    id: string;
    line_items: { id: string; variant_id: string | null }[];
  }
  interface Delivery {
    topic: string;
    attempt: number;
    status: number | null;
  }

  /** A merchant's action in the store's admin; returns once its webhooks reached the app. */
  async function inStore<Body>(path: string, body: unknown, status = 201): Promise<Body> {
    const answer = await storeControl<Body>(`shops/${SHOP}/${path}`, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    await storeWebhooksIdle();
    return answer.body;
  }

  it("turns each store action's webhooks into service events, each once", async () => {
    await resetLocalStore();
    await installInStore(app.prisma, SHOP);
    const laptop = await createStoreProduct(SHOP, {
      title: "Aurora 14 Laptop",
      variants: [{ title: "16 GB", price: "999.00" }],
    });
    const plan = await createStoreProduct(SHOP, {
      title: "Accident protection",
      status: "UNLISTED",
      variants: [{ title: "99.00 EUR", price: "99.00", requires_shipping: false }],
    });
    const laptopVariant = laptop.variants[0]!.id;
    const planVariant = plan.variants[0]!.id;
    await app.prisma.protectionItem.create({
      data: {
        shop: SHOP,
        strategy: "one_to_many",
        productId: plan.id,
        variantId: planVariant,
        title: "Accident protection - 99.00 EUR",
        priceAmount: 9900,
        currency: "EUR",
        createdByApp: true,
      },
    });

    // A buyer orders two laptops with a plan each; the merchant ships one laptop, refunds one
    // plan, then cancels what is left, refunding it.
    const order = await inStore<StoreOrder>("orders", {
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
    });
    expect(BigInt(order.id)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    const [laptopLine, planLine] = order.line_items;
    await inStore(`orders/${order.id}/fulfillments`, {
      line_items: [{ id: laptopLine!.id, quantity: 1 }],
    });
    await inStore(`orders/${order.id}/refunds`, {
      refund_line_items: [{ line_item_id: planLine!.id, quantity: 1, restock_type: "no_restock" }],
    });
    await inStore(`orders/${order.id}/cancel`, { reason: "customer", refund: true }, 200);

    // The store sent each webhook once, and the app took each on the first attempt. The cancel
    // with a refund fires refunds/create and orders/cancelled at once, in no set order, as
    // Shopify does.
    const deliveries = (await storeControl<{ deliveries: Delivery[] }>("webhooks")).body.deliveries;
    const sorted = (rows: string[][]) => [...rows].sort((a, b) => a.join().localeCompare(b.join()));
    const delivered = deliveries.map(({ topic, attempt, status }) => [
      topic,
      `${attempt}`,
      `${status}`,
    ]);
    expect(delivered.slice(0, 3)).toEqual([
      ["orders/create", "1", "200"],
      ["fulfillments/create", "1", "200"],
      ["refunds/create", "1", "200"],
    ]);
    expect(sorted(delivered.slice(3))).toEqual([
      ["orders/cancelled", "1", "200"],
      ["refunds/create", "1", "200"],
    ]);

    await worker().drain();
    const sent = await sentEvents();
    expect(sent.slice(0, 3)).toEqual([
      "order_placed",
      "order_fulfillment_added",
      "order_refund_added",
    ]);
    expect([...sent.slice(3)].sort()).toEqual(["order_cancelled", "order_refund_added"]);
    const placed = (await app.control.state("sandbox")).orders.find(
      (candidate) => candidate.order_id === order.id,
    )?.placed;
    expect(placed?.line_items.map((line) => line.product_id)).toContain(laptopVariant);
    expect(await statuses()).not.toContainEqual(expect.stringMatching(/:(pending|failed|dead)$/));
  });
});
