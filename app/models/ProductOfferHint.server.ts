import { setTimeout } from "node:timers/promises";
import type { AppPrismaClient } from "../db/client.server";
import { isUniqueViolation } from "./WebhookReceipt.server";
import {
  nextHintedVariants,
  readHintedVariants,
  serializeHintedVariants,
} from "../storefront/offer-hint";

/** A product's hint as stored: what the app knows, and what Shopify's metafield holds. */
export interface StoredOfferHint {
  withoutPlans: string;
  published: string | null;
}

/**
 * Read-modify-write rounds before giving up. Each round one of the writers racing on a product
 * wins, and the others wait a random few milliseconds before reading again, so even a burst of
 * a product's variants noted at once (a cold start under traffic) lands well within this.
 */
const MAX_ATTEMPTS = 20;
const RETRY_JITTER_MS = 5;

/**
 * Records one lookup's answer for a variant of a product, and returns the hint as it then
 * stands; `null` for a product with no hint at all (every variant seen so far has plans), which
 * needs no row and no metafield. Safe across processes: each write is conditional on the value it was computed from,
 * so two instances noting two variants of one product at once both land.
 */
export async function recordVariantPlans(
  db: AppPrismaClient,
  shop: string,
  productId: string,
  variantId: string,
  offered: boolean,
): Promise<StoredOfferHint | null> {
  const where = { shop_productId: { shop, productId } };
  for (let attempt = 1; ; attempt += 1) {
    const row = await db.productOfferHint.findUnique({
      where,
      select: { withoutPlans: true, published: true },
    });
    const current = readHintedVariants(row?.withoutPlans);
    const next = nextHintedVariants(current, variantId, offered);
    if (next === undefined) return row;
    const withoutPlans = serializeHintedVariants(next);
    if (!row) {
      const created = await db.productOfferHint
        .create({ data: { shop, productId, withoutPlans } })
        .then(
          () => true,
          (error: unknown) => {
            // Created by another process in between: computed again below; anything else fails.
            if (isUniqueViolation(error)) return false;
            throw error;
          },
        );
      if (created) return { withoutPlans, published: null };
    } else {
      const { count } = await db.productOfferHint.updateMany({
        where: { shop, productId, withoutPlans: row.withoutPlans },
        data: { withoutPlans },
      });
      if (count === 1) return { withoutPlans, published: row.published };
    }
    // Another process wrote the product in between (or created it): compute again from its value.
    if (attempt === MAX_ATTEMPTS) {
      throw new Error(`The offer hint of product ${productId} kept changing; not recorded`);
    }
    await setTimeout(Math.random() * RETRY_JITTER_MS * Math.min(attempt, 4));
  }
}

export async function findOfferHint(
  db: AppPrismaClient,
  shop: string,
  productId: string,
): Promise<StoredOfferHint | null> {
  return db.productOfferHint.findUnique({
    where: { shop_productId: { shop, productId } },
    select: { withoutPlans: true, published: true },
  });
}

/** Shopify now holds `value`; kept only if the app's own value is still the same. */
export async function markOfferHintPublished(
  db: AppPrismaClient,
  shop: string,
  productId: string,
  value: string,
  now = new Date(),
): Promise<boolean> {
  const { count } = await db.productOfferHint.updateMany({
    where: { shop, productId, withoutPlans: value },
    data: { published: value, publishedAt: now, lastError: null },
  });
  return count === 1;
}

/** The last publish failed, and why: shown to whoever reads the table, retried on a later view. */
export async function markOfferHintFailed(
  db: AppPrismaClient,
  shop: string,
  productId: string,
  reason: string,
) {
  await db.productOfferHint.updateMany({
    where: { shop, productId },
    data: { lastError: reason.slice(0, 1000) },
  });
}
