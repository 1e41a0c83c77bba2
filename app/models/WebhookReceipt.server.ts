import type { AppPrismaClient, AppTransaction } from "../db/client.server";
import { isUniqueViolation } from "../lib/unique-violation";
import { type PageDirection, keysetPage } from "./keyset-page";
import { countsByStatus, statusGroupsOf } from "./status-counts";

export type ReceiptStatus = "processed" | "ignored" | "unprocessable";

export interface ReceiptInput {
  shop: string;
  topic: string;
  webhookId: string;
  eventId?: string | null;
  apiVersion?: string | null;
  orderId?: string | null;
  /** The order's name ("#1001"), when a payload named it or an earlier receipt did. */
  orderName?: string | null;
  status: ReceiptStatus;
  detail?: string | null;
  /** The raw body; kept only for a delivery that could not be mapped. */
  payload?: string | null;
}

/** The identifying headers of a verified delivery, as every webhook handler has them. */
export interface DeliveryHeaders {
  shop: string;
  topic: string;
  webhookId: string;
  eventId?: string | null;
  apiVersion?: string | null;
}

/** The webhook a receipt recorded, as the log lines of its events name it (decision 048). */
export interface WebhookSource {
  webhookId: string;
  shopifyEventId: string | null;
}

/** The webhook of each of these receipts, by receipt ID. */
export async function findWebhookSources(
  db: AppPrismaClient,
  receiptIds: ReadonlyArray<string | null>,
): Promise<Map<string, WebhookSource>> {
  const ids = [...new Set(receiptIds.filter((id): id is string => id !== null))];
  if (!ids.length) return new Map();
  const rows = await db.webhookReceipt.findMany({
    where: { id: { in: ids } },
    select: { id: true, webhookId: true, eventId: true },
  });
  return new Map(
    rows.map((row) => [row.id, { webhookId: row.webhookId, shopifyEventId: row.eventId }]),
  );
}

/** The receipt of a delivery: its headers plus what became of it. */
export function receiptFor(
  delivery: DeliveryHeaders,
  outcome: Pick<ReceiptInput, "status" | "detail" | "orderId" | "orderName" | "payload">,
): ReceiptInput {
  return {
    shop: delivery.shop,
    topic: delivery.topic,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    apiVersion: delivery.apiVersion,
    ...outcome,
  };
}

/** The row of a receipt, with absent fields stored as NULL. */
export function receiptRow(input: ReceiptInput) {
  return {
    shop: input.shop,
    topic: input.topic,
    webhookId: input.webhookId,
    eventId: input.eventId ?? null,
    apiVersion: input.apiVersion ?? null,
    orderId: input.orderId ?? null,
    orderName: input.orderName ?? null,
    status: input.status,
    detail: input.detail ?? null,
    payload: input.payload ?? null,
  };
}

/**
 * A receipt for the same delivery (X-Shopify-Webhook-Id) or the same event of the same topic
 * (X-Shopify-Event-Id) in this shop. Both are unique indexes too, so a race still loses.
 */
export function findDuplicateReceipt(
  db: AppPrismaClient | AppTransaction,
  delivery: DeliveryHeaders,
) {
  return db.webhookReceipt.findFirst({
    where: {
      shop: delivery.shop,
      OR: [
        { webhookId: delivery.webhookId },
        ...(delivery.eventId ? [{ eventId: delivery.eventId, topic: delivery.topic }] : []),
      ],
    },
    select: { id: true },
  });
}

/**
 * Records a delivery once. Returns false when this shop already received that delivery
 * (Shopify delivers at least once), so the caller does its work exactly once.
 */
export async function recordWebhookReceipt(
  db: AppPrismaClient | AppTransaction,
  input: ReceiptInput,
): Promise<boolean> {
  if (await findDuplicateReceipt(db, input)) return false;
  try {
    await db.webhookReceipt.create({ data: receiptRow(input) });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export interface WebhookReceiptPageQuery {
  shop: string;
  status?: ReceiptStatus;
  topic?: string;
  orderId?: string;
  /** Only these orders' receipts (the order search, the orders needing attention). */
  orderIds?: readonly string[];
  /** Keyset paging on (receivedAt, id); the id (a UUID) breaks ties between equal times. */
  cursor?: { direction: PageDirection; receivedAt: Date; id: string };
  pageSize: number;
}

/** What a row of the admin's webhook log shows: no raw body. */
const RECEIPT_SUMMARY = {
  id: true,
  topic: true,
  webhookId: true,
  orderId: true,
  orderName: true,
  status: true,
  detail: true,
  receivedAt: true,
} as const;

/**
 * One page of a shop's receipts, newest first. The keyset condition is written as
 * `receivedAt <= t AND (receivedAt < t OR id < i)` so that its first half bounds the
 * (shop, receivedAt) index range on both databases.
 */
export async function listWebhookReceiptPage(db: AppPrismaClient, query: WebhookReceiptPageQuery) {
  const { cursor, pageSize } = query;
  const newer = cursor?.direction === "newer";
  const keyset = cursor
    ? newer
      ? {
          receivedAt: { gte: cursor.receivedAt },
          OR: [{ receivedAt: { gt: cursor.receivedAt } }, { id: { gt: cursor.id } }],
        }
      : {
          receivedAt: { lte: cursor.receivedAt },
          OR: [{ receivedAt: { lt: cursor.receivedAt } }, { id: { lt: cursor.id } }],
        }
    : {};
  const order = newer ? "asc" : "desc";
  const rows = await db.webhookReceipt.findMany({
    where: {
      shop: query.shop,
      ...(query.status ? { status: query.status } : {}),
      ...(query.topic ? { topic: query.topic } : {}),
      ...(query.orderId ? { orderId: query.orderId } : {}),
      ...(query.orderIds ? { orderId: { in: [...query.orderIds] } } : {}),
      ...keyset,
    },
    orderBy: [{ receivedAt: order }, { id: order }],
    take: pageSize + 1,
    select: RECEIPT_SUMMARY,
  });
  const { items: receipts, ...links } = keysetPage(rows, pageSize, cursor);
  return { receipts, ...links };
}

export async function countWebhookReceiptsByStatus(db: AppPrismaClient, shop: string) {
  const groups = await db.webhookReceipt.groupBy(statusGroupsOf(shop));
  return countsByStatus<ReceiptStatus>(groups);
}

/**
 * The name an earlier webhook gave the order ("#1001"), or null: refunds and fulfillments carry
 * only the order's ID. One lookup on the (shop, orderId) index; an order has a few receipts.
 */
export async function findOrderName(
  db: AppPrismaClient | AppTransaction,
  shop: string,
  orderId: string,
): Promise<string | null> {
  const named = await db.webhookReceipt.findFirst({
    where: { shop, orderId, orderName: { not: null } },
    select: { orderName: true },
  });
  return named?.orderName ?? null;
}

/** Whether a webhook of the shop named this order ID: one lookup on (shop, orderId). */
export async function isOrderKnown(db: AppPrismaClient, shop: string, orderId: string) {
  const found = await db.webhookReceipt.findFirst({
    where: { shop, orderId },
    select: { id: true },
  });
  return found !== null;
}

/** The most orders one name finds: Shopify's names are unique in a shop, so one. */
const ORDERS_PER_NAME = 10;

/**
 * The IDs of the shop's orders with this name ("#1001"), as their webhooks recorded it. It reads
 * the shop's receipts on the (shop, receivedAt) index, newest first, without an index on the
 * name (decision 027): a search, not a hot path.
 */
export async function findOrderIdsByName(
  db: AppPrismaClient,
  shop: string,
  orderName: string,
): Promise<string[]> {
  const rows = await db.webhookReceipt.findMany({
    where: { shop, orderName, orderId: { not: null } },
    distinct: ["orderId"],
    select: { orderId: true },
    take: ORDERS_PER_NAME,
  });
  return rows.flatMap((row) => (row.orderId ? [row.orderId] : []));
}

/** One receipt of the shop, or null: an ID of another shop's receipt finds nothing. */
export function findWebhookReceiptForShop(db: AppPrismaClient, shop: string, id: string) {
  return db.webhookReceipt.findFirst({ where: { id, shop } });
}

/** How many of an order's webhooks the event page shows. */
const ORDER_RECEIPTS_SHOWN = 50;

/**
 * The webhooks received for one order, oldest first. Sorted here rather than in SQL: an
 * ORDER BY receivedAt leads SQLite to walk the shop's (shop, receivedAt) index instead of
 * (shop, orderId), and an order has only a handful of webhooks.
 */
export async function listOrderReceipts(db: AppPrismaClient, shop: string, orderId: string) {
  const rows = await db.webhookReceipt.findMany({
    where: { shop, orderId },
    take: 500,
    select: RECEIPT_SUMMARY,
  });
  return rows
    .sort(
      (a, b) =>
        a.receivedAt.getTime() - b.receivedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, ORDER_RECEIPTS_SHOWN);
}
