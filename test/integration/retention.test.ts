import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { claimDueEvents } from "../../app/outbox/claim.server";
import { createRetentionWorker, deleteExpiredRows } from "../../app/privacy/retention.server";
import { testDatabaseProvider } from "../support/databases";

// Retention (issue 28, decision 049): settled rows past SVC_EVENT_RETENTION_DAYS are deleted in
// batches; rows that are young, or that an open event of their order still needs, stay.

const provider = testDatabaseProvider();
const DAY_MS = 24 * 60 * 60 * 1_000;
const NOW = new Date();
const SHOP = "retention.myshopify.com";
const ago = (ms: number) => new Date(NOW.getTime() - ms);

let seq = 0;
async function seedEvent(
  fields: { orderId?: string; eventType?: string; status: string; at: Date },
  attempts = 1,
) {
  seq += 1;
  const orderId = fields.orderId ?? `50${seq}`;
  const eventType = fields.eventType ?? "order_fulfillment_added";
  const event = await prisma.outboxEvent.create({
    data: {
      shop: SHOP,
      environment: "sandbox",
      orderId,
      eventType,
      dedupeKey: `order:${orderId}:${eventType}:${seq}`,
      payload: JSON.stringify({ order_id: orderId }),
      status: fields.status,
      createdAt: fields.at,
      updatedAt: fields.at,
      deliveredAt: fields.status === "delivered" ? fields.at : null,
    },
  });
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    await prisma.outboxAttempt.create({
      data: {
        eventId: event.id,
        shop: SHOP,
        attempt,
        environment: "sandbox",
        workerId: "test",
        idempotencyKey: `key-${event.id}-${attempt}`,
        startedAt: fields.at,
        finishedAt: fields.at,
        outcome: fields.status === "dead" ? "dead" : "delivered",
        httpStatus: 200,
      },
    });
  }
  return event;
}

async function seedReceipt(fields: { status: string; at: Date; orderId?: string }) {
  seq += 1;
  return prisma.webhookReceipt.create({
    data: {
      shop: SHOP,
      topic: "orders/create",
      webhookId: `webhook-${seq}`,
      orderId: fields.orderId ?? null,
      status: fields.status,
      receivedAt: fields.at,
    },
  });
}

const exists = async (id: number) =>
  (await prisma.outboxEvent.findUnique({ where: { id } })) !== null;
const receiptExists = async (id: string) =>
  (await prisma.webhookReceipt.findUnique({ where: { id } })) !== null;

describe(`retention on ${provider}`, () => {
  beforeEach(async () => {
    await prisma.outboxAttempt.deleteMany();
    await prisma.outboxEvent.deleteMany();
    await prisma.webhookReceipt.deleteMany();
    await prisma.shopConnection.deleteMany({ where: { shop: SHOP } });
  });

  it("deletes old delivered and dead events with their attempts, and old receipts, in batches of the size asked", async () => {
    const old = ago(200 * DAY_MS);
    for (let i = 0; i < 5; i += 1) await seedEvent({ status: "delivered", at: old }, 2);
    for (let i = 0; i < 2; i += 1) await seedEvent({ status: "dead", at: old }, 1);
    for (let i = 0; i < 4; i += 1) await seedReceipt({ status: "processed", at: old });

    const result = await deleteExpiredRows(prisma, {
      now: NOW,
      retentionDays: 180,
      batchSize: 3,
      pauseMs: 0,
    });

    // 7 events in batches of 3, 3 and 1; 4 receipts in batches of 3 and 1.
    expect(result).toMatchObject({ events: 7, attempts: 12, receipts: 4, batches: 5 });
    expect(await prisma.outboxEvent.count()).toBe(0);
    expect(await prisma.outboxAttempt.count()).toBe(0);
    expect(await prisma.webhookReceipt.count()).toBe(0);

    const again = await deleteExpiredRows(prisma, {
      now: NOW,
      retentionDays: 180,
      batchSize: 3,
      pauseMs: 0,
    });
    expect(again).toMatchObject({ events: 0, attempts: 0, receipts: 0, batches: 0 });
  });

  it("keeps young rows, open and unprocessable events, and the old rows an open event of their order needs", async () => {
    const old = ago(200 * DAY_MS);
    const young = await seedEvent({ status: "delivered", at: ago(179 * DAY_MS) });
    const oldPending = await seedEvent({ status: "pending", at: old });
    const unprocessable = await seedEvent({ status: "unprocessable", at: old });
    // An order placed long ago whose refund is still on its way: its order_placed must stay.
    const placed = await seedEvent({
      orderId: "7001",
      eventType: "order_placed",
      status: "delivered",
      at: old,
    });
    const refund = await seedEvent({
      orderId: "7001",
      eventType: "order_refunded",
      status: "pending",
      at: ago(DAY_MS),
    });
    const placedReceipt = await seedReceipt({ status: "processed", at: old, orderId: "7001" });
    // An old order whose follow-up settled recently: its order_placed goes with it, later.
    const settledPlaced = await seedEvent({
      orderId: "7002",
      eventType: "order_placed",
      status: "delivered",
      at: old,
    });
    await seedEvent({
      orderId: "7002",
      eventType: "order_fulfillment_added",
      status: "delivered",
      at: ago(10 * DAY_MS),
    });
    const unmapped = await seedReceipt({ status: "unprocessable", at: old });
    const youngReceipt = await seedReceipt({ status: "processed", at: ago(179 * DAY_MS) });
    const gone = await seedEvent({ status: "delivered", at: old });
    const goneReceipt = await seedReceipt({ status: "ignored", at: old, orderId: "7003" });

    const result = await deleteExpiredRows(prisma, {
      now: NOW,
      retentionDays: 180,
      batchSize: 500,
      pauseMs: 0,
    });

    expect(result).toMatchObject({ events: 1, attempts: 1, receipts: 1, batches: 2 });
    expect(await exists(gone.id)).toBe(false);
    expect(await receiptExists(goneReceipt.id)).toBe(false);
    for (const kept of [young, oldPending, unprocessable, placed, refund, settledPlaced]) {
      expect(await exists(kept.id)).toBe(true);
    }
    for (const kept of [placedReceipt, unmapped, youngReceipt]) {
      expect(await receiptExists(kept.id)).toBe(true);
    }
    expect(await prisma.outboxAttempt.count({ where: { eventId: placed.id } })).toBe(1);
  });

  it("keeps each order's delivered order_placed past the period, so that a late event of the order is still sent after it", async () => {
    const old = ago(400 * DAY_MS);
    const placed = await seedEvent({
      orderId: "9001",
      eventType: "order_placed",
      status: "delivered",
      at: old,
    });
    const fulfilled = await seedEvent({ orderId: "9001", status: "delivered", at: old });
    const deadPlaced = await seedEvent({
      orderId: "9002",
      eventType: "order_placed",
      status: "dead",
      at: old,
    });

    const result = await deleteExpiredRows(prisma, {
      now: NOW,
      retentionDays: 180,
      batchSize: 500,
      pauseMs: 0,
    });

    expect(result).toMatchObject({ events: 2 });
    expect(await exists(placed.id)).toBe(true);
    expect(await exists(fulfilled.id)).toBe(false);
    expect(await exists(deadPlaced.id)).toBe(false);

    // A refund of the order a year on: its turn comes, as its order_placed is there, delivered.
    await prisma.shopConnection.upsert({
      where: { shop: SHOP },
      create: { shop: SHOP, status: "connected", sandboxSecretKeySealed: "sealed" },
      update: {},
    });
    const refund = await seedEvent({
      orderId: "9001",
      eventType: "order_refunded",
      status: "pending",
      at: ago(60_000),
    });
    const claimed = await claimDueEvents(prisma, {
      workerId: "retention-test",
      limit: 10,
      leaseMs: 60_000,
    });
    expect(claimed).toContain(refund.id);
  });

  it("keeps a receipt for Shopify's 48-hour retry window whatever the period", async () => {
    const delivered = await seedEvent({ status: "delivered", at: ago(30 * 60 * 60 * 1_000) });
    const receipt = await seedReceipt({ status: "processed", at: ago(30 * 60 * 60 * 1_000) });

    const result = await deleteExpiredRows(prisma, {
      now: NOW,
      retentionDays: 1,
      batchSize: 500,
      pauseMs: 0,
    });

    expect(result).toMatchObject({ events: 1, receipts: 0 });
    expect(await exists(delivered.id)).toBe(false);
    expect(await receiptExists(receipt.id)).toBe(true);
  });

  it("the retention worker scrubs customer data and deletes old rows in one pass", async () => {
    const payload = JSON.stringify({
      type: "order_placed",
      payload: { order_id: "8001", customer: { email: "john@example.com" } },
    });
    const scrubbed = await prisma.outboxEvent.create({
      data: {
        shop: SHOP,
        environment: "sandbox",
        orderId: "8001",
        eventType: "order_placed",
        dedupeKey: "order:8001:placed",
        payload,
        status: "delivered",
        createdAt: ago(100 * DAY_MS),
        updatedAt: ago(100 * DAY_MS),
      },
    });
    const deleted = await seedEvent({ status: "dead", at: ago(181 * DAY_MS) });
    const worker = createRetentionWorker({
      db: prisma,
      settings: {
        customerDataRetentionDays: 90,
        eventRetentionDays: 180,
        batchSize: 500,
        pauseMs: 0,
      },
    });

    const result = await worker.runOnce();
    await worker.stop();

    expect(result?.deleted).toMatchObject({ events: 1, batches: 1 });
    expect(await exists(deleted.id)).toBe(false);
    const kept = await prisma.outboxEvent.findUniqueOrThrow({ where: { id: scrubbed.id } });
    expect(kept.payload).not.toContain("john@example.com");
    expect(kept.status).toBe("delivered");
  });
});
