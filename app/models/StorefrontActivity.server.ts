import type { AppPrismaClient } from "../db/client.server";
import type { Logger } from "../logger.server";
import type { AdminGraphql } from "../services/admin-api.server";
import { updateOfferHint } from "../storefront/offer-hints.server";

/**
 * What the app proxy learns about a storefront: that the embed runs (it reports carts), that
 * the offer block runs (it looks up plans), and which variants were offered plans. The admin's
 * checklist and attach rate read it; the offer block's layout hint is kept from it too
 * (decision 014). Each fact is written at most once per NOTE_INTERVAL_MS per process, so a busy
 * storefront costs no write per page view.
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

export interface OfferLookupNote {
  variantId: string;
  /** The variant's product, when the block sent it: its layout hint is kept. */
  productId?: string;
  /** Whether the service had plans for the variant. */
  offered: boolean;
  /** The shop's Admin API through its offline session, to publish the hint; absent without one. */
  graphql?: AdminGraphql;
  log: Logger;
}

/** The offer block looked up plans for a variant. */
export async function noteOfferLookup(
  db: AppPrismaClient,
  shop: string,
  note: OfferLookupNote,
  now = new Date(),
) {
  const { variantId, productId, offered } = note;
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
  // Keyed by the answer too: a variant whose plans come or go is recorded at once.
  if (productId && isDue(`hint:${shop}:${productId}:${variantId}:${offered}`, now.getTime())) {
    await updateOfferHint(db, { shop, productId, variantId, offered }, note.graphql, note.log);
  }
}

/** Forgets what was noted, so that the next call writes (tests). */
export function forgetStorefrontActivity() {
  lastNoted.clear();
}
