import type { OutboxEvent, ShopConnection } from "../generated/prisma/sqlite/client";
import type { AppPrismaClient } from "../db/client.server";
import { keyNameOf, markKeyRejected } from "../models/ShopConnection.server";
import type { Logger } from "../logger.server";
import { describeResult, type ServiceResult } from "../protection/results";
import type { Environment, EventAccepted, OrderEvent } from "../protection/types";
import type { ClientForShop } from "../services/protection.server";
import { lineEntryCount, restrictToPlacedLines } from "./placed-lines";
import { decideDelivery, scheduleRetry, type DeliveryDecision } from "./retry-policy";

export type ClientFactory = (connection: ShopConnection, environment: Environment) => ClientForShop;

export interface DeliveryContext {
  db: AppPrismaClient;
  workerId: string;
  clientFor: ClientFactory;
  log: Logger;
  now?: () => Date;
}

export type DeliveryOutcome = DeliveryDecision["outcome"] | "unprocessable" | "released";

/** Sends one claimed event and records what happened. Expected failures never throw. */
export async function deliverClaimedEvent(
  context: DeliveryContext,
  row: OutboxEvent,
  connection: ShopConnection | undefined,
): Promise<DeliveryOutcome> {
  const { db, workerId } = context;
  const log = context.log.child({
    shop: row.shop,
    orderId: row.orderId,
    eventId: row.id,
    eventType: row.eventType,
  });
  const owned = { id: row.id, claimedBy: workerId, status: "delivering" };

  if (!connection || connection.status !== "connected") {
    // Paused (key rejected) or uninstalled after the claim: the event waits with its shop.
    await db.outboxEvent.updateMany({
      where: owned,
      data: { status: "pending", claimedBy: null, leaseExpiresAt: null },
    });
    return "released";
  }

  let event = JSON.parse(row.payload) as OrderEvent;
  let payloadChanged = false;
  if (event.type !== "order_placed") {
    const placedLineIds = await deliveredPlacedLineIds(db, row.shop, row.orderId);
    const restricted = restrictToPlacedLines(event, placedLineIds);
    if (restricted.droppedLineIds.length) {
      log.warn(
        { droppedLineIds: restricted.droppedLineIds },
        "Lines not in order_placed are left out",
      );
      event = restricted.event;
      payloadChanged = true;
    }
    if (lineEntryCount(event) === 0) {
      const error = `Not sent: line item(s) ${restricted.droppedLineIds.join(", ")} were not in the order's order_placed (added by an order edit), so the service does not know them`;
      await db.outboxEvent.updateMany({
        where: owned,
        data: { status: "unprocessable", lastError: error, claimedBy: null, leaseExpiresAt: null },
      });
      log.warn({ reason: error }, "Event unprocessable");
      return "unprocessable";
    }
  }

  const now = context.now?.() ?? new Date();
  const failureContext = {
    failedAttempts: row.attempts + 1,
    firstFailedAt: row.firstFailedAt ?? now,
    now,
  };
  const environment = row.environment as Environment;
  const built = context.clientFor(connection, environment);
  let decision: DeliveryDecision;
  let response: string | null = null;
  if (built.status === "no_key") {
    decision = scheduleRetry(failureContext, built.message);
  } else {
    const result: ServiceResult<EventAccepted> = await built.client.sendOrderEvent(event);
    decision = decideDelivery(result, describeResult(result), failureContext);
    response = serviceAnswerOf(result);
  }

  const common = {
    attempts: row.attempts + 1,
    lastAttemptAt: now,
    lastResponse: response,
    claimedBy: null,
    leaseExpiresAt: null,
    ...(payloadChanged ? { payload: JSON.stringify(event) } : {}),
  };
  switch (decision.outcome) {
    case "delivered":
      await db.outboxEvent.updateMany({
        where: owned,
        data: {
          ...common,
          status: "delivered",
          deliveredAt: now,
          serviceEventId: decision.serviceEventId,
          lastError: null,
        },
      });
      log.info(
        { serviceEventId: decision.serviceEventId, attempts: common.attempts },
        "Event delivered",
      );
      break;
    case "retry":
      await db.outboxEvent.updateMany({
        where: owned,
        data: {
          ...common,
          status: "failed",
          nextAttemptAt: decision.nextAttemptAt,
          firstFailedAt: failureContext.firstFailedAt,
          lastError: decision.error,
        },
      });
      log.warn(
        { error: decision.error, nextAttemptAt: decision.nextAttemptAt, attempts: common.attempts },
        "Event delivery failed; will retry",
      );
      break;
    case "dead":
      await db.outboxEvent.updateMany({
        where: owned,
        data: { ...common, status: "dead", lastError: decision.error },
      });
      log.error({ error: decision.error, attempts: common.attempts }, "Event is dead");
      break;
    case "pause_shop":
      await markKeyRejected(
        db,
        connection,
        environment,
        `The service rejected the ${keyNameOf(environment)} secret key (${decision.error.split(":")[0]}) at ${now.toISOString()}. Order events are kept and wait; delivery resumes as soon as a new key is saved.`,
      );
      await db.outboxEvent.updateMany({
        where: owned,
        data: { ...common, status: "pending", nextAttemptAt: now, lastError: decision.error },
      });
      log.error(
        { environment: row.environment },
        "Secret key rejected (401); delivery for the shop is paused until the key changes",
      );
      break;
  }
  return decision.outcome;
}

/** The service's answer, kept for the event log: the body on success, the errors on a 400. */
function serviceAnswerOf(result: ServiceResult<EventAccepted>): string {
  switch (result.kind) {
    case "success":
      return JSON.stringify({ status: result.status, body: result.data });
    case "validation_error":
      return JSON.stringify({
        status: 400,
        error: { error_code: result.errorCode, validation_errors: result.validationErrors },
      });
    default:
      return JSON.stringify({
        status: "status" in result ? (result.status ?? null) : null,
        summary: describeResult(result),
      });
  }
}

async function deliveredPlacedLineIds(db: AppPrismaClient, shop: string, orderId: string) {
  const placed = await db.outboxEvent.findFirst({
    where: { shop, orderId, eventType: "order_placed", status: "delivered" },
    select: { payload: true },
  });
  const event = placed ? (JSON.parse(placed.payload) as OrderEvent) : null;
  return new Set(
    event?.type === "order_placed" ? event.payload.line_items.map((line) => line.id) : [],
  );
}
