import { randomUUID } from "node:crypto";
import os from "node:os";
import type { OutboxEvent, ShopConnection } from "../generated/prisma/sqlite/client";
import type { AppPrismaClient } from "../db/client.server";
import { canSendTo } from "../models/ShopConnection.server";
import { findWebhookSources } from "../models/WebhookReceipt.server";
import type { Environment } from "../protection/types";
import { logger as rootLogger, type Logger } from "../logger.server";
import { protectionClientForShop } from "../services/protection.server";
import { alignFollowUpEnvironments, claimDueEvents, releaseClaims } from "./claim.server";
import {
  attemptRowOf,
  deliverClaimedEvent,
  sourceFieldsOf,
  type ClientFactory,
  type DeliveryOutcome,
  type OutboxAttemptRow,
} from "./deliver.server";
import { WAITING_STATUSES } from "../models/outbox-status";
import { RETRY_WINDOW_MS, scheduleRetry } from "./retry-policy";
import { createQueueLoop, type QueueWorkerControls } from "./polling-loop.server";

export interface OutboxWorkerOptions {
  db: AppPrismaClient;
  workerId?: string;
  /** Events claimed per round trip to the database. */
  batchSize?: number;
  /** Events sent to the service at the same time (never two of one order). */
  concurrency?: number;
  /** How often an idle worker looks for due events (a webhook in this process wakes it sooner). */
  pollIntervalMs?: number;
  /** How long a claim holds; longer than the service request time-out. */
  leaseMs?: number;
  clientFor?: ClientFactory;
  log?: Logger;
  /** Simulated time for tests. Without it, claims and leases use the database's clock. */
  now?: () => Date;
}

export interface OutboxWorker extends QueueWorkerControls {
  readonly workerId: string;
  /** One claim-and-deliver round; the number of events it handled. */
  runOnce(): Promise<Map<DeliveryOutcome, number>>;
}

const EXPIRY_CHECK_INTERVAL_MS = 60_000;
/** How often a busy worker moves early follow-ups (a scan of the waiting rows; rare work). */
const ALIGNMENT_INTERVAL_MS = 10_000;

function handledCount(outcomes: Map<DeliveryOutcome, number>): number {
  return [...outcomes.values()].reduce((sum, count) => sum + count, 0);
}

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const db = options.db;
  const workerId =
    options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const batchSize = options.batchSize ?? 100;
  const concurrency = options.concurrency ?? 16;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const leaseMs = options.leaseMs ?? 120_000;
  const clientFor = options.clientFor ?? protectionClientForShop;
  const log = (options.log ?? rootLogger).child({ component: "outbox-worker", workerId });
  // Retry windows and expiry (hours, not seconds) use this clock; leases use the database's.
  const now = options.now ?? (() => new Date());

  let lastExpiryCheck = 0;
  let lastAlignment = -Infinity;

  async function runOnce(): Promise<Map<DeliveryOutcome, number>> {
    const outcomes = new Map<DeliveryOutcome, number>();
    const at = Date.now();
    if (at - lastAlignment >= ALIGNMENT_INTERVAL_MS) {
      lastAlignment = at;
      const moved = await alignFollowUpEnvironments(db);
      if (moved) log.info({ moved }, "Early follow-ups moved to their order_placed's environment");
    }
    const ids = await claimDueEvents(db, {
      workerId,
      limit: batchSize,
      now: options.now?.(),
      leaseMs,
    });
    if (!ids.length) return outcomes;
    const rows = await db.outboxEvent.findMany({
      where: { id: { in: ids } },
      orderBy: { id: "asc" },
    });
    // The webhook each event came from, named on its log lines; never a reason not to send.
    const sources = await findWebhookSources(
      db,
      rows.map((row) => row.sourceReceiptId),
    ).catch(() => undefined);
    const shops = [...new Set(rows.map((row) => row.shop))];
    const connections = new Map<string, ShopConnection>(
      (await db.shopConnection.findMany({ where: { shop: { in: shops } } })).map((c) => [
        c.shop,
        c,
      ]),
    );
    const attempts: OutboxAttemptRow[] = [];
    const context = {
      db,
      workerId,
      clientFor,
      log,
      leaseMs,
      now: options.now,
      logAttempt: (attempt: OutboxAttemptRow) => void attempts.push(attempt),
      sources,
    };
    let next = 0;
    const lanes = Array.from({ length: Math.min(concurrency, rows.length) }, async () => {
      // A stopping worker finishes the sends in flight and starts no new one; the rows it
      // claimed but did not start are released below, for the next worker.
      while (next < rows.length && !loop.stopRequested) {
        const row = rows[next++]!;
        let outcome: DeliveryOutcome;
        try {
          outcome = await deliverClaimedEvent(context, row, connections.get(row.shop));
        } catch (error) {
          // Unexpected (database gone, a bug, a stored payload we cannot read): the event is
          // retried with backoff like a failed send, never at once, so that one bad row cannot
          // keep the worker spinning on it; after the retry window it is dead with the reason.
          log.error(
            {
              err: error,
              eventId: row.id,
              shop: row.shop,
              orderId: row.orderId,
              ...sourceFieldsOf(row, sources),
            },
            `Failed to deliver ${row.eventType} for order ${row.orderId}`,
          );
          outcome = await retryAfterUnexpectedError(
            db,
            workerId,
            row,
            error,
            now(),
            context.logAttempt,
          ).catch(async () => {
            await releaseClaims(db, workerId, [row.id]).catch(() => undefined);
            return "released" as const;
          });
        }
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        if (outcome === "pause_shop") {
          const paused = await db.shopConnection.findUnique({ where: { shop: row.shop } });
          if (paused) connections.set(row.shop, paused);
        }
      }
    });
    await Promise.all(lanes);
    if (attempts.length) {
      await db.outboxAttempt.createMany({ data: attempts }).catch((error: unknown) => {
        log.error({ err: error, attempts: attempts.length }, "Failed to log the batch's attempts");
      });
    }
    const unstarted = rows.slice(next).map((row) => row.id);
    if (unstarted.length) await releaseClaims(db, workerId, unstarted);
    return outcomes;
  }

  async function expireIfDue() {
    const at = now().getTime();
    if (at - lastExpiryCheck < EXPIRY_CHECK_INTERVAL_MS) return;
    lastExpiryCheck = at;
    const expired = await expireEventsWithoutPlacement(db, now());
    if (expired) log.warn({ expired }, "Events whose order_placed never arrived are dead");
  }

  const loop = createQueueLoop({
    name: "Outbox worker",
    heartbeat: "outbox",
    log,
    settings: { batchSize, concurrency, pollIntervalMs },
    pollIntervalMs,
    async round() {
      await expireIfDue();
      return handledCount(await runOnce());
    },
    drainRound: async () => handledCount(await runOnce()),
    maxDrainRounds: 10_000,
    release: () => releaseClaims(db, workerId),
  });

  return { workerId, runOnce, ...loop.controls };
}

/**
 * Follow-up events wait for their order's order_placed (an orders/create that is late, or an
 * order placed before the app was installed). One whose order_placed is missing, dead or
 * unprocessable is dead after the retry window, with a reason, so that nothing waits for ever;
 * `events:retry` brings it back. The window counts from the event's creation or from the last
 * time delivery resumed (a key saved), whichever is later, so a pause never kills follow-ups.
 * Events of an environment that cannot be sent to now (paused, uninstalled) are left alone, and
 * so is a follow-up whose order_placed is still on its way.
 */
export async function expireEventsWithoutPlacement(db: AppPrismaClient, now: Date) {
  const cutoff = new Date(now.getTime() - RETRY_WINDOW_MS);
  const candidates = await db.outboxEvent.findMany({
    where: {
      status: { in: [...WAITING_STATUSES] },
      eventType: { not: "order_placed" },
      createdAt: { lt: cutoff },
    },
    select: { id: true, shop: true, orderId: true, environment: true },
    orderBy: { id: "asc" },
    take: 1_000,
  });
  const connections = new Map<string, ShopConnection | null>();
  let expired = 0;
  for (const candidate of candidates) {
    if (!connections.has(candidate.shop)) {
      connections.set(
        candidate.shop,
        await db.shopConnection.findUnique({ where: { shop: candidate.shop } }),
      );
    }
    const connection = connections.get(candidate.shop);
    if (!connection || !canSendTo(connection, candidate.environment as Environment)) continue;
    if (connection.deliveryResumedAt && connection.deliveryResumedAt >= cutoff) continue;
    const placed = await db.outboxEvent.findFirst({
      where: { shop: candidate.shop, orderId: candidate.orderId, eventType: "order_placed" },
      select: { status: true },
    });
    if (placed && !PLACEMENT_GONE.includes(placed.status)) continue;
    const why = placed
      ? `its order_placed is ${placed.status}`
      : "its order_placed never arrived (the order may predate the app's installation, or its orders/create was not reported)";
    const { count } = await db.outboxEvent.updateMany({
      where: { id: candidate.id, status: { in: [...WAITING_STATUSES] } },
      data: {
        status: "dead",
        lastError: `Not sent within 72 hours: ${why}; retry it once order ${candidate.orderId} is reported`,
      },
    });
    expired += count;
  }
  return expired;
}

/** An order_placed in one of these will never be delivered without a person acting. */
const PLACEMENT_GONE = ["dead", "unprocessable"];

async function retryAfterUnexpectedError(
  db: AppPrismaClient,
  workerId: string,
  row: OutboxEvent,
  error: unknown,
  now: Date,
  logAttempt: (attempt: OutboxAttemptRow) => void,
): Promise<DeliveryOutcome> {
  const message = `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  const firstFailedAt = row.firstFailedAt ?? now;
  const decision = scheduleRetry({ failedAttempts: row.attempts + 1, firstFailedAt, now }, message);
  // Counted and logged as an attempt (whether or not the request went out), so that the backoff
  // grows and the event log shows the error rather than a send cut off.
  logAttempt(
    attemptRowOf(row, workerId, {
      attempt: row.attempts + 1,
      startedAt: now,
      finishedAt: now,
      outcome: decision.outcome,
      httpStatus: null,
      detail: message,
    }),
  );
  await db.outboxEvent.updateMany({
    where: { id: row.id, claimedBy: workerId, status: "delivering" },
    data: {
      status: decision.outcome === "retry" ? "failed" : "dead",
      attempts: row.attempts + 1,
      firstFailedAt,
      lastAttemptAt: now,
      lastError: message,
      nextAttemptAt: decision.outcome === "retry" ? decision.nextAttemptAt : now,
      claimedBy: null,
      leaseExpiresAt: null,
    },
  });
  return decision.outcome;
}
