import type { AppPrismaClient } from "../db/client.server";
import { findOutboxEventForShop, listOrderEvents } from "../models/OutboxEvent.server";
import { listOrderReceipts } from "../models/WebhookReceipt.server";
import { loadAttemptLog } from "./event-attempts.server";
import { acceptedWithoutEventIdOf, formatJson, parseServiceAnswer } from "./event-log";

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * Everything an event's page (app.events.$id) shows: the event, its payload and last answer,
 * its attempts, and the other events and webhooks of its order. Scoped by shop: another shop's
 * ID is null, exactly like an ID that does not exist.
 */
export async function loadEventDetail(db: AppPrismaClient, shop: string, id: number) {
  const event = await findOutboxEventForShop(db, shop, id);
  if (!event) return null;
  const [orderEvents, orderReceipts, attemptLog] = await Promise.all([
    listOrderEvents(db, shop, event.orderId),
    listOrderReceipts(db, shop, event.orderId),
    loadAttemptLog(db, event),
  ]);
  return {
    event: {
      id: event.id,
      environment: event.environment,
      orderId: event.orderId,
      eventType: event.eventType,
      status: event.status,
      attempts: event.attempts,
      lastError: event.lastError,
      serviceEventId: event.serviceEventId,
      createdAt: event.createdAt.toISOString(),
      lastAttemptAt: iso(event.lastAttemptAt),
      nextAttemptAt: iso(event.nextAttemptAt),
      firstFailedAt: iso(event.firstFailedAt),
      deliveredAt: iso(event.deliveredAt),
    },
    payload: formatJson(event.payload),
    response: event.lastResponse ? formatJson(event.lastResponse) : null,
    answer: parseServiceAnswer(event.lastResponse),
    accepted: acceptedWithoutEventIdOf(event),
    attemptLog,
    orderEvents: orderEvents.map((other) => ({
      id: other.id,
      eventType: other.eventType,
      status: other.status,
      createdAt: other.createdAt.toISOString(),
    })),
    orderReceipts: orderReceipts.map((receipt) => ({
      id: receipt.id,
      topic: receipt.topic,
      status: receipt.status,
      receivedAt: receipt.receivedAt.toISOString(),
    })),
  };
}

export type EventDetail = NonNullable<Awaited<ReturnType<typeof loadEventDetail>>>;
