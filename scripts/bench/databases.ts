import type { AppPrismaClient } from "../../app/db/client.server";
import { countOutboxEventsByStatus } from "../../app/models/OutboxEvent.server";

// Throwaway databases come from test/support/databases.ts (createThrowawayDatabase): a SQLite
// file in a temporary folder, or a fresh PostgreSQL database on TEST_POSTGRES_URL's server.

export interface RowCounts {
  receipts: number;
  /** orders/create receipts recorded as processed. */
  processedOrderReceipts: number;
  events: number;
  orderPlacedEvents: number;
  eventsByStatus: Record<string, number>;
}

/** The bench's one shop's rows (each run has a database of its own). */
export async function countRows(db: AppPrismaClient, shop: string): Promise<RowCounts> {
  const [receipts, processedOrderReceipts, orderPlacedEvents, byStatus] = await Promise.all([
    db.webhookReceipt.count(),
    db.webhookReceipt.count({ where: { topic: "orders/create", status: "processed" } }),
    db.outboxEvent.count({ where: { eventType: "order_placed" } }),
    countOutboxEventsByStatus(db, shop),
  ]);
  const events = Object.values(byStatus).reduce((sum, count) => sum + count, 0);
  return { receipts, processedOrderReceipts, events, orderPlacedEvents, eventsByStatus: byStatus };
}
