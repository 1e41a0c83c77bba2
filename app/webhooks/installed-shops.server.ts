import type { AppPrismaClient } from "../db/client.server";

/** How long a shop found installed is taken as installed without asking the database again. */
const INSTALLED_TTL_MS = 60_000;
const MAX_CACHED_SHOPS = 10_000;

const installedUntil = new Map<string, number>();

/**
 * True when the shop installed the app and has not uninstalled it: a connection that is not
 * `uninstalled`, or an offline session (token exchange stores it before anything else). Only a
 * "yes" is cached, briefly, so order webhooks do not read the database for it on every delivery
 * (decision 009), while a shop installed a moment ago is seen at once.
 */
export async function isInstalledShop(
  db: AppPrismaClient,
  shop: string,
  now = Date.now(),
): Promise<boolean> {
  const until = installedUntil.get(shop);
  if (until !== undefined && until > now) return true;
  const [connection, session] = await Promise.all([
    db.shopConnection.findUnique({ where: { shop }, select: { status: true } }),
    db.session.findFirst({ where: { shop, isOnline: false }, select: { id: true } }),
  ]);
  const installed =
    (connection !== null && connection.status !== "uninstalled") || session !== null;
  if (installed) {
    if (installedUntil.size >= MAX_CACHED_SHOPS) installedUntil.clear();
    installedUntil.set(shop, now + INSTALLED_TTL_MS);
  } else {
    installedUntil.delete(shop);
  }
  return installed;
}

/** True when the app holds anything for the shop: a connection in any state, or a session. */
export async function isKnownShop(db: AppPrismaClient, shop: string): Promise<boolean> {
  const [connection, session] = await Promise.all([
    db.shopConnection.findUnique({ where: { shop }, select: { id: true } }),
    db.session.findFirst({ where: { shop }, select: { id: true } }),
  ]);
  return connection !== null || session !== null;
}

/** After app/uninstalled or shop/redact: the next delivery asks the database again. */
export function forgetInstalledShop(shop: string) {
  installedUntil.delete(shop);
}
