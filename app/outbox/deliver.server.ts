import type { OutboxEvent, ShopConnection } from "../generated/prisma/sqlite/client";
import type { AppPrismaClient } from "../db/client.server";
import { canSendTo, keyNameOf, markKeyRejected } from "../models/ShopConnection.server";
import type { WebhookSource } from "../models/WebhookReceipt.server";
import type { Logger } from "../logger.server";
import { describeResult, type ServiceResult } from "../protection/results";
import type { Environment, EventReceipt, OrderEvent, OutboxMessage } from "../protection/types";
import { pauseShopWithUnreadableSecret, type ClientForShop } from "../services/protection.server";
import { startSend } from "./claim.server";
import { idempotencyKeyFor } from "./idempotency";
import { lineEntryCount, restrictToPlacedLines } from "./placed-lines";
import { decideDelivery, scheduleRetry, type DeliveryDecision } from "./retry-policy";
import { sendOutboxMessage } from "./send-message";
import { activeTracer } from "../tracing/tracing.server";
import { metrics, type AttemptOutcome } from "../metrics/registry.server";

export type ClientFactory = (connection: ShopConnection, environment: Environment) => ClientForShop;

export interface DeliveryContext {
  db: AppPrismaClient;
  workerId: string;
  clientFor: ClientFactory;
  log: Logger;
  /** How long a send's renewed claim holds; longer than the service request time-out. */
  leaseMs: number;
  /** Simulated time for tests; production uses the database's clock. */
  now?: () => Date;
  /**
   * Where each send's attempt row goes; the worker writes them together once its batch is sent
   * (one insert per batch, not per send). Without it, each row is written at once.
   */
  logAttempt?: (attempt: OutboxAttemptRow) => void;
  /** The webhook of each event's receipt, by receipt ID, for the send's log lines. */
  sources?: ReadonlyMap<string, WebhookSource>;
}

/** The receipt, webhook and Shopify event an outbox event came from, for its log lines. */
export function sourceFieldsOf(
  row: Pick<OutboxEvent, "sourceReceiptId">,
  sources: ReadonlyMap<string, WebhookSource> | undefined,
): Record<string, string> {
  if (!row.sourceReceiptId) return {};
  const source = sources?.get(row.sourceReceiptId);
  return {
    receiptId: row.sourceReceiptId,
    ...(source ? { webhookId: source.webhookId } : {}),
    ...(source?.shopifyEventId ? { shopifyEventId: source.shopifyEventId } : {}),
  };
}

export interface OutboxAttemptRow {
  eventId: number;
  shop: string;
  attempt: number;
  environment: string;
  workerId: string;
  idempotencyKey: string;
  startedAt: Date;
  finishedAt: Date;
  outcome: string;
  httpStatus: number | null;
  detail: string | null;
}

/** The attempt log's row for one send (or failed try) of `row` by this worker. */
export function attemptRowOf(
  row: OutboxEvent,
  workerId: string,
  send: Pick<
    OutboxAttemptRow,
    "attempt" | "startedAt" | "finishedAt" | "outcome" | "httpStatus" | "detail"
  >,
): OutboxAttemptRow {
  return {
    ...send,
    eventId: row.id,
    shop: row.shop,
    environment: row.environment,
    workerId,
    idempotencyKey: idempotencyKeyFor(row.shop, row.dedupeKey),
    detail: send.detail?.slice(0, 2_000) ?? null,
  };
}

export type DeliveryOutcome =
  | DeliveryDecision["outcome"]
  | "unprocessable"
  | "released"
  /** Another worker holds the event now: this one did not send it. */
  | "lost_claim";

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
    ...sourceFieldsOf(row, context.sources),
  });
  const owned = { id: row.id, claimedBy: workerId, status: "delivering" };
  const environment = row.environment as Environment;

  if (!connection || !canSendTo(connection, environment)) {
    // Paused (key refused or missing) or uninstalled after the claim: the event waits.
    await db.outboxEvent.updateMany({
      where: owned,
      data: { status: "pending", claimedBy: null, leaseExpiresAt: null },
    });
    return "released";
  }

  let event = JSON.parse(row.payload) as OutboxMessage;
  let payloadChanged = false;
  // Only the order events that name lines are held to the placement's lines; a checkout
  // confirmation names none.
  if (event.type !== "order_placed" && event.type !== "cart_checkout") {
    const placedLineIds = await deliveredPlacedLineIds(db, row);
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

  const built = context.clientFor(connection, environment);
  if (built.status === "unreadable") {
    // The saved key cannot be opened (an encryption key went missing): the shop pauses with a
    // reason, and the event waits unsent, without an attempt counted against it.
    await pauseShopWithUnreadableSecret(db, row.shop, built, log);
    await db.outboxEvent.updateMany({
      where: owned,
      data: { status: "pending", claimedBy: null, leaseExpiresAt: null },
    });
    // As for a refused key: the worker reloads the connection and leaves the shop's other rows.
    return "pause_shop";
  }
  // The claim is renewed for this one send, by the database's clock: a worker whose claim ran
  // out while it sent earlier events of its batch finds the row taken and does not send it.
  const started = await startSend(db, {
    id: row.id,
    workerId,
    leaseMs: context.leaseMs,
    now: context.now?.(),
  });
  if (!started) {
    log.warn("Not sent: another worker took the event after this worker's claim ran out");
    return "lost_claim";
  }
  const idempotencyKey = idempotencyKeyFor(row.shop, row.dedupeKey);
  const sentAt = performance.now();
  // With tracing on, a child of the webhook's span when the row kept it (decision 051).
  const span = activeTracer()?.startSendSpan(row, started.attempt);

  // The service's answer, or (no key: removed after the claim) the reason nothing was sent,
  // which is a failed try like an unanswered send.
  const answered =
    built.status === "ready"
      ? await sendOutboxMessage(built.client, event, idempotencyKey).catch((error: unknown) => {
          span?.fail(error);
          throw error;
        })
      : built.message;
  if (typeof answered !== "string" && answered.mismatch) {
    log.warn({ mismatch: answered.mismatch }, "The service's answer differs from what was sent");
  }
  const sent = typeof answered === "string" ? answered : answered.result;
  if (typeof sent !== "string") {
    const outcome = attemptOutcomeOf(sent);
    metrics.outboxAttempts.inc({ outcome });
    metrics.outboxSendDuration.observe({ outcome }, (performance.now() - sentAt) / 1_000);
  }
  // The send's end by the lease's clock: its start as the database stamped it, plus the time
  // it took here.
  const finishedAt = new Date(started.startedAt.getTime() + (performance.now() - sentAt));
  const failure = {
    failedAttempts: started.attempt,
    firstFailedAt: row.firstFailedAt ?? finishedAt,
    now: finishedAt,
  };
  const decision: DeliveryDecision =
    typeof sent === "string"
      ? scheduleRetry(failure, sent)
      : decideDelivery(sent, describeResult(sent), failure);
  const response = typeof sent === "string" ? null : serviceAnswerOf(sent);
  const httpStatus =
    typeof sent !== "string" && "status" in sent && typeof sent.status === "number"
      ? sent.status
      : null;
  span?.end(decision.outcome, httpStatus);

  const common = {
    lastResponse: response,
    claimedBy: null,
    leaseExpiresAt: null,
    ...(payloadChanged ? { payload: JSON.stringify(event) } : {}),
  };
  let data: Parameters<typeof db.outboxEvent.updateMany>[0]["data"];
  switch (decision.outcome) {
    case "delivered":
      data = {
        ...common,
        status: "delivered",
        deliveredAt: finishedAt,
        serviceEventId: decision.serviceEventId,
        lastError: null,
      };
      break;
    case "retry":
      data = {
        ...common,
        status: "failed",
        nextAttemptAt: decision.nextAttemptAt,
        firstFailedAt: row.firstFailedAt ?? finishedAt,
        lastError: decision.error,
      };
      break;
    case "dead":
      data = { ...common, status: "dead", lastError: decision.error };
      break;
    case "pause_shop":
      // A refused key is not the event's failure: its retry window starts again on reconnection.
      data = {
        ...common,
        status: "pending",
        nextAttemptAt: finishedAt,
        firstFailedAt: null,
        lastError: decision.error,
      };
      break;
  }

  const recorded = await db.outboxEvent.updateMany({ where: owned, data });
  // The attempt is logged after the event's update, not in its transaction: a crash between the
  // two only leaves the attempt unlogged (shown as a send cut off), never the event wrong.
  const attempt = attemptRowOf(row, workerId, {
    attempt: started.attempt,
    startedAt: started.startedAt,
    finishedAt,
    outcome: decision.outcome,
    httpStatus,
    detail: "error" in decision ? decision.error : null,
  });
  if (context.logAttempt) context.logAttempt(attempt);
  else await db.outboxAttempt.create({ data: attempt });
  if (recorded.count === 0) {
    // Only when this send outlived its lease (the process stalled): another worker has the
    // event and sends it again, with the same Idempotency-Key.
    log.error(
      { outcome: decision.outcome, idempotencyKey },
      "The send's outcome was not recorded: another worker took the event during the send",
    );
    return "lost_claim";
  }

  switch (decision.outcome) {
    case "delivered":
      log.info(
        { serviceEventId: decision.serviceEventId, attempts: started.attempt },
        "Event delivered",
      );
      break;
    case "retry":
      log.warn(
        { error: decision.error, nextAttemptAt: decision.nextAttemptAt, attempts: started.attempt },
        "Event delivery failed; will retry",
      );
      break;
    case "dead":
      log.error({ error: decision.error, attempts: started.attempt }, "Event is dead");
      break;
    case "pause_shop":
      await markKeyRejected(
        db,
        connection,
        environment,
        `The service rejected the ${keyNameOf(environment)} secret key (${decision.error.split(":")[0]}) at ${finishedAt.toISOString()}. Order events for the ${keyNameOf(environment)} environment are kept and wait; delivery resumes as soon as a new key is saved.`,
        finishedAt,
      );
      log.error(
        { environment },
        "Secret key rejected (401); delivery to this environment is paused until the key changes",
      );
      break;
  }
  return decision.outcome;
}

/** The service's answer, kept for the event log: the body on success, the errors on a 400. */
function serviceAnswerOf(result: ServiceResult<EventReceipt>): string {
  switch (result.kind) {
    case "success":
      return JSON.stringify({
        status: result.status,
        ...(result.data.event_id === null
          ? { raw: result.data.body }
          : { body: { event_id: result.data.event_id } }),
      });
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

async function deliveredPlacedLineIds(db: AppPrismaClient, row: OutboxEvent) {
  const placed = await db.outboxEvent.findFirst({
    where: {
      shop: row.shop,
      orderId: row.orderId,
      eventType: "order_placed",
      status: "delivered",
      environment: row.environment,
    },
    select: { payload: true },
  });
  const event = placed ? (JSON.parse(placed.payload) as OrderEvent) : null;
  return new Set(
    event?.type === "order_placed" ? event.payload.line_items.map((line) => line.id) : [],
  );
}

/** A send's answer as the attempts metric counts it: the status class, or no answer at all. */
function attemptOutcomeOf(result: ServiceResult<unknown>): AttemptOutcome {
  if (result.kind === "retryable" && result.status === undefined) {
    return result.reason === "timeout" ? "timeout" : "network";
  }
  const status = "status" in result && typeof result.status === "number" ? result.status : 0;
  if (status >= 200 && status < 300) return "2xx";
  if (status >= 400 && status < 500) return "4xx";
  if (status >= 500) return "5xx";
  return result.kind === "success" ? "2xx" : "network";
}
