import type { AppPrismaClient } from "../db/client.server";
import type { Logger } from "../logger.server";

/**
 * What the app proxy learns about a storefront: that the embed runs (it reports carts), that
 * the offer block runs (it looks up plans), and which variants were offered plans. The admin's
 * checklist and attach rate read it, and it says when the offer block's layout hint is due
 * (decision 014). Each fact is written at most once per NOTE_INTERVAL_MS per process, so a busy
 * storefront costs no write per page view.
 */
const NOTE_INTERVAL_MS = 10 * 60_000;
const MAX_REMEMBERED = 50_000;
const lastNoted = new Map<string, number>();
/**
 * New variants a shop's storefront may note per NOTE_INTERVAL_MS per process. Variant IDs come
 * from visitors; when Shopify could not check them (no offline session), this bounds the rows a
 * visitor can create (decision 016). Far above what a real catalogue's views add in 10 minutes.
 */
export const MAX_NEW_VARIANTS_PER_INTERVAL = 2_000;
const newVariants = new Map<string, { since: number; count: number }>();

/** Counts one new variant for the shop: how many it has noted in this interval, this one included. */
function countNewVariant(shop: string, now: number): number {
  let window = newVariants.get(shop);
  if (!window || now - window.since >= NOTE_INTERVAL_MS) {
    if (newVariants.size >= MAX_REMEMBERED) newVariants.clear();
    window = { since: now, count: 0 };
    newVariants.set(shop, window);
  }
  window.count += 1;
  return window.count;
}

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

export interface OfferLookupNote {
  variantId: string;
  /** The variant's product, when the block sent it: its layout hint is kept. */
  productId?: string;
  /** Whether the service had plans for the variant. */
  offered: boolean;
  log: Logger;
}

/**
 * The offer block looked up plans for a variant. True when the product's layout hint is due an
 * update: the caller (the storefront) keeps it, so that this model calls no API.
 */
export async function noteOfferLookup(
  db: AppPrismaClient,
  shop: string,
  note: OfferLookupNote,
  now = new Date(),
): Promise<boolean> {
  const { variantId, productId, offered } = note;
  if (isDue(`block:${shop}`, now.getTime())) {
    await db.shopConnection.updateMany({ where: { shop }, data: { offerBlockSeenAt: now } });
  }
  const variantKey = `variant-seen:${shop}:${variantId}`;
  if (!lastNoted.has(variantKey)) {
    const count = countNewVariant(shop, now.getTime());
    if (count > MAX_NEW_VARIANTS_PER_INTERVAL) {
      // Logged once per interval: under a flood of made-up IDs one line says it all.
      if (count === MAX_NEW_VARIANTS_PER_INTERVAL + 1) {
        note.log.warn(
          { variantId },
          `Not noting new variants of ${shop} for 10 minutes: over ${MAX_NEW_VARIANTS_PER_INTERVAL} arrived`,
        );
      }
      return false;
    }
    if (lastNoted.size >= MAX_REMEMBERED) lastNoted.clear();
    lastNoted.set(variantKey, now.getTime());
  }
  if (offered && isDue(`variant:${shop}:${variantId}`, now.getTime())) {
    await db.protectableVariant.upsert({
      where: { shop_variantId: { shop, variantId } },
      create: { shop, variantId, lastOfferedAt: now },
      update: { lastOfferedAt: now },
    });
  }
  // Keyed by the answer too: a variant whose plans come or go is recorded at once.
  return (
    Boolean(productId) && isDue(`hint:${shop}:${productId}:${variantId}:${offered}`, now.getTime())
  );
}

/** Forgets what was noted, so that the next call writes (tests). */
export function forgetStorefrontActivity() {
  lastNoted.clear();
  newVariants.clear();
}
