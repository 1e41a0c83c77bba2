import { setTimeout as sleep } from "node:timers/promises";
import type { AppPrismaClient } from "../db/client.server";
import { logger as rootLogger, type Logger } from "../logger.server";
import { sqlBuilder } from "../outbox/claim.server";
import { retentionCutoff } from "./customer-data";
import { purgeExpiredCustomerData } from "./customer-data.server";

// Retention (issue 28, decision 049): settled rows are deleted once they are older than
// SVC_EVENT_RETENTION_DAYS, a small batch per transaction with a pause between, so the webhook
// path never waits long for the tables it writes to. One scheduler runs it with the scrub of
// personal data (decision 015): the retention worker below, or `npm run svc -- data:purge`.

/** Events that are done: nothing sends them again unless an operator asks. */
export const DELETABLE_EVENT_STATUSES = ["delivered", "dead"] as const;
/** Receipts whose delivery was acted on; an unprocessable one keeps the raw body it could not map. */
export const DELETABLE_RECEIPT_STATUSES = ["processed", "ignored"] as const;
/** Shopify sends a delivery again for up to 48 hours: its receipt must be there to deduplicate it. */
export const SHOPIFY_RETRY_WINDOW_MS = 48 * 60 * 60 * 1_000;
/** How often the retention worker runs its pass. */
export const RETENTION_INTERVAL_MS = 6 * 60 * 60 * 1_000;

export interface RowRetentionOptions {
  now: Date;
  retentionDays: number;
  /** Rows deleted per transaction. */
  batchSize: number;
  /** Pause between two batches. */
  pauseMs: number;
  /** Stops between two batches when it says so (the worker is stopping). */
  shouldStop?: () => boolean;
}

export interface RowRetentionResult {
  cutoff: Date;
  events: number;
  attempts: number;
  receipts: number;
  /** Transactions that deleted something, each of at most `batchSize` events or receipts. */
  batches: number;
}

const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");

/**
 * A delivered order_placed is never deleted: a later event of its order (a refund a year on)
 * is sent only after it (the claim looks for it), reconciliation and a replayed orders/create
 * find the order reported by it, and it is one row per order.
 *
 * An order's rows go together: while any event of the order is still open, unprocessable, or
 * younger than the cutoff, none of its events or receipts is deleted, so a follow-up never waits
 * for an order_placed that retention took (the claim needs it delivered).
 */
function orderStillNeeded(alias: string, cutoffSql: string) {
  return `EXISTS (SELECT 1 FROM "OutboxEvent" kept
    WHERE kept.shop = ${alias}.shop AND kept."orderId" = ${alias}."orderId"
      AND (kept.status NOT IN (${quoted(DELETABLE_EVENT_STATUSES)}) OR kept."updatedAt" >= ${cutoffSql}))`;
}

async function deleteEventBatch(
  db: AppPrismaClient,
  status: (typeof DELETABLE_EVENT_STATUSES)[number],
  cutoff: Date,
  limit: number,
) {
  const sql = sqlBuilder(db);
  // updatedAt is when the event last changed: when it was delivered, or when it died.
  // (SQLite numbers its parameters by position: each use of the cutoff is a parameter of its own.)
  const rows = await db.$queryRawUnsafe<Array<{ id: number | bigint }>>(
    `SELECT e.id FROM "OutboxEvent" e
     WHERE e.status = ${sql.param(status)} AND e."updatedAt" < ${sql.nowOr(cutoff)}
       AND NOT (e."eventType" = 'order_placed' AND e.status = 'delivered')
       AND NOT ${orderStillNeeded("e", sql.nowOr(cutoff))}
     ORDER BY e."updatedAt" LIMIT ${sql.param(limit)}`,
    ...sql.values,
  );
  const ids = rows.map((row) => Number(row.id));
  if (!ids.length) return null;
  const [attempts, events] = await db.$transaction([
    db.outboxAttempt.deleteMany({ where: { eventId: { in: ids } } }),
    // Only while still settled: an operator may have sent one again since it was read.
    db.outboxEvent.deleteMany({
      where: {
        id: { in: ids },
        status: { in: [...DELETABLE_EVENT_STATUSES] },
        updatedAt: { lt: cutoff },
      },
    }),
  ]);
  return { events: events.count, attempts: attempts.count };
}

async function deleteReceiptBatch(
  db: AppPrismaClient,
  status: (typeof DELETABLE_RECEIPT_STATUSES)[number],
  receiptCutoff: Date,
  eventCutoff: Date,
  limit: number,
) {
  const sql = sqlBuilder(db);
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT r.id FROM "WebhookReceipt" r
     WHERE r.status = ${sql.param(status)} AND r."receivedAt" < ${sql.nowOr(receiptCutoff)}
       AND (r."orderId" IS NULL OR NOT ${orderStillNeeded("r", sql.nowOr(eventCutoff))})
     ORDER BY r."receivedAt" LIMIT ${sql.param(limit)}`,
    ...sql.values,
  );
  if (!rows.length) return null;
  const { count } = await db.webhookReceipt.deleteMany({
    where: { id: { in: rows.map((row) => row.id) } },
  });
  return count;
}

/**
 * Deletes delivered and dead events with their attempts, and processed (or ignored) receipts,
 * older than the retention period in every shop, one batch per transaction. Safe to run again
 * or to stop at any time: each batch stands on its own.
 */
export async function deleteExpiredRows(
  db: AppPrismaClient,
  options: RowRetentionOptions,
): Promise<RowRetentionResult> {
  const cutoff = retentionCutoff(options.now, options.retentionDays);
  // Whatever the setting, a receipt outlives Shopify's retries of its delivery.
  const receiptCutoff = new Date(
    Math.min(cutoff.getTime(), options.now.getTime() - SHOPIFY_RETRY_WINDOW_MS),
  );
  const result: RowRetentionResult = { cutoff, events: 0, attempts: 0, receipts: 0, batches: 0 };
  const stopped = () => options.shouldStop?.() ?? false;
  const pause = async () => {
    if (options.pauseMs > 0 && !stopped()) await sleep(options.pauseMs);
  };

  // One status at a time: the (status, age) index then yields the oldest rows in order and the
  // query stops at the batch's size, where two statuses at once would sort every old row first.
  for (const status of DELETABLE_EVENT_STATUSES) {
    while (!stopped()) {
      const deleted = await deleteEventBatch(db, status, cutoff, options.batchSize);
      if (!deleted) break;
      result.events += deleted.events;
      result.attempts += deleted.attempts;
      result.batches += 1;
      await pause();
    }
  }
  for (const status of DELETABLE_RECEIPT_STATUSES) {
    while (!stopped()) {
      const deleted = await deleteReceiptBatch(
        db,
        status,
        receiptCutoff,
        cutoff,
        options.batchSize,
      );
      if (deleted === null) break;
      result.receipts += deleted;
      result.batches += 1;
      await pause();
    }
  }
  return result;
}

export interface RetentionSettings {
  customerDataRetentionDays: number;
  eventRetentionDays: number;
  batchSize: number;
  pauseMs: number;
}

export function retentionSettingsOf(env: {
  SVC_CUSTOMER_DATA_RETENTION_DAYS: number;
  SVC_EVENT_RETENTION_DAYS: number;
  SVC_RETENTION_BATCH_SIZE: number;
  SVC_RETENTION_PAUSE_MS: number;
}): RetentionSettings {
  return {
    customerDataRetentionDays: env.SVC_CUSTOMER_DATA_RETENTION_DAYS,
    eventRetentionDays: env.SVC_EVENT_RETENTION_DAYS,
    batchSize: env.SVC_RETENTION_BATCH_SIZE,
    pauseMs: env.SVC_RETENTION_PAUSE_MS,
  };
}

/** One pass: the personal data past its period is scrubbed, then the rows past theirs deleted. */
export async function runRetention(
  db: AppPrismaClient,
  settings: RetentionSettings,
  options: { now: Date; shouldStop?: () => boolean },
) {
  const scrubbed = await purgeExpiredCustomerData(db, {
    now: options.now,
    retentionDays: settings.customerDataRetentionDays,
  });
  const deleted = await deleteExpiredRows(db, {
    now: options.now,
    retentionDays: settings.eventRetentionDays,
    batchSize: settings.batchSize,
    pauseMs: settings.pauseMs,
    shouldStop: options.shouldStop,
  });
  return { scrubbed, deleted };
}

export interface RetentionWorker {
  /** Runs a pass now, unless one is running; the worker then runs one every 6 hours. */
  runOnce(): Promise<Awaited<ReturnType<typeof runRetention>> | null>;
  start(): void;
  /** Stops after the batch in flight. */
  stop(): Promise<void>;
}

/** The one scheduler of retention: a pass at start, then every 6 hours. */
export function createRetentionWorker(options: {
  db: AppPrismaClient;
  settings: RetentionSettings;
  intervalMs?: number;
  log?: Logger;
  now?: () => Date;
}): RetentionWorker {
  const log = (options.log ?? rootLogger).child({ component: "retention-worker" });
  const intervalMs = options.intervalMs ?? RETENTION_INTERVAL_MS;
  const now = options.now ?? (() => new Date());
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<Awaited<ReturnType<typeof runRetention>> | null> | undefined;

  async function pass() {
    try {
      const result = await runRetention(options.db, options.settings, {
        now: now(),
        shouldStop: () => stopping,
      });
      const { scrubbed, deleted } = result;
      if (scrubbed.events || scrubbed.receipts || scrubbed.summaries || scrubbed.attempts) {
        log.info(
          { ...scrubbed, retentionDays: options.settings.customerDataRetentionDays },
          "Customer data past its retention period scrubbed",
        );
      }
      if (deleted.batches) {
        log.info(
          { ...deleted, retentionDays: options.settings.eventRetentionDays },
          "Events, attempts and receipts past their retention period deleted",
        );
      }
      return result;
    } catch (error) {
      log.error({ err: error }, "Failed to apply the retention periods");
      return null;
    }
  }

  function runOnce() {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule() {
    if (stopping) return;
    timer = setTimeout(() => void runOnce().then(schedule), intervalMs);
    timer.unref();
  }

  return {
    runOnce,
    start() {
      stopping = false;
      void runOnce().then(schedule);
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await running;
    },
  };
}
