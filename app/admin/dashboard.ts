/**
 * The home page's figures as pure functions of aggregates the database computed
 * (dashboard.server.ts gathers them). Every window is a rolling one that ends when the page
 * was loaded, so "last 24 hours" is exactly the last bar of the chart and "last 7 days" is the
 * sum of its bars.
 */

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;
export const CHART_DAYS = 7;

/** [start, end) */
export interface TimeWindow {
  start: Date;
  end: Date;
}

/** Seven 24-hour windows ending at `now`, oldest first: the last one is "the last 24 hours". */
export function eventWindows(now: Date): TimeWindow[] {
  return Array.from({ length: CHART_DAYS }, (_, index) => {
    const daysBeforeEnd = CHART_DAYS - 1 - index;
    const end = new Date(now.getTime() - daysBeforeEnd * DAY_MS);
    return { start: new Date(end.getTime() - DAY_MS), end };
  });
}

export type EventCategory = "delivered" | "failed" | "waiting";

/**
 * Outbox statuses as a merchant reads them: `failed` is retrying, `dead` gave up and
 * `unprocessable` could not be mapped; each is a failure to look at.
 */
export function eventCategory(status: string): EventCategory | null {
  switch (status) {
    case "delivered":
      return "delivered";
    case "failed":
    case "dead":
    case "unprocessable":
      return "failed";
    case "pending":
    case "delivering":
      return "waiting";
    default:
      return null;
  }
}

export interface StatusCount {
  status: string;
  count: number;
}

export type EventTotals = Record<EventCategory, number>;

export function eventTotals(counts: readonly StatusCount[]): EventTotals {
  const totals: EventTotals = { delivered: 0, failed: 0, waiting: 0 };
  for (const { status, count } of counts) {
    const category = eventCategory(status);
    if (category) totals[category] += count;
  }
  return totals;
}

function addTotals(a: EventTotals, b: EventTotals): EventTotals {
  return {
    delivered: a.delivered + b.delivered,
    failed: a.failed + b.failed,
    waiting: a.waiting + b.waiting,
  };
}

/** The orders of one currency with one number of plan lines: how many, and their plan revenue. */
export interface OrderCount {
  currency: string;
  planLineCount: number;
  orders: number;
  /** Minor units of the currency. */
  planRevenue: number;
}

export interface MoneyAmount {
  /** Uppercase ISO 4217 code. */
  currency: string;
  /** Minor units of the currency. */
  amount: number;
}

export interface OrderTotals {
  reportedOrders: number;
  /** Orders with at least one plan line. */
  protectedOrders: number;
  /** One entry per currency with plan revenue, largest first. */
  planRevenue: MoneyAmount[];
}

export function orderTotals(rows: readonly OrderCount[]): OrderTotals {
  const revenue = new Map<string, number>();
  let reportedOrders = 0;
  let protectedOrders = 0;
  for (const row of rows) {
    reportedOrders += row.orders;
    if (row.planLineCount <= 0) continue;
    protectedOrders += row.orders;
    const code = row.currency.toUpperCase();
    revenue.set(code, (revenue.get(code) ?? 0) + row.planRevenue);
  }
  return {
    reportedOrders,
    protectedOrders,
    planRevenue: [...revenue.entries()]
      .map(([currency, amount]) => ({ currency, amount }))
      .sort((a, b) => b.amount - a.amount || a.currency.localeCompare(b.currency)),
  };
}

/** How many orders have this list of variant IDs (a JSON array, as OrderSummary keeps it). */
export interface VariantListCount {
  variantIds: string;
  orders: number;
}

export interface AttachRate {
  ordersWithPlan: number;
  ordersWithProtectableProduct: number;
  /** Between 0 and 1; null when no order had a protectable product. */
  rate: number | null;
}

function parseVariantIds(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Orders with a plan ÷ orders with a protectable product: one of its variants was offered a
 * plan on the storefront. An order with a plan had a protectable product even when the
 * storefront's note of it is missing, so the rate never passes 100%.
 *
 * @param ordersWithoutPlan the orders without a plan, counted per variant list (OrderSummary's
 *   JSON), so that each distinct list is read once
 */
export function attachRate(
  ordersWithPlan: number,
  ordersWithoutPlan: readonly VariantListCount[],
  protectableVariantIds: readonly string[],
): AttachRate {
  const protectable = new Set(protectableVariantIds);
  let ordersWithProtectableProduct = ordersWithPlan;
  if (protectable.size > 0) {
    for (const { variantIds, orders } of ordersWithoutPlan) {
      if (parseVariantIds(variantIds).some((id) => protectable.has(id))) {
        ordersWithProtectableProduct += orders;
      }
    }
  }
  return {
    ordersWithPlan,
    ordersWithProtectableProduct,
    rate: ordersWithProtectableProduct > 0 ? ordersWithPlan / ordersWithProtectableProduct : null,
  };
}

export interface DashboardFacts {
  environment: string;
  now: Date;
  /** For each window of eventWindows(now), the environment's events counted by status. */
  eventCounts: readonly (readonly StatusCount[])[];
  /** The environment's orders placed in the last 24 hours and in the last 7 days. */
  ordersLast24h: readonly OrderCount[];
  ordersLast7d: readonly OrderCount[];
  /**
   * The last 7 days' orders without a plan, counted per variant list; may be left empty when no
   * variant is protectable, as the attach rate then needs none.
   */
  ordersWithoutPlan: readonly VariantListCount[];
  protectableVariantIds: readonly string[];
}

export interface DashboardDay extends EventTotals {
  start: string;
  end: string;
}

export interface Dashboard {
  environment: string;
  generatedAt: string;
  /** Oldest first; the last day is the last 24 hours. */
  days: DashboardDay[];
  events: { last24h: EventTotals; last7d: EventTotals };
  orders: {
    last24h: OrderTotals;
    last7d: OrderTotals;
    /** Over the last 7 days. */
    attach: AttachRate;
  };
}

export function dashboardFrom(facts: DashboardFacts): Dashboard {
  const windows = eventWindows(facts.now);
  if (facts.eventCounts.length !== windows.length) {
    throw new Error(
      `Failed to build the dashboard: ${facts.eventCounts.length} event windows, expected ${windows.length}`,
    );
  }
  const days = windows.map((window, index) => ({
    start: window.start.toISOString(),
    end: window.end.toISOString(),
    ...eventTotals(facts.eventCounts[index] ?? []),
  }));
  const zero: EventTotals = { delivered: 0, failed: 0, waiting: 0 };
  const last = days[days.length - 1];
  const last7d = orderTotals(facts.ordersLast7d);
  return {
    environment: facts.environment,
    generatedAt: facts.now.toISOString(),
    days,
    events: {
      last24h: last
        ? { delivered: last.delivered, failed: last.failed, waiting: last.waiting }
        : zero,
      last7d: days.reduce<EventTotals>(addTotals, zero),
    },
    orders: {
      last24h: orderTotals(facts.ordersLast24h),
      last7d,
      attach: attachRate(
        last7d.protectedOrders,
        facts.ordersWithoutPlan,
        facts.protectableVariantIds,
      ),
    },
  };
}

/** True when the environment had no event and no order in the last 7 days. */
export function isQuiet(dashboard: Dashboard): boolean {
  const events = dashboard.events.last7d;
  return (
    events.delivered + events.failed + events.waiting === 0 &&
    dashboard.orders.last7d.reportedOrders === 0
  );
}

export function formatPercent(rate: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(rate);
}

export function formatCount(count: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(count);
}

/** A day of the chart by the date its window ends, in UTC so that server and browser agree. */
export function formatDay(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  }).format(new Date(iso));
}

/** A moment to the minute, in UTC (named) so that the server's render and the browser's agree. */
export function formatDateTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  }).format(new Date(iso));
}

/** The top of the chart's axis: the smallest 1, 2 or 5 × 10^n at or above the largest bar. */
export function chartAxisMax(largest: number): number {
  if (largest <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(largest));
  const step = [1, 2, 5, 10].find((factor) => factor * magnitude >= largest) ?? 10;
  return step * magnitude;
}
