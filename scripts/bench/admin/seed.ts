import { readFileSync } from "node:fs";
import path from "node:path";
import type { AppPrismaClient, AppTransaction } from "../../../app/db/client.server";
import { createOfflineSession } from "../../../test/support/offline-session";
import { BenchmarkError } from "../stats";

// The large shop the admin benchmark times its loaders on: the bench shop's rows interleaved with
// other shops', seeded the same on every run.

const ROOT = path.resolve(import.meta.dirname, "../../..");
export const SHOP = "svc-bench-admin.myshopify.com";

export const SIZES = {
  events: 100_000,
  receipts: 50_000,
  orderSummaries: 30_000,
  noiseShops: 20,
  /** Every sixth row of each table belongs to another shop, interleaved with the bench shop's. */
  noiseEveryNth: 6,
  protectionItems: 12,
  protectableVariants: 300,
  chunk: 1_000,
  days: 90,
};

/** Deterministic pseudo-random numbers, so every run seeds the same rows. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function pick<T extends string>(roll: number, weights: [T, number][]): T {
  let sum = 0;
  for (const [value, weight] of weights) {
    sum += weight;
    if (roll < sum) return value;
  }
  return weights[weights.length - 1]![0];
}

const EVENT_TYPES: [string, number][] = [
  ["order_placed", 0.4],
  ["order_fulfillment_added", 0.3],
  ["order_refund_added", 0.15],
  ["order_line_items_cancelled", 0.05],
  ["order_cancelled", 0.1],
];
const EVENT_STATUSES: [string, number][] = [
  ["delivered", 0.92],
  ["pending", 0.02],
  ["delivering", 0.005],
  ["failed", 0.02],
  ["dead", 0.02],
  ["unprocessable", 0.015],
];
const TOPICS: [string, number][] = [
  ["orders/create", 0.4],
  ["fulfillments/create", 0.25],
  ["fulfillments/update", 0.05],
  ["refunds/create", 0.15],
  ["orders/cancelled", 0.1],
  ["orders/edited", 0.04],
  ["app/scopes_update", 0.01],
];
const RECEIPT_STATUSES: [string, number][] = [
  ["processed", 0.95],
  ["ignored", 0.04],
  ["unprocessable", 0.01],
];

const VALIDATION_ANSWER = JSON.stringify({
  status: 400,
  error: {
    error_code: "invalid_request",
    validation_errors: [
      { field: "payload.line_items[1].price_amount", message: "must be greater than 0" },
      { field: "payload.customer.email", message: "is not a valid email address" },
    ],
  },
});

/** The sample lifecycle's events as the app sends them: the payload sizes of real orders. */
async function payloadTemplates(): Promise<{ orderId: string; byType: Map<string, string> }> {
  const { mapOrderWebhook } = await import("../../../app/orders");
  const { parseWebhookJson } = await import("../../../app/lib/json");
  const { LIFECYCLE, readLifecycleFixture } =
    await import("../../../test/fixtures/lifecycle/lifecycle");
  const byType = new Map<string, string>();
  for (const [topic, file] of LIFECYCLE.files) {
    const mapped = mapOrderWebhook(topic, parseWebhookJson(readLifecycleFixture(file)), {
      reportOrdersWithoutPlan: true,
    });
    if (mapped.kind !== "events") throw new BenchmarkError(`${file} maps to ${mapped.kind}`);
    for (const derived of mapped.events) {
      byType.set(derived.event.type, JSON.stringify(derived.event));
    }
  }
  const refund = byType.get("order_refund_added");
  if (refund) {
    byType.set(
      "order_line_items_cancelled",
      refund.replace('"order_refund_added"', '"order_line_items_cancelled"'),
    );
  }
  return { orderId: LIFECYCLE.orderId, byType };
}

function shopOf(index: number): { shop: string; own: boolean } {
  if (index % SIZES.noiseEveryNth !== SIZES.noiseEveryNth - 1) return { shop: SHOP, own: true };
  const noise = Math.floor(index / SIZES.noiseEveryNth) % SIZES.noiseShops;
  return { shop: `svc-bench-other-${noise}.myshopify.com`, own: false };
}

/** Rows of the bench shop plus every nth row of another shop, so `count` of its own. */
function totalFor(count: number) {
  return Math.ceil((count * SIZES.noiseEveryNth) / (SIZES.noiseEveryNth - 1));
}

/** Inserts `total` rows in chunks, in one transaction (one commit, not one per chunk). */
async function inChunks<Row>(
  db: AppPrismaClient,
  total: number,
  makeRow: (index: number) => Row,
  insert: (tx: AppTransaction, rows: Row[]) => Promise<unknown>,
) {
  await db.$transaction(
    async (tx) => {
      for (let from = 0; from < total; from += SIZES.chunk) {
        const rows: Row[] = [];
        for (let index = from; index < Math.min(total, from + SIZES.chunk); index++) {
          rows.push(makeRow(index));
        }
        await insert(tx, rows);
      }
    },
    { timeout: 15 * 60_000, maxWait: 60_000 },
  );
}

export async function seed(db: AppPrismaClient): Promise<Record<string, number>> {
  const { getSecretBox } = await import("../../../app/crypto/secrets.server");
  const { saveConnectionKeys } = await import("../../../app/models/ShopConnection.server");
  const templates = await payloadTemplates();
  const now = Date.now();
  const start = now - SIZES.days * 86_400_000;

  await createOfflineSession(
    db,
    SHOP,
    "shpat_bench_admin",
    "read_orders,write_orders,read_products,write_products",
  );
  await saveConnectionKeys(db, getSecretBox(), SHOP, {
    environment: "production",
    sandboxSecretKey: "sk_test_bench_admin_0000",
    liveSecretKey: "sk_live_bench_admin_0000",
    sandboxPublishableKey: "pk_test_bench_admin",
    livePublishableKey: "pk_live_bench_admin",
    sandboxKeyVerifiedAt: new Date(start),
    liveKeyVerifiedAt: new Date(start),
  });

  const eventTotal = totalFor(SIZES.events);
  const roll = random(1);
  await inChunks(
    db,
    eventTotal,
    (index) => {
      const { shop } = shopOf(index);
      const eventType = pick(roll(), EVENT_TYPES);
      const status = pick(roll(), EVENT_STATUSES);
      const createdAt = new Date(start + ((now - start) * index) / eventTotal);
      // About 2.5 events per order; ids are 13 digits like Shopify's.
      const orderId = String(6_000_000_000_000 + Math.floor((index * 2) / 5));
      const attempted = status !== "pending";
      return {
        shop,
        environment: roll() < 0.7 ? "production" : "sandbox",
        orderId,
        eventType,
        dedupeKey: `bench:${index}`,
        payload: (templates.byType.get(eventType) ?? "{}").replaceAll(templates.orderId, orderId),
        status,
        attempts: status === "failed" ? 1 + Math.floor(roll() * 20) : attempted ? 1 : 0,
        nextAttemptAt: createdAt,
        firstFailedAt: status === "failed" || status === "dead" ? createdAt : null,
        lastAttemptAt: attempted ? new Date(createdAt.getTime() + 900) : null,
        lastError:
          status === "dead"
            ? "400 invalid_request: 2 validation errors"
            : status === "failed"
              ? "503 Service Unavailable"
              : null,
        lastResponse:
          status === "delivered"
            ? `{"status":200,"body":{"event_id":"evt_${index}"}}`
            : status === "dead"
              ? VALIDATION_ANSWER
              : status === "failed"
                ? '{"status":503,"summary":"503 Service Unavailable"}'
                : null,
        serviceEventId: status === "delivered" ? `evt_${index}` : null,
        createdAt,
        deliveredAt: status === "delivered" ? new Date(createdAt.getTime() + 1_000) : null,
      };
    },
    (tx, rows) => tx.outboxEvent.createMany({ data: rows }),
  );

  const rawOrder = readFileSync(path.join(ROOT, "test/fixtures/lifecycle/orders-create.json"));
  const receiptTotal = totalFor(SIZES.receipts);
  await inChunks(
    db,
    receiptTotal,
    (index) => {
      const { shop } = shopOf(index);
      const topic = pick(roll(), TOPICS);
      const status = pick(roll(), RECEIPT_STATUSES);
      const orderId = topic.startsWith("app/")
        ? null
        : String(6_000_000_000_000 + Math.floor((index * 4) / 5));
      return {
        shop,
        topic,
        webhookId: `bench-webhook-${index}`,
        eventId: `bench-event-${index}`,
        apiVersion: "2026-10",
        orderId,
        status,
        detail:
          status === "unprocessable"
            ? "line_items[0].price: not a decimal amount"
            : status === "ignored"
              ? `order ${orderId} has no protection plan line; not reported`
              : `1 event recorded for order ${orderId}`,
        payload: status === "unprocessable" ? rawOrder.toString("utf8") : null,
        // Group commits record several deliveries in the same millisecond: pairs share one.
        receivedAt: new Date(start + ((now - start) * Math.floor(index / 2) * 2) / receiptTotal),
      };
    },
    (tx, rows) => tx.webhookReceipt.createMany({ data: rows }),
  );

  const variants = Array.from({ length: SIZES.protectableVariants }, (_, i) =>
    String(45_000_000_000_000 + i),
  );
  const summaryTotal = totalFor(SIZES.orderSummaries);
  await inChunks(
    db,
    summaryTotal,
    (index) => {
      const { shop } = shopOf(index);
      const lineCount = 1 + Math.floor(roll() * 4);
      const planLineCount = roll() < 0.3 ? 1 : 0;
      return {
        shop,
        orderId: String(6_000_000_000_000 + index),
        environment: roll() < 0.7 ? "production" : "sandbox",
        placedAt: new Date(start + ((now - start) * index) / summaryTotal),
        currency: "EUR",
        lineCount,
        planLineCount,
        planRevenue: planLineCount * 2_999,
        variantIds: JSON.stringify(
          Array.from(
            { length: lineCount - planLineCount || 1 },
            () => variants[Math.floor(roll() * variants.length)],
          ),
        ),
      };
    },
    (tx, rows) => tx.orderSummary.createMany({ data: rows }),
  );

  await db.protectableVariant.createMany({
    data: variants.map((variantId) => ({ shop: SHOP, variantId, lastOfferedAt: new Date(now) })),
  });
  await db.protectionItem.createMany({
    data: Array.from({ length: SIZES.protectionItems }, (_, i) => ({
      shop: SHOP,
      strategy: "one_to_one",
      productId: String(9_000_000_000_000 + i),
      variantId: String(9_100_000_000_000 + i),
      title: `Protection plan ${i + 1}`,
      priceAmount: 1_999 + i * 500,
      currency: "EUR",
      createdByApp: i % 2 === 0,
    })),
  });

  const [events, receipts, summaries] = await Promise.all([
    db.outboxEvent.count({ where: { shop: SHOP } }),
    db.webhookReceipt.count({ where: { shop: SHOP } }),
    db.orderSummary.count({ where: { shop: SHOP } }),
  ]);
  return {
    events,
    eventsAllShops: eventTotal,
    receipts,
    receiptsAllShops: receiptTotal,
    orderSummaries: summaries,
    orderSummariesAllShops: summaryTotal,
  };
}

/** The rows the pages and queries look up: the middle of the event log, a dead event, a small shop. */
export async function planSubjects(db: AppPrismaClient) {
  const middle = await db.outboxEvent.findMany({
    where: { shop: SHOP },
    select: { id: true },
    orderBy: { id: "desc" },
    skip: SIZES.events / 2,
    take: 1,
  });
  const dead = await db.outboxEvent.findFirstOrThrow({
    where: { shop: SHOP, status: "dead" },
    orderBy: { id: "desc" },
  });
  const receipt = await db.webhookReceipt.findFirstOrThrow({
    where: { shop: SHOP },
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    skip: SIZES.receipts / 2,
  });
  return {
    middleId: middle[0]?.id ?? 1,
    deadId: dead.id,
    orderId: dead.orderId,
    smallShop: shopOf(SIZES.noiseEveryNth - 1).shop,
    receiptAt: receipt.receivedAt,
    receiptId: receipt.id,
  };
}
