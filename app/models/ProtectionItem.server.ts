import type { AppPrismaClient } from "../db/client.server";
import type { Strategy } from "../protection-items/strategies";

/** A protection item to store: a variant of the shop that the service sells as a plan. */
export interface ProtectionItemInput {
  strategy: Strategy;
  productId: string;
  variantId: string;
  title: string;
  /** Minor units of `currency`; null for a one-to-all item, whose price is dynamic. */
  priceAmount: number | null;
  currency: string | null;
  category: string | null;
  createdByApp: boolean;
}

/** The shop's protection items, oldest first, so a merchant's list keeps its order. */
export function listProtectionItems(db: AppPrismaClient, shop: string) {
  return db.protectionItem.findMany({
    where: { shop },
    orderBy: [{ createdAt: "asc" }, { title: "asc" }, { variantId: "asc" }],
  });
}

/**
 * Stores the items in one transaction: all or none. A variant that is already an item of the
 * shop takes the new strategy, title and price; it keeps its category when none is given, and
 * stays "created by the app" if it was.
 */
export function saveProtectionItems(
  db: AppPrismaClient,
  shop: string,
  items: readonly ProtectionItemInput[],
) {
  return db.$transaction(
    items.map((item) =>
      db.protectionItem.upsert({
        where: { shop_variantId: { shop, variantId: item.variantId } },
        create: { shop, ...item },
        update: {
          strategy: item.strategy,
          productId: item.productId,
          title: item.title,
          priceAmount: item.priceAmount,
          currency: item.currency,
          ...(item.category !== null ? { category: item.category } : {}),
          ...(item.createdByApp ? { createdByApp: true } : {}),
        },
      }),
    ),
  );
}

/**
 * Forgets one item of the shop. The Shopify product stays as it is. False when the shop has no
 * item with that ID (another shop's item is never touched).
 */
export async function removeProtectionItem(
  db: AppPrismaClient,
  shop: string,
  id: string,
): Promise<boolean> {
  const { count } = await db.protectionItem.deleteMany({ where: { id, shop } });
  return count === 1;
}
