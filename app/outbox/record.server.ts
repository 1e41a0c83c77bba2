import { randomUUID } from "node:crypto";
import type { AppPrismaClient, AppTransaction } from "../db/client.server";
import { getShopConnection } from "../models/ShopConnection.server";
import {
  findDuplicateReceipt,
  isUniqueViolation,
  receiptFor,
  receiptRow,
  type ReceiptStatus,
} from "../models/WebhookReceipt.server";
import {
  mapOrderWebhook,
  parseWebhookJson,
  refundCancellationKey,
  type DerivedEvent,
  type MappingResult,
  type OrderTopic,
} from "../orders";
import type { Environment } from "../protection/types";
import { WAITING_STATUSES } from "./retry-policy";

export interface OrderWebhookDelivery {
  shop: string;
  topic: OrderTopic;
  webhookId: string;
  eventId?: string | null;
  apiVersion?: string | null;
  /** The body exactly as signed: parsed here without losing digits of large IDs. */
  rawBody: string;
}

export type RecordOutcome =
  | { outcome: "duplicate" }
  | {
      outcome: "recorded" | "ignored" | "unprocessable";
      receiptId: string;
      orderId: string | null;
      eventCount: number;
      detail: string;
    };

const MAX_RECORD_ATTEMPTS = 3;

/**
 * Turns one verified order webhook into its receipt and outbox events, in one transaction.
 * A delivery (or event) seen before records nothing. Two deliveries racing on the same
 * event key lose one transaction to the unique index; it is re-run and finds the other's rows.
 */
export async function recordOrderWebhook(
  db: AppPrismaClient,
  delivery: OrderWebhookDelivery,
): Promise<RecordOutcome> {
  const connection = await getShopConnection(db, delivery.shop);
  const environment = (connection?.environment ?? "sandbox") as Environment;
  const mapping = mapDelivery(delivery, connection?.reportOrdersWithoutPlan ?? true);

  // The hot path: a new order is written in one batch, with no reads first. A duplicate (or
  // a race) hits a unique index, rolls the batch back, and takes the careful path below.
  if (delivery.topic === "orders/create" && mapping.kind === "events") {
    try {
      return await recordNewOrder(db, delivery, environment, mapping);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await recordOnce(db, delivery, environment, mapping);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= MAX_RECORD_ATTEMPTS) throw error;
    }
  }
}

async function recordNewOrder(
  db: AppPrismaClient,
  delivery: OrderWebhookDelivery,
  environment: Environment,
  mapping: Extract<MappingResult, { kind: "events" }>,
): Promise<RecordOutcome> {
  const receiptId = randomUUID();
  await db.$transaction([
    db.webhookReceipt.create({
      data: {
        ...receiptData(delivery, "processed", mapping.orderId, mapping.detail),
        id: receiptId,
      },
    }),
    db.outboxEvent.createMany({
      data: mapping.events.map((derived) =>
        outboxRow(delivery.shop, environment, mapping.orderId, derived, receiptId),
      ),
    }),
  ]);
  return {
    outcome: "recorded",
    receiptId,
    orderId: mapping.orderId,
    eventCount: mapping.events.length,
    detail: mapping.detail,
  };
}

function outboxRow(
  shop: string,
  environment: Environment,
  orderId: string,
  derived: DerivedEvent,
  sourceReceiptId: string,
) {
  return {
    shop,
    environment,
    orderId,
    eventType: derived.event.type,
    dedupeKey: derived.dedupeKey,
    payload: JSON.stringify(derived.event),
    sourceReceiptId,
  };
}

function mapDelivery(delivery: OrderWebhookDelivery, reportOrdersWithoutPlan: boolean) {
  let payload: unknown;
  try {
    payload = parseWebhookJson(delivery.rawBody);
  } catch (error) {
    return {
      kind: "unprocessable",
      orderId: null,
      reason: `Body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    } satisfies MappingResult;
  }
  return mapOrderWebhook(delivery.topic, payload, { reportOrdersWithoutPlan });
}

async function recordOnce(
  db: AppPrismaClient,
  delivery: OrderWebhookDelivery,
  environment: Environment,
  mapping: MappingResult,
): Promise<RecordOutcome> {
  if (await findDuplicateReceipt(db, delivery)) return { outcome: "duplicate" };

  return db.$transaction(async (tx) => {
    switch (mapping.kind) {
      case "unprocessable":
        return finish(tx, delivery, "unprocessable", mapping.orderId, mapping.reason, true);
      case "ignored": {
        const notes = [mapping.detail];
        if (delivery.topic === "orders/create" && mapping.orderId) {
          const dropped = await dropWaitingFollowUps(tx, delivery.shop, mapping.orderId);
          if (dropped) notes.push(`dropped ${dropped} waiting event(s) of this unreported order`);
        }
        return finish(tx, delivery, "ignored", mapping.orderId, notes.join("; "));
      }
      case "events":
        return recordEvents(tx, delivery, environment, mapping);
    }
  });
}

async function recordEvents(
  tx: AppTransaction,
  delivery: OrderWebhookDelivery,
  environment: Environment,
  mapping: Extract<MappingResult, { kind: "events" }>,
): Promise<RecordOutcome> {
  const { shop } = delivery;
  const { orderId } = mapping;
  const notes = [mapping.detail];
  let events = mapping.events;

  if (delivery.topic !== "orders/create" && (await wasOrderIgnored(tx, shop, orderId))) {
    const detail = `Order ${orderId} was not reported (no plan line, and reporting orders without a plan is off); nothing to send`;
    return finish(tx, delivery, "ignored", orderId, detail);
  }

  if (
    delivery.topic === "refunds/create" &&
    (await hasEvent(tx, shop, orderId, "order_cancelled"))
  ) {
    // Shopify's cancel refund repeats the cancellation line by line; order_cancelled says it all.
    const before = events.length;
    events = events.filter((derived) => derived.event.type !== "order_line_items_cancelled");
    if (events.length < before)
      notes.push("line cancellations repeated by the order's cancel refund are not sent");
  }

  if (mapping.cancelRefundIds?.length) {
    const dropped = await tx.outboxEvent.deleteMany({
      where: {
        shop,
        orderId,
        eventType: "order_line_items_cancelled",
        status: { in: [...WAITING_STATUSES] },
        dedupeKey: { in: mapping.cancelRefundIds.map(refundCancellationKey) },
      },
    });
    if (dropped.count) {
      notes.push(
        `dropped ${dropped.count} unsent line cancellation(s) repeated by the cancel refund`,
      );
    }
  }

  const existing = await tx.outboxEvent.findMany({
    where: { shop, dedupeKey: { in: events.map((derived) => derived.dedupeKey) } },
    select: { dedupeKey: true },
  });
  const seen = new Set(existing.map((row) => row.dedupeKey));
  const fresh = events.filter((derived) => !seen.has(derived.dedupeKey));
  if (seen.size) notes.push(`${seen.size} event(s) already recorded from an earlier webhook`);
  if (!fresh.length) {
    return finish(tx, delivery, "ignored", orderId, notes.join("; "));
  }

  const receipt = await createReceipt(tx, delivery, "processed", orderId, notes.join("; "), false);
  const created = await tx.outboxEvent.createMany({
    data: fresh.map((derived) => outboxRow(shop, environment, orderId, derived, receipt.id)),
  });
  return {
    outcome: "recorded",
    receiptId: receipt.id,
    orderId,
    eventCount: created.count,
    detail: receipt.detail ?? "",
  };
}

function hasEvent(tx: AppTransaction, shop: string, orderId: string, eventType: string) {
  return tx.outboxEvent
    .findFirst({ where: { shop, orderId, eventType }, select: { id: true } })
    .then(Boolean);
}

function wasOrderIgnored(tx: AppTransaction, shop: string, orderId: string) {
  return tx.webhookReceipt
    .findFirst({
      where: { shop, orderId, topic: "orders/create", status: "ignored" },
      select: { id: true },
    })
    .then(Boolean);
}

/** Follow-up events that arrived before an orders/create that is not reported after all. */
async function dropWaitingFollowUps(tx: AppTransaction, shop: string, orderId: string) {
  const hasPlaced = await hasEvent(tx, shop, orderId, "order_placed");
  if (hasPlaced) return 0;
  const { count } = await tx.outboxEvent.deleteMany({
    where: { shop, orderId, status: { in: [...WAITING_STATUSES] } },
  });
  return count;
}

function receiptData(
  delivery: OrderWebhookDelivery,
  status: ReceiptStatus,
  orderId: string | null,
  detail: string,
  keepPayload = false,
) {
  const payload = keepPayload ? delivery.rawBody : null;
  return receiptRow(receiptFor(delivery, { status, orderId, detail, payload }));
}

function createReceipt(
  tx: AppTransaction,
  delivery: OrderWebhookDelivery,
  status: ReceiptStatus,
  orderId: string | null,
  detail: string,
  keepPayload: boolean,
) {
  return tx.webhookReceipt.create({
    data: receiptData(delivery, status, orderId, detail, keepPayload),
  });
}

async function finish(
  tx: AppTransaction,
  delivery: OrderWebhookDelivery,
  status: ReceiptStatus,
  orderId: string | null,
  detail: string,
  keepPayload = false,
): Promise<RecordOutcome> {
  const receipt = await createReceipt(tx, delivery, status, orderId, detail, keepPayload);
  const outcome = status === "processed" ? "recorded" : status;
  return { outcome, receiptId: receipt.id, orderId, eventCount: 0, detail };
}
