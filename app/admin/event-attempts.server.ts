import type { AppPrismaClient } from "../db/client.server";
import type { OutboxEvent } from "../generated/prisma/sqlite/client";
import { countEventAttempts, listEventAttempts } from "../models/OutboxAttempt.server";
import { idempotencyKeyFor } from "../outbox/idempotency";
import { attemptTimeline, type AttemptLog, type LoggedAttempt } from "./event-log";

/**
 * The event page's "Attempts" card: each logged send with what came of it, the sends that were
 * cut off, and the one Idempotency-Key every send of the event carries.
 */
export async function loadAttemptLog(
  db: AppPrismaClient,
  event: OutboxEvent,
  now = new Date(),
): Promise<AttemptLog> {
  const [rows, loggedTotal] = await Promise.all([
    listEventAttempts(db, event.shop, event.id),
    countEventAttempts(db, event.shop, event.id),
  ]);
  const idempotencyKey = idempotencyKeyFor(event.shop, event.dedupeKey);
  // A worker holds the event and its lease runs: its latest send may still be on its way.
  const sending =
    event.status === "delivering" && event.leaseExpiresAt !== null && event.leaseExpiresAt > now;
  const logged = rows.map((row): LoggedAttempt => ({
    attempt: row.attempt,
    outcome: row.outcome,
    httpStatus: row.httpStatus,
    workerId: row.workerId,
    environment: row.environment,
    detail: row.detail,
    startedAt: row.startedAt.toISOString(),
    durationMs: row.finishedAt.getTime() - row.startedAt.getTime(),
    // The key is derived from the event, so a row with another one predates that derivation.
    otherKey: row.idempotencyKey === idempotencyKey ? null : row.idempotencyKey,
  }));
  return {
    idempotencyKey,
    loggedTotal,
    ...attemptTimeline(logged, { sendsStarted: event.attempts, loggedTotal, sending }),
  };
}
