import type { AppPrismaClient } from "../db/client.server";
import { isUniqueViolation } from "../lib/unique-violation";

/*
 * The refresh of a shop's expiring offline token that is under way (decision 042): one process
 * at a time calls Shopify's token endpoint for a shop. A row, not an advisory lock, so that it
 * holds behind PgBouncer's transaction pooling and on SQLite alike, and no transaction stays
 * open while Shopify answers. The holder deletes it when done; a holder that died leaves a row
 * whose expiry lets the next caller take it over.
 */

/** Takes the shop's lease for `ttlMs` unless another owner holds one that has not expired. */
export async function acquireTokenRefreshLease(
  db: AppPrismaClient,
  shop: string,
  owner: string,
  now: Date,
  ttlMs: number,
): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const takenOver = await db.tokenRefreshLease.updateMany({
    where: { shop, expiresAt: { lte: now } },
    data: { owner, expiresAt },
  });
  if (takenOver.count === 1) return true;
  try {
    await db.tokenRefreshLease.create({ data: { shop, owner, expiresAt } });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Ends the owner's lease; a lease another owner has taken over since is left alone. */
export async function releaseTokenRefreshLease(
  db: AppPrismaClient,
  shop: string,
  owner: string,
): Promise<void> {
  await db.tokenRefreshLease.deleteMany({ where: { shop, owner } });
}
