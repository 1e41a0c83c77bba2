import type { AppPrismaClient } from "../db/client.server";

/** shop/redact: erases everything the app stores for the shop. */
export async function eraseShopData(db: AppPrismaClient, shop: string) {
  const [sessions, events, receipts, connections, items, orders, variants, hints] =
    await db.$transaction([
      db.session.deleteMany({ where: { shop } }),
      db.outboxEvent.deleteMany({ where: { shop } }),
      db.webhookReceipt.deleteMany({ where: { shop } }),
      db.shopConnection.deleteMany({ where: { shop } }),
      db.protectionItem.deleteMany({ where: { shop } }),
      db.orderSummary.deleteMany({ where: { shop } }),
      db.protectableVariant.deleteMany({ where: { shop } }),
      db.productOfferHint.deleteMany({ where: { shop } }),
    ]);
  return {
    sessions: sessions.count,
    events: events.count,
    receipts: receipts.count,
    connections: connections.count,
    protectionItems: items.count,
    orderSummaries: orders.count,
    protectableVariants: variants.count,
    productOfferHints: hints.count,
  };
}

export interface CustomerSubject {
  orderIds: string[];
  email: string | null;
}

function customerEventFilter(shop: string, subject: CustomerSubject) {
  return {
    shop,
    eventType: "order_placed",
    OR: [
      ...(subject.orderIds.length ? [{ orderId: { in: subject.orderIds } }] : []),
      ...(subject.email ? [{ payload: { contains: JSON.stringify(subject.email) } }] : []),
    ],
  };
}

/**
 * customers/data_request: what the app holds about one customer. Only order_placed
 * payloads carry personal data (customer and billing address).
 */
export async function findCustomerData(
  db: AppPrismaClient,
  shop: string,
  subject: CustomerSubject,
) {
  if (!subject.orderIds.length && !subject.email) return [];
  const events = await db.outboxEvent.findMany({
    where: customerEventFilter(shop, subject),
    select: { orderId: true, payload: true, createdAt: true },
    orderBy: { createdAt: "asc" },
  });
  return events.map((event) => {
    const payload = JSON.parse(event.payload) as { payload?: Record<string, unknown> };
    return {
      orderId: event.orderId,
      recordedAt: event.createdAt.toISOString(),
      customer: payload.payload?.customer ?? null,
      billingAddress: payload.payload?.customer_billing_address ?? null,
    };
  });
}

/** customers/redact: removes the customer's personal data from stored event payloads. */
export async function redactCustomerData(
  db: AppPrismaClient,
  shop: string,
  subject: CustomerSubject,
) {
  if (!subject.orderIds.length && !subject.email) return { redacted: 0 };
  const events = await db.outboxEvent.findMany({
    where: customerEventFilter(shop, subject),
    select: { id: true, payload: true },
  });
  await db.$transaction(
    events.map((event) => {
      const envelope = JSON.parse(event.payload) as { payload?: Record<string, unknown> };
      if (envelope.payload) {
        delete envelope.payload.customer;
        delete envelope.payload.customer_billing_address;
      }
      return db.outboxEvent.update({
        where: { id: event.id },
        data: { payload: JSON.stringify(envelope) },
      });
    }),
  );
  return { redacted: events.length };
}
