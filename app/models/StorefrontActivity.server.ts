import type { AppPrismaClient } from "../db/client.server";

/**
 * What the app proxy learns about a storefront: that the embed runs (it reports carts), that
 * the offer block runs (it looks up plans), and which variants were offered plans. The admin's
 * checklist and attach rate read it. Each fact is written at most once per NOTE_INTERVAL_MS per
 * process, so a busy storefront costs no write per page view.
 */
const NOTE_INTERVAL_MS = 10 * 60_000;
const MAX_REMEMBERED = 50_000;
const lastNoted = new Map<string, number>();

function isDue(key: string, now: number): boolean {
  const last = lastNoted.get(key);
  if (last !== undefined && now - last < NOTE_INTERVAL_MS) return false;
  if (lastNoted.size >= MAX_REMEMBERED) lastNoted.clear();
  lastNoted.set(key, now);
  return true;
}

/** The embed reported a cart. */
export async function noteEmbedSeen(db: AppPrismaClient, shop: string, now = new Date()) {
  if (!isDue(`embed:${shop}`, now.getTime())) return;
  await db.shopConnection.updateMany({ where: { shop }, data: { embedSeenAt: now } });
}

/** The offer block looked up plans for a variant; `offered` when the service had plans. */
export async function noteOfferLookup(
  db: AppPrismaClient,
  shop: string,
  variantId: string,
  offered: boolean,
  now = new Date(),
) {
  if (isDue(`block:${shop}`, now.getTime())) {
    await db.shopConnection.updateMany({ where: { shop }, data: { offerBlockSeenAt: now } });
  }
  if (offered && isDue(`variant:${shop}:${variantId}`, now.getTime())) {
    await db.protectableVariant.upsert({
      where: { shop_variantId: { shop, variantId } },
      create: { shop, variantId, lastOfferedAt: now },
      update: { lastOfferedAt: now },
    });
  }
}

/** Forgets what was noted, so that the next call writes (tests). */
export function forgetStorefrontActivity() {
  lastNoted.clear();
}
