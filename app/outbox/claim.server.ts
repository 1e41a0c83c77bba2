import { providerOfClient, type AppPrismaClient } from "../db/client.server";

export interface ClaimOptions {
  workerId: string;
  limit: number;
  now: Date;
  /** A claim older than this is presumed lost (its worker crashed) and may be taken again. */
  leaseMs: number;
}

/**
 * Claims up to `limit` events that are due, for one worker, and returns their IDs in send order.
 *
 * An event is due when its shop is connected (not paused by a rejected key, not uninstalled),
 * its time has come (or an earlier claim's lease ran out), and, unless it is the order's
 * order_placed, that order_placed was delivered and no earlier event of the order is still
 * open. So per order at most one event is in flight, and order_placed always goes first.
 *
 * On PostgreSQL the rows are locked with FOR UPDATE SKIP LOCKED: concurrent workers never
 * claim one row twice and never wait on each other. SQLite runs a single worker and its
 * writes are serialised anyway.
 */
export async function claimDueEvents(
  db: AppPrismaClient,
  options: ClaimOptions,
): Promise<number[]> {
  const postgres = providerOfClient(db) === "postgresql";
  const values: unknown[] = [];
  // SQLite numbers `?` by position and PostgreSQL by `$n`; each use gets its own parameter.
  const param = (value: unknown, cast = "") => {
    values.push(value);
    return postgres ? `$${values.length}${cast}` : "?";
  };
  const time = (date: Date) =>
    postgres ? param(date.toISOString().replace("Z", ""), "::timestamp") : param(date.getTime());
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const sql = `
    UPDATE "OutboxEvent"
    SET "status" = 'delivering', "claimedBy" = ${param(options.workerId)},
        "leaseExpiresAt" = ${time(leaseUntil)}, "updatedAt" = ${time(options.now)}
    WHERE "id" IN (
      SELECT e."id" FROM "OutboxEvent" e
      WHERE (
          (e."status" IN ('pending', 'failed') AND e."nextAttemptAt" <= ${time(options.now)})
          OR (e."status" = 'delivering' AND e."leaseExpiresAt" < ${time(options.now)})
        )
        AND EXISTS (
          SELECT 1 FROM "ShopConnection" c WHERE c."shop" = e."shop" AND c."status" = 'connected'
        )
        AND (
          e."eventType" = 'order_placed'
          OR (
            EXISTS (
              SELECT 1 FROM "OutboxEvent" p
              WHERE p."shop" = e."shop" AND p."orderId" = e."orderId"
                AND p."eventType" = 'order_placed' AND p."status" = 'delivered'
            )
            AND NOT EXISTS (
              SELECT 1 FROM "OutboxEvent" b
              WHERE b."shop" = e."shop" AND b."orderId" = e."orderId" AND b."id" < e."id"
                AND b."eventType" <> 'order_placed'
                AND b."status" IN ('pending', 'delivering', 'failed')
            )
          )
        )
      ORDER BY e."id"
      LIMIT ${param(options.limit)}
      ${postgres ? "FOR UPDATE OF e SKIP LOCKED" : ""}
    )
    RETURNING "id"`;
  const rows = await db.$queryRawUnsafe<{ id: number | bigint }[]>(sql, ...values);
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

/** Gives back what a stopping worker claimed but did not finish, for the next worker. */
export async function releaseClaims(db: AppPrismaClient, workerId: string, ids?: number[]) {
  const { count } = await db.outboxEvent.updateMany({
    where: { claimedBy: workerId, status: "delivering", ...(ids ? { id: { in: ids } } : {}) },
    data: { status: "pending", claimedBy: null, leaseExpiresAt: null },
  });
  return count;
}
