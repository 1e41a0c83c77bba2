import type { AppPrismaClient } from "../db/client.server";
import type { parseReconcileEnv } from "../env.server";
import { RECONCILE_ORDER_QUERY } from "../graphql/ReconcileOrder";
import { RECONCILE_ORDER_LIST_QUERY } from "../graphql/ReconcileOrderList";
import { logger } from "../logger.server";
import {
  deferredOrdersOf,
  ensureReconcileState,
  mergeDeferredOrders,
  type DeferredOrder,
} from "../models/ReconcileState.server";
import {
  headerKeys,
  headerLooksComplete,
  orderNumericId,
  type ApiOrder,
  type ApiOrderHeader,
} from "../orders/api-order";
import {
  callShopify,
  type QueryCost,
  type ShopifyAnswer,
} from "../plan-actions/shopify-calls.server";
import type { AdminGraphql } from "../services/admin-api.server";
import type { AdminData, AdminOperation, AdminVariables } from "../services/admin-api.server";
import { ignoredPlacements, recoverOrders, type RecoveredOrder } from "./recover.server";
import { waitForShareMs } from "./throttle-share";
import { countThrottleWait, metrics } from "../metrics/registry.server";

/*
 * One reconciliation run of a shop (issue 17, decision 029): the orders updated since the
 * watermark (less the overlap) are listed, oldest update first; those whose events the outbox
 * lacks are read whole and their missing events recorded. The watermark moves page by page,
 * only past orders fully processed, so a run that stops is taken up where it stopped.
 */

export interface ReconcileSettings {
  intervalMs: number;
  overlapMs: number;
  settleMs: number;
  editSettleMs: number;
  bucketShare: number;
  warnAfterRuns: number;
  /** Orders per list page: about 11 points each, so a page stays near 550. */
  pageSize: number;
}

export function reconcileSettingsOf(env: ReturnType<typeof parseReconcileEnv>): ReconcileSettings {
  return {
    intervalMs: env.SVC_RECONCILE_INTERVAL_MINUTES * 60_000,
    overlapMs: env.SVC_RECONCILE_OVERLAP_MINUTES * 60_000,
    settleMs: env.SVC_RECONCILE_SETTLE_SECONDS * 1_000,
    editSettleMs: env.SVC_RECONCILE_EDIT_SETTLE_MINUTES * 60_000,
    bucketShare: env.SVC_RECONCILE_BUCKET_SHARE,
    warnAfterRuns: env.SVC_RECONCILE_WARN_AFTER_RUNS,
    pageSize: 50,
  };
}

export type RunTrigger = "schedule" | "merchant" | "cli";

export interface RunRequest {
  shop: string;
  trigger: RunTrigger;
  /** Read orders updated after this instead of the watermark; the watermark is left alone. */
  since?: Date;
  dryRun?: boolean;
}

export interface RunSummary {
  runId: string;
  status: "completed" | "failed";
  since: Date;
  until: Date | null;
  ordersChecked: number;
  eventsRecovered: number;
  pointsUsed: number;
  detail: string;
  recovered: RecoveredOrder[];
}

export interface RunDependencies {
  db: AppPrismaClient;
  admin: AdminGraphql;
  settings: ReconcileSettings;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** Called after each page: the worker renews its lease here. */
  onProgress?: () => Promise<void>;
}

/** Calls that fail for a passing reason are tried this often before the run gives up. */
const MAX_RETRIES = 3;

export class RunFailure extends Error {}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The Admin API through the shop's share of its bucket: throttles wait, passing failures retry. */
export class SharedBucketCaller {
  pointsUsed = 0;
  private last: QueryCost | undefined;
  private readonly lastCost = new Map<string, number>();

  constructor(private readonly deps: RunDependencies) {}

  async call<Operation extends AdminOperation>(
    query: Operation,
    variables: AdminVariables<Operation>,
  ): Promise<AdminData<Operation>> {
    const sleep = this.deps.sleep ?? defaultSleep;
    for (let retries = 0; ;) {
      const wait = waitForShareMs(
        this.last,
        this.deps.settings.bucketShare,
        this.lastCost.get(query) ?? 0,
      );
      if (wait > 0) {
        countThrottleWait("reconcile", wait);
        await sleep(wait);
      }
      const answer: ShopifyAnswer<AdminData<Operation>> = await callShopify(
        this.deps.admin,
        { query, variables },
        "reconcile",
      );
      switch (answer.kind) {
        case "ok":
          this.last = answer.cost;
          this.pointsUsed += answer.cost?.actualQueryCost ?? answer.cost?.requestedQueryCost ?? 0;
          if (answer.cost?.requestedQueryCost !== undefined)
            this.lastCost.set(query, answer.cost.requestedQueryCost);
          return answer.data;
        case "throttled":
          // Others emptied the shared bucket. The wait before the retry refills it up to the
          // reserve as well, when Shopify said how full it is.
          this.last = answer.cost;
          if (!answer.cost?.throttleStatus) {
            countThrottleWait("reconcile", answer.retryAfterMs);
            await sleep(answer.retryAfterMs);
          }
          if (answer.cost?.requestedQueryCost !== undefined)
            this.lastCost.set(query, answer.cost.requestedQueryCost);
          continue;
        case "retryable":
          retries += 1;
          if (retries > MAX_RETRIES) throw new RunFailure(answer.detail);
          await sleep(1_000 * 2 ** retries);
          continue;
        case "refused":
          throw new RunFailure(answer.detail);
      }
    }
  }
}

function searchQuery(since: Date, until: Date, reportFrom: Date): string {
  return [
    `updated_at:>'${since.toISOString()}'`,
    `updated_at:<='${until.toISOString()}'`,
    `created_at:>='${reportFrom.toISOString()}'`,
  ].join(" AND ");
}

interface RunTotals {
  ordersChecked: number;
  eventsRecovered: number;
  recovered: RecoveredOrder[];
  readAgain: DeferredOrder[];
}

/** Orders read whole by ID, one call each; an order Shopify no longer has is left out. */
export async function readOrdersWhole(
  caller: SharedBucketCaller,
  orderIds: string[],
): Promise<ApiOrder[]> {
  const orders: ApiOrder[] = [];
  for (const orderId of orderIds) {
    const data = await caller.call(RECONCILE_ORDER_QUERY, { id: `gid://shopify/Order/${orderId}` });
    if (data.order) orders.push(data.order);
  }
  return orders;
}

/** Runs one shop; never throws for a Shopify failure (the run is recorded as failed). */
export async function runReconciliation(
  deps: RunDependencies,
  request: RunRequest,
): Promise<RunSummary> {
  const { db, settings } = deps;
  const now = deps.now ?? (() => new Date());
  const { shop, trigger } = request;
  const dryRun = request.dryRun ?? false;
  const startedAt = now();
  const state = await ensureReconcileState(db, shop, startedAt);
  const since = request.since ?? new Date(state.watermark.getTime() - settings.overlapMs);
  const until = new Date(startedAt.getTime() - settings.settleMs);
  const reportFrom =
    request.since && request.since < state.reportFrom ? request.since : state.reportFrom;
  const run = await db.reconcileRun.create({ data: { shop, trigger, dryRun, since, startedAt } });
  const caller = new SharedBucketCaller(deps);
  const totals: RunTotals = { ordersChecked: 0, eventsRecovered: 0, recovered: [], readAgain: [] };
  const moveWatermark = !dryRun && request.since === undefined;
  const recoverOptions = {
    shop,
    recoveredBy: "reconciliation" as const,
    dryRun,
    editSettleMs: settings.editSettleMs,
  };

  async function readWhole(orderIds: string[]) {
    const orders = await readOrdersWhole(caller, orderIds);
    const result = await recoverOrders(db, orders, { ...recoverOptions, now: now() });
    totals.eventsRecovered += result.eventsRecovered;
    totals.recovered.push(...result.recovered);
    totals.readAgain.push(...result.readAgain);
  }

  let reached: Date | null = null;
  let failure: string | null = null;
  const deferred = deferredOrdersOf(state.deferredOrders);
  const due = deferred.filter((entry) => Date.parse(entry.dueAt) <= startedAt.getTime());
  try {
    await readWhole(due.map((entry) => entry.orderId));
    let after: string | null = null;
    for (;;) {
      const data: AdminData<typeof RECONCILE_ORDER_LIST_QUERY> = await caller.call(
        RECONCILE_ORDER_LIST_QUERY,
        {
          first: settings.pageSize,
          after,
          query: searchQuery(since, until, reportFrom),
        },
      );
      const headers: ApiOrderHeader[] = data.orders.nodes;
      const keys = new Set(
        (
          await db.outboxEvent.findMany({
            where: { shop, dedupeKey: { in: headers.flatMap(headerKeys) } },
            select: { dedupeKey: true },
          })
        ).map((row) => row.dedupeKey),
      );
      const ignored = await ignoredPlacements(db, shop, headers.map(orderNumericId));
      const incomplete = headers.filter(
        (header) =>
          !headerLooksComplete(header, (key) => keys.has(key), ignored.has(orderNumericId(header))),
      );
      await readWhole(incomplete.map(orderNumericId));
      totals.ordersChecked += headers.length;
      const last = headers.at(-1);
      if (last) reached = new Date(last.updatedAt);
      if (moveWatermark && reached) {
        await db.reconcileState.update({ where: { shop }, data: { watermark: reached } });
      }
      await deps.onProgress?.();
      if (!data.orders.pageInfo.hasNextPage) break;
      after = data.orders.pageInfo.endCursor ?? null;
    }
    reached = until;
  } catch (error) {
    if (!(error instanceof RunFailure)) throw error;
    failure = error.message;
  }

  const finishedAt = now();
  const detail = failure
    ? `Stopped: ${failure}`
    : `${totals.ordersChecked} order(s) checked, ${totals.eventsRecovered} event(s) ${dryRun ? "missing" : "recovered"}`;
  await db.reconcileRun.update({
    where: { id: run.id },
    data: {
      status: failure ? "failed" : "completed",
      until: reached,
      ordersChecked: totals.ordersChecked,
      eventsRecovered: totals.eventsRecovered,
      pointsUsed: caller.pointsUsed,
      detail,
      finishedAt,
    },
  });
  if (!dryRun) {
    const notDue = deferred.filter((entry) => !due.includes(entry));
    await db.reconcileState.update({
      where: { shop },
      data: {
        ...(moveWatermark && !failure ? { watermark: until } : {}),
        // Due orders that failed to be read stay due.
        deferredOrders: JSON.stringify(
          mergeDeferredOrders(failure ? deferred : notDue, totals.readAgain),
        ),
        lastRunId: run.id,
        nextRunAt: new Date(finishedAt.getTime() + (settings.intervalMs || 86_400_000)),
        requestedAt: null,
        // Only a run of the whole window since the watermark says whether webhooks are lost.
        recoveringRunsInARow:
          failure || !moveWatermark ? undefined : totals.eventsRecovered > 0 ? { increment: 1 } : 0,
      },
    });
  }
  metrics.reconcileRuns.inc({ result: failure ? "failed" : "ok" });
  if (!dryRun) metrics.reconcileRecoveredEvents.inc(totals.eventsRecovered);
  metrics.reconcilePointsUsed.inc(caller.pointsUsed);
  logger[failure ? "warn" : "info"](
    {
      shop,
      runId: run.id,
      trigger,
      dryRun,
      ...totals,
      recovered: totals.recovered.length,
      readAgain: totals.readAgain.length,
      pointsUsed: caller.pointsUsed,
    },
    `Reconciliation of ${shop}: ${detail}`,
  );
  return {
    runId: run.id,
    status: failure ? "failed" : "completed",
    since,
    until: reached,
    ordersChecked: totals.ordersChecked,
    eventsRecovered: totals.eventsRecovered,
    pointsUsed: caller.pointsUsed,
    detail,
    recovered: totals.recovered,
  };
}
