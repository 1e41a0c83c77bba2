import { DAY_MS } from "./dashboard";

/*
 * How the admin shows reconciliation (issue 17): the home page's card and warning, and the
 * Connection page's backfill offer. Pure, so the loaders, the pages and the unit tests share it.
 * Dates of the backfill form are days in UTC, as every date the admin shows.
 */

/**
 * What "Reconcile now" answers: a run asked for, or why none was: one already waits, one is
 * running (it would clear the request when it ends), or the shop is not reconciled.
 */
export interface ReconcileNowResult {
  intent: "reconcile_now";
  outcome: "queued" | "already_queued" | "running" | "not_reconciled";
}

/** Form intent of the home page's "Reconcile now" button. */
export const RECONCILE_NOW: ReconcileNowResult["intent"] = "reconcile_now";

/** A shop's reconciliation at this moment: a run holds the lease, one is asked for, or neither. */
export type ReconcileActivity = "running" | "queued" | "idle";

export function reconcileActivity(
  state: { requestedAt: Date | null; leaseExpiresAt: Date | null } | null,
  now: Date,
): ReconcileActivity {
  if (!state) return "idle";
  if (state.leaseExpiresAt && state.leaseExpiresAt > now) return "running";
  return state.requestedAt ? "queued" : "idle";
}

/** When the schedule runs the shop next: never (switched off), at the next round, or at a time. */
export type NextRun = { kind: "off" } | { kind: "due" } | { kind: "at"; at: string };

/**
 * A shop without a state yet is due at once (the worker creates it on its first run), as is
 * one whose time has come and not yet been taken.
 */
export function nextRunOf(intervalMinutes: number, nextRunAt: Date | null, now: Date): NextRun {
  if (intervalMinutes === 0) return { kind: "off" };
  if (!nextRunAt || nextRunAt <= now) return { kind: "due" };
  return { kind: "at", at: nextRunAt.toISOString() };
}

/**
 * Runs that recovered events one after another mean Shopify's webhooks are being lost, not
 * merely late: the merchant is told once the count reaches the configured threshold.
 */
export function webhooksGoingMissing(recoveringRunsInARow: number, warnAfterRuns: number) {
  return recoveringRunsInARow >= warnAfterRuns;
}

/** A moment's day in UTC, as a date field holds it (YYYY-MM-DD). */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A day (or the day of a moment) in the admin's language, in UTC as the form's days are. */
export function formatUtcDay(dayOrIso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(dayOrIso));
}

/**
 * The date the backfill form offers: as far back as Shopify lets the app read orders. A later
 * default would be of little use, since the orders after the shop's report start are reported
 * already. With `read_all_orders` (no earliest date) it offers the same span back.
 */
export function defaultBackfillDay(now: Date, earliest: Date | null, recentDays: number): string {
  return dayOf(earliest ?? new Date(now.getTime() - recentDays * DAY_MS));
}

/**
 * The moment a backfill from `day` starts: the day's start in UTC. On the earliest day Shopify
 * allows, that start lies before the earliest moment, so it starts there instead: the day the
 * field offers as its minimum is accepted.
 */
export function backfillSinceOfDay(day: string, earliest: Date | null): Date {
  const start = new Date(`${day}T00:00:00.000Z`);
  if (earliest && dayOf(earliest) === day && start < earliest) return earliest;
  return start;
}

/** A date field's value: a real calendar day (2025-02-30 is not one). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && dayOf(date) === value;
}

export type BackfillStatus = "requested" | "running" | "reading" | "completed" | "failed";

/** A stored backfill status the page knows; anything else shows as none. */
export function backfillStatusOf(value: string | null): BackfillStatus | null {
  return value === "requested" ||
    value === "running" ||
    value === "reading" ||
    value === "completed" ||
    value === "failed"
    ? value
    : null;
}

/** Whether a backfill is under way: the form waits until it ends. */
export function backfillUnderWay(status: BackfillStatus | null): boolean {
  return status === "requested" || status === "running" || status === "reading";
}

/** The progress bar's value in percent; null until the total is known. */
export function backfillPercent(done: number, total: number | null): number | null {
  if (total === null) return null;
  if (total <= 0) return 100;
  return Math.min(100, Math.round((done / total) * 100));
}
