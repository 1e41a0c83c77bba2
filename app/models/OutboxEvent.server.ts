import type { AppPrismaClient } from "../db/client.server";
import { OPEN_STATUSES, type OutboxStatus } from "./outbox-status";
import { type PageDirection, keysetPage } from "./keyset-page";
import { countsByStatus, statusGroupsOf } from "./status-counts";

export interface OutboxEventFilter {
  shop: string;
  status?: OutboxStatus;
  orderId?: string;
  /** Only these orders' events (the order search, the orders needing attention). */
  orderIds?: readonly string[];
  eventType?: string;
  environment?: string;
  /** Only events the Admin API told of: "reconciliation" or "backfill" (issue 17). */
  recoveredBy?: string;
  /** Return events with an id below this one (newest first paging). */
  beforeId?: number;
  limit?: number;
}

type EventFilterFields = Pick<
  OutboxEventFilter,
  "shop" | "status" | "orderId" | "orderIds" | "eventType" | "environment" | "recoveredBy"
>;

function eventFilterWhere(filter: EventFilterFields) {
  return {
    shop: filter.shop,
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.orderId ? { orderId: filter.orderId } : {}),
    ...(filter.orderIds ? { orderId: { in: [...filter.orderIds] } } : {}),
    ...(filter.eventType ? { eventType: filter.eventType } : {}),
    ...(filter.environment ? { environment: filter.environment } : {}),
    ...(filter.recoveredBy ? { recoveredBy: filter.recoveredBy } : {}),
  };
}

/** Newest first, for the event log and `npm run svc -- events:list`. */
export function listOutboxEvents(db: AppPrismaClient, filter: OutboxEventFilter) {
  return db.outboxEvent.findMany({
    where: {
      ...eventFilterWhere(filter),
      ...(filter.beforeId ? { id: { lt: filter.beforeId } } : {}),
    },
    orderBy: { id: "desc" },
    take: Math.min(filter.limit ?? 50, 1_000),
  });
}

/** What a row of the admin's event log shows: no payload or answer (kilobytes each). */
const EVENT_SUMMARY = {
  id: true,
  environment: true,
  orderId: true,
  orderName: true,
  eventType: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastAttemptAt: true,
  lastError: true,
  serviceEventId: true,
  recoveredBy: true,
  createdAt: true,
  deliveredAt: true,
} as const;

export interface OutboxEventPageQuery extends EventFilterFields {
  /** Keyset paging on id: "older" gives ids below `id`, "newer" ids above it. */
  cursor?: { direction: PageDirection; id: number };
  pageSize: number;
}

/**
 * One page of a shop's events, newest first, by keyset on id (no OFFSET, no total count), so
 * every page costs the same however deep it is.
 */
export async function listOutboxEventPage(db: AppPrismaClient, query: OutboxEventPageQuery) {
  const { cursor, pageSize } = query;
  const newer = cursor?.direction === "newer";
  const rows = await db.outboxEvent.findMany({
    where: {
      ...eventFilterWhere(query),
      ...(cursor ? { id: newer ? { gt: cursor.id } : { lt: cursor.id } } : {}),
    },
    orderBy: { id: newer ? "asc" : "desc" },
    take: pageSize + 1,
    select: EVENT_SUMMARY,
  });
  const { items: events, ...links } = keysetPage(rows, pageSize, cursor);
  return { events, ...links };
}

/** One event of the shop, or null: an ID of another shop's event finds nothing. */
export function findOutboxEventForShop(db: AppPrismaClient, shop: string, id: number) {
  return db.outboxEvent.findFirst({ where: { id, shop } });
}

/** Whether the shop has an event of this order ID: one lookup on (shop, orderId, id). */
export async function hasOrderEvents(db: AppPrismaClient, shop: string, orderId: string) {
  const found = await db.outboxEvent.findFirst({ where: { shop, orderId }, select: { id: true } });
  return found !== null;
}

/** The events of one order in the order they are sent (the (shop, orderId, id) index). */
export function listOrderEvents(db: AppPrismaClient, shop: string, orderId: string, limit = 50) {
  return db.outboxEvent.findMany({
    where: { shop, orderId },
    orderBy: { id: "asc" },
    take: limit,
    select: EVENT_SUMMARY,
  });
}

export async function countOutboxEventsByStatus(db: AppPrismaClient, shop: string) {
  const groups = await db.outboxEvent.groupBy(statusGroupsOf(shop));
  return countsByStatus<OutboxStatus>(groups);
}

/** The event that has waited longest for delivery: the age of a shop's backlog. */
export function findOldestOpenEvent(db: AppPrismaClient, shop: string) {
  return db.outboxEvent.findFirst({
    where: { shop, status: { in: [...OPEN_STATUSES] } },
    orderBy: { id: "asc" },
    select: { id: true, status: true, createdAt: true },
  });
}

const RETRYABLE_STATUSES = ["dead", "failed", "unprocessable"];

function backToPending() {
  return {
    status: "pending",
    nextAttemptAt: new Date(),
    firstFailedAt: null,
    claimedBy: null,
    leaseExpiresAt: null,
  };
}

/**
 * Sends one event again from scratch: a dead, failed or unprocessable event returns to
 * pending with a fresh 72-hour retry window. Delivered events are never sent twice.
 */
export async function retryOutboxEvent(db: AppPrismaClient, id: number, shop?: string) {
  const event = await db.outboxEvent.findFirst({ where: { id, ...(shop ? { shop } : {}) } });
  if (!event) return { status: "not_found" as const };
  if (!RETRYABLE_STATUSES.includes(event.status)) {
    return { status: "not_retryable" as const, current: event.status };
  }
  await db.outboxEvent.updateMany({
    where: { id, status: { in: RETRYABLE_STATUSES } },
    data: backToPending(),
  });
  return { status: "retried" as const, event };
}

/** Every dead event (of one shop, or of all shops) returns to pending. */
export async function retryDeadEvents(db: AppPrismaClient, shop?: string) {
  const { count } = await db.outboxEvent.updateMany({
    where: { status: "dead", ...(shop ? { shop } : {}) },
    data: backToPending(),
  });
  return count;
}
