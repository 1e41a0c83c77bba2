import { randomUUID } from "node:crypto";
import os from "node:os";
import type { OutboxEvent, ShopConnection } from "../generated/prisma/sqlite/client";
import type { AppPrismaClient } from "../db/client.server";
import { logger as rootLogger, type Logger } from "../logger.server";
import { protectionClientForShop } from "../services/protection.server";
import { claimDueEvents, releaseClaims } from "./claim.server";
import { deliverClaimedEvent, type ClientFactory, type DeliveryOutcome } from "./deliver.server";
import { RETRY_WINDOW_MS, scheduleRetry, WAITING_STATUSES } from "./retry-policy";
import { onOutboxNotified } from "./signal.server";

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
  now?: () => Date;
}

export interface OutboxWorker {
  readonly workerId: string;
  /** Starts the polling loop. */
  start(): void;
  /** Stops claiming, waits for the sends in flight, and hands back anything unsent. */
  stop(): Promise<void>;
  /** One claim-and-deliver round; the number of events it handled. */
  runOnce(): Promise<Map<DeliveryOutcome, number>>;
  /** Rounds until nothing is due. For tests and the CLI. */
  drain(maxRounds?: number): Promise<number>;
}

const EXPIRY_CHECK_INTERVAL_MS = 60_000;

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
  const now = options.now ?? (() => new Date());

  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let woken = false;
  let lastExpiryCheck = 0;
  let unsubscribe: (() => void) | null = null;
  let stopping: Promise<void> | null = null;

  async function runOnce(): Promise<Map<DeliveryOutcome, number>> {
    const outcomes = new Map<DeliveryOutcome, number>();
    const ids = await claimDueEvents(db, { workerId, limit: batchSize, now: now(), leaseMs });
    if (!ids.length) return outcomes;
    const rows = await db.outboxEvent.findMany({
      where: { id: { in: ids } },
      orderBy: { id: "asc" },
    });
    const shops = [...new Set(rows.map((row) => row.shop))];
    const connections = new Map<string, ShopConnection>(
      (await db.shopConnection.findMany({ where: { shop: { in: shops } } })).map((c) => [
        c.shop,
        c,
      ]),
    );
    const context = { db, workerId, clientFor, log, now };
    let next = 0;
    const lanes = Array.from({ length: Math.min(concurrency, rows.length) }, async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        let outcome: DeliveryOutcome;
        try {
          outcome = await deliverClaimedEvent(context, row, connections.get(row.shop));
        } catch (error) {
          // Unexpected (database gone, a bug, a stored payload we cannot read): the event is
          // retried with backoff like a failed send, never at once, so that one bad row cannot
          // keep the worker spinning on it; after the retry window it is dead with the reason.
          log.error(
            { err: error, eventId: row.id, shop: row.shop, orderId: row.orderId },
            `Failed to deliver ${row.eventType} for order ${row.orderId}`,
          );
          outcome = await retryAfterUnexpectedError(db, workerId, row, error, now()).catch(
            async () => {
              await releaseClaims(db, workerId, [row.id]).catch(() => undefined);
              return "released" as const;
            },
          );
        }
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        if (outcome === "pause_shop") {
          const paused = await db.shopConnection.findUnique({ where: { shop: row.shop } });
          if (paused) connections.set(row.shop, paused);
        }
      }
    });
    await Promise.all(lanes);
    return outcomes;
  }

  async function expireIfDue() {
    const at = now().getTime();
    if (at - lastExpiryCheck < EXPIRY_CHECK_INTERVAL_MS) return;
    lastExpiryCheck = at;
    const expired = await expireEventsWithoutPlacement(db, now());
    if (expired) log.warn({ expired }, "Events whose order_placed never arrived are dead");
  }

  async function runLoop() {
    while (running) {
      let handled = 0;
      try {
        await expireIfDue();
        handled = handledCount(await runOnce());
      } catch (error) {
        log.error(
          { err: error },
          "Outbox worker round failed; trying again after the poll interval",
        );
      }
      if (handled === 0 && running && !woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollIntervalMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      wake = null;
      woken = false;
    }
  }

  return {
    workerId,
    runOnce,
    start() {
      if (running) return;
      running = true;
      stopping = null;
      unsubscribe = onOutboxNotified(() => {
        woken = true;
        wake?.();
      });
      log.info({ batchSize, concurrency, pollIntervalMs }, "Outbox worker started");
      loop = runLoop();
    },
    stop() {
      // Every caller (a signal handler, the server's shutdown) waits for the same stop.
      stopping ??= (async () => {
        if (!running) return;
        running = false;
        unsubscribe?.();
        wake?.();
        await loop;
        const released = await releaseClaims(db, workerId);
        log.info({ released }, "Outbox worker stopped");
      })();
      return stopping;
    },
    async drain(maxRounds = 10_000) {
      let total = 0;
      for (let round = 0; round < maxRounds; round += 1) {
        const handled = handledCount(await runOnce());
        if (!handled) break;
        total += handled;
      }
      return total;
    },
  };
}

/**
 * Follow-up events wait for their order's order_placed (an orders/create that is late, or
 * an order placed before the app was installed). After the retry window they are dead, with
 * a reason, so that nothing waits for ever; `events:retry` brings them back. Paused shops are
 * left alone: their events wait for the new key.
 */
export async function expireEventsWithoutPlacement(db: AppPrismaClient, now: Date) {
  const cutoff = new Date(now.getTime() - RETRY_WINDOW_MS);
  const candidates = await db.outboxEvent.findMany({
    where: {
      status: { in: [...WAITING_STATUSES] },
      eventType: { not: "order_placed" },
      createdAt: { lt: cutoff },
    },
    select: { id: true, shop: true, orderId: true },
    take: 1_000,
  });
  let expired = 0;
  for (const candidate of candidates) {
    const [connection, placed] = await Promise.all([
      db.shopConnection.findUnique({ where: { shop: candidate.shop }, select: { status: true } }),
      db.outboxEvent.findFirst({
        where: {
          shop: candidate.shop,
          orderId: candidate.orderId,
          eventType: "order_placed",
          status: "delivered",
        },
        select: { id: true },
      }),
    ]);
    if (placed || connection?.status !== "connected") continue;
    const { count } = await db.outboxEvent.updateMany({
      where: { id: candidate.id, status: { in: [...WAITING_STATUSES] } },
      data: {
        status: "dead",
        lastError: `order_placed for order ${candidate.orderId} was never delivered within 72 hours (the order may predate the app's installation, or its orders/create was not reported); retry once it is`,
      },
    });
    expired += count;
  }
  return expired;
}

async function retryAfterUnexpectedError(
  db: AppPrismaClient,
  workerId: string,
  row: OutboxEvent,
  error: unknown,
  now: Date,
): Promise<DeliveryOutcome> {
  const message = `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  const firstFailedAt = row.firstFailedAt ?? now;
  const decision = scheduleRetry({ failedAttempts: row.attempts + 1, firstFailedAt, now }, message);
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
