import type { SerializeFrom } from "@remix-run/node";
import type { AppPrismaClient } from "../db/client.server";
import {
  countOutboxEventsByStatus,
  hasOrderEvents,
  listOutboxEventPage,
} from "../models/OutboxEvent.server";
import { listOrdersNeedingAttention } from "../models/ShopifyAction.server";
import {
  countWebhookReceiptsByStatus,
  findOrderIdsByName,
  isOrderKnown,
  listWebhookReceiptPage,
} from "../models/WebhookReceipt.server";
import {
  EVENT_LOG_PAGE_SIZE,
  encodeReceiptCursor,
  type EventLogQuery,
  type OrderSearch,
} from "./event-filters";

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

/** The orders a search names: a bare number is an order ID if one is known, else a name. */
async function ordersSearched(
  db: AppPrismaClient,
  shop: string,
  search: OrderSearch,
): Promise<string[]> {
  switch (search.kind) {
    case "id":
      return [search.orderId];
    case "name":
      return findOrderIdsByName(db, shop, search.orderName);
    case "id_or_name":
      return (await isOrderKnown(db, shop, search.orderId)) ||
        (await hasOrderEvents(db, shop, search.orderId))
        ? [search.orderId]
        : findOrderIdsByName(db, shop, search.orderName);
  }
}

/** The orders the query narrows the log to, or undefined when it names none. */
async function ordersOf(
  db: AppPrismaClient,
  shop: string,
  query: EventLogQuery,
): Promise<string[] | undefined> {
  const searched = query.order ? await ordersSearched(db, shop, query.order) : undefined;
  if (!query.attention) return searched;
  return listOrdersNeedingAttention(db, shop, searched);
}

/** Marks the rows whose order has an action waiting for the merchant. */
async function withAttention<Row extends { orderId: string | null }>(
  db: AppPrismaClient,
  shop: string,
  rows: Row[],
): Promise<(Row & { needsAttention: boolean })[]> {
  const orderIds = [...new Set(rows.flatMap((row) => (row.orderId ? [row.orderId] : [])))];
  const flagged = new Set(
    orderIds.length ? await listOrdersNeedingAttention(db, shop, orderIds) : [],
  );
  return rows.map((row) => ({
    ...row,
    needsAttention: row.orderId !== null && flagged.has(row.orderId),
  }));
}

/** One page of the tab the query names, scoped to `shop` (always the session's shop). */
export async function loadEventLog(db: AppPrismaClient, shop: string, query: EventLogQuery) {
  const pageSize = EVENT_LOG_PAGE_SIZE;
  const orderIds = await ordersOf(db, shop, query);
  if (query.tab === "events") {
    const { status, eventType, environment, recoveredBy, cursor } = query;
    const filter = { shop, status, eventType, orderIds, environment, recoveredBy };
    const [page, counts] = await Promise.all([
      listOutboxEventPage(db, { ...filter, cursor, pageSize }),
      countOutboxEventsByStatus(db, shop),
    ]);
    const rows = (await withAttention(db, shop, page.events)).map((event) => ({
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

  const { status, topic, cursor } = query;
  const [page, counts] = await Promise.all([
    listWebhookReceiptPage(db, {
      shop,
      status,
      topic,
      orderIds,
      pageSize,
      cursor: cursor && { ...cursor, receivedAt: new Date(cursor.receivedAtMs) },
    }),
    countWebhookReceiptsByStatus(db, shop),
  ]);
  const rows = (await withAttention(db, shop, page.receipts)).map((receipt) => ({
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
