import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getEnv } from "../../app/env.server";
import { LIVE_KEY, SANDBOX_KEY } from "../../emulator/test-support";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";

// New orders arriving together are written in shared transactions (decision 009). Grouping
// must never merge, lose or duplicate a delivery, nor let one bad delivery fail the others.

const SANDBOX_SHOP = "group-sandbox.myshopify.com";
const LIVE_SHOP = "group-live.myshopify.com";

const app = withOutboxApp();

beforeEach(async () => {
  await app.prisma.orderSummary.deleteMany({});
  await app.prisma.outboxEvent.deleteMany({});
  await app.prisma.webhookReceipt.deleteMany({});
  await app.prisma.shopConnection.deleteMany({});
  await connectShop(app.prisma, SANDBOX_SHOP);
  await connectShop(app.prisma, LIVE_SHOP, {
    environment: "production",
    sandboxSecretKey: SANDBOX_KEY,
    liveSecretKey: LIVE_KEY,
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const template = () => app.webhooks.readLifecycleFixture("orders-create.json");

function orderBody(orderId: number): string {
  return template().replace(/"id":\s*\d+/, `"id": ${orderId}`);
}

interface Delivery {
  shop: string;
  body: string;
  webhookId: string;
  eventId: string;
}

function newDelivery(shop: string, orderId: number): Delivery {
  return { shop, body: orderBody(orderId), webhookId: randomUUID(), eventId: randomUUID() };
}

function sendAll(deliveries: Delivery[]) {
  return Promise.all(
    deliveries.map(async (delivery) => {
      const answer = await app.webhooks.sendOrderWebhook({ topic: "orders/create", ...delivery });
      return answer.status;
    }),
  );
}

async function placedOrderIds(shop: string) {
  const events = await app.prisma.outboxEvent.findMany({
    where: { shop, eventType: "order_placed" },
    select: { orderId: true, environment: true },
  });
  return events;
}

describe("group commit of new orders", () => {
  it("stores 120 concurrent orders once each, in far fewer transactions", async () => {
    const transactions = vi.spyOn(app.prisma, "$transaction");
    const deliveries = Array.from({ length: 120 }, (_, index) =>
      newDelivery(SANDBOX_SHOP, 9_100_000 + index),
    );

    expect(await sendAll(deliveries)).toEqual(deliveries.map(() => 200));

    const placed = await placedOrderIds(SANDBOX_SHOP);
    expect(placed.map((event) => Number(event.orderId)).sort()).toEqual(
      deliveries.map((_, index) => 9_100_000 + index),
    );
    expect(await app.prisma.webhookReceipt.count({ where: { status: "processed" } })).toBe(120);
    // The dashboard's row of each order is written with its order_placed event.
    const summaries = await app.prisma.orderSummary.findMany({ where: { shop: SANDBOX_SHOP } });
    expect(summaries).toHaveLength(120);
    expect(summaries.every((summary) => summary.planLineCount > 0)).toBe(true);
    expect(transactions.mock.calls.length).toBeGreaterThan(0);
    expect(transactions.mock.calls.length).toBeLessThanOrEqual(12);
  });

  it("keeps each shop's environment inside one group", async () => {
    const deliveries = Array.from({ length: 20 }, (_, index) =>
      newDelivery(index % 2 ? LIVE_SHOP : SANDBOX_SHOP, 9_200_000 + index),
    );
    expect(await sendAll(deliveries)).toEqual(deliveries.map(() => 200));

    const sandbox = await placedOrderIds(SANDBOX_SHOP);
    const live = await placedOrderIds(LIVE_SHOP);
    expect(sandbox).toHaveLength(10);
    expect(live).toHaveLength(10);
    expect(new Set(sandbox.map((event) => event.environment))).toEqual(new Set(["sandbox"]));
    expect(new Set(live.map((event) => event.environment))).toEqual(new Set(["production"]));
  });

  it("records the others when duplicates share their group, and each duplicate once", async () => {
    const first = Array.from({ length: 10 }, (_, index) =>
      newDelivery(SANDBOX_SHOP, 9_300_000 + index),
    );
    expect(await sendAll(first)).toEqual(first.map(() => 200));

    const fresh = Array.from({ length: 30 }, (_, index) =>
      newDelivery(SANDBOX_SHOP, 9_300_100 + index),
    );
    // Shopify's retries: the same delivery again, and the same event under a new delivery ID.
    const sameDelivery = first.slice(0, 5);
    const sameEvent = first.slice(5).map((delivery) => ({ ...delivery, webhookId: randomUUID() }));
    // Two deliveries of one new order racing each other inside the group.
    const racing = newDelivery(SANDBOX_SHOP, 9_300_999);
    const mixed = [...fresh, ...sameDelivery, ...sameEvent, racing, { ...racing }];

    expect(await sendAll(mixed)).toEqual(mixed.map(() => 200));

    const placed = await placedOrderIds(SANDBOX_SHOP);
    expect(placed).toHaveLength(10 + 30 + 1);
    expect(new Set(placed.map((event) => event.orderId)).size).toBe(41);
    expect(await app.prisma.webhookReceipt.count()).toBe(41);
  });

  it("records an order without a plan as ignored next to reported ones, when the shop says so", async () => {
    await app.prisma.shopConnection.update({
      where: { shop: SANDBOX_SHOP },
      data: { reportOrdersWithoutPlan: false },
    });
    const withoutPlan = JSON.parse(template()) as {
      id: number;
      line_items: Array<{ properties: Array<{ name: string }> }>;
    };
    withoutPlan.id = 9_400_001;
    for (const line of withoutPlan.line_items) {
      line.properties = line.properties.filter(
        (property) => property.name !== "_svc_protected_product_ref",
      );
    }
    const deliveries = [
      newDelivery(SANDBOX_SHOP, 9_400_000),
      { ...newDelivery(SANDBOX_SHOP, 0), body: JSON.stringify(withoutPlan) },
      newDelivery(SANDBOX_SHOP, 9_400_002),
    ];

    expect(await sendAll(deliveries)).toEqual([200, 200, 200]);

    const placed = await placedOrderIds(SANDBOX_SHOP);
    expect(placed.map((event) => event.orderId).sort()).toEqual(["9400000", "9400002"]);
    const ignored = await app.prisma.webhookReceipt.findFirstOrThrow({
      where: { orderId: "9400001" },
    });
    expect(ignored.status).toBe("ignored");
  });

  it("refuses deliveries past SVC_WEBHOOK_MAX_IN_FLIGHT with 503 and stores only the accepted", async () => {
    const env = getEnv();
    const limit = env.SVC_WEBHOOK_MAX_IN_FLIGHT;
    env.SVC_WEBHOOK_MAX_IN_FLIGHT = 2;
    try {
      const deliveries = Array.from({ length: 10 }, (_, index) =>
        newDelivery(SANDBOX_SHOP, 9_600_000 + index),
      );
      const answers = await Promise.all(
        deliveries.map((delivery) =>
          app.webhooks.sendOrderWebhook({ topic: "orders/create", ...delivery }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual([
        200, 200, 503, 503, 503, 503, 503, 503, 503, 503,
      ]);
      expect(answers[2]!.headers.get("Retry-After")).toBe("5");
      const placed = await placedOrderIds(SANDBOX_SHOP);
      expect(placed.map((event) => event.orderId).sort()).toEqual(["9600000", "9600001"]);

      // Shopify sends the refused ones again; once the queue is short they are taken.
      const retried = await sendAll(deliveries.slice(2, 4));
      expect(retried).toEqual([200, 200]);
      expect(await placedOrderIds(SANDBOX_SHOP)).toHaveLength(4);
    } finally {
      env.SVC_WEBHOOK_MAX_IN_FLIGHT = limit;
    }
  });
});
