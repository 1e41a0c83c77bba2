import type { AppPrismaClient } from "../db/client.server";

/*
 * What the app has recorded of one order of one shop, for the post-purchase links (decision 034).
 * Every read is scoped by shop: an order ID alone never reaches another shop's rows.
 */

/**
 * The order's latest order_placed row, with when the order was placed and its customer's ID
 * (from its summary; null without one).
 */
export async function findOrderPlacement(db: AppPrismaClient, shop: string, orderId: string) {
  const row = await db.outboxEvent.findFirst({
    where: { shop, orderId, eventType: "order_placed" },
    orderBy: { id: "desc" },
    select: { status: true, environment: true, createdAt: true, payload: true, orderName: true },
  });
  if (!row) return null;
  const summary = await db.orderSummary.findUnique({
    where: { shop_orderId: { shop, orderId } },
    select: { placedAt: true, customerId: true },
  });
  return {
    ...row,
    placedAt: summary?.placedAt ?? row.createdAt,
    customerId: summary?.customerId ?? null,
  };
}

/** Whether the shop's orders/create for the order came (signed by Shopify for this shop). */
export async function hasOrderCreateReceipt(db: AppPrismaClient, shop: string, orderId: string) {
  const receipt = await db.webhookReceipt.findFirst({
    where: { shop, orderId, topic: "orders/create" },
    select: { id: true },
  });
  return receipt !== null;
}

/** The order's events in the order they are sent, and the name its receipts gave it. */
export async function listOrderEventHistory(db: AppPrismaClient, shop: string, orderId: string) {
  const events = await db.outboxEvent.findMany({
    where: { shop, orderId },
    orderBy: { id: "asc" },
    take: 100,
    select: {
      eventType: true,
      status: true,
      environment: true,
      orderName: true,
      createdAt: true,
      deliveredAt: true,
    },
  });
  let orderName = events.findLast((event) => event.orderName !== null)?.orderName ?? null;
  if (orderName === null) {
    const receipt = await db.webhookReceipt.findFirst({
      where: { shop, orderId, orderName: { not: null } },
      orderBy: { receivedAt: "desc" },
      select: { orderName: true },
    });
    orderName = receipt?.orderName ?? null;
  }
  return { events, orderName };
}
