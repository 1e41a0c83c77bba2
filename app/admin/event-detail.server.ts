import type { AppPrismaClient } from "../db/client.server";
import type { ShopifyAction } from "../generated/prisma/sqlite/client";
import { toMinorUnits } from "../lib/money";
import { findOutboxEventForShop, listOrderEvents } from "../models/OutboxEvent.server";
import { listOrderShopifyActions } from "../models/ShopifyAction.server";
import { listOrderReceipts } from "../models/WebhookReceipt.server";
import { loadAttemptLog } from "./event-attempts.server";
import { acceptedWithoutEventIdOf, formatJson, parseServiceAnswer } from "./event-log";

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The refund's amount in minor units, or null when the row holds none the page can format. */
function refundedMinorUnits(action: ShopifyAction): number | null {
  if (action.amount === null || action.currency === null) return null;
  try {
    return toMinorUnits(action.amount, action.currency);
  } catch {
    return null;
  }
}

/**
 * One of the app's actions on the order, as its card shows it: the refund made, the reason it
 * stopped or was skipped, or when it runs next.
 */
function toOrderAction(action: ShopifyAction) {
  const stopped = action.status === "dead" || action.status === "failed";
  return {
    id: action.id,
    kind: action.kind,
    status: action.status,
    attempts: action.attempts,
    nextAttemptAt: action.nextAttemptAt.toISOString(),
    refundId: action.refundId,
    amountMinorUnits: refundedMinorUnits(action),
    currency: action.currency,
    // A stopped action's reason is its last error; a finished one's, what the app did.
    reason: stopped ? (action.lastError ?? action.detail) : (action.detail ?? action.lastError),
    requestedBy: action.requestedBy,
    requestedAt: iso(action.requestedAt),
  };
}

/**
 * Everything an event's page (app.events.$id) shows: the event, its payload and last answer,
 * its attempts, and the other events and webhooks of its order with the app's actions on it.
 * Scoped by shop: another shop's ID is null, exactly like an ID that does not exist.
 */
export async function loadEventDetail(db: AppPrismaClient, shop: string, id: number) {
  const event = await findOutboxEventForShop(db, shop, id);
  if (!event) return null;
  const [orderEvents, orderReceipts, orderActions, attemptLog] = await Promise.all([
    listOrderEvents(db, shop, event.orderId),
    listOrderReceipts(db, shop, event.orderId),
    listOrderShopifyActions(db, shop, event.orderId),
    loadAttemptLog(db, event),
  ]);
  return {
    event: {
      id: event.id,
      environment: event.environment,
      orderId: event.orderId,
      orderName: event.orderName,
      eventType: event.eventType,
      status: event.status,
      attempts: event.attempts,
      lastError: event.lastError,
      serviceEventId: event.serviceEventId,
      recoveredBy: event.recoveredBy,
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
    orderActions: orderActions.map(toOrderAction),
  };
}

export type EventDetail = NonNullable<Awaited<ReturnType<typeof loadEventDetail>>>;
