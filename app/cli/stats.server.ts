import type { AppPrismaClient } from "../db/client.server";
import { OPEN_STATUSES } from "../models/outbox-status";

// `npm run svc -- stats` (issue 28, decision 049): the fleet at a glance, from one query per kind
// over all shops (never one per shop), and what in it needs someone's attention.

export interface LastReconciliation {
  startedAt: string;
  finishedAt: string | null;
  status: string;
  eventsRecovered: number;
  detail: string | null;
}

export interface ShopStats {
  shop: string;
  /** The connection's status, or "unknown" for events of a shop without one. */
  status: string;
  pending: number;
  delivering: number;
  failed: number;
  dead: number;
  /** The oldest event not yet delivered (pending, failed or being delivered). */
  oldestPendingAt: string | null;
  oldestPendingAgeSeconds: number | null;
  /** Environments whose delivery is paused: the service refused the key, or it cannot be opened. */
  paused: string[];
  lastReconciliation: LastReconciliation | null;
  /** Why this shop needs attention; empty when it does not. */
  attention: string[];
}

export interface FleetStats {
  generatedAt: string;
  pendingMinutes: number;
  needsAttention: boolean;
  shops: ShopStats[];
}

type Connection = {
  shop: string;
  status: string;
  sandboxKeyRejectedAt: Date | null;
  liveKeyRejectedAt: Date | null;
};

function pausedEnvironments(connection: Connection | undefined): string[] {
  if (!connection || connection.status === "uninstalled") return [];
  if (connection.status === "secret_unreadable") return ["sandbox", "production"];
  return [
    ...(connection.sandboxKeyRejectedAt ? ["sandbox"] : []),
    ...(connection.liveKeyRejectedAt ? ["production"] : []),
  ];
}

/** The latest run of each shop that is not a dry run, in one statement. */
async function lastRuns(db: AppPrismaClient) {
  const latest = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT r.id FROM "ReconcileRun" r
     WHERE r."dryRun" = false AND r."startedAt" = (
       SELECT MAX(x."startedAt") FROM "ReconcileRun" x WHERE x.shop = r.shop AND x."dryRun" = false)`,
  );
  if (!latest.length) return [];
  return db.reconcileRun.findMany({ where: { id: { in: latest.map((row) => row.id) } } });
}

export async function readFleetStats(
  db: AppPrismaClient,
  options: { now: Date; pendingMinutes: number },
): Promise<FleetStats> {
  const [counts, oldest, connections, runs] = await Promise.all([
    db.outboxEvent.groupBy({
      by: ["shop", "status"],
      where: { status: { in: [...OPEN_STATUSES, "dead"] } },
      _count: { _all: true },
    }),
    db.outboxEvent.groupBy({
      by: ["shop"],
      where: { status: { in: [...OPEN_STATUSES] } },
      _min: { createdAt: true },
    }),
    db.shopConnection.findMany({
      select: { shop: true, status: true, sandboxKeyRejectedAt: true, liveKeyRejectedAt: true },
    }),
    lastRuns(db),
  ]);

  const shops = new Set<string>([
    ...connections.map((connection) => connection.shop),
    ...counts.map((group) => group.shop),
  ]);
  const connectionOf = new Map(connections.map((connection) => [connection.shop, connection]));
  const oldestOf = new Map(oldest.map((group) => [group.shop, group._min.createdAt]));
  const runOf = new Map(runs.map((run) => [run.shop, run]));
  const countOf = (shop: string, status: string) =>
    counts.find((group) => group.shop === shop && group.status === status)?._count._all ?? 0;

  const stats = [...shops].sort().map((shop): ShopStats => {
    const oldestPending = oldestOf.get(shop) ?? null;
    const ageSeconds = oldestPending
      ? Math.max(0, Math.floor((options.now.getTime() - oldestPending.getTime()) / 1_000))
      : null;
    const run = runOf.get(shop);
    const entry: ShopStats = {
      shop,
      status: connectionOf.get(shop)?.status ?? "unknown",
      pending: countOf(shop, "pending"),
      delivering: countOf(shop, "delivering"),
      failed: countOf(shop, "failed"),
      dead: countOf(shop, "dead"),
      oldestPendingAt: oldestPending?.toISOString() ?? null,
      oldestPendingAgeSeconds: ageSeconds,
      paused: pausedEnvironments(connectionOf.get(shop)),
      lastReconciliation: run
        ? {
            startedAt: run.startedAt.toISOString(),
            finishedAt: run.finishedAt?.toISOString() ?? null,
            status: run.status,
            eventsRecovered: run.eventsRecovered,
            detail: run.detail,
          }
        : null,
      attention: [],
    };
    if (entry.dead) entry.attention.push(`${entry.dead} dead event${entry.dead === 1 ? "" : "s"}`);
    if (entry.paused.length) entry.attention.push(`delivery paused (${entry.paused.join(", ")})`);
    if (ageSeconds !== null && ageSeconds > options.pendingMinutes * 60) {
      entry.attention.push(
        `oldest pending event ${Math.floor(ageSeconds / 60)} min old (over ${options.pendingMinutes})`,
      );
    }
    if (run?.status === "failed") entry.attention.push("last reconciliation failed");
    return entry;
  });

  return {
    generatedAt: options.now.toISOString(),
    pendingMinutes: options.pendingMinutes,
    needsAttention: stats.some((entry) => entry.attention.length > 0),
    shops: stats,
  };
}

/** A duration as an operator reads it: 42s, 17m, 5h 3m, 2d 4h. */
export function formatAge(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}
