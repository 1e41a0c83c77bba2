import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { idempotencyKeyFor } from "../../app/outbox/idempotency";
import { testDatabaseProvider } from "../support/databases";
import { withOutboxApp } from "../support/outbox-app";
import { repoRoot } from "../support/test-env";
import { readShopifyFixture } from "../support/webhooks";

// The checkout confirmation (decision 033) through signed orders/create webhooks to the real
// route, the outbox and the emulator: recorded once, sent once and only after order_placed.

const provider = testDatabaseProvider();
const SHOP = "confirm-store.myshopify.com";
const ORDER_ID = "6709529444685";
const SESSION = "3f2b8c1e-9a4d-4e7b-b6c5-2d1e0f9a8b7c";
const CART_ID = "Z2NwLWV1cm9wZS13ZXN0MzowMUpXVjNEMks2Vzc0TTg0NERZTVdTMEZXVg";
const WITH_SESSION = readFileSync(
  path.join(repoRoot, "test/fixtures/orders/orders-create-eur-with-session.json"),
  "utf8",
);

const app = withOutboxApp();

beforeEach(() => app.startClean(SHOP));

async function send(body: string, webhookId?: string) {
  const answer = await app.webhooks.sendOrderWebhook({
    topic: "orders/create",
    shop: SHOP,
    body,
    ...(webhookId ? { webhookId } : {}),
  });
  expect(answer.status).toBe(200);
}

const rows = () =>
  app.prisma.outboxEvent.findMany({
    where: { shop: SHOP },
    orderBy: { id: "asc" },
    select: { id: true, eventType: true, status: true, dedupeKey: true, orderId: true },
  });

const worker = (now?: () => Date) =>
  app.worker.createOutboxWorker({ db: app.prisma, ...(now ? { now } : {}) });

async function servicePaths() {
  return (await app.control.requests())
    .filter((request) => request.status < 400 || request.fault !== undefined)
    .map((request) => `${request.path} ${request.status}`);
}

describe(`the checkout confirmation through the outbox (${provider})`, () => {
  it("is recorded once, after order_placed, even when Shopify sends the webhook again", async () => {
    await send(WITH_SESSION, "delivery-1");
    await send(WITH_SESSION, "delivery-1");
    await send(WITH_SESSION, "delivery-2");

    const recorded = await rows();
    expect(recorded.map((row) => [row.eventType, row.dedupeKey, row.orderId])).toEqual([
      ["order_placed", `order:${ORDER_ID}:placed`, ORDER_ID],
      ["cart_checkout", `order:${ORDER_ID}:cart_checkout`, ORDER_ID],
    ]);
    // In the order's lane, behind its placement.
    expect(recorded[1]!.id).toBeGreaterThan(recorded[0]!.id);
  });

  it("waits for order_placed to be delivered, then reaches the service once", async () => {
    await send(WITH_SESSION);
    await app.control.control("faults", {
      method: "POST",
      body: { count: 1, status: 503, match: { path: "/sandbox/events" } },
    });

    await worker().drain();
    expect((await rows()).map((row) => [row.eventType, row.status])).toEqual([
      ["order_placed", "failed"],
      ["cart_checkout", "pending"],
    ]);
    expect(await servicePaths()).toEqual(["/sandbox/events 503"]);

    // Past the placement's retry: it goes, then the confirmation.
    const later = () => new Date(Date.now() + 10 * 60_000);
    await worker(later).drain();
    await worker(later).drain();
    expect((await rows()).map((row) => [row.eventType, row.status])).toEqual([
      ["order_placed", "delivered"],
      ["cart_checkout", "delivered"],
    ]);
    expect(await servicePaths()).toEqual([
      "/sandbox/events 503",
      "/sandbox/events 200",
      "/sandbox/cart_checkout 200",
    ]);

    const requests = await app.control.requests();
    const confirmation = requests.find((request) => request.path === "/sandbox/cart_checkout");
    expect(confirmation?.body).toEqual({
      cart_id: CART_ID,
      user_session_id: SESSION,
      order_id: ORDER_ID,
    });
    expect(confirmation?.idempotency_key).toBe(
      idempotencyKeyFor(SHOP, `order:${ORDER_ID}:cart_checkout`),
    );
    const state = await app.control.state("sandbox");
    expect(state.checkout_confirmations).toEqual([
      {
        cart_id: CART_ID,
        user_session_id: SESSION,
        order_id: ORDER_ID,
        received_at: expect.any(String),
        idempotency_key: idempotencyKeyFor(SHOP, `order:${ORDER_ID}:cart_checkout`),
      },
    ]);
    const placed = state.orders.find((order) => order.order_id === ORDER_ID);
    expect(placed?.placed.cart_id).toBe(CART_ID);
    expect(Date.parse(placed!.events[0]!.received_at)).toBeLessThanOrEqual(
      Date.parse(state.checkout_confirmations[0]!.received_at),
    );

    const delivered = await app.prisma.outboxEvent.findFirstOrThrow({
      where: { shop: SHOP, eventType: "cart_checkout" },
    });
    expect(delivered.serviceEventId).toBeNull();
    expect(JSON.parse(delivered.lastResponse ?? "null")).toMatchObject({ status: 200 });
  });

  it("records none for an order without the session attribute", async () => {
    await send(readShopifyFixture("orders_create", "real-eur-qty2_qrshirt_app.json"));
    expect((await rows()).map((row) => row.eventType)).toEqual(["order_placed"]);
  });

  it("records none when the order's placement is not reported", async () => {
    await app.prisma.shopConnection.update({
      where: { shop: SHOP },
      data: { reportOrdersWithoutPlan: false },
    });
    await send(WITH_SESSION);
    expect(await rows()).toEqual([]);
  });
});
