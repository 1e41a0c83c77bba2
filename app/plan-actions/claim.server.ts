import type { AppPrismaClient } from "../db/client.server";
import { claimRows, sqlBuilder } from "../outbox/claim.server";

/*
 * Claims on queued Shopify actions, as the outbox claims its events (decision 018): a claim is a
 * lease on the database's clock, renewed before each step that changes Shopify, and an action
 * whose worker died is taken again once its lease ran out.
 */

export interface ActionClaimOptions {
  workerId: string;
  limit: number;
  leaseMs: number;
  /** Simulated time for tests; production uses the database's clock. */
  now?: Date;
}

/**
 * The shop has the app, no earlier action of the order is still open, and no other action of the
 * order is running under a live lease: a later one may run while the merchant's "Run now" makes
 * an earlier one due again (issue 27). `now` is the claim's clock, as the due test uses it.
 */
function turnOf({ nowOr }: ReturnType<typeof sqlBuilder>, now: Date | undefined) {
  return `
  EXISTS (
    SELECT 1 FROM "ShopConnection" c WHERE c."shop" = r."shop" AND c."status" <> 'uninstalled'
  )
  AND NOT EXISTS (
    SELECT 1 FROM "ShopifyAction" b
    WHERE b."shop" = r."shop" AND b."orderId" = r."orderId" AND b."id" <> r."id"
      AND (
        (b."id" < r."id" AND b."status" IN ('pending', 'running', 'failed'))
        OR (b."status" = 'running' AND b."leaseExpiresAt" >= ${nowOr(now)})
      )
  )`;
}

/**
 * PostgreSQL's advisory lock key of this claim ("svca" in ASCII; the migrations use another).
 * Without it, two workers' claims could each miss the other's uncommitted claim of the same
 * order's action, as their snapshots are taken at once; SQLite runs one write at a time anyway.
 */
const ACTION_CLAIM_LOCK = 0x73766361;

/**
 * Claims up to `limit` due actions and returns their IDs in the order they run. An action is
 * due when its time has come (or an earlier claim's lease ran out), its shop has the app, no
 * earlier action of its order is still open and no other action of its order is running: an
 * order's actions run one at a time, in the order they were recorded, so each reads what the
 * one before it did, and one the merchant runs again waits for the one running.
 */
export function claimDueActions(db: AppPrismaClient, options: ActionClaimOptions) {
  return claimRows(db, {
    ...options,
    table: "ShopifyAction",
    claimedStatus: "running",
    where: (sql) => turnOf(sql, options.now),
    advisoryLock: ACTION_CLAIM_LOCK,
  });
}

/**
 * Renews this worker's claim on one action, by the database's clock. `startAttempt` also
 * counts the attempt; `request` records the refund about to be sent. Null when the row is no
 * longer this worker's: the caller must not act.
 */
export async function renewActionClaim(
  db: AppPrismaClient,
  options: {
    id: number;
    workerId: string;
    leaseMs: number;
    now?: Date;
    startAttempt?: boolean;
    request?: string;
  },
): Promise<{ attempts: number } | null> {
  const sql = sqlBuilder(db);
  const { param, plusMs, nowOr } = sql;
  const sets = [`"leaseExpiresAt" = ${plusMs(nowOr(options.now), options.leaseMs)}`];
  if (options.startAttempt) {
    sets.push(`"attempts" = "attempts" + 1`, `"lastAttemptAt" = ${nowOr(options.now)}`);
  }
  if (options.request !== undefined) sets.push(`"request" = ${param(options.request)}`);
  sets.push(`"updatedAt" = ${nowOr(options.now)}`);
  const text = `
    UPDATE "ShopifyAction" SET ${sets.join(", ")}
    WHERE "id" = ${param(options.id)} AND "claimedBy" = ${param(options.workerId)}
      AND "status" = 'running'
    RETURNING "attempts"`;
  const rows = await db.$queryRawUnsafe<{ attempts: number | bigint }[]>(text, ...sql.values);
  return rows[0] ? { attempts: Number(rows[0].attempts) } : null;
}

/** Gives back what a stopping worker claimed but did not start, due at `at` (now by default). */
export async function releaseActions(
  db: AppPrismaClient,
  workerId: string,
  ids?: number[],
  at?: Date,
) {
  const { count } = await db.shopifyAction.updateMany({
    where: { claimedBy: workerId, status: "running", ...(ids ? { id: { in: ids } } : {}) },
    data: {
      status: "pending",
      claimedBy: null,
      leaseExpiresAt: null,
      ...(at ? { nextAttemptAt: at } : {}),
    },
  });
  return count;
}
