import type { AppPrismaClient } from "../db/client.server";
import type { Logger } from "../logger.server";
import { SHOPIFY_ACTION_STATUSES } from "../models/ShopifyAction.server";
import { OUTBOX_STATUSES } from "../models/outbox-status";
import { metrics } from "./registry.server";

/*
 * The gauges read from the database: outbox depth, the oldest waiting event, dead events, plan
 * actions by kind and state, and reconciliation recovering in a row. One process kind reads them
 * on an interval (the worker when workers run apart, else the web server with the embedded
 * worker), never per scrape: a scraper cannot load the database (decision 047).
 */

/** An event still to be delivered: its age is the oldest pending age. */
const WAITING_STATUSES = ["pending", "delivering", "failed"];
export const METRIC_ENVIRONMENTS = ["sandbox", "live"] as const;
export const ACTION_KINDS = [
  "refund_plan_line",
  "edit_plan_line",
  "fulfil_plan_line",
  "refund_cancelled_plan",
] as const;

export interface DatabaseGauges {
  outboxEvents: { status: string; environment: string; count: number }[];
  oldestPendingAgeSeconds: number;
  deadEvents: number;
  planActions: { kind: string; state: string; count: number }[];
  recoveringRunsInARow: number;
}

/** The database's stored "production" is the service's live environment. */
function environmentLabel(environment: string): string {
  return environment === "production" ? "live" : environment;
}

/** Reads every database gauge: five aggregate queries on indexed columns, no row is loaded. */
export async function readDatabaseGauges(
  db: AppPrismaClient,
  now: Date = new Date(),
): Promise<DatabaseGauges> {
  const [events, oldest, actions, recovering] = await Promise.all([
    db.outboxEvent.groupBy({ by: ["status", "environment"], _count: { _all: true } }),
    db.outboxEvent.aggregate({
      where: { status: { in: WAITING_STATUSES } },
      _min: { createdAt: true },
    }),
    db.shopifyAction.groupBy({ by: ["kind", "status"], _count: { _all: true } }),
    db.reconcileState.aggregate({ _max: { recoveringRunsInARow: true } }),
  ]);
  const outboxEvents = events.map((row) => ({
    status: row.status,
    environment: environmentLabel(row.environment),
    count: row._count._all,
  }));
  const oldestAt = oldest._min.createdAt;
  return {
    outboxEvents,
    oldestPendingAgeSeconds: oldestAt
      ? Math.max(0, (now.getTime() - oldestAt.getTime()) / 1_000)
      : 0,
    deadEvents: outboxEvents
      .filter((row) => row.status === "dead")
      .reduce((total, row) => total + row.count, 0),
    planActions: actions.map((row) => ({
      kind: row.kind,
      state: row.status,
      count: row._count._all,
    })),
    recoveringRunsInARow: recovering._max.recoveringRunsInARow ?? 0,
  };
}

/** Sets the gauges; every known series is present, at 0 when no row has it. */
export function setDatabaseGauges(gauges: DatabaseGauges): void {
  metrics.outboxEvents.reset();
  for (const status of OUTBOX_STATUSES) {
    for (const environment of METRIC_ENVIRONMENTS)
      metrics.outboxEvents.set({ status, environment }, 0);
  }
  for (const row of gauges.outboxEvents) {
    metrics.outboxEvents.inc({ status: row.status, environment: row.environment }, row.count);
  }
  metrics.outboxOldestPendingAge.set(gauges.oldestPendingAgeSeconds);
  metrics.outboxDeadEvents.set(gauges.deadEvents);
  metrics.planActions.reset();
  for (const kind of ACTION_KINDS) {
    for (const state of SHOPIFY_ACTION_STATUSES) metrics.planActions.set({ kind, state }, 0);
  }
  for (const row of gauges.planActions) {
    metrics.planActions.inc({ kind: row.kind, state: row.state }, row.count);
  }
  metrics.reconcileRecoveringRunsInARow.set(gauges.recoveringRunsInARow);
}

export interface DatabaseGaugeCollector {
  /** Reads and sets the gauges once; resolves when done (failures are logged, not thrown). */
  refresh(): Promise<void>;
  stop(): void;
}

/** Refreshes the database gauges now and then every `intervalMs`. */
export function startDatabaseGaugeCollector(options: {
  db: AppPrismaClient;
  intervalMs: number;
  log: Logger;
}): DatabaseGaugeCollector {
  let running: Promise<void> | null = null;
  const refresh = () =>
    (running ??= readDatabaseGauges(options.db)
      .then(setDatabaseGauges)
      .catch((error: unknown) =>
        options.log.warn({ err: error }, "Failed to read the database gauges of the metrics"),
      )
      .finally(() => {
        running = null;
      }));
  void refresh();
  const timer = setInterval(() => void refresh(), options.intervalMs);
  timer.unref();
  return {
    refresh,
    stop: () => clearInterval(timer),
  };
}
