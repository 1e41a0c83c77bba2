import type { AppPrismaClient } from "../db/client.server";
import type { AppEnv } from "../env.server";
import type { Logger } from "../logger.server";
import {
  earliestBackfillDate,
  RECENT_ORDERS_DAYS,
  RECONCILED_STATUSES,
  requestBackfill,
  requestReconcileRun,
} from "../models/ReconcileState.server";
import type { ConnectionActionData } from "./connection-form";
import {
  backfillSinceOfDay,
  backfillStatusOf,
  dayOf,
  defaultBackfillDay,
  nextRunOf,
  RECONCILE_NOW,
  reconcileActivity,
  webhooksGoingMissing,
  type ReconcileNowResult,
} from "./reconciliation";

// Reconciliation in the admin (issue 17): the home page's card and its "Reconcile now", and the
// Connection page's backfill. Every read and write is scoped to the session's shop.

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The settings the card shows: the schedule, and when lost webhooks are worth a warning. */
export interface ReconcileSettings {
  intervalMinutes: number;
  warnAfterRuns: number;
}

export function reconcileSettingsOf(env: AppEnv): ReconcileSettings {
  return {
    intervalMinutes: env.SVC_RECONCILE_INTERVAL_MINUTES,
    warnAfterRuns: env.SVC_RECONCILE_WARN_AFTER_RUNS,
  };
}

/** The shop's connection when its orders are reconciled (it has keys and the app); else null. */
async function reconciledConnection(db: AppPrismaClient, shop: string) {
  const connection = await db.shopConnection.findUnique({
    where: { shop },
    select: { status: true, grantedScopes: true, installedAt: true },
  });
  return connection && RECONCILED_STATUSES.includes(connection.status) ? connection : null;
}

/**
 * The home page's card: the last run with its figures, the next scheduled one, whether a run
 * is asked for or under way, and whether lost webhooks call for a warning. Reads only: a shop
 * without a state yet shows as never run.
 */
export async function loadReconciliationCard(
  db: AppPrismaClient,
  shop: string,
  settings: ReconcileSettings,
  now: Date,
) {
  if (!(await reconciledConnection(db, shop))) return { applies: false as const };
  const state = await db.reconcileState.findUnique({ where: { shop } });
  const lastRun = state?.lastRunId
    ? await db.reconcileRun.findFirst({ where: { id: state.lastRunId, shop } })
    : null;
  const recoveringRunsInARow = state?.recoveringRunsInARow ?? 0;
  return {
    applies: true as const,
    activity: reconcileActivity(state, now),
    intervalMinutes: settings.intervalMinutes,
    nextRun: nextRunOf(settings.intervalMinutes, state?.nextRunAt ?? null, now),
    lastRun: lastRun && {
      trigger: lastRun.trigger,
      status: lastRun.status,
      startedAt: lastRun.startedAt.toISOString(),
      finishedAt: iso(lastRun.finishedAt),
      ordersChecked: lastRun.ordersChecked,
      eventsRecovered: lastRun.eventsRecovered,
      pointsUsed: lastRun.pointsUsed,
      detail: lastRun.detail,
    },
    recoveringRunsInARow,
    webhooksMissing: webhooksGoingMissing(recoveringRunsInARow, settings.warnAfterRuns),
  };
}

export type ReconciliationCard = Awaited<ReturnType<typeof loadReconciliationCard>>;

/**
 * The merchant's "Reconcile now". It asks once: a run already asked for or under way is left as
 * it is (a running one clears the request when it ends, so asking then would be lost anyway).
 */
export async function reconcileNowForShop(
  db: AppPrismaClient,
  shop: string,
  now: Date,
  log: Logger,
): Promise<ReconcileNowResult> {
  const answer = (outcome: ReconcileNowResult["outcome"]): ReconcileNowResult => ({
    intent: RECONCILE_NOW,
    outcome,
  });
  if (!(await reconciledConnection(db, shop))) return answer("not_reconciled");
  const state = await db.reconcileState.findUnique({ where: { shop } });
  const activity = reconcileActivity(state, now);
  if (activity === "running") return answer("running");
  if (activity === "queued") return answer("already_queued");
  await requestReconcileRun(db, shop, now);
  log.info({ shop }, "Reconciliation run requested in the admin");
  return answer("queued");
}

/**
 * The Connection page's backfill offer: how far back Shopify lets the app read orders, the
 * date to offer, where the shop's reports start, and the last backfill's progress or outcome.
 */
export async function loadBackfillOffer(db: AppPrismaClient, shop: string, now: Date) {
  const connection = await reconciledConnection(db, shop);
  if (!connection) return { applies: false as const };
  const state = await db.reconcileState.findUnique({ where: { shop } });
  const earliest = earliestBackfillDate(now, connection.grantedScopes);
  const status = backfillStatusOf(state?.backfillStatus ?? null);
  return {
    applies: true as const,
    recentOrdersDays: RECENT_ORDERS_DAYS,
    /** Null when Shopify granted `read_all_orders`: any date in the past. */
    earliestDay: earliest && dayOf(earliest),
    defaultDay: defaultBackfillDay(now, earliest, RECENT_ORDERS_DAYS),
    today: dayOf(now),
    // Before its first run the shop reports from its install, as its state will say.
    reportFrom: (state?.reportFrom ?? connection.installedAt).toISOString(),
    backfill:
      state && status
        ? {
            status,
            since: iso(state.backfillSince),
            ordersDone: state.backfillOrdersDone,
            ordersTotal: state.backfillOrdersTotal,
            ordersToRead: idCount(state.backfillToRead),
            eventsRecovered: state.backfillEventsRecovered,
            detail: state.backfillDetail,
            finishedAt: iso(state.backfillFinishedAt),
          }
        : null,
  };
}

export type BackfillOffer = Awaited<ReturnType<typeof loadBackfillOffer>>;

/** How many orders a stored JSON list of IDs holds; nothing readable counts as none. */
function idCount(text: string): number {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.length : 0;
  } catch {
    return 0;
  }
}

const BACKFILL_REFUSALS = {
  too_old: "connection.backfill.errors.tooOld",
  in_future: "connection.backfill.errors.inFuture",
  running: "connection.backfill.errors.running",
} as const;

/** "Report orders since this date": a refusal is an error of the date field. */
export async function requestBackfillForShop(
  db: AppPrismaClient,
  shop: string,
  day: string,
  now: Date,
  log: Logger,
): Promise<ConnectionActionData> {
  const intent = "request_backfill";
  const connection = await reconciledConnection(db, shop);
  if (!connection) {
    return {
      ok: false,
      intent,
      environment: null,
      errors: { form: "connection.backfill.errors.notReconciled" },
    };
  }
  const since = backfillSinceOfDay(day, earliestBackfillDate(now, connection.grantedScopes));
  const result = await requestBackfill(db, shop, since, now);
  if (!result.ok) {
    return {
      ok: false,
      intent,
      environment: null,
      errors: { since: BACKFILL_REFUSALS[result.reason] },
    };
  }
  log.info({ shop, since: since.toISOString() }, "Backfill requested in the admin");
  return { ok: true, intent, environment: null, notice: "connection.backfill.requested" };
}
