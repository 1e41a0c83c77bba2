import type { AppPrismaClient } from "../db/client.server";

/** A product's hint as stored: what the app knows, and what Shopify's metafield holds. */
export interface StoredOfferHint {
  /** The variants whose last answer had no plans, in no particular order. */
  withoutPlans: string[];
  /** The JSON array of variant IDs Shopify holds, null until the first publish. */
  published: string | null;
}

/**
 * Records one lookup's answer for a variant of a product. An upsert of the variant's own row, so
 * repeating it, or two instances noting variants of one product at once, needs no retry.
 */
export async function recordVariantPlans(
  db: AppPrismaClient,
  shop: string,
  productId: string,
  variantId: string,
  offered: boolean,
): Promise<void> {
  await db.productOfferHint.upsert({
    where: { shop_productId_variantId: { shop, productId, variantId } },
    create: { shop, productId, variantId, withoutPlans: !offered },
    update: { withoutPlans: !offered },
  });
}

/** `null` for a product with nothing to publish: no variant without plans, never published. */
export async function findOfferHint(
  db: AppPrismaClient,
  shop: string,
  productId: string,
): Promise<StoredOfferHint | null> {
  const [variants, publish] = await Promise.all([
    db.productOfferHint.findMany({
      where: { shop, productId, withoutPlans: true },
      select: { variantId: true },
    }),
    db.productOfferHintPublish.findUnique({
      where: { shop_productId: { shop, productId } },
      select: { published: true },
    }),
  ]);
  if (variants.length === 0 && !publish) return null;
  return {
    withoutPlans: variants.map((variant) => variant.variantId),
    published: publish?.published ?? null,
  };
}

/** Shopify now holds `published` (a JSON array of variant IDs). */
export async function markOfferHintPublished(
  db: AppPrismaClient,
  shop: string,
  productId: string,
  published: string,
  now = new Date(),
): Promise<void> {
  const data = { published, publishedAt: now, lastError: null };
  await db.productOfferHintPublish.upsert({
    where: { shop_productId: { shop, productId } },
    create: { shop, productId, ...data },
    update: data,
  });
}

/** The last publish failed, and why: shown to whoever reads the table, retried on a later view. */
export async function markOfferHintFailed(
  db: AppPrismaClient,
  shop: string,
  productId: string,
  reason: string,
): Promise<void> {
  const lastError = reason.slice(0, 1000);
  await db.productOfferHintPublish.upsert({
    where: { shop_productId: { shop, productId } },
    create: { shop, productId, lastError },
    update: { lastError },
  });
}
