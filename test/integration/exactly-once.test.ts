import { beforeEach, describe, expect, it } from "vitest";
import { LIVE_KEY } from "../../emulator/test-support";
import type * as WorkerModule from "../../app/outbox/worker.server";
import type { OrderTopic } from "../../app/orders";
import { idempotencyKeyFor } from "../../app/outbox/idempotency";
import { testDatabaseProvider } from "../support/databases";
import { lifecycleBody } from "../support/order-lifecycle";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";

// Issue 13's delivery defects, each through signed webhooks, the outbox and the emulator:
// a 2xx without event_id, two workers and a slow service, a stopping worker, a long 401 pause,
// a switch of environment, and money beyond 32 bits.

const provider = testDatabaseProvider();
const SHOP = "once-store.myshopify.com";
const HOUR = 60 * 60 * 1_000;

const app = withOutboxApp();

beforeEach(() => app.startClean(SHOP));

/** The sample lifecycle's webhook for another order: the same body under a new order ID. */
async function send(topic: OrderTopic, orderId?: string) {
  const body = lifecycleBody(topic, orderId);
  const answer = await app.webhooks.sendOrderWebhook({ topic, shop: SHOP, body });
  expect(answer.status).toBe(200);
}

function worker(options: Partial<WorkerModule.OutboxWorkerOptions> = {}) {
  return app.worker.createOutboxWorker({ db: app.prisma, ...options });
}

async function eventRequests() {
  const requests = await app.control.requests();
  return requests.filter((request) => request.path.endsWith("/events"));
}

function orderIds(count: number, first = 8_100_000_000_000) {
  return Array.from({ length: count }, (_, index) => String(first + index));
}

async function placementCounts(environment: "sandbox" | "production") {
  const state = await app.control.state(environment);
  return Object.fromEntries(state.orders.map((order) => [order.order_id, order.placement_count]));
}

async function statusesByType() {
  const rows = await app.prisma.outboxEvent.findMany({ orderBy: { id: "asc" } });
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const key = `${row.eventType}:${row.status}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

async function injectFault(body: Record<string, unknown>) {
  await app.control.control("faults", { method: "POST", body });
}

describe(`exactly once under faults (${provider})`, () => {
  it.each([
    ["{}", { status: 200, body: {} }],
    ["an empty body", { status: 200, raw_body: "" }],
    ["a body that is not JSON", { status: 202, raw_body: "accepted" }],
  ])("delivers an event answered 2xx with %s, once", async (_, fault) => {
    await send("orders/create");
    await injectFault({ count: 1, match: { path: "/sandbox/events" }, ...fault });

    await worker().drain();
    await worker().drain();

    expect(await eventRequests()).toHaveLength(1);
    const row = await app.prisma.outboxEvent.findFirstOrThrow();
    expect(row).toMatchObject({ status: "delivered", serviceEventId: null, attempts: 1 });
    expect(row.lastResponse).toContain(`"status":${fault.status}`);
  });

  it("sends one event once when two workers race and the service is slower than their lease", async () => {
    const orders = orderIds(6);
    for (const orderId of orders) await send("orders/create", orderId);
    // Each send takes 150 ms and a claim holds 250 ms: a worker that claimed six events and
    // sends them one by one would outlive its claim on the later ones.
    await injectFault({ count: 100, delay_ms: 150, match: { path: "/sandbox/events" } });
    const options = { concurrency: 1, batchSize: 10, leaseMs: 250 };

    await Promise.all([
      worker({ workerId: "a", ...options }).drain(),
      worker({ workerId: "b", ...options }).drain(),
    ]);

    expect(await placementCounts("sandbox")).toEqual(
      Object.fromEntries(orders.map((orderId) => [orderId, 1])),
    );
    expect(await app.prisma.outboxEvent.count({ where: { status: "delivered" } })).toBe(6);
    const requests = await eventRequests();
    expect(requests).toHaveLength(6);
    const rows = await app.prisma.outboxEvent.findMany();
    expect(new Set(requests.map((request) => request.headers["idempotency-key"]))).toEqual(
      new Set(rows.map((row) => idempotencyKeyFor(row.shop, row.dedupeKey))),
    );
  });

  it("hands back the events it has not started when it stops, and sends them once later", async () => {
    for (const orderId of orderIds(4)) await send("orders/create", orderId);
    await injectFault({ count: 1, delay_ms: 400, match: { path: "/sandbox/events" } });
    const stopping = worker({ workerId: "stopping", concurrency: 1, pollIntervalMs: 50 });
    stopping.start();
    await expect.poll(async () => (await eventRequests()).length, { timeout: 5_000 }).toBe(0);
    await expect
      .poll(() => app.prisma.outboxEvent.count({ where: { lastAttemptAt: { not: null } } }), {
        timeout: 5_000,
        interval: 20,
      })
      .toBe(1);
    await stopping.stop();

    expect(await statusesByType()).toEqual({
      "order_placed:delivered": 1,
      "order_placed:pending": 3,
    });
    expect(await app.prisma.outboxEvent.count({ where: { claimedBy: { not: null } } })).toBe(0);
    await worker({ workerId: "next" }).drain();
    expect(await eventRequests()).toHaveLength(4);
  });

  it("resends after a time-out with the same Idempotency-Key, and logs each attempt", async () => {
    await send("orders/create");
    // The service commits the event, then answers after the client gave up (2 s here).
    await injectFault({
      count: 1,
      after: "commit",
      delay_ms: 2_500,
      match: { path: "/sandbox/events" },
    });

    await worker().drain();
    const row = await app.prisma.outboxEvent.findFirstOrThrow();
    expect(row.status).toBe("failed");
    await app.prisma.outboxEvent.update({
      where: { id: row.id },
      data: { nextAttemptAt: new Date(0) },
    });
    await worker().drain();

    const requests = await eventRequests();
    const key = idempotencyKeyFor(SHOP, row.dedupeKey);
    expect(requests.map((request) => request.headers["idempotency-key"])).toEqual([key, key]);
    const attempts = await app.prisma.outboxAttempt.findMany({ orderBy: { attempt: "asc" } });
    expect(
      attempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.httpStatus]),
    ).toEqual([
      [1, "retry", null],
      [2, "delivered", 200],
    ]);
    expect(attempts.every((attempt) => attempt.idempotencyKey === key)).toBe(true);
    expect(attempts[0]!.detail).toMatch(/no complete answer/);
  });

  it("keeps follow-ups alive through a 401 pause longer than 72 hours, and sends all after reconnecting", async () => {
    await connectShop(app.prisma, SHOP, {
      environment: "sandbox",
      sandboxSecretKey: "sk_test_wrong_key_0000",
    });
    const orders = orderIds(5);
    for (const orderId of orders) {
      await send("orders/create", orderId);
      await send("orders/cancelled", orderId);
    }
    await worker().drain();
    const paused = await app.prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(paused.status).toBe("key_rejected");
    expect(paused.sandboxKeyRejectedAt).not.toBeNull();

    // A long weekend: the rows age by 73 hours.
    for (const row of await app.prisma.outboxEvent.findMany()) {
      await app.prisma.outboxEvent.update({
        where: { id: row.id },
        data: {
          createdAt: new Date(row.createdAt.getTime() - 73 * HOUR),
          nextAttemptAt: new Date(row.nextAttemptAt.getTime() - 73 * HOUR),
        },
      });
    }
    await connectShop(app.prisma, SHOP);
    expect(await app.worker.expireEventsWithoutPlacement(app.prisma, new Date())).toBe(0);
    await worker().drain();

    expect(await statusesByType()).toEqual({
      "order_placed:delivered": 5,
      "order_cancelled:delivered": 5,
    });
  });

  it("still expires a follow-up whose order_placed never came, after the window", async () => {
    await send("orders/cancelled", "8200000000001");
    const row = await app.prisma.outboxEvent.findFirstOrThrow();
    await app.prisma.outboxEvent.update({
      where: { id: row.id },
      data: { createdAt: new Date(Date.now() - 73 * HOUR) },
    });
    await app.prisma.shopConnection.update({
      where: { shop: SHOP },
      data: { deliveryResumedAt: new Date(Date.now() - 100 * HOUR) },
    });
    expect(await app.worker.expireEventsWithoutPlacement(app.prisma, new Date())).toBe(1);
    const dead = await app.prisma.outboxEvent.findFirstOrThrow();
    expect(dead.status).toBe("dead");
    expect(dead.lastError).toMatch(/never arrived/);
  });

  it("sends an order's follow-ups where its order_placed went, across a go-live", async () => {
    const orders = orderIds(3);
    for (const orderId of orders) await send("orders/create", orderId);
    await worker().drain();
    // A cancellation that arrives before its orders/create, before the switch.
    await send("orders/cancelled", "8300000000001");

    await connectShop(app.prisma, SHOP, {
      liveSecretKey: LIVE_KEY,
    });
    await app.connections.switchConnectionEnvironment(app.prisma, SHOP, "production");
    for (const orderId of orders) await send("orders/cancelled", orderId);
    await send("orders/create", "8300000000001");
    await send("orders/create", "8300000000002");
    await worker().drain();

    const sandbox = await app.control.state("sandbox");
    expect(
      sandbox.orders
        .filter((order) => order.cancelled_at)
        .map((order) => order.order_id)
        .sort(),
    ).toEqual(orders);
    const production = await app.control.state("production");
    expect(production.orders.map((order) => order.order_id).sort()).toEqual([
      "8300000000001",
      "8300000000002",
    ]);
    expect(
      production.orders.find((order) => order.order_id === "8300000000001")?.cancelled_at,
    ).not.toBeNull();
    expect(await statusesByType()).toEqual({
      "order_placed:delivered": 5,
      "order_cancelled:delivered": 4,
    });
  });

  it("pauses only the environment whose key was refused", async () => {
    const [sandboxOrder, liveOrder] = orderIds(2);
    await send("orders/create", sandboxOrder);
    await connectShop(app.prisma, SHOP, {
      liveSecretKey: LIVE_KEY,
    });
    await app.connections.switchConnectionEnvironment(app.prisma, SHOP, "production");
    await send("orders/create", liveOrder);
    // The leftover sandbox event meets a refused key.
    await injectFault({ count: 1, status: 401, match: { path: "/sandbox/events" } });

    await worker().drain();

    expect(await placementCounts("production")).toEqual({ [liveOrder!]: 1 });
    const connection = await app.prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(connection.sandboxKeyRejectedAt).not.toBeNull();
    expect(connection.liveKeyRejectedAt).toBeNull();
    expect(connection.status).toBe("connected");
    expect(await statusesByType()).toEqual({
      "order_placed:pending": 1,
      "order_placed:delivered": 1,
    });
  });

  it("pauses a shop whose saved key cannot be opened, and sends once the key is saved again", async () => {
    await send("orders/create");
    // Sealed with an encryption key this process does not have (a rotation that dropped it).
    const sealed = (await app.prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } }))
      .sandboxSecretKeySealed!;
    const [version, , ...rest] = sealed.split(".");
    await app.prisma.shopConnection.update({
      where: { shop: SHOP },
      data: { sandboxSecretKeySealed: [version, "gone0000", ...rest].join(".") },
    });

    await worker().drain();
    expect(await eventRequests()).toHaveLength(0);
    const paused = await app.prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(paused.status).toBe("secret_unreadable");
    expect(paused.statusDetail).toMatch(/sandbox/);
    expect(await app.prisma.outboxEvent.findFirstOrThrow()).toMatchObject({
      status: "pending",
      attempts: 0,
    });

    await connectShop(app.prisma, SHOP);
    await worker().drain();
    expect(await statusesByType()).toEqual({ "order_placed:delivered": 1 });
  });

  it("records an order whose plan revenue does not fit in 32 bits", async () => {
    // Rp 2,500,000 a unit (IDR has 2 decimals), 9 of each line: 2.25e9 minor units of plans.
    type Money = { amount: string; currency_code: string };
    const body = JSON.parse(app.webhooks.readLifecycleFixture("orders-create.json")) as {
      currency: string;
      line_items: {
        price: string;
        quantity: number;
        price_set?: { shop_money: Money; presentment_money: Money };
      }[];
    };
    body.currency = "IDR";
    for (const line of body.line_items) {
      line.price = "2500000.00";
      line.quantity = 9;
      const money = { amount: "2500000.00", currency_code: "IDR" };
      if (line.price_set) line.price_set = { shop_money: money, presentment_money: money };
    }
    const answer = await app.webhooks.sendOrderWebhook({
      topic: "orders/create",
      shop: SHOP,
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
    const summary = await app.prisma.orderSummary.findFirstOrThrow();
    expect(summary.planRevenue).toBe(2_500_000_00n * 9n);
    expect(await app.prisma.outboxEvent.count()).toBe(1);
  });

  it("records the events even when the order summary cannot be written", async () => {
    await app.prisma.$executeRawUnsafe(`ALTER TABLE "OrderSummary" RENAME TO "OrderSummaryAway"`);
    try {
      await send("orders/create");
      expect(await app.prisma.outboxEvent.count()).toBe(1);
      expect(await app.prisma.webhookReceipt.count({ where: { status: "processed" } })).toBe(1);
    } finally {
      await app.prisma.$executeRawUnsafe(`ALTER TABLE "OrderSummaryAway" RENAME TO "OrderSummary"`);
    }
  });
});
