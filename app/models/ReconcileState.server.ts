import type { AppPrismaClient } from "../db/client.server";

/*
 * Each shop's reconciliation state (issue 17, decision 029): where its watermark stands, when
 * its next run is due, and the lease a run holds so that two processes never run one shop at
 * once (the outbox's keys would keep them from recording anything twice; the lease keeps them
 * from spending the shop's API points twice).
 */

/** Connections whose orders are reconciled: the shop has keys and has the app. */
export const RECONCILED_STATUSES = ["connected", "key_rejected"];

export interface DeferredOrder {
  orderId: string;
  dueAt: string;
}

/** The stored list of orders to read again; anything unreadable counts as none. */
export function deferredOrdersOf(text: string): DeferredOrder[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (entry): entry is DeferredOrder =>
        typeof entry?.orderId === "string" && typeof entry?.dueAt === "string",
    );
  } catch {
    return [];
  }
}

/** The list with `added` merged in: one entry per order, the later due time winning. */
export function mergeDeferredOrders(list: DeferredOrder[], added: DeferredOrder[]) {
  const byOrder = new Map(list.map((entry) => [entry.orderId, entry]));
  for (const entry of added) {
    const known = byOrder.get(entry.orderId);
    if (!known || Date.parse(entry.dueAt) > Date.parse(known.dueAt))
      byOrder.set(entry.orderId, entry);
  }
  return [...byOrder.values()];
}

/** Adds orders to read again later to the shop's list (under the shop's lease). */
export async function addDeferredOrders(db: AppPrismaClient, shop: string, added: DeferredOrder[]) {
  if (!added.length) return;
  const state = await db.reconcileState.findUniqueOrThrow({
    where: { shop },
    select: { deferredOrders: true },
  });
  await db.reconcileState.update({
    where: { shop },
    data: {
      deferredOrders: JSON.stringify(
        mergeDeferredOrders(deferredOrdersOf(state.deferredOrders), added),
      ),
    },
  });
}

/**
 * The shop's state, created on first use: it reports the orders created since the app was
 * installed, and a backfill can reach further back.
 */
export async function ensureReconcileState(db: AppPrismaClient, shop: string, now: Date) {
  const existing = await db.reconcileState.findUnique({ where: { shop } });
  if (existing) return existing;
  const connection = await db.shopConnection.findUnique({
    where: { shop },
    select: { installedAt: true },
  });
  const from = connection?.installedAt ?? now;
  return db.reconcileState.upsert({
    where: { shop },
    create: { shop, reportFrom: from, watermark: from, nextRunAt: now },
    update: {},
  });
}

/**
 * A new installation of the shop starts reconciliation afresh (issue 27): the state of an
 * earlier one (its watermark, deferred orders, backfill and lease) would read, and "recover",
 * the orders of the time the app was gone. The next run creates it from the new install time.
 */
export function resetReconcileState(db: AppPrismaClient, shop: string) {
  return db.reconcileState.deleteMany({ where: { shop } });
}

/** Whether a backfill has steps left: asked for, its bulk query running, or reading orders. */
export function isBackfillActive(status: string | null): boolean {
  return status === "requested" || status === "running" || status === "reading";
}

/** Takes the shop's lease when no live run holds it; false when another one does. */
export async function claimReconcileLease(
  db: AppPrismaClient,
  shop: string,
  owner: string,
  now: Date,
  leaseMs: number,
): Promise<boolean> {
  const { count } = await db.reconcileState.updateMany({
    where: {
      shop,
      OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }, { leaseOwner: owner }],
    },
    data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
  });
  return count === 1;
}

export async function releaseReconcileLease(db: AppPrismaClient, shop: string, owner: string) {
  await db.reconcileState.updateMany({
    where: { shop, leaseOwner: owner },
    data: { leaseOwner: null, leaseExpiresAt: null },
  });
}

/** The merchant's "Reconcile now": the worker runs the shop at its next poll. */
export async function requestReconcileRun(db: AppPrismaClient, shop: string, now: Date) {
  await ensureReconcileState(db, shop, now);
  await db.reconcileState.update({ where: { shop }, data: { requestedAt: now } });
}

/**
 * Shops with work due: a run (by schedule or request) or a backfill step. Shops seen for the
 * first time have no state yet: they are due at once.
 */
export async function shopsDueForReconciliation(
  db: AppPrismaClient,
  now: Date,
  scheduled: boolean,
  limit = 50,
): Promise<string[]> {
  const connections = await db.shopConnection.findMany({
    where: { status: { in: RECONCILED_STATUSES } },
    select: { shop: true },
  });
  if (!connections.length) return [];
  const shops = connections.map((row) => row.shop);
  const states = await db.reconcileState.findMany({
    where: { shop: { in: shops } },
    select: {
      shop: true,
      nextRunAt: true,
      requestedAt: true,
      backfillStatus: true,
      leaseExpiresAt: true,
    },
  });
  const byShop = new Map(states.map((state) => [state.shop, state]));
  const due = shops.filter((shop) => {
    const state = byShop.get(shop);
    if (!state) return scheduled;
    if (state.leaseExpiresAt && state.leaseExpiresAt > now) return false;
    return (
      state.requestedAt !== null ||
      isBackfillActive(state.backfillStatus) ||
      (scheduled && state.nextRunAt <= now)
    );
  });
  return due.slice(0, limit);
}

/** How far back Shopify lets an app read orders without the `read_all_orders` scope. */
export const RECENT_ORDERS_DAYS = 60;

export type BackfillRequestResult =
  | { ok: true; since: Date }
  | { ok: false; reason: "too_old" | "in_future" | "running"; earliest: Date };

/** The earliest date a backfill may start from, with or without `read_all_orders`. */
export function earliestBackfillDate(now: Date, grantedScopes: string | null): Date | null {
  const scopes = (grantedScopes ?? "").split(",").map((scope) => scope.trim());
  if (scopes.includes("read_all_orders")) return null;
  return new Date(now.getTime() - RECENT_ORDERS_DAYS * 86_400_000);
}

/**
 * Asks for the orders created since `since` to be reported (the worker runs it as a bulk
 * operation). The shop then reports from that date on: later runs reconcile those orders too.
 */
export async function requestBackfill(
  db: AppPrismaClient,
  shop: string,
  since: Date,
  now: Date,
): Promise<BackfillRequestResult> {
  const state = await ensureReconcileState(db, shop, now);
  const connection = await db.shopConnection.findUnique({
    where: { shop },
    select: { grantedScopes: true },
  });
  const earliest = earliestBackfillDate(now, connection?.grantedScopes ?? null);
  const floor = earliest ?? new Date(0);
  if (isBackfillActive(state.backfillStatus))
    return { ok: false, reason: "running", earliest: floor };
  if (since > now) return { ok: false, reason: "in_future", earliest: floor };
  if (earliest && since < earliest) return { ok: false, reason: "too_old", earliest };
  await db.reconcileState.update({
    where: { shop },
    data: {
      reportFrom: since < state.reportFrom ? since : state.reportFrom,
      backfillStatus: "requested",
      backfillSince: since,
      backfillOperationId: null,
      backfillOrdersDone: 0,
      backfillToRead: "[]",
      backfillOrdersTotal: null,
      backfillEventsRecovered: 0,
      backfillDetail: null,
      backfillStartedAt: now,
      backfillFinishedAt: null,
    },
  });
  return { ok: true, since };
}
