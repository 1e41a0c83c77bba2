import { providerOfClient, type AppPrismaClient } from "../db/client.server";

export interface ClaimOptions {
  workerId: string;
  limit: number;
  /**
   * The time to compare due dates and leases with. Leave it out in production: the database's
   * clock is used, so that workers whose clocks differ still agree on when a lease ends.
   */
  now?: Date;
  /** A claim older than this is presumed lost (its worker crashed) and may be taken again. */
  leaseMs: number;
}

/** Builds raw SQL for both databases: SQLite numbers `?` by position, PostgreSQL by `$n`. */
export function sqlBuilder(db: AppPrismaClient) {
  const postgres = providerOfClient(db) === "postgresql";
  const values: unknown[] = [];
  const param = (value: unknown, cast = "") => {
    values.push(value);
    return postgres ? `$${values.length}${cast}` : "?";
  };
  // Dates are `timestamp(3)` in UTC on PostgreSQL and epoch milliseconds on SQLite.
  const time = (date: Date) =>
    postgres ? param(date.toISOString().replace("Z", ""), "::timestamp") : param(date.getTime());
  const clock = postgres
    ? `(clock_timestamp() AT TIME ZONE 'UTC')`
    : `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;
  const plusMs = (expression: string, ms: number) =>
    postgres
      ? `(${expression} + ${param(ms, "::integer")} * interval '1 millisecond')`
      : `(${expression} + ${param(ms, "")})`;
  /** `now` when a caller simulates time, the database's own clock otherwise. */
  const nowOr = (now: Date | undefined) => (now ? time(now) : clock);
  return { postgres, values, param, plusMs, nowOr };
}

/**
 * Claims up to `limit` events that are due, for one worker, and returns their IDs in send order.
 *
 * An event is due when its environment may be sent to (the shop is installed, readable, and
 * that environment has a key the service has not refused), its time has come (or an earlier
 * claim's lease ran out), and, unless it is the order's order_placed, that order_placed was
 * delivered to the same environment and no earlier event of the order is still open. So per
 * order at most one event is in flight, and order_placed always goes first.
 *
 * A claim is only a reservation: before each send the worker renews it with `startSend`, and
 * skips the send when another worker has taken the row meanwhile.
 *
 * On PostgreSQL the rows are locked with FOR UPDATE SKIP LOCKED: concurrent workers never
 * claim one row twice and never wait on each other. SQLite serialises its writes.
 */
export async function claimDueEvents(
  db: AppPrismaClient,
  options: ClaimOptions,
): Promise<number[]> {
  return claimRows(db, {
    ...options,
    table: "OutboxEvent",
    claimedStatus: "delivering",
    // Beside being due: the environment may be sent to, and the order's turn has come.
    where: `
      EXISTS (
        SELECT 1 FROM "ShopConnection" c
        WHERE c."shop" = r."shop" AND c."status" NOT IN ('uninstalled', 'secret_unreadable')
          AND (
            (r."environment" = 'production' AND c."liveSecretKeySealed" IS NOT NULL
              AND c."liveKeyRejectedAt" IS NULL)
            OR (r."environment" <> 'production' AND c."sandboxSecretKeySealed" IS NOT NULL
              AND c."sandboxKeyRejectedAt" IS NULL)
          )
      )
      AND (
        r."eventType" = 'order_placed'
        OR (
          EXISTS (
            SELECT 1 FROM "OutboxEvent" p
            WHERE p."shop" = r."shop" AND p."orderId" = r."orderId"
              AND p."eventType" = 'order_placed' AND p."status" = 'delivered'
              AND p."environment" = r."environment"
          )
          AND NOT EXISTS (
            SELECT 1 FROM "OutboxEvent" b
            WHERE b."shop" = r."shop" AND b."orderId" = r."orderId" AND b."id" < r."id"
              AND b."eventType" <> 'order_placed'
              AND b."status" IN ('pending', 'delivering', 'failed')
          )
        )
      )`,
  });
}

/** A claim of rows of one queue table: the outbox's, or the Shopify actions' (decision 022). */
export interface ClaimRowsOptions extends ClaimOptions {
  table: "OutboxEvent" | "ShopifyAction";
  /** The status of a claimed row; `pending` and `failed` rows are due at `nextAttemptAt`. */
  claimedStatus: string;
  /**
   * What else makes a row (alias `r`) claimable: SQL without parameters, or built with the
   * claim's own builder and clock (`nowOr(now)`), whose parameters then fall in place.
   */
  where: string | ((sql: ReturnType<typeof sqlBuilder>) => string);
  /**
   * On PostgreSQL, a claim first takes this transaction-level advisory lock: claims of the queue
   * then run one at a time, and each sees the rows the one before it claimed (decision 045).
   */
  advisoryLock?: number;
}

/**
 * Claims up to `limit` due rows of a queue in one `UPDATE … WHERE id IN (SELECT …) RETURNING`,
 * and returns their IDs in id order. A row is due when its time has come or an earlier claim's
 * lease ran out. On PostgreSQL the rows are locked with FOR UPDATE SKIP LOCKED: concurrent
 * workers never claim one row twice and never wait on each other. SQLite serialises its writes.
 */
export async function claimRows(db: AppPrismaClient, options: ClaimRowsOptions) {
  // Parameters are added in the order they appear in the text (SQLite's `?` are positional).
  const sql = sqlBuilder(db);
  const { param, plusMs, nowOr } = sql;
  const { table, claimedStatus, now } = options;
  const text = `
    UPDATE "${table}"
    SET "status" = ${param(claimedStatus)}, "claimedBy" = ${param(options.workerId)},
        "leaseExpiresAt" = ${plusMs(nowOr(now), options.leaseMs)},
        "updatedAt" = ${nowOr(now)}
    WHERE "id" IN (
      SELECT r."id" FROM "${table}" r
      WHERE (
          (r."status" IN ('pending', 'failed') AND r."nextAttemptAt" <= ${nowOr(now)})
          OR (r."status" = ${param(claimedStatus)} AND r."leaseExpiresAt" < ${nowOr(now)})
        )
        AND ${typeof options.where === "string" ? options.where : options.where(sql)}
      ORDER BY r."id"
      LIMIT ${param(options.limit)}
      ${sql.postgres ? "FOR UPDATE OF r SKIP LOCKED" : ""}
    )
    RETURNING "id"`;
  type Row = { id: number | bigint };
  const { advisoryLock } = options;
  const rows =
    sql.postgres && advisoryLock !== undefined
      ? await db.$transaction(async (tx) => {
          // Its own statement: the claim's snapshot is taken once the lock is held.
          await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${Math.trunc(advisoryLock)})`);
          return tx.$queryRawUnsafe<Row[]>(text, ...sql.values);
        })
      : await db.$queryRawUnsafe<Row[]>(text, ...sql.values);
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

export interface StartedSend {
  /** The attempt this send is (1 for the first), counted before the request goes out. */
  attempt: number;
  /** When the send started, by the clock the lease is measured with. */
  startedAt: Date;
}

/**
 * Renews this worker's claim on one event for one send, by the database's clock, and counts the
 * attempt before it is made. Null when the row is no longer this worker's (its lease ran out and
 * another worker took it, or it was released): the caller must not send.
 */
export async function startSend(
  db: AppPrismaClient,
  options: { id: number; workerId: string; leaseMs: number; now?: Date },
): Promise<StartedSend | null> {
  const sql = sqlBuilder(db);
  const text = `
    UPDATE "OutboxEvent"
    SET "leaseExpiresAt" = ${sql.plusMs(sql.nowOr(options.now), options.leaseMs)},
        "attempts" = "attempts" + 1, "lastAttemptAt" = ${sql.nowOr(options.now)},
        "updatedAt" = ${sql.nowOr(options.now)}
    WHERE "id" = ${sql.param(options.id)} AND "claimedBy" = ${sql.param(options.workerId)}
      AND "status" = 'delivering'
    RETURNING "attempts", "lastAttemptAt"`;
  const rows = await db.$queryRawUnsafe<
    { attempts: number | bigint; lastAttemptAt: Date | string | number | bigint }[]
  >(text, ...sql.values);
  const row = rows[0];
  if (!row) return null;
  return { attempt: Number(row.attempts), startedAt: toDate(row.lastAttemptAt) };
}

/** A timestamp as raw SQL returns it: a Date, epoch milliseconds, or UTC text without a zone. */
function toDate(value: Date | string | number | bigint): Date {
  if (value instanceof Date) return value;
  if (typeof value === "string")
    return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return new Date(Number(value));
}

/** Gives back what a stopping worker claimed but did not start, for the next worker. */
export async function releaseClaims(db: AppPrismaClient, workerId: string, ids?: number[]) {
  const { count } = await db.outboxEvent.updateMany({
    where: { claimedBy: workerId, status: "delivering", ...(ids ? { id: { in: ids } } : {}) },
    data: { status: "pending", claimedBy: null, leaseExpiresAt: null },
  });
  return count;
}

/**
 * Follow-ups recorded before their order's order_placed take the environment the order_placed
 * was then recorded in (decision 018). Recording a placement stays free of this extra work (new
 * orders are group-committed without reads), so the rare early follow-ups (a refund before the
 * orders/create, across a switch of environment) are moved here, by the worker.
 */
export async function alignFollowUpEnvironments(db: AppPrismaClient): Promise<number> {
  return db.$executeRawUnsafe(`
    UPDATE "OutboxEvent"
    SET "environment" = (
      SELECT p."environment" FROM "OutboxEvent" p
      WHERE p."shop" = "OutboxEvent"."shop" AND p."orderId" = "OutboxEvent"."orderId"
        AND p."eventType" = 'order_placed'
    )
    WHERE "eventType" <> 'order_placed' AND "status" IN ('pending', 'failed')
      AND EXISTS (
        SELECT 1 FROM "OutboxEvent" p
        WHERE p."shop" = "OutboxEvent"."shop" AND p."orderId" = "OutboxEvent"."orderId"
          AND p."eventType" = 'order_placed' AND p."environment" <> "OutboxEvent"."environment"
      )`);
}
