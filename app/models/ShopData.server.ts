import type { AppPrismaClient } from "../db/client.server";

/**
 * shop/redact: erases everything the app stores for the shop. Customer data requests and
 * redaction live in app/privacy (decision 015).
 */
export async function eraseShopData(db: AppPrismaClient, shop: string) {
  const [
    sessions,
    events,
    attempts,
    receipts,
    connections,
    items,
    orders,
    variants,
    hints,
    hintPublishes,
    actions,
    reconcileStates,
    reconcileRuns,
    tokenRefreshLeases,
  ] = await db.$transaction([
    db.session.deleteMany({ where: { shop } }),
    db.outboxEvent.deleteMany({ where: { shop } }),
    db.outboxAttempt.deleteMany({ where: { shop } }),
    db.webhookReceipt.deleteMany({ where: { shop } }),
    db.shopConnection.deleteMany({ where: { shop } }),
    db.protectionItem.deleteMany({ where: { shop } }),
    db.orderSummary.deleteMany({ where: { shop } }),
    db.protectableVariant.deleteMany({ where: { shop } }),
    db.productOfferHint.deleteMany({ where: { shop } }),
    db.productOfferHintPublish.deleteMany({ where: { shop } }),
    db.shopifyAction.deleteMany({ where: { shop } }),
    // Reconciliation's watermark and checked orders, and its runs (issue 27).
    db.reconcileState.deleteMany({ where: { shop } }),
    db.reconcileRun.deleteMany({ where: { shop } }),
    // A refresh lease a crashed process left behind names the shop (decision 042).
    db.tokenRefreshLease.deleteMany({ where: { shop } }),
  ]);
  return {
    sessions: sessions.count,
    events: events.count,
    eventAttempts: attempts.count,
    receipts: receipts.count,
    connections: connections.count,
    protectionItems: items.count,
    orderSummaries: orders.count,
    protectableVariants: variants.count,
    productOfferHints: hints.count,
    productOfferHintPublishes: hintPublishes.count,
    shopifyActions: actions.count,
    reconcileStates: reconcileStates.count,
    reconcileRuns: reconcileRuns.count,
    tokenRefreshLeases: tokenRefreshLeases.count,
  };
}
