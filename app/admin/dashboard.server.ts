import type { AppPrismaClient } from "../db/client.server";
import {
  dashboardFrom,
  eventWindows,
  type Dashboard,
  type DashboardFacts,
  type OrderCount,
} from "./dashboard";

/**
 * The home page's figures for one shop and environment. Every query is a range on an index
 * (OutboxEvent [shop, createdAt], OrderSummary [shop, placedAt], ProtectableVariant's key) and
 * counts or sums in SQL. The attach rate also counts the last 7 days' orders without a plan per
 * distinct variant list (many orders share one), and only when the storefront has offered plans
 * for some variant.
 */
export async function homeDashboard(
  db: AppPrismaClient,
  shop: string,
  environment: string,
  now = new Date(),
): Promise<Dashboard> {
  return dashboardFrom(await gatherDashboardFacts(db, shop, environment, now));
}

export async function gatherDashboardFacts(
  db: AppPrismaClient,
  shop: string,
  environment: string,
  now: Date,
): Promise<DashboardFacts> {
  const windows = eventWindows(now);
  const since7d = windows[0]!.start;
  const since24h = windows[windows.length - 1]!.start;
  const ordersWithoutPlan = async () => {
    const protectable = await db.protectableVariant.findMany({
      where: { shop },
      select: { variantId: true },
    });
    if (protectable.length === 0) return { protectable: [], orders: [] };
    const lists = await db.orderSummary.groupBy({
      by: ["variantIds"],
      where: { shop, environment, placedAt: { gte: since7d }, planLineCount: 0 },
      _count: { _all: true },
    });
    return {
      protectable: protectable.map((row) => row.variantId),
      orders: lists.map((row) => ({ variantIds: row.variantIds, orders: row._count._all })),
    };
  };
  const [eventCounts, ordersLast24h, ordersLast7d, attach] = await Promise.all([
    Promise.all(
      windows.map(async (window, index) => {
        // The last window stays open at its end: an event recorded during this query counts.
        const isLast = index === windows.length - 1;
        const rows = await db.outboxEvent.groupBy({
          by: ["status"],
          where: {
            shop,
            environment,
            createdAt: isLast ? { gte: window.start } : { gte: window.start, lt: window.end },
          },
          _count: { _all: true },
        });
        return rows.map((row) => ({ status: row.status, count: row._count._all }));
      }),
    ),
    orderCounts(db, shop, environment, since24h),
    orderCounts(db, shop, environment, since7d),
    ordersWithoutPlan(),
  ]);
  return {
    environment,
    now,
    eventCounts,
    ordersLast24h,
    ordersLast7d,
    ordersWithoutPlan: attach.orders,
    protectableVariantIds: attach.protectable,
  };
}

/** Orders placed since `since`, counted and their plan revenue summed per currency and plan lines. */
async function orderCounts(
  db: AppPrismaClient,
  shop: string,
  environment: string,
  since: Date,
): Promise<OrderCount[]> {
  const rows = await db.orderSummary.groupBy({
    by: ["currency", "planLineCount"],
    where: { shop, environment, placedAt: { gte: since } },
    _count: { _all: true },
    _sum: { planRevenue: true },
  });
  return rows.map((row) => ({
    currency: row.currency,
    planLineCount: row.planLineCount,
    orders: row._count._all,
    // Stored as 64-bit minor units; a JS number is exact up to 2^53 (9e15 minor units).
    planRevenue: Number(row._sum.planRevenue ?? 0),
  }));
}
