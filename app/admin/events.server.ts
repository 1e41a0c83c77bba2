import type { SerializeFrom } from "@remix-run/node";
import type { AppPrismaClient } from "../db/client.server";
import { countOutboxEventsByStatus, listOutboxEventPage } from "../models/OutboxEvent.server";
import {
  countWebhookReceiptsByStatus,
  listWebhookReceiptPage,
} from "../models/WebhookReceipt.server";
import { EVENT_LOG_PAGE_SIZE, encodeReceiptCursor, type EventLogQuery } from "./event-filters";

// The event log's list (app.events): one page of the shop's events or webhook receipts, with
// the shop's counts by status, as the page shows them (dates as ISO strings, a key per row).

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** What both tabs answer besides their rows: the query, the counts and the pages around. */
function listAnswer(
  query: EventLogQuery,
  counts: Record<string, number>,
  page: { hasOlder: boolean; hasNewer: boolean },
  rows: { key: string }[],
) {
  return {
    query,
    counts,
    olderCursor: page.hasOlder ? rows.at(-1)?.key : undefined,
    newerCursor: page.hasNewer ? rows[0]?.key : undefined,
  };
}

/** One page of the tab the query names, scoped to `shop` (always the session's shop). */
export async function loadEventLog(db: AppPrismaClient, shop: string, query: EventLogQuery) {
  const pageSize = EVENT_LOG_PAGE_SIZE;
  if (query.tab === "events") {
    const { status, eventType, orderId, environment, cursor } = query;
    const [page, counts] = await Promise.all([
      listOutboxEventPage(db, { shop, status, eventType, orderId, environment, cursor, pageSize }),
      countOutboxEventsByStatus(db, shop),
    ]);
    const rows = page.events.map((event) => ({
      ...event,
      key: String(event.id),
      nextAttemptAt: iso(event.nextAttemptAt),
      lastAttemptAt: iso(event.lastAttemptAt),
      createdAt: event.createdAt.toISOString(),
      deliveredAt: iso(event.deliveredAt),
    }));
    return {
      view: "events" as const,
      events: rows,
      ...listAnswer(query, counts as Record<string, number>, page, rows),
    };
  }

  const { status, topic, orderId, cursor } = query;
  const [page, counts] = await Promise.all([
    listWebhookReceiptPage(db, {
      shop,
      status,
      topic,
      orderId,
      pageSize,
      cursor: cursor && { ...cursor, receivedAt: new Date(cursor.receivedAtMs) },
    }),
    countWebhookReceiptsByStatus(db, shop),
  ]);
  const rows = page.receipts.map((receipt) => ({
    ...receipt,
    key: encodeReceiptCursor(receipt),
    receivedAt: receipt.receivedAt.toISOString(),
  }));
  return {
    view: "webhooks" as const,
    receipts: rows,
    ...listAnswer(query, counts as Record<string, number>, page, rows),
  };
}

/** The list as the page receives it. */
export type EventLogList = SerializeFrom<typeof loadEventLog>;
export type EventList = Extract<EventLogList, { view: "events" }>;
export type ReceiptList = Extract<EventLogList, { view: "webhooks" }>;
